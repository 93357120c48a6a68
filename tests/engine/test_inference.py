"""Step 4 physics: decode roofline, MoE coverage, tensor parallelism, prefill
(app.engine.inference; the operating points built on them are in test_performance.py).

Sources: METHOD.md "Step 4 — Performance" (roofline, MoE ``E*(1-(1-k/E)^B)``, prefill FLOPs
``2*P*p + 2*L*p^2*n_h*d_h``, all-reduce cost, Little's law ``C = X*(TTFT + o*ITL)``);
Williams et al., Roofline (CACM 2009); NVIDIA nccl-tests PERFORMANCE.md (ring all-reduce moves
``2(n-1)/n`` of the data).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from engine_helpers import IDEAL
from hypothesis import given
from hypothesis import strategies as st

from app.engine.capacity import weights_per_gpu
from app.engine.configuration import Choice, configure
from app.engine.inference import (
    Factors,
    activation_bytes,
    allreduce_time,
    communication_time,
    decode_step,
    expert_reduction_share,
    experts_touched,
    grouped_gemm_share,
    matmul_seconds,
    naive_tokens_per_s,
    overlapped_time,
    prefill_time,
    routing_bytes_per_token,
    touched_expert_seconds,
    weights_read_bytes,
)

# Efficiency 1 and no overheads: the bare roofline.

# (model, gpu, t, weights, engine): memory-bound and MoE cases, one and several GPUs.


# --------------------------------------------------------------------------- roofline


def test_catalog_efficiencies_never_exceed_the_roofline(catalog):
    """Every engine's resolved efficiency factors are shares of the hardware peak (<= 1)."""
    families = {gpu.family for gpu in catalog.gpus.values()}
    for engine in catalog.engines.values():
        for family in families:
            factors = engine.factors_for(family).merged(catalog.engines["generic"].factors)
            resolved = Factors.from_catalog(factors, {})
            for name in ("eta_mem", "eta_kv", "eta_decode", "eta_prefill", "comm_efficiency"):
                assert 0 < getattr(resolved, name) <= 1, (engine.id, family, name)


def test_single_user_itl_is_at_least_weights_over_bandwidth(replica):
    """Roofline: one decode step reads the GPU's weights at most at full bandwidth (MoE: the
    weights one token touches, i.e. the active share)."""
    model = replica.model
    per_gpu = weights_per_gpu(replica.weights_bytes, model, replica.tensor_parallel,
                              replica.pipeline_parallel)
    per_gpu *= replica.counts.active / replica.counts.total  # 1 for dense models
    bound = per_gpu * replica.pipeline_parallel / replica.gpu.memory_bandwidth_bytes_per_s
    itl = float(decode_step(replica, 1.0, 1024).itl[0])
    assert itl >= bound
    assert itl < 20 * bound  # and not absurdly far from it (no order-of-magnitude slip)


def test_ideal_decode_step_equals_the_roofline(configure_replica):
    """With efficiency 1 and no overheads, Llama-3.1-8B BF16 on one H100 SXM (3,350 GB/s) at
    1,000 tokens of context: ITL = (weights read + KV read) / bandwidth, the weights read
    overlapping the one token's matrix compute in part (``overlapped_time``: the cube root of
    the sum of cubes, 1.6e-8 of the step here).

    Weights read per step: all but the embedding table (a lookup reads b rows);
    KV: 1,000 x 131,072 B (2*32*8*128*2); the token's norms and activation: 32 x 151,552 B
    (``test_activation_bytes_known_answer``)."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16", overrides=IDEAL)
    rep = config.replica
    counts = rep.counts
    weights_read = 2 * (counts.total - counts.embedding)
    kv = 1000 * 131_072
    step = decode_step(rep, 1.0, 1000)
    compute = 2 * rep.matmul_params_active / rep.peak_flops
    gemms = ((weights_read / 3350e9) ** 3 + compute**3) ** (1 / 3)
    expected = gemms + (kv + 32 * 151_552) / 3350e9
    itl = float(step.itl[0])
    assert float(step.compute[0]) == pytest.approx(compute, rel=1e-9)
    assert itl == pytest.approx(expected, rel=1e-9)
    assert float(step.overlap[0]) == pytest.approx(gemms - weights_read / 3350e9, rel=1e-6)
    assert 1 / itl == pytest.approx(221.2, rel=0.01)
    # the vendor figure reads the whole model, embedding included: slightly slower
    assert naive_tokens_per_s(3350e9, 2 * counts.total) < 1 / itl


def test_overlapped_time_known_answers():
    """METHOD.md Step 4, "Memory and compute overlap only in part": ``(m^3 + c^3)^(1/3)``;
    at the ridge 2^(1/3) = 1.260 of either side, 1.040 of the longer where it is twice the
    other, the longer alone where the other is nothing."""
    assert float(overlapped_time(1.0, 1.0)) == pytest.approx(1.259921, rel=1e-6)
    assert float(overlapped_time(2.0, 1.0)) == pytest.approx(2.080084, rel=1e-6)
    assert float(overlapped_time(0.0, 3e-3)) == pytest.approx(3e-3, rel=1e-12)
    both = overlapped_time(np.array([1.0, 0.5]), np.array([0.5, 1.0]))
    assert both[0] == pytest.approx(both[1])


@given(st.floats(0, 10), st.floats(0, 10))
def test_overlapped_time_lies_between_the_longer_side_and_the_sum(memory, compute):
    """Never faster than the roofline's longer side, never slower than no overlap at all."""
    time = float(overlapped_time(memory, compute))
    assert max(memory, compute) * (1 - 1e-12) <= time <= (memory + compute) * (1 + 1e-12)


def test_a_derated_gpu_decodes_at_its_sustained_bandwidth(configure_replica):
    """MI300X reaches about 81 % of its 5.3 TB/s in copy benchmarks where H100 SXM reaches
    about 88 % (catalogs/gpus.toml ``bandwidth_derate`` 0.92, METHOD.md "AMD CDNA 3"): the
    ideal decode step reads at 5,300 x 0.92 = 4,876 GB/s, not at the datasheet's peak."""
    config = configure_replica("llama-3.1-8b", "mi300x", 1, weights="bf16", overrides=IDEAL)
    rep = config.replica
    assert rep.gpu.bandwidth_derate == pytest.approx(0.92)
    assert rep.gpu.sustained_bandwidth_bytes_per_s == pytest.approx(4876e9)
    counts = rep.counts
    weights = 2 * (counts.total - counts.embedding) / 4876e9
    compute = 2 * rep.matmul_params_active / rep.peak_flops
    expected = (weights**3 + compute**3) ** (1 / 3) + (1000 * 131_072 + 32 * 151_552) / 4876e9
    assert float(decode_step(rep, 1.0, 1000).itl[0]) == pytest.approx(expected, rel=1e-9)


def test_itl_grows_with_batch_and_throughput_grows_too(replica):
    batch = np.arange(1, 257, dtype=float)
    itl = decode_step(replica, batch, 2048).itl
    assert np.all(np.diff(itl) > 0)
    throughput = batch / itl
    assert np.all(np.diff(throughput) > 0)
    assert throughput[-1] > 5 * throughput[0]  # batching pays: B=256 far above one stream


def test_itl_grows_with_context(replica):
    contexts = [128, 1024, 4096, 16384, 65536]
    itl = [float(decode_step(replica, 8.0, c).itl[0]) for c in contexts]
    assert all(b > a for a, b in zip(itl, itl[1:], strict=False))


# --------------------------------------------------------------------------- MoE


def test_experts_touched_known_answers():
    """METHOD.md Step 4: E*(1-(1-k/E)^n). E=8, k=2: 2 at n=1, 3.5 at n=2, 8 as n grows."""
    assert float(experts_touched(8, 2, 1)) == pytest.approx(2.0)
    assert float(experts_touched(8, 2, 2)) == pytest.approx(8 * (1 - 0.75**2)) == 3.5
    assert float(experts_touched(256, 8, 1)) == pytest.approx(8.0)
    touched = experts_touched(8, 2, np.array([1, 2, 4, 16, 64, 1000]))
    assert np.all(np.diff(touched) > 0)
    assert np.all(touched <= 8)
    assert touched[-1] == pytest.approx(8.0, abs=1e-9)


def test_moe_batch_one_reads_only_active_weights(configure_replica):
    """Mixtral BF16, one token: the step reads the dense part and 2 of 8 experts per layer,
    i.e. 2 bytes x (active parameters - embedding); a large batch reads every expert."""
    rep = configure_replica("mixtral-8x7b", "h100-sxm", 1, weights="bf16").replica
    counts = rep.counts
    one = float(weights_read_bytes(rep, 1.0))
    assert one == pytest.approx(2 * (counts.active - counts.embedding), rel=1e-9)
    many = float(weights_read_bytes(rep, 4096.0))
    assert many == pytest.approx(2 * (counts.total - counts.embedding), rel=1e-6)


def test_grouped_gemm_share_known_answers(configure_replica):
    """m / (m + m_half) with m = n k / touched(n) rows per touched expert and m_half the
    GPU's ridge for the format (configuration.grouped_gemm_ridge_rows): Mixtral BF16 on an
    H100 SXM, 2 B x 989.4 TFLOP/s / (2 x 3.35 TB/s) = 295.34 rows; one token gives each of its
    2 experts 1 row; 2,048 tokens spread over all 8 experts give 512 rows each; a dense model
    keeps share 1."""
    rep = configure_replica("mixtral-8x7b", "h100-sxm", 1, weights="bf16").replica
    ridge = 2 * 989.4e12 / (2 * 3350e9)
    assert rep.moe_half_tokens == pytest.approx(ridge, rel=1e-12)
    share = grouped_gemm_share(rep, np.array([1.0, 2048.0]))
    assert share[0] == pytest.approx(1 / (1 + ridge))
    assert share[1] == pytest.approx(512 / (512 + ridge), rel=1e-6)
    dense = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    assert float(grouped_gemm_share(dense, 2048.0)) == 1.0


def test_touched_expert_seconds_known_answers(configure_replica):
    """L_moe * touched(n) * c (c = 0.2 us in the catalog): one Mixtral token touches its 2
    experts in each of 32 layers, 32 x 2 x 0.2 us = 12.8 us; 2,048 tokens touch all 8,
    51.2 us; the decode step and a prompt's chunk pay it; a dense model pays nothing."""
    rep = configure_replica("mixtral-8x7b", "h100-sxm", 1, weights="bf16").replica
    assert rep.moe_expert_s == 2e-7
    assert rep.moe_layers_per_stage == 32
    fixed = touched_expert_seconds(rep, np.array([1.0, 2048.0]))
    assert fixed[0] == pytest.approx(32 * 2 * 2e-7)
    assert fixed[1] == pytest.approx(32 * 8 * 2e-7, rel=1e-6)
    without = dataclasses.replace(rep, moe_expert_s=0.0)
    step = decode_step(rep, 1.0, 1024.0)
    assert float(step.itl[0] - decode_step(without, 1.0, 1024.0).itl[0]) == pytest.approx(
        32 * 2 * 2e-7)
    assert float(step.overhead[0] - decode_step(without, 1.0, 1024.0).overhead[0]) \
        == pytest.approx(32 * 2 * 2e-7)
    assert prefill_time(rep, 4096.0) - prefill_time(without, 4096.0) == pytest.approx(
        32 * 8 * 2e-7, rel=1e-6)
    dense = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    assert float(touched_expert_seconds(dense, 2048.0)) == 0.0


def test_expert_reduction_share_known_answers(configure_replica):
    """K / (K + 192) per expert GEMM, weighted 2:1 for the gated MLP's gate/up (K = h) and
    down (K = f_e per GPU): Mixtral on one GPU (4,096 / 14,336); Qwen3-30B-A3B (2,048 / 768)
    = (2 x 2048/2240 + 768/960) / 3; its experts sliced 2 ways by tensor parallelism (384); a dense
    model keeps 1."""
    rep = configure_replica("mixtral-8x7b", "h100-sxm", 1, weights="bf16").replica
    assert rep.moe_fill_depth == 192.0
    assert expert_reduction_share(rep) == pytest.approx(
        (2 * 4096 / 4288 + 14336 / 14528) / 3)
    qwen = configure_replica("qwen3-30b-a3b", "h100-sxm", 1, weights="bf16").replica
    assert expert_reduction_share(qwen) == pytest.approx((2 * 2048 / 2240 + 768 / 960) / 3)
    sliced = configure_replica("qwen3-30b-a3b", "h100-sxm", 2, weights="bf16").replica
    assert expert_reduction_share(sliced) == pytest.approx((2 * 2048 / 2240 + 384 / 576) / 3)
    dense = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    assert expert_reduction_share(dense) == 1.0


def test_routed_experts_matmuls_run_at_the_grouped_share(configure_replica):
    """The dense part runs at the dense efficiency, the routed part slower by the share."""
    rep = configure_replica("mixtral-8x7b", "h100-sxm", 1, weights="bf16",
                            overrides=IDEAL).replica
    routed = rep.routed_params_active
    moe = rep.model.moe
    assert routed == pytest.approx(rep.counts.routed_experts * moe.experts_per_token
                                   / moe.experts)
    share = float(grouped_gemm_share(rep, 2048.0)) * expert_reduction_share(rep)
    expected = 2 * 2048 * (rep.matmul_params_active - routed + routed / share) / rep.peak_flops
    assert float(matmul_seconds(rep, 2048.0, 2048.0, 1.0)) == pytest.approx(expected)


def test_the_scheduler_cost_grows_with_the_running_requests(configure_replica):
    """ITL = p * stage + step_overhead + b * sequence_overhead: 10 us per request adds
    2.56 ms to a step of 256 sequences and 10 us to a lone one."""
    base = {"sequence_overhead_s": 0.0}
    slow = {"sequence_overhead_s": 1e-5}
    plain = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                              overrides=base).replica
    busy = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                             overrides=slow).replica
    batches = np.array([1.0, 256.0])
    added = decode_step(busy, batches, 1024).itl - decode_step(plain, batches, 1024).itl
    assert added == pytest.approx([1e-5, 256e-5])


def test_a_cpp_executor_pays_no_per_request_host_work(catalog):
    """TensorRT-LLM's 0.x releases (the C++ batch manager over TensorRT engines) and NIM pay
    no ``sequence_overhead`` per running request; its PyTorch backend (1.x, the current
    release, and a 0.x case that states it) and the engines without a profile entry (the
    generic one) do (catalogs/engines.toml host_loops)."""
    trt, generic = catalog.engine("tensorrt-llm"), catalog.engine("generic")
    assert [trt.host_loop(r).per_request for r in ("", "1.x", "0.x PyTorch", "0.x", "NIM")] \
        == [True, True, True, False, False]
    assert generic.host_loop("").per_request
    assert not catalog.engine("llama.cpp").host_loop("").per_request
    model = catalog.model("llama-3.1-8b")
    slow = {"sequence_overhead_s": 1e-4}
    steps = {release: decode_step(configure(catalog, model, Choice(
        "h100-sxm", 1, 1, "fp8", "fp8", "tensorrt-llm", engine_release=release), slow).replica,
        np.array([256.0]), 1024).itl[0] for release in ("", "0.x")}
    assert steps[""] - steps["0.x"] == pytest.approx(256e-4)


def test_fp4_weights_run_at_the_16bit_rate_without_fp4_tensor_cores(catalog):
    """MXFP4/NVFP4 on Hopper dequantise to 16 bit (W4A16); on Blackwell the FP4 rate."""
    h200, b200 = catalog.gpu("h200-sxm"), catalog.gpu("b200")
    assert h200.peak_flops("fp4") == h200.peak_flops("bf16")
    assert b200.peak_flops("fp4") == pytest.approx(9000e12)


def test_mxfp4_runs_at_the_fp8_rate_on_blackwell_and_gpt_oss_attention_at_bf16(
        configure_replica):
    """MXFP4 experts are multiplied with 8-bit activations (TensorRT-LLM W4A8_MXFP4_MXFP8):
    the FP8 rate on Blackwell, not FP4's; gpt-oss keeps attention and head in BF16, at the
    16-bit rate. NVFP4 (4-bit activations) keeps the FP4 rate; Hopper keeps the 16-bit one."""
    gpt_oss = configure_replica("gpt-oss-120b", "b200", 1, weights="mxfp4").replica
    b200 = gpt_oss.gpu
    assert gpt_oss.peak_flops == pytest.approx(b200.peak_flops("fp8"))
    assert gpt_oss.dense_peak_flops == pytest.approx(b200.peak_flops("bf16"))
    qwen = configure_replica("qwen3-30b-a3b", "b200", 1, weights="nvfp4").replica
    assert qwen.peak_flops == qwen.dense_peak_flops == pytest.approx(b200.peak_flops("fp4"))
    hopper = configure_replica("gpt-oss-120b", "h200-sxm", 1, weights="mxfp4").replica
    assert hopper.peak_flops == hopper.dense_peak_flops == hopper.gpu.peak_flops("bf16")


def test_weight_only_moe_kernels_pad_an_expert_to_their_block_of_rows(configure_replica):
    """4-bit weights computed at the 16-bit rate run in the weight-only MoE kernel the engine
    profile names (catalogs/engines.toml ``weight_only_moe_kernels``), whose grouped GEMM
    pads each touched expert to its block of rows (configuration.grouped_gemm_half_tokens):
    vLLM's Marlin MoE 16 on Ampere and Ada (MXFP4, AWQ) and on Hopper (AWQ), triton_kernels
    64 for vLLM's MXFP4 on Hopper and for SGLang; native formats (16-bit, FP8, FP4 on
    Blackwell) take the GPU's ridge for the format (configuration.grouped_gemm_ridge_rows)."""
    def half(model, gpu, weights, engine="vllm"):
        return configure_replica(model, gpu, 1, weights=weights,
                                 engine=engine).replica.moe_half_tokens

    assert half("gpt-oss-20b", "a100-sxm-80", "mxfp4") == 16.0
    assert half("gpt-oss-20b", "rtx-4090", "mxfp4") == 16.0
    assert half("gpt-oss-20b", "h100-sxm", "mxfp4") == 64.0
    assert half("gpt-oss-20b", "h100-sxm", "mxfp4", "sglang") == 64.0  # refused before Hopper
    assert half("gpt-oss-20b", "h100-sxm", "mxfp4", "tensorrt-llm") == 64.0  # TRITON backend
    assert half("gpt-oss-20b", "b200", "mxfp4") == pytest.approx(298.83, rel=1e-4)  # native
    assert half("qwen3-30b-a3b", "a100-sxm-80", "int4-awq") == 16.0
    assert half("qwen3-30b-a3b", "h100-sxm", "int4-gptq") == 16.0
    assert half("qwen3-30b-a3b", "h100-sxm", "fp8") == pytest.approx(295.36, rel=1e-4)
    assert half("qwen3-30b-a3b", "a100-sxm-80", "bf16") == pytest.approx(153.02, rel=1e-4)


def test_sink_models_prompt_attention_is_bound_by_the_triton_kernels_kv_reads(
        configure_replica):
    """vLLM runs gpt-oss (attention sinks) on Ampere and Ada through its Triton unified
    attention (catalogs/engines.toml ``attention_kernels``): 16 query rows per K/V tile, 16
    FLOP per byte of a 16-bit cache at the sustained bandwidth, far below the tensor cores'
    rate; a model without sinks, Hopper and TensorRT-LLM keep the tensor cores' rate."""
    a100 = configure_replica("gpt-oss-20b", "a100-sxm-80", 1, weights="mxfp4").replica
    assert a100.prefill_attention_intensity == 16.0
    assert a100.prefill_attention_rate(0.5) == pytest.approx(
        16.0 * a100.gpu.sustained_bandwidth_bytes_per_s)
    assert a100.prefill_attention_rate(0.5) < 0.25 * a100.prefill_attention_peak_flops * 0.5
    fp8_kv = configure_replica("gpt-oss-20b", "l40s", 1, weights="mxfp4", kv="fp8").replica
    assert fp8_kv.prefill_attention_intensity == 32.0  # the same rows, half the bytes
    for rep in (configure_replica("qwen3-30b-a3b", "a100-sxm-80", 1).replica,
                configure_replica("gpt-oss-20b", "h100-sxm", 1, weights="mxfp4").replica,
                configure_replica("gpt-oss-20b", "h100-sxm", 1, weights="mxfp4",
                                  engine="tensorrt-llm").replica):
        assert rep.prefill_attention_intensity == 0.0
        assert rep.prefill_attention_rate(0.5) == rep.prefill_attention_peak_flops * 0.5


def test_weight_only_moe_decode_at_small_batch_is_bound_by_its_weights(configure_replica):
    """gpt-oss-120b MXFP4 on one A100 with 4 sequences (vLLM, Marlin MoE): each touched
    expert multiplies about one row, so reading its 4-bit weights takes about twice as long as
    the padded tile's arithmetic and the step is memory-bound: 9.5 ms, where GPUStack measured
    a TPOT of 11.7 ms at 4 users with prompts mixed in (pub-327); with the native formats'
    256-row floor the arithmetic was 6.4x the weight reads and the step 49 ms."""
    rep = configure_replica("gpt-oss-120b", "a100-sxm-80", 1, weights="mxfp4",
                            engine="vllm").replica
    step = decode_step(rep, 4.0, 450)
    assert step.compute[0] < 0.5 * step.weights_read[0]
    assert 0.007 < step.itl[0] < 0.012


def test_moe_decode_is_faster_than_dense_of_same_size(configure_replica):
    """Mixtral (46.7B, 12.9B active) decodes one stream faster than Llama-3.1-70B at 2 bytes."""
    moe = configure_replica("mixtral-8x7b", "h100-sxm", 2, weights="bf16").replica
    dense = configure_replica("llama-3.1-70b", "h100-sxm", 2, weights="bf16").replica
    assert decode_step(moe, 1.0, 1024).itl[0] < 0.5 * decode_step(dense, 1.0, 1024).itl[0]


# --------------------------------------------------------------------------- tensor parallel


def test_tensor_parallel_halves_weights_and_adds_communication(configure_replica):
    one = configure_replica("llama-3.1-70b", "h100-sxm", 1, weights="fp8").replica
    two = configure_replica("llama-3.1-70b", "h100-sxm", 2, weights="fp8").replica
    assert float(weights_read_bytes(two, 1.0)) == pytest.approx(
        float(weights_read_bytes(one, 1.0)) / 2, rel=1e-12)
    model = one.model
    assert weights_per_gpu(one.weights_bytes, model, 2, 1) == one.weights_bytes / 2
    assert float(decode_step(one, 1.0, 1024).communication[0]) == 0.0
    comm = float(decode_step(two, 1.0, 1024).communication[0])
    assert comm > 0
    # and the step is faster with two GPUs, but by less than 2x (communication, overheads)
    itl1 = float(decode_step(one, 1.0, 1024).itl[0])
    itl2 = float(decode_step(two, 1.0, 1024).itl[0])
    assert itl1 / 2 < itl2 < itl1


def test_allreduce_known_answer(configure_replica):
    """nccl-tests PERFORMANCE.md: a ring all-reduce moves 2(t-1)/t of the data per GPU.

    Llama-3.1-70B (h=8192), t=4, one token, two all-reduces per layer (METHOD.md):
    160 x (alpha + 2*3/4 * 8192*2 B / (450 GB/s x eta_link))."""
    config = configure_replica("llama-3.1-70b", "h100-sxm", 4, weights="fp8")
    rep = config.replica
    f = rep.factors
    per = f.comm_latency_s + 1.5 * 8192 * 2 / (450e9 * f.comm_efficiency)
    assert float(allreduce_time(rep, 1.0, 160)) == pytest.approx(160 * per, rel=1e-12)
    assert float(decode_step(rep, 1.0, 1024).communication[0]) == pytest.approx(160 * per,
                                                                               rel=1e-12)


def test_falcon_reduces_once_per_layer(configure_replica):
    """Falcon-180B's attention and MLP run in parallel on the same input and the engines sum
    their partial outputs before one all-reduce per layer (vLLM falcon.py
    ``reduce_row_parallel_results = not (new_decoder_architecture or parallel_attn)``;
    TensorRT-LLM 0.9 models/falcon/model.py: "allreduce applies after those layer").

    Falcon-180B (h=14,848, 80 layers) on 8 H100s, one token: 80 x (alpha + 1.75 x 14,848 x
    2 B / (450 GB/s x eta_link)); a sequential model of the same width would pay 160."""
    rep = configure_replica("falcon-180b", "h100-sxm", 8, weights="fp8").replica
    assert rep.model.parallel_attention
    f = rep.factors
    per = f.comm_latency_s + 1.75 * 14848 * 2 / (450e9 * f.comm_efficiency)
    comm = float(decode_step(rep, 1.0, 1024).communication[0])
    assert comm == pytest.approx(80 * per, rel=1e-12)
    sequential = configure_replica("llama-3.1-70b", "h100-sxm", 8, weights="fp8").replica
    assert not sequential.model.parallel_attention
    assert float(communication_time(sequential, 1.0, 1.0, 80)) == pytest.approx(
        float(allreduce_time(sequential, 1.0, 160)), rel=1e-12)


def test_xgmi_allreduce_floor_known_answer(configure_replica):
    """An all-reduce over MI300X's xGMI mesh takes at least 12 us whatever the engine's
    speed (inference.SCALE_UP_COLLECTIVE_FLOOR_S; published 8 x MI300X at 32 KB: RCCL 16.2 us,
    QuickReduce FP16 14.8 us, mk1-project/quickreduce@910e892 README.md; the 12 us chosen on
    the cross-validated medians inside that range). A slow engine's larger latency stands;
    NVLink keeps the engine's.

    Llama-3.1-70B (h=8192), t=8, one token, the generic profile at 4x its speed (2.5 us):
    12 us + 1.75 x 16,384 B / (448 GB/s x min(1, 0.7 x 4))."""
    fast = {"comm_latency_s": 2.5e-6, "comm_efficiency": 1.0}
    mi = configure_replica("llama-3.1-70b", "mi300x", 8, weights="fp8", overrides=fast).replica
    expected = 12e-6 + 1.75 * 8192 * 2 / 448e9
    assert float(allreduce_time(mi, 1.0, 1)) == pytest.approx(expected, rel=1e-12)
    slow = {"comm_latency_s": 38.4e-6, "comm_efficiency": 1.0}
    mi = configure_replica("llama-3.1-70b", "mi300x", 8, weights="fp8", overrides=slow).replica
    assert float(allreduce_time(mi, 1.0, 1)) == pytest.approx(38.4e-6 + 1.75 * 8192 * 2 / 448e9,
                                                              rel=1e-12)
    nv = configure_replica("llama-3.1-70b", "h200-sxm", 8, weights="fp8", overrides=fast).replica
    link = nv.gpu.scale_up_bytes_per_s
    assert float(allreduce_time(nv, 1.0, 1)) == pytest.approx(2.5e-6 + 1.75 * 8192 * 2 / link,
                                                              rel=1e-12)


def test_pcie_communication_costs_more_than_nvlink(configure_replica):
    nvlink = configure_replica("llama-3.1-70b", "h100-sxm", 4, weights="fp8").replica
    pcie = configure_replica("llama-3.1-70b", "h100-pcie", 4, weights="fp8").replica
    batch = np.array([64.0])
    assert decode_step(pcie, batch, 1024).communication[0] > \
        1.5 * decode_step(nvlink, batch, 1024).communication[0]
    # a prefill chunk of 8,192 tokens is bandwidth-bound: 450 / 50 GB/s = 9x
    ratio = float(allreduce_time(pcie, 8192.0, 1) / allreduce_time(nvlink, 8192.0, 1))
    assert 7 < ratio <= 9


def test_pcie_allreduce_known_answer(configure_replica):
    """NVIDIA/nccl src/graph/tuning.cc: a PCIe ring all-reduce takes ``2 (t-1)`` steps of
    1.0 us (LL, half the bus bandwidth) or 5.7 us (Simple, all of it), whichever is faster;
    NVIDIA/nccl issue #1639: 8 PCIe GPUs keep 28 / 35 of the bus bandwidth of 4.

    Llama-3.1-70B (h=8192) on L40S (25 GB/s), one collective, on top of the engine's alpha:
    t=4, 1 token: LL, 6 x 1.0 us + 1.5 x 16,384 B / (0.5 x 25 GB/s x eta);
    t=8, 4,096 tokens: Simple, 14 x 5.7 us + 1.75 x 64 MiB / (25 GB/s x eta x 0.8)."""
    four = configure_replica("llama-3.1-70b", "l40s", 4, weights="fp8").replica
    eta = four.factors.comm_efficiency
    alpha = four.factors.comm_latency_s
    ll = 6 * 1.0e-6 + 1.5 * 8192 * 2 / (0.5 * 25e9 * eta)
    assert float(allreduce_time(four, 1.0, 1)) == pytest.approx(alpha + ll, rel=1e-12)
    eight = configure_replica("llama-3.1-70b", "l40s", 8, weights="fp8").replica
    simple = 14 * 5.7e-6 + 1.75 * 4096 * 8192 * 2 / (25e9 * eta * 28 / 35)
    assert float(allreduce_time(eight, 4096.0, 1)) == pytest.approx(alpha + simple, rel=1e-12)


def test_pcie_ring_over_two_halves_keeps_less_bandwidth(configure_replica):
    """Per GPU the ring moves 2(t-1)/t of the message: 1.5 at t=4, 1.75 at t=8 (x7/6); over
    PCIe the eight GPUs also lose a fifth of the bus bandwidth (x5/4), so a bandwidth-bound
    all-reduce takes about 7/6 x 5/4 = 1.46x as long at t=8; over NVLink only the 7/6."""
    def ratio(gpu):
        four = configure_replica("llama-3.1-70b", gpu, 4, weights="fp8").replica
        eight = configure_replica("llama-3.1-70b", gpu, 8, weights="fp8").replica
        tokens = 65536.0
        return float(allreduce_time(eight, tokens, 1) / allreduce_time(four, tokens, 1))
    assert ratio("l40s") == pytest.approx(7 / 6 * 35 / 28, rel=0.02)
    assert ratio("h100-sxm") == pytest.approx(7 / 6, rel=0.02)


# --------------------------------------------------------------------------- prefill


def test_prefill_flops_known_answer(configure_replica):
    """METHOD.md Step 4: prefill FLOPs = 2*P*p + 2*L*p^2*n_h*d_h (causal); at efficiency 1 a
    compute-bound prompt of 32,768 tokens on one H100 (989 TFLOP/s BF16) takes FLOPs/peak,
    plus its tokens' norms and activation at the memory's rate (151,552 B per token and
    layer, ``test_activation_bytes_known_answer``), the weights read once per chunk of the
    token budget overlapping that in part (``overlapped_time``, 4e-6 of the time here)."""
    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                            overrides=IDEAL).replica
    p = 32768
    params = rep.counts.active - rep.counts.embedding  # the lookup does no matmul
    flops = 2 * params * p + 2 * 32 * p**2 * 32 * 128
    elementwise = p * 32 * 151_552 / 3350e9
    compute = flops / rep.peak_flops + elementwise
    weights = math.ceil(p / rep.max_batched_tokens) * 2 * params / 3350e9
    assert prefill_time(rep, p) == pytest.approx((compute**3 + weights**3) ** (1 / 3), rel=1e-9)
    assert prefill_time(rep, p) > compute


def test_activation_bytes_known_answer(configure_replica):
    """Llama-3.1-8B (h 4,096, f 14,336, gated, two norms) per token and layer: two residual-add
    RMSNorms read and write 4 x 4,096 16-bit values each (65,536 B), SiLU-and-mul reads
    2 x 14,336 and writes 14,336 (86,016 B): 151,552 B. In FP8 on an H100 (W8A8) the inputs of
    the QKV, gate/up and down projections are quantised, 3 B per value read in 16 bit and
    written in 8: 3 x (2 x 4,096 + 14,336) = 67,584 B more. With t = 2 the activation and the
    down projection's input halve; the norms stay whole on every GPU."""
    bf16 = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    fp8 = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="fp8").replica
    two = configure_replica("llama-3.1-8b", "h100-sxm", 2, weights="fp8").replica
    assert float(activation_bytes(bf16, 1.0)) == pytest.approx(32 * 151_552)
    assert fp8.quantises_activations and not bf16.quantises_activations
    assert float(activation_bytes(fp8, 1.0)) == pytest.approx(32 * (151_552 + 67_584))
    halved = 65_536 + 86_016 / 2 + 3 * (2 * 4096 + 14_336 / 2)
    assert float(activation_bytes(two, 10.0)) == pytest.approx(10 * 32 * halved)


def test_moe_routing_bytes_known_answer(configure_replica):
    """Qwen3-235B-A22B (h 4,096, k 8, 94 MoE layers): per token and layer the permute writes
    8 copies of the hidden state and the combine reads the 8 expert outputs and writes one
    row, 8 x 4,096 x (2 + 2) + 2 x 4,096 = 139,264 B in BF16; with FP8 activations on an H100
    the copies are 1 B: 8 x 4,096 x 3 + 8,192 = 106,496 B. Tensor-parallel experts give every
    GPU all of it; expert parallelism over 8 ranks an eighth. A dense model has none."""
    bf16 = configure_replica("qwen3-235b-a22b", "h200-sxm", 8, weights="bf16").replica
    fp8 = configure_replica("qwen3-235b-a22b", "h200-sxm", 8, weights="fp8").replica
    assert routing_bytes_per_token(bf16) == pytest.approx(139_264)
    assert routing_bytes_per_token(fp8) == pytest.approx(106_496)
    ep = dataclasses.replace(bf16, expert_parallel=8)
    assert routing_bytes_per_token(ep) == pytest.approx(139_264 / 8)
    dense = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    assert routing_bytes_per_token(dense) == 0.0
    without = float(activation_bytes(ep, 1.0)) - 94 * routing_bytes_per_token(ep)
    assert float(activation_bytes(bf16, 1.0)) - without == pytest.approx(94 * 139_264)


def test_fp8_without_fp8_tensor_cores_keeps_16bit_activations(configure_replica):
    """An A100 has no FP8 arithmetic: FP8 weights are dequantised (weight-only), nothing
    quantises the activations, so the elementwise bytes are BF16's."""
    fp8 = configure_replica("llama-3.1-8b", "a100-sxm-80", 1, weights="fp8").replica
    bf16 = configure_replica("llama-3.1-8b", "a100-sxm-80", 1, weights="bf16").replica
    assert not fp8.quantises_activations
    assert float(activation_bytes(fp8, 1.0)) == float(activation_bytes(bf16, 1.0))


def test_fp8_prefill_is_less_than_twice_as_fast_as_bf16(configure_replica):
    """The GEMMs of a prompt run at twice the rate in FP8 on an H100, its norms and activation
    do not (and quantising adds to them): at efficiency 1 a 4,096-token prompt of
    Llama-3.1-8B is about 1.65x faster in FP8, not 2x."""
    times = {w: prefill_time(configure_replica("llama-3.1-8b", "h100-sxm", 1, weights=w,
                                               overrides=IDEAL).replica, 4096)
             for w in ("bf16", "fp8")}
    assert times["bf16"] / times["fp8"] == pytest.approx(1.65, abs=0.03)


def test_prefill_grows_superlinearly_with_prompt(replica):
    """The attention term grows with p^2: time per prompt token rises with long prompts."""
    fixed = replica.factors.fixed_latency_s
    short = prefill_time(replica, 16384) - fixed
    long = prefill_time(replica, 65536) - fixed
    assert long > 4 * short


def test_prefill_attention_term_is_quadratic(configure_replica):
    """At efficiency 1, t(2p) - 2 t(p) is the extra attention, 2*L*n_h*d_h*2p^2, to the
    weights' partial overlap with the compute (``overlapped_time``: 1e-5 of it here)."""
    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                            overrides=IDEAL).replica
    p = 16384
    extra = prefill_time(rep, 2 * p) - 2 * prefill_time(rep, p)
    assert extra == pytest.approx(2 * 32 * 32 * 128 * 2 * p**2 / rep.peak_flops, rel=1e-4)





def test_naive_tokens_per_s_70b_on_4_8_tb_s():
    """The sizing guide (METHOD.md): 70B in FP16 = 140 GB on 4,800 GB/s gives ~34 tokens/s."""
    assert naive_tokens_per_s(4800e9, 140e9) == pytest.approx(34.2857, rel=1e-4)


def test_mla_decode_attention_runs_absorbed(configure_replica):
    """DeepSeek-V3's MLA decodes against the latent (DeepSeek-V2 report 2.1.3, FlashMLA):
    2 n_h (2 r_kv + d_rope) FLOPs per attended token and layer, 128 x 1,088 against the
    unabsorbed 128 x 320; the prompt keeps the unabsorbed form."""
    from app.engine.inference import attention_flops, decode_attention_flops
    rep = configure_replica("deepseek-r1", "h200-sxm", 8, 1, "fp8").replica
    model = rep.model
    per_layer_token = 2 * 128 * (2 * 512 + 64)
    expected = per_layer_token * model.attention_layers * 4096
    assert float(decode_attention_flops(rep, 1.0, 4096)) == pytest.approx(expected)
    assert float(decode_attention_flops(rep, 1.0, 4096)) == pytest.approx(
        float(attention_flops(rep, 1.0, 4096)) * 1088 / 320)
    dense = configure_replica("llama-3.1-70b", "h100-sxm", 4, 1, "fp8").replica
    assert float(decode_attention_flops(dense, 8.0, 2048)) == \
        float(attention_flops(dense, 8.0, 2048))


def test_each_prefill_chunk_pays_the_engine_step_cost(configure_replica):
    """A chunk of prefill is one forward pass: it pays step_overhead_s like a decode step
    (a 20,000-token prompt in 8192-token chunks: 3 of them)."""
    import dataclasses

    from app.engine.inference import batch_prefill_time

    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    slow = dataclasses.replace(rep, factors=dataclasses.replace(
        rep.factors, step_overhead_s=rep.factors.step_overhead_s + 0.01))
    assert batch_prefill_time(slow, 1, 20_000) - batch_prefill_time(rep, 1, 20_000) \
        == pytest.approx(3 * 0.01)
    assert prefill_time(rep, 500) - prefill_time(rep, 500, served=False) \
        == pytest.approx(rep.factors.fixed_latency_s)


def test_weight_only_int8_reads_8_bit_weights_and_multiplies_at_the_16_bit_rate(
        configure_replica):
    """GPTQ INT8 (W8A16) on an H100: the weights stored at 8.25 bits (8 + a 16-bit scale and
    a packed zero per 128) are read per step, the embedding and output head at 16; the
    kernel dequantises them to 16 bit, so a 2,000-token prompt prefills at the BF16 rate,
    where INT8 W8A8 runs its weight GEMMs at the INT8 tensor-core rate (twice BF16's)."""
    def replica(weights):
        return configure_replica("llama-3.1-8b", "h100-sxm", 1, weights=weights).replica

    gptq, bf16, w8a8 = replica("int8-gptq"), replica("bf16"), replica("int8")
    # Llama-3.1-8B: 8.03 B parameters, 1.05 B of them in the embedding and the output head,
    # which stay 16-bit: (1.05 x 16 + 6.98 x 8.25) / (8.03 x 16) = 0.579
    assert gptq.weights_bytes / bf16.weights_bytes == pytest.approx(0.579, rel=0.01)
    assert prefill_time(gptq, 2000) == pytest.approx(prefill_time(bf16, 2000), rel=0.05)
    # the weight GEMMs at twice the rate; attention and the fixed step cost stay (0.755)
    assert prefill_time(w8a8, 2000) < 0.8 * prefill_time(gptq, 2000)


def test_a_tied_output_head_is_read_and_multiplied_every_decode_step(configure_replica):
    """Qwen3-4B ties its head to the embedding (151,936 x 2,560 = 389 M parameters, 10 % of
    the model): the embedding lookup reads a few rows, but the head multiplies by the whole
    matrix in every step, so a decode step reads it and runs its FLOPs."""
    rep = configure_replica("qwen3-4b", "h100-sxm", 1, weights="bf16").replica
    assert rep.head_is_embedding
    assert rep.always_read_bytes == pytest.approx(rep.weights_bytes, rel=1e-9)
    assert rep.matmul_params_active == pytest.approx(
        rep.counts.active - rep.counts.embedding + 151936 * 2560)
    untied = configure_replica("qwen3-8b", "h100-sxm", 1, weights="bf16").replica
    assert not untied.head_is_embedding
    assert untied.always_read_bytes < untied.weights_bytes


def test_grouped_gemm_half_point_is_the_ridge_of_a_native_format(catalog):
    """Williams et al., Roofline (CACM 2009): the ridge, in rows of a GEMM, is q P / (2 B).
    H100 SXM FP8 1 x 1,978.9 / (2 x 3.35) = 295.4; A100 SXM BF16 2 x 312 / (2 x 2.039) = 153.0
    (so the same few rows cost the A100 the same multiple of its weight read as the H100, not
    three times as much arithmetic); MI300X FP8 1 x 2,614.9 / (2 x 5.3) = 246.7. A weight-only
    format keeps its kernel's block (vLLM's Marlin MoE: 16 rows on Ampere)."""
    from app.engine.configuration import grouped_gemm_half_tokens, grouped_gemm_ridge_rows

    def ridge(gpu, precision):
        return grouped_gemm_ridge_rows(catalog.gpu(gpu), catalog.precisions[precision])

    assert ridge("h100-sxm", "fp8") == pytest.approx(1978.9 / 6.7, rel=1e-9)
    assert ridge("a100-sxm-80", "bf16") == pytest.approx(2 * 312 / (2 * 2.039), rel=1e-9)
    assert ridge("mi300x", "fp8") == pytest.approx(2614.9 / 10.6, rel=1e-9)
    vllm = catalog.engines["vllm"]
    assert grouped_gemm_half_tokens(catalog, vllm, catalog.gpu("a100-sxm-80"),
                                    catalog.precisions["mxfp4"]) == 16
