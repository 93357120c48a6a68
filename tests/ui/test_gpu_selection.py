"""Step 3 page: the mode switch, the candidate table, and choosing a configuration."""

import pytest
from PySide6.QtCore import Qt

from app.ui.pages.gpu_selection import COLUMNS, SORT_ROLE, GpuSelectionPage
from app.ui.text import t

HEADERS = [column.header for column in COLUMNS]
MAX_USERS = HEADERS.index("Max users\nper replica")
COST = HEADERS.index("Indicative\ncost (USD)")
GPU = HEADERS.index("GPU")
VERDICT = HEADERS.index("Verdict")


@pytest.fixture
def page(qtbot, controller):
    widget = GpuSelectionPage(controller)
    qtbot.addWidget(widget)
    return widget


def let_tool_choose(page, controller):
    page.choose_radio.click()
    controller.recompute()


def column(page, index, role=Qt.ItemDataRole.DisplayRole):
    return [page.proxy.index(row, index).data(role) for row in range(page.proxy.rowCount())]


def test_given_hardware_shows_only_that_configuration(page, controller):
    assert controller.scenario.hardware is not None
    assert page.given_radio.isChecked()
    assert page.proxy.rowCount() == 1
    assert not page.search_box.isEnabled()
    assert page.hint.isVisibleTo(page)
    assert "RTX PRO 6000" in page.chosen_label.text()


def test_letting_the_tool_choose_fills_the_table(page, controller):
    let_tool_choose(page, controller)
    assert controller.scenario.hardware is None
    assert page.choose_radio.isChecked()
    assert page.search_box.isEnabled()
    assert page.proxy.rowCount() > 10
    assert column(page, 0)[0] == "★"
    assert len(controller.result.selection.alternatives) + 1 == page.model.rowCount()


def test_numeric_columns_sort_as_numbers(page, controller):
    let_tool_choose(page, controller)
    page.table.sortByColumn(MAX_USERS, Qt.SortOrder.DescendingOrder)
    keys = column(page, MAX_USERS, SORT_ROLE)
    assert all(isinstance(k, int | float) for k in keys)
    assert keys == sorted(keys, reverse=True)
    shown = [int(text) for text in column(page, MAX_USERS) if text.isdigit()]
    assert shown == sorted(shown, reverse=True)  # '61' before '9', not after


def test_missing_prices_sort_last_and_read_n_a(page, controller):
    let_tool_choose(page, controller)
    page.table.sortByColumn(COST, Qt.SortOrder.AscendingOrder)
    texts = column(page, COST)
    assert t("n/a") in texts
    first_missing = texts.index(t("n/a"))
    assert set(texts[first_missing:]) == {t("n/a")}


def test_text_filter_reduces_rows(page, controller):
    let_tool_choose(page, controller)
    total = page.proxy.rowCount()
    page.filter_edit.setText("H100")
    assert 0 < page.proxy.rowCount() < total
    assert all("H100" in name for name in column(page, GPU))
    assert str(page.proxy.rowCount()) in page.count_label.text()


def test_only_candidates_meeting_the_targets(page, controller):
    let_tool_choose(page, controller)
    total = page.proxy.rowCount()
    page.meets_only.setChecked(True)
    assert 0 < page.proxy.rowCount() < total
    assert set(column(page, VERDICT)) == {t("meets targets")}


def row_of(page, gpu_id):
    for row in range(page.proxy.rowCount()):
        source = page.proxy.mapToSource(page.proxy.index(row, 0)).row()
        candidate = page.model.rows[source].candidate
        if candidate.gpu == gpu_id and candidate.fits:
            return row, candidate
    raise AssertionError(f"no row for {gpu_id}")


def test_choosing_a_row_is_one_undoable_step(page, controller):
    let_tool_choose(page, controller)
    steps = controller.undo_stack.index()
    row, candidate = row_of(page, "h200-sxm")
    page.table.selectRow(row)
    assert page.use_button.isEnabled()
    page.use_button.click()
    hardware = controller.scenario.hardware
    assert (hardware.gpu, hardware.gpus_per_replica) == ("h200-sxm", candidate.gpus_per_replica)
    assert hardware.tensor_parallel == candidate.tensor_parallel
    assert controller.scenario.precision.weights == candidate.precision
    assert controller.scenario.precision.kv_cache == candidate.kv_precision
    assert controller.undo_stack.index() == steps + 1
    controller.undo_stack.undo()
    assert controller.scenario.hardware is None
    assert controller.scenario.precision.weights == "int8"


def test_double_click_uses_the_row(page, controller):
    let_tool_choose(page, controller)
    row, candidate = row_of(page, "b300")
    page.table.doubleClicked.emit(page.proxy.index(row, 0))
    assert controller.scenario.hardware.gpu == "b300"
    controller.recompute()
    assert page.given_radio.isChecked()
    assert page.proxy.rowCount() == 1


def test_use_this_configuration_keeps_the_chosen_one(page, controller):
    let_tool_choose(page, controller)
    chosen = controller.result.selection.chosen
    page.given_radio.click()
    assert controller.scenario.hardware.gpu == chosen.gpu
    assert controller.scenario.precision.weights == chosen.precision


def test_ranking_and_gpu_restriction_are_edits(page, controller):
    let_tool_choose(page, controller)
    index = page.rank_combo.findData("power")
    page.rank_combo.setCurrentIndex(index)
    page.rank_combo.activated.emit(index)
    assert controller.scenario.selection.rank_by == "power"
    page.gpu_actions["h100-sxm"].trigger()
    assert controller.scenario.selection.gpus == ["h100-sxm"]
    controller.recompute()
    assert controller.result.selection.chosen_by == "power"
    assert {c.gpu for c in controller.result.selection.alternatives} == {"h100-sxm"}
    assert page.gpu_button.text() == t("One GPU")
    page.all_gpus.trigger()
    assert controller.scenario.selection.gpus is None


def test_gpu_classes_and_vendors_are_step_3_settings(qtbot, controller):
    from app.ui.pages.gpu_selection import GpuSelectionPage
    page = GpuSelectionPage(controller)
    qtbot.addWidget(page)
    page.show_scenario(controller.scenario)
    classes, vendors = page.grade_fields
    assert classes.read() == ["datacenter"]  # the default: data-centre GPUs only
    assert vendors.read() == ["nvidia", "amd", "intel"]
    classes.boxes[2].setChecked(True)  # consumer
    assert controller.scenario.selection.gpu_classes == ["datacenter", "consumer"]
    classes.boxes[0].setChecked(False)
    classes.boxes[2].setChecked(False)  # none ticked: refused at the field
    assert controller.scenario.selection.gpu_classes == ["consumer"]
