"""Cross-validation (app.engine.cross_validation): the regime of a case, the inverse of a
case's curve of figures over speeds, the ridge fit of the speed model, and that a left-out
level is predicted without any of its cases.

The cross-validated figures over the shipped cases are checked in
tests/validation/test_cross_validated_targets.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.engine import cross_validation as cv
from app.engine.calibration import Case


def case(case_id: str, measured: float, metric: str = "output_throughput_total",
         engine: str = "vllm") -> Case:
    return Case(case_id, "llama-3.1-8b", "fp8", "fp8", "h100-sxm", 1, 1, engine, 128, 128,
                None, metric, measured, "a source")


def regime(engine: str, family: str = "hopper", metric: str = "throughput") -> dict[str, str]:
    return {"engine": engine, "gpu_family": family, "model_kind": "dense",
            "weight_class": "8-bit", "metric_group": metric}


def curve(case_id: str, engine: str, true_speed: float, family: str = "hopper") -> cv.Curve:
    """A rate proportional to the speed, measured at ``true_speed`` x the reference."""
    figures = 1000.0 * cv.SPEEDS
    return cv.Curve(case(case_id, 1000.0 * true_speed, engine=engine),
                    regime(engine, family), figures)


def test_the_regime_of_a_case_names_every_dimension(catalog):
    found = cv.regime_of(case("c", 1.0), catalog)
    assert found == {"engine": "vllm", "gpu_family": "hopper", "model_kind": "dense",
                     "weight_class": "8-bit", "metric_group": "throughput",
                     "engine_version": "vllm unstated"}
    moe = Case("m", "qwen3-30b-a3b", "nvfp4", "fp8", "b200", 1, 1, "tensorrt-llm", 1, 1,
               None, "ttft_batch1", 1.0, "s")
    assert cv.regime_of(moe, catalog) == {"engine": "tensorrt-llm", "gpu_family": "blackwell",
                                          "model_kind": "MoE", "weight_class": "FP4",
                                          "metric_group": "ttft",
                                          "engine_version": "tensorrt-llm unstated"}
    assert cv.model_kind(catalog, "deepseek-r1") == "MLA"


@pytest.mark.parametrize("speed", [0.3, 1.0, 2.7])
def test_the_speed_for_a_figure_inverts_the_curve_for_rates_and_times(speed):
    rate = curve("r", "vllm", speed)
    assert rate.measured_speed == pytest.approx(speed, rel=1e-9)
    time = cv.Curve(case("t", 50.0 / speed, "ttft_batch1"), regime("vllm", metric="ttft"),
                    50.0 / cv.SPEEDS)
    assert time.measured_speed == pytest.approx(speed, rel=1e-9)
    assert time.figure_at(speed) == pytest.approx(50.0 / speed, rel=1e-9)


def test_a_figure_that_stops_moving_maps_to_the_first_speed_that_reaches_it():
    figures = np.minimum(1000.0 * cv.SPEEDS, 1500.0)  # an efficiency capped at 1
    capped = cv.Curve(case("c", 1500.0), regime("vllm"), figures)
    first = cv.SPEEDS[np.argmax(figures >= 1500.0)]  # the first grid speed at the cap
    assert capped.measured_speed == pytest.approx(first, rel=1e-9)
    assert capped.measured_speed < cv.SPEEDS[-1]


def test_the_fit_recovers_engine_effects_and_pools_a_small_group():
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(20)]
    curves += [curve(f"b{i}", "vllm", 0.5) for i in range(20)]
    model = cv.fit_speed_model(curves)
    fast = np.exp(model.log_speed(regime("tensorrt-llm")))
    slow = np.exp(model.log_speed(regime("vllm")))
    assert slow / fast == pytest.approx(0.5, rel=0.05)  # 20 cases a side: little shrinkage
    small = cv.fit_speed_model(curves[:20] + curves[20:21])
    one_case = np.exp(small.log_speed(regime("vllm")))
    assert 0.5 < one_case / np.exp(small.log_speed(regime("tensorrt-llm"))) < 0.9  # pooled


def test_one_case_far_off_the_rest_does_not_set_its_groups_level():
    """Huber weights: ten vLLM cases at speed 0.5 and one at 0.07 (a queueing outlier) give
    0.50 against TensorRT-LLM; plain (ridge) least squares gives 0.44."""
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(20)]
    curves += [curve(f"b{i}", "vllm", 0.5) for i in range(10)]
    curves.append(cv.Curve(case("far", 1000.0 * 0.07, engine="vllm"), regime("vllm"),
                           1000.0 * cv.SPEEDS))
    model = cv.fit_speed_model(curves)
    ratio = np.exp(model.log_speed(regime("vllm")) - model.log_speed(regime("tensorrt-llm")))
    assert ratio == pytest.approx(0.5, abs=0.02)


def test_a_left_out_level_is_predicted_without_its_cases():
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(10)]
    curves += [curve(f"b{i}", "vllm", 0.5) for i in range(3)]
    residuals = {r.case_id: r for r in cv.cross_validated_residuals(curves)}
    vllm = residuals["b0"]
    # fitted on TensorRT-LLM alone: the vLLM case is predicted at TensorRT-LLM's speed
    assert vllm.ratio("engine") == pytest.approx(2.0, rel=1e-6)
    assert vllm.ratio() < vllm.ratio("engine")  # in-sample, its own cases pull it down
    assert set(vllm.left_out) == set(cv.DIMENSIONS)


def test_the_table_has_a_row_per_left_out_level_and_metric():
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(4)]
    curves += [curve(f"b{i}", "vllm", 0.8, family="ada") for i in range(2)]
    rows = cv.cv_table(cv.cross_validated_residuals(curves))
    keys = {(r["dimension"], r["level"], r["metric_group"]) for r in rows}
    assert ("engine", "vllm", "throughput") in keys
    assert ("gpu_family", "ada", "throughput") in keys
    assert ("engine", "all", "throughput") in keys
    vllm = next(r for r in rows if r["level"] == "vllm")
    assert vllm["n"] == 2 and vllm["worst_factor"] >= 1.0


def test_error_stats_are_the_median_error_and_the_worst_factor():
    stats = cv.error_stats([0.5, 1.0, 1.1, 1.2])
    assert stats == {"n": 4.0, "median_abs_error": pytest.approx(0.15),
                     "worst_factor": pytest.approx(2.0)}


def test_a_record_of_the_shipped_file_reads_back():
    residual = cv.Residual("c", "itl_mean", regime("vllm", metric="decode"), 10.0, 11.0,
                           {d: 12.0 for d in cv.DIMENSIONS})
    back = cv.residual_from_record(cv.residual_record(residual))
    assert back == residual
    assert back.worst_left_out_ratio == pytest.approx(1.2)


def residual(case_id: str, **ratios: float) -> cv.Residual:
    """A case measured at 100 whose left-out predictions are ``ratio`` x 100 (1 where not
    given)."""
    left_out = {d: 100.0 * ratios.get(d, 1.0) for d in cv.DIMENSIONS}
    return cv.Residual(case_id, "output_throughput_total", regime("vllm"), 100.0, 100.0,
                       left_out)


def test_cases_beyond_two_x_are_counted_either_way_and_worst_first():
    """2.5x high and 3x low (ratio 1/3) are beyond 2x; exactly 2x and 0.6 are not."""
    found = [residual("high", engine=2.5), residual("low", gpu_family=1 / 3),
             residual("edge", model_kind=2.0), residual("near", weight_class=0.6)]
    assert [r.case_id for r in cv.beyond(found)] == ["low", "high"]
    assert [r.case_id for r in cv.beyond(found, dimension="engine")] == ["high"]
    assert [r.case_id for r in cv.beyond(found, limit=1.5)] == ["low", "high", "edge", "near"]
    assert cv.off_by(0.25) == pytest.approx(4.0) and cv.off_by(4.0) == 4.0
