"""Executive summary: the recommended configuration, the targets and the key figures."""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.domain.result import priced_total
from app.i18n import msg, plural
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, key_values, subheading
from app.report.phrases import formats_text, gpus_text, ranking, redundancy
from app.report.style import BAD, GOOD, table
from app.report.text import KW, engine, gb, messages, met, num, seconds, seconds_band, usd, word


def section_summary(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    s = r.scale
    chosen_by = (ctx.t("given in the scenario") if r.selection.chosen_by == "user"
                 else ctx.t("chosen by the tool, ranked by {rank}",
                            rank=ranking(ctx, r.selection.chosen_by)))
    config = [
        (ctx.t("GPUs"), gpus_text(ctx)),
        (ctx.t("Number formats"), formats_text(ctx)),
        (ctx.t("Serving engine"), engine(r.inputs.serving.engine, lang)),
        (ctx.t("Replicas"), ctx.t("{replicas} in total: {load} for the load, redundancy "
                                  "{redundancy}", replicas=s.replicas, load=s.replicas_for_load,
                                  redundancy=redundancy(ctx, s.redundancy))),
        (ctx.t("Servers"), plural(s.gpus_total, msg("{nodes} x {server}, {gpus} GPU in total"),
                                  msg("{nodes} x {server}, {gpus} GPUs in total"), nodes=s.nodes,
                                  server=s.server_shown, gpus=s.gpus_total).text(lang)),
        (ctx.t("Configuration"), chosen_by),
        (ctx.t("Verdict"), r.verdict.message.text(lang) if r.verdict.message is not None
         else word(lang, r.verdict.state)),  # the result's one verdict, with the fix
    ]
    if s.planning is not None:
        config.insert(4, (ctx.t("Planned at"), s.planning.message.text(lang)))
    flow: list[Flowable] = [heading(ctx, "summary", ctx.t("Executive summary")),
                            subheading(ctx, ctx.t("Recommended configuration")),
                            key_values(ctx, config, first=0.22),
                            subheading(ctx, ctx.t("Targets")), targets_table(ctx),
                            subheading(ctx, ctx.t("Key figures")), key_figures(ctx)]
    warnings = messages(r.warning_messages, r.warnings, lang)
    if warnings:
        flow += [subheading(ctx, ctx.t("Warnings")), bullets(warnings)]
    return flow


def targets_table(ctx: Context) -> Flowable:
    r, lang = ctx.result, ctx.lang
    p, m = r.performance, r.memory
    point, band = p.at_concurrency, p.band
    header = [ctx.t("Target"), ctx.t("Required"),
              plural(point.concurrency, msg("Expected at {users:,.0f} user"),
                     msg("Expected at {users:,.0f} users"), users=point.concurrency).text(lang),
              ctx.t("Band"), ctx.t("Result")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    colours: list[tuple] = []

    def add(name: str, required: str, expected: str, band_range: str, flag: bool,
            verdict: str | None = None) -> None:
        colours.append(("TEXTCOLOR", (4, len(rows)), (4, len(rows)), GOOD if flag else BAD))
        rows.append([cell(name), cell(required), cell(expected), cell(band_range),
                     verdict or met(flag, lang)])

    ttft = p.targets.get("ttft_s")
    if ttft is not None and "ttft" in p.targets_met:
        ranged = seconds_band(point.ttft_s, *band.ttft_range(point.ttft_s), lang)
        expected, _, band_range = ranged.partition(" (")
        add(ctx.t("Time to first token"), f"≤ {seconds(ttft, lang)}", expected,
            band_range.rstrip(")"), p.targets_met["ttft"])
    speed = p.targets.get("tokens_per_s_per_user")
    if speed is not None and "tokens_per_s_per_user" in p.targets_met:
        add(ctx.t("Tokens/s per user"), f"≥ {num(speed, ',.1f', lang)}",
            num(point.tokens_per_s_per_user, ",.1f", lang),
            " – ".join(num(v, ",.1f", lang) for v in band.speed_range(point.tokens_per_s_per_user)),
            p.targets_met["tokens_per_s_per_user"])
    add(ctx.t("Memory at peak context"),
        ctx.t("≤ {usable} usable per GPU", usable=gb(m.gpu_usable_bytes, lang)),
        ctx.t("{needed} per GPU", needed=gb(m.per_gpu_bytes, lang)), "–", m.fits,
        ctx.t("fits") if m.fits else ctx.t("does not fit"))
    window = r.inputs.workload.completion_window_hours
    hours = r.scale.batch_completion_hours
    if window and hours is not None:
        add(ctx.t("Batch completion"), f"≤ {num(window, ',.1f', lang)} h",
            f"{num(hours, ',.1f', lang)} h", "–", hours <= window)
    widths = [0.24, 0.2, 0.2, 0.22, 0.14]
    return table(rows, [ctx.width * w for w in widths], extra=colours)


def key_figures(ctx: Context) -> Flowable:
    r, lang = ctx.result, ctx.lang
    p, f, s = r.performance, r.facility, r.scale
    point = p.at_concurrency
    rows = [
        (ctx.t("At the scenario's load (one replica)"),
         plural(point.concurrency,
                msg("{users:,.0f} user: {speed:,.1f} tokens/s, first token after {ttft}, "
                    "{total:,.0f} output tokens/s in all"),
                msg("{users:,.0f} users: {speed:,.1f} tokens/s each, first token after {ttft}, "
                    "{total:,.0f} output tokens/s in all"), users=point.concurrency,
                speed=point.tokens_per_s_per_user, ttft=seconds(point.ttft_s, lang),
                total=point.output_tokens_per_s).text(lang)),
        (ctx.t("Users per replica meeting both targets"),
         num(p.slo_capacity_per_replica, ",d", lang)),
        (ctx.t("Saturation (one replica)"),
         plural(p.saturation.concurrency,
                msg("{total:,.0f} output tokens/s with {users:,.0f} user"),
                msg("{total:,.0f} output tokens/s with {users:,.0f} users"),
                total=p.saturation.output_tokens_per_s,
                users=p.saturation.concurrency).text(lang)),
        # one GPU is in one server; several GPUs may share one server
        (ctx.t("Hardware"), plural(
            s.gpus_total, msg("{gpus} GPU in {nodes} server, {racks}"),
            plural(s.nodes, msg("{gpus} GPUs in {nodes} server, {racks}"),
                   msg("{gpus} GPUs in {nodes} servers, {racks}")),
            gpus=s.gpus_total, nodes=s.nodes,
            racks=plural(f.racks, msg("{racks} rack"), msg("{racks} racks"),
                         racks=f.racks).text(lang)).text(lang)),
        (ctx.t("Power"), ctx.t("{it:,.1f} kW IT, {facility:,.1f} kW with cooling (PUE {pue})",
                               it=f.it_power_w / KW, facility=f.facility_power_w / KW,
                               pue=f.pue)),
        (ctx.t("Energy per year"), f"{num(f.annual_energy_kwh / 1e3, ',.1f', lang)} MWh"),
        (ctx.t("Capital cost (indicative)"),
         priced_total(usd(r.cost.capital_usd, lang), r.cost.unpriced).text(lang)),
    ]
    return key_values(ctx, rows, first=0.34)
