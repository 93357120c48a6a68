"""Step 5 of the method: replicas for load and availability, nodes, cold start.

METHOD.md, Step 5: replicas for load are ``ceil(users / SLO capacity)`` online and
``ceil(required tokens/s / (saturation throughput x utilisation))`` for batch jobs.
Redundancy is counted in nodes, the unit that fails: N+1 keeps the load served with one
node lost, 2N doubles the nodes; both need at least two nodes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import ServerSpec

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


def replicas_for_users(users: int, capacity_per_replica: int) -> int:
    """Online: ``ceil(users / SLO capacity per replica)`` [-]."""
    return math.ceil(users / max(capacity_per_replica, 1))


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


def survivors(replicas: int, nodes: int) -> int:
    """Replicas left when the fullest node fails, replicas spread evenly over nodes [-]."""
    return replicas - math.ceil(replicas / nodes)


def replicas_surviving(load: int, nodes: int, per_node: int) -> int | None:
    """Fewest replicas on ``nodes`` nodes that still carry ``load`` with one node down."""
    for replicas in range(load, nodes * per_node + 1):
        if survivors(replicas, nodes) >= load:
            return replicas
    return None


def plan_nodes(server: ServerSpec, gpus_per_replica: int, replicas_for_load: int,
               redundancy: str) -> NodePlan:
    """Pack replicas onto ``server`` nodes and add what availability needs.

    N+1: the fewest nodes and replicas (spread evenly) such that losing any one node still
    leaves the load served; 2N: twice the nodes and replicas of the load; both at least two
    nodes. A replica larger than a node spans whole nodes and is the unit of failure.
    """
    if gpus_per_replica > server.gpu_count:
        span = math.ceil(gpus_per_replica / server.gpu_count)
        extra = {"none": 0, "n+1": 1, "2n": replicas_for_load}[redundancy]
        replicas = replicas_for_load + extra
        return NodePlan(server, 0, span, replicas_for_load * span, replicas * span, replicas)
    per_node = server.gpu_count // gpus_per_replica
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


def choose_server(servers: list[ServerSpec], gpus_per_replica: int, replicas: int,
                  redundancy: str) -> NodePlan:
    """The server that wastes the fewest GPU slots (then needs the fewest nodes)."""
    plans = [plan_nodes(s, gpus_per_replica, replicas, redundancy) for s in servers]

    def waste(plan: NodePlan) -> tuple[int, int]:
        used = plan.replicas * gpus_per_replica
        return plan.nodes * plan.server.gpu_count - used, plan.nodes

    return min(plans, key=waste)


def cold_start_s(weights_bytes_per_node: float, read_bytes_per_s: float,
                 load_efficiency: float, engine_start_s: float) -> float:
    """Time for a node to load its weights and start serving [s].

    ``weights on the node / (tier read bandwidth x load efficiency) + engine start``.
    """
    return weights_bytes_per_node / (read_bytes_per_s * load_efficiency) + engine_start_s


def surviving_replicas(plan: NodePlan) -> int:
    """Replicas that still serve when the fullest node (or one spanning replica) fails."""
    if plan.replicas_per_node:
        return survivors(plan.replicas, plan.nodes)
    return plan.replicas - 1
