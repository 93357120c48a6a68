"""Assumptions: factor overrides, reset, and calibration from a measurement."""

import pytest
from PySide6.QtCore import Qt

from app.domain.scenario import OVERRIDABLE_FACTORS
from app.ui.pages.assumptions import AssumptionsPage, display_unit, factor_of


@pytest.fixture
def page(qtbot, controller):
    widget = AssumptionsPage(controller)
    qtbot.addWidget(widget)
    return widget


def assumption(controller, factor):
    return next(a for a in controller.result.assumptions if factor_of(a) == factor)


def row_of(page, factor):
    return next(row for row, (name, _) in page.factor_rows.items() if name == factor)


def test_table_lists_every_assumption_and_only_factors_are_editable(page, controller):
    assert page.table.rowCount() == len(controller.result.assumptions)
    editable = [row for row in range(page.table.rowCount())
                if page.table.item(row, 1).flags() & Qt.ItemFlag.ItemIsEditable]
    assert len(editable) == len(OVERRIDABLE_FACTORS)  # every engine factor, one row each
    assert sorted(editable) == sorted(page.factor_rows)


def test_editing_a_factor_overrides_it(page, controller, qtbot):
    before = controller.result.performance.at_concurrency.itl_s
    item = page.table.item(row_of(page, "eta_mem"), 1)
    with qtbot.waitSignal(controller.result_changed):
        item.setText("0.95")
    assert controller.scenario.factor_overrides == {"eta_mem": 0.95}
    assert controller.result.performance.at_concurrency.itl_s < before
    a = assumption(controller, "eta_mem")
    assert a.overridden and a.value == 0.95
    row = row_of(page, "eta_mem")
    assert page.table.item(row, 3).text() == "overridden"
    assert page.table.item(row, 0).font().bold()
    assert page.reset_button.isEnabled()


def test_factor_times_are_edited_in_ms(page, controller, qtbot):
    row = row_of(page, "step_overhead_s")
    assert page.table.item(row, 2).text() == "ms"
    with qtbot.waitSignal(controller.result_changed):
        page.table.item(row, 1).setText("3")
    assert controller.scenario.factor_overrides["step_overhead_s"] == pytest.approx(0.003)
    assert display_unit(assumption(controller, "step_overhead_s")) == ("ms", 1e3)


def test_a_bad_value_is_refused_inline(page, controller, qtbot):
    item = page.table.item(row_of(page, "eta_kv"), 1)
    item.setText("fast")
    assert "not a number" in page.edit_error.text()
    item = page.table.item(row_of(page, "eta_kv"), 1)
    item.setText("42")
    assert "eta_kv" in page.edit_error.text()  # the scenario's own rule, named
    assert controller.scenario.factor_overrides == {}
    qtbot.waitUntil(lambda: page.table.item(row_of(page, "eta_kv"), 1).text() == "0.63")


def test_reset_clears_the_overrides_in_one_undoable_step(page, controller, qtbot):
    controller.edit_many({"factor_overrides.eta_mem": 0.9, "factor_overrides.eta_kv": 0.8},
                         "two factors")
    page.reset_button.click()
    assert controller.scenario.factor_overrides == {}
    assert "factor_overrides" not in controller.data
    with qtbot.waitSignal(controller.result_changed):
        pass
    assert not any(a.overridden for a in controller.result.assumptions if factor_of(a))
    assert not page.reset_button.isEnabled()
    controller.undo_stack.undo()
    assert controller.scenario.factor_overrides == {"eta_mem": 0.9, "eta_kv": 0.8}


def test_calibrate_from_a_measured_itl(page, controller, qtbot):
    users = round(controller.result.performance.at_concurrency.concurrency)
    measured = controller.result.performance.at_concurrency.itl_s * 1.2  # slower than predicted
    steps = controller.undo_stack.count()
    with qtbot.waitSignal(controller.result_changed):
        assert page.calibrate("itl_s", measured, users) == []
    at = controller.result.performance.at_concurrency
    assert at.concurrency == users
    assert at.itl_s == pytest.approx(measured, rel=0.02)
    assert set(controller.scenario.factor_overrides) == {f for f, _ in page.factor_rows.values()}
    assert controller.undo_stack.count() == steps + 1
    assert "scaled together" in page.fit_result.text()
    assert "Memory bandwidth efficiency, weights (vLLM)" in page.fit_result.text()
    assert "eta_mem" not in page.fit_result.text()  # the label, not the factor's name
    assert "Check:" in page.fit_check.text()
    controller.undo_stack.undo()
    assert controller.scenario.factor_overrides == {}
    assert page.fit_result.text() == ""


def test_calibrate_from_the_form_converts_ms(page, controller, qtbot):
    page.metric_combo.setCurrentIndex(page.metric_combo.findData("itl_s"))
    users = page.users.value()
    page.measured.setValue(100.0)
    with qtbot.waitSignal(controller.result_changed):
        page.calibrate_button.click()
    assert controller.result.performance.at_concurrency.concurrency == users
    assert controller.result.performance.at_concurrency.itl_s == pytest.approx(0.1, rel=0.02)


def test_calibration_errors_are_shown_inline(page, controller):
    assert page.calibrate("itl_s", 0.0, 10) != []
    assert "positive" in page.fit_error.text()
    assert controller.scenario.factor_overrides == {}


def visible_rows(page):
    return [row for row in range(page.table.rowCount()) if not page.table.isRowHidden(row)]


def test_search_keeps_the_rows_that_hold_every_word(page, controller):
    total = page.table.rowCount()
    page.search.setText("PUE")
    rows = visible_rows(page)
    assert 0 < len(rows) < total
    for row in rows:
        texts = " ".join(page.table.item(row, col).text() for col in range(5))
        assert "pue" in (texts + controller.result.assumptions[row].name).lower()
    assert page.search_count.text() == f"{len(rows)} of {total} shown"
    page.search.setText("no such assumption anywhere")
    assert visible_rows(page) == []
    page.search.clear()
    assert len(visible_rows(page)) == total and page.search_count.text() == ""


def test_search_outlives_a_new_result(page, controller, qtbot):
    page.search.setText("eta_mem")
    shown = visible_rows(page)
    assert shown == [row_of(page, "eta_mem")]
    with qtbot.waitSignal(controller.result_changed):
        page.table.item(shown[0], 1).setText("0.9")
    assert visible_rows(page) == [row_of(page, "eta_mem")]
