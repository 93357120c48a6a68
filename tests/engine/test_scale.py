"""Step 5: replicas for load and availability, nodes, batch volume, cold start.

Source: METHOD.md "Step 5 — Redundancy and scale" (N+1 keeps the load served with one node
lost, 2N doubles; batch replicas = ceil(rate / (saturation x utilisation)); cold start =
weights / read bandwidth).
"""

from __future__ import annotations

import math

import pytest
from engine_helpers import points

from app import api
from app.api import example
from app.domain.result import Band
from app.engine.performance import at_low_end
from app.engine.scale import (
    Capacities,
    autoscale_min_replicas,
    batch_completion_hours,
    batch_rate,
    capacities,
    choose_server,
    cold_start_s,
    plan_margin,
    plan_nodes,
    planned_rate,
    replica_packing,
    replicas_for_load,
    replicas_for_rate,
    replicas_per_rack,
    weights_bytes_per_node,
)


@pytest.fixture(scope="module")
def server(catalog):
    """An 8-GPU node (DGX H100)."""
    node = catalog.servers["dgx-h100"]
    assert node.gpu_count == 8
    return node


def spread(replicas: int, nodes: int) -> list[int]:
    """Replicas per node when spread evenly (round robin)."""
    return [replicas // nodes + (1 if i < replicas % nodes else 0) for i in range(nodes)]


PER_NODE = [1, 2, 4, 8]
LOADS = range(1, 21)


@pytest.mark.parametrize("per_node", PER_NODE)
@pytest.mark.parametrize("load", LOADS)
def test_n_plus_1_survives_losing_any_node(server, load, per_node):
    plan = plan_nodes(server, 8 // per_node, load, "n+1")
    assert plan.replicas_per_node == per_node
    assert plan.nodes >= 2
    counts = spread(plan.replicas, plan.nodes)
    assert max(counts) <= per_node  # the replicas fit on the nodes
    for lost in range(plan.nodes):
        assert plan.replicas - counts[lost] >= load, (plan, lost)
    # the fewest nodes: one more than the load needs (at least two)
    assert plan.nodes == max(math.ceil(load / per_node) + 1, 2)
    # and the fewest replicas on those nodes
    fewer = plan.replicas - 1
    assert fewer < load or fewer - max(spread(fewer, plan.nodes)) < load


@pytest.mark.parametrize("per_node", PER_NODE)
@pytest.mark.parametrize("load", LOADS)
def test_2n_doubles(server, load, per_node):
    plan = plan_nodes(server, 8 // per_node, load, "2n")
    load_nodes = math.ceil(load / per_node)
    assert plan.replicas == 2 * load
    assert plan.nodes == max(2 * load_nodes, 2)
    assert plan.nodes_for_load == load_nodes
    counts = spread(plan.replicas, plan.nodes)
    assert max(counts) <= per_node
    assert all(plan.replicas - c >= load for c in counts)


@pytest.mark.parametrize("per_node", PER_NODE)
@pytest.mark.parametrize("load", LOADS)
def test_none_adds_nothing(server, load, per_node):
    plan = plan_nodes(server, 8 // per_node, load, "none")
    assert plan.replicas == load
    assert plan.nodes == plan.nodes_for_load == math.ceil(load / per_node)


def test_n_plus_1_known_answer(server):
    """20 one-GPU replicas, 8 per node: 3 nodes for the load, 4 with N+1; 27 replicas
    spread 7/7/7/6 leave 20 when a node with 7 is lost."""
    plan = plan_nodes(server, 1, 20, "n+1")
    assert (plan.nodes_for_load, plan.nodes, plan.replicas) == (3, 4, 27)


@pytest.mark.parametrize(("redundancy", "replicas"), [("none", 3), ("n+1", 4), ("2n", 6)])
def test_replica_larger_than_a_node_spans_nodes(server, redundancy, replicas):
    """16 GPUs per replica on 8-GPU nodes: each replica takes 2 whole nodes and is the unit
    of failure (N+1 adds one replica, 2N doubles)."""
    plan = plan_nodes(server, 16, 3, redundancy)
    assert plan.nodes_per_replica == 2
    assert plan.replicas_per_node == 0
    assert plan.replicas == replicas
    assert plan.nodes == 2 * replicas
    assert plan.nodes_for_load == 6
    # losing a node takes down one replica: the rest still carry the load unless "none"
    assert (plan.replicas - 1 >= 3) == (redundancy != "none")


def test_node_plan_gpus_counts_spanning_replicas(server):
    """Regression: NodePlan.gpus once returned 0 when a replica spans nodes."""
    plan = plan_nodes(server, 16, 3, "none")
    assert plan.gpus == 48


def test_node_plan_gpus_counts_whole_nodes(server):
    plan = plan_nodes(server, 2, 5, "none")  # 4 replicas per node: 2 nodes
    assert plan.gpus == 16


def test_choose_server_wastes_the_fewest_slots(catalog):
    """Two 1-GPU replicas: a 2-GPU workstation wastes nothing where an 8-GPU server wastes 6;
    with N+1 (four replicas on two nodes, so that one node lost leaves two) the workstations
    are full and the 4-GPU servers would waste 4 slots."""
    servers = [catalog.servers[s] for s in ("pcie-8gpu-4u", "pcie-4gpu-2u",
                                            "workstation-2gpu")]
    plan = choose_server(servers, 1, 2, "none")
    assert (plan.server.id, plan.nodes) == ("workstation-2gpu", 1)
    plan = choose_server(servers, 1, 2, "n+1")
    assert (plan.server.id, plan.nodes, plan.replicas) == ("workstation-2gpu", 2, 4)


def test_replicas_for_users():
    assert replicas_for_load(100, 30) == 4
    assert replicas_for_load(90, 30) == 3
    assert replicas_for_load(1, 0) == 1  # capacity 0 is treated as 1


# --------------------------------------------------------------------------- batch volume


def test_batch_rate_known_answer():
    """200e6 output tokens a day, finished in an 8 h window: 200e6 / 28,800 s = 6,944 tok/s."""
    assert batch_rate(200e6, None, 500, 8) == pytest.approx(6944.44, rel=1e-5)
    assert batch_rate(200e6, None, 500, 24) == pytest.approx(200e6 / 86_400)
    # a steady stream: 3,600 requests/h of 500 tokens = 500 tokens/s
    assert batch_rate(None, 3600, 500, 8) == pytest.approx(500.0)
    assert batch_rate(None, None, 500, 8) == 0.0


@pytest.mark.parametrize(("rate", "saturation", "utilisation", "expected"), [
    (6944.44, 691.65, 0.8, 13),   # ceil(6944.44 / 553.32) = ceil(12.55)
    (800.0, 1000.0, 0.8, 1),      # exactly full
    (800.1, 1000.0, 0.8, 2),
    (0.0, 1000.0, 0.8, 1),        # at least one replica
])
def test_replicas_for_rate(rate, saturation, utilisation, expected):
    assert replicas_for_rate(rate, saturation, utilisation) == expected


def test_batch_example_replicas_follow_from_saturation(sized, catalog):
    """resources/examples/batch-summaries.json: 200e6 tokens/day in 8 h on Qwen2.5-72B."""
    result = sized(example("batch-summaries"))
    sat = result.performance.saturation.output_tokens_per_s
    utilisation = catalog.default("batch_target_utilisation")
    rate = 200e6 / (8 * 3600)
    low = result.performance.band.low  # planned conservatively: the low end of the range
    assert result.scale.planning.plan_at == "conservative"
    assert result.scale.replicas_for_load == math.ceil(rate / (sat * low * utilisation))
    assert result.scale.planning.expected.replicas_for_load == math.ceil(
        rate / (sat * utilisation)) == 15  # TensorRT-LLM's Hopper refit (METHOD.md, gpt-oss)
    assert result.scale.planning.expected.users_per_replica is None  # sized by throughput
    # redundancy none: the nodes for the load, every slot of a DGX (sold whole) in use
    s = result.scale
    assert s.nodes == math.ceil(s.replicas_for_load / s.replicas_per_node)
    assert s.replicas == s.nodes * s.replicas_per_node >= s.replicas_for_load
    hours = result.scale.batch_completion_hours
    assert hours == pytest.approx(200e6 / (result.scale.replicas_for_load * sat) / 3600,
                                  rel=1e-9)
    assert hours <= 8
    assert result.performance.targets == {}  # batch jobs have a window, not per-user targets


# --------------------------------------------------------------------------- cold start


def test_cold_start_known_answer():
    """140 GB from 8 GB/s storage at 70 % efficiency, plus a 60 s engine start: 85 s."""
    assert cold_start_s(140e9, 8e9, 0.7, 60) == pytest.approx(140e9 / 5.6e9 + 60)
    assert cold_start_s(140e9, 8e9, 0.7, 60) == pytest.approx(85.0)
    assert cold_start_s(0.0, 8e9, 0.7, 60) == 60


def test_cold_start_in_the_pipeline(sized, catalog):
    """small-chat example: one replica per node loads its weights from the 'good' tier."""
    result = sized(example("small-chat"))
    tier = catalog.storage[result.scale.storage_tier]
    weights = result.memory.weights_bytes * result.scale.replicas_per_node
    expected = weights / (tier.read_gb_s * 1e9 * catalog.default("cold_start_load_efficiency")) \
        + catalog.default("engine_start_s")
    assert result.scale.cold_start_s == pytest.approx(expected, rel=1e-9)


def test_pipeline_n_plus_1_has_two_nodes(sized):
    """METHOD.md: production N+1 needs at least two independent nodes."""
    result = sized(example("worked-example"))
    assert result.scale.redundancy == "n+1"
    assert result.scale.nodes >= 2
    assert result.scale.replicas > result.scale.replicas_for_load


def test_replicas_for_load_of_max_or_of_a_capacity_of_zero_is_one():
    """'max' sizes one replica at saturation; a configuration on which no load meets the
    targets gets one replica too (more would not fix it; METHOD.md Step 5)."""
    assert replicas_for_load(None, 30) == 1
    assert replicas_for_load(100, 0) == 1
    assert replicas_for_load(101, 50) == 3


def test_replicas_per_rack_is_quick_for_a_large_plan():
    """300,000 replicas on 75,000 nodes in 3,750 racks: the spread is computed in well under
    a second (a scan per replica took minutes), and it matches the rule's definition."""
    import time

    racks = [20] * 3_750
    start = time.monotonic()
    held = replicas_per_rack(300_001, racks)
    assert time.monotonic() - start < 2
    assert sum(held) == 300_001
    assert max(held) - min(held) <= 1
    assert replicas_per_rack(7, [2, 1, 2]) == [3, 2, 2]


@pytest.mark.parametrize(("gpus", "per_node", "packing"), [(1, 8, (8, 1)), (2, 8, (4, 1)),
                                                           (3, 8, (2, 1)), (8, 8, (1, 1)),
                                                           (16, 8, (0, 2)), (12, 8, (0, 2))])
def test_replicas_share_a_node_or_span_whole_nodes(gpus, per_node, packing):
    assert replica_packing(gpus, per_node) == packing


def test_batch_hours_known_answer():
    """200 M tokens in an 8 h window need 6,944 tokens/s; 13 replicas at 1,000 tokens/s each
    take 200e6 / 13,000 s = 4.27 h."""
    rate = 200e6 / (8 * 3600)
    assert batch_completion_hours(rate, 8, 13, 1000.0) == pytest.approx(200e6 / 13_000 / 3600)


def test_weights_loaded_per_node_at_a_cold_start():
    assert weights_bytes_per_node(70e9, 4, 1) == 280e9  # four replicas, four copies
    assert weights_bytes_per_node(70e9, 0, 2) == 35e9   # one replica over two nodes: half each
    assert weights_bytes_per_node(70e9, 0, 1) == 70e9


@pytest.mark.parametrize(("redundancy", "replicas", "floor"), [("none", 5, 1), ("n+1", 5, 2),
                                                               ("2n", 4, 2), ("n+1", 1, 1)])
def test_autoscaling_keeps_two_replicas_with_redundancy(redundancy, replicas, floor):
    assert autoscale_min_replicas(redundancy, replicas) == floor


# --------------------------------------------------------------------------- planning


def test_the_low_end_of_the_range_stretches_times_and_slows_rates():
    """Band x0.8 .. x1.1: TTFT and ITL at their high end (/0.8), tokens/s at the low end
    (x0.8); the users and the batch of each point stay."""
    expected = points([1, 8], [0.4, 1.0], [50, 40])
    low = at_low_end(expected, Band(low=0.8, high=1.1))
    assert low.ttft_s.tolist() == pytest.approx([0.5, 1.25])
    assert low.tokens_per_s_per_user.tolist() == pytest.approx([40, 32])
    assert low.output_tokens_per_s.tolist() == pytest.approx([40, 256])
    assert low.concurrency.tolist() == [1, 8] and low.batch.tolist() == [1, 8]


def test_conservative_capacity_meets_the_targets_at_the_low_end():
    """Users 1, 2, 4, 8, 16 at 50, 45, 40, 34, 26 tokens/s, target 30 tokens/s and 2 s: 8
    users meet it as expected; at x0.8 of the speed (40, 36, 32, 27.2 ...) only 4 do."""
    expected = points([1, 2, 4, 8, 16], [0.5, 0.6, 0.8, 1.0, 1.2], [50, 45, 40, 34, 26])
    both = capacities(expected, Band(low=0.8, high=1.1), 2.0, 30.0, most=100)
    assert (both.expected, both.conservative) == (8, 4)
    assert both.planned("conservative") == 4 and both.planned("expected") == 8
    assert not both.low_end_misses
    assert replicas_for_load(40, both.planned("conservative")) == 10
    assert replicas_for_load(40, both.planned("expected")) == 5
    assert (capacities(expected, Band(low=0.8, high=1.1), 2.0, 30.0, most=3)
            == Capacities(3, 3, holds=3))


def test_a_ttft_that_misses_only_at_the_high_end_limits_the_conservative_capacity():
    """TTFT 1.5 s expected for 8 users is 1.875 s at x0.8; 1.7 s for 16 users is 2.125 s."""
    expected = points([1, 8, 16], [0.5, 1.5, 1.7], [100, 100, 100])
    both = capacities(expected, Band(low=0.8, high=1.2), 2.0, 30.0, most=100)
    assert (both.expected, both.conservative) == (16, 8)


def test_when_even_one_user_misses_at_the_low_end_the_load_is_sized_as_expected():
    """35 tokens/s alone against a target of 30 misses at x0.8 (28): more replicas cannot
    fix that, so the load takes the expected capacity and the verdict says it misses."""
    expected = points([1, 2, 4], [0.5, 0.5, 0.5], [35, 33, 29])
    both = capacities(expected, Band(low=0.8, high=1.1), 2.0, 30.0, most=100)
    assert (both.expected, both.conservative) == (2, 0)
    assert both.low_end_misses
    assert both.planned("conservative") == both.planned("expected") == 2
    assert both.verdict_capacity("conservative") == 0
    assert both.verdict_capacity("expected") == 2


def test_a_batch_job_is_sized_by_the_low_end_of_its_throughput():
    band = Band(low=0.75, high=1.1)
    assert planned_rate(1000.0, band, "conservative") == 750.0
    assert planned_rate(1000.0, band, "expected") == 1000.0
    assert replicas_for_rate(6000.0, planned_rate(1000.0, band, "conservative"), 0.8) == 10
    assert replicas_for_rate(6000.0, planned_rate(1000.0, band, "expected"), 0.8) == 8


@pytest.mark.parametrize("name", ["choose-gpu", "large-moe", "batch-summaries"])
def test_the_result_says_which_plan_was_used_and_what_the_other_needs(sized, name):
    """The planned figures are Step 5's; the other way of planning never needs more when
    planning at the expected figures, never less when planning conservatively."""
    result = sized(example(name))
    planning = result.scale.planning
    assert planning.plan_at == "conservative"
    assert planning.planned == planning.conservative
    assert planning.planned.replicas == result.scale.replicas
    assert planning.planned.gpus_total == result.scale.gpus_total
    assert planning.planned.replicas_for_load == result.scale.replicas_for_load
    assert planning.other.replicas <= planning.planned.replicas
    assert planning.band_low == result.performance.band.low
    # the same configuration planned at the expected figures (Step 3 may break a tie of
    # cost and GPUs differently when systems sold whole fill their slots either way)
    chosen = result.selection.chosen
    same = {**example(name), "hardware": {"gpu": chosen.gpu,
                                          "tensor_parallel": chosen.tensor_parallel,
                                          "pipeline_parallel": chosen.pipeline_parallel}}
    same["precision"] = {**same.get("precision", {}), "weights": chosen.precision,
                         "kv_cache": chosen.kv_precision}
    expected = sized(api.set_field(same, "targets.plan_at", "expected"))
    assert expected.scale.planning.plan_at == "expected"
    assert expected.scale.replicas == planning.expected.replicas
    assert expected.scale.planning.other.replicas == planning.conservative.replicas
    assert f"{planning.planned.replicas} replicas" in planning.statement
    assert "Planned conservatively" in planning.statement
    assert "Planned at the expected figures" in expected.scale.planning.statement


def test_online_conservative_capacity_is_the_performance_sections():
    """Step 4's SLO capacity is the one Step 5 sized by (choose-gpu: 100 users)."""
    result = api.size(api.load_scenario(example("choose-gpu")))
    planning = result.scale.planning
    assert result.performance.slo_capacity_per_replica == planning.planned.users_per_replica
    assert planning.conservative.users_per_replica < planning.expected.users_per_replica
    assert planning.conservative.replicas_for_load == math.ceil(
        100 / planning.conservative.users_per_replica)


# --------------------------------------------------------------------------- activity model


def test_requests_in_flight_is_littles_law():
    """L = lambda W: 150 active users x 1 request/min = 2.5 requests/s, each 22 s in flight
    (TTFT 2 s + 400 tokens at 20 tokens/s): 55 in flight."""
    from app.engine.scale import request_time_s, requests_in_flight
    assert request_time_s(2.0, 400, 20.0) == pytest.approx(22.0)
    assert requests_in_flight(150, 22.0, 1.0) == 55
    # think time instead: each user in flight W / (W + Z) of the time: 150 x 22 / 52 = 63.5
    assert requests_in_flight(150, 22.0, think_time_s=30.0) == 64
    # never more than the active users, never fewer than one
    assert requests_in_flight(10, 600.0, 60.0) == 10
    assert requests_in_flight(1, 1.0, 0.01) == 1


def test_the_activity_model_replaces_the_requests_in_flight(sized):
    data = example("choose-gpu")
    data["workload"]["activity"] = {"named_users": 500, "active_share": 0.3,
                                    "requests_per_active_user_per_minute": 1.0}
    result = sized(data)
    # choose-gpu: TTFT 2 s, 600 tokens at 25 tokens/s: 26 s; 150 x 1/60 x 26 = 65
    assert result.inputs.workload.concurrent_users == 65
    derived = next(a for a in result.assumptions if a.name == "derived_concurrent_users")
    assert derived.value == 65 and "Little" in derived.source
    again = sized(result.inputs.model_dump(mode="json"))
    assert again.inputs.workload.concurrent_users == 65


def test_rate_and_think_time_together_are_refused():
    from app.api import ScenarioError
    data = example("choose-gpu")
    data["workload"]["activity"] = {"named_users": 500, "think_time_s": 30,
                                    "requests_per_active_user_per_minute": 1.0}
    with pytest.raises(ScenarioError) as error:
        api.load_scenario(data)
    assert "not both" in str(error.value)


def test_the_margin_is_how_much_slower_the_plan_may_run_at_its_load():
    """Users 1, 5, 10, 20 at 40, 36, 31, 24 tokens/s and TTFT 0.4-1.0 s; targets 20 tokens/s
    and 2 s. At 10 users per replica the expected figures have 31/20 - 1 = 55 % to spare on
    speed (TTFT 2/0.6: 233 %); at the low end x0.5 of the range, 15.5 tokens/s: -22.5 %,
    short; at 5 users the low end gives 18 tokens/s (-10 %); with a range low end of x0.6 at
    5 users, 21.6 tokens/s: 8 %. The first grid point at or above the load counts."""
    curve = points([1, 5, 10, 20], [0.4, 0.5, 0.6, 1.0], [40, 36, 31, 24])
    wide, narrow = Band(low=0.5, high=1.5), Band(low=0.6, high=1.5)
    assert plan_margin(curve, wide, 2.0, 20.0, 10, "expected") == pytest.approx(0.55)
    assert plan_margin(curve, wide, 2.0, 20.0, 10, "conservative") == pytest.approx(-0.225)
    assert plan_margin(curve, narrow, 2.0, 20.0, 5, "conservative") == pytest.approx(0.08)
    assert plan_margin(curve, narrow, 2.0, 20.0, 4, "conservative") == pytest.approx(0.08)
    # the TTFT target binds when it is tighter: 0.6 s / 0.6 at 10 users is 1.0 s against 0.9
    assert plan_margin(curve, narrow, 0.9, 1.0, 10, "conservative") == pytest.approx(-0.1)
    assert plan_margin(curve, wide, 2.0, 20.0, 30, "expected") is None  # past the curve
    assert plan_margin(curve, wide, 2.0, 20.0, 0, "expected") is None


def test_the_bank_plan_says_how_close_it_sits_to_one_more_replica():
    """The bank customer (docs/customers): the planning sentence gives the users each replica
    holds and the margin at the end of the range it is planned at."""
    from pathlib import Path

    scenario = api.load_scenario(Path(__file__).parents[2] / "docs" / "customers"
                                 / "bank-chat.json")
    planning = api.size(scenario).scale.planning
    users = math.ceil(55 / planning.planned.replicas_for_load)
    assert planning.margin is not None and planning.margin >= 0
    text = planning.message.text("en")
    assert f"At {users:,} users per replica" in text
    assert f"{planning.margin:.0%}" in text
