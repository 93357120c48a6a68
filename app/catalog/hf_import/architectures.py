"""The architecture from config.json: one builder per model_type, sliding windows, MoE, MLA,
linear-attention layers (Qwen3-Next, Qwen3.5, Kimi Linear), DeepSeek Sparse Attention and
encoders (BERT, XLM-RoBERTa).

Multimodal configs are read through their ``text_config``; an unknown ``model_type`` is read
as the ``architectures`` class says (Kimi K2's ``kimi_k2`` is DeepseekV3ForCausalLM).
"""

from __future__ import annotations

from collections.abc import Callable

from app.catalog.hf_import.fields import Fields, common_fields
from app.catalog.hf_import.findings import Findings, ModelImportError
from app.i18n import msg

_LAYER_KINDS = {"full_attention": True, "sliding_attention": False, "chunked_attention": False}


def _sliding(
    f: Fields,
    layers: int,
    default_global: Callable[[], int | None],
    window_key: str = "sliding_window",
) -> dict:
    """``sliding_window`` and ``global_layers`` from ``layer_types`` or the family's pattern."""
    global_layers = _global_from_layer_types(f, layers)
    if global_layers is None:
        global_layers = default_global()
    if global_layers is None or global_layers >= layers:
        return {}
    f.report.derived.append("global_layers")
    window = f.int(window_key, msg("the window of the local attention layers"))
    return {"sliding_window": window, "global_layers": global_layers}


def _global_from_layer_types(f: Fields, layers: int) -> int | None:
    kinds = f.str_list("layer_types")
    if kinds is None:
        return None
    if len(kinds) != layers:
        raise ModelImportError(msg("{where} has {count} entries for {layers} layers.",
                                   where=f.where("layer_types"), count=len(kinds), layers=layers))
    unknown = sorted(set(kinds) - set(_LAYER_KINDS))
    if unknown:
        raise ModelImportError(msg("{where} holds {unknown}; AI Sizer knows {known}.",
                                   where=f.where("layer_types"), unknown=", ".join(unknown),
                                   known=", ".join(_LAYER_KINDS)))
    return sum(_LAYER_KINDS[kind] for kind in kinds)


def _window_everywhere(f: Fields) -> Callable[[], int | None]:
    """Mistral style: a window set in config.json applies to every layer."""
    return lambda: 0 if f.opt_int("sliding_window") else None


def _every_nth_global(layers: int, period: int) -> Callable[[], int]:
    """Layers ``period-1, 2*period-1, ...`` are global (Gemma, gpt-oss, Llama 4 NoPE layers)."""
    return lambda: layers // max(period, 1)


def _qwen_window(f: Fields, layers: int) -> Callable[[], int | None]:
    """Qwen: with use_sliding_window, layers from max_window_layers on are local."""

    def global_layers() -> int | None:
        if not f.flag("use_sliding_window", False) or not f.opt_int("sliding_window"):
            return None
        full_layers = f.opt_int("max_window_layers")
        return layers if full_layers is None else min(max(full_layers, 0), layers)

    return global_layers


def _llama(f: Fields) -> dict:
    return common_fields(f)


def _mistral(f: Fields) -> dict:
    values = common_fields(f)
    return values | _sliding(f, values["layers"], _window_everywhere(f))


def _mixtral(f: Fields) -> dict:
    values = _mistral(f)
    values["moe"] = {
        "experts": f.int("num_local_experts", msg("the number of experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": values["intermediate_size"],
    }
    return values


def _qwen2(f: Fields) -> dict:
    values = common_fields(f) | {"attention_bias": "qkv"}
    return values | _sliding(f, values["layers"], _qwen_window(f, values["layers"]))


def _qwen3(f: Fields) -> dict:
    values = common_fields(f) | {"qk_norm": True}
    return values | _sliding(f, values["layers"], _qwen_window(f, values["layers"]))


def _qwen_moe(f: Fields, layers: int) -> dict:
    step = max(f.opt_int("decoder_sparse_step") or 1, 1)
    dense_only = set(f.int_list("mlp_only_layers") or [])
    moe_layers = [i for i in range(layers) if i not in dense_only and (i + 1) % step == 0]
    f.report.derived.append("moe.dense_layers")
    return {
        "experts": f.int("num_experts", msg("the number of experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": f.int("moe_intermediate_size", msg("the width of one expert")),
        "dense_layers": layers - len(moe_layers),
    }


def _qwen2_moe(f: Fields) -> dict:
    values = _qwen2(f)
    moe = _qwen_moe(f, values["layers"])
    shared = f.opt_int("shared_expert_intermediate_size") or 0
    if shared:
        moe |= {"shared_experts": 1, "shared_intermediate_size": shared}
        f.report.notes.append(
            "the shared expert's sigmoid gate (hidden_size per layer) is not counted"
        )
    return values | {"moe": moe}


def _qwen3_moe(f: Fields) -> dict:
    values = _qwen3(f)
    return values | {"moe": _qwen_moe(f, values["layers"])}


def _mla(f: Fields) -> dict:
    return {
        "q_lora_rank": f.opt_int("q_lora_rank"),
        "kv_lora_rank": f.int("kv_lora_rank", msg("the compressed KV width of MLA")),
        "qk_rope_head_dim": f.int("qk_rope_head_dim", msg("the RoPE part of each MLA head")),
        "qk_nope_head_dim": f.int("qk_nope_head_dim", msg("the non-RoPE part of each MLA head")),
        "v_head_dim": f.int("v_head_dim", msg("the value width of each MLA head")),
    }


def _mla_head_dim(f: Fields, mla: dict) -> int:
    f.report.derived.append("head_dim")
    f.report.notes.append("head_dim = qk_nope_head_dim + qk_rope_head_dim (MLA)")
    return mla["qk_rope_head_dim"] + mla["qk_nope_head_dim"]


def _deepseek(f: Fields) -> dict:
    values = common_fields(f)
    mla = _mla(f)
    values["head_dim"] = _mla_head_dim(f, mla)
    return values | {"mla": mla, "moe": _deepseek_moe(f, values["layers"])} | _mtp(f)


def _deepseek_v32(f: Fields) -> dict:
    """DeepSeek-V3.2: DeepSeek-V3 plus the sparse-attention indexer (index_* fields)."""
    sparse = {
        "index_heads": f.int("index_n_heads", msg("the indexer's heads (sparse attention)")),
        "index_head_dim": f.int("index_head_dim", msg("the width of the indexer's key")),
        "top_k": f.int("index_topk", msg("the tokens each query attends to (index_topk)")),
    }
    return _deepseek(f) | {"sparse_attention": sparse}


def _deepseek_moe(f: Fields, layers: int, router_bias: bool | None = None) -> dict:
    first_dense = f.opt_int("first_k_dense_replace") or 0
    every = max(f.opt_int("moe_layer_freq") or 1, 1)
    moe_layers = [i for i in range(layers) if i >= first_dense and i % every == 0]
    f.report.derived.append("moe.dense_layers")
    expert_width = f.int("moe_intermediate_size", msg("the width of one expert"))
    shared = f.opt_int("n_shared_experts") or 0
    if router_bias is None:
        router_bias = f.data.get("topk_method") == "noaux_tc"
    return {
        "experts": f.int("n_routed_experts", msg("the number of routed experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": expert_width,
        "shared_experts": shared,
        "shared_intermediate_size": expert_width if shared else None,
        "dense_layers": layers - len(moe_layers),
        "router_bias": router_bias,
    }


def _mtp(f: Fields, key: str = "num_nextn_predict_layers", default: int = 0) -> dict:
    """Multi-token-prediction layers as speculative-decoding heads (loaded only when asked)."""
    layers = f.opt_int(key)
    source = f"config.json {key} {layers}"
    if layers is None:
        layers = default
        source = f"{key} not in config.json: {default}, the family's release (vLLM's default)"
    if not layers:
        return {}
    f.report.notes.append(f"{layers} MTP layer(s) recorded as speculative-decoding heads: "
                          "in memory only with serving.speculative_decoding")
    return {"speculative": {"kind": "mtp", "layers": layers, "source": source}}


def _glm4_moe(f: Fields) -> dict:
    """GLM-4.5 / 4.6 (glm4_moe): q, k, v biases, optional Q/K norm, DeepSeek-style MoE."""
    values = common_fields(f)
    if values["attention_bias"] == "all":
        values["attention_bias"] = "qkv"  # Glm4MoeAttention: o_proj has no bias
    values["qk_norm"] = f.flag("use_qk_norm", False)
    moe = _deepseek_moe(f, values["layers"], router_bias=True)  # e_score_correction_bias
    return values | {"moe": moe} | _mtp(f)


def _phi3(f: Fields) -> dict:
    """Phi-3 / Phi-4 (phi3): fused qkv_proj and gate_up_proj, which hold the same parameters
    as separate projections; a sliding_window, when set, applies to every layer."""
    f.report.notes.append("phi3 fuses qkv_proj and gate_up_proj (counted as separate "
                          "projections: the same parameters)")
    return _mistral(f)


_STATE_DTYPES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}
HYBRID_LAYER_KINDS = "linear_attention, full_attention"


def _linear_layers(f: Fields, layers: int) -> int:
    """Linear-attention layers: from layer_types, else every layer but each
    full_attention_interval-th (Qwen3-Next: 3 of 4)."""
    kinds = f.str_list("layer_types")
    if kinds is not None:
        if len(kinds) != layers:
            raise ModelImportError(msg("{where} has {count} entries for {layers} layers.",
                                       where=f.where("layer_types"), count=len(kinds),
                                       layers=layers))
        unknown = sorted(set(kinds) - {"linear_attention", "full_attention"})
        if unknown:
            raise ModelImportError(msg("{where} holds {unknown}; AI Sizer knows {known}.",
                                       where=f.where("layer_types"), unknown=", ".join(unknown),
                                       known=HYBRID_LAYER_KINDS))
        return kinds.count("linear_attention")
    interval = f.int("full_attention_interval", msg("the layout of linear and full layers"))
    f.report.derived.append("linear_attention.layers")
    return layers - layers // max(interval, 1)


def _gated_deltanet(f: Fields, layers: int) -> dict:
    dtype = str(f.data.get("mamba_ssm_dtype") or "bfloat16").removeprefix("torch.")
    return {
        "kind": "gated_deltanet",
        "layers": _linear_layers(f, layers),
        "key_heads": f.int("linear_num_key_heads", msg("the query/key heads of linear layers")),
        "value_heads": f.int("linear_num_value_heads", msg("the value heads of linear layers")),
        "key_head_dim": f.int("linear_key_head_dim", msg("the key width of linear layers")),
        "value_head_dim": f.int("linear_value_head_dim", msg("the value width of linear layers")),
        "conv_kernel": f.opt_int("linear_conv_kernel_dim") or 4,
        "state_precision": _STATE_DTYPES.get(dtype, "bf16"),
    }


def _qwen_hybrid(f: Fields, moe: bool, mtp_key: str, mtp_default: int) -> dict:
    """Qwen3-Next and Qwen3.5: gated attention on every full_attention_interval-th layer,
    Gated DeltaNet elsewhere, MoE (with a gated shared expert) or a dense MLP."""
    if moe and f.opt_int("intermediate_size") is None:
        # every layer is MoE (Qwen3.5 MoE configs leave the dense width out)
        f.report.derived.append("intermediate_size")
        f = Fields({**f.data, "intermediate_size": f.int(
            "moe_intermediate_size", msg("the width of one expert"))}, f.prefix, f.model_type,
            f.report)
    values = common_fields(f) | {"qk_norm": True, "attention_output_gate": True}
    layers = values["layers"]
    values["linear_attention"] = _gated_deltanet(f, layers)
    if moe:
        experts = _qwen_moe(f, layers)
        shared = f.opt_int("shared_expert_intermediate_size") or 0
        if shared:
            experts |= {"shared_experts": 1, "shared_intermediate_size": shared,
                        "shared_expert_gate": True}
        values["moe"] = experts
    return values | _mtp(f, mtp_key, mtp_default)


def _qwen3_next(f: Fields) -> dict:
    # vLLM's qwen3_next_mtp reads num_nextn_predict_layers and defaults it to 1
    return _qwen_hybrid(f, True, "num_nextn_predict_layers", 1)


def _qwen3_5_moe(f: Fields) -> dict:
    return _qwen_hybrid(f, True, "mtp_num_hidden_layers", 0)


def _qwen3_5(f: Fields) -> dict:
    return _qwen_hybrid(f, False, "mtp_num_hidden_layers", 0)


KIMI_LINEAR_CONTEXT = 1_048_576  # the 1M context of the Kimi Linear model card


def _kimi_linear(f: Fields) -> dict:
    """Kimi Linear: Kimi Delta Attention layers and MLA layers (linear_attn_config), MoE."""
    if f.opt_int("max_position_embeddings") is None:
        f.report.warn(msg(
            "{where} is not given (Kimi Linear's MLA layers use no positions); used "
            "{tokens:,} tokens, the context the Kimi Linear model card states.",
            where=f.where("max_position_embeddings"), tokens=KIMI_LINEAR_CONTEXT))
        f.report.derived.append("max_context_tokens")
        f = Fields({**f.data, "max_position_embeddings": KIMI_LINEAR_CONTEXT}, f.prefix,
                   f.model_type, f.report)
    values = common_fields(f)
    mla = _mla(f)
    values["head_dim"] = _mla_head_dim(f, mla)
    layers = values["layers"]
    experts = {
        "experts": f.int("num_experts", msg("the number of experts")),
        "experts_per_token": f.int("num_experts_per_token", msg("the experts each token uses")),
        "expert_intermediate_size": f.int("moe_intermediate_size", msg("the width of one expert")),
        "shared_experts": f.opt_int("num_shared_experts") or 0,
        "dense_layers": _kimi_dense_layers(f, layers),
        "router_bias": True,  # KimiMoE: gate.e_score_correction_bias
    }
    if experts["shared_experts"]:
        experts["shared_intermediate_size"] = experts["expert_intermediate_size"]
    return values | {"mla": mla, "moe": experts, "linear_attention": _kda(f, layers)}


def _kimi_dense_layers(f: Fields, layers: int) -> int:
    first_dense = f.opt_int("first_k_dense_replace") or 0
    every = max(f.opt_int("moe_layer_freq") or 1, 1)
    f.report.derived.append("moe.dense_layers")
    return layers - len([i for i in range(layers) if i >= first_dense and i % every == 0])


def _kda(f: Fields, layers: int) -> dict:
    config = f.data.get("linear_attn_config")
    if not isinstance(config, dict):
        raise ModelImportError(msg("{where} is missing (needed for the layout of the Kimi Delta "
                                   "Attention layers).", where=f.where("linear_attn_config")))
    kda = Fields(config, f"{f.prefix}linear_attn_config.", f.model_type, f.report)
    full = kda.int_list("full_attn_layers")
    linear = kda.int_list("kda_layers")
    count = len(linear) if linear is not None else layers - len(full or [])
    if full is None and linear is None:
        raise ModelImportError(msg("{where} is missing (needed for which layers attend fully).",
                                   where=kda.where("full_attn_layers")))
    heads = kda.int("num_heads", msg("the heads of Kimi Delta Attention"))
    width = kda.int("head_dim", msg("the head width of Kimi Delta Attention"))
    f.report.notes.append("Kimi Delta Attention keeps its recurrent state in FP32 (vLLM)")
    return {"kind": "kimi_delta", "layers": count, "key_heads": heads, "value_heads": heads,
            "key_head_dim": width, "value_head_dim": width,
            "conv_kernel": kda.opt_int("short_conv_kernel_size") or 4, "state_precision": "fp32"}


def _encoder(f: Fields) -> dict:
    """BERT and XLM-RoBERTa encoders (embedding models, cross-encoder rerankers)."""
    heads = f.int("num_attention_heads", msg("the number of query heads"))
    positions = f.int("max_position_embeddings", msg("the position table"))
    # RoBERTa offsets positions past the padding index: 8194 rows hold 8192 tokens
    offset = (f.opt_int("pad_token_id") or 0) + 1 if f.model_type == "xlm-roberta" else 0
    values = {
        "layers": f.int("num_hidden_layers", msg("the layer count")),
        "hidden_size": f.int("hidden_size", msg("the model width")),
        "attention_heads": heads,
        "kv_heads": heads,
        "intermediate_size": f.int("intermediate_size", msg("the MLP width")),
        "vocab_size": f.int("vocab_size", msg("the embedding size")),
        "max_context_tokens": max(positions - offset, 1),
        "position_embeddings": positions,
        "token_types": f.opt_int("type_vocab_size") or 0,
        "mlp": "plain", "norm": "layer", "attention_bias": "all", "mlp_bias": True,
        "tied_embeddings": True, "encoder": True,
    }
    f.report.derived.append("head_dim")
    return values | _encoder_task(f)


def _encoder_task(f: Fields) -> dict:
    names = [str(name) for name in f.data.get("architectures") or []]
    if any(name.endswith("ForSequenceClassification") for name in names):
        labels = f.data.get("id2label")
        count = len(labels) if isinstance(labels, dict) and labels else \
            (f.opt_int("num_labels") or 2)
        f.report.notes.append(f"sequence classifier with {count} label(s): a reranker")
        return {"task": "reranking", "classifier_labels": count}
    return {"task": "embedding", "pooler": True}


def _gemma2(f: Fields) -> dict:
    values = common_fields(f) | {"norms_per_layer": 4}
    layers = values["layers"]
    return values | _sliding(f, layers, _every_nth_global(layers, 2))


def _gemma3(f: Fields) -> dict:
    values = common_fields(f) | {"norms_per_layer": 4, "qk_norm": True}
    layers = values["layers"]

    def pattern_global() -> int:
        return _every_nth_global(
            layers, f.int("sliding_window_pattern", msg("the local/global layer pattern"))
        )()

    return values | _sliding(f, layers, pattern_global)


def _gpt_oss(f: Fields) -> dict:
    # GptOssAttention has a learned sink logit per head (transformers modeling_gpt_oss)
    values = common_fields(f) | {"attention_bias": "all", "mlp_bias": True,
                                 "attention_sinks": True}
    layers = values["layers"]
    per_token = f.opt_int("num_experts_per_tok") or f.int(
        "experts_per_token", msg("the experts each token uses")
    )
    values["moe"] = {
        "experts": f.int("num_local_experts", msg("the number of experts")),
        "experts_per_token": per_token,
        "expert_intermediate_size": values["intermediate_size"],
        "router_bias": True,
    }
    f.report.notes.append("attention sinks (one value per head and layer) are not counted")
    return values | _sliding(f, layers, _every_nth_global(layers, 2))


def _llama4(f: Fields) -> dict:
    values = common_fields(f)
    layers, expert_width = values["layers"], values["intermediate_size"]
    values["intermediate_size"] = f.int(
        "intermediate_size_mlp", msg("the width of the dense MLP layers"), "intermediate_size"
    )
    moe_layers = f.int_list("moe_layers") or _interleaved(f, layers)
    f.report.derived.append("moe.dense_layers")
    values["moe"] = {
        "experts": f.int("num_local_experts", msg("the number of experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": expert_width,
        "shared_experts": 1,
        "shared_intermediate_size": expert_width,
        "dense_layers": layers - len({i for i in moe_layers if 0 <= i < layers}),
    }
    if f.flag("use_qk_norm", False):
        f.report.notes.append("use_qk_norm is an L2 norm without weights (qk_norm left false)")
    if not f.opt_int("attention_chunk_size"):
        return values
    chunked = _sliding(f, layers, _llama4_global(f, layers), "attention_chunk_size")
    if chunked:
        f.report.notes.append(
            "chunked attention (attention_chunk_size) modelled as a sliding window"
        )
        f.report.derived.append("sliding_window")
    return values | chunked


def _interleaved(f: Fields, layers: int) -> list[int]:
    step = max(f.opt_int("interleave_moe_layer_step") or 1, 1)
    return [i for i in range(layers) if (i + 1) % step == 0]


def _llama4_global(f: Fields, layers: int) -> Callable[[], int]:
    """NoPE layers (``no_rope_layers`` entry 0) attend globally; the others are chunked."""

    def global_layers() -> int:
        flags = f.int_list("no_rope_layers")
        if flags and len(flags) == layers:
            return flags.count(0)
        interval = f.opt_int("no_rope_layer_interval") or 4
        if flags:
            f.report.warn(msg(
                "{where} has {count} entries for {layers} layers; used one global layer in "
                "every {interval} (no_rope_layer_interval).", where=f.where("no_rope_layers"),
                count=len(flags), layers=layers, interval=interval))
        return _every_nth_global(layers, interval)()

    return global_layers


_BUILDERS: dict[str, Callable[[Fields], dict]] = {
    "bert": _encoder,
    "xlm-roberta": _encoder,
    "glm4_moe": _glm4_moe,
    "phi3": _phi3,
    "deepseek_v32": _deepseek_v32,
    "qwen3_next": _qwen3_next,
    "qwen3_5_text": _qwen3_5,
    "qwen3_5_moe_text": _qwen3_5_moe,
    "kimi_linear": _kimi_linear,
    "llama": _llama,
    "mistral": _mistral,
    "mixtral": _mixtral,
    "qwen2": _qwen2,
    "qwen2_moe": _qwen2_moe,
    "qwen3": _qwen3,
    "qwen3_moe": _qwen3_moe,
    "deepseek_v2": _deepseek,
    "deepseek_v3": _deepseek,
    "gemma2": _gemma2,
    "gemma3_text": _gemma3,
    "gpt_oss": _gpt_oss,
    "llama4_text": _llama4,
}


# Multimodal wrappers whose language model is described by text_config.
_WRAPPERS = {"gemma3": "gemma3_text", "llama4": "llama4_text", "qwen3_5": "qwen3_5_text",
             "qwen3_5_moe": "qwen3_5_moe_text"}
SUPPORTED_MODEL_TYPES = tuple(sorted({*_BUILDERS, *_WRAPPERS}))

_ARCHITECTURES = {
    "LlamaForCausalLM": "llama",
    "MistralForCausalLM": "mistral",
    "MixtralForCausalLM": "mixtral",
    "Qwen2ForCausalLM": "qwen2",
    "Qwen2MoeForCausalLM": "qwen2_moe",
    "Qwen3ForCausalLM": "qwen3",
    "Qwen3MoeForCausalLM": "qwen3_moe",
    "DeepseekV2ForCausalLM": "deepseek_v2",
    "DeepseekV3ForCausalLM": "deepseek_v3",
    "Gemma2ForCausalLM": "gemma2",
    "Gemma3ForCausalLM": "gemma3_text",
    "Gemma3ForConditionalGeneration": "gemma3",
    "GptOssForCausalLM": "gpt_oss",
    "Llama4ForConditionalGeneration": "llama4",
    "Llama4ForCausalLM": "llama4_text",
    "Glm4MoeForCausalLM": "glm4_moe",
    "Phi3ForCausalLM": "phi3",
    "DeepseekV32ForCausalLM": "deepseek_v32",
    "Qwen3NextForCausalLM": "qwen3_next",
    "Qwen3_5ForConditionalGeneration": "qwen3_5",
    "Qwen3_5ForCausalLM": "qwen3_5_text",
    "Qwen3_5MoeForConditionalGeneration": "qwen3_5_moe",
    "Qwen3_5MoeForCausalLM": "qwen3_5_moe_text",
    "KimiLinearForCausalLM": "kimi_linear",
    "BertModel": "bert",
    "BertForSequenceClassification": "bert",
    "XLMRobertaModel": "xlm-roberta",
    "XLMRobertaForSequenceClassification": "xlm-roberta",
    "Qwen3Model": "qwen3",
}
_KNOWN = {*_BUILDERS, *_WRAPPERS}


def _by_architectures(config: dict) -> tuple[str, str] | None:
    """(model_type, class name) for the first class in ``architectures`` AI Sizer knows."""
    architectures = config.get("architectures")
    for name in architectures if isinstance(architectures, list) else []:
        if isinstance(name, str) and name in _ARCHITECTURES:
            return _ARCHITECTURES[name], name
    return None


def _model_type(config: dict, report: Findings | None = None) -> str:
    """The model_type to read ``config`` as: its own when AI Sizer knows it, else the one the
    ``architectures`` class implies (Kimi K2 is ``kimi_k2`` with DeepseekV3ForCausalLM)."""
    model_type = config.get("model_type")
    named = isinstance(model_type, str) and bool(model_type)
    if named and model_type in _KNOWN:
        return model_type
    found = _by_architectures(config)
    if found is not None:
        if named and report is not None:
            report.warn(msg(
                "model_type {model_type} is not one AI Sizer knows; read as {known} because "
                "architectures names {cls}.", model_type=model_type, known=found[0],
                cls=found[1]))
        return found[0]
    if named:
        return model_type
    raise ModelImportError(msg(
        "config.json: model_type is missing (needed to know the architecture), and "
        "architectures names no class AI Sizer knows."))


def _inner_type(text: dict, outer: str) -> str | None:
    """The language model's model_type inside ``text_config``."""
    inner = text.get("model_type")
    if isinstance(inner, str) and inner in _BUILDERS:
        return inner
    found = _by_architectures(text)
    if found is not None and found[0] in _BUILDERS:
        return found[0]
    return _WRAPPERS.get(outer)


def _language_section(config: dict, report: Findings) -> tuple[dict, str, str]:
    """(JSON object, its prefix, its model_type) that describes the language model."""
    model_type = _model_type(config, report)
    if model_type in _BUILDERS:
        return config, "", model_type
    text = config.get("text_config")
    if isinstance(text, dict):
        inner = _inner_type(text, model_type)
        if isinstance(inner, str) and inner in _BUILDERS:
            if model_type not in _WRAPPERS:
                report.warn(msg("model_type {model_type} is not supported as such; imported "
                                "its text_config ({inner}).", model_type=model_type,
                                inner=inner))
            return text, "text_config.", inner
    raise ModelImportError(msg(
        "config.json: model_type '{model_type}' is not supported; supported: {supported}.",
        model_type=model_type, supported=", ".join(SUPPORTED_MODEL_TYPES)))


def architecture(config: dict, report: Findings) -> dict:
    """ModelSpec fields (without provenance) read from config.json."""
    section, prefix, inner_type = _language_section(config, report)
    fields = Fields(section, prefix, inner_type, report)
    if prefix and "tie_word_embeddings" not in section and "tie_word_embeddings" in config:
        fields = Fields(
            {**section, "tie_word_embeddings": config["tie_word_embeddings"]},
            prefix,
            inner_type,
            report,
        )
    values = _BUILDERS[inner_type](fields)
    if "vision_config" in config:
        report.warn(msg(
            "config.json also describes a vision encoder (vision_config); only the language "
            "model is imported, but the encoder's weights are part of the checkpoint on disk."))
    own = config.get("model_type")
    values["family"] = own if isinstance(own, str) and own else _model_type(config)
    return values
