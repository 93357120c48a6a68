"""The readable text summary of a sizing result (``aisizer size``).

Rendered from the ``SizingResult`` alone, like every other view of the numbers.
"""

from __future__ import annotations

from app.domain.result import SizingResult, cost_item, priced_total
from app.engine.narrative import replica_range
from app.i18n import msg, plural

GB = 1e9
GIB = 2**30


def _yes(flag: bool) -> str:
    return "met" if flag else "MISSED"


def _heading(title: str) -> list[str]:
    return ["", title, "-" * len(title)]


def requirements(r: SizingResult) -> list[str]:
    w, i = r.inputs.workload, r.inputs
    count = w.concurrent_users
    users = "max concurrent users" if count == "max" else plural(
        count, msg("{n} concurrent user"), msg("{n} concurrent users"), n=count).text()
    lines = _heading("1 Requirements")
    lines.append(f"Model: {r.model.name} ({r.model.params_total / 1e9:.1f} B parameters, "
                 f"{r.model.layers} layers, {r.model.kv_heads} KV heads, context limit "
                 f"{r.model.max_context_tokens:,} tokens)")
    lines.append(f"Workload: {w.kind.replace('_', ' ')}, {users}, prompt "
                 f"{w.prompt_tokens:,} + output {w.output_tokens:,} tokens, maximum "
                 f"context {w.max_context_tokens:,}")
    lines.append(f"Formats: weights {i.precision.weights}, KV cache "
                 f"{i.precision.kv_cache}; engine {i.serving.engine}")
    if w.kind == "batch_inference":
        lines.append(f"Volume: {w.tokens_per_day or 0:,.0f} output tokens/day or "
                     f"{w.requests_per_hour or 0:,.0f} requests/h, window "
                     f"{w.completion_window_hours or 'default'} h")
    else:
        plan = f"; plan at {i.targets.plan_at}" if i.targets.plan_at else ""
        lines.append(f"Targets: TTFT <= {i.targets.ttft_s:g} s, >= "
                     f"{i.targets.tokens_per_s_per_user:g} tokens/s per user{plan}")
    return lines


def memory(r: SizingResult) -> list[str]:
    m = r.memory
    lines = _heading("2 Memory")
    rows = [("weights (per GPU)", m.weights_bytes_per_gpu),
            ("KV cache at peak (per GPU)", m.kv_cache_bytes_per_gpu),
            ("runtime and activations (per GPU)", m.runtime_bytes_per_gpu),
            ("total per GPU", m.per_gpu_bytes),
            ("usable per GPU", m.gpu_usable_bytes)]
    lines += [f"  {name:<36}{value / GB:9.1f} GB {value / GIB:9.1f} GiB" for name, value in rows]
    lines.append(f"  fits: {'yes' if m.fits else 'NO'}; max concurrent sequences at peak "
                 f"context: {m.max_concurrent_sequences}")
    lines += [f"  {sentence}" for sentence in m.explanation]
    return lines


def layout(c) -> str:
    """How a configuration splits the model: "t = 8, p = 1", with expert parallelism and DP
    attention where it uses them (two rows with the same GPUs differ there)."""
    parts = [f"t = {c.tensor_parallel}, p = {c.pipeline_parallel}"]
    if (c.expert_parallel or 1) > 1:
        parts.append(f"EP {c.expert_parallel}")
    if c.dp_attention:
        parts.append("DP attention")
    return ", ".join(parts)


def selection(r: SizingResult, limit: int = 8) -> list[str]:
    c = r.selection.chosen
    lines = _heading("3 GPU configuration")
    lines.append(f"Chosen ({r.selection.chosen_by}): {c.gpus_per_replica} x {r.gpu.name} per "
                 f"replica, {layout(c)}, weights "
                 f"{c.precision}, KV {c.kv_precision}")
    if r.selection.alternatives:
        lines.append(f"Alternatives ({len(r.selection.alternatives)}; first {limit}):")
        shown = r.selection.alternatives[:limit]
        width = max(len(a.gpu_name or a.gpu) for a in shown)
        split = max(len(layout(a)) for a in shown)
        for a in shown:
            gpu = a.gpu_name or a.gpu  # an older result has no name
            lines.append(f"  {a.gpus_per_replica} x {gpu:<{width}} {layout(a):<{split}} "
                         f"{a.precision:<10} {a.verdict:<15} {a.reason}")
    return lines


def performance(r: SizingResult) -> list[str]:
    p = r.performance
    lines = _heading("4 Performance")
    for label, point in (("one user", p.single_user), ("scenario load", p.at_concurrency),
                         ("saturation", p.saturation)):
        lines.append(f"  {label:<14} users {point.concurrency:7.0f}  TTFT {point.ttft_s:7.2f} s  "
                     f"{point.tokens_per_s_per_user:7.1f} tokens/s/user  "
                     f"{point.output_tokens_per_s:9,.0f} tokens/s total")
    capacity = plural(p.slo_capacity_per_replica, msg("{n} user per replica"),
                      msg("{n} users per replica"), n=p.slo_capacity_per_replica).text()
    lines.append(f"  band x{p.band.low:.2f} .. x{p.band.high:.2f}; SLO capacity {capacity}")
    if p.targets_met:
        lines.append(f"  targets: TTFT {_yes(p.targets_met['ttft'])}, tokens/s per user "
                     f"{_yes(p.targets_met['tokens_per_s_per_user'])}")
    lines += [f"  {sentence}" for sentence in p.explanation]
    lines.append(f"  {p.naive_explanation}")
    for lever in p.levers:
        verdict = "meets both targets" if lever.meets else "not enough"
        unit = "tokens/s" if lever.target == "tokens_per_s_per_user" else "s TTFT"
        note = f" ({lever.note})" if lever.note else ""
        lines.append(f"  lever: {lever.change} -> {lever.value_after:.2f} {unit}, "
                     f"{verdict}{note}")
    return lines


def scale(r: SizingResult) -> list[str]:
    s, c = r.scale, r.cost
    lines = _heading("5 Redundancy and scale")
    lines += [f"  {sentence}" for sentence in s.explanation]
    gpus = plural(s.gpus_total, msg("{n} GPU in replicas"), msg("{n} GPUs in replicas"),
                  n=s.gpus_total).text()
    autoscaling = replica_range(s.autoscale_min_replicas, s.autoscale_max_replicas).text()
    nodes = plural(s.nodes, msg("{n:,} node of {server}"), msg("{n:,} nodes of {server}"),
                   n=s.nodes, server=s.server_shown).text()
    lines.append(f"  {nodes}, {gpus}; autoscaling {autoscaling}")
    cost = (priced_total(f"USD {c.capital_usd:,.0f}", c.unpriced).text() if c.capital_usd
            else "no price in the catalog")
    lines.append(f"  capital (indicative): {cost}. {c.note}")
    return lines


def infrastructure(r: SizingResult) -> list[str]:
    site = r.infrastructure
    if site is None:
        return []
    p, c, e, el = site.power, site.cooling, site.energy, site.electrical
    lines = _heading("Infrastructure")
    lines.append(f"  racks: {len(site.racks)} ({sum(1 for x in site.racks if x.kind == 'compute')}"
                 f" compute, {sum(1 for x in site.racks if x.kind == 'network')} network), "
                 f"limit {c.rack_limit_w / 1e3:.0f} kW per rack ({c.kind} cooling)")
    lines.append(f"  power: node {p.node_max_w / 1e3:.1f} kW max; IT {p.it_max_w / 1e3:.1f} kW "
                 f"(compute {p.compute_w / 1e3:.1f}, network {p.network_w / 1e3:.1f}); facility "
                 f"{p.facility_w / 1e3:.1f} kW at PUE {p.pue:g}")
    lines.append(f"  heat: {c.heat_btu_per_h:,.0f} BTU/h, {c.tons:.1f} tons, air "
                 f"{c.airflow_cfm:,.0f} CFM" + (f", coolant {c.liquid_l_per_min:,.0f} L/min"
                                                if c.liquid_l_per_min else ""))
    lines.append(f"  feeds: {el.voltage_v:g} V three-phase, worst rack {el.max_rack_current_a:.1f} "
                 f"A per feed, {el.pdus_total} PDUs of {el.pdu_rating_a:g} A"
                 + (" (A/B feeds)" if el.ab_feeds else ""))
    co2 = f", {e.annual_co2e_kg / 1e3:,.1f} t CO2e" if e.annual_co2e_kg else ""
    lines.append(f"  energy: {e.annual_kwh:,.0f} kWh/year at {e.utilisation:.0%} average load, "
                 f"USD {e.annual_cost_usd:,.0f}/year{co2}")
    lines.append(f"  scale-up: {site.network.scale_up}")
    f = site.network.fabric
    if f:
        lines.append(f"  fabric: {f.endpoints} GPUs on {f.switch} ({f.radix} x {f.port_gbps:g}G), "
                     f"{f.tiers} tiers: {f.leaves} leaf, {f.spines} spine, {f.cores} core; "
                     f"cables per tier {f.cables_per_tier}; {f.transceivers} transceivers")
    else:
        lines.append(f"  fabric: {site.network.fabric_reason}")
    for g in site.network.groups:
        lines.append(f"  {g.network}: {g.count} x {g.switch_name or g.switch} "
                     f"({g.ports_used} ports)")
    lines.append(f"  storage: {site.storage.total_bytes / 1e12:,.2f} TB in all; "
                 f"{site.storage.preset} tier")
    for line in site.cost_lines:
        total = f"USD {line.total_usd:,.0f}" if line.total_usd is not None else "no price"
        mark = " (estimated)" if line.estimated else ""
        lines.append(f"  cost: {cost_item(line).text()} x {line.quantity:g}: {total}{mark}")
    per_m = (f"USD {site.cost_per_million_tokens_usd:,.2f} per million output tokens"
             if site.cost_per_million_tokens_usd else "cost per token not available")
    lines.append(f"  total over {site.years:g} years: USD {site.tco_usd:,.0f}; {per_m}")
    return lines


def training(r: SizingResult) -> list[str]:
    """The training section (training and fine-tuning scenarios)."""
    t = r.training
    if t is None:
        return []
    lines = _heading("Training")
    lines.append(f"  configuration ({t.chosen_by}): {t.gpus_total} x {t.gpu} on {t.nodes} "
                 f"node(s); d = {t.data_parallel}, t = {t.tensor_parallel}, "
                 f"p = {t.pipeline_parallel}, ZeRO {t.zero_stage}, recompute "
                 f"{t.activation_recompute}; {t.method}, {t.optimizer}")
    rows = [("weights", t.weights_bytes_per_gpu), ("gradients", t.gradients_bytes_per_gpu),
            ("optimizer states", t.optimizer_bytes_per_gpu),
            ("activations", t.activation_bytes_per_gpu), ("total per GPU", t.per_gpu_bytes),
            ("usable per GPU", t.gpu_usable_bytes)]
    lines += [f"  {name:<36}{value / GB:9.1f} GB {value / GIB:9.1f} GiB" for name, value in rows]
    lines.append(f"  fits: {'yes' if t.fits else 'NO'}; step {t.step_time_s:.2f} s, "
                 f"{t.steps:,.0f} steps; time to train {t.time_to_train_s / 86400:.1f} days "
                 f"({t.gpu_hours:,.0f} GPU-hours), with checkpoints and failures "
                 f"{t.wall_clock_s / 86400:.1f} days")
    lines.append(f"  checkpoint {t.checkpoint_bytes / GB:,.1f} GB, saved in "
                 f"{t.checkpoint_save_s:.0f} s every {t.checkpoint_interval_s / 60:.0f} min; "
                 f"storage {t.storage_bytes / 1e12:,.2f} TB")
    if t.scaling:
        points = ", ".join(f"{p.gpus}: {p.wall_clock_s / 86400:.1f} d" for p in t.scaling)
        lines.append(f"  time against GPUs: {points}")
    lines += [f"  {sentence}" for sentence in t.explanation]
    for c in t.candidates[:8]:
        lines.append(f"  candidate {c.gpus:>6} x {c.gpu:<18} d={c.data_parallel} "
                     f"t={c.tensor_parallel} p={c.pipeline_parallel} ZeRO {c.zero_stage}: "
                     f"{c.reason}")
    return lines


def rag(r: SizingResult) -> list[str]:
    """The RAG section, when the scenario has a corpus."""
    g = r.rag
    if g is None:
        return []
    lines = _heading("Retrieval (RAG)")
    lines.append(f"  {g.chunks:,.0f} chunks, index {g.index}: {g.index_memory_bytes / GB:.2f} GB "
                 f"memory, {g.index_storage_bytes / GB:.2f} GB disk; indexing "
                 f"{g.indexing_time_s / 3600:.1f} h; TTFT with retrieval "
                 f"{g.ttft_with_retrieval_s:.2f} s")
    lines += [f"  {sentence}" for sentence in g.explanation]
    return lines


def cpu(r: SizingResult) -> list[str]:
    """The CPU comparison, when the scenario asks for it."""
    c = r.cpu
    if c is None:
        return []
    lines = _heading("CPU inference")
    lines += [f"  {sentence}" for sentence in c.explanation]
    return lines


def render(r: SizingResult) -> str:
    """The whole summary as text."""
    lines = [f"AI Sizer {r.tool_version}: {r.inputs.name}", f"Verdict: {r.verdict.sentence}"]
    for section in (requirements, training, memory, selection, performance, scale,
                    infrastructure, rag, cpu):
        lines += section(r)
    if r.warnings:
        lines += _heading("Warnings")
        lines += [f"  - {w}" for w in r.warnings]
    lines += ["", f"{len(r.assumptions)} assumptions used (aisizer size --json lists them with "
                  "their sources)."]
    return "\n".join(lines) + "\n"
