"""The sizing guide's worked example, recomputed (METHOD.md, "Worked example").

Forty analysts, Llama-3-70B in INT8, contexts up to 8,192 tokens, on two RTX PRO 6000
Blackwell Server Edition GPUs (96 GB, 1,792 GB/s) with t = 2 under vLLM (utilisation 0.9).
The guide claims about 25 GB of KV cache and 40-50 tokens/s per user; recomputed, the FP16
KV cache is 40 x 8,192 x 320 KiB = 107 GB (54 GB in FP8), it does not fit, and the decode is
well under 30 tokens/s per user. The scenario is resources/examples/worked-example.json.
"""

from __future__ import annotations

import copy

import pytest

from app.api import example

KIB = 1024
GB = 1e9


@pytest.fixture(scope="module")
def scenario() -> dict:
    return example("worked-example")


@pytest.fixture(scope="module")
def result(sized, scenario):
    return sized(scenario)


@pytest.fixture(scope="module")
def result_fp8_kv(sized, scenario):
    changed = copy.deepcopy(scenario)
    changed["precision"]["kv_cache"] = "fp8"
    return sized(changed)


def test_scenario_is_the_guides_case(scenario):
    w = scenario["workload"]
    assert (w["concurrent_users"], w["max_context_tokens"]) == (40, 8192)
    assert scenario["model"] == "llama-3-70b"
    assert scenario["precision"] == {"weights": "int8", "kv_cache": "fp16"}
    hw = scenario["hardware"]
    assert (hw["gpu"], hw["tensor_parallel"], hw["gpus_per_replica"]) == ("rtx-pro-6000-bse",
                                                                          2, 2)
    assert scenario["serving"]["engine"] == "vllm"


def test_fp16_kv_cache_is_107_gb_not_25(result):
    """METHOD.md: the load needs 40 x 8,192 x 320 KiB = 107 GB of FP16 KV cache; each of the
    two replicas it takes holds half (20 users, 53.7 GB)."""
    m = result.memory
    assert m.kv_bytes_per_token == 320 * KIB
    assert m.concurrency_sized == 20
    assert m.kv_cache_bytes == pytest.approx(20 * 8192 * 320 * KIB, rel=0.01)
    load = m.kv_cache_bytes * result.scale.replicas_for_load
    assert load == pytest.approx(40 * 8192 * 320 * KIB, rel=0.01)
    assert load == pytest.approx(107.4e9, rel=0.01)
    assert load > 4 * 25e9  # the guide's 25 GB is off by more than 4x


def test_weights_are_70_6_gb_class(result):
    """METHOD.md: 70.55e9 parameters; INT8 weights about 70.6 GB (+ 16-bit embedding/head)."""
    m = result.memory
    assert m.params_total == pytest.approx(70.55e9, rel=0.005)
    assert 70.55e9 <= m.weights_bytes <= 1.05 * 70.55e9
    assert m.weights_bytes_per_gpu == pytest.approx(m.weights_bytes / 2)


def test_fp16_kv_for_40_users_does_not_fit_one_replica(result):
    """Weights 70.6 GB + KV 107 GB + overhead exceed 2 x 96 GB at 90 % utilisation: one
    replica holds 39 of the 40 sequences at peak context, so the load takes two replicas of
    20 users, which fit (METHOD.md, Step 5: no load meets the targets, so the replicas follow
    what memory holds)."""
    m = result.memory
    assert m.weights_fit is True
    assert m.gpu_usable_bytes == pytest.approx(0.9 * m.gpu_memory_bytes)
    assert m.max_concurrent_sequences == 39
    # weights + KV alone (180 GB) just fit in 2 x 92.4 GB usable: the runtime tips it over
    assert m.runtime_bytes_per_gpu > 1e9
    assert (m.weights_bytes + 2 * m.kv_cache_bytes + m.runtime_bytes) > 2 * m.gpu_usable_bytes
    assert result.scale.replicas_for_load == 2
    assert m.fits is True
    assert m.per_gpu_bytes <= m.gpu_usable_bytes


def test_fp8_kv_fits(result_fp8_kv):
    """METHOD.md: 54 GB of KV cache in FP8, and then it fits."""
    m = result_fp8_kv.memory
    assert m.kv_cache_bytes == pytest.approx(40 * 8192 * 160 * KIB, rel=0.01)
    assert m.kv_cache_bytes == pytest.approx(54e9, rel=0.01)
    assert m.fits is True
    assert m.max_concurrent_sequences >= 40
    assert m.per_gpu_bytes <= m.gpu_usable_bytes


def test_tokens_per_s_per_user_misses_30(result):
    """METHOD.md: at 20 users per replica each gets 15.0 tokens/s, missing 30; the verdict
    says so with the figure."""
    p = result.performance
    assert p.at_concurrency.concurrency == 20
    assert p.at_concurrency.tokens_per_s_per_user == pytest.approx(15.0, abs=0.1)
    assert p.targets["tokens_per_s_per_user"] == 30
    assert p.targets_met["tokens_per_s_per_user"] is False
    assert result.verdict.state == "misses tokens/s"
    assert "15.0 tokens/s per user against 30" in result.verdict.message.text("en")
    # not the guide's 40-50 tokens/s, even for one user alone
    assert p.single_user.tokens_per_s_per_user < 40


def test_speed_at_load_is_under_the_full_bandwidth_roofline(result):
    """METHOD.md: with every user at full context a step reads about 89 GB per GPU, about
    50 ms at full bandwidth, i.e. at most 20 tokens/s. The engine's figure at its own batch
    and average context must stay under that roofline."""
    m, at = result.memory, result.performance.at_concurrency
    step_bytes = (m.weights_bytes_per_gpu
                  + at.batch * m.average_context_tokens * m.kv_bytes_per_token_per_gpu)
    assert at.tokens_per_s_per_user <= 1792e9 / step_bytes
    full = m.weights_bytes_per_gpu + 40 * 8192 * m.kv_bytes_per_token_per_gpu
    assert full / GB == pytest.approx(89, rel=0.03)
    assert 1792e9 / full == pytest.approx(20, rel=0.03)


def test_a_lever_says_what_would_meet_the_target(result):
    p = result.performance
    assert p.levers, "a missed target must come with levers"
    meeting = [lever for lever in p.levers if lever.meets]
    assert meeting, [lever.change for lever in p.levers]
    for lever in meeting:
        if lever.target == "tokens_per_s_per_user":
            assert lever.value_after >= 30
    # levers that meet are listed first
    flags = [lever.meets for lever in p.levers]
    assert flags == sorted(flags, reverse=True)


def test_naive_figure_is_bandwidth_over_int8_model(result):
    """Naive: 1,792 GB/s / (70.55e9 x 1 byte) = 25.4 tokens/s."""
    naive = result.performance.naive_tokens_per_s
    assert naive == pytest.approx(1792e9 / 70.55e9, rel=0.005)
    assert naive == pytest.approx(25.4, abs=0.05)


def test_naive_weights_is_params_times_two(result):
    assert result.memory.naive_weights_bytes == pytest.approx(2 * 70.55e9, rel=0.005)


def test_warnings_flag_the_fit_and_the_speed(result):
    assert len(result.warnings) >= 2
