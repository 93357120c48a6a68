"""Inputs that used to crash, hang or give a wrong answer (issue 14), through the command line.

Each case: exit 2, nothing on stdout, one ``aisizer:`` sentence per problem on stderr naming
the field or the file, no traceback, within a few seconds, and no change to the configuration
folder. The figures that were wrong (the fine-tuning example's serving memory, replicas of a
configuration that misses its targets) are checked against what they must be.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import time
import zipfile
from pathlib import Path

import pytest
from bundle_edits import with_gpu_field

from app import api
from app.cli import main
from app.domain.safe_json import MAX_DEPTH

FIXTURES = Path(__file__).resolve().parents[1] / "catalog" / "fixtures" / "hf"
QWEN = FIXTURES / "qwen2.5-7b-instruct"
SECONDS = 10  # "never longer than a few seconds" (issue 14), on a loaded 2-core machine


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float


def run(capsys: pytest.CaptureFixture[str], *args: object) -> Run:
    start = time.monotonic()
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err, time.monotonic() - start)


def refused(result: Run, *fragments: str) -> None:
    """Exit 2 with sentences on stderr, nothing on stdout, no traceback, quickly."""
    assert result.code == 2, (result.code, result.out[-500:], result.err)
    assert result.out == ""
    assert result.err.startswith("aisizer: "), result.err
    assert "Traceback" not in result.err
    assert result.seconds < SECONDS, result.seconds
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def scenario_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.json"
    path.write_text(text, encoding="utf-8")
    return path


def small_chat() -> dict:
    return api.example("small-chat")


# --------------------------------------------------------------------------- JSON bounds


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 800, 100_000])
def test_deeply_nested_scenario_is_one_sentence(tmp_path, capsys, depth):
    text = json.dumps(small_chat())[:-1] + f', "extra": {nested(depth)}}}'
    refused(run(capsys, "size", scenario_file(tmp_path, text)), "scenario:", "levels deep")


def test_an_integer_of_5000_digits_is_one_sentence(tmp_path, capsys):
    text = json.dumps(small_chat()).replace('"concurrent_users": 8', '"concurrent_users": '
                                            + "9" * 5000)
    refused(run(capsys, "size", scenario_file(tmp_path, text)), "scenario:", "4,300 digits")


def test_an_integer_beyond_the_float_range_is_a_sentence(tmp_path, capsys):
    """10^400 for a user count (found by the fuzz suite: OverflowError in the message)."""
    data = small_chat()
    data["workload"]["concurrent_users"] = 10**400
    result = run(capsys, "size", scenario_file(tmp_path, json.dumps(data)))
    refused(result, "workload.concurrent_users", "10,000,000")
    assert len(result.err) < 400


def test_a_scenario_that_is_not_a_regular_file_is_refused(tmp_path, capsys):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    fifo = tmp_path / "scenario.json"
    os.mkfifo(fifo)
    refused(run(capsys, "size", fifo), "not a regular file")


# --------------------------------------------------------------------------- strict numbers


@pytest.mark.parametrize(("group", "name", "value"), [
    ("workload", "concurrent_users", True), ("workload", "prompt_tokens", False),
    ("targets", "ttft_s", True), ("infrastructure", "pue", True),
    ("infrastructure", "price_overrides_usd", {"l40s": True}),
])
def test_true_is_not_the_number_one(tmp_path, capsys, group, name, value):
    data = small_chat()
    data.setdefault(group, {})[name] = value
    refused(run(capsys, "size", scenario_file(tmp_path, json.dumps(data))),
            f"{group}.{name}: must be a number, not true or false")
    refused(run(capsys, "size", "--example", "small-chat", "--set",
                f"{group}.{name}={json.dumps(value)}"), f"{group}.{name}")


@pytest.mark.parametrize("value", ["-5000000000", "NaN", "Infinity", "-Infinity", "1e999",
                                   "2e12", "true"])
def test_price_overrides_refuse_negative_nan_infinite_and_absurd(capsys, value):
    result = run(capsys, "size", "--example", "small-chat", "--json", "--set",
                 f'infrastructure.price_overrides_usd={{"l40s": {value}}}')
    refused(result, "infrastructure.price_overrides_usd")


def test_a_price_override_within_range_is_used(capsys):
    result = run(capsys, "size", "--example", "small-chat", "--json", "--set",
                 'infrastructure.price_overrides_usd={"l40s": 0}')
    assert result.code == 0, result.err
    assert "NaN" not in result.out and "Infinity" not in result.out


@pytest.mark.parametrize("assignment", ["workload.completion_window_hours=1e-6",
                                        "workload.completion_window_hours=1e-300",
                                        "targets.ttft_s=1e-300",
                                        "workload.prompt_tokens=1e-300"])
def test_tiny_times_and_lengths_are_refused(tmp_path, capsys, assignment):
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps(api.example("batch-summaries")), encoding="utf-8")
    refused(run(capsys, "size", batch, "--set", assignment), assignment.split("=")[0])


def test_a_batch_volume_beyond_a_million_replicas_is_refused_quickly(tmp_path, capsys):
    """A day's volume in six minutes on the example's GPUs: billions of replicas. Refused
    with the field, not planned node by node (it hung before)."""
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps(api.example("batch-summaries")), encoding="utf-8")
    refused(run(capsys, "size", batch, "--set", "workload.completion_window_hours=0.1",
                "--set", "workload.tokens_per_day=1e15"),
            "workload.completion_window_hours", "replicas, more than the 1,000,000")


def test_a_six_thousand_character_region_is_refused_by_report(tmp_path, capsys):
    out = tmp_path / "r.pdf"
    refused(run(capsys, "report", "--example", "small-chat", "--no-sign", "-o", out,
                "--set", "sovereignty.region=" + "x" * 6000),
            "sovereignty.region", "at most 200 characters")
    assert not out.exists()


# --------------------------------------------------------------------------- inline models


def with_model(**changes) -> dict:
    model = {"id": "test-model", "name": "Test", "source": "test", "as_of": "2026-01-01",
             "layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 8,
             "intermediate_size": 14336, "vocab_size": 128256, "max_context_tokens": 131072}
    model.update(changes)
    data = small_chat()
    data["model"] = model
    return data


@pytest.mark.parametrize(("changes", "field"), [
    ({"attention_heads": 10**12, "kv_heads": 10**12}, "model.attention_heads"),
    ({"hidden_size": 2**1023}, "model.hidden_size"),
    ({"max_context_tokens": True}, "model.max_context_tokens"),
    ({"hidden_size": 4096.5}, "model.hidden_size"),
])
def test_an_inline_model_out_of_range_is_refused(tmp_path, capsys, changes, field):
    path = scenario_file(tmp_path, json.dumps(with_model(**changes)))
    refused(run(capsys, "size", path), field)


# --------------------------------------------------------------------------- import-model


def model_folder(tmp_path: Path, name: str = "my-model", **changes) -> Path:
    folder = tmp_path / name
    shutil.copytree(QWEN, folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config.update(changes)
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("changes", "fragment"), [
    ({"hidden_size": 2**1023}, "hidden_size"),
    ({"num_attention_heads": 10**12, "num_key_value_heads": 10**12}, "num_attention_heads"),
    ({"hidden_size": True}, "hidden_size"),
])
def test_import_model_refuses_values_sizing_cannot_use(tmp_path, user_config_dir, capsys,
                                                      changes, fragment):
    before = snapshot(user_config_dir)
    result = run(capsys, "import-model", model_folder(tmp_path, **changes))
    refused(result, fragment)
    assert len(result.err) < 1000, result.err  # the value is shortened, not 300 digits
    assert snapshot(user_config_dir) == before


def test_import_model_refuses_a_deeply_nested_config(tmp_path, user_config_dir, capsys):
    folder = model_folder(tmp_path)
    text = (folder / "config.json").read_text(encoding="utf-8")
    (folder / "config.json").write_text(text[:-1] + f', "x": {nested(100_000)}}}',
                                        encoding="utf-8")
    before = snapshot(user_config_dir)
    refused(run(capsys, "import-model", folder), "config.json", "levels deep")
    assert snapshot(user_config_dir) == before


def test_import_model_reads_no_fifo_named_safetensors(tmp_path, user_config_dir, capsys):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    folder = model_folder(tmp_path)
    for index in folder.glob("*.index.json"):
        index.unlink()
    os.mkfifo(folder / "model-00001-of-00001.safetensors")
    result = run(capsys, "import-model", folder)
    assert result.code == 0, result.err
    assert result.seconds < SECONDS
    assert "not a regular file" in result.err


def test_import_model_does_not_replace_a_builtin_model_silently(tmp_path, user_config_dir,
                                                                capsys):
    """A folder named like a built-in model (an 8B config in a folder 'llama-3.1-70b') is
    imported under a new id, and the note says so; the built-in model stays."""
    folder = model_folder(tmp_path, "llama-3.1-70b")
    result = run(capsys, "import-model", folder)
    assert result.code == 0, result.err
    assert "'llama-3.1-70b' is a built-in model" in result.err
    assert "llama-3.1-70b-local" in result.out
    from app.catalog import default_catalog

    catalog = default_catalog()
    assert catalog.models["llama-3.1-70b"].hidden_size == 8192  # the built-in one
    assert catalog.models["llama-3.1-70b-local"].hidden_size == 3584  # the imported one


def test_import_model_with_a_builtin_id_asks_for_replace(tmp_path, user_config_dir, capsys):
    folder = model_folder(tmp_path)
    before = snapshot(user_config_dir)
    refused(run(capsys, "import-model", folder, "--id", "llama-3.1-70b"),
            "'llama-3.1-70b' is a built-in model", "--replace")
    assert snapshot(user_config_dir) == before
    result = run(capsys, "import-model", folder, "--id", "llama-3.1-70b", "--replace")
    assert result.code == 0, result.err


# --------------------------------------------------------------------------- bundles


def bundle_with(tmp_path: Path, members: dict[str, bytes], encrypt: str = "") -> Path:
    """A zip of ``members``; ``encrypt`` names one whose headers say it is encrypted (bit 0
    of the general-purpose flags, in its local and its central-directory header)."""
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    if encrypt:
        raw = bytearray(path.read_bytes())
        with zipfile.ZipFile(path) as archive:
            local = archive.getinfo(encrypt).header_offset
        raw[local + 6] |= 0x1  # local file header: flags at offset 6
        central = raw.find(b"PK\x01\x02")
        while central >= 0:
            name_length = int.from_bytes(raw[central + 28:central + 30], "little")
            if raw[central + 46:central + 46 + name_length] == encrypt.encode():
                raw[central + 8] |= 0x1  # central directory header: flags at offset 8
                break
            central = raw.find(b"PK\x01\x02", central + 4)
        path.write_bytes(bytes(raw))
    return path


@pytest.fixture
def exported_members(tmp_path: Path, user_config_dir: Path, capsys) -> dict[str, bytes]:
    out = tmp_path / "exported.zip"
    assert main(["catalog", "export", str(out)]) == 0
    capsys.readouterr()
    with zipfile.ZipFile(out) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_bundle_zip_bomb_is_refused_before_it_expands(tmp_path, exported_members,
                                                      user_config_dir, capsys):
    """A member that expands to 2 GB (a few MB zipped) whose header claims a small size."""
    import tracemalloc

    members = dict(exported_members)
    name = next(n for n in members if n.endswith("gpus.toml"))
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            if member == name:
                with archive.open(member, "w", force_zip64=True) as stream:
                    block = b"\0" * 2**20
                    for _ in range(200):  # 200 MB of zeros, 200 KB zipped
                        stream.write(block)
            else:
                archive.writestr(member, data)
    before = snapshot(user_config_dir)
    tracemalloc.start()
    result = run(capsys, "catalog", "import", path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    refused(result, name)
    assert peak < 100 * 2**20, peak
    assert snapshot(user_config_dir) == before


def test_bundle_encrypted_member_is_one_sentence(tmp_path, exported_members, user_config_dir,
                                                 capsys):
    name = next(n for n in exported_members if n.endswith("gpus.toml"))
    path = bundle_with(tmp_path, exported_members, encrypt=name)
    before = snapshot(user_config_dir)
    refused(run(capsys, "catalog", "import", path), name, "encrypted")
    assert snapshot(user_config_dir) == before


def test_bundle_manifest_nested_deeply_is_one_sentence(tmp_path, exported_members,
                                                       user_config_dir, capsys):
    members = dict(exported_members)
    manifest = members["manifest.json"].decode("utf-8").rstrip()
    members["manifest.json"] = (manifest[:-1] + f', "x": {nested(100_000)}}}').encode()
    before = snapshot(user_config_dir)
    refused(run(capsys, "catalog", "import", bundle_with(tmp_path, members)), "manifest.json",
            "levels deep")
    assert snapshot(user_config_dir) == before


@pytest.mark.parametrize(("field", "value"), [("memory_gb", "1e300"), ("memory_gb", "inf"),
                                              ("memory_gb", "nan"), ("tdp_w", "true")])
def test_bundle_with_absurd_or_infinite_gpu_is_refused(tmp_path, exported_members,
                                                       user_config_dir, capsys, field, value):
    members = with_gpu_field(exported_members, field, value)
    before = snapshot(user_config_dir)
    refused(run(capsys, "catalog", "import", bundle_with(tmp_path, members)), field)
    assert snapshot(user_config_dir) == before


# --------------------------------------------------------------------------- wrong answers


def test_fine_tune_lora_serving_memory_is_the_chosen_configuration(capsys):
    """1 x H100 in BF16 chosen: the serving memory is that configuration's (BF16 weights of
    a 70B model, 141 GB, do not fit 80 GB), not an FP8 replica over 2 GPUs."""
    result = run(capsys, "size", "--example", "fine-tune-lora", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    chosen = data["selection"]["chosen"]
    assert chosen["gpu"].startswith("h100") and data["gpu"]["id"] == chosen["gpu"]
    assert (chosen["gpus_per_replica"], chosen["precision"]) == (1, "bf16")
    memory = data["memory"]
    assert memory["weights_bytes_per_gpu"] == pytest.approx(141.1e9, rel=0.01)
    assert memory["fits"] is False


def test_json_output_never_holds_nan(capsys):
    for name in api.example_names():
        result = run(capsys, "size", "--example", name, "--json")
        assert result.code == 0, (name, result.err)
        constants: list[str] = []
        json.loads(result.out, parse_constant=constants.append)
        assert constants == [], name


def test_python_m_app_exit_status_on_a_nested_scenario(tmp_path):
    """The real process: exit 2 and a sentence, not a traceback and exit 1."""
    import subprocess

    path = scenario_file(tmp_path, nested(100_000))
    done = subprocess.run([sys.executable, "-m", "app", "size", str(path)], capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("aisizer: ")
