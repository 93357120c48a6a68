"""Which servers a training job is bought on (issue #13 "Whole servers", the training path).

The training chain takes Step 5's server rule (app.engine.servers.node_plan, through
servers.training_server): a job smaller than a node goes on the server that leaves the
fewest GPU slots idle, then costs least; a system sold with its GPUs only when nothing
smaller takes the GPU (its idle slots in a warning); a job across nodes keeps the 8-GPU
system it was searched on. Prices and nameplates from catalogs/servers.toml and
catalogs/gpus.toml.
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario, size


def sized(catalog, name: str, **hardware):
    data = example(name)
    if hardware:
        data = {**data, "hardware": {**data["hardware"], **hardware}}
    return size(load_scenario(data), catalog)


def compute_lines(result, catalog) -> dict[str, tuple[float, float]]:
    """Cost lines of the servers and GPUs: {catalog id: (quantity, total USD)}."""
    ids = {entry.name: entry.id for entry in [*catalog.servers.values(),
                                               *catalog.gpus.values()]}
    return {ids[line.item]: (line.quantity, line.total_usd)
            for line in result.infrastructure.cost_lines if line.item in ids}


def test_a_one_gpu_fine_tune_gets_a_pcie_server_not_a_whole_hgx(catalog):
    """fine-tune-lora (QLoRA of Llama-3.1-70B, 1 x H100 PCIe): one 4-slot PCIe server with
    the one GPU in it. Dell R760xa USD 20,000 (ties with the SYS-221GE-NR on slots, price
    and nameplate; catalog order) + H100 PCIe USD 25,000; power = nameplate 2,800 W less
    3 empty slots x 350 W TDP = 1,750 W. On main it was a whole 8-GPU HGX H100 (USD 270,000,
    10.2 kW)."""
    result = sized(catalog, "fine-tune-lora")
    scale, training = result.scale, result.training
    assert (training.gpus_total, training.gpus_per_node, training.nodes) == (1, 4, 1)
    assert (scale.server, scale.nodes, scale.gpus_total) == ("dell-r760xa", 1, 1)
    server = catalog.servers["dell-r760xa"]
    assert not server.price_includes_gpus and server.gpu_count == 4
    lines = compute_lines(result, catalog)
    assert lines["dell-r760xa"] == (1, 20_000)
    assert lines["h100-pcie"] == (1, 25_000)
    assert result.infrastructure.power.compute_w == pytest.approx(2_800 - 3 * 350)
    assert not any("idle" in w for w in result.warnings)


def test_a_one_gpu_job_on_a_gpu_only_whole_systems_take_says_the_idle_slots(catalog):
    """H100 SXM is sold only in 8-GPU systems (DGX/HGX H100, USD 270,000, 10.2 kW nameplate):
    the job takes one whole, and the warning says 7 of its 8 GPUs stay idle."""
    result = sized(catalog, "fine-tune-lora", gpu="h100-sxm")
    assert result.training.gpus_total == 1
    assert result.scale.server in ("dgx-h100", "hgx-h100-8") and result.scale.nodes == 1
    assert compute_lines(result, catalog)[result.scale.server] == (1, 270_000)
    assert result.infrastructure.power.compute_w == pytest.approx(10_200)
    idle = [w for w in result.warnings if "idle" in w]
    assert len(idle) == 1 and "uses 1 and leaves 7 GPUs idle" in idle[0]
    assert "no smaller server in the catalog takes the NVIDIA H100 SXM" in idle[0]


def test_the_named_server_is_kept_and_its_idle_slots_said(catalog):
    result = sized(catalog, "fine-tune-lora", gpu="h100-sxm", server="hgx-h100-8")
    assert result.scale.server == "hgx-h100-8"
    idle = [w for w in result.warnings if "idle" in w]
    assert len(idle) == 1 and "hardware.server names this system" in idle[0]


def test_a_two_gpu_job_gets_two_gpus_in_a_pcie_server(catalog):
    """Full fine-tuning of Llama-3.1-8B with ZeRO needs more than one 80 GB GPU: it goes on a
    4-slot PCIe server holding just the GPUs it uses (bought apart)."""
    data = {"model": "llama-3.1-8b", "workload": {"kind": "fine_tuning"},
            "hardware": {"gpu": "h100-pcie"},
            "training": {"method": "full", "sequence_length": 4096, "tokens_total": 2e8,
                         "max_gpus": 4},
            "availability": {"redundancy": "none"}}
    result = size(load_scenario(data), catalog)
    gpus = result.training.gpus_total
    assert 1 < gpus <= 4
    server = catalog.servers[result.scale.server]
    assert not server.price_includes_gpus and server.gpu_count == 4
    assert compute_lines(result, catalog)["h100-pcie"][0] == gpus
    assert result.infrastructure.power.compute_w == pytest.approx(
        server.max_power_w - (4 - gpus) * catalog.gpu("h100-pcie").tdp_w)


def test_pretraining_across_nodes_keeps_whole_8_gpu_systems(catalog):
    """pretrain (Llama-3.1-8B, 1 T tokens in 21 days on H100 SXM): 96 GPUs in 12 whole
    DGX H100 (8 GPUs each, USD 270,000 and 10.2 kW apiece), no idle slot."""
    result = sized(catalog, "pretrain")
    assert (result.training.gpus_total, result.scale.nodes) == (96, 12)
    server = catalog.servers[result.scale.server]
    assert server.gpu_count == 8 and server.price_includes_gpus
    assert compute_lines(result, catalog)[server.id] == (12, 12 * 270_000)
    assert result.infrastructure.power.compute_w == pytest.approx(12 * 10_200)
    assert not any("idle" in w for w in result.warnings)


def test_training_gpus_are_ranked_by_the_capital_of_what_is_bought(catalog):
    """H100 SXM and H100 NVL both list USD 27,500 a GPU, so ranking by the GPUs alone took
    the faster SXM, bought as a whole USD 270,000 system; with the servers, one NVL in a
    4-slot PCIe server (USD 27,500 + its server) costs far less and ranks first."""
    data = {**example("fine-tune-lora"), "hardware": None,
            "selection": {"gpus": ["h100-sxm", "h100-nvl"], "rank_by": "capital_cost"}}
    result = size(load_scenario(data), catalog)
    assert result.training.gpu == "h100-nvl"
    server = catalog.servers[result.scale.server]
    assert not server.price_includes_gpus
    lines = compute_lines(result, catalog)
    assert lines["h100-nvl"] == (1, 27_500)
    assert lines[server.id] == (1, server.price_usd) and server.price_usd < 270_000 - 27_500
