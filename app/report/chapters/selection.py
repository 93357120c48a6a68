"""GPU selection: the chosen configuration and the alternatives it beat."""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.report.context import Context
from app.report.flowables import bold, cell, heading, para
from app.report.phrases import formats_text, gpus_text, ranking
from app.report.style import table
from app.report.text import message, num, precision, seconds, time_unit, word

ALTERNATIVES_SHOWN = 15


def section_selection(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    sel = r.selection
    flow: list[Flowable] = [heading(ctx, "selection", ctx.t("GPU selection")),
                            bold(ctx.t("Chosen:"), f"{gpus_text(ctx)}; {formats_text(ctx)}.")]
    if sel.chosen_by == "user" or not sel.alternatives:
        flow.append(para(ctx.t("The configuration was given in the scenario and is evaluated "
                               "as given; no alternatives were ranked. Leave out the hardware "
                               "block of the scenario to let the tool choose.")))
        return flow
    shown = sel.alternatives[:ALTERNATIVES_SHOWN]
    flow.append(para(ctx.t("{count:,} other configurations were evaluated with the same "
                           "code and ranked by {rank}; the first {shown} are listed with the "
                           "reason each lost (all of them are in result.json).",
                           count=len(sel.alternatives),
                           rank=ranking(ctx, sel.chosen_by),
                           shown=len(shown))))
    header = [ctx.t("GPU"), ctx.t("GPUs (t x p)"), ctx.t("Formats"), ctx.t("Tokens/s per user"),
              ctx.t("TTFT"), ctx.t("GPUs in total"), ctx.t("Capital"), ctx.t("Verdict"),
              ctx.t("Why it lost")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    unit = time_unit([a.ttft_s for a in shown])  # one unit for the TTFT column
    for a in shown:
        rows.append([
            cell(a.gpu, "cell_small"),
            cell(f"{a.gpus_per_replica} ({a.tensor_parallel} x {a.pipeline_parallel})",
                 "cell_small"),
            cell(f"{precision(a.precision)} / {precision(a.kv_precision)}", "cell_small"),
            cell(num(a.tokens_per_s_per_user, ",.1f", lang), "cell_small"),
            cell(seconds(a.ttft_s, lang, unit), "cell_small"),
            cell(num(a.gpus_total, ",d", lang), "cell_small"),
            cell(num(a.capital_cost_usd, ",.0f", lang) if a.capital_complete else
                 ctx.t("{cost} (prices missing)", cost=num(a.capital_cost_usd, ",.0f", lang)),
                 "cell_small"),
            cell(word(lang, a.verdict), "cell_small"),
            cell(message(a.reason_message, a.reason, lang), "cell_small"),
        ])
    widths = [0.12, 0.08, 0.11, 0.08, 0.08, 0.07, 0.1, 0.11, 0.25]
    flow.append(table(rows, [ctx.width * w for w in widths]))
    if len(sel.alternatives) > len(shown):
        flow.append(para(ctx.t("{more:,} more in result.json.",
                               more=len(sel.alternatives) - len(shown)), "small"))
    return flow
