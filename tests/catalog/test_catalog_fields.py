"""Bad values in the catalog fields added for issues 13 and 15 are reported by the loader with
the file, the entry and the field, and the entry is skipped (app/catalog/loader.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.catalog.loader import load_folder

GPU = """
[test-gpu]
name = "Test GPU"
vendor = "nvidia"
family = "blackwell"
memory_gb = 96
memory_bandwidth_gb_s = 1792
bf16_tflops = 500
tdp_w = 600
scale_up = "pcie"
scale_up_gb_s = 50
max_gpus_per_node = 8
source = "catalog field test"
as_of = 2026-11-01
"""

SERVER = """
[test-server]
name = "Test server"
vendor = "generic"
gpu_ids = ["test-gpu"]
gpu_count = 4
rack_units = 2
max_power_w = 3600
source = "catalog field test"
as_of = 2026-11-01
"""


def problems(tmp_path: Path, kind: str, text: str):
    (tmp_path / f"{kind}.toml").write_text(text, encoding="utf-8")
    catalog = load_folder(tmp_path)
    return catalog, [(Path(p.file).name, p.entry, p.field, p.message) for p in catalog.problems]


def test_the_new_fields_are_optional_for_user_entries(tmp_path):
    catalog, found = problems(tmp_path, "gpus", GPU)
    assert found == []
    gpu = catalog.gpus["test-gpu"]
    assert (gpu.gpu_class, gpu.price_kind, gpu.price_as_of, gpu.preliminary) == (
        None, None, None, False)


@pytest.mark.parametrize(("extra", "field", "words"), [
    ('gpu_class = "server"', "gpu_class", "'datacenter', 'workstation' or 'consumer'"),
    ('price_usd = 9000\nprice_kind = "street"', "price_kind", "'list' or 'estimate'"),
    ('price_usd = 9000\nprice_as_of = "last year"', "price_as_of", "date"),
    ('price_kind = "list"', "price_kind", "price_kind given without price_usd"),
    ('price_as_of = 2026-01-01', "price_as_of", "price_as_of given without price_usd"),
    ("preliminary = 3", "preliminary", "boolean"),
])
def test_bad_gpu_fields_name_file_entry_and_field(tmp_path, extra, field, words):
    catalog, found = problems(tmp_path, "gpus", GPU + extra + "\n")
    assert "test-gpu" not in catalog.gpus
    assert len(found) == 1, found
    file, entry, where, message = found[0]
    assert (file, entry, where) == ("gpus.toml", "test-gpu", field)
    assert words in message, message


@pytest.mark.parametrize(("extra", "field", "words"), [
    ("typical_power_w = 4000", "typical_power_w",
     "typical_power_w (4000 W) exceeds max_power_w (3600 W)"),
    ('chassis = "blade"', "chassis", "'rack', 'rack-scale', 'tower' or 'desktop'"),
    ('power_delivery = "dc"', "power_delivery", "'ac-psu' or 'dc-busbar'"),
    ('price_usd = -5', "price_usd", "greater than 0"),
])
def test_bad_server_fields_name_file_entry_and_field(tmp_path, extra, field, words):
    catalog, found = problems(tmp_path, "servers", SERVER + extra + "\n")
    assert "test-server" not in catalog.servers
    assert len(found) == 1, found
    file, entry, where, message = found[0]
    assert (file, entry, where) == ("servers.toml", "test-server", field)
    assert words in message, message


def test_an_unknown_gpu_family_lists_the_families(tmp_path):
    catalog, found = problems(tmp_path, "gpus", GPU.replace('"blackwell"', '"volta"'))
    assert [(f, e, w) for f, e, w, _ in found] == [("gpus.toml", "test-gpu", "family")]
    assert "'rubin'" in found[0][3]
