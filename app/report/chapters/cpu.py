"""CPU inference: the CPU against the GPU at the scenario's load (only when asked for)."""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from app.i18n import msg, plural
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, key_values, para, subheading
from app.report.style import table
from app.report.text import GB, KW, gb, message, messages, num, seconds, usd


def section_cpu(ctx: Context) -> list[Flowable]:
    c, lang = ctx.result.cpu, ctx.lang
    if c is None:
        return []
    header = [plural(c.users, msg("At the scenario's load ({users:,.0f} user)"),
                     msg("At the scenario's load ({users:,.0f} users)"), users=c.users).text(lang),
              ctx.t("CPU"), "GPU"]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    rows += [
        [cell(ctx.t("Tokens/s per user")), num(c.tokens_per_s_per_user, ",.1f", lang),
         num(c.gpu_tokens_per_s_per_user, ",.1f", lang)],
        [cell(ctx.t("Output tokens/s in all")), num(c.output_tokens_per_s, ",.0f", lang),
         num(c.gpu_output_tokens_per_s, ",.0f", lang)],
        [cell(ctx.t("Time to first token")), seconds(c.ttft_s, lang),
         seconds(c.gpu_ttft_s, lang)],
    ]
    facts = [
        (ctx.t("CPU"), ctx.t("{n} x {cpu}, {bandwidth:,.0f} GB/s memory bandwidth "
                             "({share:.0%} reached)", n=c.sockets, cpu=c.cpu_name,
                             bandwidth=c.memory_bandwidth_bytes_per_s / GB,
                             share=c.bandwidth_efficiency)),
        (ctx.t("Weights"), f"{c.weights}, {gb(c.weights_bytes, lang)}"),
        (ctx.t("One user alone"), ctx.t("{speed:,.1f} tokens/s, first token after {ttft}",
                                        speed=c.single_user_tokens_per_s,
                                        ttft=seconds(c.single_user_ttft_s, lang))),
        (ctx.t("Users within the targets"), num(c.users_meeting_speed, ",d", lang)),
        (ctx.t("Power and price"), f"{num(c.power_w / KW, ',.2f', lang)} kW, "
                                   f"{usd(c.price_usd, lang)}"),
    ]
    return [heading(ctx, "cpu", ctx.t("CPU inference")),
            para(message(c.verdict_message, c.verdict_text, lang), "note"),
            table(rows, [ctx.width * w for w in (0.5, 0.25, 0.25)],
                  extra=[("ALIGN", (1, 0), (-1, -1), "RIGHT")]),
            Spacer(1, 6),
            key_values(ctx, facts, first=0.24),
            subheading(ctx, ctx.t("How the comparison was made")),
            bullets(messages(c.messages, c.explanation, lang))]
