"""`aisizer import-model DIR [--id ID]` (CONTRACT.md, "Command line").

Every test gets its own, empty user configuration folder (``user_config_dir``); the user
catalog is ``<config>/catalogs/models.toml``. The fixture folders hold real config.json files.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path

import pytest

from app.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "catalog" / "fixtures" / "hf"
QWEN = FIXTURES / "qwen2.5-7b-instruct"  # not a built-in id
QWEN_ID = "qwen2.5-7b-instruct"


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *args: object) -> Run:
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def assert_one_sentence(result: Run, *fragments: str) -> None:
    """Exit 2, stdout empty, exactly one ``aisizer:`` line on stderr."""
    assert result.code == 2, (result.code, result.out, result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("aisizer: ")
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)


def user_models(config: Path) -> dict:
    path = config / "catalogs" / "models.toml"
    with path.open("rb") as handle:
        return tomllib.load(handle)


def scenario_for(model_id: str, folder: Path) -> Path:
    path = folder / f"{model_id}.json"
    path.write_text(json.dumps({
        "schema_version": 1,
        "name": f"Imported {model_id}",
        "workload": {"kind": "online_inference", "concurrent_users": 4, "prompt_tokens": 1000,
                     "output_tokens": 200, "max_context_tokens": 2048},
        "model": model_id,
        "precision": {"weights": "bf16", "kv_cache": "bf16"},
        "hardware": {"gpu": "h100-sxm", "gpus_per_replica": 1, "tensor_parallel": 1},
        "serving": {"engine": "vllm"},
    }), encoding="utf-8")
    return path


def test_import_makes_the_model_available(capsys, user_config_dir, tmp_path):
    scenario = scenario_for(QWEN_ID, tmp_path)
    # Before: neither shown nor sizeable.
    assert run(capsys, "catalog", "show", QWEN_ID).code == 2
    before = run(capsys, "size", scenario, "--json")
    assert before.code == 2 and QWEN_ID in before.err and before.out == ""

    result = run(capsys, "import-model", QWEN)
    assert result.code == 0, result.err
    models_toml = user_config_dir / "catalogs" / "models.toml"
    assert f"'{QWEN_ID}'" in result.out
    assert str(models_toml) in result.out
    assert f'"model": "{QWEN_ID}"' in result.out
    assert "bf16" in result.out  # the weights' precision on disk
    assert QWEN_ID in user_models(user_config_dir)

    shown = run(capsys, "catalog", "show", QWEN_ID)
    assert shown.code == 0, shown.err
    data = json.loads(shown.out)
    assert data["id"] == QWEN_ID
    assert (data["layers"], data["hidden_size"], data["kv_heads"]) == (28, 3584, 4)
    assert str(QWEN) in data["source"]
    assert data["as_of"]

    listed = run(capsys, "catalog", "list", "models").out
    assert QWEN_ID in listed.split()
    assert "llama-3.1-70b" in listed.split()  # the built-ins stay

    sized = run(capsys, "size", scenario, "--json")
    assert sized.code == 0, sized.err
    assert sized.err == ""
    result_json = json.loads(sized.out)
    assert result_json["inputs"]["model"] == QWEN_ID
    # Qwen2.5-7B has 7.62 billion parameters (model card).
    assert result_json["memory"]["params_total"] == pytest.approx(7.62e9, rel=0.01)
    assert result_json["memory"]["fits"] is True


def test_import_with_id(capsys, user_config_dir, tmp_path):
    result = run(capsys, "import-model", QWEN, "--id", "custom-id")
    assert result.code == 0, result.err
    assert "'custom-id'" in result.out
    assert '"model": "custom-id"' in result.out
    models = user_models(user_config_dir)
    assert "custom-id" in models
    assert QWEN_ID not in models
    assert json.loads(run(capsys, "catalog", "show", "custom-id").out)["id"] == "custom-id"
    assert run(capsys, "catalog", "show", QWEN_ID).code == 2
    capsys.readouterr()
    sized = run(capsys, "size", scenario_for("custom-id", tmp_path), "--json")
    assert sized.code == 0, sized.err
    assert json.loads(sized.out)["inputs"]["model"] == "custom-id"


def test_two_imports_are_both_kept(capsys, user_config_dir):
    assert run(capsys, "import-model", QWEN, "--id", "first").code == 0
    assert run(capsys, "import-model", FIXTURES / "mistral-7b-v0.1", "--id", "second").code == 0
    models = user_models(user_config_dir)
    assert {"first", "second"} <= set(models)
    listed = run(capsys, "catalog", "list", "models").out.split()
    assert {"first", "second", "mistral-7b"} <= set(listed)


def test_import_reports_the_quantisation(capsys, user_config_dir):
    result = run(capsys, "import-model", FIXTURES / "llama-3.1-8b-instruct-fp8")
    assert result.code == 0, result.err
    assert "fp8" in result.out
    model = json.loads(run(capsys, "catalog", "show", "llama-3.1-8b-instruct-fp8").out)
    assert model["native_precision"] == "fp8"


def test_import_notes_go_to_stderr(capsys, user_config_dir):
    result = run(capsys, "import-model", FIXTURES / "gemma-3-27b-it")
    assert result.code == 0, result.err
    notes = result.err.splitlines()
    assert notes, "the gemma-3 config leaves out fields; the import should say so"
    assert all(line.startswith("aisizer: note: ") for line in notes)
    assert any("vocab_size" in line for line in notes)
    assert "aisizer:" not in result.out


@pytest.mark.parametrize(("folder", "fragments"), [
    ("unknown-model-type", ("model_type", "mamba")),
    ("invalid-json", ("config.json", "not valid JSON")),
    ("missing-field", ("config.json", "num_hidden_layers")),
])
def test_import_invalid_fixture(capsys, user_config_dir, folder, fragments):
    assert_one_sentence(run(capsys, "import-model", FIXTURES / folder), *fragments)
    assert not (user_config_dir / "catalogs" / "models.toml").exists()


def test_import_missing_folder(capsys, user_config_dir, tmp_path):
    missing = tmp_path / "no-such-model"
    assert_one_sentence(run(capsys, "import-model", missing), str(missing), "does not exist")
    assert not (user_config_dir / "catalogs").exists()


def test_import_folder_without_config(capsys, user_config_dir, tmp_path):
    empty = tmp_path / "empty-model"
    empty.mkdir()
    assert_one_sentence(run(capsys, "import-model", empty), "config.json")


def test_import_a_file_instead_of_a_folder(capsys, user_config_dir):
    assert_one_sentence(run(capsys, "import-model", QWEN / "config.json"), "not a folder")


@pytest.mark.parametrize("bad_id", ["Bad ID", "-leading-dash", "UPPER"])
def test_import_invalid_id(capsys, user_config_dir, bad_id):
    assert_one_sentence(run(capsys, "import-model", QWEN, f"--id={bad_id}"), f"'{bad_id}'")
    assert not (user_config_dir / "catalogs" / "models.toml").exists()


def test_import_leaves_a_broken_user_catalog_alone(capsys, user_config_dir):
    folder = user_config_dir / "catalogs"
    folder.mkdir()
    broken = '[my-model\nname = "unterminated\n'
    (folder / "models.toml").write_text(broken, encoding="utf-8")
    assert_one_sentence(run(capsys, "import-model", QWEN), "models.toml", "not valid TOML")
    assert (folder / "models.toml").read_text(encoding="utf-8") == broken
