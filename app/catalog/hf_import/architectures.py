"""The architecture from config.json: one builder per model_type, sliding windows, MoE, MLA.

Multimodal configs are read through their ``text_config``.
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


def _deepseek(f: Fields) -> dict:
    values = common_fields(f)
    mla = {
        "q_lora_rank": f.opt_int("q_lora_rank"),
        "kv_lora_rank": f.int("kv_lora_rank", msg("the compressed KV width of MLA")),
        "qk_rope_head_dim": f.int("qk_rope_head_dim", msg("the RoPE part of each MLA head")),
        "qk_nope_head_dim": f.int("qk_nope_head_dim", msg("the non-RoPE part of each MLA head")),
        "v_head_dim": f.int("v_head_dim", msg("the value width of each MLA head")),
    }
    values["head_dim"] = mla["qk_rope_head_dim"] + mla["qk_nope_head_dim"]
    f.report.derived.append("head_dim")
    f.report.notes.append("head_dim = qk_nope_head_dim + qk_rope_head_dim (MLA)")
    _warn_mtp(f)
    return values | {"mla": mla, "moe": _deepseek_moe(f, values["layers"])}


def _deepseek_moe(f: Fields, layers: int) -> dict:
    first_dense = f.opt_int("first_k_dense_replace") or 0
    every = max(f.opt_int("moe_layer_freq") or 1, 1)
    moe_layers = [i for i in range(layers) if i >= first_dense and i % every == 0]
    f.report.derived.append("moe.dense_layers")
    expert_width = f.int("moe_intermediate_size", msg("the width of one expert"))
    shared = f.opt_int("n_shared_experts") or 0
    return {
        "experts": f.int("n_routed_experts", msg("the number of routed experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": expert_width,
        "shared_experts": shared,
        "shared_intermediate_size": expert_width if shared else None,
        "dense_layers": layers - len(moe_layers),
        "router_bias": f.data.get("topk_method") == "noaux_tc",
    }


def _warn_mtp(f: Fields) -> None:
    extra = f.opt_int("num_nextn_predict_layers") or 0
    if extra:
        f.report.warn(msg(
            "{where} is {extra}: the multi-token-prediction layer is not counted in the "
            "architecture (engines load it only for speculative decoding), but its weights are "
            "part of the checkpoint on disk.", where=f.where("num_nextn_predict_layers"),
            extra=extra))


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
    values = common_fields(f) | {"attention_bias": "all", "mlp_bias": True}
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
_WRAPPERS = {"gemma3": "gemma3_text", "llama4": "llama4_text"}
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
}


def _model_type(config: dict) -> str:
    model_type = config.get("model_type")
    if isinstance(model_type, str) and model_type:
        return model_type
    architectures = config.get("architectures")
    for name in architectures if isinstance(architectures, list) else []:
        if isinstance(name, str) and name in _ARCHITECTURES:
            return _ARCHITECTURES[name]
    raise ModelImportError(msg(
        "config.json: model_type is missing (needed to know the architecture), and "
        "architectures names no class AI Sizer knows."))


def _language_section(config: dict, report: Findings) -> tuple[dict, str, str]:
    """(JSON object, its prefix, its model_type) that describes the language model."""
    model_type = _model_type(config)
    if model_type in _BUILDERS:
        return config, "", model_type
    text = config.get("text_config")
    if isinstance(text, dict):
        inner = text.get("model_type") or _WRAPPERS.get(model_type)
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
    values["family"] = _model_type(config)
    return values
