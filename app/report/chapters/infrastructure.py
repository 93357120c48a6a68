"""Infrastructure: power, cooling, racks, networks, storage, topology and cost.

Without the infrastructure section of the result: the first-order figures of the sizing.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Spacer

from app.domain.result import cost_item, priced_total, rack_contents, storage_class
from app.report import charts
from app.report.context import Context
from app.report.flowables import bold, bullets, cell, heading, key_values, para, subheading
from app.report.style import FONT_BOLD, table
from app.report.text import GB, KW, gb, message, messages, num, usd, word

COOLING = {"air": "air cooling", "rdhx": "rear-door heat exchangers",
           "dlc": "direct liquid cooling"}


def section_infrastructure(ctx: Context) -> list[Flowable]:
    if ctx.result.infrastructure is None:
        return first_order_infrastructure(ctx)
    infra = ctx.result.infrastructure
    flow: list[Flowable] = [
        heading(ctx, "infrastructure", ctx.t("Infrastructure")),
        para(ctx.t("The physical deployment around the replicas: power, cooling, racks, "
                   "electrical feeds, networks, storage, the topology and the bill of "
                   "materials with an indicative cost.")),
        *infra_power(ctx), *infra_racks(ctx), *infra_network(ctx), *infra_storage(ctx),
        KeepTogether([subheading(ctx, ctx.t("Topology")),
                      charts.topology_chart(ctx.result, ctx.width, ctx.lang),
                      para(ctx.t("Figure: servers, their GPUs and the networks that connect "
                                 "them (schematic)."), "caption")]),
        *infra_cost(ctx),
    ]
    notes = [m.text(ctx.lang) for m in infra.warnings]
    if notes:
        flow += [subheading(ctx, ctx.t("Infrastructure notes")), bullets(notes)]
    return flow


def infra_power(ctx: Context) -> list[Flowable]:
    infra, lang = ctx.result.infrastructure, ctx.lang
    p, c, e = infra.power, infra.cooling, infra.electrical

    def kw(watts: float) -> str:
        return f"{num(watts / KW, ',.1f', lang)} kW"

    power = [
        (ctx.t("One server (maximum / typical)"), f"{kw(p.node_max_w)} / {kw(p.node_typical_w)}"),
        (ctx.t("Compute, network, storage"),
         f"{kw(p.compute_w)}, {kw(p.network_w)}, {kw(p.storage_w)}"),
        (ctx.t("IT power (maximum / typical)"), f"{kw(p.it_max_w)} / {kw(p.it_typical_w)}"),
        (ctx.t("Facility power (PUE {pue})", pue=p.pue), kw(p.facility_w)),
    ]
    cooling = [
        (ctx.t("Cooling"), ctx.t(COOLING.get(c.kind, c.kind))),
        (ctx.t("Heat to remove"), ctx.t("{btu:,.0f} BTU/h ({tons:,.2f} tons of refrigeration)",
                                        btu=c.heat_btu_per_h, tons=c.tons)),
        (ctx.t("Airflow"), ctx.t("{cfm:,.0f} CFM ({share:,.0f} % of the heat by air)",
                                 cfm=c.airflow_cfm, share=c.air_share * 100)),
        (ctx.t("Liquid flow"), f"{num(c.liquid_l_per_min, ',.1f', lang)} L/min"),
        (ctx.t("Rack limit"), kw(c.rack_limit_w)),
    ]
    electrical = [
        (ctx.t("Supply"), ctx.t("{volts:,.0f} V three-phase, power factor {pf}",
                                volts=e.voltage_v, pf=num(e.power_factor, "g", lang))),
        (ctx.t("Feeds"), ctx.t("A and B (each carries the whole rack)") if e.ab_feeds
         else ctx.t("one feed")),
        (ctx.t("Highest rack current"), f"{num(e.max_rack_current_a, ',.1f', lang)} A"),
        (ctx.t("Rack PDUs"), ctx.t("{per_rack} per rack and feed, {total} in total, rated "
                                   "{amps:,.0f} A", per_rack=e.pdus_per_rack_per_feed,
                                   total=e.pdus_total, amps=e.pdu_rating_a)),
    ]
    return [KeepTogether([subheading(ctx, ctx.t("Power")), key_values(ctx, power)]),
            KeepTogether([subheading(ctx, ctx.t("Cooling")), key_values(ctx, cooling)]),
            KeepTogether([subheading(ctx, ctx.t("Electrical feeds")),
                          key_values(ctx, electrical)])]


def infra_racks(ctx: Context) -> list[Flowable]:
    lang = ctx.lang
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Rack"), ctx.t("Kind"), ctx.t("Units"), ctx.t("Power / limit"),
        ctx.t("Holds"))]]
    kinds = {"compute": ctx.t("Compute"), "network": ctx.t("Network")}
    for number, rack in enumerate(ctx.result.infrastructure.racks, 1):
        rows.append([str(number), cell(kinds.get(rack.kind, rack.kind)),
                     num(rack.units_used, ",d", lang),
                     f"{num(rack.power_w / KW, ',.1f', lang)} / "
                     f"{num(rack.limit_w / KW, ',.0f', lang)} kW",
                     cell(", ".join(rack_contents(rack, lang)), "cell_small")])
    widths = [0.07, 0.13, 0.08, 0.16, 0.56]
    return [subheading(ctx, ctx.t("Racks")),
            table(rows, [ctx.width * w for w in widths])]


def infra_network(ctx: Context) -> list[Flowable]:
    net, lang = ctx.result.infrastructure.network, ctx.lang
    flow: list[Flowable] = [subheading(ctx, ctx.t("Networks")),
                            bold(ctx.t("Scale-up:"),
                                 message(net.scale_up_message, net.scale_up, lang))]
    f = net.fabric
    if f is None:
        flow.append(bold(ctx.t("Scale-out fabric:"),
                         message(net.fabric_reason_message, net.fabric_reason, lang)))
    else:
        flow.append(bold(ctx.t("Scale-out fabric:"), ctx.t(
            "{tiers}-tier fat tree of {switch} ({radix} ports of {speed:,.0f} Gb/s): "
            "{leaves} leaf, {spines} spine and {cores} core switches for {endpoints:,} GPUs, "
            "{nics:,} NICs, {transceivers:,} transceivers, cables per tier {cables}, "
            "oversubscription {over}:1 (two tiers reach {limit:,} endpoints).",
            tiers=f.tiers, switch=f.switch, radix=f.radix, speed=f.port_gbps, leaves=f.leaves,
            spines=f.spines, cores=f.cores, endpoints=f.endpoints, nics=f.nics,
            transceivers=f.transceivers, cables=", ".join(str(c) for c in f.cables_per_tier),
            over=num(f.oversubscription, "g", lang), limit=f.two_tier_limit)))
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Network"), ctx.t("Switch"), ctx.t("Count"), ctx.t("Ports used"),
        ctx.t("Power"))]]
    for g in net.groups:
        rows.append([cell(word(lang, g.network)), cell(g.switch_name), num(g.count, ",d", lang),
                     num(g.ports_used, ",d", lang), f"{num(g.power_w / KW, ',.1f', lang)} kW"])
    flow.append(table(rows, [ctx.width * w for w in (0.18, 0.42, 0.1, 0.14, 0.16)]))
    return flow


def infra_storage(ctx: Context) -> list[Flowable]:
    st, lang = ctx.result.infrastructure.storage, ctx.lang

    def rate(value: float) -> str:
        return f"{num(value / GB, ',.1f', lang)} GB/s" if value else "–"

    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Tier"), ctx.t("Purpose"), ctx.t("Capacity"), ctx.t("Read"), ctx.t("Write"))]]
    for line in st.lines:
        rows.append([cell(word(lang, line.tier)), cell(word(lang, line.purpose)),
                     gb(line.capacity_bytes, lang),
                     rate(line.read_bytes_per_s), rate(line.write_bytes_per_s)])
    rows.append([cell(ctx.t("Total")), "", gb(st.total_bytes, lang), "", ""])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD)]
    return [KeepTogether([
        subheading(ctx, ctx.t("Storage")),
        para(ctx.t("Storage class '{preset}': {read} read and {write} write per server; "
                   "local NVMe {local}.", preset=storage_class(st.preset, lang),
                   read=rate(st.read_bytes_per_s_per_node),
                   write=rate(st.write_bytes_per_s_per_node),
                   local=gb(st.local_nvme_bytes, lang))),
        table(rows, [ctx.width * w for w in (0.18, 0.38, 0.16, 0.14, 0.14)], extra=extra)])]


def infra_cost(ctx: Context) -> list[Flowable]:
    infra, lang = ctx.result.infrastructure, ctx.lang
    e = infra.energy
    sources: list[str] = []
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Item"), ctx.t("Quantity"), ctx.t("Unit price"), ctx.t("Total"),
        ctx.t("Source"))]]
    for line in infra.cost_lines:
        if line.source not in sources:
            sources.append(line.source)
        item = cost_item(line).text(lang) + (" *" if line.estimated else "")
        rows.append([cell(item), num(line.quantity, ",.4g", lang), usd_cell(line.unit_usd, lang),
                     usd_cell(line.total_usd, lang), f"[{sources.index(line.source) + 1}]"])
    rows.append([cell(ctx.t("Capital cost (indicative)")), "", "",
                 cell(priced_total(usd(infra.capital_usd, lang), infra.unpriced).text(lang)),
                 ""])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD), ("ALIGN", (1, 1), (3, -1), "RIGHT")]
    running = [
        (ctx.t("Energy per year"), ctx.t(
            "{kwh:,.0f} kWh at {use:,.0f} % utilisation, {cost}", kwh=e.annual_kwh,
            use=e.utilisation * 100, cost=usd(e.annual_cost_usd, lang))),
        (ctx.t("Emissions per year"), ctx.t("{kg:,.0f} kg CO2e", kg=e.annual_co2e_kg)
         if e.annual_co2e_kg is not None else ctx.t("no grid factor given")),
        (ctx.t("Colocation per year"), usd(e.annual_colocation_usd, lang)),
        (ctx.t("Running cost per year"), usd(infra.annual_running_usd, lang)),
        (ctx.t("Total cost of ownership"), ctx.t("{cost} over {years:g} years",
                                                 cost=usd(infra.tco_usd, lang),
                                                 years=infra.years)),
        (ctx.t("Cost per million output tokens"),
         usd_precise(infra.cost_per_million_tokens_usd, lang)),
    ]
    return [subheading(ctx, ctx.t("Bill of materials and cost")),
            table(rows, [ctx.width * w for w in (0.44, 0.1, 0.16, 0.18, 0.12)], extra=extra),
            para(ctx.t("* estimated: a street or analyst estimate, or a planning rule where no "
                       "list price is published. Prices are indicative and dated; street "
                       "prices vary."), "small"),
            *[para(f"[{n}] {source}", "small") for n, source in enumerate(sources, 1)],
            KeepTogether([subheading(ctx, ctx.t("Running cost")), key_values(ctx, running)])]


def usd_cell(value: float | None, lang: str) -> str:
    return "–" if value is None else usd(value, lang)


def usd_precise(value: float | None, lang: str) -> str:
    return "–" if value is None else f"USD {num(value, ',.2f', lang)}"


def first_order_infrastructure(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    f, c = r.facility, r.cost
    rows = [
        (ctx.t("IT power (maximum)"), f"{num(f.it_power_w / KW, ',.1f', lang)} kW"),
        (ctx.t("Power usage effectiveness (PUE)"), num(f.pue, "g", lang)),
        (ctx.t("Facility power"), f"{num(f.facility_power_w / KW, ',.1f', lang)} kW"),
        (ctx.t("Heat to remove"), ctx.t("{btu:,.0f} BTU/h ({tons:,.2f} tons of refrigeration)",
                                        btu=f.heat_btu_per_h, tons=f.cooling_tons)),
        (ctx.t("Cooling"), ctx.t(COOLING.get(f.cooling, f.cooling))),
        (ctx.t("Racks"), num(f.racks, ",d", lang)),
        (ctx.t("Energy per year"), f"{num(f.annual_energy_kwh, ',.0f', lang)} kWh"),
        (ctx.t("Capital cost (indicative)"),
         priced_total(usd(c.capital_usd, lang), c.unpriced).text(lang)),
        (ctx.t("of which servers with their GPUs"), usd(c.gpus_usd, lang)),
    ]
    return [heading(ctx, "infrastructure", ctx.t("Infrastructure (first-order figures)")),
            para(ctx.t("First-order figures from the sizing: power from the servers' and GPUs' "
                       "ratings, heat, racks by space and power, energy and an indicative "
                       "capital cost. The detailed infrastructure sections (rack layout, "
                       "electrical feeds, cooling design, network fabric, storage, topology "
                       "diagram and bill of materials) come with the infrastructure feature of "
                       "AI Sizer and are not part of this report."), "note"),
            key_values(ctx, rows, first=0.36),
            Spacer(1, 4),
            para(ctx.t("Cost note: {note}",
                       note=" ".join(messages(c.note_messages, [c.note], lang))), "small")]
