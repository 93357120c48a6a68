"""Known answers for the models added for issue 15 (the 2025-26 generation).

Each model's parameter count (total and active) is checked against the figure its publisher
states, and its KV cache per token against the config.json arithmetic, written out by hand:
``2 x L x n_kv x d_h x 2 B`` in BF16 (METHOD.md, Step 2), or the MLA latent
``L x (kv_lora_rank + qk_rope_head_dim) x 2 B``. Tolerances follow the precision of the
published figure (a card's "480B" is rounded to three digits, "1T" to one); where a publisher
counts differently (vision encoder included, embeddings left out of "active"), the test says
so and checks the figure the way the publisher counts it.
"""

from __future__ import annotations

import pytest

from app.catalog.loader import load_catalog
from app.engine.memory import kv_bytes_per_token_per_layer, layer_split, parameter_counts

NEW_MODELS = (
    "llama-4-scout", "qwen3-4b", "qwen3-14b", "qwen3-coder-480b-a35b", "deepseek-v3.1",
    "kimi-k2", "kimi-k2.5", "glm-4.5", "glm-4.6", "mistral-large-2", "mistral-small-3.2",
    "phi-4", "gemma-3-4b", "gemma-3-12b", "minimax-m2",
)
MOE = {"llama-4-scout", "qwen3-coder-480b-a35b", "deepseek-v3.1", "kimi-k2", "kimi-k2.5",
       "glm-4.5", "glm-4.6", "minimax-m2"}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


def counts(catalog, model_id):
    return parameter_counts(catalog.model(model_id))


@pytest.mark.parametrize("model_id", NEW_MODELS)
def test_new_model_loads_with_its_published_counts(catalog, model_id):
    spec = catalog.model(model_id)
    assert spec.published_params, model_id
    assert (spec.moe is not None) == (model_id in MOE), model_id
    if spec.moe is not None:
        assert spec.published_active_params, model_id


# (model id, published total, tolerance, source of the figure)
TOTALS = [
    # Meta's 109B includes the vision encoder (about 0.8B); the language model is 107.8B.
    ("llama-4-scout", 109e9, 0.015, "Llama 4 model card: 109B total"),
    ("qwen3-4b", 4.0e9, 0.01, "Qwen3-4B card: 4.0B"),
    ("qwen3-14b", 14.8e9, 0.005, "Qwen3-14B card: 14.8B"),
    ("qwen3-coder-480b-a35b", 480e9, 0.005, "Qwen3-Coder card: 480B total"),
    ("deepseek-v3.1", 671e9, 0.005, "DeepSeek-V3.1 card: 671B total"),
    # "1T" is rounded to one digit: 1.026T counted (a GitHub counter expects 1,026B).
    ("kimi-k2", 1.0e12, 0.03, "Kimi K2 card: 1T total"),
    ("kimi-k2.5", 1.0e12, 0.03, "Kimi K2.5 card: 1T total (language model)"),
    # Z.ai's 355B lies between the count without (352.8B) and with the MTP layer.
    ("glm-4.5", 355e9, 0.01, "GLM-4.5 card: 355B total"),
    ("glm-4.6", 355e9, 0.01, "GLM-4.6 card: 355B total"),
    ("mistral-large-2", 123e9, 0.005, "mistral.ai Mistral Large 2: 123B"),
    ("phi-4", 14.7e9, 0.005, "microsoft/phi-4 Hugging Face page: 14.7B"),
    ("gemma-3-4b", 3.884e9, 0.002, "Gemma 3 report Table 1: 675M + 3,209M"),
    ("gemma-3-12b", 11.771e9, 0.002, "Gemma 3 report Table 1: 1,012M + 10,759M"),
    ("minimax-m2", 230e9, 0.01, "MiniMax-M2 card: 230B total"),
]


@pytest.mark.parametrize(("model_id", "total", "tolerance", "source"), TOTALS)
def test_total_parameters_match_the_publisher(catalog, model_id, total, tolerance, source):
    assert counts(catalog, model_id).total == pytest.approx(total, rel=tolerance), source


def test_checkpoint_totals_count_exactly(catalog):
    """Safetensors totals: Mistral Small 3.2's text model 23,572,403,200 (meta-device count
    quoted in a GitHub memory estimator); MiniMax-M2.5, the same layout as M2,
    228,703,644,928 (HF API, quoted in a GitHub parameter-counter test) -- short by the
    per-layer QK norm this schema counts per head (62 x (6144 + 1024 - 256)) and 13.9M more."""
    assert counts(catalog, "mistral-small-3.2").total == 23_572_403_200
    assert counts(catalog, "minimax-m2").total == pytest.approx(228_703_644_928, rel=1e-4)


@pytest.mark.parametrize(("model_id", "non_embedding"), [
    ("qwen3-4b", 3.6e9),  # card: 3.6B non-embedding
    ("qwen3-14b", 13.2e9),  # card: 13.2B non-embedding
    ("gemma-3-4b", 3.209e9),  # report Table 1
    ("gemma-3-12b", 10.759e9),  # report Table 1
])
def test_non_embedding_parameters_match_the_publisher(catalog, model_id, non_embedding):
    c = counts(catalog, model_id)
    assert c.total - c.embedding - c.lm_head == pytest.approx(non_embedding, rel=0.01)


def test_dense_models_are_all_active(catalog):
    for model_id in NEW_MODELS:
        if model_id not in MOE:
            c = counts(catalog, model_id)
            assert c.active == c.total, model_id


# (model id, published active, tolerance, leave out embedding and head, source)
ACTIVE = [
    ("llama-4-scout", 17e9, 0.02, False, "Llama 4 card: 17B active"),
    ("qwen3-coder-480b-a35b", 35e9, 0.02, False, "Qwen3-Coder card: 35B activated"),
    ("deepseek-v3.1", 37e9, 0.02, False, "DeepSeek-V3.1 card: 37B activated"),
    ("kimi-k2", 32e9, 0.03, False, "Kimi K2 card: 32B activated"),
    ("kimi-k2.5", 32e9, 0.03, False, "Kimi K2.5 card: 32B activated"),
    # Z.ai and MiniMax count active parameters without the embedding and output head.
    ("glm-4.5", 32e9, 0.02, True, "GLM-4.5 card: 32B active"),
    ("glm-4.6", 32e9, 0.02, True, "GLM-4.6 card: 32B active"),
    ("minimax-m2", 10e9, 0.03, True, "MiniMax-M2 card: 10B active"),
]


@pytest.mark.parametrize(("model_id", "active", "tolerance", "without_embeddings", "source"),
                         ACTIVE)
def test_active_parameters_match_the_publisher(catalog, model_id, active, tolerance,
                                               without_embeddings, source):
    c = counts(catalog, model_id)
    counted = c.active - (c.embedding + c.lm_head if without_embeddings else 0)
    assert counted == pytest.approx(active, rel=tolerance), source
    assert c.active < 0.2 * c.total  # Scout, the densest: 17B of 108B


# (model id, KV bytes per token in BF16 for the whole model, the arithmetic)
KV_PER_TOKEN = [
    ("llama-4-scout", 2 * 48 * 8 * 128 * 2),  # 196,608 B below the 8K chunk
    ("qwen3-4b", 2 * 36 * 8 * 128 * 2),  # 147,456 B = 144 KiB
    ("qwen3-14b", 2 * 40 * 8 * 128 * 2),  # 163,840 B = 160 KiB
    ("qwen3-coder-480b-a35b", 2 * 62 * 8 * 128 * 2),  # 253,952 B
    ("deepseek-v3.1", 61 * (512 + 64) * 2),  # 70,272 B: the MLA latent
    ("kimi-k2", 61 * (512 + 64) * 2),
    ("kimi-k2.5", 61 * (512 + 64) * 2),
    ("glm-4.5", 2 * 92 * 8 * 128 * 2),  # 376,832 B
    ("glm-4.6", 2 * 92 * 8 * 128 * 2),
    ("mistral-large-2", 2 * 88 * 8 * 128 * 2),  # 360,448 B = 352 KiB
    ("mistral-small-3.2", 2 * 40 * 8 * 128 * 2),  # 163,840 B
    ("phi-4", 2 * 40 * 10 * 128 * 2),  # 204,800 B = 200 KiB
    ("gemma-3-4b", 2 * 34 * 4 * 256 * 2),  # 139,264 B below the 1K window
    ("gemma-3-12b", 2 * 48 * 8 * 256 * 2),  # 393,216 B below the 1K window
    ("minimax-m2", 2 * 62 * 8 * 128 * 2),  # 253,952 B
]


@pytest.mark.parametrize(("model_id", "per_token"), KV_PER_TOKEN)
def test_kv_bytes_per_token(catalog, model_id, per_token):
    model = catalog.model(model_id)
    assert kv_bytes_per_token_per_layer(model, 2.0) * model.layers == per_token


@pytest.mark.parametrize(("model_id", "split"), [
    ("gemma-3-4b", (5, 29)),  # sliding_window_pattern 6 over 34 layers
    ("gemma-3-12b", (8, 40)),  # 6 over 48
    ("llama-4-scout", (12, 36)),  # global NoPE attention on every 4th of 48 layers
])
def test_local_and_global_layers(catalog, model_id, split):
    assert layer_split(catalog.model(model_id)) == split
