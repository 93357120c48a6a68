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

import collections
import dataclasses
import functools
import math
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

    def where(self, kept: np.ndarray) -> Points:
        """The points where ``kept`` is true."""
        return Points(self.concurrency[kept], self.batch[kept], self.itl_s[kept],
                      self.ttft_s[kept], self.output_tokens_per_s[kept])

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


def by_batch(replica: Replica, work: Workload, batch: np.ndarray,
             queued: bool = True) -> Points:
    """Operating points of a closed loop parametrised by the decode batch (Little's law
    solved for C).

    For a batch ``B`` the step time ``ITL(B)`` and the time to first token give
    ``X = B / (o * ITL)`` requests per second and ``C = X * (TTFT + o * ITL)`` users. The
    TTFT holds the wait of a prompt for the prefill of those ahead of it
    (:func:`prompt_queue_wait`); ``queued=False`` leaves it out (an open loop adds its own,
    :func:`open_loop`).
    """
    return _by_batch(replica, work, batch, queued)[0]


def _by_batch(replica: Replica, work: Workload, batch: np.ndarray,
              queued: bool) -> tuple[Points, np.ndarray]:
    """:func:`by_batch`'s points and the prefill side's load at each (:func:`prefill_load`;
    zero when not ``queued``)."""
    others = np.clip(1.0 - 1.0 / batch, 0.0, 1.0)
    itl = step_itl(replica, work, batch, others)
    alone = prefill_time(replica, work.prompt_tokens)
    ttft = ttft_under_load(replica, work, batch, itl, alone)
    decode_time = work.output_tokens * itl
    requests = batch / decode_time
    load = np.zeros_like(requests)
    if queued:
        load, wait = _prefill_queue(replica, work, batch, requests)
        ttft = ttft + wait
    users = requests * (ttft + decode_time)
    return Points(users, batch, itl, ttft, requests * work.output_tokens), load


#: Highest load of the prefill side a closed-loop point is given [-]: at 0.98 a prompt waits
#: 24.5 of its prefill services; beyond, the prompts the batch needs arrive faster than they
#: are prefilled, so that batch is not reached (the cap keeps ``C(B)`` finite and rising, and
#: a concurrency maps to a smaller batch).
MAX_PREFILL_LOAD = 0.98


def prompt_queue_wait(replica: Replica, work: Workload, batch: np.ndarray,
                      requests: np.ndarray) -> np.ndarray:
    """Mean wait of a closed loop's prompt for the prefill of the prompts ahead of it [s].

    ``X`` requests per second each hold the prefill side for ``S`` (:func:`prefill_service_s`
    at the batch), a load ``rho = X S``; the prompts of ``C`` users who each send the next
    request when the last ends arrive at random moments of each other's steps, taken as a
    Poisson stream, and wait the Pollaczek-Khinchine mean of one server of constant service,
    ``W = rho S / (2 (1 - rho))`` (M/D/1; L. Kleinrock, Queueing Systems, Vol. 1: Theory,
    Wiley 1975, ch. 5), the queue :func:`open_loop` puts the prompts of an open loop in. For
    ``C`` users the arrivals are a finite source, whose wait is at most the Poisson one
    (Kleinrock, ch. 3.10, the finite-source M/M/1//C): the safe side. ``rho`` is capped at
    :data:`MAX_PREFILL_LOAD`.
    """
    return _prefill_queue(replica, work, batch, requests)[1]


def prefill_load(replica: Replica, work: Workload, batch: np.ndarray,
                 requests: np.ndarray) -> np.ndarray:
    """Share of the time the prefill side is busy, ``rho = X S`` [-]: ``X`` requests per
    second at each batch, each prompt holding it for ``S`` (:func:`prefill_service_s`)."""
    return _prefill_queue(replica, work, batch, requests)[0]


def _prefill_queue(replica: Replica, work: Workload, batch: np.ndarray,
                   requests: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The prefill side's load and the prompts' wait (:func:`prefill_load`,
    :func:`prompt_queue_wait`), the service computed once."""
    service = prefill_service_s(replica, work, np.atleast_1d(np.asarray(batch, dtype=float)))
    load = np.asarray(requests, dtype=float) * service
    capped = np.minimum(load, MAX_PREFILL_LOAD)
    return load, capped * service / (2.0 * (1.0 - capped))


def coarse_batch_grid(cap: float) -> np.ndarray:
    """A short geometric grid of batches (for quick what-if evaluations) [-]."""
    whole = np.geomspace(1.0, max(cap, 1.0), 24) if cap > 1 else np.array([1.0])
    return np.concatenate([FRACTIONAL_BATCHES[::3], whole])


def closed_loop(replica: Replica, work: Workload, concurrency, batch_cap: float,
                coarse: bool = False) -> Points:
    """Operating points of a closed loop of ``concurrency`` users (Little's law).

    The batch that serves ``C`` users is found on the curve ``C(B)``; beyond the largest batch
    memory and the engine admit, the extra users queue and their wait adds to TTFT. So do they
    beyond the largest batch whose prompts the prefill side keeps up with (a load below
    :data:`MAX_PREFILL_LOAD`, :func:`prefill_load`): a larger batch would need prompts faster
    than they are prefilled.

    Parameters
    ----------
    concurrency : users with a request in flight (array) [-]
    batch_cap : most sequences that memory and the engine admit [-]
    coarse : find the batch on a short grid (levers); the point itself is still exact
    """
    users = np.atleast_1d(np.asarray(concurrency, dtype=float))
    grid = coarse_batch_grid(batch_cap) if coarse else batch_grid(batch_cap)
    curve, load = _by_batch(replica, work, grid, queued=True)
    kept = (load < MAX_PREFILL_LOAD) | (np.arange(len(grid)) == 0)
    curve = curve.where(kept)
    batch_cap = min(batch_cap, float(curve.batch[-1]))
    batch = np.interp(users, curve.concurrency, curve.batch, right=curve.batch[-1])
    batch = np.clip(batch, FRACTIONAL_BATCHES[0], batch_cap)
    points = by_batch(replica, work, batch)
    served = np.minimum(users, points.concurrency)
    requests = points.output_tokens_per_s / work.output_tokens
    queue_wait = (users - served) / requests
    return Points(users, batch, points.itl_s, points.ttft_s + queue_wait,
                  points.output_tokens_per_s)


#: Prompts a request-rate run sends when it does not say: ``vllm bench serve --num-prompts``
#: defaults to 1000 (vllm/benchmarks/serve.py) [-].
DEFAULT_RUN_PROMPTS = 1000.0


def prefill_service_s(replica: Replica, work: Workload,
                      batch: float | np.ndarray) -> float | np.ndarray:
    """Time one prompt holds the prefill side of the engine while ``batch`` sequences
    decode [s]: ``S = p x T_chunk / C``.

    With chunked prefill each step decodes the batch and fills the rest of the token budget,
    ``C = max(T - B, T x prefill_min_budget_share)`` tokens, with waiting prompts (vLLM's
    scheduler serves the running requests first, then the waiting ones in the budget left).
    A step carrying a full chunk takes ``T_chunk`` (:func:`inference.decode_step` with ``C``
    prefill tokens beside the batch), so prompts are served at ``C / T_chunk`` tokens per
    second and one prompt of ``p`` tokens holds that service for ``p x T_chunk / C``. Short
    prompts share a step; a long one spans ``p / C`` steps.

    ``batch`` is a number (the service is one) or an array (one service per batch).
    """
    budget = replica.max_batched_tokens
    b = np.maximum(np.asarray(batch, dtype=float), 1.0)
    room = np.maximum(budget - b, budget * replica.prefill_min_budget_share)
    micro = np.maximum(b / replica.pipeline_parallel, 1.0)
    step = decode_step(replica, np.atleast_1d(b), work.average_context,
                       np.atleast_1d(room / micro), work.prompt_tokens)
    service = work.prompt_tokens * step.itl / (room * replica.pipeline_parallel)
    return float(service[0]) if np.ndim(batch) == 0 else service


def erlang_c(servers: int, offered: float) -> float:
    """Probability that an arrival waits in an M/M/c queue (Erlang's C formula) [-].

    Erlang's B formula by its recursion ``B_0 = 1``, ``B_k = a B_(k-1) / (k + a B_(k-1))``
    (stable for thousands of servers), then ``C = B_c / (1 - rho (1 - B_c))`` with
    ``rho = a / c`` (Kleinrock, Queueing Systems Vol. 1, ch. 3).

    Parameters
    ----------
    servers : c [-]
    offered : offered load ``a = lambda / mu`` [Erlang], below ``c``
    """
    blocked = 1.0
    for k in range(1, servers + 1):
        blocked = offered * blocked / (k + offered * blocked)
    rho = offered / servers
    return blocked / (1.0 - rho * (1.0 - blocked))


def poisson_wait(arrival_rate: float, servers: float, service_s: float,
                 prompts: float) -> float:
    """Mean wait before service of requests arriving as a Poisson stream at ``c`` servers of
    constant service time ``S`` (M/D/c), in a run of ``N`` requests [s].

    - Steady state (``rho = lambda S / c < 1``): the M/M/c wait ``C(c, a) / (c / S - lambda)``
      (Erlang's C, :func:`erlang_c`) halved for constant service, the usual M/D/c
      approximation (H. C. Tijms, A First Course in Stochastic Models, Wiley 2003, ch. 5),
      exact for one server: the Pollaczek-Khinchine mean wait of M/D/1,
      ``W = rho S / (2 (1 - rho))`` (L. Kleinrock, Queueing Systems, Vol. 1: Theory, Wiley
      1975, ch. 5).
    - A run of ``N`` requests lasts ``N / lambda`` and cannot reach the steady state as
      ``rho -> 1``: the backlog it builds is a reflected Brownian motion (the heavy-traffic
      limit; J. M. Harrison, Brownian Motion and Stochastic Flow Systems, Wiley 1985) with
      the work's variance rate ``lambda (S / c)^2`` for Poisson arrivals and constant service,
      whose mean at time ``t`` with no drift is ``sigma sqrt(2 t / pi)``; averaged over the
      arrivals of the run, ``(2/3) (S / c) sqrt(2 (N - 1) / pi)`` (none for one request).
      The wait is the smaller of the two.
    - Beyond capacity (``rho >= 1``) the backlog also grows linearly (fluid approximation):
      request ``i`` arrives at ``i / lambda`` and starts at ``i S / c``, on average
      ``(N - 1) (S / c - 1 / lambda) / 2`` later; that is added to the critical wait.

    Parameters
    ----------
    arrival_rate : lambda [1/s]
    servers : c, whole servers (at least one) [-]
    service_s : S, constant service time per request and server [s]
    prompts : N, requests the run sends [-]
    """
    if arrival_rate <= 0 or service_s <= 0:
        return 0.0
    c = max(int(servers), 1)
    n = max(float(prompts), 1.0)
    offered = arrival_rate * service_s
    rho = offered / c
    critical = 2.0 / 3.0 * service_s / c * math.sqrt(2.0 * (n - 1.0) / math.pi)
    spare = c / service_s - arrival_rate  # service capacity left [1/s]
    if rho >= 1.0 or spare <= 0.0:
        return critical + (n - 1.0) * max(service_s / c - 1.0 / arrival_rate, 0.0) / 2.0
    return min(0.5 * erlang_c(c, offered) / spare, critical)


#: A run whose arrivals last this many request lifetimes is taken at its steady state (its
#: ramp-up and tail are under 2 % of it) [-].
STEADY_RUN_LIFETIMES = 50.0
#: Time steps a request's lifetime spans in :func:`finite_run`, and the most for a run [-].
STEPS_PER_LIFETIME = 16
MAX_RUN_STEPS = 800


def finite_run(curve: Points, work: Workload, arrival_rate: float, prompts: float,
               slots: float) -> tuple[float, float, float]:
    """Mean ITL [s], output rate [tokens/s] and mean decode batch [-] of a run of ``N``
    requests arriving at ``lambda`` (fluid approximation).

    The requests arrive for ``N / lambda`` seconds; each is admitted while fewer than
    ``slots`` decode, then advances one token per step of ``ITL(B)`` (``curve``, by batch)
    and leaves after ``o`` tokens. The batch ramps up from nothing, and past the replica's
    capacity it keeps growing while requests arrive instead of settling at
    ``B = lambda o ITL(B)``; it cannot exceed ``N``; after the last arrival it drains. The
    mean ITL is per token, ``integral B dt / integral B / ITL dt``; the output rate is the
    tokens made, ``integral B / ITL dt`` (``N o``), over the run; the mean batch is
    ``integral B dt`` over the run.
    """
    o = work.output_tokens
    n = max(float(prompts), 1.0)
    arriving_s = n / arrival_rate
    longest = o * float(np.max(curve.itl_s))
    dt = max(o * float(np.min(curve.itl_s)) / STEPS_PER_LIFETIME,
             (arriving_s + longest) / MAX_RUN_STEPS)
    # every admitted request advances by the same tokens per step, so a request admitted when
    # the run had made ``made`` tokens per request finishes when it has made ``made + o``
    cohorts: collections.deque[tuple[float, float]] = collections.deque()
    grid, steps = curve.batch, curve.itl_s  # arrays: np.interp converts a list at every call
    smallest = float(grid[0])
    waiting, arrived, elapsed, held, tokens, batch, made = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    while arrived < n or waiting > 1e-9 or batch > 1e-9:
        fresh = min(arrival_rate * dt, n - arrived)
        arrived += fresh
        waiting += fresh
        admit = min(waiting, max(slots - batch, 0.0))
        waiting -= admit
        if admit > 0:
            cohorts.append((admit, made))
            batch += admit
        itl = float(np.interp(max(batch, smallest), grid, steps))
        held += batch * dt
        tokens += batch * dt / itl
        elapsed += dt
        made += dt / itl
        while cohorts and made - cohorts[0][1] >= o:  # the oldest finish first
            batch -= cohorts.popleft()[0]
        batch = max(batch, 0.0)
        if elapsed > 100.0 * (arriving_s + longest):
            break  # a guard: the run always ends well before
    mean_itl = held / tokens if tokens > 0 else float(curve.itl_s[0])
    return mean_itl, tokens / elapsed, held / elapsed


def open_loop(replica: Replica, work: Workload, arrival_rate: float,
              batch_cap: float, prompts: float | None = None) -> Points:
    """Operating point for requests arriving at ``arrival_rate`` per second (Poisson).

    The decode batch satisfies ``B = lambda * o * ITL(B)``; below one sequence the lone
    request sees the single-user step. A request waits twice (:func:`poisson_wait`, for a run
    of ``prompts``, :data:`DEFAULT_RUN_PROMPTS` when not given): for a slot, the ``c =
    batch_cap`` sequences the replica decodes at most, each held for ``c / mu`` (``mu`` the
    most requests per second it completes, at that batch), an M/D/c queue; and, admitted, for
    the prefill of the prompts ahead of it, one server of :func:`prefill_service_s` per
    prompt, an M/D/1 queue. Beyond ``mu`` the output rate is ``mu``'s. A run whose arrivals
    last fewer than :data:`STEADY_RUN_LIFETIMES` request lifetimes never settles at the fixed
    point: its ITL, output rate and batch are those of :func:`finite_run`.
    """
    curve = by_batch(replica, work, batch_grid(batch_cap), queued=False)
    rates = curve.output_tokens_per_s / work.output_tokens
    wanted = arrival_rate * work.output_tokens * curve.itl_s[0]
    batch = np.array([max(float(np.interp(arrival_rate, rates, curve.batch)), 1.0)])
    points = by_batch(replica, work, np.minimum(batch, batch_cap), queued=False)
    load = min(wanted, 1.0)  # share of steps with another request's prefill mixed in
    itl = step_itl(replica, work, points.batch, np.array([load])) if batch[0] <= 1 else \
        points.itl_s
    served = float(np.max(rates)) if np.all(np.isfinite(rates)) else 0.0
    run = DEFAULT_RUN_PROMPTS if prompts is None else prompts
    slots = max(math.floor(float(curve.batch[-1])), 1)
    wait = poisson_wait(arrival_rate, 1, prefill_service_s(replica, work,
                                                           float(points.batch[0])), run)
    if served > 0:
        wait += poisson_wait(arrival_rate, slots, slots / served, run)
    else:
        served = arrival_rate  # no completion rate to compare with: the arrivals' own
    ttft = points.ttft_s + wait
    output = min(arrival_rate, served) * work.output_tokens
    lifetime = work.output_tokens * float(np.max(curve.itl_s))
    if batch[0] > 1 and run / min(arrival_rate, served) < STEADY_RUN_LIFETIMES * lifetime:
        mean_itl, output, mean_batch = finite_run(curve, work, arrival_rate, run, slots)
        itl, batch = np.array([mean_itl]), np.array([mean_batch])
    else:
        batch = points.batch
    users = output / work.output_tokens * (ttft + work.output_tokens * itl)
    return Points(users, batch, itl, ttft, np.array([output]))


def saturation_batch(kv_capacity: int, batch_limit: int, token_budget: int,
                     work: Workload) -> int:
    """Largest decode batch at saturation [-].

    Limited by the sequences the KV budget holds, the engine's batch limit, and the token
    budget per step that decode and the steady-state prefill share: ``B (1 + p/o) <= T``.
    """
    by_tokens = int(token_budget / (1.0 + work.prefill_ratio))
    return max(0, min(kv_capacity, batch_limit, max(by_tokens, 1)))


def saturation(replica: Replica, work: Workload, batch: int) -> Points:
    """Offline maximum throughput: every slot busy, prefill folded into the steps; its TTFT
    is that of a prompt arriving at that load (:func:`prompt_queue_wait` at the requests per
    second the slots complete)."""
    b = np.array([float(max(batch, 1))])
    itl = step_itl(replica, work, b)
    alone = prefill_time(replica, work.prompt_tokens)
    ttft = ttft_under_load(replica, work, b, itl, alone)
    ttft = ttft + prompt_queue_wait(replica, work, b, b / (itl * work.output_tokens))
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


def burst(replica: Replica, work: Workload, prompts: float, slots: float,
          steady_cap: float, varied: bool = False) -> Points:
    """Operating point of ``N`` requests sent at once ("all requests at once" benchmarks:
    ``vllm bench serve`` without a rate or a concurrency limit, ``trtllm-bench``) [-].

    The run has three phases (METHOD.md, "All requests at once"):

    - Ramp-up: the engine admits ``B = min(N, slots)`` requests and prefills their prompts in
      steps of its token budget ``T``: ``k = ceil(B p / T)`` steps taking
      :func:`inference.batch_prefill_time` together. The request whose prompt ends in step
      ``j`` has its first token then and decodes one token in each later step, so it spends
      ``min(k - j, o - 1)`` of its ``o - 1`` decode steps in ramp-up steps.
    - Steady phase: with ``N <= B`` every admitted request decodes together, the batch ``B``
      (pure decode steps); with ``N > B`` each finished request's slot goes to a waiting one
      whose prompt is mixed into the running steps, at the steady batch
      ``B_s = min(B, steady_cap)`` that the token budget sustains (:func:`saturation_batch`).
    - Tail: the last requests finish one after another and the batch shrinks to nothing. With
      one wave they finish in the order their prompts were prefilled, over ``k - 1`` steps;
      after a steady phase completions are spread evenly, so the last wave drains over ``o``
      steps. The tail's steps run at the mean batch over the tail, half the batch before it.

    Output tokens: ``B (1 + r)`` in ramp-up (``r`` the mean decode steps a request spends in
    it), ``B_s o / 2`` in the tail, the rest in the steady phase at ``B_s / ITL_s``. The run
    takes ``T_run`` = ramp-up + steady + tail; the output rate is ``N o / T_run``. TPOT (the
    benchmarks' mean over requests of ``(e2e - TTFT) / (o - 1)``) weighs the ramp-up steps a
    request decodes in against the steps after; TTFT is the mean over the requests: the first
    ``B`` get theirs during ramp-up (half of it on average), the others when a slot frees,
    evenly over the steady phase, plus their prompt's prefill beside the running batch
    (:func:`ttft_under_load`), plus the fixed latency.

    Parameters
    ----------
    prompts : requests sent at once, ``N`` [-]
    slots : most sequences admitted at once: the KV cache and the engine's batch limit [-]
    steady_cap : batch the token budget sustains while prompts keep arriving (batch_cap) [-]
    varied : the requests' output lengths vary about the mean ``o`` (a data set of recorded
        conversations, ShareGPT), taken as geometric (exponential): the tail is then the
        decay of the batch as requests end, ``B(t) = B e^(-t/o)`` until one is left
        (``o ln B`` steps), TPOT is the mean over lengths of each request's mean step
        (:func:`draining`, :func:`mean_tpot`), and slots free from the first step on
        (``B / o`` requests end in each), not after the first wave's ``o`` steps

    Returns one point: ``concurrency`` = ``batch`` = ``B``, ``itl_s`` (TPOT, the mean over
    requests), ``ttft_s`` (mean), ``output_tokens_per_s`` of the whole run.
    """
    n = float(max(prompts, 1.0))
    first = max(min(n, float(slots)), 1.0)
    ramp = _burst_ramp(replica, work, first)
    if n <= first:
        tpot, run_s = (_one_wave_draining if varied else _one_wave)(replica, work, first, ramp)
        ttft = ramp.seconds / 2 + replica.factors.fixed_latency_s
    else:
        tpot, ttft, run_s = _refilled(replica, work, n, first, steady_cap, varied, ramp)
    batch = np.array([first])
    return Points(batch, batch.copy(), np.array([tpot]),
                  np.array([ttft]),
                  np.array([n * work.output_tokens / run_s]))


@dataclasses.dataclass(frozen=True)
class _Ramp:
    """A burst's ramp-up: ``steps`` [-], the mean decode steps a request spends in it
    ``inside`` [-], its duration ``seconds`` [s] and ``step_s`` per step [s]."""

    steps: int
    inside: float
    seconds: float
    step_s: float


def _burst_ramp(replica: Replica, work: Workload, first: float) -> _Ramp:
    """Ramp-up of a burst whose first ``first`` requests are admitted together
    (:func:`burst`, "Ramp-up")."""
    decode_steps = max(work.output_tokens - 1.0, 0.0)
    ramp_steps, in_ramp = ramp_up(first, work.prompt_tokens, decode_steps,
                                  replica.max_batched_tokens)
    running = first * in_ramp / ramp_steps  # mean sequences decoding in a ramp-up step
    # each ramp-up step also decodes the running sequences: their attention (KV read) and
    # matrix multiplications add to the prefill chunk's time (its weights are read anyway)
    beside = decode_step(replica, max(running, 1.0), work.average_context)
    per_step = float(beside.kv_read[0] + beside.compute[0]) * min(running, 1.0)
    ramp_s = (batch_prefill_time(replica, first, work.prompt_tokens) + ramp_steps * per_step
              + first * in_ramp * float(replica.host_seconds(1.0)[0]))
    return _Ramp(ramp_steps, in_ramp, ramp_s, ramp_s / ramp_steps)


def _step(replica: Replica, work: Workload, batch: float, others: float = 0.0) -> float:
    return float(step_itl(replica, work, np.array([max(batch, 1.0)]), np.array([others]))[0])


def _one_wave_draining(replica: Replica, work: Workload, first: float,
                       ramp: _Ramp) -> tuple[float, float]:
    """TPOT [s] and run time [s] of one wave whose requests end one after another
    (geometric output lengths)."""
    o = work.output_tokens
    left = first * math.exp(-ramp.inside / o)  # still decoding when ramp-up ends
    steps_s = step_array(replica, work, draining(left, o))
    run_s = ramp.seconds + float(steps_s.sum())
    tpot = mean_tpot(np.concatenate([np.full(math.ceil(ramp.inside), ramp.step_s), steps_s]),
                     o)
    return tpot, run_s


def _one_wave(replica: Replica, work: Workload, first: float,
              ramp: _Ramp) -> tuple[float, float]:
    """TPOT [s] and run time [s] of one wave of requests of the same output length."""
    o = work.output_tokens
    decode_steps = max(o - 1.0, 0.0)
    full_steps = max(o - ramp.steps, 0.0)
    tail_steps = min(ramp.steps - 1.0, decode_steps)
    full_itl = _step(replica, work, first)
    tail_itl = _step(replica, work, first * tail_steps / (2 * ramp.steps))
    after_s = full_steps * full_itl + tail_steps * tail_itl
    after_itl = after_s / (full_steps + tail_steps) if full_steps + tail_steps else full_itl
    tpot = ((ramp.inside * ramp.step_s + (decode_steps - ramp.inside) * after_itl)
            / decode_steps if decode_steps else after_itl)
    return tpot, ramp.seconds + after_s


def _refilled(replica: Replica, work: Workload, n: float, first: float, steady_cap: float,
              varied: bool, ramp: _Ramp) -> tuple[float, float, float]:
    """TPOT [s], mean TTFT [s] and run time [s] of a burst of more requests than slots:
    ramp-up, the steady phase of refills, the tail (:func:`burst`)."""
    p, o = work.prompt_tokens, work.output_tokens
    decode_steps = max(o - 1.0, 0.0)
    steady = max(min(first, float(steady_cap)), 1.0)
    steady_itl = _step(replica, work, steady, 1.0)  # every refill's prompt is mixed in
    if varied:  # completions arrive at random; the last wave drains as lengths end
        tail_batches = draining(steady, o)
        tail_tokens = float(tail_batches.sum())
        tail_s = float(step_array(replica, work, tail_batches).sum())
    else:
        tail_tokens = steady * o / 2
        tail_s = o * _step(replica, work, steady / 2)
    ramp_tokens = first * (1.0 + ramp.inside)
    steady_s = max(n * o - ramp_tokens - tail_tokens, 0.0) * steady_itl / steady
    run_s = ramp.seconds + steady_s + tail_s
    first_tpot = ((ramp.inside * ramp.step_s + (decode_steps - ramp.inside) * steady_itl)
                  / decode_steps if decode_steps else steady_itl)
    tpot = (first * first_tpot + (n - first) * steady_itl) / n
    alone = prefill_time(replica, p)
    admitted = ttft_under_load(replica, work, np.array([steady]), np.array([steady_itl]),
                               alone)[0]
    # first slot frees: at once when lengths vary (1/o of the batch ends each step)
    opened = 0.0 if varied else min(max(o - ramp.steps, 0.0) * steady_itl, steady_s)
    wait = ramp.seconds + (opened + steady_s) / 2
    ttft = (first * (ramp.seconds / 2 + replica.factors.fixed_latency_s)
            + (n - first) * (wait + float(admitted))) / n
    return tpot, ttft, run_s


def draining(batch: float, mean_output: float) -> np.ndarray:
    """Sequences decoding in each step while ``batch`` requests of geometric output lengths
    (mean ``mean_output``) finish and none replaces them: ``B e^(-t/o)``, step by step until
    fewer than one is left (``o ln B`` steps) [-].

    A geometric length is memoryless, so the batch decays the same way whenever it starts:
    at the end of ramp-up or when the last waiting request is admitted.
    """
    steps = max(math.ceil(mean_output * math.log(max(batch, 1.0))), 1)
    return np.maximum(batch * np.exp(-np.arange(steps) / mean_output), 1.0)


def step_array(replica: Replica, work: Workload, batches: np.ndarray) -> np.ndarray:
    """Pure decode step time at each of ``batches`` [s]."""
    return step_itl(replica, work, batches, np.zeros_like(batches))


def mean_tpot(timeline: np.ndarray, mean_output: float) -> float:
    """Mean over requests of their mean step time, ``timeline`` being the steps every request
    lives through after its first token and output lengths ``L`` geometric with mean
    ``mean_output`` (``L >= 2``: a request of one token has no TPOT, the benchmarks drop it)
    [s].

    A request of ``L`` tokens spans the first ``L - 1`` steps; steps past the timeline's end
    take its last step's time.
    """
    longest = max(int(20 * mean_output), 2)
    if timeline.size < longest:
        timeline = np.concatenate([timeline, np.full(longest - timeline.size, timeline[-1])])
    lengths = np.arange(2, longest + 1)
    weights = (1.0 - 1.0 / mean_output) ** (lengths - 1) if mean_output > 1 else \
        np.eye(1, lengths.size).ravel()
    mean_step = np.cumsum(timeline)[lengths - 2] / (lengths - 1)
    return float(np.sum(weights * mean_step) / np.sum(weights))


def ramp_up(prompts: float, prompt_tokens: float, decode_steps: float,
            budget: float) -> tuple[int, float]:
    """Steps of a burst's ramp-up and the mean decode steps a request spends in it [-].

    ``prompts`` prompts of ``prompt_tokens`` tokens are prefilled in steps of ``budget``
    tokens; a request whose prompt ends in step ``j`` of ``k`` decodes one token in each later
    step (at most ``decode_steps``), and those tokens take their share of each step's budget:
    ``k = ceil((B p + B r) / T)`` with ``r`` the mean of ``min(k - j, o - 1)`` (solved by
    repeating the two, which settles in a few rounds).
    """
    steps = max(math.ceil(prompts * prompt_tokens / budget), 1)
    inside = 0.0
    for _ in range(4):
        inside = float(np.mean(np.minimum(np.arange(steps), decode_steps)))
        steps = max(math.ceil(prompts * (prompt_tokens + inside) / budget), 1)
    return steps, inside


def cohort_ttft(replica: Replica, work: Workload, prompts: float,
                whole_prompts: bool = False) -> float:
    """Mean TTFT of ``N`` requests that arrive together and are prefilled before any of them
    decodes [s] (a closed loop whose requests all have the same lengths runs in such waves:
    the users start together, finish together and send their next requests together).

    Notes
    -----
    The engine prefills the ``N P`` prompt tokens in steps of its token budget ``T``; a prompt
    gets its first token at the end of the step that holds its last token. With chunked
    prefill prompt ``i`` (1..N) ends in step ``ceil(i P / T)``; without it (``whole_prompts``:
    vLLM V0 for MLA models) a step holds ``max(floor(T / P), 1)`` whole prompts. The ``K``
    steps share :func:`inference.batch_prefill_time` of the whole cohort equally, so

        TTFT = fixed + prefill(N, P) * mean_i(step_i) / K.

    A cohort of one is the prompt alone (:func:`inference.prefill_time`).

    Parameters
    ----------
    replica : the configuration; ``max_batched_tokens`` is the budget ``T`` [tokens]
    work : the request shape (``prompt_tokens`` = ``P``) [tokens]
    prompts : requests that arrive together, ``N`` [-]
    whole_prompts : the engine does not split a prompt over steps
    """
    count = max(int(round(prompts)), 1)
    budget = float(replica.max_batched_tokens)
    index = np.arange(1, count + 1, dtype=float)
    if whole_prompts:
        per_step = max(math.floor(budget / work.prompt_tokens), 1)
        steps = np.ceil(index / per_step)
        # a step's weights are read once per step of whole prompts
        replica = dataclasses.replace(
            replica, max_batched_tokens=max(int(per_step * work.prompt_tokens), 1))
    else:
        steps = np.ceil(index * work.prompt_tokens / budget)
    total = batch_prefill_time(replica, float(count), work.prompt_tokens)
    return replica.factors.fixed_latency_s + total * float(np.mean(steps) / steps[-1])


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
