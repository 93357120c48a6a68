"""The test plan of every built-in example: engine and load commands whose flags match the
scenario, levels from one user through the load to saturation, files that a shell runs."""

from __future__ import annotations

import csv
import io
import json
import shlex
import shutil
import subprocess

import pytest

from app import api
from app.catalog import load_catalog
from app.testplan import commands
from app.testplan.commands import flag
from app.testplan.render import LAUNCH, LOAD, README, plan_files

EXAMPLES = api.example_names()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


@pytest.fixture(scope="module")
def plans(catalog):
    found = {}
    for name in EXAMPLES:
        scenario = api.load_scenario(api.example(name))
        result = api.size(scenario, catalog)
        found[name] = (scenario, result, result.test_plan, result.training is not None)
    return found


def test_there_is_a_plan_for_every_example(plans):
    assert set(plans) == set(EXAMPLES) and len(EXAMPLES) >= 9


def serving_sizing(catalog, scenario, result):
    """The sizing the plan tests: the scenario's own, or serving the trained model."""
    if result.training is None:
        return result
    from app.engine.training_chain import serving_scenario

    chosen = result.selection.chosen
    return api.size(serving_scenario(scenario, result.training.gpu, chosen.tensor_parallel,
                                     chosen.pipeline_parallel), catalog)


@pytest.mark.parametrize("name", EXAMPLES)
def test_launch_command_has_the_sized_settings(catalog, plans, name):
    scenario, result, plan, _ = plans[name]
    result = serving_sizing(catalog, scenario, result)
    inputs = result.inputs
    command = commands.launch(plan)
    tp, pp = inputs.hardware.tensor_parallel, inputs.hardware.pipeline_parallel
    context = inputs.workload.max_context_tokens
    serving = inputs.serving
    engine = serving.engine
    kv = inputs.precision.kv_cache
    if engine in ("vllm", "generic"):
        assert command[:3] == ["vllm", "serve", "$MODEL"]
        assert flag(command, "--tensor-parallel-size") == str(tp)
        assert flag(command, "--pipeline-parallel-size") == str(pp)
        assert flag(command, "--max-model-len") == str(context)
        assert float(flag(command, "--gpu-memory-utilization")) == serving.memory_fraction
        assert flag(command, "--max-num-seqs") == str(serving.max_batch_size)
        assert flag(command, "--max-num-batched-tokens") == str(serving.max_batched_tokens)
        assert flag(command, "--kv-cache-dtype") == ("fp8" if kv == "fp8" else "auto")
    elif engine == "sglang":
        assert command[:3] == ["python", "-m", "sglang.launch_server"]
        assert flag(command, "--tp-size") == str(tp)
        assert flag(command, "--pp-size") == str(pp)
        assert flag(command, "--context-length") == str(context)
        assert float(flag(command, "--mem-fraction-static")) == serving.memory_fraction
        assert flag(command, "--max-running-requests") == str(serving.max_batch_size)
        assert flag(command, "--chunked-prefill-size") == str(serving.max_batched_tokens)
        assert flag(command, "--kv-cache-dtype") == ("fp8_e4m3" if kv == "fp8" else "auto")
    elif engine == "tensorrt-llm":
        assert command[:2] == ["trtllm-serve", "$MODEL"]
        assert flag(command, "--tp_size") == str(tp)
        assert flag(command, "--pp_size") == str(pp)
        assert flag(command, "--max_seq_len") == str(context)
        assert flag(command, "--max_batch_size") == str(serving.max_batch_size)
        assert flag(command, "--max_num_tokens") == str(serving.max_batched_tokens)
        assert float(flag(command, "--kv_cache_free_gpu_memory_fraction")) == \
            serving.memory_fraction
        assert (flag(command, "--config") is not None) == (kv == "fp8")
    if inputs.precision.weights == "fp8" and result.model.id and \
            plan.native_precision != "fp8" and engine in ("vllm", "sglang"):
        assert flag(command, "--quantization") == "fp8"


def test_llama_server_shares_the_context_among_its_slots():
    from app.domain.testplan import TestPlanResult

    scenario = api.load_scenario({**api.example("small-chat"), "serving": {"engine": "llama.cpp"},
                                  "precision": {"weights": "gguf-q8_0", "kv_cache": "fp16"}})
    plan = api.test_plan(scenario)
    assert isinstance(plan, TestPlanResult)
    command = commands.launch(plan)
    slots = plan.batch_limit
    assert command[0] == "llama-server"
    assert flag(command, "--parallel") == str(slots)
    assert flag(command, "--ctx-size") == str(plan.context_tokens * slots)
    assert flag(command, "--cache-type-k") == "f16"
    benches = commands.llama_bench(plan)
    assert flag(benches[0], "-p") == str(plan.prompt_tokens) and flag(benches[0], "-n") == "0"
    assert flag(benches[1], "-n") == str(plan.output_tokens)
    assert flag(benches[1], "-d") == str(plan.prompt_tokens)
    assert all(flag(b, "-o") == "json" for b in benches)


@pytest.mark.parametrize("name", EXAMPLES)
def test_sweep_runs_from_one_user_through_the_load_to_saturation(plans, name):
    _, result, plan, _ = plans[name]
    users = [s.concurrency for s in plan.sweep]
    assert users == sorted(set(users)) and users[0] == 1
    load = round(result.performance.at_concurrency.concurrency)
    saturation = round(result.performance.saturation.concurrency)
    assert load in users and max(load, saturation) in users
    assert users[-1] > max(load, saturation)  # one level where the curve has turned
    assert plan.rates and all(s.request_rate > 0 for s in plan.rates)
    for step in plan.levels:
        assert step.requests >= 16 and step.requests >= 4 * min(step.concurrency, 1)
        for metric, e in step.expected.items():
            assert e.low <= e.value <= e.high, metric


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_load_command_reproduces_the_scenario_request_and_saves_a_file(plans, name):
    _, result, plan, _ = plans[name]
    prompt = str(result.inputs.workload.prompt_tokens)
    output = str(result.inputs.workload.output_tokens)
    for step in plan.levels:
        vllm = commands.vllm_bench(plan, step)
        assert flag(vllm, "--random-input-len") == prompt
        assert flag(vllm, "--random-output-len") == output
        assert flag(vllm, "--num-prompts") == str(step.requests)
        assert "--save-result" in vllm and flag(vllm, "--result-filename").endswith(".json")
        sglang = commands.sglang_bench(plan, step)
        assert flag(sglang, "--random-input-len") == prompt
        assert flag(sglang, "--random-range-ratio") == "1"
        assert flag(sglang, "--output-file") == "$RESULTS/sglang.jsonl"
        for build in (commands.aiperf, commands.genai_perf):
            profile = build(plan, step)
            assert flag(profile, "--synthetic-input-tokens-mean") == prompt
            assert flag(profile, "--output-tokens-mean") == output
            assert flag(profile, "--artifact-dir").startswith("$RESULTS/")
        if step.kind == "concurrency":
            assert flag(vllm, "--max-concurrency") == str(step.concurrency)
            assert flag(sglang, "--max-concurrency") == str(step.concurrency)
            assert flag(commands.aiperf(plan, step), "--concurrency") == str(step.concurrency)
        else:
            assert float(flag(vllm, "--request-rate")) == pytest.approx(step.request_rate,
                                                                        rel=1e-3)
            assert flag(vllm, "--max-concurrency") is None
    guide = commands.guidellm(plan, plan.sweep)
    assert f"prompt_tokens={prompt}" in flag(guide, "--data")
    assert json.loads(flag(guide, "--profile"))["streams"] == [s.concurrency for s in plan.sweep]
    assert flag(guide, "--override") == "constraint[0].count"
    assert "path=$RESULTS/" in flag(guide, "--output")


def test_targets_apply_up_to_the_load_where_the_sizing_meets_them(plans):
    _, result, plan, _ = plans["small-chat"]
    load = result.performance.at_concurrency.concurrency
    for step in plan.sweep:
        if step.concurrency <= load:
            assert step.targets == result.performance.targets
        else:
            assert step.targets == {}
    _, _, missed, _ = plans["worked-example"]  # misses 30 tokens/s: no promise to test for
    assert all("tokens_per_s_per_user" not in s.targets for s in missed.levels)


def test_training_examples_test_the_serving_of_the_trained_model(plans):
    for name in ("fine-tune-lora", "pretrain"):
        _, result, plan, of_training = plans[name]
        assert of_training and plan.serving_of_training and plan.users_total is None
        assert plan.gpu_id == result.training.gpu
        assert plan.prompt_tokens == result.inputs.workload.prompt_tokens


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_files_run_in_a_shell(plans, tmp_path, name):
    scenario, _, plan, _ = plans[name]
    from app.testplan.render import plan_files as files_of
    from app.testplan.render import write_plan

    written = write_plan(tmp_path, files_of(plan, scenario.model_dump(mode="json")))
    assert {p.name for p in written} == {README, LAUNCH, LOAD, "expected.csv", "scenario.json"}
    bash = shutil.which("bash")
    for script in (LAUNCH, LOAD):
        path = tmp_path / script
        assert path.stat().st_mode & 0o111
        if bash:
            checked = subprocess.run([bash, "-n", str(path)], capture_output=True, text=True)
            assert checked.returncode == 0, checked.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "expected.csv").read_text())))
    assert len(rows) == len(plan.levels)
    assert api.load_scenario(json.loads((tmp_path / "scenario.json").read_text())).name == \
        scenario.name


def test_the_load_script_calls_each_command_with_the_plan_words():
    scenario = api.load_scenario(api.example("rag-assistant"))
    plan = api.test_plan(scenario)
    script = plan_files(plan, {})[LOAD]
    body = script.split("run_vllm() {", 1)[1].split("}", 1)[0]
    words = shlex.split(body.replace("\\\n", " "), comments=True)
    assert words.count("vllm") == len(plan.levels)
    assert "$MODEL" in words and "$RESULTS" in words  # variables stay variables


def test_readme_in_german(plans):
    scenario, _, plan, _ = plans["small-chat"]
    text = plan_files(plan, {}, "de")[README]
    assert "Lasttest" in text and "Erwartet" in text
