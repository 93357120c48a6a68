"""Retrieval-augmented generation: chunking, embedding throughput, vector index, retrieval.

Sizes in bytes [B], times in seconds [s], FLOP/s for compute. A corpus of ``D`` documents of
``pages x tokens/page`` tokens is split into chunks of ``c`` tokens that overlap by ``o``;
every chunk becomes one vector of ``d`` dimensions.

References
----------
- FAISS wiki, "Guidelines to choose an index": IndexHNSWFlat takes ``d x 4 + M x 2 x 4``
  bytes per vector; IVF-PQ stores ``m`` code bytes per vector (8-bit sub-quantisers) and an
  8-byte id in the inverted lists, plus the coarse centroids (``nlist`` x d x 4 B, about
  4 sqrt(N) to 16 sqrt(N) lists) and the PQ codebooks (256 x d x 4 B).
- Kaplan et al. 2020: a forward pass costs about 2 FLOPs per parameter and token.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import ModelSpec
from app.engine.memory import attention_flops_per_token, parameter_counts

FP32 = 4.0
ID_BYTES = 8.0  # FAISS inverted lists keep a 64-bit id per vector
PQ_CENTROIDS = 256  # 8-bit sub-quantisers


@dataclass(frozen=True)
class Corpus:
    """Documents and how they are chunked."""

    documents: int
    pages_per_document: float
    tokens_per_page: float
    chunk_tokens: int
    overlap_tokens: int

    @property
    def tokens_per_document(self) -> float:
        return self.pages_per_document * self.tokens_per_page

    @property
    def tokens(self) -> float:
        """Tokens in the whole corpus [tokens]."""
        return self.documents * self.tokens_per_document

    @property
    def chunks_per_document(self) -> int:
        """``max(1, ceil((T - o) / (c - o)))`` for a document of ``T`` tokens."""
        stride = self.chunk_tokens - self.overlap_tokens
        return max(1, math.ceil((self.tokens_per_document - self.overlap_tokens) / stride))

    @property
    def chunks(self) -> float:
        """Chunks, and so vectors, in the corpus [-]."""
        return float(self.documents * self.chunks_per_document)

    @property
    def tokens_embedded(self) -> float:
        """Tokens the embedding model reads: each document once plus every overlap again."""
        per_doc = self.tokens_per_document + (self.chunks_per_document - 1) * self.overlap_tokens
        return self.documents * per_doc


@dataclass(frozen=True)
class Embedder:
    """The embedding model on its GPUs.

    ``flops_per_token`` is the model's forward cost from its architecture when it comes from
    the catalog (:func:`embedder_flops_per_token`); without it ``2 x parameters``.
    """

    params: float
    dim: int
    peak_flops: float
    gpus: int
    mfu: float
    flops_per_token: float | None = None
    model_id: str = ""
    model_name: str = ""

    def flops(self, tokens: float) -> float:
        """Forward FLOPs: ``flops_per_token x tokens``, else ``2 x parameters x tokens`` [FLOP]."""
        per_token = self.flops_per_token if self.flops_per_token else 2.0 * self.params
        return per_token * tokens

    def seconds(self, tokens: float, gpus: int | None = None) -> float:
        """Time to embed ``tokens`` on ``gpus`` GPUs at the MFU [s]."""
        return self.flops(tokens) / ((gpus or self.gpus) * self.peak_flops * self.mfu)


def embedder_flops_per_token(model: ModelSpec, chunk_tokens: int) -> float:
    """Forward FLOPs per token of an embedding model reading chunks of ``chunk_tokens`` [FLOP].

    Notes
    -----
    Prefill only: ``2 x P_matmul`` (the parameters that multiply, lookups excluded) plus the
    attention at the chunk's context: an encoder's every token attends to the whole chunk,
    a decoder embedder's (Qwen3-Embedding) on average to half of it. No KV cache is kept
    and nothing is decoded.
    """
    counts = parameter_counts(model)
    matmul = counts.active - counts.embedding
    context = chunk_tokens if model.encoder else chunk_tokens / 2
    return 2.0 * matmul + attention_flops_per_token(model, context)


def indexing_time_s(corpus: Corpus, embedder: Embedder) -> float:
    """Time to embed the whole corpus: ``2 P T_embedded / (GPUs x peak x MFU)`` [s]."""
    return embedder.seconds(corpus.tokens_embedded)


def flat_bytes(vectors: float, dim: int, bytes_per_dim: float) -> float:
    """Raw vectors (a flat index): ``N x d x bytes`` [B]."""
    return vectors * dim * bytes_per_dim


def hnsw_bytes(vectors: float, dim: int, bytes_per_dim: float, m: int,
               overhead: float = 1.0) -> float:
    """HNSW index in memory: ``N (d x bytes + M x 2 x 4) x overhead`` [B].

    FAISS: ``(d * 4 + M * 2 * 4)`` bytes per vector for FP32 vectors and 4-byte neighbour
    ids on the 2M-link bottom layer. 1 M vectors, d = 768, M = 16: 3.2 GB.
    """
    return vectors * (dim * bytes_per_dim + m * 2 * 4) * overhead


def default_ivf_lists(vectors: float) -> int:
    """Coarse lists ``4 sqrt(N)`` (the low end of FAISS's 4-16 sqrt(N) guideline), at least 1."""
    return max(1, int(4 * math.sqrt(max(vectors, 1.0))))


def ivf_pq_bytes(vectors: float, dim: int, code_bytes: int, lists: int) -> float:
    """IVF-PQ index: ``N (m + 8) + nlist x d x 4 + 256 x d x 4`` [B]."""
    return vectors * (code_bytes + ID_BYTES) + lists * dim * FP32 + PQ_CENTROIDS * dim * FP32


def chunk_text_bytes(corpus: Corpus, bytes_per_token: float) -> float:
    """The chunk texts the prompts are filled from: ``tokens embedded x bytes/token`` [B]."""
    return corpus.tokens_embedded * bytes_per_token


def retrieval_latency_s(embedder: Embedder, query_tokens: int, search_s: float) -> float:
    """Time from question to retrieved chunks: embedding the query on one GPU plus the
    vector search and database round trip [s]."""
    return embedder.seconds(query_tokens, gpus=1) + search_s


def reindex_gpu_hours_per_day(corpus: Corpus, embedder: Embedder, share_per_day: float) -> float:
    """GPU-hours per day to re-embed ``share_per_day`` of the corpus [h]."""
    return embedder.seconds(corpus.tokens_embedded * share_per_day, gpus=1) / 3600.0
