"""Turn engine numbers into the result sections, each with its plain-sentence explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from app.domain.catalog import Catalog, ServerSpec
from app.domain.result import (
    Assumption,
    Band,
    CostResult,
    CurvePoint,
    DecodeBreakdown,
    FacilityResult,
    InfrastructureResult,
    MemoryResult,
    OperatingPoint,
    PerformanceResult,
    ScaleResult,
    TtftPoint,
)
from app.engine import levers as levers_module
from app.engine import narrative
from app.engine.configuration import Configuration
from app.engine.evaluate import MemoryPlan, batch_cap, points_at, saturation_of
from app.engine.inference import (
    decode_step,
    naive_tokens_per_s,
    prefill_throughput,
    prefill_time,
)
from app.engine.memory import kv_bytes_per_token_per_layer, naive_weights_bytes
from app.engine.performance import Points, batch_grid, by_batch, concurrency_grid, slo_capacity
from app.engine.scale import (
    batch_rate,
    choose_server,
    cold_start_s,
    replicas_for_rate,
    surviving_replicas,
)
from app.i18n import Message, msg

if TYPE_CHECKING:
    from app.engine.pipeline import Resolved

GB = 1e9
GIB = 2**30
HOURS_PER_YEAR = 8760.0


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
    per_layer = kv_bytes_per_token_per_layer(config.model, replica.kv_bytes_per_element,
                                             replica.tensor_parallel)
    per_token_replica = per_layer * config.model.layers * replica.tensor_parallel
    per_gpu = plan.per_gpu_bytes(users)
    average_context = r.demand.work.average_context
    kv_avg_seq = plan.kv_per_sequence_peak * average_context / r.demand.peak_context
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
        explanation=[],
    )
    messages = narrative.memory_messages(result, config.weight_precision.name,
                                         config.kv_precision.name, gpus)
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})


def band_for(config: Configuration, catalog: Catalog) -> tuple[float, float, bool]:
    """(low, high, calibrated) for this engine on this GPU family."""
    engine = config.engine
    calibrated = engine.calibrated and config.gpu.family in engine.family_factors
    if calibrated:
        return engine.band_low, engine.band_high, True
    return (min(engine.band_low, catalog.default("uncalibrated_band_low")),
            max(engine.band_high, catalog.default("uncalibrated_band_high")), False)


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
        bound="memory" if weights >= compute else "compute",
    )


def performance_result(catalog: Catalog, config: Configuration, plan: MemoryPlan,
                       r: Resolved) -> PerformanceResult:
    """Step 4 section: operating points, curve, band, naive figure, targets and levers."""
    work = r.demand.work
    replica = config.replica
    saturated = saturation_of(config, plan, work)
    users = r.demand.users or float(saturated.concurrency[0])
    single = points_at(config, plan, work, [1.0])
    at_users = points_at(config, plan, work, [users]) if r.demand.users else saturated
    upper = max(users, float(saturated.concurrency[0]), 2.0)
    curve = points_at(config, plan, work, concurrency_grid(min(upper * 1.25, 4096)))
    by_b = by_batch(replica, work, batch_grid(batch_cap(config, plan, work)))
    capacity = min(slo_capacity(by_b, r.demand.ttft_target, r.demand.speed_target),
                   plan.max_concurrent_sequences)
    low, high, _ = band_for(config, catalog)
    targets = {"ttft_s": r.demand.ttft_target, "tokens_per_s_per_user": r.demand.speed_target}
    at = operating_point(at_users, 0, work.output_tokens)
    met = {"ttft": at.ttft_s <= targets["ttft_s"],
           "tokens_per_s_per_user": at.tokens_per_s_per_user >= targets["tokens_per_s_per_user"]}
    if not plan.weights_fit:
        met = {"ttft": False, "tokens_per_s_per_user": False}
    if r.scenario.workload.kind == "batch_inference":
        targets, met = {}, {}  # a batch job has a completion window, not per-user targets
    model_bytes = r.counts.total * config.weight_precision.bytes_per_element
    naive_figure = naive_tokens_per_s(config.gpu.memory_bandwidth_bytes_per_s, model_bytes)
    naive = narrative.naive_message(config.gpu.memory_bandwidth_gb_s, model_bytes / GB,
                                    naive_figure)
    result = PerformanceResult(
        single_user=operating_point(single, 0, work.output_tokens),
        at_concurrency=at,
        saturation=operating_point(saturated, 0, work.output_tokens),
        band=Band(low=low, high=high),
        naive_tokens_per_s=naive_figure,
        naive_explanation=naive.text(),
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
    found = levers_module.levers_for(catalog, config, result, r) if not all(met.values()) else []
    messages = narrative.performance_messages(result, config.engine.name)
    return result.model_copy(update={"levers": found, "messages": messages,
                                     "explanation": narrative.texts(messages)})


def batch_replicas(catalog: Catalog, p: PerformanceResult, r: Resolved) -> int:
    """Batch: replicas from the volume, the window and the saturation throughput."""
    workload = r.scenario.workload
    window = workload.completion_window_hours or catalog.default("batch_completion_window_h")
    rate = batch_rate(workload.tokens_per_day, workload.requests_per_hour,
                      workload.output_tokens, window)
    if rate == 0:
        return 1
    return replicas_for_rate(rate, p.saturation.output_tokens_per_s,
                             catalog.default("batch_target_utilisation"))


def batch_hours(catalog: Catalog, p: PerformanceResult, r: Resolved, replicas: int):
    """Hours the batch volume takes on ``replicas`` at saturation (None for online)."""
    workload = r.scenario.workload
    if workload.kind != "batch_inference":
        return None
    window = workload.completion_window_hours or catalog.default("batch_completion_window_h")
    rate = batch_rate(workload.tokens_per_day, workload.requests_per_hour,
                      workload.output_tokens, window)
    return rate * window / (replicas * p.saturation.output_tokens_per_s)


def scale_result(catalog: Catalog, config: Configuration, p: PerformanceResult,
                 r: Resolved, load: int) -> ScaleResult:
    """Step 5 section: replicas, nodes, failure behaviour, cold start."""
    servers = server_options(catalog, config, r)
    plan = choose_server(servers, config.replica.gpus, load, r.demand.redundancy)
    tier = catalog.entry("storage", r.scenario.availability.storage_tier)
    per_node = config.replica.weights_bytes * max(plan.replicas_per_node, 1)
    if plan.nodes_per_replica > 1:
        per_node = config.replica.weights_bytes / plan.nodes_per_replica
    cold = cold_start_s(per_node, tier.read_gb_s * GB,
                        catalog.default("cold_start_load_efficiency"),
                        catalog.default("engine_start_s"))
    floor = 1 if r.demand.redundancy == "none" else min(2, plan.replicas)
    failure = narrative.failure_message(plan.nodes, surviving_replicas(plan), plan.replicas,
                                        load)
    hours = batch_hours(catalog, p, r, load)
    messages = narrative.scale_messages(load, r.demand.redundancy, plan.replicas, plan.nodes,
                                        plan.server.name, tier.name, tier.read_gb_s, cold,
                                        hours)
    messages.insert(1, failure)
    return ScaleResult(
        redundancy=r.demand.redundancy, replicas_for_load=load, replicas=plan.replicas,
        gpus_total=plan.replicas * config.replica.gpus, server=plan.server.id,
        gpus_per_node=plan.server.gpu_count, replicas_per_node=plan.replicas_per_node,
        nodes_per_replica=plan.nodes_per_replica, nodes=plan.nodes,
        autoscale_min_replicas=max(floor, 1), autoscale_max_replicas=plan.replicas,
        cold_start_s=cold, storage_tier=tier.id, batch_completion_hours=hours,
        failure_statement=failure.text(), failure_message=failure, messages=messages,
        explanation=narrative.texts(messages),
    )


def server_options(catalog: Catalog, config: Configuration, r: Resolved) -> list:
    """Servers that take this GPU (or the one the user named)."""
    name = r.scenario.hardware.server if r.scenario.hardware else None
    if name:
        from app.engine.pipeline import SizingError

        server = catalog.servers.get(name)
        hosts = [s for s in catalog.servers.values() if config.gpu.id in s.gpu_ids]
        if server is None or server not in hosts:
            raise SizingError(f"hardware.server: '{name}' is not a server for "
                              f"{config.gpu.id}; choose one of {sorted(s.id for s in hosts)}")
        return [server]
    hosts = [s for s in catalog.servers.values() if config.gpu.id in s.gpu_ids]
    return hosts or [generic_server(catalog, config)]


def generic_server(catalog: Catalog, config: Configuration) -> ServerSpec:
    """A planning server for a GPU no catalog server lists (e.g. one the user added).

    GPUs per node = the GPU's scale-up domain; power = host default + GPUs x TDP.
    """
    gpu = config.gpu
    count = min(gpu.max_gpus_per_node, 8)
    host = catalog.default("host_power_w")
    return ServerSpec(
        id=f"generic-{gpu.id}", name=f"Generic {count}-GPU server for {gpu.name}",
        vendor="generic", gpu_ids=[gpu.id], gpu_count=count, rack_units=4 if count > 2 else 2,
        max_power_w=host + count * gpu.tdp_w, scale_up=gpu.scale_up, source=(
            "derived: no catalog server lists this GPU; host power default + GPUs x TDP"),
        as_of=gpu.as_of, derived=["gpu_count", "rack_units", "max_power_w"])


def facility_result(site: InfrastructureResult) -> FacilityResult:
    """The headline facility figures (details in ``infrastructure``)."""
    return FacilityResult(it_power_w=site.power.it_max_w, facility_power_w=site.power.facility_w,
                          pue=site.power.pue, heat_btu_per_h=site.cooling.heat_btu_per_h,
                          cooling_tons=site.cooling.tons, racks=len(site.racks),
                          cooling=site.cooling.kind, annual_energy_kwh=site.energy.annual_kwh)


def cost_result(site: InfrastructureResult) -> CostResult:
    """The headline capital figures (lines in ``infrastructure.cost_lines``)."""
    first = site.cost_lines[0] if site.cost_lines else None
    estimated = any(line.estimated for line in site.cost_lines)
    missing = [line.item for line in site.cost_lines if line.total_usd is None]
    note = ("Indicative prices from the catalog, dated and sourced (street prices vary by "
            "20-40 %).")
    if estimated:
        note += " Lines marked estimated use a planning rule where no price is published."
    if missing:
        note += " No price for: " + ", ".join(missing) + "."
    return CostResult(capital_usd=site.capital_usd or None,
                      gpus_usd=first.total_usd if first else None,
                      servers_usd=None, note=note)


FACTOR_UNITS = {"step_overhead_s": "s", "layer_overhead_s": "s", "fixed_latency_s": "s",
                "comm_latency_s": "s"}


def engine_assumptions(catalog: Catalog, config: Configuration,
                       r: Resolved) -> list[Assumption]:
    """Every efficiency factor, engine default and hardware figure the result used."""
    engine, gpu, s = config.engine, config.gpu, config.settings
    _, _, calibrated = band_for(config, catalog)
    how = "calibrated" if calibrated else "not calibrated on this GPU family"
    source = f"{engine.name} profile ({how}): {engine.source} (as of {engine.as_of})"
    overrides = r.scenario.factor_overrides
    rows = [Assumption(name=f"{engine.id}.{name}", value=value,
                       unit=FACTOR_UNITS.get(name, ""), overridden=name in overrides,
                       source="set in this scenario" if name in overrides else source)
            for name, value in vars(config.replica.factors).items()]
    rows += [
        Assumption(name="memory_fraction", value=s.memory_fraction, source=source,
                   overridden=r.scenario.serving.memory_fraction is not None),
        Assumption(name="batch_limit", value=s.batch_limit, unit="sequences", source=source,
                   overridden=r.scenario.serving.max_batch_size is not None),
        Assumption(name="max_batched_tokens", value=s.max_batched_tokens, unit="tokens",
                   source=source, overridden=r.scenario.serving.max_batched_tokens is not None),
        Assumption(name="kv_block_tokens", value=s.block_tokens, unit="tokens", source=source),
        Assumption(name="runtime_base", value=s.runtime_base_bytes, unit="B", source=source),
        Assumption(name="cuda_graphs", value=s.cuda_graph_bytes, unit="B",
                   source="catalog default cuda_graph_gb"),
        Assumption(name=f"{gpu.id}.memory", value=gpu.memory_bytes, unit="B",
                   source=f"{gpu.source} (as of {gpu.as_of})"),
        Assumption(name=f"{gpu.id}.memory_bandwidth", value=gpu.memory_bandwidth_bytes_per_s,
                   unit="B/s", source=f"{gpu.source} (as of {gpu.as_of})"),
        Assumption(name=f"{gpu.id}.peak_{config.weight_precision.compute}",
                   value=config.replica.peak_flops, unit="FLOP/s",
                   source=f"{gpu.source} (as of {gpu.as_of})"),
        Assumption(name=f"{config.weight_precision.id}.bits", value=config.weight_precision.bits,
                   unit="bits/weight", source=config.weight_precision.source),
    ]
    return rows


def warnings_for(catalog: Catalog, config: Configuration, memory: MemoryResult,
                 p: PerformanceResult, scale: ScaleResult, r: Resolved) -> list[Message]:
    """What the user must know, as translatable sentences."""
    out = []
    if not memory.weights_fit:
        out.append(msg("The weights do not fit on {gpus} x {gpu}: use more GPUs, a larger GPU "
                       "or a smaller weight format.", gpus=config.replica.gpus,
                       gpu=config.gpu.name))
    elif not memory.fits:
        out.append(msg("The KV cache for {users} users at {context:,} tokens does not fit: only "
                       "{n} sequences fit per replica; the others wait in a queue.",
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
    if scale.nodes <= 1 and r.demand.redundancy == "none":
        out.append(msg("A single node without redundancy: any failure stops the service."))
    if p.targets and r.demand.users is not None and p.slo_capacity_per_replica == 0:
        out.append(msg("No load meets both targets on this configuration; replicas were sized "
                       "on what memory admits, and the targets stay missed."))
    return out


def hardware_warnings(catalog: Catalog, config: Configuration) -> list[Message]:
    """Warnings about how well the numbers for this GPU and format are known."""
    out = []
    if not band_for(config, catalog)[2]:
        out.append(msg("The {engine} profile is not calibrated against measurements on "
                       "{family} GPUs; performance figures carry a wider band. Calibrate from a "
                       "measurement where possible.", engine=config.engine.name,
                       family=config.gpu.family))
    if config.gpu.derived:
        out.append(msg("{gpu}: {fields} derived rather than read from a datasheet; check before "
                       "relying on them.", gpu=config.gpu.name,
                       fields=", ".join(config.gpu.derived)))
    if config.weight_precision.quality in ("small-loss", "noticeable-loss"):
        out.append(msg("{fmt} weights lose some quality; regulated sectors usually keep 8 or "
                       "16 bit.", fmt=config.weight_precision.name))
    return out


def inputs_after_defaults(r: Resolved, config: Configuration) -> dict:
    data = r.scenario.model_dump(mode="json")
    data["precision"] = {**data["precision"], "weights": config.weight_precision.id,
                         "kv_cache": config.kv_precision.id,
                         "allowed_weights": r.allowed_weights}
    data["targets"] = {"ttft_s": r.demand.ttft_target,
                       "tokens_per_s_per_user": r.demand.speed_target}
    data["hardware"] = {"gpu": config.gpu.id, "gpus_per_replica": config.replica.gpus,
                        "tensor_parallel": config.tensor_parallel,
                        "pipeline_parallel": config.pipeline_parallel,
                        "server": (r.scenario.hardware.server if r.scenario.hardware else None)}
    data["workload"]["max_context_tokens"] = r.demand.peak_context
    s = config.settings
    data["serving"] = {**data["serving"], "memory_fraction": s.memory_fraction,
                       "max_batch_size": s.batch_limit,
                       "max_batched_tokens": s.max_batched_tokens}
    return data


def model_facts(r: Resolved) -> dict:
    m = r.model
    return {"id": m.id, "name": m.name, "params_total": r.counts.total,
            "params_active": r.counts.active, "layers": m.layers, "hidden_size": m.hidden_size,
            "attention_heads": m.attention_heads, "kv_heads": m.kv_heads,
            "head_dim": m.head_dim_value, "max_context_tokens": m.max_context_tokens,
            "moe": m.moe is not None, "mla": m.mla is not None,
            "sliding_window": m.sliding_window, "source": m.source}


def gpu_facts(config: Configuration) -> dict:
    g = config.gpu
    return {"id": g.id, "name": g.name, "memory_bytes": g.memory_bytes,
            "memory_bandwidth_bytes_per_s": g.memory_bandwidth_bytes_per_s,
            "peak_flops": config.replica.peak_flops, "tdp_w": g.tdp_w,
            "scale_up": g.scale_up, "source": g.source}

