"""Networks: the scale-out fat tree and the access networks (app.engine.network).

Known answers from HARDWARE.md 3.5 (the DGX SuperPOD reference architectures' switch counts)
and METHOD.md ("Infrastructure").
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import network
from app.i18n import Message


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


def test_scale_up_description_is_a_message_with_localised_numbers():
    link = network.scale_up_description("nvlink", 1800, 8)
    assert isinstance(link, Message)
    assert link.text() == "NVLink/NVSwitch, 1,800 GB/s per GPU per direction, 8 GPUs per node"
    assert link.text("de") == "NVLink/NVSwitch, 1.800 GB/s je GPU und Richtung, 8 GPUs je Knoten"



def test_an_unknown_link_keeps_its_code():
    assert network.scale_up_description("cxl", 64, 4).text().startswith("cxl, 64 GB/s")


# --- access networks (HARDWARE.md 3.6) --------------------------------------------------------
@pytest.mark.parametrize(("nodes", "radix", "pairs"), [(1, 48, 1), (44, 48, 1), (45, 48, 2),
                                                       (100, 32, 4)])
def test_access_switches_come_in_pairs_each_keeping_four_uplinks(nodes, radix, pairs):
    """Every node is dual-homed (two ports) to a switch pair; a switch serves k - 4 nodes."""
    access = network.redundant_access("front-end", nodes, radix)
    assert access.ports == 2 * nodes
    assert access.switches == 2 * pairs


@pytest.mark.parametrize(("devices", "radix", "switches"), [(1, 48, 1), (44, 48, 1),
                                                            (45, 48, 2), (300, 48, 7)])
def test_out_of_band_has_one_port_per_device(devices, radix, switches):
    oob = network.out_of_band(devices, radix)
    assert (oob.ports, oob.switches) == (devices, switches)
