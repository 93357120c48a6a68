"""The serving result's sections, each with its plain-sentence explanation.

Each function takes the engine's numbers for one step (the evaluated configuration, the
memory plan, the Step 5 plan) and assembles the section of :class:`SizingResult` with its
sentences (:mod:`app.engine.narrative`). The formulas live in the topic modules
(:mod:`memory`, :mod:`performance`, :mod:`scale` ...); nothing here sizes anything twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from app import __version__
from app.domain.catalog import Catalog
from app.domain.problems import composed, verbatim
from app.domain.result import (
    Assumption,
    Band,
    CostResult,
    CurvePoint,
    DecodeBreakdown,
    FacilityResult,
    GpuFacts,
    InfrastructureResult,
    MemoryResult,
    ModelFacts,
    OperatingPoint,
    PerformanceResult,
    PlanFigures,
    Planning,
    RackResult,
    ScaleResult,
    SizingResult,
    TrainingResult,
    TtftPoint,
    Verdict,
)
from app.domain.scenario import Hardware, Scenario, Targets
from app.engine import levers as levers_module
from app.engine import narrative
from app.engine.assumptions import default_source, sourced
from app.engine.configuration import Configuration
from app.engine.evaluate import MemoryPlan, points_at, saturation_of
from app.engine.inference import (
    decode_step,
    naive_tokens_per_s,
    prefill_throughput,
    prefill_time,
)
from app.engine.memory import (
    kv_bytes_per_sequence_at,
    kv_bytes_per_token_replica,
    naive_weights_bytes,
    state_bytes_per_stage,
)
from app.engine.performance import Points, concurrency_grid
from app.engine.resolved import Resolved, storage_tier_of
from app.engine.scale import (
    PLAN_AT,
    Capacities,
    NodePlan,
    autoscale_min_replicas,
    batch_completion_hours,
    batch_rate,
    cold_start_s,
    nodes_per_compute_rack,
    planned_rate,
    replicas_after_node_failure,
    replicas_after_rack_failure,
    replicas_for_load,
    replicas_for_rate,
    surviving_replicas,
    weights_bytes_per_node,
)
from app.engine.uncertainty import band_for, band_of
from app.i18n import Message, msg, plural

GB = 1e9


def users_sized(plan: MemoryPlan, r: Resolved, config: Configuration) -> int:
    """Sequences the memory is sized for: the users, or the saturation batch for 'max'."""
    if r.demand.users is not None:
        return r.demand.users
    return int(saturation_of(config, plan, r.demand.work).batch[0])


def memory_result(config: Configuration, plan: MemoryPlan, r: Resolved) -> MemoryResult:
    """Step 2 section: bytes per replica and per GPU, capacity, fit, and why."""
    replica = config.replica
    gpus = replica.gpus
    users = users_sized(plan, r, config)
    per_token_replica = kv_bytes_per_token_replica(config.model, replica.kv_bytes_per_element,
                                                   replica.tensor_parallel)
    per_gpu = plan.per_gpu_bytes(users)
    average_context = r.demand.work.average_context
    state = state_bytes_per_stage(config.model, replica.tensor_parallel,
                                  replica.pipeline_parallel)
    kv_avg_seq = kv_bytes_per_sequence_at(plan.kv_per_sequence_peak, state,
                                          r.demand.peak_context, average_context)
    fits = plan.weights_fit and per_gpu <= plan.budget.usable
    naive = naive_weights_bytes(r.counts.total)
    result = MemoryResult(
        params_total=r.counts.total,
        params_active=r.counts.active,
        weights_bytes=replica.weights_bytes,
        weights_bytes_per_gpu=plan.budget.weights,
        kv_bytes_per_token=per_token_replica,
        kv_bytes_per_token_per_gpu=replica.kv_bytes_per_token_per_gpu(),
        kv_bytes_per_sequence=plan.kv_per_sequence_peak * gpus,
        state_bytes_per_sequence=state * gpus,
        kv_cache_bytes=plan.kv_per_sequence_peak * gpus * users,
        kv_cache_bytes_average=kv_avg_seq * gpus * users,
        runtime_bytes=plan.budget.runtime * gpus,
        runtime_bytes_per_gpu=plan.budget.runtime,
        per_gpu_bytes=per_gpu,
        gpu_memory_bytes=plan.budget.memory,
        gpu_usable_bytes=plan.budget.usable,
        kv_budget_bytes_per_gpu=plan.budget.kv_budget,
        max_concurrent_sequences=plan.max_concurrent_sequences,
        batch_limit=plan.batch_limit,
        concurrency_sized=users,
        fits=fits,
        weights_fit=plan.weights_fit,
        peak_context_tokens=r.demand.peak_context,
        average_context_tokens=average_context,
        naive_weights_bytes=naive,
    )
    return result.revised(messages=narrative.memory_messages(
        result, config.weight_precision.name, config.kv_precision.name, gpus))


def operating_point(points: Points, index: int, output_tokens: float) -> OperatingPoint:
    row = points.at(index)
    return OperatingPoint(
        concurrency=row["concurrency"], batch=row["batch"], ttft_s=row["ttft_s"],
        itl_s=row["itl_s"], tokens_per_s_per_user=1.0 / row["itl_s"],
        output_tokens_per_s=row["output_tokens_per_s"],
        requests_per_s=row["output_tokens_per_s"] / output_tokens,
    )


def curve_points(points: Points) -> list[CurvePoint]:
    return [CurvePoint(concurrency=float(c), tokens_per_s_per_user=float(1 / i),
                       output_tokens_per_s=float(x), ttft_s=float(t), itl_s=float(i))
            for c, i, x, t in zip(points.concurrency, points.itl_s,
                                  points.output_tokens_per_s, points.ttft_s, strict=True)]


def ttft_points(replica, max_prompt: int) -> list[TtftPoint]:
    """TTFT of one user alone against prompt length, 128 tokens to the maximum context."""
    lengths = sorted({int(n) for n in np.geomspace(128, max(max_prompt, 256), 24)})
    return [TtftPoint(prompt_tokens=n, ttft_s=prefill_time(replica, n)) for n in lengths]


def breakdown(config: Configuration, batch: float, r: Resolved) -> DecodeBreakdown:
    work = r.demand.work
    share = max(0.0, 1.0 - 1.0 / batch)
    step = decode_step(config.replica, batch, work.average_context,
                       work.prefill_ratio * share, work.prompt_tokens)
    weights = float(step.weights_read[0])
    compute = float(step.compute[0] + step.prefill_compute[0])
    return DecodeBreakdown(
        weights_read_s=weights, kv_read_s=float(step.kv_read[0]),
        compute_s=float(step.compute[0]), prefill_share_s=float(step.prefill_compute[0]),
        communication_s=float(step.communication[0]), overhead_s=float(step.overhead[0]),
        activations_s=float(step.activations[0]), overlap_s=float(step.overlap[0]),
        step_s=float(step.itl[0]), bound="memory" if weights >= compute else "compute",
    )


def targets_of(r: Resolved, at: OperatingPoint, weights_fit: bool
               ) -> tuple[dict[str, float], dict[str, bool]]:
    """(targets, whether each is met at the scenario's load): none for a batch job, which
    has a completion window instead; missed when the weights do not fit."""
    if r.scenario.workload.kind == "batch_inference":
        return {}, {}
    targets = {"ttft_s": r.demand.ttft_target, "tokens_per_s_per_user": r.demand.speed_target}
    if not weights_fit:
        return targets, {"ttft": False, "tokens_per_s_per_user": False}
    return targets, {
        "ttft": at.ttft_s <= targets["ttft_s"],
        "tokens_per_s_per_user": at.tokens_per_s_per_user >= targets["tokens_per_s_per_user"]}


def performance_result(catalog: Catalog, config: Configuration, plan: MemoryPlan,
                       r: Resolved, capacity: int) -> PerformanceResult:
    """Step 4 section: operating points, curve, band, naive figure and targets.

    ``plan`` and ``capacity`` (the SLO capacity per replica) are Step 3's evaluation of
    ``config`` (:class:`~app.engine.selection.Evaluated`), not worked out again. The levers
    come apart (:func:`with_levers`): they re-evaluate the configuration about twenty times,
    most of a sizing's time, and the window shows the rest before them.
    """
    work = r.demand.work
    replica = config.replica
    saturated = saturation_of(config, plan, work)
    users = r.demand.users or float(saturated.concurrency[0])
    single = points_at(config, plan, work, [1.0])
    at_users = points_at(config, plan, work, [users]) if r.demand.users else saturated
    upper = max(users, float(saturated.concurrency[0]), 2.0)
    curve = points_at(config, plan, work, concurrency_grid(min(upper * 1.25, 4096)))
    band = band_of(config, catalog)
    at = operating_point(at_users, 0, work.output_tokens)
    targets, met = targets_of(r, at, plan.weights_fit)
    active_bytes = r.counts.active * config.weight_precision.bytes_per_element
    naive_figure = naive_tokens_per_s(config.gpu.memory_bandwidth_bytes_per_s, active_bytes)
    naive = narrative.naive_message(config.gpu.memory_bandwidth_gb_s, active_bytes / GB,
                                    naive_figure, r.counts.active, r.counts.total)
    result = PerformanceResult(
        single_user=operating_point(single, 0, work.output_tokens),
        at_concurrency=at,
        saturation=operating_point(saturated, 0, work.output_tokens),
        band=band,
        site_profile=config.site.id if config.site is not None else None,
        naive_tokens_per_s=naive_figure,
        naive_message=naive,
        slo_capacity_per_replica=capacity,
        targets=targets,
        targets_met=met,
        decode_breakdown=breakdown(config, at.batch, r),
        levers=[],
        curve=curve_points(curve),
        ttft_curve=ttft_points(replica, r.demand.peak_context),
        prefill_tokens_per_s=prefill_throughput(replica, work.prompt_tokens),
    )
    return result.revised(messages=narrative.performance_messages(result, config.engine.name))


def misses_a_target(p: PerformanceResult) -> bool:
    """True when a target is missed, so that levers are worth computing."""
    return not all(p.targets_met.values())


def with_levers(catalog: Catalog, config: Configuration, p: PerformanceResult,
                r: Resolved) -> PerformanceResult:
    """``p`` with a lever for every missed target (METHOD.md, Step 4, "Targets")."""
    if not misses_a_target(p):
        return p
    return p.model_copy(update={"levers": levers_module.levers_for(catalog, config, p, r)})


def batch_demand(catalog: Catalog, r: Resolved) -> tuple[float, float]:
    """(output tokens/s a batch job needs, its completion window [h]); the window defaults
    to the catalog's ``batch_completion_window_h``."""
    workload = r.scenario.workload
    window = workload.completion_window_hours or catalog.default("batch_completion_window_h")
    rate = batch_rate(workload.tokens_per_day, workload.requests_per_hour,
                      workload.output_tokens, window)
    return rate, window


def batch_replicas(catalog: Catalog, p: PerformanceResult, r: Resolved,
                   plan_at: str) -> int:
    """Batch: replicas from the volume, the window and the saturation throughput, at the
    end of the expected range ``plan_at`` names (:func:`app.engine.scale.planned_rate`)."""
    rate, _ = batch_demand(catalog, r)
    if rate == 0:
        return 1
    return replicas_for_rate(rate, planned_rate(p.saturation.output_tokens_per_s, p.band,
                                                plan_at),
                             catalog.default("batch_target_utilisation"))


def plan_loads(catalog: Catalog, p: PerformanceResult, r: Resolved,
               both: Capacities) -> dict[str, tuple[int | None, int]]:
    """(users per replica, replicas the load needs) at each end of planning, by ``plan_at``:
    online from the SLO capacity (:class:`app.engine.scale.Capacities`), a batch job from its
    throughput (users per replica None)."""
    if r.scenario.workload.kind == "batch_inference":
        return {end: (None, batch_replicas(catalog, p, r, end)) for end in PLAN_AT}
    return {end: (both.planned(end),
                  replicas_for_load(r.demand.users, both.planned(end), both.holds))
            for end in PLAN_AT}


def planning_result(plan_at: str, band: Band, loads: dict[str, tuple[int | None, int]],
                    nodes: dict[str, NodePlan], both: Capacities, gpus: int,
                    gpu: str, margin: tuple[float, int] | None = None) -> Planning:
    """Which end of the expected range Step 5 sized by, what the other would need, and how
    close the plan is to one more replica.

    ``loads`` are :func:`plan_loads`'s, ``nodes`` the node plan of each end's load
    (:func:`app.engine.servers.node_plan`), ``gpus`` the GPUs of one replica, ``gpu`` the
    GPU's name, ``margin`` the plan's margin and the users per replica it holds at
    (:func:`app.engine.scale.plan_margin`; None without a load of users).
    """
    figures = {end: PlanFigures(users_per_replica=loads[end][0],
                                replicas_for_load=loads[end][1],
                                replicas=nodes[end].replicas,
                                gpus_total=nodes[end].replicas * gpus,
                                nodes=nodes[end].nodes)
               for end in PLAN_AT}
    misses = plan_at == "conservative" and both.low_end_misses
    planned = figures[plan_at]
    other = figures["expected" if plan_at == "conservative" else "conservative"]
    unmet = figures["expected"].users_per_replica == 0
    message = narrative.planning_message(
        plan_at, (planned.replicas, planned.gpus_total), (other.replicas, other.gpus_total),
        gpu, misses, unmet=unmet, holds=both.holds)
    if margin is not None and not (misses or unmet):
        message = msg("{planning} {margin}", planning=message,
                      margin=narrative.margin_message(margin[0], margin[1], plan_at))
    return Planning(plan_at=plan_at, band_low=band.low, expected=figures["expected"],
                    conservative=figures["conservative"], low_end_misses=misses,
                    margin=None if margin is None or misses or unmet else margin[0],
                    message=message)


def batch_hours(catalog: Catalog, p: PerformanceResult, r: Resolved,
                replicas: int) -> float | None:
    """Hours the batch volume takes on ``replicas`` at saturation (None for online)."""
    if r.scenario.workload.kind != "batch_inference":
        return None
    rate, window = batch_demand(catalog, r)
    return batch_completion_hours(rate, window, replicas, p.saturation.output_tokens_per_s)


def scale_result(catalog: Catalog, config: Configuration, p: PerformanceResult,
                 r: Resolved, load: int, plan: NodePlan,
                 planning: Planning | None = None) -> ScaleResult:
    """Step 5 section: replicas, nodes, failure behaviour, cold start.

    ``load`` is the replicas the load needs, ``plan`` how they and the redundancy land on
    servers (:func:`app.engine.servers.node_plan`).
    """
    tier = storage_tier_of(r.scenario, catalog)
    per_node = weights_bytes_per_node(config.replica.weights_bytes, plan.replicas_per_node,
                                      plan.nodes_per_replica)
    cold = cold_start_s(per_node, tier.read_gb_s * GB,
                        catalog.default("cold_start_load_efficiency"),
                        catalog.default("engine_start_s"))
    failure = narrative.failure_message(plan.nodes, surviving_replicas(plan), plan.replicas,
                                        load)
    hours = batch_hours(catalog, p, r, load)
    messages = narrative.scale_messages(load, r.demand.redundancy, plan.replicas, plan.nodes,
                                        plan.server.name, tier.name, tier.read_gb_s, cold,
                                        hours)
    messages.insert(1, failure)
    if planning is not None:
        messages.insert(1, planning.message)
    return ScaleResult(
        redundancy=r.demand.redundancy, replicas_for_load=load, replicas=plan.replicas,
        gpus_total=plan.replicas * config.replica.gpus, server=plan.server.id,
        server_name=plan.server.name,
        gpus_per_node=plan.server.gpu_count, replicas_per_node=plan.replicas_per_node,
        nodes_per_replica=plan.nodes_per_replica, nodes=plan.nodes,
        autoscale_min_replicas=autoscale_min_replicas(r.demand.redundancy, plan.replicas),
        autoscale_max_replicas=plan.replicas,
        cold_start_s=cold, storage_tier=tier.id, batch_completion_hours=hours,
        failure_message=failure, planning=planning, messages=messages,
    )


def sizing_result(catalog: Catalog, r: Resolved, config: Configuration,
                  site: InfrastructureResult, **sections: Any) -> SizingResult:
    """The result of a sizing: ``sections`` (inputs, memory, performance, selection, scale,
    training, rag, cpu, test_plan, assumptions, warning_messages) with what every sizing
    adds alike: the versions, the model and GPU facts, and the site with its headline
    facility and cost figures."""
    verdict = verdict_of(catalog, r, sections["memory"], sections["performance"],
                         sections["scale"], sections.get("training"))
    selection = sections.pop("selection")
    chosen = selection.chosen.model_copy(update={"verdict": verdict.state})
    return SizingResult(
        tool_version=__version__, catalog_versions=dict(catalog.versions),
        model=model_facts(r), gpu=gpu_facts(config), facility=facility_result(site),
        cost=cost_result(site), infrastructure=site, verdict=verdict,
        selection=selection.model_copy(update={"chosen": chosen}), **sections)


def serving_state(memory: MemoryResult, p: PerformanceResult) -> str:
    """The serving verdict's state: does not fit, else which targets the load meets."""
    if not memory.fits:
        return "does not fit"
    ttft = p.targets_met.get("ttft", True)
    speed = p.targets_met.get("tokens_per_s_per_user", True)
    if ttft and speed:
        return "meets targets"
    if not ttft and not speed:
        return "misses both targets"
    return "misses tokens/s" if ttft else "misses TTFT"


def verdict_of(catalog: Catalog, r: Resolved, memory: MemoryResult, p: PerformanceResult,
               scale: ScaleResult, training: TrainingResult | None = None) -> Verdict:
    """The one verdict on the configuration, for the workload's kind (METHOD.md, "The
    verdict").

    Training (``training`` given): does the training memory fit, then is the target time
    met. Batch: does the memory fit the sequences one replica carries, then does the volume
    complete in the window (``scale.batch_completion_hours``). Serving: does the memory fit
    the users one replica carries at peak context, then which targets the scenario's load
    meets. A configuration that does not fit gets no other verdict: its speed and first-token
    figures do not describe a run that could happen.
    """
    if training is not None:
        state = ("does not fit" if not training.fits
                 else "misses the target time" if training.meets_target is False else "fits")
        return Verdict(workload="training", state=state, fits=training.fits,
                       message=narrative.training_verdict(state, training))
    if r.scenario.workload.kind == "batch_inference":
        _, window = batch_demand(catalog, r)
        hours = scale.batch_completion_hours or 0.0
        state = ("does not fit" if not memory.fits
                 else "meets the window" if hours <= window * (1 + 1e-9) else "misses the window")
        return Verdict(workload="batch", state=state, fits=memory.fits,
                       message=narrative.batch_verdict(state, memory, hours, window,
                                                       scale.replicas_for_load))
    state = serving_state(memory, p)
    message = (narrative.serving_does_not_fit(memory) if state == "does not fit"
               else narrative.serving_verdict(state, p))
    return Verdict(workload="serving", state=state, fits=memory.fits, message=message)


def facility_result(site: InfrastructureResult) -> FacilityResult:
    """The headline facility figures (details in ``infrastructure``)."""
    return FacilityResult(it_power_w=site.power.it_max_w, facility_power_w=site.power.facility_w,
                          pue=site.power.pue, heat_btu_per_h=site.cooling.heat_btu_per_h,
                          cooling_tons=site.cooling.tons, racks=len(site.racks),
                          cooling=site.cooling.kind, annual_energy_kwh=site.energy.annual_kwh)


def cost_note(estimated: bool, missing: list[str]) -> list[Message]:
    """The cost note as sentences: where the prices come from, then each item without one.

    ``missing`` holds cost item names (``CostLine.item``); each is its own parameter, so the
    window and the report translate it.
    """
    prices = ("Indicative prices from the catalog, dated and sourced (street prices vary by "
              "20-40 %). Lines marked estimated are street or analyst estimates or a planning "
              "rule where no list price is published."
              if estimated else
              "Indicative prices from the catalog, dated and sourced (street prices vary by "
              "20-40 %).")
    return [msg(prices), *(msg("No price for {item}.", item=item) for item in missing)]


def cost_result(site: InfrastructureResult) -> CostResult:
    """The headline capital figures (lines in ``infrastructure.cost_lines``) and their note."""
    note = cost_note(any(line.estimated for line in site.cost_lines),
                     [line.item for line in site.cost_lines if line.total_usd is None])
    compute = [line.total_usd for line in site.cost_lines if line.gpus_each > 0]
    priced = [total for total in compute if total is not None]
    return CostResult(capital_usd=site.capital_usd or None,
                      gpus_usd=sum(priced) if priced else None, servers_usd=None,
                      compute_complete=len(priced) == len(compute),
                      unpriced=list(site.unpriced), note_messages=note)


#: GPU families as their makers name them (``GpuSpec.family`` is an id: 'hopper', 'cdna3').
FAMILY_NAMES = {"ampere": "Ampere", "ada": "Ada Lovelace", "hopper": "Hopper",
                "blackwell": "Blackwell", "rubin": "Rubin", "cdna3": "CDNA 3", "cdna4": "CDNA 4",
                "gaudi": "Gaudi"}


FACTOR_UNITS = {"step_overhead_s": "s", "sequence_overhead_s": "s", "layer_overhead_s": "s",
                "fixed_latency_s": "s", "comm_latency_s": "s"}


def catalog_source(gpu_or_engine) -> Message:
    """A catalog entry's citation with its date."""
    return msg("{source} (as of {date})", source=gpu_or_engine.source,
               date=str(gpu_or_engine.as_of))


def format_name(precision) -> str:
    """A number format's short name ('FP8' of 'FP8 (E4M3, per-tensor or per-channel
    scales)')."""
    return precision.name.split(" (")[0]


def engine_assumptions(catalog: Catalog, config: Configuration,
                       r: Resolved) -> list[Assumption]:
    """Every efficiency factor, engine default and hardware figure the result used."""
    engine, gpu, s = config.engine, config.gpu, config.settings
    _, _, calibrated = band_for(config, catalog)
    dated = {"engine": engine.name, "source": engine.source, "date": str(engine.as_of)}
    source = (msg("{engine} profile (calibrated): {source} (as of {date})", **dated)
              if calibrated else
              msg("{engine} profile (not calibrated on this GPU family): {source} (as of {date})",
                  **dated))
    factor_source = site_source(config) if config.site is not None else source
    given = msg("set in this scenario")
    overrides = r.scenario.factor_overrides
    rows = [Assumption(name=f"{engine.id}.{name}", value=value,
                       unit=FACTOR_UNITS.get(name, ""), overridden=name in overrides,
                       subject=engine.name,
                       **sourced(given if name in overrides else factor_source))
            for name, value in vars(config.replica.factors).items()]
    on_gpu = {"subject": gpu.name, **sourced(catalog_source(gpu))}
    rows += [
        Assumption(name="memory_fraction", value=s.memory_fraction, **sourced(source),
                   overridden=r.scenario.serving.memory_fraction is not None),
        Assumption(name="batch_limit", value=s.batch_limit, unit="sequences", **sourced(source),
                   overridden=r.scenario.serving.max_batch_size is not None),
        Assumption(name="max_batched_tokens", value=s.max_batched_tokens, unit="tokens",
                   **sourced(source),
                   overridden=r.scenario.serving.max_batched_tokens is not None),
        Assumption(name="kv_block_tokens", value=s.block_tokens, unit="tokens", **sourced(source)),
        Assumption(name="runtime_base", value=s.runtime_base_bytes, unit="B", **sourced(source)),
        Assumption(name="cuda_graphs", value=s.cuda_graph_bytes, unit="B",
                   **sourced(default_source(catalog, "cuda_graph_gb"))),
        Assumption(name=f"{gpu.id}.memory", value=gpu.memory_bytes, unit="B", **on_gpu),
        Assumption(name=f"{gpu.id}.memory_bandwidth", value=gpu.memory_bandwidth_bytes_per_s,
                   unit="B/s", **on_gpu),
        Assumption(name=f"{gpu.id}.peak_{config.weight_precision.compute}",
                   value=config.replica.peak_flops, unit="FLOP/s", **on_gpu),
        Assumption(name=f"{config.weight_precision.id}.bits", value=config.weight_precision.bits,
                   unit="bits/weight", source=config.weight_precision.source,
                   subject=format_name(config.weight_precision)),
    ]
    return rows


def dp_attention_warnings(config: Configuration, r: Resolved) -> list[Message]:
    """SGLang with DP attention serving users: its TTFT under load is not in the figures.

    dstack's DeepSeek-R1 runs on 8 x H200 (SGLang 0.4, ``--enable-dp-attention``, 3,200-token
    prompts; calibration cases pub-232 and pub-235, skipped for this reason) measured a mean
    TTFT of 3.9 s at 4 users and 11.0 s at 32 against a 0.2 s prefill: the DP ranks prefill
    together, so a prompt waits for the ranks' joint prefill steps, which no profile models.
    """
    if not config.replica.dp_attention or config.engine.id != "sglang" \
            or r.scenario.workload.kind != "online_inference":
        return []
    return [msg("SGLang with DP attention: its time to first token under load is not in the "
                "figures. Measured on 8 x H200 with DeepSeek-R1 (SGLang 0.4, 3,200-token "
                "prompts), the DP ranks' joint prefill steps made it 3.9 s at 4 users and "
                "11.0 s at 32 against a 0.2 s prefill. Measure it before relying on the TTFT "
                "target, or size with tensor parallelism alone.")]


def speculative_warnings(config: Configuration) -> list[Message]:
    """Speculative-decoding heads loaded: what they cost in memory, and what is not modelled."""
    replica = config.replica
    if not config.settings.speculative:
        return []
    return [plural(config.settings.speculative_layers, msg(
        "Speculative decoding is on: its heads add {gb:,.1f} GB of weights and the KV cache of "
        "one more layer per replica; its speed-up depends on how many drafted tokens are "
        "accepted and is not in the figures."), msg(
        "Speculative decoding is on: its heads add {gb:,.1f} GB of weights and the KV cache of "
        "{layers:,} more layers per replica; its speed-up depends on how many drafted tokens "
        "are accepted and is not in the figures."), gb=replica.idle_weights_bytes / 1e9,
        layers=config.settings.speculative_layers)]


def warnings_for(catalog: Catalog, config: Configuration, memory: MemoryResult,
                 p: PerformanceResult, scale: ScaleResult, r: Resolved) -> list[Message]:
    """What the user must know, as translatable sentences."""
    out = []
    if not memory.weights_fit:
        out.append(msg("The weights do not fit on {gpus} x {gpu}: use more GPUs, a larger GPU "
                       "or a smaller weight format.", gpus=config.replica.gpus,
                       gpu=config.gpu.name))
    elif not memory.fits:
        # one user: not even its sequence fits (fewer fit than the users sized for)
        out.append(plural(
            memory.concurrency_sized,
            msg("The KV cache for one user at {context:,} tokens does not fit: not even one "
                "sequence fits per replica."),
            plural(memory.max_concurrent_sequences,
                   msg("The KV cache for {users} users at {context:,} tokens does not fit: only "
                       "one sequence fits per replica; the others wait in a queue."),
                   msg("The KV cache for {users} users at {context:,} tokens does not fit: only "
                       "{n} sequences fit per replica; the others wait in a queue.")),
            users=memory.concurrency_sized, context=memory.peak_context_tokens,
            n=memory.max_concurrent_sequences))
    window = r.scenario.workload.completion_window_hours
    hours = scale.batch_completion_hours
    if hours and window and hours > window:
        out.append(msg("The batch needs {hours:.1f} h, longer than its {window:g} h window.",
                       hours=hours, window=window))
    if not p.targets_met.get("tokens_per_s_per_user", True):
        out.append(msg("{speed:.1f} tokens/s per user misses the target of {target:g}.",
                       speed=p.at_concurrency.tokens_per_s_per_user,
                       target=p.targets["tokens_per_s_per_user"]))
    if not p.targets_met.get("ttft", True):
        out.append(msg("TTFT of {ttft:.2f} s misses the target of {target:g} s.",
                       ttft=p.at_concurrency.ttft_s, target=p.targets["ttft_s"]))
    out += hardware_warnings(catalog, config)
    out += grade_warnings(catalog, config, scale)
    out += speculative_warnings(config)
    out += dp_attention_warnings(config, r)
    if scale.nodes <= 1 and r.demand.redundancy == "none":
        out.append(msg("A single node without redundancy: any failure stops the service."))
    if (p.targets and r.demand.users is not None and p.slo_capacity_per_replica == 0
            and memory.max_concurrent_sequences >= 1):
        out.append(msg("No load meets both targets on this configuration; replicas were sized "
                       "on what memory admits, and the targets stay missed."))
    return out


def site_source(config: Configuration) -> Message:
    """Where site-calibrated factors come from: the profile, its scales and its files."""
    site = config.site
    files = ", ".join(f"{f.name} (SHA-256 {f.sha256[:12]})" for f in site.measurement_files)
    return msg("{engine} profile, site-calibrated with site profile '{profile}' ({version}, "
               "decode x{decode:,.3f}, prefill x{prefill:,.3f}, measured {date}): {files}",
               engine=config.engine.name, profile=site.id, version=site.engine_version,
               decode=site.decode_scale, prefill=site.prefill_scale, date=str(site.as_of),
               files=files)


#: A GPU's catalog fields in the user's words, for the warning that some were derived.
GPU_FIELD_NAMES = {
    "visible_memory_gib": msg("memory the driver shows"),
    "memory_gb": msg("memory size"),
    "usable_memory_gb": msg("usable memory"),
    "memory_bandwidth_gb_s": msg("memory bandwidth"),
    "bf16_tflops": msg("BF16 compute"),
    "fp8_tflops": msg("FP8 compute"),
    "fp4_tflops": msg("FP4 compute"),
    "int8_tops": msg("INT8 compute"),
    "scale_up_gb_s": msg("GPU-to-GPU bandwidth"),
    "tdp_w": msg("power (TDP)"),
    "max_power_w": msg("maximum power"),
    "typical_power_w": msg("typical power"),
    "price_usd": msg("price"),
}


def gpu_field_names(fields: list[str]) -> list[Message]:
    """Catalog field names as the user reads them (a field without words: as it is, its
    underscores as spaces)."""
    return [GPU_FIELD_NAMES.get(name, verbatim(name.replace("_", " "))) for name in fields]


def hardware_warnings(catalog: Catalog, config: Configuration) -> list[Message]:
    """Warnings about how well the numbers for this GPU and format are known."""
    out = []
    if not band_for(config, catalog)[2]:
        out.append(msg("The {engine} profile is not calibrated against measurements on "
                       "{family} GPUs; performance figures carry a wider band. Calibrate from a "
                       "measurement where possible.", engine=config.engine.name,
                       family=FAMILY_NAMES.get(config.gpu.family, config.gpu.family)))
    if config.gpu.derived:
        out.append(composed(msg(  # Composed: the field names are Messages in every language
            "{gpu}: {fields} derived rather than read from a datasheet; check before relying "
            "on them.", gpu=config.gpu.name, fields=gpu_field_names(config.gpu.derived))))
    if config.gpu.preliminary:
        out.append(msg("{gpu}: preliminary figures (announced, no shipping datasheet yet; "
                       "sources disagree, see the catalog notes); the plan is forward-looking "
                       "and must be checked against the datasheet before an order.",
                       gpu=config.gpu.name))
    if config.weight_precision.quality in ("small-loss", "noticeable-loss"):
        out.append(msg("{fmt} weights lose some quality; regulated sectors usually keep 8 or "
                       "16 bit.", fmt=config.weight_precision.name))
    return out


def grade_warnings(catalog: Catalog, config: Configuration,
                   scale: ScaleResult) -> list[Message]:
    """What a data-centre architect must know about parts that are not data-centre grade:
    a workstation or consumer GPU, and tower or desk-side systems put on rack shelves."""
    out = []
    gpu = config.gpu
    if gpu.gpu_class == "consumer":
        out.append(msg("{gpu} is a consumer GPU: no ECC memory, the GeForce driver licence does "
                       "not allow deployment in a data centre, and there is no data-centre "
                       "support. Use it for a lab or a pilot, not for production.",
                       gpu=gpu.name))
    elif gpu.gpu_class == "workstation":
        out.append(msg("{gpu} is a workstation GPU: made for desks (its own fans, tower "
                       "chassis), not for dense racks; check the vendor's licence and support "
                       "terms for data-centre use.", gpu=gpu.name))
    server = catalog.servers.get(scale.server)
    if server is not None and server.chassis in ("tower", "desktop"):
        out.append(plural(
            scale.nodes,
            msg("The plan puts one {server} ({units}U) on a rack shelf: a tower or desk-side "
                "system has no rails, no redundant hot-swap power and no assured "
                "front-to-back airflow."),
            msg("The plan puts {nodes} x {server} ({units}U each) on rack shelves: tower or "
                "desk-side systems have no rails, no redundant hot-swap power and no assured "
                "front-to-back airflow."),
            nodes=scale.nodes, server=server.name, units=server.rack_units))
    return out


def derived_concurrency(scenario: Scenario, r: Resolved) -> dict:
    """The requests in flight an activity model gave (``workload.concurrent_users``) and the
    activity with its defaults filled in; nothing for a scenario without one."""
    activity = scenario.workload.activity
    if activity is None or r.demand.users is None or scenario.workload.kind != "online_inference":
        return {}
    used = {a.name: a.value for a in r.assumptions}
    filled = activity.model_copy(update={
        "active_share": used.get("active_share_busiest_hour", activity.active_share),
        "requests_per_active_user_per_minute": used.get(
            "requests_per_active_user_per_minute",
            activity.requests_per_active_user_per_minute)})
    return {"concurrent_users": r.demand.users, "activity": filled}


def inputs_after_defaults(r: Resolved, config: Configuration) -> Scenario:
    """The scenario after defaults: Step 3's choice, the targets, the formats and the engine
    settings written back, so that sizing it again evaluates the same configuration."""
    scenario, s = r.scenario, config.settings
    return scenario.model_copy(update={
        "workload": scenario.workload.model_copy(
            update={"max_context_tokens": r.demand.peak_context,
                    **derived_concurrency(scenario, r)}),
        "precision": scenario.precision.model_copy(update={
            "weights": config.weight_precision.id, "kv_cache": config.kv_precision.id,
            "allowed_weights": r.allowed_weights}),
        "targets": Targets.model_construct(ttft_s=r.demand.ttft_target,
                                           tokens_per_s_per_user=r.demand.speed_target,
                                           plan_at=r.demand.plan_at),
        "hardware": Hardware.model_construct(
            gpu=config.gpu.id, gpus_per_replica=config.replica.gpus,
            tensor_parallel=config.tensor_parallel, pipeline_parallel=config.pipeline_parallel,
            expert_parallel=config.replica.expert_parallel,
            dp_attention=config.replica.dp_attention,
            server=scenario.hardware.server if scenario.hardware else None),
        "serving": scenario.serving.model_copy(update={
            "memory_fraction": s.memory_fraction, "max_batch_size": s.batch_limit,
            "max_batched_tokens": s.max_batched_tokens}),
    })


def model_facts(r: Resolved) -> ModelFacts:
    """The model as the sizing counted it."""
    m = r.model
    return ModelFacts(id=m.id, name=m.name, params_total=r.counts.total,
                      params_active=r.counts.active, layers=m.layers, hidden_size=m.hidden_size,
                      attention_heads=m.attention_heads, kv_heads=m.kv_heads,
                      head_dim=m.head_dim_value, max_context_tokens=m.max_context_tokens,
                      moe=m.moe is not None, mla=m.mla is not None,
                      sliding_window=m.sliding_window, source=m.source,
                      linear_layers=m.layers - m.attention_layers,
                      sparse_top_k=m.sparse_attention.top_k if m.sparse_attention else None,
                      speculative_layers=m.speculative.layers if m.speculative else 0)


def gpu_facts(config: Configuration) -> GpuFacts:
    """The configuration's GPU; the peak is the one of the weight format's arithmetic."""
    g = config.gpu
    return GpuFacts(id=g.id, name=g.name, memory_bytes=g.memory_bytes,
                    memory_bandwidth_bytes_per_s=g.memory_bandwidth_bytes_per_s,
                    peak_flops=config.replica.peak_flops, tdp_w=g.tdp_w, scale_up=g.scale_up,
                    source=g.source)


def with_rack_failure(scale: ScaleResult, racks: Sequence[RackResult]) -> ScaleResult:
    """``scale`` with what still serves when one rack of ``racks`` fails.

    ``racks`` is the infrastructure sizing's layout (compute racks filled with nodes in
    order); the rack statement and a note on whether the redundancy covers a rack follow
    the node statement in the messages.
    """
    layout = nodes_per_compute_rack(racks) or [scale.nodes]
    left = replicas_after_rack_failure(scale.replicas, scale.nodes_per_replica, layout)
    survives = left >= scale.replicas_for_load
    statement = narrative.rack_failure_message(len(layout), left, scale.replicas,
                                               scale.replicas_for_load)
    note = narrative.rack_redundancy_message(scale.redundancy, survives, len(layout),
                                             max(layout), scale.nodes)
    node_left = replicas_after_node_failure(scale.replicas, scale.nodes,
                                            scale.nodes_per_replica)
    return with_rack_fields(scale, layout, node_left, left, statement, note)


def with_rack_fields(scale: ScaleResult, layout: list[int], node_left: int, rack_left: int,
                      statement: Message, note: Message | None) -> ScaleResult:
    """The failure fields of ``scale`` filled in; the new messages follow the node one."""
    added = [m for m in (statement, note) if m is not None]
    at = (scale.messages.index(scale.failure_message) + 1
          if scale.failure_message in scale.messages else len(scale.messages))
    messages = scale.messages[:at] + added + scale.messages[at:]
    return scale.revised(
        compute_racks=len(layout), nodes_in_fullest_rack=max(layout),
        replicas_after_node_failure=node_left, replicas_after_rack_failure=rack_left,
        survives_rack_failure=rack_left >= scale.replicas_for_load,
        rack_failure_message=statement, rack_redundancy_message=note, messages=messages)

