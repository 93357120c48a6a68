"""The optional sections a scenario may ask for: retrieval (RAG) and the CPU comparison.

Both chains add them after the GPU sizing (:func:`additions`): the RAG section sizes the
embedding, the vector index and the retrieval latency on top of the sized TTFT (METHOD.md,
"RAG"); the CPU section runs the same model and load on server CPUs against the GPU option
(METHOD.md, "CPU"). The numbers come from :mod:`app.engine.rag` and
:mod:`app.engine.cpu_inference`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.domain.catalog import Catalog, ModelSpec
from app.domain.problems import problem
from app.domain.result import Assumption, CpuOption, CpuResult, PerformanceResult, RagResult
from app.domain.scenario import Rag
from app.engine import cpu_inference as cpu_engine
from app.engine import narrative
from app.engine import rag as rag_engine
from app.engine.assumptions import sourced
from app.engine.configuration import Configuration
from app.engine.memory import kv_bytes_per_token, parameter_counts, weights_bytes
from app.engine.resolved import Resolved, SizingError, default_value, look_up
from app.i18n import Message, msg, plural


def additions(catalog: Catalog, r: Resolved, config: Configuration,
              performance: PerformanceResult
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


def rag_section(catalog: Catalog, r: Resolved, config: Configuration,
                performance: PerformanceResult,
                assumptions: list[Assumption]) -> tuple[RagResult, list[Message]]:
    """Indexing throughput, vector index, retrieval latency (METHOD.md "RAG")."""
    block = r.scenario.rag

    def value(name: str, unit: str, given=None):
        return default_value(catalog, name, unit, assumptions, given)

    gpu = look_up(catalog.gpus, block.embedding_gpu or config.gpu.id, "rag.embedding_gpu",
                  msg("unknown gpu id '{value}'; known: {known}"))
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
    embed = embedder(catalog, block, chunk, gpu.peak_flops("bf16"), value, assumptions)
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
    result = rag_result(
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


#: The RAG step's embedder when the scenario names none and gives no size (catalogs/models.toml:
#: BAAI/bge-large-en-v1.5, 335 M parameters, 1,024 dimensions, 512-token input).
DEFAULT_EMBEDDER = "bge-large-en-v1.5"


def embedder(catalog: Catalog, block: Rag, chunk: int, peak_flops: float,
             value: Callable[..., Any], assumptions: list[Assumption]) -> rag_engine.Embedder:
    """The RAG step's embedding model: the catalog model ``rag.embedding_model`` (its size,
    vector width and forward cost from the architecture), else a model of
    ``rag.embedding_params`` parameters, else the catalog's default embedder
    (:data:`DEFAULT_EMBEDDER`, recorded as an assumption)."""
    mfu = value("embedding_mfu", "", None)
    model_id = block.embedding_model
    if model_id is None and block.embedding_params is None and DEFAULT_EMBEDDER in catalog.models:
        model_id = DEFAULT_EMBEDDER
        assumptions.append(default_embedder_assumption(catalog.models[model_id]))
    if model_id is None:
        return rag_engine.Embedder(
            params=value("embedding_params", "parameters", block.embedding_params),
            dim=int(value("embedding_dim", "", block.embedding_dim)),
            peak_flops=peak_flops, gpus=block.embedding_gpus, mfu=mfu)
    model = embedding_model(catalog, model_id, block, chunk)
    return rag_engine.Embedder(
        params=parameter_counts(model).total, dim=block.embedding_dim or model.vector_dim,
        peak_flops=peak_flops, gpus=block.embedding_gpus, mfu=mfu,
        flops_per_token=rag_engine.embedder_flops_per_token(model, chunk),
        model_id=model.id, model_name=model.name)


def default_embedder_assumption(model: ModelSpec) -> Assumption:
    """The default embedder as the assumptions list shows it (its name and its source)."""
    return Assumption(name="rag.embedding_model", value=model.name, **sourced(model.source))


def embedding_model(catalog: Catalog, model_id: str, block: Rag, chunk: int) -> ModelSpec:
    """The embedding model ``model_id`` from the catalog, checked: an embedding (or reranking)
    model whose context holds a chunk and whose vectors are at least ``rag.embedding_dim``
    wide."""
    embedders = {mid: spec for mid, spec in catalog.models.items() if spec.task == "embedding"}
    model = look_up(embedders, model_id, "rag.embedding_model",
                    msg("'{value}' is not an embedding model in the catalog; known: {known}"))
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


CPU_FORMATS = {"fp8": "gguf-q8_0", "int8": "gguf-q8_0", "int8-gptq": "gguf-q8_0",
               "nvfp4": "gguf-q4_0", "mxfp4": "gguf-q4_0", "int4-awq": "gguf-q4_0",
               "int4-gptq": "gguf-q4_0"}


def cpu_section(catalog: Catalog, r: Resolved, config: Configuration,
                performance: PerformanceResult,
                assumptions: list[Assumption]) -> tuple[CpuResult, list[Message]]:
    """The same model and load on server CPUs, against the GPU option (METHOD.md "CPU")."""
    block = r.scenario.cpu
    if not catalog.cpus:
        raise SizingError(problem("cpu", msg("the catalog has no CPUs (catalogs/cpus.toml)")))
    if block.cpu is not None:
        chosen = [look_up(catalog.cpus, block.cpu, "cpu.cpu",
                          msg("unknown cpu id '{value}'; known: {known}"))]
    else:
        chosen = sorted(catalog.cpus.values(),
                        key=lambda c: (-c.memory_bandwidth_bytes_per_s, c.id))
    weights_id = block.weights or CPU_FORMATS.get(config.weight_precision.id,
                                                  config.weight_precision.id)
    weights = look_up(catalog.precisions, weights_id, "cpu.weights",
                      msg("unknown precision id '{value}'; known: {known}"))
    efficiency = default_value(catalog, "cpu_bandwidth_efficiency", "", assumptions)
    compute_eff = default_value(catalog, "cpu_compute_efficiency", "", assumptions)
    host_w = default_value(catalog, "cpu_host_power_w", "W", assumptions)
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
    result = cpu_result(server, weights.name, model_bytes, estimate, performance,
                                r.model.name, estimates)
    warnings = []
    if weights.id != config.weight_precision.id:
        warnings.append(msg("The CPU comparison uses {cpu_fmt} weights (CPUs have no "
                            "{gpu_fmt} kernels).", cpu_fmt=weights.name,
                            gpu_fmt=config.weight_precision.name))
    return result, warnings



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
    return result.revised(messages=narrative.rag_messages(named))


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
        verdict=verdict, verdict_message=verdict_message,
        alternatives=[CpuOption(cpu=s.id, sockets=s.sockets,
                                memory_bandwidth_bytes_per_s=s.bandwidth,
                                tokens_per_s_single=e.single_tokens_per_s)
                      for s, e in options])
    return result.revised(messages=narrative.cpu_messages(result) + [verdict_message])

