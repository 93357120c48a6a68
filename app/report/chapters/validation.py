"""Validation plan: the load test of one replica the sizing implies (a summary of the test plan
that ``aisizer test-plan`` and File > Export test plan write in full)."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether

from app.domain.testplan import LoadLevel, TestPlanResult
from app.report.context import Context
from app.report.flowables import cell, code, heading, para, subheading
from app.report.phrases import band_text
from app.report.style import table
from app.report.text import num, seconds, seconds_band, time_unit
from app.testplan import commands

LEVEL_NAMES = {"one user": "one user", "sweep": "sweep", "scenario load": "scenario load",
               "saturation": "saturation", "beyond saturation": "beyond saturation",
               "half load (rate)": "half the load's rate", "load (rate)": "the load's rate",
               "saturation (rate)": "the saturation rate"}
ENV = 'export MODEL="<served model name>"  BASE_URL="http://<replica address>:8000"'


def section_validation(ctx: Context) -> list[Flowable]:
    plan = ctx.result.test_plan
    flow: list[Flowable] = [heading(ctx, "validation", ctx.t("Validation plan"))]
    if plan is None:
        return [*flow, para(ctx.t("No load test applies to this result."))]
    at = next((level for level in plan.sweep if level.name == "scenario load"), plan.sweep[0])
    flow += [
        para(ctx.t("A sizing is an estimate until it is measured. Before relying on it, load "
                   "one replica on site with the scenario's requests ({prompt:,} prompt tokens, "
                   "{output:,} output tokens): a concurrency sweep from one user through the "
                   "scenario's load to beyond saturation, then the same load as requests "
                   "arriving at a rate. Send the requests to one replica directly, not through "
                   "the load balancer, so that the figures compare with the per-replica "
                   "figures of this report.", prompt=plan.prompt_tokens,
                   output=plan.output_tokens)),
        para(ctx.t("'aisizer test-plan' (or File > Export test plan) writes the whole plan: "
                   "the engine's launch script, a script that runs every level with vLLM's "
                   "bench serve, SGLang's bench_serving, NVIDIA AIPerf or GenAI-Perf, or "
                   "guidellm and saves each result to a file, and a README with the figures "
                   "below. The imported results come back in the Validation step.")),
        subheading(ctx, ctx.t("Levels and the figures to reach (one replica)")),
        levels_table(ctx, plan),
        para(ctx.t("Up to the scenario's load a level must meet the targets where the sizing "
                   "expects them met; every level should lie inside the range (x{low} to "
                   "x{high} of the expected figure; times inversely). A level outside the "
                   "range: import the results, let AI Sizer fit the site's factors, and size "
                   "again before adding hardware.", low=num(plan.band_low, ".2f", ctx.lang),
                   high=num(plan.band_high, ".2f", ctx.lang)), "note"),
        subheading(ctx, ctx.t("The commands at the scenario's load")),
        para(ctx.t("Set the model name and the replica's address first:")), code(ENV),
        KeepTogether([para(ctx.t("With vLLM's benchmark (vllm bench serve)"), "small"),
                      code(commands.shell(commands.vllm_bench(plan, at), 78))]),
        KeepTogether([para(ctx.t("With NVIDIA AIPerf"), "small"),
                      code(commands.shell(commands.aiperf(plan, at), 78))]),
    ]
    return flow


def level_cell(ctx: Context, level: LoadLevel) -> str:
    if level.kind == "concurrency":
        return num(level.concurrency, ",d", ctx.lang)
    return f"{num(level.request_rate, ',.3g', ctx.lang)}/s"


def pass_cell(ctx: Context, level: LoadLevel) -> str:
    lang = ctx.lang
    ttft = level.targets.get("ttft_s", level.expected["ttft_s"].high)
    speed = level.targets.get("tokens_per_s_per_user",
                              level.expected["tokens_per_s_per_user"].low)
    return ctx.t("TTFT at most {ttft}, {speed} tokens/s per user or more",
                 ttft=seconds(ttft, lang), speed=num(speed, ",.1f", lang))


def levels_table(ctx: Context, plan: TestPlanResult) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Level"), ctx.t("Users or rate"), ctx.t("Requests"), ctx.t("TTFT"),
              ctx.t("Tokens/s per user"), ctx.t("Output tokens/s"), ctx.t("Passes when")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    unit = time_unit([level.expected["ttft_s"].value for level in plan.levels])  # one per column
    for level in plan.levels:
        e = level.expected
        rows.append([
            cell(ctx.t(LEVEL_NAMES[level.name])), level_cell(ctx, level),
            num(level.requests, ",d", lang),
            cell(seconds_band(e["ttft_s"].value, e["ttft_s"].low, e["ttft_s"].high, lang,
                              unit)),
            cell(band_text(ctx, e["tokens_per_s_per_user"].value,
                           e["tokens_per_s_per_user"].low, e["tokens_per_s_per_user"].high,
                           ",.1f")),
            cell(band_text(ctx, e["output_tokens_per_s"].value, e["output_tokens_per_s"].low,
                           e["output_tokens_per_s"].high, ",.0f")),
            cell(pass_cell(ctx, level))])
    widths = [0.13, 0.09, 0.1, 0.17, 0.15, 0.16, 0.2]
    return table(rows, [ctx.width * w for w in widths])
