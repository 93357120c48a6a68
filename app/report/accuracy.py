"""How accurate the method is: residual errors against published measurements.

The calibration cases ship with the program (resources/calibration/calibration_cases.json,
found through :func:`app.paths.calibration_cases` from a checkout, an installation or a frozen
bundle alike), and the figures are computed now with the engine's own calibration code
(:mod:`app.engine.calibration`), so the report states what this version of the method
achieves. Only when the file cannot be read does the report state the figures recorded in
docs/METHOD.md, section "Calibration", table "Residual errors after the fit"; ``RECORDED`` is
a copy of that table, and tests/report/test_texts.py checks that it still matches the
document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from app import paths
from app.domain.catalog import Catalog

CASES_FILE = Path("resources") / "calibration" / "calibration_cases.json"  # as the report cites it
METHOD_FILE = Path("docs") / "METHOD.md"

# docs/METHOD.md, "Calibration" > "Residual errors after the fit" (fit of 2026-11-30):
# metric group -> (cases, median |error|, 90th percentile |error|, worst factor).
RECORDED: dict[str, tuple[int, float, float, float]] = {
    "saturation throughput": (65, 0.052, 0.177, 1.31),
    "single-user decode": (14, 0.050, 0.151, 1.45),
    "TTFT": (12, 0.101, 0.281, 1.38),
}
RECORDED_SOURCE = "docs/METHOD.md, Calibration: residual errors after the fit (2026-11-30)"


@dataclass(frozen=True)
class Accuracy:
    """Residual errors per metric group, and where they come from."""

    rows: dict[str, tuple[int, float, float, float]]
    computed: bool
    source: str
    cases: int = field(default=0)


def cases_path() -> Path:
    return paths.calibration_cases()


def recorded() -> Accuracy:
    return Accuracy(dict(RECORDED), computed=False, source=RECORDED_SOURCE,
                    cases=sum(row[0] for row in RECORDED.values()))


def compute(catalog: Catalog, path: Path | None = None) -> Accuracy:
    """Residual errors of the engine against the case file (ValueError/OSError if unreadable)."""
    from app.engine.calibration import normalise_case, run_cases, summarise

    path = path or cases_path()
    cases = [normalise_case(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]
    summary = summarise(run_cases(cases, catalog))
    rows = {group: (int(row["cases"]), row["median_abs_error"], row["p90_abs_error"],
                    row["worst_factor"]) for group, row in summary.items()}
    return Accuracy(rows, computed=True, source=f"{CASES_FILE.as_posix()} ({len(cases)} "
                    "published measurements), app.engine.calibration", cases=len(cases))


def accuracy(catalog: Catalog | None) -> Accuracy:
    """Computed when the case file and a catalog are at hand, else the recorded figures."""
    if catalog is not None and cases_path().is_file():
        try:
            return compute(catalog)
        except (OSError, ValueError, KeyError):
            pass
    return recorded()
