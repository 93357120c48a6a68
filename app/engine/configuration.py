"""Assemble one replica configuration from catalog entries (used by every step)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.domain.catalog import (
    VENDOR_NAMES,
    Catalog,
    EfficiencyFactors,
    EngineProfile,
    GpuSpec,
    ModelSpec,
    PrecisionSpec,
    SiteProfile,
)
from app.domain.problems import Problem, RuleError, problem
from app.domain.scenario import expert_layout_problem
from app.engine.capacity import EngineSettings
from app.engine.inference import Factors, Replica
from app.engine.memory import (
    ParameterCounts,
    loaded_weights_bytes,
    parameter_counts,
    routed_expert_weights_bytes,
    speculative_weights_bytes,
)
from app.engine.site_factors import site_scaled
from app.i18n import msg


def engine_factors(profile: EngineProfile, generic: EngineProfile | None, family: str,
                   overrides: dict[str, float], site: SiteProfile | None = None) -> Factors:
    """Efficiency factors for an engine on a GPU family: the site's measured scales applied
    (when a site profile is given), then the scenario's overrides."""
    factors = profile.factors_for(family)
    if generic is not None:
        factors = factors.merged(generic.factors)
    if site is not None:
        values = site_scaled(factors.model_dump(exclude_none=True), site.decode_scale,
                             site.prefill_scale)
        factors = EfficiencyFactors(**values)
    return Factors.from_catalog(factors, overrides)


@dataclass(frozen=True)
class Configuration:
    """A candidate deployment of one replica."""

    model: ModelSpec
    counts: ParameterCounts
    gpu: GpuSpec
    weight_precision: PrecisionSpec
    kv_precision: PrecisionSpec
    engine: EngineProfile
    settings: EngineSettings
    replica: Replica
    site: SiteProfile | None = None

    @property
    def tensor_parallel(self) -> int:
        return self.replica.tensor_parallel

    @property
    def pipeline_parallel(self) -> int:
        return self.replica.pipeline_parallel

    @property
    def batch_limit(self) -> int:
        """Most sequences the replica runs together: the engine's limit per attention rank
        (each DP-attention rank schedules its own batch) [-]."""
        return self.settings.batch_limit * self.replica.attention_ranks


@dataclass(frozen=True)
class Choice:
    """The ids that define a configuration."""

    gpu: str
    tensor_parallel: int
    pipeline_parallel: int
    weights: str
    kv_cache: str
    engine: str
    expert_parallel: int = 1  # EP ranks of a stage's routed experts (1: off)
    dp_attention: bool = False  # data-parallel attention over the GPUs of a stage
    engine_release: str = ""  # the engine's release line ("": current; calibration cases)
    fp8_blocks: bool | None = None  # FP8 weights block-scaled (None: the model's native FP8)


def dequantises_weights(gpu: GpuSpec, precision: PrecisionSpec) -> bool:
    """Whether ``precision``'s matrix multiplications on ``gpu`` run in a weight-only kernel:
    4-bit weights (INT4 AWQ/GPTQ, GGUF Q4, MXFP4/NVFP4 without FP4 tensor cores) dequantised
    to 16 bit in registers and multiplied at the 16-bit rate (vLLM's Marlin and Machete,
    the triton_kernels MXFP4 MoE, TensorRT-LLM's W4A16 MoE)."""
    return precision.bits < 8 and gpu.peak_flops(precision.compute) <= gpu.peak_flops("bf16")


def grouped_gemm_half_tokens(catalog: Catalog, engine: EngineProfile, gpu: GpuSpec,
                             precision: PrecisionSpec) -> float:
    """Rows per touched expert at which a MoE grouped GEMM runs at half the dense efficiency
    [tokens] (``inference.grouped_gemm_share``).

    - A format the tensor cores take natively (16-bit, FP8 where the GPU has FP8, FP4 on
      Blackwell): the GPU's ridge for the format, :func:`grouped_gemm_ridge_rows`. The share
      ``m / (m + m_half)`` then adds to each touched expert's compute exactly the time its
      weights take to read at the GPU's peak bandwidth: a grouped GEMM of few rows costs one
      more pass over its weights, the same on every GPU, rather than a fixed number of rows
      of arithmetic, which weighs three to six times more on an A100's 16-bit rate than on
      Hopper's (METHOD.md, Calibration, "The grouped GEMM's half point at the ridge").
    - A weight-only kernel pads each touched expert's tokens to its block of rows and is
      bound by reading the packed weights below it, so its floor is that block, which the
      engine profile names with its source (catalogs/engines.toml ``weight_only_moe_kernels``:
      vLLM's Marlin MoE 16 on Ampere and Ada, triton_kernels' matmul_ogs 64 for vLLM on Hopper
      and SGLang). A weight-only kernel the profile does not name keeps the catalog default
      ``moe_gemm_half_tokens`` (METHOD.md, Calibration, "Weight-only MoE kernels").
    """
    if not dequantises_weights(gpu, precision):
        return grouped_gemm_ridge_rows(gpu, precision)
    kernel = engine.weight_only_moe_kernel(precision.id, gpu.family)
    if kernel is None:
        return catalog.default("moe_gemm_half_tokens")
    return kernel.rows


def grouped_gemm_ridge_rows(gpu: GpuSpec, precision: PrecisionSpec) -> float:
    """Rows of a GEMM whose arithmetic at the GPU's peak takes as long as reading its
    weights at the peak bandwidth [tokens]: ``q P / (2 B)`` with ``q`` the bytes per weight,
    ``P`` the dense peak of the format's arithmetic [FLOP/s] and ``B`` the memory bandwidth
    [B/s] (each row costs 2 FLOP per weight). H100 SXM FP8: 1 x 1,979 / (2 x 3.35) = 295;
    A100 SXM BF16: 2 x 312 / (2 x 2.04) = 153; MI300X FP8: 1 x 2,615 / (2 x 5.3) = 247.
    Williams, Waterman, Patterson, Roofline (CACM 52(4), 2009): the ridge point."""
    return (precision.bits / 8) * gpu.peak_flops(precision.compute) / (
        2 * gpu.memory_bandwidth_bytes_per_s)


def weight_only_moe_share(engine: EngineProfile, gpu: GpuSpec,
                          precision: PrecisionSpec) -> float:
    """Rate of the routed experts' weight-only kernel over a dense 16-bit GEMM's [-]
    (catalogs/engines.toml ``weight_only_moe_kernels`` ``rate_share``; 1 where the profile
    names none). triton_kernels' Hopper bf16 x mxfp4 matmul (vLLM's, SGLang's and
    TensorRT-LLM's TRITON MoE path for gpt-oss) reached 49 % of the H100 roofline in
    bench_mlp (triton-lang/triton PR #6833 with #6812, May 2025) against 80.3 % for a cuBLAS
    BF16 GEMM (stas00/ml-engineering MAMF table, H100 SXM 794.5 of 989 TFLOP/s): 0.61."""
    kernel = engine.weight_only_moe_kernel(precision.id, gpu.family)
    if kernel is None or not dequantises_weights(gpu, precision):
        return 1.0
    return kernel.rate_share


def prefill_attention_bound(engine: EngineProfile, gpu: GpuSpec, model: ModelSpec,
                            kv_precision: PrecisionSpec) -> tuple[float, float]:
    """FLOP per K/V byte and the bandwidth [B/s] that bound a prompt's attention when the
    engine runs it through a kernel its profile names (catalogs/engines.toml
    ``attention_kernels``); (0, 0) where it names none (the default backend, at the tensor
    cores' rate).

    vLLM serves a model with attention sinks (gpt-oss) on Ampere and Ada through its Triton
    unified attention, the only one of its backends there that takes a sink term
    (vllm/platforms/cuda.py picks a backend whose ``supports_sink()`` holds). Its programs
    multiply BLOCK_M = 16 query rows (BLOCK_Q = 2 positions x 8 GQA heads) with each K/V tile
    they read from the paged cache (triton_unified_attention.py ``unified_attention``), so a
    prompt's attention does 2 x 16 FLOP per K/V element it streams: 16 FLOP per byte of a
    16-bit cache, at the GPU's sustained memory bandwidth (an A100 SXM's 2.0 TB/s gives 33
    TFLOP/s, a tenth of its dense BF16 rate).
    """
    kernel = engine.attention_kernel(gpu.family, model.attention_sinks)
    if kernel is None:
        return 0.0, 0.0
    return (2.0 * kernel.query_rows / kv_precision.bytes_per_element,
            gpu.sustained_bandwidth_bytes_per_s)


def block_fp8_share(engine: EngineProfile, gpu: GpuSpec, precision: PrecisionSpec,
                    model: ModelSpec, choice: Choice) -> float:
    """Rate of the weight GEMMs over a per-tensor FP8 GEMM's when the FP8 weights are
    block-scaled [-] (``inference.Replica.gemm_share``).

    FP8 weights are block-scaled (DeepSeek-V3's 128x128 format) when the choice says so, or,
    unstated, when they are the model's own FP8 checkpoint: every model whose weights ship
    in FP8 here ships them block-scaled (DeepSeek-V3/R1/V3.1/V3.2, Kimi K2, MiniMax-M2;
    their config.json ``weight_block_size [128, 128]``); a 16-bit model quantised to FP8 by
    the engine gets per-tensor or per-channel scales. The share is the engine profile's for
    the release and GPU family (catalogs/engines.toml ``block_fp8_kernels``), 1 where it names
    none: the current releases' kernels (DeepGEMM, CUTLASS blockwise, AITER) are taken to
    match a per-tensor FP8 GEMM. METHOD.md, Step 4, "Block-scaled FP8 GEMMs".
    """
    blocks = choice.fp8_blocks
    if blocks is None:
        blocks = model.native_precision == "fp8"
    if precision.id != "fp8" or not blocks:
        return 1.0
    kernel = engine.block_fp8_kernel(gpu.family, choice.engine_release)
    return kernel.gemm_share if kernel else 1.0


def unsupported_problem(engine: EngineProfile, precision: PrecisionSpec, gpu: GpuSpec,
                        model: ModelSpec) -> Problem | None:
    """Why ``engine`` cannot serve ``model`` in ``precision`` on ``gpu`` (it has no kernel
    for that format on the GPU's family, or serves it there only through a path no profile
    models: catalogs/engines.toml ``unsupported_formats``, with the engine's source) or for
    the GPU's maker at all (``gpu_vendors``), or None when it can. Reported at
    ``serving.engine``."""
    if not engine.runs_on(gpu.vendor):
        return problem("serving.engine", msg(
            "{engine} runs on {vendors} GPUs only, and the {gpu} is not one; choose another "
            "engine (vLLM, SGLang, llama.cpp or another engine) or another GPU",
            engine=engine.name, vendors=", ".join(VENDOR_NAMES[v] for v in engine.gpu_vendors),
            gpu=gpu.name), engine.id)
    missing = engine.unsupported(precision.id, gpu.family, model.moe is not None)
    if missing is None:
        return None
    if missing.kind == "unmodelled":
        return problem("serving.engine", msg(
            "{engine} serves the {format} weights of {model} on the {gpu} and the other GPUs "
            "of its generation only through a fallback path whose published runs stall, so "
            "AI Sizer gives no figure for it; choose another engine (vLLM runs it), another "
            "GPU or another weight format", engine=engine.name, format=precision.name,
            model=model.name, gpu=gpu.name), engine.id)
    return problem("serving.engine", msg(
        "{engine} has no kernel for the {format} weights of {model} on the {gpu} or the "
        "other GPUs of its generation; choose another engine, another GPU or another weight "
        "format", engine=engine.name, format=precision.name, model=model.name, gpu=gpu.name),
        engine.id)


def configure(catalog: Catalog, model: ModelSpec, choice: Choice,
              overrides: dict[str, float] | None = None,
              memory_fraction: float | None = None, batch_limit: int | None = None,
              batched_tokens: int | None = None,
              counts: ParameterCounts | None = None,
              speculative: bool = False,
              site_profile: str | None = None) -> Configuration:
    """Build the :class:`Configuration` for ``choice`` (raises KeyError on unknown ids).

    ``speculative``: the model's speculative-decoding heads are loaded (their weights and KV
    cache take memory; their speed-up is not modelled). ``site_profile`` chooses the measured
    site factors (``Catalog.site_profile_for``): None takes the newest profile for this GPU
    and engine, ``"none"`` none, an id that profile.
    """
    gpu = catalog.gpu(choice.gpu)
    weight_precision = catalog.precision(choice.weights)
    kv_precision = catalog.precision(choice.kv_cache)
    engine = catalog.engine(choice.engine)
    heads = model.speculative if speculative else None
    counts = parameter_counts(model, True) if heads else (counts or parameter_counts(model))
    refused = expert_layout_problem(choice.tensor_parallel, choice.expert_parallel,
                                    choice.dp_attention, model)
    if refused is not None:
        raise RuleError(refused.problem())
    missing = unsupported_problem(engine, weight_precision, gpu, model)
    if missing is not None:
        raise RuleError(missing)
    settings = EngineSettings.from_profile(
        engine, memory_fraction, batch_limit, batched_tokens,
        catalog.default("cuda_graph_gb"), catalog.default("logits_bytes_per_element"),
        heads.layers if heads else 0,
    )
    layout = engine.moe_layout(weight_precision.id, gpu.family)
    site = catalog.site_profile_for(gpu.id, engine.id, site_profile)
    factors = engine_factors(engine, catalog.engines.get("generic"), gpu.family,
                             overrides or {}, site)
    intensity, bandwidth = prefill_attention_bound(engine, gpu, model, kv_precision)
    replica = Replica(
        model=model,
        counts=counts,
        weights_bytes=loaded_weights_bytes(model, counts, weight_precision, layout),
        weight_precision=weight_precision,
        kv_bytes_per_element=kv_precision.bytes_per_element,
        gpu=gpu,
        tensor_parallel=choice.tensor_parallel,
        pipeline_parallel=choice.pipeline_parallel,
        factors=factors,
        max_batched_tokens=settings.max_batched_tokens,
        prefill_min_budget_share=catalog.default("prefill_min_budget_share"),
        moe_half_tokens=grouped_gemm_half_tokens(catalog, engine, gpu, weight_precision),
        moe_fill_depth=catalog.default("moe_gemm_fill_depth"),
        moe_expert_s=catalog.default("moe_expert_overhead_s"),
        routed_weights_bytes=routed_expert_weights_bytes(model, counts, weight_precision,
                                                         layout),
        idle_weights_bytes=speculative_weights_bytes(counts, weight_precision),
        expert_parallel=choice.expert_parallel,
        dp_attention=choice.dp_attention,
        gemm_share=block_fp8_share(engine, gpu, weight_precision, model, choice),
        host_per_request=engine.host_loop(choice.engine_release).per_request,
        routed_gemm_share=weight_only_moe_share(engine, gpu, weight_precision),
        prefill_attention_intensity=intensity,
        prefill_attention_bandwidth=bandwidth,
    )
    # every DP-attention rank runs its own batch and token budget (the engine's settings are
    # per rank; Configuration.batch_limit and the replica's token budget are the replica's)
    replica = replace(replica, max_batched_tokens=settings.max_batched_tokens
                      * replica.attention_ranks)
    return Configuration(model, counts, gpu, weight_precision, kv_precision, engine,
                         settings, replica, site)
