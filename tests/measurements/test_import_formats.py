"""Every supported result format imports from sample files; broken files are refused whole.

The samples (tests/measurements/fixtures, written by make_fixtures.py from the tools' code and
marked SAMPLE) carry AI Sizer's predicted figures for the small-chat example with the decode
factors x0.85 and the prefill factors x1.05; here the importer must read back exactly what
the writer put in, in SI units.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import measurement_samples as samples
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.measurements import MeasurementError, import_files
from app.measurements.formats import FORMATS

FIXTURES = Path(__file__).parent / "fixtures"
BROKEN = FIXTURES / "broken"
LENGTHS = (1500, 400)  # small-chat's request (for the CSV without lengths)
FIXTURE_OK = [HealthCheck.function_scoped_fixture]  # tmp_path is rewritten for each example
RUN = {"concurrency": 8, "prompt": 1500, "output": 400, "completed": 32, "ttft_s": 0.20866,
       "itl_s": 0.033499, "output_tokens_per_s": 235.15}


def read(*names: str):
    return import_files([FIXTURES / n for n in names], LENGTHS)


def the_point(name: str):
    outcome = read(name)
    assert len(outcome.points) == 1
    return outcome.points[0]


def check_run(point, run=RUN, tolerance=1e-6):
    assert point.prompt_tokens == pytest.approx(run["prompt"], rel=tolerance)
    assert point.output_tokens == pytest.approx(run["output"], rel=tolerance)
    assert point.ttft_s == pytest.approx(run["ttft_s"], rel=tolerance)
    assert point.itl_s == pytest.approx(run["itl_s"], rel=tolerance)
    assert point.output_tokens_per_s == pytest.approx(run["output_tokens_per_s"],
                                                      rel=tolerance)


def test_vllm_save_result_json():
    point = the_point("vllm/vllm-c8.json")
    assert (point.tool, point.load, point.concurrency) == ("vllm bench serve", "concurrency", 8)
    check_run(point)
    assert (point.completed, point.failed) == (32, 0)
    assert point.source_file == "vllm-c8.json" and len(point.source_sha256) == 64


def test_vllm_append_result_holds_one_run_per_line():
    points = read("vllm-appended.jsonl").points
    assert [p.concurrency for p in points] == [4, 8]
    check_run(points[1])


def test_vllm_request_rate_run_is_an_open_loop_point():
    point = the_point("vllm-rate.json")
    assert (point.load, point.request_rate, point.concurrency) == ("request_rate", 0.5, None)


def test_sglang_jsonl_sweep():
    points = read("sglang.jsonl").points
    assert [p.concurrency for p in points] == [1, 2, 4, 8, 16, 32]
    assert {p.tool for p in points} == {"sglang bench_serving"}
    check_run(points[3])


@pytest.mark.parametrize("name, tool", [("aiperf-c8.json", "AIPerf"),
                                        ("genai-perf-c8.json", "GenAI-Perf"),
                                        ("genai-perf-flat-c8.json", "GenAI-Perf")])
def test_aiperf_and_genai_perf_profile_exports(name, tool):
    point = the_point(name)
    assert (point.tool, point.concurrency) == (tool, 8)
    check_run(point)
    assert point.tokens_per_s_per_user == pytest.approx(1 / RUN["itl_s"])


def test_guidellm_report_every_strategy():
    points = read("guidellm.json").points
    by_label = {p.label.split(": ", 1)[1]: p for p in points}
    assert by_label["synchronous (one user)"].concurrency == 1
    assert by_label["concurrency 8"].concurrency == 8
    assert by_label["poisson 0.5/s"].request_rate == 0.5
    check_run(by_label["concurrency 8"])


def test_llama_bench_json_and_jsonl_give_prompt_and_generation_points():
    for name in ("llama-bench.json", "llama-bench.jsonl"):
        pp, tg = read(name).points
        assert pp.load == tg.load == "single_stream"
        assert pp.prompt_tokens == 512 and pp.prefill_s > 0 and pp.itl_s is None
        assert tg.output_tokens == 128 and tg.itl_s > 0 and tg.prefill_s is None


def test_csv_sweep_in_seconds_from_milliseconds():
    points = read("sweep.csv").points
    assert [p.concurrency for p in points] == [1, 2, 4, 8, 16, 32]
    check_run(points[3], tolerance=1e-4)


def test_csv_without_lengths_takes_the_scenario_request(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("Concurrency; TTFT_s; ITL_ms; output_tokens_per_s\n4; 0,25; 30; 120\n",
                    encoding="utf-8")
    point = import_files([path], LENGTHS).points[0]
    assert (point.prompt_tokens, point.output_tokens) == LENGTHS
    assert (point.ttft_s, point.itl_s, point.output_tokens_per_s) == (0.25, 0.030, 120)


def test_every_format_has_a_sample_and_a_source_commit():
    every = [p for p in FIXTURES.rglob("*") if p.is_file() and BROKEN not in p.parents]
    outcome = import_files(every, LENGTHS)
    seen = {f.format.id for f in outcome.files}
    assert seen == {f.id for f in FORMATS}
    for fmt in FORMATS:
        if fmt.id != "csv":
            assert "commit" in fmt.source and len(fmt.source.split("commit ")[1][:40]) == 40


def test_points_come_back_ordered_by_load():
    points = read("vllm/vllm-c16.json", "vllm/vllm-c2.json", "vllm-rate.json",
                  "llama-bench.json").points
    assert [p.load for p in points] == ["single_stream", "single_stream", "concurrency",
                                        "concurrency", "request_rate"]
    assert [p.concurrency for p in points if p.load == "concurrency"] == [2, 16]


def test_samples_say_they_are_samples():
    for path in FIXTURES.rglob("*"):
        if path.is_file() and BROKEN not in path.parents and path.suffix != ".md":
            assert "SAMPLE" in path.read_text(encoding="utf-8"), path


BROKEN_CASES = {
    "vllm-truncated.json": ["'vllm-truncated.json' is cut off"],
    "vllm-no-ttft.json": ["'vllm-no-ttft.json'", "lacks the field 'mean_ttft_ms'"],
    "vllm-all-failed.json": ["'completed' is 0", "did every request fail"],
    "sglang-truncated.jsonl": ["'sglang-truncated.jsonl' is cut off", "last line (3)"],
    "aiperf-no-itl.json": ["(AIPerf) lacks the field 'inter_token_latency'"],
    "guidellm-no-ttft.json": ["benchmark 2", "time_to_first_token_ms"],
    "llama-bench-pg.json": ["test 1", "-pg"],
    "scenario.json": ["'scenario.json' is not a result file AI Sizer reads"],
    "no-ttft-column.csv": ["lacks the column 'ttft_ms or ttft_s'"],
    "bad-number.csv": ["row 1", "'ttft_ms' is 'fast', not a number"],
    "notes.txt": ["'notes.txt' is not a result file"],
}


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_a_broken_file_gets_one_sentence_naming_file_and_field(name):
    with pytest.raises(MeasurementError) as caught:
        import_files([BROKEN / name], LENGTHS)
    assert len(caught.value.problems) == 1
    sentence = caught.value.problems[0]
    for part in BROKEN_CASES[name]:
        assert part in sentence
    assert "\n" not in sentence and "Traceback" not in sentence


def test_every_broken_sample_is_covered():
    assert {p.name for p in BROKEN.iterdir()} == set(BROKEN_CASES)


def test_nothing_is_half_imported():
    files = [FIXTURES / "vllm" / "vllm-c1.json", BROKEN / "vllm-no-ttft.json",
             FIXTURES / "sglang.jsonl", BROKEN / "notes.txt"]
    with pytest.raises(MeasurementError) as caught:
        import_files(files, LENGTHS)
    assert len(caught.value.problems) == 2  # one per broken file, none for the good ones


def test_the_same_file_twice_is_refused(tmp_path):
    copy = tmp_path / "again.json"
    shutil.copy(FIXTURES / "vllm" / "vllm-c1.json", copy)
    with pytest.raises(MeasurementError, match="same file as 'vllm-c1.json'"):
        import_files([FIXTURES / "vllm" / "vllm-c1.json", copy], LENGTHS)


def test_missing_and_empty_files(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(MeasurementError) as caught:
        import_files([tmp_path / "absent.json", empty], LENGTHS)
    assert "cannot read" in caught.value.problems[0]
    assert "'empty.json' is empty" in caught.value.problems[1]
    with pytest.raises(MeasurementError, match="no result file given"):
        import_files([], LENGTHS)


def test_german_sentences():
    with pytest.raises(MeasurementError) as caught:
        import_files([BROKEN / "vllm-no-ttft.json"], LENGTHS)
    german = caught.value.messages[0].text("de")
    assert "fehlt das Feld 'mean_ttft_ms'" in german


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(cut=st.integers(min_value=1, max_value=2000))
def test_a_json_cut_anywhere_is_refused_never_half_read(tmp_path, cut):
    text = samples.vllm_text([RUN])
    path = tmp_path / "cut.json"
    path.write_text(text[: min(cut, len(text) - 1)], encoding="utf-8")
    with pytest.raises(MeasurementError):
        import_files([path], LENGTHS)


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(data=st.binary(max_size=400))
def test_any_bytes_are_refused_cleanly_or_read(tmp_path, data):
    path = tmp_path / "any.json"
    path.write_bytes(data)
    try:
        import_files([path], LENGTHS)
    except MeasurementError as exc:
        assert exc.problems and all("any.json" in p for p in exc.problems)


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(key=st.sampled_from(sorted(samples.vllm_result(RUN))),
       value=st.one_of(st.none(), st.text(max_size=5), st.integers(-5, 5),
                       st.floats(allow_nan=True, allow_infinity=True)))
def test_a_vllm_field_of_any_value_never_crashes(tmp_path, key, value):
    document = samples.vllm_result(RUN)
    document[key] = value
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        import_files([path], LENGTHS)
    except MeasurementError as exc:
        assert "changed.json" in exc.problems[0]
