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

A TTFT case's fixed times (the per-step, per-request, per-layer and collective latencies of the
reference) do not follow ``s``: they are divided by a speed ``v`` of their own, one for every
TTFT case of the fit (:data:`OWN_FIXED_TIME_SPEED`). A TTFT is a prefill's compute plus the
request's path through the server (HTTP, tokenising, admission, the step it waits for), and
with one speed a short prompt (fixed times) and a long one (compute) of the same engine could
only share a compromise (METHOD.md, "TTFT's fixed times, a speed of their own").

The fit is least squares with Huber weights (:func:`fit_speed_model`), of ``log s`` for the
rates and of the log figure for TTFT; the prediction of a case is the engine's figure at the
fitted speeds, read from its grid of figures over :data:`SPEEDS` (and
:data:`FIXED_TIME_SPEEDS` for TTFT; piecewise linear in log-log, exact at the grid points).

The reference's compute efficiencies (``eta_decode`` and ``eta_prefill``) set how fast the
arithmetic runs against the memory, which ``s`` cannot change; each fit picks them among
:data:`REFERENCE_COMPUTE_EFFICIENCIES` on its own cases (:func:`fit_reference`), so a fold's
pick is as out-of-sample as its effects.

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
#: Error (in ``log s``, or in the log figure for TTFT) beyond which a case's weight falls
#: (Huber's loss): log(1.5) [-].
HUBER_LOG = float(np.log(1.5))
#: Most reweighted Gauss-Newton steps of the robust fit, each halved until it lowers the
#: loss (at most LINE_SEARCH_HALVINGS times), until the loss falls by less than FIT_TOLERANCE
#: (in units of one case's squared log error; the fits of the shipped cases stop after 8-38
#: steps).
FIT_ROUNDS = 200
LINE_SEARCH_HALVINGS = 30
FIT_TOLERANCE = 1e-9
#: Metric groups whose fixed times (the generic profile's per-step, per-request, per-layer
#: and collective latencies) get a speed of their own, one for every case of the fit: TTFT.
OWN_FIXED_TIME_SPEED = ("ttft",)
#: Ridge penalty on the log of the fixed times' speed [-]: that of a shared effect, so that a
#: fold whose TTFT cases say little about the fixed times (dense models left out: 21 MoE and
#: MLA TTFTs, most of them long prompts) keeps them near the reference's instead of fitting
#: them x2 faster (METHOD.md, "TTFT's fixed times, a speed of their own").
RIDGE_FIXED_TIME_SPEED = RIDGE_SHARED
#: Fixed-time speeds at which a TTFT case's figures are computed [-] (x1/8 to x4, 16 points).
FIXED_TIME_SPEEDS = np.geomspace(1 / 8, 4, 16)
#: A near-zero penalty that keeps the per-metric intercepts determined [-].
RIDGE_INTERCEPT = 1e-6
#: The reference's compute efficiencies (``eta_decode`` and ``eta_prefill`` together) among
#: which each fit picks the one its cases fit best (:func:`fit_reference`) [-]: from the
#: generic profile's 0.4 (the literature's lower end) to its bandwidth efficiency, 0.6. The
#: speed ``s`` scales every efficiency by one factor, so the reference fixes how fast
#: arithmetic runs against memory; which balance the measurements show is fitted like the
#: effects, within each fold (METHOD.md, "The reference's compute efficiency, fitted").
REFERENCE_COMPUTE_EFFICIENCIES = (0.4, 0.5, 0.6)


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
    """A case's figure over a grid of speeds, in the case's unit.

    ``figures[j, k]`` is the figure at efficiency speed ``SPEEDS[k]`` and fixed-time speed
    ``FIXED_TIME_SPEEDS[j]`` for a TTFT case (:data:`OWN_FIXED_TIME_SPEED`); a case whose fixed
    times follow its efficiencies has one row, ``figures[0, k]`` at speed ``SPEEDS[k]``.
    """

    case: Case
    regime: dict[str, str]
    figures: np.ndarray

    @property
    def own_fixed_time_speed(self) -> bool:
        """Whether the case's fixed times have a speed of their own (a second axis)."""
        return self.figures.shape[0] > 1

    def speed_for(self, value: float) -> float:
        """The speed whose figure is ``value`` (clipped to the grid), for a case of one row
        [-]."""
        logs = np.log(self.figures[0])
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

    @property
    def measured_speed(self) -> float:
        return self.speed_for(self.case.measured)

    def log_figure(self, log_speed: float, log_fixed_speed: float = 0.0
                   ) -> tuple[float, float, float]:
        """The log figure at the log speeds, and its slopes in each (bilinear in log-log on
        the grid, constant beyond its ends; the fixed-time speed is ignored on one row)."""
        value, slope, fixed_slope = _bilinear(
            np.log(self.figures)[None], np.array([log_speed]), np.array([log_fixed_speed]))
        return float(value[0]), float(slope[0]), float(fixed_slope[0])

    def figure_at(self, speed: float, fixed_speed: float = 1.0) -> float:
        """The case's figure at ``speed`` (and ``fixed_speed`` for its fixed times)."""
        return float(np.exp(self.log_figure(np.log(speed), np.log(fixed_speed))[0]))


def _grid_position(grid: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray]:
    """Cell index, position in the cell (0-1) and whether inside, of ``values`` on ``grid``."""
    inside = (values > grid[0]) & (values < grid[-1])
    clipped = np.clip(values, grid[0], grid[-1])
    cell = np.clip(np.searchsorted(grid, clipped) - 1, 0, len(grid) - 2)
    return cell, (clipped - grid[cell]) / (grid[cell + 1] - grid[cell]), inside


def _bilinear(log_figures: np.ndarray, log_speed: np.ndarray, log_fixed_speed: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Log figures of curves stacked as ``(case, fixed-time speed, speed)`` at each case's log
    speeds, and their slopes in each (zero beyond the grid, where the figure stays at its
    edge); a stack of one row has no slope in the fixed-time speed."""
    grid = np.log(SPEEDS)
    cell, x, inside = _grid_position(grid, log_speed)
    rows = np.arange(len(log_figures))
    if log_figures.shape[1] == 1:
        low, high = log_figures[rows, 0, cell], log_figures[rows, 0, cell + 1]
        slope = (high - low) / (grid[cell + 1] - grid[cell])
        return low + x * (high - low), np.where(inside, slope, 0.0), np.zeros(len(rows))
    fixed_grid = np.log(FIXED_TIME_SPEEDS)
    row, y, inside_fixed = _grid_position(fixed_grid, log_fixed_speed)
    f00, f01 = log_figures[rows, row, cell], log_figures[rows, row, cell + 1]
    f10, f11 = log_figures[rows, row + 1, cell], log_figures[rows, row + 1, cell + 1]
    value = (f00 * (1 - x) + f01 * x) * (1 - y) + (f10 * (1 - x) + f11 * x) * y
    slope = ((f01 - f00) * (1 - y) + (f11 - f10) * y) / (grid[cell + 1] - grid[cell])
    fixed_slope = (((f10 - f00) * (1 - x) + (f11 - f01) * x)
                   / (fixed_grid[row + 1] - fixed_grid[row]))
    return value, np.where(inside, slope, 0.0), np.where(inside_fixed, fixed_slope, 0.0)


def curve_of(case: Case, catalog: Catalog, reference_engine: str = REFERENCE_ENGINE,
             compute_efficiency: float | None = None) -> Curve:
    """Predict ``case`` at every speed of :data:`SPEEDS` with the reference factors (and, for a
    TTFT case, at every fixed-time speed of :data:`FIXED_TIME_SPEEDS`); ``compute_efficiency``
    replaces the reference's ``eta_decode`` and ``eta_prefill`` (None: the profile's)."""
    shape = ({} if compute_efficiency is None
             else {"eta_decode": compute_efficiency, "eta_prefill": compute_efficiency})
    reference = Factors.from_catalog(catalog.engines[reference_engine].factors, shape)
    regime = regime_of(case, catalog)
    fixed_speeds = (FIXED_TIME_SPEEDS if regime["metric_group"] in OWN_FIXED_TIME_SPEED
                    else [None])
    figures = [[predict(case, catalog, vars(reference.scaled(float(speed), fixed)))
                for speed in SPEEDS] for fixed in fixed_speeds]
    return Curve(case, regime, np.asarray(figures, dtype=float))


# --------------------------------------------------------------------------- the fit


@dataclass(frozen=True)
class SpeedModel:
    """Fitted effects on ``log s`` by column name, and the log speed of the fixed times of
    the metric groups in :data:`OWN_FIXED_TIME_SPEED` (see the module notes)."""

    effects: dict[tuple[str, ...], float]
    log_fixed_time_speed: float = 0.0

    def log_speed(self, regime: dict[str, str]) -> float:
        """``log s`` the model predicts for a regime; unseen levels add nothing."""
        metric = regime["metric_group"]
        total = self.effects.get(("mu", metric), 0.0)
        for dimension in DIMENSIONS:
            level = regime[dimension]
            total += self.effects.get(("a", dimension, level), 0.0)
            total += self.effects.get(("b", dimension, level, metric), 0.0)
        return total

    def predict(self, curve: Curve) -> float:
        """The figure the model predicts for a case [the case's unit]."""
        return float(np.exp(curve.log_figure(self.log_speed(curve.regime),
                                             self.log_fixed_time_speed)[0]))


def _columns(regime: dict[str, str]) -> list[tuple[str, ...]]:
    metric = regime["metric_group"]
    names: list[tuple[str, ...]] = [("mu", metric)]
    for dimension in DIMENSIONS:
        names.append(("a", dimension, regime[dimension]))
        names.append(("b", dimension, regime[dimension], metric))
    return names


def _penalty(name: tuple[str, ...]) -> float:
    return {"mu": RIDGE_INTERCEPT, "a": RIDGE_SHARED, "b": RIDGE_BY_METRIC}[name[0]]


def _huber(error: np.ndarray) -> np.ndarray:
    """Huber's loss of each error: ``e^2 / 2`` up to :data:`HUBER_LOG`, linear beyond."""
    size = np.abs(error)
    return np.where(size <= HUBER_LOG, 0.5 * size**2, HUBER_LOG * (size - 0.5 * HUBER_LOG))


def _stack(curves: list[Curve]) -> np.ndarray:
    """The curves' log figures as one ``(case, fixed-time speed, speed)`` array (a curve of
    one row repeated along the fixed-time speeds, where it does not depend on them)."""
    rows = max(c.figures.shape[0] for c in curves)
    return np.log(np.stack([np.broadcast_to(c.figures, (rows, len(SPEEDS))) for c in curves]))


def fit_speed_model(curves: list[Curve]) -> SpeedModel:
    """Robust ridge least squares of the cases' errors on their regime's effects.

    A case whose fixed times follow its speed has one speed ``s_i`` that reproduces it
    (:attr:`Curve.measured_speed`), and its error is ``log s(theta) - log s_i``; a TTFT case
    depends on two speeds, its efficiencies' and its fixed times' (``w``, one for every TTFT
    case of the fit), and its error is that of its log figure, ``log f_i(theta, w) - log
    y_i`` (about the same units: a compute-bound TTFT falls as ``1 / s``). The parameters
    minimise ``sum_i rho(e_i) + theta^T diag(lambda) theta / 2`` with ``rho`` Huber's loss
    (:func:`_huber`), by reweighted Gauss-Newton steps ``theta -= (J^T W J + diag(lambda))^-1
    (J^T W e + diag(lambda) theta)``, each halved until it lowers the loss (Nocedal, Wright,
    Numerical Optimization, 2nd ed. 2006, sections 3.1 and 10.3; ridge as in Hastie et al.
    2009, eq. 3.44, with case weights; without TTFT cases every step is the iteratively
    reweighted least squares of the linear model in ``log s``). The weights ``W`` are
    Huber's: a case whose error exceeds :data:`HUBER_LOG` counts in proportion to
    ``HUBER_LOG / |error|``, so one benchmark far off the rest (a queueing TTFT, an early
    engine release) cannot set a whole group's level (Huber, Robust Estimation of a Location
    Parameter, Ann. Math. Statist. 35, 1964). ``w`` is ridge-penalised as a shared effect is
    (:data:`RIDGE_FIXED_TIME_SPEED`). A metric group with no case keeps no intercept; a fit
    with no TTFT case keeps ``w = 0``, and a fit with no case at all predicts the
    reference itself.
    """
    if not curves:
        return SpeedModel({})
    names = sorted({name for c in curves for name in _columns(c.regime)})
    index = {name: i for i, name in enumerate(names)}
    design = np.zeros((len(curves), len(names)))
    for row, c in enumerate(curves):
        for name in _columns(c.regime):
            design[row, index[name]] = 1.0
    own = np.array([c.own_fixed_time_speed for c in curves])
    measured_speed = np.log([1.0 if o else c.measured_speed
                             for c, o in zip(curves, own, strict=True)])
    log_measured = np.log([c.case.measured for c in curves])
    log_figures = _stack(curves)
    penalty = np.diag([_penalty(name) for name in names] + [RIDGE_FIXED_TIME_SPEED])

    def errors(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        log_speed = design @ theta[:-1]
        value, slope, fixed_slope = _bilinear(log_figures, log_speed,
                                              np.full(len(curves), theta[-1]))
        jacobian = np.hstack([design * np.where(own, slope, 1.0)[:, None],
                              np.where(own, fixed_slope, 0.0)[:, None]])
        return np.where(own, value - log_measured, log_speed - measured_speed), jacobian

    def loss(theta: np.ndarray) -> float:
        return float(np.sum(_huber(errors(theta)[0])) + 0.5 * theta @ penalty @ theta)

    theta = np.zeros(len(names) + 1)
    current = loss(theta)
    for _ in range(FIT_ROUNDS):
        error, jacobian = errors(theta)
        weighted = jacobian.T * np.minimum(1.0, HUBER_LOG / np.maximum(np.abs(error), 1e-12))
        step = np.linalg.solve(weighted @ jacobian + penalty,
                               weighted @ error + penalty @ theta)
        for _ in range(LINE_SEARCH_HALVINGS):  # the step that lowers the loss
            trial = loss(theta - step)
            if trial <= current:
                break
            step = step / 2
        else:
            break
        theta, improvement, current = theta - step, current - trial, trial
        if improvement < FIT_TOLERANCE:
            break
    return SpeedModel({name: float(theta[i]) for name, i in index.items()}, float(theta[-1]))


def fit_error(model: SpeedModel, curves: list[Curve]) -> float:
    """Huber's loss (:func:`_huber`) of the model's log figure errors on ``curves`` [-]: how
    well a fit reproduces its own cases, comparable between references."""
    errors = np.log([model.predict(c) / c.case.measured for c in curves])
    return float(np.sum(_huber(errors)))


def fit_reference(candidates: list[list[Curve]]) -> tuple[int, SpeedModel]:
    """The reference whose fit reproduces its cases best, and that fit.

    ``candidates[k]`` holds the same cases' curves computed with the k-th reference
    (:data:`REFERENCE_COMPUTE_EFFICIENCIES`); each is fitted (:func:`fit_speed_model`) and the
    one of least :func:`fit_error` is kept (the first on a tie). Only the cases given are
    used, so a fold picks its reference without the cases it leaves out.
    """
    fits = [fit_speed_model(curves) for curves in candidates]
    errors = [fit_error(model, curves) for model, curves in zip(fits, candidates, strict=True)]
    best = int(np.argmin(errors))
    return best, fits[best]


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


def cross_validated_residuals(candidates: list[list[Curve]]) -> list[Residual]:
    """Leave-one-group-out residuals of every case, in every dimension.

    For each dimension and each of its levels, fit :func:`fit_reference` on the cases of the
    other levels (the reference picked among them too) and predict the left-out cases with
    the fit's reference; the in-sample prediction comes from the fit on all cases.

    Parameters
    ----------
    candidates : every case's figures over :data:`SPEEDS` (:func:`curve_of`), one list per
        reference, the cases in the same order in each (one list: a single reference)

    Returns
    -------
    One :class:`Residual` per case, in the order given.
    """
    cases = candidates[0]
    chosen, full = fit_reference(candidates)
    left: dict[str, dict[str, float]] = {c.case.id: {} for c in cases}
    for dimension in DIMENSIONS:
        for level in sorted({c.regime[dimension] for c in cases}):
            kept = [[c for c in curves if c.regime[dimension] != level]
                    for curves in candidates]
            picked, model = fit_reference(kept)
            for c in candidates[picked]:
                if c.regime[dimension] == level:
                    left[c.case.id][dimension] = model.predict(c)
    return [Residual(c.case.id, c.case.metric, c.regime, c.case.measured, full.predict(c),
                     left[c.case.id]) for c in candidates[chosen]]


def residuals_for(cases: list[Case], catalog: Catalog) -> list[Residual]:
    """:func:`cross_validated_residuals` of ``cases``, their curves computed here with every
    reference of :data:`REFERENCE_COMPUTE_EFFICIENCIES`."""
    return cross_validated_residuals([[curve_of(case, catalog, compute_efficiency=eta)
                                       for case in cases]
                                      for eta in REFERENCE_COMPUTE_EFFICIENCIES])


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
                   "speeds": [_rounded(s) for s in SPEEDS],
                   "own_fixed_time_speed": list(OWN_FIXED_TIME_SPEED),
                   "ridge_fixed_time_speed": RIDGE_FIXED_TIME_SPEED,
                   "fixed_time_speeds": [_rounded(s) for s in FIXED_TIME_SPEEDS],
                   "reference_compute_efficiencies": list(REFERENCE_COMPUTE_EFFICIENCIES)},
        "case_files": case_files,
        "skipped": skipped,
        "residuals": [residual_record(r) for r in residuals],
        "table": [{k: (_rounded(v) if isinstance(v, float) else v) for k, v in row.items()}
                  for row in cv_table(residuals)],
        "in_sample": {m: {k: _rounded(v) for k, v in stats.items()}
                      for m, stats in overall(residuals).items()},
    }
