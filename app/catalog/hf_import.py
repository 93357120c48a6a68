"""Import a local Hugging Face model folder as a catalog model, and save it to the user catalog.

What is read, and nothing else (no weights are loaded, the network is never used):

- ``config.json``: the architecture (``model_type``, layer count, widths, heads, MoE, MLA,
  sliding-window layout). Multimodal configs are read through their ``text_config``.
- ``model.safetensors.index.json`` (``metadata.total_size``), or else the header of every
  ``*.safetensors`` file: the bytes of the weights on disk.
- ``config.json`` ``quantization_config`` or NVIDIA ModelOpt's ``hf_quant_config.json``, or
  else ``torch_dtype``: the precision the weights ship in, as one of AI Sizer's precision ids.

``read_model_folder`` returns an :class:`ImportedModel`; ``save_to_user_catalog`` writes its
``spec`` into ``<user catalog folder>/models.toml``. Every problem is a
:class:`ModelImportError` whose message names the file, the field and the value.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
import struct
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app import atomic, paths
from app.catalog import loader
from app.domain.catalog import ModelSpec
from app.domain.problems import Problem, composed, detail, verbatim
from app.i18n import Message, msg


class ModelImportError(ValueError):
    """A model folder (or the user catalog) that cannot be used; the message says why.

    ``message`` keeps the sentence as a Message for the window's language; ``str()`` is the
    English sentence.
    """

    def __init__(self, message: str | Message):
        self.message = composed(message) if isinstance(message, Message) else verbatim(message)
        super().__init__(self.message.text())


@dataclasses.dataclass(frozen=True)
class ImportedModel:
    """What a model folder holds, ready to be saved as a catalog entry.

    Attributes
    ----------
    spec : the architecture as a catalog model entry.
    weights_bytes_on_disk : bytes of all weight tensors [B], None when no weights were found.
    quantization : precision id the weights ship in (bf16, fp8, int4-awq, ...), None if unknown.
    kv_cache_quantization : KV-cache precision the checkpoint was calibrated for, if it says.
    warnings : plain sentences about what was assumed, ignored or not understood (English).
    files_read : names of the files in the folder that were read.
    warning_messages : the warnings as Messages, for the window's language.
    """

    spec: ModelSpec
    weights_bytes_on_disk: int | None
    quantization: str | None
    kv_cache_quantization: str | None = None
    warnings: list[str] = dataclasses.field(default_factory=list)
    files_read: list[str] = dataclasses.field(default_factory=list)
    warning_messages: list[Message] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class _Report:
    """What an import found out along the way (shared by the readers below)."""

    warnings: list[Message] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    derived: list[str] = dataclasses.field(default_factory=list)
    files_read: list[str] = dataclasses.field(default_factory=list)

    def warn(self, message: Message) -> None:
        """Add a warning (its string parameters are names and values, shown as given)."""
        self.warnings.append(composed(message))


# --------------------------------------------------------------------------- config.json fields

# Values transformers uses when a config.json leaves a field out (the real Gemma 3 configs omit
# these); using one is reported as a warning and the field is marked derived.
_LIBRARY_DEFAULTS: dict[str, dict[str, int]] = {
    "gemma3_text": {
        "vocab_size": 262208,
        "max_position_embeddings": 131072,
        "sliding_window_pattern": 6,
    },
}


class _Fields:
    """Typed reading of one JSON object of config.json; errors name the field and the value."""

    def __init__(self, data: dict, prefix: str, model_type: str, report: _Report) -> None:
        self.data = data
        self.prefix = prefix
        self.defaults = _LIBRARY_DEFAULTS.get(model_type, {})
        self.model_type = model_type
        self.report = report

    def where(self, key: str) -> str:
        """``config.json: text_config.num_hidden_layers`` style location of ``key``."""
        return f"config.json: {self.prefix}{key}"

    def int(self, key: str, purpose: Message, field: str | None = None) -> int:
        """A required whole number; a documented library default is used with a warning.

        ``purpose`` says what the number is needed for (``msg("the layer count")``)."""
        value = self.opt_int(key)
        if value is not None:
            return value
        if key in self.defaults:
            value = self.defaults[key]
            self.report.warn(msg(
                "{where} is not given; used {value}, the transformers default for {model_type}.",
                where=self.where(key), value=value, model_type=self.model_type))
            self.report.derived.append(field or key)
            return value
        raise ModelImportError(msg("{where} is missing (needed for {purpose}).",
                                   where=self.where(key), purpose=purpose))

    def opt_int(self, key: str) -> int | None:
        """A whole number, or None when the field is absent or null."""
        value = self.data.get(key)
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or isinstance(value, float) and not value.is_integer()):
            raise ModelImportError(msg("{where} is {value}; expected a whole number.",
                                       where=self.where(key), value=repr(value)))
        return int(value)

    def flag(self, key: str, default: bool) -> bool:
        """true/false, ``default`` when absent or null."""
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ModelImportError(msg("{where} is {value}; expected true or false.",
                                       where=self.where(key), value=repr(value)))
        return value

    def int_list(self, key: str) -> list[int] | None:
        """A list of whole numbers, or None when absent or null."""
        return self._list(
            key, lambda item: isinstance(item, int) and not isinstance(item, bool),
            lambda where, value: msg("{where} is {value}; expected a list of whole numbers.",
                                     where=where, value=value),
        )

    def str_list(self, key: str) -> list[str] | None:
        """A list of strings, or None when absent or null."""
        return self._list(key, lambda item: isinstance(item, str),
                          lambda where, value: msg("{where} is {value}; expected a list of "
                                                   "strings.", where=where, value=value))

    def _list(self, key: str, accepts: Callable[[Any], bool],
              refusal: Callable[[str, str], Message]) -> list | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(accepts(item) for item in value):
            raise ModelImportError(refusal(self.where(key), repr(value)))
        return value


# (ModelSpec field, config.json key, what it is needed for)
_COMMON_FIELDS = (
    ("layers", "num_hidden_layers", msg("the layer count")),
    ("hidden_size", "hidden_size", msg("the model width")),
    ("attention_heads", "num_attention_heads", msg("the number of query heads")),
    ("intermediate_size", "intermediate_size", msg("the MLP width")),
    ("vocab_size", "vocab_size", msg("the embedding and output-head size")),
    ("max_context_tokens", "max_position_embeddings", msg("the longest context")),
)
_CONFIG_KEY_OF = {field: key for field, key, _ in _COMMON_FIELDS} | {
    "kv_heads": "num_key_value_heads",
    "head_dim": "head_dim",
}
_TIED_BY_DEFAULT = {"gemma2", "gemma3_text"}
_MAX_LAYERS = 1000


def _common(f: _Fields) -> dict:
    """The fields every supported decoder-only transformer has."""
    values = {field: f.int(key, purpose, field) for field, key, purpose in _COMMON_FIELDS}
    layers, heads = values["layers"], values["attention_heads"]
    if not 1 <= layers <= _MAX_LAYERS:
        raise ModelImportError(msg("{where} is {value}; expected 1 to {most}.",
                                   where=f.where("num_hidden_layers"), value=layers,
                                   most=_MAX_LAYERS))
    if heads < 1:
        raise ModelImportError(msg("{where} is {value}; expected 1 or more.",
                                   where=f.where("num_attention_heads"), value=heads))
    values["kv_heads"] = _kv_heads(f, heads)
    values["head_dim"] = _head_dim(f, values["hidden_size"], heads)
    values["tied_embeddings"] = f.flag("tie_word_embeddings", f.model_type in _TIED_BY_DEFAULT)
    values["attention_bias"] = "all" if f.flag("attention_bias", False) else "none"
    values["mlp_bias"] = f.flag("mlp_bias", False)
    _note_rope_scaling(f, values["max_context_tokens"])
    return values


def _kv_heads(f: _Fields, heads: int) -> int:
    kv_heads = f.opt_int("num_key_value_heads")
    if kv_heads is None:
        f.report.warn(msg("{where} is not given; used {heads} (one KV head per query head, as "
                          "transformers does).", where=f.where("num_key_value_heads"), heads=heads))
        f.report.derived.append("kv_heads")
        return heads
    return kv_heads


def _head_dim(f: _Fields, hidden_size: int, heads: int) -> int:
    head_dim = f.opt_int("head_dim")
    if head_dim is None:
        f.report.derived.append("head_dim")
        return max(hidden_size // heads, 1)
    return head_dim


def _note_rope_scaling(f: _Fields, max_context: int) -> None:
    scaling = f.data.get("rope_scaling")
    if not isinstance(scaling, dict):
        return
    kind = scaling.get("rope_type") or scaling.get("type") or "unnamed"
    factor = scaling.get("factor")
    f.report.notes.append(f"rope_scaling {kind} (factor {factor})")
    original = scaling.get("original_max_position_embeddings")
    if isinstance(original, int | float) and isinstance(factor, int | float):
        extended = int(original * factor)
        if kind == "yarn" and extended > max_context:
            f.report.warn(msg(
                "{where} (yarn, factor {factor}) extends the context to {extended} tokens; "
                "max_context_tokens keeps max_position_embeddings ({context}), change it by "
                "hand if you serve the longer context.", where=f.where("rope_scaling"),
                factor=factor, extended=extended, context=max_context))


# --------------------------------------------------------------------------- sliding windows

_LAYER_KINDS = {"full_attention": True, "sliding_attention": False, "chunked_attention": False}


def _sliding(
    f: _Fields,
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


def _global_from_layer_types(f: _Fields, layers: int) -> int | None:
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


def _window_everywhere(f: _Fields) -> Callable[[], int | None]:
    """Mistral style: a window set in config.json applies to every layer."""
    return lambda: 0 if f.opt_int("sliding_window") else None


def _every_nth_global(layers: int, period: int) -> Callable[[], int]:
    """Layers ``period-1, 2*period-1, ...`` are global (Gemma, gpt-oss, Llama 4 NoPE layers)."""
    return lambda: layers // max(period, 1)


def _qwen_window(f: _Fields, layers: int) -> Callable[[], int | None]:
    """Qwen: with use_sliding_window, layers from max_window_layers on are local."""

    def global_layers() -> int | None:
        if not f.flag("use_sliding_window", False) or not f.opt_int("sliding_window"):
            return None
        full_layers = f.opt_int("max_window_layers")
        return layers if full_layers is None else min(max(full_layers, 0), layers)

    return global_layers


# --------------------------------------------------------------------------- families


def _llama(f: _Fields) -> dict:
    return _common(f)


def _mistral(f: _Fields) -> dict:
    values = _common(f)
    return values | _sliding(f, values["layers"], _window_everywhere(f))


def _mixtral(f: _Fields) -> dict:
    values = _mistral(f)
    values["moe"] = {
        "experts": f.int("num_local_experts", msg("the number of experts")),
        "experts_per_token": f.int("num_experts_per_tok", msg("the experts each token uses")),
        "expert_intermediate_size": values["intermediate_size"],
    }
    return values


def _qwen2(f: _Fields) -> dict:
    values = _common(f) | {"attention_bias": "qkv"}
    return values | _sliding(f, values["layers"], _qwen_window(f, values["layers"]))


def _qwen3(f: _Fields) -> dict:
    values = _common(f) | {"qk_norm": True}
    return values | _sliding(f, values["layers"], _qwen_window(f, values["layers"]))


def _qwen_moe(f: _Fields, layers: int) -> dict:
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


def _qwen2_moe(f: _Fields) -> dict:
    values = _qwen2(f)
    moe = _qwen_moe(f, values["layers"])
    shared = f.opt_int("shared_expert_intermediate_size") or 0
    if shared:
        moe |= {"shared_experts": 1, "shared_intermediate_size": shared}
        f.report.notes.append(
            "the shared expert's sigmoid gate (hidden_size per layer) is not counted"
        )
    return values | {"moe": moe}


def _qwen3_moe(f: _Fields) -> dict:
    values = _qwen3(f)
    return values | {"moe": _qwen_moe(f, values["layers"])}


def _deepseek(f: _Fields) -> dict:
    values = _common(f)
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


def _deepseek_moe(f: _Fields, layers: int) -> dict:
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


def _warn_mtp(f: _Fields) -> None:
    extra = f.opt_int("num_nextn_predict_layers") or 0
    if extra:
        f.report.warn(msg(
            "{where} is {extra}: the multi-token-prediction layer is not counted in the "
            "architecture (engines load it only for speculative decoding), but its weights are "
            "part of the checkpoint on disk.", where=f.where("num_nextn_predict_layers"),
            extra=extra))


def _gemma2(f: _Fields) -> dict:
    values = _common(f) | {"norms_per_layer": 4}
    layers = values["layers"]
    return values | _sliding(f, layers, _every_nth_global(layers, 2))


def _gemma3(f: _Fields) -> dict:
    values = _common(f) | {"norms_per_layer": 4, "qk_norm": True}
    layers = values["layers"]

    def pattern_global() -> int:
        return _every_nth_global(
            layers, f.int("sliding_window_pattern", msg("the local/global layer pattern"))
        )()

    return values | _sliding(f, layers, pattern_global)


def _gpt_oss(f: _Fields) -> dict:
    values = _common(f) | {"attention_bias": "all", "mlp_bias": True}
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


def _llama4(f: _Fields) -> dict:
    values = _common(f)
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


def _interleaved(f: _Fields, layers: int) -> list[int]:
    step = max(f.opt_int("interleave_moe_layer_step") or 1, 1)
    return [i for i in range(layers) if (i + 1) % step == 0]


def _llama4_global(f: _Fields, layers: int) -> Callable[[], int]:
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


_BUILDERS: dict[str, Callable[[_Fields], dict]] = {
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


def _language_section(config: dict, report: _Report) -> tuple[dict, str, str]:
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


def _architecture(config: dict, report: _Report) -> dict:
    """ModelSpec fields (without provenance) read from config.json."""
    section, prefix, inner_type = _language_section(config, report)
    fields = _Fields(section, prefix, inner_type, report)
    if prefix and "tie_word_embeddings" not in section and "tie_word_embeddings" in config:
        fields = _Fields(
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


# --------------------------------------------------------------------------- precision

_DTYPES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "float32": "fp32",
    "bf16": "bf16",
    "fp16": "fp16",
    "fp32": "fp32",
    "half": "fp16",
    "float": "fp32",
}

_MODELOPT_ALGOS = {
    "FP8": "fp8",
    "FP8_BLOCK_SCALES": "fp8",
    "FP8_PER_CHANNEL_PER_TOKEN": "fp8",
    "FP8_PB_WO": "fp8",
    "NVFP4": "nvfp4",
    "NVFP4_AWQ": "nvfp4",
    "W4A8_NVFP4_FP8": "nvfp4",
    "W4A16_AWQ": "int4-awq",
    "W4A8_AWQ": "int4-awq",
    "W4A16_GPTQ": "int4-gptq",
    "W8A8_SQ_PER_CHANNEL": "int8",
    "W8A8_SQ_PER_TENSOR_PLUGIN": "int8",
    "W8A8_SQ_PER_CHANNEL_PER_TOKEN_PLUGIN": "int8",
    "W8A8_SQ_PER_CHANNEL_PER_TENSOR_PLUGIN": "int8",
    "W8A8_SQ_PER_TENSOR_PER_TOKEN_PLUGIN": "int8",
    "INT8_SQ": "int8",
    "W8A16": "int8",
    "INT8": "int8",
    "MXFP4": "mxfp4",
    "W4A8_MXFP4_FP8": "mxfp4",
    "W4A8_MXFP4_MXFP8": "mxfp4",
    "W4A16_MXFP4": "mxfp4",
}
_KV_ALGOS = {"FP8": "fp8", "INT8": "int8"}


def _unknown_precision(report: _Report, where: str, value: Any) -> None:
    report.warn(msg(
        "{where} is {value}, a format AI Sizer cannot map to its precisions; the weight "
        "precision is unknown, choose precision.weights by hand.", where=where,
        value=repr(value)))


def _by_bits(qc: dict, report: _Report, method: str, table: dict[int, str]) -> str | None:
    bits = qc.get("bits", qc.get("w_bit"))
    if isinstance(bits, int) and bits in table:
        return table[bits]
    _unknown_precision(report, f"config.json: quantization_config.bits ({method})", bits)
    return None


def _compressed_tensors(qc: dict, report: _Report) -> str | None:
    groups = qc.get("config_groups")
    weights = {}
    if isinstance(groups, dict) and groups:
        first = next(iter(groups.values()))
        weights = first.get("weights") if isinstance(first, dict) else {}
    weights = weights if isinstance(weights, dict) else {}
    kind, bits = weights.get("type"), weights.get("num_bits")
    if kind == "float" and bits == 8:
        return "fp8"
    if kind == "float" and bits == 4:
        return "mxfp4" if weights.get("group_size") == 32 else "nvfp4"
    if kind == "int" and bits == 8:
        return "int8"
    if kind == "int" and bits == 4:
        report.notes.append(
            "compressed-tensors int4 weights sized as int4-gptq (4-bit weights "
            "with 16-bit group scales)"
        )
        return "int4-gptq"
    _unknown_precision(
        report, "config.json: quantization_config.config_groups weights", weights or groups
    )
    return None


def _bitsandbytes(qc: dict, report: _Report) -> str | None:
    if qc.get("load_in_8bit"):
        return "int8"
    _unknown_precision(
        report,
        "config.json: quantization_config (bitsandbytes)",
        qc.get("bnb_4bit_quant_type", "4-bit"),
    )
    return None


def _modelopt_algo(algo: Any, where: str, report: _Report) -> str | None:
    precision = _MODELOPT_ALGOS.get(str(algo).upper()) if algo is not None else None
    if precision is None:
        _unknown_precision(report, where, algo)
    return precision


_QUANT_METHODS: dict[str, Callable[[dict, _Report], str | None]] = {
    "fp8": lambda qc, report: "fp8",
    "fbgemm_fp8": lambda qc, report: "fp8",
    "mxfp4": lambda qc, report: "mxfp4",
    "awq": lambda qc, report: _by_bits(qc, report, "awq", {4: "int4-awq"}),
    "gptq": lambda qc, report: _by_bits(qc, report, "gptq", {4: "int4-gptq", 8: "int8"}),
    "compressed-tensors": _compressed_tensors,
    "bitsandbytes": _bitsandbytes,
    "modelopt": lambda qc, report: _modelopt_algo(
        qc.get("quant_algo"), "config.json: quantization_config.quant_algo", report
    ),
}


def _from_quantization_config(qc: Any, report: _Report) -> str | None:
    if not isinstance(qc, dict):
        raise ModelImportError(msg("config.json: quantization_config is {value}; expected an "
                                   "object.", value=repr(qc)))
    method = str(qc.get("quant_method", "")).lower()
    handler = _QUANT_METHODS.get(method)
    if handler is None:
        _unknown_precision(report, "config.json: quantization_config.quant_method", method)
        return None
    report.notes.append(f"quantization_config quant_method {method}")
    _note_unconverted(qc, report)
    return handler(qc, report)


def _note_unconverted(qc: dict, report: _Report) -> None:
    kept = qc.get("modules_to_not_convert") or qc.get("ignore")
    if isinstance(kept, list) and any("attn" in str(name) for name in kept):
        report.warn(msg(
            "The attention weights stay in 16 bit in this checkpoint (quantization_config "
            "keeps them unconverted); sizing all weights in the quantised format slightly "
            "underestimates them."))


def _from_modelopt(path: Path, report: _Report) -> tuple[str | None, str | None]:
    data = _read_json_object(path)
    report.files_read.append(path.name)
    section = data.get("quantization")
    if not isinstance(section, dict):
        raise ModelImportError(msg(
            "{file}: quantization is missing (needed for the weight precision).",
            file=path.name))
    report.notes.append(f"{path.name} quant_algo {section.get('quant_algo')}")
    weights = _modelopt_algo(
        section.get("quant_algo"), f"{path.name}: quantization.quant_algo", report
    )
    return weights, _kv_from_algo(section.get("kv_cache_quant_algo"), path.name, report)


def _kv_from_algo(algo: Any, file: str, report: _Report) -> str | None:
    if algo is None:
        return None
    precision = _KV_ALGOS.get(str(algo).upper())
    if precision is None:
        report.warn(msg(
            "{file}: kv_cache_quant_algo {algo} is not a KV-cache format AI Sizer knows; "
            "choose precision.kv_cache by hand.", file=file, algo=repr(algo)))
    return precision


def _kv_from_scheme(qc: Any) -> str | None:
    scheme = qc.get("kv_cache_scheme") if isinstance(qc, dict) else None
    if not isinstance(scheme, dict) or scheme.get("num_bits") != 8:
        return None
    return {"float": "fp8", "int": "int8"}.get(str(scheme.get("type")))


def _from_dtype(config: dict, section: dict, report: _Report) -> str | None:
    for data in (config, section):
        for key in ("torch_dtype", "dtype"):
            value = data.get(key)
            if value is None:
                continue
            precision = _DTYPES.get(str(value).removeprefix("torch."))
            if precision is None:
                _unknown_precision(report, f"config.json: {key}", value)
            return precision
    report.warn(msg(
        "config.json gives no torch_dtype; the weight precision is unknown "
        "(bf16 assumed for native_precision)."))
    return None


def _precision(config: dict, folder: Path, report: _Report) -> tuple[str | None, str | None]:
    """(weights precision id, KV-cache precision id) the checkpoint ships in."""
    section = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    qc = config.get("quantization_config") or section.get("quantization_config")
    if qc is not None:
        return _from_quantization_config(qc, report), _kv_from_scheme(qc)
    modelopt = folder / "hf_quant_config.json"
    if modelopt.is_file():
        return _from_modelopt(modelopt, report)
    return _from_dtype(config, section, report), None


# --------------------------------------------------------------------------- weights on disk

_INDEX_FILES = ("model.safetensors.index.json", "pytorch_model.bin.index.json")
_MAX_HEADER_BYTES = 100_000_000  # the safetensors format's own limit


def safetensors_tensor_bytes(path: Path) -> int:
    """Bytes of all tensors in one ``.safetensors`` file, read from its header only [B].

    The file starts with an 8-byte little-endian header length, then a JSON object that
    maps each tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}``; the tensor
    occupies ``end - begin`` bytes. ``__metadata__`` is skipped. Raises ValueError for a file
    that does not follow this layout.
    """
    with path.open("rb") as handle:
        prefix = handle.read(8)
        if len(prefix) != 8:
            raise ValueError("it is shorter than the 8-byte header length")
        (length,) = struct.unpack("<Q", prefix)
        if length > min(_MAX_HEADER_BYTES, path.stat().st_size - 8):
            raise ValueError(f"its header length {length} does not fit the file")
        header = json.loads(handle.read(length))
    if not isinstance(header, dict):
        raise ValueError("its header is not a JSON object")
    return sum(
        _tensor_bytes(name, entry) for name, entry in header.items() if name != "__metadata__"
    )


def _tensor_bytes(name: str, entry: Any) -> int:
    offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
    valid = (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
        and 0 <= offsets[0] <= offsets[1]
    )
    if not valid:
        raise ValueError(f"tensor {name} has no valid data_offsets ({offsets!r})")
    return offsets[1] - offsets[0]


def _index_total(path: Path, report: _Report) -> int | None:
    try:
        total = json.loads(path.read_text(encoding="utf-8"))["metadata"]["total_size"]
        total = total if isinstance(total, int) else int(float(total))
        if total < 0:
            raise ValueError(f"total_size is {total}")
    except (OSError, ValueError, KeyError, TypeError, OverflowError) as exc:
        report.warn(msg(
            "{file} has no usable metadata.total_size ({error}); summing the safetensors "
            "headers instead.", file=path.name, error=str(exc)))
        return None
    report.files_read.append(path.name)
    return total


def _safetensors_files(folder: Path, report: _Report) -> list[Path]:
    files = sorted(folder.glob("*.safetensors"))
    consolidated = [p for p in files if p.name.startswith("consolidated")]
    if consolidated and len(consolidated) < len(files):
        report.notes.append("consolidated*.safetensors (Mistral format copy) not counted")
        files = [p for p in files if p not in consolidated]
    return files


def _weights_bytes(folder: Path, report: _Report) -> int | None:
    """Bytes of the weights on disk: index total_size, else the sum of safetensors headers."""
    for name in _INDEX_FILES:
        if (folder / name).is_file():
            total = _index_total(folder / name, report)
            if total is not None:
                return total
    files = _safetensors_files(folder, report)
    if not files:
        report.warn(msg(
            "No safetensors index or *.safetensors files in the folder; "
            "weights_bytes_on_disk is unknown."))
        return None
    try:
        total = sum(safetensors_tensor_bytes(path) for path in files)
    except (OSError, ValueError) as exc:
        report.warn(msg(
            "A safetensors file could not be read ({error}); weights_bytes_on_disk is unknown.",
            error=str(exc)))
        return None
    report.files_read.append(f"{len(files)} safetensors header(s)")
    return total


# --------------------------------------------------------------------------- reading a folder

_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._+-]*$")


def slugify(text: str) -> str:
    """A catalog id from a name: lower case, runs of other characters become one ``-``."""
    slug = re.sub(r"[^a-z0-9._+-]+", "-", text.lower())
    return re.sub(r"-{2,}", "-", slug).strip("-._+")


def _display_name(folder: Path, config: dict) -> str:
    """Folder name; ``org/name`` for a Hugging Face cache snapshot folder."""
    parent = folder.parent
    if parent.name == "snapshots" and parent.parent.name.startswith("models--"):
        return parent.parent.name.removeprefix("models--").replace("--", "/")
    if folder.name:
        return folder.name
    fallback = config.get("_name_or_path")
    return str(fallback) if isinstance(fallback, str) and fallback else "imported model"


def _entry_id(name: str, model_id: str | None) -> str:
    if model_id is None:
        model_id = slugify(name.rsplit("/", 1)[-1])
        if not model_id:
            raise ModelImportError(msg("cannot make a catalog id from the name '{name}'; give "
                                       "one.", name=name))
    if not _ID_PATTERN.match(model_id):
        raise ModelImportError(msg(
            "model id '{model_id}' is not valid: use lower-case letters, digits and . _ + -, "
            "starting with a letter or digit.", model_id=model_id))
    return model_id


def _read_json_object(path: Path) -> dict:
    """A JSON file holding an object; every failure is one readable sentence."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ModelImportError(msg("{file} in {folder} is not UTF-8 text.", file=path.name,
                                   folder=str(path.parent))) from None
    except OSError as exc:
        raise _cannot(False, path, exc) from None
    except json.JSONDecodeError as exc:
        raise ModelImportError(msg(
            "{file} in {folder} is not valid JSON: {error} at line {line} column {column}.",
            file=path.name, folder=str(path.parent), error=exc.msg, line=exc.lineno,
            column=exc.colno)) from None
    if not isinstance(data, dict):
        raise ModelImportError(msg("{file} in {folder} must hold a JSON object, not {kind}.",
                                   file=path.name, folder=str(path.parent),
                                   kind=type(data).__name__))
    return data


def _read_config(folder: Path) -> dict:
    if not folder.exists():
        raise ModelImportError(msg("model folder {folder} does not exist.", folder=str(folder)))
    if not folder.is_dir():
        raise ModelImportError(msg("{folder} is not a folder; give the folder that holds "
                                   "config.json.", folder=str(folder)))
    path = folder / "config.json"
    if not path.is_file():
        if any(folder.glob("*.gguf")):
            raise ModelImportError(msg("no config.json in {folder}; a Hugging Face model folder "
                                       "needs one (GGUF files are not supported).",
                                       folder=str(folder)))
        raise ModelImportError(msg("no config.json in {folder}; a Hugging Face model folder "
                                   "needs one.", folder=str(folder)))
    return _read_json_object(path)


def _spec_error(exc: ValidationError) -> ModelImportError:
    """A pydantic error on ModelSpec as one sentence naming the config.json field."""
    parts = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"])
        if field:
            key = _CONFIG_KEY_OF.get(field, field)
            named = key if key == field else f"{key} ({field})"
            parts.append(Problem(field=f"{named} = {error.get('input')!r}", detail=detail(error)))
        else:
            parts.append(detail(error))
    return ModelImportError(msg("config.json describes a model AI Sizer cannot use: {problems}.",
                                problems=parts))


def _cannot(writing: bool, path: Path, exc: OSError) -> ModelImportError:
    """Reading or writing ``path`` failed; the operating system's reason is given as it is."""
    reason = str(exc.strerror or exc)
    if writing:
        return ModelImportError(msg("cannot write {path}: {reason}.", path=str(path),
                                    reason=reason))
    return ModelImportError(msg("cannot read {path}: {reason}.", path=str(path), reason=reason))


def _notes(model_type: str, report: _Report) -> str:
    text = f"Imported from {', '.join(report.files_read)} (model_type {model_type})."
    if report.notes:
        text += " Details: " + "; ".join(report.notes) + "."
    return text


def read_model_folder(folder: Path, model_id: str | None = None) -> ImportedModel:
    """Read a local Hugging Face model folder into a catalog model entry.

    Parameters
    ----------
    folder : the folder that holds config.json (and the weights, optionally).
    model_id : catalog id to give the entry; default: a slug of the folder name.

    Raises
    ------
    ModelImportError
        Missing folder or config.json, invalid JSON, an unsupported model_type, or a
        missing or invalid field (the message names the file, the field and the value).
    """
    folder = Path(folder).expanduser().resolve()
    config = _read_config(folder)
    report = _Report(files_read=["config.json"])
    values = _architecture(config, report)
    quantization, kv_quantization = _precision(config, folder, report)
    weights = _weights_bytes(folder, report)
    name = _display_name(folder, config)
    values |= {
        "id": _entry_id(name, model_id),
        "name": name,
        "as_of": dt.date.today(),
        "source": f"local model folder {folder} (config.json)",
        "native_precision": quantization or "bf16",
        "published_params": None,
        "derived": sorted(set(report.derived)),
        "notes": _notes(values["family"], report),
    }
    try:
        spec = ModelSpec.model_validate(values)
    except ValidationError as exc:
        raise _spec_error(exc) from None
    return ImportedModel(
        spec, weights, quantization, kv_quantization, [w.text() for w in report.warnings],
        report.files_read, report.warnings
    )


# --------------------------------------------------------------------------- user catalog

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}
_HEADER = (
    "# AI Sizer user catalog: models added with `aisizer import-model` or by hand.\n"
    "# Rewritten by AI Sizer on each import; comments are not kept.\n"
)


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:  # lone surrogate (undecodable file name)
            out.append("\ufffd")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise (``"llama-3.1-8b"``)."""
    return key if _BARE_KEY.match(key) else toml_string(key)


def _toml_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def toml_value(value: Any) -> str:
    """One TOML value: string, bool, number, date/time, array or inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _toml_float(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} to TOML")


def _key_values(table: dict) -> list[str]:
    return [
        f"{toml_key(str(k))} = {toml_value(v)}" for k, v in table.items() if not isinstance(v, dict)
    ]


def _write_table(lines: list[str], path: list[str], table: dict) -> None:
    lines += ["", "[" + ".".join(toml_key(part) for part in path) + "]", *_key_values(table)]
    for key, value in table.items():
        if isinstance(value, dict):
            _write_table(lines, [*path, str(key)], value)


def dumps_toml(data: dict) -> str:
    """``data`` (as tomllib reads it) as TOML text; nested dicts become ``[a.b]`` tables."""
    lines = _key_values(data)
    for key, value in data.items():
        if isinstance(value, dict):
            _write_table(lines, [str(key)], value)
    return "\n".join(lines).lstrip("\n") + "\n"


def _read_catalog_file(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ModelImportError(msg(
            "{path} is not valid TOML ({error}); it was left unchanged, fix or move it and "
            "import again.", path=str(path), error=str(exc))) from None
    except OSError as exc:
        raise _cannot(False, path, exc) from None


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, then replace ``path`` with it."""
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise _cannot(True, path, exc) from None


def save_to_user_catalog(spec: ModelSpec, folder: Path | None = None) -> Path:
    """Add or replace ``spec`` in ``models.toml`` of the user catalog folder; return its path.

    ``folder`` defaults to ``app.paths.user_catalog_dir()``. The other entries of the file are
    kept (its comments are not); the file is replaced atomically and the catalog cache cleared.
    """
    path = Path(folder if folder is not None else paths.user_catalog_dir()) / "models.toml"
    data = _read_catalog_file(path)
    data.setdefault("catalog_version", "user")
    data[spec.id] = spec.model_dump(mode="python", exclude_none=True, exclude={"id"})
    text = _HEADER + dumps_toml(data)
    tomllib.loads(text)  # never replace a good file with one that does not parse
    _write_atomically(path, text)
    loader.clear_cache()
    return path
