"""The optional sections a scenario asks for: RAG and the CPU comparison
(app.engine.optional_sections).

Both are added by both chains after the GPU sizing; each default they fill in is recorded as
an assumption (METHOD.md "RAG", "CPU inference"). The formulas are tested in test_rag.py and
test_cpu_inference.py.
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario
from app.engine import explain, optional_sections, rag
from app.engine.memory import kv_bytes_per_token_replica, weights_bytes
from app.engine.resolved import resolve
from app.engine.selection import select


def prepared(catalog, **blocks):
    r = resolve(load_scenario({**example("small-chat"), **blocks}), catalog)
    chosen, _ = select(catalog, r)
    performance = explain.performance_result(catalog, chosen.config, chosen.plan, r,
                                             chosen.capacity)
    return r, chosen.config, performance


def test_without_the_blocks_there_are_no_sections(catalog):
    r, config, performance = prepared(catalog)
    assert optional_sections.additions(catalog, r, config, performance) == (None, None, [], [])
    r, config, performance = prepared(catalog, cpu={"compare": False})
    assert optional_sections.additions(catalog, r, config, performance)[1] is None


def test_the_rag_section_sits_on_the_sized_ttft_and_records_its_defaults(catalog):
    r, config, performance = prepared(catalog, rag={"documents": 5000})
    assumptions = []
    section, warnings = optional_sections.rag_section(catalog, r, config, performance,
                                                      assumptions)
    assert section.ttft_s == performance.at_concurrency.ttft_s
    assert section.embedding_gpu == config.gpu.id  # the serving GPU unless one is named
    corpus = rag.Corpus(5000, catalog.default("rag_pages_per_document"),
                        catalog.default("rag_tokens_per_page"),
                        int(catalog.default("rag_chunk_tokens")),
                        int(catalog.default("rag_overlap_tokens")))
    assert section.chunks == corpus.chunks
    recorded = {a.name for a in assumptions}
    assert {"rag_chunk_tokens", "rag_overlap_tokens", "rag_pages_per_document",
            "rag.embedding_model", "hnsw_m", "rag_top_k", "retrieval_search_s"} <= recorded
    assert section.added_prompt_tokens == catalog.default("rag_top_k") * corpus.chunk_tokens
    # a prompt shorter than the retrieved context (small-chat: 1,500 tokens) is warned about
    assert section.prompt_holds_context == (section.added_prompt_tokens <= 1500)
    assert bool(warnings) != section.prompt_holds_context


def test_without_an_embedder_the_rag_step_takes_the_catalog_default_model(catalog):
    """#15: the RAG step picks its embedder from the catalog, not a size typed by hand."""
    r, config, performance = prepared(catalog, rag={"documents": 5000})
    assumptions = []
    section, _ = optional_sections.rag_section(catalog, r, config, performance, assumptions)
    default = catalog.model(optional_sections.DEFAULT_EMBEDDER)
    assert default.task == "embedding"
    assert section.embedding_model == default.id
    assert section.embedding_model_name == default.name
    recorded = {a.name: a for a in assumptions}
    assert recorded["rag.embedding_model"].value == default.name
    assert recorded["rag.embedding_model"].source == default.source
    assert "embedding_params" not in recorded


def test_a_size_given_by_hand_is_still_used_without_a_model(catalog):
    r, config, performance = prepared(catalog, rag={"documents": 5000,
                                                    "embedding_params": 110e6})
    assumptions = []
    section, _ = optional_sections.rag_section(catalog, r, config, performance, assumptions)
    assert section.embedding_model == ""
    assert section.embedding_params == 110e6
    assert "rag.embedding_model" not in {a.name for a in assumptions}


def test_the_query_embedded_for_retrieval_is_the_question_up_to_512_tokens(catalog):
    short, _, _ = prepared(catalog, workload={"prompt_tokens": 200, "output_tokens": 100})
    long, _, _ = prepared(catalog)
    assert optional_sections.top_k_query_tokens(short) == 200
    assert optional_sections.top_k_query_tokens(long) == 512


@pytest.mark.parametrize(("gpu_format", "cpu_format"), [
    ("fp8", "gguf-q8_0"), ("int8", "gguf-q8_0"), ("int8-gptq", "gguf-q8_0"), ("nvfp4", "gguf-q4_0"),
    ("mxfp4", "gguf-q4_0"),
    ("int4-awq", "gguf-q4_0"), ("int4-gptq", "gguf-q4_0")])
def test_gpu_only_formats_map_to_the_gguf_format_of_the_same_width(gpu_format, cpu_format):
    assert optional_sections.CPU_FORMATS[gpu_format] == cpu_format


def test_the_cpu_section_compares_the_same_model_and_load(catalog):
    r, config, performance = prepared(catalog, cpu={"cpu": "epyc-9654", "sockets": 1})
    assumptions = []
    section, warnings = optional_sections.cpu_section(catalog, r, config, performance,
                                                      assumptions)
    assert section.weights_bytes == weights_bytes(r.counts, catalog.precision("bf16"))
    assert section.users == r.demand.users
    assert section.gpu_tokens_per_s_per_user == performance.at_concurrency.tokens_per_s_per_user
    assert {a.name for a in assumptions} == {"cpu_bandwidth_efficiency",
                                             "cpu_compute_efficiency", "cpu_host_power_w"}
    assert warnings == []  # BF16 runs on the CPU as it is
    spec = catalog.cpu("epyc-9654")
    assert section.memory_bandwidth_bytes_per_s == spec.memory_bandwidth_bytes_per_s
    # the KV cache the CPU reads per token is the model's, unsplit
    assert kv_bytes_per_token_replica(config.model, config.kv_precision.bytes_per_element, 1) \
        == config.model.layers * 2 * config.model.kv_heads * config.model.head_dim_value * 2
