"""Turn engine numbers into the result sections, each with its plain-sentence explanation."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from app.domain.catalog import Catalog, ServerSpec
from app.domain.result import (
    Assumption,
    Band,
    CostResult,
    CpuOption,
    CpuResult,
    CurvePoint,
    DecodeBreakdown,
    FacilityResult,
    InfrastructureResult,
    MemoryResult,
    OperatingPoint,
    PerformanceResult,
    RagResult,
    ScaleResult,
    StorageLine,
    TrainingCandidate,
    TrainingResult,
    TrainingScalePoint,
    TtftPoint,
)
from app.engine import cost as costs
from app.engine import cpu_inference as cpu_engine
from app.engine import levers as levers_module
from app.engine import narrative
from app.engine import rag as rag_engine
from app.engine import training as training_engine
from app.engine.assumptions import default_source, sourced
from app.engine.configuration import Configuration
from app.engine.evaluate import (
    MemoryPlan,
    points_at,
    saturation_of,
    slo_capacity_of,
)
from app.engine.inference import (
    decode_step,
    naive_tokens_per_s,
    prefill_throughput,
    prefill_time,
)
from app.engine.memory import (
    kv_bytes_per_token,
    naive_weights_bytes,
    state_bytes_per_sequence,
)
from app.engine.performance import Points, concurrency_grid
from app.engine.scale import (
    batch_rate,
    choose_server,
    cold_start_s,
    replicas_for_rate,
    surviving_replicas,
)
from app.i18n import Message, msg, plural

if TYPE_CHECKING:
    from app.engine.pipeline import Resolved

TrainingPlan = training_engine.Plan

GB = 1e9
GIB = 2**30
HOURS_PER_YEAR = 8760.0
SECONDS_PER_DAY = 86_400.0


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
    per_token_replica = kv_bytes_per_token(config.model, replica.kv_bytes_per_element,
                                           replica.tensor_parallel) * replica.tensor_parallel
    per_gpu = plan.per_gpu_bytes(users)
    average_context = r.demand.work.average_context
    state = state_bytes_per_sequence(config.model, replica.tensor_parallel)
    state *= math.ceil(config.model.layers / replica.pipeline_parallel) / config.model.layers
    kv_avg_seq = ((plan.kv_per_sequence_peak - state) * average_context / r.demand.peak_context
                  + state)
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
        explanation=[],
    )
    messages = narrative.memory_messages(result, config.weight_precision.name,
                                         config.kv_precision.name, gpus)
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})


def band_for(config: Configuration, catalog: Catalog) -> tuple[float, float, bool]:
    """(low, high, calibrated) for this engine on this GPU family; a site profile's own
    range when the configuration uses measured site factors."""
    if config.site is not None:
        return config.site.band_low, config.site.band_high, True
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
    """Step 4 section: operating points, curve, band, naive figure and targets.

    The levers come apart (:func:`with_levers`): they re-evaluate the configuration about
    twenty times, most of a sizing's time, and the window shows the rest before them.
    """
    work = r.demand.work
    replica = config.replica
    saturated = saturation_of(config, plan, work)
    users = r.demand.users or float(saturated.concurrency[0])
    single = points_at(config, plan, work, [1.0])
    at_users = points_at(config, plan, work, [users]) if r.demand.users else saturated
    upper = max(users, float(saturated.concurrency[0]), 2.0)
    curve = points_at(config, plan, work, concurrency_grid(min(upper * 1.25, 4096)))
    capacity = slo_capacity_of(config, plan, work, r.demand.ttft_target,
                               r.demand.speed_target)
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
        site_profile=config.site.id if config.site is not None else None,
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
    messages = narrative.performance_messages(result, config.engine.name)
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})


def misses_a_target(p: PerformanceResult) -> bool:
    """True when a target is missed, so that levers are worth computing."""
    return not all(p.targets_met.values())


def with_levers(catalog: Catalog, config: Configuration, p: PerformanceResult,
                r: Resolved) -> PerformanceResult:
    """``p`` with a lever for every missed target (METHOD.md, Step 4, "Targets")."""
    if not misses_a_target(p):
        return p
    return p.model_copy(update={"levers": levers_module.levers_for(catalog, config, p, r)})


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
        from app.domain.problems import problem
        from app.engine.pipeline import SizingError

        server = catalog.servers.get(name)
        hosts = [s for s in catalog.servers.values() if config.gpu.id in s.gpu_ids]
        if server is None or server not in hosts:
            raise SizingError(problem("hardware.server", msg(
                "'{name}' is not a server for {gpu}; choose one of {servers}", name=name,
                gpu=f"{config.gpu.name} ({config.gpu.id})",
                servers=str(sorted(s.id for s in hosts)))))
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


def cost_note(estimated: bool, missing: list[str]) -> list[Message]:
    """The cost note as sentences: where the prices come from, then each item without one.

    ``missing`` holds cost item names (``CostLine.item``); each is its own parameter, so the
    window and the report translate it.
    """
    prices = ("Indicative prices from the catalog, dated and sourced (street prices vary by "
              "20-40 %). Lines marked estimated use a planning rule where no price is published."
              if estimated else
              "Indicative prices from the catalog, dated and sourced (street prices vary by "
              "20-40 %).")
    return [msg(prices), *(msg("No price for {item}.", item=item) for item in missing)]


def cost_result(site: InfrastructureResult) -> CostResult:
    """The headline capital figures (lines in ``infrastructure.cost_lines``) and their note."""
    first = site.cost_lines[0] if site.cost_lines else None
    note = cost_note(any(line.estimated for line in site.cost_lines),
                     [line.item for line in site.cost_lines if line.total_usd is None])
    return CostResult(capital_usd=site.capital_usd or None,
                      gpus_usd=first.total_usd if first else None,
                      servers_usd=None, note=" ".join(m.text() for m in note),
                      note_messages=note)


#: GPU families as their makers name them (``GpuSpec.family`` is an id: 'hopper', 'cdna3').
FAMILY_NAMES = {"ampere": "Ampere", "ada": "Ada Lovelace", "hopper": "Hopper",
                "blackwell": "Blackwell", "cdna3": "CDNA 3", "cdna4": "CDNA 4",
                "gaudi": "Gaudi"}

FACTOR_UNITS = {"step_overhead_s": "s", "layer_overhead_s": "s", "fixed_latency_s": "s",
                "comm_latency_s": "s"}


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
    out += speculative_warnings(config)
    if scale.nodes <= 1 and r.demand.redundancy == "none":
        out.append(msg("A single node without redundancy: any failure stops the service."))
    if p.targets and r.demand.users is not None and p.slo_capacity_per_replica == 0:
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


def hardware_warnings(catalog: Catalog, config: Configuration) -> list[Message]:
    """Warnings about how well the numbers for this GPU and format are known."""
    out = []
    if not band_for(config, catalog)[2]:
        out.append(msg("The {engine} profile is not calibrated against measurements on "
                       "{family} GPUs; performance figures carry a wider band. Calibrate from a "
                       "measurement where possible.", engine=config.engine.name,
                       family=FAMILY_NAMES.get(config.gpu.family, config.gpu.family)))
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
            "sliding_window": m.sliding_window, "source": m.source,
            "linear_layers": m.layers - m.attention_layers,
            "sparse_top_k": m.sparse_attention.top_k if m.sparse_attention else None,
            "speculative_layers": m.speculative.layers if m.speculative else 0}


def gpu_facts(config: Configuration) -> dict:
    g = config.gpu
    return {"id": g.id, "name": g.name, "memory_bytes": g.memory_bytes,
            "memory_bandwidth_bytes_per_s": g.memory_bandwidth_bytes_per_s,
            "peak_flops": config.replica.peak_flops, "tdp_w": g.tdp_w,
            "scale_up": g.scale_up, "source": g.source}



# --------------------------------------------------------------------------- training


def training_candidate(plan: TrainingPlan, chosen: bool, works: bool,
                       target_s: float | None) -> TrainingCandidate:
    """One row of the training search: the best (or closest) configuration on one GPU."""
    layout = plan.layout
    if chosen and works:
        reason = msg("chosen")
    elif works:
        reason = plural(plan.gpus, msg("works with one GPU ({days:.1f} days); ranked lower"),
                        msg("works with {gpus} GPUs ({days:.1f} days); ranked lower"),
                        gpus=plan.gpus, days=plan.wall_clock_s / SECONDS_PER_DAY)
    elif not plan.fits:
        reason = msg("does not fit: {need:.1f} GB per GPU against {usable:.1f} GB usable "
                     "(closest of the configurations tried)", need=plan.per_gpu_bytes / GB,
                     usable=plan.usable / GB)
    else:
        reason = msg("misses the target: {days:.1f} days against {target:g}",
                     days=plan.wall_clock_s / SECONDS_PER_DAY,
                     target=(target_s or 0) / SECONDS_PER_DAY)
    return TrainingCandidate(
        gpu=plan.gpu.id, gpus=plan.gpus, data_parallel=layout.data_parallel,
        tensor_parallel=layout.tensor_parallel, pipeline_parallel=layout.pipeline_parallel,
        zero_stage=layout.zero_stage, per_gpu_bytes=plan.per_gpu_bytes, fits=plan.fits,
        step_time_s=plan.step_s, time_to_train_s=plan.time_s, reason=reason.text())


def training_result(plan: TrainingPlan, rows: list[TrainingCandidate], chosen_by: str,
                    curve: list[TrainingPlan], target_s: float | None) -> TrainingResult:
    """The training section: memory per GPU by component, times, checkpoints, and why."""
    setup, layout, states = plan.setup, plan.layout, plan.states
    model = setup.model
    write = plan.checkpoint / plan.save_s if plan.save_s > 0 else 0.0
    approximate = (model.mlp == "gated" or model.kv_heads != model.attention_heads
                   or model.moe is not None or model.mla is not None
                   or model.intermediate_size != 4 * model.hidden_size)
    result = TrainingResult(
        method=setup.method, optimizer=setup.optimizer, chosen_by=chosen_by, gpu=plan.gpu.id,
        gpus_total=plan.gpus, gpus_per_node=plan.node.gpus_per_node, nodes=plan.nodes,
        data_parallel=layout.data_parallel, tensor_parallel=layout.tensor_parallel,
        pipeline_parallel=layout.pipeline_parallel, zero_stage=layout.zero_stage,
        sequence_parallel=plan.sequence_parallel, activation_recompute=layout.recompute,
        micro_batch_size=setup.micro_batch_size, sequence_length=setup.sequence_length,
        gradient_accumulation_steps=plan.micro_batches,
        global_batch_sequences=plan.global_batch_sequences,
        tokens_per_step=plan.tokens_per_step, params_total=setup.counts.total,
        params_trainable=setup.trainable_params, adapter_params=setup.adapter_params,
        model_state_bytes_per_param=training_engine.model_state_bytes_per_param(
            setup.optimizer, setup.fp32_gradients),
        weights_bytes_per_gpu=states.weights, gradients_bytes_per_gpu=states.gradients,
        optimizer_bytes_per_gpu=states.optimizer,
        model_state_bytes_per_gpu=states.total + plan.zero3_buffers,
        activation_bytes_per_layer=plan.activation_per_layer,
        activation_bytes_per_gpu=plan.activations,
        runtime_bytes_per_gpu=plan.gpu.memory_bytes - plan.usable,
        per_gpu_bytes=plan.per_gpu_bytes, gpu_memory_bytes=plan.gpu.memory_bytes,
        gpu_usable_bytes=plan.usable, fits=plan.fits, activations_approximate=approximate,
        flops_per_token=plan.flops_per_token,
        flops_total=plan.flops_per_token * setup.tokens_total, peak_flops_per_gpu=plan.peak_flops,
        mfu=setup.mfu, compute_time_per_step_s=plan.compute_s,
        dp_communication_s=plan.dp_s, tp_communication_s=plan.tp_s,
        pp_communication_s=plan.pp_s, communication_s=plan.dp_s + plan.tp_s + plan.pp_s,
        communication_hidden=plan.dp_exposed_s == 0.0,
        pipeline_bubble_share=plan.bubble_share,
        step_time_s=plan.step_s, steps=plan.steps, tokens_total=setup.tokens_total,
        time_to_train_s=plan.time_s, gpu_hours=plan.time_s * plan.gpus / 3600.0,
        checkpoint_bytes=plan.checkpoint, checkpoint_write_bytes_per_s=write,
        checkpoint_save_s=plan.save_s, mtbf_cluster_s=plan.mtbf_s,
        checkpoint_interval_s=plan.interval_s, checkpoint_overhead_share=plan.overhead,
        wall_clock_s=plan.wall_clock_s, checkpoints_retained=setup.checkpoints_retained,
        checkpoint_storage_bytes=plan.checkpoint * setup.checkpoints_retained,
        dataset_bytes=setup.dataset_bytes,
        storage_bytes=plan.checkpoint * setup.checkpoints_retained + setup.dataset_bytes,
        target_days=target_s / SECONDS_PER_DAY if target_s else None,
        meets_target=(plan.wall_clock_s <= target_s) if target_s else None,
        candidates=rows,
        scaling=[TrainingScalePoint(
            gpus=c.gpus, data_parallel=c.layout.data_parallel,
            tensor_parallel=c.layout.tensor_parallel,
            pipeline_parallel=c.layout.pipeline_parallel, zero_stage=c.layout.zero_stage,
            step_time_s=c.step_s, time_to_train_s=c.time_s, wall_clock_s=c.wall_clock_s)
            for c in curve],
    )
    messages = narrative.training_messages(result, plan.gpu.name, model.name)
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})


def training_scale(plan: TrainingPlan, t: TrainingResult, tier,
                   server_name: str) -> ScaleResult:
    """Step 5 for training: the cluster's nodes; a failure stops the job until it resumes
    from the last checkpoint (no spare replicas). ``server_name``: the catalog name of
    ``plan.node.server`` (the sentences name it; ``server`` keeps the id)."""
    gpn = plan.node.gpus_per_node
    per_replica = t.tensor_parallel * t.pipeline_parallel
    nodes = plan.nodes
    resume = plan.checkpoint / (tier.read_gb_s * GB * nodes)
    failure = narrative.training_failure_message(t)
    messages = narrative.training_scale_messages(t, server_name, tier.name, resume)
    messages.insert(1, failure)
    return ScaleResult(
        redundancy="none", replicas_for_load=t.data_parallel, replicas=t.data_parallel,
        gpus_total=t.gpus_total, server=plan.node.server, gpus_per_node=gpn,
        replicas_per_node=gpn // per_replica if per_replica <= gpn else 0,
        nodes_per_replica=max(1, -(-per_replica // gpn)), nodes=nodes,
        autoscale_min_replicas=t.data_parallel, autoscale_max_replicas=t.data_parallel,
        cold_start_s=resume, storage_tier=tier.id, batch_completion_hours=None,
        failure_statement=failure.text(), failure_message=failure, messages=messages,
        explanation=narrative.texts(messages))


def training_site(site: InfrastructureResult, t: TrainingResult,
                  tier) -> InfrastructureResult:
    """The site with storage for checkpoints and the data set instead of serving logs, and
    the storage cost and totals recomputed (no cost per token for a training cluster)."""
    keep = [line for line in site.storage.lines
            if line.purpose not in ("weights loaded at cold start", "request logs")]
    tokens_per_s = t.tokens_per_step / t.step_time_s if t.step_time_s > 0 else 0.0
    per_token = t.dataset_bytes / t.tokens_total if t.tokens_total else 0.0
    keep += [
        StorageLine(tier="hot", purpose="training checkpoints (retained copies)",
                    capacity_bytes=t.checkpoint_storage_bytes,
                    read_bytes_per_s=tier.read_gb_s * GB * t.nodes,
                    write_bytes_per_s=t.checkpoint_write_bytes_per_s),
        StorageLine(tier="hot", purpose="training data set", capacity_bytes=t.dataset_bytes,
                    read_bytes_per_s=tokens_per_s * per_token),
    ]
    total = sum(line.capacity_bytes for line in keep)
    store = site.storage.model_copy(update={"lines": keep, "total_bytes": total})
    lines = []
    for line in site.cost_lines:
        if line.item == "Storage (usable TB)" and line.unit_usd is not None:
            tb = round(total / 1e12, 2)
            line = line.model_copy(update={"quantity": tb, "total_usd": line.unit_usd * tb})
        lines.append(line)
    capital = sum(line.total_usd for line in lines if line.total_usd is not None)
    return site.model_copy(update={
        "storage": store, "cost_lines": lines, "capital_usd": capital,
        "tco_usd": costs.total_cost_usd(capital, site.annual_running_usd, site.years),
        "cost_per_million_tokens_usd": None})


def training_warnings(plan: TrainingPlan, t: TrainingResult, setup,
                      model) -> list[Message]:
    """What the user must know about the training plan."""
    out = []
    if not t.fits:
        out.append(plural(t.gpus_total,
                          msg("The training configuration does not fit: {need:.1f} GB per GPU "
                              "against {usable:.1f} GB usable on one {gpu}. Raise "
                              "training.max_gpus, shard more (ZeRO-3), recompute activations or "
                              "use a larger GPU."),
                          msg("The training configuration does not fit: {need:.1f} GB per GPU "
                              "against {usable:.1f} GB usable on {gpu} ({gpus} GPUs). Raise "
                              "training.max_gpus, shard more (ZeRO-3), recompute activations or "
                              "use a larger GPU."),
                          need=t.per_gpu_bytes / GB, usable=t.gpu_usable_bytes / GB,
                          gpu=plan.gpu.name, gpus=t.gpus_total))
    if t.target_days is None and t.wall_clock_s > 365 * SECONDS_PER_DAY:
        out.append(msg("Training takes {years:.1f} years on the smallest configuration that "
                       "fits; set training.target_days to size the cluster for a deadline.",
                       years=t.wall_clock_s / (365 * SECONDS_PER_DAY)))
    if t.meets_target is False:
        out.append(msg("Training takes {days:.1f} days, longer than the target of {target:g} "
                       "days.", days=t.wall_clock_s / SECONDS_PER_DAY, target=t.target_days))
    if t.activations_approximate:
        out.append(msg("Activation memory follows Korthikanti et al. (a GeLU MLP of width 4h, "
                       "multi-head attention); for {model} (gated MLP, grouped-query attention "
                       "or experts) it is an approximation.", model=model.name))
    if not t.communication_hidden:
        out.append(msg("The gradient all-reduce takes {dp:.2f} s per step, longer than the "
                       "backward pass it overlaps; the step is partly communication-bound "
                       "(more gradient accumulation, ZeRO-1/2 or a faster fabric help).",
                       dp=t.dp_communication_s))
    if t.pipeline_bubble_share > 0.1:
        out.append(plural(t.gradient_accumulation_steps,
                          msg("The pipeline bubble adds {share:.0%} to every step (one "
                              "micro-batch for {p} stages); more micro-batches per step or an "
                              "interleaved schedule reduce it."),
                          msg("The pipeline bubble adds {share:.0%} to every step ({m} "
                              "micro-batches for {p} stages); more micro-batches per step or an "
                              "interleaved schedule reduce it."),
                          share=t.pipeline_bubble_share, m=t.gradient_accumulation_steps,
                          p=t.pipeline_parallel))
    if t.method == "qlora":
        out.append(msg("QLoRA dequantises the 4-bit weights in every pass; measured "
                       "throughput is often well below the MFU assumed here."))
    if t.checkpoint_overhead_share > 0.05:
        out.append(msg("Checkpoints and restarts cost {share:.0%} of the run: faster storage or "
                       "asynchronous checkpointing (to host memory first) would recover most of "
                       "it.", share=t.checkpoint_overhead_share))
    if t.tensor_parallel > plan.node.gpus_per_node:
        out.append(msg("Tensor parallelism of {t} spans nodes; its collectives then run over "
                       "the scale-out network and slow every layer.", t=t.tensor_parallel))
    if not plan.node.scale_out and t.nodes > 1:
        out.append(msg("The server has no scale-out network adapters; the nodes reach each "
                       "other over a 10 Gb/s front-end port, which is far too slow for "
                       "training."))
    if model.moe is not None:
        out.append(msg("Expert parallelism is not modelled: experts are sharded like dense "
                       "weights and the all-to-all traffic of routing is not counted."))
    return out


def training_chosen(plan: TrainingPlan, config: Configuration) -> dict:
    """``selection.chosen`` for a training result: the training configuration."""
    layout = plan.layout
    return {"gpu": plan.gpu.id, "gpus_per_replica": layout.tensor_parallel
            * layout.pipeline_parallel, "tensor_parallel": layout.tensor_parallel,
            "pipeline_parallel": layout.pipeline_parallel,
            "data_parallel": layout.data_parallel, "zero_stage": layout.zero_stage,
            "gpus_total": plan.gpus, "precision": "bf16",
            "kv_precision": config.kv_precision.id, "engine": config.engine.id,
            "verdict": "fits" if plan.fits else "does not fit"}


def training_inputs(scenario, r: Resolved, config: Configuration, plan: TrainingPlan,
                    setup) -> dict:
    """The training scenario after defaults: the search's choices written back, so that
    sizing ``inputs`` again evaluates the same configuration."""
    from app.domain.scenario import Training

    data = inputs_after_defaults(r, config)
    layout = plan.layout
    data["workload"] = {**scenario.workload.model_dump(mode="json"),
                        "max_context_tokens": r.demand.peak_context}
    data["selection"] = scenario.selection.model_dump(mode="json")
    data["hardware"] = {"gpu": plan.gpu.id,
                        "gpus_per_replica": layout.tensor_parallel * layout.pipeline_parallel,
                        "tensor_parallel": layout.tensor_parallel,
                        "pipeline_parallel": layout.pipeline_parallel,
                        "server": scenario.hardware.server if scenario.hardware else None}
    block = (scenario.training or Training()).model_dump(mode="json")
    block.update({
        "data_parallel": layout.data_parallel, "tensor_parallel": layout.tensor_parallel,
        "pipeline_parallel": layout.pipeline_parallel, "zero_stage": layout.zero_stage,
        "activation_recompute": layout.recompute, "tokens_total": setup.tokens_total,
        "mfu": setup.mfu, "sequence_parallel": plan.sequence_parallel,
        "gradient_accumulation_steps": plan.micro_batches,
        "global_batch_size": plan.global_batch_sequences,
        "checkpoints_retained": setup.checkpoints_retained,
        "lora_rank": setup.lora_rank if setup.method != "full" else block.get("lora_rank")})
    data["training"] = block
    return data


def training_assumptions(plan: TrainingPlan, server_name: str) -> list[Assumption]:
    """Hardware figures the training time and memory used (``server_name``: the catalog name
    of ``plan.node.server``)."""
    gpu, node = plan.gpu, plan.node
    on_gpu = {"subject": gpu.name, **sourced(catalog_source(gpu))}
    nics = (msg("catalog server: cluster NICs x speed / GPUs") if node.scale_out else
            msg("no cluster NICs: 10 Gb/s front-end port assumed"))
    return [
        Assumption(name=f"{gpu.id}.peak_bf16", value=plan.peak_flops, unit="FLOP/s", **on_gpu),
        Assumption(name=f"{gpu.id}.memory", value=gpu.memory_bytes, unit="B", **on_gpu),
        Assumption(name=f"{gpu.id}.scale_up", value=gpu.scale_up_bytes_per_s, unit="B/s",
                   **on_gpu),
        Assumption(name=f"{node.server}.scale_out_per_gpu", value=node.nic_bytes_per_s_per_gpu,
                   unit="B/s", subject=server_name, **sourced(nics)),
        Assumption(name="storage_write_per_node", value=node.write_bytes_per_s, unit="B/s",
                   **sourced(msg("storage tier catalog (NVIDIA SuperPOD RA Table 6)"))),
    ]


def mark_serving(memory: MemoryResult, performance: PerformanceResult,
                 gpu_name: str) -> tuple[MemoryResult, PerformanceResult]:
    """Say that the inference sections of a training result describe serving the trained
    model (the training memory and time are in the training section)."""
    note = msg("Serving the trained model on {gpu} at the scenario's inference settings; the "
               "training memory and time are in the training section.", gpu=gpu_name)
    updated = []
    for section in (memory, performance):
        messages = [note, *section.messages]
        updated.append(section.model_copy(update={"messages": messages,
                                                  "explanation": narrative.texts(messages)}))
    return updated[0], updated[1]


# --------------------------------------------------------------------------- RAG and CPU


def rag_result(corpus: rag_engine.Corpus, embed: rag_engine.Embedder, gpu: str, index: str,
               index_bytes: float, vectors_bytes: float, text_bytes: float, latency: float,
               ttft: float, added_tokens: int, prompt_tokens: int, indexing_s: float,
               reindex_per_day: float, gpu_name: str | None = None) -> RagResult:
    """The RAG section: corpus, indexing time, vector index, retrieval latency, and why.

    ``gpu`` is the embedding GPU's id (``embedding_gpu`` keeps it); the sentences name it by
    ``gpu_name``."""
    result = RagResult(
        documents=corpus.documents, tokens_corpus=corpus.tokens, chunks=corpus.chunks,
        tokens_embedded=corpus.tokens_embedded, embedding_params=embed.params,
        embedding_dim=embed.dim, embedding_model=embed.model_id,
        embedding_model_name=embed.model_name, embedding_gpu=gpu, embedding_gpus=embed.gpus,
        embedding_flops=embed.flops(corpus.tokens_embedded), indexing_time_s=indexing_s,
        index=index, index_memory_bytes=index_bytes, vectors_bytes=vectors_bytes,
        index_storage_bytes=index_bytes + text_bytes, chunk_text_bytes=text_bytes,
        retrieval_latency_s=latency, ttft_s=ttft, ttft_with_retrieval_s=ttft + latency,
        added_prompt_tokens=added_tokens, prompt_holds_context=prompt_tokens >= added_tokens,
        reindex_per_day=reindex_per_day,
        reindex_gpu_hours_per_day=rag_engine.reindex_gpu_hours_per_day(corpus, embed,
                                                                       reindex_per_day))
    named = result.model_copy(update={"embedding_gpu": gpu_name or gpu})  # for the sentences
    messages = narrative.rag_messages(named)
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})


def cpu_result(server: cpu_engine.CpuServer, weights_name: str, model_bytes: float,
               estimate: cpu_engine.CpuEstimate, performance: PerformanceResult,
               model_name: str, options: list) -> CpuResult:
    """The CPU comparison: the same model and load on the CPU server against the GPU."""
    at = performance.at_concurrency
    verdict = cpu_engine.verdict(estimate)
    verdict_message = narrative.cpu_verdict(verdict, server.name, server.sockets,
                                            model_name, weights_name, estimate,
                                            at.tokens_per_s_per_user)
    result = CpuResult(
        cpu=server.id, cpu_name=server.name, sockets=server.sockets, weights=weights_name,
        weights_bytes=model_bytes, memory_bandwidth_bytes_per_s=server.bandwidth,
        bandwidth_efficiency=server.bandwidth_efficiency,
        single_user_tokens_per_s=estimate.single_tokens_per_s,
        single_user_ttft_s=estimate.single_ttft_s, users=estimate.users,
        tokens_per_s_per_user=estimate.tokens_per_s_per_user,
        output_tokens_per_s=estimate.output_tokens_per_s, ttft_s=estimate.ttft_s,
        users_meeting_speed=estimate.users_meeting, meets_targets=estimate.meets,
        power_w=server.power_w, price_usd=server.price_usd,
        gpu_tokens_per_s_per_user=at.tokens_per_s_per_user,
        gpu_output_tokens_per_s=at.output_tokens_per_s, gpu_ttft_s=at.ttft_s,
        speed_ratio=estimate.tokens_per_s_per_user / at.tokens_per_s_per_user,
        verdict=verdict, verdict_text=verdict_message.text(), verdict_message=verdict_message,
        alternatives=[CpuOption(cpu=s.id, sockets=s.sockets,
                                memory_bandwidth_bytes_per_s=s.bandwidth,
                                tokens_per_s_single=e.single_tokens_per_s)
                      for s, e in options])
    messages = narrative.cpu_messages(result) + [verdict_message]
    return result.model_copy(update={"messages": messages,
                                     "explanation": narrative.texts(messages)})
