"""Step 2 of the method: parameters, weights, KV cache and runtime memory.

All sizes in bytes [B]. Parameters are counted from the architecture (METHOD.md, Step 2),
never from the model's name.

References
----------
- METHOD.md, Step 2 (formulas and published counts to check against).
- Kwon et al., Efficient Memory Management for LLM Serving with PagedAttention (2023):
  paged KV blocks.
- DeepSeek-AI, DeepSeek-V2/V3 technical reports: multi-head latent attention caches the
  compressed latent (kv_lora_rank + qk_rope_head_dim per token and layer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import ModelSpec, PrecisionSpec

BYTES_16BIT = 2.0


@dataclass(frozen=True)
class ParameterCounts:
    """Parameters of a model split by where they live and how they are stored.

    ``quantisable`` tensors (attention and MLP matrices) take the weight format; ``kept_16bit``
    tensors (embedding, output head, norms, router, biases) stay in 16 bit in quantised formats.
    """

    embedding: float
    lm_head: float
    attention: float
    dense_mlp: float
    routed_experts: float
    shared_experts: float
    router: float
    norms: float
    biases: float
    active: float

    @property
    def total(self) -> float:
        """All parameters."""
        return (self.embedding + self.lm_head + self.attention + self.dense_mlp
                + self.routed_experts + self.shared_experts + self.router + self.norms
                + self.biases)

    @property
    def quantisable(self) -> float:
        """Matrices that a weight format compresses."""
        return self.attention + self.dense_mlp + self.routed_experts + self.shared_experts

    @property
    def kept_16bit(self) -> float:
        """Tensors that quantised formats usually keep in 16 bit."""
        return self.embedding + self.lm_head + self.router + self.norms + self.biases


def attention_params_per_layer(model: ModelSpec) -> tuple[float, float]:
    """Attention matrices and biases of one layer.

    Notes
    -----
    GQA/MHA/MQA: ``h*(n_h*d_h) + 2*h*(n_kv*d_h) + (n_h*d_h)*h`` (METHOD.md).
    MLA (DeepSeek-V2/V3): q_a ``h*r_q`` + q_b ``r_q*n_h*(d_nope+d_rope)`` (or ``h*n_h*(...)``
    without a Q low rank), kv_a ``h*(r_kv+d_rope)``, kv_b ``r_kv*n_h*(d_nope+d_v)``,
    output ``n_h*d_v*h``; the low-rank norms are counted with the norms.

    Returns
    -------
    (matrices, biases) : parameters
    """
    h, n_h = model.hidden_size, model.attention_heads
    if model.mla is not None:
        mla = model.mla
        qk_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        q = (h * mla.q_lora_rank + mla.q_lora_rank * n_h * qk_dim if mla.q_lora_rank
             else h * n_h * qk_dim)
        kv = h * (mla.kv_lora_rank + mla.qk_rope_head_dim)
        kv += mla.kv_lora_rank * n_h * (mla.qk_nope_head_dim + mla.v_head_dim)
        return q + kv + n_h * mla.v_head_dim * h, 0.0
    d_h, n_kv = model.head_dim_value, model.kv_heads
    q_width, kv_width = n_h * d_h, n_kv * d_h
    matrices = h * q_width + 2 * h * kv_width + q_width * h
    biases = {"none": 0, "qkv": q_width + 2 * kv_width, "all": q_width + 2 * kv_width + h}
    return float(matrices), float(biases[model.attention_bias])


def mlp_params(hidden: int, intermediate: int, gated: bool, bias: bool) -> tuple[float, float]:
    """One MLP: gated (SwiGLU) ``3*h*f``, plain ``2*h*f``; biases ``2f+h`` / ``f+h``."""
    matrices = (3 if gated else 2) * hidden * intermediate
    biases = ((2 if gated else 1) * intermediate + hidden) if bias else 0
    return float(matrices), float(biases)


def norm_params_per_layer(model: ModelSpec) -> float:
    """Norm weights of one layer (LayerNorm adds a bias vector)."""
    per_norm = model.hidden_size * (2 if model.norm == "layer" else 1)
    extra = 2 * model.head_dim_value if model.qk_norm else 0
    if model.mla is not None:
        extra += (model.mla.q_lora_rank or 0) + model.mla.kv_lora_rank
    return float(model.norms_per_layer * per_norm + extra)


def parameter_counts(model: ModelSpec) -> ParameterCounts:
    """Count a model's parameters from its architecture (METHOD.md, Step 2)."""
    h, L = model.hidden_size, model.layers
    gated = model.mlp == "gated"
    attn, attn_bias = attention_params_per_layer(model)
    moe = model.moe
    moe_layers = L - moe.dense_layers if moe else 0
    dense_layers = L - moe_layers
    dense, dense_bias = mlp_params(h, model.intermediate_size, gated, model.mlp_bias)
    routed = shared = router = routed_bias = shared_bias = active_experts = 0.0
    if moe:
        expert, e_bias = mlp_params(h, moe.expert_intermediate_size, gated, model.mlp_bias)
        shared_width = moe.shared_intermediate_size or moe.expert_intermediate_size
        one_shared, s_bias = mlp_params(h, shared_width, gated, model.mlp_bias)
        routed = moe_layers * moe.experts * expert
        shared = moe_layers * moe.shared_experts * one_shared
        router = moe_layers * (h * moe.experts + (moe.experts if moe.router_bias else 0))
        routed_bias = moe_layers * moe.experts * e_bias
        shared_bias = moe_layers * moe.shared_experts * s_bias
        active_experts = moe_layers * moe.experts_per_token * (expert + e_bias)
    final_norm = h * (2 if model.norm == "layer" else 1)
    embedding = float(model.vocab_size * h)
    lm_head = 0.0 if model.tied_embeddings else float(model.vocab_size * h)
    lm_bias = float(model.vocab_size) if model.lm_head_bias else 0.0
    counts = ParameterCounts(
        embedding=embedding,
        lm_head=lm_head,
        attention=L * attn,
        dense_mlp=dense_layers * dense,
        routed_experts=routed,
        shared_experts=shared,
        router=router,
        norms=L * norm_params_per_layer(model) + final_norm,
        biases=L * attn_bias + dense_layers * dense_bias + routed_bias + shared_bias + lm_bias,
        active=0.0,
    )
    active = counts.total - routed - routed_bias + active_experts
    return ParameterCounts(**{**counts.__dict__, "active": active})


def weights_bytes(counts: ParameterCounts, precision: PrecisionSpec) -> float:
    """Bytes of all weights in a format (METHOD.md: 16-bit parts kept where the format does).

    Parameters
    ----------
    counts : parameters by kind
    precision : the weight format; ``bits`` includes the scale overhead

    Returns
    -------
    float : weights [B]
    """
    if not precision.keeps_16bit:
        return counts.total * precision.bytes_per_element
    return counts.quantisable * precision.bytes_per_element + counts.kept_16bit * BYTES_16BIT


def naive_weights_bytes(params: float, bytes_per_param: float = BYTES_16BIT) -> float:
    """The vendor guides' rule of thumb: parameters x bytes per parameter [B]."""
    return params * bytes_per_param


def kv_cache_bytes_per_token(layers: int, kv_heads: int, head_dim: int,
                             bytes_per_element: float) -> float:
    """KV cache per token for multi-head, grouped-query or multi-query attention.

    Notes
    -----
    ``2 * L * n_kv * d_h * bytes`` (keys and values of every layer). Llama-3.1-70B in FP16:
    2*80*8*128*2 = 327,680 B = 320 KiB per token (METHOD.md).

    Returns
    -------
    float : [B/token]
    """
    return 2.0 * layers * kv_heads * head_dim * bytes_per_element


def mla_cache_bytes_per_token(layers: int, kv_lora_rank: int, qk_rope_head_dim: int,
                              bytes_per_element: float) -> float:
    """Latent KV cache per token for multi-head latent attention (DeepSeek-V2/V3).

    Notes
    -----
    ``L * (kv_lora_rank + qk_rope_head_dim) * bytes``: the compressed latent and the decoupled
    RoPE key are cached, shared by all heads. DeepSeek-V3 in BF16: 61*(512+64)*2 = 70,272 B.
    """
    return float(layers * (kv_lora_rank + qk_rope_head_dim) * bytes_per_element)


def kv_heads_per_rank(kv_heads: int, tensor_parallel: int) -> int:
    """KV heads each tensor-parallel rank holds: ``max(1, n_kv / t)`` (replicated if fewer)."""
    return max(1, math.ceil(kv_heads / tensor_parallel))


def kv_bytes_per_token_per_layer(model: ModelSpec, bytes_per_element: float,
                                 tensor_parallel: int = 1) -> float:
    """KV bytes one layer stores per token on one tensor-parallel rank [B].

    MLA's latent is replicated on every rank; GQA heads are split (or replicated when
    ``n_kv < t``).
    """
    if model.mla is not None:
        return mla_cache_bytes_per_token(1, model.mla.kv_lora_rank, model.mla.qk_rope_head_dim,
                                         bytes_per_element)
    heads = kv_heads_per_rank(model.kv_heads, tensor_parallel)
    return kv_cache_bytes_per_token(1, heads, model.head_dim_value, bytes_per_element)


def layer_split(model: ModelSpec) -> tuple[int, int]:
    """(full-attention layers, sliding-window layers)."""
    if model.sliding_window is None:
        return model.layers, 0
    global_layers = model.global_layers or 0  # unset: every layer slides (Mistral 7B v0.1)
    return global_layers, model.layers - global_layers


def attended_tokens(model: ModelSpec, context_tokens: float) -> float:
    """Layer-averaged tokens each layer attends to at a context length [tokens].

    Sliding-window layers see at most ``window`` tokens; full layers see them all.
    """
    full, local = layer_split(model)
    window = model.sliding_window or 0
    local_tokens = min(context_tokens, window) if local else 0.0
    return (full * context_tokens + local * local_tokens) / model.layers


def round_up(tokens: float, block: int) -> float:
    """Tokens rounded up to whole paged-KV blocks."""
    return math.ceil(tokens / block) * block if block > 1 else math.ceil(tokens)


def kv_bytes_per_sequence(model: ModelSpec, context_tokens: int, bytes_per_element: float,
                          tensor_parallel: int = 1, pipeline_parallel: int = 1,
                          block_tokens: int = 1) -> float:
    """KV one sequence allocates on the fullest GPU at a context length [B].

    Each layer holds ``min(context, window)`` tokens rounded up to whole blocks; under
    pipeline parallelism a GPU holds ``ceil(L / p)`` layers.
    """
    per_layer = kv_bytes_per_token_per_layer(model, bytes_per_element, tensor_parallel)
    full, local = layer_split(model)
    window = model.sliding_window or context_tokens
    tokens = (full * round_up(context_tokens, block_tokens)
              + local * round_up(min(context_tokens, window), block_tokens))
    share = math.ceil(model.layers / pipeline_parallel) / model.layers
    return per_layer * tokens * share


@dataclass(frozen=True)
class RuntimeMemory:
    """Memory one GPU needs besides weights and KV [B]."""

    base: float
    cuda_graphs: float
    communication: float
    activations: float
    logits: float

    @property
    def total(self) -> float:
        return self.base + self.cuda_graphs + self.communication + self.activations + self.logits


def activation_bytes(model: ModelSpec, batched_tokens: int, tensor_parallel: int) -> float:
    """Peak activations of one forward pass over the engine's token budget [B].

    Notes
    -----
    The largest live tensors are the residual stream and the MLP's up/gate projections:
    ``T * (4h + 2f/t) * 2`` bytes in 16 bit for ``T`` batched tokens (the profile run vLLM
    does at start-up allocates about this much).
    """
    width = model.intermediate_size
    if model.moe is not None:
        width = max(width, model.moe.expert_intermediate_size * model.moe.experts_per_token)
    return batched_tokens * (4 * model.hidden_size + 2 * width / tensor_parallel) * BYTES_16BIT


def logits_bytes(vocab_size: int, sequences: int, bytes_per_element: float) -> float:
    """Sampler logits for one step: ``sequences * V * bytes`` (FP32 in vLLM and TRT-LLM)."""
    return float(sequences * vocab_size * bytes_per_element)
