"""One configuration evaluated: its memory plan and operating points (app.engine.evaluate).

The memory plan fills one GPU with weights, runtime and then KV cache for as many sequences
as fit (METHOD.md "Step 2"); vLLM and SGLang admit sequences at the average context (paged KV,
blocks on demand), TensorRT-LLM and llama.cpp reserve the full context per sequence.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.evaluate import batch_cap, plan_memory, points_at, saturation_of
from app.engine.performance import Workload, saturation_batch

WORK = Workload(2000, 500)


@pytest.fixture(scope="module")
def vllm(configure_replica):
    return configure_replica("llama-3.1-70b", "h100-sxm", 4, weights="fp8", kv="fp8")


def test_per_gpu_bytes_are_weights_runtime_and_kv_of_each_sequence(vllm):
    plan = plan_memory(vllm, WORK, 8192)
    assert plan.per_gpu_bytes(0) == pytest.approx(plan.budget.weights + plan.budget.runtime)
    for n in (1, 10, 100):
        assert plan.per_gpu_bytes(n) - plan.per_gpu_bytes(0) == pytest.approx(
            n * plan.kv_per_sequence_peak, rel=1e-12)
    # the sequences that fit at peak context fill the KV budget, one more would not
    fit = plan.sequences_at_peak
    assert plan.per_gpu_bytes(fit) <= plan.budget.usable < plan.per_gpu_bytes(fit + 1)


def test_max_concurrent_sequences_is_capped_by_the_batch_limit(vllm):
    plan = plan_memory(vllm, WORK, 2500)
    assert plan.max_concurrent_sequences == min(plan.sequences_at_peak, plan.batch_limit)
    assert plan.batch_limit == vllm.settings.batch_limit


def test_paged_engines_admit_at_the_average_context_reserving_ones_at_the_peak(
        configure_replica):
    """vLLM admits sequences at prompt + output / 2 = 2,250 tokens of an 8,192-token peak;
    TensorRT-LLM reserves the peak for each."""
    paged = plan_memory(configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16"),
                        WORK, 8192)
    assert paged.sequences_admitted > paged.sequences_at_peak
    assert paged.kv_per_sequence_admitted < paged.kv_per_sequence_peak
    reserving = plan_memory(configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                                              engine="tensorrt-llm"), WORK, 8192)
    assert reserving.sequences_admitted == reserving.sequences_at_peak
    assert reserving.kv_per_sequence_admitted == reserving.kv_per_sequence_peak


def test_weights_that_do_not_fit_leave_no_sequence_and_a_batch_of_one(configure_replica):
    config = configure_replica("llama-3.1-405b", "l40s", 1, weights="bf16")
    plan = plan_memory(config, WORK, 2500)
    assert not plan.weights_fit
    assert plan.max_concurrent_sequences == 0
    assert batch_cap(config, plan, WORK) == 1.0  # the curve still has one point to show


def test_saturation_is_the_largest_batch_memory_and_the_engine_admit(vllm):
    plan = plan_memory(vllm, WORK, 2500)
    expected = saturation_batch(plan.sequences_admitted, plan.batch_limit,
                                vllm.settings.max_batched_tokens, WORK)
    point = saturation_of(vllm, plan, WORK)
    assert float(point.batch[0]) == expected == batch_cap(vllm, plan, WORK)
    assert float(point.output_tokens_per_s[0]) == pytest.approx(expected / float(point.itl_s[0]))


def test_points_at_are_the_closed_loop_at_each_concurrency(vllm):
    plan = plan_memory(vllm, WORK, 2500)
    users = [1.0, 8.0, 64.0]
    fine = points_at(vllm, plan, WORK, users)
    np.testing.assert_allclose(fine.concurrency, users)
    assert np.all(np.diff(fine.itl_s) > 0) and np.all(np.diff(fine.output_tokens_per_s) > 0)
    coarse = points_at(vllm, plan, WORK, users, coarse=True)  # the levers' quick what-ifs
    np.testing.assert_allclose(coarse.tokens_per_s_per_user, fine.tokens_per_s_per_user,
                               rtol=0.05)
