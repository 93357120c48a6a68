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
from app.domain.catalog import Catalog, CvResidual
from app.engine.cross_validation import (
    Residual,
    beyond,
    off_by,
    overall,
    residual_from_record,
)
from app.engine.uncertainty import coverage

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
    #: (cross-validated predictions inside their expected range, all) per range: rates, TTFT
    coverage: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: left-out dimension -> metric group -> (cases, median |error|, worst factor), from the
    #: shipped cross-validated residuals (empty when they were not at hand)
    cross_validated: dict[str, dict[str, tuple[int, float, float]]] = field(
        default_factory=dict)
    #: (cases off by more than 2x in at least one left-out fold, cases)
    beyond_two: tuple[int, int] = (0, 0)


def cases_path() -> Path:
    return paths.calibration_cases()


def read_cases(files: list[Path] | None = None) -> list[dict]:
    """Every case of the case files (default: those the program ships,
    :func:`app.paths.calibration_case_files`), in file order (OSError, ValueError)."""
    raws: list[dict] = []
    for path in files or paths.calibration_case_files():
        found = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(found, list) or not all(isinstance(r, dict) for r in found):
            raise ValueError(f"{path}: expected a JSON list of case objects")
        raws.extend(found)
    return raws


def cross_validation(catalog: Catalog, files: list[Path] | None = None) -> dict:
    """The cross-validated residuals of the case files, as ``make cross-validation`` writes
    them (``app.engine.cross_validation.document``)."""
    from app.engine.calibration import load_cases
    from app.engine.cross_validation import document, residuals_for

    files = files or paths.calibration_case_files()
    cases, skipped = load_cases(read_cases(files), catalog)
    names = [_shown(path) for path in files]
    return document(residuals_for(cases, catalog), names,
                    [{"id": s.id, "reason": s.reason} for s in skipped])


def _shown(path: Path) -> str:
    """``path`` relative to the program's root where it is inside it (as the report cites)."""
    try:
        return path.resolve().relative_to(paths.root().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


DIMENSION_NAMES = {"engine": "engine", "gpu_family": "GPU family", "model_kind": "model kind",
                   "weight_class": "weight format"}


def coverage_lines(found: dict[str, tuple[int, int]]) -> list[str]:
    """How many cross-validated predictions the expected ranges hold, per range and in all
    (``app.engine.uncertainty.coverage``; the target is 80 % +- 10)."""
    lines = ["Expected-range coverage (each case's range drawn from the other cases; target "
             "80 % +- 10)"]
    names = {"rates": "throughput and decode", "ttft": "TTFT"}
    for name, (inside, total) in found.items():
        lines.append(f"  {names[name]:<22} {inside:>4} of {total:>4} inside  "
                     f"{inside / total:6.1%}")
    inside = sum(i for i, _ in found.values())
    total = sum(n for _, n in found.values())
    lines.append(f"  {'all':<22} {inside:>4} of {total:>4} inside  {inside / total:6.1%}")
    lines.append("")
    return lines


def beyond_two_lines(residuals: list[Residual], limit: float = 2.0) -> list[str]:
    """The cases a left-out fit predicts more than ``limit`` times off (the issue's target:
    none): how many per left-out dimension and metric group, then each case with its
    predicted/measured ratio per fold, worst first."""
    groups = sorted({r.regime["metric_group"] for r in residuals})
    lines = [f"Cases off by more than {limit:g}x when their group is left out"]
    for dimension, name in DIMENSION_NAMES.items():
        off = beyond(residuals, limit, dimension)
        counts = [f"{group} {sum(r.regime['metric_group'] == group for r in off)} of "
                  f"{sum(r.regime['metric_group'] == group for r in residuals)}"
                  for group in groups]
        lines.append(f"  {name:<15} " + ", ".join(counts))
    off = beyond(residuals, limit)
    lines.append(f"  {len(off)} of {len(residuals)} cases in at least one fold (worst factor, "
                 "then predicted/measured with engine, GPU family, model kind, weight format "
                 "left out):")
    for r in off:
        regime = r.regime
        ratios = " ".join(f"{r.ratio(d):6.2f}" for d in DIMENSION_NAMES)
        lines.append(f"  x{off_by(r.worst_left_out_ratio):<6.1f} {r.case_id:<9} {r.metric:<27} "
                     f"{regime['engine']:<13} "
                     f"{regime['gpu_family']:<10} {regime['model_kind']:<6} "
                     f"{regime['weight_class']:<16} {ratios}")
    lines.append("")
    return lines


def cross_validation_lines(doc: dict) -> list[str]:
    """The cross-validated table as text: per left-out dimension and metric group first
    (its "all" rows), then per left-out level; the expected ranges' coverage; the skipped
    cases after."""
    table = doc["table"]
    lines = ["Cross-validated error (leave one group out: fit on the other groups, predict "
             "the left-out one)",
             f"{'left out':<15} {'group':<13} {'metric':<11} {'n':>4} {'median |error|':>15} "
             f"{'worst factor':>13}"]
    summary = [r for r in table if r["level"] == "all"]
    by_level = [r for r in table if r["level"] != "all"]
    for rows in (summary, by_level):
        lines += [f"{DIMENSION_NAMES[r['dimension']]:<15} {r['level']:<13} "
                  f"{r['metric_group']:<11} {r['n']:>4.0f} {r['median_abs_error']:>15.1%} "
                  f"{r['worst_factor']:>13.2f}" for r in rows]
        lines.append("")
    lines.append("In-sample: the same model fitted on every case")
    lines += [f"{'':<15} {'all':<13} {metric:<11} {stats['n']:>4.0f} "
              f"{stats['median_abs_error']:>15.1%} {stats['worst_factor']:>13.2f}"
              for metric, stats in doc["in_sample"].items()]
    lines.append("")
    lines += coverage_lines(coverage([CvResidual(**record) for record in doc["residuals"]]))
    lines += beyond_two_lines([residual_from_record(record) for record in doc["residuals"]])
    if doc["skipped"]:
        lines.append(f"Skipped ({len(doc['skipped'])} cases the engine cannot express):")
        lines += [f"  {s['id']}: {s['reason']}" for s in doc["skipped"]]
        lines.append("")
    return lines


def cross_validated(residuals: list[CvResidual]) -> dict[str, dict[str, tuple[int, float,
                                                                              float]]]:
    """Per left-out dimension and metric group: cases, median |error| and worst factor of the
    left-out predictions (``cross_validation.overall``)."""
    found = [residual_from_record(r.model_dump()) for r in residuals]
    return {dimension: {group: (int(stats["n"]), stats["median_abs_error"],
                                stats["worst_factor"])
                        for group, stats in overall(found, dimension).items()}
            for dimension in DIMENSION_NAMES} if found else {}


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
    residuals = catalog.cv_residuals
    off = beyond([residual_from_record(r.model_dump()) for r in residuals])
    return Accuracy(rows, computed=True, source=f"{CASES_FILE.as_posix()} ({len(cases)} "
                    "published measurements), app.engine.calibration", cases=len(cases),
                    coverage=coverage(residuals), cross_validated=cross_validated(residuals),
                    beyond_two=(len(off), len(residuals)))


def accuracy(catalog: Catalog | None) -> Accuracy:
    """Computed when the case file and a catalog are at hand, else the recorded figures."""
    if catalog is not None and cases_path().is_file():
        try:
            return compute(catalog)
        except (OSError, ValueError, KeyError):
            pass
    return recorded()
