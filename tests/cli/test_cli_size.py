"""`aisizer size`, `aisizer example` and `aisizer calibration` (CONTRACT.md, "Command line").

The command line is called in-process through ``app.cli.main`` (fast); one test runs
``python -m app`` as a subprocess to check the real exit status and streams.

Contract points checked: exit 0 on success and 2 on invalid input; ``--json`` prints the result
JSON, and nothing else, to stdout; every error is one sentence per problem on stderr, prefixed
``aisizer:``, naming the field; never a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import api, summary
from app.catalog import load_catalog
from app.cli import main

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "resources" / "calibration" / "calibration_cases.json"
EXAMPLES = api.example_names()
HEADINGS = ("1 Requirements", "2 Memory", "3 GPU configuration", "4 Performance",
            "5 Redundancy and scale")

# CONTRACT.md, "Result JSON": the keys the brief singles out (dotted paths).
RESULT_KEYS = (
    "schema_version",
    "inputs",
    "memory.params_total",
    "memory.kv_bytes_per_token",
    "memory.fits",
    "performance.single_user.ttft_s",
    "performance.at_concurrency.tokens_per_s_per_user",
    "performance.saturation.output_tokens_per_s",
    "performance.band.low",
    "performance.band.high",
    "performance.naive_tokens_per_s",
    "performance.slo_capacity_per_replica",
    "performance.targets_met",
    "selection.chosen",
    "selection.alternatives",
    "scale.replicas",
    "scale.nodes",
    "facility.it_power_w",
    "assumptions",
    "warnings",
)

# A scenario of its own (not a copy of an example), written to tmp_path by the tests.
SCENARIO = {
    "schema_version": 1,
    "name": "CLI test: support bot",
    "customer": "Test customer",
    "workload": {
        "kind": "online_inference",
        "concurrent_users": 8,
        "prompt_tokens": 1000,
        "output_tokens": 200,
        "max_context_tokens": 2048,
    },
    "model": "llama-3.1-8b",
    "precision": {"weights": "bf16", "kv_cache": "bf16"},
    "targets": {"ttft_s": 2.0, "tokens_per_s_per_user": 20},
    "hardware": {"gpu": "h100-sxm", "gpus_per_replica": 1, "tensor_parallel": 1},
    "serving": {"engine": "vllm"},
    "availability": {"redundancy": "none"},
}


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def run(capsys: pytest.CaptureFixture[str], *args: object) -> Run:
    """``aisizer ARGS`` in-process; an uncaught exception (a traceback) fails the test."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def assert_invalid(result: Run, *fragments: str, lines: int | None = 1) -> None:
    """Exit 2, nothing on stdout, ``aisizer:`` sentences on stderr that contain ``fragments``."""
    assert result.code == 2, (result.code, result.err)
    assert result.out == ""
    assert result.err_lines, "no message on stderr"
    if lines is not None:
        assert len(result.err_lines) == lines, result.err
    for line in result.err_lines:
        assert line.startswith("aisizer: "), line
        assert len(line) > len("aisizer: ") + 10, line
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)


def dig(data: dict, dotted: str):
    node = data
    for key in dotted.split("."):
        assert isinstance(node, dict) and key in node, f"result JSON has no '{dotted}'"
        node = node[key]
    return node


def write_scenario(folder: Path, data: dict | None = None, name: str = "scenario.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(SCENARIO if data is None else data), encoding="utf-8")
    return path


def with_changes(**groups: dict) -> dict:
    """SCENARIO with some fields of its groups replaced (``workload={"concurrent_users": -5}``)."""
    data = json.loads(json.dumps(SCENARIO))
    for group, changes in groups.items():
        if isinstance(changes, dict) and isinstance(data.get(group), dict):
            data[group].update(changes)
        else:
            data[group] = changes
    return data


def size_json(capsys, *args: object) -> dict:
    result = run(capsys, "size", *args, "--json")
    assert result.code == 0, result.err
    assert result.err == ""
    return json.loads(result.out)


def model_name(model_id: str) -> str:
    return load_catalog(include_user=False).models[model_id].name


# --------------------------------------------------------------------------- size --example


def test_the_built_in_examples_are_there():
    assert {"small-chat", "worked-example"} <= set(EXAMPLES)


@pytest.mark.parametrize("name", EXAMPLES)
def test_size_example_prints_the_five_steps(capsys, name):
    example = api.example(name)
    result = run(capsys, "size", "--example", name)
    assert result.code == 0, result.err
    assert result.err == ""
    text = result.out
    positions = [text.find(f"\n{heading}\n") for heading in HEADINGS]
    assert all(p >= 0 for p in positions), (positions, text[:400])
    assert positions == sorted(positions), "the five steps are out of order"
    assert example["name"] in text.splitlines()[0]
    assert isinstance(example["model"], str)
    assert f"Model: {model_name(example['model'])} (" in text


def test_the_text_summary_names_the_server_and_counts_nodes_in_words(capsys):
    """Step 5's line names the server by product, not by catalog id, without "node(s)"."""
    text = run(capsys, "size", "--example", "worked-example").out
    assert "  2 nodes of 4-GPU PCIe Gen5 server, 2U (generic), 8 GPUs in replicas" in text
    assert "node(s)" not in text and "pcie-4gpu-2u" not in text
    # the switches too: their names, not their ids
    assert "front-end and storage: 2 x NVIDIA Spectrum-2 SN3700C (100GbE, 1U) (8 ports)" in text
    assert " x sn3700c" not in text and " x sn2201" not in text


def test_the_text_summary_names_gpus_by_product():
    """Step 3's chosen line and its alternatives name the GPU as sold, not by catalog id."""
    result = api.size(api.load_scenario(api.example("worked-example")))
    text = "\n".join(summary.selection(result))
    chosen = result.selection.chosen
    assert f"{chosen.gpus_per_replica} x NVIDIA RTX PRO 6000 Blackwell Server Edition per" in text
    searched = api.size(api.load_scenario(api.example("choose-gpu")))
    text = "\n".join(summary.selection(searched))
    assert len(searched.selection.alternatives) >= 8
    for alternative in searched.selection.alternatives[:8]:
        assert alternative.gpu_name and f" x {alternative.gpu_name} " in text
        assert f" x {alternative.gpu} " not in text


def test_alternatives_with_the_same_gpus_show_how_they_split_the_model():
    """Two rows of 8 x the same GPU differ in expert parallelism and DP attention: the text
    says so ("t = 8, p = 1" against "t = 8, p = 1, EP 8, DP attention")."""
    result = api.size(api.load_scenario(api.example("choose-gpu")))
    row = result.selection.alternatives[0]
    assert summary.layout(row.model_copy(update={"tensor_parallel": 8, "expert_parallel": 8,
                                                 "dp_attention": True})) == \
        "t = 8, p = 1, EP 8, DP attention"
    assert summary.layout(row.model_copy(update={"tensor_parallel": 8, "expert_parallel": None,
                                                 "dp_attention": None})) == "t = 8, p = 1"
    text = "\n".join(summary.selection(result))
    assert f"{summary.layout(row)} " in text


@pytest.mark.parametrize("name", EXAMPLES)
def test_size_example_json_has_the_contract_keys(capsys, name):
    result = run(capsys, "size", "--example", name, "--json")
    assert result.code == 0, result.err
    assert result.err == ""
    data = json.loads(result.out)  # the whole of stdout is one JSON document
    assert isinstance(data, dict)
    for key in RESULT_KEYS:
        dig(data, key)
    assert data["schema_version"] == 1
    assert data["inputs"]["name"] == api.example(name)["name"]
    assert data["inputs"]["model"] == api.example(name)["model"]
    memory, performance = data["memory"], data["performance"]
    assert memory["params_total"] > 1e9
    assert memory["kv_bytes_per_token"] > 0
    assert isinstance(memory["fits"], bool)
    assert performance["single_user"]["ttft_s"] > 0
    assert performance["at_concurrency"]["tokens_per_s_per_user"] > 0
    assert performance["saturation"]["output_tokens_per_s"] > 0
    assert 0 < performance["band"]["low"] <= 1 <= performance["band"]["high"]
    assert performance["naive_tokens_per_s"] > 0
    assert isinstance(performance["slo_capacity_per_replica"], int)
    assert isinstance(performance["targets_met"], dict)
    assert all(isinstance(v, bool) for v in performance["targets_met"].values())
    chosen = data["selection"]["chosen"]
    assert {"gpu", "gpus_per_replica", "tensor_parallel", "precision"} <= set(chosen)
    assert chosen["gpu"] in load_catalog(include_user=False).gpus
    assert isinstance(data["selection"]["alternatives"], list)
    assert data["scale"]["replicas"] >= 1
    assert data["scale"]["nodes"] >= 1
    assert data["facility"]["it_power_w"] > 0
    assert isinstance(data["assumptions"], list) and data["assumptions"]
    assert isinstance(data["warnings"], list)
    assert all(isinstance(w, str) and w for w in data["warnings"])


# The rest of CONTRACT.md's "Result JSON" list that this version has.
MORE_RESULT_KEYS = (
    "memory.params_active", "memory.weights_bytes", "memory.kv_cache_bytes",
    "memory.runtime_bytes", "memory.per_gpu_bytes", "memory.gpu_usable_bytes",
    "memory.max_concurrent_sequences", "performance.single_user.itl_s",
    "performance.at_concurrency.concurrency", "performance.at_concurrency.ttft_s",
    "performance.at_concurrency.itl_s", "performance.at_concurrency.output_tokens_per_s",
    "performance.saturation.concurrency", "performance.saturation.itl_s", "scale.gpus_total",
    "scale.redundancy", "facility.facility_power_w", "facility.heat_btu_per_h",
    "facility.cooling_tons", "facility.racks", "facility.cooling", "facility.annual_energy_kwh",
    "cost",
)


def test_size_json_has_the_other_contract_keys(capsys):
    data = size_json(capsys, "--example", "worked-example")
    for key in MORE_RESULT_KEYS:
        dig(data, key)


def test_size_json_has_single_user_tokens_per_s(capsys):
    data = size_json(capsys, "--example", "worked-example")
    assert dig(data, "performance.single_user.tokens_per_s") > 0


def test_size_json_is_the_api_result(capsys):
    data = size_json(capsys, "--example", "worked-example")
    expected = api.size(api.load_scenario(api.example("worked-example"))).model_dump(mode="json")
    assert data == expected


def test_text_and_json_agree_on_the_model(capsys):
    text = run(capsys, "size", "--example", "large-moe").out
    data = size_json(capsys, "--example", "large-moe")
    assert f"Model: {data['model']['name']} (" in text
    assert f"{data['selection']['chosen']['gpus_per_replica']} x " \
           f"{data['gpu']['name']} per replica" in text
    assert data['gpu']['id'] == data['selection']['chosen']['gpu']


def test_size_unknown_example(capsys):
    assert_invalid(run(capsys, "size", "--example", "nope"), "'nope'", *EXAMPLES)


def test_python_dash_m_app_size_json():
    completed = subprocess.run(
        [sys.executable, "-m", "app", "size", "--example", "small-chat", "--json"],
        cwd=REPO, env=dict(os.environ), capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    data = json.loads(completed.stdout)
    assert data["inputs"]["name"] == api.example("small-chat")["name"]
    assert data["schema_version"] == 1


# --------------------------------------------------------------------------- size FILE


def test_size_file_text(capsys, tmp_path):
    result = run(capsys, "size", write_scenario(tmp_path))
    assert result.code == 0, result.err
    assert result.err == ""
    assert SCENARIO["name"] in result.out
    assert f"Model: {model_name('llama-3.1-8b')} (" in result.out
    assert "8 concurrent users" in result.out
    for heading in HEADINGS:
        assert heading in result.out


def test_size_file_json(capsys, tmp_path):
    data = size_json(capsys, write_scenario(tmp_path))
    assert data["inputs"]["name"] == SCENARIO["name"]
    assert data["inputs"]["model"] == "llama-3.1-8b"
    assert data["inputs"]["workload"]["concurrent_users"] == 8
    assert data["selection"]["chosen"]["gpu"] == "h100-sxm"
    assert data["selection"]["chosen_by"] == "user"
    assert 7.9e9 < data["memory"]["params_total"] < 8.1e9


def test_size_reads_a_relative_path(capsys, tmp_path, monkeypatch):
    write_scenario(tmp_path, name="relative.json")
    monkeypatch.chdir(tmp_path)
    assert size_json(capsys, "relative.json")["inputs"]["name"] == SCENARIO["name"]


def test_set_changes_the_result_inputs(capsys, tmp_path):
    path = write_scenario(tmp_path)
    before = size_json(capsys, path)
    after = size_json(capsys, path, "--set", "workload.concurrent_users=64")
    assert before["inputs"]["workload"]["concurrent_users"] == 8
    assert after["inputs"]["workload"]["concurrent_users"] == 64
    # The load reaches the engine: users in flight over all replicas, and the KV cache.
    for result, users in ((before, 8), (after, 64)):
        at = result["performance"]["at_concurrency"]["concurrency"]
        assert at * result["scale"]["replicas"] >= users
    assert after["memory"]["kv_cache_bytes"] > before["memory"]["kv_cache_bytes"]
    # The file itself is left alone.
    assert json.loads(path.read_text(encoding="utf-8")) == SCENARIO


def test_set_in_text_mode(capsys, tmp_path):
    result = run(capsys, "size", write_scenario(tmp_path), "--set",
                 "workload.concurrent_users=64")
    assert result.code == 0, result.err
    assert "64 concurrent users" in result.out


def test_set_several_last_one_wins_and_text_values(capsys, tmp_path):
    data = size_json(capsys, write_scenario(tmp_path),
                     "--set", "workload.concurrent_users=64",
                     "--set", "workload.concurrent_users=32",
                     "--set", "hardware.gpu=h200-sxm",
                     "--set", "name=Renamed by set")
    assert data["inputs"]["workload"]["concurrent_users"] == 32
    assert data["selection"]["chosen"]["gpu"] == "h200-sxm"
    assert data["inputs"]["name"] == "Renamed by set"


def test_set_creates_a_missing_group(capsys, tmp_path):
    scenario = {k: v for k, v in SCENARIO.items() if k != "targets"}
    data = size_json(capsys, write_scenario(tmp_path, scenario), "--set", "targets.ttft_s=0.5")
    assert data["inputs"]["targets"]["ttft_s"] == 0.5


def test_set_max_users(capsys):
    data = size_json(capsys, "--example", "small-chat", "--set", "workload.concurrent_users=max")
    assert data["inputs"]["workload"]["concurrent_users"] == "max"


def test_set_a_quoted_json_string(capsys):
    data = size_json(capsys, "--example", "small-chat", "--set", 'project="2025"')
    assert data["inputs"]["project"] == "2025"


def test_set_a_number_like_text_field(capsys):
    result = run(capsys, "size", "--example", "small-chat", "--json", "--set", "project=2025")
    assert result.code == 0, result.err
    assert json.loads(result.out)["inputs"]["project"] == "2025"


@pytest.mark.parametrize(("assignment", "fragments"), [
    ("workload..concurrent_users=5", ("--set workload..concurrent_users", "field path")),
    ("=5", ("--set", "field path")),
    ("name.first=5", ("--set name.first", "'name' is not a group of fields")),
    ("workload.concurrent_users.x=5", ("'concurrent_users' is not a group of fields",)),
    ("workload.concurrent_users", ("--set workload.concurrent_users", "PATH=VALUE")),
])
def test_set_errors(capsys, tmp_path, assignment, fragments):
    result = run(capsys, "size", write_scenario(tmp_path), "--json", "--set", assignment)
    assert_invalid(result, *fragments)


def test_set_to_an_invalid_value_names_the_field(capsys):
    result = run(capsys, "size", "--example", "small-chat", "--json",
                 "--set", "hardware.gpu=nope-gpu")
    assert_invalid(result, "hardware.gpu", "nope-gpu")


# --------------------------------------------------------------------------- invalid scenarios

INVALID = {
    "unknown model": (with_changes(model="nope-model"), ("model", "'nope-model'")),
    "negative users": (with_changes(workload={"concurrent_users": -5}),
                       ("workload.concurrent_users", "-5")),
    "unknown gpu": (with_changes(hardware={"gpu": "nope-gpu"}), ("hardware.gpu", "'nope-gpu'")),
    "unknown engine": (with_changes(serving={"engine": "nope-engine"}),
                       ("serving.engine", "nope-engine")),
    "unknown field": (with_changes(workload={"users": 5}), ("workload.users",)),
    "zero prompt": (with_changes(workload={"prompt_tokens": 0}), ("workload.prompt_tokens",)),
    "schema version": (with_changes(schema_version=2), ("schema_version", "2")),
    "not an object": ([1, 2, 3], ("scenario", "JSON object")),
}


@pytest.mark.parametrize("case", INVALID, ids=list(INVALID))
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_invalid_scenario(capsys, tmp_path, case, as_json):
    data, fragments = INVALID[case]
    args = ["size", write_scenario(tmp_path, data)] + (["--json"] if as_json else [])
    assert_invalid(run(capsys, *args), *fragments)


def test_bad_json(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "name": "x",\n  "model": \n}\n', encoding="utf-8")
    assert_invalid(run(capsys, "size", path, "--json"), "not valid JSON", "line")


def test_missing_file(capsys, tmp_path):
    path = tmp_path / "absent.json"
    assert_invalid(run(capsys, "size", path), "cannot read scenario file", str(path))


def test_a_folder_instead_of_a_file(capsys, tmp_path):
    assert_invalid(run(capsys, "size", tmp_path), "cannot read scenario file")


def test_a_file_that_is_not_utf8(capsys, tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "Kundenberatung Zürich"}'.encode("latin-1"))
    assert_invalid(run(capsys, "size", path), str(path))


def test_one_problem_is_one_sentence_for_a_union_field(capsys):
    result = run(capsys, "size", "--example", "small-chat",
                 "--set", "workload.concurrent_users=lots")
    assert_invalid(result, "workload.concurrent_users", "lots")
    assert ".int" not in result.err


# --------------------------------------------------------------------------- neither / both


def test_size_needs_a_scenario(capsys):
    assert_invalid(run(capsys, "size"), "--example", *EXAMPLES)


def test_size_refuses_file_and_example(capsys, tmp_path):
    result = run(capsys, "size", write_scenario(tmp_path), "--example", "small-chat")
    assert_invalid(result, "--example", "not both")


def test_size_refuses_file_and_example_and_lists_the_examples(capsys, tmp_path):
    result = run(capsys, "size", write_scenario(tmp_path), "--example", "small-chat")
    assert_invalid(result, *EXAMPLES)


# --------------------------------------------------------------------------- example


def test_example_lists_the_names(capsys):
    result = run(capsys, "example")
    assert result.code == 0
    assert result.err == ""
    assert result.out.splitlines() == EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_prints_a_loadable_scenario(capsys, name):
    result = run(capsys, "example", name)
    assert result.code == 0, result.err
    assert result.err == ""
    data = json.loads(result.out)
    scenario = api.load_scenario(data)
    assert scenario.name == data["name"]
    assert api.load_scenario(result.out).name == data["name"]  # as a JSON string too


def test_example_output_sizes_like_the_example(capsys, tmp_path):
    path = tmp_path / "copied.json"
    path.write_text(run(capsys, "example", "small-chat").out, encoding="utf-8")
    assert size_json(capsys, path) == size_json(capsys, "--example", "small-chat")


def test_unknown_example(capsys):
    assert_invalid(run(capsys, "example", "nope"), "'nope'", *EXAMPLES)


# --------------------------------------------------------------------------- calibration


def test_calibration_prints_every_case_and_a_summary(capsys):
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    result = run(capsys, "calibration", "--cases", CASES)
    assert result.code == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    ids = [case["id"] for case in cases]
    for case_id in ids:
        rows = [line for line in lines if line.split(maxsplit=1)[:1] == [case_id]]
        assert len(rows) == 1, (case_id, rows)
    rows = [line for line in lines if line.split(maxsplit=1)[:1] and
            line.split(maxsplit=1)[0] in set(ids)]
    assert len(rows) == len(cases)
    assert lines[0].startswith("Cross-validated error (leave one group out")
    assert any(line.split()[:3] == ["engine", "all", "throughput"] for line in lines)
    assert "Cases off by more than 2x when their group is left out" in lines
    assert any(line.startswith("Beyond the engine's reach: ") for line in lines)
    summary = [line for line in lines if "median |error|" in line and "cases" in line]
    assert summary, "no summary lines"
    counted = sum(int(line.split("cases")[1].split()[0]) for line in summary)
    assert counted == len(cases)
    assert any(line.startswith("saturation throughput") for line in summary)
    # Every row ends with the predicted/measured ratio, a positive number.
    for row in rows:
        assert float(row.split()[-1]) > 0


def test_calibration_missing_file(capsys, tmp_path):
    path = tmp_path / "absent.json"
    assert_invalid(run(capsys, "calibration", "--cases", path), "calibration", str(path))


def test_calibration_case_missing_a_field(capsys, tmp_path):
    path = tmp_path / "cases.json"
    path.write_text('[{"id": "case-x"}]', encoding="utf-8")
    assert_invalid(run(capsys, "calibration", "--cases", path), "calibration", str(path))


def test_calibration_cases_not_a_list_of_objects(capsys, tmp_path):
    path = tmp_path / "cases.json"
    path.write_text('{"id": "case-x"}', encoding="utf-8")
    assert_invalid(run(capsys, "calibration", "--cases", path), "calibration", str(path))
