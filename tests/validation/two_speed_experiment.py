"""Experiment (not the shipped method): the cross-validation with two speeds per case.

``app.engine.cross_validation`` predicts every case from the generic profile scaled by one
speed ``s`` (efficiencies times ``s``, fixed times divided by it; a TTFT case's fixed times by a
second speed, one per fold, since METHOD.md "TTFT's fixed times, a speed of their own") and
models ``log s`` as a sum of per-level effects. Here the generic profile's factors are split
in two groups, each scaled by its own speed, and each speed gets its own effects:

- ``--split compute``: ``s_c`` scales the GEMM efficiencies (``eta_decode``, ``eta_prefill``),
  ``s_o`` everything else (bandwidth shares, overheads, the all-reduce terms);
- ``--split host``: ``s_c`` scales every efficiency, ``s_o`` the fixed times (step, request,
  layer, TTFT and collective latencies).

``--second-dims`` limits the second speed's effects to some dimensions (e.g. ``engine``: host
work as a property of the engine only). Each case's figure is computed on a 9 x 9 grid of
speeds (x1/8 to x4; about a minute on one core, cached in /tmp), the fit is Gauss-Newton on the
bilinear log-log interpolant with Huber weights and ridge penalties, and the leave-one-level-out
folds are those of the shipped method. It prints the 12 cross-validated medians, their sum, the
cases beyond 2x in some fold and the in-sample medians, the figures METHOD.md quotes
("Two speeds per case: tried").

Run from the repository root::

    .venv/bin/python tests/validation/two_speed_experiment.py --split compute --ridge 3 10
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
from pathlib import Path

import numpy as np

from app.catalog.loader import default_catalog
from app.engine import cross_validation as cv
from app.engine.calibration import load_cases, predict
from app.engine.inference import Factors
from app.engine.uncertainty import DIMENSIONS
from app.report.accuracy import read_cases

GRID = np.geomspace(1 / 8, 4, 9)
LOG_GRID = np.log(GRID)
FIXED_TIMES = ("step_overhead_s", "sequence_overhead_s", "layer_overhead_s", "fixed_latency_s",
               "comm_latency_s")
ROUNDS = 25


def factors_at(ref: Factors, split: str, first: float, second: float) -> dict:
    if split == "host":
        return vars(ref.scaled(first)) | {k: getattr(ref, k) / second for k in FIXED_TIMES}
    return vars(ref.scaled(second)) | {"eta_decode": min(1.0, ref.eta_decode * first),
                                       "eta_prefill": min(1.0, ref.eta_prefill * first)}


def figures(split: str):
    """Cases, regimes and log figures on the speed grid (cached by the catalog and cases)."""
    catalog = default_catalog()
    raws = read_cases()
    key = hashlib.sha256(pickle.dumps((raws, split, repr(catalog.engines["generic"]),
                                       Path("app/engine/inference.py").read_bytes()))).hexdigest()
    cache = Path(f"/tmp/aisizer-two-speed-{key[:16]}.pkl")
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    cases, _ = load_cases(raws, catalog)
    ref = Factors.from_catalog(catalog.engines["generic"].factors, {})
    grid = np.array([[[predict(c, catalog, factors_at(ref, split, a, b)) for b in GRID]
                      for a in GRID] for c in cases])
    found = ([cv.regime_of(c, catalog) for c in cases], np.log(grid),
             np.log([c.measured for c in cases]))
    cache.write_bytes(pickle.dumps(found))
    return found


def interpolate(log_fig, rows, u, v):
    """Bilinear log figure at log speeds (u, v) and its two partial derivatives."""
    g = LOG_GRID
    u = np.clip(u, g[0], g[-1] - 1e-9)
    v = np.clip(v, g[0], g[-1] - 1e-9)
    a = np.clip(np.searchsorted(g, u) - 1, 0, len(g) - 2)
    b = np.clip(np.searchsorted(g, v) - 1, 0, len(g) - 2)
    du, dv = g[a + 1] - g[a], g[b + 1] - g[b]
    x, y = (u - g[a]) / du, (v - g[b]) / dv
    f00, f10 = log_fig[rows, a, b], log_fig[rows, a + 1, b]
    f01, f11 = log_fig[rows, a, b + 1], log_fig[rows, a + 1, b + 1]
    value = f00 * (1 - x) * (1 - y) + f10 * x * (1 - y) + f01 * (1 - x) * y + f11 * x * y
    return (value, ((f10 - f00) * (1 - y) + (f11 - f01) * y) / du,
            ((f01 - f00) * (1 - x) + (f11 - f10) * x) / dv)


class Model:
    def __init__(self, regimes, log_fig, log_meas, ridge, second_dims):
        self.regimes, self.log_fig, self.log_meas = regimes, log_fig, log_meas
        self.ridge, self.second_dims = ridge, second_dims

    def columns(self, regime, second=False):
        names = cv._columns(regime)
        if second and self.second_dims:
            names = [n for n in names if n[0] == "mu" or n[1] in self.second_dims]
        return names

    def design(self, rows, names, second):
        index = {n: k for k, n in enumerate(names)}
        x = np.zeros((len(rows), len(names)))
        for r, i in enumerate(rows):
            for n in self.columns(self.regimes[i], second):
                if n in index:
                    x[r, index[n]] = 1.0
        return x

    def fit(self, rows):
        names = sorted({n for i in rows for n in self.columns(self.regimes[i])})
        x1, x2 = self.design(rows, names, False), self.design(rows, names, True)
        penalty = np.array([{"mu": 1e-6, "a": self.ridge[0], "b": self.ridge[1]}[n[0]]
                            for n in names])
        penalty2 = np.where(x2.any(axis=0), penalty, 1e6)
        theta = np.zeros(2 * len(names))
        weights = np.ones(len(rows))
        rows = np.asarray(rows)
        k = len(names)
        for _ in range(ROUNDS):
            value, gu, gv = interpolate(self.log_fig, rows, x1 @ theta[:k], x2 @ theta[k:])
            residual = value - self.log_meas[rows]
            jac = np.hstack([x1 * gu[:, None], x2 * gv[:, None]])
            weighted = jac.T * weights
            pen = np.concatenate([penalty, penalty2])
            theta -= np.linalg.solve(weighted @ jac + np.diag(pen),
                                     weighted @ residual + pen * theta)
            weights = np.minimum(1.0, cv.HUBER_LOG / np.maximum(np.abs(residual), 1e-12))
        return names, theta

    def ratios(self, fitted, rows):
        names, theta = fitted
        rows = np.asarray(rows)
        x1, x2 = self.design(rows, names, False), self.design(rows, names, True)
        k = len(names)
        value, _, _ = interpolate(self.log_fig, rows, x1 @ theta[:k], x2 @ theta[k:])
        return np.exp(value - self.log_meas[rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("compute", "host"), default="compute")
    parser.add_argument("--ridge", nargs=2, type=float, default=(1.0, 3.0))
    parser.add_argument("--second-dims", default="", help="e.g. engine,gpu_family")
    args = parser.parse_args()
    regimes, log_fig, log_meas = figures(args.split)
    dims = tuple(d for d in args.second_dims.split(",") if d)
    model = Model(regimes, log_fig, log_meas, tuple(args.ridge), dims)
    rows = list(range(len(regimes)))
    left: dict[int, dict[str, float]] = {i: {} for i in rows}
    for d in DIMENSIONS:
        for level in sorted({r[d] for r in regimes}):
            kept = [i for i in rows if regimes[i][d] != level]
            out = [i for i in rows if regimes[i][d] == level]
            for i, ratio in zip(out, model.ratios(model.fit(kept), out), strict=True):
                left[i][d] = float(ratio)
    inside = model.ratios(model.fit(rows), rows)
    total = 0.0
    for d in DIMENSIONS:
        for metric in ("throughput", "decode", "ttft"):
            mine = [left[i][d] for i in rows if regimes[i]["metric_group"] == metric]
            median = 100 * float(np.median(np.abs(np.array(mine) - 1)))
            total += median
            print(f"{d:<13} {metric:<11} {median:5.1f} %")
    beyond = sum(1 for i in rows if max(max(x, 1 / x) for x in left[i].values()) > 2)
    print(f"sum {total:.1f}  beyond 2x {beyond} of {len(rows)}")
    for metric in ("throughput", "decode", "ttft"):
        mine = [inside[i] for i in rows if regimes[i]["metric_group"] == metric]
        print(f"in-sample {metric:<11} {100 * float(np.median(np.abs(np.array(mine) - 1))):5.1f} %")


if __name__ == "__main__":
    main()
