"""Calibration: published measurements in catalog terms, predicted by the sizing's own code
(app.engine.calibration).

The residual errors over every case are checked in tests/validation/test_calibration_cases.py;
here: the mapping of a case's free-text fields to catalog ids, that a prediction is the engine
figure the metric names, the summary statistics, and the fit to one customer measurement
(``speed_for_measurement``: one factor on every efficiency, bisection in log space).
"""

from __future__ import annotations

import pytest

from app.engine.calibration import (
    AT_PEAK,
    Case,
    Outcome,
    beyond_reach,
    engine_version_class,
    headroom_at_peak,
    load_cases,
    normalise_case,
    predict,
    predicted_at,
    speed_for_measurement,
    summarise,
)
from app.engine.configuration import Choice, configure
from app.engine.evaluate import plan_memory, points_at
from app.engine.inference import prefill_time
from app.engine.performance import Workload

RAW = {"id": "case-x", "model": "Llama-3.1-8B (Instruct)", "weights_precision": "FP8",
       "kv_precision": "FP8", "gpu": "H200 SXM 141GB", "tp": 1, "pp": 1,
       "engine": "TensorRT-LLM 0.17", "isl": 128, "osl": None, "concurrency": "Poisson QPS=4",
       "metric_name": "ttft_batch1", "metric_value": 25.0, "source": "a document"}


def test_a_case_is_mapped_to_catalog_ids():
    case = normalise_case(RAW)
    assert (case.model, case.weights, case.kv_cache, case.gpu, case.engine) == (
        "llama-3.1-8b", "fp8", "fp8", "h200-sxm", "tensorrt-llm")
    assert (case.prompt_tokens, case.output_tokens) == (128, 512)  # unstated output: 512
    assert case.arrival_rate == 4.0


@pytest.mark.parametrize(("field", "value", "error"), [
    ("engine", "DeepSpeed-MII", "unknown engine"), ("gpu", "TPU v5", "no catalog gpu"),
    ("weights_precision", "FP4 (e2m1)", "which FP4"),
    ("weights_precision", "FP2", "unknown precision"),
])
def test_a_case_the_catalog_cannot_name_is_refused(field, value, error):
    with pytest.raises(ValueError, match=error):
        normalise_case({**RAW, field: value})


def test_cases_with_settings_unstated_or_unknown_are_skipped_with_the_reason(catalog):
    loaded = [RAW,
              {**RAW, "id": "no-isl", "isl": None, "metric_name": "output_throughput_total"},
              {**RAW, "id": "no-tp", "tp": None, "gpu_count": 8},
              {**RAW, "id": "one-gpu", "tp": None, "pp": None, "gpu_count": 1},
              {**RAW, "id": "mlc", "engine": "MLC LLM"}]
    cases, skipped = load_cases(loaded, catalog)
    assert [c.id for c in cases] == ["case-x", "one-gpu"]
    assert cases[1].tensor_parallel == cases[1].pipeline_parallel == 1
    assert {s.id: s.reason for s in skipped} == {
        "no-isl": "the prompt length ('isl') is not stated",
        "no-tp": "'tp' is not stated for 8 GPUs", "mlc": "unknown engine 'MLC LLM'"}


def test_an_all_at_once_run_needs_its_request_count():
    """trtllm-bench throughput queues every request at once: without the count, the ramp-up and
    tail of the run are unknown, so the case is refused, not predicted as a steady state."""
    burst = {**RAW, "concurrency": None, "num_prompts": None, "metric_name":
             "output_throughput_per_gpu", "benchmark_tool": "trtllm-bench throughput (offline)"}
    with pytest.raises(ValueError, match=r"number of requests \('num_prompts'\)"):
        normalise_case(burst)
    assert normalise_case({**burst, "num_prompts": 3000}).prompts == 3000
    assert normalise_case({**burst, "concurrency": 64}).concurrency == 64
    # a benchmark that names no such tool is read as before (MLPerf's offline run, say)
    assert normalise_case({**burst, "benchmark_tool": "MLPerf LoadGen"}).prompts is None


@pytest.mark.parametrize(("text", "expected"), [
    ("FP8 per doc column (checkpoint natively MXFP4)", "mxfp4"), ("FP4 (MXFP4)", "mxfp4"),
    ("NVFP4", "nvfp4"), ("unknown (FP8 likely for TRT-LLM fp8 profile)", "fp8"),
    ("BF16 (auto, presumed)", "bf16"),
    ("GPTQ INT8 (W8A16, ExLlamaV2 gptq kernel)", "int8-gptq"),
])
def test_precision_texts_of_the_second_case_file_are_read(text, expected):
    assert normalise_case({**RAW, "weights_precision": text}).weights == expected


def test_an_auto_kv_cache_is_the_model_dtype_and_a_number_is_a_closed_loop():
    case = normalise_case({**RAW, "kv_precision": "auto (Hopper) per doc config",
                           "concurrency": 50, "metric_name": "itl_mean", "isl": 5000})
    assert case.kv_cache == "bf16"
    assert (case.concurrency, case.arrival_rate) == (50.0, None)


def test_a_closed_loop_itl_is_the_operating_point_of_that_many_users(catalog):
    case = normalise_case({**RAW, "concurrency": 50, "metric_name": "itl_mean", "isl": 1000,
                           "osl": 200})
    # the case's release (TensorRT-LLM 0.17: the C++ runtime, no per-request host work)
    config = configure(catalog, catalog.model("llama-3.1-8b"),
                       Choice("h200-sxm", 1, 1, "fp8", "fp8", "tensorrt-llm",
                              engine_release=case.engine_version))
    work = Workload(1000, 200)
    plan = plan_memory(config, work, 1200)
    point = points_at(config, plan, work, [50.0])
    assert predict(case, catalog) == pytest.approx(float(point.itl_s[0]) * 1e3)


def test_published_schema_fields_are_read(catalog):
    """Seconds become ms, a request rate is an open loop, a number of prompts is a burst,
    data-parallel replicas share the load and multiply a system total."""
    raw = {**RAW, "metric_name": "e2e_latency_mean", "metric_value": 2.5, "unit": "s",
           "concurrency": None, "request_rate": 3.0, "osl": 100}
    case = normalise_case(raw)
    assert (case.measured, case.arrival_rate) == (2500.0, 3.0)
    burst_case = normalise_case({**RAW, "metric_name": "total_throughput_total",
                                 "concurrency": None, "num_prompts": 1000, "gpu_count": 4,
                                 "osl": 100})
    assert (burst_case.prompts, burst_case.replicas) == (1000.0, 4)
    one = normalise_case({**RAW, "metric_name": "output_throughput_total",
                          "concurrency": None, "num_prompts": 250, "osl": 100})
    total = predict(burst_case, catalog)
    assert total == pytest.approx(4 * predict(one, catalog) * (128 + 100) / 100)


@pytest.mark.parametrize(("engine", "text", "expected"), [
    ("tensorrt-llm", "TensorRT-LLM 0.17", "0.x"), ("tensorrt-llm", "TensorRT-LLM 1.0", "1.x"),
    ("tensorrt-llm", "TensorRT-LLM (post-1.0 main, PyTorch backend)", "1.x"),
    ("tensorrt-llm", "NVIDIA NIM 1.8.0 (TensorRT-LLM)", "NIM"),
    ("vllm", "vLLM 0.7.4.dev181 (nightly; V0 engine default in 0.7.x)", "V0"),
    ("vllm", "vLLM 0.6.5.dev964+mlperf50", "V0"), ("vllm", "vLLM 0.11.0 (V1 engine)", "V1"),
    ("vllm", "vLLM 0.9.1 (ROCm 6.4.1 image)", "V1"), ("vllm", "vLLM (CI)", "unstated"),
    ("sglang", "SGLang 0.4.3.post2", "0.4"), ("llama.cpp", "llama.cpp (May 2024)", "2024"),
])
def test_the_engine_release_line_is_read_from_the_text(engine, text, expected):
    assert engine_version_class(engine, text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("A100-PCIE-80GB (doc column)", "a100-pcie-80"), ("A100 SXM 80GB", "a100-sxm-80"),
    ("A100 80GB (SXM/PCIe not stated)", "a100-sxm-80"),
])
def test_the_a100_pcie_column_is_its_own_gpu(text, expected):
    assert normalise_case({**RAW, "gpu": text}).gpu == expected


GAUDI = {**RAW, "gpu": "Intel Gaudi 3 (HL-325L OAM, HLS-Gaudi3 8-card system)",
         "engine": "not stated (Intel Gaudi software 1.18.0, PyTorch 2.4.0)",
         "kv_precision": "not stated", "isl": 2048, "osl": 2048, "concurrency": 364,
         "metric_name": "output_throughput_total", "metric_value": 7405.0}


def test_a_gaudi_case_without_an_engine_is_read_as_optimum_habana_static_batch():
    """Intel's Gaudi 3 table (pub-430) names no framework; its rows are single static batches
    of the optimum-habana text-generation benchmark: the batch is N prompts sent at once (not
    a closed loop of 364 users), and its FP8 run quantises the KV cache too."""
    case = normalise_case(GAUDI)
    assert (case.gpu, case.engine, case.engine_version) == ("gaudi3", "optimum-habana",
                                                            "Gaudi 1.18")
    assert (case.concurrency, case.prompts, case.kv_cache) == (None, 364.0, "fp8")
    assert normalise_case({**GAUDI, "gpu": "Intel Gaudi 3 PCIe (HL-338)"}).gpu == "gaudi3-pcie"
    # a BF16 model keeps the model's own KV cache
    assert normalise_case({**GAUDI, "weights_precision": "BF16"}).kv_cache == "bf16"


def test_a_gaudi_case_of_another_stack_is_skipped_with_the_reason(catalog):
    """vLLM's HPU plugin (and TGI-Gaudi) have no profile: predicting them with vLLM's CUDA
    factors would be a made-up figure, so the case is skipped and says why."""
    _, skipped = load_cases([{**GAUDI, "id": "hpu", "engine": "vLLM 0.9 (vllm-gaudi, HPU)"},
                             {**RAW, "id": "tgi", "engine": "TGI 2.3 (tgi-gaudi, habana)"}],
                            catalog)
    assert [s.id for s in skipped] == ["hpu", "tgi"]
    assert all("Intel Gaudi: the only engine profile" in s.reason for s in skipped)


def test_the_gaudi_static_batch_is_predicted_as_one_burst(catalog):
    """A static batch within the cap is one prefill of every prompt and the decode of all
    together: the prediction is the burst operating point at N = the batch, near the 7,405
    tokens/s Intel measured (pub-430; the generic prior's efficiencies, within 25 %)."""
    case = normalise_case(GAUDI)
    assert predict(case, catalog) == pytest.approx(7405.0, rel=0.25)


def test_a_path_the_profile_refuses_is_skipped_with_its_reason(catalog):
    """SGLang's MXFP4 MoE fallback before Hopper is a path no profile models (engines.toml,
    sglang.unsupported_formats, kind unmodelled): the case is skipped with the profile's
    reason, the same run on Hopper is read, and the sizing refuses the same configuration
    (tests/engine/test_configuration.py)."""
    oss = {**RAW, "model": "gpt-oss-20b", "weights_precision": "MXFP4 (MoE experts)",
           "kv_precision": "BF16", "engine": "SGLang 0.5.4.post2",
           "metric_name": "total_throughput_total", "unit": "tokens/s", "concurrency": None,
           "num_prompts": 1000, "osl": 196}
    cases, skipped = load_cases([{**oss, "id": "a100", "gpu": "A100 SXM 80GB"},
                                 {**oss, "id": "l40s", "gpu": "L40S 48GB"},
                                 {**oss, "id": "h100", "gpu": "H100 SXM 80GB"}], catalog)
    assert [s.id for s in skipped] == ["a100", "l40s"]
    assert all("no profile models this path" in s.reason and "not fully optimized" in s.reason
               for s in skipped)
    assert [c.id for c in cases] == ["h100"]


def test_expert_parallel_runs_are_read_not_skipped(catalog):
    """EP and DP attention are part of the case (issue #12), no longer a reason to skip."""
    cases, skipped = load_cases([{**RAW, "ep": 4, "dp_attention": True, "tp": 4,
                                  "gpu_count": 4}], catalog)
    assert not skipped
    assert (cases[0].expert_parallel, cases[0].dp_attention) == (4, True)


def test_a_ttft_prediction_is_the_prefill_time_in_milliseconds(catalog):
    case = normalise_case(RAW)
    config = configure(catalog, catalog.model("llama-3.1-8b"),
                       Choice("h200-sxm", 1, 1, "fp8", "fp8", "tensorrt-llm"))
    assert predict(case, catalog) == pytest.approx(prefill_time(config.replica, 128) * 1e3)


def outcome(metric: str, predicted: float, measured: float) -> Outcome:
    case = Case("c", "m", "bf16", "bf16", "g", 1, 1, "vllm", 1, 1, None, metric, measured, "s")
    return Outcome(case, predicted)


def test_the_summary_gives_median_p90_worst_error_and_factor_per_group():
    outcomes = [outcome("ttft_mean", p, 100.0) for p in (90.0, 100.0, 110.0, 150.0, 50.0)]
    outcomes.append(outcome("itl_mean", 10.0, 10.0))
    summary = summarise(outcomes)
    assert set(summary) == {"TTFT", "single-user decode"}
    ttft = summary["TTFT"]
    assert ttft["cases"] == 5
    assert ttft["median_abs_error"] == pytest.approx(0.1)  # errors 0.1, 0, 0.1, 0.5, 0.5
    assert ttft["max_abs_error"] == pytest.approx(0.5)
    assert ttft["p90_abs_error"] == pytest.approx(0.5)
    assert ttft["worst_factor"] == pytest.approx(2.0)  # 50 against 100 is a factor of 2
    assert summary["single-user decode"]["median_abs_error"] == 0.0


def scaled_l40s(catalog):
    """``config_for(speed)`` of Llama-3.1-8B BF16 on one L40S (vLLM), every efficiency scaled
    by ``speed``, for 1,000-token prompts and 200-token answers."""
    model = catalog.model("llama-3.1-8b")
    choice = Choice("l40s", 1, 1, "bf16", "bf16", "vllm")
    base = configure(catalog, model, choice).replica.factors
    work = Workload(1000, 200)

    def config_for(speed: float):
        config = configure(catalog, model, choice, vars(base.scaled(speed)))
        return config, plan_memory(config, work, 1200), work

    return config_for


@pytest.mark.parametrize(("metric", "measured"), [("tokens_per_s_per_user", 40.0),
                                                  ("itl_s", 0.040),
                                                  ("output_tokens_per_s", 200.0),
                                                  ("ttft_s", 0.1)])
def test_a_fitted_speed_reproduces_the_measurement(catalog, metric, measured):
    """Llama-3.1-8B BF16 on one L40S at 8 users (the catalog's factors predict 35 tokens/s,
    28.5 ms, 275 tokens/s and 0.12 s): the factor found makes the engine predict the measured
    figure (within the bisection's resolution), faster or slower than the catalog."""
    config_for = scaled_l40s(catalog)

    speed = speed_for_measurement(config_for, metric, measured, 8.0)
    assert 0.2 < speed < 5.0
    assert predicted_at(config_for, metric, 8.0, speed) == pytest.approx(measured, rel=1e-3)


def test_a_measurement_beyond_what_scaling_reaches_is_clipped(catalog):
    """Efficiencies cannot exceed the roofline: 900 tokens/s at 8 users is out of reach of one
    L40S, so the factor ends at the upper bound and the prediction stays below."""
    config_for = scaled_l40s(catalog)

    speed = speed_for_measurement(config_for, "output_tokens_per_s", 900.0, 8.0)
    assert speed == pytest.approx(5.0, rel=1e-6)
    assert predicted_at(config_for, "output_tokens_per_s", 8.0, speed) < 900.0


def test_a_recorded_conversation_data_set_has_varying_output_lengths():
    """ShareGPT keeps each conversation's own lengths (osl is their mean); random and
    synthetic data sets fix them."""
    base = {**RAW, "metric_name": "total_throughput_total", "concurrency": None,
            "num_prompts": 1000, "osl": 200}
    shared = {**base, "dataset": "ShareGPT_V3_unfiltered_cleaned_split (variable lengths)"}
    assert normalise_case(shared).varied_output
    assert not normalise_case({**base, "dataset": "random (nominal in/out 128/4)"}).varied_output
    assert not normalise_case(base).varied_output  # no data set stated: fixed lengths


def test_an_offline_harness_pays_no_serving_latency(catalog):
    """gptSessionBenchmark drives the engine in-process: its batch-1 first-token latency is the
    GPU work alone, without the API server's fixed latency per request."""
    raw = {**RAW, "benchmark_tool": "TensorRT-LLM cpp/build/benchmarks/gptSessionBenchmark"}
    case = normalise_case(raw)
    assert case.offline and not normalise_case(RAW).offline
    config = configure(catalog, catalog.model("llama-3.1-8b"),
                       Choice("h200-sxm", 1, 1, "fp8", "fp8", "tensorrt-llm"))
    replica = config.replica
    assert predict(case, catalog) == pytest.approx(
        (prefill_time(replica, 128) - replica.factors.fixed_latency_s) * 1e3)


def test_a_closed_loop_of_fixed_lengths_runs_in_waves(catalog):
    """32 users whose requests all have 3200/800 tokens start together and finish together:
    each wave's prompts arrive at once, so the mean TTFT is the cohort's
    (performance.cohort_ttft), far above one prompt's prefill."""
    from app.engine.performance import cohort_ttft

    raw = {**RAW, "engine": "vLLM 0.11.0 (V1 engine)", "isl": 3200, "osl": 800,
           "concurrency": 32, "metric_name": "ttft_mean", "weights_precision": "BF16",
           "kv_precision": "BF16", "dataset": "random, input 3200 / output 800 fixed"}
    case = normalise_case(raw)
    assert case.lockstep and not normalise_case({**raw, "dataset": "ShareGPT"}).lockstep
    replica = configure(catalog, catalog.model("llama-3.1-8b"),
                        Choice("h200-sxm", 1, 1, "bf16", "bf16", "vllm")).replica
    expected = cohort_ttft(replica, Workload(3200, 800), 32) * 1e3
    assert predict(case, catalog) == pytest.approx(expected)
    assert expected > 5 * prefill_time(replica, 3200) * 1e3


def test_vllm_v0_prefills_whole_mla_prompts_in_a_budget_of_the_model_length():
    """vLLM V0 turns chunked prefill off for MLA models; its budget is then
    max(max_model_len, 2048), the server's --max-model-len read from the notes."""
    raw = {**RAW, "engine": "vLLM 0.7.3 (V0 engine)",
           "notes": "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 "
                    "--max-model-len 32768"}
    case = normalise_case(raw)
    assert case.engine_version == "V0" and case.max_model_len == 32768
    assert normalise_case(RAW).max_model_len is None


def test_a_measurement_faster_than_the_hardware_allows_is_beyond_reach(catalog):
    """Llama-3.1-8B FP8 on one H200, a 128-token prompt at batch 1: at the hardware's peak
    (AT_PEAK: every efficiency 1, no fixed time) the prefill reads the 8 GB of weights once,
    about 1.7 ms at 4.8 TB/s. A TTFT measured at 25 ms leaves headroom; one of 0.5 ms cannot be
    reproduced by any efficiency and is listed, and a throughput 100x the peak rate too."""
    possible = normalise_case(RAW)
    at_peak = predict(possible, catalog, AT_PEAK)
    assert 1.0 < at_peak < 3.0  # [ms]
    assert headroom_at_peak(possible, catalog) == pytest.approx(25.0 / at_peak)
    impossible = normalise_case({**RAW, "id": "too-fast", "metric_value": 0.5})
    assert headroom_at_peak(impossible, catalog) == pytest.approx(0.5 / at_peak)
    rate = normalise_case({**RAW, "id": "rate", "metric_name": "output_throughput_total",
                           "concurrency": 64, "osl": 128})
    peak_rate = predict(rate, catalog, AT_PEAK)
    flood = normalise_case({**RAW, "id": "flood", "metric_name": "output_throughput_total",
                            "concurrency": 64, "osl": 128, "metric_value": 100 * peak_rate})
    assert headroom_at_peak(flood, catalog) == pytest.approx(0.01)
    found = beyond_reach([possible, impossible, flood], catalog)
    assert [c.id for c, _ in found] == ["flood", "too-fast"]
