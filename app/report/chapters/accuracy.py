"""Calibration accuracy: the method's errors against published measurements."""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from app.report.context import Context
from app.report.flowables import cell, heading, para
from app.report.style import table
from app.report.text import num


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
            para(ctx.t("The band this report gives (x{low} to x{high}) is the spread of these "
                       "residuals for the serving engine's profile; profiles or GPU families "
                       "without measurements get a wider band, and the warnings say so.",
                       low=num(band.low, ".2f", lang), high=num(band.high, ".2f", lang)))]
