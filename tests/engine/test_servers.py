"""Which server the GPUs go into (app.engine.servers).

The servers a GPU may go into are the catalog servers that list it, the one the scenario
names, or a generic planning server (host power default + GPUs x TDP) when no catalog server
lists it (METHOD.md "Step 5"); a training job runs on the server with the most GPUs, its
scale-out per GPU = cluster NICs x speed / GPUs.
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario
from app.engine.resolved import SizingError
from app.engine.scale import choose_server
from app.engine.servers import (
    NO_NIC_FALLBACK_BYTES_PER_S,
    compute_cost,
    compute_lines,
    generic_server,
    node_plan,
    node_power_w,
    server_for,
    server_options,
    training_node,
)


@pytest.fixture(scope="module")
def own_gpu_catalog(catalog):
    """The catalog with a GPU of the user's that no catalog server lists."""
    gpu = catalog.gpu("l40s").model_copy(update={"id": "my-gpu", "name": "My GPU"})
    return catalog.model_copy(update={"gpus": {**catalog.gpus, "my-gpu": gpu}})


def test_the_options_are_the_catalog_servers_that_list_the_gpu(catalog):
    options = server_options(catalog, catalog.gpu("h100-sxm"), None)
    assert {"dgx-h100", "hgx-h100-8"} <= {s.id for s in options}
    assert all("h100-sxm" in s.gpu_ids for s in options)
    assert [s.id for s in server_options(catalog, catalog.gpu("h100-sxm"), "hgx-h100-8")] == [
        "hgx-h100-8"]


def test_a_named_server_must_take_the_gpu(catalog):
    with pytest.raises(SizingError) as info:
        server_options(catalog, catalog.gpu("l40s"), "dgx-h100")
    hosts = sorted(s.id for s in catalog.servers.values() if "l40s" in s.gpu_ids)
    assert {"pcie-4gpu-2u", "pcie-8gpu-4u"} <= set(hosts)
    assert str(info.value) == ("hardware.server: 'dgx-h100' is not a server for NVIDIA L40S "
                               f"48GB (l40s); choose one of {hosts}")


def test_a_gpu_no_server_lists_gets_a_generic_planning_server(own_gpu_catalog):
    """An L40S-like card (8 per node, 350 W): 8 GPUs, 4 U, host 2,000 W + 8 x 350 W."""
    gpu = own_gpu_catalog.gpu("my-gpu")
    [server] = server_options(own_gpu_catalog, gpu, None)
    assert server == generic_server(own_gpu_catalog, gpu)
    assert (server.id, server.gpu_count, server.rack_units) == ("generic-my-gpu", 8, 4)
    assert server.max_power_w == pytest.approx(own_gpu_catalog.default("host_power_w") + 8 * 350)
    assert server.name == "Generic 8-GPU server for My GPU"
    assert set(server.derived) == {"gpu_count", "rack_units", "max_power_w"}
    assert server_for(own_gpu_catalog, gpu, server.id) == server
    assert server_for(own_gpu_catalog, gpu, "dgx-h100").id == "dgx-h100"


def test_the_node_plan_is_step_5s_choice_of_server(catalog):
    gpu = catalog.gpu("l40s")
    plan = node_plan(catalog, gpu, None, 2, 5, "n+1")
    assert plan == choose_server(server_options(catalog, gpu, None), 2, 5, "n+1")
    assert plan.replicas >= 5 and plan.nodes >= 2


def test_a_training_job_takes_the_server_with_the_most_gpus_and_its_nics(catalog):
    """HGX H100 (as DGX H100): 8 x 400 Gb/s cluster NICs for 8 GPUs = 50 GB/s per GPU; the
    storage tier 'good' writes 2 GB/s per node."""
    scenario = load_scenario(example("fine-tune-lora"))
    node = training_node(catalog, scenario, catalog.gpu("h100-sxm"))
    assert node.server == "hgx-h100-8"  # ties with dgx-h100 (GPUs, NICs): the higher id
    assert node.gpus_per_node == 8
    assert node.nic_bytes_per_s_per_gpu == pytest.approx(8 * 400e9 / 8 / 8)
    assert node.write_bytes_per_s == pytest.approx(catalog.storage["good"].write_gb_s * 1e9)
    assert node.scale_out


def test_a_training_job_on_a_server_without_cluster_nics_stays_in_one_node(own_gpu_catalog):
    scenario = load_scenario({**example("fine-tune-lora"), "hardware": {"gpu": "my-gpu"}})
    node = training_node(own_gpu_catalog, scenario, own_gpu_catalog.gpu("my-gpu"))
    assert (node.server, node.gpus_per_node) == ("generic-my-gpu", 8)
    assert node.nic_bytes_per_s_per_gpu == NO_NIC_FALLBACK_BYTES_PER_S == 10e9 / 8
    assert not node.scale_out


# --------------------------------------------------------------------------- whole servers


def test_a_data_centre_gpu_goes_into_a_rack_server_never_a_tower(catalog):
    """Step 5 picks rack-mount servers for a GPU rack servers take (issue 13/15: the RTX PRO
    6000 Server Edition into a server, not a tower)."""
    for gpu_id in ("rtx-pro-6000-bse", "l40s", "h100-sxm", "rtx-6000-ada"):
        options = server_options(catalog, catalog.gpu(gpu_id), None)
        assert options and all(s.chassis in (None, "rack", "rack-scale") for s in options)


def test_a_gpu_only_towers_take_gets_a_tower(catalog):
    options = server_options(catalog, catalog.gpu("rtx-5090"), None)
    assert {s.chassis for s in options} == {"tower"}


def test_no_data_centre_gpu_is_listed_by_a_tower_or_desk_side_system(catalog):
    towers = [s for s in catalog.servers.values() if s.chassis in ("tower", "desktop")]
    assert not [(s.id, g) for s in towers for g in s.gpu_ids
                if catalog.gpu(g).gpu_class == "datacenter"]


def test_a_system_sold_with_its_gpus_has_every_slot_in_use(catalog):
    """6 replicas of 1 H200 with N+1 need 2 DGX H200; the 16 slots bought all serve."""
    plan = node_plan(catalog, catalog.gpu("h200-sxm"), "dgx-h200", 1, 6, "n+1")
    assert (plan.nodes, plan.replicas, plan.gpus) == (2, 16, 16)


def test_a_server_priced_without_gpus_keeps_only_the_gpus_it_needs(catalog):
    """3 replicas of 1 L40S with N+1 on 4-GPU servers: 2 servers of 3 (either carries the
    load alone); the fourth slot of each stays empty, not bought."""
    plan = node_plan(catalog, catalog.gpu("l40s"), "dell-r760xa", 1, 3, "n+1")
    assert (plan.nodes, plan.replicas) == (2, 6)


def test_the_server_with_fewest_idle_slots_then_the_cheapest_is_chosen(catalog):
    """Two L40S replicas with N+1 (two nodes of two): 4-GPU servers leave fewer slots idle
    than 8-GPU ones, and of those the cheapest with a price wins."""
    plan = node_plan(catalog, catalog.gpu("l40s"), None, 1, 2, "n+1")
    assert plan.server.gpu_count == 4
    four = [s for s in server_options(catalog, catalog.gpu("l40s"), None) if s.gpu_count == 4]
    assert plan.server.price_usd == min(s.price_usd for s in four)


def test_nameplate_power_of_a_system_sold_with_its_gpus(catalog):
    """A DGX H200 draws its 10.2 kW nameplate, whatever the GPUs x TDP."""
    dgx = catalog.servers["dgx-h200"]
    assert node_power_w(dgx, catalog.gpu("h200-sxm"), 6) == 10_200
    server = catalog.servers["dell-r760xa"]  # 2.8 kW with 4 x 350 W L40S: host 1.4 kW
    assert node_power_w(server, catalog.gpu("l40s"), 2) == pytest.approx(2_800 - 2 * 350)


def test_compute_lines_list_systems_with_the_gpus_they_hold(catalog):
    gpu = catalog.gpu("h200-sxm")
    [line] = compute_lines(catalog.servers["dgx-h200"], gpu, 3, 24, {})
    assert (line.item, line.quantity, line.contents) == ("NVIDIA DGX H200", 3, (gpu.name, 8))
    server, gpus = compute_lines(catalog.servers["dell-r760xa"], catalog.gpu("l40s"), 3, 10, {})
    assert (server.quantity, server.contents[1], gpus.quantity) == (3, 4, 10)


def test_a_missing_price_is_named_and_ranks_after_priced_plans(catalog):
    gpu = catalog.gpu("l40s")
    plan = node_plan(catalog, gpu, "dell-r760xa", 1, 2, "n+1")
    unpriced = catalog.servers["dell-r760xa"].model_copy(update={"price_usd": None,
                                                                 "price_kind": None,
                                                                 "price_as_of": None})
    bare = catalog.model_copy(update={"servers": {**catalog.servers, "dell-r760xa": unpriced}})
    cost = compute_cost(node_plan(bare, gpu, "dell-r760xa", 1, 2, "n+1"), gpu, 4, {})
    assert cost.missing == (unpriced.name,) and not cost.complete
    priced = compute_cost(plan, gpu, 4, {})
    assert priced.complete and priced.rank_key() < cost.rank_key()
    assert cost.usd < priced.usd  # cheaper only because a price is missing
