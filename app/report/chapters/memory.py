"""Memory: what one GPU of a replica must hold at peak context."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Spacer

from app.i18n import msg, plural
from app.report import charts
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, key_values, para, subheading
from app.report.style import FONT_BOLD, table
from app.report.text import GB, GIB, gb, gib, messages, num, yes_no


def section_memory(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    m = r.memory
    head = [cell(h, "cell_head") for h in (ctx.t("One GPU"), "GB", "GiB")]
    per_gpu = [
        (ctx.t("Weights"), m.weights_bytes_per_gpu),
        (ctx.t("KV cache at peak context"), m.kv_cache_bytes_per_gpu),
        (ctx.t("Runtime and activations"), m.runtime_bytes_per_gpu),
        (ctx.t("Total needed"), m.per_gpu_bytes),
        (ctx.t("Usable by the engine"), m.gpu_usable_bytes),
        (ctx.t("GPU memory"), m.gpu_memory_bytes),
    ]
    rows = [head] + [[cell(name), num(v / GB, ",.1f", lang), num(v / GIB, ",.1f", lang)]
                     for name, v in per_gpu]
    bold_total = [("FONTNAME", (0, 4), (-1, 4), FONT_BOLD),
                  ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    users = m.concurrency_sized
    replica = [
        (ctx.t("Parameters"), ctx.t("{total:,.2f} billion ({active:,.2f} billion active)",
                                    total=m.params_total / 1e9, active=m.params_active / 1e9)),
        (ctx.t("Weights, whole replica"), f"{gb(m.weights_bytes, lang)} "
                                          f"({gib(m.weights_bytes, lang)})"),
        (ctx.t("KV cache per token"), f"{num(m.kv_bytes_per_token / 1024, ',.0f', lang)} KiB"),
        (ctx.t("KV cache per sequence at {context:,} tokens", context=m.peak_context_tokens),
         gib(m.kv_bytes_per_sequence, lang, ",.2f")),
        (plural(users, msg("KV cache for {users:,} sequence"),
                msg("KV cache for {users:,} sequences"), users=users).text(lang),
         ctx.t("{peak} at peak context, {average} at the average context ({tokens:,.0f} "
               "tokens)", peak=gb(m.kv_cache_bytes, lang), average=gb(m.kv_cache_bytes_average,
                                                                       lang),
               tokens=m.average_context_tokens)),
        (ctx.t("Sequences that fit at peak context"),
         ctx.t("{fit:,} per replica (engine batch limit {limit:,})",
               fit=m.max_concurrent_sequences, limit=m.batch_limit)),
        (ctx.t("Fits"), yes_no(m.fits, lang)),
    ]
    return [heading(ctx, "memory", ctx.t("Memory")),
            para(ctx.t("What one GPU of a replica must hold when every user is at the maximum "
                       "context, against what the serving engine may use.")),
            table(rows, [ctx.width * 0.5, ctx.width * 0.25, ctx.width * 0.25],
                  extra=bold_total),
            Spacer(1, 8),
            KeepTogether([charts.memory_chart(r, ctx.width, lang),
                          para(ctx.t("Figure: memory of one GPU at peak context."),
                               "caption")]),
            KeepTogether([subheading(ctx, ctx.t("Whole replica")),
                          key_values(ctx, replica, first=0.4)]),
            subheading(ctx, ctx.t("How the memory was found")),
            bullets(messages(m.messages, m.explanation, lang))]
