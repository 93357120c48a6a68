"""Step 2 per GPU: how one GPU's memory divides and how many sequences fit
(app.engine.capacity).

Sources: METHOD.md "Step 2" (vLLM ``gpu_memory_utilization`` x memory; TensorRT-LLM
``kv_cache_free_gpu_mem_fraction`` x what is free after weights and runtime; runtime = base +
CUDA graphs + NCCL buffers when t >= 2 + activations over the token budget + FP32 logits);
vLLM docs, "Engine arguments" (gpu_memory_utilization 0.9); TensorRT-LLM docs,
perf-overview.md (kv_cache_free_gpu_mem_fraction 0.95).
"""

from __future__ import annotations

import pytest

from app.engine.capacity import (
    EngineSettings,
    gpu_budget,
    runtime_memory,
    sequences_that_fit,
    weights_per_gpu,
)

GB = 1e9
GIB = 2**30


def settings(catalog, engine: str, **overrides) -> EngineSettings:
    return EngineSettings.from_profile(
        catalog.engine(engine), overrides.get("memory_fraction"), overrides.get("batch_limit"),
        overrides.get("batched_tokens"), catalog.default("cuda_graph_gb"),
        catalog.default("logits_bytes_per_element"))


def test_vllm_may_use_its_fraction_of_the_whole_gpu(catalog):
    """vLLM on an H100 SXM (85.5 GB as the driver reports it): usable = 0.9 x memory, and the
    KV budget is what weights (40 GB) and runtime (5 GB) leave of it."""
    gpu = catalog.gpu("h100-sxm")
    budget = gpu_budget(gpu, 40 * GB, 5 * GB, settings(catalog, "vllm"))
    assert budget.memory == gpu.memory_bytes == pytest.approx(85.52e9, rel=1e-3)
    assert budget.usable == pytest.approx(0.9 * gpu.memory_bytes, rel=1e-12)
    assert budget.kv_budget == pytest.approx(0.9 * gpu.memory_bytes - 45 * GB, rel=1e-12)


def test_tensorrt_llm_gives_its_fraction_of_what_is_free_to_the_kv_cache(catalog):
    """TensorRT-LLM: KV = 0.95 x (memory - weights - runtime); usable is weights + runtime +
    that KV budget, so more of the card is used than vLLM's 90 % when the weights are small."""
    gpu = catalog.gpu("h100-sxm")
    budget = gpu_budget(gpu, 16 * GB, 3 * GB, settings(catalog, "tensorrt-llm"))
    free = gpu.memory_bytes - 19 * GB
    assert budget.kv_budget == pytest.approx(0.95 * free, rel=1e-12)
    assert budget.usable == pytest.approx(19 * GB + 0.95 * free, rel=1e-12)
    assert budget.usable > 0.9 * gpu.memory_bytes


def test_weights_larger_than_the_gpu_leave_a_negative_kv_budget_and_no_sequence(catalog):
    gpu = catalog.gpu("l4")
    for engine in ("vllm", "tensorrt-llm"):
        budget = gpu_budget(gpu, 2 * gpu.memory_bytes, 2 * GB, settings(catalog, engine))
        assert budget.kv_budget <= 0
        assert sequences_that_fit(budget.kv_budget, 1e9) == 0


@pytest.mark.parametrize(("budget", "per_sequence", "expected"), [
    (10e9, 1e9, 10), (10.5e9, 1e9, 10), (0.99e9, 1e9, 0), (0.0, 1e9, 0), (-5e9, 1e9, 0),
    (5e9, 0.0, 0),
])
def test_only_whole_sequences_fit(budget, per_sequence, expected):
    assert sequences_that_fit(budget, per_sequence) == expected


def test_the_scenario_overrides_the_engine_profile(catalog):
    given = settings(catalog, "vllm", memory_fraction=0.8, batch_limit=64, batched_tokens=4096)
    assert (given.memory_fraction, given.batch_limit, given.max_batched_tokens) == (0.8, 64, 4096)
    default = settings(catalog, "vllm")
    profile = catalog.engine("vllm")
    assert default.memory_fraction == profile.memory_fraction
    assert default.batch_limit == profile.max_batch_size
    assert default.cuda_graph_bytes == catalog.default("cuda_graph_gb") * GIB


def test_runtime_known_answer_llama_3_1_8b_on_vllm(catalog):
    """Llama-3.1-8B (h 4,096, f 14,336, V 128,256) on vLLM (1 GB base, 0.5 GiB CUDA graphs,
    token budget 8,192, batch limit 256, FP32 logits), one GPU:
    activations 8,192 x (4 x 4,096 + 2 x 14,336) x 2 B; logits 256 x 128,256 x 4 B."""
    model = catalog.model("llama-3.1-8b")
    s = settings(catalog, "vllm")
    runtime = runtime_memory(model, s, 1)
    assert runtime.base == pytest.approx(1.0 * GB)
    assert runtime.cuda_graphs == pytest.approx(0.5 * GIB)
    assert runtime.communication == 0.0  # no NCCL buffers on one GPU
    assert runtime.activations == pytest.approx(8192 * (4 * 4096 + 2 * 14336) * 2)
    assert runtime.logits == pytest.approx(256 * 128256 * 4.0)
    two = runtime_memory(model, s, 2)
    assert two.communication == pytest.approx(catalog.engine("vllm").comm_buffers_gb * GB)
    assert two.logits == pytest.approx(runtime.logits / 2)  # vocabulary-parallel head
    assert two.activations < runtime.activations  # the MLP width is split


@pytest.mark.parametrize(("t", "p", "share"), [(1, 1, 1.0), (2, 1, 0.5), (1, 2, 0.5),
                                               (4, 3, 11 / 32 / 4)])
def test_weights_split_over_ranks_and_the_fullest_stage(catalog, t, p, share):
    """32 layers on p stages: the fullest stage holds ceil(32 / p); t splits it evenly."""
    model = catalog.model("llama-3.1-8b")
    assert weights_per_gpu(16e9, model, t, p) == pytest.approx(16e9 * share, rel=1e-12)
