"""Importing a local Hugging Face model folder (config.json, index, quantisation config).

The fixture folders under fixtures/hf/ hold the real config.json files of the models they are
named after (values as published on Hugging Face), without weights.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import struct
import tomllib
from pathlib import Path

import pytest

from app import paths
from app.catalog.hf_import import (
    SUPPORTED_MODEL_TYPES,
    ImportedModel,
    ModelImportError,
    read_model_folder,
    safetensors_tensor_bytes,
    save_to_user_catalog,
    slugify,
)
from app.catalog.loader import load_catalog, load_folder
from app.catalog.toml_writer import dumps_toml
from app.domain.catalog import ModelSpec

FIXTURES = Path(__file__).parent / "fixtures" / "hf"
VALID_FIXTURES = (
    "llama-3.1-8b",
    "llama-3.1-8b-instruct-fp8",
    "qwen2.5-7b-instruct",
    "qwen3-30b-a3b",
    "qwen1.5-moe-a2.7b",
    "mixtral-8x7b-v0.1",
    "mistral-7b-v0.1",
    "deepseek-v3",
    "deepseek-v2-lite",
    "gemma-2-9b",
    "gemma-3-27b-it",
    "gpt-oss-120b",
    "llama-4-maverick-17b-128e-instruct",
)


def imported(name: str) -> ImportedModel:
    return read_model_folder(FIXTURES / name)


def copy_fixture(name: str, tmp_path: Path) -> Path:
    """A writable copy of a fixture folder (to edit its files in a test)."""
    return Path(shutil.copytree(FIXTURES / name, tmp_path / name))


def edit_config(folder: Path, **changes) -> None:
    """Set (or, with None, remove) top-level config.json fields."""
    path = folder / "config.json"
    config = json.loads(path.read_text())
    for key, value in changes.items():
        if value is None:
            config.pop(key, None)
        else:
            config[key] = value
    path.write_text(json.dumps(config))


def write_safetensors(path: Path, tensors: dict[str, tuple[str, list[int], int]]) -> int:
    """A tiny but valid .safetensors file; returns the bytes of its tensor data.

    ``tensors`` maps name -> (dtype, shape, bytes per element).
    """
    header: dict = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, (dtype, shape, element_bytes) in tensors.items():
        size = element_bytes
        for dim in shape:
            size *= dim
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # the format pads the header to 8 bytes with spaces
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"\0" * offset)
    return offset


# --------------------------------------------------------------------------- architectures


def test_llama_3_1_8b():
    model = imported("llama-3.1-8b")
    spec = model.spec
    assert (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads) == (32, 4096, 32, 8)
    assert (spec.head_dim, spec.intermediate_size, spec.vocab_size) == (128, 14336, 128256)
    assert spec.max_context_tokens == 131072
    assert spec.family == "llama" and spec.mlp == "gated" and spec.norm == "rms"
    assert not spec.tied_embeddings and spec.attention_bias == "none" and not spec.mlp_bias
    assert spec.moe is None and spec.mla is None and spec.sliding_window is None
    assert spec.native_precision == "bf16" and model.quantization == "bf16"
    assert model.weights_bytes_on_disk == 16_060_522_496
    assert model.warnings == []
    assert "llama3" in spec.notes and "model.safetensors.index.json" in spec.notes


def test_provenance_fields():
    spec = imported("llama-3.1-8b").spec
    assert spec.id == "llama-3.1-8b" and spec.name == "llama-3.1-8b"
    folder = (FIXTURES / "llama-3.1-8b").resolve()
    assert spec.source == f"local model folder {folder} (config.json)"
    assert spec.as_of == dt.date.today()
    assert spec.published_params is None
    assert spec.derived == ["head_dim"]  # config.json has no head_dim: 4096 / 32


def test_model_id_can_be_given():
    assert read_model_folder(FIXTURES / "llama-3.1-8b", "my-llama").spec.id == "my-llama"


def test_llama_attention_bias_true_means_all(tmp_path):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, attention_bias=True, mlp_bias=True)
    spec = read_model_folder(folder).spec
    assert spec.attention_bias == "all" and spec.mlp_bias


def test_missing_kv_heads_means_one_per_query_head(tmp_path):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, num_key_value_heads=None)
    model = read_model_folder(folder)
    assert model.spec.kv_heads == 32
    assert any("num_key_value_heads" in w for w in model.warnings)


def test_qwen2_5_has_qkv_bias_and_no_sliding_window():
    model = imported("qwen2.5-7b-instruct")
    spec = model.spec
    assert (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads) == (28, 3584, 28, 4)
    assert (spec.intermediate_size, spec.vocab_size, spec.max_context_tokens) == (
        18944,
        152064,
        32768,
    )
    assert spec.attention_bias == "qkv"
    assert spec.sliding_window is None  # use_sliding_window is false
    assert model.weights_bytes_on_disk == 15_231_233_024


def test_qwen_sliding_window_when_enabled(tmp_path):
    folder = copy_fixture("qwen2.5-7b-instruct", tmp_path)
    edit_config(folder, use_sliding_window=True, sliding_window=4096, max_window_layers=20)
    spec = read_model_folder(folder).spec
    assert (spec.sliding_window, spec.global_layers) == (4096, 20)


def test_qwen3_moe_30b_a3b():
    spec = imported("qwen3-30b-a3b").spec
    assert (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads) == (48, 2048, 32, 4)
    assert spec.head_dim == 128 and spec.qk_norm and spec.attention_bias == "none"
    assert (spec.vocab_size, spec.max_context_tokens) == (151936, 40960)
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (128, 8, 768)
    assert moe.shared_experts == 0 and moe.dense_layers == 0


def test_qwen3_moe_dense_layers_from_sparse_step_and_mlp_only_layers(tmp_path):
    folder = copy_fixture("qwen3-30b-a3b", tmp_path)
    edit_config(folder, decoder_sparse_step=2, mlp_only_layers=[1, 2])
    # MoE where (i + 1) % 2 == 0 and i not in {1, 2}: 24 odd layers minus layer 1 -> 23
    assert read_model_folder(folder).spec.moe.dense_layers == 48 - 23


def test_qwen2_moe_shared_expert():
    spec = imported("qwen1.5-moe-a2.7b").spec
    assert spec.attention_bias == "qkv"
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (60, 4, 1408)
    assert (moe.shared_experts, moe.shared_intermediate_size) == (1, 5632)


def test_mixtral_8x7b():
    spec = imported("mixtral-8x7b-v0.1").spec
    assert (spec.layers, spec.hidden_size, spec.kv_heads, spec.vocab_size) == (32, 4096, 8, 32000)
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (8, 2, 14336)
    assert moe.dense_layers == 0 and spec.sliding_window is None


def test_mistral_sliding_window_on_every_layer():
    spec = imported("mistral-7b-v0.1").spec
    assert (spec.sliding_window, spec.global_layers) == (4096, 0)


def test_deepseek_v3_mla_and_moe():
    model = imported("deepseek-v3")
    spec = model.spec
    assert (spec.layers, spec.hidden_size, spec.attention_heads) == (61, 7168, 128)
    assert (spec.intermediate_size, spec.vocab_size, spec.max_context_tokens) == (
        18432,
        129280,
        163840,
    )
    assert spec.head_dim == 192 and "head_dim" in spec.derived
    mla = spec.mla
    assert (mla.q_lora_rank, mla.kv_lora_rank) == (1536, 512)
    assert (mla.qk_rope_head_dim, mla.qk_nope_head_dim, mla.v_head_dim) == (64, 128, 128)
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (256, 8, 2048)
    assert (moe.shared_experts, moe.dense_layers, moe.router_bias) == (1, 3, True)
    assert model.quantization == "fp8" and spec.native_precision == "fp8"
    # the multi-token-prediction layer: speculative-decoding heads, loaded only when asked
    assert spec.speculative.model_dump() == {
        "kind": "mtp", "layers": 1, "params": None,
        "source": "config.json num_nextn_predict_layers 1"}


def test_deepseek_v2_lite_has_full_rank_q():
    spec = imported("deepseek-v2-lite").spec
    assert spec.mla.q_lora_rank is None
    assert (spec.moe.experts, spec.moe.shared_experts, spec.moe.dense_layers) == (64, 2, 1)
    assert not spec.moe.router_bias


def test_gemma2_alternates_local_and_global_layers():
    model = imported("gemma-2-9b")
    spec = model.spec
    assert (spec.sliding_window, spec.global_layers) == (4096, 21)
    assert spec.norms_per_layer == 4 and spec.tied_embeddings and spec.head_dim == 256
    assert model.quantization == "fp32"


def test_gemma3_text_config_and_layer_types():
    model = imported("gemma-3-27b-it")
    spec = model.spec
    assert spec.family == "gemma3"
    assert (spec.layers, spec.hidden_size) == (62, 5376)
    assert (spec.attention_heads, spec.kv_heads) == (32, 16)
    assert (spec.head_dim, spec.intermediate_size) == (128, 21504)
    assert (spec.sliding_window, spec.global_layers) == (1024, 10)
    assert spec.qk_norm and spec.norms_per_layer == 4 and spec.tied_embeddings
    # The real config.json leaves these to the transformers defaults; say so.
    assert (spec.vocab_size, spec.max_context_tokens) == (262208, 131072)
    assert {"vocab_size", "max_context_tokens"} <= set(spec.derived)
    assert any("text_config.vocab_size" in w for w in model.warnings)
    assert any("vision" in w for w in model.warnings)


def test_gemma3_pattern_without_layer_types(tmp_path):
    folder = copy_fixture("gemma-3-27b-it", tmp_path)
    config = json.loads((folder / "config.json").read_text())
    del config["text_config"]["layer_types"]
    (folder / "config.json").write_text(json.dumps(config))
    assert read_model_folder(folder).spec.global_layers == 62 // 6


def test_gpt_oss_120b():
    model = imported("gpt-oss-120b")
    spec = model.spec
    assert (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads) == (36, 2880, 64, 8)
    assert (spec.head_dim, spec.vocab_size, spec.max_context_tokens) == (64, 201088, 131072)
    assert (spec.sliding_window, spec.global_layers) == (128, 18)
    assert spec.attention_bias == "all" and spec.mlp_bias
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (128, 4, 2880)
    assert moe.router_bias
    assert model.quantization == "mxfp4" and spec.native_precision == "mxfp4"
    # vLLM's Mxfp4Config quantises only FusedMoE layers; attention stays BF16
    assert spec.native_quantised == "experts-only"


def test_llama4_maverick():
    spec = imported("llama-4-maverick-17b-128e-instruct").spec
    assert spec.family == "llama4"
    assert (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads) == (48, 5120, 40, 8)
    assert spec.intermediate_size == 16384  # intermediate_size_mlp of the dense layers
    moe = spec.moe
    assert (moe.experts, moe.experts_per_token, moe.expert_intermediate_size) == (128, 1, 8192)
    assert (moe.shared_experts, moe.shared_intermediate_size, moe.dense_layers) == (1, 8192, 24)
    assert (spec.sliding_window, spec.global_layers) == (8192, 12)
    assert spec.max_context_tokens == 1048576 and not spec.qk_norm


@pytest.mark.parametrize("name", VALID_FIXTURES)
def test_every_fixture_imports_into_a_valid_spec(name):
    model = imported(name)
    assert isinstance(model.spec, ModelSpec)
    assert model.spec.id == slugify(name)
    assert model.spec.notes.startswith("Imported from config.json")


# --------------------------------------------------------------------------- precision


def test_modelopt_hf_quant_config_fp8():
    model = imported("llama-3.1-8b-instruct-fp8")
    assert model.quantization == "fp8" and model.spec.native_precision == "fp8"
    assert model.kv_cache_quantization == "fp8"
    assert "hf_quant_config.json" in model.files_read


@pytest.mark.parametrize(
    ("algo", "expected"),
    [
        ("NVFP4", "nvfp4"),
        ("W4A16_AWQ", "int4-awq"),
        ("FP8", "fp8"),
        ("W8A8_SQ_PER_CHANNEL", "int8"),
        ("W8A16", "int8-gptq"),  # weight-only INT8: 16-bit arithmetic, not W8A8
    ],
)
def test_modelopt_algorithms(tmp_path, algo, expected):
    folder = copy_fixture("llama-3.1-8b-instruct-fp8", tmp_path)
    (folder / "hf_quant_config.json").write_text(
        json.dumps({"producer": {"name": "modelopt"}, "quantization": {"quant_algo": algo}})
    )
    assert read_model_folder(folder).quantization == expected


@pytest.mark.parametrize(
    ("quantization_config", "expected"),
    [
        ({"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm"}, "int4-awq"),
        ({"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False}, "int4-gptq"),
        ({"quant_method": "gptq", "bits": 8}, "int8-gptq"),  # W8A16, not W8A8
        ({"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}, "fp8"),
        ({"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0}, "fp8"),
        ({"quant_method": "mxfp4"}, "mxfp4"),
        ({"quant_method": "bitsandbytes", "load_in_8bit": True}, "int8"),
        (
            {
                "quant_method": "compressed-tensors",
                "format": "float-quantized",
                "config_groups": {"group_0": {"weights": {"num_bits": 8, "type": "float"}}},
            },
            "fp8",
        ),
        (
            {
                "quant_method": "compressed-tensors",
                "format": "pack-quantized",
                "config_groups": {"group_0": {"weights": {"num_bits": 4, "type": "int"}}},
            },
            "int4-gptq",
        ),
        (
            {
                "quant_method": "compressed-tensors",
                "format": "pack-quantized",
                "config_groups": {"group_0": {"weights": {"num_bits": 8, "type": "int"}}},
            },
            "int8-gptq",
        ),
        (
            {
                "quant_method": "compressed-tensors",
                "format": "int-quantized",
                "config_groups": {"group_0": {
                    "weights": {"num_bits": 8, "type": "int"},
                    "input_activations": {"num_bits": 8, "type": "int", "dynamic": True}}},
            },
            "int8",
        ),
        (
            {
                "quant_method": "compressed-tensors",
                "format": "nvfp4-pack-quantized",
                "config_groups": {
                    "group_0": {"weights": {"num_bits": 4, "type": "float", "group_size": 16}}
                },
            },
            "nvfp4",
        ),
        ({"quant_method": "modelopt", "quant_algo": "NVFP4"}, "nvfp4"),
    ],
)
def test_quantization_config_methods(tmp_path, quantization_config, expected):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, quantization_config=quantization_config)
    model = read_model_folder(folder)
    assert model.quantization == expected and model.spec.native_precision == expected


@pytest.mark.parametrize(
    "quantization_config",
    [
        {"quant_method": "hqq"},
        {"quant_method": "gptq", "bits": 3},
        {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4"},
    ],
)
def test_unknown_quantization_is_a_warning_not_a_guess(tmp_path, quantization_config):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, quantization_config=quantization_config)
    model = read_model_folder(folder)
    assert model.quantization is None
    assert any("precision.weights by hand" in w for w in model.warnings)


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        ("bfloat16", "bf16"),
        ("float16", "fp16"),
        ("float32", "fp32"),
    ],
)
def test_torch_dtype(tmp_path, dtype, expected):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, torch_dtype=dtype)
    assert read_model_folder(folder).quantization == expected


# --------------------------------------------------------------------------- weights on disk


def test_safetensors_headers_are_summed_exactly(tmp_path):
    folder = tmp_path / "tiny-llama"
    folder.mkdir()
    shutil.copy(FIXTURES / "llama-3.1-8b" / "config.json", folder)
    first = write_safetensors(
        folder / "model-00001-of-00002.safetensors",
        {
            "model.embed_tokens.weight": ("BF16", [7, 3], 2),
            "model.norm.weight": ("F32", [5], 4),
        },
    )
    second = write_safetensors(
        folder / "model-00002-of-00002.safetensors",
        {
            "lm_head.weight": ("F8_E4M3", [4, 4], 1),
        },
    )
    assert (first, second) == (7 * 3 * 2 + 5 * 4, 16)
    assert safetensors_tensor_bytes(folder / "model-00001-of-00002.safetensors") == first
    model = read_model_folder(folder)
    assert model.weights_bytes_on_disk == first + second
    assert "2 safetensors header(s)" in model.files_read


def test_index_without_total_size_falls_back_to_headers(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    shutil.copy(FIXTURES / "llama-3.1-8b" / "config.json", folder)
    (folder / "model.safetensors.index.json").write_text('{"weight_map": {}}')
    size = write_safetensors(folder / "model.safetensors", {"w": ("BF16", [8, 8], 2)})
    model = read_model_folder(folder)
    assert model.weights_bytes_on_disk == size == 128
    assert any("total_size" in w for w in model.warnings)


def test_broken_safetensors_file_is_a_warning(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    shutil.copy(FIXTURES / "llama-3.1-8b" / "config.json", folder)
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", 10_000) + b"{}")
    model = read_model_folder(folder)
    assert model.weights_bytes_on_disk is None
    assert any("could not be read" in w for w in model.warnings)


def test_config_only_folder_has_unknown_weight_bytes():
    model = imported("mixtral-8x7b-v0.1")
    assert model.weights_bytes_on_disk is None
    assert any("weights_bytes_on_disk is unknown" in w for w in model.warnings)


# --------------------------------------------------------------------------- names


def test_hugging_face_cache_snapshot_is_named_after_the_repository(tmp_path):
    snapshot = tmp_path / "models--meta-llama--Llama-3.1-8B" / "snapshots" / "0e9e39f2"
    shutil.copytree(FIXTURES / "llama-3.1-8b", snapshot)
    spec = read_model_folder(snapshot).spec
    assert spec.name == "meta-llama/Llama-3.1-8B" and spec.id == "llama-3.1-8b"


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Llama-3.1-8B-Instruct", "llama-3.1-8b-instruct"),
        ("Qwen3 30B (A3B)", "qwen3-30b-a3b"),
        ("__gemma+3__", "gemma+3"),
    ],
)
def test_slugify(text, slug):
    assert slugify(text) == slug


# --------------------------------------------------------------------------- bad input


def test_unknown_model_type_names_it_and_lists_supported():
    with pytest.raises(ModelImportError) as caught:
        imported("unknown-model-type")
    message = str(caught.value)
    assert "'mamba' is not supported" in message
    assert all(model_type in message for model_type in SUPPORTED_MODEL_TYPES)


def test_missing_field_names_file_and_field():
    with pytest.raises(ModelImportError) as caught:
        imported("missing-field")
    assert str(caught.value) == (
        "config.json: num_hidden_layers is missing (needed for the layer count)."
    )


def test_missing_field_in_text_config_names_its_path(tmp_path):
    folder = copy_fixture("gemma-3-27b-it", tmp_path)
    config = json.loads((folder / "config.json").read_text())
    del config["text_config"]["hidden_size"]
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelImportError, match=r"config.json: text_config.hidden_size is missing"):
        read_model_folder(folder)


def test_invalid_json_is_one_sentence():
    with pytest.raises(ModelImportError) as caught:
        imported("invalid-json")
    message = str(caught.value)
    assert message.startswith("config.json in ") and "is not valid JSON" in message
    assert "line 4" in message and "\n" not in message


def test_missing_folder(tmp_path):
    with pytest.raises(ModelImportError, match="does not exist"):
        read_model_folder(tmp_path / "no-such-model")


def test_folder_without_config_json(tmp_path):
    (tmp_path / "model.gguf").write_bytes(b"GGUF")
    with pytest.raises(ModelImportError, match=r"no config.json in .*GGUF files are not supported"):
        read_model_folder(tmp_path)


def test_file_instead_of_folder(tmp_path):
    with pytest.raises(ModelImportError, match="is not a folder"):
        read_model_folder(FIXTURES / "llama-3.1-8b" / "config.json")


def test_config_json_must_be_an_object(tmp_path):
    (tmp_path / "config.json").write_text("[1, 2]")
    with pytest.raises(ModelImportError, match="must hold a JSON object"):
        read_model_folder(tmp_path)


def test_wrong_type_names_field_and_value(tmp_path):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, num_hidden_layers="thirty-two")
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(folder)
    assert str(caught.value) == (
        "config.json: num_hidden_layers is 'thirty-two'; expected a whole number."
    )


def test_schema_violation_becomes_a_readable_message(tmp_path):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, num_key_value_heads=5)
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(folder)
    message = str(caught.value)
    assert "attention_heads (32) must be a multiple of kv_heads (5)" in message
    assert "Traceback" not in message and "validation error" not in message


def test_out_of_range_value_names_the_config_key(tmp_path):
    folder = copy_fixture("llama-3.1-8b", tmp_path)
    edit_config(folder, vocab_size=0)
    with pytest.raises(ModelImportError, match=r"vocab_size = 0: .*greater than or equal to 1"):
        read_model_folder(folder)


def test_invalid_model_id():
    with pytest.raises(ModelImportError, match="model id 'My Llama' is not valid"):
        read_model_folder(FIXTURES / "llama-3.1-8b", "My Llama")


def test_layer_types_of_the_wrong_length(tmp_path):
    folder = copy_fixture("gpt-oss-120b", tmp_path)
    edit_config(folder, layer_types=["full_attention"] * 3)
    with pytest.raises(ModelImportError, match="layer_types has 3 entries for 36 layers"):
        read_model_folder(folder)


# --------------------------------------------------------------------------- user catalog


@pytest.mark.parametrize("name", VALID_FIXTURES)
def test_saved_entry_loads_back_equal(tmp_path, name):
    spec = imported(name).spec
    path = save_to_user_catalog(spec, tmp_path)
    assert path == tmp_path / "models.toml"
    catalog = load_folder(tmp_path)
    assert catalog.problems == []
    assert catalog.models[spec.id] == spec


HAND_WRITTEN_ENTRY = """\
# written by hand
catalog_version = "mine"

["my-llama-2.7b"]
name = "My Llama 2.7B"
layers = 32
hidden_size = 2560
attention_heads = 32
kv_heads = 32
intermediate_size = 6912
vocab_size = 32000
max_context_tokens = 4096
source = "my notes"
as_of = 2025-01-31
"""


def test_save_keeps_other_entries_and_replaces_the_same_id(tmp_path):
    (tmp_path / "models.toml").write_text(HAND_WRITTEN_ENTRY)
    hand_written = load_folder(tmp_path).models["my-llama-2.7b"]
    first = imported("deepseek-v3").spec
    save_to_user_catalog(first, tmp_path)
    second = first.model_copy(update={"name": "DeepSeek V3 (local)"})
    save_to_user_catalog(second, tmp_path)
    catalog = load_folder(tmp_path)
    assert catalog.problems == [] and catalog.versions["models"] == "mine"
    assert catalog.models == {"my-llama-2.7b": hand_written, first.id: second}
    assert [p.name for p in tmp_path.iterdir()] == ["models.toml"]  # no temporary file left


def test_save_writes_dates_and_sub_tables(tmp_path):
    spec = imported("deepseek-v3").spec
    save_to_user_catalog(imported("llama-3.1-8b").spec, tmp_path)
    text = save_to_user_catalog(spec, tmp_path).read_text()
    assert "\n[deepseek-v3]\n" in text and "\n[deepseek-v3.moe]\n" in text
    assert "\n[deepseek-v3.mla]\n" in text
    assert '\n["llama-3.1-8b"]\n' in text  # a dot in the id needs quotes
    assert f"as_of = {dt.date.today().isoformat()}\n" in text
    assert tomllib.loads(text)["deepseek-v3"]["as_of"] == dt.date.today()


def test_save_defaults_to_the_user_catalog_folder(user_config_dir):
    spec = imported("qwen3-30b-a3b").spec
    path = save_to_user_catalog(spec)
    assert path == paths.user_catalog_dir() / "models.toml"
    assert load_catalog().models[spec.id] == spec


def test_save_escapes_strings(tmp_path):
    name = 'Odd "name" with \\ back\tslash\nnewline, ümlaut and \x01 control'
    spec = imported("llama-3.1-8b").spec.model_copy(update={"name": name, "id": "odd+model.v1"})
    save_to_user_catalog(spec, tmp_path)
    assert load_folder(tmp_path).models["odd+model.v1"].name == name


def test_save_refuses_to_overwrite_a_broken_catalog(tmp_path):
    broken = "this is = = not toml\n"
    (tmp_path / "models.toml").write_text(broken)
    with pytest.raises(ModelImportError, match="is not valid TOML"):
        save_to_user_catalog(imported("llama-3.1-8b").spec, tmp_path)
    assert (tmp_path / "models.toml").read_text() == broken


def test_dumps_toml_round_trips_tomllib_values():
    data = {
        "catalog_version": "x",
        "a.b": {
            "int": 1,
            "float": 1e-05,
            "big": 8.03e9,
            "flag": False,
            "list": [1, "two"],
            "when": dt.date(2026, 11, 1),
            "stamp": dt.datetime(2026, 1, 2, 3, 4, 5),
            "inline": [{"k": "v"}],
            "nested": {"deeper": {"x": "y"}},
        },
    }
    assert tomllib.loads(dumps_toml(data)) == data


# The same models as in the built-in catalog (written from the publishers' documents by hand):
# importing their config.json must give the same architecture.
SAME_AS_BUILTIN = {
    "llama-3.1-8b": "llama-3.1-8b",
    "qwen3-30b-a3b": "qwen3-30b-a3b",
    "mixtral-8x7b-v0.1": "mixtral-8x7b",
    "deepseek-v3": "deepseek-v3",
    "gemma-3-27b-it": "gemma-3-27b",
    "gpt-oss-120b": "gpt-oss-120b",
    "llama-4-maverick-17b-128e-instruct": "llama-4-maverick",
}
PROVENANCE = {"id", "name", "source", "as_of", "derived", "notes", "license"}
PUBLISHED = {"published_params", "published_active_params"}


@pytest.mark.parametrize(("fixture", "builtin_id"), SAME_AS_BUILTIN.items())
def test_import_matches_the_builtin_catalog(fixture, builtin_id):
    builtin = load_catalog(include_user=False).models.get(builtin_id)
    if builtin is None:
        pytest.skip(f"{builtin_id} is not in the built-in catalog")
    exclude = PROVENANCE | PUBLISHED
    assert imported(fixture).spec.model_dump(exclude=exclude) == builtin.model_dump(exclude=exclude)
