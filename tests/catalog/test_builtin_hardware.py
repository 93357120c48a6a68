"""The built-in GPU and server catalogs: complete, consistent and sourced."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.catalog.loader import load_catalog
from app.domain.catalog import Catalog

CONTRACT_GPUS = (
    "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "h200-nvl", "gh200-96", "gh200-144",
    "b200", "gb200", "b300", "a100-sxm-40", "a100-sxm-80", "a100-pcie-80", "l40s", "l4",
    "rtx-pro-6000-bse", "rtx-6000-ada", "rtx-4090", "rtx-4080", "rtx-3090", "rtx-5090",
    "mi300x", "mi325x", "mi355x", "gaudi3",
)
CONTRACT_SERVERS = ("dgx-h100", "dgx-h200", "dgx-b200", "dgx-b300", "gb200-nvl72")
HARDWARE_FILES = ("gpus.toml", "servers.toml")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(include_user=False)


def _hardware_entries(catalog: Catalog):
    yield from catalog.gpus.values()
    yield from catalog.servers.values()


def test_hardware_files_load_without_problems(catalog):
    problems = [p for p in catalog.problems if Path(p.file).name in HARDWARE_FILES]
    assert not problems, "\n".join(str(p) for p in problems)
    assert catalog.versions.get("gpus") not in (None, "unversioned")
    assert catalog.versions.get("servers") not in (None, "unversioned")


def test_every_contract_gpu_exists(catalog):
    missing = sorted(set(CONTRACT_GPUS) - set(catalog.gpus))
    assert not missing, f"GPU ids missing from catalogs/gpus.toml: {missing}"


def test_contract_servers_exist(catalog):
    missing = sorted(set(CONTRACT_SERVERS) - set(catalog.servers))
    assert not missing, f"server ids missing from catalogs/servers.toml: {missing}"


def test_contract_server_kinds_exist(catalog):
    servers = catalog.servers.values()
    pcie = [s for s in servers if s.scale_up == "pcie"]
    assert any(s.gpu_count == 4 and "rtx-pro-6000-bse" in s.gpu_ids for s in pcie)
    assert any(s.gpu_count == 8 and "l40s" in s.gpu_ids for s in pcie)
    assert any(s.gpu_count <= 2 and "rtx-4090" in s.gpu_ids for s in pcie)
    assert any(s.gpu_count == 8 and "h100-sxm" in s.gpu_ids and s.id != "dgx-h100"
               for s in servers)
    assert any(s.gpu_count == 8 and "h200-sxm" in s.gpu_ids and s.id != "dgx-h200"
               for s in servers)


def test_every_gpu_is_hosted_by_a_server(catalog):
    hosted = {gpu_id for server in catalog.servers.values() for gpu_id in server.gpu_ids}
    unhosted = sorted(set(catalog.gpus) - hosted)
    assert not unhosted, f"GPUs no server hosts: {unhosted}"


def test_server_gpu_ids_exist(catalog):
    unknown = {
        server.id: sorted(set(server.gpu_ids) - set(catalog.gpus))
        for server in catalog.servers.values()
        if set(server.gpu_ids) - set(catalog.gpus)
    }
    assert not unknown, f"servers naming unknown GPU ids: {unknown}"


def test_every_entry_is_sourced_and_dated(catalog):
    for entry in _hardware_entries(catalog):
        assert entry.source.strip(), f"{entry.id}: empty source"
        assert isinstance(entry.as_of, dt.date), f"{entry.id}: as_of is not a date"
        assert dt.date(2020, 1, 1) <= entry.as_of <= dt.date(2030, 1, 1), entry.id


def test_derived_fields_name_real_fields_and_are_explained(catalog):
    for entry in _hardware_entries(catalog):
        fields = type(entry).model_fields
        for name in entry.derived:
            assert name in fields, f"{entry.id}: derived names unknown field '{name}'"
            assert getattr(entry, name) is not None, f"{entry.id}: derived '{name}' is unset"
        if entry.derived:
            assert entry.notes.strip(), f"{entry.id}: derived fields without notes"


def test_prices_carry_a_source(catalog):
    for entry in _hardware_entries(catalog):
        if entry.price_usd is not None:
            assert entry.price_source.strip(), f"{entry.id}: price without price_source"


@pytest.mark.parametrize(
    ("gpu_id", "field", "expected"),
    [
        ("h100-sxm", "memory_bandwidth_gb_s", 3350),
        ("h100-sxm", "bf16_tflops", 989.4),
        ("h100-sxm", "fp8_tflops", 1978.9),
        ("h100-sxm", "scale_up_gb_s", 450),
        ("h200-sxm", "memory_gb", 141),
        ("h200-sxm", "memory_bandwidth_gb_s", 4800),
        ("b200", "memory_gb", 192),
        ("b200", "usable_memory_gb", 180),
        ("b200", "bf16_tflops", 2250),
        ("b200", "fp4_tflops", 9000),
        ("b200", "scale_up_gb_s", 900),
        ("gb200", "usable_memory_gb", 186),
        ("gb200", "max_gpus_per_node", 72),
        ("b300", "memory_gb", 288),
        ("a100-sxm-80", "memory_bandwidth_gb_s", 2039),
        ("a100-sxm-40", "scale_up_gb_s", 300),
        ("l40s", "bf16_tflops", 362.05),
        ("rtx-pro-6000-bse", "memory_bandwidth_gb_s", 1792),
        ("rtx-4090", "bf16_tflops", 165.2),
        ("mi300x", "bf16_tflops", 1307.4),
        ("mi300x", "memory_bandwidth_gb_s", 5300),
        ("gaudi3", "bf16_tflops", 1835),
    ],
)
def test_known_gpu_values(catalog, gpu_id, field, expected):
    assert getattr(catalog.gpu(gpu_id), field) == pytest.approx(expected)


def test_b200_engine_memory_is_what_the_driver_reports(catalog):
    # DGX/HGX B200 expose 183,359 MiB (about 180 GiB) of the 192 GB physical HBM3e.
    assert catalog.gpu("b200").memory_bytes == pytest.approx(183359 * 2**20, rel=1e-3)


def test_h100_engine_memory_is_81559_mib(catalog):
    # An "80 GB" H100 reports 81,559 MiB = 85.5e9 B; the GB figure would understate it.
    assert catalog.gpu("h100-sxm").memory_bytes == pytest.approx(81559 * 2**20, rel=1e-3)


@pytest.mark.parametrize(
    ("server_id", "max_power_w", "rack_units", "gpu_count"),
    [
        ("dgx-h100", 10200, 8, 8),
        ("dgx-h200", 10200, 8, 8),
        ("dgx-b200", 14300, 10, 8),
        ("gb200-nvl72", 132000, 48, 72),
    ],
)
def test_known_server_values(catalog, server_id, max_power_w, rack_units, gpu_count):
    server = catalog.servers[server_id]
    assert server.max_power_w == pytest.approx(max_power_w)
    assert server.rack_units == rack_units
    assert server.gpu_count == gpu_count


def test_gpu_figures_are_sane(catalog):
    for gpu in catalog.gpus.values():
        assert 8 <= gpu.memory_gb <= 400, gpu.id
        if gpu.usable_memory_gb is not None:
            assert gpu.usable_memory_gb <= gpu.memory_gb, gpu.id
        assert 100 <= gpu.memory_bandwidth_gb_s <= 25_000, gpu.id  # Rubin HBM4: 22 TB/s
        assert 10 <= gpu.bf16_tflops <= 10_000, gpu.id
        if gpu.fp8_tflops is not None:
            assert gpu.fp8_tflops >= gpu.bf16_tflops, gpu.id
        if gpu.fp4_tflops is not None:
            assert gpu.fp4_tflops >= (gpu.fp8_tflops or gpu.bf16_tflops), gpu.id
            assert gpu.family in ("blackwell", "rubin", "cdna4"), (
                f"{gpu.id}: fp4 outside Blackwell/Rubin/MI350")
        assert 50 <= gpu.tdp_w <= 2500, gpu.id  # Rubin (preliminary): about 2.3 kW
        assert 10 <= gpu.scale_up_gb_s <= 2000, gpu.id  # NVLink 6: 1.8 TB/s per direction


def test_dense_not_sparse_ratios(catalog):
    """Dense bf16 per unit of bandwidth stays in a plausible band (sparse would double it)."""
    for gpu in catalog.gpus.values():
        flops_per_byte = gpu.bf16_tflops * 1e12 / (gpu.memory_bandwidth_gb_s * 1e9)
        # H20 (37 FLOP/B): a GH100 cut to about 15 % of H100 compute with more bandwidth.
        assert 30 <= flops_per_byte <= 600, f"{gpu.id}: {flops_per_byte:.0f} FLOP/B"


def test_scale_up_matches_the_link(catalog):
    for gpu in catalog.gpus.values():
        if gpu.scale_up == "pcie":
            assert gpu.scale_up_gb_s <= 64, f"{gpu.id}: PCIe is at most ~64 GB/s per direction"
        if gpu.family == "hopper" and gpu.form_factor == "sxm":
            assert gpu.scale_up_gb_s == 450, gpu.id
        if gpu.family == "blackwell" and gpu.scale_up == "nvlink":
            assert gpu.scale_up_gb_s == 900, gpu.id


def test_servers_are_sane(catalog):
    for server in catalog.servers.values():
        assert 1 <= server.gpu_count <= 72, server.id
        watts_per_gpu = server.max_power_w / server.gpu_count
        # DGX Spark: one 140 W GB10 in a 240 W box.
        assert 200 <= watts_per_gpu <= 3500, f"{server.id}: {watts_per_gpu:.0f} W per GPU"
        if server.typical_power_w is not None:
            assert server.typical_power_w <= server.max_power_w, server.id
        for gpu_id in server.gpu_ids:
            gpu = catalog.gpu(gpu_id)
            # A server's GPUs alone must fit its power budget.
            assert gpu.tdp_w * server.gpu_count < server.max_power_w, (server.id, gpu_id)


def test_nvlink_domains_fit_their_servers(catalog):
    """SXM/NVL72 GPUs: some server holds a whole scale-up domain."""
    for gpu in catalog.gpus.values():
        if gpu.form_factor in ("sxm", "oam", "nvl72", "superchip"):
            sizes = [s.gpu_count for s in catalog.servers.values() if gpu.id in s.gpu_ids]
            assert gpu.max_gpus_per_node in sizes, (gpu.id, sizes)


# --------------------------------------------------------------------- prices and classes
# Issue 13: every GPU and server the catalogs offer has a dated, sourced indicative price that
# says whether it is a list price or an estimate; issue 15: the classes and power fields the
# plan needs are stated for every built-in entry.


def test_every_gpu_and_server_has_a_dated_price_of_a_stated_kind(catalog):
    for entry in _hardware_entries(catalog):
        assert entry.price_usd, f"{entry.id}: no price"
        assert entry.price_kind in ("list", "estimate"), entry.id
        assert entry.price_as_of is not None, f"{entry.id}: price without a date"
        assert entry.price_as_of <= entry.as_of, f"{entry.id}: price dated after as_of"
        assert len(entry.price_source) > 20, f"{entry.id}: price without a real source"
        if entry.price_kind == "estimate":
            assert "estimate" in entry.price_source, f"{entry.id}: estimate not said so"


def test_every_gpu_states_its_class(catalog):
    for gpu in catalog.gpus.values():
        assert gpu.gpu_class in ("datacenter", "workstation", "consumer"), gpu.id
    assert catalog.gpu("rtx-pro-6000-bse").gpu_class == "datacenter"
    assert catalog.gpu("rtx-pro-6000-ws").gpu_class == "workstation"
    assert catalog.gpu("rtx-5090").gpu_class == "consumer"


def test_every_server_states_chassis_and_typical_power(catalog):
    for server in catalog.servers.values():
        assert server.chassis in ("rack", "rack-scale", "tower", "desktop"), server.id
        assert server.typical_power_w, f"{server.id}: no typical power"
        assert 0.3 * server.max_power_w <= server.typical_power_w <= server.max_power_w, server.id


def test_towers_and_desktops_take_no_data_centre_gpus(catalog):
    """A passive Server Edition card needs server airflow: it goes into a rack server."""
    for server in catalog.servers.values():
        if server.chassis in ("tower", "desktop"):
            classes = {catalog.gpu(g).gpu_class for g in server.gpu_ids}
            assert "datacenter" not in classes, server.id


def test_the_worked_examples_four_gpu_server_edition_node_exists(catalog):
    """The sizing guide's worked example runs 4-GPU RTX PRO 6000 Server Edition nodes."""
    nodes = [s for s in catalog.servers.values()
             if "rtx-pro-6000-bse" in s.gpu_ids and s.gpu_count == 4 and s.chassis == "rack"]
    assert any(s.vendor != "generic" for s in nodes), [s.id for s in nodes]


def test_rack_scale_systems_are_liquid_cooled_on_a_busbar(catalog):
    for server in catalog.servers.values():
        if server.chassis == "rack-scale":
            assert server.cooling == "liquid" and server.power_delivery == "dc-busbar", server.id
    gb300 = catalog.servers["gb300-nvl72"]
    assert 130_000 <= gb300.typical_power_w <= gb300.max_power_w <= 145_000


def test_preliminary_entries_say_so(catalog):
    preliminary = [e for e in _hardware_entries(catalog) if e.preliminary]
    assert {e.id for e in preliminary} >= {"rubin-vr200", "vera-rubin-nvl72"}
    for entry in preliminary:
        assert "PRELIMINARY" in entry.notes and "disagree" in entry.notes, entry.id


def test_unified_memory_leaves_room_for_the_os(catalog):
    spark = catalog.gpu("gb10")
    assert spark.unified_memory and spark.usable_memory_gb < spark.memory_gb
    assert spark.memory_bandwidth_gb_s == 273


@pytest.mark.parametrize(
    ("gpu_id", "field", "expected"),
    [
        ("h20", "bf16_tflops", 148),  # dense; TPP 2,368 = 296 FP8 x 8 bits
        ("h20", "memory_bandwidth_gb_s", 4000),
        ("gb300", "fp4_tflops", 15000),  # 1,080 PF dense FP4 per NVL72 / 72
        ("gb300", "int8_tops", 165),
        ("mi350x", "fp4_tflops", 9200),  # 18.45 PF sparse / 2
        ("rtx-pro-6000-maxq", "tdp_w", 300),
        ("gb10", "fp4_tflops", 500),  # 1 PFLOP sparse / 2
        ("a100-pcie-40", "memory_bandwidth_gb_s", 1555),
    ],
)
def test_known_new_gpu_values(catalog, gpu_id, field, expected):
    assert getattr(catalog.gpu(gpu_id), field) == pytest.approx(expected)
