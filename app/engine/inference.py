"""Step 4 of the method: decode and prefill roofline with calibrated efficiency factors.

One replica is ``t`` tensor-parallel GPUs per pipeline stage and ``p`` stages. Everything here
is per GPU of one stage, in SI units: bytes [B], seconds [s], FLOP/s, B/s. Functions accept
NumPy arrays for the batch so that whole curves are computed at once.

Notes
-----
Decode step of ``b`` sequences at average context ``c`` that also absorbs ``r * b`` prefill
tokens (``r = prompt / output`` under continuous batching, 0 for a lone user)::

    bytes     = W_touched / (t p) + b * c_att * kv_per_token_per_gpu
    t_mem     = bytes / (BW * eta_mem)
    t_compute = F_decode / (peak * eta_decode) + F_prefill / (peak * eta_prefill)
    t_comm    = L_stage * 2 * (alpha + 2 (t-1)/t * n_tokens * h * 2 / (link * eta_link))
    t_act     = n_tokens * A_token / (BW * eta_mem)
    stage     = max(t_mem, t_compute) + t_attention + t_act + t_comm + L_stage * layer_overhead
    ITL       = p * stage + step_overhead + b * sequence_overhead

The scheduler's cost per step grows with the requests it tracks (``sequence_overhead``:
scheduling, preparing the inputs of, sampling and handing back each running request every
step, on the CPU): vLLM, SGLang and TensorRT-LLM's PyTorch backend do it in Python; an
executor in C++ (TensorRT-LLM's TensorRT engines, llama.cpp) or over one static batch tensor
(optimum-habana) is taken to pay none (``Replica.host_per_request``; catalogs/engines.toml
``host_loops``).

``A_token`` is what the elementwise kernels between the matrix multiplications (residual-add
norms, the MLP's activation, quantising the activations of a W8A8 format) read and write per
token (:func:`activation_bytes`); they run at the memory's rate, not the tensor cores', so a
faster weight format does not shorten them. A prompt pays them too
(:func:`batch_prefill_time`).

MoE weights touched per step: ``E * (1 - (1 - k/E)^n_tokens)`` experts per MoE layer; the
routed experts' matrix multiplications run at ``m / (m + m_half)`` of the dense efficiency,
``m`` the tokens each touched expert multiplies (:func:`grouped_gemm_share`).
Prefill of ``P`` tokens: ``2 * P_active * P + 2 * L * P^2 * n_h * d_h`` FLOPs (causal).

References
----------
- METHOD.md, Step 4 (roofline, Little's law on a closed loop, MoE expert coverage).
- Williams, Waterman, Patterson, Roofline (CACM 2009).
- NVIDIA nccl-tests doc/PERFORMANCE.md: ring all-reduce moves ``2 (n-1)/n`` of the data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from app.domain.catalog import EfficiencyFactors, GpuSpec, ModelSpec, PrecisionSpec
from app.engine.memory import (
    BYTES_16BIT,
    ParameterCounts,
    attended_tokens,
    attention_flops_per_token,
    attention_width,
    experts_only_format,
    kv_bytes_per_token,
    kv_read_bytes_per_sequence,
)

#: Values a residual-add norm moves per hidden unit of a token: it reads the sublayer's
#: output and the residual stream and writes both back (vLLM ``fused_add_rms_norm``,
#: TensorRT-LLM's residual RMSNorm / LayerNorm plugins) [-].
NORM_VALUES = 4
#: Values the MLP's activation moves per intermediate unit of a token: a gated one
#: (``silu_and_mul``, GeGLU) reads the gate and up halves and writes their product (3), a plain
#: one (GELU) reads and writes one (2) [-].
ACTIVATION_VALUES = {"gated": 3, "plain": 2}
#: Bytes quantising one activation value for a low-precision GEMM moves: read in 16 bit,
#: written in 8 bit (vLLM ``static_scaled_fp8_quant`` / ``dynamic_per_token_scaled_fp8_quant``,
#: TensorRT-LLM's quantize kernels, AMD Quark's FP8 activations) [B].
QUANTISE_BYTES = 3.0
#: Bytes one value of a routed expert's 16-bit output moves when the ``k`` outputs of a token
#: are combined: read by the combine kernel (vLLM ``moe_sum``, TensorRT-LLM
#: ``finalizeMoeRoutingKernel``), which writes the weighted sum once per token [B].
COMBINE_READ_BYTES = BYTES_16BIT
#: Norm by which a kernel's memory and compute times combine (:func:`overlapped_time`) [-]:
#: 3, so that at the ridge (the two equal) the GEMMs take 2^(1/3) = 1.26x the roofline's
#: longer side, 1.04x where one side is twice the other. Chosen among 1.5, 2, 3, 4 and the
#: roofline's max (infinity) on the cross-validated bar (METHOD.md, Step 4, "Memory and
#: compute overlap only in part").
OVERLAP_NORM = 3.0


@dataclass(frozen=True)
class Factors:
    """Resolved efficiency factors (every value present)."""

    eta_mem: float
    eta_kv: float
    eta_decode: float
    eta_prefill: float
    step_overhead_s: float
    sequence_overhead_s: float
    layer_overhead_s: float
    fixed_latency_s: float
    comm_latency_s: float
    comm_efficiency: float

    @classmethod
    def from_catalog(cls, factors: EfficiencyFactors, overrides: dict[str, float]) -> Factors:
        values = {**factors.model_dump(exclude_none=True), **overrides}
        missing = [name for name in cls.__dataclass_fields__ if name not in values]
        if missing:
            raise ValueError(f"efficiency factors missing from the engine profile: {missing}")
        return cls(**{name: float(values[name]) for name in cls.__dataclass_fields__})

    def scaled(self, speed: float, fixed_speed: float | None = None) -> Factors:
        """Factors of a faster (speed > 1) or slower engine: efficiencies times ``speed``,
        fixed times divided by ``fixed_speed`` (by ``speed`` where not given)."""
        fixed = speed if fixed_speed is None else fixed_speed
        return Factors(
            eta_mem=min(1.0, self.eta_mem * speed),
            eta_kv=min(1.0, self.eta_kv * speed),
            eta_decode=min(1.0, self.eta_decode * speed),
            eta_prefill=min(1.0, self.eta_prefill * speed),
            step_overhead_s=self.step_overhead_s / fixed,
            sequence_overhead_s=self.sequence_overhead_s / fixed,
            layer_overhead_s=self.layer_overhead_s / fixed,
            fixed_latency_s=self.fixed_latency_s / fixed,
            comm_latency_s=self.comm_latency_s / fixed,
            comm_efficiency=min(1.0, self.comm_efficiency * speed),
        )


@dataclass(frozen=True)
class Replica:
    """What the roofline needs about one replica on one GPU type."""

    model: ModelSpec
    counts: ParameterCounts
    weights_bytes: float
    weight_precision: PrecisionSpec
    kv_bytes_per_element: float
    gpu: GpuSpec
    tensor_parallel: int
    pipeline_parallel: int
    factors: Factors
    max_batched_tokens: int
    prefill_min_budget_share: float = 0.125
    moe_half_tokens: float = 0.0  # tokens per expert at half the dense GEMM efficiency
    moe_fill_depth: float = 0.0  # reduction length a grouped-GEMM tile's fill costs [values]
    moe_expert_s: float = 0.0  # fixed time of each touched expert of a MoE layer [s]
    routed_weights_bytes: float | None = None  # as loaded; None: the average bytes/param
    idle_weights_bytes: float = 0.0  # held but not read per step (speculative heads)
    expert_parallel: int = 1  # EP ranks the routed experts are split over (1: off)
    dp_attention: bool = False  # each GPU of a stage runs its own requests' attention
    gemm_share: float = 1.0  # weight GEMMs' rate over a per-tensor kernel's (block FP8) [-]
    host_per_request: bool = True  # the executor loops over the running requests in Python
    routed_gemm_share: float = 1.0  # routed experts' kernel rate over a dense GEMM's [-]
    prefill_attention_intensity: float = 0.0  # FLOP per K/V byte of a bound prompt kernel
    prefill_attention_bandwidth: float = 0.0  # bandwidth its K/V tiles stream at [B/s]

    def host_seconds(self, sequences) -> np.ndarray:
        """CPU time of a step's per-request work [s]: ``sequence_overhead`` per running
        request of the busiest scheduler (each DP-attention rank schedules its own), none for
        an executor in C++ (``host_per_request`` False)."""
        sequences = np.maximum(np.atleast_1d(np.asarray(sequences, dtype=float)), 1.0)
        if not self.host_per_request:
            return np.zeros_like(sequences)
        return self.factors.sequence_overhead_s * sequences * self.rank_share(sequences)

    @property
    def gpus(self) -> int:
        return self.tensor_parallel * self.pipeline_parallel

    @property
    def attention_ranks(self) -> int:
        """Data-parallel attention ranks of a stage: ``t`` with DP attention, else 1 [-]."""
        return self.tensor_parallel if self.dp_attention else 1

    @property
    def attention_tensor_parallel(self) -> int:
        """GPUs one attention (and the other non-expert weights) is split over [-]."""
        return self.tensor_parallel // self.attention_ranks

    def rank_share(self, sequences) -> np.ndarray:
        """Share of a step's sequences the busiest attention rank holds [-].

        Without DP attention every GPU of a stage works on all of them (1). With ``d`` DP
        attention ranks the requests are spread over the ranks, ``1 / min(d, sequences)``:
        one sequence alone keeps one rank busy while the others wait for it.
        """
        sequences = np.maximum(np.asarray(sequences, dtype=float), 1.0)
        return 1.0 / np.minimum(float(self.attention_ranks), sequences)

    @property
    def non_expert_bytes(self) -> float:
        """Weights besides the routed experts, whole model, one copy [B]."""
        return max(self.weights_bytes - self.routed_bytes, 0.0)

    @property
    def held_weights_bytes(self) -> float:
        """Weights the GPUs of a replica hold together [B]: with DP attention every rank
        holds the non-expert weights split only ``t / d`` ways, so they are held ``d`` times."""
        return self.weights_bytes + (self.attention_ranks - 1) * self.non_expert_bytes

    @property
    def layers_per_stage(self) -> float:
        return self.model.layers / self.pipeline_parallel

    @property
    def moe_layers_per_stage(self) -> float:
        """MoE layers of one pipeline stage (0 for a dense model) [-]."""
        return self.model.moe_layers / self.pipeline_parallel

    @property
    def peak_flops(self) -> float:
        """Dense peak of the arithmetic the weight format runs in [FLOP/s].

        A format whose kernels multiply its weights with wider activations
        (``PrecisionSpec.activations``) runs at the slower of the two rates. MXFP4: no serving
        engine multiplies MXFP4 weights with 4-bit activations. TensorRT-LLM's MXFP4 modes are
        W4A8_MXFP4_MXFP8, W4A8_MXFP4_FP8 and W4A16_MXFP4 (tensorrt_llm/quantization/mode.py,
        QuantAlgo), and its gpt-oss guide runs the experts with MXFP8 activations on Blackwell
        and BF16 ones on Hopper (examples/models/core/gpt_oss/README.md, "MoE Support
        Matrix"). Blackwell's tensor cores take a 4-bit operand beside an 8-bit one at the
        FP8 rate (PTX ISA, tcgen05.mma kind::mxf8f6f4); only two 4-bit operands
        (kind::mxf4, kind::mxf4nvf4) reach the FP4 rate, twice FP8. So MXFP4 runs at the
        FP8 rate on Blackwell (NVFP4 checkpoints quantise the activations to NVFP4 too: FP4
        rate), and at the 16-bit rate where the GPU has no FP4 tensor cores
        (``GpuSpec.peak_flops``). METHOD.md, Step 4.
        """
        precision = self.weight_precision
        rate = self.gpu.peak_flops(precision.compute)
        if precision.activations is not None:
            rate = min(rate, self.gpu.peak_flops(precision.activations))
        return rate

    @property
    def dense_peak_flops(self) -> float:
        """Dense peak of the matrix multiplications besides the routed experts [FLOP/s].

        Where the weight format covers only the experts (``memory.experts_only_format``,
        gpt-oss's shipped MXFP4) attention and the output head stay in BF16 and run at the
        16-bit rate; otherwise as :attr:`peak_flops`.
        """
        if self.experts_only:
            return min(self.gpu.peak_flops("bf16"), self.peak_flops)
        return self.peak_flops

    @property
    def experts_only(self) -> bool:
        """Whether the weight format covers only the routed experts (gpt-oss's MXFP4)."""
        return self.model.moe is not None and experts_only_format(self.model,
                                                                  self.weight_precision)

    @property
    def quantises_activations(self) -> bool:
        """Whether the weight GEMMs multiply low-precision activations, quantised before each
        GEMM [-]: the format's rate is above the 16-bit one on this GPU (W8A8 FP8 or INT8 with
        FP8/INT8 tensor cores, FP4 on Blackwell). Weight-only formats (INT4 AWQ/GPTQ, FP8 or
        FP4 dequantised on a GPU without that rate) keep 16-bit activations."""
        return self.peak_flops > self.gpu.peak_flops("bf16")

    @property
    def prefill_attention_peak_flops(self) -> float:
        """Dense peak of the prompt's attention (score and value products) [FLOP/s].

        Attention multiplies activations by activations, not by the weights, so a 4-bit
        weight format does not make it 4-bit: no serving engine ships FP4 attention kernels.
        The prompt's attention runs in FP8 only where the KV cache is 8-bit; with a 16-bit
        cache it runs at the 16-bit rate, whatever the weights. TensorRT-LLM's PyTorch
        backend (tensorrt_llm/_torch/attention_backend/trtllm.py, ``TrtllmAttention.forward``:
        an FP8 output dtype only when the layer ``has_fp8_kv_cache``; cpp/tensorrt_llm/thop/
        attentionOp.cpp: ``mFP8ContextFMHA = is_fp8_out || is_fp4_out || (hasFp8KvCache() &&
        use_paged_context_fmha)``) and FlashAttention-3's FP8 path in vLLM and SGLang
        (``kv_cache_dtype=fp8``) both key it on the cache. The rate is capped by the weight
        format's (``GpuSpec.peak_flops``: the 16-bit rate where the GPU has no FP8). METHOD.md,
        Step 4 ("Attention does not run at the FP4 rate", "the prompt's attention in the KV
        cache's arithmetic").
        """
        kv_compute = "fp8" if self.kv_bytes_per_element <= 1.0 else "bf16"
        return min(self.gpu.peak_flops(kv_compute), self.peak_flops)

    def prefill_attention_rate(self, efficiency: float) -> float:
        """Rate of a prompt's attention [FLOP/s]: the tensor cores' at ``efficiency``,
        capped where the engine runs it through a kernel that reads its K/V tiles for few
        query rows at ``prefill_attention_intensity`` FLOP per byte times
        ``prefill_attention_bandwidth`` (``configuration.prefill_attention_bound``: vLLM's
        Triton unified attention for gpt-oss on Ampere and Ada, 16 FLOP per byte of a 16-bit
        cache)."""
        rate = self.prefill_attention_peak_flops * efficiency
        if self.prefill_attention_intensity > 0:
            rate = min(rate, self.prefill_attention_intensity * self.prefill_attention_bandwidth)
        return rate

    @property
    def decode_attention_peak_flops(self) -> float:
        """Dense peak of a decode step's attention over the KV cache [FLOP/s].

        The generation kernels multiply the query by the cached keys and values in the
        cache's own type: FP8 where the cache is 8-bit (TensorRT-LLM XQA, FlashInfer and
        FlashAttention-3 FP8), 16-bit otherwise, as the prompt's attention
        (:attr:`prefill_attention_peak_flops`). METHOD.md, Step 4.
        """
        return self.prefill_attention_peak_flops

    @property
    def bytes_per_param(self) -> float:
        """Average stored bytes per parameter of this replica's weights [B]."""
        return self.weights_bytes / self.counts.total

    @property
    def routed_expert_bytes(self) -> float:
        """Bytes of one routed expert in one layer [B]."""
        moe = self.model.moe
        if moe is None:
            return 0.0
        return self.routed_bytes / (self.model.moe_layers * moe.experts)

    @property
    def routed_bytes(self) -> float:
        """Bytes of all routed experts of the replica [B]."""
        if self.routed_weights_bytes is not None:
            return self.routed_weights_bytes
        return self.counts.routed_experts * self.bytes_per_param

    @property
    def always_read_bytes(self) -> float:
        """Weights every decode step reads, whole replica (all but routed experts) [B].

        The embedding is a lookup of ``b`` rows, not read whole, except where the output head
        is tied to it (Qwen3 0.6B-4B, Gemma 3, Falcon 180B): the head multiplies by the whole
        matrix in every step."""
        embedding = 0.0 if self.head_is_embedding else self.counts.embedding * BYTES_16BIT
        unread = self.routed_bytes + embedding + self.idle_weights_bytes
        return max(self.weights_bytes - unread, 0.0)

    @property
    def head_is_embedding(self) -> bool:
        """Whether the output head multiplies by the embedding matrix (tied) [-]."""
        return self.model.generates and self.model.tied_embeddings

    @property
    def matmul_params_active(self) -> float:
        """Parameters that take part in matrix multiplications per token: the active ones but
        the embedding lookup; a tied head (``V h``, the embedding matrix) multiplies all the
        same."""
        tied = self.model.vocab_size * self.model.hidden_size if self.head_is_embedding else 0
        return self.counts.active - self.counts.embedding + tied

    @property
    def routed_params_active(self) -> float:
        """Routed-expert parameters one token uses: ``k`` of the ``E`` experts of every MoE
        layer [-] (0 for a dense model)."""
        moe = self.model.moe
        if moe is None:
            return 0.0
        return self.counts.routed_experts * moe.experts_per_token / moe.experts

    @property
    def attention_width(self) -> float:
        """``n_h * d_h`` for the attention FLOPs (MLA: mean of QK and V head widths)."""
        return attention_width(self.model)

    def kv_bytes_per_token_per_gpu(self) -> float:
        """KV cache per token of the replica's sequences, per GPU (all layers of a stage)
        [B]. With DP attention a token's cache lives on its own rank only, split
        ``t / d`` ways (MLA's latent is no longer copied to every tensor-parallel GPU), so
        on average a GPU holds ``1 / d`` of it."""
        return kv_bytes_per_token(self.model, self.kv_bytes_per_element,
                                  self.attention_tensor_parallel) / self.pipeline_parallel \
            / self.attention_ranks

    def kv_read_bytes_per_gpu(self, context_tokens: float, sequences=1.0) -> np.ndarray:
        """Cache bytes per sequence of a step of ``sequences`` that the busiest GPU of a
        stage reads [B] (times ``sequences``: the step's KV read on that GPU)."""
        per_rank = kv_read_bytes_per_sequence(
            self.model, context_tokens, self.kv_bytes_per_element,
            self.attention_tensor_parallel) / self.pipeline_parallel
        return per_rank * self.rank_share(sequences)

    def non_expert_share(self, sequences) -> np.ndarray:
        """Share of a step's attention and dense-layer work one GPU does [-]: ``1/t``
        without DP attention; with it the busiest rank's share of the sequences, split
        ``t / d`` ways."""
        return self.rank_share(sequences) / self.attention_tensor_parallel


def experts_touched(experts: int, per_token: int, tokens) -> np.ndarray:
    """Expected distinct experts a batch of ``tokens`` routes to in one MoE layer.

    ``E * (1 - (1 - k/E)^n)`` for uniform routing (METHOD.md, Step 4).
    """
    tokens = np.asarray(tokens, dtype=float)
    return experts * (1.0 - (1.0 - per_token / experts) ** tokens)


def busiest_of(ranks: int) -> float:
    """Expected largest of ``ranks`` independent standard normal draws [-] (Blom's
    approximation ``Phi^-1((e - 0.375) / (e + 0.25))``: 0.59, 1.05, 1.43, 1.77 for 2, 4, 8
    and 16; exact 0.56, 1.03, 1.42, 1.77). 0 for one rank.

    The busiest of ``e`` ranks whose loads have mean ``m`` and standard deviation ``s``
    carries about ``m + busiest_of(e) s``; every expert-parallel step waits for it.
    """
    if ranks <= 1:
        return 0.0
    return NormalDist().inv_cdf((ranks - 0.375) / (ranks + 0.25))


def expert_rank_imbalance(replica: Replica, step_tokens) -> np.ndarray:
    """Routed rows the busiest expert-parallel rank multiplies, over the mean of the ranks [-].

    With ``e``-way expert parallelism each rank holds ``E / e`` whole experts and multiplies
    the (token, expert) pairs routed to them; the step ends when the busiest rank does. For
    uniform routing a token puts a hypergeometric number of its ``k`` experts on a given rank
    (mean ``k / e``, variance ``k (1/e) (1 - 1/e) (E - k) / (E - 1)``), so a rank's pairs in
    a step of ``n`` tokens have mean ``n k / e`` and ``n`` times that variance; the busiest
    carries ``1 + busiest_of(e) sd / mean`` times the mean (balls into bins), at most what its
    ``E / e`` experts can take of the step's pairs (``e min(k, E/e) / k``). It fades as the
    step grows. 1 without expert parallelism (tensor-parallel experts split every expert
    evenly).

    Not modelled: a trained router's preference for some experts beyond chance (DeepSeek's
    redundant experts and EPLB exist for it), which adds to this.
    """
    tokens = np.maximum(np.asarray(step_tokens, dtype=float), 1.0)
    moe = replica.model.moe
    e = replica.expert_parallel
    if moe is None or e <= 1:
        return np.ones_like(tokens)
    k, experts = moe.experts_per_token, moe.experts
    variance = k * (1 / e) * (1 - 1 / e) * (experts - k) / max(experts - 1, 1)
    mean = tokens * k / e
    spread = 1.0 + busiest_of(e) * np.sqrt(tokens * variance) / mean
    return np.minimum(spread, e * min(k, experts / e) / k)


def busiest_rank_touched(replica: Replica, tokens) -> np.ndarray:
    """Experts of one MoE layer the busiest expert-parallel rank reads, over the mean [-].

    Each of a rank's ``E / e`` experts is touched by a step of ``n`` tokens with probability
    ``q = 1 - (1 - k/E)^n`` (:func:`experts_touched`), so a rank reads ``E q / e`` of them on
    average with standard deviation ``sqrt(E q (1 - q) / e)``; the busiest reads
    ``busiest_of(e)`` deviations more, at most all ``E / e``. At small decode batches, where
    the step is memory-bound, this is its extra weight read; 1 once every expert is touched,
    and without expert parallelism.
    """
    tokens = np.maximum(np.asarray(tokens, dtype=float), 1.0)
    moe = replica.model.moe
    e = replica.expert_parallel
    if moe is None or e <= 1:
        return np.ones_like(tokens)
    held = moe.experts / e
    q = experts_touched(moe.experts, moe.experts_per_token, tokens) / moe.experts
    mean = held * q
    busiest = np.minimum(held, mean + busiest_of(e) * np.sqrt(held * q * (1 - q)))
    return busiest / mean


def touched_experts_busiest(replica: Replica, tokens) -> np.ndarray:
    """Experts of one MoE layer a step of ``tokens`` tokens touches, ``E (1 - (1 - k/E)^n)``
    (:func:`experts_touched`), times the busiest expert-parallel rank's excess
    (:func:`busiest_rank_touched`) [-]: ``e`` times what that rank reads (divide by ``e`` for
    its experts, by ``t`` for its share of tensor-parallel slices). A dense model needs none.
    """
    tokens = np.maximum(np.asarray(tokens, dtype=float), 1.0)
    moe = replica.model.moe
    return experts_touched(moe.experts, moe.experts_per_token, tokens) \
        * busiest_rank_touched(replica, tokens)


def grouped_gemm_share(replica: Replica, step_tokens) -> np.ndarray:
    """Efficiency of the routed experts' grouped GEMM relative to a dense GEMM [-].

    Each touched expert multiplies only the tokens routed to it,
    ``m = n k / touched(n)`` rows for a step of ``n`` tokens. A GEMM of few rows fills few
    of the tensor cores' tiles and its per-expert launch, routing and permutation cost is
    spread over few tokens, so the share rises with ``m`` as ``m / (m + m_half)``, with
    ``m_half`` (``Replica.moe_half_tokens``: the GPU's ridge for a natively computed format,
    a weight-only kernel's block of rows, ``configuration.grouped_gemm_half_tokens``) the
    rows at which it reaches half. 1 for a dense model or ``m_half = 0``.

    References
    ----------
    - Gale et al., MegaBlocks: Efficient Sparse Training with Mixture-of-Experts (MLSys
      2023): grouped/block-sparse GEMM throughput against tokens per expert.
    - Tan et al., Scattered Mixture-of-Experts Implementation (2024); vLLM fused_moe
      block-size tuning (BLOCK_SIZE_M 16-128 by tokens per expert).
    """
    tokens = np.maximum(np.asarray(step_tokens, dtype=float), 1.0)
    moe = replica.model.moe
    if moe is None or replica.moe_half_tokens <= 0:
        return np.ones_like(tokens)
    touched = experts_touched(moe.experts, moe.experts_per_token, tokens)
    rows = tokens * moe.experts_per_token / touched
    return rows / (rows + replica.moe_half_tokens)


def expert_reduction_share(replica: Replica) -> float:
    """Efficiency of the routed experts' GEMMs from their reduction length, relative to a
    dense GEMM's [-]: ``K / (K + K_0)`` for each, weighted by its FLOPs.

    An output tile of a GEMM runs a main loop of ``K / BK`` k-blocks (``K`` the reduction
    length, ``BK`` the tile's depth) and pays a fixed cost besides: the prologue loads
    ``stages - 1`` k-blocks before its first MMA, and the epilogue converts and stores its
    ``BM x BN`` accumulators, which a tile of short ``K`` cannot hide behind its main loop.
    ``K_0`` (``Replica.moe_fill_depth``, the catalog default ``moe_gemm_fill_depth``) is that
    cost in reduction values: 192 = 3 k-blocks of 64 (CUTLASS's multistage grouped GEMM keeps
    3-4 stages of ``BK`` 32-64 16-bit values; the value fitted, METHOD.md, "The expert's
    shape"). A dense model's GEMMs reduce over ``h`` or ``f / t`` (4,096-28,672 for the models
    the efficiency factors were fitted on), an expert's over its hidden size ``h`` (gate/up)
    and its intermediate width per GPU ``f_e / (t / e)`` (down; whole with expert parallelism,
    a ``t``-way slice with tensor-parallel experts), which for fine-grained experts is short:
    Qwen3-30B-A3B ``h`` 2,048, ``f_e`` 768: (2 x 2048/2240 + 768/960) / 3 = 0.88; Qwen3-235B
    tensor-parallel on 8 GPUs ``f_e / 8`` = 192: 0.80; DeepSeek-R1 7,168 / 2,048 (EP): 0.95;
    Mixtral 4,096 / 14,336 / 2 (TP2): 0.96. The gated MLP's gate and up projections are 2 of
    its 3 matrices (``ACTIVATION_VALUES``: 1 of 2 for a plain MLP). 1 for a dense model or
    ``K_0 = 0``.

    References
    ----------
    - NVIDIA, CUTLASS ``include/cutlass/gemm/threadblock/mma_multistage.h`` (prologue of
      ``Stages - 1`` k-blocks) and ``examples/24_gemm_grouped``; NVIDIA Deep Learning
      Performance Guide, "Matrix Multiplication Background" (tile quantisation; a GEMM's
      efficiency grows with its dimensions).
    """
    moe = replica.model.moe
    depth = replica.moe_fill_depth
    if moe is None or depth <= 0:
        return 1.0
    h = float(replica.model.hidden_size)
    split = max(replica.tensor_parallel / max(replica.expert_parallel, 1), 1.0)
    width = moe.expert_intermediate_size / split
    inputs = ACTIVATION_VALUES[replica.model.mlp] - 1  # gate and up, or up alone
    return (inputs * h / (h + depth) + width / (width + depth)) / (inputs + 1)


def overlapped_time(memory_s, compute_s):
    """Time of matrix multiplications that stream ``memory_s`` of weights while they compute
    for ``compute_s`` [s]: ``(m^n + c^n)^(1/n)``, ``n`` :data:`OVERLAP_NORM`.

    The roofline takes the longer of the two (Williams, Waterman, Patterson, Roofline: an
    insightful visual performance model, CACM 52(4), 2009), which assumes a pipeline that
    hides every load behind the math. A GEMM's tiles overlap them through a few buffered
    k-blocks (CUTLASS ``mma_multistage.h``: 3-4 stages), and a problem of few rows runs in
    smaller tiles that reuse less of what they load (NVIDIA, Matrix Multiplication
    Background User's Guide, DU-09799-001, 2023, section 2.3), so near the ridge, where
    neither side dominates, the tiles wait on their loads part of the time. Far from it the
    longer side is the time (1.04x it where one side is twice the other); 2^(1/3) = 1.26x
    at the ridge. The execution-cache-memory model treats a core's transfers the same way,
    adding the part it cannot overlap (Hager, Treibig, Habich, Wellein, Concurrency Computat.:
    Pract. Exper. 28, 2016).
    """
    memory = np.asarray(memory_s, dtype=float)
    compute = np.asarray(compute_s, dtype=float)
    scale = np.maximum(np.maximum(memory, compute), np.finfo(float).tiny)  # no underflow
    return scale * ((memory / scale) ** OVERLAP_NORM
                    + (compute / scale) ** OVERLAP_NORM) ** (1 / OVERLAP_NORM)


def matmul_seconds(replica: Replica, tokens, step_tokens, efficiency: float,
                   sequences=1.0) -> np.ndarray:
    """Time of the weight matrix multiplications of ``tokens`` tokens on one GPU of a stage,
    in a step of ``step_tokens`` tokens of ``sequences`` requests [s].

    ``2 * (P_dense s_rank / peak_dense + P_routed g / (share t peak)) / p * tokens / eta``
    (``peak_dense``: :attr:`Replica.dense_peak_flops`, the 16-bit rate where the format covers
    only the experts; ``peak``: :attr:`Replica.peak_flops`): the routed
    experts' part runs at :func:`grouped_gemm_share` times :func:`expert_reduction_share` of
    the dense efficiency and is split over
    the ``t`` GPUs of a stage (tensor- or expert-parallel alike), the busiest expert-parallel
    rank taking ``g`` times the mean (:func:`expert_rank_imbalance`, 1 without EP); the rest
    at the busiest GPU's share ``s_rank`` (:meth:`Replica.non_expert_share`, ``1/t`` without
    DP attention). Every weight GEMM runs at ``Replica.gemm_share`` of the format's rate
    (below 1 only for block-scaled FP8 in the engine releases whose profile names slower
    kernels for it: ``configuration.block_fp8_share``).
    """
    share = grouped_gemm_share(replica, step_tokens) / expert_rank_imbalance(replica,
                                                                             step_tokens) \
        * replica.routed_gemm_share * expert_reduction_share(replica)
    routed = replica.routed_params_active
    dense = replica.matmul_params_active - routed
    per_token = 2 * (dense * replica.non_expert_share(sequences) / replica.dense_peak_flops
                     + routed / share / replica.tensor_parallel / replica.peak_flops) \
        / replica.pipeline_parallel
    return np.asarray(tokens, dtype=float) * per_token / (efficiency * replica.gemm_share)


def mlp_width_per_token(model: ModelSpec) -> float:
    """Intermediate units of the MLP one token passes through, mean over the layers [-]:
    ``f`` for a dense layer, ``k f_e + s f_s`` (its routed and shared experts) for a MoE one."""
    moe = model.moe
    if moe is None:
        return float(model.intermediate_size)
    experts = moe.experts_per_token * moe.expert_intermediate_size + moe.shared_experts * (
        moe.shared_intermediate_size or moe.expert_intermediate_size)
    return ((model.layers - model.moe_layers) * model.intermediate_size
            + model.moe_layers * experts) / model.layers


def activation_bytes(replica: Replica, tokens, sequences=1.0) -> np.ndarray:
    """Bytes the elementwise kernels between the matrix multiplications move for ``tokens``
    tokens of ``sequences`` requests on the busiest GPU of a stage, its layers [B].

    Per token and layer: the ``n_norm`` residual-add norms read and write ``NORM_VALUES``
    values per hidden unit, on every GPU of a stage (the hidden state is whole on each after
    the all-reduce; with DP attention on the rank that holds the request), and the MLP's
    activation ``ACTIVATION_VALUES`` per intermediate unit, split over the ``t`` GPUs, all
    16-bit. Where the format multiplies low-precision activations (W8A8 FP8/INT8 on a GPU with
    that rate, NVFP4 and MXFP4 on Blackwell: ``Replica.quantises_activations``) each GEMM
    input is quantised first, ``QUANTISE_BYTES`` per value: the hidden state before the QKV
    and the gate/up projections, the activation before the down projection (only the
    experts' inputs where the format covers only the experts). These kernels are
    memory-bound and do not get faster with the weight format, so their share of a prompt's
    time grows with the GPU's FLOP/byte ratio: 590 on an H100 in FP8, 850 on an L40S in FP8,
    150 on an A100 in BF16 (METHOD.md, Step 4, "What does not run at the FP8 rate").
    """
    model = replica.model
    h = float(model.hidden_size)
    width = mlp_width_per_token(model) / replica.tensor_parallel
    hidden = model.norms_per_layer * NORM_VALUES * h * BYTES_16BIT
    mlp = ACTIVATION_VALUES[model.mlp] * width * BYTES_16BIT
    quantised = 0.0
    if replica.quantises_activations:
        inputs = h + width if replica.experts_only else 2 * h + width
        quantised = QUANTISE_BYTES * inputs
    per_token = (hidden * replica.rank_share(sequences) + mlp + quantised
                 + routing_bytes_per_token(replica)) * replica.layers_per_stage
    return np.asarray(tokens, dtype=float) * per_token


def routing_bytes_per_token(replica: Replica) -> float:
    """Bytes the MoE's permute and combine kernels move per token and layer on the busiest
    GPU of a stage, mean over the layers [B] (0 for a dense model).

    A routed token is copied once per chosen expert into the expert-sorted rows the grouped
    GEMM reads (TensorRT-LLM ``expandInputRowsKernel``; SGLang's and vLLM's ``moe_permute``
    on their CUTLASS and DeepEP paths), ``k h`` values at the GEMM input's width (1 B where
    the format quantises its activations, :attr:`Replica.quantises_activations`, else
    16-bit), and its ``k`` expert outputs (16-bit) are read back and summed with the router
    weights into one row (vLLM ``moe_sum``, TensorRT-LLM ``finalizeMoeRoutingKernel``),
    written once: ``k h (q + 2) + 2 h`` bytes per MoE layer. Experts split ``e`` ways by
    expert parallelism leave each GPU ``1 / e`` of the (token, expert) pairs; tensor-parallel
    experts (``e = 1``) give every GPU of the stage the whole rows (each holds a slice of
    every expert's width and produces full-width partial outputs), so nothing is split.
    Qwen3-235B-A22B in BF16: 94 layers x (8 x 4,096 x 4 + 2 x 4,096) B = 13.1 MB per token
    on each of 8 tensor-parallel GPUs (the norms and the split activation: 7.0 MB), 1.6 MB on
    each of 8 expert-parallel ranks; memory-bound, so a faster weight format does not shorten
    it. METHOD.md, Step 4, "The MoE's permute and combine".
    """
    model = replica.model
    moe = model.moe
    if moe is None:
        return 0.0
    h = float(model.hidden_size)
    width = 1.0 if replica.quantises_activations else BYTES_16BIT
    pairs = moe.experts_per_token * h * (width + COMBINE_READ_BYTES) + BYTES_16BIT * h
    return model.moe_layers / model.layers * pairs / max(replica.expert_parallel, 1)


def activation_seconds(replica: Replica, tokens, sequences=1.0) -> np.ndarray:
    """Time of :func:`activation_bytes` at the sustained bandwidth and ``eta_mem`` [s]."""
    bandwidth = replica.gpu.sustained_bandwidth_bytes_per_s * replica.factors.eta_mem
    return activation_bytes(replica, tokens, sequences) / bandwidth


def weights_read_bytes(replica: Replica, tokens) -> np.ndarray:
    """Weight bytes one GPU reads in a step that processes ``tokens`` tokens [B].

    The non-expert weights split ``t / d`` ways (``d`` DP-attention ranks, 1 without), the
    touched experts' over the ``t`` GPUs of the stage: with ``e``-way expert parallelism a
    GPU holds ``E / e`` whole experts and reads the touched ones among them, in expectation
    the same bytes as ``t``-way slices of every touched expert; the busiest rank reads
    :func:`busiest_rank_touched` times that (1 without EP).
    """
    per_gpu = replica.always_read_bytes * replica.attention_ranks / replica.gpus
    if replica.model.moe is None:
        return np.full_like(np.asarray(tokens, dtype=float), per_gpu)
    return per_gpu + replica.moe_layers_per_stage * touched_experts_busiest(replica, tokens) \
        * replica.routed_expert_bytes / replica.tensor_parallel


def touched_expert_seconds(replica: Replica, tokens) -> np.ndarray:
    """Fixed time the touched experts of a step of ``tokens`` tokens cost on the busiest GPU
    of a stage, beside their weight read and FLOPs [s].

    ``L_moe * touched(n) * g / e * c``: each of the ``touched(n)`` experts of a MoE layer
    (``E (1 - (1 - k/E)^n)``, held ``1/e`` on each of ``e`` expert-parallel ranks, the busiest
    taking ``g`` times the mean: :func:`busiest_rank_touched`) is its own group of the grouped
    GEMMs (gate/up and down) and of the permute and combine: its tiles cannot start their
    multiply before the first k-blocks of its weights arrive from memory (the prologue of a
    multistage GEMM), and the expert's short problem leaves little main loop to hide that
    wait behind. ``c`` (``Replica.moe_expert_s``, the catalog default ``moe_expert_overhead_s``)
    is what that costs per touched expert after the experts' tiles overlap on the GPU's SMs.
    It does not scale with the tokens per expert, so it weighs most where few tokens share
    many experts (DeepSeek-R1's 256, Qwen3's 128) and is a fixed time, not a share of the
    roofline. 0 for a dense model.

    References
    ----------
    - NVIDIA CUTLASS ``include/cutlass/gemm/threadblock/mma_multistage.h`` (the prologue
      loads ``Stages - 1`` k-blocks before the first MMA) and ``examples/24_gemm_grouped``
      (one problem per expert); vLLM ``fused_moe.py`` / ``moe_align_block_size`` (each
      expert's tokens padded to their own block); Luo et al., Dissecting the NVIDIA Hopper
      Architecture through Microbenchmarking and Multiple Level Analysis (arXiv 2501.12084,
      2025): global-memory latency of several hundred nanoseconds.
    """
    tokens = np.asarray(tokens, dtype=float)
    if replica.model.moe is None or replica.moe_expert_s <= 0:
        return np.zeros_like(tokens)
    touched = touched_experts_busiest(replica, tokens) / max(replica.expert_parallel, 1)
    return replica.moe_layers_per_stage * touched * replica.moe_expert_s


#: GPUs of a PCIe server that share one CPU socket or one PCIe switch tree: a ring over more
#: crosses the link between the two halves (the CPUs' socket link, or the switches' uplinks)
#: [-]. 8-GPU PCIe servers hang 4 GPUs off each socket or switch (voipmonitor/rtx6kpro
#: hardware/topology.md; NVIDIA/nccl issue #1639: 8 RTX 5090 on two Xeon 8480+).
PCIE_HALF_GPUS = 4
#: Share of the bus bandwidth a ring over more than :data:`PCIE_HALF_GPUS` PCIe GPUs keeps
#: [-]: nccl-tests ``all_reduce_perf`` busbw of 8 GPUs over that of 4 in the same two-socket
#: server with the same settings, 28 / 35 GB/s (NVIDIA/nccl issue #1639, RTX 5090 PCIe Gen5,
#: 2 x Xeon 8480+, ``NCCL_MIN_NCHANNELS=8``, 1-8 GB messages). Other published 8-GPU PCIe
#: figures fall in the same way: 22.2 GB/s on a dual EPYC Turin with NCCL's defaults against
#: 30.3 GB/s for 4 GPUs under one Broadcom switch (voipmonitor/rtx6kpro
#: hardware/pcie-bandwidth.md, asus-esc8000a-e13p-broadcom-switches.md, RTX PRO 6000, 32 MB),
#: and NCCL's own topology model caps a ring that crosses sockets at the socket link
#: (NVIDIA/nccl src/graph/topo.h: AMD_BW 16, SKL_QPI_BW 10, SRP_QPI_BW 22 GB/s) below a
#: PCIe Gen4 x16 link (24 GB/s, ``width x speed / 80`` in src/graph/topo.cc).
PCIE_CROSS_HALF_SHARE = 28.0 / 35.0


def collective_link(replica: Replica, ranks: int) -> float:
    """Bus bandwidth a collective over ``ranks`` GPUs of the replica sees [B/s]: the
    scale-up link at the engine's ``comm_efficiency``, times :data:`PCIE_CROSS_HALF_SHARE`
    on PCIe when the ring spans more than :data:`PCIE_HALF_GPUS` GPUs (both sockets or
    switch trees of the server)."""
    gpu = replica.gpu
    link = gpu.scale_up_bytes_per_s * replica.factors.comm_efficiency
    if gpu.scale_up == "pcie" and ranks > PCIE_HALF_GPUS:
        link *= PCIE_CROSS_HALF_SHARE
    return link


#: NCCL's ring latency per step over PCIe [s] and the share of the bus bandwidth each
#: protocol keeps [-], for the two protocols NCCL runs there (LL128 is enabled only within an
#: NVLink domain, ``typeIntra <= PATH_NVB``): NVIDIA/nccl src/graph/tuning.cc,
#: ``hwLatencies[NCCL_HW_PCI][NCCL_ALGO_RING]`` = LL 1.0 us, Simple 5.7 us; Ring LL bandwidth
#: ``busBw * .5``. NCCL adds ``2 (t - 1)`` such steps to an all-reduce's base latency and picks
#: the protocol with the shorter time.
PCIE_RING_PROTOCOLS = ((1.0e-6, 0.5), (5.7e-6, 1.0))


#: The least time one small all-reduce takes on a scale-up fabric whatever the engine [s]: a
#: hardware floor under the engine's ``comm_latency_s`` (which :meth:`Factors.scaled` divides
#: by a faster engine's speed; this does not scale). 8 x MI300X over the fully connected xGMI
#: mesh, where vLLM 0.10 runs its custom all-reduce (one-shot below 256 KB, two-shot to 16 MB:
#: ROCm/vllm@040de12 csrc/custom_all_reduce.cuh:561-575; QuickReduce off by default,
#: VLLM_ROCM_QUICK_REDUCE_QUANTIZATION = "NONE", vllm/envs.py:139, and only from 16 MB for
#: 16-bit at TP8, quick_all_reduce.py:52-59), published at 32 KB: RCCL 2.20.5 16.2 us,
#: QuickReduce FP16 two-shot 14.8 us (mk1-project/quickreduce@910e892 README.md, "All-Reduce
#: Latency across 8xMI300X"); fused one-shot kernels 5 us (Epliz/muiLLM PR #6). 12 us is
#: CHOSEN ON THE CROSS-VALIDATED MEDIANS inside that 5-16 us range (10 us: sum 277.2 -> 275.0,
#: 15 us: model-kind decode 12.0 -> 14.3 %). NVLink gets none: its published small one-shot
#: all-reduces (7.8 us, 8 x H100, 32 KB, sgl-project/sglang PR #2904) sit under the generic
#: profile's 10 us, and an 8 us floor there puts one more case beyond 2x (METHOD.md,
#: "The xGMI all-reduce floor").
SCALE_UP_COLLECTIVE_FLOOR_S = {"infinity-fabric": 12e-6}


def collective_latency(replica: Replica) -> float:
    """Fixed time of one collective [s]: the engine's ``comm_latency_s``, at least the
    scale-up fabric's :data:`SCALE_UP_COLLECTIVE_FLOOR_S`."""
    floor = SCALE_UP_COLLECTIVE_FLOOR_S.get(replica.gpu.scale_up, 0.0)
    return max(replica.factors.comm_latency_s, floor)


def allreduce_time(replica: Replica, tokens, collectives: float) -> np.ndarray:
    """Time of ``collectives`` ring all-reduces of ``tokens * h`` 16-bit values [s].

    Each is :func:`collective_latency` (the engine's fixed cost of a collective, NCCL's base
    latency among it, at least the fabric's floor) plus the ring's ``2 (t-1)/t`` of the
    message over :func:`collective_link`. Over PCIe the ring's ``2 (t - 1)`` steps add NCCL's
    per-step latency, with the faster of its LL and Simple protocols
    (:data:`PCIE_RING_PROTOCOLS`); over NVLink and xGMI engines run their own one-shot /
    two-shot kernels for these sizes and the fixed latency stands.
    """
    t = replica.tensor_parallel
    tokens = np.asarray(tokens, dtype=float)
    if t == 1:
        return np.zeros_like(tokens)
    link = collective_link(replica, t)
    volume = 2 * (t - 1) / t * tokens * replica.model.hidden_size * BYTES_16BIT
    if replica.gpu.scale_up == "pcie":
        steps = 2 * (t - 1)
        ring = np.minimum.reduce([steps * hop + volume / (link * share)
                                  for hop, share in PCIE_RING_PROTOCOLS])
    else:
        ring = volume / link
    return collectives * (collective_latency(replica) + ring)


def dispatch_ranks(experts: int, per_token: int, ranks: int) -> float:
    """Other expert-parallel ranks one token is sent to [-]: each of the ``e - 1`` other
    ranks holds ``E / e`` experts and receives the token when one of its ``k`` experts is
    there, ``(e - 1) (1 - (1 - 1/e)^k)`` for uniform routing (at most ``min(k, e - 1)``; a
    token goes once to a rank whatever the number of its experts there, as DeepEP does)."""
    if ranks <= 1:
        return 0.0
    return (ranks - 1) * (1.0 - (1.0 - 1.0 / ranks) ** min(per_token, experts))


def allreduces_per_layer(model: ModelSpec) -> int:
    """Tensor-parallel all-reduces of one layer [-]: 2, after the attention's output
    projection and after the MLP's down projection (Megatron-LM's row-parallel layers;
    Shoeybi et al., Megatron-LM, arXiv 1909.08053, section 3), or 1 for a model whose
    attention and MLP run in parallel on the same input (``ModelSpec.parallel_attention``):
    the engines add the two partial outputs and reduce their sum once (Falcon's
    new_decoder_architecture: vLLM ``model_executor/models/falcon.py``,
    ``reduce_row_parallel_results = not (new_decoder_architecture or parallel_attn)``;
    TensorRT-LLM 0.9 ``models/falcon/model.py``, "allreduce applies after those layer").
    GPT-J's parallel block is not marked: both engines reduce its attention and MLP
    separately."""
    return 1 if model.parallel_attention else 2


def communication_time(replica: Replica, tokens, sequences, layers: float) -> np.ndarray:
    """Collectives of a step of ``tokens`` tokens over ``layers`` layers on one GPU [s].

    - Without DP attention: :func:`allreduces_per_layer` ring all-reduces per layer (after
      attention and after the MLP or MoE), expert parallelism or not (the tokens are on
      every GPU already; the experts' outputs are summed by the second all-reduce).
    - With DP attention and expert parallelism: no collective for attention; per MoE layer an
      all-to-all dispatch and combine, each moving the busiest rank's tokens' hidden state
      (16 bit) to :func:`dispatch_ranks` other ranks over the scale-up link (DeepSeek-V3
      report, section 3.2.2; SGLang's DP attention).
    - With DP attention and tensor-parallel experts: per MoE layer an all-gather of the
      tokens and a reduce-scatter of the outputs, the volume of one all-reduce.
    Dense layers of a DP-attention replica run on each rank's own tokens (no collective).
    """
    tokens = np.asarray(tokens, dtype=float)
    if not replica.dp_attention or replica.model.moe is None:
        return allreduce_time(replica, tokens, allreduces_per_layer(replica.model) * layers)
    moe = replica.model.moe
    moe_layers = layers * replica.model.moe_layers / replica.model.layers
    if replica.expert_parallel <= 1:
        return allreduce_time(replica, tokens, moe_layers)
    f = replica.factors
    link = collective_link(replica, replica.expert_parallel)
    remote = dispatch_ranks(moe.experts, moe.experts_per_token, replica.expert_parallel)
    volume = tokens * replica.rank_share(sequences) * remote * replica.model.hidden_size \
        * BYTES_16BIT
    return 2 * moe_layers * (f.comm_latency_s + volume / link)


@dataclass(frozen=True)
class StepTimes:
    """One decode step split into its parts [s] (arrays over the batch)."""

    weights_read: np.ndarray
    kv_read: np.ndarray
    compute: np.ndarray
    prefill_compute: np.ndarray
    communication: np.ndarray
    overhead: np.ndarray
    itl: np.ndarray
    activations: np.ndarray  # elementwise kernels (norms, activation, quantising)
    overlap: np.ndarray  # the GEMMs beyond the longer of weights and compute


def attention_flops(replica: Replica, tokens, context: float) -> np.ndarray:
    """Attention FLOPs of ``tokens`` queries at ``context`` tokens, layers of a stage [FLOP]."""
    per_token = attention_flops_per_token(replica.model, context) / replica.pipeline_parallel
    return per_token * np.asarray(tokens)


def decode_attention_flops(replica: Replica, tokens, context: float) -> np.ndarray:
    """Attention FLOPs of ``tokens`` decode queries at ``context`` tokens, layers of a stage
    [FLOP].

    As :func:`attention_flops`, except for MLA: engines decode it with the up-projections
    absorbed into the query and output (DeepSeek-V2 report, section 2.1.3; FlashMLA, vLLM's
    and SGLang's MLA backends, TensorRT-LLM's MLA generation kernel), so the scores are taken
    against the ``r_kv + d_rope`` wide latent and the values are the ``r_kv`` wide latent:
    ``2 n_h (2 r_kv + d_rope)`` per attended token and layer, 3.4x the ``n_h (d_nope + d_rope +
    d_v)`` of the unabsorbed form for DeepSeek-V3 (544 against 160 per head). The prompt's
    attention runs unabsorbed (:func:`attention_flops`).
    """
    plain = attention_flops(replica, tokens, context)
    mla = replica.model.mla
    if mla is None:
        return plain
    model = replica.model
    absorbed = model.attention_heads * (2 * mla.kv_lora_rank + mla.qk_rope_head_dim) / 2
    extra = 4.0 * model.attention_layers * (absorbed - attention_width(model)) \
        * attended_tokens(model, context) / replica.pipeline_parallel
    return plain + extra * np.asarray(tokens, dtype=float)


def decode_step(replica: Replica, batch, context_tokens: float,
                prefill_ratio=0.0, prompt_tokens: float = 0.0) -> StepTimes:
    """Inter-token latency of a decode step of ``batch`` sequences [s].

    The matrix multiplications (weights read once, FLOPs of every token of the step) and the
    attention (each sequence's KV read once) run one after the other, so their times add.

    Parameters
    ----------
    replica : the configuration
    batch : sequences decoding together (scalar or array) [-]
    context_tokens : average tokens each sequence holds [tokens]
    prefill_ratio : prefill tokens mixed in per decoded token (prompt / output) [-]
    prompt_tokens : length of the prompts being prefilled [tokens]
    """
    f = replica.factors
    pp = replica.pipeline_parallel
    micro = np.maximum(np.atleast_1d(np.asarray(batch, dtype=float)) / pp, 1.0)
    prefill_tokens = micro * prefill_ratio
    tokens = micro + prefill_tokens
    bandwidth = replica.gpu.sustained_bandwidth_bytes_per_s
    weights_s = weights_read_bytes(replica, tokens) / (bandwidth * f.eta_mem)
    share = replica.non_expert_share(micro)  # 1/t without DP attention
    decode_s = matmul_seconds(replica, micro, tokens, f.eta_decode, micro)
    # a prompt is prefilled in chunks of the token budget, not spread over every step: the
    # experts of a step that carries one see its chunk's tokens beside the decodes
    chunk = min(float(prompt_tokens), float(replica.max_batched_tokens)) if prompt_tokens \
        else 0.0
    prefill_s = matmul_seconds(replica, prefill_tokens, micro + chunk, f.eta_prefill, micro)
    prefill_s = prefill_s + attention_flops(replica, prefill_tokens, prompt_tokens / 2) * share \
        / replica.prefill_attention_rate(f.eta_prefill)
    kv_s = micro * replica.kv_read_bytes_per_gpu(context_tokens, micro) / (bandwidth * f.eta_kv)
    attention_s = np.maximum(kv_s, decode_attention_flops(replica, micro, context_tokens)
                             * share / (replica.decode_attention_peak_flops * f.eta_decode))
    comm_s = communication_time(replica, tokens, micro, replica.layers_per_stage)
    layers = replica.layers_per_stage * f.layer_overhead_s + touched_expert_seconds(replica, tokens)
    activations_s = activation_seconds(replica, tokens, micro)
    matmul_s = decode_s + prefill_s
    gemms = overlapped_time(weights_s, matmul_s)
    stage = gemms + attention_s + activations_s + comm_s + layers
    scheduler_s = f.step_overhead_s + replica.host_seconds(batch)
    itl = pp * stage + scheduler_s
    overhead = pp * layers + scheduler_s
    overlap = gemms - np.maximum(weights_s, matmul_s)
    return StepTimes(weights_s * pp, attention_s * pp, decode_s * pp, prefill_s * pp,
                     comm_s * pp, overhead, itl, activations_s * pp, overlap * pp)


def prefill_time(replica: Replica, prompt_tokens: float, served: bool = True) -> float:
    """Time to process a prompt alone, first token included, without queueing [s].

    Notes
    -----
    ``FLOPs = 2 * P_active * P + 2 * L * P^2 * n_h * d_h``; the prompt is processed in
    chunks of the engine's token budget, each chunk reading the weights once; add the
    tensor-parallel all-reduces and, for a served request, the serving stack's fixed latency
    per request (``fixed_latency_s``: the API server's HTTP handling, tokenisation and chat
    template, admission by the scheduler, detokenising and streaming the first token).

    Parameters
    ----------
    served : False for an offline harness that drives the engine in-process
        (gptSessionBenchmark, trtllm-bench, ``vllm bench latency``): no API server and no
        request admission, so the GPU work alone [-]
    """
    fixed = replica.factors.fixed_latency_s if served else 0.0
    return batch_prefill_time(replica, 1.0, prompt_tokens) + fixed


def batch_prefill_time(replica: Replica, prompts: float, prompt_tokens: float) -> float:
    """Time to process ``prompts`` prompts of ``prompt_tokens`` tokens together, without the
    engine's fixed latency [s].

    The ``n = prompts * P`` tokens run in chunks of the token budget, each chunk one forward
    pass that reads the weights once: ``overlapped_time(chunks * weights, compute) +
    all-reduces + layer overheads + chunks * step_overhead`` (the per-step cost a decode
    step pays too; :func:`overlapped_time`, the two overlapping only in part), with
    each prompt's causal attention (``2 L P^2 n_h d_h``) and the matrix multiplications of
    every token (:func:`matmul_seconds`, a chunk's tokens sharing the experts).
    """
    f = replica.factors
    tokens = prompts * prompt_tokens
    chunk = min(tokens, replica.max_batched_tokens)
    chunks = math.ceil(tokens / replica.max_batched_tokens)
    attention = tokens * attention_flops_per_token(replica.model, prompt_tokens / 2)
    share = float(np.atleast_1d(replica.non_expert_share(prompts))[0])
    compute_s = (attention * share / replica.prefill_attention_rate(f.eta_prefill)
                 + float(np.atleast_1d(matmul_seconds(replica, tokens, chunk, f.eta_prefill,
                                                      prompts))[0])
                 * replica.pipeline_parallel
                 + float(np.atleast_1d(activation_seconds(replica, tokens, prompts))[0])
                 * replica.pipeline_parallel)
    bandwidth = replica.gpu.sustained_bandwidth_bytes_per_s * f.eta_mem
    weights_s = float(np.atleast_1d(weights_read_bytes(replica, chunk))[0]) / bandwidth
    weights_s *= replica.pipeline_parallel
    comm_s = float(np.atleast_1d(communication_time(replica, tokens, prompts,
                                                    replica.model.layers))[0])
    comm_s += replica.model.layers * f.layer_overhead_s * chunks
    # each chunk's touched experts pay their fixed cost once (touched_expert_seconds)
    comm_s += float(np.atleast_1d(touched_expert_seconds(replica, chunk))[0]) \
        * replica.pipeline_parallel * chunks
    # each chunk is one forward pass of the engine: it pays the per-step cost (scheduling,
    # input preparation, kernel launches) that a decode step pays
    return float(overlapped_time(chunks * weights_s, compute_s)) + comm_s \
        + chunks * f.step_overhead_s


def prefill_throughput(replica: Replica, prompt_tokens: float) -> float:
    """Prompt tokens per second one replica processes in prefill [tokens/s]."""
    return prompt_tokens / max(prefill_time(replica, prompt_tokens)
                               - replica.factors.fixed_latency_s, 1e-12)


def naive_tokens_per_s(bandwidth_bytes_per_s: float, active_weights_bytes: float) -> float:
    """The sizing guides' rule: memory bandwidth / bytes of the weights one token reads
    [tokens/s].

    Each generated token reads every active weight once, so one GPU at full bandwidth makes
    at most ``bandwidth / active weights`` tokens per second; for a mixture of experts the
    active weights are the k experts a token uses, not the whole model. 70B in FP16 = 140 GB
    on 4,800 GB/s gives about 34 tokens/s (METHOD.md, Step 4).

    Parameters
    ----------
    bandwidth_bytes_per_s : memory bandwidth of one GPU [B/s]
    active_weights_bytes : parameters used per token x bytes per weight [B]
    """
    return bandwidth_bytes_per_s / active_weights_bytes
