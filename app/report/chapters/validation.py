"""Validation plan: the load tests to run on site and the figures to expect."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether

from app.i18n import msg, plural
from app.report import plan
from app.report.context import Context
from app.report.flowables import cell, code, heading, para, subheading
from app.report.phrases import band_text
from app.report.style import table
from app.report.text import seconds_band


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def section_validation(ctx: Context) -> list[Flowable]:
    r = ctx.result
    prompt, output = plan.lengths(r)
    levels = plan.levels(r)
    flow: list[Flowable] = [
        heading(ctx, "validation", ctx.t("Validation plan")),
        para(ctx.t("A sizing is an estimate until it is measured. Before relying on it, load "
                   "one replica on site with the scenario's requests ({prompt:,} prompt tokens, "
                   "{output:,} output tokens) at the levels below. Send the requests to one "
                   "replica directly, not through the load balancer, so that the figures "
                   "compare with the per-replica figures of this report.", prompt=prompt,
                   output=output)),
        para(ctx.t("Set the model name and the replica's address first:")),
        code(plan.ENV),
        subheading(ctx, ctx.t("With vLLM's benchmark (vllm bench serve)")),
    ]
    for level in levels:
        flow.append(KeepTogether([
            para(concurrent_users(ctx, level), "small"), code(plan.vllm_bench(r, level))]))
    flow.append(subheading(ctx, ctx.t("With NVIDIA AIPerf")))
    for level in levels:
        flow.append(KeepTogether([
            para(concurrent_users(ctx, level), "small"), code(plan.aiperf(r, level))]))
    flow += [subheading(ctx, ctx.t("Expected figures (one replica, with the band)")),
             expected_table(ctx, levels),
             para(ctx.t("The sizing holds when the measured medians lie inside the band at "
                        "every level and no request fails. Compare TTFT with the median and "
                        "90th percentile TTFT, tokens/s per user with 1 / median inter-token "
                        "latency (TPOT), and output tokens/s with the output throughput. A "
                        "measurement below the band: calibrate AI Sizer with it and size "
                        "again before adding hardware."))]
    return flow


def concurrent_users(ctx: Context, level: plan.Level) -> str:
    """The heading of one benchmark level: 'One user: 1 concurrent user'."""
    return plural(level.concurrency, msg("{level}: {users} concurrent user"),
                  msg("{level}: {users} concurrent users"),
                  level=capitalised(ctx.t(level.name)), users=level.concurrency).text(ctx.lang)


def expected_table(ctx: Context, levels: list[plan.Level]) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Level"), ctx.t("Users"), ctx.t("TTFT"), ctx.t("Inter-token latency"),
              ctx.t("Tokens/s per user"), ctx.t("Output tokens/s")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for level in levels:
        e = plan.expected(ctx.result, level)

        def time(x: plan.Expected) -> str:
            return seconds_band(x.value, x.low, x.high, lang)

        rows.append([cell(ctx.t(level.name)), str(level.concurrency), cell(time(e["ttft_s"])),
                     cell(time(e["itl_s"])),
                     cell(band_text(ctx, e["tokens_per_s_per_user"].value,
                                    e["tokens_per_s_per_user"].low,
                                    e["tokens_per_s_per_user"].high, ",.1f")),
                     cell(band_text(ctx, e["output_tokens_per_s"].value,
                                    e["output_tokens_per_s"].low,
                                    e["output_tokens_per_s"].high, ",.0f"))])
    widths = [0.16, 0.08, 0.2, 0.2, 0.17, 0.19]
    return table(rows, [ctx.width * w for w in widths])
