"""The orchestrator: run the five steps of the method on a scenario.

``size(scenario, catalog)`` resolves defaults (recording each one it used), chooses or takes
the GPU configuration, evaluates memory and performance, sizes replicas and nodes, adds a
first-order power and cost estimate, and returns a :class:`SizingResult`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from app import __version__
from app.domain.catalog import Catalog, ModelSpec
from app.domain.result import (
    Assumption,
    Candidate,
    SelectionResult,
    SizingResult,
)
from app.domain.scenario import Scenario
from app.engine import explain
from app.engine.configuration import Choice, Configuration, configure
from app.engine.evaluate import plan_memory
from app.engine.infrastructure import size_infrastructure
from app.engine.memory import ParameterCounts, parameter_counts
from app.engine.performance import Workload
from app.engine.selection import (
    Demand,
    Evaluated,
    enumerate_choices,
    evaluate_candidate,
    loss_reason,
    search,
)
from app.i18n import Message

DEFAULT_QUALITY_FLOOR = ("bf16", "fp16", "fp8", "int8")


class SizingError(ValueError):
    """A scenario that is valid JSON but cannot be sized (one readable sentence)."""


@dataclass(frozen=True)
class Resolved:
    """The scenario with every default filled in, in engine terms."""

    scenario: Scenario
    model: ModelSpec
    counts: ParameterCounts
    demand: Demand
    weights: str
    kv_cache: str
    allowed_weights: list[str]
    engine: str
    serving: dict
    assumptions: list[Assumption]


def _model(scenario: Scenario, catalog: Catalog) -> ModelSpec:
    if isinstance(scenario.model, ModelSpec):
        return scenario.model
    try:
        return catalog.model(scenario.model)
    except KeyError as exc:
        raise SizingError(f"model: {exc.args[0]}") from None


def _default(catalog: Catalog, name: str, unit: str, assumptions: list, given=None):
    """A scenario value, or the catalog default recorded as an assumption."""
    if given is not None:
        return given
    value = catalog.default(name)
    assumptions.append(Assumption(name=name, value=value, unit=unit,
                                  source=catalog.default_sources.get(name, "catalog default")))
    return value


def resolve(scenario: Scenario, catalog: Catalog) -> Resolved:
    """Fill defaults and check the scenario against the catalog."""
    model = _model(scenario, catalog)
    assumptions: list[Assumption] = []
    workload = scenario.workload
    if workload.kind in ("fine_tuning", "pretraining"):
        raise SizingError(
            f"workload.kind: '{workload.kind}' is not sized by this version; "
            "allowed: online_inference, batch_inference")
    allowed = list(scenario.precision.allowed_weights or DEFAULT_QUALITY_FLOOR)
    if scenario.precision.allowed_weights is None and model.native_precision not in allowed:
        allowed.append(model.native_precision)
    weights = scenario.precision.weights or (
        model.native_precision if model.native_precision in allowed else allowed[0])
    kv_cache = scenario.precision.kv_cache or ("fp16" if weights == "fp16" else "bf16")
    for field, value in (("precision.weights", weights), ("precision.kv_cache", kv_cache)):
        if value not in catalog.precisions:
            raise SizingError(f"{field}: '{value}' is not in the precision catalog")
    ttft = _default(catalog, "target_ttft_s", "s", assumptions, scenario.targets.ttft_s)
    speed = _default(catalog, "target_tokens_per_s_per_user", "tokens/s", assumptions,
                     scenario.targets.tokens_per_s_per_user)
    users = workload.concurrent_users
    demand = Demand(
        work=Workload(workload.prompt_tokens, workload.output_tokens),
        peak_context=workload.context_tokens,
        users=None if users == "max" else users,
        ttft_target=ttft,
        speed_target=speed,
        redundancy=scenario.availability.redundancy,
    )
    if workload.context_tokens > model.max_context_tokens:
        raise SizingError(
            f"workload.max_context_tokens: {workload.context_tokens} exceeds the model's "
            f"context limit of {model.max_context_tokens} tokens")
    if scenario.availability.storage_tier not in catalog.storage:
        raise SizingError(f"availability.storage_tier: unknown tier "
                          f"'{scenario.availability.storage_tier}'; choose one of "
                          f"{', '.join(sorted(catalog.storage))}")
    serving = {"memory_fraction": scenario.serving.memory_fraction,
               "batch_limit": scenario.serving.max_batch_size,
               "batched_tokens": scenario.serving.max_batched_tokens}
    return Resolved(scenario, model, parameter_counts(model), demand, weights, kv_cache,
                    allowed, scenario.serving.engine, serving, assumptions)


def _configure(catalog: Catalog, r: Resolved, choice: Choice) -> Configuration:
    return configure(catalog, r.model, choice, r.scenario.factor_overrides,
                     counts=r.counts, **r.serving)


def given_configuration(catalog: Catalog, r: Resolved) -> Evaluated:
    """Step 3 when the user named the hardware: evaluate it as given."""
    hardware = r.scenario.hardware
    try:
        catalog.gpu(hardware.gpu)
    except KeyError as exc:
        raise SizingError(f"hardware.gpu: {exc.args[0]}") from None
    check_parallelism(r.model, hardware.tensor_parallel, hardware.pipeline_parallel)
    choice = Choice(hardware.gpu, hardware.tensor_parallel, hardware.pipeline_parallel,
                    r.weights, r.kv_cache, r.engine)
    return evaluate_candidate(_configure(catalog, r, choice), r.demand)


def check_parallelism(model: ModelSpec, tensor_parallel: int, pipeline_parallel: int) -> None:
    """Serving engines refuse a tensor-parallel degree that does not split the heads evenly."""
    heads, kv = model.attention_heads, model.kv_heads
    allowed = [t for t in range(1, heads + 1) if heads % t == 0
               and (model.mla is not None or kv % t == 0 or t % kv == 0)]
    if tensor_parallel not in allowed:
        raise SizingError(
            f"hardware.tensor_parallel: {tensor_parallel} does not split {model.name}'s "
            f"{heads} attention heads and {kv} KV heads evenly; allowed: "
            f"{', '.join(str(t) for t in allowed)}")
    if pipeline_parallel > model.layers:
        raise SizingError(f"hardware.pipeline_parallel: {pipeline_parallel} stages for "
                          f"{model.layers} layers; at most {model.layers}")


def candidate_row(e: Evaluated, reason: Message) -> Candidate:
    """One row of the Step 3 table."""
    c = e.config
    curve = e.curve
    return Candidate(
        gpu=c.gpu.id, gpus_per_replica=c.replica.gpus, tensor_parallel=c.tensor_parallel,
        pipeline_parallel=c.pipeline_parallel, precision=c.weight_precision.id,
        kv_precision=c.kv_precision.id, fits=curve is not None,
        per_gpu_bytes=e.plan.per_gpu_bytes(max(min(e.capacity, e.plan.max_concurrent_sequences),
                                               1)),
        max_users_per_replica=e.capacity,
        tokens_per_s_per_user=float(curve.tokens_per_s_per_user[0]) if curve else 0.0,
        ttft_s=float(curve.ttft_s[0]) if curve else 0.0,
        replicas=e.replicas, gpus_total=e.gpus_total, power_w=e.power_w,
        capital_cost_usd=e.cost_usd, verdict=e.verdict, reason=reason.text(),
        reason_message=reason,
    )


def select(catalog: Catalog, r: Resolved) -> tuple[Evaluated, SelectionResult]:
    """Step 3: take the user's configuration, or search the catalog for the best one."""
    rank_by = r.scenario.selection.rank_by
    if r.scenario.hardware is not None:
        chosen = given_configuration(catalog, r)
        return chosen, SelectionResult(chosen=_chosen_dict(chosen), chosen_by="user")
    gpu_ids = r.scenario.selection.gpus or sorted(catalog.gpus)
    unknown = [g for g in gpu_ids if g not in catalog.gpus]
    if unknown:
        raise SizingError(f"selection.gpus: unknown GPU ids {unknown}")
    choices = enumerate_choices(catalog, r.model, gpu_ids, r.allowed_weights, r.kv_cache,
                                r.engine, r.scenario.selection.max_gpus_per_replica)
    ranked = search(catalog, r.model, r.counts, r.demand, choices, rank_by,
                    r.scenario.factor_overrides, r.serving)
    if not ranked:
        raise SizingError("no GPU configuration to evaluate; widen selection.gpus")
    winner = ranked[0]
    rows = [candidate_row(e, loss_reason(e, winner, rank_by)) for e in ranked[1:]]
    chosen_by = rank_by if winner.works else "closest (no candidate meets the targets)"
    return winner, SelectionResult(chosen=_chosen_dict(winner), chosen_by=chosen_by,
                                   alternatives=rows)


def _chosen_dict(e: Evaluated) -> dict:
    c = e.config
    return {"gpu": c.gpu.id, "gpus_per_replica": c.replica.gpus,
            "tensor_parallel": c.tensor_parallel, "pipeline_parallel": c.pipeline_parallel,
            "precision": c.weight_precision.id, "kv_precision": c.kv_precision.id,
            "engine": c.engine.id, "verdict": e.verdict}


def online_replicas(r: Resolved, capacity: int) -> int | None:
    """Replicas for the online load: ``ceil(users / SLO capacity)``.

    When no load meets the targets on this configuration (capacity 0), more replicas would
    not fix it: one replica carries the users and the levers say what would. Batch jobs and
    'max' are sized from throughput instead (None here).
    """
    if r.scenario.workload.kind == "batch_inference":
        return None
    if r.demand.users is None:
        return 1
    return math.ceil(r.demand.users / capacity) if capacity >= 1 else 1


def per_replica_view(r: Resolved, load: int | None) -> Resolved:
    """The resolved scenario with the users one replica carries."""
    if load is None or r.demand.users is None:
        return r
    users = math.ceil(r.demand.users / load)
    return replace(r, demand=replace(r.demand, users=users))


def size(scenario: Scenario, catalog: Catalog) -> SizingResult:
    """Run the five steps of the method on ``scenario``.

    Raises
    ------
    SizingError
        When the scenario names something the catalog lacks or asks for what the method
        cannot size; the message names the field.
    """
    r = resolve(scenario, catalog)
    chosen, selection = select(catalog, r)
    config = chosen.config
    plan = plan_memory(config, r.demand.work, r.demand.peak_context)
    load = online_replicas(r, chosen.capacity)
    per_replica = per_replica_view(r, load)
    memory = explain.memory_result(config, plan, per_replica)
    performance = explain.performance_result(catalog, config, plan, per_replica)
    if load is None:
        load = explain.batch_replicas(catalog, performance, r)
    scale = explain.scale_result(catalog, config, performance, r, load)
    site, site_assumptions = size_infrastructure(catalog, config, scale, performance, r)
    facility = explain.facility_result(site)
    cost = explain.cost_result(site)
    assumptions = (r.assumptions + explain.engine_assumptions(catalog, config, r)
                   + site_assumptions)
    warnings = explain.warnings_for(catalog, config, memory, performance, scale, r)
    warnings += site.warnings
    return SizingResult(
        tool_version=__version__,
        catalog_versions=dict(catalog.versions),
        inputs=explain.inputs_after_defaults(r, config),
        model=explain.model_facts(r),
        gpu=explain.gpu_facts(config),
        memory=memory,
        performance=performance,
        selection=selection,
        scale=scale,
        facility=facility,
        cost=cost,
        infrastructure=site,
        assumptions=assumptions,
        warnings=[w.text() for w in warnings],
        warning_messages=warnings,
    )


def overrides_from_measurement(scenario: Scenario, catalog: Catalog, metric: str,
                               measured: float, concurrency: float) -> dict[str, float]:
    """Efficiency factors that reproduce a customer's measurement on this configuration.

    Every efficiency of the chosen configuration is scaled by one factor found by bisection
    (``calibration.speed_for_measurement``), so the ratios between the factors, which the
    calibration set fixed, are kept. Returns the ``factor_overrides`` to store in the
    scenario.
    """
    from app.engine.calibration import speed_for_measurement

    r = resolve(scenario.model_copy(update={"factor_overrides": {}}), catalog)
    chosen, _ = select(catalog, r)
    base = chosen.config.replica.factors
    choice = Choice(chosen.config.gpu.id, chosen.config.tensor_parallel,
                    chosen.config.pipeline_parallel, chosen.config.weight_precision.id,
                    chosen.config.kv_precision.id, chosen.config.engine.id)

    def config_for(speed: float):
        overrides = vars(base.scaled(speed))
        config = configure(catalog, r.model, choice, overrides, counts=r.counts, **r.serving)
        return config, plan_memory(config, r.demand.work, r.demand.peak_context), r.demand.work

    speed = speed_for_measurement(config_for, metric, measured, concurrency)
    return {name: float(value) for name, value in vars(base.scaled(speed)).items()}
