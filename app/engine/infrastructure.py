"""Size the physical deployment around the replicas: racks, power, cooling, feeds, energy,
networks, storage and cost (METHOD.md, "Infrastructure").

Inputs are the Step 5 plan (nodes of a catalog server), the scenario's infrastructure block
and the catalog's named defaults; every default used is recorded as an assumption.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.catalog import Catalog, ServerSpec, SwitchSpec
from app.domain.result import (
    Assumption,
    CoolingResult,
    CostLineResult,
    ElectricalResult,
    EnergyResult,
    FabricResult,
    InfrastructureResult,
    NetworkResult,
    PerformanceResult,
    PowerResult,
    RackResult,
    ScaleResult,
    StorageLine,
    StorageResult,
    SwitchGroup,
)
from app.engine import cost as costs
from app.engine import facility, network, storage
from app.engine.assumptions import catalog_default
from app.engine.configuration import Configuration
from app.engine.resolved import Resolved
from app.engine.servers import compute_lines, gpus_in_fullest_node, node_power_w, server_for
from app.i18n import Message, msg

COOLING_LIMITS = {"air": "rack_limit_air_w", "rdhx": "rack_limit_rdhx_w", "dlc": "rack_limit_dlc_w"}
COOLING_PUE = {"air": "pue_air", "rdhx": "pue_rdhx", "dlc": "pue_dlc"}
FABRIC_SWITCH = {"infiniband": "qm9700", "ethernet": "sn5600"}
# Up to this many nodes, front-end and storage traffic share one redundant switch pair
# (converged); larger deployments separate them as the DGX SuperPOD reference designs do.
CONVERGED_MAX_NODES = 8
#: A small site's front-end and storage pair: two 1U 32 x 100GbE switches in the compute
#: rack (2 x 8 nodes' ports fit one pair); larger sites take 64-port 2U switches.
SMALL_SITE_SWITCH = "sn3700c"
FRONTEND_SWITCH = "sn4600c"


@dataclass
class Settings:
    """The infrastructure inputs after defaults, recording each default used."""

    catalog: Catalog
    given: object
    assumptions: list[Assumption]

    def get(self, field: str, default_name: str, unit: str = "") -> float:
        value = getattr(self.given, field)
        if value is not None:
            return float(value)
        return self.default(default_name, unit)

    def default(self, name: str, unit: str = "") -> float:
        assumption = catalog_default(self.catalog, name, unit)
        self.assumptions.append(assumption)
        return assumption.value


def cooling_kind(server: ServerSpec, chosen: str | None) -> str:
    if chosen:
        return chosen
    return "dlc" if server.cooling in ("liquid", "hybrid") else "air"


def fabric_needed(scale: ScaleResult, force: bool) -> tuple[bool, Message]:
    """A scale-out fabric is needed when a replica spans nodes (or the user asks for one)."""
    if scale.nodes_per_replica > 1:
        return True, msg("A replica spans {n} nodes, so its GPUs need a scale-out fabric.",
                         n=scale.nodes_per_replica)
    if force:
        return True, msg("A scale-out fabric was requested in the scenario.")
    return False, msg("Every replica fits inside one node's scale-up domain; no scale-out fabric "
                      "is needed (front-end, storage and management networks still are).")


def size_fabric(catalog: Catalog, scale: ScaleResult, server: ServerSpec, switch_id: str | None,
                oversubscription: float) -> FabricResult:
    fabric = "infiniband" if server.cluster_nic_gbps >= 400 and server.vendor == "nvidia" \
        else "ethernet"
    switch = catalog.switches[switch_id or FABRIC_SWITCH[fabric]]
    gpus = scale.nodes * server.gpu_count
    tree = network.fat_tree(gpus, switch.ports, oversubscription)
    return FabricResult(
        switch=switch.id, radix=switch.ports, port_gbps=switch.port_gbps, endpoints=gpus,
        tiers=tree.tiers, leaves=tree.leaves, spines=tree.spines, cores=tree.cores,
        cables_per_tier=list(tree.cables_per_tier), transceivers=tree.transceivers, nics=gpus,
        oversubscription=oversubscription,
        two_tier_limit=network.two_tier_limit(switch.ports, oversubscription))


def switch_group(name: str, switch: SwitchSpec, access: network.AccessNetwork) -> SwitchGroup:
    return SwitchGroup(network=name, switch=switch.id, switch_name=switch.name,
                       count=access.switches, ports_used=access.ports,
                       power_w=access.switches * switch.max_power_w)


def frontend_switch_id(nodes: int, chosen: str | None) -> str:
    """The front-end (and storage) switch: the scenario's, else a 1U top-of-rack pair
    (:data:`SMALL_SITE_SWITCH`) for a converged site of up to :data:`CONVERGED_MAX_NODES`
    nodes, else :data:`FRONTEND_SWITCH`."""
    if chosen:
        return chosen
    return SMALL_SITE_SWITCH if nodes <= CONVERGED_MAX_NODES else FRONTEND_SWITCH


def size_networks(catalog: Catalog, config: Configuration, scale: ScaleResult,
                  server: ServerSpec, inputs) -> tuple[NetworkResult, int]:
    """All networks; returns them and the number of network devices (for OOB ports)."""
    needed, reason = fabric_needed(scale, inputs.force_fabric)
    fabric = size_fabric(catalog, scale, server, inputs.fabric_switch,
                         inputs.oversubscription) if needed else None
    frontend = catalog.switches[frontend_switch_id(scale.nodes, inputs.frontend_switch)]
    if scale.nodes <= CONVERGED_MAX_NODES:
        groups = [switch_group("front-end and storage", frontend, network.redundant_access(
            "front-end and storage", 2 * scale.nodes, frontend.ports))]
    else:
        groups = [switch_group("front-end", frontend,
                               network.redundant_access("front-end", scale.nodes,
                                                        frontend.ports)),
                  switch_group("storage", frontend,
                               network.redundant_access("storage", scale.nodes,
                                                        frontend.ports))]
    if fabric is not None:
        switch = catalog.switches[fabric.switch]
        groups.append(SwitchGroup(network="compute fabric", switch=switch.id,
                                  switch_name=switch.name,
                                  count=fabric.leaves + fabric.spines + fabric.cores,
                                  ports_used=sum(fabric.cables_per_tier) * 2 - fabric.endpoints,
                                  power_w=(fabric.leaves + fabric.spines + fabric.cores)
                                  * switch.max_power_w))
    devices = scale.nodes + sum(g.count for g in groups)
    oob = catalog.switches[inputs.oob_switch]
    groups.append(switch_group("out-of-band", oob, network.out_of_band(devices, oob.ports)))
    up = network.scale_up_description(config.gpu.scale_up, config.gpu.scale_up_gb_s,
                                      server.gpu_count)
    return NetworkResult(fabric=fabric, groups=groups, scale_up_message=up,
                         fabric_reason_message=reason), devices


def size_storage(catalog: Catalog, config: Configuration, scale: ScaleResult,
                 performance: PerformanceResult, server: ServerSpec, s: Settings,
                 load_requests_per_s: float) -> StorageResult:
    tier = catalog.entry("storage", scale.storage_tier)
    versions = int(s.get("model_versions", "model_versions_kept"))
    retention = s.get("log_retention_days", "log_retention_days", "days")
    repository = storage.model_repository_bytes(config.replica.weights_bytes, versions, 1,
                                                 int(s.default("repository_copies")))
    logs = storage.request_log_bytes(load_requests_per_s, s.default("log_bytes_per_request",
                                                                    "B"), retention)
    metrics = storage.metrics_bytes(scale.gpus_total, s.default("metrics_bytes_per_gpu_day",
                                                                 "B"), retention)
    lines = [
        StorageLine(tier="GPU-direct / hot", purpose="weights loaded at cold start",
                    capacity_bytes=config.replica.weights_bytes,
                    read_bytes_per_s=tier.read_gb_s * 1e9 * scale.nodes),
        StorageLine(tier="hot", purpose="model repository (versions x copies)",
                    capacity_bytes=repository),
        StorageLine(tier="warm", purpose="request logs", capacity_bytes=logs,
                    write_bytes_per_s=load_requests_per_s * s.catalog.default(
                        "log_bytes_per_request")),
        StorageLine(tier="warm", purpose="monitoring metrics", capacity_bytes=metrics),
    ]
    return StorageResult(preset=tier.id, read_bytes_per_s_per_node=tier.read_gb_s * 1e9,
                         write_bytes_per_s_per_node=tier.write_gb_s * 1e9,
                         local_nvme_bytes=server.local_nvme_tb * 1e12 * scale.nodes,
                         lines=lines, total_bytes=sum(line.capacity_bytes for line in lines))


def build_racks(catalog: Catalog, server: ServerSpec, scale: ScaleResult, node_w: float,
                net: NetworkResult, units: int, limit_w: float) -> list[RackResult]:
    """Compute racks filled with nodes in order (by space and the power limit), then the
    switches: in the compute racks where they fit (a site without a scale-out fabric, up to
    :data:`CONVERGED_MAX_NODES` nodes: top-of-rack), else in racks of their own."""
    nodes = [(f"{server.name} #{i + 1}", server.rack_units, node_w) for i in range(scale.nodes)]
    racks = facility.pack_racks(nodes, "compute", units, limit_w)
    switches = []
    for group in net.groups:
        spec = catalog.switches[group.switch]
        switches += [(f"{group.switch_name} ({group.network}) #{i + 1}", spec.rack_units,
                      group.power_w / max(group.count, 1)) for i in range(group.count)]
    if net.fabric is None and scale.nodes <= CONVERGED_MAX_NODES:
        racks, switches = facility.add_to_racks(racks, switches, units, limit_w)
    racks += facility.pack_racks(switches, "network", units, limit_w)
    return [RackResult(kind=r.kind, items=list(r.items), units_used=r.units_used,
                       power_w=r.power_w, limit_w=limit_w, switches=list(r.switches),
                       switch_units=r.switch_units) for r in racks]


def electrical(racks: list[RackResult], s: Settings, ab_feeds: bool) -> ElectricalResult:
    voltage = s.get("feed_voltage_v", "feed_voltage_v", "V")
    pf = s.get("power_factor", "power_factor")
    rating = s.get("pdu_rating_a", "pdu_rating_a", "A")
    share = s.default("continuous_load_share")
    worst = max((r.power_w for r in racks), default=0.0)
    current = facility.three_phase_current_a(worst, voltage, pf)
    per_feed = facility.pdus_per_feed(current, rating, share)
    feeds = 2 if ab_feeds else 1
    total = sum(facility.pdus_per_feed(facility.three_phase_current_a(r.power_w, voltage, pf),
                                       rating, share) for r in racks) * feeds
    return ElectricalResult(voltage_v=voltage, power_factor=pf, ab_feeds=ab_feeds,
                            max_rack_current_a=current, pdu_rating_a=rating,
                            pdus_per_rack_per_feed=per_feed, pdus_total=total)


def price(catalog_price: float | None, key: str, overrides: dict[str, float]) -> float | None:
    return overrides.get(key, catalog_price)


def cost_lines(catalog: Catalog, config: Configuration, scale: ScaleResult, server: ServerSpec,
               net: NetworkResult, store: StorageResult, racks: int, pdus: int, cooling: str,
               s: Settings) -> list[CostLineResult]:
    """The bill of materials, priced: the systems with the GPUs they hold
    (:func:`app.engine.servers.compute_lines`), each switch group, the fabric's optics,
    storage, racks, PDUs and liquid cooling. A switch without a price is a line without one
    (the capital says so); nothing is priced as a share of something else."""
    overrides = s.given.price_overrides_usd
    lines = compute_lines(server, config.gpu, scale.nodes, scale.gpus_total, overrides)
    for g in net.groups:
        switch = catalog.switches[g.switch]
        lines.append(costs.CostLine(
            g.switch_name, g.count, price(switch.price_usd, g.switch, overrides),
            switch.price_source or "no price in the catalog",
            estimated=switch.price_kind == "estimate" and g.switch not in overrides,
            key=g.switch))
    if net.fabric is not None:
        lines.append(costs.CostLine(
            "Fabric optics and cables per GPU", net.fabric.endpoints,
            price(s.default("fabric_optics_usd_per_gpu", "USD"), "fabric_optics", overrides),
            s.catalog.default_sources["fabric_optics_usd_per_gpu"], estimated=True,
            key="fabric_optics"))
    lines.append(costs.CostLine("Storage (usable TB)", costs.storage_terabytes(store.total_bytes),
                                price(s.default("storage_usd_per_tb", "USD/TB"), "storage",
                                      overrides),
                                s.catalog.default_sources["storage_usd_per_tb"], estimated=True,
                                key="storage"))
    lines.append(costs.CostLine("Racks", racks, price(s.default("rack_usd", "USD"), "rack",
                                                       overrides),
                                s.catalog.default_sources["rack_usd"], estimated=True,
                                key="rack"))
    lines.append(costs.CostLine("Rack PDUs", pdus, price(s.default("pdu_usd", "USD"), "pdu",
                                                          overrides),
                                s.catalog.default_sources["pdu_usd"], estimated=True,
                                key="pdu"))
    if cooling == "dlc":
        compute_racks = racks
        lines.append(costs.CostLine("Liquid cooling per rack (CDU, manifolds)", compute_racks,
                                    price(s.default("dlc_cooling_usd_per_rack", "USD"),
                                          "dlc_cooling", overrides),
                                    s.catalog.default_sources["dlc_cooling_usd_per_rack"],
                                    key="dlc_cooling"))
    entered = costs.entered_price_source(s.given.price_list_as_of)
    return [CostLineResult(item=c.item, quantity=c.quantity, unit_usd=c.unit_usd,
                           total_usd=c.total_usd,
                           source=entered if c.key in overrides else c.source,
                           estimated=c.estimated and c.key not in overrides,
                           gpu_name=c.contents[0] if c.contents else "",
                           gpus_each=c.contents[1] if c.contents else 0)
            for c in lines]


def size_infrastructure(catalog: Catalog, config: Configuration, scale: ScaleResult,
                        performance: PerformanceResult,
                        r: Resolved) -> tuple[InfrastructureResult, list[Assumption]]:
    """The whole physical deployment of the sizing."""
    inputs = r.scenario.infrastructure
    s = Settings(catalog, inputs, [])
    server = server_for(catalog, config.gpu, scale.server)
    cooling = cooling_kind(server, inputs.cooling)
    limit_w = (inputs.rack_power_limit_kw * 1e3 if inputs.rack_power_limit_kw
               else s.default(COOLING_LIMITS[cooling], "W"))
    pue = s.get("pue", COOLING_PUE[cooling])
    node_w = node_power_w(server, config.gpu,
                          gpus_in_fullest_node(server, scale.nodes, scale.gpus_total))
    typical_share = (server.typical_power_w / server.max_power_w) if server.typical_power_w \
        else 1.0
    net, _devices = size_networks(catalog, config, scale, server, inputs)
    requests = performance.at_concurrency.requests_per_s * scale.replicas_for_load
    store = size_storage(catalog, config, scale, performance, server, s, requests)
    racks = build_racks(catalog, server, scale, node_w, net, inputs.rack_units, limit_w)
    compute_w = node_w * scale.nodes
    network_w = sum(g.power_w for g in net.groups)
    it_w = compute_w + network_w
    heat_air_share = s.default("dlc_air_share") if cooling == "dlc" else 1.0
    power = PowerResult(node_max_w=node_w, node_typical_w=node_w * typical_share,
                        compute_w=compute_w, network_w=network_w, storage_w=0.0, it_max_w=it_w,
                        it_typical_w=compute_w * typical_share + network_w,
                        facility_w=facility.facility_power_w(it_w, pue), pue=pue)
    cool = CoolingResult(
        kind=cooling, rack_limit_w=limit_w, heat_btu_per_h=facility.heat_btu_per_h(it_w),
        tons=facility.cooling_tons(it_w),
        airflow_cfm=facility.airflow_cfm(it_w * heat_air_share,
                                         s.get("air_delta_t_f", "air_delta_t_f", "F")),
        liquid_l_per_min=facility.liquid_flow_l_per_min(
            it_w * (1 - heat_air_share), s.get("liquid_delta_t_k", "liquid_delta_t_k", "K"))
        if cooling == "dlc" else 0.0,
        air_share=heat_air_share)
    elec = electrical(racks, s, inputs.ab_feeds)
    utilisation = s.get("utilisation", "average_power_fraction")
    kwh = facility.annual_energy_kwh(power.facility_w, utilisation)
    grid = s.get("grid_kg_co2e_per_kwh", "grid_kg_co2e_per_kwh", "kg/kWh")
    energy = EnergyResult(
        utilisation=utilisation, annual_kwh=kwh,
        annual_cost_usd=kwh * s.get("electricity_usd_per_kwh", "electricity_usd_per_kwh",
                                    "USD/kWh"),
        annual_co2e_kg=kwh * grid if grid > 0 else None,
        annual_colocation_usd=costs.annual_colocation_usd(
            it_w, s.get("colocation_usd_per_kw_month", "colocation_usd_per_kw_month",
                        "USD/kW/month")))
    lines = cost_lines(catalog, config, scale, server, net, store, len(racks),
                       elec.pdus_total, cooling, s)
    capital = costs.capital_usd(lines)
    running = energy.annual_cost_usd + energy.annual_colocation_usd
    years = s.get("years", "tco_years", "years")
    tokens_per_s = (performance.at_concurrency.output_tokens_per_s * scale.replicas_for_load
                    if performance.targets else
                    performance.saturation.output_tokens_per_s * scale.replicas_for_load)
    warnings = rack_warnings(racks, node_w, limit_w)
    result = InfrastructureResult(
        power=power, cooling=cool, racks=racks, electrical=elec, energy=energy, network=net,
        storage=store, cost_lines=lines, capital_usd=capital,
        unpriced=[line.item for line in lines if line.total_usd is None],
        annual_running_usd=running,
        years=years, tco_usd=costs.total_cost_usd(capital, running, years),
        cost_per_million_tokens_usd=costs.cost_per_million_tokens(
            capital, running, years, tokens_per_s, utilisation),
        warnings=warnings)
    return result, s.assumptions + price_list_assumptions(inputs)


def price_list_assumptions(inputs) -> list[Assumption]:
    """The exchange rate the user's prices were converted to USD at, when they were quoted in
    another currency (the report lists it with the other assumptions)."""
    if inputs.price_list_currency == "USD" or inputs.price_list_usd_per_unit is None:
        return []
    source = (msg("Entered with the price list, quoted on {date}",
                  date=str(inputs.price_list_as_of)) if inputs.price_list_as_of
              else msg("Entered with the price list"))
    return [Assumption(name="price_list_usd_per_unit", value=inputs.price_list_usd_per_unit,
                       unit=f"USD/{inputs.price_list_currency}", source=source.text(),
                       source_message=source, overridden=True)]


def rack_warnings(racks: list[RackResult], node_w: float, limit_w: float) -> list[Message]:
    if node_w > limit_w:
        return [msg("One node draws {node:.1f} kW, more than the rack limit of {limit:.1f} kW: "
                    "each node gets its own rack and still exceeds it; choose a stronger "
                    "cooling option.", node=node_w / 1e3, limit=limit_w / 1e3)]
    return []
