"""The serving chain: the five steps for online and batch inference
(app.engine.serving_chain).

Step 3's evaluation of the chosen configuration (memory plan, curve by batch, SLO capacity,
node plan) is what Steps 2, 4 and 5 describe: it is made once (METHOD.md "Step 3"). Steps 2
and 4 describe the users one replica carries; Step 5 sizes replicas by
``scale.replicas_for_load``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.api import calibrate, example, load_scenario, size
from app.engine import evaluate, selection, serving_chain
from app.engine.resolved import resolve


@pytest.mark.parametrize(("name", "capacity", "load"), [
    ("small-chat", 16, 1), ("small-chat", 3, 3), ("small-chat", 0, 1),
    ("batch-summaries", 18, None),  # a batch job is sized from its volume later
])
def test_online_replicas_follow_the_users_and_the_capacity(catalog, name, capacity, load):
    r = resolve(load_scenario(example(name)), catalog)
    assert serving_chain.online_replicas(r, capacity) == load


def test_each_replica_carries_its_share_of_the_users(catalog):
    r = resolve(load_scenario(example("choose-gpu")), catalog)  # 100 users
    assert serving_chain.per_replica_view(r, 3).demand.users == 34
    assert serving_chain.per_replica_view(r, None) is r
    saturation = replace(r, demand=replace(r.demand, users=None))
    assert serving_chain.per_replica_view(saturation, 2) is saturation


def counting(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_the_chosen_configuration_is_evaluated_once(catalog, monkeypatch):
    """The worked example names its hardware: one memory plan, one SLO capacity and one node
    plan for the whole sizing (the levers then try their own changes)."""
    plans = counting(monkeypatch, evaluate, "runtime_memory")  # inside every memory plan
    capacities = counting(monkeypatch, selection, "capacities")  # both ends of planning
    nodes = counting(monkeypatch, selection, "node_plan")
    monkeypatch.setattr(serving_chain, "node_plan", lambda *a: pytest.fail("planned twice"))
    first, levers_follow = next(serving_chain.size_in_stages(
        load_scenario(example("worked-example")), catalog))
    assert (len(plans), len(capacities), len(nodes)) == (1, 1, 1)
    assert levers_follow and first.performance.levers == []
    assert first.performance.slo_capacity_per_replica == 0


def test_a_batch_job_plans_its_nodes_from_its_volume(catalog):
    result = size(load_scenario(example("batch-summaries")), catalog)
    assert result.scale.replicas_for_load > 1  # from 200 M tokens in 8 h, not from 'max'
    assert result.scale.batch_completion_hours <= 8


def test_the_levers_come_in_a_second_stage_only_when_a_target_is_missed(catalog):
    stages = list(serving_chain.size_in_stages(load_scenario(example("worked-example")),
                                               catalog))
    assert [follow for _, follow in stages] == [True, False]
    assert stages[0][0].model_copy(update={"performance": stages[1][0].performance}) == \
        stages[1][0]
    assert stages[1][0].performance.levers
    met = list(serving_chain.size_in_stages(load_scenario(example("small-chat")), catalog))
    assert [follow for _, follow in met] == [False]


def test_factors_fitted_to_a_measurement_reproduce_it(catalog):
    """small-chat runs 8 users on one L40S at about 35 tokens/s each; a customer measured 25:
    the fitted factors make the sizing predict 25 at those 8 users. The target is 30 and the
    plan at the expected figures, so that no replica count meets it and the replica is shown at
    the 8 users the measurement was taken at."""
    data = example("small-chat")
    data["targets"].update(tokens_per_s_per_user=30, plan_at="expected")
    scenario = load_scenario(data)
    fitted = calibrate(scenario, "tokens_per_s_per_user", 25.0, 8, catalog)
    assert set(fitted.factor_overrides) == {"eta_mem", "eta_kv", "eta_decode", "eta_prefill",
                                            "step_overhead_s", "sequence_overhead_s",
                                            "layer_overhead_s",
                                            "fixed_latency_s", "comm_latency_s",
                                            "comm_efficiency"}
    at = size(fitted, catalog).performance.at_concurrency
    assert at.concurrency == 8
    assert at.tokens_per_s_per_user == pytest.approx(25.0, rel=1e-3)
