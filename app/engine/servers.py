"""Which server the GPUs go into (Step 5 and the training cluster).

The catalog servers that list the GPU, or the one the scenario names
(``hardware.server``); a generic planning server when no catalog server lists the GPU (one
the user added). How replicas are packed onto the chosen server is
:func:`app.engine.scale.choose_server`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.domain.catalog import Catalog, GpuSpec, ServerSpec
from app.domain.problems import problem
from app.domain.scenario import Scenario
from app.engine import training
from app.engine.cost import CostLine, capital_usd
from app.engine.resolved import SizingError
from app.engine.scale import NodePlan, choose_server
from app.i18n import msg

#: A server without cluster NICs reaches other nodes only through a front-end port: 10 Gb/s
#: per GPU is assumed for a configuration given across such nodes (the search never does it).
NO_NIC_FALLBACK_BYTES_PER_S = 10e9 / 8


def hosts_of(catalog: Catalog, gpu: GpuSpec) -> list[ServerSpec]:
    """The catalog servers that take ``gpu``, in catalog order."""
    return [s for s in catalog.servers.values() if gpu.id in s.gpu_ids]


def named_server(catalog: Catalog, gpu: GpuSpec, name: str) -> ServerSpec:
    """The server ``hardware.server`` names; it must be one that takes ``gpu``.

    Raises
    ------
    SizingError
        When the catalog has no such server or it does not take ``gpu``: the servers that do.
    """
    server = catalog.servers.get(name)
    hosts = hosts_of(catalog, gpu)
    if server is None or server not in hosts:
        raise SizingError(problem("hardware.server", msg(
            "'{name}' is not a server for {gpu}; choose one of {servers}", name=name,
            gpu=f"{gpu.name} ({gpu.id})", servers=str(sorted(s.id for s in hosts)))))
    return server


#: Chassis a data-centre rack takes as built: rack-mount servers and rack-scale systems (a
#: catalog server that does not state its chassis counts as one).
RACK_CHASSIS = (None, "rack", "rack-scale")


def in_rack(server: ServerSpec) -> bool:
    """A rack-mount server or rack-scale system (not a tower or desk-side box)."""
    return server.chassis in RACK_CHASSIS


def server_options(catalog: Catalog, gpu: GpuSpec, name: str | None) -> list[ServerSpec]:
    """Servers Step 5 may put ``gpu`` in: the one named (a tower or desk-side system only
    when the scenario names it), else the rack-mount servers and rack-scale systems that
    take it, else the other catalog servers that take it (towers, desk-side systems: for a
    GPU no rack server takes), else a generic one (:func:`generic_server`)."""
    if name:
        return [named_server(catalog, gpu, name)]
    hosts = hosts_of(catalog, gpu)
    return [s for s in hosts if in_rack(s)] or hosts or [generic_server(catalog, gpu)]


def generic_server(catalog: Catalog, gpu: GpuSpec) -> ServerSpec:
    """A planning server for a GPU no catalog server lists (e.g. one the user added).

    GPUs per node = the GPU's scale-up domain, at most 8; power = host default + GPUs x TDP
    [W] (derived, and marked so).
    """
    count = min(gpu.max_gpus_per_node, 8)
    host = catalog.default("host_power_w")
    return ServerSpec(
        id=f"generic-{gpu.id}", name=f"Generic {count}-GPU server for {gpu.name}",
        vendor="generic", gpu_ids=[gpu.id], gpu_count=count, rack_units=4 if count > 2 else 2,
        max_power_w=host + count * gpu.tdp_w, scale_up=gpu.scale_up, source=(
            "derived: no catalog server lists this GPU; host power default + GPUs x TDP"),
        as_of=gpu.as_of, derived=["gpu_count", "rack_units", "max_power_w"])


def server_for(catalog: Catalog, gpu: GpuSpec, server_id: str) -> ServerSpec:
    """The server ``server_id`` that Step 5 (or the training search) chose for ``gpu``: a
    catalog server, or the generic one when no catalog server lists the GPU."""
    return catalog.servers.get(server_id) or generic_server(catalog, gpu)


def training_node(catalog: Catalog, scenario: Scenario, gpu: GpuSpec) -> training.Node:
    """The server a training job on ``gpu`` is searched on, in the terms of the time model.

    The named one (``hardware.server``), else the catalog server with the most GPUs (then the
    fastest scale-out NICs), else the generic server (:func:`node_of`). The job's own server
    is chosen after the search (:func:`training_server`).
    """
    name = scenario.hardware.server if scenario.hardware else None
    hosts = [named_server(catalog, gpu, name)] if name else hosts_of(catalog, gpu)
    if not hosts:
        return node_of(catalog, scenario, generic_server(catalog, gpu))
    return node_of(catalog, scenario, max(hosts, key=lambda s: (
        s.gpu_count, s.cluster_nics * s.cluster_nic_gbps, s.id)))


def node_of(catalog: Catalog, scenario: Scenario, server: ServerSpec) -> training.Node:
    """``server`` in the terms of the training time model. Scale-out per GPU = cluster NICs
    x speed / GPUs [B/s]; a server without cluster NICs gets
    :data:`NO_NIC_FALLBACK_BYTES_PER_S` and keeps the job inside one node."""
    tier = catalog.entry("storage", scenario.availability.storage_tier)
    write = tier.write_gb_s * 1e9
    nic = server.cluster_nics * server.cluster_nic_gbps * 1e9 / 8 / server.gpu_count
    if nic <= 0:
        return training.Node(server.id, server.gpu_count, NO_NIC_FALLBACK_BYTES_PER_S, write,
                             scale_out=False)
    return training.Node(server.id, server.gpu_count, nic, write)


def training_server(catalog: Catalog, scenario: Scenario, gpu: GpuSpec, gpus: int,
                    searched_on: str) -> NodePlan:
    """The servers a training job of ``gpus`` GPUs is bought on: Step 5's rule
    (:func:`node_plan`, the whole job one replica, no redundancy). A job that fits in the
    node it was searched on (``searched_on``, :func:`training_node`) may go on any server
    that takes the GPU: a 1-GPU job gets a server with one GPU in it, not a whole 8-GPU
    system, unless only such a system takes the GPU. A job across nodes keeps the server it
    was searched on (its scale-up domain and NICs are what the time model assumed)."""
    hardware = scenario.hardware
    name = hardware.server if hardware and hardware.server else None
    if name is None and gpus > server_for(catalog, gpu, searched_on).gpu_count:
        name = searched_on if searched_on in catalog.servers else None
    return node_plan(catalog, gpu, name, gpus, 1, "none",
                     scenario.infrastructure.price_overrides_usd)


def node_power_w(server: ServerSpec, gpu: GpuSpec, gpus_in_node: int) -> float:
    """Maximum power of one node holding ``gpus_in_node`` of ``gpu`` [W].

    A system sold with its GPUs (DGX/HGX, OAM, rack-scale, ``price_includes_gpus``) is
    always full and draws its nameplate ``max_power_w`` (3 x DGX H200 = 30.6 kW). A server
    priced without its GPUs draws its nameplate less the TDP of the slots left empty: the
    host's share is the nameplate less a full complement of this GPU's TDP.
    """
    if server.price_includes_gpus:
        return server.max_power_w
    host = max(server.max_power_w - server.gpu_count * gpu.tdp_w, 0.0)
    return min(server.max_power_w, host + gpus_in_node * gpu.tdp_w)


def gpus_in_fullest_node(server: ServerSpec, nodes: int, gpus: int) -> int:
    """GPUs in the fullest of ``nodes`` servers holding ``gpus`` GPUs evenly [-]."""
    return min(server.gpu_count, math.ceil(gpus / max(nodes, 1)))


def plan_power_w(plan: NodePlan, gpu: GpuSpec, gpus: int) -> float:
    """Maximum power of all the plan's nodes with ``gpus`` GPUs in them [W]
    (:func:`node_power_w` of the fullest node, for every node: the rack plan's figure)."""
    return plan.nodes * node_power_w(plan.server, gpu,
                                     gpus_in_fullest_node(plan.server, plan.nodes, gpus))


def compute_lines(server: ServerSpec, gpu: GpuSpec, nodes: int, gpus: int,
                  overrides: dict[str, float]) -> list[CostLine]:
    """The bill of materials of the compute: the systems with the GPUs they contain.

    A system sold with its GPUs is one line (``nodes`` x the system, its GPUs included); a
    server priced without them is the servers and the GPUs that go into them. A price the
    scenario overrides (``infrastructure.price_overrides_usd``, by catalog id) replaces the
    catalog's; a line without any price has ``unit_usd`` None; a catalog price that is an
    estimate (``price_kind``) marks its line estimated.
    """
    def priced(entry) -> float | None:
        return overrides.get(entry.id, entry.price_usd)

    no_price = "no price in the catalog"

    def line(entry, quantity: int, contents: tuple[str, int]) -> CostLine:
        return CostLine(entry.name, quantity, priced(entry), entry.price_source or no_price,
                        estimated=entry.price_kind == "estimate"
                        and entry.id not in overrides, contents=contents, key=entry.id)

    if server.price_includes_gpus:
        return [line(server, nodes, (gpu.name, server.gpu_count))]
    return [line(server, nodes, (gpu.name, gpus_in_fullest_node(server, nodes, gpus))),
            line(gpu, gpus, (gpu.name, 1))]


@dataclass(frozen=True)
class ComputeCost:
    """Capital of the compute of a plan: the priced lines' sum and the items without a
    price (a total that lacks them says so; a ranking by cost puts it after every complete
    one)."""

    usd: float
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing

    def rank_key(self) -> tuple[bool, float]:
        """(price missing, USD): complete totals first, then by cost."""
        return (not self.complete, self.usd)


def compute_cost(plan: NodePlan, gpu: GpuSpec, gpus: int,
                 overrides: dict[str, float]) -> ComputeCost:
    """:class:`ComputeCost` of ``plan`` with ``gpus`` GPUs (:func:`compute_lines`) [USD]."""
    lines = compute_lines(plan.server, gpu, plan.nodes, gpus, overrides)
    return ComputeCost(capital_usd(lines),
                       tuple(line.item for line in lines if line.total_usd is None))


def node_plan(catalog: Catalog, gpu: GpuSpec, server_name: str | None, gpus_per_replica: int,
              load: int, redundancy: str, overrides: dict[str, float] | None = None
              ) -> NodePlan:
    """Step 5: the server for ``gpu`` (the one named, else the one that leaves the fewest
    GPU slots idle, then costs least with a price, then needs the fewest nodes) with ``load``
    replicas and the redundancy packed onto its nodes, every slot of a system sold with its
    GPUs in use (:func:`app.engine.scale.choose_server`)."""
    servers = server_options(catalog, gpu, server_name)
    prices = overrides or {}

    def capital(plan: NodePlan) -> tuple[bool, float]:
        return compute_cost(plan, gpu, plan.replicas * gpus_per_replica, prices).rank_key()

    return choose_server(servers, gpus_per_replica, load, redundancy, capital)
