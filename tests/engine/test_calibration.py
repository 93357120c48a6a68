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
    Case,
    Outcome,
    normalise_case,
    predict,
    predicted_at,
    speed_for_measurement,
    summarise,
)
from app.engine.configuration import Choice, configure
from app.engine.evaluate import plan_memory
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
    ("weights_precision", "FP4 (e2m1)", "unknown precision"),
])
def test_a_case_the_catalog_cannot_name_is_refused(field, value, error):
    with pytest.raises(ValueError, match=error):
        normalise_case({**RAW, field: value})


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
