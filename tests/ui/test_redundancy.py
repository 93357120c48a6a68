"""Step 5 page: redundancy and storage edits, the scale figures, the node diagram, what
still serves when a node or a rack fails."""

import pytest

from app import api
from app.domain.result import ScaleResult
from app.ui import text
from app.ui.pages.redundancy import RedundancyPage, replica_slots
from app.ui.text import render


@pytest.fixture
def page(qtbot, controller):
    widget = RedundancyPage(controller)
    qtbot.addWidget(widget)
    return widget


def test_shows_the_scenario_redundancy(page, controller):
    assert controller.scenario.availability.redundancy == "n+1"
    assert page.redundancy.checkedId() == 1


def test_redundancy_radio_changes_replicas(page, controller):
    before = controller.result.scale.replicas
    page.redundancy.button(0).click()
    assert controller.scenario.availability.redundancy == "none"
    controller.recompute()
    scale = controller.result.scale
    assert scale.replicas == scale.replicas_for_load < before
    assert page.figure_values["Replicas with availability"].text().startswith(
        str(scale.replicas))
    page.redundancy.button(2).click()
    controller.recompute()
    assert controller.result.scale.replicas == 2 * controller.result.scale.replicas_for_load


def test_storage_tier_changes_cold_start(page, controller):
    before = page.figure_values["Cold start"].text()
    index = page.storage_combo.findData("best")
    page.storage_combo.setCurrentIndex(index)
    page.storage_combo.activated.emit(index)
    assert controller.scenario.availability.storage_tier == "best"
    controller.recompute()
    assert page.figure_values["Cold start"].text() != before


def test_failure_statement_and_messages(page, controller):
    scale = controller.result.scale
    assert render(scale.failure_message) in page.failure.text()
    assert render(scale.messages[0]) in page.messages.text()
    assert render(scale.failure_message) not in page.messages.text()


def test_rack_failure_statement_and_note(page, controller):
    """The worked example's two N+1 nodes share one rack: nothing serves when it fails."""
    scale = controller.result.scale
    assert page.rack_box.title() == "When a rack fails"
    assert not page.rack_box.isHidden()
    assert scale.rack_failure_statement in page.rack_failure.text()
    assert render(scale.rack_redundancy_message).startswith("N+1 counts nodes")
    assert page.rack_note.text() == render(scale.rack_redundancy_message)
    assert "nodes in the fullest rack: 2" in page.rack_layout.text()
    for message in (scale.rack_failure_message, scale.rack_redundancy_message):
        assert render(message) not in page.messages.text()


def test_rack_failure_in_german(page, controller):
    try:
        controller.set_language("de")
        assert page.rack_box.title() == "Bei Ausfall eines Racks"
        assert page.failure_box.title() == "Bei Ausfall eines Knotens"
        assert "Alle Knoten stehen in einem Rack" in page.rack_failure.text()
        assert page.rack_note.text().startswith("N+1 zählt Knoten")
    finally:
        controller.set_language("en")
        text.set_language("en")


def test_2n_over_two_racks_survives_on_the_page(page, controller):
    """A 1.5 kW rack limit puts each of the two nodes in its own rack: 2N survives."""
    page.redundancy.button(2).click()
    controller.edit("infrastructure.rack_power_limit_kw", 1.5)
    assert controller.wait_until_idle()
    scale = controller.result.scale
    assert (scale.redundancy, scale.compute_racks, scale.survives_rack_failure) == \
        ("2n", 2, True)
    # the worked example's 40 users take two replicas (#14): 2N runs four
    assert "With one rack down, 2 of 4 replicas still serve the full load" in \
        page.rack_failure.text()
    assert page.rack_note.text().startswith("Replicas are spread across the 2 racks")


def test_batch_completion_only_for_batch_jobs(page, controller):
    label = page.figure_labels["Batch completion"]
    assert not page.figures.isRowVisible(label)
    controller.load(api.example("batch-summaries"), None)
    assert controller.result.scale.batch_completion_hours is not None
    assert page.figures.isRowVisible(label)
    assert page.figure_values["Batch completion"].text().endswith("h")


def scale(**changes) -> ScaleResult:
    values = dict(redundancy="n+1", replicas_for_load=2, replicas=4, gpus_total=4,
                  server="dgx-b200", gpus_per_node=8, replicas_per_node=8,
                  nodes_per_replica=1, nodes=2, autoscale_min_replicas=2,
                  autoscale_max_replicas=4, cold_start_s=10.0, storage_tier="good",
                  failure_statement="")
    return ScaleResult(**values | changes)


def test_replicas_spread_evenly_over_nodes():
    slots = replica_slots(scale(), gpus_per_replica=1)
    assert [node[:3] for node in slots] == [[0, 2, None], [1, 3, None]]
    assert all(len(node) == 8 for node in slots)


def test_a_replica_larger_than_a_node_spans_nodes():
    spanning = scale(replicas=2, nodes=4, nodes_per_replica=2, replicas_per_node=0,
                     gpus_total=32)
    slots = replica_slots(spanning, gpus_per_replica=16)
    assert [set(node) for node in slots] == [{0}, {0}, {1}, {1}]


def test_the_plan_and_what_the_other_would_need(qtbot, page, controller):
    """choose-gpu plans conservatively: the Scale box leads with the planning sentence (in
    German too), which the bullets below do not repeat; the summary panel names the other
    plan's GPUs."""
    from app.ui.summary_panel import SummaryPanel

    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    # 200 users: the low end needs a third 8-GPU system (100 users fill the slots of two
    # either way, since a system sold with its GPUs serves with all of them)
    controller.load(api.set_field(api.example("choose-gpu"), "workload.concurrent_users",
                                  "200"), None)
    planning = controller.result.scale.planning
    assert planning.plan_at == "conservative"
    assert planning.expected.gpus_total < planning.conservative.gpus_total
    assert page.planning.text() == render(planning.message)
    assert "Planned conservatively" in page.planning.text()
    assert render(planning.message) not in page.messages.text()
    assert panel.values["Planned at"].text() == (
        f"conservative; {planning.expected.gpus_total} GPUs at the expected figures")
    controller.set_language("de")
    assert page.planning.text().startswith("Vorsichtig geplant")
    assert panel.values["Planned at"].text().startswith("vorsichtig; ")


def test_one_gpu_at_the_other_figures_is_singular(controller):
    """small-chat is planned conservatively on one L40S, and one would do at the expected
    figures too: '1 GPU', not '1 GPUs', in both languages."""
    from app.ui.summary_panel import planning_text

    controller.load(api.example("small-chat"), None)
    controller.wait_until_idle()
    planning = controller.result.scale.planning
    assert planning.other.gpus_total == 1
    assert planning_text(planning) == "conservative; 1 GPU at the expected figures"
    controller.set_language("de")
    assert planning_text(planning) == "vorsichtig; 1 GPU nach den erwarteten Werten"
