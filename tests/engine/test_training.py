"""Training and fine-tuning formulas: model states, activations, LoRA, communication,
checkpoints and the layout search (app.engine.training).

Known answers from papers are in tests/validation/test_training_known_answers.py; this module
checks the properties that must hold whatever the numbers. The result the training chain
returns, and the field-named errors of invalid training blocks, are in
test_training_chain.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import training as tr

GB = 1e9
DAY = 86_400.0


# --------------------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(params=st.floats(1e6, 1e12), n=st.integers(1, 4096), extra=st.integers(1, 4096),
       stage=st.integers(1, 3), optimizer=st.sampled_from(sorted(tr.OPTIMIZER_MOMENT_BYTES)))
def test_more_data_parallel_gpus_never_increase_model_state(params, n, extra, stage,
                                                            optimizer):
    """Under ZeRO >= 1 each GPU's share of the model states only shrinks as N_d grows."""
    k = tr.optimizer_bytes_per_param(optimizer)
    small = tr.zero_model_states(params, n, stage, 2, 2, k).total
    large = tr.zero_model_states(params, n + extra, stage, 2, 2, k).total
    assert large <= small * (1 + 1e-12)


@settings(max_examples=100, deadline=None)
@given(params=st.floats(1e6, 1e12), n=st.integers(2, 4096))
def test_zero_stages_never_increase_model_state(params, n):
    totals = [tr.zero_model_states(params, n, stage).total for stage in range(4)]
    assert totals == sorted(totals, reverse=True)
    assert totals[0] == pytest.approx(16 * params)
    assert totals[3] == pytest.approx(16 * params / n)


@settings(max_examples=300, deadline=None)
@given(s=st.integers(1, 131_072), b=st.integers(1, 64), heads=st.sampled_from([8, 32, 64, 128]),
       head_dim=st.sampled_from([64, 128]), t=st.sampled_from([1, 2, 4, 8]),
       sp=st.booleans(), flash=st.booleans())
def test_recomputation_never_increases_activations(s, b, heads, head_dim, t, sp, flash):
    """full <= selective <= none, for every shape, parallelism and attention kernel."""
    h = heads * head_dim
    sizes = [tr.activation_bytes_per_layer(s, b, h, heads, t, sp, mode, flash)
             for mode in ("full", "selective", "none")]
    assert sizes[0] <= sizes[1] <= sizes[2]


@settings(max_examples=100, deadline=None)
@given(s=st.integers(16, 65_536), t=st.sampled_from([2, 4, 8]))
def test_sequence_parallelism_never_increases_activations(s, t):
    for mode in ("none", "selective"):
        assert (tr.activation_bytes_per_layer(s, 1, 8192, 64, t, True, mode)
                <= tr.activation_bytes_per_layer(s, 1, 8192, 64, t, False, mode))


def test_flash_attention_removes_the_quadratic_term():
    none_flash = tr.activation_bytes_per_layer(8192, 1, 4096, 32, 1, False, "none", True)
    selective = tr.activation_bytes_per_layer(8192, 1, 4096, 32, 1, False, "selective")
    assert none_flash == selective == 34 * 8192 * 4096


def test_lora_targets_nest(catalog):
    model = catalog.model("llama-3.1-70b")
    qv = tr.lora_params(model, 16, "qv")
    attention = tr.lora_params(model, 16, "attention")
    everything = tr.lora_params(model, 16, "all-linear")
    assert 0 < qv < attention < everything
    assert tr.lora_params(model, 32, "all-linear") == 2 * everything  # linear in the rank


def test_lora_rank_definition_by_hand(catalog):
    """r (d_in + d_out) per matrix: Llama-3.1-8B attention only, r = 8:
    32 layers x 8 x [(4096 + 4096) q + 2 (4096 + 1024) k, v + (4096 + 4096) o]."""
    model = catalog.model("llama-3.1-8b")
    expected = 32 * 8 * (8192 + 2 * 5120 + 8192)
    assert tr.lora_params(model, 8, "attention") == expected


def test_qlora_base_is_about_a_quarter_of_bf16(catalog):
    from app.engine.memory import parameter_counts

    counts = parameter_counts(catalog.model("llama-3.1-70b"))
    bf16 = tr.frozen_weight_bytes(counts, "lora", 4.127)
    nf4 = tr.frozen_weight_bytes(counts, "qlora", 4.127)
    assert bf16 == pytest.approx(2 * counts.total)
    assert 0.25 < nf4 / bf16 < 0.3  # 4.127 bits on the matrices, 16 bits on the embeddings


def test_all_reduce_cost_factor():
    assert tr.all_reduce_s(1e9, 1, 1e9) == 0
    assert tr.all_reduce_s(1e9, 2, 1e9) == pytest.approx(1.0)
    assert tr.all_reduce_s(1e9, 64, 1e9) == pytest.approx(2 * 63 / 64)
    # ZeRO-3 moves 1.5x the data of plain data parallelism
    assert tr.dp_communication_s(1e9, 8, 3, 1e9) == pytest.approx(
        1.5 * tr.dp_communication_s(1e9, 8, 0, 1e9))


def test_checkpoint_write_is_capped_per_scalable_unit():
    per_node = 2e9
    assert tr.checkpoint_write_bandwidth(4, per_node) == 8e9
    assert tr.checkpoint_write_bandwidth(64, per_node, 7e9, 32) == 14e9  # 2 SUs x 7 GB/s


def test_mtbf_shrinks_with_gpu_count():
    assert tr.cluster_mtbf_s(50_000, 1000) == pytest.approx(tr.cluster_mtbf_s(50_000, 100) / 10)


def test_gpu_counts_are_whole_nodes_beyond_one_node():
    counts = tr.gpu_counts(8, 1024)
    assert counts[:3] == [1, 2, 4]
    assert all(n % 8 == 0 for n in counts[3:])
    assert counts == sorted(set(counts)) and counts[-1] <= 1024


# --------------------------------------------------------------------------- checkpoints, data


def test_checkpoint_write_rate_and_resume_time_known_answers():
    """A 112 GB checkpoint (8B params x 14 B) saved in 20 s is written at 5.6 GB/s; read back
    by 4 nodes at 2 GB/s each it takes 14 s."""
    assert tr.checkpoint_write_rate(112e9, 20.0) == pytest.approx(5.6e9)
    assert tr.checkpoint_write_rate(112e9, 0.0) == 0.0
    assert tr.resume_s(112e9, 2e9, 4) == pytest.approx(14.0)


def test_the_data_set_is_read_at_the_rate_the_job_consumes_tokens():
    """480 sequences of 8,192 tokens per 10 s step: 393,216 tokens/s; stored at 4 B per token
    (1 TB for 250 G tokens) that is 1.57 MB/s."""
    tokens_per_s = tr.training_tokens_per_s(480 * 8192, 10.0)
    assert tokens_per_s == pytest.approx(393_216)
    assert tr.dataset_read_bytes_per_s(tokens_per_s, 1e12, 250e9) == pytest.approx(1_572_864)
    assert tr.training_tokens_per_s(1000, 0.0) == 0.0
    assert tr.dataset_read_bytes_per_s(1000, 1e12, 0) == 0.0


def test_activations_are_exact_only_for_the_architecture_korthikanti_derived(catalog):
    """Korthikanti et al. 2022 assume a GeLU MLP of width 4h and multi-head attention: GPT-J
    (4h GeLU, MHA) is exact; Llama (SwiGLU, GQA), Mixtral (experts) and DeepSeek-V3 (MLA) are
    approximations."""
    assert not tr.activations_approximate(catalog.model("gpt-j-6b"))
    for model in ("llama-3.1-8b", "mixtral-8x7b", "deepseek-v3"):
        assert tr.activations_approximate(catalog.model(model)), model
