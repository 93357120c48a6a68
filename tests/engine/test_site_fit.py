"""A synthetic sweep made from the engine's own predictions with known factors scaled
(decode x0.8, prefill x1.1), written in a load generator's format and imported, gives those
factors back within 2 % (issue 16, "Done when")."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "measurements"))

import measurement_samples as samples  # noqa: E402

from app import api  # noqa: E402
from app.catalog import load_catalog  # noqa: E402
from app.engine.validation import Load, configuration_of, predict, with_site_scales  # noqa: E402

DECODE, PREFILL = 0.8, 1.1
SWEEP = (1, 2, 4, 8, 16, 32, 64)
INFERENCE_EXAMPLES = ("worked-example", "small-chat", "batch-summaries", "large-moe",
                      "choose-gpu", "rag-assistant", "cpu-small-model")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


def synthetic_runs(catalog, name: str, noise: float = 0.0, seed: int = 7) -> tuple:
    """The example's scenario and a sweep predicted with the known factors (and noise)."""
    scenario = api.load_scenario(api.example(name))
    result = api.size(scenario, catalog)
    truth = with_site_scales(configuration_of(catalog, scenario, result, "none"), DECODE,
                             PREFILL)
    work = result.inputs.workload
    prompt, output = work.prompt_tokens, work.output_tokens
    loads = [Load("concurrency", c, prompt, output) for c in SWEEP]
    rng = np.random.default_rng(seed)
    runs = []
    for users, figures in zip(SWEEP, predict(truth, work.max_context_tokens, loads),
                              strict=True):
        wobble = 1 + noise * rng.uniform(-1, 1, 3)
        runs.append({"concurrency": users, "prompt": prompt, "output": output,
                     "completed": 4 * users, "ttft_s": figures["ttft_s"] * wobble[0],
                     "itl_s": figures["itl_s"] * wobble[1],
                     "output_tokens_per_s": figures["output_tokens_per_s"] * wobble[2]})
    return scenario, runs


def fitted(catalog, scenario, paths):
    points = api.import_measurements(paths, scenario).points
    result = api.size(api.with_measurements(scenario, points), catalog)
    return result.validation.fit


@pytest.mark.parametrize("name", INFERENCE_EXAMPLES)
def test_known_factors_come_back_from_a_vllm_sweep(catalog, tmp_path, name):
    scenario, runs = synthetic_runs(catalog, name)
    fit = fitted(catalog, scenario, samples.write_sweep(tmp_path, runs, "vllm"))
    assert fit.decode_scale == pytest.approx(DECODE, rel=0.02)
    assert fit.prefill_scale == pytest.approx(PREFILL, rel=0.02)
    assert fit.decode_fitted and fit.prefill_fitted
    assert fit.median_error_after < 0.005 < fit.median_error_before


@pytest.mark.parametrize("fmt", ["sglang", "aiperf", "genai-perf", "guidellm", "csv"])
def test_known_factors_come_back_from_every_format(catalog, tmp_path, fmt):
    scenario, runs = synthetic_runs(catalog, "rag-assistant")
    fit = fitted(catalog, scenario, samples.write_sweep(tmp_path, runs, fmt))
    assert fit.decode_scale == pytest.approx(DECODE, rel=0.02)
    assert fit.prefill_scale == pytest.approx(PREFILL, rel=0.02)


@pytest.mark.parametrize("name", ["small-chat", "large-moe", "worked-example"])
def test_known_factors_come_back_through_one_percent_noise(catalog, tmp_path, name):
    scenario, runs = synthetic_runs(catalog, name, noise=0.01)
    fit = fitted(catalog, scenario, samples.write_sweep(tmp_path, runs, "vllm"))
    assert fit.decode_scale == pytest.approx(DECODE, rel=0.02)
    assert fit.prefill_scale == pytest.approx(PREFILL, rel=0.02)
    assert fit.band_low < 1 < fit.band_high


def test_a_decode_only_measurement_keeps_the_prefill_factor(catalog, tmp_path):
    scenario = api.load_scenario(api.example("small-chat"))
    result = api.size(scenario, catalog)
    truth = with_site_scales(configuration_of(catalog, scenario, result, "none"), DECODE, 1.0)
    (tg,) = predict(truth, 4096, [Load("single_stream", 1, 1, 128)])
    path = tmp_path / "tg.json"
    path.write_text("[" + __import__("json").dumps(
        samples.llama_bench_test(0, 128, tg["itl_s"] * 128)) + "]", encoding="utf-8")
    fit = fitted(catalog, scenario, [path])
    assert fit.decode_scale == pytest.approx(DECODE, rel=0.02)
    assert (fit.prefill_scale, fit.prefill_fitted, fit.decode_fitted) == (1.0, False, True)
    assert any("prefill factor stays at 1.0" in m.text() for m in fit.messages)


def test_the_fit_is_against_the_catalog_even_with_a_site_profile_in_use(catalog, tmp_path):
    from app.catalog.site_profiles import profile_from_fit

    scenario, runs = synthetic_runs(catalog, "small-chat")
    paths = samples.write_sweep(tmp_path, runs, "vllm")
    points = api.import_measurements(paths, scenario).points
    measured = api.with_measurements(scenario, points)
    fit = api.size(measured, catalog).validation.fit
    profile = profile_from_fit(fit, points, "0.11.0", "", scenario.name, "L40S", "vLLM")
    with_profile = catalog.model_copy(update={"site_profiles": {profile.id: profile}})
    again = api.size(measured, with_profile)
    assert again.performance.site_profile == profile.id
    assert again.validation.fit.decode_scale == pytest.approx(fit.decode_scale, rel=1e-6)
    # the comparison uses the site-calibrated prediction: now it matches the measurements
    errors = [abs(p.error(m)) for p in again.validation.points for m in p.predicted]
    assert max(errors) < 0.01
