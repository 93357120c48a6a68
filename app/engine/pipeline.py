"""The orchestrator: run the five steps of the method on a scenario.

``size(scenario, catalog)`` resolves defaults (recording each one it used), chooses or takes
the GPU configuration, evaluates memory and performance, sizes replicas and nodes, adds a
first-order power and cost estimate, and returns a :class:`SizingResult`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

from app import __version__
from app.domain.catalog import Catalog, GpuSpec, ModelSpec
from app.domain.problems import problem, verbatim
from app.domain.result import (
    Assumption,
    Candidate,
    CpuResult,
    RagResult,
    SelectionResult,
    SizingResult,
    TrainingCandidate,
)
from app.domain.scenario import Scenario, Training
from app.engine import cpu_inference as cpu_engine
from app.engine import explain, training
from app.engine import rag as rag_engine
from app.engine.assumptions import catalog_default, sourced
from app.engine.configuration import Choice, Configuration, configure
from app.engine.evaluate import plan_memory
from app.engine.infrastructure import size_infrastructure
from app.engine.memory import (
    ParameterCounts,
    kv_bytes_per_token,
    parameter_counts,
    weights_bytes,
)
from app.engine.performance import Workload
from app.engine.scale import with_rack_failure, with_training_rack_failure
from app.engine.selection import (
    Demand,
    Evaluated,
    enumerate_choices,
    evaluate_candidate,
    loss_reason,
    search,
)
from app.engine.test_levels import test_plan_result
from app.engine.validation import validation_result
from app.i18n import Message, msg, plural

DEFAULT_QUALITY_FLOOR = ("bf16", "fp16", "fp8", "int8")


class SizingError(ValueError):
    """A scenario that is valid JSON but cannot be sized (one readable sentence).

    ``message`` keeps the sentence as a Message, so the window can show it in its language;
    ``str()`` is the English sentence.
    """

    def __init__(self, message: str | Message):
        self.message = message if isinstance(message, Message) else verbatim(message)
        super().__init__(self.message.text())


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
        model = scenario.model
    else:
        try:
            model = catalog.model(scenario.model)
        except KeyError:
            raise SizingError(problem("model", msg(
                "unknown model id '{value}'; known: {known}", value=scenario.model,
                known=_known_ids({mid: spec for mid, spec in catalog.models.items()
                                  if spec.generates})))) from None
    if not model.generates:
        raise SizingError(problem("model", msg(
            "{name} is an embedding or reranking model and writes no text; choose it as "
            "rag.embedding_model and serve a text model here", name=model.name)))
    return model


def _speculative(scenario: Scenario, model: ModelSpec) -> bool:
    """Whether the speculative-decoding heads are loaded (default off, as engines do)."""
    wanted = bool(scenario.serving.speculative_decoding)
    if wanted and model.speculative is None:
        raise SizingError(problem("serving.speculative_decoding", msg(
            "{name} has no speculative-decoding heads in the catalog; add them to the model "
            "(speculative) or switch speculative decoding off", name=model.name)))
    return wanted


def _known_ids(table: dict) -> str | Message:
    """The ids of a catalog table, as the catalog's KeyError lists them."""
    return ", ".join(sorted(table)) or msg("(none)")


def _default(catalog: Catalog, name: str, unit: str, assumptions: list, given=None):
    """A scenario value, or the catalog default recorded as an assumption."""
    if given is not None:
        return given
    assumption = catalog_default(catalog, name, unit)
    assumptions.append(assumption)
    return assumption.value


def resolve(scenario: Scenario, catalog: Catalog) -> Resolved:
    """Fill defaults and check the scenario against the catalog."""
    model = _model(scenario, catalog)
    assumptions: list[Assumption] = []
    workload = scenario.workload
    allowed = list(scenario.precision.allowed_weights or DEFAULT_QUALITY_FLOOR)
    if scenario.precision.allowed_weights is None and model.native_precision not in allowed:
        allowed.append(model.native_precision)
    weights = scenario.precision.weights or (
        model.native_precision if model.native_precision in allowed else allowed[0])
    kv_cache = scenario.precision.kv_cache or ("fp16" if weights == "fp16" else "bf16")
    for field, value in (("precision.weights", weights), ("precision.kv_cache", kv_cache)):
        if value not in catalog.precisions:
            raise SizingError(problem(field, msg("'{value}' is not in the precision catalog",
                                                 value=value)))
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
        raise SizingError(problem("workload.max_context_tokens", msg(
            "{context:,} exceeds the model's context limit of {limit:,} tokens",
            context=workload.context_tokens, limit=model.max_context_tokens)))
    if scenario.availability.storage_tier not in catalog.storage:
        raise SizingError(problem("availability.storage_tier", msg(
            "unknown tier '{tier}'; choose one of {tiers}",
            tier=scenario.availability.storage_tier, tiers=", ".join(sorted(catalog.storage)))))
    serving = {"memory_fraction": scenario.serving.memory_fraction,
               "batch_limit": scenario.serving.max_batch_size,
               "batched_tokens": scenario.serving.max_batched_tokens,
               "speculative": _speculative(scenario, model),
               "site_profile": site_profile_choice(scenario, catalog)}
    return Resolved(scenario, model, parameter_counts(model), demand, weights, kv_cache,
                    allowed, scenario.serving.engine, serving, assumptions)


def site_profile_choice(scenario: Scenario, catalog: Catalog) -> str | None:
    """The scenario's ``serving.site_profile``, checked against the user catalog."""
    wanted = scenario.serving.site_profile
    if wanted not in (None, "none") and wanted not in catalog.site_profiles:
        raise SizingError(problem("serving.site_profile", msg(
            "unknown site profile '{value}'; known: {known}", value=wanted,
            known=_known_ids(catalog.site_profiles))))
    return wanted


def _configure(catalog: Catalog, r: Resolved, choice: Choice) -> Configuration:
    return configure(catalog, r.model, choice, r.scenario.factor_overrides,
                     counts=r.counts, **r.serving)


def given_configuration(catalog: Catalog, r: Resolved) -> Evaluated:
    """Step 3 when the user named the hardware: evaluate it as given."""
    hardware = r.scenario.hardware
    try:
        catalog.gpu(hardware.gpu)
    except KeyError:
        raise SizingError(problem("hardware.gpu", msg(
            "unknown gpu id '{value}'; known: {known}", value=hardware.gpu,
            known=_known_ids(catalog.gpus)))) from None
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
        raise SizingError(problem("hardware.tensor_parallel", msg(
            "{tensor} does not split {model}'s {heads} attention heads and {kv} KV heads "
            "evenly; allowed: {allowed}", tensor=tensor_parallel, model=model.name,
            heads=heads, kv=kv, allowed=", ".join(str(t) for t in allowed))))
    if pipeline_parallel > model.layers:
        raise SizingError(problem("hardware.pipeline_parallel", msg(
            "{stages} stages for {layers} layers; at most {layers}",
            stages=pipeline_parallel, layers=model.layers)))


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
        raise SizingError(problem("selection.gpus", msg("unknown GPU ids {ids}",
                                                        ids=str(unknown))))
    choices = enumerate_choices(catalog, r.model, gpu_ids, r.allowed_weights, r.kv_cache,
                                r.engine, r.scenario.selection.max_gpus_per_replica)
    ranked = search(catalog, r.model, r.counts, r.demand, choices, rank_by,
                    r.scenario.factor_overrides, r.serving)
    if not ranked:
        raise SizingError(problem("", msg(
            "no GPU configuration to evaluate; widen selection.gpus")))
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
    *_, (result, _) = size_in_stages(scenario, catalog)
    return result


def size_in_stages(scenario: Scenario, catalog: Catalog) -> Iterator[tuple[SizingResult, bool]]:
    """Yield ``(result, levers_follow)``: the whole sizing without the levers first, then,
    when a target is missed, the same result with them.

    The levers re-evaluate the configuration once per change they try (about three
    quarters of a sizing's time); the window shows everything else before they come.
    """
    if scenario.workload.kind in TRAINING_KINDS:
        yield size_training(scenario, catalog), False
        return
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
    scale = with_rack_failure(scale, site.racks)
    facility = explain.facility_result(site)
    cost = explain.cost_result(site)
    assumptions = (r.assumptions + explain.engine_assumptions(catalog, config, r)
                   + site_assumptions)
    warnings = explain.warnings_for(catalog, config, memory, performance, scale, r)
    warnings += site.warnings
    rag, cpu, extra_assumptions, extra_warnings = additions(catalog, r, config, performance)
    assumptions += extra_assumptions
    warnings += extra_warnings
    inputs = explain.inputs_after_defaults(r, config)
    plan = test_plan_result(catalog, config, performance, scale, inputs["workload"],
                            scenario.name)
    result = SizingResult(
        tool_version=__version__,
        catalog_versions=dict(catalog.versions),
        inputs=inputs,
        model=explain.model_facts(r),
        gpu=explain.gpu_facts(config),
        memory=memory,
        performance=performance,
        selection=selection,
        scale=scale,
        facility=facility,
        cost=cost,
        infrastructure=site,
        rag=rag,
        cpu=cpu,
        test_plan=plan,
        assumptions=assumptions,
        warnings=[w.text() for w in warnings],
        warning_messages=warnings,
    )
    validation = validation_result(catalog, scenario, config, result)
    if validation is not None:
        result = result.model_copy(update={"validation": validation})
    levers_follow = explain.misses_a_target(performance)
    yield result, levers_follow
    if levers_follow:
        performance = explain.with_levers(catalog, config, performance, per_replica)
        yield result.model_copy(update={"performance": performance}), False


def additions(catalog: Catalog, r: Resolved, config: Configuration, performance
              ) -> tuple[RagResult | None, CpuResult | None, list[Assumption], list[Message]]:
    """The optional RAG and CPU sections, when the scenario asks for them."""
    assumptions: list[Assumption] = []
    warnings: list[Message] = []
    rag = cpu = None
    if r.scenario.rag is not None:
        rag, found = rag_section(catalog, r, config, performance, assumptions)
        warnings += found
    if r.scenario.cpu is not None and r.scenario.cpu.compare:
        cpu, found = cpu_section(catalog, r, config, performance, assumptions)
        warnings += found
    return rag, cpu, assumptions, warnings


# --------------------------------------------------------------------------- RAG


def rag_section(catalog: Catalog, r: Resolved, config: Configuration, performance,
                assumptions: list[Assumption]) -> tuple[RagResult, list[Message]]:
    """Indexing throughput, vector index, retrieval latency (METHOD.md "RAG")."""
    block = r.scenario.rag

    def value(name: str, unit: str, given=None):
        return _default(catalog, name, unit, assumptions, given)

    gpu_id = block.embedding_gpu or config.gpu.id
    try:
        gpu = catalog.gpu(gpu_id)
    except KeyError:
        raise SizingError(problem("rag.embedding_gpu", msg(
            "unknown gpu id '{value}'; known: {known}", value=gpu_id,
            known=_known_ids(catalog.gpus)))) from None
    chunk = int(value("rag_chunk_tokens", "tokens", block.chunk_tokens))
    overlap = int(value("rag_overlap_tokens", "tokens", block.overlap_tokens))
    if overlap >= chunk:
        raise SizingError(problem("rag.overlap_tokens", msg(
            "{overlap:,} must be smaller than the chunk of {chunk:,} tokens", overlap=overlap,
            chunk=chunk)))
    corpus = rag_engine.Corpus(
        documents=block.documents,
        pages_per_document=value("rag_pages_per_document", "pages", block.pages_per_document),
        tokens_per_page=value("rag_tokens_per_page", "tokens", block.tokens_per_page),
        chunk_tokens=chunk, overlap_tokens=overlap)
    embed = embedder(catalog, block, chunk, gpu.peak_flops("bf16"), value)
    bytes_per_dim = value("vector_bytes_per_dim", "B", block.bytes_per_dim)
    vectors = corpus.chunks
    if block.index == "hnsw":
        m = int(value("hnsw_m", "links", block.hnsw_m))
        index_bytes = rag_engine.hnsw_bytes(vectors, embed.dim, bytes_per_dim, m,
                                            value("hnsw_overhead", ""))
    elif block.index == "ivf-pq":
        code = int(value("ivfpq_code_bytes", "B", block.pq_code_bytes))
        lists = block.ivf_lists or rag_engine.default_ivf_lists(vectors)
        index_bytes = rag_engine.ivf_pq_bytes(vectors, embed.dim, code, lists)
    else:
        index_bytes = rag_engine.flat_bytes(vectors, embed.dim, bytes_per_dim)
    text = rag_engine.chunk_text_bytes(corpus, value("dataset_bytes_per_token", "B/token"))
    top_k = int(value("rag_top_k", "chunks", block.retrieval_top_k))
    search = value("retrieval_search_s", "s", block.search_latency_s)
    latency = rag_engine.retrieval_latency_s(embed, top_k_query_tokens(r), search)
    indexing = rag_engine.indexing_time_s(corpus, embed)
    ttft = performance.at_concurrency.ttft_s
    added = top_k * chunk
    result = explain.rag_result(
        corpus=corpus, embed=embed, gpu=gpu.id, gpu_name=gpu.name, index=block.index,
        index_bytes=index_bytes,
        vectors_bytes=rag_engine.flat_bytes(vectors, embed.dim, bytes_per_dim),
        text_bytes=text, latency=latency, ttft=ttft, added_tokens=added,
        prompt_tokens=r.scenario.workload.prompt_tokens, indexing_s=indexing,
        reindex_per_day=block.reindex_per_day)
    warnings = []
    if not result.prompt_holds_context:
        warnings.append(plural(
            top_k,
            msg("The prompt of {prompt:,} tokens is shorter than the {added:,} tokens of "
                "retrieved context (one chunk of {chunk:,}); raise workload.prompt_tokens so that "
                "the GPU sizing includes them."),
            msg("The prompt of {prompt:,} tokens is shorter than the {added:,} tokens of "
                "retrieved context ({k:,} chunks of {chunk:,}); raise workload.prompt_tokens so "
                "that the GPU sizing includes them."),
            prompt=r.scenario.workload.prompt_tokens, added=added, k=top_k, chunk=chunk))
    return result, warnings


def embedder(catalog: Catalog, block, chunk: int, peak_flops: float,
             value) -> rag_engine.Embedder:
    """The RAG step's embedding model: the catalog model ``rag.embedding_model`` (its size,
    vector width and forward cost from the architecture), else a model of
    ``rag.embedding_params`` parameters (the catalog default when neither is given)."""
    mfu = value("embedding_mfu", "", None)
    if block.embedding_model is None:
        return rag_engine.Embedder(
            params=value("embedding_params", "parameters", block.embedding_params),
            dim=int(value("embedding_dim", "", block.embedding_dim)),
            peak_flops=peak_flops, gpus=block.embedding_gpus, mfu=mfu)
    model = embedding_model(catalog, block, chunk)
    return rag_engine.Embedder(
        params=parameter_counts(model).total, dim=block.embedding_dim or model.vector_dim,
        peak_flops=peak_flops, gpus=block.embedding_gpus, mfu=mfu,
        flops_per_token=rag_engine.embedder_flops_per_token(model, chunk),
        model_id=model.id, model_name=model.name)


def embedding_model(catalog: Catalog, block, chunk: int) -> ModelSpec:
    """``rag.embedding_model`` from the catalog, checked: an embedding (or reranking) model
    whose context holds a chunk and whose vectors are at least ``rag.embedding_dim`` wide."""
    embedders = {mid: spec for mid, spec in catalog.models.items() if spec.task == "embedding"}
    model = embedders.get(block.embedding_model)
    if model is None:
        raise SizingError(problem("rag.embedding_model", msg(
            "'{value}' is not an embedding model in the catalog; known: {known}",
            value=block.embedding_model, known=_known_ids(embedders))))
    if chunk > model.max_context_tokens:
        raise SizingError(problem("rag.chunk_tokens", msg(
            "{chunk:,} tokens do not fit {model}'s input of {limit:,} tokens", chunk=chunk,
            model=model.name, limit=model.max_context_tokens)))
    if block.embedding_dim and block.embedding_dim > model.vector_dim:
        raise SizingError(problem("rag.embedding_dim", msg(
            "{dim:,} is wider than the {width:,} dimensions {model} returns",
            dim=block.embedding_dim, width=model.vector_dim, model=model.name)))
    return model


def top_k_query_tokens(r: Resolved) -> int:
    """Tokens of the query that is embedded for retrieval: the user's question, taken as the
    prompt up to one chunk (the retrieved context is not embedded again)."""
    return min(r.scenario.workload.prompt_tokens, 512)


# --------------------------------------------------------------------------- CPU


CPU_FORMATS = {"fp8": "gguf-q8_0", "int8": "gguf-q8_0", "nvfp4": "gguf-q4_0",
               "mxfp4": "gguf-q4_0", "int4-awq": "gguf-q4_0", "int4-gptq": "gguf-q4_0"}


def cpu_section(catalog: Catalog, r: Resolved, config: Configuration, performance,
                assumptions: list[Assumption]) -> tuple[CpuResult, list[Message]]:
    """The same model and load on server CPUs, against the GPU option (METHOD.md "CPU")."""
    block = r.scenario.cpu
    if not catalog.cpus:
        raise SizingError(problem("cpu", msg("the catalog has no CPUs (catalogs/cpus.toml)")))
    if block.cpu is not None:
        try:
            chosen = [catalog.cpu(block.cpu)]
        except KeyError:
            raise SizingError(problem("cpu.cpu", msg(
                "unknown cpu id '{value}'; known: {known}", value=block.cpu,
                known=_known_ids(catalog.cpus)))) from None
    else:
        chosen = sorted(catalog.cpus.values(),
                        key=lambda c: (-c.memory_bandwidth_bytes_per_s, c.id))
    weights_id = block.weights or CPU_FORMATS.get(config.weight_precision.id,
                                                  config.weight_precision.id)
    try:
        weights = catalog.precision(weights_id)
    except KeyError:
        raise SizingError(problem("cpu.weights", msg(
            "unknown precision id '{value}'; known: {known}", value=weights_id,
            known=_known_ids(catalog.precisions)))) from None
    efficiency = _default(catalog, "cpu_bandwidth_efficiency", "", assumptions)
    compute_eff = _default(catalog, "cpu_compute_efficiency", "", assumptions)
    host_w = _default(catalog, "cpu_host_power_w", "W", assumptions)
    users = r.demand.users or max(1, round(performance.saturation.concurrency))
    model_bytes = weights_bytes(r.counts, weights)
    work = r.demand.work
    kv_token = kv_bytes_per_token(config.model, config.kv_precision.bytes_per_element)
    estimates = []
    for spec in chosen:
        sockets = block.sockets or spec.sockets
        server = cpu_engine.CpuServer(spec.id, spec.name, sockets,
                                      spec.memory_bandwidth_bytes_per_s * sockets,
                                      spec.bf16_flops * sockets, efficiency, compute_eff,
                                      sockets * spec.tdp_w + host_w,
                                      spec.price_usd * sockets if spec.price_usd else None)
        estimates.append((server, cpu_engine.estimate(
            server, model_bytes, r.counts.active, r.counts.total, kv_token,
            int(work.prompt_tokens), int(work.output_tokens), work.average_context, users,
            r.demand.speed_target, r.demand.ttft_target)))
    server, estimate = estimates[0]
    result = explain.cpu_result(server, weights.name, model_bytes, estimate, performance,
                                r.model.name, estimates)
    warnings = []
    if weights.id != config.weight_precision.id:
        warnings.append(msg("The CPU comparison uses {cpu_fmt} weights (CPUs have no "
                            "{gpu_fmt} kernels).", cpu_fmt=weights.name,
                            gpu_fmt=config.weight_precision.name))
    return result, warnings


# --------------------------------------------------------------------------- training


TRAINING_KINDS = ("fine_tuning", "pretraining")
#: A server without cluster NICs reaches other nodes only through a front-end port: 10 Gb/s
#: per GPU is assumed for a configuration given across such nodes (the search never does it).
NO_NIC_FALLBACK_BYTES_PER_S = 10e9 / 8


def training_setup(scenario: Scenario, catalog: Catalog, model: ModelSpec,
                   counts: ParameterCounts, assumptions: list[Assumption]
                   ) -> tuple[training.Setup, training.Fixed, float | None]:
    """The training block with every default filled in (each default recorded)."""
    block = scenario.training or Training()
    kind = scenario.workload.kind

    def value(name: str, unit: str, given=None):
        return _default(catalog, name, unit, assumptions, given)

    if block.sequence_length > model.max_context_tokens:
        raise SizingError(problem("training.sequence_length", msg(
            "{context:,} exceeds the model's context limit of {limit:,} tokens",
            context=block.sequence_length, limit=model.max_context_tokens)))
    if block.tensor_parallel is not None:
        allowed = training.tensor_options(model, 1024)
        heads = model.attention_heads
        if heads % block.tensor_parallel or block.tensor_parallel not in allowed:
            raise SizingError(problem("training.tensor_parallel", msg(
                "{tensor} does not split {model}'s {heads} attention heads and {kv} KV heads "
                "evenly; allowed: {allowed}", tensor=block.tensor_parallel, model=model.name,
                heads=heads, kv=model.kv_heads, allowed=", ".join(str(t) for t in allowed))))
    if block.pipeline_parallel is not None and block.pipeline_parallel > model.layers:
        raise SizingError(problem("training.pipeline_parallel", msg(
            "{stages} stages for {layers} layers; at most {layers}",
            stages=block.pipeline_parallel, layers=model.layers)))
    if block.method != "full" and kind == "pretraining":
        raise SizingError(problem("training.method", msg(
            "'{method}' adapts a trained model; pre-training trains every weight (use 'full')",
            method=block.method)))
    if block.tokens_total is not None:
        tokens = block.tokens_total
    elif kind == "pretraining":
        per_param = value("pretraining_tokens_per_param", "tokens/parameter")
        tokens = per_param * counts.total
    else:
        tokens = value("fine_tuning_tokens_total", "tokens")
    batch_default = ("training_global_batch_tokens_pretraining" if kind == "pretraining"
                     else "training_global_batch_tokens_fine_tuning")
    given_batch = block.global_batch_size is not None or \
        block.gradient_accumulation_steps is not None
    batch_tokens = (catalog.default(batch_default) if given_batch
                    else value(batch_default, "tokens"))
    tier = scenario.availability.storage_tier
    unit_name = f"storage_su_write_gb_s_{tier}"
    per_unit = (value(unit_name, "GB/s") * 1e9 if unit_name in catalog.defaults else None)
    setup = training.Setup(
        model=model, counts=counts, method=block.method, optimizer=block.optimizer,
        fp32_gradients=block.fp32_gradients, sequence_length=block.sequence_length,
        micro_batch_size=block.micro_batch_size,
        global_batch_sequences=block.global_batch_size, global_batch_tokens=batch_tokens,
        virtual_stages=int(value("pipeline_virtual_stages", "chunks/GPU")),
        max_global_batch_tokens=max(batch_tokens, catalog.default(
            "training_global_batch_tokens_max") if kind == "pretraining" else batch_tokens),
        gradient_accumulation=block.gradient_accumulation_steps,
        sequence_parallel=block.sequence_parallel, flash_attention=block.flash_attention,
        lora_rank=int(value("lora_rank", "", block.lora_rank)) if block.method != "full"
        else 0,
        lora_targets=block.lora_targets,
        qlora_bits=value("qlora_bits_per_param", "bits") if block.method == "qlora" else 16.0,
        mfu=value("training_mfu", "", block.mfu), tokens_total=tokens,
        memory_fraction=value("training_memory_fraction", ""),
        full_recompute_factor=value("full_recompute_time_factor", ""),
        bus_efficiency=value("collective_bus_efficiency", ""),
        checkpoint_bytes_per_param=value("checkpoint_bytes_per_param", "B/param"),
        gpu_mtbf_hours=value("gpu_mtbf_hours", "h"),
        write_per_unit=per_unit,
        nodes_per_unit=int(value("storage_su_nodes", "nodes")) if per_unit else 32,
        max_gpus=block.max_gpus,
        checkpoints_retained=int(value("checkpoints_retained", "checkpoints",
                                       block.checkpoints_retained)),
        dataset_bytes=(block.dataset_tokens or tokens)
        * value("dataset_bytes_per_token", "B/token"))
    fixed = training.Fixed(block.data_parallel, block.tensor_parallel, block.pipeline_parallel,
                           block.zero_stage, block.activation_recompute)
    target = block.target_days * training.SECONDS_PER_DAY if block.target_days else None
    if kind == "pretraining" and block.tokens_total is None:
        assumptions.append(Assumption(
            name="tokens_total", value=tokens, unit="tokens", **sourced(msg(
                "{source}: {params:,.2f} billion parameters x {per_param:g} tokens",
                source=catalog.default_sources.get("pretraining_tokens_per_param", ""),
                params=counts.total / 1e9, per_param=per_param))))
    return setup, fixed, target


def training_node(catalog: Catalog, scenario: Scenario, gpu: GpuSpec) -> training.Node:
    """The server a training job on ``gpu`` runs on: the named one, else the catalog server
    with the most GPUs (then the fastest scale-out NICs), else a generic one-node server."""
    tier = catalog.entry("storage", scenario.availability.storage_tier)
    name = scenario.hardware.server if scenario.hardware else None
    hosts = [s for s in catalog.servers.values() if gpu.id in s.gpu_ids]
    if name:
        server = catalog.servers.get(name)
        if server is None or server not in hosts:
            raise SizingError(problem("hardware.server", msg(
                "'{name}' is not a server for {gpu}; choose one of {servers}", name=name,
                gpu=f"{gpu.name} ({gpu.id})", servers=str(sorted(s.id for s in hosts)))))
        hosts = [server]
    if not hosts:
        count = min(gpu.max_gpus_per_node, 8)
        return training.Node(f"generic-{gpu.id}", count, NO_NIC_FALLBACK_BYTES_PER_S,
                             tier.write_gb_s * 1e9, scale_out=False)
    server = max(hosts, key=lambda s: (s.gpu_count, s.cluster_nics * s.cluster_nic_gbps,
                                       s.id))
    nic = server.cluster_nics * server.cluster_nic_gbps * 1e9 / 8 / server.gpu_count
    if nic <= 0:
        return training.Node(server.id, server.gpu_count, NO_NIC_FALLBACK_BYTES_PER_S,
                             tier.write_gb_s * 1e9, scale_out=False)
    return training.Node(server.id, server.gpu_count, nic, tier.write_gb_s * 1e9)


def training_server_name(catalog: Catalog, plan: training.Plan) -> str:
    """The catalog name of the server a training plan runs on (a generic one named like
    :func:`explain.generic_server` names it)."""
    server = catalog.servers.get(plan.node.server)
    if server is not None:
        return server.name
    return f"Generic {plan.node.gpus_per_node}-GPU server for {plan.gpu.name}"


RANK_COST = {
    "capital_cost": lambda plan: (plan.gpu.price_usd * plan.gpus if plan.gpu.price_usd
                                  else math.inf, plan.wall_clock_s),
    "tokens_per_dollar": lambda plan: (plan.gpu.price_usd * plan.gpus if plan.gpu.price_usd
                                       else math.inf, plan.wall_clock_s),
    "gpu_count": lambda plan: (plan.gpus, plan.wall_clock_s),
    "power": lambda plan: (plan.gpus * plan.gpu.tdp_w, plan.wall_clock_s),
}


def choose_training(catalog: Catalog, scenario: Scenario, setup: training.Setup,
                    fixed: training.Fixed, target_s: float | None
                    ) -> tuple[training.Plan, list[TrainingCandidate], str]:
    """Step 3 for training: the configuration named, or the smallest that fits per GPU and
    the best of those by the scenario's ranking. Returns (plan, rows, chosen_by)."""
    if scenario.hardware is not None:
        gpu_ids = [scenario.hardware.gpu]
        field = "hardware.gpu"
    else:
        gpu_ids = scenario.selection.gpus or sorted(catalog.gpus)
        field = "selection.gpus"
    for gpu_id in gpu_ids:
        if gpu_id not in catalog.gpus:
            raise SizingError(problem(field, msg("unknown GPU id '{value}'; known: {known}",
                                                 value=gpu_id, known=_known_ids(catalog.gpus))))
    found: list[tuple[training.Plan, bool]] = []
    for gpu_id in gpu_ids:
        gpu = catalog.gpu(gpu_id)
        winner, closest = training.smallest_fitting(setup, gpu, training_node(
            catalog, scenario, gpu), fixed, target_s)
        if winner is not None:
            found.append((winner, True))
        elif closest is not None:
            found.append((closest, False))
    if not found:
        raise SizingError(problem("training", msg(
            "no configuration to evaluate; widen selection.gpus or raise training.max_gpus")))
    key = RANK_COST[scenario.selection.rank_by]
    working = sorted((plan for plan, ok in found if ok), key=key)
    failing = sorted((plan for plan, ok in found if not ok),
                     key=lambda p: p.per_gpu_bytes / p.usable)
    ranked = working + failing
    chosen = ranked[0]
    if fixed.complete:
        chosen_by = "user"
    elif working:
        chosen_by = ("fewest GPUs that fit" + (" and meet the target time" if target_s else "")
                     + (f", then {scenario.selection.rank_by.replace('_', ' ')}"
                        if len(gpu_ids) > 1 else ""))
    else:
        chosen_by = "closest (nothing fits within training.max_gpus)"
    rows = [explain.training_candidate(plan, plan is chosen, ok, target_s)
            for plan, ok in sorted(found, key=lambda f: ranked.index(f[0]))]
    return chosen, rows, chosen_by


def serving_scenario(scenario: Scenario, gpu_id: str) -> Scenario:
    """The scenario of serving the trained model on the training GPU type at the scenario's
    inference settings (memory, performance and the serving sections describe this)."""
    workload = scenario.workload.model_copy(update={"kind": "online_inference"})
    selection = scenario.selection.model_copy(update={"gpus": [gpu_id]})
    return scenario.model_copy(update={"workload": workload, "hardware": None,
                                       "selection": selection})


def size_training(scenario: Scenario, catalog: Catalog) -> SizingResult:
    """Training and fine-tuning (METHOD.md "Training and fine-tuning").

    The training section carries the sizing. Memory, performance and the GPU configuration
    of serving describe serving the trained model on the training GPU type at the scenario's
    inference settings; scale, facility, infrastructure and cost describe the training
    cluster.
    """
    model = _model(scenario, catalog)
    if scenario.availability.storage_tier not in catalog.storage:
        raise SizingError(problem("availability.storage_tier", msg(
            "unknown tier '{tier}'; choose one of {tiers}",
            tier=scenario.availability.storage_tier, tiers=", ".join(sorted(catalog.storage)))))
    counts = parameter_counts(model)
    assumptions: list[Assumption] = []
    setup, fixed, target_s = training_setup(scenario, catalog, model, counts, assumptions)
    plan, rows, chosen_by = choose_training(catalog, scenario, setup, fixed, target_s)
    curve = training.scaling_curve(setup, plan.gpu, plan.node, fixed,
                                   max(plan.gpus, 1)) if plan.fits else []
    served = serving_scenario(scenario, plan.gpu.id)
    r = resolve(served, catalog)
    chosen, _ = select(catalog, r)
    config = chosen.config
    memory_plan = plan_memory(config, r.demand.work, r.demand.peak_context)
    memory = explain.memory_result(config, memory_plan, r)
    performance = explain.with_levers(
        catalog, config, explain.performance_result(catalog, config, memory_plan, r), r)
    memory, performance = explain.mark_serving(memory, performance, plan.gpu.name)
    tier = catalog.entry("storage", scenario.availability.storage_tier)
    result = explain.training_result(plan, rows, chosen_by, curve, target_s)
    server_name = training_server_name(catalog, plan)
    scale = explain.training_scale(plan, result, tier, server_name)
    infra = scenario.infrastructure
    if scale.nodes > 1 and not infra.force_fabric:
        infra = infra.model_copy(update={"force_fabric": True})
    site_view = replace(r, scenario=scenario.model_copy(update={"infrastructure": infra}))
    site, site_assumptions = size_infrastructure(catalog, config, scale, performance,
                                                 site_view)
    site = explain.training_site(site, result, tier)
    scale = with_training_rack_failure(scale, site.racks)
    warnings = explain.training_warnings(plan, result, setup, model)
    warnings += site.warnings
    rag, cpu, extra_assumptions, extra_warnings = additions(catalog, r, config, performance)
    inputs = explain.training_inputs(scenario, r, config, plan, setup)
    served_plan = test_plan_result(catalog, config, performance, scale, inputs["workload"],
                                   scenario.name, serving_of_training=True)
    sized = SizingResult(
        tool_version=__version__,
        catalog_versions=dict(catalog.versions),
        inputs=inputs,
        model=explain.model_facts(r),
        gpu=explain.gpu_facts(config),
        memory=memory,
        performance=performance,
        selection=SelectionResult(chosen=explain.training_chosen(plan, config),
                                  chosen_by=f"training: {chosen_by}"),
        scale=scale,
        facility=explain.facility_result(site),
        cost=explain.cost_result(site),
        infrastructure=site,
        training=result,
        rag=rag,
        cpu=cpu,
        test_plan=served_plan,
        assumptions=(assumptions + explain.training_assumptions(plan, server_name)
                     + r.assumptions
                     + explain.engine_assumptions(catalog, config, r) + site_assumptions
                     + extra_assumptions),
        warnings=[w.text() for w in warnings + extra_warnings],
        warning_messages=warnings + extra_warnings,
    )
    validation = validation_result(catalog, scenario, config, sized)
    return sized if validation is None else sized.model_copy(update={"validation": validation})


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
