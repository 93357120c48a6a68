"""Fit the serving-engine efficiency factors to the calibration cases.

Run from the repository root::

    .venv/bin/python tests/validation/fit_profiles.py [ENGINE ...]
    .venv/bin/python tests/validation/fit_profiles.py --family FAMILY ENGINE

``--family`` refits only that GPU family's four roofline efficiencies on the engine's cases
on that family, keeping the engine-wide latencies and the other families' tables (a kernel
change that touches one family's cases, e.g. TensorRT-LLM's TRITON MoE on Hopper).

For each engine it minimises Huber's loss on the log error (squared within x1.5) of every
case of that engine (every shipped case file, resources/calibration/calibration_cases*.json)
over the engine-wide latencies and, per GPU family that has cases, the four roofline
efficiencies, within
physical bounds. It prints the fitted TOML tables to paste into catalogs/engines.toml and the
residual summary. The fit is a coordinate descent in log space: slow (about a minute per
engine) but dependency-free.
"""

from __future__ import annotations

import json
import math
import sys

from app.catalog.loader import load_catalog
from app.domain.catalog import Catalog, EfficiencyFactors
from app.engine.calibration import load_cases, run_cases, summarise
from app.report.accuracy import read_cases

LATENCIES = ("step_overhead_s", "sequence_overhead_s", "layer_overhead_s", "fixed_latency_s",
             "comm_latency_s", "comm_efficiency")
ROOFLINE = ("eta_mem", "eta_kv", "eta_decode", "eta_prefill")
# What the cases of each engine can identify: llama.cpp's cases are single-stream decode at a
# short context and one prefill, so only the weight bandwidth share is fitted per family and the
# prefill efficiency engine-wide; the other factors keep their catalog values.
FITTED = {
    "llama.cpp": (LATENCIES[:3] + ("eta_prefill",), ("eta_mem",)),
    # vLLM's and SGLang's cases fix their latencies (TTFT at low load, the per-request step
    # cost) but not the four roofline efficiencies per family: fitted too, those run to their
    # bounds (Hopper eta_kv at 0.2, eta_decode at 0.9) and a handful of cases of one benchmark
    # decide a family (vLLM on Ada: 9 all-at-once runs of one model), which moves single-user
    # decode far from what such cases measure. The efficiencies stay the catalog's, and so do
    # the all-reduce terms (fitted, the link efficiency runs to its bound of 0.3, taking up
    # the MoE models' error on the tensor-parallel cases).
    "vllm": (LATENCIES[:4], ()),
    # SGLang's only TTFT cases (DeepSeek-R1 on SGLang 0.4.2) are dominated by queueing, so
    # they cannot identify its fixed latency either: it keeps the catalog's (vLLM's fitted
    # value, the same kind of Python API server in front of the scheduler).
    "sglang": (LATENCIES[:3], ()),
    # optimum-habana's cases (Intel's Gaudi 3 table) are all saturated static batches of FP8
    # models: they identify the compute efficiencies, not the per-step or TTFT latencies, and
    # not the bandwidth shares either (fitted, eta_mem and eta_kv run to their bound of 0.95):
    # those keep the generic profile's values.
    "optimum-habana": ((), ("eta_decode", "eta_prefill")),
}
DEFAULT_FITTED = (LATENCIES, ROOFLINE)
BOUNDS = {
    "eta_mem": (0.3, 0.95), "eta_kv": (0.2, 0.95), "eta_decode": (0.15, 0.9),
    "eta_prefill": (0.2, 0.9), "step_overhead_s": (1e-5, 0.02),
    "sequence_overhead_s": (1e-7, 2e-4),
    "layer_overhead_s": (1e-7, 2e-4), "fixed_latency_s": (1e-4, 0.1),
    "comm_latency_s": (1e-6, 1e-4), "comm_efficiency": (0.3, 0.95),
}


def with_factors(catalog: Catalog, engine: str, params: dict[tuple, float]) -> Catalog:
    """The catalog with ``engine``'s factors replaced by ``params``."""
    profile = catalog.engines[engine]
    base = {name: v for (scope, name), v in params.items() if scope == "*"}
    families = {}
    for (scope, name), value in params.items():
        if scope != "*":
            families.setdefault(scope, {})[name] = value
    updated = profile.model_copy(update={
        "factors": profile.factors.model_copy(update=base),
        "family_factors": {f: EfficiencyFactors(**v) for f, v in families.items()},
    })
    return catalog.model_copy(update={"engines": {**catalog.engines, engine: updated}})


#: Huber's loss on the log ratio beyond x1.5: a benchmark far off the rest (a queueing TTFT, an
#: early engine release) pulls the factors linearly, not quadratically.
HUBER_LOG = math.log(1.5)


def huber(residual: float) -> float:
    size = abs(residual)
    return size**2 if size <= HUBER_LOG else HUBER_LOG * (2 * size - HUBER_LOG)


def loss(catalog: Catalog, cases) -> float:
    return sum(huber(math.log(o.ratio)) for o in run_cases(cases, catalog))


def initial(catalog: Catalog, engine: str, families: set[str]) -> dict[tuple, float]:
    profile = catalog.engines[engine]
    engine_wide, per_family = FITTED.get(engine, DEFAULT_FITTED)
    factors = profile.factors.merged(catalog.engines["generic"].factors)
    # a multiplicative search cannot leave 0: start an unfitted overhead at its lower bound
    params = {("*", n): getattr(factors, n) or BOUNDS[n][0] for n in engine_wide}
    for family in families:
        factors = profile.factors_for(family)
        params.update({(family, n): getattr(factors, n) for n in per_family})
    return params


def fit(catalog: Catalog, engine: str, cases, rounds: int = 5) -> dict[tuple, float]:
    families = {catalog.gpus[c.gpu].family for c in cases}
    params = initial(catalog, engine, families)
    best = loss(with_factors(catalog, engine, params), cases)
    for step in (1.6, 1.25, 1.1, 1.04, 1.015)[:rounds]:
        for key in sorted(params):
            low, high = BOUNDS[key[1]]
            for factor in (step, 1 / step):
                while True:
                    trial = dict(params)
                    trial[key] = min(high, max(low, params[key] * factor))
                    value = loss(with_factors(catalog, engine, trial), cases)
                    if value >= best - 1e-9:
                        break
                    params, best = trial, value
        print(f"  step {step}: loss {best:.4f}", file=sys.stderr)
    return params


def as_toml(engine: str, params: dict[tuple, float]) -> str:
    lines = [f'[{json.dumps(engine)}.factors]']
    lines += [f"{n} = {v:.4g}" for (scope, n), v in sorted(params.items()) if scope == "*"]
    for family in sorted({s for s, _ in params if s != "*"}):
        lines.append(f'\n[{json.dumps(engine)}.family_factors.{family}]')
        lines += [f"{n} = {v:.4g}" for (s, n), v in sorted(params.items()) if s == family]
    return "\n".join(lines)


def main(engines: list[str], family: str | None = None) -> None:
    catalog = load_catalog(include_user=False)
    cases, _ = load_cases(read_cases(), catalog)
    for engine in engines or sorted({c.engine for c in cases}):
        mine = [c for c in cases if c.engine == engine]
        if family is not None:
            FITTED[engine] = ((), ROOFLINE)
            mine = [c for c in mine if catalog.gpus[c.gpu].family == family]
        print(f"fitting {engine} on {len(mine)} cases", file=sys.stderr)
        params = fit(catalog, engine, mine)
        catalog = with_factors(catalog, engine, params)
        print(as_toml(engine, params) + "\n")
    for group, row in summarise(run_cases(cases, catalog)).items():
        print(f"# {group}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--family"]:
        main(args[2:], args[1])
    else:
        main(args)
