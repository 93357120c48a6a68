"""Shared data of the engine tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import numpy as np

from app.engine.performance import Points

# Efficiency 1 and no overheads: the bare roofline.
IDEAL = {"eta_mem": 1.0, "eta_kv": 1.0, "eta_decode": 1.0, "eta_prefill": 1.0,
         "step_overhead_s": 0.0, "sequence_overhead_s": 0.0, "layer_overhead_s": 0.0,
         "fixed_latency_s": 0.0,
         "comm_latency_s": 0.0, "comm_efficiency": 1.0}


# (model, gpu, t, weights, engine): memory-bound and MoE cases, one and several GPUs.
CONFIGS = [
    ("llama-3.1-8b", "h100-sxm", 1, "bf16", "vllm"),
    ("llama-3.1-8b", "l40s", 1, "fp8", "tensorrt-llm"),
    ("llama-3.1-70b", "h100-sxm", 4, "fp8", "vllm"),
    ("llama-3.1-70b", "rtx-pro-6000-bse", 2, "int8", "vllm"),
    ("llama-3.1-70b", "a100-sxm-80", 2, "bf16", "tensorrt-llm"),
    ("mixtral-8x7b", "h100-sxm", 2, "bf16", "vllm"),
    ("qwen3-30b-a3b", "h200-sxm", 1, "bf16", "sglang"),
    ("deepseek-v3", "h200-sxm", 8, "fp8", "sglang"),
    ("gemma-3-27b", "l40s", 2, "bf16", "generic"),
    ("llama-3.1-8b", "rtx-4090", 1, "gguf-q4_0", "llama.cpp"),
]


def ids(config) -> str:
    """A readable test id of a configuration tuple."""
    return "-".join(str(part) for part in config)


def points(concurrency, ttft, speed) -> Points:
    """Operating points of a made-up curve: users (= batch), TTFT [s], tokens/s per user."""
    c = np.asarray(concurrency, dtype=float)
    itl = 1.0 / np.asarray(speed, dtype=float)
    return Points(concurrency=c, batch=c, itl_s=itl, ttft_s=np.asarray(ttft, dtype=float),
                  output_tokens_per_s=c / itl)
