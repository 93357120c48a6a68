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
