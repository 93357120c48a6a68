"""CPU inference against the GPU option (app.engine.cpu_inference, and the CPU section of
app.engine.optional_sections that uses it)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api import ScenarioError, example, load_scenario, size
from app.engine import cpu_inference as cpu
from app.summary import render

GB = 1e9

SERVER = cpu.CpuServer("test", "test CPU", 1, 460.8e9, 21.8e12, 0.65, 0.3, 960, 11805)

BASE = {
    "model": "llama-3.1-8b",
    "workload": {"concurrent_users": 4, "prompt_tokens": 800, "output_tokens": 200},
    "precision": {"weights": "bf16"},
    "hardware": {"gpu": "l40s"},
    "targets": {"ttft_s": 3, "tokens_per_s_per_user": 10},
    "availability": {"redundancy": "none"},
    "cpu": {"cpu": "epyc-9654"},
}


def test_decode_is_bandwidth_over_bytes():
    """One user, no KV: tokens/s = bandwidth x efficiency / weight bytes."""
    step = cpu.decode_step_s(SERVER, 16e9, 1.0, 0.0, 0, 1, 8e9)
    assert 1 / step == pytest.approx(460.8e9 * 0.65 / 16e9)


def test_moe_reads_only_active_experts_for_one_user():
    dense = cpu.decode_step_s(SERVER, 60e9, 1.0, 0.0, 0, 1, 3e9)
    moe = cpu.decode_step_s(SERVER, 60e9, 0.1, 0.0, 0, 1, 3e9)
    assert moe == pytest.approx(dense / 10)


@settings(max_examples=100, deadline=None)
@given(users=st.integers(1, 200))
def test_more_users_are_slower_each(users):
    a = cpu.at_load(SERVER, 8.5e9, 1.0, 131072, 1000, 8e9, 800, 200, users)
    b = cpu.at_load(SERVER, 8.5e9, 1.0, 131072, 1000, 8e9, 800, 200, users + 1)
    assert b[0] >= a[0] and b[1] >= a[1]  # ITL and TTFT grow


def test_estimate_and_verdicts():
    light = cpu.estimate(SERVER, 8.5e9, 8e9, 8e9, 131072, 800, 200, 1900, 40, 10, 3)
    assert cpu.verdict(light) == "cpu-for-light-use"
    assert 1 <= light.users_meeting < 40 and not light.meets
    enough = cpu.estimate(SERVER, 8.5e9, 8e9, 8e9, 131072, 800, 200, 1900, 1, 10, 3)
    assert cpu.verdict(enough) == "cpu-suffices"
    big = cpu.estimate(SERVER, 141e9, 70e9, 70e9, 327680, 2000, 200, 2100, 1, 10, 3)
    assert cpu.verdict(big) == "gpu-needed" and big.users_meeting == 0


@pytest.fixture(scope="module")
def sized_cpu(sized):
    return sized(copy.deepcopy(BASE))


def test_pipeline_adds_the_cpu_comparison(sized_cpu):
    c = sized_cpu.cpu
    assert c is not None and c.cpu == "epyc-9654" and c.sockets == 2
    assert c.memory_bandwidth_bytes_per_s == pytest.approx(2 * 460.8e9)
    assert c.weights == "BF16"
    assert c.weights_bytes == pytest.approx(sized_cpu.memory.weights_bytes)
    assert c.gpu_tokens_per_s_per_user == pytest.approx(
        sized_cpu.performance.at_concurrency.tokens_per_s_per_user)
    assert c.speed_ratio == pytest.approx(c.tokens_per_s_per_user / c.gpu_tokens_per_s_per_user)
    assert c.verdict in ("cpu-suffices", "cpu-for-light-use", "gpu-needed")
    assert c.verdict_text.startswith("Verdict:") and c.verdict_text in c.explanation
    assert c.power_w == pytest.approx(2 * 360 + 600)


def test_fp8_on_the_gpu_maps_to_a_cpu_format(sized):
    data = copy.deepcopy(BASE)
    data["precision"] = {"weights": "fp8"}
    data["hardware"] = {"gpu": "h100-sxm"}
    result = sized(data)
    assert result.cpu.weights == "GGUF Q8_0" or "Q8" in result.cpu.weights
    assert any("CPU comparison uses" in w for w in result.warnings)


def test_without_a_cpu_id_the_fastest_is_used(sized):
    data = copy.deepcopy(BASE)
    data["cpu"] = {"compare": True}
    result = sized(data)
    best = max(result.cpu.alternatives, key=lambda o: o.memory_bandwidth_bytes_per_s)
    assert result.cpu.cpu == best.cpu
    assert len(result.cpu.alternatives) >= 6


def test_compare_false_gives_no_section(sized):
    data = copy.deepcopy(BASE)
    data["cpu"] = {"compare": False}
    assert sized(data).cpu is None


def test_cpu_example(catalog):
    result = size(load_scenario(example("cpu-small-model")), catalog)
    assert result.cpu is not None
    assert "CPU inference" in render(result) and "Verdict" in render(result)


@pytest.mark.parametrize(("block", "named"), [
    ({"cpu": "epyc-1"}, "cpu.cpu"),
    ({"sockets": 0}, "cpu.sockets"),
    ({"weights": "fp64"}, "cpu.weights"),
])
def test_invalid_cpu_fields_are_named(block, named, catalog):
    data = copy.deepcopy(BASE)
    data["cpu"] = block
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(data), catalog)
    assert info.value.problems[0].startswith(named), info.value.problems
