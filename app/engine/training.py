"""Training and fine-tuning: model states, activations, time, communication, checkpoints.

All sizes in bytes [B], times in seconds [s], rates in FLOP/s or B/s. Symbols: ``P`` (Psi)
parameters, ``N_d`` data-parallel degree, ``t`` tensor-parallel, ``p`` pipeline-parallel,
``s`` sequence length, ``b`` micro-batch, ``h`` hidden size, ``a`` attention heads, ``L``
layers, ``v`` vocabulary, ``m`` micro-batches per optimizer step (gradient accumulation).

Model states (mixed precision, Rajbhandari et al.): 16-bit weights 2P, 16-bit gradients 2P,
and ``K P`` optimizer bytes, K = FP32 master copy 4 + the optimizer's moments (AdamW 8):
``(2 + 2 + 12) P = 16 P`` (18 P with FP32 gradients, the Hugging Face figure). ZeRO shards
them over the data-parallel group: stage 1 ``4P + K P / N_d``, stage 2 ``2P + (2 + K) P / N_d``,
stage 3 (FSDP full shard) ``(4 + K) P / N_d``. Tensor and pipeline parallelism divide ``P``
first (``P / (t p)`` per GPU).

References
----------
- Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models
  (SC20, arXiv:1910.02054): model-state formulas and the 7.5B / 64-GPU example.
- Hugging Face Transformers, "Model training anatomy": 18 bytes per parameter for
  mixed-precision AdamW (6 weights + 4 gradients + 8 optimizer).
- Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models
  (MLSys 2023, arXiv:2205.05198): activations per layer, Table 2; pipeline eq. 5.
- Kaplan et al. 2020 (arXiv:2001.08361): training FLOPs about 6 N per token.
- Hu et al. 2021 (LoRA) and Dettmers et al. 2023 (QLoRA): adapters and NF4 base weights.
- NVIDIA nccl-tests PERFORMANCE.md: all-reduce time ``2 (n-1)/n x S / B``.
- Young 1974, Daly 2006: checkpoint interval ``sqrt(2 x save time x MTBF)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

from app.domain.catalog import GpuSpec, ModelSpec
from app.engine.memory import ParameterCounts

BYTES_16BIT = 2.0
BYTES_FP32 = 4.0
MASTER_BYTES = 4.0
SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86_400.0

#: Optimizer moment bytes per trainable parameter (Hugging Face model training anatomy:
#: AdamW 8, 8-bit AdamW 2, SGD with momentum / Lion / Adafactor about 4).
OPTIMIZER_MOMENT_BYTES = {
    "adamw": 8.0, "adam": 8.0, "adamw-8bit": 2.0, "sgd": 4.0, "lion": 4.0, "adafactor": 4.0,
}

RECOMPUTE_ORDER = ("none", "selective", "full")


# --------------------------------------------------------------------------- model states


def optimizer_bytes_per_param(optimizer: str) -> float:
    """K: the FP32 master copy plus the optimizer's moments [B/param].

    AdamW: 4 + 8 = 12 (the ZeRO paper's K); SGD with momentum 8; 8-bit AdamW 6.
    """
    return MASTER_BYTES + OPTIMIZER_MOMENT_BYTES[optimizer]


def model_state_bytes_per_param(optimizer: str = "adamw", fp32_gradients: bool = False,
                                weight_bytes: float = BYTES_16BIT) -> float:
    """Unsharded model states per trainable parameter [B/param].

    ``weights (2) + gradients (2, or 4 in FP32) + K``: 16 for mixed-precision AdamW (ZeRO),
    18 with FP32 gradients (Hugging Face).
    """
    gradients = BYTES_FP32 if fp32_gradients else BYTES_16BIT
    return weight_bytes + gradients + optimizer_bytes_per_param(optimizer)


@dataclass(frozen=True)
class ModelStates:
    """Model states one GPU holds [B]."""

    weights: float
    gradients: float
    optimizer: float

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer


def zero_model_states(params: float, data_parallel: int, stage: int,
                      weight_bytes: float = BYTES_16BIT, gradient_bytes: float = BYTES_16BIT,
                      optimizer_bytes: float = 12.0) -> ModelStates:
    """Model states per GPU under ZeRO stage 0-3 over ``data_parallel`` GPUs [B].

    Parameters
    ----------
    params : parameters this model-parallel rank owns, ``P / (t p)`` [-]
    data_parallel : N_d [-]
    stage : 0 plain data parallelism, 1 optimizer states sharded, 2 + gradients,
        3 + weights (FSDP FULL_SHARD; SHARD_GRAD_OP is stage 2)
    weight_bytes, gradient_bytes, optimizer_bytes : bytes per parameter (2, 2, K = 12)

    Notes
    -----
    ZeRO paper, 7.5B parameters on 64 GPUs with K = 12: 120 / 31.4 / 16.6 / 1.9 GB.
    """
    if stage not in (0, 1, 2, 3):
        raise ValueError(f"ZeRO stage {stage}; allowed 0-3")
    n = data_parallel
    weights = params * weight_bytes / (n if stage >= 3 else 1)
    gradients = params * gradient_bytes / (n if stage >= 2 else 1)
    optimizer = params * optimizer_bytes / (n if stage >= 1 else 1)
    return ModelStates(weights, gradients, optimizer)


# --------------------------------------------------------------------------- LoRA / QLoRA


def adapted_matrices(model: ModelSpec, targets: str = "all-linear") -> list[tuple[int, int, int]]:
    """The projections LoRA adapts, as ``(d_in, d_out, count)`` over the whole model.

    ``qv``: query and value projections only (Hugging Face PEFT's default for Llama);
    ``attention``: query, key, value and output projections (MLA: its low-rank projections);
    ``all-linear`` adds every MLP matrix (gate, up, down; each expert's in MoE layers), as the
    QLoRA paper recommends. Embedding and output head are not adapted.
    """
    h, n_h, L = model.hidden_size, model.attention_heads, model.layers
    out: list[tuple[int, int, int]] = []
    if targets == "qv" and model.mla is None:
        d_h = model.head_dim_value
        return [(h, n_h * d_h, L), (h, model.kv_heads * d_h, L)]
    if model.mla is not None:
        mla = model.mla
        qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        if mla.q_lora_rank:
            out += [(h, mla.q_lora_rank, L), (mla.q_lora_rank, n_h * qk, L)]
        else:
            out.append((h, n_h * qk, L))
        out += [(h, mla.kv_lora_rank + mla.qk_rope_head_dim, L),
                (mla.kv_lora_rank, n_h * (mla.qk_nope_head_dim + mla.v_head_dim), L),
                (n_h * mla.v_head_dim, h, L)]
    else:
        d_h = model.head_dim_value
        q, kv = n_h * d_h, model.kv_heads * d_h
        out += [(h, q, L), (h, kv, 2 * L), (q, h, L)]
    if targets == "attention":
        return out
    per_mlp = 3 if model.mlp == "gated" else 2

    def mlp(width: int, count: int) -> list[tuple[int, int, int]]:
        ups = [(h, width, count * (per_mlp - 1))]
        return ups + [(width, h, count)]

    moe = model.moe
    moe_layers = L - moe.dense_layers if moe else 0
    if L - moe_layers:
        out += mlp(model.intermediate_size, L - moe_layers)
    if moe:
        out += mlp(moe.expert_intermediate_size, moe_layers * moe.experts)
        if moe.shared_experts:
            width = moe.shared_intermediate_size or moe.expert_intermediate_size
            out += mlp(width, moe_layers * moe.shared_experts)
    return out


def lora_params(model: ModelSpec, rank: int, targets: str = "all-linear") -> float:
    """Adapter parameters: ``r (d_in + d_out)`` per adapted matrix (A: r x d_in, B: d_out x r).

    In BF16 that is ``2 r (d_in + d_out)`` bytes per matrix. Llama-2-7B, r = 8 on q and v
    only: 32 layers x 2 x 8 x (4096 + 4096) = 4,194,304 (what PEFT's
    ``print_trainable_parameters`` reports).
    """
    return float(sum(rank * (d_in + d_out) * count
                     for d_in, d_out, count in adapted_matrices(model, targets)))


def frozen_weight_bytes(counts: ParameterCounts, method: str, qlora_bits: float) -> float:
    """Frozen base weights: BF16 for LoRA; QLoRA keeps matrices in NF4 (``qlora_bits`` per
    parameter, double-quantised constants included) and embedding, head and norms in 16 bit."""
    if method == "qlora":
        return counts.quantisable * qlora_bits / 8 + counts.kept_16bit * BYTES_16BIT
    return counts.total * BYTES_16BIT


# --------------------------------------------------------------------------- activations


def activation_bytes_per_layer(s: int, b: int, h: int, a: int, t: int = 1,
                               sequence_parallel: bool = False, recompute: str = "none",
                               flash_attention: bool = False) -> float:
    """Activations one transformer layer stores for one micro-batch [B] (Korthikanti Table 2).

    ============================  ==============================
    no parallelism                ``s b h (34 + 5 a s / h)``
    tensor parallel               ``s b h (10 + 24/t + 5 a s/(h t))``
    tensor + sequence parallel    ``s b h / t (34 + 5 a s / h)``
    + selective recomputation     drops the ``5 a s / h`` term
    full recomputation            ``2 s b h`` (the layer input only)
    ============================  ==============================

    16-bit activations and 1-byte dropout masks. FlashAttention never stores the ``s^2``
    attention scores, which is what selective recomputation achieves. The MLP term assumes a
    GeLU MLP of width 4h: an approximation for SwiGLU and GQA models (flagged in the result).
    """
    if recompute not in RECOMPUTE_ORDER:
        raise ValueError(f"activation_recompute '{recompute}'; allowed {RECOMPUTE_ORDER}")
    sbh = float(s) * b * h
    if recompute == "full":
        return 2.0 * sbh
    scores = 0.0 if (recompute == "selective" or flash_attention) else 5.0 * a * s / h
    if sequence_parallel or t == 1:
        return sbh / t * (34.0 + scores)
    return sbh * (10.0 + 24.0 / t + scores / t)


def output_layer_activation_bytes(s: int, b: int, h: int, v: int, t: int = 1) -> float:
    """Final norm, output layer and FP32 logits on the last stage: ``4 s b h / t (1 + v/h)``
    (Korthikanti et al., section 4.3) [B]."""
    return 4.0 * s * b * h / t * (1.0 + v / h)


def activation_bytes_per_gpu(per_layer: float, layers: int, pipeline_parallel: int,
                             micro_batches: int, output_layer: float) -> float:
    """Activations on the fullest pipeline stage under the 1F1B schedule [B].

    The first stage keeps ``min(p, m)`` micro-batches in flight for its ``ceil(L/p)`` layers
    (eq. 5: ``L`` layers' worth when ``m >= p``); the last stage keeps one micro-batch plus
    the output layer. The larger of the two.
    """
    stage_layers = math.ceil(layers / pipeline_parallel)
    first = per_layer * stage_layers * min(pipeline_parallel, micro_batches)
    if pipeline_parallel == 1:
        return first + output_layer
    return max(first, per_layer * stage_layers + output_layer)


# --------------------------------------------------------------------------- compute and time


def training_flops_per_token(params_active: float, method: str = "full",
                             adapter_params: float = 0.0) -> float:
    """Model FLOPs per trained token [FLOP].

    Full training ``6 N`` (2N forward, 4N backward; Kaplan et al.). LoRA/QLoRA: the frozen
    base runs forward (2N) and back-propagates activation gradients (2N) but computes no
    weight gradients: ``4 N + 6 N_adapter``. Attention score FLOPs (Korthikanti's
    ``s / (6h)`` term) are left out, as in the 6ND rule.
    """
    if method == "full":
        return 6.0 * params_active
    return 4.0 * params_active + 6.0 * adapter_params


def time_to_train_s(flops_total: float, gpus: int, peak_flops: float, mfu: float) -> float:
    """``6 N D / (GPUs x peak x MFU)`` [s]."""
    return flops_total / (gpus * peak_flops * mfu)


def all_reduce_s(size_bytes: float, ranks: int, bandwidth: float) -> float:
    """Ring all-reduce lower bound ``2 (n-1)/n x S / B`` [s] (nccl-tests)."""
    if ranks <= 1:
        return 0.0
    return 2.0 * (ranks - 1) / ranks * size_bytes / bandwidth


def dp_communication_s(trainable_params: float, data_parallel: int, zero_stage: int,
                       bandwidth: float, gradient_bytes: float = BYTES_16BIT) -> float:
    """Gradient synchronisation per optimizer step [s].

    ``2 (n-1)/n x gradient bytes x P / (t p) / B``; ZeRO-1/2 reduce-scatter plus all-gather
    move the same volume, ZeRO-3 adds a parameter all-gather in the backward pass (1.5x).
    ``trainable_params`` is what one model-parallel rank owns.
    """
    volume = all_reduce_s(trainable_params * gradient_bytes, data_parallel, bandwidth)
    return volume * (1.5 if zero_stage == 3 else 1.0)


def tp_communication_s(s: int, b: int, h: int, layers_per_stage: int, tensor_parallel: int,
                       micro_batches: int, bandwidth: float, recompute: str) -> float:
    """Tensor-parallel all-reduces per step [s]: four per layer and micro-batch (two forward,
    two backward; six with full recomputation) of ``s b h`` 16-bit values (Megatron; with
    sequence parallelism all-gather + reduce-scatter move the same volume)."""
    if tensor_parallel <= 1:
        return 0.0
    per_layer = (6 if recompute == "full" else 4) * all_reduce_s(
        s * b * h * BYTES_16BIT, tensor_parallel, bandwidth)
    return per_layer * layers_per_stage * micro_batches


def pp_communication_s(s: int, b: int, h: int, pipeline_parallel: int, micro_batches: int,
                       bandwidth: float, virtual_stages: int = 1,
                       tensor_parallel: int = 1) -> float:
    """Pipeline sends of one GPU per step [s]: each of its ``v`` model chunks sends its output
    forward and receives a gradient back for every micro-batch, ``s b h / t`` 16-bit values
    each (Megatron splits the send over the tensor-parallel ranks). Stage pairs send in
    parallel on their own links."""
    if pipeline_parallel <= 1:
        return 0.0
    size = s * b * h / tensor_parallel * BYTES_16BIT
    return 2.0 * virtual_stages * micro_batches * size / bandwidth


def pipeline_bubble(pipeline_parallel: int, micro_batches: int,
                    virtual_stages: int = 1) -> float:
    """Idle share of the (interleaved) 1F1B schedule ``(p - 1) / (v m)`` relative to the busy
    time, ``v`` model chunks per GPU (Narayanan et al. 2021) [-]."""
    return (pipeline_parallel - 1) / (virtual_stages * micro_batches)


MAX_BUBBLE = 0.25  # the search keeps pipelines at most 25 % idle (Llama 3 405B: 15/64 = 23 %)


# --------------------------------------------------------------------------- checkpoints


def checkpoint_bytes(trainable_params: float, optimizer: str,
                     bytes_per_param_adamw: float = 14.0) -> float:
    """A full training checkpoint [B].

    AdamW: FP32 master weights, m and v (12 B/param) + BF16 weights (2 B) = 14 B/param
    (HARDWARE.md 4.2: 12-14); other optimisers replace AdamW's 12 bytes of state by theirs.
    LoRA/QLoRA save only the adapters (the frozen base is already on disk).
    """
    state = optimizer_bytes_per_param(optimizer)
    return trainable_params * (bytes_per_param_adamw - optimizer_bytes_per_param("adamw")
                               + state)


def checkpoint_write_bandwidth(nodes: int, write_per_node: float,
                               write_per_unit: float | None = None,
                               nodes_per_unit: int = 32) -> float:
    """Aggregate write bandwidth for a checkpoint [B/s]: ``nodes x per-node write``, capped by
    the storage system's aggregate per scalable unit where the tier states one (NVIDIA's
    SuperPOD guidance: one 32-node SU writes 7 / 20 / 62 GB/s at good / better / best)."""
    bandwidth = nodes * write_per_node
    if write_per_unit is not None:
        bandwidth = min(bandwidth, write_per_unit * math.ceil(nodes / nodes_per_unit))
    return bandwidth


def cluster_mtbf_s(gpu_mtbf_hours: float, gpus: int) -> float:
    """Mean time between interruptions of a job on ``gpus`` GPUs: ``MTBF_gpu / N`` [s].

    Llama 3: 419 interruptions in 54 days on 16,384 H100 gives 50,678 GPU-hours, so 16,384
    GPUs fail about every 3.1 hours.
    """
    return gpu_mtbf_hours * SECONDS_PER_HOUR / gpus


def young_daly_interval_s(save_s: float, mtbf_s: float) -> float:
    """Optimal checkpoint interval ``sqrt(2 x save time x MTBF)`` (Young/Daly) [s]."""
    return math.sqrt(2.0 * save_s * mtbf_s)


def checkpoint_overhead(save_s: float, interval_s: float, mtbf_s: float) -> float:
    """Share of time lost to saving and to recomputing since the last checkpoint:
    ``save / interval + interval / (2 MTBF)`` (first order) [-]."""
    if interval_s <= 0:
        return 0.0
    return save_s / interval_s + interval_s / (2.0 * mtbf_s)


def checkpoint_write_rate(checkpoint_bytes: float, save_s: float) -> float:
    """Aggregate write rate while a checkpoint is saved: size / save time [B/s] (0 when the
    save takes no time)."""
    return checkpoint_bytes / save_s if save_s > 0 else 0.0


def resume_s(checkpoint_bytes: float, read_bytes_per_s_per_node: float, nodes: int) -> float:
    """Time to read the last checkpoint back after a failure [s].

    ``checkpoint / (nodes x per-node read bandwidth of the storage tier)``: every node reads
    its share at once.
    """
    return checkpoint_bytes / (read_bytes_per_s_per_node * nodes)


def training_tokens_per_s(tokens_per_step: float, step_s: float) -> float:
    """Tokens the job consumes per second: tokens per step / step time [tokens/s]."""
    return tokens_per_step / step_s if step_s > 0 else 0.0


def dataset_read_bytes_per_s(tokens_per_s: float, dataset_bytes: float,
                             tokens_total: float) -> float:
    """Read bandwidth the data set needs: tokens/s x stored bytes per token [B/s]."""
    per_token = dataset_bytes / tokens_total if tokens_total else 0.0
    return tokens_per_s * per_token


def activations_approximate(model: ModelSpec) -> bool:
    """True when the activation formulas only approximate ``model``.

    Korthikanti et al. (2022) derive them for a GeLU MLP of width 4h and multi-head
    attention; a gated MLP (SwiGLU), grouped-query or latent attention, experts or another
    MLP width change the stored tensors.
    """
    return (model.mlp == "gated" or model.kv_heads != model.attention_heads
            or model.moe is not None or model.mla is not None
            or model.intermediate_size != 4 * model.hidden_size)


# --------------------------------------------------------------------------- one configuration


@dataclass(frozen=True)
class Node:
    """The server a training job runs on, in the terms the time model needs."""

    server: str
    gpus_per_node: int
    nic_bytes_per_s_per_gpu: float
    write_bytes_per_s: float
    scale_out: bool = True  # False: no cluster NICs, the search stays inside one node


@dataclass(frozen=True)
class Setup:
    """A training scenario with every default resolved (engine terms, SI units)."""

    model: ModelSpec
    counts: ParameterCounts
    method: str
    optimizer: str
    fp32_gradients: bool
    sequence_length: int
    micro_batch_size: int
    global_batch_sequences: int | None
    global_batch_tokens: float
    max_global_batch_tokens: float
    virtual_stages: int
    gradient_accumulation: int | None
    sequence_parallel: bool | None
    flash_attention: bool
    lora_rank: int
    lora_targets: str
    qlora_bits: float
    mfu: float
    tokens_total: float
    memory_fraction: float
    full_recompute_factor: float
    bus_efficiency: float
    checkpoint_bytes_per_param: float
    gpu_mtbf_hours: float
    write_per_unit: float | None
    nodes_per_unit: int
    max_gpus: int
    checkpoints_retained: int = 3
    dataset_bytes: float = 0.0

    @cached_property
    def adapter_params(self) -> float:
        if self.method == "full":
            return 0.0
        return lora_params(self.model, self.lora_rank, self.lora_targets)

    @cached_property
    def trainable_params(self) -> float:
        return self.counts.total if self.method == "full" else self.adapter_params


@dataclass(frozen=True)
class Layout:
    """Parallel degrees and the memory-saving choices of one configuration."""

    data_parallel: int
    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    recompute: str

    @property
    def gpus(self) -> int:
        return self.data_parallel * self.tensor_parallel * self.pipeline_parallel


@dataclass(frozen=True)
class Plan:
    """Everything computed for one configuration."""

    setup: Setup
    gpu: GpuSpec
    node: Node
    layout: Layout
    sequence_parallel: bool
    micro_batches: int
    global_batch_sequences: int
    states: ModelStates
    zero3_buffers: float
    activation_per_layer: float
    activations: float
    usable: float
    flops_per_token: float
    peak_flops: float
    compute_s: float
    bubble_s: float
    dp_s: float
    dp_exposed_s: float
    tp_s: float
    pp_s: float
    step_s: float
    checkpoint: float
    save_s: float
    mtbf_s: float
    interval_s: float
    overhead: float

    @property
    def gpus(self) -> int:
        return self.layout.gpus

    @property
    def nodes(self) -> int:
        return math.ceil(self.gpus / self.node.gpus_per_node)

    @property
    def bubble_share(self) -> float:
        return self.bubble_s / self.compute_s if self.compute_s else 0.0

    @property
    def per_gpu_bytes(self) -> float:
        return self.states.total + self.zero3_buffers + self.activations

    @property
    def fits(self) -> bool:
        return self.per_gpu_bytes <= self.usable

    @property
    def tokens_per_step(self) -> float:
        return float(self.global_batch_sequences * self.setup.sequence_length)

    @property
    def steps(self) -> float:
        return self.setup.tokens_total / self.tokens_per_step

    @property
    def time_s(self) -> float:
        """Time to train the token budget, without failures [s]."""
        return self.steps * self.step_s

    @property
    def wall_clock_s(self) -> float:
        """Time to train with checkpoint saves and work lost to failures [s]."""
        return self.time_s * (1.0 + self.overhead)


def stage_params(counts: ParameterCounts, layers: int, pipeline_parallel: int) -> float:
    """Parameters of the fullest pipeline stage: ``ceil(L/p)`` layers plus the embedding (first
    stage) or the output head (last stage); both when ``p = 1`` [-]."""
    ends = counts.embedding + counts.lm_head
    body = counts.total - ends
    share = math.ceil(layers / pipeline_parallel) / layers
    edge = ends if pipeline_parallel == 1 else max(counts.embedding, counts.lm_head)
    return body * share + edge


def batch_bounds(setup: Setup) -> tuple[int, int]:
    """(default, largest) global batch in sequences when the scenario gives none."""
    if setup.global_batch_sequences:
        return setup.global_batch_sequences, setup.global_batch_sequences
    wanted = max(1, round(setup.global_batch_tokens / setup.sequence_length))
    ceiling = max(wanted, round(setup.max_global_batch_tokens / setup.sequence_length))
    return wanted, ceiling


def micro_batches_per_step(setup: Setup, data_parallel: int,
                           pipeline_parallel: int = 1) -> tuple[int, int]:
    """(gradient accumulation steps m, global batch in sequences).

    Given accumulation or global batch are kept. Otherwise the default global batch is
    split over the data-parallel replicas; a pipeline gets at least ``4 (p - 1)``
    micro-batches (bubble at most 25 %) as long as the global batch stays within the largest
    default (large runs raise their batch: Llama 3 405B ended at 16 M tokens).
    """
    per_pass = setup.micro_batch_size * data_parallel
    if setup.gradient_accumulation is not None:
        return setup.gradient_accumulation, per_pass * setup.gradient_accumulation
    wanted, ceiling = batch_bounds(setup)
    m = max(1, round(wanted / per_pass))
    if pipeline_parallel > 1 and not setup.global_batch_sequences:
        v = virtual_stages(setup, pipeline_parallel)
        busy = math.ceil((pipeline_parallel - 1) / (v * MAX_BUBBLE))
        m = max(m, min(busy, ceiling // per_pass))
    return m, per_pass * m


def virtual_stages(setup: Setup, pipeline_parallel: int) -> int:
    """Model chunks per GPU of the interleaved schedule: the default, at most one layer each."""
    if pipeline_parallel <= 1:
        return 1
    return max(1, min(setup.virtual_stages, math.ceil(setup.model.layers / pipeline_parallel)))


def evaluate(setup: Setup, gpu: GpuSpec, node: Node, layout: Layout) -> Plan:
    """Memory, step time and checkpoint figures of one training configuration."""
    model, counts = setup.model, setup.counts
    d, t, p, zero = (layout.data_parallel, layout.tensor_parallel, layout.pipeline_parallel,
                     layout.zero_stage)
    sp = setup.sequence_parallel if setup.sequence_parallel is not None else t > 1
    m, global_sequences = micro_batches_per_step(setup, d, p)
    v = virtual_stages(setup, p)
    rank_params = stage_params(counts, model.layers, p) / t
    gradient_bytes = BYTES_FP32 if setup.fp32_gradients else BYTES_16BIT
    k = optimizer_bytes_per_param(setup.optimizer)
    body_share = (counts.total - counts.embedding - counts.lm_head) / counts.total
    if setup.method == "full":
        states = zero_model_states(rank_params, d, zero, BYTES_16BIT, gradient_bytes, k)
        stored = counts.total * BYTES_16BIT
    else:
        adapters = setup.adapter_params * math.ceil(model.layers / p) / model.layers / t
        stored = frozen_weight_bytes(counts, setup.method, setup.qlora_bits)
        base_rank = stored * rank_params / counts.total / (d if zero == 3 else 1)
        trained = zero_model_states(adapters, d, zero, BYTES_16BIT, gradient_bytes, k)
        states = replace(trained, weights=trained.weights + base_rank)
    # ZeRO-3 gathers one layer's weights at a time and prefetches the next
    layer_bytes = stored * body_share / model.layers / t
    zero3 = 2 * layer_bytes if zero == 3 and d > 1 else 0.0
    s, b, h = setup.sequence_length, setup.micro_batch_size, model.hidden_size
    per_layer = activation_bytes_per_layer(s, b, h, model.attention_heads, t, sp,
                                           layout.recompute, setup.flash_attention)
    output = output_layer_activation_bytes(s, b, h, model.vocab_size, t)
    activations = activation_bytes_per_gpu(per_layer, model.layers, p, m, output)
    flops_token = training_flops_per_token(counts.active, setup.method, setup.adapter_params)
    peak = gpu.peak_flops("bf16")
    tokens_step = global_sequences * s
    factor = setup.full_recompute_factor if layout.recompute == "full" else 1.0
    compute = time_to_train_s(flops_token * tokens_step, layout.gpus, peak, setup.mfu) * factor
    bubble = compute * pipeline_bubble(p, m, v)
    link = gpu.scale_up_bytes_per_s * setup.bus_efficiency
    nic = node.nic_bytes_per_s_per_gpu * setup.bus_efficiency
    dp_link = link if t * d <= node.gpus_per_node else nic
    trainable_rank = (rank_params if setup.method == "full"
                      else setup.adapter_params * math.ceil(model.layers / p) / model.layers / t)
    dp = dp_communication_s(trainable_rank, d, zero, dp_link, gradient_bytes)
    overlap = compute / m * 2.0 / 3.0  # the backward pass of the last micro-batch
    dp_exposed = max(0.0, dp - overlap)
    tp = tp_communication_s(s, b, h, math.ceil(model.layers / p), t, m,
                            link if t <= node.gpus_per_node else nic, layout.recompute)
    pp = pp_communication_s(s, b, h, p, m, link if layout.gpus <= node.gpus_per_node else nic,
                            v, t)
    # The MFU is end to end (measured on tuned runs with tensor and pipeline parallelism): it
    # contains their collectives and bubble. Only the gradient reduction that the last
    # backward pass cannot hide is added; bubble and TP time steer the search (preference).
    step = compute + dp_exposed
    ckpt = checkpoint_bytes(setup.trainable_params, setup.optimizer,
                            setup.checkpoint_bytes_per_param)
    nodes = math.ceil(layout.gpus / node.gpus_per_node)
    write = checkpoint_write_bandwidth(nodes, node.write_bytes_per_s, setup.write_per_unit,
                                       setup.nodes_per_unit)
    save = ckpt / write
    mtbf = cluster_mtbf_s(setup.gpu_mtbf_hours, layout.gpus)
    interval = young_daly_interval_s(save, mtbf)
    return Plan(setup, gpu, node, layout, sp, m, global_sequences, states, zero3, per_layer,
                activations, gpu.memory_bytes * setup.memory_fraction, flops_token, peak,
                compute, bubble, dp, dp_exposed, tp, pp, step, ckpt, save, mtbf, interval,
                checkpoint_overhead(save, interval, mtbf))


# --------------------------------------------------------------------------- search


def tensor_options(model: ModelSpec, gpus_per_node: int) -> list[int]:
    """Tensor-parallel degrees inside one node that split the heads (and KV heads) evenly."""
    heads, kv = model.attention_heads, model.kv_heads
    out = []
    t = 1
    while t <= gpus_per_node:
        if heads % t == 0 and (model.mla is not None or kv % t == 0 or t % kv == 0):
            out.append(t)
        t *= 2
    return out


def pipeline_options(model: ModelSpec, limit: int = 128) -> list[int]:
    """Pipeline degrees 1, 2, 4 ... up to the number of layers."""
    out, p = [], 1
    while p <= min(model.layers, limit):
        out.append(p)
        p *= 2
    return out


def gpu_counts(gpus_per_node: int, limit: int) -> list[int]:
    """GPU totals the search tries: 1, 2, 4 ... inside a node, then whole nodes
    (1, 2, 3, 4, 6, 8, 12, 16 ... nodes)."""
    counts = [n for n in (1, 2, 4) if n < gpus_per_node]
    nodes, k = [], 1
    while k * gpus_per_node <= limit:
        nodes.append(k)
        k = k + 1 if k < 4 else (k * 3 // 2 if k & (k - 1) == 0 else k * 4 // 3)
    return sorted(set(counts + [n * gpus_per_node for n in nodes]))


@dataclass(frozen=True)
class Fixed:
    """The degrees and choices the scenario fixed (None: searched)."""

    data_parallel: int | None = None
    tensor_parallel: int | None = None
    pipeline_parallel: int | None = None
    zero_stage: int | None = None
    recompute: str | None = None

    @property
    def complete(self) -> bool:
        return None not in (self.data_parallel, self.tensor_parallel, self.pipeline_parallel,
                            self.zero_stage, self.recompute)


def layouts(setup: Setup, gpus: int, node: Node, fixed: Fixed) -> list[list[Layout]]:
    """Every layout of ``gpus`` GPUs the scenario allows, grouped by parallel degrees."""
    model = setup.model
    ts = [fixed.tensor_parallel] if fixed.tensor_parallel else tensor_options(
        model, node.gpus_per_node)
    ps = [fixed.pipeline_parallel] if fixed.pipeline_parallel else pipeline_options(model)
    zeros = [fixed.zero_stage] if fixed.zero_stage is not None else [0, 1, 2, 3]
    recomputes = [fixed.recompute] if fixed.recompute else list(RECOMPUTE_ORDER)
    _, ceiling = batch_bounds(setup)
    out = []
    for t in ts:
        for p in ps:
            if gpus % (t * p):
                continue
            d = gpus // (t * p)
            if fixed.data_parallel and d != fixed.data_parallel:
                continue
            too_many = d > 1 and d * setup.micro_batch_size > ceiling
            if too_many and setup.gradient_accumulation is None and not fixed.data_parallel:
                continue  # more replicas than sequences in a step
            group = [Layout(d, t, p, zero, r) for zero in zeros for r in recomputes
                     if not (zero and d == 1 and fixed.zero_stage is None)]
            if group:
                out.append(group)  # the last layout of a group needs the least memory
    return out


def plans_at(setup: Setup, gpu: GpuSpec, node: Node, gpus: int, fixed: Fixed) -> list[Plan]:
    """Every allowed configuration of ``gpus`` GPUs, evaluated. A group of layouts with the
    same degrees is skipped after its most memory-saving member (highest ZeRO stage, most
    recomputation) does not fit: no other member can."""
    out = []
    for group in layouts(setup, gpus, node, fixed):
        probe = evaluate(setup, gpu, node, group[-1])
        if not probe.fits:
            out.append(probe)
            continue
        out += [evaluate(setup, gpu, node, layout) for layout in group[:-1]] + [probe]
    return out


def preference(plan: Plan) -> tuple:
    """Among configurations of the same size: least time once the tensor-parallel collectives
    and the pipeline bubble are counted too, then least sharding and splitting."""
    layout = plan.layout
    overheads = plan.steps * (plan.tp_s + plan.pp_s + plan.bubble_s)
    return (round(plan.wall_clock_s + overheads, 6), layout.zero_stage, layout.tensor_parallel,
            layout.pipeline_parallel, RECOMPUTE_ORDER.index(layout.recompute))


def smallest_fitting(setup: Setup, gpu: GpuSpec, node: Node, fixed: Fixed,
                     target_s: float | None = None) -> tuple[Plan | None, Plan | None]:
    """The smallest configuration on ``gpu`` that fits (and trains within ``target_s``).

    Returns (winner, closest): the winner is None when nothing fits up to ``max_gpus``; then
    ``closest`` is the configuration that came nearest (least memory over capacity).
    """
    closest: Plan | None = None
    limit = setup.max_gpus
    if not node.scale_out:
        limit = min(limit, node.gpus_per_node)  # no scale-out network: one node
    counts = gpu_counts(node.gpus_per_node, limit)
    if fixed.data_parallel and fixed.tensor_parallel and fixed.pipeline_parallel:
        counts = [fixed.data_parallel * fixed.tensor_parallel * fixed.pipeline_parallel]
    flops = setup.tokens_total * training_flops_per_token(
        setup.counts.active, setup.method, setup.adapter_params)
    for gpus in counts:
        fastest = time_to_train_s(flops, gpus, gpu.peak_flops("bf16"), setup.mfu)
        if target_s is not None and fastest > target_s and gpus != counts[-1]:
            continue  # even perfect scaling misses the target on this many GPUs
        plans = plans_at(setup, gpu, node, gpus, fixed)
        fitting = [plan for plan in plans if plan.fits and (
            fixed.pipeline_parallel or plan.bubble_share <= MAX_BUBBLE)]
        for plan in plans:
            if closest is None or _nearer(plan, closest, target_s):
                closest = plan
        if target_s is not None:
            fitting = [plan for plan in fitting if plan.wall_clock_s <= target_s]
        if fitting:
            return min(fitting, key=preference), closest
    return None, closest


def _nearer(plan: Plan, other: Plan, target_s: float | None) -> bool:
    """Whether ``plan`` comes nearer to working than ``other``."""
    def score(p: Plan) -> tuple:
        over = max(0.0, p.per_gpu_bytes / p.usable - 1.0)
        late = max(0.0, p.wall_clock_s / target_s - 1.0) if target_s else 0.0
        return (over > 0, over, late, p.gpus)
    return score(plan) < score(other)


def scaling_curve(setup: Setup, gpu: GpuSpec, node: Node, fixed: Fixed, start: int,
                  points: int = 8) -> list[Plan]:
    """The best fitting configuration at ``start``, 2x, 4x ... GPUs (time against GPU count)."""
    free = Fixed(zero_stage=fixed.zero_stage, recompute=fixed.recompute,
                 tensor_parallel=fixed.tensor_parallel,
                 pipeline_parallel=fixed.pipeline_parallel)
    out = []
    gpus = start
    while len(out) < points and gpus <= setup.max_gpus:
        plans = plans_at(setup, gpu, node, gpus, free)
        fitting = [plan for plan in plans if plan.fits and (
            fixed.pipeline_parallel or plan.bubble_share <= MAX_BUBBLE)]
        if fitting:
            out.append(min(fitting, key=preference))
        gpus *= 2
    return out
