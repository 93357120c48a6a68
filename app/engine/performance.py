"""Step 4 operating points: one user, the scenario's concurrency, saturation, SLO capacity.

Continuous batching on a closed loop (METHOD.md, Step 4): ``C`` users each send a request,
wait for its ``o`` output tokens, and send the next. Little's law gives

    C = X * (TTFT + o * ITL),    B = X * o * ITL

with ``X`` requests per second and ``B`` sequences decoding together; prefill work of
``X * p`` tokens per second shares the GPU with decode (``p / o`` prefill tokens per decoded
token). The fixed point is solved numerically for arrays of ``C`` at once. When ``C`` exceeds
what memory and the batch limit admit, the extra users wait in a queue and their wait is
added to TTFT.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from app.domain.result import Band
from app.engine.inference import Replica, batch_prefill_time, decode_step, prefill_time


@dataclass(frozen=True)
class Workload:
    """Request shape of one replica's load [tokens]."""

    prompt_tokens: float
    output_tokens: float

    @property
    def average_context(self) -> float:
        """Mean tokens a decoding sequence holds: ``p + o/2``."""
        return self.prompt_tokens + self.output_tokens / 2

    @property
    def prefill_ratio(self) -> float:
        """Prefill tokens per decoded token under continuous batching: ``p / o``."""
        return self.prompt_tokens / self.output_tokens


@dataclass(frozen=True)
class Points:
    """Operating points for an array of concurrencies (all arrays)."""

    concurrency: np.ndarray
    batch: np.ndarray
    itl_s: np.ndarray
    ttft_s: np.ndarray
    output_tokens_per_s: np.ndarray

    @property
    def tokens_per_s_per_user(self) -> np.ndarray:
        return 1.0 / self.itl_s

    def shared(self) -> Points:
        """These points with read-only arrays, safe to keep in a cache and hand out."""
        for values in (self.concurrency, self.batch, self.itl_s, self.ttft_s,
                       self.output_tokens_per_s):
            values.flags.writeable = False
        return self

    def at(self, index: int) -> dict[str, float]:
        return {
            "concurrency": float(self.concurrency[index]),
            "batch": float(self.batch[index]),
            "itl_s": float(self.itl_s[index]),
            "ttft_s": float(self.ttft_s[index]),
            "output_tokens_per_s": float(self.output_tokens_per_s[index]),
        }


def step_itl(replica: Replica, work: Workload, batch: np.ndarray,
             others: np.ndarray | None = None) -> np.ndarray:
    """Decode step time with the prefill of the other users' requests mixed in [s]."""
    share = np.ones_like(batch) if others is None else others
    ratio = work.prefill_ratio * share
    return decode_step(replica, batch, work.average_context, ratio, work.prompt_tokens).itl


def ttft_under_load(replica: Replica, work: Workload, batch: np.ndarray,
                    itl: np.ndarray, alone: float) -> np.ndarray:
    """TTFT of a new request while ``batch`` sequences decode [s].

    Its prompt is processed in the token budget left beside the decoding sequences, one
    chunk per step (chunked prefill). Each chunk's step also decodes the batch, so the prompt
    takes its own prefill time plus one decode step of the batch per chunk; it is never
    faster than the steps it spans.
    """
    budget = replica.max_batched_tokens
    room = np.maximum(budget - batch, budget * replica.prefill_min_budget_share)
    steps = np.ceil(work.prompt_tokens / room)
    decoding = np.where(batch >= 1.0, batch, 0.0)
    decode_only = decode_step(replica, np.maximum(decoding, 1.0), work.average_context).itl
    shared = np.where(decoding > 0, steps * decode_only, 0.0)
    return np.maximum(alone + shared, replica.factors.fixed_latency_s + steps * itl)


FRACTIONAL_BATCHES = np.geomspace(0.01, 1.0, 12, endpoint=False)


def batch_grid(cap: float) -> np.ndarray:
    """Decode batch sizes up to ``cap``: below one (a user who spends part of each request
    in prefill), every size up to 64, then geometric [-]."""
    whole = concurrency_grid(cap) if cap >= 1 else np.array([1.0])
    return np.concatenate([FRACTIONAL_BATCHES, whole])


def by_batch(replica: Replica, work: Workload, batch: np.ndarray) -> Points:
    """Operating points parametrised by the decode batch (Little's law solved for C).

    For a batch ``B`` the step time ``ITL(B)`` and the time to first token give
    ``X = B / (o * ITL)`` requests per second and ``C = X * (TTFT + o * ITL)`` users.
    """
    others = np.clip(1.0 - 1.0 / batch, 0.0, 1.0)
    itl = step_itl(replica, work, batch, others)
    alone = prefill_time(replica, work.prompt_tokens)
    ttft = ttft_under_load(replica, work, batch, itl, alone)
    decode_time = work.output_tokens * itl
    requests = batch / decode_time
    users = requests * (ttft + decode_time)
    return Points(users, batch, itl, ttft, requests * work.output_tokens)


def coarse_batch_grid(cap: float) -> np.ndarray:
    """A short geometric grid of batches (for quick what-if evaluations) [-]."""
    whole = np.geomspace(1.0, max(cap, 1.0), 24) if cap > 1 else np.array([1.0])
    return np.concatenate([FRACTIONAL_BATCHES[::3], whole])


def closed_loop(replica: Replica, work: Workload, concurrency, batch_cap: float,
                coarse: bool = False) -> Points:
    """Operating points of a closed loop of ``concurrency`` users (Little's law).

    The batch that serves ``C`` users is found on the curve ``C(B)``; beyond the largest batch
    memory and the engine admit, the extra users queue and their wait adds to TTFT.

    Parameters
    ----------
    concurrency : users with a request in flight (array) [-]
    batch_cap : most sequences that memory and the engine admit [-]
    coarse : find the batch on a short grid (levers); the point itself is still exact
    """
    users = np.atleast_1d(np.asarray(concurrency, dtype=float))
    grid = coarse_batch_grid(batch_cap) if coarse else batch_grid(batch_cap)
    curve = by_batch(replica, work, grid)
    batch = np.interp(users, curve.concurrency, curve.batch, right=curve.batch[-1])
    batch = np.clip(batch, FRACTIONAL_BATCHES[0], batch_cap)
    points = by_batch(replica, work, batch)
    served = np.minimum(users, points.concurrency)
    requests = points.output_tokens_per_s / work.output_tokens
    queue_wait = (users - served) / requests
    return Points(users, batch, points.itl_s, points.ttft_s + queue_wait,
                  points.output_tokens_per_s)


def open_loop(replica: Replica, work: Workload, arrival_rate: float,
              batch_cap: float) -> Points:
    """Operating point for requests arriving at ``arrival_rate`` per second (Poisson).

    The decode batch satisfies ``B = lambda * o * ITL(B)``; below one sequence the lone
    request sees the single-user step.
    """
    curve = by_batch(replica, work, batch_grid(batch_cap))
    rates = curve.output_tokens_per_s / work.output_tokens
    wanted = arrival_rate * work.output_tokens * curve.itl_s[0]
    batch = np.array([max(float(np.interp(arrival_rate, rates, curve.batch)), 1.0)])
    points = by_batch(replica, work, np.minimum(batch, batch_cap))
    load = min(wanted, 1.0)  # share of steps with another request's prefill mixed in
    itl = step_itl(replica, work, points.batch, np.array([load])) if batch[0] <= 1 else \
        points.itl_s
    users = arrival_rate * (points.ttft_s + work.output_tokens * itl)
    return Points(users, points.batch, itl, points.ttft_s,
                  np.array([arrival_rate * work.output_tokens]))


def saturation_batch(kv_capacity: int, batch_limit: int, token_budget: int,
                     work: Workload) -> int:
    """Largest decode batch at saturation [-].

    Limited by the sequences the KV budget holds, the engine's batch limit, and the token
    budget per step that decode and the steady-state prefill share: ``B (1 + p/o) <= T``.
    """
    by_tokens = int(token_budget / (1.0 + work.prefill_ratio))
    return max(0, min(kv_capacity, batch_limit, max(by_tokens, 1)))


def saturation(replica: Replica, work: Workload, batch: int) -> Points:
    """Offline maximum throughput: every slot busy, prefill folded into the steps."""
    b = np.array([float(max(batch, 1))])
    itl = step_itl(replica, work, b)
    alone = prefill_time(replica, work.prompt_tokens)
    ttft = ttft_under_load(replica, work, b, itl, alone)
    return Points(b, b, itl, ttft, b / itl)


def at_low_end(points: Points, band: Band) -> Points:
    """The operating points at the pessimistic end of the expected range.

    Times at the high end (``Band.ttft_range`` for TTFT, ``Band.time_range`` for ITL: over
    ``band.ttft_low`` and ``band.low``), rates at the low end (``Band.speed_range``). The
    concurrency and batch of each point stay: a closed loop whose every time stretches by one
    factor keeps ``users = batch x (TTFT + o x ITL) / (o x ITL)``.

    Parameters
    ----------
    points : Points
        Expected operating points.
    band : Band
        Multipliers on the expected speed from the calibration's residuals [-].
    """
    return Points(points.concurrency, points.batch, band.time_range(points.itl_s)[1],
                  band.ttft_range(points.ttft_s)[1],
                  band.speed_range(points.output_tokens_per_s)[0])


def burst(replica: Replica, work: Workload, prompts: float, batch_cap: float) -> Points:
    """Operating point of ``N`` requests sent at once ("all requests at once" benchmarks:
    ``vllm bench serve`` without a rate or a concurrency limit, ``trtllm-bench``) [-].

    The engine admits ``B = min(N, cap)`` of them and prefills their prompts together
    (:func:`inference.batch_prefill_time`: the ramp-up). Then it decodes; each time a request
    finishes, a waiting one takes its slot and its prompt is prefilled in the running steps
    (chunked prefill), so while requests wait every step carries the steady mix of prefill
    (``1 - B / N`` of the saturation mix: none when all fit at once). The run takes
    ``T = prefill(B) + (N / B) o ITL``; the output rate is ``N o / T``, the mean TTFT half the
    first prefill, plus the mean wait for a slot, ``(N / B - 1) o ITL / 2``, plus the fixed
    latency.

    Returns one point: ``concurrency`` = ``batch`` = ``B``, ``itl_s``, ``ttft_s`` (mean),
    ``output_tokens_per_s`` of the whole run.
    """
    batch = np.array([float(max(min(prompts, batch_cap), 1.0))])
    prefill_s = batch_prefill_time(replica, float(batch[0]), work.prompt_tokens)
    mixed = np.array([max(1.0 - float(batch[0]) / prompts, 0.0)])
    itl = step_itl(replica, work, batch, mixed)
    waves = prompts / batch
    decode_s = waves * work.output_tokens * itl
    ttft = (prefill_s / 2 + np.maximum(waves - 1.0, 0.0) * work.output_tokens * itl / 2
            + replica.factors.fixed_latency_s)
    rate = prompts * work.output_tokens / (prefill_s + decode_s)
    return Points(batch, batch, itl, ttft, rate)


def slo_capacity(points: Points, ttft_target: float, speed_target: float) -> int:
    """Most concurrent users whose TTFT and tokens/s both meet the targets [-]."""
    ok = (points.ttft_s <= ttft_target) & (points.tokens_per_s_per_user >= speed_target)
    if not ok[0]:
        return 0
    failing = np.flatnonzero(~ok)
    last = (failing[0] - 1) if failing.size else len(ok) - 1
    return int(points.concurrency[last])


def concurrency_grid(upper: float) -> np.ndarray:
    """Every user count up to 64, then geometric steps up to ``upper`` [-].

    The grid depends only on ``int(upper)``; it is made once per value and shared
    (read-only): a Step 3 search asks for it some three hundred times.
    """
    return _concurrency_grid(max(int(upper), 1))


@functools.lru_cache(maxsize=1024)
def _concurrency_grid(upper: int) -> np.ndarray:
    head = np.arange(1, min(upper, 64) + 1, dtype=float)
    if upper <= 64:
        return read_only(head)
    tail = np.unique(np.round(np.geomspace(65, upper, 96)))
    return read_only(np.concatenate([head, tail]))


def read_only(values: np.ndarray) -> np.ndarray:
    """``values``, no longer writeable (a shared, cached array)."""
    values.flags.writeable = False
    return values
