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
    generic_server,
    node_plan,
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
