"""The Infrastructure step: inputs edit the scenario; tables, chart, racks and topology
follow the result."""

from app import api
from app.ui.pages.infrastructure import InfrastructurePage


def page_for(qtbot, controller, example="large-moe", **changes):
    data = api.example(example)
    data.update(changes)
    controller.load(data, None)
    page = InfrastructurePage(controller)
    qtbot.addWidget(page)
    return page


def cell(table, row, column):
    return table.item(row, column).text()


def test_tables_show_the_result(qtbot, controller):
    page = page_for(qtbot, controller)
    site = controller.result.infrastructure
    assert page.networks.rowCount() == len(site.network.groups) + 1
    assert page.costs.rowCount() == len(site.cost_lines) + 4
    assert str(len(site.racks)) in cell(page.summary, 0, 1)


def test_cooling_choice_changes_racks_and_pue(qtbot, controller):
    page = page_for(qtbot, controller)
    before = controller.result.infrastructure
    cooling = next(f for f in page.fields if f.path == "infrastructure.cooling")
    cooling.apply("dlc")
    controller.recompute()
    after = controller.result.infrastructure
    assert after.cooling.kind == "dlc" and after.power.pue < before.power.pue
    assert "dlc" in cell(page.summary, 5, 1)
    controller.undo_stack.undo()
    controller.recompute()
    assert controller.result.infrastructure.cooling.kind == before.cooling.kind


def test_invalid_input_is_refused_inline(qtbot, controller):
    page = page_for(qtbot, controller)
    pue = next(f for f in page.fields if f.path == "infrastructure.pue")
    pue.editor.setText("0.5")
    problems = pue.commit()
    assert problems and pue.message.isVisibleTo(page)
    assert controller.scenario.infrastructure.pue is None


def test_ab_feeds_default_is_shown_checked(qtbot, controller):
    page = page_for(qtbot, controller)
    feeds = next(f for f in page.fields if f.path == "infrastructure.ab_feeds")
    assert feeds.editor.isChecked()


def test_fabric_row_and_topology_export(qtbot, controller, tmp_path):
    page = page_for(qtbot, controller, hardware={"gpu": "h100-sxm", "tensor_parallel": 8,
                                                 "pipeline_parallel": 2})
    fabric = controller.result.infrastructure.network.fabric
    assert fabric is not None
    texts = [cell(page.networks, r, 1) for r in range(page.networks.rowCount())]
    assert any(f"{fabric.leaves} leaf" in text for text in texts)
    page.export_to(tmp_path / "t.svg", "svg")
    page.export_to(tmp_path / "t.png", "png")
    assert (tmp_path / "t.svg").stat().st_size > 1000
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_power_chart_follows_the_result(qtbot, controller):
    page = page_for(qtbot, controller)
    compute = page.power_chart.bars[0].opts["height"][0]
    controller.edit("workload.concurrent_users", 1000)
    controller.recompute()
    assert page.power_chart.bars[0].opts["height"][0] > compute
