"""Which single change fixes a missed target, and by how much (app.engine.levers).

METHOD.md "Step 4", "Targets": when a target is missed the levers re-evaluate one change each
through the code of the sizing, at the scenario's load per replica: t x 2, FP8 KV, 8-bit
weights, t x 2 with FP8 KV, the cheapest other GPU that meets (else the fastest), half the
maximum context.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.api import example, load_scenario
from app.engine import explain, levers
from app.engine.resolved import resolve
from app.engine.selection import select


@pytest.fixture(scope="module")
def worked(catalog):
    """The worked example: Llama-3-70B INT8 on 2 x RTX PRO 6000, 40 users, which misses
    30 tokens/s per user (about 11), as the sizing guide says."""
    r = resolve(load_scenario(example("worked-example")), catalog)
    chosen, _ = select(catalog, r)
    return r, chosen.config


def test_the_changes_tried_are_one_step_each(catalog, worked):
    r, config = worked
    tried = {(c.tensor_parallel, c.pipeline_parallel, c.weights, c.kv_cache, c.gpu)
             for _, c, _ in levers.variants(catalog, config, r)}
    gpu = config.gpu.id
    assert tried == {(4, 1, "int8", "fp16", gpu),   # t x 2
                     (4, 1, "int8", "fp8", gpu),    # t x 2 and FP8 KV
                     (2, 1, "int8", "fp8", gpu)}    # FP8 KV; INT8 weights are 8-bit already


def test_a_lever_reaches_what_its_change_reaches(catalog, worked):
    r, config = worked
    per_replica = replace(r, demand=replace(r.demand, users=40))  # one replica carries all 40
    base = levers.current_choice(config)
    speed, ttft, _ = levers.outcome(catalog, per_replica, replace(base, kv_cache="fp8"))
    assert ttft > 0
    now = levers.outcome(catalog, per_replica, base)
    assert speed > now[0]  # a smaller KV cache is read faster
    wider = levers.outcome(catalog, per_replica, replace(base, tensor_parallel=4))
    assert wider[0] > now[0]  # twice the GPUs read the weights in half the time


def test_levers_name_only_missed_targets_and_list_the_ones_that_meet_first(sized):
    p = sized(example("worked-example")).performance
    missed = {name for name, ok in p.targets_met.items() if not ok}
    assert missed == {"tokens_per_s_per_user"}
    assert p.levers and {lever.target for lever in p.levers} == missed
    flags = [lever.meets for lever in p.levers]
    assert flags == sorted(flags, reverse=True)
    for lever in p.levers:
        assert lever.meets == (lever.value_after >= p.targets["tokens_per_s_per_user"])


def test_another_gpu_is_tried_only_when_it_is_faster(catalog, worked, sized):
    """Only a GPU with more memory bandwidth or more compute can fix a missed speed; the one
    proposed meets the target (B200 here), or is the fastest of those tried."""
    r, config = worked
    [(change, (speed, _, _), _)] = levers.other_gpus(catalog, config, r)
    new = next(g for g in catalog.gpus.values() if change.params["new"] == g.name)
    compute = config.weight_precision.compute
    assert (new.memory_bandwidth_gb_s > config.gpu.memory_bandwidth_gb_s
            or new.peak_flops(compute) > config.gpu.peak_flops(compute))
    assert speed >= r.demand.speed_target


def test_another_gpu_is_one_the_engine_runs_on(catalog):
    """With TensorRT-LLM the other-GPU lever tries NVIDIA GPUs only (catalogs/engines.toml
    gpu_vendors): Llama 3.1 70B BF16 on one H100 misses its targets, and the faster MI300X,
    MI325X and MI355X are not tried (configuring them raised the engine's refusal, a crash
    of the whole sizing, before)."""
    data = example("worked-example")
    data["model"] = "llama-3.1-70b"
    data["serving"] = {"engine": "tensorrt-llm"}
    data["precision"] = {"weights": "bf16", "kv_cache": "bf16"}
    data["hardware"] = {"gpu": "h100-sxm", "tensor_parallel": 2}
    r = resolve(load_scenario(data), catalog)
    chosen, _ = select(catalog, r)
    found = levers.other_gpus(catalog, chosen.config, r)
    assert found  # a faster GPU is proposed
    vendor = {gpu.name: gpu.vendor for gpu in catalog.gpus.values()}
    assert all(vendor[change.params["new"]] == "nvidia" for change, _, _ in found)


def test_a_scenario_that_meets_its_targets_gets_no_levers(sized):
    result = sized(example("small-chat"))
    assert all(result.performance.targets_met.values())
    assert result.performance.levers == []


def test_a_shorter_context_is_tried_when_half_of_it_still_holds_the_request(catalog):
    data = example("worked-example")
    data["workload"] = {**data["workload"], "prompt_tokens": 1000, "output_tokens": 500,
                        "max_context_tokens": 8192}
    r = resolve(load_scenario(data), catalog)
    chosen, _ = select(catalog, r)
    performance = explain.performance_result(catalog, chosen.config, chosen.plan, r,
                                             chosen.capacity)
    assert not all(performance.targets_met.values())
    found = levers.levers_for(catalog, chosen.config, performance, r)
    assert any(lever.change == "maximum context 4,096 tokens" for lever in found)
    # half of 2,048 would not hold a request of 1,500 tokens: not tried
    data["workload"]["max_context_tokens"] = 2048
    r = resolve(load_scenario(data), catalog)
    chosen, _ = select(catalog, r)
    performance = explain.performance_result(catalog, chosen.config, chosen.plan, r,
                                             chosen.capacity)
    found = levers.levers_for(catalog, chosen.config, performance, r)
    assert not any(lever.change.startswith("maximum context") for lever in found)
