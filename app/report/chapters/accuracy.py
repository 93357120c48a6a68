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
            para(ctx.t("The method predicts published measurements (TensorRT-LLM and llama.cpp "
                       "on data-centre and desktop GPUs) with the errors below: the absolute "
                       "relative error of each prediction, its median and 90th percentile per "
                       "metric, and the worst ratio between prediction and measurement.")),
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
