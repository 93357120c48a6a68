"""Which change fixes a missed target, and by how much (METHOD.md, Step 4, "Targets").

Each lever re-evaluates the configuration with one change, at the scenario's concurrency,
through the same code as the sizing: more GPUs (higher t), another GPU, FP8 or INT8
weights, an FP8 KV cache, a shorter maximum context, more replicas (fewer users on each) and,
for a configuration the user gave, the one Step 3's search would choose.
"""

from __future__ import annotations

import math
from dataclasses import replace

from app.domain.catalog import Catalog
from app.domain.result import Lever, PerformanceResult
from app.engine.configuration import Choice, Configuration, unsupported_problem
from app.engine.evaluate import plan_memory, points_at, saturation_of
from app.engine.resolved import Resolved, SizingError, configure_for
from app.engine.selection import select, tensor_parallel_options
from app.i18n import Message, msg, plural

FP8_KV_NOTE = msg("FP8 KV cache is near-lossless for most models")
EIGHT_BIT_NOTE = msg("8-bit weights are near-lossless; regulated sectors accept 8 bit")
STILL_SHORT = {
    None: msg("KV cache still short"),
    FP8_KV_NOTE.template: msg("FP8 KV cache is near-lossless for most models; KV cache still "
                              "short"),
    EIGHT_BIT_NOTE.template: msg("8-bit weights are near-lossless; regulated sectors accept 8 "
                                 "bit; KV cache still short"),
}


def current_choice(config: Configuration) -> Choice:
    return Choice(config.gpu.id, config.tensor_parallel, config.pipeline_parallel,
                  config.weight_precision.id, config.kv_precision.id, config.engine.id,
                  config.replica.expert_parallel, config.replica.dp_attention)


def _wider_experts(base: Choice, config: Configuration, t: int) -> int:
    """The expert-parallel degree of a wider variant: experts over all ``t`` GPUs when
    they were over all of the current ones (and ``t`` divides the experts), else the
    current degree (1 when it no longer divides ``t``)."""
    ep = base.expert_parallel
    moe = config.model.moe
    if ep > 1 and ep == base.tensor_parallel and moe is not None and moe.experts % t == 0:
        return t
    return ep if t % ep == 0 else 1


def outcome(catalog: Catalog, r: Resolved, choice: Choice,
            peak_context: int | None = None) -> tuple[float, float, bool] | None:
    """(tokens/s per user, TTFT, fits) at the scenario's load, or None if weights don't fit."""
    config = configure_for(catalog, r, choice)
    context = peak_context or r.demand.peak_context
    plan = plan_memory(config, r.demand.work, context)
    if not plan.weights_fit or plan.max_concurrent_sequences < 1:
        return None
    users = r.demand.users
    points = (points_at(config, plan, r.demand.work, [users], coarse=True) if users
              else saturation_of(config, plan, r.demand.work))
    fits = users is None or plan.max_concurrent_sequences >= users
    return float(points.tokens_per_s_per_user[0]), float(points.ttft_s[0]), fits


def variants(catalog: Catalog, config: Configuration,
             r: Resolved) -> list[tuple[Message, Choice, Message | None]]:
    """(description, choice, quality note) for each single change worth trying."""
    base = current_choice(config)
    found = []
    for t, p in tensor_parallel_options(r.model, config.replica.gpus * 2,
                                        config.gpu.max_gpus_per_node):
        wider = replace(base, tensor_parallel=t, pipeline_parallel=p,
                        expert_parallel=_wider_experts(base, config, t),
                        dp_attention=base.dp_attention and t >= 2)
        found.append((msg("{n} x {gpu} per replica (t = {t}, p = {p})", n=t * p,
                          gpu=config.gpu.name, t=t, p=p), wider, None))
        if config.kv_precision.bits > 8:
            found.append((msg("{n} x {gpu} per replica (t = {t}, p = {p}) and FP8 KV cache",
                              n=t * p, gpu=config.gpu.name, t=t, p=p),
                          replace(wider, kv_cache="fp8"), FP8_KV_NOTE))
    if config.kv_precision.bits > 8 and "fp8" in catalog.precisions:
        found.append((msg("FP8 KV cache"), replace(base, kv_cache="fp8"), FP8_KV_NOTE))
    if config.weight_precision.bits > 8:
        fmt = "fp8" if config.gpu.fp8_tflops else "int8"
        found.append((msg("{fmt} weights", fmt=fmt.upper()), replace(base, weights=fmt),
                      EIGHT_BIT_NOTE))
    return found


def other_gpus(catalog: Catalog, config: Configuration, r: Resolved) -> list:
    """The cheapest other GPU that meets the targets at the same parallelism, else the
    fastest one: (description, outcome, note).

    Only GPUs with more memory bandwidth or more peak compute can fix a missed speed or
    TTFT, so only those are tried.
    """
    base = current_choice(config)
    tried = []
    compute = config.weight_precision.compute
    for gpu in catalog.gpus.values():
        if gpu.id == config.gpu.id or gpu.max_gpus_per_node < config.tensor_parallel:
            continue
        if (gpu.memory_bandwidth_gb_s <= config.gpu.memory_bandwidth_gb_s
                and gpu.peak_flops(compute) <= config.gpu.peak_flops(compute)):
            continue
        if unsupported_problem(config.engine, config.weight_precision, gpu, config.model):
            continue  # the engine does not run there (another maker, no kernel)
        result = outcome(catalog, r, replace(base, gpu=gpu.id))
        if result is not None:
            tried.append((gpu, result))
    if not tried:
        return []
    speed_target, ttft_target = r.demand.speed_target, r.demand.ttft_target
    meeting = [(g, o) for g, o in tried if o[0] >= speed_target and o[1] <= ttft_target]
    if meeting:
        gpu, result = min(meeting, key=lambda item: item[0].price_usd or float("inf"))
    else:
        gpu, result = max(tried, key=lambda item: item[1][0])
    return [(msg("{new} instead of {old}", new=gpu.name, old=config.gpu.name), result, None)]


def with_users(r: Resolved, users: int) -> Resolved:
    """``r`` with ``users`` on one replica."""
    return replace(r, demand=replace(r.demand, users=users))


def more_replicas(catalog: Catalog, config: Configuration, p: PerformanceResult,
                  r: Resolved) -> list:
    """More replicas, fewer users on each: the figures at the SLO capacity per replica, or
    at one user per replica when no load meets the targets (then more replicas cannot fix
    it, and the lever shows by how much it stays short). (description, outcome, note)."""
    users = r.demand.users
    if users is None or users <= 1:
        return []
    each = max(min(p.slo_capacity_per_replica, users - 1), 1)
    result = outcome(catalog, with_users(r, each), current_choice(config))
    if result is None:
        return []
    name = plural(each, msg("{factor:,} times the replicas (one user per replica)"),
                  msg("{factor:,} times the replicas ({each:,} users per replica)"),
                  factor=math.ceil(users / each), each=each)
    return [(name, result, None)]


def tool_choice(catalog: Catalog, config: Configuration, r: Resolved) -> list:
    """For a configuration the user gave: the one Step 3's search would choose, at the users
    one of its replicas carries (nothing when the search finds the same or nothing).
    (description, outcome, note)."""
    if r.scenario.hardware is None:
        return []
    searching = replace(r, scenario=r.scenario.model_copy(update={"hardware": None}))
    try:
        winner, _ = select(catalog, searching)
    except SizingError:
        return []
    choice = current_choice(winner.config)
    if choice == current_choice(config):
        return []
    users = r.demand.users
    each = math.ceil(users / max(winner.load, 1)) if users else None
    result = outcome(catalog, with_users(searching, each) if each else searching, choice)
    if result is None:
        return []
    c = winner.config
    name = msg("Let the tool choose: {n} x {gpu} per replica (t = {t}, p = {p}), {fmt} weights",
               n=c.replica.gpus, gpu=c.gpu.name, t=c.tensor_parallel, p=c.pipeline_parallel,
               fmt=c.weight_precision.id.upper())
    return [(name, result, None)]


def levers_for(catalog: Catalog, config: Configuration, p: PerformanceResult,
               r: Resolved) -> list[Lever]:
    """A lever for every missed target: what it changes and the value it reaches."""
    missed = [name for name, ok in p.targets_met.items() if not ok]
    results = []
    candidates = variants(catalog, config, r)
    shorter = r.demand.peak_context // 2
    for name, choice, note in candidates:
        results.append((name, outcome(catalog, r, choice), note))
    results += other_gpus(catalog, config, r)
    results += more_replicas(catalog, config, p, r)
    results += tool_choice(catalog, config, r)
    if shorter >= r.demand.work.prompt_tokens + r.demand.work.output_tokens:
        results.append((msg("maximum context {n:,} tokens", n=shorter),
                        outcome(catalog, r, current_choice(config), shorter), None))
    levers = []
    for target in missed:
        for name, result, note in results:
            if result is None:
                continue
            speed, ttft, fits = result
            value = speed if target == "tokens_per_s_per_user" else ttft
            meets = (speed >= p.targets["tokens_per_s_per_user"]) and (
                ttft <= p.targets["ttft_s"])
            if not fits:
                note = STILL_SHORT[note.template if note else None]
            levers.append(Lever(target=target, value_after=value, meets=meets,
                                change_message=name, note_message=note))
    return sorted(levers, key=lambda lever: (not lever.meets, lever.target))
