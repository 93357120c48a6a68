"""Monotonicity properties of the whole pipeline, checked with hypothesis.

- More users never need less memory.
- More memory bandwidth never gives fewer tokens/s.
- A longer context never gives more tokens/s per user.
- More tensor-parallel GPUs never admit fewer concurrent sequences.

Targets are lenient so that the lever search does not run and the examples stay fast.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.engine.inference import decode_step

LENIENT_TARGETS = {"ttft_s": 3600, "tokens_per_s_per_user": 0.001}
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

# (model, gpu, t, weights, kv, engine): configurations whose weights fit.
CONFIGS = [
    ("llama-3.1-8b", "l40s", 1, "bf16", "bf16", "vllm"),
    ("llama-3.1-8b", "h100-sxm", 1, "fp8", "fp8", "tensorrt-llm"),
    ("llama-3.1-70b", "h100-sxm", 4, "fp8", "fp8", "vllm"),
    ("llama-3.1-70b", "rtx-pro-6000-bse", 2, "int8", "fp16", "vllm"),
    ("mixtral-8x7b", "h200-sxm", 2, "bf16", "bf16", "sglang"),
    ("qwen3-30b-a3b", "a100-sxm-80", 1, "bf16", "bf16", "generic"),
    ("gemma-3-27b", "h100-sxm", 2, "bf16", "fp8", "vllm"),
    ("deepseek-v3", "h200-sxm", 8, "fp8", "bf16", "sglang"),
]
configs = st.sampled_from(CONFIGS)


def scenario(config, users=1, prompt=1024, output=256, context=None) -> dict:
    model, gpu, t, weights, kv, engine = config
    workload = {"concurrent_users": users, "prompt_tokens": prompt, "output_tokens": output}
    if context is not None:
        workload["max_context_tokens"] = context
    return {
        "model": model,
        "workload": workload,
        "precision": {"weights": weights, "kv_cache": kv},
        "hardware": {"gpu": gpu, "tensor_parallel": t},
        "serving": {"engine": engine},
        "targets": LENIENT_TARGETS,
        "availability": {"redundancy": "none"},
    }


# --------------------------------------------------------------------------- users -> memory


@SETTINGS
@given(config=configs, users=st.lists(st.integers(1, 3000), min_size=2, max_size=2, unique=True),
       prompt=st.integers(16, 8000), output=st.integers(1, 2000))
def test_more_users_never_need_less_memory(sized, config, users, prompt, output):
    fewer, more = sorted(users)
    a = sized(scenario(config, fewer, prompt, output))
    b = sized(scenario(config, more, prompt, output))
    # the replicas the load needs never hold less as a whole (the slots a system sold with
    # its GPUs fills beyond them take the same share of the load: the same per GPU)
    gpus = config[2]
    total_a = a.memory.per_gpu_bytes * a.scale.replicas_for_load * gpus
    total_b = b.memory.per_gpu_bytes * b.scale.replicas_for_load * gpus
    assert total_b >= total_a
    assert b.scale.replicas_for_load >= a.scale.replicas_for_load
    # one replica's GPUs never hold less for more users on the same replicas
    if a.scale.replicas_for_load == b.scale.replicas_for_load:
        assert b.memory.per_gpu_bytes >= a.memory.per_gpu_bytes
        assert b.memory.kv_cache_bytes >= a.memory.kv_cache_bytes


@pytest.mark.parametrize("config", CONFIGS[:4], ids=lambda c: f"{c[0]}-{c[1]}")
def test_per_gpu_memory_grows_with_users_on_one_replica(sized, config):
    """While one replica carries the load, each extra user adds one sequence of KV."""
    results = [sized(scenario(config, users, 1000, 200)) for users in (1, 2, 4, 8)]
    assert all(r.scale.replicas_for_load == 1 for r in results)
    per_gpu = np.array([r.memory.per_gpu_bytes for r in results])
    assert np.all(np.diff(per_gpu) > 0)
    step = results[0].memory.kv_bytes_per_sequence / (config[2])  # per GPU of the replica
    assert per_gpu[1] - per_gpu[0] == pytest.approx(step, rel=1e-9)


# --------------------------------------------------------------------------- bandwidth


@SETTINGS
@given(config=configs, factor=st.floats(1.0, 4.0), users=st.integers(1, 200),
       prompt=st.integers(16, 8000), output=st.integers(16, 2000))
def test_more_bandwidth_never_gives_fewer_tokens_per_s(catalog, sized, config, factor, users,
                                                       prompt, output):
    gpu_id = config[1]
    gpu = catalog.gpu(gpu_id)
    faster = gpu.model_copy(update={"memory_bandwidth_gb_s": gpu.memory_bandwidth_gb_s * factor})
    quicker_catalog = catalog.model_copy(update={"gpus": {**catalog.gpus, gpu_id: faster}})
    data = scenario(config, users, prompt, output)
    base = sized(data)
    fast = sized(data, quicker_catalog)
    eps = 1 + 1e-9
    assert fast.performance.single_user.tokens_per_s_per_user * eps >= \
        base.performance.single_user.tokens_per_s_per_user
    assert fast.performance.saturation.output_tokens_per_s * eps >= \
        base.performance.saturation.output_tokens_per_s
    assert fast.performance.saturation.tokens_per_s_per_user * eps >= \
        base.performance.saturation.tokens_per_s_per_user
    # memory does not depend on bandwidth
    assert fast.memory.max_concurrent_sequences == base.memory.max_concurrent_sequences


# --------------------------------------------------------------------------- context


@SETTINGS
@given(config=configs, prompts=st.lists(st.integers(16, 30000), min_size=2, max_size=2,
                                        unique=True),
       output=st.integers(1, 2000), extra=st.integers(0, 4096))
def test_longer_context_never_gives_more_tokens_per_s_per_user(catalog, sized, config, prompts,
                                                               output, extra):
    short, long = sorted(prompts)
    limit = catalog.model(config[0]).max_context_tokens
    assume(long + output + extra <= limit)
    a = sized(scenario(config, 1, short, output, short + output + extra))
    b = sized(scenario(config, 1, long, output, long + output + extra))
    assert b.performance.single_user.tokens_per_s_per_user <= \
        a.performance.single_user.tokens_per_s_per_user * (1 + 1e-9)
    assert b.performance.single_user.ttft_s >= a.performance.single_user.ttft_s


@SETTINGS
@given(config=configs, contexts=st.lists(st.integers(1, 100_000), min_size=2, max_size=2,
                                         unique=True),
       batch=st.integers(1, 256))
def test_longer_context_slows_a_decode_step_at_a_fixed_batch(configure_replica, config,
                                                             contexts, batch):
    model, gpu, t, weights, kv, engine = config
    replica = configure_replica(model, gpu, t, weights=weights, kv=kv, engine=engine).replica
    short, long = sorted(contexts)
    a = float(decode_step(replica, float(batch), short).itl[0])
    b = float(decode_step(replica, float(batch), long).itl[0])
    assert b >= a


def test_peak_context_alone_does_not_change_single_user_speed(sized):
    """Only the tokens a sequence holds slow the decode; the maximum context is memory."""
    config = CONFIGS[2]
    a = sized(scenario(config, 1, 1000, 200, 1200))
    b = sized(scenario(config, 1, 1000, 200, 100_000))
    assert b.performance.single_user.tokens_per_s_per_user == pytest.approx(
        a.performance.single_user.tokens_per_s_per_user)
    assert b.memory.max_concurrent_sequences < a.memory.max_concurrent_sequences


# --------------------------------------------------------------------------- tensor parallel

NVLINK_GPUS = ["h100-sxm", "h200-sxm", "b200", "a100-sxm-80"]
TP_MODELS = ["llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "qwen3-30b-a3b", "gemma-3-27b",
             "gpt-oss-20b", "qwen3-235b-a22b"]


@SETTINGS
@given(model=st.sampled_from(TP_MODELS), gpu=st.sampled_from(NVLINK_GPUS),
       weights=st.sampled_from(["bf16", "fp8", "int4-awq"]),
       kv=st.sampled_from(["bf16", "fp8"]),
       engine=st.sampled_from(["vllm", "tensorrt-llm", "sglang"]),
       context=st.integers(256, 131_072))
def test_more_gpus_never_admit_fewer_sequences(catalog, sized, model, gpu, weights, kv, engine,
                                               context):
    assert catalog.gpu(gpu).scale_up == "nvlink"
    context = min(context, catalog.model(model).max_context_tokens)
    prompt = max(context // 2, 1)
    output = max(context - prompt, 1)
    capacities = []
    for t in (1, 2, 4, 8):
        config = (model, gpu, t, weights, kv, engine)
        capacities.append(sized(scenario(config, 1, prompt, output, context))
                          .memory.max_concurrent_sequences)
    assert capacities == sorted(capacities), capacities
