"""Cost: capital by line, yearly energy and colocation, total cost, cost per million tokens.

All prices are indicative, dated and sourced in the catalogs, and overridable per scenario;
a line without a published price is either estimated (and says how) or left out (and says so).
USD throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

SECONDS_PER_YEAR = 365.0 * 86_400.0


@dataclass(frozen=True)
class CostLine:
    item: str
    quantity: float
    unit_usd: float | None
    source: str
    estimated: bool = False
    #: (GPU name, GPUs each unit holds) for a system or server line; None for other lines.
    contents: tuple[str, int] | None = None
    #: The key a scenario's price list overrides it by (a catalog id, or "storage", "rack"...).
    key: str = ""

    @property
    def total_usd(self) -> float | None:
        return None if self.unit_usd is None else self.quantity * self.unit_usd


#: The source of a price the user entered in the scenario's price list (a catalog key: the
#: views translate it; its date follows as "(as of YYYY-MM-DD)" when the list has one).
ENTERED_PRICE = "price entered for this scenario"


def entered_price_source(as_of: object | None) -> str:
    """The source of an entered price: the list's date when it has one."""
    return f"{ENTERED_PRICE} (as of {as_of})" if as_of else ENTERED_PRICE


def storage_terabytes(total_bytes: float) -> float:
    """Usable storage as priced: TB (1e12 B), to two decimals [TB]."""
    return round(total_bytes / 1e12, 2)


def capital_usd(lines: list[CostLine]) -> float:
    """Sum of the priced lines [USD]."""
    return sum(line.total_usd for line in lines if line.total_usd is not None)


def annual_colocation_usd(it_power_w: float, usd_per_kw_month: float) -> float:
    """Colocation billed per kW of IT power per month [USD/year]."""
    return it_power_w / 1e3 * usd_per_kw_month * 12.0


def total_cost_usd(capital: float, annual_running: float, years: float) -> float:
    """Capital plus ``years`` of running cost [USD] (undiscounted)."""
    return capital + annual_running * years


def cost_per_million_tokens(capital: float, annual_running: float, years: float,
                            output_tokens_per_s: float, utilisation: float) -> float | None:
    """Cost per million output tokens at the planned load [USD/1e6 tokens].

    ``(capital / years + running per year) / tokens per year``, tokens per year =
    output tokens/s x utilisation x seconds per year.
    """
    tokens = output_tokens_per_s * utilisation * SECONDS_PER_YEAR
    if tokens <= 0 or years <= 0:
        return None
    return (capital / years + annual_running) / tokens * 1e6
