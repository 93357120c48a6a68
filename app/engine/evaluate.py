"""Evaluate one configuration: its memory plan and its operating points.

Shared by the sizing pipeline, the Step 3 search and the calibration, so that every number
comes from one place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.engine.capacity import (
    GpuBudget,
    gpu_budget,
    runtime_memory,
    sequence_kv,
    sequences_that_fit,
    weights_per_gpu,
)
from app.engine.configuration import Configuration
from app.engine.memory import RuntimeMemory
from app.engine.performance import (
    Points,
    Workload,
    batch_grid,
    by_batch,
    closed_loop,
    saturation,
    saturation_batch,
    slo_capacity,
)


@dataclass(frozen=True)
class MemoryPlan:
    """How a replica's GPUs are filled [B] and how many sequences fit [-]."""

    budget: GpuBudget
    runtime: RuntimeMemory
    kv_per_sequence_peak: float
    kv_per_sequence_admitted: float
    sequences_at_peak: int
    sequences_admitted: int
    batch_limit: int

    @property
    def max_concurrent_sequences(self) -> int:
        """Sequences at peak context that fit, capped by the engine's batch limit."""
        return min(self.sequences_at_peak, self.batch_limit)

    @property
    def weights_fit(self) -> bool:
        return self.budget.kv_budget > 0

    def per_gpu_bytes(self, sequences: int) -> float:
        """What one GPU must hold with ``sequences`` at peak context [B]."""
        return self.budget.weights + self.budget.runtime + sequences * self.kv_per_sequence_peak


def plan_memory(config: Configuration, work: Workload, peak_context: int) -> MemoryPlan:
    """Fill one GPU: weights, runtime, then KV for as many sequences as fit."""
    replica = config.replica
    t, p = replica.tensor_parallel, replica.pipeline_parallel
    runtime = runtime_memory(config.model, config.settings, t)
    weights = weights_per_gpu(replica.held_weights_bytes, config.model, t, p)
    budget = gpu_budget(config.gpu, weights, runtime.total, config.settings)
    kv_bytes = replica.kv_bytes_per_element
    # DP attention: each of the d ranks holds its own sequences, split t/d ways
    ranks, t_kv = replica.attention_ranks, replica.attention_tensor_parallel
    peak = sequence_kv(config.model, peak_context, kv_bytes, t_kv, p, config.settings)
    admitted_tokens = (peak_context if config.settings.reserves_full_sequence
                       else math.ceil(work.average_context))
    admitted = sequence_kv(config.model, admitted_tokens, kv_bytes, t_kv, p, config.settings)
    return MemoryPlan(
        budget=budget,
        runtime=runtime,
        kv_per_sequence_peak=peak,
        kv_per_sequence_admitted=admitted,
        sequences_at_peak=ranks * sequences_that_fit(budget.kv_budget, peak),
        sequences_admitted=ranks * sequences_that_fit(budget.kv_budget, admitted),
        batch_limit=config.batch_limit,
    )


def saturation_of(config: Configuration, plan: MemoryPlan, work: Workload) -> Points:
    """Maximum-throughput operating point (what offline benchmarks measure)."""
    return saturation(config.replica, work, int(batch_cap(config, plan, work)))


def batch_cap(config: Configuration, plan: MemoryPlan, work: Workload) -> float:
    """Most sequences that decode together under load [-] (at least one)."""
    return float(max(saturation_batch(plan.sequences_admitted, plan.batch_limit,
                                      config.replica.max_batched_tokens, work), 1))


def points_at(config: Configuration, plan: MemoryPlan, work: Workload,
              concurrency, coarse: bool = False) -> Points:
    """Closed-loop operating points for each concurrency (``coarse``: quick what-ifs)."""
    return closed_loop(config.replica, work, np.asarray(concurrency, dtype=float),
                       batch_cap(config, plan, work), coarse)


def slo_capacity_of(config: Configuration, plan: MemoryPlan, work: Workload,
                    ttft_target: float, speed_target: float) -> int:
    """Most users one replica serves meeting both targets, within what memory holds [-].

    Parameters
    ----------
    ttft_target : time to first token [s]
    speed_target : tokens per second each user sees [tokens/s]
    """
    curve = by_batch(config.replica, work, batch_grid(batch_cap(config, plan, work)))
    return min(slo_capacity(curve, ttft_target, speed_target), plan.max_concurrent_sequences)
