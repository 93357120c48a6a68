"""One replica configuration from catalog entries (app.engine.configuration).

Efficiency factors come from the engine profile for the GPU family, gaps filled from the
engine's own defaults and then the generic profile, and the scenario's overrides win
(METHOD.md "Step 4", catalogs/engines.toml).
"""

from __future__ import annotations

import pytest

from app.engine.configuration import Choice, configure, engine_factors
from app.engine.memory import parameter_counts, weights_bytes


def test_a_configuration_is_the_catalog_entries_it_names(catalog):
    model = catalog.model("llama-3.1-70b")
    config = configure(catalog, model, Choice("h100-sxm", 4, 2, "fp8", "bf16", "vllm"))
    assert (config.gpu.id, config.weight_precision.id, config.kv_precision.id,
            config.engine.id) == ("h100-sxm", "fp8", "bf16", "vllm")
    assert (config.tensor_parallel, config.pipeline_parallel, config.replica.gpus) == (4, 2, 8)
    assert config.replica.weights_bytes == weights_bytes(parameter_counts(model),
                                                         catalog.precision("fp8"))
    assert config.replica.kv_bytes_per_element == catalog.precision("bf16").bytes_per_element


def test_an_unknown_id_is_a_key_error_that_lists_the_valid_ones(catalog):
    model = catalog.model("llama-3.1-8b")
    with pytest.raises(KeyError, match="unknown gpu id 'h999'; known: .*h100-sxm"):
        configure(catalog, model, Choice("h999", 1, 1, "bf16", "bf16", "vllm"))


def test_overrides_replace_the_profile_factors_and_only_those(catalog):
    model = catalog.model("llama-3.1-8b")
    choice = Choice("h100-sxm", 1, 1, "bf16", "bf16", "vllm")
    base = configure(catalog, model, choice).replica.factors
    changed = configure(catalog, model, choice, {"eta_mem": 0.5}).replica.factors
    assert changed.eta_mem == 0.5
    assert vars(changed) == {**vars(base), "eta_mem": 0.5}


def test_a_family_without_its_own_factors_takes_the_engines_defaults(catalog):
    """TensorRT-LLM has factors fitted per family (Hopper, Ampere, Ada); on a family it was
    not fitted on it takes its engine-wide factors, then the generic profile's for what those
    leave open."""
    profile, generic = catalog.engine("tensorrt-llm"), catalog.engines["generic"]
    unfitted = next(f for f in ("cdna3", "blackwell", "gaudi") if f not in profile.family_factors)
    own = engine_factors(profile, generic, unfitted, {})
    expected = profile.factors.merged(generic.factors).model_dump(exclude_none=True)
    assert vars(own) == pytest.approx({k: float(v) for k, v in expected.items()})
    hopper = engine_factors(profile, generic, "hopper", {})
    fitted = profile.family_factors["hopper"].merged(profile.factors).merged(generic.factors)
    assert vars(hopper) == pytest.approx(
        {k: float(v) for k, v in fitted.model_dump(exclude_none=True).items()})


def test_the_scenarios_engine_settings_replace_the_profiles(catalog):
    model = catalog.model("llama-3.1-8b")
    choice = Choice("l40s", 1, 1, "bf16", "bf16", "vllm")
    settings = configure(catalog, model, choice, memory_fraction=0.7, batch_limit=32,
                         batched_tokens=2048).settings
    assert (settings.memory_fraction, settings.batch_limit, settings.max_batched_tokens) == (
        0.7, 32, 2048)
    assert configure(catalog, model, choice).replica.max_batched_tokens == \
        catalog.engine("vllm").max_batched_tokens


def test_tensorrt_llm_on_an_amd_or_intel_gpu_is_refused(catalog):
    """TensorRT-LLM is NVIDIA's CUDA engine (catalogs/engines.toml ``gpu_vendors``): on an
    MI300X or a Gaudi 3 it is refused at serving.engine, naming the engine and the GPU; vLLM
    runs there, and TensorRT-LLM runs on an H100."""
    from app.domain.problems import RuleError

    model = catalog.model("llama-3.1-8b")
    for gpu in ("mi300x", "gaudi3"):
        with pytest.raises(RuleError) as refused:
            configure(catalog, model, Choice(gpu, 1, 1, "fp8", "fp8", "tensorrt-llm"))
        assert refused.value.message.field == "serving.engine"
        text = str(refused.value)
        assert "TensorRT-LLM runs on NVIDIA GPUs only" in text and catalog.gpu(gpu).name in text
        configure(catalog, model, Choice(gpu, 1, 1, "fp8", "fp8", "vllm"))
    configure(catalog, model, Choice("h100-sxm", 1, 1, "fp8", "fp8", "tensorrt-llm"))


def test_an_engine_without_a_kernel_for_the_format_on_the_gpu_is_refused(catalog):
    """TensorRT-LLM's MXFP4 MoE with 16-bit activations is built for SM90 only
    (catalogs/engines.toml ``unsupported_formats``, from TensorRT-LLM's source; GPUStack's A100
    run stopped with 'WFP4A16 MoE is unsupported on SM80'): gpt-oss in MXFP4 on an A100 or an
    L40S is refused at serving.engine, naming the engine, the format and the GPU; on an H100
    and a B200 it runs, vLLM runs it on an A100 (Marlin), and a dense model is not concerned."""
    from app.domain.problems import RuleError

    oss = catalog.model("gpt-oss-20b")
    for gpu in ("a100-sxm-80", "l40s"):
        with pytest.raises(RuleError) as refused:
            configure(catalog, oss, Choice(gpu, 1, 1, "mxfp4", "bf16", "tensorrt-llm"))
        assert refused.value.message.field == "serving.engine"
        text = str(refused.value)
        assert "TensorRT-LLM has no kernel for the MXFP4" in text
        assert catalog.gpu(gpu).name in text and "gpt-oss-20b" in text
    for gpu in ("h100-sxm", "b200"):
        configure(catalog, oss, Choice(gpu, 1, 1, "mxfp4", "bf16", "tensorrt-llm"))
    configure(catalog, oss, Choice("a100-sxm-80", 1, 1, "mxfp4", "bf16", "vllm"))
    configure(catalog, oss, Choice("a100-sxm-80", 1, 1, "fp8", "bf16", "tensorrt-llm"))
    dense = catalog.model("llama-3.1-8b")
    configure(catalog, dense, Choice("a100-sxm-80", 1, 1, "mxfp4", "bf16", "tensorrt-llm"))


def test_a_path_no_profile_models_is_refused_with_another_engine_named(catalog):
    """SGLang serves MXFP4 MoE experts before Hopper only through a fallback whose published
    runs stall (engines.toml sglang.unsupported_formats, kind unmodelled): gpt-oss in MXFP4
    with SGLang on an A100 is refused at serving.engine, saying so and pointing at vLLM; on an
    H100 it is sized, and vLLM sizes it on the A100."""
    from app.domain.problems import RuleError

    oss = catalog.model("gpt-oss-20b")
    with pytest.raises(RuleError) as refused:
        configure(catalog, oss, Choice("a100-sxm-80", 1, 1, "mxfp4", "bf16", "sglang"))
    assert refused.value.message.field == "serving.engine"
    text = str(refused.value)
    assert text.startswith("serving.engine: SGLang serves the MXFP4") and "gpt-oss-20b" in text
    assert "fallback path whose published runs stall" in text and "vLLM runs it" in text
    configure(catalog, oss, Choice("h100-sxm", 1, 1, "mxfp4", "bf16", "sglang"))
    configure(catalog, oss, Choice("a100-sxm-80", 1, 1, "mxfp4", "bf16", "vllm"))


def test_block_scaled_fp8_runs_at_the_release_s_kernel_share(catalog):
    """DeepSeek-R1's own FP8 checkpoint is block-scaled: vLLM V0 ran it through Triton
    kernels at 0.35 of a per-tensor FP8 GEMM (engines.toml block_fp8_kernels); a sizing
    (current release) and FP8 weights with per-tensor scales keep the full rate."""
    r1, llama = catalog.model("deepseek-r1"), catalog.model("llama-3.1-70b")

    def share(model, tp, release, blocks=None, engine="vllm"):
        choice = Choice("mi300x", tp, 1, "fp8", "bf16", engine, engine_release=release,
                        fp8_blocks=blocks)
        return configure(catalog, model, choice).replica.gemm_share

    assert share(r1, 8, "V0") == 0.35
    assert share(r1, 8, "0.4", engine="sglang") == 0.35
    assert share(r1, 8, "") == 1.0  # a sizing: the current release
    assert share(r1, 8, "V0", blocks=False) == 1.0  # stated per-tensor
    assert share(llama, 2, "V0") == 1.0  # a 16-bit model quantised by the engine
    assert share(llama, 2, "V0", blocks=True) == 0.35  # a block-scaled -FP8 checkpoint


def test_a_case_states_its_fp8_scales():
    from app.engine.calibration import _fp8_blocks
    assert _fp8_blocks({"weights_precision": "FP8 (native block-scaled)"}) is True
    assert _fp8_blocks({"weights_precision": "FP8 (dynamic, per-tensor)"}) is False
    assert _fp8_blocks({"weights_precision": "FP8"}) is None
