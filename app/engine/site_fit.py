"""Fit a site's decode and prefill factors to an imported load-test sweep.

The catalog's engine profile predicts every measured point (``validation.predict``); the fit
finds the two scales (``site_factors``) that make the predictions match the measurements:
``decode`` from inter-token latencies (or tokens/s per user, or aggregate output tokens/s
when nothing else was measured), ``prefill`` from times to first token and llama-bench's
prompt times. A side that no point measured stays at 1.0.

Notes
-----
Least squares on the log ratios, ``r_i = ln(predicted_i / measured_i)``, over
``x = (ln decode, ln prefill)``, by Levenberg-Marquardt with a forward-difference Jacobian
(two parameters; each evaluation runs the engine once per distinct request shape), bounded
to scales of 0.1 to 10. The range of the fitted profile is the 10th to 90th percentile of
measured over predicted speed after the fit (times inverted), at least ``site_band_floor``
either side of 1, as the catalog's bands come from the calibration residuals
(``calibration.band_from_residuals``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import Catalog
from app.domain.measurements import TIME_METRICS, MeasuredPoint
from app.domain.validation import FitResidual, SiteFit
from app.engine.configuration import Configuration
from app.engine.validation import Load, median_abs_error, predict, with_site_scales
from app.i18n import Message, msg

DECODE_METRICS = ("itl_s", "tokens_per_s_per_user", "output_tokens_per_s")
PREFILL_METRICS = ("ttft_s", "prefill_s")
BOUND = math.log(10.0)
ITERATIONS = 60
STEP = 1e-4  # forward difference in ln(scale)


@dataclass(frozen=True)
class Observation:
    """One measured figure the fit uses."""

    point: int
    metric: str
    measured: float


def observations(points: list[MeasuredPoint]) -> list[Observation]:
    """The figures of each point the fit uses, one decode and one prefill figure per point
    at most (an inter-token latency and tokens/s per user say the same thing)."""
    found = []
    for index, point in enumerate(points):
        for metrics in (DECODE_METRICS, PREFILL_METRICS):
            metric = next((m for m in metrics if getattr(point, m) is not None), None)
            if metric is not None:
                found.append(Observation(index, metric, float(getattr(point, metric))))
    return found


class Predictor:
    """Predicted figures for the observations at given scales (cached per scale pair)."""

    def __init__(self, base: Configuration, peak: int, points: list[MeasuredPoint],
                 wanted: list[Observation]):
        self.base, self.peak, self.wanted = base, peak, wanted
        self.loads = [Load.of(p) for p in points]
        self.cache: dict[tuple[float, float], np.ndarray] = {}

    def values(self, decode: float, prefill: float) -> np.ndarray:
        key = (decode, prefill)
        if key not in self.cache:
            config = with_site_scales(self.base, decode, prefill)
            figures = predict(config, self.peak, self.loads)
            self.cache[key] = np.array([figures[o.point][o.metric] for o in self.wanted])
        return self.cache[key]


def least_squares(residuals, start: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Levenberg-Marquardt on ``residuals(x)`` over the ``free`` coordinates of ``x``."""
    x = start.copy()
    damping = 1e-3
    current = residuals(x)
    cost = float(current @ current)
    for _ in range(ITERATIONS):
        jacobian = np.zeros((len(current), len(x)))
        for j in np.flatnonzero(free):
            shifted = x.copy()
            shifted[j] += STEP
            jacobian[:, j] = (residuals(shifted) - current) / STEP
        normal = jacobian.T @ jacobian
        gradient = jacobian.T @ current
        while damping < 1e8:
            system = normal + damping * np.diag(np.diag(normal) + 1e-12)
            step = -np.linalg.lstsq(system, gradient, rcond=None)[0] * free
            trial = np.clip(x + step, -BOUND, BOUND)
            trial_residuals = residuals(trial)
            trial_cost = float(trial_residuals @ trial_residuals)
            if trial_cost <= cost:
                x, current, cost = trial, trial_residuals, trial_cost
                damping = max(damping / 10, 1e-9)
                break
            damping *= 10
        if damping >= 1e8 or float(np.max(np.abs(step))) < 1e-9:
            break
    return x


def speed_ratio(metric: str, measured: float, predicted: float) -> float:
    """Measured speed over predicted speed (times inverted) [-]."""
    return predicted / measured if metric in TIME_METRICS else measured / predicted


def site_band(ratios: list[float], floor: float) -> tuple[float, float]:
    """The fitted profile's range: 10th to 90th percentile, at least ``floor`` around 1."""
    low = float(np.percentile(ratios, 10)) if ratios else 1.0
    high = float(np.percentile(ratios, 90)) if ratios else 1.0
    return min(low, 1.0 - floor), max(high, 1.0 + floor)


def fit_messages(fit_decode: bool, fit_prefill: bool, overrides: dict) -> list[Message]:
    found = []
    if not fit_decode:
        found.append(msg("No inter-token latency or tokens/s was measured, so the decode "
                         "factor stays at 1.0."))
    if not fit_prefill:
        found.append(msg("No time to first token or prompt time was measured, so the prefill "
                         "factor stays at 1.0."))
    if overrides:
        found.append(msg("The scenario overrides {names}; the fit scaled those values too, "
                         "while other scenarios apply a site profile to the catalog's values.",
                         names=", ".join(sorted(overrides))))
    return found


def fit_site(catalog: Catalog, base: Configuration, peak: int,
             points: list[MeasuredPoint], overrides: dict | None = None) -> SiteFit | None:
    """Decode and prefill scales of the engine profile that reproduce ``points``.

    Parameters
    ----------
    base : the sized configuration with the catalog's factors (no site profile)
    peak : longest sequence the engine admits [tokens]
    points : the imported measurements
    overrides : the scenario's factor overrides (named in a message: the fit scales them)

    Returns None when no point measured a figure the fit can use.
    """
    wanted = observations(points)
    if not wanted:
        return None
    predictor = Predictor(base, peak, points, wanted)
    measured = np.array([o.measured for o in wanted])
    free = np.array([any(o.metric in DECODE_METRICS for o in wanted),
                     any(o.metric in PREFILL_METRICS for o in wanted)], dtype=float)

    def residuals(x: np.ndarray) -> np.ndarray:
        return np.log(predictor.values(math.exp(x[0]), math.exp(x[1])) / measured)

    x = least_squares(residuals, np.zeros(2), free)
    decode, prefill = math.exp(x[0]), math.exp(x[1])
    before = predictor.values(1.0, 1.0)
    after = predictor.values(decode, prefill)
    rows = [FitResidual(point=o.point, metric=o.metric, measured=o.measured,
                        before=float(b), after=float(a))
            for o, b, a in zip(wanted, before, after, strict=True)]
    ratios = [speed_ratio(r.metric, r.measured, r.after) for r in rows]
    low, high = site_band(ratios, catalog.default("site_band_floor"))
    model = base.model.id
    return SiteFit(
        gpu=base.gpu.id, engine=base.engine.id, model=model,
        decode_scale=decode, prefill_scale=prefill,
        decode_fitted=bool(free[0]), prefill_fitted=bool(free[1]), residuals=rows,
        median_error_before=median_abs_error([(r.measured, r.before) for r in rows]),
        median_error_after=median_abs_error([(r.measured, r.after) for r in rows]),
        band_low=low, band_high=high,
        catalog_version=catalog.versions.get("user:engines", catalog.versions.get("engines", "")),
        messages=fit_messages(bool(free[0]), bool(free[1]), overrides or {}))
