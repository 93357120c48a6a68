"""Compared options: the options pinned beside this sizing (only when there are any)."""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.domain.result import SizingResult, priced_total
from app.report.context import Context
from app.report.flowables import cell, heading, para
from app.report.style import table
from app.report.text import KW, gb, num, seconds, time_unit, usd


def compared_rows(ctx: Context, r: SizingResult, time_in: str | None = None) -> list[str]:
    """One column of the comparison: the key figures of one sizing."""
    lang, c = ctx.lang, r.selection.chosen
    at = r.performance.at_concurrency
    capital = r.infrastructure.capital_usd if r.infrastructure else r.cost.capital_usd
    return [
        f"{c.gpus_per_replica} x {r.gpu.name}",
        f"{c.precision} / {c.kv_precision}",
        ctx.t("yes") if r.memory.fits else ctx.t("no"),
        f"{gb(r.memory.per_gpu_bytes, lang)} / {gb(r.memory.gpu_usable_bytes, lang)}",
        num(r.performance.slo_capacity_per_replica, ",d", lang),
        num(at.tokens_per_s_per_user, ",.1f", lang),
        seconds(at.ttft_s, lang, time_in),
        num(r.performance.saturation.output_tokens_per_s, ",.0f", lang),
        f"{r.scale.replicas} / {r.scale.gpus_total}",
        num(r.facility.it_power_w / KW, ",.1f", lang) + " kW",
        priced_total(usd(capital, lang), r.cost.unpriced).text(lang),
    ]


COMPARED_LABELS = ("GPU x count per replica", "Weights / KV cache", "Fits in memory",
                   "VRAM per GPU (used / usable)", "Users per replica within the targets",
                   "Tokens/s per user at load", "Time to first token at load",
                   "Saturation throughput (tokens/s)", "Replicas / GPUs", "IT power",
                   "Indicative capital cost")


def section_compared(ctx: Context) -> list[Flowable]:
    """The options the user pinned beside this sizing (none: no section)."""
    if not ctx.compared:
        return []
    options = [(ctx.t("This sizing"), ctx.result), *ctx.compared]
    header = [cell(ctx.t("Key figure"), "cell_head")]
    header += [cell(name, "cell_head") for name, _ in options]
    unit = time_unit([r.performance.at_concurrency.ttft_s for _, r in options])  # one per row
    columns = [compared_rows(ctx, r, unit) for _, r in options]
    rows = [header] + [[cell(ctx.t(label))] + [cell(col[i]) for col in columns]
                       for i, label in enumerate(COMPARED_LABELS)]
    first = 0.28
    rest = (1 - first) / len(options)
    return [heading(ctx, "compared", ctx.t("Compared options")),
            para(ctx.t("The options pinned for comparison, each sized with the same method and "
                       "catalogs; figures are per replica unless stated.")),
            table(rows, [ctx.width * first] + [ctx.width * rest] * len(options))]
