"""The built-in model catalog loads cleanly and holds every model the contract names."""

from __future__ import annotations

import pytest

from app.catalog.loader import load_catalog

CONTRACT_MODEL_IDS = (
    "llama-2-7b",
    "llama-2-13b",
    "llama-2-70b",
    "llama-3-8b",
    "llama-3-70b",
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "llama-3.3-70b",
    "llama-4-maverick",
    "mistral-7b",
    "mixtral-8x7b",
    "qwen2.5-7b",
    "qwen2.5-72b",
    "qwen3-8b",
    "qwen3-32b",
    "qwen3-30b-a3b",
    "qwen3-235b-a22b",
    "gpt-oss-20b",
    "gpt-oss-120b",
    "deepseek-v3",
    "deepseek-r1",
    "gemma-3-27b",
    "gpt-j-6b",
    "falcon-180b",
)

MOE_MODEL_IDS = (
    "llama-4-maverick",
    "mixtral-8x7b",
    "qwen3-30b-a3b",
    "qwen3-235b-a22b",
    "gpt-oss-20b",
    "gpt-oss-120b",
    "deepseek-v3",
    "deepseek-r1",
)


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


@pytest.fixture(scope="module")
def models(catalog):
    return catalog.models


def test_catalog_has_no_problems(catalog):
    assert catalog.problems == [], "\n".join(str(p) for p in catalog.problems)


def test_models_file_is_versioned(catalog):
    assert catalog.versions.get("models") not in (None, "", "unversioned")


@pytest.mark.parametrize("model_id", CONTRACT_MODEL_IDS)
def test_contract_model_present(models, model_id):
    assert model_id in models, f"contract model id '{model_id}' missing from models.toml"
    assert models[model_id].id == model_id


def test_every_entry_has_source_and_as_of(models):
    for model_id, spec in models.items():
        assert spec.source.strip(), f"{model_id} has no source"
        assert spec.as_of is not None, f"{model_id} has no as_of"
        assert spec.name.strip(), f"{model_id} has no name"


def test_kv_heads_divide_attention_heads(models):
    for model_id, spec in models.items():
        if spec.mla is not None:
            continue
        assert spec.kv_heads <= spec.attention_heads, model_id
        assert spec.attention_heads % spec.kv_heads == 0, (
            f"{model_id}: {spec.attention_heads} heads not a multiple of {spec.kv_heads} KV heads"
        )


@pytest.mark.parametrize("model_id", MOE_MODEL_IDS)
def test_moe_models_have_moe_layout(models, model_id):
    spec = models[model_id]
    assert spec.moe is not None, f"{model_id} is a mixture-of-experts model but has no moe"
    assert spec.moe.experts_per_token <= spec.moe.experts
    assert spec.moe.dense_layers < spec.layers
    assert spec.published_active_params is not None, f"{model_id} lacks published_active_params"


def test_dense_models_have_no_moe(models):
    for model_id in CONTRACT_MODEL_IDS:
        if model_id not in MOE_MODEL_IDS:
            assert models[model_id].moe is None, f"{model_id} is dense but has moe set"


@pytest.mark.parametrize("model_id", [m for m in CONTRACT_MODEL_IDS if m.startswith("deepseek")])
def test_deepseek_models_have_mla(models, model_id):
    spec = models[model_id]
    assert spec.mla is not None, f"{model_id} uses multi-head latent attention but has no mla"
    assert spec.mla.kv_lora_rank > 0 and spec.mla.qk_rope_head_dim > 0


def test_sliding_window_entries_name_their_global_layers(models):
    for model_id, spec in models.items():
        if spec.sliding_window is not None:
            assert spec.global_layers is not None, (
                f"{model_id}: sliding_window without global_layers"
            )
            assert spec.global_layers <= spec.layers, model_id


def test_published_params_set_for_contract_models(models):
    for model_id in CONTRACT_MODEL_IDS:
        assert models[model_id].published_params, f"{model_id} lacks published_params"
