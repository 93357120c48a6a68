"""Reading config.json: typed fields, and the fields every supported decoder has."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.catalog.hf_import.findings import Findings, ModelImportError
from app.i18n import Message, msg

# Values transformers uses when a config.json leaves a field out (the real Gemma 3 configs omit
# these); using one is reported as a warning and the field is marked derived.
_LIBRARY_DEFAULTS: dict[str, dict[str, int]] = {
    "gemma3_text": {
        "vocab_size": 262208,
        "max_position_embeddings": 131072,
        "sliding_window_pattern": 6,
    },
}


class Fields:
    """Typed reading of one JSON object of config.json; errors name the field and the value."""

    def __init__(self, data: dict, prefix: str, model_type: str, report: Findings) -> None:
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
CONFIG_KEY_OF = {field: key for field, key, _ in _COMMON_FIELDS} | {
    "kv_heads": "num_key_value_heads",
    "head_dim": "head_dim",
}
_TIED_BY_DEFAULT = {"gemma2", "gemma3_text"}
_MAX_LAYERS = 1000


def common_fields(f: Fields) -> dict:
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


def _kv_heads(f: Fields, heads: int) -> int:
    kv_heads = f.opt_int("num_key_value_heads")
    if kv_heads is None:
        f.report.warn(msg("{where} is not given; used {heads} (one KV head per query head, as "
                          "transformers does).", where=f.where("num_key_value_heads"), heads=heads))
        f.report.derived.append("kv_heads")
        return heads
    return kv_heads


def _head_dim(f: Fields, hidden_size: int, heads: int) -> int:
    head_dim = f.opt_int("head_dim")
    if head_dim is None:
        f.report.derived.append("head_dim")
        return max(hidden_size // heads, 1)
    return head_dim


def _note_rope_scaling(f: Fields, max_context: int) -> None:
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
