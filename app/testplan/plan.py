"""The load test a sizing implies: the levels to run on one replica and the figures to reach.

A sizing is an estimate until it is measured on site under representative load (METHOD.md,
Step 5). :func:`build_plan` takes the sized scenario and result and lays out, for one
replica:

- a concurrency sweep: one user, doubling up to the scenario's load per replica, the load
  itself, saturation, and one level beyond it (where the curve has turned);
- the request-rate form: Poisson arrivals at half the load's request rate, at the load's rate
  and at the saturation rate;
- for each level the predicted figures with their expected range (the result's band), the
  targets that apply there, and the number of requests (``test_plan_rounds`` per user, at
  least ``test_plan_min_requests``).

The predicted figures are the engine's own at each level (``app.engine.validation.predict``,
the same code as the sizing); nothing is interpolated here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.domain.catalog import Catalog
from app.domain.measurements import TIME_METRICS
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.engine.validation import Load, configuration_of, expected_range, predict

MAX_DOUBLINGS = 10
BEYOND_SATURATION = 1.5
RATE_SHARES = (0.5, 1.0)
METRICS = ("ttft_s", "itl_s", "tokens_per_s_per_user", "output_tokens_per_s")


@dataclass(frozen=True)
class Expected:
    """A predicted figure and its expected range (low = pessimistic end for speeds)."""

    value: float
    low: float
    high: float

    def passes(self, metric: str, measured: float) -> bool:
        """Whether ``measured`` is no worse than the pessimistic end of the range."""
        if metric in TIME_METRICS:
            return measured <= self.high
        return measured >= self.low


@dataclass(frozen=True)
class Step:
    """One load level of the plan on one replica."""

    name: str  # "one user", "sweep", "scenario load", "saturation", "beyond saturation",
    # "half load (rate)", "load (rate)", "saturation (rate)"
    kind: str  # "concurrency" or "request_rate"
    concurrency: int  # users (closed loop); for a rate: the users the rate corresponds to
    request_rate: float | None  # requests per second (the rate form)
    requests: int
    expected: dict[str, Expected]
    targets: dict[str, float]  # the targets that apply at this level (ttft_s, tokens/s)
    output_tokens: float  # per request [tokens]

    @property
    def requests_per_s(self) -> float:
        """Requests completed per second at the predicted throughput [1/s]."""
        return self.expected["output_tokens_per_s"].value / max(self.output_tokens, 1.0)

    @property
    def duration_s(self) -> float:
        """How long the level takes at the predicted throughput [s]."""
        rate = self.request_rate or self.requests_per_s
        return self.requests / rate if rate > 0 else 0.0

    @property
    def tag(self) -> str:
        """File-name part: c8, rate0.51."""
        if self.kind == "concurrency":
            return f"c{self.concurrency}"
        return f"rate{self.request_rate:.3g}"


@dataclass(frozen=True)
class LoadTestPlan:
    """Everything an engineer needs to test one replica of the sized configuration."""

    scenario_name: str
    model_id: str
    model_name: str
    model_source: str
    gpu_id: str
    gpu_name: str
    gpus_per_replica: int
    tensor_parallel: int
    pipeline_parallel: int
    weights: str
    kv_cache: str
    native_precision: str
    engine: str
    engine_name: str
    memory_fraction: float
    batch_limit: int
    batched_tokens: int
    context_tokens: int
    prompt_tokens: int
    output_tokens: int
    users_total: int | None
    users_per_replica: float
    replicas_for_load: int
    replicas: int
    redundancy: str
    band_low: float
    band_high: float
    site_profile: str | None
    targets: dict[str, float]
    steps: list[Step] = field(default_factory=list)
    serving_of_training: bool = False

    @property
    def duration_s(self) -> float:
        """All levels one after the other, at the predicted throughput [s]."""
        return sum(step.duration_s for step in self.steps)

    @property
    def sweep(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "concurrency"]

    @property
    def rates(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "request_rate"]


def sweep_levels(load: float, saturation: float) -> list[tuple[str, int]]:
    """(name, users) from one user through the load to beyond saturation, distinct, rising."""
    load_users = max(1, round(load))
    saturated = max(1, round(saturation))
    levels = [("one user", 1)]
    users = 2
    while users < load_users and len(levels) <= MAX_DOUBLINGS:
        levels.append(("sweep", users))
        users *= 2
    levels.append(("scenario load", load_users))
    if saturated > load_users:
        levels.append(("saturation", saturated))
    levels.append(("beyond saturation", max(round(BEYOND_SATURATION * max(load_users,
                                                                           saturated)), 2)))
    found: dict[int, str] = {}
    for name, count in levels:
        found.setdefault(count, name)
    if found.get(1) != "one user" and 1 in found:  # a load of one user is still "one user"
        found[1] = "one user"
    return sorted(((name, count) for count, name in found.items()), key=lambda x: x[1])


def requests_for(users: float, rounds: float, minimum: float) -> int:
    return int(max(minimum, rounds * round(users)))


def expected_of(figures: dict[str, float], low: float, high: float) -> dict[str, Expected]:
    return {m: Expected(figures[m], *expected_range(m, figures[m], low, high)) for m in METRICS}


def targets_at(result: SizingResult, users: float, load: float) -> dict[str, float]:
    """The targets a level must meet: those the sizing promised, up to the scenario's load."""
    perf = result.performance
    if not perf.targets or users > load + 1e-9:
        return {}
    met = {"ttft_s": perf.targets_met.get("ttft", False),
           "tokens_per_s_per_user": perf.targets_met.get("tokens_per_s_per_user", False)}
    return {name: value for name, value in perf.targets.items() if met.get(name)}


def build_plan(catalog: Catalog, scenario: Scenario, result: SizingResult,
               serving_of_training: bool = False) -> LoadTestPlan:
    """The load test of one replica of ``result``'s configuration.

    Parameters
    ----------
    scenario : the scenario as sized (an inference scenario)
    result : its sizing
    serving_of_training : the scenario is the serving of a trained model (said in the plan)
    """
    config = configuration_of(catalog, scenario, result)
    inputs = result.inputs
    work = inputs["workload"]
    prompt, output = int(work["prompt_tokens"]), int(work["output_tokens"])
    context = int(work["max_context_tokens"])
    perf = result.performance
    load = perf.at_concurrency.concurrency
    rounds = catalog.default("test_plan_rounds")
    minimum = catalog.default("test_plan_min_requests")
    levels = sweep_levels(load, perf.saturation.concurrency)
    rates = [("half load (rate)", RATE_SHARES[0] * perf.at_concurrency.requests_per_s, load / 2),
             ("load (rate)", RATE_SHARES[1] * perf.at_concurrency.requests_per_s, load),
             ("saturation (rate)", perf.saturation.requests_per_s,
              perf.saturation.concurrency)]
    rates = [r for r in rates if r[1] > 0]
    if perf.saturation.requests_per_s <= perf.at_concurrency.requests_per_s * 1.02:
        rates = rates[:2]  # the load is saturation: one rate there is enough
    loads = [Load("concurrency", users, prompt, output) for _, users in levels]
    loads += [Load("request_rate", rate, prompt, output) for _, rate, _ in rates]
    figures = predict(config, context, loads)
    band = perf.band
    steps = [Step(name, "concurrency", users, None, requests_for(users, rounds, minimum),
                  expected_of(f, band.low, band.high), targets_at(result, users, load),
                  float(output))
             for (name, users), f in zip(levels, figures, strict=False)]
    steps += [Step(name, "request_rate", max(1, round(users)), rate,
                   requests_for(users, rounds, minimum), expected_of(f, band.low, band.high),
                   targets_at(result, users, load), float(output))
              for (name, rate, users), f in zip(rates, figures[len(levels):], strict=True)]
    model = config.model
    hardware, precision, serving = inputs["hardware"], inputs["precision"], inputs["serving"]
    users_total = work["concurrent_users"]
    return LoadTestPlan(
        scenario_name=scenario.name, model_id=model.id, model_name=model.name,
        model_source=model.source, gpu_id=config.gpu.id, gpu_name=config.gpu.name,
        gpus_per_replica=config.replica.gpus, tensor_parallel=int(hardware["tensor_parallel"]),
        pipeline_parallel=int(hardware["pipeline_parallel"]), weights=precision["weights"],
        kv_cache=precision["kv_cache"], native_precision=model.native_precision,
        engine=serving["engine"], engine_name=config.engine.name,
        memory_fraction=float(serving["memory_fraction"]),
        batch_limit=int(serving["max_batch_size"]),
        batched_tokens=int(serving["max_batched_tokens"]), context_tokens=context,
        prompt_tokens=prompt, output_tokens=output,
        users_total=users_total if isinstance(users_total, int) else None,
        users_per_replica=load, replicas_for_load=result.scale.replicas_for_load,
        replicas=result.scale.replicas, redundancy=result.scale.redundancy, band_low=band.low,
        band_high=band.high, site_profile=perf.site_profile,
        targets=dict(perf.targets), steps=steps, serving_of_training=serving_of_training)
