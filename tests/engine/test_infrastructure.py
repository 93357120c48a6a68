"""Infrastructure: conversions, the DGX SuperPOD fabric tables, racks, feeds, cost.

Known answers come from HARDWARE.md (sections 2, 3.5, 3.6 and 7) and METHOD.md
("Infrastructure").
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api import example, load_scenario, size
from app.engine import cost, facility, network


# --- conversions (HARDWARE.md 7) ------------------------------------------------------------
def test_one_kilowatt_is_3412_btu_per_hour():
    assert facility.heat_btu_per_h(1000) == pytest.approx(3412.14, rel=1e-5)


def test_one_ton_of_refrigeration_is_3517_watts():
    assert facility.cooling_tons(3517) == pytest.approx(1.0, rel=1e-3)


def test_dgx_h100_heat_output_matches_its_user_guide():
    # DGX H100 user guide: 10.2 kW maximum, heat output 38,557 BTU/h.
    assert facility.heat_btu_per_h(10_200) == pytest.approx(34_804, rel=1e-3)
    # The guide's 38,557 BTU/h corresponds to 11.3 kW at the wall (PSU losses); our figure is
    # the electrical maximum converted, which is what cooling is sized from here.


def test_airflow_cfm_rule():
    # CFM = 3.16 x W / dT(F): 10 kW at 20 F needs 1,580 CFM.
    assert facility.airflow_cfm(10_000, 20) == pytest.approx(1580)


def test_water_flow_is_1_43_litres_per_minute_per_kilowatt_at_10_kelvin():
    assert facility.liquid_flow_l_per_min(1000, 10) == pytest.approx(1.435, rel=1e-3)


def test_three_phase_current_example():
    # HARDWARE.md 2.8: 10 kW at 208 V three-phase, PF 0.95 -> about 29 A per phase.
    assert facility.three_phase_current_a(10_000, 208, 0.95) == pytest.approx(29.2, abs=0.1)


def test_pdus_respect_the_80_percent_rule():
    # 30 A circuit -> 24 A usable: 25 A needs two PDUs, 24 A one.
    assert facility.pdus_per_feed(24.0, 30, 0.8) == 1
    assert facility.pdus_per_feed(25.0, 30, 0.8) == 2


# --- fabric (HARDWARE.md 3.5: DGX SuperPOD reference architectures) -------------------------
@pytest.mark.parametrize(("gpus", "leaves", "spines", "cores"), [
    (248, 8, 4, 0),        # H100 RA Table 4, 1 SU (31 nodes)
    (504, 16, 8, 0),       # 2 SU
    (760, 24, 16, 0),      # 3 SU: spines rounded up so uplinks spread evenly
    (1024, 32, 16, 0),     # 128 DGX H100 nodes = 1,024 GPUs
    (2048, 64, 32, 0),     # 8 SU, two-tier limit of 64-port switches
    (4096, 128, 128, 64),  # 16 SU, three tiers
    (8192, 256, 256, 128),
    (16384, 512, 512, 256),
])
def test_quantum2_fabric_reproduces_the_superpod_tables(gpus, leaves, spines, cores):
    tree = network.fat_tree(gpus, 64)
    assert (tree.leaves, tree.spines, tree.cores) == (leaves, spines, cores)


def test_1024_gpus_have_1024_cables_per_tier():
    tree = network.fat_tree(1024, 64)
    assert tree.cables_per_tier == (1024, 1024)


@pytest.mark.parametrize(("gpus", "leaves", "spines"), [
    (576, 8, 4), (1152, 16, 8), (2304, 32, 18), (4608, 64, 36), (10368, 144, 72),
])
def test_quantum_x800_fabric_reproduces_the_b300_xdr_tables(gpus, leaves, spines):
    tree = network.fat_tree(gpus, 144)
    assert (tree.tiers, tree.leaves, tree.spines) == (2, leaves, spines)


def test_two_tier_limit_is_k_squared_over_two():
    assert network.two_tier_limit(64) == 2048
    assert network.two_tier_limit(144) == 10368


def test_oversubscription_puts_more_gpus_on_each_leaf():
    assert network.fat_tree(1024, 64, 3.0).leaves < network.fat_tree(1024, 64).leaves


@given(st.integers(min_value=1, max_value=20_000), st.integers(min_value=1, max_value=2_000))
@settings(max_examples=80, deadline=None)
def test_more_gpus_never_need_fewer_switches(gpus, extra):
    small, large = network.fat_tree(gpus, 64), network.fat_tree(gpus + extra, 64)
    assert large.switches >= small.switches
    assert large.cables >= small.cables


# --- racks ------------------------------------------------------------------------------------
@given(st.lists(st.tuples(st.integers(1, 10), st.floats(100, 29_000)), min_size=1,
                max_size=60))
@settings(max_examples=80, deadline=None)
def test_a_rack_never_exceeds_its_limit(items):
    named = [(f"n{i}", units, watts) for i, (units, watts) in enumerate(items)]
    racks = facility.pack_racks(named, "compute", 42, 30_000)
    assert all(rack.power_w <= 30_000 and rack.units_used <= 42 for rack in racks)
    assert sum(len(rack.items) for rack in racks) == len(items)


# --- the whole deployment ----------------------------------------------------------------------
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


def test_cost_per_million_tokens_known_answer():
    # USD 1M over 5 years + USD 100k/year, 1,000 tokens/s at 50 % load.
    per_m = cost.cost_per_million_tokens(1e6, 1e5, 5, 1000, 0.5)
    tokens = 1000 * 0.5 * 365 * 86400
    assert per_m == pytest.approx((2e5 + 1e5) / tokens * 1e6)


def test_network_estimate_share():
    # A 20 % share of the whole is 25 % of the rest.
    assert cost.network_estimate_usd(800, 0.2) == pytest.approx(200)


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
