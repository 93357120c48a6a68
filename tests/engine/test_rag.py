"""Retrieval-augmented generation (app.engine.rag, and the RAG section of
app.engine.optional_sections that uses it)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api import ScenarioError, example, load_scenario, size
from app.engine import rag
from app.summary import render

GB = 1e9

BASE = {
    "model": "llama-3.1-8b",
    "workload": {"concurrent_users": 8, "prompt_tokens": 3000, "output_tokens": 300},
    "hardware": {"gpu": "l40s"},
    "targets": {"ttft_s": 5, "tokens_per_s_per_user": 10},
    "availability": {"redundancy": "none"},
    "rag": {"documents": 10_000},
}


def with_rag(**fields) -> dict:
    data = copy.deepcopy(BASE)
    data["rag"].update(fields)
    return data


@settings(max_examples=200, deadline=None)
@given(tokens=st.floats(1, 1e6), chunk=st.integers(32, 4096), share=st.floats(0, 0.9))
def test_chunks_cover_the_document(tokens, chunk, share):
    overlap = int(chunk * share)
    corpus = rag.Corpus(1, 1, tokens, chunk, overlap)
    stride = chunk - overlap
    assert corpus.chunks >= 1
    # enough chunks to cover the text, and not one more than needed
    assert overlap + corpus.chunks * stride >= tokens
    assert corpus.chunks == 1 or overlap + (corpus.chunks - 1) * stride < tokens
    assert corpus.tokens_embedded >= corpus.tokens


def test_more_overlap_means_more_chunks():
    plain = rag.Corpus(100, 10, 600, 512, 0)
    overlapping = rag.Corpus(100, 10, 600, 512, 128)
    assert overlapping.chunks > plain.chunks
    assert overlapping.tokens_embedded > plain.tokens_embedded == plain.tokens


def test_embedding_time_formula():
    embed = rag.Embedder(params=335e6, dim=1024, peak_flops=362e12, gpus=2, mfu=0.25)
    corpus = rag.Corpus(1000, 10, 600, 512, 64)
    expected = 2 * 335e6 * corpus.tokens_embedded / (2 * 362e12 * 0.25)
    assert rag.indexing_time_s(corpus, embed) == pytest.approx(expected)


def test_index_sizes_order():
    """IVF-PQ compresses, HNSW adds links on top of the raw (flat) vectors."""
    flat = rag.flat_bytes(1e6, 1024, 4)
    assert rag.ivf_pq_bytes(1e6, 1024, 64, 4000) < flat < rag.hnsw_bytes(1e6, 1024, 4, 16)
    assert rag.hnsw_bytes(1e6, 1024, 4, 16, 1.1) == pytest.approx(
        1.1 * rag.hnsw_bytes(1e6, 1024, 4, 16))


def test_default_ivf_lists():
    assert rag.default_ivf_lists(1e6) == 4000
    assert rag.default_ivf_lists(0) == 4


@pytest.fixture(scope="module")
def sized_rag(sized):
    return sized(copy.deepcopy(BASE))


def test_pipeline_adds_the_rag_section(sized_rag):
    g = sized_rag.rag
    assert g is not None
    assert g.embedding_gpu == "l40s"
    assert g.chunks == 10_000 * rag.Corpus(1, 10, 600, 512, 64).chunks  # the defaults
    assert g.ttft_with_retrieval_s == pytest.approx(g.ttft_s + g.retrieval_latency_s)
    assert g.ttft_s == pytest.approx(sized_rag.performance.at_concurrency.ttft_s)
    assert g.index_storage_bytes == pytest.approx(g.index_memory_bytes + g.chunk_text_bytes)
    assert g.added_prompt_tokens == 5 * 512 and g.prompt_holds_context
    assert g.explanation and len(g.explanation) == len(g.messages)
    names = {a.name for a in sized_rag.assumptions}
    assert {"rag_chunk_tokens", "rag.embedding_model", "hnsw_m", "retrieval_search_s"} <= names


def test_retrieval_latency_includes_the_query_embedding(sized_rag):
    g = sized_rag.rag
    assert g.retrieval_latency_s > 0.03  # the default search time plus the query's embedding


def test_short_prompt_warns(sized):
    data = with_rag()
    data["workload"]["prompt_tokens"] = 500
    result = sized(data)
    assert not result.rag.prompt_holds_context
    assert any("retrieved context" in w for w in result.warnings)


def test_index_kinds_and_reindexing(sized):
    hnsw = sized(with_rag()).rag
    pq = sized(with_rag(index="ivf-pq", reindex_per_day=0.1)).rag
    flat = sized(with_rag(index="flat")).rag
    assert pq.index_memory_bytes < flat.index_memory_bytes < hnsw.index_memory_bytes
    assert pq.reindex_gpu_hours_per_day > 0 and hnsw.reindex_gpu_hours_per_day == 0


def test_rag_example(catalog):
    result = size(load_scenario(example("rag-assistant")), catalog)
    assert result.rag is not None and result.rag.chunks > 1e6
    assert "Retrieval (RAG)" in render(result)


@pytest.mark.parametrize(("fields", "named"), [
    ({"documents": 0}, "rag.documents"),
    ({"chunk_tokens": 256, "overlap_tokens": 256}, "rag"),
    ({"index": "annoy"}, "rag.index"),
    ({"embedding_gpu": "h999"}, "rag.embedding_gpu"),
])
def test_invalid_rag_fields_are_named(fields, named, catalog):
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(with_rag(**fields)), catalog)
    assert info.value.problems[0].startswith(named), info.value.problems
