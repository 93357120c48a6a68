"""Expert parallelism and data-parallel attention (issue #12): memory, decode step,
all-to-all traffic, validation, and how the calibration cases state them."""

from __future__ import annotations

import pytest

from app.domain.problems import RuleError
from app.domain.scenario import expert_layout_problem
from app.engine.calibration import normalise_case
from app.engine.configuration import Choice, configure
from app.engine.evaluate import plan_memory
from app.engine.inference import (
    busiest_rank_touched,
    communication_time,
    decode_step,
    dispatch_ranks,
    prefill_time,
    weights_read_bytes,
)
from app.engine.memory import kv_bytes_per_token
from app.engine.performance import Workload


def build(catalog, model="deepseek-r1", gpu="h200-sxm", t=8, ep=1, dp=False,
          weights="fp8", engine="sglang"):
    spec = catalog.model(model)
    return configure(catalog, spec, Choice(gpu, t, 1, weights, "bf16", engine, ep, dp))


def test_off_is_the_tensor_parallel_replica(catalog):
    """EP 1 and no DP attention are what every configuration was before: same figures."""
    spec = catalog.model("deepseek-r1")
    old = configure(catalog, spec, Choice("h200-sxm", 8, 1, "fp8", "bf16", "sglang"))
    new = build(catalog)
    for batch in (1.0, 64.0):
        assert float(decode_step(old.replica, batch, 2048).itl[0]) == \
            float(decode_step(new.replica, batch, 2048).itl[0])
    assert new.replica.attention_ranks == 1
    assert new.replica.held_weights_bytes == new.replica.weights_bytes


def test_dp_attention_splits_the_mla_cache_by_requests(catalog):
    """MLA has one latent KV head: tensor parallelism copies it to all t GPUs; DP attention
    keeps each request's cache on its own rank, t times the tokens (SGLang v0.4 blog)."""
    tp = build(catalog).replica
    dp = build(catalog, ep=8, dp=True).replica
    full = kv_bytes_per_token(tp.model, tp.kv_bytes_per_element, 1)
    assert tp.kv_bytes_per_token_per_gpu() == pytest.approx(full)
    assert dp.kv_bytes_per_token_per_gpu() == pytest.approx(full / 8)


def test_dp_attention_holds_the_non_expert_weights_on_every_rank(catalog):
    config = build(catalog, ep=8, dp=True)
    rep = config.replica
    assert rep.held_weights_bytes == pytest.approx(
        rep.weights_bytes + 7 * (rep.weights_bytes - rep.routed_bytes))
    work = Workload(1000, 1000)
    dp_plan = plan_memory(config, work, 2000)
    tp_plan = plan_memory(build(catalog), work, 2000)
    assert dp_plan.budget.weights > tp_plan.budget.weights
    # less KV room per GPU, but 8 ranks of sequences at 1/8 of the cache each
    assert dp_plan.sequences_admitted > 4 * tp_plan.sequences_admitted


def test_one_request_alone_reads_a_whole_attention_copy(catalog):
    """With DP attention a lone request's step runs on one rank: it reads all non-expert
    weights (t / d = 1 way split) instead of 1/t of them, so one user decodes slower."""
    tp = build(catalog).replica
    dp = build(catalog, ep=8, dp=True).replica
    # and its 8 experts fall on the 8 EP ranks unevenly: the busiest holds about 2.4 of them
    moe = tp.model.moe
    expert = (tp.model.layers - moe.dense_layers) * tp.routed_expert_bytes
    extra = expert * (float(busiest_rank_touched(dp, 1.0)) - 1.0)
    assert float(weights_read_bytes(dp, 1.0)) - float(weights_read_bytes(tp, 1.0)) == \
        pytest.approx(tp.always_read_bytes * 7 / 8 + extra)
    assert float(decode_step(dp, 1.0, 2048).itl[0]) > float(decode_step(tp, 1.0, 2048).itl[0])
    assert prefill_time(dp, 4096) > prefill_time(tp, 4096)


def test_dispatch_ranks_known_answers():
    """Uniform routing: a token's k experts fall on (e-1)(1-(1-1/e)^k) other ranks."""
    assert dispatch_ranks(256, 8, 1) == 0.0
    assert dispatch_ranks(256, 8, 8) == pytest.approx(7 * (1 - (7 / 8) ** 8))  # 4.595
    assert dispatch_ranks(128, 4, 2) == pytest.approx(1 - 0.5 ** 4)


def test_all_to_all_replaces_the_all_reduce(catalog):
    """DeepSeek-V3 report 3.2.2: per MoE layer a dispatch and a combine of each token's
    hidden state to the ranks of its experts. 58 MoE layers of 61, h = 7168, 16 bit."""
    rep = build(catalog, ep=8, dp=True).replica
    f = rep.factors
    tokens = 256.0
    link = rep.gpu.scale_up_bytes_per_s * f.comm_efficiency
    per_rank = tokens / 8
    volume = per_rank * dispatch_ranks(256, 8, 8) * 7168 * 2
    expected = 2 * 58 * (f.comm_latency_s + volume / link)
    assert float(communication_time(rep, tokens, tokens, 61)) == pytest.approx(expected)
    step = decode_step(rep, tokens, 2048)
    assert float(step.communication[0]) == pytest.approx(expected)


def test_dp_attention_raises_saturation_throughput_of_an_mla_model(catalog):
    """What engines deploy DeepSeek with (DEP8) serves more tokens/s at full load."""
    from app.engine.evaluate import saturation_of
    work = Workload(1000, 1000)
    results = {}
    for name, config in (("tp", build(catalog)), ("dep", build(catalog, ep=8, dp=True))):
        plan = plan_memory(config, work, 2000)
        results[name] = float(saturation_of(config, plan, work).output_tokens_per_s[0])
    assert results["dep"] > results["tp"]


@pytest.mark.parametrize("model, t, ep, dp, words", [
    ("llama-3.1-70b", 4, 4, False, "dense model"),
    ("llama-3.1-70b", 4, 1, True, "dense model"),
    ("deepseek-r1", 8, 3, False, "must divide hardware.tensor_parallel (8)"),
    ("mixtral-8x7b", 4, 4, False, None),
    ("qwen3-30b-a3b", 1, 1, True, "needs hardware.tensor_parallel of 2 or more"),
])
def test_layouts_that_cannot_run_are_refused_with_the_reason(catalog, model, t, ep, dp, words):
    if words is None:
        assert build(catalog, model, "h100-sxm", t, ep, dp, "bf16").replica.expert_parallel == 4
        return
    with pytest.raises(RuleError, match=re_escape(words)) as refused:
        build(catalog, model, "h100-sxm", t, ep, dp, "bf16")
    # the engine refuses with the scenario's rule: the field and the value given
    field = "hardware.dp_attention" if ep == 1 else "hardware.expert_parallel"
    assert refused.value.message.field == field
    assert str(refused.value).endswith(f"(got {'true' if ep == 1 else ep})")


def test_expert_count_must_divide(catalog):
    """Mixtral has 8 experts: 16-way EP would leave ranks without one."""
    with pytest.raises(ValueError, match="does not divide the 8 experts"):
        build(catalog, "mixtral-8x7b", "h100-sxm", 16, 16, False, "bf16")


def _raw(**changes):
    raw = {"id": "x", "model": "DeepSeek-R1", "weights_precision": "FP8",
           "kv_precision": "BF16", "gpu": "H200 SXM", "gpu_count": 8, "tp": 8, "pp": 1,
           "ep": 1, "dp_attention": True, "engine": "SGLang 0.4.3.post2", "isl": 1000,
           "osl": 1000, "concurrency": 32, "metric_name": "tpot_mean", "metric_value": 50.0,
           "unit": "ms", "source": "test"}
    return {**raw, **changes}


def test_sglang_dp_attention_without_dp_follows_the_release():
    """SGLang up to 0.4.3 set dp = tp with --enable-dp-attention; later releases take --dp
    (default 1), one attention rank: tensor-parallel attention."""
    assert normalise_case(_raw()).dp_attention is True
    assert normalise_case(_raw(engine="SGLang 0.5.3")).dp_attention is False
    assert normalise_case(_raw(engine="SGLang 0.5.3", dp=8)).dp_attention is True
    trt = normalise_case(_raw(engine="TensorRT-LLM 1.0", ep=8))
    assert (trt.expert_parallel, trt.dp_attention) == (8, True)
    with pytest.raises(ValueError, match="DP attention over 4 of 8"):
        normalise_case(_raw(engine="SGLang 0.5.3", dp=4))


def _large_moe(**hardware):
    from app import api
    data = api.example("large-moe")
    if hardware:
        data["hardware"] = {**data["hardware"], **hardware}
    else:
        data.pop("hardware")
        data["selection"] = {"gpus": ["h200-sxm"], "rank_by": "capital_cost"}
    return data


def test_old_scenarios_load_with_expert_parallelism_off():
    from app import api
    scenario = api.load_scenario(api.example("large-moe"))
    assert (scenario.hardware.expert_parallel, scenario.hardware.dp_attention) == (1, False)
    assert "expert_parallel" not in scenario.model_dump()["hardware"]


@pytest.mark.parametrize("hardware, words", [
    ({"expert_parallel": 3}, "hardware.expert_parallel: must divide "
                             "hardware.tensor_parallel (8): the experts are split over the "
                             "GPUs of a pipeline stage; allowed: 1, 2, 4, 8 (got 3)"),
    ({"tensor_parallel": 1, "gpus_per_replica": 1, "dp_attention": True},
     "hardware.dp_attention: needs hardware.tensor_parallel of 2 or more (the attention "
     "ranks are the GPUs of a pipeline stage); it is 1 (got true)"),
])
def test_the_scenario_refuses_a_layout_naming_the_field(hardware, words):
    """The refusal is about the field at fault, not the whole hardware section: the window
    shows it under that field."""
    from app import api
    with pytest.raises(api.ScenarioError) as refused:
        api.load_scenario(_large_moe(**hardware))
    assert refused.value.problems == [words]
    assert refused.value.messages[0].field == words.split(":")[0]


@pytest.mark.parametrize("t, ep, dp, model, field", [
    (8, 1, False, None, None),
    (8, 8, True, None, None),
    (8, 3, False, None, "hardware.expert_parallel"),
    (1, 1, True, None, "hardware.dp_attention"),
    (4, 4, False, "llama-3.1-70b", "hardware.expert_parallel"),
    (4, 1, True, "llama-3.1-70b", "hardware.dp_attention"),
    (16, 16, False, "mixtral-8x7b", "hardware.expert_parallel"),
    (8, 8, False, "mixtral-8x7b", None),
])
def test_one_rule_for_expert_layouts(catalog, t, ep, dp, model, field):
    """The scenario (no model), Step 3 and configure all ask expert_layout_problem."""
    spec = catalog.model(model) if model else None
    found = expert_layout_problem(t, ep, dp, spec)
    assert (found.field if found else None) == field
    if found is not None:
        assert found.value == (ep if field.endswith("expert_parallel") else dp)
        assert found.allowed in found.detail.text() or found.allowed in ("1", "false")


def test_allowed_degrees_are_the_divisors():
    found = expert_layout_problem(12, 5, False)
    assert found.allowed == "1, 2, 3, 4, 6, 12"


def re_escape(text):
    import re
    return re.escape(text)


def test_a_dense_model_with_expert_parallelism_is_refused(catalog):
    from app import api
    data = {**_large_moe(expert_parallel=8), "model": "llama-3.1-70b"}
    with pytest.raises(api.ScenarioError, match="hardware.expert_parallel: Llama 3.1 70B is a "
                                                "dense model"):
        api.size(api.load_scenario(data), catalog)


def test_a_given_dep_layout_is_sized_and_reported(catalog):
    from app import api
    result = api.size(api.load_scenario(_large_moe(expert_parallel=8, dp_attention=True)),
                      catalog).model_dump(mode="json")
    chosen = result["selection"]["chosen"]
    assert (chosen["expert_parallel"], chosen["dp_attention"]) == (8, True)
    assert result["inputs"]["hardware"]["expert_parallel"] == 8


def test_step_3_tries_expert_parallel_layouts_for_moe_models(catalog):
    from app import api
    result = api.size(api.load_scenario(_large_moe()), catalog).model_dump(mode="json")
    rows = result["selection"]["alternatives"] + [result["selection"]["chosen"]]
    deps = [r for r in rows if r.get("dp_attention")]
    assert deps and all(r["expert_parallel"] == r["tensor_parallel"] for r in deps)
    assert all(r["tensor_parallel"] >= 2 for r in deps)


def test_busiest_of_known_answers():
    """Expected maximum of e standard normals (tables: 0.564, 1.029, 1.424, 1.766)."""
    from app.engine.inference import busiest_of
    assert busiest_of(1) == 0.0
    for ranks, exact in ((2, 0.5642), (4, 1.0294), (8, 1.4236), (16, 1.7660)):
        assert busiest_of(ranks) == pytest.approx(exact, abs=0.03)


def test_the_busiest_expert_rank_carries_more_than_the_mean(catalog):
    """Balls into bins: one DeepSeek token's 8 experts over 8 ranks put about 2.4 on the
    busiest rank (mean 1); the excess fades as the step grows and is 1 without EP."""
    import numpy as np

    from app.engine.inference import busiest_rank_touched, expert_rank_imbalance
    dep = build(catalog, ep=8, dp=True).replica
    tokens = np.array([1.0, 32.0, 1024.0, 8192.0])
    spread = expert_rank_imbalance(dep, tokens)
    assert spread[0] == pytest.approx(2.3, abs=0.15)
    assert list(spread) == sorted(spread, reverse=True) and spread[-1] < 1.02
    # 32 tokens: a rank's pairs have mean 32 and variance 32 * 8/8 * 7/8 * 248/255
    assert spread[1] == pytest.approx(1 + busiest_of_8() * (32 * 7 / 8 * 248 / 255) ** 0.5
                                      / 32)
    touched = busiest_rank_touched(dep, tokens)
    assert touched[0] == pytest.approx(2.4, abs=0.15) and touched[-1] == pytest.approx(1.0)
    tp = build(catalog).replica
    assert list(expert_rank_imbalance(tp, tokens)) == [1.0] * 4
    assert list(busiest_rank_touched(tp, tokens)) == [1.0] * 4


def busiest_of_8():
    from app.engine.inference import busiest_of
    return busiest_of(8)


def test_a_rank_takes_at_most_what_its_experts_can(catalog):
    """Mixtral (8 experts, top-2) on EP8: a rank's one expert takes at most one pair per
    token, 8 / 2 = 4 times the mean of 1/4 per token."""
    import numpy as np

    from app.engine.inference import expert_rank_imbalance
    rep = build(catalog, "mixtral-8x7b", "h100-sxm", 8, 8, True, "bf16").replica
    assert float(expert_rank_imbalance(rep, np.array([1.0]))[0]) <= 4.0


def test_expert_parallel_decode_waits_for_the_busiest_rank(catalog):
    """At a small batch the busiest EP rank reads more experts than the mean: the step is
    slower than the even split would make it (DP attention and EP against DP attention
    with tensor-parallel experts, whose slices are even)."""
    import app.engine.inference as inference
    dep = build(catalog, ep=8, dp=True).replica
    even = inference.weights_read_bytes(dep, 32.0)
    moe = dep.model.moe
    layers = dep.model.layers - moe.dense_layers
    per_gpu = dep.always_read_bytes * dep.attention_ranks / dep.gpus
    mean = layers * inference.experts_touched(moe.experts, moe.experts_per_token, 32.0) \
        * dep.routed_expert_bytes / dep.tensor_parallel
    assert float(even) == pytest.approx(
        per_gpu + mean * float(inference.busiest_rank_touched(dep, 32.0)))
    assert float(even) > per_gpu + mean


@pytest.mark.parametrize("engine, warned", [("sglang", True), ("vllm", False)])
def test_sglang_dp_attention_warns_that_its_ttft_under_load_is_not_modelled(catalog, engine,
                                                                              warned):
    """dstack's SGLang DP-attention TTFTs (pub-232, pub-235: 3.9 s and 11.0 s against a
    0.2 s prefill) are outside the model: a plan that serves users with that layout says
    so; other engines' DP attention, and the layout off, do not."""
    from app import api
    data = _large_moe(expert_parallel=8, dp_attention=True)
    data["serving"] = {**data.get("serving", {}), "engine": engine}
    result = api.size(api.load_scenario(data), catalog)
    assert any("SGLang with DP attention" in t for t in result.warnings) == warned
