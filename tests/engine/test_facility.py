"""Facility: heat, cooling, airflow, coolant, feeds and rack packing (app.engine.facility).

Known answers from HARDWARE.md (sections 2 and 7) and METHOD.md ("Infrastructure").
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import facility


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



@given(st.lists(st.tuples(st.integers(1, 10), st.floats(100, 29_000)), min_size=1,
                max_size=60))
@settings(max_examples=80, deadline=None)
def test_a_rack_never_exceeds_its_limit(items):
    named = [(f"n{i}", units, watts) for i, (units, watts) in enumerate(items)]
    racks = facility.pack_racks(named, "compute", 42, 30_000)
    assert all(rack.power_w <= 30_000 and rack.units_used <= 42 for rack in racks)
    assert sum(len(rack.items) for rack in racks) == len(items)
