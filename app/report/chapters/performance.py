"""Performance: one replica at three operating points, charts, the decode step, levers."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Spacer

from app.engine.narrative import range_message
from app.report import charts
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, para, subheading
from app.report.phrases import band_text
from app.report.style import FONT_BOLD, table
from app.report.text import engine, message, messages, num, seconds, seconds_band, yes_no


def section_performance(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    p = r.performance
    flow: list[Flowable] = [
        heading(ctx, "performance", ctx.t("Performance")),
        para(ctx.t("One replica at three operating points, each with its expected range.")),
        para(range_message(p.band, engine(r.inputs.serving.engine, lang),
                           p.site_profile).text(lang)),
        operating_points(ctx),
        Spacer(1, 6),
        KeepTogether([charts.tokens_per_user_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: tokens/s each user sees against concurrent users, "
                                 "with the band, the target and the naive figure."),
                           "caption")]),
        KeepTogether([charts.throughput_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: output tokens/s of one replica against concurrent "
                                 "users."), "caption")]),
        KeepTogether([charts.ttft_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: time to first token of one user alone against "
                                 "prompt length."), "caption")]),
        subheading(ctx, ctx.t("The naive figure")),
        para(message(p.naive_message, p.naive_explanation, lang), "note"),
        subheading(ctx, ctx.t("Where the time of a decode step goes")),
        decode_table(ctx),
        subheading(ctx, ctx.t("How the performance was found")),
        bullets(messages(p.messages, p.explanation, lang)),
    ]
    if p.levers:
        flow += [subheading(ctx, ctx.t("What would meet the missed targets")), levers(ctx)]
    return flow


def operating_points(ctx: Context) -> Flowable:
    p, lang, band = ctx.result.performance, ctx.lang, ctx.result.performance.band
    points = (p.single_user, p.at_concurrency, p.saturation)
    header = ["", ctx.t("one user"), ctx.t("scenario load"), ctx.t("saturation")]

    def speed(value: float, spec: str) -> str:
        return band_text(ctx, value, *band.speed_range(value), spec)

    def ttft(value: float) -> str:
        return seconds_band(value, *band.ttft_range(value), lang)

    def time(value: float) -> str:
        return seconds_band(value, *band.time_range(value), lang)

    rows = [[cell(h, "cell_head") for h in header],
            [cell(ctx.t("Concurrent users"))] + [num(x.concurrency, ",.0f", lang) for x in points],
            [cell(ctx.t("Time to first token"))] + [cell(ttft(x.ttft_s)) for x in points],
            [cell(ctx.t("Inter-token latency"))] + [cell(time(x.itl_s)) for x in points],
            [cell(ctx.t("Tokens/s per user"))] + [cell(speed(x.tokens_per_s_per_user, ",.1f"))
                                                  for x in points],
            [cell(ctx.t("Output tokens/s (replica)"))] + [
                cell(speed(x.output_tokens_per_s, ",.0f")) for x in points],
            [cell(ctx.t("Requests/s (replica)"))] + [num(x.requests_per_s, ",.2f", lang)
                                                     for x in points]]
    return table(rows, [ctx.width * w for w in (0.28, 0.24, 0.24, 0.24)])


def decode_table(ctx: Context) -> Flowable:
    d, lang = ctx.result.performance.decode_breakdown, ctx.lang
    parts = [(ctx.t("Reading the weights"), d.weights_read_s),
             (ctx.t("Reading the KV cache"), d.kv_read_s),
             (ctx.t("Compute"), d.compute_s),
             (ctx.t("Other users' prompts (prefill share)"), d.prefill_share_s),
             (ctx.t("Weights read and compute: partial overlap"), d.overlap_s),
             (ctx.t("Norms, activation and quantisation kernels"), d.activations_s),
             (ctx.t("Communication between GPUs"), d.communication_s),
             (ctx.t("Overheads"), d.overhead_s)]
    step = ctx.result.performance.at_concurrency.itl_s
    rows = [[cell(h, "cell_head") for h in (ctx.t("Part"), "ms")]]
    rows += [[cell(name), num(v * 1e3, ",.1f", lang)] for name, v in parts]
    label = (ctx.t("Decode step at the scenario's load (compute-bound)") if d.bound == "compute"
             else ctx.t("Decode step at the scenario's load (memory-bound)"))
    rows.append([cell(label), num(step * 1e3, ",.1f", lang)])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    return KeepTogether([
        table(rows, [ctx.width * 0.75, ctx.width * 0.25], extra=extra),
        para(ctx.t("Reading the weights overlaps with compute and the prefill share, though "
                   "not completely: the step counts the longer of the two and what the partial "
                   "overlap adds, so it is shorter than the sum of its parts."), "small")])


def levers(ctx: Context) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Change"), ctx.t("Target"), ctx.t("Figure after"), ctx.t("Meets both"),
              ctx.t("Note")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for lever in ctx.result.performance.levers:
        if lever.target == "ttft":
            after = seconds(lever.value_after, lang)
        else:
            after = ctx.t("{value:,.1f} tokens/s", value=lever.value_after)
        rows.append([cell(message(lever.change_message, lever.change, lang)),
                     cell(ctx.t("time to first token") if lever.target == "ttft"
                          else ctx.t("tokens/s per user")),
                     cell(after), yes_no(lever.meets, lang),
                     cell(message(lever.note_message, lever.note, lang))])
    return table(rows, [ctx.width * w for w in (0.38, 0.16, 0.14, 0.1, 0.22)])
