"""Step 2 per GPU: what one GPU of a replica holds and how many sequences fit.

The engine reserves only part of the card (METHOD.md, Step 2, "Capacity"):

- vLLM-style (``memory_fraction_of = "total"``): usable = fraction x memory;
  KV budget = usable - weights - runtime.
- TensorRT-LLM-style (``"free_after_weights"``): KV budget = fraction x (memory - weights -
  runtime).

Max concurrent sequences = floor(KV budget / KV per sequence), capped by the batch limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import EngineProfile, GpuSpec, ModelSpec
from app.engine.memory import (
    RuntimeMemory,
    activation_bytes,
    kv_bytes_per_sequence,
    logits_bytes,
)

GIB = 2**30
GB = 1e9


@dataclass(frozen=True)
class EngineSettings:
    """Engine limits after the scenario's overrides."""

    memory_fraction: float
    memory_fraction_of: str
    batch_limit: int
    max_batched_tokens: int
    block_tokens: int
    reserves_full_sequence: bool
    runtime_base_bytes: float
    comm_buffer_bytes: float
    cuda_graph_bytes: float
    logits_bytes_per_element: float
    speculative_layers: int = 0

    @property
    def speculative(self) -> bool:
        """Whether speculative-decoding heads are loaded beside the model."""
        return self.speculative_layers > 0

    @classmethod
    def from_profile(cls, profile: EngineProfile, memory_fraction: float | None,
                     batch_limit: int | None, batched_tokens: int | None,
                     cuda_graph_gb: float, logits_bytes_per_element: float,
                     speculative_layers: int = 0) -> EngineSettings:
        return cls(
            memory_fraction=memory_fraction or profile.memory_fraction,
            memory_fraction_of=profile.memory_fraction_of,
            batch_limit=batch_limit or profile.max_batch_size,
            max_batched_tokens=batched_tokens or profile.max_batched_tokens,
            block_tokens=profile.kv_block_tokens,
            reserves_full_sequence=profile.reserves_full_sequence,
            runtime_base_bytes=profile.runtime_base_gb * GB,
            comm_buffer_bytes=profile.comm_buffers_gb * GB,
            cuda_graph_bytes=cuda_graph_gb * GIB,
            logits_bytes_per_element=logits_bytes_per_element,
            speculative_layers=speculative_layers,
        )


def runtime_memory(model: ModelSpec, settings: EngineSettings,
                   tensor_parallel: int) -> RuntimeMemory:
    """Memory per GPU besides weights and KV cache [B] (METHOD.md, "Runtime and overhead")."""
    sequences = min(settings.batch_limit, settings.max_batched_tokens)
    return RuntimeMemory(
        base=settings.runtime_base_bytes,
        cuda_graphs=settings.cuda_graph_bytes,
        communication=settings.comm_buffer_bytes if tensor_parallel > 1 else 0.0,
        activations=activation_bytes(model, settings.max_batched_tokens, tensor_parallel),
        logits=logits_bytes(model.vocab_size, sequences, settings.logits_bytes_per_element)
        / tensor_parallel,
    )


@dataclass(frozen=True)
class GpuBudget:
    """How one GPU's memory divides [B]."""

    memory: float
    usable: float
    weights: float
    runtime: float
    kv_budget: float


def gpu_budget(gpu: GpuSpec, weights_per_gpu: float, runtime_per_gpu: float,
               settings: EngineSettings) -> GpuBudget:
    """Split one GPU's memory into weights, runtime and the KV budget [B]."""
    memory = gpu.memory_bytes
    if settings.memory_fraction_of == "free_after_weights":
        free = memory - weights_per_gpu - runtime_per_gpu
        kv = settings.memory_fraction * free
        usable = weights_per_gpu + runtime_per_gpu + max(kv, 0.0)
    else:
        usable = settings.memory_fraction * memory
        kv = usable - weights_per_gpu - runtime_per_gpu
    return GpuBudget(memory, usable, weights_per_gpu, runtime_per_gpu, kv)


def weights_per_gpu(weights_bytes: float, model: ModelSpec, tensor_parallel: int,
                    pipeline_parallel: int) -> float:
    """Weights on the fullest GPU: split t ways, ``ceil(L/p)`` of L layers per stage [B]."""
    stage_share = math.ceil(model.layers / pipeline_parallel) / model.layers
    return weights_bytes / tensor_parallel * stage_share


def sequences_that_fit(kv_budget: float, kv_per_sequence: float) -> int:
    """Whole sequences a KV budget holds [-]."""
    if kv_budget <= 0 or kv_per_sequence <= 0:
        return 0
    return int(kv_budget // kv_per_sequence)


def sequence_kv(model: ModelSpec, tokens: int, kv_bytes_per_element: float,
                tensor_parallel: int, pipeline_parallel: int, settings: EngineSettings) -> float:
    """KV one sequence of ``tokens`` takes on the fullest GPU, in whole blocks [B].

    Includes the recurrent state of linear-attention layers and the KV of loaded
    speculative-decoding heads.
    """
    return kv_bytes_per_sequence(model, tokens, kv_bytes_per_element, tensor_parallel,
                                 pipeline_parallel, settings.block_tokens,
                                 settings.speculative_layers)
