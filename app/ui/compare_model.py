"""Pinned configurations for the Compare page: option A against option B (up to four).

Plain Python, no widgets: a pinned option keeps its scenario dict and the SizingResult
computed once when it was pinned, so later edits of the current scenario do not change it.
:data:`KEY_FIGURES` turns a result into the texts of one column of the comparison table.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app import api
from app.domain.catalog import Catalog
from app.domain.result import SizingResult, priced_total
from app.i18n import msg, plural
from app.ui.text import render, t
from app.ui.units import gb, number, rate, seconds, usd, watts

MAX_OPTIONS = 4
LETTERS = "ABCD"


class ComparisonFull(ValueError):
    """A fifth option was pinned."""


@dataclass(frozen=True)
class PinnedOption:
    """One configuration frozen for comparison."""

    name: str
    scenario: dict
    result: SizingResult


class ComparisonSet:
    """Up to :data:`MAX_OPTIONS` pinned options, lettered A, B, C, D in pinning order."""

    def __init__(self) -> None:
        self.options: list[PinnedOption] = []

    def __len__(self) -> int:
        return len(self.options)

    @property
    def full(self) -> bool:
        return len(self.options) >= MAX_OPTIONS

    def letter(self, index: int) -> str:
        return LETTERS[index]

    def pin(self, data: dict, catalog: Catalog, name: str | None = None) -> PinnedOption:
        """Size ``data`` now and pin it (ComparisonFull, api.ScenarioError when it cannot)."""
        if self.full:
            raise ComparisonFull(t("At most {n} options can be compared; unpin one first.",
                                   n=MAX_OPTIONS))
        scenario = api.load_scenario(data)
        result = api.size(scenario, catalog)
        option = PinnedOption(name or scenario.name, copy.deepcopy(data), result)
        self.options.append(option)
        return option

    def pin_file(self, path: Path, catalog: Catalog) -> PinnedOption:
        """Pin a saved scenario file (raises api.ScenarioError with readable problems)."""
        return self.pin(api._parse(Path(path)), catalog)

    def unpin(self, index: int) -> None:
        del self.options[index]

    def clear(self) -> None:
        self.options.clear()


# --- key figures: one row of the table each (English label, text for a result) ------------
def _gpus(r: SizingResult) -> str:
    return f"{r.gpu.name} x {r.selection.chosen.gpus_per_replica}"


def _parallel(r: SizingResult) -> str:
    chosen = r.selection.chosen
    return t("{t} x {p} (tensor x pipeline)", t=chosen.tensor_parallel,
             p=chosen.pipeline_parallel)


def _precision(r: SizingResult) -> str:
    return f"{r.selection.chosen.precision} / {r.selection.chosen.kv_precision}"


def _vram(r: SizingResult) -> str:
    return f"{gb(r.memory.per_gpu_bytes)} / {gb(r.memory.gpu_usable_bytes)}"


def _users(r: SizingResult) -> str:
    capacity = r.performance.slo_capacity_per_replica
    return number(capacity, ",d") if capacity else t("none within the targets")


def _speed(r: SizingResult) -> str:
    """Tokens/s per user at the load; "does not fit" when the load does not fit."""
    if not r.verdict.fits:
        return t("does not fit")
    at = r.performance.at_concurrency
    return render(plural(at.concurrency, msg("{speed} at {users} user"),
                         msg("{speed} at {users} users"), speed=rate(at.tokens_per_s_per_user),
                         users=number(at.concurrency, ",.0f")))


def _nodes(r: SizingResult) -> str:
    """'2 x NVIDIA DGX H200': the server's product name (``ScaleResult.server_shown``)."""
    return f"{number(r.scale.nodes, ',d')} x {r.scale.server_shown}"


def _cost(r: SizingResult) -> str:
    cost = r.cost.capital_usd
    if cost is None:
        return t("no price in the catalog")
    return render(priced_total(usd(cost), r.cost.unpriced))


KEY_FIGURES: tuple[tuple[str, Callable[[SizingResult], str]], ...] = (
    ("Model", lambda r: r.model.name),
    ("GPU x count per replica", _gpus),
    ("Parallelism", _parallel),
    ("Precision / KV cache", _precision),
    ("Verdict", lambda r: t(r.verdict.state)),  # the result's one verdict
    ("Fits in memory", lambda r: t("yes") if r.verdict.fits else t("no")),
    ("VRAM per GPU (used / usable)", _vram),
    ("Max users per replica", _users),
    ("Tokens/s per user at load", _speed),
    ("TTFT at load", lambda r: seconds(r.performance.at_concurrency.ttft_s) if r.verdict.fits
     else t("does not fit")),
    ("Saturation throughput", lambda r: rate(r.performance.saturation.output_tokens_per_s)),
    ("Replicas", lambda r: number(r.scale.replicas, ",d")),
    ("GPUs total", lambda r: number(r.scale.gpus_total, ",d")),
    ("Nodes", _nodes),
    ("IT power", lambda r: watts(r.facility.it_power_w)),
    ("Indicative capital cost", _cost),
)


def passes(r: SizingResult, label: str) -> bool | None:
    """Whether the figure in row ``label`` meets its target (None: no target for it)."""
    met = r.performance.targets_met
    checks = {"Verdict": r.verdict.passed, "Fits in memory": r.verdict.fits,
              "Tokens/s per user at load": met.get("tokens_per_s_per_user"),
              "TTFT at load": met.get("ttft")}
    return checks.get(label)


def column(r: SizingResult) -> list[str]:
    """The texts of one option's column, in the order of :data:`KEY_FIGURES`."""
    return [figure(r) for _, figure in KEY_FIGURES]
