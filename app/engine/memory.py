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
- DeepSeek-AI, DeepSeek-V3.2 (2025) and its inference code (deepseek-ai/DeepSeek-V3.2-Exp,
  inference/model.py ``Indexer``): the lightning indexer's FP8 key cache and top-k attention.
- Yang, Kautz, Hatamizadeh, Gated Delta Networks (arXiv 2412.06464); Qwen3-Next in
  transformers (models/qwen3_next, ``Qwen3NextGatedDeltaNet``); Kimi Linear (arXiv
  2510.26692) and vLLM ``layers/kda.py``; vLLM ``layers/mamba/mamba_utils.py``
  (``gated_delta_net_state_shape``, ``kda_state_shape``): the recurrent state per sequence.
- vLLM ``quantization/mxfp4.py`` ``Mxfp4MoEMethod.create_weights`` (padding per kernel) and
  ``process_weights_after_loading`` (what stays resident); OpenAI gpt-oss model card
  (checkpoint 60.8 GiB and 12.8 GiB).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import ModelSpec, MoeWeightLayout, PrecisionSpec

BYTES_16BIT = 2.0
INDEX_KEY_BYTES = 1.0  # the indexer caches its keys in FP8 (DeepSeek-V3.2 inference code)
INDEX_SCALE_BYTES = 4.0  # one FP32 scale ...
INDEX_SCALE_BLOCK = 128  # ... per 128 key values (vLLM DeepseekV32IndexerCache: 128 + 4 B)
LINEAR_STATE_FLOPS = 6.0  # per state element and token: S*k, the rank-1 update, S*q (2 each)


@dataclass(frozen=True)
class ParameterCounts:
    """Parameters of a model split by where they live and how they are stored.

    ``quantisable`` tensors (attention and MLP matrices) take the weight format; ``kept_16bit``
    tensors (embedding, output head, norms, router, biases) stay in 16 bit in quantised formats.
    ``expert_biases`` is the part of ``biases`` that belongs to the experts; ``speculative``
    holds the speculative-decoding heads when they are loaded (0 otherwise), in ``total``.
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
    linear_attention: float = 0.0
    indexer: float = 0.0
    expert_biases: float = 0.0
    speculative: float = 0.0

    @property
    def total(self) -> float:
        """All parameters (the speculative heads included when they are loaded)."""
        return (self.embedding + self.lm_head + self.attention + self.linear_attention
                + self.indexer + self.dense_mlp + self.routed_experts + self.shared_experts
                + self.router + self.norms + self.biases + self.speculative)

    @property
    def quantisable(self) -> float:
        """Matrices that a weight format compresses."""
        return (self.attention + self.linear_attention + self.indexer + self.dense_mlp
                + self.routed_experts + self.shared_experts + self.speculative)

    @property
    def kept_16bit(self) -> float:
        """Tensors that quantised formats usually keep in 16 bit."""
        return self.embedding + self.lm_head + self.router + self.norms + self.biases

    @property
    def experts(self) -> float:
        """Routed and shared expert matrices."""
        return self.routed_experts + self.shared_experts


def attention_width(model: ModelSpec) -> float:
    """``n_h * d_h`` of the score and value products (MLA: mean of QK and V head widths)."""
    mla = model.mla
    if mla is not None:
        head = (mla.qk_nope_head_dim + mla.qk_rope_head_dim + mla.v_head_dim) / 2
        return model.attention_heads * head
    return float(model.attention_heads * model.head_dim_value)


def attention_params_per_layer(model: ModelSpec) -> tuple[float, float]:
    """Attention matrices and biases of one softmax-attention layer.

    Notes
    -----
    GQA/MHA/MQA: ``h*(n_h*d_h) + 2*h*(n_kv*d_h) + (n_h*d_h)*h`` (METHOD.md); with an output
    gate (Qwen3-Next) the query projection is twice as wide. MLA (DeepSeek-V2/V3): q_a
    ``h*r_q`` + q_b ``r_q*n_h*(d_nope+d_rope)`` (or ``h*n_h*(...)`` without a Q low rank),
    kv_a ``h*(r_kv+d_rope)``, kv_b ``r_kv*n_h*(d_nope+d_v)``, output ``n_h*d_v*h``; the
    low-rank norms are counted with the norms.

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
    gate = 2 if model.attention_output_gate else 1
    matrices = h * q_width * gate + 2 * h * kv_width + q_width * h
    q_bias = q_width * gate
    biases = {"none": 0, "qkv": q_bias + 2 * kv_width, "all": q_bias + 2 * kv_width + h}
    return float(matrices), float(biases[model.attention_bias])


def linear_attention_params_per_layer(model: ModelSpec) -> tuple[float, float]:
    """Matrices and small vectors of one linear-attention layer [parameters].

    Notes
    -----
    Gated DeltaNet (transformers ``Qwen3NextGatedDeltaNet``), with ``K = n_k d_k`` and
    ``V = n_v d_v``: in_proj_qkvz ``h (2K + 2V)``, in_proj_ba ``h * 2 n_v``, out_proj ``V h``;
    small: the depthwise convolution ``(2K + V) * kernel``, dt_bias and A_log ``2 n_v``, the
    gated norm ``d_v``.
    Kimi Delta Attention (vLLM ``KimiDeltaAttention``), ``P = n d``: q, k, v and o ``4 h P``,
    the low-rank gates f and g ``2 (h d + d P)``, beta ``h n``; small: three convolutions
    ``3 P kernel``, dt_bias ``P``, A_log ``n``, the output norm ``d``.
    """
    linear = model.linear_attention
    if linear is None:
        return 0.0, 0.0
    h, key, value = model.hidden_size, linear.key_width, linear.value_width
    conv = (2 * key + value) * linear.conv_kernel
    if linear.kind == "kimi_delta":
        width, heads = value, linear.value_heads
        matrices = 4 * h * width + 2 * (h * linear.value_head_dim + linear.value_head_dim * width)
        return float(matrices + h * heads), float(conv + width + heads + linear.value_head_dim)
    matrices = h * (2 * key + 2 * value) + h * 2 * linear.value_heads + value * h
    return float(matrices), float(conv + 2 * linear.value_heads + linear.value_head_dim)


def indexer_params_per_layer(model: ModelSpec) -> tuple[float, float]:
    """Lightning-indexer matrices and norm of one DeepSeek Sparse Attention layer.

    Notes
    -----
    DeepSeek-V3.2 inference code (``Indexer``): wq_b ``r_q * H_i d_i`` (from the query's low
    rank), wk ``h d_i``, weights_proj ``h H_i``; k_norm is a LayerNorm ``2 d_i``.
    """
    sparse = model.sparse_attention
    if sparse is None:
        return 0.0, 0.0
    h, width = model.hidden_size, sparse.index_heads * sparse.index_head_dim
    q_in = (model.mla.q_lora_rank if model.mla and model.mla.q_lora_rank else h)
    matrices = q_in * width + h * sparse.index_head_dim + h * sparse.index_heads
    return float(matrices), float(2 * sparse.index_head_dim)


def mlp_params(hidden: int, intermediate: int, gated: bool, bias: bool) -> tuple[float, float]:
    """One MLP: gated (SwiGLU) ``3*h*f``, plain ``2*h*f``; biases ``2f+h`` / ``f+h``."""
    matrices = (3 if gated else 2) * hidden * intermediate
    biases = ((2 if gated else 1) * intermediate + hidden) if bias else 0
    return float(matrices), float(biases)


def norm_params_per_layer(model: ModelSpec) -> float:
    """Norm weights every layer has (LayerNorm adds a bias vector)."""
    return float(model.norms_per_layer * model.hidden_size * (2 if model.norm == "layer" else 1))


def attention_norm_params_per_layer(model: ModelSpec) -> float:
    """Norms inside a softmax-attention layer: per-head Q/K norms, MLA's low-rank norms."""
    extra = 2 * model.head_dim_value if model.qk_norm else 0
    if model.mla is not None:
        extra += (model.mla.q_lora_rank or 0) + model.mla.kv_lora_rank
    return float(extra)


def head_params(model: ModelSpec) -> float:
    """The output head: ``V*h`` for an untied decoder; an encoder's pooler (``h*h + h``) and
    classification head (``h*h + h`` dense, ``h*labels + labels`` out); none for embedders."""
    h = model.hidden_size
    if model.generates:
        return 0.0 if model.tied_embeddings else float(model.vocab_size * h)
    pooler = h * h + h if model.pooler else 0
    labels = model.classifier_labels
    classifier = (h * h + h) + (h * labels + labels) if labels else 0
    return float(pooler + classifier)


def embedding_params(model: ModelSpec) -> float:
    """Lookup tables: tokens ``V*h``, learned positions and token types (BERT)."""
    rows = model.vocab_size + model.position_embeddings + model.token_types
    return float(rows * model.hidden_size)


@dataclass(frozen=True)
class _Moe:
    """The experts of every MoE layer of a model [parameters]."""

    routed: float = 0.0
    shared: float = 0.0
    router: float = 0.0
    routed_bias: float = 0.0
    shared_bias: float = 0.0
    active: float = 0.0
    moe_layers: int = 0


def _moe_params(model: ModelSpec) -> _Moe:
    moe = model.moe
    if moe is None:
        return _Moe()
    h, gated = model.hidden_size, model.mlp == "gated"
    layers = model.moe_layers
    expert, e_bias = mlp_params(h, moe.expert_intermediate_size, gated, model.mlp_bias)
    shared_width = moe.shared_intermediate_size or moe.expert_intermediate_size
    one_shared, s_bias = mlp_params(h, shared_width, gated, model.mlp_bias)
    return _Moe(
        routed=layers * moe.experts * expert,
        shared=layers * moe.shared_experts * one_shared,
        router=layers * (h * moe.experts + (moe.experts if moe.router_bias else 0)
                         + (h if moe.shared_expert_gate else 0)),
        routed_bias=layers * moe.experts * e_bias,
        shared_bias=layers * moe.shared_experts * s_bias,
        active=layers * moe.experts_per_token * (expert + e_bias),
        moe_layers=layers,
    )


def parameter_counts(model: ModelSpec, speculative: bool = False) -> ParameterCounts:
    """Count a model's parameters from its architecture (METHOD.md, Step 2).

    ``speculative``: count the speculative-decoding heads as loaded (in ``total``, not
    ``active``).
    """
    h, L = model.hidden_size, model.layers
    attention_layers = model.attention_layers
    linear_layers = L - attention_layers
    attn, attn_bias = attention_params_per_layer(model)
    linear, linear_small = linear_attention_params_per_layer(model)
    index, index_norm = indexer_params_per_layer(model)
    experts = _moe_params(model)
    dense_layers = L - experts.moe_layers
    dense, dense_bias = mlp_params(h, model.intermediate_size, model.mlp == "gated",
                                   model.mlp_bias)
    final_norm = h * (2 if model.norm == "layer" else 1)
    lm_bias = float(model.vocab_size) if model.lm_head_bias and model.generates else 0.0
    norms = (L * norm_params_per_layer(model) + final_norm
             + attention_layers * (attention_norm_params_per_layer(model) + index_norm)
             + linear_layers * linear_small)
    counts = ParameterCounts(
        embedding=embedding_params(model),
        lm_head=head_params(model),
        attention=attention_layers * attn,
        dense_mlp=dense_layers * dense,
        routed_experts=experts.routed,
        shared_experts=experts.shared,
        router=experts.router,
        norms=float(norms),
        biases=(attention_layers * attn_bias + dense_layers * dense_bias + experts.routed_bias
                + experts.shared_bias + lm_bias),
        active=0.0,
        linear_attention=linear_layers * linear,
        indexer=attention_layers * index,
        expert_biases=experts.routed_bias + experts.shared_bias,
    )
    active = counts.total - experts.routed - experts.routed_bias + experts.active
    heads = speculative_params(model) if speculative else 0.0
    return ParameterCounts(**{**counts.__dict__, "active": active, "speculative": heads})


def speculative_params(model: ModelSpec) -> float:
    """Parameters engines load for the speculative-decoding heads [parameters].

    Notes
    -----
    The publisher's figure when the catalog has one (EAGLE drafts); else for MTP/NextN
    (DeepSeek-V3 report, Sec. 2.2): per module one decoder layer like the model's last one
    (attention and, for MoE models, a routed MoE layer), the projection ``2h x h`` of the
    concatenated hidden state and embedding, and three norms. vLLM's proposer shares the
    embedding and the output head with the model (``EagleProposer.load_model``), so they are
    not counted again. 0 without heads.
    """
    spec = model.speculative
    if spec is None:
        return 0.0
    if spec.params is not None:
        return spec.params
    return spec.layers * (_last_layer_params(model) + 2 * model.hidden_size ** 2
                          + 3 * model.hidden_size)


def _last_layer_params(model: ModelSpec) -> float:
    """Parameters of one full-attention decoder layer with the model's last MLP [parameters]."""
    attn, attn_bias = attention_params_per_layer(model)
    index, index_norm = indexer_params_per_layer(model)
    experts = _moe_params(model)
    if experts.moe_layers:
        per = experts.moe_layers
        mlp = (experts.routed + experts.shared + experts.router + experts.routed_bias
               + experts.shared_bias) / per
    else:
        matrices, bias = mlp_params(model.hidden_size, model.intermediate_size,
                                    model.mlp == "gated", model.mlp_bias)
        mlp = matrices + bias
    norms = norm_params_per_layer(model) + attention_norm_params_per_layer(model) + index_norm
    return attn + attn_bias + index + mlp + norms


def weights_bytes(counts: ParameterCounts, precision: PrecisionSpec,
                  experts_only: bool = False) -> float:
    """Bytes of all weights in a format (METHOD.md: 16-bit parts kept where the format does).

    Parameters
    ----------
    counts : parameters by kind
    precision : the weight format; ``bits`` includes the scale overhead
    experts_only : the format covers the expert matrices only (the model's shipped low-bit
        format keeps attention and dense MLPs in 16 bit, as gpt-oss's MXFP4 does)

    Returns
    -------
    float : weights [B]
    """
    if not precision.keeps_16bit:
        return counts.total * precision.bytes_per_element
    quantised = counts.experts + counts.speculative if experts_only else counts.quantisable
    in_16bit = counts.kept_16bit + counts.quantisable - quantised
    return quantised * precision.bytes_per_element + in_16bit * BYTES_16BIT


def padded_expert_bytes(model: ModelSpec, precision: PrecisionSpec,
                        layout: MoeWeightLayout) -> tuple[float, float]:
    """Routed and shared expert weights as an engine stores them [B]: (matrices, biases).

    Notes
    -----
    Each expert's matrices are ``3 h' f'`` values (gated; ``2 h' f'`` plain) with
    ``h' = roundup(h, hidden_multiple)`` and ``f' = roundup(f_e, intermediate_multiple)``;
    they take ``element_bits / 8`` bytes each plus ``scale_copies`` block scales of
    ``scale_bits`` per ``block_size`` values. Biases ``2 f' + h'`` (gated) at
    ``bias_bytes`` (vLLM's Triton path casts them to FP32). vLLM mxfp4.py: Marlin pads f to a
    multiple of 128 and h to 256, FlashInfer on Blackwell both to 256, Triton f to 64 and
    keeps the checkpoint's scales (``layer.w13_weight_scale``) beside the swizzled ones.
    """
    moe = model.moe
    if moe is None:
        return 0.0, 0.0
    hidden = _round_up(model.hidden_size, layout.hidden_multiple)
    gated = model.mlp == "gated"
    experts = (model.layers - moe.dense_layers) * (moe.experts + moe.shared_experts)
    widths = [moe.expert_intermediate_size] * moe.experts
    widths += [moe.shared_intermediate_size or moe.expert_intermediate_size] * moe.shared_experts
    mean_width = sum(_round_up(w, layout.intermediate_multiple) for w in widths) / len(widths)
    values = experts * (3 if gated else 2) * hidden * mean_width
    scale_bits = (precision.scale_bits or 0) * layout.scale_copies
    per_value = precision.element_bits + scale_bits / (precision.block_size or 1)
    biases = experts * ((2 if gated else 1) * mean_width + hidden) if model.mlp_bias else 0
    return values * per_value / 8, biases * layout.bias_bytes


def _round_up(value: float, multiple: int) -> float:
    return math.ceil(value / multiple) * multiple if multiple > 1 else value


def experts_only_format(model: ModelSpec, precision: PrecisionSpec) -> bool:
    """Whether ``precision`` is the model's shipped format and covers only its expert
    matrices (``native_quantised = "experts-only"``, gpt-oss: MXFP4 experts, attention,
    embedding and head in BF16)."""
    return model.native_quantised == "experts-only" and precision.id == model.native_precision


def loaded_weights_bytes(model: ModelSpec, counts: ParameterCounts, precision: PrecisionSpec,
                         layout: MoeWeightLayout | None = None) -> float:
    """Weights as the serving engine holds them in memory [B].

    The model's shipped low-bit format covers only its expert matrices when
    ``native_quantised`` is ``experts-only``; an engine's expert layout (padding, scale copies,
    bias precision) replaces the plain count of the expert matrices when it has one.
    """
    total = weights_bytes(counts, precision, experts_only_format(model, precision))
    if layout is None or model.moe is None or not precision.keeps_16bit:
        return total
    matrices, biases = padded_expert_bytes(model, precision, layout)
    plain = counts.experts * precision.bytes_per_element + counts.expert_biases * BYTES_16BIT
    return total - plain + matrices + biases


def routed_expert_weights_bytes(model: ModelSpec, counts: ParameterCounts,
                                precision: PrecisionSpec,
                                layout: MoeWeightLayout | None = None) -> float:
    """Bytes of the routed experts as loaded, biases included [B] (0 for a dense model).

    A decode step reads only the experts its tokens route to; the rest of the weights it
    reads whole (METHOD.md, Step 4).
    """
    moe = model.moe
    if moe is None:
        return 0.0
    if layout is not None and precision.keeps_16bit:
        matrices, biases = padded_expert_bytes(model, precision, layout)
        return (matrices + biases) * moe.experts / (moe.experts + moe.shared_experts)
    routed_bias = counts.expert_biases * counts.routed_experts / max(counts.experts, 1.0)
    bias_bytes = BYTES_16BIT if precision.keeps_16bit else precision.bytes_per_element
    return counts.routed_experts * precision.bytes_per_element + routed_bias * bias_bytes


def speculative_weights_bytes(counts: ParameterCounts, precision: PrecisionSpec) -> float:
    """Bytes of the loaded speculative-decoding heads [B] (0 when they are not loaded)."""
    return counts.speculative * precision.bytes_per_element


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
    """KV bytes one softmax-attention layer stores per token on one tensor-parallel rank [B].

    MLA's latent is replicated on every rank; GQA heads are split (or replicated when
    ``n_kv < t``). Linear-attention layers store no KV (their state is per sequence).
    """
    if model.mla is not None:
        return mla_cache_bytes_per_token(1, model.mla.kv_lora_rank, model.mla.qk_rope_head_dim,
                                         bytes_per_element)
    heads = kv_heads_per_rank(model.kv_heads, tensor_parallel)
    return kv_cache_bytes_per_token(1, heads, model.head_dim_value, bytes_per_element)


def index_key_bytes_per_token_per_layer(model: ModelSpec) -> float:
    """The sparse-attention indexer's cached key per token and layer [B] (0 without one).

    Notes
    -----
    ``d_i * 1 B`` (FP8) ``+ ceil(d_i / 128) * 4 B`` (FP32 scales): 132 B for DeepSeek-V3.2's
    128-wide key, on every rank (vLLM ``DeepseekV32IndexerCache``: one 132-byte vector).
    """
    sparse = model.sparse_attention
    if sparse is None:
        return 0.0
    scales = math.ceil(sparse.index_head_dim / INDEX_SCALE_BLOCK)
    return sparse.index_head_dim * INDEX_KEY_BYTES + scales * INDEX_SCALE_BYTES


def kv_bytes_per_token(model: ModelSpec, bytes_per_element: float,
                       tensor_parallel: int = 1) -> float:
    """Cache bytes one token adds on one tensor-parallel rank, all layers [B].

    Notes
    -----
    ``L_att * (kv_per_layer + index_key)``: only softmax-attention layers cache per token
    (a linear-attention layer keeps a fixed state per sequence instead,
    :func:`state_bytes_per_sequence`). Qwen3-Next-80B-A3B in BF16: 12 of 48 layers, 2 KV
    heads of 256: 12*2*2*256*2 = 24,576 B; DeepSeek-V3.2: 61*(576*2 + 132) = 78,324 B.
    """
    per_layer = (kv_bytes_per_token_per_layer(model, bytes_per_element, tensor_parallel)
                 + index_key_bytes_per_token_per_layer(model))
    return model.attention_layers * per_layer


def state_bytes_per_layer(model: ModelSpec, tensor_parallel: int = 1) -> float:
    """Recurrent state one linear-attention layer keeps per sequence on one rank [B].

    Notes
    -----
    vLLM ``MambaStateShapeCalculator``: the convolution window ``(2 n_k d_k + n_v d_v) *
    (kernel - 1)`` values in 16 bit and the recurrent state ``n_v * d_k * d_v`` values in
    ``state_precision``, both split over the tensor-parallel ranks (heads). Qwen3-Next:
    8,192 * 3 * 2 + 32*128*128 * 2 = 1,097,728 B per layer.
    """
    linear = model.linear_attention
    if linear is None:
        return 0.0
    conv = (2 * linear.key_width + linear.value_width) * (linear.conv_kernel - 1) * BYTES_16BIT
    recurrent = (linear.value_heads * linear.key_head_dim * linear.value_head_dim
                 * linear.state_bytes_per_element)
    return (conv + recurrent) / tensor_parallel


def state_bytes_per_sequence(model: ModelSpec, tensor_parallel: int = 1) -> float:
    """Recurrent state of all linear-attention layers of one sequence on one rank [B]."""
    linear_layers = model.layers - model.attention_layers
    return linear_layers * state_bytes_per_layer(model, tensor_parallel)


def kv_bytes_per_token_replica(model: ModelSpec, bytes_per_element: float,
                               tensor_parallel: int = 1) -> float:
    """Cache bytes one token adds in a whole replica: every layer on every rank [B].

    ``kv_bytes_per_token x t``. A KV head replicated on several ranks (``n_kv < t``, or MLA's
    latent on every rank) is counted on each rank that stores it; with ``t = 1`` this is the
    model's cache per token.

    Parameters
    ----------
    model : ModelSpec
        The architecture (layers, KV heads, head dimension or MLA latent).
    bytes_per_element : float
        Bytes per cached value of the KV cache format [B].
    tensor_parallel : int
        Tensor-parallel ranks the KV heads are split over [-].
    """
    return kv_bytes_per_token(model, bytes_per_element, tensor_parallel) * tensor_parallel


def state_bytes_per_stage(model: ModelSpec, tensor_parallel: int,
                          pipeline_parallel: int) -> float:
    """Recurrent state of one sequence on the fullest GPU of a replica [B]: the
    linear-attention state of one rank (:func:`state_bytes_per_sequence`) times the share of
    layers the fullest pipeline stage holds, ``ceil(L / p) / L``."""
    share = math.ceil(model.layers / pipeline_parallel) / model.layers
    return state_bytes_per_sequence(model, tensor_parallel) * share


def kv_bytes_per_sequence_at(kv_bytes_per_sequence_peak: float, state_bytes: float,
                             peak_context: float, context: float) -> float:
    """Cache of one sequence at ``context`` tokens, scaled from the peak context [B].

    ``(kv_peak - state) x context / peak + state``: the per-token part scales with the
    context, a linear-attention state does not. The average case (prompt + output / 2) beside
    the peak, ignoring the block rounding the peak figure includes.

    Parameters
    ----------
    kv_bytes_per_sequence_peak : float
        Cache of one sequence at ``peak_context``, state included [B].
    state_bytes : float
        The part that does not grow with the context (linear-attention state) [B].
    peak_context : float
        Tokens the peak figure holds [tokens].
    context : float
        Tokens the sequence holds here [tokens].
    """
    return (kv_bytes_per_sequence_peak - state_bytes) * context / peak_context + state_bytes



def layer_split(model: ModelSpec) -> tuple[int, int]:
    """(full-attention layers, sliding-window layers); linear-attention layers excluded."""
    if model.sliding_window is None:
        return model.attention_layers, 0
    global_layers = model.global_layers or 0  # unset: every layer slides (Mistral 7B v0.1)
    return global_layers, model.layers - global_layers


def attended_tokens(model: ModelSpec, context_tokens: float) -> float:
    """Tokens each softmax-attention layer attends to, averaged over those layers [tokens].

    Sliding-window layers see at most ``window`` tokens, sparse-attention (DSA) layers the
    indexer's ``top_k``; full layers see them all.
    """
    full, local = layer_split(model)
    window = model.sliding_window or 0
    local_tokens = min(context_tokens, window) if local else 0.0
    full_tokens = context_tokens
    if model.sparse_attention is not None:
        full_tokens = min(context_tokens, model.sparse_attention.top_k)
    return (full * full_tokens + local * local_tokens) / (full + local)


def kv_read_bytes_per_sequence(model: ModelSpec, context_tokens: float,
                               bytes_per_element: float, tensor_parallel: int = 1) -> float:
    """Cache bytes one sequence's decode step reads on one rank, all layers [B].

    Notes
    -----
    Softmax layers read the KV of the tokens they attend to (window, DSA top-k); the DSA
    indexer scores every earlier token, so it reads all their index keys; a linear-attention
    layer reads and writes back its state (2x the state) instead of any per-token cache.
    """
    per_layer = kv_bytes_per_token_per_layer(model, bytes_per_element, tensor_parallel)
    attention = model.attention_layers * attended_tokens(model, context_tokens) * per_layer
    index = (model.attention_layers * context_tokens
             * index_key_bytes_per_token_per_layer(model))
    return attention + index + 2 * state_bytes_per_sequence(model, tensor_parallel)


def attention_flops_per_token(model: ModelSpec, context_tokens: float) -> float:
    """Attention FLOPs of one query token at a context length, all layers [FLOP].

    Notes
    -----
    Softmax layers ``4 * n_h d_h * attended`` (scores and values, METHOD.md); the DSA indexer
    ``2 * H_i d_i * context`` (it scores every earlier token); a linear-attention layer
    ``6 * n_v d_k d_v`` whatever the context (state read, update and readout; an estimate
    that leaves out the chunked prefill kernel's intra-chunk work), so its prefill is linear
    in the prompt length.
    """
    width = attention_width(model)
    attention = 4.0 * model.attention_layers * width * attended_tokens(model, context_tokens)
    sparse = model.sparse_attention
    index = (2.0 * model.attention_layers * sparse.index_heads * sparse.index_head_dim
             * context_tokens) if sparse else 0.0
    linear = model.linear_attention
    state = (LINEAR_STATE_FLOPS * (model.layers - model.attention_layers) * linear.value_heads
             * linear.key_head_dim * linear.value_head_dim) if linear else 0.0
    return attention + index + state


def round_up(tokens: float, block: int) -> float:
    """Tokens rounded up to whole paged-KV blocks."""
    return math.ceil(tokens / block) * block if block > 1 else math.ceil(tokens)


def kv_bytes_per_sequence(model: ModelSpec, context_tokens: int, bytes_per_element: float,
                          tensor_parallel: int = 1, pipeline_parallel: int = 1,
                          block_tokens: int = 1, extra_layers: int = 0) -> float:
    """KV (and recurrent state) one sequence allocates on the fullest GPU at a context [B].

    Each softmax layer holds ``min(context, window)`` tokens rounded up to whole blocks, a
    sparse-attention layer also the index keys of every token, a linear-attention layer its
    fixed state; under pipeline parallelism a GPU holds ``ceil(L / p)`` layers.
    ``extra_layers`` full-attention layers are added (speculative-decoding heads).
    """
    per_layer = (kv_bytes_per_token_per_layer(model, bytes_per_element, tensor_parallel)
                 + index_key_bytes_per_token_per_layer(model))
    full, local = layer_split(model)
    window = model.sliding_window or context_tokens
    tokens = ((full + extra_layers) * round_up(context_tokens, block_tokens)
              + local * round_up(min(context_tokens, window), block_tokens))
    share = math.ceil(model.layers / pipeline_parallel) / model.layers
    return (per_layer * tokens + state_bytes_per_sequence(model, tensor_parallel)) * share


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
