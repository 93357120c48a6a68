"""The precision the weights ship in: quantization_config, ModelOpt's hf_quant_config.json
or torch_dtype, as one of AI Sizer's precision ids (and the KV cache's, when it says)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.catalog.hf_import.findings import Findings, ModelImportError, read_json_object
from app.i18n import msg

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
    "W8A16": "int8-gptq",
    "INT8": "int8",
    "MXFP4": "mxfp4",
    "W4A8_MXFP4_FP8": "mxfp4",
    "W4A8_MXFP4_MXFP8": "mxfp4",
    "W4A16_MXFP4": "mxfp4",
}
_KV_ALGOS = {"FP8": "fp8", "INT8": "int8"}
# quant_method values whose kernels quantise only the MoE experts: vLLM's Mxfp4Config gives
# every linear layer UnquantizedLinearMethod and Mxfp4MoEMethod to FusedMoE (mxfp4.py).
EXPERTS_ONLY_METHODS = {"mxfp4"}


def experts_only(config: dict) -> bool:
    """Whether the checkpoint's quantisation covers only the expert matrices."""
    section = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    qc = config.get("quantization_config") or section.get("quantization_config")
    return isinstance(qc, dict) and str(qc.get("quant_method", "")).lower() in \
        EXPERTS_ONLY_METHODS


def _unknown_precision(report: Findings, where: str, value: Any) -> None:
    report.warn(msg(
        "{where} is {value}, a format AI Sizer cannot map to its precisions; the weight "
        "precision is unknown, choose precision.weights by hand.", where=where,
        value=repr(value)))


def _by_bits(qc: dict, report: Findings, method: str, table: dict[int, str]) -> str | None:
    bits = qc.get("bits", qc.get("w_bit"))
    if isinstance(bits, int) and bits in table:
        return table[bits]
    _unknown_precision(report, f"config.json: quantization_config.bits ({method})", bits)
    return None


def _compressed_tensors(qc: dict, report: Findings) -> str | None:
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
        # W8A8 when the activations are quantised too, else weight-only (W8A16)
        return "int8" if first.get("input_activations") else "int8-gptq"
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


def _bitsandbytes(qc: dict, report: Findings) -> str | None:
    if qc.get("load_in_8bit"):
        return "int8"
    _unknown_precision(
        report,
        "config.json: quantization_config (bitsandbytes)",
        qc.get("bnb_4bit_quant_type", "4-bit"),
    )
    return None


def _modelopt_algo(algo: Any, where: str, report: Findings) -> str | None:
    precision = _MODELOPT_ALGOS.get(str(algo).upper()) if algo is not None else None
    if precision is None:
        _unknown_precision(report, where, algo)
    return precision


_QUANT_METHODS: dict[str, Callable[[dict, Findings], str | None]] = {
    "fp8": lambda qc, report: "fp8",
    "fbgemm_fp8": lambda qc, report: "fp8",
    "mxfp4": lambda qc, report: "mxfp4",
    "awq": lambda qc, report: _by_bits(qc, report, "awq", {4: "int4-awq"}),
    "gptq": lambda qc, report: _by_bits(qc, report, "gptq", {4: "int4-gptq", 8: "int8-gptq"}),
    "compressed-tensors": _compressed_tensors,
    "bitsandbytes": _bitsandbytes,
    "modelopt": lambda qc, report: _modelopt_algo(
        qc.get("quant_algo"), "config.json: quantization_config.quant_algo", report
    ),
}


def _from_quantization_config(qc: Any, report: Findings) -> str | None:
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


def _note_unconverted(qc: dict, report: Findings) -> None:
    if str(qc.get("quant_method", "")).lower() in EXPERTS_ONLY_METHODS:
        report.notes.append("the shipped format quantises the expert matrices only "
                            "(native_quantised experts-only): attention stays in 16 bit")
        return
    kept = qc.get("modules_to_not_convert") or qc.get("ignore")
    if isinstance(kept, list) and any("attn" in str(name) for name in kept):
        report.warn(msg(
            "The attention weights stay in 16 bit in this checkpoint (quantization_config "
            "keeps them unconverted); sizing all weights in the quantised format slightly "
            "underestimates them."))


def _from_modelopt(path: Path, report: Findings) -> tuple[str | None, str | None]:
    data = read_json_object(path)
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


def _kv_from_algo(algo: Any, file: str, report: Findings) -> str | None:
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


def _from_dtype(config: dict, section: dict, report: Findings) -> str | None:
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


def shipped_precision(config: dict, folder: Path,
                      report: Findings) -> tuple[str | None, str | None]:
    """(weights precision id, KV-cache precision id) the checkpoint ships in."""
    section = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    qc = config.get("quantization_config") or section.get("quantization_config")
    if qc is not None:
        return _from_quantization_config(qc, report), _kv_from_scheme(qc)
    modelopt = folder / "hf_quant_config.json"
    if modelopt.is_file():
        return _from_modelopt(modelopt, report)
    return _from_dtype(config, section, report), None
