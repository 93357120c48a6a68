"""`aisizer catalog list KIND` and `aisizer catalog show ID` (CONTRACT.md, "Command line").

Run in-process through ``app.cli.main``, each test with its own, empty user configuration
folder (``user_config_dir``) so that only the built-in catalogs are listed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest

from app.catalog import load_catalog
from app.cli import main
from app.domain.catalog import KINDS

# CONTRACT.md, "Catalog ids that must exist".
CONTRACT_GPUS = [
    "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "h200-nvl", "gh200-96", "gh200-144",
    "b200", "gb200", "b300", "a100-sxm-40", "a100-sxm-80", "a100-pcie-80", "l40s", "l4",
    "rtx-pro-6000-bse", "rtx-6000-ada", "rtx-4090", "rtx-4080", "rtx-3090", "rtx-5090",
    "mi300x", "mi325x", "mi355x", "gaudi3",
]
CONTRACT_MODELS = [
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b",
    "llama-3.1-70b", "llama-3.1-405b", "llama-3.3-70b", "llama-4-maverick", "mistral-7b",
    "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b",
    "qwen3-235b-a22b", "gpt-oss-20b", "gpt-oss-120b", "deepseek-v3", "deepseek-r1",
    "gemma-3-27b", "gpt-j-6b", "falcon-180b",
]
SOME_IDS = {
    "gpus": ["h100-sxm", "mi300x", "rtx-pro-6000-bse", "gaudi3"],
    "models": ["llama-3.1-70b", "deepseek-v3", "qwen3-30b-a3b"],
    "servers": ["dgx-h100", "dgx-b200", "gb200-nvl72"],
    "precisions": ["bf16", "fp8", "int4-awq", "gguf-q4_k_m"],
    "engines": ["vllm", "tensorrt-llm", "llama.cpp"],
    "storage": ["good"],
}


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *args: object) -> Run:
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def assert_invalid(result: Run, *fragments: str) -> None:
    assert result.code == 2, (result.code, result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("aisizer: ")
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)


def listed_ids(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines() if line.strip()]


@pytest.fixture
def builtin():
    return load_catalog(include_user=False)


def test_the_contract_kinds_exist():
    assert set(SOME_IDS) <= set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_list(capsys, user_config_dir, builtin, kind):
    result = run(capsys, "catalog", "list", kind)
    assert result.code == 0, result.err
    assert result.err == ""
    ids = listed_ids(result.out)
    assert len(ids) == len(set(ids)), "an id is listed twice"
    assert set(SOME_IDS.get(kind, [])) <= set(ids)
    assert set(ids) == set(getattr(builtin, kind))
    for line in result.out.splitlines():
        entry_id, _, name = line.partition(" ")
        assert name.strip() == getattr(builtin, kind)[entry_id].name


def test_list_gpus_has_every_contract_gpu(capsys, user_config_dir):
    ids = set(listed_ids(run(capsys, "catalog", "list", "gpus").out))
    assert set(CONTRACT_GPUS) <= ids, sorted(set(CONTRACT_GPUS) - ids)


def test_list_models_has_every_contract_model(capsys, user_config_dir):
    ids = set(listed_ids(run(capsys, "catalog", "list", "models").out))
    assert set(CONTRACT_MODELS) <= ids, sorted(set(CONTRACT_MODELS) - ids)


def test_list_does_not_mix_kinds(capsys, user_config_dir):
    gpus = set(listed_ids(run(capsys, "catalog", "list", "gpus").out))
    models = set(listed_ids(run(capsys, "catalog", "list", "models").out))
    assert "h100-sxm" not in models
    assert "llama-3.1-70b" not in gpus


@pytest.mark.parametrize("kind", ["nope", "gpu", "GPUS", ""])
def test_list_unknown_kind(capsys, user_config_dir, kind):
    assert_invalid(run(capsys, "catalog", "list", kind), f"'{kind}'", *KINDS)


@pytest.mark.parametrize(("entry_id", "kind"), [
    ("h100-sxm", "gpus"), ("llama-3.1-70b", "models"), ("dgx-h100", "servers"),
    ("fp8", "precisions"), ("vllm", "engines"), ("good", "storage"),
])
def test_show(capsys, user_config_dir, builtin, entry_id, kind):
    result = run(capsys, "catalog", "show", entry_id)
    assert result.code == 0, result.err
    assert result.err == ""
    data = json.loads(result.out)  # exactly one JSON document
    assert data["id"] == entry_id
    assert isinstance(data["source"], str) and len(data["source"]) >= 3
    assert dt.date.fromisoformat(data["as_of"])
    assert isinstance(data["derived"], list)
    assert data == getattr(builtin, kind)[entry_id].model_dump(mode="json")


def test_show_h100_figures(capsys, user_config_dir):
    data = json.loads(run(capsys, "catalog", "show", "h100-sxm").out)
    assert data["name"] == "NVIDIA H100 SXM5 80GB"
    assert data["memory_gb"] == 80
    assert data["memory_bandwidth_gb_s"] == 3350
    assert data["vendor"] == "nvidia"


@pytest.mark.parametrize("entry_id", ["nope", "H100-SXM", "h100"])
def test_show_unknown_id(capsys, user_config_dir, entry_id):
    assert_invalid(run(capsys, "catalog", "show", entry_id), f"'{entry_id}'")
