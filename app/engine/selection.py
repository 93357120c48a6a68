"""Step 3 of the method: enumerate GPU configurations, keep those that work, rank them.

Candidates are GPU x count x tensor-parallel degree x weight format (METHOD.md, Step 3):
counts of 1, 2, 4, 8 ... up to the scenario's limit; tensor parallelism inside one scale-up
domain (its degree divides the attention heads and suits the KV heads); beyond one domain
the remaining factor is pipeline parallelism across nodes. Each candidate is evaluated with
the same code as the final sizing and gets a verdict and the reason it lost.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import Catalog, GpuSpec, ModelSpec
from app.domain.problems import problem
from app.domain.result import Band, Candidate, ChosenConfiguration, SelectionResult
from app.domain.scenario import MAX_TENSOR_PARALLEL, Selection, expert_layout_problem
from app.engine.configuration import Choice, Configuration, configure, unsupported_problem
from app.engine.evaluate import MemoryPlan, batch_cap, plan_memory
from app.engine.memory import ParameterCounts
from app.engine.performance import Points, Workload, at_low_end, batch_grid, by_batch
from app.engine.resolved import Demand, Resolved, SizingError, configure_for, look_up
from app.engine.scale import Capacities, NodePlan, capacities, replicas_for_load
from app.engine.servers import compute_cost, node_plan, plan_power_w
from app.engine.uncertainty import band_of
from app.i18n import Message, msg, plural

GB = 1e9


@dataclass(frozen=True)
class Evaluated:
    """A candidate configuration and how it does under the scenario's demand.

    ``load`` is the replicas the load needs (:func:`app.engine.scale.replicas_for_load`),
    ``nodes`` how they and the redundancy land on servers
    (:func:`app.engine.servers.node_plan`, the rule Step 5 sizes by; None when it does not
    fit); ``replicas`` and ``gpus_total`` are that plan's. ``capacity`` is the SLO capacity
    the load is sized by, ``capacities`` both ends of planning
    (:class:`app.engine.scale.Capacities`), ``band`` the expected range they came from.
    """

    config: Configuration
    plan: MemoryPlan
    curve: Points | None
    capacity: int
    replicas: int
    gpus_total: int
    power_w: float
    cost_usd: float | None
    verdict: str
    reason: Message
    load: int = 0
    nodes: NodePlan | None = None
    capacities: Capacities = Capacities(0, 0)
    band: Band = Band(low=1.0, high=1.0)
    cost_complete: bool = True

    @property
    def cost_key(self) -> tuple[bool, float]:
        """(price missing, USD) for ranking by cost: a candidate whose total leaves out an
        unpriced item comes after every complete one, never first for its gap."""
        return (not self.cost_complete or self.cost_usd is None,
                self.cost_usd if self.cost_usd is not None else math.inf)

    @property
    def works(self) -> bool:
        return self.verdict == "meets targets"


def tensor_parallel_options(model: ModelSpec, gpus: int, domain: int) -> list[tuple[int, int]]:
    """(t, p) splits of ``gpus``: t inside one scale-up domain, p stages for the rest."""
    options = []
    t = min(gpus, domain)
    while t >= 1:
        heads_ok = model.attention_heads % t == 0
        kv_ok = model.mla is not None or model.kv_heads % t == 0 or t % model.kv_heads == 0
        if heads_ok and kv_ok and gpus % t == 0:
            options.append((t, gpus // t))
            break
        t //= 2
    return options


def gpu_counts(limit: int) -> list[int]:
    """1, 2, 4, 8, ... up to ``limit``."""
    return [2**i for i in range(int(math.log2(max(limit, 1))) + 1)]


@dataclass(frozen=True)
class Measured:
    """What a candidate does whatever the load: its memory plan, its operating points by
    decode batch (None when the weights or one sequence do not fit) and the expected range
    of its figures."""

    config: Configuration
    plan: MemoryPlan
    curve: Points | None
    band: Band


def measure(config: Configuration, work: Workload, peak_context: int,
            band: Band) -> Measured:
    """The memory plan and the curve by batch of one candidate (most of a search's time);
    ``band`` is its expected range (:func:`app.engine.uncertainty.band_of`)."""
    plan = plan_memory(config, work, peak_context)
    if not plan.weights_fit or plan.max_concurrent_sequences < 1:
        return Measured(config, plan, None, band)
    curve = by_batch(config.replica, work, batch_grid(batch_cap(config, plan, work)))
    return Measured(config, plan, curve.shared(), band)


class NodePlans:
    """Step 5's node plan (:func:`app.engine.servers.node_plan`) of each GPU, GPUs per
    replica and load a search asks for, made once: many candidates differ only in their
    number formats."""

    def __init__(self, catalog: Catalog, redundancy: str, server: str | None = None,
                 overrides: dict[str, float] | None = None):
        self.catalog, self.redundancy, self.server = catalog, redundancy, server
        self.overrides = overrides or {}
        self.plans: dict[tuple[str, int, int], NodePlan] = {}

    def __call__(self, config: Configuration, load: int) -> NodePlan:
        key = (config.gpu.id, config.replica.gpus, load)
        if key not in self.plans:
            self.plans[key] = node_plan(self.catalog, config.gpu, self.server,
                                        config.replica.gpus, load, self.redundancy,
                                        self.overrides)
        return self.plans[key]


def evaluate_candidate(catalog: Catalog, config: Configuration, demand: Demand,
                       server: str | None = None,
                       overrides: dict[str, float] | None = None) -> Evaluated:
    """Memory, SLO capacity, replicas, power and cost of one candidate, with a verdict
    (``server``: the one the scenario names, else Step 5's choice; ``overrides``: the
    scenario's price overrides by catalog id)."""
    return judge(measure(config, demand.work, demand.peak_context, band_of(config, catalog)),
                 demand, NodePlans(catalog, demand.redundancy, server, overrides))


def judge(measured: Measured, demand: Demand, nodes: NodePlans) -> Evaluated:
    """SLO capacity, replicas, power, cost and verdict of a measured candidate under
    ``demand``'s load, targets and redundancy.

    Replicas and GPUs come from the rules Step 5 sizes by: the replicas for the load
    (:func:`app.engine.scale.replicas_for_load`) at the capacity of the scenario's planning
    (:class:`app.engine.scale.Capacities`), packed with the redundancy onto the server
    Step 5 would choose (``nodes``, :func:`app.engine.servers.node_plan`).
    """
    config, plan, curve = measured.config, measured.plan, measured.curve
    gpus = config.replica.gpus
    if curve is None:
        need = (plan.budget.weights + plan.budget.runtime + plan.kv_per_sequence_peak) / GB
        reason = msg("does not fit: weights, runtime and one sequence need {need:.1f} GB per "
                     "GPU, {usable:.1f} GB usable", need=need, usable=plan.budget.usable / GB)
        return Evaluated(config, plan, None, 0, 0, 0, 0.0, None, "does not fit", reason,
                         band=measured.band)
    both = capacities(curve, measured.band, demand.ttft_target, demand.speed_target,
                      plan.max_concurrent_sequences)
    verdict, reason = verdict_for(curve, both, demand, measured.band)
    capacity = both.planned(demand.plan_at)
    load = replicas_for_load(demand.users, capacity, both.holds)
    placed = nodes(config, load)
    total = placed.replicas * gpus
    cost = compute_cost(placed, config.gpu, total, nodes.overrides)
    return Evaluated(config, plan, curve, capacity, placed.replicas, total,
                     plan_power_w(placed, config.gpu, total),
                     cost.usd if cost.usd > 0 else None, verdict, reason, load, placed, both,
                     measured.band, cost.complete)


def verdict_for(curve: Points, both: Capacities, demand: Demand,
                band: Band) -> tuple[str, Message]:
    """Whether one user can be served within the targets at the end of the expected range
    the scenario plans at, and if not, why."""
    capacity = both.verdict_capacity(demand.plan_at)
    if capacity >= 1:
        return "meets targets", plural(capacity, msg("{n} user per replica within the targets"),
                                       msg("{n} users per replica within the targets"),
                                       n=capacity)
    if demand.plan_at == "conservative" and both.low_end_misses:
        return low_end_verdict(at_low_end(curve, band), demand)
    one = one_user(curve)
    single_ttft = float(curve.ttft_s[one])
    single_speed = float(curve.tokens_per_s_per_user[one])
    if single_ttft > demand.ttft_target:
        return "misses TTFT", msg("TTFT {ttft:.2f} s for one user, target {target:g} s",
                                  ttft=single_ttft, target=demand.ttft_target)
    return "misses tokens/s", msg("{speed:.1f} tokens/s for one user, target {target:g}",
                                  speed=single_speed, target=demand.speed_target)


def low_end_verdict(low: Points, demand: Demand) -> tuple[str, Message]:
    """The target one user misses at the low end of the expected range (``low``), though the
    expected figures meet it."""
    one = one_user(low)
    if float(low.ttft_s[one]) > demand.ttft_target:
        return "misses TTFT", msg("TTFT up to {ttft:.2f} s for one user at the low end of the "
                                  "expected range, target {target:g} s",
                                  ttft=float(low.ttft_s[one]), target=demand.ttft_target)
    return "misses tokens/s", msg("{speed:.1f} tokens/s for one user at the low end of the "
                                  "expected range, target {target:g}",
                                  speed=float(low.tokens_per_s_per_user[one]),
                                  target=demand.speed_target)


def one_user(points: Points) -> int:
    """Index of the first operating point with at least one whole user [-]: the SLO capacity
    counts whole users (``performance.slo_capacity``), so a verdict of "one user" is read
    there, not at the curve's fractional first points (a user who spends part of each request
    in prefill), whose TTFT can still meet a target that one user misses."""
    whole = np.flatnonzero(np.asarray(points.concurrency) >= 1.0)
    return int(whole[0]) if whole.size else len(points.concurrency) - 1


RANK_KEYS = {
    "capital_cost": lambda e: (*e.cost_key, e.gpus_total, e.power_w,
                               -e.config.weight_precision.bits),
    "power": lambda e: (e.power_w, e.gpus_total),
    "gpu_count": lambda e: (e.gpus_total, *e.cost_key),
    "tokens_per_dollar": lambda e: (e.cost_key[0], -(e.capacity * e.replicas / e.cost_usd)
                                    if e.cost_usd else math.inf, e.gpus_total),
}


#: How many leading entries of each ranking key are the ranking's own measure (the rest
#: break ties): a cost carries its "price missing" flag before the USD.
RANK_PRIMARY = {"capital_cost": 2, "power": 1, "gpu_count": 1, "tokens_per_dollar": 2}


def enumerate_choices(catalog: Catalog, model: ModelSpec, gpu_ids: list[str],
                      weights: list[str], kv_cache: str, engine: str,
                      max_gpus: int) -> list[Choice]:
    """Every (GPU, t, p, weight format) the search considers: not a weight format the engine
    has no kernel for on the GPU's family (:func:`runnable_weights`)."""
    choices = []
    for gpu_id in gpu_ids:
        gpu = catalog.gpu(gpu_id)
        runnable = runnable_weights(catalog, model, gpu, weights, engine)
        for count in gpu_counts(max_gpus):
            for t, p in tensor_parallel_options(model, count, gpu.max_gpus_per_node):
                choices += [Choice(gpu_id, t, p, w, kv_cache, engine, ep, dp)
                            for w in runnable for ep, dp in expert_layouts(model, t)]
    return choices


def runnable_weights(catalog: Catalog, model: ModelSpec, gpu: GpuSpec, weights: list[str],
                     engine: str) -> list[str]:
    """The weight formats of ``weights`` that ``engine`` has kernels for on ``gpu``."""
    profile = catalog.engine(engine)
    return [w for w in weights
            if unsupported_problem(profile, catalog.precision(w), gpu, model) is None]


class MeasuredCache:
    """Candidates measured by recent searches, so that a change of the load, the targets or
    the redundancy re-ranks them without measuring them again (a Step 3 search in the
    window after each edit).

    Measurements are grouped by the search's context, everything a measurement depends on
    besides the choice: the catalog (by identity: catalogs are replaced, never changed; each
    group keeps its catalog alive, so the identity cannot be reused), the model, the factor
    overrides, the serving settings, the request shape and the peak context. The least
    recently used contexts go first.
    """

    def __init__(self, contexts: int = 16):
        self.contexts = contexts
        self.groups: OrderedDict[tuple, tuple[Catalog, dict[Choice, Measured]]] = OrderedDict()
        self.lock = threading.Lock()  # the worker and a synchronous sizing may both search

    def group(self, catalog: Catalog, context: tuple) -> dict[Choice, Measured]:
        """The measurements of ``context`` (an empty dict to fill for a new context)."""
        key = (id(catalog), *context)
        with self.lock:
            found = self.groups.get(key)
            if found is None or found[0] is not catalog:
                found = self.groups[key] = (catalog, {})
            self.groups.move_to_end(key)
            while len(self.groups) > self.contexts:
                self.groups.popitem(last=False)
        return found[1]

    def __len__(self) -> int:
        """Measurements held, all contexts together."""
        return sum(len(measured) for _, measured in self.groups.values())

    def clear(self) -> None:
        with self.lock:
            self.groups.clear()


MEASURED = MeasuredCache()


def search(catalog: Catalog, model: ModelSpec, counts: ParameterCounts, demand: Demand,
           choices: list[Choice], rank_by: str, overrides: dict[str, float],
           serving: dict, prices: dict[str, float] | None = None) -> list[Evaluated]:
    """Evaluate every choice; working candidates first, in ranking order (``overrides``:
    the efficiency factors the scenario sets; ``prices``: its price overrides by id)."""
    known = MEASURED.group(catalog, (model.model_dump_json(), tuple(sorted(overrides.items())),
                                     tuple(sorted(serving.items())), demand.work,
                                     demand.peak_context))

    def measured(choice: Choice) -> Measured:
        found = known.get(choice)
        if found is None:
            config = configure(catalog, model, choice, overrides, counts=counts, **serving)
            found = known[choice] = measure(config, demand.work, demand.peak_context,
                                            band_of(config, catalog))
        return found

    nodes = NodePlans(catalog, demand.redundancy, overrides=prices)
    evaluated = [judge(measured(c), demand, nodes) for c in choices]
    key = RANK_KEYS[rank_by]
    working = sorted((e for e in evaluated if e.works), key=key)
    fitting = sorted((e for e in evaluated if not e.works and e.curve is not None),
                     key=lambda e: -float(e.curve.tokens_per_s_per_user[0]))
    rest = [e for e in evaluated if e.curve is None]
    return working + fitting + rest


def loss_reason(candidate: Evaluated, winner: Evaluated, rank_by: str) -> Message:
    """Why ``candidate`` lost to ``winner`` (plain words)."""
    if not candidate.works:
        return candidate.reason
    primary = RANK_PRIMARY[rank_by]
    if RANK_KEYS[rank_by](candidate)[:primary] == RANK_KEYS[rank_by](winner)[:primary]:
        return msg("ties on {rank}; ranked lower on GPU count, power or format",
                   rank=rank_by.replace("_", " "))
    if rank_by == "capital_cost" and not candidate.cost_key[0] and winner.cost_usd:
        return msg("costs more (USD {mine:,.0f} against {best:,.0f})",
                   mine=candidate.cost_usd, best=winner.cost_usd)
    if rank_by == "capital_cost":
        return msg("ranked after the priced candidates: part of its hardware has no price")
    if rank_by == "power":
        return msg("draws more power ({mine:.1f} kW against {best:.1f} kW)",
                   mine=candidate.power_w / 1e3, best=winner.power_w / 1e3)
    if rank_by == "gpu_count":
        return msg("needs more GPUs ({mine} GPUs against {best})", mine=candidate.gpus_total,
                   best=winner.gpus_total)
    return msg("fewer users per dollar")


# --------------------------------------------------------------------------- Step 3


def check_parallelism(model: ModelSpec, tensor_parallel: int, pipeline_parallel: int) -> None:
    """Serving engines refuse a tensor-parallel degree that does not split the heads evenly."""
    heads, kv = model.attention_heads, model.kv_heads
    # degrees up to the most a scenario may give (hardware.tensor_parallel <= 1024): a model
    # with millions of heads is not scanned head by head
    allowed = [t for t in range(1, min(heads, MAX_TENSOR_PARALLEL) + 1) if heads % t == 0
               and (model.mla is not None or kv % t == 0 or t % kv == 0)]
    if tensor_parallel not in allowed:
        raise SizingError(problem("hardware.tensor_parallel", msg(
            "{tensor} does not split {model}'s {heads} attention heads and {kv} KV heads "
            "evenly; allowed: {allowed}", tensor=tensor_parallel, model=model.name,
            heads=heads, kv=kv, allowed=", ".join(str(t) for t in allowed))))
    if pipeline_parallel > model.layers:
        raise SizingError(problem("hardware.pipeline_parallel", msg(
            "{stages} stages for {layers} layers; at most {layers}",
            stages=pipeline_parallel, layers=model.layers)))


def check_experts(model: ModelSpec, tensor_parallel: int, expert_parallel: int,
                  dp_attention: bool) -> None:
    """Refuse an expert-parallel / DP-attention layout the model cannot use, naming the field
    (the rule: ``app.domain.scenario.expert_layout_problem``)."""
    refused = expert_layout_problem(tensor_parallel, expert_parallel, dp_attention, model)
    if refused is not None:
        raise SizingError(refused.problem())


def expert_layouts(model: ModelSpec, tensor_parallel: int) -> list[tuple[int, bool]]:
    """The (expert parallel, DP attention) layouts Step 3 tries for ``t`` GPUs per stage:
    always tensor parallelism alone; for a mixture-of-experts model on two or more GPUs also
    the layout engines deploy DeepSeek, Qwen3 MoE and gpt-oss with, experts split over all
    ``t`` GPUs with DP attention (TensorRT-LLM's DEP, SGLang ``--tp t --dp t --ep t``), when
    ``t`` divides the expert count."""
    layouts = [(1, False)]
    if model.moe is not None and tensor_parallel >= 2 and \
            model.moe.experts % tensor_parallel == 0:
        layouts.append((tensor_parallel, True))
    return layouts


def given_configuration(catalog: Catalog, r: Resolved) -> Evaluated:
    """Step 3 when the user named the hardware: evaluate it as given."""
    hardware = r.scenario.hardware
    look_up(catalog.gpus, hardware.gpu, "hardware.gpu",
            msg("unknown gpu id '{value}'; known: {known}"))
    check_parallelism(r.model, hardware.tensor_parallel, hardware.pipeline_parallel)
    check_experts(r.model, hardware.tensor_parallel, hardware.expert_parallel,
                  hardware.dp_attention)
    missing = unsupported_problem(catalog.engine(r.engine), catalog.precision(r.weights),
                                  catalog.gpu(hardware.gpu), r.model)
    if missing is not None:
        raise SizingError(missing)
    choice = Choice(hardware.gpu, hardware.tensor_parallel, hardware.pipeline_parallel,
                    r.weights, r.kv_cache, r.engine, hardware.expert_parallel,
                    hardware.dp_attention)
    return evaluate_candidate(catalog, configure_for(catalog, r, choice), r.demand,
                              hardware.server, r.scenario.infrastructure.price_overrides_usd)


def candidate_row(e: Evaluated, reason: Message) -> Candidate:
    """One row of the Step 3 table."""
    c = e.config
    curve = e.curve
    return Candidate(
        gpu=c.gpu.id, gpu_name=c.gpu.name, gpus_per_replica=c.replica.gpus,
        tensor_parallel=c.tensor_parallel, pipeline_parallel=c.pipeline_parallel,
        **expert_fields(c),
        precision=c.weight_precision.id,
        kv_precision=c.kv_precision.id, fits=curve is not None,
        per_gpu_bytes=e.plan.per_gpu_bytes(max(min(e.capacity, e.plan.max_concurrent_sequences),
                                               1)),
        max_users_per_replica=e.capacity,
        tokens_per_s_per_user=float(curve.tokens_per_s_per_user[0]) if curve else 0.0,
        ttft_s=float(curve.ttft_s[0]) if curve else 0.0,
        replicas=e.replicas, gpus_total=e.gpus_total, power_w=e.power_w,
        capital_cost_usd=e.cost_usd, capital_complete=not e.cost_key[0], verdict=e.verdict,
        reason_message=reason,
    )


def chosen_configuration(e: Evaluated) -> ChosenConfiguration:
    """``selection.chosen``: the configuration Step 3 took, and its verdict."""
    c = e.config
    return ChosenConfiguration(
        gpu=c.gpu.id, gpus_per_replica=c.replica.gpus, tensor_parallel=c.tensor_parallel,
        pipeline_parallel=c.pipeline_parallel, **expert_fields(c),
        precision=c.weight_precision.id,
        kv_precision=c.kv_precision.id, engine=c.engine.id, verdict=e.verdict)


def expert_fields(c: Configuration) -> dict:
    """``expert_parallel`` and ``dp_attention`` of a result row: absent (None) when both are
    off, so results of tensor-parallel configurations read as before."""
    if c.replica.expert_parallel <= 1 and not c.replica.dp_attention:
        return {}
    return {"expert_parallel": c.replica.expert_parallel, "dp_attention": c.replica.dp_attention}


def gpu_allowed(gpu: GpuSpec, selection: Selection) -> bool:
    """Whether the search may choose ``gpu``: its class is one of ``selection.gpu_classes``
    (a GPU whose class the catalog does not state, one the user added, counts as allowed),
    its vendor one of ``selection.vendors`` (all when None), and its figures are final
    unless the scenario allows preliminary ones or names the GPU in ``selection.gpus``."""
    classes_ok = gpu.gpu_class is None or gpu.gpu_class in selection.gpu_classes
    final_ok = (not gpu.preliminary or selection.preliminary
                or gpu.id in (selection.gpus or []))
    return (classes_ok and final_ok
            and (selection.vendors is None or gpu.vendor in selection.vendors))


def gpus_allowed(catalog: Catalog, gpu_ids: list[str], selection: Selection) -> list[str]:
    """The GPUs of ``gpu_ids`` the search may choose (:func:`gpu_allowed`).

    Raises
    ------
    SizingError
        When none is left: which classes and vendors were allowed and what to widen.
    """
    allowed = [g for g in gpu_ids if gpu_allowed(catalog.gpu(g), selection)]
    if not allowed:
        raise SizingError(problem("selection.gpu_classes", msg(
            "no GPU to consider is of the allowed classes ({classes}) and vendors ({vendors}); "
            "allow more GPU classes or vendors, or choose other GPUs",
            classes=", ".join(selection.gpu_classes),
            vendors=", ".join(selection.vendors) if selection.vendors else "all")))
    return allowed


def select(catalog: Catalog, r: Resolved) -> tuple[Evaluated, SelectionResult]:
    """Step 3: take the user's configuration, or search the catalog for the best one.

    Returns the configuration taken, evaluated (its memory plan, curve by batch and SLO
    capacity are what the later steps use), and the selection section of the result.
    """
    rank_by = r.scenario.selection.rank_by
    if r.scenario.hardware is not None:
        chosen = given_configuration(catalog, r)
        return chosen, SelectionResult(chosen=chosen_configuration(chosen), chosen_by="user")
    gpu_ids = r.scenario.selection.gpus or sorted(catalog.gpus)
    unknown = [g for g in gpu_ids if g not in catalog.gpus]
    if unknown:
        raise SizingError(problem("selection.gpus", msg("unknown GPU ids {ids}",
                                                        ids=str(unknown))))
    gpu_ids = gpus_allowed(catalog, gpu_ids, r.scenario.selection)
    choices = enumerate_choices(catalog, r.model, gpu_ids, r.allowed_weights, r.kv_cache,
                                r.engine, r.scenario.selection.max_gpus_per_replica)
    ranked = search(catalog, r.model, r.counts, r.demand, choices, rank_by,
                    r.scenario.factor_overrides, r.serving,
                    r.scenario.infrastructure.price_overrides_usd)
    if not ranked:
        unsupported = [found for g in gpu_ids for w in r.allowed_weights
                       if (found := unsupported_problem(catalog.engine(r.engine),
                                                        catalog.precision(w), catalog.gpu(g),
                                                        r.model)) is not None]
        if unsupported:
            raise SizingError(unsupported[0])
        raise SizingError(problem("", msg(
            "no GPU configuration to evaluate; widen selection.gpus")))
    winner = ranked[0]
    rows = [candidate_row(e, loss_reason(e, winner, rank_by)) for e in ranked[1:]]
    chosen_by = rank_by if winner.works else "closest (no candidate meets the targets)"
    return winner, SelectionResult(chosen=chosen_configuration(winner), chosen_by=chosen_by,
                                   alternatives=rows)
