"""Importing the 2026 architectures: hybrid linear attention, DeepSeek Sparse Attention,
GLM and Phi MoE/dense decoders, encoders and embedding models, and model_type fallbacks.

The fixture folders under fixtures/hf/ hold the published config.json files (and, for the
sentence-transformers models, modules.json and 1_Pooling/config.json); SOURCES.md says where
each was read. Every known answer names its published figure.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.catalog.hf_import import ModelImportError, read_model_folder, save_to_user_catalog
from app.catalog.loader import load_catalog, load_folder
from app.engine.memory import (
    kv_bytes_per_token,
    parameter_counts,
    speculative_params,
    state_bytes_per_sequence,
)

FIXTURES = Path(__file__).parent / "fixtures" / "hf"
NEW_FIXTURES = ("kimi-k2-instruct", "deepseek-v3.2", "glm-4.5-air", "phi-4",
                "qwen3-next-80b-a3b-instruct", "qwen3.5-397b-a17b",
                "kimi-linear-48b-a3b-instruct", "bge-m3", "bge-reranker-v2-m3",
                "qwen3-embedding-0.6b")


def imported(name: str):
    return read_model_folder(FIXTURES / name)


def counts(name: str):
    return parameter_counts(imported(name).spec)


def test_unknown_model_type_is_read_as_its_architectures_class():
    """Kimi K2 ships model_type kimi_k2 with DeepseekV3ForCausalLM; Moonshot's deployment
    guide: engines that do not know kimi_k2 may read it as deepseek_v3."""
    model = imported("kimi-k2-instruct")
    spec = model.spec
    assert spec.family == "kimi_k2"
    assert spec.mla is not None and spec.mla.kv_lora_rank == 512
    assert (spec.moe.experts, spec.moe.experts_per_token, spec.moe.dense_layers) == (384, 8, 1)
    assert any("kimi_k2" in w and "DeepseekV3ForCausalLM" in w for w in model.warnings)
    # Kimi K2 model card: 1T total parameters, 32B activated
    c = parameter_counts(spec)
    assert c.total == pytest.approx(1.0e12, rel=0.03)
    assert c.active == pytest.approx(32e9, rel=0.03)


def test_unknown_model_type_without_a_known_class_is_still_refused(tmp_path):
    folder = Path(shutil.copytree(FIXTURES / "kimi-k2-instruct", tmp_path / "k"))
    config = json.loads((folder / "config.json").read_text())
    config["architectures"] = ["SomethingElseForCausalLM"]
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelImportError, match="kimi_k2"):
        read_model_folder(folder)


def test_glm_4_5_air():
    """GLM-4.5-Air model card: 106B total, 12B active (without the embedding tables)."""
    spec = imported("glm-4.5-air").spec
    assert spec.attention_bias == "qkv" and not spec.qk_norm  # o_proj has no bias
    moe = spec.moe
    assert (moe.experts, moe.shared_experts, moe.dense_layers, moe.router_bias) == (128, 1, 1,
                                                                                   True)
    assert spec.speculative.layers == 1  # num_nextn_predict_layers
    c = parameter_counts(spec)
    assert c.total == pytest.approx(106e9, rel=0.01)
    assert c.active - c.embedding - c.lm_head == pytest.approx(12e9, rel=0.02)


def test_phi_4_fused_projections_hold_the_same_parameters():
    """microsoft/phi-4 model card: 14.7B parameters; phi3 fuses qkv_proj and gate_up_proj."""
    model = imported("phi-4")
    assert model.spec.sliding_window is None
    assert any("fuses" in note for note in model.spec.notes.split("; "))
    assert parameter_counts(model.spec).total == pytest.approx(14.7e9, rel=0.005)


def test_deepseek_v3_2_indexer():
    """DeepSeek-V3.2: V3 plus a lightning indexer per layer. Its key cache is 128 FP8 values
    and one FP32 scale per token and layer (vLLM DeepseekV32IndexerCache: 132 B): 61 x 132 =
    8,052 B, "about 8 KB per token" on top of the 61 x 576 x 2 B latent."""
    spec = imported("deepseek-v3.2").spec
    sparse = spec.sparse_attention
    assert (sparse.index_heads, sparse.index_head_dim, sparse.top_k) == (64, 128, 2048)
    assert kv_bytes_per_token(spec, 2.0) == 61 * (576 * 2 + 132) == 78_324
    c = parameter_counts(spec)
    # DeepSeek-V3.2 Exp inference/model.py Indexer: wq_b 1536 x 64*128, wk 7168 x 128,
    # weights_proj 7168 x 64, k_norm 2 x 128
    assert c.indexer == 61 * (1536 * 8192 + 7168 * 128 + 7168 * 64)
    # model card: 685B with the MTP module, whose checkpoint copy also holds the embedding and
    # the head (2 x 129,280 x 7,168); engines share those with the model
    duplicated = 2 * 129_280 * 7_168
    assert c.total + speculative_params(spec) + duplicated == pytest.approx(685e9, rel=0.002)


def test_qwen3_next_hybrid_layers():
    """Qwen3-Next-80B-A3B: 48 layers as 12 x (3 Gated DeltaNet + 1 gated attention)."""
    model = imported("qwen3-next-80b-a3b-instruct")
    spec = model.spec
    linear = spec.linear_attention
    assert (linear.layers, linear.key_heads, linear.value_heads) == (36, 16, 32)
    assert spec.attention_output_gate and spec.qk_norm
    assert spec.moe.shared_expert_gate and spec.moe.shared_intermediate_size == 512
    assert spec.speculative.layers == 1
    # 12 x 2 x 2 x 256 x 2 B: a quarter of the 98,304 B 48 full layers would cache
    assert kv_bytes_per_token(spec, 2.0) == 24_576 == 98_304 / 4
    # vLLM gated_delta_net_state_shape: (8,192 x 3) conv + (32 x 128 x 128) state, BF16
    assert state_bytes_per_sequence(spec) == 36 * (8_192 * 3 + 32 * 128 * 128) * 2
    c = parameter_counts(spec)
    # the safetensors total of Qwen/Qwen3-Coder-Next (this architecture) on the Hugging Face
    # API, 79,674,391,296, as quoted by a public test suite; the model card rounds to 80B
    assert c.total == 79_674_391_296
    assert c.total == pytest.approx(80e9, rel=0.005)


def test_qwen3_5_reads_its_text_config():
    """Qwen3.5-397B-A17B (qwen3_5_moe wrapping qwen3_5_moe_text): 397B total / 17B active
    (the published total also counts the vision encoder, which is not imported)."""
    model = imported("qwen3.5-397b-a17b")
    spec = model.spec
    assert spec.linear_attention.layers == 45 and spec.linear_attention.state_precision == "fp32"
    assert spec.speculative.layers == 1  # mtp_num_hidden_layers
    assert any("vision_config" in w for w in model.warnings)
    # S. Raschka's LLM architecture gallery: KV cache 30 KiB per token
    assert kv_bytes_per_token(spec, 2.0) == 30 * 1024
    # FP32 state: 45 x (12,288 x 3 x 2 B + 64 x 128 x 128 x 4 B)
    assert state_bytes_per_sequence(spec) == 45 * (12_288 * 3 * 2 + 64 * 128 * 128 * 4)
    c = parameter_counts(spec)
    assert c.total == pytest.approx(397e9, rel=0.005)
    assert c.active == pytest.approx(17e9, rel=0.03)


def test_kimi_linear_kda_and_mla_layers():
    """Kimi Linear 48B-A3B: 3:1 Kimi Delta Attention to MLA; the tech report (arXiv
    2510.26692): up to 75 % less KV cache than full MLA."""
    model = imported("kimi-linear-48b-a3b-instruct")
    spec = model.spec
    assert spec.linear_attention.kind == "kimi_delta" and spec.linear_attention.layers == 20
    assert spec.mla.q_lora_rank is None and spec.attention_layers == 7
    assert spec.max_context_tokens == 1_048_576  # model card; config.json has none (NoPE)
    assert any("max_position_embeddings" in w for w in model.warnings)
    kv = kv_bytes_per_token(spec, 2.0)
    assert kv == 7 * 576 * 2 == 8_064
    assert 1 - kv / (27 * 576 * 2) == pytest.approx(0.74, abs=0.01)
    # vLLM kda_state_shape: 3 x 4,096 conv channels x 3 (BF16) + 32 x 128 x 128 FP32
    assert state_bytes_per_sequence(spec) == 20 * (12_288 * 3 * 2 + 32 * 128 * 128 * 4)
    c = parameter_counts(spec)
    assert c.total == pytest.approx(48e9, rel=0.03)  # model card rounds: 49.1B computed
    assert 2.5e9 <= c.active - c.embedding - c.lm_head <= 3.5e9  # "3B activated"


def test_bge_m3_is_an_encoder_embedder():
    """BAAI/bge-m3 model card: 568M parameters, 1,024-dimensional vectors, 8,192 tokens."""
    spec = imported("bge-m3").spec
    assert (spec.task, spec.encoder, spec.embedding_dim) == ("embedding", True, 1024)
    assert spec.max_context_tokens == 8192 and spec.position_embeddings == 8194
    c = parameter_counts(spec)
    assert c.lm_head == 1024 * 1024 + 1024  # the pooler, no output head
    assert c.total == pytest.approx(568e6, rel=0.001)


def test_bge_reranker_is_a_cross_encoder():
    """BAAI/bge-reranker-v2-m3: 568M on the model card; 567,755,777 is the parameter count
    a public training plan records for an XLMRobertaForSequenceClassification checkpoint of
    these dimensions (24 x 1,024, vocab 250,002, 8,194 positions, one label)."""
    spec = imported("bge-reranker-v2-m3").spec
    assert (spec.task, spec.classifier_labels, spec.pooler) == ("reranking", 1, False)
    assert parameter_counts(spec).total == 567_755_777


def test_qwen3_embedding_from_its_sentence_transformers_files():
    """Qwen3-Embedding-0.6B ships Qwen3ForCausalLM weights without output head; the
    pooling config makes it an embedding model (model card: 0.6B, 1,024 dimensions)."""
    model = imported("qwen3-embedding-0.6b")
    spec = model.spec
    assert (spec.task, spec.embedding_dim, spec.encoder) == ("embedding", 1024, False)
    assert "1_Pooling/config.json" in model.files_read
    h, f, layers, vocab = 1024, 3072, 28, 151_669
    per_layer = h * 2048 + 2 * h * 1024 + 2048 * h + 3 * h * f + 2 * 128 + 2 * h
    assert parameter_counts(spec).total == vocab * h + layers * per_layer + h == 595_776_512


@pytest.mark.parametrize("name", NEW_FIXTURES)
def test_new_fixtures_save_and_load_back(tmp_path, name):
    spec = imported(name).spec
    save_to_user_catalog(spec, tmp_path)
    catalog = load_folder(tmp_path)
    assert catalog.problems == []
    assert catalog.models[spec.id] == spec


SAME_AS_BUILTIN = {
    "qwen3-next-80b-a3b-instruct": "qwen3-next-80b-a3b",
    "qwen3.5-397b-a17b": "qwen3.5-397b-a17b",
    "kimi-linear-48b-a3b-instruct": "kimi-linear-48b-a3b",
    "deepseek-v3.2": "deepseek-v3.2",
    "bge-m3": "bge-m3",
    "bge-reranker-v2-m3": "bge-reranker-v2-m3",
    "qwen3-embedding-0.6b": "qwen3-embedding-0.6b",
    "phi-4": "phi-4",
    "kimi-k2-instruct": "kimi-k2",
}
NOT_COMPARED = {"id", "name", "source", "as_of", "derived", "notes", "license",
                "published_params", "published_active_params", "family"}


@pytest.mark.parametrize(("fixture", "builtin_id"), SAME_AS_BUILTIN.items())
def test_import_matches_the_builtin_catalog(fixture, builtin_id):
    """The catalog entries were written from the publishers' documents by hand; importing
    the same config.json must give the same architecture."""
    builtin = load_catalog(include_user=False).models[builtin_id]
    got = imported(fixture).spec.model_dump(exclude=NOT_COMPARED)
    assert got == builtin.model_dump(exclude=NOT_COMPARED)
