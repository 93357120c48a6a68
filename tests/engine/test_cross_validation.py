"""Cross-validation (app.engine.cross_validation): the regime of a case, the inverse of a
case's curve of figures over speeds, the ridge fit of the speed model, and that a left-out
level is predicted without any of its cases.

The cross-validated figures over the shipped cases are checked in
tests/validation/test_cross_validated_targets.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import cross_validation as cv
from app.engine.calibration import Case
from app.engine.inference import Factors


def case(case_id: str, measured: float, metric: str = "output_throughput_total",
         engine: str = "vllm") -> Case:
    return Case(case_id, "llama-3.1-8b", "fp8", "fp8", "h100-sxm", 1, 1, engine, 128, 128,
                None, metric, measured, "a source")


def regime(engine: str, family: str = "hopper", metric: str = "throughput") -> dict[str, str]:
    return {"engine": engine, "gpu_family": family, "model_kind": "dense",
            "weight_class": "8-bit", "metric_group": metric}


def curve(case_id: str, engine: str, true_speed: float, family: str = "hopper") -> cv.Curve:
    """A rate proportional to the speed, measured at ``true_speed`` x the reference."""
    figures = 1000.0 * cv.SPEEDS[None]
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
                    50.0 / cv.SPEEDS[None])
    assert time.measured_speed == pytest.approx(speed, rel=1e-9)
    assert time.figure_at(speed) == pytest.approx(50.0 / speed, rel=1e-9)


def test_a_figure_that_stops_moving_maps_to_the_first_speed_that_reaches_it():
    figures = np.minimum(1000.0 * cv.SPEEDS, 1500.0)  # an efficiency capped at 1
    capped = cv.Curve(case("c", 1500.0), regime("vllm"), figures[None])
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
                           1000.0 * cv.SPEEDS[None]))
    model = cv.fit_speed_model(curves)
    ratio = np.exp(model.log_speed(regime("vllm")) - model.log_speed(regime("tensorrt-llm")))
    assert ratio == pytest.approx(0.5, abs=0.02)


def test_a_left_out_level_is_predicted_without_its_cases():
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(10)]
    curves += [curve(f"b{i}", "vllm", 0.5) for i in range(3)]
    residuals = {r.case_id: r for r in cv.cross_validated_residuals([curves])}
    vllm = residuals["b0"]
    # fitted on TensorRT-LLM alone: the vLLM case is predicted at TensorRT-LLM's speed
    assert vllm.ratio("engine") == pytest.approx(2.0, rel=1e-6)
    assert vllm.ratio() < vllm.ratio("engine")  # in-sample, its own cases pull it down
    assert set(vllm.left_out) == set(cv.DIMENSIONS)


def capped(case_id: str, engine: str, true_speed: float, cap: float) -> cv.Curve:
    """A rate proportional to the speed up to ``cap`` (a reference that cannot reach it)."""
    return cv.Curve(case(case_id, 1000.0 * true_speed, engine=engine), regime(engine),
                    np.minimum(1000.0 * cv.SPEEDS, cap)[None])


def test_each_fit_picks_the_reference_its_own_cases_fit_best():
    """Reference 0 cannot reach the vLLM cases' rate, reference 1 not TensorRT-LLM's: on all
    cases (10 TensorRT-LLM, 3 vLLM) the fit keeps reference 0; the fold without TensorRT-LLM
    sees only vLLM and keeps reference 1, so it predicts TensorRT-LLM at that reference's
    cap (300 of a measured 1000; reference 0 would give 500 at vLLM's speed)."""
    trt = [(f"a{i}", "tensorrt-llm", 1.0) for i in range(10)]
    vllm = [(f"b{i}", "vllm", 0.5) for i in range(3)]
    first = [capped(*c, cap=1e9) for c in trt] + [capped(*c, cap=250.0) for c in vllm]
    second = [capped(*c, cap=300.0) for c in trt] + [capped(*c, cap=1e9) for c in vllm]
    chosen, model = cv.fit_reference([first, second])
    assert chosen == 0
    assert cv.fit_error(model, first) < cv.fit_error(cv.fit_speed_model(second), second)
    assert cv.fit_reference([second[10:]])[0] == 0  # one candidate: it is the one kept
    residuals = {r.case_id: r for r in cv.cross_validated_residuals([first, second])}
    assert residuals["a0"].ratio("engine") == pytest.approx(0.3, rel=1e-4)  # not 0.5
    assert residuals["a0"].ratio() == pytest.approx(1.0, rel=0.05)  # in-sample: reference 0
    assert residuals["b0"].ratio() == pytest.approx(0.5, rel=1e-4)  # capped at 250 there


def test_the_reference_compute_efficiency_replaces_the_profiles_for_decode_and_prefill(
        catalog):
    rate = case("r", 1000.0)
    slow, fast = (cv.curve_of(rate, catalog, compute_efficiency=eta) for eta in (0.4, 0.6))
    assert np.all(fast.figures >= slow.figures)  # more arithmetic per second, never slower
    assert np.any(fast.figures > slow.figures * 1.01)
    profile = cv.curve_of(rate, catalog)
    generic = catalog.engines[cv.REFERENCE_ENGINE].factors
    assert generic.eta_decode == generic.eta_prefill == cv.REFERENCE_COMPUTE_EFFICIENCIES[0]
    assert np.array_equal(profile.figures, slow.figures)


def test_the_table_has_a_row_per_left_out_level_and_metric():
    curves = [curve(f"a{i}", "tensorrt-llm", 1.0) for i in range(4)]
    curves += [curve(f"b{i}", "vllm", 0.8, family="ada") for i in range(2)]
    rows = cv.cv_table(cv.cross_validated_residuals([curves]))
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


def test_scaled_factors_divide_the_fixed_times_by_their_own_speed():
    """Efficiencies times the speed (capped at 1), fixed times divided by the fixed-time speed
    where one is given, by the speed where not."""
    base = Factors(eta_mem=0.6, eta_kv=0.6, eta_decode=0.4, eta_prefill=0.4,
                      step_overhead_s=0.003, sequence_overhead_s=5e-6, layer_overhead_s=0.0,
                      fixed_latency_s=0.02, comm_latency_s=1e-5, comm_efficiency=0.7)
    both = base.scaled(2.0, 0.5)
    assert (both.eta_mem, both.eta_prefill, both.comm_efficiency) == (1.0, 0.8, 1.0)
    assert both.step_overhead_s == pytest.approx(0.006)
    assert both.fixed_latency_s == pytest.approx(0.04)
    assert both.comm_latency_s == pytest.approx(2e-5)
    assert base.scaled(2.0) == base.scaled(2.0, 2.0)


def ttft_curve(case_id: str, engine: str, speed: float, fixed_speed: float,
               work_s: float) -> cv.Curve:
    """A TTFT of ``work_s`` of compute at speed 1 plus 50 ms of fixed time at fixed-time speed
    1, measured at ``speed`` and ``fixed_speed``."""
    grid = work_s / cv.SPEEDS[None] + 0.05 / cv.FIXED_TIME_SPEEDS[:, None]
    measured = work_s / speed + 0.05 / fixed_speed
    return cv.Curve(case(case_id, measured, "ttft_batch1", engine), regime(engine, metric="ttft"),
                    grid)


def test_the_fit_recovers_the_fixed_times_speed_of_ttft_apart_from_the_efficiencies():
    """Short and long prompts of two engines, the fixed times 1.7x the reference's (speed 0.6):
    one speed per case could not fit both lengths; the fit finds 0.6 and each engine's own."""
    curves = [ttft_curve(f"a{i}", "tensorrt-llm", 1.0, 0.6, work)
              for i, work in enumerate((0.005, 0.02, 0.08, 0.3, 1.2) * 4)]
    curves += [ttft_curve(f"b{i}", "vllm", 0.5, 0.6, work)
               for i, work in enumerate((0.005, 0.02, 0.08, 0.3, 1.2) * 4)]
    model = cv.fit_speed_model(curves)
    # 0.6, shrunk a little towards the reference's 1 by its ridge (one case-equivalent)
    assert 0.6 < np.exp(model.log_fixed_time_speed) < 0.64
    slow = model.log_speed(regime("vllm", metric="ttft"))
    fast = model.log_speed(regime("tensorrt-llm", metric="ttft"))
    # shrunk towards 1 by the ridge: the short prompts say little about the efficiencies
    assert np.exp(slow - fast) == pytest.approx(0.5, rel=0.08)
    for c in curves:
        assert model.predict(c) == pytest.approx(c.case.measured, rel=0.05)


def test_a_curve_of_two_speeds_is_exact_on_its_grid_and_one_row_ignores_the_second():
    grid = 1.0 / cv.SPEEDS[None] + 0.05 / cv.FIXED_TIME_SPEEDS[:, None]
    two = cv.Curve(case("t", 1.0, "ttft_batch1"), regime("vllm", metric="ttft"), grid)
    assert two.own_fixed_time_speed
    assert two.figure_at(cv.SPEEDS[7], cv.FIXED_TIME_SPEEDS[3]) == pytest.approx(grid[3, 7])
    one = curve("r", "vllm", 1.0)
    assert not one.own_fixed_time_speed
    assert one.figure_at(2.0, 0.25) == pytest.approx(one.figure_at(2.0)) == pytest.approx(2000.0)


def test_a_ttft_case_is_computed_at_every_fixed_time_speed_and_a_rate_at_one(catalog):
    ttft = cv.curve_of(case("t", 0.1, "ttft_batch1"), catalog)
    assert ttft.figures.shape == (len(cv.FIXED_TIME_SPEEDS), len(cv.SPEEDS))
    assert np.all(np.diff(ttft.figures, axis=0) < 0)  # faster fixed times, shorter TTFT
    rate = cv.curve_of(case("r", 1000.0), catalog)
    assert rate.figures.shape == (1, len(cv.SPEEDS))


def test_the_fixed_times_stay_near_the_reference_where_the_ttfts_say_little_of_them():
    """Three long prompts (the fixed 50 ms is 1-4 % of each TTFT) measured with fixed times
    x0.3 as fast: the ridge keeps the fixed times' speed near 1 instead of fitting them."""
    curves = [ttft_curve(f"l{i}", "vllm", 1.0, 0.3, work) for i, work in enumerate((1.2, 2.5, 5.0))]
    model = cv.fit_speed_model(curves)
    assert np.exp(model.log_fixed_time_speed) > 0.7
    for c in curves:
        assert model.predict(c) == pytest.approx(c.case.measured, rel=0.1)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["vllm", "sglang", "tensorrt-llm"]),
                          st.floats(0.1, 5.0), st.floats(0.2, 3.0), st.floats(0.001, 2.0),
                          st.booleans()),
                min_size=1, max_size=12))
def test_the_fit_is_finite_and_no_worse_than_the_reference_on_any_cases(cases):
    """Rates and TTFTs of any speeds, far off the grid included: the effects and the fixed
    times' speed come out finite, every prediction positive, and the loss the fit minimises
    at most the reference's (all effects zero)."""
    curves = []
    for i, (engine, speed, fixed_speed, work_s, is_ttft) in enumerate(cases):
        if is_ttft:
            curves.append(ttft_curve(f"t{i}", engine, speed, fixed_speed, work_s))
        else:
            curves.append(curve(f"r{i}", engine, speed))
    model = cv.fit_speed_model(curves)
    assert np.all(np.isfinite(list(model.effects.values())))
    assert np.isfinite(model.log_fixed_time_speed)
    predicted = np.array([model.predict(c) for c in curves])
    assert np.all(predicted > 0)

    def loss(fitted: cv.SpeedModel) -> float:
        errors = [np.log(fitted.predict(c) / c.case.measured) if c.own_fixed_time_speed
                  else fitted.log_speed(c.regime) - np.log(c.measured_speed) for c in curves]
        ridge = sum(cv._penalty(name) * value**2 for name, value in fitted.effects.items())
        ridge += cv.RIDGE_FIXED_TIME_SPEED * fitted.log_fixed_time_speed**2
        return float(np.sum(cv._huber(np.array(errors))) + 0.5 * ridge)

    assert loss(model) <= loss(cv.SpeedModel({})) + 1e-9
