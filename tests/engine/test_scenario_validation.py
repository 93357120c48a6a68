"""Invalid scenarios end in ScenarioError with one readable problem per field, never a
traceback (app.api.load_scenario / size; CONTRACT.md "Scenario file")."""

from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api import ScenarioError, load_scenario, size
from app.domain.result import SizingResult

# Targets every configuration meets: no lever search, so the fuzzing stays fast.
LENIENT_TARGETS = {"ttft_s": 3600, "tokens_per_s_per_user": 0.001}

BASE = {
    "model": "llama-3.1-8b",
    "workload": {"concurrent_users": 4, "prompt_tokens": 512, "output_tokens": 128},
    "hardware": {"gpu": "h100-sxm"},
    "targets": LENIENT_TARGETS,
    "availability": {"redundancy": "none"},
}


def with_field(path: str, value) -> dict:
    """BASE with the field at dotted ``path`` set to ``value``."""
    data = copy.deepcopy(BASE)
    node = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return data


def problems_of(source, catalog) -> list[str]:
    """The problems ScenarioError reports for ``source`` (fails if it is accepted)."""
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(source), catalog)
    error = info.value
    assert error.problems, "a ScenarioError must list its problems"
    assert all(isinstance(p, str) and p for p in error.problems)
    text = str(error)
    assert "Traceback" not in text and 'File "' not in text
    # raised directly or "from None": no chained exception whose traceback would be shown
    assert error.__cause__ is None
    assert error.__context__ is None or error.__suppress_context__
    return error.problems


def test_base_scenario_is_valid(sized):
    assert isinstance(sized(copy.deepcopy(BASE)), SizingResult)


# (field path, value, text every problem must name)
INVALID_FIELDS = [
    ("workload.prompt_tokens", -5, "workload.prompt_tokens"),
    ("workload.prompt_tokens", 0, "workload.prompt_tokens"),
    ("workload.output_tokens", 0, "workload.output_tokens"),
    ("workload.concurrent_users", 0, "workload.concurrent_users"),
    ("workload.concurrent_users", -1, "workload.concurrent_users"),
    ("workload.concurrent_users", 10**12, "workload.concurrent_users"),
    ("workload.concurrent_users", 1e12, "workload.concurrent_users"),
    ("workload.concurrent_users", "many", "workload.concurrent_users"),
    ("workload.prompt_tokens", "a thousand", "workload.prompt_tokens"),
    ("workload.prompt_tokens", 1.5, "workload.prompt_tokens"),
    ("workload.prompt_tokens", [1024], "workload.prompt_tokens"),
    ("workload.kind", "training", "workload.kind"),
    ("model", ["llama-3.1-8b"], "model"),
    ("model", 42, "model"),
    ("serving.engine", "triton", "serving.engine"),
    ("serving.memory_fraction", 1.5, "serving.memory_fraction"),
    ("hardware.tensor_parallel", 0, "hardware.tensor_parallel"),
    ("targets.ttft_s", -1, "targets.ttft_s"),
    ("precision.kv_cache", "int4-awq", "precision.kv_cache"),
    ("precision.weights", "fp6", "precision.weights"),
    ("availability.redundancy", "n+2", "availability.redundancy"),
    ("factor_overrides", {"eta_magic": 0.5}, "factor_overrides"),
    ("factor_overrides", {"eta_mem": -0.5}, "factor_overrides"),
    ("surprise", 1, "surprise"),
]


@pytest.mark.parametrize(("path", "value", "field"), INVALID_FIELDS,
                         ids=[f"{p}={v!r}" for p, v, _ in INVALID_FIELDS])
def test_invalid_field_names_the_field(catalog, path, value, field):
    problems = problems_of(with_field(path, value), catalog)
    assert any(p.startswith(field) for p in problems), problems
    assert all(field.split(".")[0] in p for p in problems), problems


def test_absurd_user_count_names_the_limit(catalog):
    problems = problems_of(with_field("workload.concurrent_users", 10**12), catalog)
    assert "10,000,000" in problems[0]


def test_unknown_model_id(catalog):
    problems = problems_of(with_field("model", "llama-9-9000b"), catalog)
    assert len(problems) == 1
    assert problems[0].startswith("model:")
    assert "llama-9-9000b" in problems[0] and "llama-3.1-8b" in problems[0]  # lists known ids


def test_unknown_gpu_id(catalog):
    problems = problems_of(with_field("hardware.gpu", "h900"), catalog)
    assert problems[0].startswith("hardware.gpu:")
    assert "h900" in problems[0] and "h100-sxm" in problems[0]


def test_unknown_gpu_in_selection(catalog):
    data = copy.deepcopy(BASE)
    del data["hardware"]
    data["selection"] = {"gpus": ["h100-sxm", "tpu-v9"]}
    problems = problems_of(data, catalog)
    assert problems[0].startswith("selection.gpus:") and "tpu-v9" in problems[0]


def test_unknown_server(catalog):
    problems = problems_of(with_field("hardware.server", "dgx-b200"), catalog)
    assert problems[0].startswith("hardware.server:")


def test_parallelism_product_must_match_gpus_per_replica(catalog):
    data = with_field("hardware", {"gpu": "h100-sxm", "gpus_per_replica": 4,
                                   "tensor_parallel": 2, "pipeline_parallel": 1})
    problems = problems_of(data, catalog)
    assert len(problems) == 1
    assert problems[0].startswith("hardware")
    # in the user's words (#13): the fields by their labels, not their keys
    assert "GPUs per replica (4)" in problems[0] and "tensor parallel" in problems[0]


def test_max_context_shorter_than_the_request(catalog):
    data = with_field("workload", {"prompt_tokens": 1000, "output_tokens": 500,
                                   "max_context_tokens": 1200})
    problems = problems_of(data, catalog)
    assert problems[0].startswith("workload")
    assert "max_context_tokens" in problems[0] and "1,500" in problems[0]


def test_context_beyond_the_models_limit(catalog):
    """Llama-3-8B has an 8,192-token context."""
    data = with_field("workload", {"prompt_tokens": 8000, "output_tokens": 1000})
    data["model"] = "llama-3-8b"
    problems = problems_of(data, catalog)
    assert problems[0].startswith("workload.max_context_tokens")
    assert "8,192" in problems[0] and "9,000" in problems[0]


def test_training_block_errors_name_the_field(catalog):
    """Training kinds are sized since the training issue; a bad training block names its
    field (tests/engine/test_training.py has the rest)."""
    data = with_field("workload.kind", "fine_tuning")
    data["training"] = {"optimizer": "adagrad"}
    problems = problems_of(data, catalog)
    assert problems[0].startswith("training.optimizer") and "adamw" in problems[0]


def test_unknown_factor_override(catalog):
    problems = problems_of(with_field("factor_overrides", {"eta_warp": 0.9}), catalog)
    assert problems[0].startswith("factor_overrides")
    assert "eta_warp" in problems[0] and "eta_mem" in problems[0]


def test_schema_version_2(catalog):
    problems = problems_of(with_field("schema_version", 2), catalog)
    assert problems == [problems[0]] and problems[0].startswith("schema_version")


def test_invalid_json_string(catalog):
    problems = problems_of('{"model": "llama-3.1-8b", "workload": {', catalog)
    assert "not valid JSON" in problems[0] and "line 1" in problems[0]


def test_json_that_is_not_an_object(tmp_path, catalog):
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    problems = problems_of(path, catalog)
    assert "JSON object" in problems[0]


def test_missing_file(tmp_path, catalog):
    missing = tmp_path / "nowhere" / "scenario.json"
    problems = problems_of(missing, catalog)
    assert "cannot read" in problems[0] and "scenario.json" in problems[0]
    problems = problems_of(str(missing), catalog)
    assert "cannot read" in problems[0]


def test_scenario_file_round_trip(tmp_path, catalog):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(BASE), encoding="utf-8")
    assert isinstance(size(load_scenario(path), catalog), SizingResult)
    assert load_scenario(json.dumps(BASE)).workload.prompt_tokens == 512


def test_several_problems_are_all_reported(catalog):
    data = copy.deepcopy(BASE)
    data["workload"] = {"prompt_tokens": 0, "output_tokens": -1, "concurrent_users": 0}
    problems = problems_of(data, catalog)
    named = " ".join(problems)
    for field in ("workload.prompt_tokens", "workload.output_tokens",
                  "workload.concurrent_users"):
        assert field in named


# --------------------------------------------------------------------------- regressions
# Each of these once escaped validation (see the docstrings); they must name their field.


def test_unknown_storage_tier(catalog):
    """Regression: an unknown tier passed validation and size() raised a bare KeyError
    ("unknown storag id 'fast'") from the catalog lookup in the scale step."""
    problems = problems_of(with_field("availability.storage_tier", "fast"), catalog)
    assert problems[0].startswith("availability.storage_tier")
    assert "fast" in problems[0]


@pytest.mark.parametrize(("factor", "tensor_parallel"), [
    ("eta_mem", 1), ("eta_kv", 1), ("eta_prefill", 1), ("eta_decode", 1),
    ("comm_efficiency", 2),
])
def test_zero_efficiency_override_is_rejected(catalog, factor, tensor_parallel):
    """Regression: factor_overrides accepted 0 for an efficiency, which crashed
    (eta_mem / eta_prefill: ZeroDivisionError) or gave NaN/inf results silently
    (eta_decode; comm_efficiency with t >= 2)."""
    data = with_field("factor_overrides", {factor: 0})
    data["hardware"]["tensor_parallel"] = tensor_parallel
    problems = problems_of(data, catalog)
    assert problems[0].startswith("factor_overrides")
    assert factor in problems[0]


def test_efficiency_override_cannot_beat_the_roofline(catalog):
    """Regression: factor_overrides allowed eta_mem = 10 (the catalog allows at most 1): one
    Llama-3.1-8B BF16 stream on an H100 then decoded at 292 tokens/s, above the bandwidth
    roofline 3,350 GB/s / 16.06 GB = 209 tokens/s."""
    problems = problems_of(with_field("factor_overrides", {"eta_mem": 10}), catalog)
    assert problems[0].startswith("factor_overrides")


def test_efficiency_override_of_one_stays_under_the_roofline(catalog, sized):
    result = sized(with_field("factor_overrides", {"eta_mem": 1.0, "eta_kv": 1.0}))
    roofline = 3350e9 / result.memory.weights_bytes
    assert result.performance.single_user.tokens_per_s_per_user <= roofline


def test_tensor_parallel_must_divide_the_heads(catalog):
    """Regression: t = 3 on Llama-3.1-8B (32 query heads, 8 KV heads) was sized as if it
    ran; vLLM and TensorRT-LLM refuse a degree that does not divide the heads (METHOD.md
    Step 3)."""
    problems = problems_of(with_field("hardware.tensor_parallel", 3), catalog)
    assert problems[0].startswith("hardware.tensor_parallel")


# --------------------------------------------------------------------------- fuzzing

FUZZED = [
    "workload.prompt_tokens", "workload.output_tokens", "workload.concurrent_users",
    "workload.max_context_tokens", "workload.kind", "workload.tokens_per_day", "model",
    "hardware.gpu", "hardware.tensor_parallel", "hardware.pipeline_parallel",
    "hardware.gpus_per_replica", "precision.weights", "precision.kv_cache", "serving.engine",
    "serving.max_batch_size", "serving.max_batched_tokens", "targets.ttft_s",
    "availability.redundancy", "availability.storage_tier", "factor_overrides",
]
IDS = ["llama-3.1-8b", "mixtral-8x7b", "h100-sxm", "l40s", "fp8", "int8", "gguf-q4_0",
       "vllm", "llama.cpp", "max", "batch_inference", "2n", "better", "eta_mem",
       "comm_efficiency", "step_overhead_s"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 70), st.integers(-2**40, 2**40),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.sampled_from(IDS),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=4)
FACTORS = ["eta_mem", "eta_kv", "eta_decode", "eta_prefill", "step_overhead_s",
           "layer_overhead_s", "fixed_latency_s", "comm_latency_s", "comm_efficiency", "eta"]
FIELD_VALUES = st.one_of(
    st.tuples(st.sampled_from(FUZZED), VALUES),
    st.tuples(st.just("factor_overrides"),
              st.dictionaries(st.sampled_from(FACTORS), SCALARS, max_size=3)),
)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(changes=st.lists(FIELD_VALUES, min_size=1, max_size=3))
def test_random_values_give_a_result_or_a_scenario_error(catalog, changes):
    data = copy.deepcopy(BASE)
    for path, value in changes:
        node = data
        keys = path.split(".")
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = value
    try:
        result = size(load_scenario(data), catalog)
    except ScenarioError as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
        return
    assert isinstance(result, SizingResult)
    assert result.memory.weights_bytes > 0
    p = result.performance
    figures = [p.single_user.itl_s, p.single_user.ttft_s, p.saturation.output_tokens_per_s,
               p.at_concurrency.itl_s, result.memory.per_gpu_bytes, result.scale.cold_start_s]
    assert all(math.isfinite(x) and x > 0 for x in figures), figures
