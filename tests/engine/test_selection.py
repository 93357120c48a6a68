"""Step 3: candidates, their verdicts and replicas, the ranking, and the measured-candidate
cache (app.engine.selection).

METHOD.md "Step 3": GPU counts 1, 2, 4, 8 ...; tensor parallelism inside one scale-up domain
dividing the attention heads and suiting the KV heads, pipeline stages for the rest; each
candidate evaluated with the code of the final result, replicas included (Step 5's rules).
The cache (selection.MeasuredCache): re-ranking from it must give exactly the result of
measuring again, never another catalog's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from app import api
from app.domain.result import Band
from app.engine import selection
from app.engine.performance import Points, Workload
from app.engine.resolved import Demand
from app.engine.scale import replicas_for_load

EXACT = Band(low=1.0, high=1.0)  # no range: the expected figures are the plan's


def search_scenario(users: int, **changes) -> dict:
    data = {**api.example("choose-gpu"), "selection": {"rank_by": "capital_cost"}}
    data.pop("hardware", None)
    data = api.set_field(data, "workload.concurrent_users", str(users))
    for dotted, value in changes.items():
        data = api.set_field(data, dotted, value)
    return data


def sized(data: dict, catalog) -> dict:
    return api.size(api.load_scenario(data), catalog).model_dump(mode="json")


@pytest.fixture(autouse=True)
def empty_cache():
    selection.MEASURED.clear()
    yield
    selection.MEASURED.clear()


def test_a_change_of_users_re_ranks_to_the_same_result_as_measuring_again(catalog):
    sized(search_scenario(40), catalog)  # fills the cache
    filled = len(selection.MEASURED)
    cached = sized(search_scenario(300), catalog)
    assert len(selection.MEASURED) == filled  # nothing measured again
    selection.MEASURED.clear()
    assert cached == sized(search_scenario(300), catalog)


def test_a_change_of_the_request_shape_measures_again(catalog):
    selection.MEASURED.clear()  # a full cache (earlier tests) evicts: counts would not add up
    sized(search_scenario(40), catalog)
    filled = len(selection.MEASURED)
    longer = sized(search_scenario(40, **{"workload.prompt_tokens": "4096"}), catalog)
    assert len(selection.MEASURED) == 2 * filled
    selection.MEASURED.clear()
    assert longer == sized(search_scenario(40, **{"workload.prompt_tokens": "4096"}), catalog)


def test_another_catalog_never_gets_the_first_ones_measurements(catalog):
    sized(search_scenario(40), catalog)
    gpus = dict(catalog.gpus)
    gpus["h100-sxm"] = gpus["h100-sxm"].model_copy(
        update={"memory_bandwidth_gb_s": gpus["h100-sxm"].memory_bandwidth_gb_s / 4})
    slower = catalog.model_copy(update={"gpus": gpus})
    with_slower = sized(search_scenario(40), slower)
    selection.MEASURED.clear()
    assert with_slower == sized(search_scenario(40), slower)
    assert with_slower != sized(search_scenario(40), catalog)


def test_the_cache_keeps_only_the_most_recent_contexts(catalog):
    cache = selection.MeasuredCache(contexts=2)
    for name in ("a", "b", "a", "c"):
        cache.group(catalog, (name,))[name] = name
    assert [key[1:] for key in cache.groups] == [("a",), ("c",)]  # "b" was least recent
    assert cache.group(catalog, ("a",)) == {"a": "a"}  # kept, not measured again
    other = catalog.model_copy()
    assert cache.group(other, ("a",)) == {}  # another catalog's context starts empty


def test_cached_curves_cannot_be_changed_by_a_caller(catalog, configure_replica):
    config = configure_replica("llama-3.1-8b", "l40s")
    curve = selection.measure(config, Workload(1024, 256), 4096, EXACT).curve
    assert isinstance(curve, Points)
    with pytest.raises(ValueError):
        curve.itl_s[0] = 0.0


# --------------------------------------------------------------------------- candidates


@pytest.mark.parametrize(("model", "gpus", "domain", "split"), [
    ("llama-3.1-70b", 8, 8, (8, 1)),    # 64 heads, 8 KV heads: all 8 GPUs tensor-parallel
    ("llama-3.1-70b", 16, 8, (8, 2)),   # beyond one NVLink domain: 2 pipeline stages
    ("llama-3.1-70b", 4, 2, (2, 2)),    # a 2-GPU domain (PCIe pairs)
    ("llama-3.1-8b", 1, 8, (1, 1)),
    ("deepseek-v3", 8, 8, (8, 1)),      # MLA: any t that divides the 128 heads
])
def test_tensor_parallelism_stays_inside_the_scale_up_domain(catalog, model, gpus, domain,
                                                             split):
    assert selection.tensor_parallel_options(catalog.model(model), gpus, domain) == [split]


@pytest.mark.parametrize(("limit", "counts"), [(1, [1]), (6, [1, 2, 4]), (8, [1, 2, 4, 8]),
                                               (64, [1, 2, 4, 8, 16, 32, 64])])
def test_gpu_counts_are_powers_of_two_up_to_the_limit(limit, counts):
    assert selection.gpu_counts(limit) == counts


def demand(users, ttft=2.0, speed=30.0, redundancy="n+1") -> Demand:
    return Demand(Workload(2000, 500), 4096, users, ttft, speed, redundancy)


def test_a_candidate_that_meets_no_target_is_sized_by_what_one_replica_holds(catalog,
                                                                              configure_replica):
    """METHOD.md Step 5: scaling out would not fix a missed target, but the load must still
    be carried: the replicas are the fewest whose memory holds every request in flight
    (#14); N+1 then adds a node's worth."""
    config = configure_replica("llama-3.1-8b", "l40s")
    measured = selection.measure(config, Workload(2000, 500), 4096, EXACT)
    slow = selection.judge(measured, demand(100, speed=10_000.0),
                           selection.NodePlans(catalog, "n+1"))
    holds = measured.plan.max_concurrent_sequences
    assert slow.capacity == 0 and slow.verdict == "misses tokens/s"
    assert slow.capacities.holds == holds
    assert slow.load == replicas_for_load(100, 0, holds) == -(-100 // holds) > 1
    assert slow.replicas == slow.nodes.replicas and slow.gpus_total == slow.replicas
    alone = selection.judge(measured, demand(100, speed=10_000.0, redundancy="none"),
                            selection.NodePlans(catalog, "none"))
    assert alone.replicas == alone.load == slow.load


def test_replicas_and_gpus_are_the_ones_step_5_deploys(catalog, sized):
    """Every working alternative of choose-gpu, sized with its configuration given, deploys
    the replicas and GPUs the Step 3 table says (one rule for both steps)."""
    data = api.example("choose-gpu")
    result = sized(data)
    rows = [a for a in result.selection.alternatives if a.verdict == "meets targets"][:4]
    assert rows
    for row in rows:
        given = {**data, "selection": {}, "hardware": {
            "gpu": row.gpu, "tensor_parallel": row.tensor_parallel,
            "pipeline_parallel": row.pipeline_parallel},
            "precision": {"weights": row.precision, "kv_cache": row.kv_precision}}
        scale = sized(given).scale
        assert (scale.replicas, scale.gpus_total) == (row.replicas, row.gpus_total), row


def test_the_winner_is_ranked_first_by_the_scenarios_ranking(sized):
    data = {**api.example("choose-gpu"), "selection": {**api.example("choose-gpu")["selection"],
                                                        "rank_by": "gpu_count"}}
    result = sized(data)
    working = [a for a in result.selection.alternatives if a.verdict == "meets targets"]
    assert result.selection.chosen_by == "gpu_count"
    assert all(result.scale.gpus_total <= a.gpus_total for a in working)
    assert [a.gpus_total for a in working] == sorted(a.gpus_total for a in working)


def test_a_loser_says_why_in_the_rankings_terms(catalog, sized):
    result = sized(api.example("choose-gpu"))
    dearer = next(a for a in result.selection.alternatives
                  if a.verdict == "meets targets" and a.reason.startswith("costs more"))
    assert dearer.reason_message.template == "costs more (USD {mine:,.0f} against {best:,.0f})"
    assert dearer.capital_cost_usd == dearer.reason_message.params["mine"]
    failing = [a for a in result.selection.alternatives if a.verdict != "meets targets"]
    assert all(a.reason_message.template.startswith(("TTFT", "{speed", "does not fit"))
               for a in failing)


# --------------------------------------------------------------------------- GPU classes


def bank_chat(**selection) -> dict:
    """Issue 13's bank: Llama-3.3-70B chat for 500 users, the tool choosing the GPUs."""
    data = load_customer("bank-chat")
    data["selection"] = {**data.get("selection", {}), **selection}
    return data


def load_customer(name: str) -> dict:
    import json
    from pathlib import Path
    path = Path(__file__).parents[2] / "docs" / "customers" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_let_the_tool_choose_takes_data_centre_gpus_by_default(catalog, sized):
    """Issue 13: "let the tool choose" recommended 120 GeForce RTX 5090 in 60 towers."""
    result = sized(bank_chat())
    assert catalog.gpu(result.selection.chosen.gpu).gpu_class == "datacenter"
    assert all(catalog.gpu(a.gpu).gpu_class == "datacenter"
               for a in result.selection.alternatives)
    assert catalog.servers[result.scale.server].chassis in ("rack", "rack-scale")


def test_consumer_gpus_only_when_asked_for_and_then_with_a_warning(catalog, sized):
    result = sized(bank_chat(gpu_classes=["consumer"]))
    assert catalog.gpu(result.selection.chosen.gpu).gpu_class == "consumer"
    texts = " ".join(result.warnings)
    assert "consumer GPU: no ECC memory" in texts


def test_the_vendor_filter_keeps_the_search_to_those_vendors(catalog, sized):
    result = sized(bank_chat(vendors=["nvidia"]))
    gpus = [result.selection.chosen.gpu] + [a.gpu for a in result.selection.alternatives]
    assert {catalog.gpu(g).vendor for g in gpus} == {"nvidia"}


def test_no_gpu_of_the_allowed_classes_names_the_field(catalog):
    from app.domain.scenario import Selection
    with pytest.raises(selection.SizingError) as error:
        selection.gpus_allowed(catalog, ["rtx-5090", "rtx-4090"], Selection())
    assert error.value.message.field == "selection.gpu_classes"
    assert "allowed classes (datacenter)" in str(error.value)


def test_ranking_by_cost_never_prefers_a_candidate_for_its_missing_price(catalog, sized):
    """The cheapest candidate loses its price: it must not win for being 'cheaper'."""
    first = sized(bank_chat())
    winner = first.selection.chosen
    gpu = catalog.gpu(winner.gpu).model_copy(update={
        "price_usd": None, "price_kind": None, "price_as_of": None})
    servers = {sid: s.model_copy(update={"price_usd": None, "price_kind": None,
                                         "price_as_of": None})
               if winner.gpu in s.gpu_ids else s for sid, s in catalog.servers.items()}
    bare = catalog.model_copy(update={"gpus": {**catalog.gpus, gpu.id: gpu},
                                      "servers": servers})
    second = sized(bank_chat(), bare)
    assert second.selection.chosen.gpu != winner.gpu
    unpriced = [a for a in second.selection.alternatives if a.gpu == winner.gpu
                and a.verdict == "meets targets"]
    assert unpriced and not any(a.capital_complete for a in unpriced)


def test_preliminary_gpus_only_when_allowed_or_named(catalog):
    from app.domain.scenario import Selection
    rubin = catalog.gpu("rubin-vr200")
    assert rubin.preliminary
    assert not selection.gpu_allowed(rubin, Selection())
    assert selection.gpu_allowed(rubin, Selection(preliminary=True))
    assert selection.gpu_allowed(rubin, Selection(gpus=["rubin-vr200"]))


def test_a_workstation_gpu_given_by_the_user_warns_of_towers_on_shelves(catalog, sized):
    data = bank_chat()
    data["hardware"] = {"gpu": "rtx-pro-6000-ws", "tensor_parallel": 2}
    result = sized(data)
    assert catalog.servers[result.scale.server].chassis == "tower"
    texts = " ".join(result.warnings)
    assert "workstation GPU: made for desks" in texts
    assert "on rack shelves" in texts or "on a rack shelf" in texts


def test_step_3_proposes_no_format_the_engine_has_no_kernel_for(catalog):
    """TensorRT-LLM has no MXFP4 MoE kernel on Ampere or Ada (catalogs/engines.toml
    ``unsupported_formats``): the search leaves gpt-oss's MXFP4 out on those GPUs and keeps
    it on Hopper; a scenario that names the configuration is refused at serving.engine, and
    a search with nothing else left says why instead of 'widen selection.gpus'."""
    oss = catalog.model("gpt-oss-20b")
    choices = selection.enumerate_choices(catalog, oss, ["a100-sxm-80", "l40s", "h100-sxm"],
                                          ["mxfp4", "fp8"], "bf16", "tensorrt-llm", 1)
    formats = {(c.gpu, c.weights) for c in choices}
    assert formats == {("a100-sxm-80", "fp8"), ("l40s", "fp8"), ("h100-sxm", "fp8"),
                       ("h100-sxm", "mxfp4")}
    given = {"model": "gpt-oss-20b", "serving": {"engine": "tensorrt-llm"},
             "workload": {"concurrent_users": 8, "prompt_tokens": 1000, "output_tokens": 300},
             "hardware": {"gpu": "a100-sxm-80", "gpus_per_replica": 1}}
    with pytest.raises(api.ScenarioError) as refused:
        sized(given, catalog)
    assert refused.value.messages[0].field == "serving.engine"
    searched = {**{k: v for k, v in given.items() if k != "hardware"},
                "precision": {"allowed_weights": ["mxfp4"]},
                "selection": {"gpus": ["a100-sxm-80", "l40s"]}}
    with pytest.raises(api.ScenarioError) as nothing:
        sized(searched, catalog)
    assert nothing.value.messages[0].field == "serving.engine"
    assert "no kernel for the MXFP4" in nothing.value.problems[0]


def test_step_3_proposes_no_gpu_the_engine_does_not_run_on(catalog):
    """TensorRT-LLM runs on NVIDIA GPUs only: a search over an MI300X, a Gaudi 3 and an H100
    keeps the H100 alone."""
    model = catalog.model("llama-3.1-8b")
    choices = selection.enumerate_choices(catalog, model, ["mi300x", "gaudi3", "h100-sxm"],
                                          ["fp8"], "fp8", "tensorrt-llm", 1)
    assert {c.gpu for c in choices} == {"h100-sxm"}


def test_a_verdict_for_one_user_is_read_at_one_whole_user():
    """The capacity counts whole users, so "misses ... for one user" names the target one
    user misses, not the figure of a fractional user (a GH200 for the bank at the low end of
    its range: 1.96 s at a hundredth of a user, 2.11 s at one, target 2 s: it misses TTFT,
    while its 23 tokens/s meet 20)."""
    low = Points(concurrency=np.array([0.01, 0.5, 1.04, 2.07]), batch=np.array([0.01, 0.5, 1, 2]),
                 itl_s=np.full(4, 1 / 23.06), ttft_s=np.array([1.964, 1.964, 2.106, 2.107]),
                 output_tokens_per_s=np.array([0.2, 11.5, 23.0, 46.0]))
    demand = Demand(Workload(2000, 400), 8192, 55, 2.0, 20.0, "n+1")
    verdict, reason = selection.low_end_verdict(low, demand)
    assert verdict == "misses TTFT"
    assert reason.text() == ("TTFT up to 2.11 s for one user at the low end of the expected "
                             "range, target 2 s")
    assert selection.one_user(low) == 2
