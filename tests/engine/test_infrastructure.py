"""The physical deployment around the replicas: networks, racks, cooling, energy and cost of
whole sizings (app.engine.infrastructure).

The formulas it assembles have their own tests (test_facility.py, test_network.py,
test_cost.py, test_storage.py); METHOD.md ("Infrastructure").
"""

import math

import pytest

from app.api import example, load_scenario, size


def sized(**infrastructure):
    data = example("large-moe")
    data["infrastructure"] = infrastructure
    return size(load_scenario(data))


def test_small_deployments_converge_front_end_and_storage():
    site = size(load_scenario(example("small-chat"))).infrastructure
    names = {group.network for group in site.network.groups}
    assert names == {"front-end and storage", "out-of-band"}


def test_large_deployments_separate_front_end_storage_and_management():
    data = example("large-moe")
    data["hardware"] = {"gpu": "h100-sxm", "tensor_parallel": 8, "pipeline_parallel": 2}
    site = size(load_scenario(data)).infrastructure
    names = {group.network for group in site.network.groups}
    assert {"front-end", "storage", "out-of-band"} <= names


def test_a_replica_spanning_nodes_gets_a_fabric():
    data = example("large-moe")
    data["hardware"] = {"gpu": "h100-sxm", "tensor_parallel": 8, "pipeline_parallel": 2}
    site = size(load_scenario(data)).infrastructure
    assert site.network.fabric is not None
    assert site.network.fabric.endpoints == site.network.fabric.nics


def test_liquid_cooling_reports_coolant_flow_and_lower_pue():
    air, dlc = sized(cooling="air").infrastructure, sized(cooling="dlc").infrastructure
    assert air.cooling.liquid_l_per_min == 0
    assert dlc.cooling.liquid_l_per_min > 0
    assert dlc.power.pue < air.power.pue
    assert len(dlc.racks) <= len(air.racks)


def test_racks_hold_their_kw_limit_in_a_real_sizing():
    site = sized(rack_power_limit_kw=25).infrastructure
    assert all(rack.power_w <= 25_000 for rack in site.racks)


def test_energy_cost_and_co2():
    site = sized(electricity_usd_per_kwh=0.2, grid_kg_co2e_per_kwh=0.4).infrastructure
    energy = site.energy
    assert energy.annual_cost_usd == pytest.approx(energy.annual_kwh * 0.2)
    assert energy.annual_co2e_kg == pytest.approx(energy.annual_kwh * 0.4)
    expected = site.power.facility_w * energy.utilisation * 8760 / 1e3
    assert energy.annual_kwh == pytest.approx(expected)


def test_price_overrides_replace_catalog_prices():
    # The DGX H200 is priced as a system with its GPUs, so its id is what a user overrides.
    base = sized().infrastructure
    cheaper = sized(price_overrides_usd={"dgx-h200": 10_000}).infrastructure
    assert cheaper.capital_usd < base.capital_usd
    assert cheaper.cost_lines[0].unit_usd == 10_000


@pytest.mark.parametrize("users", [40, 120, 400])
def test_more_users_never_need_less_power(users):
    data = example("small-chat")
    low = size(load_scenario({**data, "workload": {**data["workload"],
                                                     "concurrent_users": users}}))
    high = size(load_scenario({**data, "workload": {**data["workload"],
                                                      "concurrent_users": users * 2}}))
    assert high.infrastructure.power.it_max_w >= low.infrastructure.power.it_max_w
    assert high.scale.nodes >= low.scale.nodes
    assert math.isfinite(high.infrastructure.tco_usd)


@pytest.fixture(scope="module")
def site():
    return size(load_scenario(example("small-chat"))).infrastructure


def test_the_result_keeps_the_english_text_and_the_messages(site):
    net = site.network
    assert net.scale_up == net.scale_up_message.text()
    assert net.fabric_reason == net.fabric_reason_message.text()
    assert "je GPU und Richtung" in net.scale_up_message.text("de")


# --------------------------------------------------------------------------- whole servers


def dgx_h200_site(nodes_wanted: int = 3, limit_kw: float = 30.0):
    """Llama-3.3-70B on DGX H200 with TP 8, no redundancy: one node per replica."""
    data = example("choose-gpu")
    data.pop("selection", None)
    data["hardware"] = {"gpu": "h200-sxm", "tensor_parallel": 8, "server": "dgx-h200"}
    data["availability"] = {"redundancy": "none"}
    data["workload"]["concurrent_users"] = 1
    data["infrastructure"] = {"rack_power_limit_kw": limit_kw}
    result = size(load_scenario(data))
    per_replica = max(result.performance.slo_capacity_per_replica, 1)
    data["workload"]["concurrent_users"] = per_replica * nodes_wanted
    return size(load_scenario(data))


def test_three_dgx_h200_at_nameplate_do_not_fit_a_30_kw_rack():
    """Issue 13: a rack of 3 x DGX H200 is 30.6 kW at nameplate, over a 30 kW limit."""
    result = dgx_h200_site(3, 30.0)
    site = result.infrastructure
    assert result.scale.nodes == 3
    assert site.power.node_max_w == 10_200
    assert site.power.node_typical_w == pytest.approx(7_750)
    compute = [r for r in site.racks if r.kind == "compute"]
    assert len(compute) == 2 and all(r.power_w <= 30_000 for r in site.racks)
    assert site.power.compute_w == pytest.approx(3 * 10_200)


def test_the_bill_of_materials_lists_systems_with_their_gpus():
    site = dgx_h200_site(3, 30.0).infrastructure
    dgx = site.cost_lines[0]
    assert (dgx.item, dgx.quantity, dgx.gpus_each) == ("NVIDIA DGX H200", 3, 8)
    assert not any(line.item.startswith("NVIDIA H200") for line in site.cost_lines)


def test_the_network_is_priced_on_its_switches_not_a_share():
    site = dgx_h200_site(3, 30.0).infrastructure
    switches = {g.switch_name: g.count for g in site.network.groups}
    priced = {line.item: line.quantity for line in site.cost_lines}
    assert all(priced[name] == count for name, count in switches.items())
    assert not any(line.item.startswith("Network:") for line in site.cost_lines)
    assert site.unpriced == []


def test_a_small_site_gets_a_1u_pair_in_its_compute_rack():
    """Issue 13: two servers got two 100G spine switches in a rack of their own."""
    site = size(load_scenario(example("small-chat"))).infrastructure
    front = next(g for g in site.network.groups if g.network == "front-end and storage")
    assert (front.switch, front.count) == ("sn3700c", 2)
    assert [r.kind for r in site.racks] == ["compute"]
    assert len(site.racks[0].switches) == 3  # the pair and the out-of-band switch
    assert site.racks[0].switch_units == 3


def test_a_missing_switch_price_is_named_in_the_capital():
    data = example("small-chat")
    result = size(load_scenario(data))
    from app.catalog.loader import default_catalog
    catalog = default_catalog()
    bare = catalog.switches["sn3700c"].model_copy(update={"price_usd": None, "price_kind": None,
                                                          "price_as_of": None})
    catalog = catalog.model_copy(update={"switches": {**catalog.switches, "sn3700c": bare}})
    missing = size(load_scenario(data), catalog)
    assert missing.infrastructure.unpriced == [bare.name]
    assert missing.cost.unpriced == [bare.name]
    assert any(m.params.get("item") == bare.name for m in missing.cost.note_messages)
    assert missing.infrastructure.capital_usd < result.infrastructure.capital_usd
