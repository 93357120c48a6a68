"""Site factors: two scales applied to the engine profile's factors by class, and a saved site
profile used by sizings on the same GPU and engine (site-calibrated, its own range)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from app import api
from app.catalog import load_catalog
from app.domain.catalog import MeasurementFile, SiteProfile
from app.engine.inference import Factors
from app.engine.site_factors import factor_kind, factor_side, scaled_factor, site_scaled

SHA = "a" * 64


def test_every_factor_has_a_side_and_a_kind():
    # A factor added to the set must be a share (eta_*, *_efficiency) or a time (*_s);
    # otherwise the site profile would silently leave it unscaled.
    for name in (f.name for f in dataclasses.fields(Factors)):
        assert factor_kind(name) in ("share", "time"), name
        assert factor_side(name) in ("decode", "prefill")


@pytest.mark.parametrize("name, side", [
    ("eta_prefill", "prefill"), ("fixed_latency_s", "prefill"), ("eta_decode", "decode"),
    ("eta_mem", "decode"), ("eta_kv", "decode"), ("step_overhead_s", "decode"),
    ("layer_overhead_s", "decode"), ("comm_efficiency", "decode"),
    # names a grown factor set may have: classified by the same rule
    ("eta_prefill_fp8", "prefill"), ("ttft_overhead_s", "prefill"), ("eta_moe", "decode"),
    ("moe_efficiency", "decode"),
])
def test_side_by_name(name, side):
    assert factor_side(name) == side


def test_shares_scale_up_capped_at_one_and_times_divide():
    assert scaled_factor("eta_decode", 0.5, 0.8, 1.1) == pytest.approx(0.4)
    assert scaled_factor("eta_prefill", 0.5, 0.8, 1.1) == pytest.approx(0.55)
    assert scaled_factor("eta_prefill", 0.95, 0.8, 1.1) == 1.0
    assert scaled_factor("step_overhead_s", 0.002, 0.8, 1.1) == pytest.approx(0.0025)
    assert scaled_factor("fixed_latency_s", 0.011, 0.8, 1.1) == pytest.approx(0.01)
    assert scaled_factor("something_else", 3.0, 0.8, 1.1) == 3.0


def test_unit_scales_change_nothing_and_bad_scales_are_refused():
    values = {"eta_mem": 0.74, "fixed_latency_s": 0.015}
    assert site_scaled(values, 1.0, 1.0) == values
    with pytest.raises(ValueError):
        site_scaled(values, 0.0, 1.0)


def profile(**changes) -> SiteProfile:
    fields = dict(id="l40s-vllm-0.11.0-2026-12-10", name="L40S, vLLM (site profile, 0.11.0)",
                  source="Measured on site with vllm bench serve: x.json",
                  as_of=dt.date(2026, 12, 10),
                  gpu="l40s", engine="vllm", engine_version="0.11.0", decode_scale=0.8,
                  prefill_scale=1.1, band_low=0.93, band_high=1.06, points=12,
                  median_error=0.01, measurement_files=[MeasurementFile(name="x.json",
                                                                        sha256=SHA)])
    return SiteProfile(**{**fields, **changes})


def catalog_with(*profiles: SiteProfile):
    base = load_catalog(include_user=False)
    return base.model_copy(update={"site_profiles": {p.id: p for p in profiles}})


def small_chat(**serving):
    data = api.example("small-chat")
    data["serving"] = {**data["serving"], **serving}
    return api.load_scenario(data)


def test_a_profile_for_the_gpu_and_engine_makes_the_sizing_site_calibrated():
    plain = api.size(small_chat(), catalog_with())
    site = profile()
    calibrated = api.size(small_chat(), catalog_with(site))
    p = calibrated.performance
    assert p.site_profile == site.id
    assert (p.band.low, p.band.high) == (0.93, 1.06)
    assert p.single_user.itl_s > plain.performance.single_user.itl_s  # decode x0.8: slower
    assert p.single_user.ttft_s < plain.performance.single_user.ttft_s  # prefill x1.1: faster
    assert any("Site-calibrated" in line for line in p.explanation)
    factors = {a.name: a for a in calibrated.assumptions if a.name.startswith("vllm.")}
    plain_factors = {a.name: a.value for a in plain.assumptions if a.name.startswith("vllm.")}
    assert factors["vllm.eta_decode"].value == pytest.approx(plain_factors["vllm.eta_decode"] * 0.8)
    assert "site profile 'l40s-vllm-0.11.0-2026-12-10'" in factors["vllm.eta_decode"].source
    assert not any("not calibrated" in w for w in calibrated.warnings)


def test_other_gpus_and_engines_are_not_touched():
    other = profile(id="h100-vllm", gpu="h100-sxm")
    result = api.size(small_chat(), catalog_with(other, profile(id="l40s-sglang",
                                                                  engine="sglang")))
    assert result.performance.site_profile is None


def test_newest_profile_wins_none_turns_it_off_an_id_chooses():
    old = profile(id="old", as_of=dt.date(2026, 1, 1), decode_scale=0.5)
    new = profile(id="new", as_of=dt.date(2026, 12, 1))
    catalog = catalog_with(old, new)
    assert api.size(small_chat(), catalog).performance.site_profile == "new"
    assert api.size(small_chat(site_profile="old"), catalog).performance.site_profile == "old"
    assert api.size(small_chat(site_profile="none"), catalog).performance.site_profile is None


def test_an_unknown_profile_id_is_named():
    with pytest.raises(api.ScenarioError) as caught:
        api.size(small_chat(site_profile="nope"), catalog_with(profile()))
    assert "serving.site_profile" in caught.value.problems[0]
    assert "unknown site profile 'nope'" in caught.value.problems[0]


def test_scenario_overrides_win_over_the_site_profile():
    data = api.example("small-chat")
    data["factor_overrides"] = {"eta_decode": 0.3}
    result = api.size(api.load_scenario(data), catalog_with(profile()))
    values = {a.name: a.value for a in result.assumptions}
    assert values["vllm.eta_decode"] == 0.3


def test_a_band_that_does_not_bracket_one_is_refused():
    with pytest.raises(ValueError):
        profile(band_low=1.02, band_high=1.1)
