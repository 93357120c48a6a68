"""Numbers as users read them: GB and GiB both shown and labelled, localised separators."""

from __future__ import annotations

from app.i18n import localise_number
from app.ui.text import language

GB = 1e9
GIB = 2**30


def number(value: float, spec: str = ",.1f") -> str:
    """``value`` formatted with ``spec`` for the window's language."""
    return localise_number(format(value, spec), language())


def gb(value_bytes: float, digits: int = 1) -> str:
    """'12.3 GB' (1e9 B)."""
    return f"{number(value_bytes / GB, f',.{digits}f')} GB"


def gb_gib(value_bytes: float, digits: int = 1) -> str:
    """'12.3 GB (11.5 GiB)': both units, both labelled."""
    return f"{gb(value_bytes, digits)} ({number(value_bytes / GIB, f',.{digits}f')} GiB)"


def seconds(value: float) -> str:
    if value < 1:
        return f"{number(value * 1e3, ',.0f')} ms"
    return f"{number(value, ',.2f')} s"


def rate(value: float, unit: str = "tokens/s") -> str:
    digits = ",.1f" if value < 100 else ",.0f"
    return f"{number(value, digits)} {unit}"


def watts(value: float) -> str:
    return f"{number(value / 1e3, ',.1f')} kW"
