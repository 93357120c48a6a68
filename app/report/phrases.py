"""Phrases more than one chapter of the report uses: bands, rankings, redundancy, durations."""

from __future__ import annotations

from app.report.context import Context
from app.report.text import num, precision


def band_text(ctx: Context, value: float, low: float, high: float, spec: str,
              unit: str = "") -> str:
    lang = ctx.lang
    suffix = f" {unit}" if unit else ""
    return (f"{num(value, spec, lang)}{suffix} ({num(low, spec, lang)}–"
            f"{num(high, spec, lang)}{suffix})")


RANKINGS = {"capital_cost": "lowest capital cost", "power": "lowest power draw",
            "gpu_count": "fewest GPUs", "tokens_per_dollar": "most tokens per dollar"}


def redundancy(ctx: Context, value: str) -> str:
    return ctx.t("none", msgctxt="redundancy") if value == "none" else value.upper()


def ranking(ctx: Context, rank_by: str) -> str:
    return ctx.t(RANKINGS[rank_by]) if rank_by in RANKINGS else rank_by.replace("_", " ")


def gpus_text(ctx: Context) -> str:
    c = ctx.result.selection.chosen
    return ctx.t("{n} x {gpu} per replica (tensor parallel {t}, pipeline parallel {p})",
                 n=c.gpus_per_replica, gpu=ctx.result.gpu.name, t=c.tensor_parallel,
                 p=c.pipeline_parallel)


def formats_text(ctx: Context) -> str:
    c = ctx.result.selection.chosen
    return ctx.t("weights {weights}, KV cache {kv}", weights=precision(c.precision),
                 kv=precision(c.kv_precision))


DAY_S = 86_400.0


def duration(ctx: Context, value_s: float) -> str:
    """Days, or hours below two days."""
    if value_s < 2 * DAY_S:
        return ctx.t("{hours:,.1f} h", hours=value_s / 3600)
    return ctx.t("{days:,.1f} days", days=value_s / DAY_S)

