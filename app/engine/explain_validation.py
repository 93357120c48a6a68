"""The Validation section: imported measurements beside the prediction, their verdicts, the
site fit and what they mean for the plan.

Assembles :mod:`app.engine.validation` (predictions, verdicts, measured capacity) and
:mod:`app.engine.site_fit` (the fit of the site's decode and prefill scales). It sits above
both, so that neither imports the other back (the fit uses the predictions).
"""

from __future__ import annotations

from app.domain.catalog import Catalog
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.domain.validation import ValidationResult
from app.engine.configuration import Configuration
from app.engine.site_fit import fit_site
from app.engine.validation import (
    Load,
    measured_capacity,
    plan_messages,
    predict,
    replicas_with,
    validation_point,
    verdicts,
    with_site_scales,
    without_site,
)


def validation_result(catalog: Catalog, scenario: Scenario, config: Configuration,
                      result: SizingResult) -> ValidationResult | None:
    """Every imported point beside its prediction, the verdicts, the site fit and what they
    mean for the plan; None when the scenario has no measurements.

    ``config`` is the sized configuration (the serving one of a training scenario), with the
    site profile the sizing used, if any; the fit is against the catalog's factors.
    """
    points = list(scenario.measurements)
    if not points:
        return None
    peak = result.inputs.workload.context_tokens
    predicted = predict(config, peak, [Load.of(p) for p in points])
    band = result.performance.band
    rows = [validation_point(p, f, band) for p, f in zip(points, predicted, strict=True)]
    online = bool(result.performance.targets)
    headroom = catalog.default("validation_headroom")
    judged = verdicts(result, points, headroom) if online else []
    base = without_site(catalog, config, scenario.factor_overrides)
    fit = fit_site(catalog, base, peak, points, scenario.factor_overrides)
    capacity = replicas = None
    online = online and scenario.workload.kind == "online_inference"
    if fit is not None and fit.decode_fitted and fit.prefill_fitted and online:
        capacity = measured_capacity(with_site_scales(base, fit.decode_scale,
                                                      fit.prefill_scale), result)
        replicas = replicas_with(result, capacity)
    messages = plan_messages(result, capacity, replicas) if online else []
    return ValidationResult(
        points=rows, verdicts=judged,
        users_per_replica=result.performance.at_concurrency.concurrency,
        replicas_planned=result.scale.replicas_for_load, replicas_measured=replicas,
        users_per_replica_measured=capacity, fit=fit, messages=messages)


def with_validation(catalog: Catalog, scenario: Scenario, config: Configuration,
                    result: SizingResult) -> SizingResult:
    """``result`` with its Validation section when the scenario carries measurements."""
    validation = validation_result(catalog, scenario, config, result)
    return result if validation is None else result.model_copy(update={"validation": validation})
