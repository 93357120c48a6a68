"""`aisizer test-plan`, `aisizer measurements import|fit` and the site profile's way through
the user catalog, `catalog versions`, and catalog export and import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.catalog import clear_cache, load_catalog
from app.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "measurements" / "fixtures"
SWEEP = sorted((FIXTURES / "vllm").glob("*.json"))


def run(capsys, *argv: str):
    clear_cache()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def scenario_file(tmp_path, capsys):
    code, out, _ = run(capsys, "example", "small-chat")
    path = tmp_path / "small-chat.json"
    path.write_text(out, encoding="utf-8")
    return path


def test_test_plan_writes_the_folder_and_refuses_to_overwrite(capsys, user_config_dir,
                                                              tmp_path):
    folder = tmp_path / "plan"
    code, out, err = run(capsys, "test-plan", "--example", "large-moe", "-o", str(folder))
    assert code == 0, err
    assert {p.name for p in folder.iterdir()} == {"README.md", "launch-server.sh",
                                                  "run-load-test.sh", "expected.csv",
                                                  "scenario.json"}
    assert "python -m sglang.launch_server" in (folder / "launch-server.sh").read_text()
    code, _, err = run(capsys, "test-plan", "--example", "large-moe", "-o", str(folder))
    assert code == 2 and "give --force" in err and "nothing was written" in err
    code, _, err = run(capsys, "test-plan", "--example", "large-moe", "-o", str(folder),
                       "--force", "--lang", "de")
    assert code == 0 and "Lasttest" in (folder / "README.md").read_text()


def test_test_plan_needs_a_scenario(capsys, user_config_dir, tmp_path):
    code, _, err = run(capsys, "test-plan", "-o", str(tmp_path / "x"))
    assert code == 2 and "give a scenario file, or --example NAME" in err


def test_import_lists_points_and_compares_with_the_scenario(capsys, user_config_dir,
                                                            scenario_file):
    code, out, err = run(capsys, "measurements", "import", *map(str, SWEEP))
    assert code == 0, err
    assert "Read 6 operating point(s) from 6 file(s)" in out
    assert "vllm bench serve --save-result JSON" in out
    code, out, err = run(capsys, "measurements", "import", *map(str, SWEEP), "--scenario",
                         str(scenario_file))
    assert code == 0, err
    assert "Predicted against measured" in out
    # 15 % slower decode than predicted: the conservative plan (sized for the low end of the
    # range, 12 users per replica) still holds at the scenario's 8 users
    assert "tokens/s per user: met (19% to spare" in out
    assert "The plan's 1 replica for 8 users holds" in out
    assert "decode x0.850, prefill x1.050" in out


def test_import_save_stores_points_in_the_scenario_for_the_report(capsys, user_config_dir,
                                                                  scenario_file):
    code, out, err = run(capsys, "measurements", "import", *map(str, SWEEP), "--scenario",
                         str(scenario_file), "--save")
    assert code == 0, err
    stored = json.loads(scenario_file.read_text())
    assert len(stored["measurements"]) == 6
    code, out, err = run(capsys, "size", str(scenario_file), "--json")
    validation = json.loads(out)["validation"]
    assert len(validation["points"]) == 6 and validation["fit"]["decode_scale"] == \
        pytest.approx(0.85, rel=1e-3)


def test_a_broken_file_imports_nothing(capsys, user_config_dir, scenario_file):
    before = scenario_file.read_text()
    code, out, err = run(capsys, "measurements", "import", str(SWEEP[0]),
                         str(FIXTURES / "broken" / "vllm-no-ttft.json"), "--scenario",
                         str(scenario_file), "--save")
    assert code == 2 and out == ""
    assert err.strip() == ("aisizer: nothing was imported: 'vllm-no-ttft.json' (vllm bench "
                           "serve) lacks the field 'mean_ttft_ms'")
    assert scenario_file.read_text() == before


def test_json_output_is_stdout_only(capsys, user_config_dir, scenario_file):
    code, out, err = run(capsys, "measurements", "import", str(FIXTURES / "sglang.jsonl"),
                         "--scenario", str(scenario_file), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert len(data["points"]) == 6 and data["validation"]["verdicts"]


def test_fit_saves_a_site_profile_used_listed_and_carried_by_a_bundle(capsys, user_config_dir,
                                                                      scenario_file, tmp_path,
                                                                      monkeypatch):
    code, out, err = run(capsys, "measurements", "fit", *map(str, SWEEP), "--scenario",
                         str(scenario_file), "--save-profile", "--engine-version", "0.11.0",
                         "--note", "rack 3, driver 580")
    assert code == 0, err
    profiles = load_catalog().site_profiles
    assert len(profiles) == 1
    profile = next(iter(profiles.values()))
    assert (profile.gpu, profile.engine, profile.engine_version) == ("l40s", "vllm", "0.11.0")
    assert profile.decode_scale == pytest.approx(0.85, rel=1e-3)
    assert profile.operator_note == "rack 3, driver 580"
    assert {f.name for f in profile.measurement_files} == {p.name for p in SWEEP}
    code, out, _ = run(capsys, "size", "--example", "small-chat")
    assert "Site-calibrated" in out
    code, out, _ = run(capsys, "catalog", "versions")
    assert f"Site profile {profile.id}: l40s, vllm 0.11.0" in out
    code, out, _ = run(capsys, "catalog", "versions", "--json")
    assert json.loads(out)["site_profiles"][0]["id"] == profile.id
    bundle = tmp_path / "catalogs.zip"
    code, _, err = run(capsys, "catalog", "export", str(bundle))
    assert code == 0, err
    elsewhere = tmp_path / "other-site"
    elsewhere.mkdir()
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(elsewhere))
    code, _, err = run(capsys, "catalog", "import", str(bundle))
    assert code == 0, err
    assert load_catalog().site_profiles == profiles


def test_fit_needs_a_version_to_save(capsys, user_config_dir, scenario_file):
    code, _, err = run(capsys, "measurements", "fit", *map(str, SWEEP), "--scenario",
                       str(scenario_file), "--save-profile")
    assert code == 2 and "give the engine version that was measured" in err
    assert load_catalog().site_profiles == {}


def test_fit_without_scenario_or_usable_figures(capsys, user_config_dir, scenario_file):
    code, _, err = run(capsys, "measurements", "fit", *map(str, SWEEP))
    assert code == 2 and "needs --scenario FILE" in err
    code, _, err = run(capsys, "measurements", "fit", "--scenario", str(scenario_file))
    assert code == 2 and "no measured figure the fit can use" in err
