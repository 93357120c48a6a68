"""Retrieval (RAG): indexing, the vector index and the latency retrieval adds to answers.

Only when the scenario has a corpus.
"""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.report.context import Context
from app.report.flowables import bullets, heading, key_values, para, subheading
from app.report.phrases import duration
from app.report.text import gb, messages, seconds


def named(g, text: str) -> str:
    """The embedding row, led by the catalog model's name when the RAG step used one."""
    return f"{g.embedding_model_name}: {text}" if g.embedding_model else text


def section_rag(ctx: Context) -> list[Flowable]:
    g, lang = ctx.result.rag, ctx.lang
    if g is None:
        return []
    rows = [
        (ctx.t("Corpus"), ctx.t("{docs:,} documents, {tokens:,.0f} tokens, {chunks:,.0f} "
                                "chunks", docs=g.documents, tokens=g.tokens_corpus,
                                chunks=g.chunks)),
        (ctx.t("Embedding"), named(g, ctx.t(
            "{params:,.0f} million parameters, {dim:,} dimensions, on {n} x {gpu}: "
            "{tokens:,.0f} tokens embedded in {time}", params=g.embedding_params / 1e6,
            dim=g.embedding_dim, n=g.embedding_gpus, gpu=g.embedding_gpu,
            tokens=g.tokens_embedded, time=duration(ctx, g.indexing_time_s)))),
        (ctx.t("Vector index"), ctx.t("{index}: {memory} in memory ({vectors} of raw vectors), "
                                      "{disk} on disk with the chunk text",
                                      index=g.index.upper(),
                                      memory=gb(g.index_memory_bytes, lang),
                                      vectors=gb(g.vectors_bytes, lang),
                                      disk=gb(g.index_storage_bytes, lang))),
        (ctx.t("Retrieval"), ctx.t(
            "{latency} per query; time to first token {with_r} instead of {without} "
            "({tokens:,} prompt tokens added)", latency=seconds(g.retrieval_latency_s, lang),
            with_r=seconds(g.ttft_with_retrieval_s, lang), without=seconds(g.ttft_s, lang),
            tokens=g.added_prompt_tokens)),
        (ctx.t("Re-indexing"), ctx.t("{share:,.1f} % of the corpus per day: {hours:,.2f} "
                                     "GPU-hours per day", share=g.reindex_per_day * 100,
                                     hours=g.reindex_gpu_hours_per_day)),
    ]
    return [heading(ctx, "rag", ctx.t("Retrieval (RAG)")),
            para(ctx.t("Indexing the corpus, the vector index and the latency retrieval adds "
                       "to each answer.")),
            key_values(ctx, rows, first=0.2),
            subheading(ctx, ctx.t("How retrieval was sized")),
            bullets(messages(g.messages, g.explanation, lang))]
