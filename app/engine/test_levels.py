"""The load test a sizing implies: levels on one replica and the figures each must reach.

A sizing is an estimate until it is measured on site under representative load (METHOD.md,
Step 5). For one replica of the sized configuration the plan has:

- a concurrency sweep: one user, doubling up to the scenario's load per replica, the load
  itself, saturation, and one level beyond it (x1.5, where the curve has turned);
- the request-rate form: Poisson arrivals at half the load's request rate, at the load's rate
  and at the saturation rate;
- for each level the engine's own prediction (``validation.predict``, the same code as the
  sizing) with the expected range (the result's band), the targets that apply there (those
  the sizing meets, up to its load), and the requests to send (``test_plan_rounds`` per user,
  at least ``test_plan_min_requests``).
"""

from __future__ import annotations

from app.domain.catalog import Catalog
from app.domain.result import Band, PerformanceResult, ScaleResult
from app.domain.scenario import Workload as ScenarioWorkload
from app.domain.testplan import Expected, LoadLevel, TestPlanResult
from app.engine.configuration import Configuration
from app.engine.evaluate import MemoryPlan
from app.engine.performance import Workload
from app.engine.validation import Load, expected_range, predict

MAX_DOUBLINGS = 10
BEYOND_SATURATION = 1.5
METRICS = ("ttft_s", "itl_s", "tokens_per_s_per_user", "output_tokens_per_s")


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
    beyond = max(round(BEYOND_SATURATION * max(load_users, saturated)), 2)
    levels.append(("beyond saturation", beyond))
    found: dict[int, str] = {}
    for name, count in levels:
        found.setdefault(count, name)
    return sorted(((name, count) for count, name in found.items()), key=lambda x: x[1])


def rate_levels(performance: PerformanceResult) -> list[tuple[str, float, float]]:
    """(name, requests per second, users it corresponds to) of the request-rate form."""
    at, saturated = performance.at_concurrency, performance.saturation
    levels = [("half load (rate)", 0.5 * at.requests_per_s, at.concurrency / 2),
              ("load (rate)", at.requests_per_s, at.concurrency)]
    if saturated.requests_per_s > 1.02 * at.requests_per_s:  # else the load is saturation
        levels.append(("saturation (rate)", saturated.requests_per_s, saturated.concurrency))
    return [level for level in levels if level[1] > 0]


def requests_for(users: float, rounds: float, minimum: float) -> int:
    """Requests a level sends: ``rounds`` per user, at least ``minimum``."""
    return int(max(minimum, rounds * round(users)))


def targets_at(performance: PerformanceResult, users: float) -> dict[str, float]:
    """The targets a level must meet: those the sizing meets, up to the scenario's load."""
    if not performance.targets or users > performance.at_concurrency.concurrency + 1e-9:
        return {}
    met = {"ttft_s": performance.targets_met.get("ttft", False),
           "tokens_per_s_per_user": performance.targets_met.get("tokens_per_s_per_user", False)}
    return {name: value for name, value in performance.targets.items() if met.get(name)}


def expected_of(figures: dict[str, float], band: Band) -> dict[str, Expected]:
    """Each figure of a level with its expected range."""
    ranges = {m: expected_range(m, figures[m], band) for m in METRICS}
    return {m: Expected(value=figures[m], low=ranges[m][0], high=ranges[m][1])
            for m in METRICS}


def levels_of(catalog: Catalog, config: Configuration, performance: PerformanceResult,
              prompt: int, output: int, context: int,
              plan: MemoryPlan | None = None) -> list[LoadLevel]:
    """Every level of the plan with its prediction, range, targets and requests (``plan``:
    the sizing's memory plan of ``config`` for this request shape, reused)."""
    rounds = catalog.default("test_plan_rounds")
    minimum = catalog.default("test_plan_min_requests")
    sweep = sweep_levels(performance.at_concurrency.concurrency,
                         performance.saturation.concurrency)
    rates = rate_levels(performance)
    loads = [Load("concurrency", users, prompt, output) for _, users in sweep]
    loads += [Load("request_rate", rate, prompt, output,
                   prompts=requests_for(users, rounds, minimum)) for _, rate, users in rates]
    known = {(Workload(prompt, output), context): plan} if plan is not None else None
    figures = predict(config, context, loads, known)
    band = performance.band
    levels = [LoadLevel(name=name, kind="concurrency", concurrency=users,
                        requests=requests_for(users, rounds, minimum), output_tokens=output,
                        expected=expected_of(f, band),
                        targets=targets_at(performance, users))
              for (name, users), f in zip(sweep, figures, strict=False)]
    levels += [LoadLevel(name=name, kind="request_rate", concurrency=max(1, round(users)),
                         request_rate=rate, requests=requests_for(users, rounds, minimum),
                         output_tokens=output, expected=expected_of(f, band),
                         targets=targets_at(performance, users))
               for (name, rate, users), f in zip(rates, figures[len(sweep):], strict=True)]
    return levels


def test_plan_result(catalog: Catalog, config: Configuration, performance: PerformanceResult,
                     scale: ScaleResult, workload: ScenarioWorkload, scenario_name: str,
                     serving_of_training: bool = False,
                     plan: MemoryPlan | None = None) -> TestPlanResult:
    """The load test of one replica of ``config`` at the sized load.

    Parameters
    ----------
    config : the sized configuration (the serving one for a training scenario)
    performance, scale : the result's Step 4 and Step 5 sections
    workload : the scenario's workload after defaults (prompt, output, context, users)
    plan : the sizing's memory plan of ``config`` (reused, not made again)
    """
    prompt, output = workload.prompt_tokens, workload.output_tokens
    context = workload.context_tokens
    settings, model = config.settings, config.model
    users = workload.concurrent_users
    return TestPlanResult(
        scenario_name=scenario_name, model_id=model.id, model_name=model.name,
        native_precision=model.native_precision, gpu_id=config.gpu.id,
        gpu_name=config.gpu.name, gpus_per_replica=config.replica.gpus,
        tensor_parallel=config.tensor_parallel, pipeline_parallel=config.pipeline_parallel,
        weights=config.weight_precision.id, kv_cache=config.kv_precision.id,
        engine=config.engine.id, engine_name=config.engine.name,
        memory_fraction=settings.memory_fraction, batch_limit=settings.batch_limit,
        batched_tokens=settings.max_batched_tokens, context_tokens=context,
        prompt_tokens=prompt, output_tokens=output,
        users_total=users if isinstance(users, int) and not serving_of_training else None,
        users_per_replica=performance.at_concurrency.concurrency,
        replicas_for_load=scale.replicas_for_load, replicas=scale.replicas,
        redundancy=scale.redundancy, band_low=performance.band.low,
        band_high=performance.band.high, site_profile=performance.site_profile,
        targets=dict(performance.targets), serving_of_training=serving_of_training,
        levels=levels_of(catalog, config, performance, prompt, output, context, plan))
