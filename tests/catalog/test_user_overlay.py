"""The user's catalog folder overlaid on the built-in catalogs (app/catalog/loader.py).

A user file may add entries and replace built-in ones (same id). An entry that does not
validate is reported (file, entry, field, message) and skipped; everything else still loads. A
file that is not valid TOML is reported and the built-ins load as if it were absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import api
from app.catalog import load_catalog
from app.cli import main
from app.domain.scenario import Scenario

BUILTIN_H100_BANDWIDTH = 3350.0
OVERRIDE_BANDWIDTH = 6700.0  # twice the built-in figure

NEW_GPU = """
[test-gpu-x]
name = "Test GPU X 96GB"
vendor = "nvidia"
family = "hopper"
memory_gb = 96
memory_bandwidth_gb_s = 4000
bf16_tflops = 1000
fp8_tflops = 2000
tdp_w = 700
scale_up = "nvlink"
scale_up_gb_s = 450
max_gpus_per_node = 8
form_factor = "sxm"
source = "user overlay test"
as_of = 2026-01-15
"""

# The whole h100-sxm entry (an override replaces the entry), with another bandwidth.
H100_OVERRIDE = f"""
[h100-sxm]
name = "NVIDIA H100 SXM5 80GB (site-measured)"
vendor = "nvidia"
family = "hopper"
memory_gb = 80
visible_memory_gib = 79.65
memory_bandwidth_gb_s = {OVERRIDE_BANDWIDTH}
bf16_tflops = 989.4
fp8_tflops = 1978.9
int8_tops = 1978.9
tdp_w = 700
scale_up = "nvlink"
scale_up_gb_s = 450
max_gpus_per_node = 8
form_factor = "sxm"
source = "user overlay test: our own measurement"
as_of = 2026-02-01
"""

BROKEN_GPU = """
[broken-gpu]
name = "A GPU with negative memory"
vendor = "nvidia"
family = "hopper"
memory_gb = -80
memory_bandwidth_gb_s = 3000
bf16_tflops = 900
tdp_w = 700
scale_up = "nvlink"
scale_up_gb_s = 450
max_gpus_per_node = 8
source = "user overlay test"
as_of = 2026-01-15
"""

NEW_SERVER = """
[test-server-4]
name = "Test server for 4 x Test GPU X"
vendor = "test"
gpu_ids = ["test-gpu-x"]
gpu_count = 4
rack_units = 4
max_power_w = 4000
source = "user overlay test"
as_of = 2026-01-15
"""

NEW_MODEL = """
[tiny-test-model]
name = "Tiny test model"
family = "llama"
layers = 4
hidden_size = 512
attention_heads = 8
kv_heads = 2
intermediate_size = 1024
vocab_size = 32000
max_context_tokens = 4096
source = "user overlay test"
as_of = 2026-01-15
"""


def write(folder: Path, name: str, *tables: str, version: str = "test-1") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'catalog_version = "{version}"\n' + "\n".join(tables), encoding="utf-8")
    return path


@pytest.fixture
def builtin():
    return load_catalog(include_user=False)


@pytest.fixture
def overlay_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "user-catalogs"
    write(folder, "gpus.toml", NEW_GPU, H100_OVERRIDE, BROKEN_GPU)
    write(folder, "models.toml", NEW_MODEL)
    return folder


def test_the_builtin_h100_is_what_the_overlay_changes(builtin):
    assert builtin.gpus["h100-sxm"].memory_bandwidth_gb_s == BUILTIN_H100_BANDWIDTH
    assert "test-gpu-x" not in builtin.gpus
    assert builtin.problems == []


def test_overlay_adds_overrides_and_skips(overlay_folder, builtin):
    catalog = load_catalog(user=overlay_folder)
    # (a) the new GPU and model are there
    assert catalog.gpus["test-gpu-x"].memory_gb == 96
    assert catalog.gpus["test-gpu-x"].source == "user overlay test"
    assert catalog.models["tiny-test-model"].layers == 4
    # (b) the override wins, the whole entry is the user's
    h100 = catalog.gpus["h100-sxm"]
    assert h100.memory_bandwidth_gb_s == OVERRIDE_BANDWIDTH
    assert h100.name == "NVIDIA H100 SXM5 80GB (site-measured)"
    assert h100.source.startswith("user overlay test")
    # (c) the invalid entry is skipped, everything else kept
    assert "broken-gpu" not in catalog.gpus
    assert set(catalog.gpus) == set(builtin.gpus) | {"test-gpu-x"}
    assert set(catalog.models) == set(builtin.models) | {"tiny-test-model"}
    for kind in ("servers", "precisions", "engines", "storage"):
        assert getattr(catalog, kind) == getattr(builtin, kind)
    for gpu_id, gpu in builtin.gpus.items():
        if gpu_id != "h100-sxm":
            assert catalog.gpus[gpu_id] == gpu
    assert catalog.versions["user:gpus"] == "test-1"
    assert catalog.versions["gpus"] == builtin.versions["gpus"]


def test_the_invalid_entry_is_reported_with_file_entry_and_field(overlay_folder):
    catalog = load_catalog(user=overlay_folder)
    assert len(catalog.problems) == 1, catalog.problems
    problem = catalog.problems[0]
    assert Path(problem.file) == overlay_folder / "gpus.toml"
    assert problem.entry == "broken-gpu"
    assert problem.field == "memory_gb"
    assert "greater than 0" in problem.message
    text = str(problem)
    assert "gpus.toml" in text and "broken-gpu" in text and "memory_gb" in text


def test_an_invalid_override_keeps_the_builtin(tmp_path, builtin):
    broken_h100 = H100_OVERRIDE.replace("memory_gb = 80", "memory_gb = -80")
    folder = tmp_path / "user-catalogs"
    write(folder, "gpus.toml", broken_h100)
    catalog = load_catalog(user=folder)
    assert catalog.gpus["h100-sxm"] == builtin.gpus["h100-sxm"]
    assert [(p.entry, p.field) for p in catalog.problems] == [("h100-sxm", "memory_gb")]


def test_every_problem_of_an_entry_is_reported(tmp_path):
    table = BROKEN_GPU.replace("memory_bandwidth_gb_s = 3000", "memory_bandwidth_gb_s = 0")
    table = table.replace('vendor = "nvidia"', 'vendor = "acme"')
    folder = tmp_path / "user-catalogs"
    write(folder, "gpus.toml", table)
    catalog = load_catalog(user=folder)
    fields = {p.field for p in catalog.problems if p.entry == "broken-gpu"}
    assert fields == {"memory_gb", "memory_bandwidth_gb_s", "vendor"}


def test_a_toml_syntax_error_is_reported_and_builtins_load(tmp_path, builtin):
    folder = tmp_path / "user-catalogs"
    folder.mkdir()
    bad = folder / "gpus.toml"
    bad.write_text('catalog_version = "x"\n[test-gpu-x\nname = "no closing bracket"\n',
                   encoding="utf-8")
    write(folder, "models.toml", NEW_MODEL)  # a good file next to it still loads
    catalog = load_catalog(user=folder)
    assert len(catalog.problems) == 1, catalog.problems
    problem = catalog.problems[0]
    assert Path(problem.file) == bad
    assert problem.message
    assert catalog.gpus == builtin.gpus
    assert "tiny-test-model" in catalog.models
    assert set(builtin.models) <= set(catalog.models)


def test_a_missing_user_folder_is_no_problem(tmp_path, builtin):
    catalog = load_catalog(user=tmp_path / "does-not-exist")
    assert catalog.problems == []
    assert catalog.gpus == builtin.gpus


def test_include_user_false_ignores_the_folder(overlay_folder, builtin):
    catalog = load_catalog(user=overlay_folder, include_user=False)
    assert catalog.gpus == builtin.gpus
    assert catalog.problems == []


def small_chat_on(gpu: str, **changes) -> Scenario:
    return api.load_scenario({
        **api.example("small-chat"),
        "hardware": {"gpu": gpu, "gpus_per_replica": 1, "tensor_parallel": 1},
        **changes,
    })


def test_the_engine_uses_the_override(overlay_folder, builtin):
    scenario = small_chat_on("h100-sxm")
    before = api.size(scenario, builtin)
    after = api.size(scenario, load_catalog(user=overlay_folder))
    assert before.gpu.memory_bandwidth_bytes_per_s == BUILTIN_H100_BANDWIDTH * 1e9
    assert after.gpu.memory_bandwidth_bytes_per_s == OVERRIDE_BANDWIDTH * 1e9
    # naive tokens/s = bandwidth / weight bytes: doubles with the bandwidth
    assert after.performance.naive_tokens_per_s == pytest.approx(
        2 * before.performance.naive_tokens_per_s, rel=1e-9)
    assert (after.performance.single_user.tokens_per_s_per_user
            > before.performance.single_user.tokens_per_s_per_user)


def test_the_engine_sizes_a_new_model(overlay_folder):
    scenario = small_chat_on("h100-sxm", model="tiny-test-model")
    result = api.size(scenario, load_catalog(user=overlay_folder))
    assert result.model.id == "tiny-test-model"
    assert result.model.layers == 4
    assert result.memory.fits


def test_the_engine_sizes_a_new_gpu_with_a_new_server(overlay_folder):
    write(overlay_folder, "servers.toml", NEW_SERVER)
    result = api.size(small_chat_on("test-gpu-x"), load_catalog(user=overlay_folder))
    assert result.selection.chosen.gpu == "test-gpu-x"
    assert result.gpu.memory_bandwidth_bytes_per_s == 4000e9
    assert result.scale.server == "test-server-4"


def test_the_engine_handles_a_new_gpu_without_a_server(overlay_folder):
    try:
        result = api.size(small_chat_on("test-gpu-x"), load_catalog(user=overlay_folder))
    except api.ScenarioError as exc:  # a readable refusal is acceptable
        assert "test-gpu-x" in str(exc)
    else:
        assert result.selection.chosen.gpu == "test-gpu-x"


# --------------------------------------------------------------------------- command line


def test_cli_list_reports_the_skipped_entry_and_succeeds(capsys, user_config_dir):
    folder = user_config_dir / "catalogs"
    write(folder, "gpus.toml", NEW_GPU, H100_OVERRIDE, BROKEN_GPU)
    assert main(["catalog", "list", "gpus"]) == 0
    captured = capsys.readouterr()
    ids = [line.split()[0] for line in captured.out.splitlines()]
    assert "test-gpu-x" in ids and "h100-sxm" in ids and "b200" in ids
    assert "broken-gpu" not in ids
    assert ids.count("h100-sxm") == 1
    errors = captured.err.splitlines()
    assert len(errors) == 1, captured.err
    assert errors[0].startswith("aisizer: catalog entry skipped: ")
    for fragment in ("gpus.toml", "broken-gpu", "memory_gb"):
        assert fragment in errors[0]


def test_cli_show_gives_the_override(capsys, user_config_dir):
    write(user_config_dir / "catalogs", "gpus.toml", H100_OVERRIDE)
    assert main(["catalog", "show", "h100-sxm"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["memory_bandwidth_gb_s"] == OVERRIDE_BANDWIDTH
    assert data["source"] == "user overlay test: our own measurement"
    assert data["as_of"] == "2026-02-01"
    assert captured.err == ""


def test_cli_list_with_a_toml_syntax_error(capsys, user_config_dir, builtin):
    folder = user_config_dir / "catalogs"
    folder.mkdir()
    (folder / "gpus.toml").write_text("[h100-sxm\n", encoding="utf-8")
    assert main(["catalog", "list", "gpus"]) == 0
    captured = capsys.readouterr()
    ids = {line.split()[0] for line in captured.out.splitlines()}
    assert ids == set(builtin.gpus)
    assert len(captured.err.splitlines()) == 1
    assert "gpus.toml" in captured.err
    assert captured.err.startswith("aisizer: catalog entry skipped: ")


def test_cli_size_uses_the_user_catalog(capsys, user_config_dir):
    write(user_config_dir / "catalogs", "gpus.toml", NEW_GPU)
    write(user_config_dir / "catalogs", "servers.toml", NEW_SERVER)
    assert main(["size", "--example", "small-chat", "--json",
                 "--set", "hardware.gpu=test-gpu-x"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["selection"]["chosen"]["gpu"] == "test-gpu-x"


def test_cli_size_with_a_user_gpu_and_no_server(capsys, user_config_dir):
    write(user_config_dir / "catalogs", "gpus.toml", NEW_GPU)
    code = main(["size", "--example", "small-chat", "--json",
                 "--set", "hardware.gpu=test-gpu-x"])
    captured = capsys.readouterr()
    assert code in (0, 2)
    if code == 0:
        assert json.loads(captured.out)["selection"]["chosen"]["gpu"] == "test-gpu-x"
    else:
        assert captured.out == ""
        assert captured.err.startswith("aisizer: ") and "test-gpu-x" in captured.err
