"""Which server the GPUs go into (Step 5 and the training cluster).

The catalog servers that list the GPU, or the one the scenario names
(``hardware.server``); a generic planning server when no catalog server lists the GPU (one
the user added). How replicas are packed onto the chosen server is
:func:`app.engine.scale.choose_server`.
"""

from __future__ import annotations

from app.domain.catalog import Catalog, GpuSpec, ServerSpec
from app.domain.problems import problem
from app.domain.scenario import Scenario
from app.engine import training
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


def server_options(catalog: Catalog, gpu: GpuSpec, name: str | None) -> list[ServerSpec]:
    """Servers Step 5 may put ``gpu`` in: the one named, else every catalog server that
    takes it, else a generic one (:func:`generic_server`)."""
    if name:
        return [named_server(catalog, gpu, name)]
    return hosts_of(catalog, gpu) or [generic_server(catalog, gpu)]


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
    """The server a training job on ``gpu`` runs on, in the terms of the time model.

    The named one (``hardware.server``), else the catalog server with the most GPUs (then the
    fastest scale-out NICs), else the generic server. Scale-out per GPU = cluster NICs x
    speed / GPUs [B/s]; a server without cluster NICs gets
    :data:`NO_NIC_FALLBACK_BYTES_PER_S` and keeps the job inside one node.
    """
    tier = catalog.entry("storage", scenario.availability.storage_tier)
    write = tier.write_gb_s * 1e9
    name = scenario.hardware.server if scenario.hardware else None
    hosts = [named_server(catalog, gpu, name)] if name else hosts_of(catalog, gpu)
    if not hosts:
        server = generic_server(catalog, gpu)
        return training.Node(server.id, server.gpu_count, NO_NIC_FALLBACK_BYTES_PER_S, write,
                             scale_out=False)
    server = max(hosts, key=lambda s: (s.gpu_count, s.cluster_nics * s.cluster_nic_gbps,
                                       s.id))
    nic = server.cluster_nics * server.cluster_nic_gbps * 1e9 / 8 / server.gpu_count
    if nic <= 0:
        return training.Node(server.id, server.gpu_count, NO_NIC_FALLBACK_BYTES_PER_S, write,
                             scale_out=False)
    return training.Node(server.id, server.gpu_count, nic, write)


def node_plan(catalog: Catalog, gpu: GpuSpec, server_name: str | None, gpus_per_replica: int,
              load: int, redundancy: str) -> NodePlan:
    """Step 5: the server for ``gpu`` (the one named, else the one that wastes the fewest GPU
    slots) with ``load`` replicas and the redundancy packed onto its nodes
    (:func:`app.engine.scale.choose_server`)."""
    servers = server_options(catalog, gpu, server_name)
    return choose_server(servers, gpus_per_replica, load, redundancy)
