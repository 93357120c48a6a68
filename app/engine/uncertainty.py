"""The expected range of the figures: how far real runs may lie from the expected ones.

A configuration's range is a :class:`~app.domain.result.Band` of multipliers on the expected
speed, drawn from the cross-validated residuals of the calibration cases
(:mod:`app.engine.cross_validation`, shipped as resources/calibration/cross_validation.json
and read into ``Catalog.cv_residuals``) of the regime the configuration falls in: its serving
engine, GPU family, model kind (dense, MoE, MLA) and weight-format class (METHOD.md,
"Expected range"). A site profile's own range holds where the configuration uses measured
site factors; without the residuals the engine profile's band (wider where the profile has
no measurements on the family) stands in. Step 3 judges candidates and Step 5 sizes replicas
at the range's low end when the scenario plans conservatively (:mod:`app.engine.scale`);
Step 4 shows the range.

The rule
--------
Each case's cross-validated prediction in dimension ``d`` (the fit that saw no case of its
level in ``d``) gives a *speed multiplier*: measured / predicted for a rate, predicted /
measured for a time, so that below 1 means slower than predicted. For a regime and a metric
group (rates: saturation throughput and single-user decode; TTFT):

1. The cases are those that match the regime in every dimension of the first rung of
   :data:`LADDER` that holds at least :data:`MIN_CASES` cases (all four dimensions, then
   engine, GPU family and model kind, then engine and GPU family, then the engine, then every
   case).
2. Their multipliers are those of the dimensions whose level no case of the group has (the
   error the cross-validation made when such a level was new); where every level has cases,
   those of all four dimensions.
3. The range is the :data:`QUANTILES` of the multipliers, widened in log around their median
   by ``sqrt(1 + SMALL_SAMPLE / (n + 1))`` for ``n`` cases in the regime itself (all four
   dimensions alike: none widens by sqrt(3)), and stretched to hold 1 (the expected figure
   is inside its own range).

References
----------
- Hastie, Tibshirani, Friedman, The Elements of Statistical Learning, 2nd ed. (2009),
  section 7.10 (cross-validation).
- Gelman, Hill, Data Analysis Using Regression and Multilevel/Hierarchical Models (2007),
  chapter 12 (partial pooling: small groups borrow from the larger ones).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import Catalog, CvResidual, GpuSpec, ModelSpec
from app.domain.result import Band
from app.engine.configuration import Configuration
from app.i18n import msg

#: The dimensions of a regime, as the cross-validation leaves them out.
DIMENSIONS = ("engine", "gpu_family", "model_kind", "weight_class")
#: Weight formats by class (the kernels that run them differ by class, not by variant).
#: FP4 is a class of its own only where the GPU has FP4 tensor cores: elsewhere
#: (:func:`weight_class_of`) it runs the weight-only kernels of the 4-bit integer formats.
WEIGHT_ONLY_FP4 = "FP4 weight-only"
WEIGHT_CLASSES = {
    "fp32": "16-bit", "fp16": "16-bit", "bf16": "16-bit",
    "fp8": "8-bit", "int8": "8-bit", "int8-gptq": "8-bit", "gguf-q8_0": "8-bit",
    "nvfp4": "FP4", "mxfp4": "FP4",
    "int4-awq": "INT4", "int4-gptq": "INT4", "gguf-q4_0": "INT4", "gguf-q4_k_m": "INT4",
}
#: Metric groups of the rates' range and of the TTFT range.
RATE_GROUPS = ("throughput", "decode")
TTFT_GROUPS = ("ttft",)
#: The dimensions a case must match, rung by rung, until enough cases remain.
LADDER = (DIMENSIONS, ("engine", "gpu_family", "model_kind"), ("engine", "gpu_family"),
          ("engine",), ())
#: Fewest cases a rung needs to draw the range from [-]. This and SMALL_SAMPLE were chosen so
#: that the ranges hold about 80 % of the cross-validated predictions (:func:`coverage` on the
#: 322 cases of 2026-12-01: 81.5 % of the rates', 82.8 % of the TTFT predictions with 8 and
#: 2; 8 and 1 gave 79.6 % and 74.5 %, 12 and 2 81.8 % and 82.1 %).
MIN_CASES = 8
#: Lower and upper quantile of the multipliers [-].
QUANTILES = (0.10, 0.90)
#: Cases in the regime itself (plus one) at which the widening is sqrt(2) [-].
SMALL_SAMPLE = 2.0


def model_kind_of(model: ModelSpec) -> str:
    """``MLA`` (multi-head latent attention, whatever the MLP), ``MoE`` or ``dense``."""
    if model.mla is not None:
        return "MLA"
    return "MoE" if model.moe is not None else "dense"


def weight_class_of(weights: str, gpu: GpuSpec) -> str:
    """The class of the kernels that run ``weights`` (a precision id) on ``gpu``.

    :data:`WEIGHT_CLASSES`, except that FP4 weights (NVFP4, MXFP4) on a GPU without FP4
    tensor cores (Hopper, Ampere, Ada, CDNA 3: no ``fp4_tflops``) are dequantised to 16 bit
    in the same weight-only GEMMs as INT4 AWQ/GPTQ (vLLM's Marlin kernels serve both;
    TensorRT-LLM's W4A16 MXFP4 MoE on Hopper), so they share that class: what the
    calibration learns of FP4 on Hopper is not carried to native FP4 on Blackwell, which
    runs other kernels at another rate (METHOD.md, "FP4 without FP4 tensor cores is a
    weight-only format").
    """
    found = WEIGHT_CLASSES.get(weights, weights)
    if found == "FP4" and gpu.fp4_tflops is None:
        return WEIGHT_ONLY_FP4
    return found


def regime_of(config: Configuration) -> dict[str, str]:
    """The regime a configuration falls in: its level in every dimension."""
    return {"engine": config.engine.id, "gpu_family": config.gpu.family,
            "model_kind": model_kind_of(config.model),
            "weight_class": weight_class_of(config.weight_precision.id, config.gpu)}


def speed_multiplier(residual: CvResidual, predicted: float) -> float:
    """Measured speed over predicted speed of one prediction [-]: measured / predicted for a
    rate, predicted / measured for a time (TTFT)."""
    if residual.regime["metric_group"] in TTFT_GROUPS:
        return predicted / residual.measured
    return residual.measured / predicted


@dataclass(frozen=True)
class RegimeRange:
    """A range of speed multipliers and what backs it."""

    low: float
    high: float
    cases: int
    matched: tuple[str, ...]
    new: tuple[str, ...]
    in_regime: int = 0

    def holds(self, multiplier: float) -> bool:
        return self.low <= multiplier <= self.high


def cases_for(residuals: list[CvResidual], regime: dict[str, str]
              ) -> tuple[list[CvResidual], tuple[str, ...]]:
    """The cases of the first rung of :data:`LADDER` with at least :data:`MIN_CASES`, and
    the dimensions they match."""
    for matched in LADDER:
        found = [r for r in residuals if all(r.regime[d] == regime[d] for d in matched)]
        if len(found) >= MIN_CASES or not matched:
            return found, matched
    return residuals, ()


def new_dimensions(residuals: list[CvResidual], regime: dict[str, str]) -> tuple[str, ...]:
    """The dimensions in which no case has the regime's level."""
    return tuple(d for d in DIMENSIONS if all(r.regime[d] != regime[d] for r in residuals))


def regime_range(residuals: list[CvResidual], regime: dict[str, str]) -> RegimeRange | None:
    """The range of speed multipliers for ``regime`` from ``residuals`` of one metric group
    (the module's rule); None without residuals.

    Parameters
    ----------
    residuals : cross-validated residuals of one metric group (rates or TTFT)
    regime : the level in every dimension of :data:`DIMENSIONS`
    """
    if not residuals:
        return None
    new = new_dimensions(residuals, regime)
    cases, matched = cases_for(residuals, regime)
    used = new or DIMENSIONS
    values = np.array([speed_multiplier(r, r.left_out[d]) for r in cases for d in used
                       if d in r.left_out])
    logs = np.log(values)
    centre = float(np.median(logs))
    in_regime = sum(all(r.regime[d] == regime[d] for d in DIMENSIONS) for r in residuals)
    widen = math.sqrt(1.0 + SMALL_SAMPLE / (in_regime + 1))
    low, high = (centre + widen * (float(np.quantile(logs, q)) - centre) for q in QUANTILES)
    return RegimeRange(min(math.exp(low), 1.0), max(math.exp(high), 1.0), len(cases),
                       matched, new, in_regime)


def in_groups(residuals: list[CvResidual], groups: tuple[str, ...]) -> list[CvResidual]:
    return [r for r in residuals if r.regime["metric_group"] in groups]


def band_for(config: Configuration, catalog: Catalog) -> tuple[float, float, bool]:
    """(low, high, calibrated) of the engine profile for this engine on this GPU family; a
    site profile's own range when the configuration uses measured site factors.

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
    calibrated = engine.calibrated_on(config.gpu.family)
    if calibrated:
        return engine.band_low, engine.band_high, True
    return (min(engine.band_low, catalog.default("uncalibrated_band_low")),
            max(engine.band_high, catalog.default("uncalibrated_band_high")), False)


#: What the cases of each rung of :data:`LADDER` share with the scenario (the band's
#: ``basis``; the German catalog translates it where a sentence names it).
BASIS = {
    LADDER[0]: msg("the same engine, GPU family, model kind and weight class"),
    LADDER[1]: msg("the same engine, GPU family and model kind"),
    LADDER[2]: msg("the same engine and GPU family"),
    LADDER[3]: msg("the same engine"),
    LADDER[4]: msg("any engine, GPU, model and format"),
}


def basis_text(found: RegimeRange) -> str:
    """What the cases behind a range share with the regime, in English (:data:`BASIS`)."""
    return BASIS[found.matched].template


def band_of(config: Configuration, catalog: Catalog) -> Band:
    """The expected range of ``config``'s figures [-]: a site profile's, else the
    cross-validated residuals' of its regime (the module's rule), else the engine profile's
    band."""
    low, high, _ = band_for(config, catalog)
    if config.site is not None or not catalog.cv_residuals:
        return Band(low=low, high=high)
    return cached_band(catalog, tuple(regime_of(config).items()))


_BANDS: dict[tuple, tuple[Catalog, Band]] = {}


def cached_band(catalog: Catalog, regime: tuple[tuple[str, str], ...]) -> Band:
    """:func:`regime_band`, made once per catalog and regime (a Step 3 search asks some
    three hundred times for a handful of regimes)."""
    key = (id(catalog), regime)
    found = _BANDS.get(key)
    if found is None or found[0] is not catalog:
        if len(_BANDS) > 256:
            _BANDS.clear()
        found = _BANDS[key] = (catalog, regime_band(catalog.cv_residuals, dict(regime)))
    return found[1]


def regime_band(residuals: list[CvResidual], regime: dict[str, str]) -> Band:
    """The :class:`Band` of ``regime``: the rates' range and the TTFT range, with the cases
    behind each."""
    rates = regime_range(in_groups(residuals, RATE_GROUPS), regime)
    ttft = regime_range(in_groups(residuals, TTFT_GROUPS), regime) or rates
    return Band(low=rates.low, high=rates.high, ttft_low=ttft.low, ttft_high=ttft.high,
                cases=rates.cases, ttft_cases=ttft.cases, regime_cases=rates.in_regime,
                basis=basis_text(rates))


def coverage(residuals: list[CvResidual]) -> dict[str, tuple[int, int]]:
    """Per metric group of ranges (rates, TTFT): (cross-validated predictions inside the
    range of their case's regime, all of them) [-].

    Each case's range is drawn from the *other* cases by the module's rule, and its
    multipliers of the dimensions the rule uses for its regime are checked against it: the
    share inside is what the range claims (the :data:`QUANTILES`, about 80 %).
    """
    found = {}
    for name, groups in (("rates", RATE_GROUPS), ("ttft", TTFT_GROUPS)):
        mine = in_groups(residuals, groups)
        inside = total = 0
        for case in mine:
            others = [r for r in mine if r.case_id != case.case_id]
            span = regime_range(others, case.regime)
            if span is None:
                continue
            for d in span.new or DIMENSIONS:
                total += 1
                inside += span.holds(speed_multiplier(case, case.left_out[d]))
        found[name] = (inside, total)
    return found
