"""The expected range of the figures: how far real runs may lie from the expected ones.

A configuration's range is a :class:`~app.domain.result.Band` of multipliers on the expected
speed, from the calibration's residual errors for its serving engine on its GPU family
(METHOD.md, "Calibration"); a site profile's own range where the configuration uses measured
site factors; wider, catalog defaults, where the engine profile has no measurements on the
family. Step 3 judges candidates and Step 5 sizes replicas at the range's low end when the
scenario plans conservatively (:mod:`app.engine.scale`); Step 4 shows the range.
"""

from __future__ import annotations

from app.domain.catalog import Catalog
from app.domain.result import Band
from app.engine.configuration import Configuration


def band_for(config: Configuration, catalog: Catalog) -> tuple[float, float, bool]:
    """(low, high, calibrated) for this engine on this GPU family; a site profile's own
    range when the configuration uses measured site factors.

    Parameters
    ----------
    config : Configuration
        The evaluated configuration (engine profile, GPU, site profile).
    catalog : Catalog
        Holds ``uncalibrated_band_low`` and ``uncalibrated_band_high`` [-].
    """
    if config.site is not None:
        return config.site.band_low, config.site.band_high, True
    engine = config.engine
    calibrated = engine.calibrated and config.gpu.family in engine.family_factors
    if calibrated:
        return engine.band_low, engine.band_high, True
    return (min(engine.band_low, catalog.default("uncalibrated_band_low")),
            max(engine.band_high, catalog.default("uncalibrated_band_high")), False)


def band_of(config: Configuration, catalog: Catalog) -> Band:
    """The expected range of ``config``'s figures as a :class:`Band` [-]."""
    low, high, _ = band_for(config, catalog)
    return Band(low=low, high=high)
