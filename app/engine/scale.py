"""Step 5 of the method: replicas for load and availability, nodes, cold start, and what
still serves when a node or a rack fails.

METHOD.md, Step 5: replicas for load are ``ceil(users / SLO capacity)`` online and
``ceil(required tokens/s / (saturation throughput x utilisation))`` for batch jobs.
Redundancy is counted in nodes, the unit that fails: N+1 keeps the load served with one
node lost, 2N doubles the nodes; both need at least two nodes. A rack is the larger failure
domain: the infrastructure sizing fills racks with nodes in order (by space and the rack
power limit), and the replicas are spread across those racks as evenly as the nodes allow.

Planning on the safe side (conservative, the default): the SLO capacity and the batch
throughput that size the replicas are taken at the low end of the expected range
(:class:`Capacities`, :func:`planned_rate`); planning at the expected figures takes them as
expected.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import ServerSpec
from app.domain.result import Band, RackResult
from app.engine.performance import Points, at_low_end, slo_capacity

SECONDS_PER_DAY = 86_400.0
SECONDS_PER_HOUR = 3_600.0


@dataclass(frozen=True)
class NodePlan:
    """How replicas land on servers."""

    server: ServerSpec
    replicas_per_node: int
    nodes_per_replica: int
    nodes_for_load: int
    nodes: int
    replicas: int

    @property
    def gpus(self) -> int:
        """GPU slots in all nodes [-]."""
        return self.nodes * self.server.gpu_count


PLAN_AT = ("conservative", "expected")


@dataclass(frozen=True)
class Capacities:
    """Most users one replica serves within both targets, at the expected figures and at the
    low end of the expected range [-] (METHOD.md, Step 5, "Planning on the safe side"), and
    the most sequences one replica holds at peak context, whatever the targets [-]
    (``holds``: memory and the engine's batch limit; what the load is sized by when no
    load meets the targets, :func:`replicas_for_load`)."""

    expected: int
    conservative: int
    holds: int = 0

    @property
    def low_end_misses(self) -> bool:
        """The low end misses a target even for one user while the expected figures do not:
        more replicas cannot fix it."""
        return self.conservative < 1 <= self.expected

    def planned(self, plan_at: str) -> int:
        """The capacity the load is sized by [-]: the low end's when planning conservatively,
        unless it misses even for one user (then the expected one, and the verdict and the
        levers say so); the expected one when planning at the expected figures."""
        if plan_at == "conservative" and not self.low_end_misses:
            return self.conservative
        return self.expected

    def verdict_capacity(self, plan_at: str) -> int:
        """The capacity a candidate is judged by [-]: the end of the range it is planned at."""
        return self.conservative if plan_at == "conservative" else self.expected


def capacities(curve: Points, band: Band, ttft_target: float, speed_target: float,
               most: int) -> Capacities:
    """SLO capacity of one replica at both ends of planning (the one rule; Step 3 ranks
    candidates by it, Step 5 sizes by it).

    Expected: :func:`~app.engine.performance.slo_capacity` of ``curve``; conservative: of
    the same curve at the low end of the range (:func:`~app.engine.performance.at_low_end`),
    so the slowest figures the range allows still meet the targets. Both at most ``most``.

    Parameters
    ----------
    curve : Points
        Expected operating points by decode batch.
    band : Band
        Multipliers on the expected speed [-].
    ttft_target : float
        Time to first token [s].
    speed_target : float
        Tokens per second each user sees [tokens/s].
    most : int
        Sequences at peak context memory and the batch limit admit [-].
    """
    expected = slo_capacity(curve, ttft_target, speed_target)
    low = slo_capacity(at_low_end(curve, band), ttft_target, speed_target)
    return Capacities(min(expected, most), min(low, most), max(most, 0))


def plan_margin(curve: Points, band: Band, ttft_target: float, speed_target: float,
                users_per_replica: int, plan_at: str) -> float | None:
    """How much slower than the figures it is sized by the plan may run and still meet both
    targets at its load [-] (0.03: 3 % slower still meets them, a slower run needs more
    replicas; METHOD.md, Step 5, "How close a plan is to one more replica").

    At ``users_per_replica`` (the load over the replicas it needs, rounded up) the figures
    the plan is sized by (the low end of the range when conservative, else the expected
    ones: :func:`~app.engine.performance.at_low_end`) give a speed per user and a TTFT; a
    run slower by a factor ``k`` divides the speed and multiplies the TTFT by ``k``, so the
    targets hold up to ``k = min(speed / speed target, TTFT target / TTFT)``; the margin is
    ``k - 1``. None without a load of users or where the curve does not reach it.

    A plan whose margin is a few per cent sits at a boundary: a refit of the calibration
    that lowers the range's low end by that much adds a replica. The figure lets a reader
    tell such a plan from a robust one.
    """
    if users_per_replica < 1 or curve.concurrency.size == 0:
        return None
    at = at_low_end(curve, band) if plan_at == "conservative" else curve
    reached = np.flatnonzero(at.concurrency >= users_per_replica)
    if reached.size == 0:
        return None
    i = int(reached[0])
    speed = float(at.tokens_per_s_per_user[i])
    ttft = float(at.ttft_s[i])
    return min(speed / speed_target, ttft_target / ttft if ttft > 0 else math.inf) - 1.0


def planned_rate(saturation_tokens_per_s: float, band: Band, plan_at: str) -> float:
    """Output rate of one replica a batch job is sized by [tokens/s]: the low end of the
    range (``band.low x saturation``) when planning conservatively, else the expected."""
    if plan_at == "conservative":
        return band.speed_range(saturation_tokens_per_s)[0]
    return saturation_tokens_per_s


MAX_REPLICAS = 1_000_000
"""The most replicas a plan may have [-]: beyond every cluster built (the largest hold a few
hundred thousand GPUs); a load beyond it is refused with a message, not planned node by
node."""


def replicas_for_load(users: int | None, capacity_per_replica: int, holds: int = 0) -> int:
    """Replicas an online load needs [-] (METHOD.md, Step 5).

    ``ceil(users / SLO capacity per replica)`` when some load meets both targets. When none
    does on the configuration (capacity 0), more replicas cannot make it meet them, but the
    load must still be carried: the replicas are ``ceil(users / holds)``, the fewest whose
    memory holds every request in flight at peak context, so the plan (and its capital)
    follows the load while the verdict says by how much the targets are missed. ``holds``
    below one (not even one request fits one replica) or unknown, and ``users`` None ('max',
    the saturation point), give one replica: the verdict then says it does not fit.

    The one place of the rule: Step 3 ranks candidates by it, Step 5 sizes by it.

    Parameters
    ----------
    users : int or None
        Requests in flight at peak (concurrent users) [-]; None for 'max'.
    capacity_per_replica : int
        Most users one replica serves within both targets [-].
    holds : int, optional
        Most sequences one replica holds at peak context (memory and the batch limit) [-];
        used only when ``capacity_per_replica`` is below one.
    """
    if users is None:
        return 1
    if capacity_per_replica >= 1:
        return math.ceil(users / capacity_per_replica)
    if holds >= 1:
        return math.ceil(users / holds)
    return 1


def request_time_s(ttft_s: float, output_tokens: int, tokens_per_s_per_user: float) -> float:
    """Time one request is in flight when served at the targets [s]: ``TTFT + output tokens /
    generation speed`` (the longest a request may take and still meet both)."""
    return ttft_s + output_tokens / tokens_per_s_per_user


def requests_in_flight(active_users: float, request_s: float,
                       requests_per_user_per_minute: float | None = None,
                       think_time_s: float | None = None) -> int:
    """Requests in flight at the busiest hour from an activity model [-] (Little's law).

    Little's law ``L = lambda x W`` (J. D. C. Little, "A Proof for the Queuing Formula
    L = lambda W", Operations Research 9(3), 1961): the requests in flight are the arrival rate
    times the time each stays. With a request rate per active user, ``lambda = active users x
    requests per minute / 60`` and ``W`` = ``request_s``. With a think time ``Z`` instead,
    each active user alternates a request of ``W`` and ``Z`` of reading and typing (the
    interactive response-time law, Little's law on the closed loop), so
    ``L = active users x W / (W + Z)``. Never more than the active users (one request each
    at a time), at least one; rounded up.

    Parameters
    ----------
    active_users : float
        Users active at the busiest hour (named users x share active) [-].
    request_s : float
        Time a request is in flight (:func:`request_time_s`) [s].
    requests_per_user_per_minute : float, optional
        Requests each active user sends per minute [1/min].
    think_time_s : float, optional
        Time between the end of an answer and the next request [s]; used when no rate is
        given.
    """
    if requests_per_user_per_minute is not None:
        in_flight = active_users * requests_per_user_per_minute / 60.0 * request_s
    else:
        in_flight = active_users * request_s / (request_s + (think_time_s or 0.0))
    return max(1, math.ceil(min(in_flight, active_users) - 1e-9))


def batch_rate(tokens_per_day: float | None, requests_per_hour: float | None,
               output_tokens: int, window_hours: float) -> float:
    """Output tokens per second a batch job needs [tokens/s].

    ``tokens_per_day`` must finish inside the completion window; ``requests_per_hour`` is a
    steady stream of requests of ``output_tokens`` each.
    """
    if tokens_per_day:
        return tokens_per_day / (window_hours * SECONDS_PER_HOUR)
    if requests_per_hour:
        return requests_per_hour * output_tokens / SECONDS_PER_HOUR
    return 0.0


def replicas_for_rate(rate: float, saturation_tokens_per_s: float, utilisation: float) -> int:
    """Batch: ``ceil(rate / (saturation throughput x utilisation))`` (at least one) [-]."""
    return max(1, math.ceil(rate / (saturation_tokens_per_s * utilisation)))


def batch_completion_hours(rate: float, window_hours: float, replicas: int,
                           saturation_tokens_per_s: float) -> float:
    """Hours a batch volume takes on ``replicas`` running at saturation [h].

    ``rate x window / (replicas x saturation throughput)``: the volume the window must
    finish (``rate`` over ``window_hours``) over what the replicas produce.

    Parameters
    ----------
    rate : float
        Output tokens per second the job needs to finish in its window [tokens/s].
    window_hours : float
        The completion window [h].
    replicas : int
        Replicas working on the job [-].
    saturation_tokens_per_s : float
        Output rate of one replica at saturation [tokens/s].
    """
    return rate * window_hours / (replicas * saturation_tokens_per_s)


def weights_bytes_per_node(weights_bytes: float, replicas_per_node: int,
                           nodes_per_replica: int) -> float:
    """Weights one node loads at a cold start [B].

    Every replica on the node loads its own copy; a replica spanning nodes loads its share
    on each (``weights / nodes per replica``).
    """
    if nodes_per_replica > 1:
        return weights_bytes / nodes_per_replica
    return weights_bytes * max(replicas_per_node, 1)


def autoscale_min_replicas(redundancy: str, replicas: int) -> int:
    """Fewest replicas an autoscaler should keep [-]: one without redundancy, else two (so
    that one failure leaves one serving), never more than the plan has."""
    floor = 1 if redundancy == "none" else min(2, replicas)
    return max(floor, 1)


def survivors(replicas: int, nodes: int) -> int:
    """Replicas left when the fullest node fails, replicas spread evenly over nodes [-]."""
    return replicas - math.ceil(replicas / nodes)


def replicas_surviving(load: int, nodes: int, per_node: int) -> int | None:
    """Fewest replicas on ``nodes`` nodes that still carry ``load`` with one node down."""
    for replicas in range(load, nodes * per_node + 1):
        if survivors(replicas, nodes) >= load:
            return replicas
    return None


def replica_packing(gpus_per_replica: int, gpus_per_node: int) -> tuple[int, int]:
    """(replicas per node, nodes per replica) of replicas of ``gpus_per_replica`` GPUs on
    nodes of ``gpus_per_node`` [-]: ``floor(node / replica)`` replicas share a node, and a
    replica larger than a node spans ``ceil(replica / node)`` whole nodes (0 per node)."""
    if gpus_per_replica > gpus_per_node:
        return 0, math.ceil(gpus_per_replica / gpus_per_node)
    return gpus_per_node // gpus_per_replica, 1


def plan_nodes(server: ServerSpec, gpus_per_replica: int, replicas_for_load: int,
               redundancy: str) -> NodePlan:
    """Pack replicas onto ``server`` nodes and add what availability needs.

    N+1: the fewest nodes and replicas (spread evenly) such that losing any one node still
    leaves the load served; 2N: twice the nodes and replicas of the load; both at least two
    nodes. A replica larger than a node spans whole nodes and is the unit of failure.
    """
    per_node, span = replica_packing(gpus_per_replica, server.gpu_count)
    if span > 1:
        extra = {"none": 0, "n+1": 1, "2n": replicas_for_load}[redundancy]
        replicas = replicas_for_load + extra
        return NodePlan(server, 0, span, replicas_for_load * span, replicas * span, replicas)
    load_nodes = math.ceil(replicas_for_load / per_node)
    if redundancy == "none":
        return NodePlan(server, per_node, 1, load_nodes, load_nodes, replicas_for_load)
    if redundancy == "2n":
        nodes = max(2 * load_nodes, 2)
        return NodePlan(server, per_node, 1, load_nodes, nodes, 2 * replicas_for_load)
    nodes = max(load_nodes + 1, 2)
    replicas = replicas_surviving(replicas_for_load, nodes, per_node)
    while replicas is None:
        nodes += 1
        replicas = replicas_surviving(replicas_for_load, nodes, per_node)
    return NodePlan(server, per_node, 1, load_nodes, nodes, replicas)


def filled(plan: NodePlan) -> NodePlan:
    """The plan with every GPU slot of a system sold with its GPUs in use.

    A DGX/HGX, OAM or rack-scale system (``price_includes_gpus``) cannot be bought with
    fewer GPUs than it holds, so its empty slots take more replicas: ``nodes x replicas per
    node`` replicas on nodes that hold whole replicas (more capacity and headroom at no extra
    capital). A server priced without its GPUs keeps only the GPUs its replicas need (the
    BOM lists the GPUs each holds); replicas that span nodes fill them already.
    """
    if not plan.server.price_includes_gpus or plan.replicas_per_node < 1:
        return plan
    return NodePlan(plan.server, plan.replicas_per_node, 1, plan.nodes_for_load, plan.nodes,
                    max(plan.replicas, plan.nodes * plan.replicas_per_node))


def slots_idle(plan: NodePlan, gpus_per_replica: int) -> int:
    """GPU slots the availability plan leaves without a replica, before :func:`filled`
    [-]: what a larger server wastes against a smaller one."""
    return plan.nodes * plan.server.gpu_count - plan.replicas * gpus_per_replica


def choose_server(servers: list[ServerSpec], gpus_per_replica: int, replicas: int,
                  redundancy: str,
                  capital: Callable[[NodePlan], tuple[bool, float]] | None = None) -> NodePlan:
    """The server that leaves the fewest GPU slots idle (:func:`slots_idle`), then costs the
    least (``capital(plan)``: (price missing, USD), a server with a price before one
    without), then needs the fewest nodes, then draws the least at nameplate; its plan
    :func:`filled`.
    """
    plans = [plan_nodes(s, gpus_per_replica, replicas, redundancy) for s in servers]

    def key(plan: NodePlan) -> tuple:
        cost = capital(filled(plan)) if capital else (False, 0.0)
        return (slots_idle(plan, gpus_per_replica), cost, plan.nodes,
                plan.nodes * plan.server.max_power_w)

    return filled(min(plans, key=key))


def cold_start_s(weights_bytes_per_node: float, read_bytes_per_s: float,
                 load_efficiency: float, engine_start_s: float) -> float:
    """Time for a node to load its weights and start serving [s].

    ``weights on the node / (tier read bandwidth x load efficiency) + engine start``.
    """
    return weights_bytes_per_node / (read_bytes_per_s * load_efficiency) + engine_start_s


def surviving_replicas(plan: NodePlan) -> int:
    """Replicas that still serve when the fullest node (or one spanning replica) fails."""
    return replicas_after_node_failure(plan.replicas, plan.nodes, plan.nodes_per_replica)


def replicas_after_node_failure(replicas: int, nodes: int, nodes_per_replica: int) -> int:
    """Replicas left when the fullest node fails [-].

    Replicas spread evenly over nodes lose ``ceil(replicas / nodes)``; a replica that spans
    nodes (``nodes_per_replica > 1``) is lost whole with any of its nodes.
    """
    if nodes_per_replica > 1:
        return replicas - 1
    return survivors(replicas, nodes)


# --------------------------------------------------------------------------- rack failure


def replicas_per_rack(replicas: int, nodes_per_rack: Sequence[int]) -> list[int]:
    """Replicas each rack holds, spread evenly over nodes and across racks [-].

    Every node holds ``floor(R / N)`` or ``ceil(R / N)`` replicas, as for a node failure;
    the ``R mod N`` nodes that hold one more go, one at a time, to the rack that holds the
    fewest replicas so far (what a rack-level topology spread constraint does). This
    minimises the replicas of the fullest rack for that node spread.
    """
    base, extra = divmod(replicas, sum(nodes_per_rack))
    held = [n * base for n in nodes_per_rack]
    room = list(nodes_per_rack)
    # the rack with the fewest replicas (the first of equals) among those with a node left,
    # from a heap: O(extra log racks), where a scan per replica made 300,000 replicas take
    # minutes
    open_racks = [(held[i], i) for i, free in enumerate(room) if free]
    heapq.heapify(open_racks)
    for _ in range(extra):
        _, rack = heapq.heappop(open_racks)
        held[rack] += 1
        room[rack] -= 1
        if room[rack]:
            heapq.heappush(open_racks, (held[rack], rack))
    return held


def replicas_touching_racks(nodes_per_replica: int, nodes_per_rack: Sequence[int]) -> list[int]:
    """Replicas with at least one node in each rack, for replicas that span nodes [-].

    A replica takes ``nodes_per_replica`` consecutive nodes and nodes fill racks in order,
    so a rack holding nodes ``a .. b`` touches replicas ``a // s .. b // s``.
    """
    touched, first = [], 0
    for count in nodes_per_rack:
        last = first + count - 1
        touched.append(last // nodes_per_replica - first // nodes_per_replica + 1)
        first += count
    return touched


def replicas_after_rack_failure(replicas: int, nodes_per_replica: int,
                                nodes_per_rack: Sequence[int]) -> int:
    """Replicas left when the rack holding the most replicas fails [-].

    ``replicas - max over racks of the replicas with a node in the rack``: replicas spread
    evenly over nodes and across racks (:func:`replicas_per_rack`); a replica spanning nodes
    is lost with any of them (:func:`replicas_touching_racks`). One rack leaves nothing.
    """
    if nodes_per_replica > 1:
        lost = replicas_touching_racks(nodes_per_replica, nodes_per_rack)
    else:
        lost = replicas_per_rack(replicas, nodes_per_rack)
    return max(replicas - max(lost), 0)


def nodes_per_compute_rack(racks: Sequence[RackResult]) -> list[int]:
    """Nodes in each compute rack of the infrastructure sizing, in rack order [-]."""
    return [len(rack.items) for rack in racks if rack.kind == "compute"]
