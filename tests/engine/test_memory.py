"""Step 2 of the method: parameters, weights and KV cache (app.engine.memory, capacity).

Every known answer names its source: METHOD.md ("Step 2 — Memory"), the publisher's model
card or paper, or llama.cpp's reported file sizes.
"""

from __future__ import annotations

import math

import pytest

from app.engine.capacity import weights_per_gpu
from app.engine.memory import (
    kv_bytes_per_sequence,
    kv_bytes_per_sequence_at,
    kv_bytes_per_token_per_layer,
    kv_bytes_per_token_replica,
    kv_cache_bytes_per_token,
    kv_heads_per_rank,
    layer_split,
    mla_cache_bytes_per_token,
    naive_weights_bytes,
    parameter_counts,
    round_up,
    state_bytes_per_sequence,
    state_bytes_per_stage,
    weights_bytes,
)

GIB = 2**30

# --------------------------------------------------------------------------- parameter counts

# (model id, published total, published active or None, tolerance on active)
# Sources: METHOD.md Step 2 ("Check against published counts"); Meta Llama 3.1 model card
# (8B: 8.03B, 70B: 70.55B, 405B: 405.9B on the Hugging Face pages); Mistral AI, "Mixtral of
# experts" (46.7B total, 12.9B per token); DeepSeek-V3 Technical Report, arXiv 2412.19437
# (671B total, 37B activated; the report rounds, hence 2 %); Qwen3-30B-A3B model card (30.5B
# total, 3.3B activated, rounded to one decimal, hence 2 %).
PUBLISHED = [
    ("llama-3.1-8b", 8.03e9, None, None),
    ("llama-3.1-70b", 70.55e9, None, None),
    ("llama-3.1-405b", 405.9e9, None, None),
    ("mixtral-8x7b", 46.7e9, 12.9e9, 0.005),
    ("deepseek-v3", 671e9, 37e9, 0.02),
    ("qwen3-30b-a3b", 30.5e9, 3.3e9, 0.02),
]


@pytest.mark.parametrize(("model_id", "total", "active", "active_tol"), PUBLISHED)
def test_parameter_count_matches_published(catalog, model_id, total, active, active_tol):
    counts = parameter_counts(catalog.model(model_id))
    assert counts.total == pytest.approx(total, rel=0.005)
    if active is None:
        assert counts.active == counts.total  # dense: every parameter is active
    else:
        assert counts.active == pytest.approx(active, rel=active_tol)
        assert counts.active < 0.3 * counts.total


# Exact checkpoint totals: the safetensors parameter counts shown on the Hugging Face model
# pages (Llama-2-7b-hf 6,738,415,616; Llama-2-70b-hf 68,976,648,192; Meta-Llama-3-8B /
# Llama-3.1-8B 8,030,261,248; Llama-3.1-405B 405,853,388,800; Mistral-7B-v0.3 7,248,023,552).
@pytest.mark.parametrize(("model_id", "exact"), [
    ("llama-2-7b", 6_738_415_616),
    ("llama-2-70b", 68_976_648_192),
    ("llama-3.1-8b", 8_030_261_248),
    ("llama-3.1-405b", 405_853_388_800),
    ("mistral-7b", 7_248_023_552),
])
def test_parameter_count_equals_checkpoint_total(catalog, model_id, exact):
    assert parameter_counts(catalog.model(model_id)).total == exact


def test_llama_3_1_8b_breakdown_by_tensor(catalog):
    """METHOD.md Step 2 per-layer formulas, by hand: h=4096, n_h=32, n_kv=8, d_h=128,
    f=14336, V=128256, L=32, untied head."""
    counts = parameter_counts(catalog.model("llama-3.1-8b"))
    h, n_h, n_kv, d_h, f, V, L = 4096, 32, 8, 128, 14336, 128256, 32
    assert counts.embedding == V * h == 525_336_576
    assert counts.lm_head == V * h
    assert counts.attention == L * (h * n_h * d_h + 2 * h * n_kv * d_h + n_h * d_h * h)
    assert counts.dense_mlp == L * 3 * h * f
    assert counts.norms == L * 2 * h + h
    assert counts.routed_experts == counts.router == counts.biases == 0
    assert counts.kept_16bit == 2 * V * h + L * 2 * h + h


def test_mixtral_active_counts_two_of_eight_experts(catalog):
    """Mixtral: every layer MoE, E=8, k=2, f_e=14336: active = total - 6 experts per layer."""
    counts = parameter_counts(catalog.model("mixtral-8x7b"))
    expert = 3 * 4096 * 14336
    assert counts.routed_experts == 32 * 8 * expert
    assert counts.router == 32 * 4096 * 8
    assert counts.total - counts.active == 32 * 6 * expert


# --------------------------------------------------------------------------- KV cache


def test_kv_per_token_llama_3_1_70b_fp16():
    """METHOD.md Step 2: 2*80*8*128*2 = 327,680 B = 320 KiB per token."""
    assert kv_cache_bytes_per_token(80, 8, 128, 2) == 327_680 == 320 * 1024


def test_kv_one_8k_sequence_llama_3_1_70b_is_2_5_gib(catalog):
    """METHOD.md Step 2: 2.5 GiB for one 8K-token sequence (FP16, whole replica)."""
    model = catalog.model("llama-3.1-70b")
    per_layer = kv_bytes_per_token_per_layer(model, 2.0)
    assert per_layer * model.layers == 327_680
    assert kv_bytes_per_sequence(model, 8192, 2.0) == 2.5 * GIB


def test_kv_per_token_deepseek_v3_mla_bf16(catalog):
    """METHOD.md Step 2 and the DeepSeek-V3 report: the latent (512) and the RoPE key (64)
    are cached: 61*(512+64)*2 = 70,272 B per token."""
    assert mla_cache_bytes_per_token(61, 512, 64, 2) == 70_272
    model = catalog.model("deepseek-v3")
    assert kv_bytes_per_token_per_layer(model, 2.0) * model.layers == 70_272
    # not the 128 KV heads x 192 of config.json: that would be 2*61*128*192*2 = 5,996,544 B
    assert kv_bytes_per_token_per_layer(model, 2.0) * model.layers < 5_996_544 / 80


@pytest.mark.parametrize("t", [2, 4, 8, 16])
def test_mla_latent_is_replicated_on_every_rank(catalog, t):
    """METHOD.md: the MLA latent is replicated on every tensor-parallel rank, not split."""
    model = catalog.model("deepseek-v3")
    assert kv_bytes_per_token_per_layer(model, 2.0, t) == kv_bytes_per_token_per_layer(model, 2.0)


@pytest.mark.parametrize(("kv_heads", "t", "per_rank"), [
    (8, 1, 8), (8, 2, 4), (8, 4, 2), (8, 8, 1), (8, 16, 1), (4, 8, 1), (1, 4, 1), (128, 8, 16),
])
def test_kv_heads_per_rank_replicates_when_fewer_heads_than_ranks(kv_heads, t, per_rank):
    """METHOD.md: max(1, n_kv/t) heads per rank; n_kv=8 on t=16 holds 1 head, not 0.5."""
    assert kv_heads_per_rank(kv_heads, t) == per_rank


def test_kv_per_gpu_under_tp_llama_3_1_70b(catalog):
    """Per layer and token, FP16: 4 heads at t=2 (2048 B), 1 head at t=8 and at t=16."""
    model = catalog.model("llama-3.1-70b")
    one_head = 2 * 128 * 2  # K and V of one head, 2 bytes each
    assert kv_bytes_per_token_per_layer(model, 2.0, 2) == 4 * one_head
    assert kv_bytes_per_token_per_layer(model, 2.0, 8) == one_head
    assert kv_bytes_per_token_per_layer(model, 2.0, 16) == one_head  # replicated, not 0.5


def test_sliding_window_caps_local_layers_gemma_3_27b(catalog):
    """Gemma 3 technical report / config: 62 layers, window 1024 on 52 local layers, 10 global.

    At 32K tokens each local layer holds at most 1024 tokens, so the sequence needs far less
    than 62 full layers would.
    """
    model = catalog.model("gemma-3-27b")
    assert layer_split(model) == (10, 52)
    per_layer = kv_bytes_per_token_per_layer(model, 2.0)
    assert per_layer == 2 * 16 * 128 * 2
    seq = kv_bytes_per_sequence(model, 32768, 2.0)
    assert seq == per_layer * (10 * 32768 + 52 * 1024)
    full = per_layer * 62 * 32768
    assert seq < 0.2 * full
    # beyond the window only the 10 global layers grow
    grow = kv_bytes_per_sequence(model, 32768, 2.0) - kv_bytes_per_sequence(model, 16384, 2.0)
    assert grow == per_layer * 10 * 16384
    # below the window every layer holds the whole context
    assert kv_bytes_per_sequence(model, 1000, 2.0) == per_layer * 62 * 1000


@pytest.mark.parametrize(("tokens", "rounded"), [(1, 16), (16, 16), (17, 32), (1000, 1008),
                                                  (1024, 1024), (8193, 8208)])
def test_paged_blocks_round_up_per_sequence(catalog, tokens, rounded):
    """vLLM allocates KV in blocks of 16 tokens (Kwon et al. 2023): round up per sequence."""
    model = catalog.model("llama-3.1-8b")
    per_token = kv_bytes_per_token_per_layer(model, 2.0) * model.layers
    assert round_up(tokens, 16) == rounded
    assert kv_bytes_per_sequence(model, tokens, 2.0, block_tokens=16) == per_token * rounded
    assert kv_bytes_per_sequence(model, tokens, 2.0, block_tokens=1) == per_token * tokens


def test_pipeline_stage_holds_ceil_of_layers(catalog):
    """Under pipeline parallelism the fullest stage holds ceil(L/p) layers: 27 of 80 at p=3."""
    model = catalog.model("llama-3.1-70b")
    whole = kv_bytes_per_sequence(model, 4096, 2.0)
    assert kv_bytes_per_sequence(model, 4096, 2.0, pipeline_parallel=3) == pytest.approx(
        whole * 27 / 80, rel=1e-12)
    assert weights_per_gpu(80e9, model, 2, 3) == pytest.approx(80e9 / 2 * 27 / 80, rel=1e-12)


# --------------------------------------------------------------------------- weights


@pytest.mark.parametrize("fmt", ["fp16", "bf16"])
def test_16bit_weights_are_two_bytes_per_parameter(catalog, fmt):
    """METHOD.md Step 2: BF16/FP16 16 bits for every tensor."""
    for model_id in ("llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "gemma-3-27b"):
        counts = parameter_counts(catalog.model(model_id))
        assert weights_bytes(counts, catalog.precision(fmt)) == 2 * counts.total


def test_fp32_is_four_bytes_per_parameter(catalog):
    counts = parameter_counts(catalog.model("gpt-j-6b"))
    assert weights_bytes(counts, catalog.precision("fp32")) == 4 * counts.total


@pytest.mark.parametrize("fmt", ["int8", "fp8"])
def test_8bit_keeps_embedding_head_and_norms_in_16bit(catalog, fmt):
    """METHOD.md Step 2: embedding, output head, norms (and router) stay 16 bit.

    Llama-3.1-70B: kept = 2*V*h + 2*L*h + h = 2,102,665,216 parameters; the other
    68,451,041,280 take 1 byte: 68,451,041,280 + 2 * 2,102,665,216 = 72,656,371,712 B.
    """
    counts = parameter_counts(catalog.model("llama-3.1-70b"))
    assert counts.kept_16bit == 2 * 128256 * 8192 + 2 * 80 * 8192 + 8192 == 2_102_665_216
    assert weights_bytes(counts, catalog.precision(fmt)) == 72_656_371_712
    # more than params x 1 byte, less than params x 1.1
    assert counts.total < weights_bytes(counts, catalog.precision(fmt)) < 1.1 * counts.total


def test_moe_router_kept_in_16bit(catalog):
    counts = parameter_counts(catalog.model("mixtral-8x7b"))
    fp8 = weights_bytes(counts, catalog.precision("fp8"))
    kept = counts.embedding + counts.lm_head + counts.norms + counts.router
    assert fp8 == (counts.total - kept) * 1 + kept * 2


def test_int4_awq_is_4_25_bits_on_the_matrices(catalog):
    """METHOD.md Step 2: INT4 AWQ/GPTQ group 128 about 4.25 bits (4 bits + 16-bit scale and
    zero per 128 weights); 16-bit parts kept."""
    assert catalog.precision("int4-awq").bits == 4.25
    counts = parameter_counts(catalog.model("llama-3.1-8b"))
    expected = counts.quantisable * 4.25 / 8 + counts.kept_16bit * 2
    assert weights_bytes(counts, catalog.precision("int4-awq")) == pytest.approx(expected,
                                                                               rel=1e-12)


def test_gguf_q4_0_llama_2_70b_matches_llama_cpp(catalog):
    """llama.cpp reports 36.37 GiB for Llama-2-70B Q4_0 (llama-bench model size); METHOD.md
    Step 2 gives Q4_0 4.5 bits (32 4-bit weights + one FP16 scale)."""
    assert catalog.precision("gguf-q4_0").bits == 4.5
    counts = parameter_counts(catalog.model("llama-2-70b"))
    size_gib = weights_bytes(counts, catalog.precision("gguf-q4_0")) / GIB
    assert size_gib == pytest.approx(36.37, rel=0.03)


def test_gguf_q4_k_m_llama_3_8b_matches_llama_cpp(catalog):
    """llama.cpp reports 4.58 GiB for Llama-3-8B Q4_K_M (llama-bench model size); METHOD.md
    Step 2 gives Q4_K_M about 4.85 bits per weight.

    Regression: GGUF formats once kept token_embd and output (1.05e9 parameters) at 16 bit,
    giving 5.90 GiB (+29 %); llama.cpp quantises them too (Q4_K / Q6_K in Q4_K_M)."""
    counts = parameter_counts(catalog.model("llama-3-8b"))
    size_gib = weights_bytes(counts, catalog.precision("gguf-q4_k_m")) / GIB
    assert size_gib == pytest.approx(4.58, rel=0.05)


@pytest.mark.parametrize("formats", [
    ("fp32", "bf16", "fp8", "int4-awq"),
    ("bf16", "gguf-q8_0", "gguf-q4_k_m", "gguf-q4_0"),
])
def test_formats_order_by_size(catalog, formats):
    counts = parameter_counts(catalog.model("llama-3.1-70b"))
    sizes = [weights_bytes(counts, catalog.precision(p)) for p in formats]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] > counts.total * 4 / 8  # never below 4 bits per parameter


# --------------------------------------------------------------------------- naive figures


def test_naive_70b_fp16_is_140_gb():
    """The sizing guide's rule of thumb (METHOD.md intro): 70B x 2 bytes = 140 GB."""
    assert naive_weights_bytes(70e9) == 140e9
    assert naive_weights_bytes(70e9, 1.0) == 70e9


def test_naive_7b_is_13_gib():
    """The guide's 7B x 2 bytes = 14 GB = 13.0 GiB."""
    assert round(naive_weights_bytes(7e9) / GIB, 1) == 13.0
    assert math.isclose(naive_weights_bytes(7e9) / GIB, 13.04, rel_tol=1e-3)


@pytest.mark.parametrize(("t", "per_token"), [(1, 327_680), (8, 327_680), (16, 655_360)])
def test_kv_per_token_of_a_replica_counts_replicated_heads_on_every_rank(catalog, t, per_token):
    """Llama-3.1-70B FP16: 2 x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B per token; at
    t = 16 each of the 8 heads is stored on two ranks, so the replica holds twice that."""
    model = catalog.model("llama-3.1-70b")
    assert kv_bytes_per_token_replica(model, 2.0, t) == per_token


def test_kv_at_the_average_context_scales_linearly_from_the_peak():
    # 2.5 GiB at 8,192 tokens is 1.25 GiB at 4,096.
    assert kv_bytes_per_sequence_at(2.5 * GIB, 0.0, 8192, 4096) == pytest.approx(1.25 * GIB)
    assert kv_bytes_per_sequence_at(2.5 * GIB, 0.0, 8192, 8192) == pytest.approx(2.5 * GIB)
    # a linear-attention state of 0.5 GiB does not shrink with the context
    assert kv_bytes_per_sequence_at(2.5 * GIB, 0.5 * GIB, 8192, 4096) == pytest.approx(1.5 * GIB)


def test_the_state_of_the_fullest_stage_is_its_share_of_the_layers(catalog):
    """A linear-attention model of the catalog (Qwen3-Next): the fullest of 3 pipeline stages
    holds ceil(L / 3) of the L layers, and that share of the state."""
    model = next((m for m in catalog.models.values() if m.linear_attention is not None), None)
    if model is None:
        pytest.skip("no linear-attention model in the catalog")
    whole = state_bytes_per_stage(model, 1, 1)
    assert whole == pytest.approx(state_bytes_per_sequence(model, 1))
    share = math.ceil(model.layers / 3) / model.layers
    assert state_bytes_per_stage(model, 1, 3) == pytest.approx(whole * share)
