"""The expected range of a configuration's figures (app.engine.uncertainty).

METHOD.md "Calibration": the calibrated engine profile's range on a GPU family it was
calibrated on; at least the catalog's uncalibrated range elsewhere; a site profile's own."""

from __future__ import annotations

from app.domain.result import Band
from app.engine.uncertainty import band_for, band_of


def test_a_calibrated_family_takes_the_profiles_range(catalog, configure_replica):
    config = configure_replica("llama-3.1-8b", "h100-sxm", engine="tensorrt-llm")
    engine = config.engine
    assert engine.calibrated and config.gpu.family in engine.family_factors
    assert band_for(config, catalog) == (engine.band_low, engine.band_high, True)
    assert band_of(config, catalog) == Band(low=engine.band_low, high=engine.band_high)


def test_an_uncalibrated_family_is_at_least_as_wide_as_the_catalog_default(catalog,
                                                                          configure_replica):
    config = configure_replica("llama-3.1-8b", "gaudi3", engine="tensorrt-llm")
    assert config.gpu.family not in config.engine.family_factors
    low, high, calibrated = band_for(config, catalog)
    assert not calibrated
    assert low <= catalog.default("uncalibrated_band_low")
    assert high >= catalog.default("uncalibrated_band_high")
