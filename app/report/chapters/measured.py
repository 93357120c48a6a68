"""Predicted against measured: the imported load test beside the sizing (SizingResult.validation).

Shown when the scenario carries imported measurements: the files, each point beside the
prediction for the same configuration and load with its error, the verdict per target, what
the measured speed means for the replicas, the Step 4 charts with the measured points, and the
site factors fitted to them with their residuals.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether

from app.domain.measurements import MeasuredPoint
from app.domain.validation import SiteFit, ValidationPoint, ValidationResult
from app.report import charts
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, para, subheading
from app.report.style import table
from app.report.text import engine, num

FIGURES = {"ttft_s": ("TTFT", 1e3, "ms"), "itl_s": ("Inter-token latency", 1e3, "ms"),
           "tokens_per_s_per_user": ("Tokens/s per user", 1.0, ""),
           "output_tokens_per_s": ("Output tokens/s", 1.0, ""),
           "prefill_s": ("Prompt processing alone", 1e3, "ms")}


def section_measured(ctx: Context) -> list[Flowable]:
    v = ctx.result.validation
    if v is None:
        return []
    lang = ctx.lang
    files = files_of(v)
    flow: list[Flowable] = [
        heading(ctx, "measured", ctx.t("Predicted against measured")),
        para(ctx.t("{points:,} operating points measured on site ({files:,} result files) "
                   "beside the sizing's prediction for the same configuration, load and "
                   "request lengths. Error = measured / predicted - 1; the range is the "
                   "band of section {performance}.", points=len(v.points), files=len(files),
                   performance=ctx.number("performance"))),
        files_table(ctx, files),
        subheading(ctx, ctx.t("Each point beside the prediction")),
        points_table(ctx, v.points),
    ]
    if v.verdicts:
        flow += [subheading(ctx, ctx.t("The targets at the scenario's load")),
                 bullets([x.message.text(lang) for x in v.verdicts])]
    if v.messages:
        flow += [subheading(ctx, ctx.t("What the measurements mean for the plan")),
                 bullets([m.text(lang) for m in v.messages])]
    r = ctx.result
    flow += [
        KeepTogether([subheading(ctx, ctx.t("The Step 4 charts with the measured points")),
                      charts.tokens_per_user_chart(r, ctx.width, lang, measured=True),
                      para(ctx.t("Figure: tokens/s per user, predicted with its band, and "
                                 "measured."), "caption")]),
        KeepTogether([charts.throughput_chart(r, ctx.width, lang, measured=True),
                      para(ctx.t("Figure: output tokens/s of one replica, predicted and "
                                 "measured."), "caption")]),
        KeepTogether([charts.ttft_chart(r, ctx.width, lang, measured=True),
                      para(ctx.t("Figure: time to first token of one user alone, predicted "
                                 "and measured."), "caption")]),
    ]
    if v.fit is not None:
        flow += fit_section(ctx, v.fit)
    return flow


def files_of(v: ValidationResult) -> list[tuple[str, str, str, int]]:
    """(file, tool, SHA-256, points) of every imported file, in order."""
    found: dict[str, list] = {}
    for row in v.points:
        m = row.measured
        entry = found.setdefault(m.source_sha256, [m.source_file, m.tool, m.source_sha256, 0])
        entry[3] += 1
    return [tuple(entry) for entry in found.values()]


def files_table(ctx: Context, files) -> Flowable:
    rows: list[list] = [[cell(h, "cell_head") for h in
                         (ctx.t("File"), ctx.t("Tool"), ctx.t("SHA-256"), ctx.t("Points"))]]
    rows += [[cell(name), cell(tool), cell(sha[:32] + "…", "cell_small"), str(count)]
             for name, tool, sha, count in files]
    return table(rows, [ctx.width * w for w in (0.3, 0.2, 0.4, 0.1)])


def load_text(ctx: Context, m: MeasuredPoint) -> str:
    if m.load == "request_rate":
        return f"{num(m.request_rate, ',.3g', ctx.lang)}/s"
    if m.load == "single_stream":
        return ctx.t("one stream")
    return num(m.users, ",.0f", ctx.lang)


def value_text(ctx: Context, metric: str, value: float) -> str:
    _, scale, unit = FIGURES[metric]
    text = num(value * scale, ",.1f" if value * scale < 1000 else ",.0f", ctx.lang)
    return f"{text} {unit}".strip()


def points_table(ctx: Context, rows: list[ValidationPoint]) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Point"), ctx.t("Load"), ctx.t("Figure"), ctx.t("Measured"),
              ctx.t("Predicted"), ctx.t("Range"), ctx.t("Error")]
    table_rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for row in rows:
        m = row.measured
        first = True
        for metric, predicted in row.predicted.items():
            measured = m.value(metric)  # type: ignore[arg-type]
            outside = not row.in_range(metric)
            error = num(row.error(metric) * 100, "+,.1f", lang) + " %"
            table_rows.append([
                cell(f"{m.source_file}: {m.label}" if first else "", "cell_small"),
                load_text(ctx, m) if first else "", cell(ctx.t(FIGURES[metric][0])),
                value_text(ctx, metric, measured), value_text(ctx, metric, predicted),
                cell(f"{value_text(ctx, metric, row.low[metric])} – "
                     f"{value_text(ctx, metric, row.high[metric])}", "cell_small"),
                cell(f"<b>{error}</b>" if outside else error)])
            first = False
    widths = [0.22, 0.06, 0.17, 0.12, 0.14, 0.16, 0.13]
    return table(table_rows, [ctx.width * w for w in widths])


def fit_section(ctx: Context, fit: SiteFit) -> list[Flowable]:
    lang = ctx.lang
    rows: list[list] = [[cell(h, "cell_head") for h in
                         (ctx.t("Point"), ctx.t("Figure"), ctx.t("Measured"),
                          ctx.t("Catalog factors"), ctx.t("Site factors"),
                          ctx.t("Residual"))]]
    for r in fit.residuals:
        rows.append([str(r.point + 1), cell(ctx.t(FIGURES[r.metric][0])),
                     value_text(ctx, r.metric, r.measured), value_text(ctx, r.metric, r.before),
                     value_text(ctx, r.metric, r.after),
                     num(r.error_after * 100, "+,.2f", lang) + " %"])
    in_use = ctx.result.performance.site_profile
    flow: list[Flowable] = [
        subheading(ctx, ctx.t("The site's factors")),
        para(ctx.t("Fitted separately for decode and prefill to the measured figures: decode "
                   "x{decode}, prefill x{prefill} on the {engine} profile's factors; median "
                   "error {before} with the catalog's factors, {after} with the site's; the "
                   "site profile's range is x{low} to x{high}.",
                   decode=num(fit.decode_scale, ".3f", lang),
                   prefill=num(fit.prefill_scale, ".3f", lang), engine=engine(fit.engine, lang),
                   before=num(fit.median_error_before * 100, ".1f", lang) + " %",
                   after=num(fit.median_error_after * 100, ".1f", lang) + " %",
                   low=num(fit.band_low, ".2f", lang), high=num(fit.band_high, ".2f", lang))),
    ]
    if fit.messages:
        flow.append(bullets([m.text(lang) for m in fit.messages]))
    flow.append(table(rows, [ctx.width * w for w in (0.08, 0.27, 0.15, 0.17, 0.17, 0.16)]))
    flow.append(para(ctx.t("This sizing uses the site profile '{profile}' (site-calibrated).",
                           profile=in_use) if in_use else
                     ctx.t("Saved as a site profile (Validation step, or 'aisizer measurements "
                           "fit --save-profile'), these factors size every scenario on the "
                           "same GPU and engine, marked site-calibrated."), "note"))
    return flow
