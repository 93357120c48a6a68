"""The serving chain: the five steps of the method for online and batch inference.

Step 1 resolves the scenario (:func:`app.engine.resolved.resolve`), Step 3 takes or searches
the GPU configuration and evaluates it once (:func:`app.engine.selection.select`); Steps 2
and 4 describe that evaluation at the users one replica carries, Step 5 sizes replicas and
nodes, and the site, RAG and CPU sections follow. The training chain
(:mod:`app.engine.training_chain`) stands beside this one; :mod:`app.engine.pipeline`
dispatches between them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

from app.domain.catalog import Catalog
from app.domain.problems import problem
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.engine import explain
from app.engine.calibration import speed_for_measurement
from app.engine.configuration import configure
from app.engine.evaluate import plan_memory
from app.engine.explain_validation import with_validation
from app.engine.infrastructure import size_infrastructure
from app.engine.levers import current_choice
from app.engine.optional_sections import additions
from app.engine.resolved import Resolved, SizingError, resolve
from app.engine.scale import MAX_REPLICAS, NodePlan, plan_margin, replicas_for_load
from app.engine.selection import Evaluated, select
from app.engine.servers import node_plan
from app.engine.test_levels import test_plan_result
from app.i18n import msg


def online_replicas(r: Resolved, capacity: int, holds: int = 0) -> int | None:
    """Replicas for the online load (:func:`app.engine.scale.replicas_for_load`); None for a
    batch job, which is sized from its volume and window once its throughput is known."""
    if r.scenario.workload.kind == "batch_inference":
        return None
    return replicas_for_load(r.demand.users, capacity, holds)


def check_replicas(r: Resolved, load: int) -> None:
    """Refuse a load that needs more than :data:`app.engine.scale.MAX_REPLICAS` replicas
    (a batch window of seconds for a day's volume): the racks, nodes and network of such a
    plan are no answer, and listing them would take hours."""
    if load <= MAX_REPLICAS:
        return
    workload = r.scenario.workload
    if workload.kind == "batch_inference":
        field = ("workload.completion_window_hours" if workload.tokens_per_day
                 else "workload.requests_per_hour")
    else:
        field = "workload.concurrent_users"
    raise SizingError(problem(field, msg(
        "the load needs {replicas:,} replicas, more than the {most:,} this tool plans; "
        "lengthen the completion window, lower the volume or the users, or choose a larger "
        "configuration", replicas=load, most=MAX_REPLICAS)))


def per_replica_view(r: Resolved, load: int | None) -> Resolved:
    """The resolved scenario with the users one replica carries."""
    if load is None or r.demand.users is None:
        return r
    users = math.ceil(r.demand.users / load)
    return replace(r, demand=replace(r.demand, users=users))


def nodes_for(catalog: Catalog, r: Resolved, chosen: Evaluated, load: int) -> NodePlan:
    """How ``load`` replicas of the chosen configuration and the redundancy land on servers
    (:func:`app.engine.servers.node_plan`): Step 3's plan when it was made for that load."""
    if chosen.nodes is not None and load == chosen.load:
        return chosen.nodes
    hardware = r.scenario.hardware
    return node_plan(catalog, chosen.config.gpu, hardware.server if hardware else None,
                     chosen.config.replica.gpus, load, r.demand.redundancy,
                     r.scenario.infrastructure.price_overrides_usd)


def margin_of(r: Resolved, chosen: Evaluated,
              loads: dict[str, tuple[int | None, int]]) -> tuple[float, int] | None:
    """The plan's margin at the users each of its replicas holds (the load over the
    replicas it needs, rounded up) and that count (:func:`app.engine.scale.plan_margin`);
    None for a batch job, a load of no stated users, or no curve."""
    users, needed = r.demand.users, loads[r.demand.plan_at][1]
    if users is None or chosen.curve is None or loads[r.demand.plan_at][0] is None:
        return None
    per_replica = math.ceil(users / max(needed, 1))
    margin = plan_margin(chosen.curve, chosen.band, r.demand.ttft_target,
                         r.demand.speed_target, per_replica, r.demand.plan_at)
    return None if margin is None else (margin, per_replica)


def size_in_stages(scenario: Scenario, catalog: Catalog) -> Iterator[tuple[SizingResult, bool]]:
    """Yield ``(result, levers_follow)``: the whole sizing without the levers first, then,
    when a target is missed, the same result with them.

    The levers re-evaluate the configuration once per change they try (about three
    quarters of a sizing's time); the window shows everything else before they come.
    """
    r = resolve(scenario, catalog)
    chosen, selection = select(catalog, r)
    config, plan = chosen.config, chosen.plan
    load = online_replicas(r, chosen.capacity, chosen.capacities.holds)
    per_replica = per_replica_view(r, load)
    memory = explain.memory_result(config, plan, per_replica)
    performance = explain.performance_result(catalog, config, plan, per_replica,
                                             chosen.capacity)
    loads = explain.plan_loads(catalog, performance, r, chosen.capacities)
    for _, replicas in loads.values():
        check_replicas(r, replicas)
    node_plans = {end: nodes_for(catalog, r, chosen, replicas)
                  for end, (_, replicas) in loads.items()}
    planning = explain.planning_result(r.demand.plan_at, chosen.band, loads, node_plans,
                                       chosen.capacities, config.replica.gpus,
                                       config.gpu.name, margin_of(r, chosen, loads))
    load = planning.planned.replicas_for_load
    scale = explain.scale_result(catalog, config, performance, r, load,
                                 node_plans[r.demand.plan_at], planning)
    site, site_assumptions = size_infrastructure(catalog, config, scale, performance, r)
    scale = explain.with_rack_failure(scale, site.racks)
    assumptions = (r.assumptions + explain.engine_assumptions(catalog, config, r)
                   + site_assumptions)
    warnings = explain.warnings_for(catalog, config, memory, performance, scale, r)
    warnings += site.warnings
    rag, cpu, extra_assumptions, extra_warnings = additions(catalog, r, config, performance)
    assumptions += extra_assumptions
    warnings += extra_warnings
    inputs = explain.inputs_after_defaults(r, config)
    test_plan = test_plan_result(catalog, config, performance, scale, inputs.workload,
                                 scenario.name, plan=plan)
    result = explain.sizing_result(
        catalog, r, config, site, inputs=inputs, memory=memory, performance=performance,
        selection=selection, scale=scale, rag=rag, cpu=cpu, test_plan=test_plan,
        assumptions=assumptions, warning_messages=warnings)
    result = with_validation(catalog, scenario, config, result)
    levers_follow = explain.misses_a_target(performance)
    yield result, levers_follow
    if levers_follow:
        performance = explain.with_levers(catalog, config, performance, per_replica)
        yield result.model_copy(update={"performance": performance}), False


def overrides_from_measurement(scenario: Scenario, catalog: Catalog, metric: str,
                               measured: float, concurrency: float) -> dict[str, float]:
    """Efficiency factors that reproduce a customer's measurement on this configuration.

    Every efficiency of the chosen configuration is scaled by one factor found by bisection
    (``calibration.speed_for_measurement``), so the ratios between the factors, which the
    calibration set fixed, are kept. Returns the ``factor_overrides`` to store in the
    scenario.
    """
    r = resolve(scenario.model_copy(update={"factor_overrides": {}}), catalog)
    chosen, _ = select(catalog, r)
    base = chosen.config.replica.factors
    choice = current_choice(chosen.config)

    def config_for(speed: float):
        overrides = vars(base.scaled(speed))
        config = configure(catalog, r.model, choice, overrides, counts=r.counts, **r.serving)
        return config, plan_memory(config, r.demand.work, r.demand.peak_context), r.demand.work

    speed = speed_for_measurement(config_for, metric, measured, concurrency)
    return {name: float(value) for name, value in vars(base.scaled(speed)).items()}
