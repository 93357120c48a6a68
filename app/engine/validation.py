"""Predicted against measured: the engine's figures at the loads a site measured.

A load test reports operating points (``app.domain.measurements.MeasuredPoint``): a closed
loop of ``C`` users, requests arriving at a rate, or one stream alone (``llama-bench``).
:func:`predict` runs the same engine code as the sizing at each of those loads, with the
measured prompt and output lengths, on the sized configuration (the pipeline's, or
:func:`configuration_of` a result of an inference scenario).
:func:`app.engine.explain_validation.validation_result` puts every point beside its
prediction and expected range, judges the targets at the scenario's load, fits the site
factors (``app.engine.site_fit``, which uses these predictions) and says what the
measurements mean for the number of replicas.

Notes
-----
Closed loop: the point of ``C`` users on the curve of Little's law (``performance.closed_loop``).
Request rate: ``performance.open_loop`` (the prompts' M/D/1 wait capped by the requests
the run sent). Single stream: the prompt's prefill time without the
server's fixed latency (``llama-bench pp``) and one decode step at the depth plus half the
generated tokens (``llama-bench tg``). Errors are ``measured / predicted - 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from app.domain.catalog import Catalog, ModelSpec
from app.domain.measurements import TIME_METRICS, MeasuredPoint
from app.domain.result import Band, SizingResult
from app.domain.scenario import Scenario
from app.domain.validation import TargetVerdict, ValidationPoint
from app.engine.configuration import Choice, Configuration, configure, engine_factors
from app.engine.evaluate import MemoryPlan, batch_cap, plan_memory, points_at, slo_capacity_of
from app.engine.inference import Factors, decode_step, prefill_time
from app.engine.performance import Workload, open_loop
from app.engine.scale import replicas_for_load
from app.engine.site_factors import site_scaled
from app.i18n import Message, msg, plural

#: How close a measured concurrency must be to the scenario's load to be taken as it [-].
SAME_LOAD = 0.02
#: The targets by their names in sentences (string parameters are translated when shown).
TARGET_NAMES = {"ttft_s": "TTFT", "tokens_per_s_per_user": "tokens/s per user"}


# --------------------------------------------------------------------------- configuration


def model_of(catalog: Catalog, scenario: Scenario) -> ModelSpec:
    """The scenario's model: inline, or the catalog entry it names."""
    if isinstance(scenario.model, ModelSpec):
        return scenario.model
    return catalog.model(scenario.model)


def configuration_of(catalog: Catalog, scenario: Scenario, result: SizingResult,
                     site_profile: str | None = None) -> Configuration:
    """The sized configuration of an inference ``result`` (Step 3's choice, the engine
    settings after defaults), rebuilt from its inputs.

    ``site_profile`` as for ``configure``; by default the one the scenario asked for.
    """
    inputs = result.inputs
    hardware, precision, serving = inputs.hardware, inputs.precision, inputs.serving
    choice = Choice(hardware.gpu, hardware.tensor_parallel, hardware.pipeline_parallel,
                    precision.weights, precision.kv_cache, serving.engine,
                    hardware.expert_parallel, hardware.dp_attention)
    wanted = site_profile if site_profile is not None else scenario.serving.site_profile
    return configure(catalog, model_of(catalog, scenario), choice, scenario.factor_overrides,
                     memory_fraction=serving.memory_fraction,
                     batch_limit=serving.max_batch_size,
                     batched_tokens=serving.max_batched_tokens, site_profile=wanted)


def without_site(catalog: Catalog, config: Configuration,
                 overrides: dict[str, float]) -> Configuration:
    """``config`` with the catalog's factors (and the scenario's overrides), no site profile."""
    if config.site is None:
        return config
    factors = engine_factors(config.engine, catalog.engines.get("generic"), config.gpu.family,
                             overrides)
    return replace(config, replica=replace(config.replica, factors=factors), site=None)


def with_site_scales(config: Configuration, decode: float, prefill: float) -> Configuration:
    """``config`` with its factors scaled by the site's decode and prefill scales."""
    factors = Factors(**site_scaled(vars(config.replica.factors), decode, prefill))
    return replace(config, replica=replace(config.replica, factors=factors))


# --------------------------------------------------------------------------- predictions


@dataclass(frozen=True)
class Load:
    """How a point loaded the replica, and the requests it sent [tokens]."""

    kind: str  # "concurrency", "request_rate" or "single_stream"
    value: float  # users, requests per second, or 1
    prompt_tokens: float
    output_tokens: float
    context_tokens: float = 0.0
    prompts: float | None = None  # requests the run sent (request rate), None: not stated

    @classmethod
    def of(cls, point: MeasuredPoint) -> Load:
        value = point.request_rate if point.load == "request_rate" else point.users
        sent = (point.completed or 0) + (point.failed or 0)
        return cls(point.load, float(value or 1.0), point.prompt_tokens,
                   max(point.output_tokens, 1.0), point.context_tokens,
                   float(sent) if sent else None)


def _closed_loop(config: Configuration, work: Workload, plan: MemoryPlan,
                 users: list[float]) -> list[dict[str, float]]:
    points = points_at(config, plan, work, users)
    return [{"ttft_s": float(points.ttft_s[i]), "itl_s": float(points.itl_s[i]),
             "tokens_per_s_per_user": float(1.0 / points.itl_s[i]),
             "output_tokens_per_s": float(points.output_tokens_per_s[i])}
            for i in range(len(users))]


def _open_loop(config: Configuration, work: Workload, plan: MemoryPlan, rate: float,
               prompts: float | None = None) -> dict[str, float]:
    point = open_loop(config.replica, work, rate, batch_cap(config, plan, work), prompts)
    return {"ttft_s": float(point.ttft_s[0]), "itl_s": float(point.itl_s[0]),
            "tokens_per_s_per_user": float(1.0 / point.itl_s[0]),
            "output_tokens_per_s": float(point.output_tokens_per_s[0])}


def _single_stream(config: Configuration, load: Load) -> dict[str, float]:
    replica = config.replica
    alone = prefill_time(replica, load.prompt_tokens)
    context = load.context_tokens + load.output_tokens / 2
    itl = float(decode_step(replica, 1.0, context).itl[0])
    return {"prefill_s": alone - replica.factors.fixed_latency_s, "ttft_s": alone,
            "itl_s": itl, "tokens_per_s_per_user": 1.0 / itl}


def predict(config: Configuration, peak_context: int, loads: list[Load],
            plans: dict[tuple[Workload, int], MemoryPlan] | None = None
            ) -> list[dict[str, float]]:
    """The engine's figures at each load, in the order given.

    Parameters
    ----------
    config : the sized configuration (its factors as they are)
    peak_context : longest sequence the engine admits (the scenario's context) [tokens]
    loads : the measured loads, with their prompt and output lengths
    plans : memory plans of ``config`` already made, by (request shape, peak context): the
        sizing's own is reused, so the sized configuration is planned once; each other shape
        is planned once here

    Returns
    -------
    For each load: ``ttft_s`` [s], ``itl_s`` [s], ``tokens_per_s_per_user`` and
    ``output_tokens_per_s`` [tokens/s]; single streams also ``prefill_s`` [s].
    """
    known = dict(plans or {})

    def plan_for(work: Workload) -> MemoryPlan:
        key = (work, max(peak_context, math.ceil(work.prompt_tokens + work.output_tokens)))
        if key not in known:
            known[key] = plan_memory(config, work, key[1])
        return known[key]

    found: dict[int, dict[str, float]] = {}
    closed: dict[tuple[float, float], list[int]] = {}
    for index, load in enumerate(loads):
        work = Workload(load.prompt_tokens, load.output_tokens)
        if load.kind == "concurrency":
            closed.setdefault((load.prompt_tokens, load.output_tokens), []).append(index)
        elif load.kind == "request_rate":
            found[index] = _open_loop(config, work, plan_for(work), load.value, load.prompts)
        else:
            found[index] = _single_stream(config, load)
    for (prompt, output), indexes in closed.items():
        work = Workload(prompt, output)
        users = [loads[i].value for i in indexes]
        for i, figures in zip(indexes, _closed_loop(config, work, plan_for(work), users),
                              strict=True):
            found[i] = figures
    return [found[i] for i in range(len(loads))]


def expected_range(metric: str, value: float, band: Band) -> tuple[float, float]:
    """The expected range of the figure ``metric``: TTFT's (``Band.ttft_range``), another
    time's (``Band.time_range``) or a rate's (``Band.speed_range``), lower value first."""
    if metric == "ttft_s":
        return band.ttft_range(value)
    return band.time_range(value) if metric in TIME_METRICS else band.speed_range(value)


def validation_point(point: MeasuredPoint, predicted: dict[str, float],
                     band: Band) -> ValidationPoint:
    """``point`` beside the prediction of the figures it measured."""
    shown = {m: v for m, v in predicted.items() if point.value(m) is not None}  # type: ignore[arg-type]
    bands = {m: expected_range(m, v, band) for m, v in shown.items()}
    return ValidationPoint(measured=point, predicted=shown,
                           low={m: b[0] for m, b in bands.items()},
                           high={m: b[1] for m, b in bands.items()})


# --------------------------------------------------------------------------- verdicts


def closed_loop_series(points: list[MeasuredPoint], metric: str) -> list[tuple[float, float]]:
    """(users, measured ``metric``) of the closed-loop points, by users (one per level)."""
    series: dict[float, float] = {}
    for point in points:
        value = point.value(metric)  # type: ignore[arg-type]
        if point.load == "concurrency" and value is not None:
            series.setdefault(float(point.users), value)
    return sorted(series.items())


def measured_at(points: list[MeasuredPoint], metric: str, users: float) -> float | None:
    """The measured ``metric`` at ``users``: the point there, else interpolated (in log
    users) between the nearest measured levels on either side; None outside them."""
    series = closed_loop_series(points, metric)
    for level, value in series:
        if abs(level - users) <= SAME_LOAD * users:
            return value
    below = [(c, v) for c, v in series if c < users]
    above = [(c, v) for c, v in series if c > users]
    if not below or not above:
        return None
    (c0, v0), (c1, v1) = below[-1], above[0]
    share = (math.log(users) - math.log(c0)) / (math.log(c1) - math.log(c0))
    return v0 + share * (v1 - v0)


#: A margin below which it rounds to "0%" [-]: said as "less than 1%" instead.
ROUNDS_TO_ZERO = 0.005


def verdict(target: str, target_value: float, users: float, measured: float | None,
            headroom: float, measured_up_to: float) -> TargetVerdict:
    """'met with headroom', 'met', 'missed by' or 'not measured' for one target."""
    name = TARGET_NAMES[target]
    if measured is None:
        return TargetVerdict(
            target=target, target_value=target_value, concurrency=users, measured=None,
            margin=None, verdict="not_measured",
            message=plural(users, msg("{target}: not measured at the scenario's load of "
                                      "{users:,.0f} user per replica (measured up to "
                                      "{upto:,.0f})"),
                           msg("{target}: not measured at the scenario's load of {users:,.0f} "
                               "users per replica (measured up to {upto:,.0f})"),
                           target=name, users=users, upto=measured_up_to))
    if target == "ttft_s":
        margin = (target_value - measured) / target_value
    else:
        margin = (measured - target_value) / target_value
    kind = "met_with_headroom" if margin >= headroom else "met" if margin >= 0 else "missed"
    words = {"met_with_headroom": msg("{target}: met with headroom ({margin:.0%} better than "
                                      "the target)"),
             "met": msg("{target}: met ({margin:.0%} to spare, less than the {headroom:.0%} "
                        "headroom)"),
             "missed": msg("{target}: missed by {margin:.0%}")}
    if abs(margin) < ROUNDS_TO_ZERO:  # "missed by 0%" would read as a contradiction
        words |= {"met": msg("{target}: met (less than 1% to spare, less than the "
                             "{headroom:.0%} headroom)"),
                  "missed": msg("{target}: missed by less than 1%")}
    text = words[kind]
    return TargetVerdict(target=target, target_value=target_value, concurrency=users,
                         measured=measured, margin=margin, verdict=kind,
                         message=Message(template=text.template,
                                         params={"target": name, "margin": abs(margin),
                                                 "headroom": headroom}))


def verdicts(result: SizingResult, points: list[MeasuredPoint], headroom: float
             ) -> list[TargetVerdict]:
    """A verdict per target at the scenario's load on one replica (online scenarios)."""
    targets = result.performance.targets
    users = result.performance.at_concurrency.concurrency
    levels = [p.users for p in points if p.load == "concurrency"]
    upto = max(levels, default=0.0)
    return [verdict(target, targets[target], users, measured_at(points, target, users),
                    headroom, upto)
            for target in ("ttft_s", "tokens_per_s_per_user") if target in targets]


# --------------------------------------------------------------------------- the plan


def users_total(result: SizingResult) -> float | None:
    users = result.inputs.workload.concurrent_users
    return float(users) if isinstance(users, int | float) else None


def measured_capacity(config: Configuration, result: SizingResult) -> int:
    """Users one replica carries at the targets with ``config``'s (fitted) factors."""
    workload = result.inputs.workload
    work = Workload(workload.prompt_tokens, workload.output_tokens)
    plan = plan_memory(config, work, workload.context_tokens)
    targets = result.performance.targets
    return slo_capacity_of(config, plan, work, targets["ttft_s"],
                           targets["tokens_per_s_per_user"])


def plan_messages(result: SizingResult, capacity: int | None, replicas: int | None
                  ) -> list[Message]:
    """What the measured speed means for the number of replicas at the same targets."""
    planned = result.scale.replicas_for_load
    if capacity is None or replicas is None:
        return [msg("The measurements do not show both prefill and decode speed, so they "
                    "cannot tell how many replicas the load needs; the plan stays as sized.")]
    users = users_total(result) or 0.0
    carries = plural(capacity, msg("With the measured speed one replica carries {capacity:,} "
                                   "user at the targets"),
                     msg("With the measured speed one replica carries {capacity:,} users at "
                         "the targets"), capacity=capacity)
    sized = result.performance.slo_capacity_per_replica
    if capacity == 0:
        return [msg("With the measured speed no load meets both targets on this "
                    "configuration: more replicas would not help; see the levers in "
                    "Step 4.")]
    if replicas == planned:
        return [carries, plural(planned, msg("The plan's {planned:,} replica for {users:,.0f} "
                                             "users holds (sized: {sized:,} per replica)."),
                                msg("The plan's {planned:,} replicas for {users:,.0f} users "
                                    "hold (sized: {sized:,} per replica)."),
                                planned=planned, users=users, sized=sized)]
    more = replicas > planned
    change = (msg("{users:,.0f} users need {replicas:,} replicas, {delta:,} more than "
                  "planned ({planned:,}).") if more else
              msg("{users:,.0f} users need {replicas:,} replicas, {delta:,} fewer than "
                  "planned ({planned:,})."))
    return [carries, Message(template=change.template,
                             params={"users": users, "replicas": replicas,
                                     "delta": abs(replicas - planned), "planned": planned})]


def replicas_with(result: SizingResult, capacity: int) -> int | None:
    """Replicas the measured ``capacity`` per replica needs for the scenario's users (the
    sizing's rule, :func:`app.engine.scale.replicas_for_load`); None without a user count or a
    capacity."""
    users = users_total(result)
    if users is None or capacity < 1:
        return None
    return replicas_for_load(users, capacity)


def median_abs_error(pairs: list[tuple[float, float]]) -> float:
    """Median of |measured / predicted - 1| over (measured, predicted) pairs [-]."""
    if not pairs:
        return 0.0
    return float(np.median([abs(m / p - 1.0) for m, p in pairs]))
