"""Calibration accuracy: the method's errors against published measurements."""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from app.engine.narrative import range_message
from app.report.context import Context
from app.report.flowables import cell, heading, para
from app.report.style import table
from app.report.text import engine, num


def section_accuracy(ctx: Context) -> list[Flowable]:
    acc, lang, band = ctx.accuracy, ctx.lang, ctx.result.performance.band
    origin = (ctx.t("Computed for this report with the engine's own calibration code from "
                    "{source}.", source=acc.source) if acc.computed else
              ctx.t("As recorded in {source}.", source=acc.source))
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Metric"), ctx.t("Cases"), ctx.t("Median error"), ctx.t("90th percentile"),
        ctx.t("Worst factor"))]]
    for group, (cases, median, p90, worst) in acc.rows.items():
        rows.append([cell(ctx.t(group)), num(cases, ",d", lang),
                     f"{num(median * 100, ',.1f', lang)} %", f"{num(p90 * 100, ',.1f', lang)} %",
                     f"x{num(worst, ',.2f', lang)}"])
    extra = [("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    return [heading(ctx, "accuracy", ctx.t("Calibration accuracy")),
            *cross_validated_section(ctx),
            para(ctx.t("Fitted and checked on the same {n:,} published measurements (in-sample: "
                       "how well the model fits them, not how well it predicts a configuration "
                       "it has not seen): the absolute relative error of each prediction, its "
                       "median and 90th percentile per metric, and the worst ratio between "
                       "prediction and measurement.", n=acc.cases)),
            para(origin, "small"),
            table(rows, [ctx.width * w for w in (0.36, 0.12, 0.17, 0.17, 0.18)], extra=extra),
            Spacer(1, 6),
            para(range_message(band, engine(ctx.result.inputs.serving.engine, lang),
                               ctx.result.performance.site_profile).text(lang)),
            *coverage_paragraph(ctx)]


def coverage_paragraph(ctx: Context) -> list[Flowable]:
    """How many cross-validated predictions the expected ranges hold (none when the ranges
    were not computed for this report)."""
    found = ctx.accuracy.coverage
    if not found:
        return []
    inside = sum(i for i, _ in found.values())
    total = sum(n for _, n in found.values())
    return [para(ctx.t("Drawn the same way from the other cases, the expected range of each "
                       "calibration case holds {inside:,} of its {total:,} cross-validated "
                       "predictions ({share:.0%}; the ranges aim at 80 %).", inside=inside,
                       total=total, share=inside / total))]


#: The left-out dimensions as the table names them, and the metric groups in column order.
LEFT_OUT = {"engine": "each engine", "gpu_family": "each GPU family",
            "model_kind": "each model kind", "weight_class": "each weight format"}
METRICS = {"throughput": "Saturation throughput", "decode": "Single-user decode",
           "ttft": "Time to first token"}


def cross_validated_section(ctx: Context) -> list[Flowable]:
    """The errors on measurements the fit did not see (issue #12: the figure of accuracy is
    the cross-validated one), before the in-sample fit; none when the shipped residuals were
    not at hand."""
    found, lang = ctx.accuracy.cross_validated, ctx.lang
    if not found:
        return []
    cases = {group: n for per_group in found.values() for group, (n, _, _) in per_group.items()}
    rows: list[list] = [[cell(ctx.t("Left out"), "cell_head")] + [
        cell(ctx.t("{metric} ({n:,} cases)", metric=ctx.t(METRICS[g]), n=cases.get(g, 0)),
             "cell_head") for g in METRICS]]
    for dimension, name in LEFT_OUT.items():
        rows.append([cell(ctx.t(name))] + [
            f"{num(found[dimension][g][1] * 100, ',.1f', lang)} % "
            f"(x{num(found[dimension][g][2], ',.1f', lang)})" if g in found[dimension] else "–"
            for g in METRICS])
    off, total = ctx.accuracy.beyond_two
    extra = [("ALIGN", (1, 1), (-1, -1), "RIGHT")]
    return [para(ctx.t("On published measurements the fit did not see, the method's median "
                       "error (and worst ratio) per metric: each engine, GPU family, model "
                       "kind and weight format left out in turn, the model fitted on the other "
                       "cases and the left-out ones predicted (cross-validation).")),
            table(rows, [ctx.width * w for w in (0.25, 0.25, 0.25, 0.25)], extra=extra),
            Spacer(1, 4),
            para(ctx.t("{off:,} of {total:,} cases are off by more than 2x in at least one of "
                       "these predictions. The aim is at most 15 % for throughput and decode, "
                       "25 % for the time to first token and no case beyond 2x; where a figure "
                       "is above its aim, read the expected figures with their range and plan "
                       "at its conservative end.", off=off, total=total)),
            Spacer(1, 6)]
