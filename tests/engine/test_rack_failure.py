"""Step 5: what still serves when a rack fails.

Source: METHOD.md "Step 5: redundancy and scale" (rack failure). The infrastructure sizing
fills racks with nodes in order; replicas are spread evenly over nodes (``floor`` or ``ceil``
of R / N each) and the nodes holding one more are spread across racks; a replica spanning
nodes takes consecutive nodes and is lost with any of them. Replicas left after a rack
failure = replicas - the replicas with a node in the fullest rack.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.api import example
from app.domain.result import SizingResult
from app.engine import narrative
from app.engine.scale import (
    plan_nodes,
    replicas_after_node_failure,
    replicas_after_rack_failure,
    replicas_per_rack,
    replicas_touching_racks,
)

ONE_RACK = "All nodes are in one rack: when it fails, nothing serves until it is repaired."


# --------------------------------------------------------------------------- known answers


def test_eight_replicas_on_two_racks_of_four_nodes_keep_four():
    assert replicas_per_rack(8, [4, 4]) == [4, 4]
    assert replicas_after_rack_failure(8, 1, [4, 4]) == 4


def test_one_rack_leaves_nothing():
    assert replicas_after_rack_failure(8, 1, [8]) == 0
    assert replicas_after_rack_failure(3, 2, [6]) == 0  # spanning replicas too


def test_extra_replicas_go_to_the_emptiest_rack():
    """10 replicas on 9 nodes in racks of 4, 4 and 1: one node holds two; putting it in the
    small rack keeps the fullest rack at 4 replicas."""
    assert replicas_per_rack(10, [4, 4, 1]) == [4, 4, 2]
    assert replicas_after_rack_failure(10, 1, [4, 4, 1]) == 6
    assert replicas_per_rack(6, [4, 4]) == [3, 3]  # fewer replicas than nodes: spread


def test_2n_over_two_racks_survives(catalog):
    """Load 4 replicas of 8 GPUs: 2N gives 8 replicas on 8 DGX H100 nodes; in two racks of
    four nodes a rack failure leaves 4 replicas, the whole load."""
    plan = plan_nodes(catalog.servers["dgx-h100"], 8, 4, "2n")
    assert (plan.replicas, plan.nodes) == (8, 8)
    assert replicas_after_rack_failure(plan.replicas, 1, [4, 4]) == 4 >= 4
    # next-fit racks of six nodes hold 6 and 2: more than half in one rack, 2N fails
    assert replicas_after_rack_failure(plan.replicas, 1, [6, 2]) == 2 < 4


def test_n_plus_1_survives_a_node_but_not_a_rack(catalog):
    """Load 7 on 8 nodes (N+1): a node failure leaves 7, a rack of 4 nodes leaves 4."""
    plan = plan_nodes(catalog.servers["dgx-h100"], 8, 7, "n+1")
    assert (plan.replicas, plan.nodes) == (8, 8)
    assert replicas_after_node_failure(plan.replicas, plan.nodes, 1) == 7
    assert replicas_after_rack_failure(plan.replicas, 1, [4, 4]) == 4


def test_spanning_replicas_are_lost_with_any_of_their_nodes():
    """Replicas of two nodes in racks of three: every rack cuts one replica in two."""
    assert replicas_touching_racks(2, [3, 3]) == [2, 2]
    assert replicas_after_rack_failure(3, 2, [3, 3]) == 1
    assert replicas_touching_racks(2, [2, 2, 2]) == [1, 1, 1]
    assert replicas_touching_racks(3, [2, 2, 2]) == [1, 2, 1]
    assert replicas_after_rack_failure(2, 3, [2, 2, 2]) == 0


def test_one_node_per_rack_is_a_node_failure():
    for replicas in range(1, 30):
        for nodes in range(1, 12):
            if replicas >= nodes:
                assert replicas_after_rack_failure(replicas, 1, [1] * nodes) == \
                    replicas_after_node_failure(replicas, nodes, 1)


# --------------------------------------------------------------------------- messages


def test_rack_messages():
    assert narrative.rack_failure_message(1, 0, 2, 1).text() == ONE_RACK
    assert narrative.rack_failure_message(2, 4, 8, 4).text() == (
        "With one rack down, 4 of 8 replicas still serve the full load (4 needed).")
    assert narrative.rack_failure_message(4, 6, 8, 7).text() == (
        "With one rack down, 6 of 8 replicas serve about 86% of the peak load; the rest "
        "queue.")
    assert narrative.rack_redundancy_message("none", False, 2, 3, 4) is None
    n_plus_1 = narrative.rack_redundancy_message("n+1", False, 1, 2, 2).text()
    assert n_plus_1.startswith("N+1 counts nodes: it covers one node down, not a rack of 2")
    assert "2N" in n_plus_1 and "spare nodes (2 more)" in n_plus_1


# --------------------------------------------------------------------------- pipeline


def test_worked_example_n_plus_1_in_one_rack(sized):
    """Two nodes of N+1 fit one rack: a rack failure stops the service."""
    s = sized(example("worked-example")).scale
    assert (s.redundancy, s.nodes, s.compute_racks, s.nodes_in_fullest_rack) == \
        ("n+1", 2, 1, 2)
    assert s.replicas_after_node_failure == s.replicas_for_load
    assert s.replicas_after_rack_failure == 0
    assert s.survives_rack_failure is False
    assert s.rack_failure_statement == ONE_RACK
    assert s.rack_redundancy_message.template.startswith("N+1 counts nodes")
    at = s.messages.index(s.failure_message)
    assert s.messages[at + 1:at + 3] == [s.rack_failure_message, s.rack_redundancy_message]
    assert ONE_RACK in s.explanation


def test_large_moe_racks_come_from_the_infrastructure(sized):
    """The rack layout is the infrastructure sizing's compute racks."""
    r = sized(example("large-moe"))
    s = r.scale
    layout = [len(rack.items) for rack in r.infrastructure.racks if rack.kind == "compute"]
    assert s.compute_racks == len(layout) and s.nodes_in_fullest_rack == max(layout)
    assert s.replicas_after_rack_failure == replicas_after_rack_failure(
        s.replicas, s.nodes_per_replica, layout)
    assert s.survives_rack_failure == (s.replicas_after_rack_failure >= s.replicas_for_load)


def test_2n_spread_over_racks_survives_in_the_pipeline(sized):
    """large-moe with 2N: the doubled nodes fill several racks, each under half of them."""
    scenario = example("large-moe")
    scenario["availability"]["redundancy"] = "2n"
    s = sized(scenario).scale
    assert s.compute_racks >= 2 and 2 * s.nodes_in_fullest_rack <= s.nodes
    assert s.replicas_after_rack_failure >= s.replicas_for_load
    assert s.survives_rack_failure is True
    assert s.rack_redundancy_message.template.startswith("Replicas are spread across")


def test_training_stops_on_a_rack_failure(sized):
    s = sized(example("pretrain")).scale
    assert s.replicas_after_rack_failure == s.replicas_after_node_failure == 0
    assert s.survives_rack_failure is False
    assert s.rack_failure_message.template.startswith("A rack failure takes down")
    assert s.rack_redundancy_message is None


def test_older_results_without_rack_fields_still_load(sized):
    """CONTRACT.md: fields are added, never renamed; a result written before them loads."""
    data = sized(example("small-chat")).model_dump(mode="json")
    for name in ("compute_racks", "nodes_in_fullest_rack", "replicas_after_node_failure",
                 "replicas_after_rack_failure", "survives_rack_failure",
                 "rack_failure_statement", "rack_failure_message", "rack_redundancy_message"):
        del data["scale"][name]
    assert SizingResult.model_validate(data).scale.replicas_after_rack_failure is None


# --------------------------------------------------------------------------- properties


@given(st.lists(st.integers(1, 12), min_size=1, max_size=8), st.integers(1, 8), st.data())
def test_a_rack_never_leaves_more_than_a_node(layout, per_node, data):
    """0 <= replicas after a rack failure <= replicas after a node failure."""
    nodes = sum(layout)
    replicas = data.draw(st.integers(1, nodes * per_node))
    rack = replicas_after_rack_failure(replicas, 1, layout)
    assert 0 <= rack <= replicas_after_node_failure(replicas, nodes, 1)
    assert sum(replicas_per_rack(replicas, layout)) == replicas


@given(st.integers(1, 12), st.integers(2, 6), st.integers(1, 10))
def test_spanning_rack_never_leaves_more_than_a_node(replicas, span, rack_size):
    nodes = replicas * span
    layout = [rack_size] * (nodes // rack_size) + ([nodes % rack_size] if nodes % rack_size
                                                   else [])
    rack = replicas_after_rack_failure(replicas, span, layout)
    assert 0 <= rack <= replicas_after_node_failure(replicas, nodes, span)
