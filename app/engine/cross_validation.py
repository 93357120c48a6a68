"""Cross-validation: how well the method predicts engines, GPUs, models and formats it was not
fitted to.

The catalog's efficiency factors are fitted per engine and GPU family to every calibration
case, so the fit's own residuals (``calibration.summarise``) say how well it reproduces what it
saw, not how well it predicts what it did not. Here the fit is repeated with whole groups left
out: for each *dimension* (engine, GPU family, model kind, weight-format class) and each of its
*levels* (vLLM, Blackwell, MoE, FP4, ...) the model is fitted on every other case and predicts
the cases of the left-out level. The residuals of those predictions, keyed by the regime each
case falls in, are what an expected range per regime is built from.

The model fitted (a hierarchical speed model)
---------------------------------------------
Every case is predicted by the engine's own code (``calibration.predict``) with one set of
*reference* efficiency factors (the ``generic`` profile, :data:`REFERENCE_ENGINE`: the lower
ends of METHOD.md's ranges from the literature, fitted to no case) scaled by a speed ``s``
(``inference.Factors.scaled``: efficiencies times ``s``, fixed times divided by it); the
engine's settings (memory fraction, batch limits,
block size) stay the case's engine's. The speed that reproduces case ``i`` is ``s_i``. Its
logarithm is modelled as a sum of effects, per metric group ``m`` (throughput, decode, TTFT)::

    log s_i = mu_m + sum_d ( a[d, level_d(i)] + b[d, level_d(i), m] )

``a`` is an effect shared by every metric of a level (vLLM is slower), ``b`` its metric-specific
part (vLLM's TTFT is slower still). Both are ridge-penalised (``RIDGE_SHARED``,
``RIDGE_BY_METRIC``): a level with few cases is pulled towards the others, and a level with no
case in the fit gets no effect at all, which is exactly the prediction for an unseen group.
The fit is least squares in ``log s`` with Huber weights (:func:`fit_speed_model`); the
prediction of a case is the engine's figure at the fitted speed, read from its curve of
figures over :data:`SPEEDS` (piecewise linear in log-log, exact at the grid points).

Why a reference fitted to nothing: the catalog's fitted profiles were fitted to these very
cases, so starting from one of them would let the left-out cases leak into their own
prediction (leaving out TensorRT-LLM would still predict it with TensorRT-LLM's fit). The
generic profile's *shape* (the ratios among ``eta_mem``, ``eta_decode``, the overheads) is
the literature's; every *level* is refitted in each fold. The in-sample fit of this model is
therefore a little worse than the catalog's per-engine, per-family fit (``aisizer
calibration`` shows both).

References
----------
- Hastie, Tibshirani, Friedman, The Elements of Statistical Learning, 2nd ed. (2009),
  sections 3.4.1 (ridge regression) and 7.10 (cross-validation).
- Roberts et al., Cross-validation strategies for data with temporal, spatial, hierarchical,
  or phylogenetic structure, Ecography 40 (2017): leave-group-out (blocked) CV when cases
  within a group are alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from app.domain.catalog import Catalog
from app.engine.calibration import METRIC_GROUPS, Case, predict
from app.engine.inference import Factors
from app.engine.uncertainty import DIMENSIONS, model_kind_of, weight_class_of

#: The grouping dimensions left out in turn: :data:`app.engine.uncertainty.DIMENSIONS`.
#: Weight formats by class: :func:`app.engine.uncertainty.weight_class_of` (imported above),
#: the one rule the expected ranges key their regimes by too.
#: Metric groups by the name the targets use.
METRIC_KEYS = {"saturation throughput": "throughput", "single-user decode": "decode",
               "TTFT": "ttft"}
#: The profile whose engine-wide factors every case is predicted from, scaled by its speed.
REFERENCE_ENGINE = "generic"
#: Speeds at which each case's figure is computed [-] (x1/16 to x8, 29 points).
SPEEDS = np.geomspace(1 / 16, 8, 29)
#: Ridge penalties on the shared and the metric-specific effects [-] (in units of one case's
#: squared log error: an effect needs about this many cases to reach half its raw value).
RIDGE_SHARED = 1.0
RIDGE_BY_METRIC = 3.0
#: Residual in ``log s`` beyond which a case's weight falls (Huber's loss): log(1.5) [-].
HUBER_LOG = float(np.log(1.5))
#: Reweighting rounds of the robust fit (converged to 1e-3 in log s well before).
HUBER_ROUNDS = 12
#: A near-zero penalty that keeps the per-metric intercepts determined [-].
RIDGE_INTERCEPT = 1e-6


def model_kind(catalog: Catalog, model_id: str) -> str:
    """``MLA`` (multi-head latent attention, whatever the MLP), ``MoE`` or ``dense``
    (:func:`app.engine.uncertainty.model_kind_of`)."""
    return model_kind_of(catalog.model(model_id))


def regime_of(case: Case, catalog: Catalog) -> dict[str, str]:
    """The regime a case falls in: its level in every dimension, its metric group and its
    engine's release line (``calibration.engine_version_class``; a key of the regime, not a
    dimension left out)."""
    return {
        "engine": case.engine,
        "gpu_family": catalog.gpu(case.gpu).family,
        "model_kind": model_kind(catalog, case.model),
        "weight_class": weight_class_of(case.weights, catalog.gpu(case.gpu)),
        "metric_group": METRIC_KEYS[METRIC_GROUPS[case.metric]],
        "engine_version": f"{case.engine} {case.engine_version}",
    }


@dataclass(frozen=True)
class Curve:
    """A case's figure at each of :data:`SPEEDS`, in the case's unit."""

    case: Case
    regime: dict[str, str]
    figures: np.ndarray

    def speed_for(self, value: float) -> float:
        """The speed whose figure is ``value`` (clipped to the grid) [-]."""
        logs = np.log(self.figures)
        speeds = np.log(SPEEDS)
        if logs[-1] < logs[0]:  # a time: falls with speed
            logs, speeds = -logs, speeds
            target = -np.log(value)
        else:
            target = np.log(value)
        # where the roofline caps an efficiency at 1 the figure stops moving: keep the
        # first speed of each figure so that the inverse is a function
        rising = np.concatenate(([True], np.diff(logs) > 1e-12))
        return float(np.exp(np.interp(target, logs[rising], speeds[rising])))

    def figure_at(self, speed: float) -> float:
        """The case's figure at ``speed`` (log-log interpolation on the grid)."""
        return float(np.exp(np.interp(np.log(speed), np.log(SPEEDS), np.log(self.figures))))

    @property
    def measured_speed(self) -> float:
        return self.speed_for(self.case.measured)


def curve_of(case: Case, catalog: Catalog, reference_engine: str = REFERENCE_ENGINE) -> Curve:
    """Predict ``case`` at every speed of :data:`SPEEDS` with the reference factors."""
    reference = Factors.from_catalog(catalog.engines[reference_engine].factors, {})
    figures = [predict(case, catalog, vars(reference.scaled(float(speed))))
               for speed in SPEEDS]
    return Curve(case, regime_of(case, catalog), np.asarray(figures, dtype=float))


# --------------------------------------------------------------------------- the fit


@dataclass(frozen=True)
class SpeedModel:
    """Fitted effects on ``log s`` by column name (see the module notes)."""

    effects: dict[tuple[str, ...], float]

    def log_speed(self, regime: dict[str, str]) -> float:
        """``log s`` the model predicts for a regime; unseen levels add nothing."""
        metric = regime["metric_group"]
        total = self.effects.get(("mu", metric), 0.0)
        for dimension in DIMENSIONS:
            level = regime[dimension]
            total += self.effects.get(("a", dimension, level), 0.0)
            total += self.effects.get(("b", dimension, level, metric), 0.0)
        return total


def _columns(regime: dict[str, str]) -> list[tuple[str, ...]]:
    metric = regime["metric_group"]
    names: list[tuple[str, ...]] = [("mu", metric)]
    for dimension in DIMENSIONS:
        names.append(("a", dimension, regime[dimension]))
        names.append(("b", dimension, regime[dimension], metric))
    return names


def _penalty(name: tuple[str, ...]) -> float:
    return {"mu": RIDGE_INTERCEPT, "a": RIDGE_SHARED, "b": RIDGE_BY_METRIC}[name[0]]


def fit_speed_model(curves: list[Curve]) -> SpeedModel:
    """Robust ridge least squares of the cases' ``log s_i`` on their regime's effects.

    ``theta = (X^T W X + diag(lambda))^-1 X^T W y`` (Hastie et al. 2009, eq. 3.44, with case
    weights), the weights ``W`` those of Huber's loss found by iteratively reweighted least
    squares: a case whose residual exceeds :data:`HUBER_LOG` (in ``log s``) counts in
    proportion to ``HUBER_LOG / |residual|``, so one benchmark far off the rest (a queueing
    TTFT, an early engine release) cannot set a whole group's level (Huber, Robust
    Estimation of a Location Parameter, Ann. Math. Statist. 35, 1964). A metric group with no
    case keeps no intercept.
    """
    names = sorted({name for c in curves for name in _columns(c.regime)})
    index = {name: i for i, name in enumerate(names)}
    design = np.zeros((len(curves), len(names)))
    for row, c in enumerate(curves):
        for name in _columns(c.regime):
            design[row, index[name]] = 1.0
    target = np.log([c.measured_speed for c in curves])
    penalty = np.diag([_penalty(name) for name in names])
    weights = np.ones(len(curves))
    for _ in range(HUBER_ROUNDS):
        weighted = design.T * weights
        theta = np.linalg.solve(weighted @ design + penalty, weighted @ target)
        residual = np.abs(target - design @ theta)
        weights = np.minimum(1.0, HUBER_LOG / np.maximum(residual, 1e-12))
    return SpeedModel({name: float(theta[i]) for name, i in index.items()})


# --------------------------------------------------------------------------- residuals


@dataclass(frozen=True)
class Residual:
    """One case: its regime, the measurement, the in-sample and the left-out predictions.

    ``left_out[d]`` is the prediction of the model fitted without any case of this case's
    level in dimension ``d`` (e.g. for a vLLM case, ``left_out["engine"]`` was fitted on no
    vLLM case) [the case's unit]. Ratios are predicted / measured.
    """

    case_id: str
    metric: str
    regime: dict[str, str]
    measured: float
    fitted: float
    left_out: dict[str, float] = field(default_factory=dict)

    def ratio(self, dimension: str | None = None) -> float:
        """Predicted / measured: in-sample (None) or with ``dimension``'s level left out."""
        predicted = self.fitted if dimension is None else self.left_out[dimension]
        return predicted / self.measured

    @property
    def worst_left_out_ratio(self) -> float:
        """The left-out ratio furthest from 1 (in log) over the dimensions [-]."""
        ratios = [self.ratio(d) for d in DIMENSIONS]
        return max(ratios, key=lambda r: abs(np.log(r)))


def cross_validated_residuals(curves: list[Curve]) -> list[Residual]:
    """Leave-one-group-out residuals of every case, in every dimension.

    For each dimension and each of its levels, fit :func:`fit_speed_model` on the cases of the
    other levels and predict the left-out cases; the in-sample prediction comes from the fit on
    all cases.

    Parameters
    ----------
    curves : every case's figures over :data:`SPEEDS` (:func:`curve_of`)

    Returns
    -------
    One :class:`Residual` per case, in the order given.
    """
    full = fit_speed_model(curves)
    left: dict[str, dict[str, float]] = {c.case.id: {} for c in curves}
    for dimension in DIMENSIONS:
        for level in sorted({c.regime[dimension] for c in curves}):
            kept = [c for c in curves if c.regime[dimension] != level]
            model = fit_speed_model(kept)
            for c in curves:
                if c.regime[dimension] == level:
                    speed = float(np.exp(model.log_speed(c.regime)))
                    left[c.case.id][dimension] = c.figure_at(speed)
    return [Residual(c.case.id, c.case.metric, c.regime, c.case.measured,
                     c.figure_at(float(np.exp(full.log_speed(c.regime)))), left[c.case.id])
            for c in curves]


def residuals_for(cases: list[Case], catalog: Catalog) -> list[Residual]:
    """:func:`cross_validated_residuals` of ``cases`` (their curves computed here)."""
    return cross_validated_residuals([curve_of(case, catalog) for case in cases])


# --------------------------------------------------------------------------- summary


def error_stats(ratios: list[float]) -> dict[str, float]:
    """``n``, median |ratio - 1| and the worst factor max(r, 1/r) of a list of ratios."""
    values = np.asarray(ratios, dtype=float)
    return {"n": float(len(values)),
            "median_abs_error": float(np.median(np.abs(values - 1.0))),
            "worst_factor": float(np.max(np.maximum(values, 1.0 / values)))}


def cv_table(residuals: list[Residual]) -> list[dict]:
    """Rows of the cross-validated table: per dimension, per left-out level (and "all"), per
    metric group: n, median absolute error and worst factor of the left-out predictions."""
    rows = []
    for dimension in DIMENSIONS:
        levels = sorted({r.regime[dimension] for r in residuals})
        for level in [*levels, "all"]:
            mine = [r for r in residuals if level == "all" or r.regime[dimension] == level]
            for metric in sorted({r.regime["metric_group"] for r in mine}):
                ratios = [r.ratio(dimension) for r in mine if r.regime["metric_group"] == metric]
                rows.append({"dimension": dimension, "level": level, "metric_group": metric,
                             **error_stats(ratios)})
    return rows


def overall(residuals: list[Residual], dimension: str | None = None) -> dict[str, dict]:
    """Per metric group: the stats of the ratios with ``dimension`` left out (None: in-sample;
    ``"worst"``: each case's worst left-out ratio)."""
    found = {}
    for metric in sorted({r.regime["metric_group"] for r in residuals}):
        mine = [r for r in residuals if r.regime["metric_group"] == metric]
        if dimension == "worst":
            ratios = [r.worst_left_out_ratio for r in mine]
        else:
            ratios = [r.ratio(dimension) for r in mine]
        found[metric] = error_stats(ratios)
    return found


def off_by(ratio: float) -> float:
    """How far a predicted/measured ratio is off, either way: ``max(r, 1/r)`` [-]."""
    return max(ratio, 1.0 / ratio)


def beyond(residuals: list[Residual], limit: float = 2.0,
           dimension: str | None = None) -> list[Residual]:
    """The cases predicted more than ``limit`` times off (issue #12's target: none) with
    ``dimension``'s level left out, or (None) in at least one left-out fold; worst first."""
    def worst(r: Residual) -> float:
        return off_by(r.ratio(dimension) if dimension else r.worst_left_out_ratio)

    return sorted((r for r in residuals if worst(r) > limit), key=worst, reverse=True)


# --------------------------------------------------------------------------- the shipped file


def _rounded(value: float) -> float:
    return float(f"{value:.6g}")


def residual_record(residual: Residual) -> dict:
    """A :class:`Residual` as the shipped file holds it (values to 6 significant digits)."""
    return {"case_id": residual.case_id, "metric": residual.metric,
            "regime": dict(residual.regime), "measured": _rounded(residual.measured),
            "fitted": _rounded(residual.fitted),
            "left_out": {d: _rounded(v) for d, v in residual.left_out.items()}}


def residual_from_record(record: dict) -> Residual:
    """The :class:`Residual` of one record of the shipped file."""
    return Residual(record["case_id"], record["metric"], dict(record["regime"]),
                    float(record["measured"]), float(record["fitted"]),
                    {d: float(v) for d, v in record["left_out"].items()})


def document(residuals: list[Residual], case_files: list[str], skipped: list[dict]) -> dict:
    """What ``make cross-validation`` writes to resources/calibration/cross_validation.json:
    the method's settings, the case files and the skipped cases, one record per case
    (:func:`residual_record`) and the table (:func:`cv_table`)."""
    return {
        "generated_by": "make cross-validation (app.engine.cross_validation)",
        "method": {"reference_engine": REFERENCE_ENGINE, "ridge_shared": RIDGE_SHARED,
                   "ridge_by_metric": RIDGE_BY_METRIC, "huber_log": _rounded(HUBER_LOG),
                   "dimensions": list(DIMENSIONS),
                   "speeds": [_rounded(s) for s in SPEEDS]},
        "case_files": case_files,
        "skipped": skipped,
        "residuals": [residual_record(r) for r in residuals],
        "table": [{k: (_rounded(v) if isinstance(v, float) else v) for k, v in row.items()}
                  for row in cv_table(residuals)],
        "in_sample": {m: {k: _rounded(v) for k, v in stats.items()}
                      for m, stats in overall(residuals).items()},
    }
