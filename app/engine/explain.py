"""Turn engine numbers into the result sections, each with its plain-sentence explanation."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from app.domain.catalog import Catalog
from app.domain.result import (
    Assumption,
    Band,
    CostResult,
    CurvePoint,
    DecodeBreakdown,
    FacilityResult,
    MemoryResult,
    OperatingPoint,
    PerformanceResult,
    ScaleResult,
)
from app.engine import levers as levers_module
from app.engine.configuration import Configuration
from app.engine.evaluate import MemoryPlan, batch_cap, points_at, saturation_of
from app.engine.inference import decode_step, naive_tokens_per_s, prefill_throughput
from app.engine.memory import kv_bytes_per_token_per_layer, naive_weights_bytes
from app.engine.performance import Points, batch_grid, by_batch, concurrency_grid, slo_capacity
from app.engine.scale import (
    batch_rate,
    choose_server,
    cold_start_s,
    failure_statement,
    replicas_for_rate,
)

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
    return result.model_copy(update={"explanation": memory_sentences(result, config)})


def memory_sentences(m: MemoryResult, config: Configuration) -> list[str]:
    """Why the memory is what it is, in words a customer reads."""
    gpus = config.replica.gpus
    lines = [
        f"The model has {m.params_total / 1e9:.2f} billion parameters"
        + (f" ({m.params_active / 1e9:.1f} billion active per token)"
           if m.params_active < m.params_total * 0.99 else "")
        + f"; in {config.weight_precision.name} the weights take {m.weights_bytes / GB:.1f} GB"
        f" ({m.weights_bytes_per_gpu / GB:.1f} GB on each of {gpus} GPU(s)).",
        f"Each token of context needs {m.kv_bytes_per_token / 1024:.0f} KiB of KV cache in "
        f"{config.kv_precision.name}; one sequence at {m.peak_context_tokens:,} tokens needs "
        f"{m.kv_bytes_per_sequence / GIB:.2f} GiB, so {m.concurrency_sized} sequences at peak "
        f"context need {m.kv_cache_bytes / GB:.1f} GB "
        f"({m.kv_cache_bytes_average / GB:.1f} GB at the average context).",
        f"One GPU must hold {m.per_gpu_bytes / GB:.1f} GB (weights, KV cache and "
        f"{m.runtime_bytes_per_gpu / GB:.1f} GB runtime); the engine may use "
        f"{m.gpu_usable_bytes / GB:.1f} GB of its {m.gpu_memory_bytes / GB:.1f} GB.",
    ]
    if m.fits:
        lines.append(f"It fits: up to {m.max_concurrent_sequences} sequences at peak context.")
    elif not m.weights_fit:
        lines.append("It does not fit: the weights and runtime alone exceed the usable memory.")
    else:
        lines.append(f"It does not fit: only {m.max_concurrent_sequences} of "
                     f"{m.concurrency_sized} sequences fit at peak context.")
    lines.append(
        f"The rule of thumb 'parameters x 2 bytes' gives {m.naive_weights_bytes / GB:.1f} GB "
        f"({m.naive_weights_bytes / GIB:.1f} GiB) for the whole model; it ignores the KV "
        f"cache, which grows with users and context, and the runtime overhead.")
    return lines


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
    naive = naive_tokens_per_s(config.gpu.memory_bandwidth_bytes_per_s,
                               r.counts.total * config.weight_precision.bytes_per_element)
    result = PerformanceResult(
        single_user=operating_point(single, 0, work.output_tokens),
        at_concurrency=at,
        saturation=operating_point(saturated, 0, work.output_tokens),
        band=Band(low=low, high=high),
        naive_tokens_per_s=naive,
        naive_explanation=naive_sentence(config, r, naive),
        slo_capacity_per_replica=capacity,
        targets=targets,
        targets_met=met,
        decode_breakdown=breakdown(config, at.batch, r),
        levers=[],
        curve=curve_points(curve),
        prefill_tokens_per_s=prefill_throughput(replica, work.prompt_tokens),
    )
    found = levers_module.levers_for(catalog, config, result, r) if not all(met.values()) else []
    return result.model_copy(update={"levers": found,
                                     "explanation": performance_sentences(result, config)})


def naive_sentence(config: Configuration, r: Resolved, naive: float) -> str:
    size_gb = r.counts.total * config.weight_precision.bytes_per_element / GB
    return (f"Naive figure: {config.gpu.memory_bandwidth_gb_s:,.0f} GB/s / {size_gb:.1f} GB = "
            f"{naive:.1f} tokens/s. It assumes one GPU at full bandwidth reading only the "
            "weights; it ignores the KV cache every user adds, the efficiency real kernels "
            "reach, tensor-parallel communication and the other users sharing each step.")


def performance_sentences(p: PerformanceResult, config: Configuration) -> list[str]:
    at = p.at_concurrency
    bd = p.decode_breakdown
    lines = [] if p.targets else [
        "Batch job: per-user targets do not apply; Step 5 checks the completion window."]
    lines += [
        f"One user alone: first token after {p.single_user.ttft_s:.2f} s, then "
        f"{p.single_user.tokens_per_s_per_user:.1f} tokens/s.",
        f"At {at.concurrency:.0f} concurrent users: {at.tokens_per_s_per_user:.1f} tokens/s "
        f"each, first token after {at.ttft_s:.2f} s, {at.output_tokens_per_s:,.0f} output "
        f"tokens/s in all (decode batch {at.batch:.0f}).",
        f"Each decode step takes {at.itl_s * 1e3:.1f} ms: weights {bd.weights_read_s * 1e3:.1f}"
        f" ms, KV cache {bd.kv_read_s * 1e3:.1f} ms, compute {bd.compute_s * 1e3:.1f} ms, "
        f"other users' prompts {bd.prefill_share_s * 1e3:.1f} ms, communication "
        f"{bd.communication_s * 1e3:.1f} ms, overhead {bd.overhead_s * 1e3:.1f} ms "
        f"({bd.bound}-bound).",
        f"At saturation a replica serves {p.saturation.output_tokens_per_s:,.0f} output "
        f"tokens/s with {p.saturation.concurrency:.0f} users.",
        f"Expected range: x{p.band.low:.2f} to x{p.band.high:.2f} of these figures "
        f"(calibration residuals of the {config.engine.name} profile).",
        f"{p.slo_capacity_per_replica} users per replica meet both targets with room for "
        "every one of them at the maximum context.",
    ]
    return lines


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
    statement = failure_statement(plan, load)
    hours = batch_hours(catalog, p, r, load)
    lines = [f"{load} replica(s) carry the load; with {r.demand.redundancy} redundancy "
             f"{plan.replicas} replica(s) run on {plan.nodes} x {plan.server.name}.",
             statement,
             f"A node loads its weights from '{tier.name}' storage "
             f"({tier.read_gb_s:g} GB/s read) and serves after about {cold:.0f} s."]
    if hours is not None:
        lines.append(f"The batch volume takes {hours:.1f} h on {load} replica(s) at "
                     f"saturation throughput.")
    return ScaleResult(
        redundancy=r.demand.redundancy, replicas_for_load=load, replicas=plan.replicas,
        gpus_total=plan.replicas * config.replica.gpus, server=plan.server.id,
        gpus_per_node=plan.server.gpu_count, replicas_per_node=plan.replicas_per_node,
        nodes_per_replica=plan.nodes_per_replica, nodes=plan.nodes,
        autoscale_min_replicas=max(floor, 1), autoscale_max_replicas=plan.replicas,
        cold_start_s=cold, storage_tier=tier.id, batch_completion_hours=hours,
        failure_statement=statement, explanation=lines,
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
    return [s for s in catalog.servers.values() if config.gpu.id in s.gpu_ids]


def facility_result(catalog: Catalog, config: Configuration, scale: ScaleResult) -> FacilityResult:
    """First-order power and heat: server maximum power, industry-average PUE."""
    server = catalog.servers[scale.server]
    it_power = node_power_w(server, config, scale) * scale.nodes
    pue = catalog.default("pue")
    facility = it_power * pue
    btu = it_power * catalog.default("w_to_btu_per_h")
    node_w = it_power / scale.nodes
    per_rack = max(1, min(int(catalog.default("rack_units") // server.rack_units),
                          int(catalog.default("rack_power_limit_w") // node_w)))
    racks = math.ceil(scale.nodes / per_rack)
    energy = facility * catalog.default("average_power_fraction") * HOURS_PER_YEAR / 1e3
    return FacilityResult(it_power_w=it_power, facility_power_w=facility, pue=pue,
                          heat_btu_per_h=btu, cooling_tons=btu / 12_000, racks=racks,
                          cooling=server.cooling, annual_energy_kwh=energy)


def node_power_w(server, config: Configuration, scale: ScaleResult) -> float:
    """Maximum power of one node with the GPUs it actually carries [W].

    The host's share is the server maximum less its full complement of this GPU's TDP.
    """
    used = min(server.gpu_count, math.ceil(scale.gpus_total / scale.nodes))
    host = max(server.max_power_w - server.gpu_count * config.gpu.tdp_w, 0.0)
    return min(server.max_power_w, host + used * config.gpu.tdp_w)


def cost_result(catalog: Catalog, config: Configuration, scale: ScaleResult) -> CostResult:
    """Indicative capital cost of GPUs and servers (network, storage, facility excluded)."""
    server = catalog.servers[scale.server]
    gpus = scale.gpus_total
    if server.price_includes_gpus and server.price_usd:
        gpu_cost, server_cost = None, scale.nodes * server.price_usd
    else:
        gpu_cost = gpus * config.gpu.price_usd if config.gpu.price_usd else None
        server_cost = scale.nodes * server.price_usd if server.price_usd else None
    parts = [c for c in (gpu_cost, server_cost) if c is not None]
    note = ("Indicative prices from the catalog (street prices vary by 20-40 %); "
            "network, storage, racks and facility are not included yet.")
    if gpu_cost is None and not server.price_includes_gpus:
        note += f" No price for {config.gpu.name} in the catalog."
    return CostResult(capital_usd=sum(parts) if parts else None, gpus_usd=gpu_cost,
                      servers_usd=server_cost, note=note)


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
                 p: PerformanceResult, scale: ScaleResult, r: Resolved) -> list[str]:
    """Plain sentences about what the user must know."""
    warnings = []
    if not memory.weights_fit:
        warnings.append(f"The weights do not fit on {config.replica.gpus} x {config.gpu.name}: "
                        "use more GPUs, a larger GPU or a smaller weight format.")
    elif not memory.fits:
        warnings.append(f"The KV cache for {memory.concurrency_sized} users at "
                        f"{memory.peak_context_tokens:,} tokens does not fit: only "
                        f"{memory.max_concurrent_sequences} sequences fit per replica; the "
                        "others wait in a queue.")
    if r.scenario.workload.kind == "batch_inference":
        window = r.scenario.workload.completion_window_hours
        if scale.batch_completion_hours and window and scale.batch_completion_hours > window:
            warnings.append(f"The batch needs {scale.batch_completion_hours:.1f} h, longer "
                            f"than its {window:g} h window.")
    if not p.targets_met.get("tokens_per_s_per_user", True):
        warnings.append(f"{p.at_concurrency.tokens_per_s_per_user:.1f} tokens/s per user misses "
                        f"the target of {p.targets['tokens_per_s_per_user']:g}.")
    if not p.targets_met.get("ttft", True):
        warnings.append(f"TTFT of {p.at_concurrency.ttft_s:.2f} s misses the target of "
                        f"{p.targets['ttft_s']:g} s.")
    _, _, calibrated = band_for(config, catalog)
    if not calibrated:
        warnings.append(f"The {config.engine.name} profile is not calibrated against "
                        f"measurements on {config.gpu.family} GPUs; performance figures carry a "
                        "wider band. Calibrate from a measurement where possible.")
    if config.gpu.derived:
        warnings.append(f"{config.gpu.name}: {', '.join(config.gpu.derived)} derived rather than "
                        "read from a datasheet; check before relying on them.")
    if config.weight_precision.quality in ("small-loss", "noticeable-loss"):
        warnings.append(f"{config.weight_precision.name} weights lose some quality; regulated "
                        "sectors usually keep 8 or 16 bit.")
    if scale.nodes <= 1 and r.demand.redundancy == "none":
        warnings.append("A single node without redundancy: any failure stops the service.")
    if p.targets and r.demand.users is not None and p.slo_capacity_per_replica == 0:
        warnings.append("No load meets both targets on this configuration; replicas were sized "
                        "on what memory admits, and the targets stay missed.")
    return warnings


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

