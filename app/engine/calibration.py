"""Calibration: predict published measurements and report the errors.

A measurement ("case", ../shared/data/calibration_cases.json, copied to
resources/calibration/) names a model, formats, GPU, parallelism, engine, request shape, load and
one measured metric. :func:`normalise_case` maps its free-text fields to catalog ids;
:func:`predict` runs the same engine code the sizing uses; :func:`summarise` gives the
median and 90th-percentile absolute relative error per metric.

Metrics (conventions of the case file):

- ``output_throughput_total`` with no concurrency (offline, or Poisson QPS=INF): saturation
  output tokens/s of the whole configuration.
- ``itl_mean`` / ``ttft_mean`` [ms] under Poisson arrivals: open-loop operating point.
- ``ttft_batch1`` [ms]: one request alone, a pure prefill.
- ``decode_tokens_per_s_per_user``: one stream's generation speed.
- ``prefill_tokens_per_s``: prompt processing rate of one request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import Catalog
from app.engine.configuration import Choice, configure
from app.engine.evaluate import batch_cap, plan_memory, points_at, saturation_of
from app.engine.inference import decode_step, prefill_throughput, prefill_time
from app.engine.performance import Workload, open_loop
from app.engine.resolved import SizingError  # a ValueError whose Message the window shows
from app.i18n import msg

MODEL_PATTERNS = (
    (r"llama-3\.1-405b", "llama-3.1-405b"),
    (r"llama-3\.1-70b", "llama-3.1-70b"),
    (r"llama-3\.1-8b", "llama-3.1-8b"),
    (r"llama-3-70b", "llama-3-70b"),
    (r"llama-3-8b", "llama-3-8b"),
    (r"llama-2-70b|llama-70b", "llama-2-70b"),
    (r"llama-2-7b|llama-7b", "llama-2-7b"),
    (r"mixtral-8x7b", "mixtral-8x7b"),
    (r"mistral-7b", "mistral-7b"),
)
GPU_PATTERNS = (
    (r"gh200.*96", "gh200-96"),
    (r"h200", "h200-sxm"),
    (r"h100 pcie", "h100-pcie"),
    (r"h100", "h100-sxm"),
    (r"a100", "a100-sxm-80"),
    (r"l40s", "l40s"),
    (r"rtx 4090", "rtx-4090"),
    (r"rtx 4080", "rtx-4080"),
    (r"rtx 3090", "rtx-3090"),
)
PRECISIONS = {"fp8": "fp8", "fp16": "fp16", "f16": "fp16", "bf16": "bf16",
              "q4_k_m": "gguf-q4_k_m", "q4_0": "gguf-q4_0", "q8_0": "gguf-q8_0"}
ENGINES = (("tensorrt-llm", "tensorrt-llm"), ("llama.cpp", "llama.cpp"), ("vllm", "vllm"),
           ("sglang", "sglang"))
UNSTATED_PROMPT = 16  # llama.cpp 'tg' runs generate from an (almost) empty prompt
UNSTATED_OUTPUT = 512


@dataclass(frozen=True)
class Case:
    """A measurement in catalog terms."""

    id: str
    model: str
    weights: str
    kv_cache: str
    gpu: str
    tensor_parallel: int
    pipeline_parallel: int
    engine: str
    prompt_tokens: int
    output_tokens: int
    arrival_rate: float | None
    metric: str
    measured: float
    source: str


def _match(patterns, text: str, what: str) -> str:
    key = text.lower().replace(" ", "-") if what == "model" else text.lower()
    for pattern, value in patterns:
        if re.search(pattern, key):
            return value
    raise ValueError(f"no catalog {what} matches '{text}'")


def _precision(text: str) -> str:
    token = text.split()[0].lower()
    if token not in PRECISIONS:
        raise ValueError(f"unknown precision '{text}'")
    return PRECISIONS[token]


def _arrival_rate(concurrency) -> float | None:
    if isinstance(concurrency, str):
        match = re.search(r"qps=([0-9.]+)", concurrency.lower())
        return float(match.group(1)) if match else None
    return None


def normalise_case(raw: dict) -> Case:
    """Map one case of the case file to catalog ids (ValueError when it cannot)."""
    engine = next((eid for key, eid in ENGINES if key in raw["engine"].lower()), None)
    if engine is None:
        raise ValueError(f"unknown engine '{raw['engine']}'")
    return Case(
        id=raw["id"],
        model=_match(MODEL_PATTERNS, raw["model"], "model"),
        weights=_precision(raw["weights_precision"]),
        kv_cache=_precision(raw["kv_precision"]),
        gpu=_match(GPU_PATTERNS, raw["gpu"], "gpu"),
        tensor_parallel=int(raw["tp"]),
        pipeline_parallel=int(raw["pp"]),
        engine=engine,
        prompt_tokens=int(raw["isl"] or UNSTATED_PROMPT),
        output_tokens=int(raw["osl"] or UNSTATED_OUTPUT),
        arrival_rate=_arrival_rate(raw["concurrency"]),
        metric=raw["metric_name"],
        measured=float(raw["metric_value"]),
        source=raw["source"],
    )


def predict(case: Case, catalog: Catalog, overrides: dict[str, float] | None = None) -> float:
    """The engine's figure for the case's metric, in the case's unit."""
    model = catalog.model(case.model)
    choice = Choice(case.gpu, case.tensor_parallel, case.pipeline_parallel, case.weights,
                    case.kv_cache, case.engine)
    config = configure(catalog, model, choice, overrides)
    work = Workload(case.prompt_tokens, case.output_tokens)
    replica = config.replica
    metric = case.metric
    if metric == "ttft_batch1":
        return prefill_time(replica, case.prompt_tokens) * 1e3
    if metric == "prefill_tokens_per_s":
        return prefill_throughput(replica, case.prompt_tokens)
    if metric == "decode_tokens_per_s_per_user":
        return float(1.0 / decode_step(replica, 1.0, work.average_context).itl[0])
    plan = plan_memory(config, work, case.prompt_tokens + case.output_tokens)
    if metric in ("output_throughput_total", "output_throughput_per_gpu"):
        if case.arrival_rate is not None:
            point = open_loop(replica, work, case.arrival_rate, batch_cap(config, plan, work))
        else:
            point = saturation_of(config, plan, work)
        total = float(point.output_tokens_per_s[0])
        return total / replica.gpus if metric.endswith("per_gpu") else total
    if case.arrival_rate is None:
        raise ValueError(f"{case.id}: {metric} needs an arrival rate")
    point = open_loop(replica, work, case.arrival_rate, batch_cap(config, plan, work))
    if metric in ("itl_mean", "tpot_mean"):
        return float(point.itl_s[0]) * 1e3
    if metric == "ttft_mean":
        return float(point.ttft_s[0]) * 1e3
    raise ValueError(f"{case.id}: unknown metric '{metric}'")


METRIC_GROUPS = {
    "output_throughput_total": "saturation throughput",
    "output_throughput_per_gpu": "saturation throughput",
    "decode_tokens_per_s_per_user": "single-user decode",
    "itl_mean": "single-user decode",
    "tpot_mean": "single-user decode",
    "ttft_batch1": "TTFT",
    "ttft_mean": "TTFT",
    "prefill_tokens_per_s": "TTFT",
}


@dataclass(frozen=True)
class Outcome:
    case: Case
    predicted: float

    @property
    def ratio(self) -> float:
        return self.predicted / self.case.measured

    @property
    def error(self) -> float:
        """Absolute relative error [-]."""
        return abs(self.ratio - 1.0)

    @property
    def group(self) -> str:
        return METRIC_GROUPS.get(self.case.metric, self.case.metric)


def run_cases(cases: list[Case], catalog: Catalog,
              overrides: dict[str, float] | None = None) -> list[Outcome]:
    """Predict every case."""
    return [Outcome(case, predict(case, catalog, overrides)) for case in cases]


def summarise(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Median, 90th percentile and worst absolute error and worst ratio per metric group."""
    summary: dict[str, dict[str, float]] = {}
    for group in sorted({o.group for o in outcomes}):
        errors = np.array([o.error for o in outcomes if o.group == group])
        ratios = np.array([o.ratio for o in outcomes if o.group == group])
        summary[group] = {
            "cases": float(len(errors)),
            "median_abs_error": float(np.median(errors)),
            "p90_abs_error": float(np.percentile(errors, 90)),
            "max_abs_error": float(errors.max()),
            "worst_factor": float(np.max(np.maximum(ratios, 1 / ratios))),
        }
    return summary


MEASURABLE = ("itl_s", "tokens_per_s_per_user", "output_tokens_per_s", "ttft_s")


def predicted_at(config_for, metric: str, concurrency: float, speed: float) -> float:
    """The engine's ``metric`` at ``concurrency`` with every efficiency scaled by ``speed``."""
    config, plan, work = config_for(speed)
    point = points_at(config, plan, work, [concurrency])
    values = {"itl_s": point.itl_s[0], "tokens_per_s_per_user": 1 / point.itl_s[0],
              "output_tokens_per_s": point.output_tokens_per_s[0], "ttft_s": point.ttft_s[0]}
    return float(values[metric])


def speed_for_measurement(config_for, metric: str, measured: float, concurrency: float,
                          low: float = 0.2, high: float = 5.0) -> float:
    """The factor on every efficiency that reproduces a measurement (bisection, log scale).

    ``config_for(speed)`` returns (configuration, memory plan, workload) with the engine's
    factors scaled by ``speed``. Times fall and rates rise with speed; the result is clipped
    to [low, high] when the measurement is outside what scaling can reach.
    """
    if metric not in MEASURABLE:
        raise SizingError(msg("metric '{metric}' cannot be calibrated; choose one of {choices}",
                              metric=metric, choices=str(MEASURABLE)))
    if measured <= 0:
        raise SizingError(msg("measured {metric} must be positive, got {measured}",
                              metric=metric, measured=measured))
    rising = metric in ("tokens_per_s_per_user", "output_tokens_per_s")
    for _ in range(40):
        middle = (low * high) ** 0.5
        value = predicted_at(config_for, metric, concurrency, middle)
        too_slow = value < measured if rising else value > measured
        low, high = (middle, high) if too_slow else (low, middle)
    return (low * high) ** 0.5
