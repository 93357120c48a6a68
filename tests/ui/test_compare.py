"""Compare: pinned options side by side (model without widgets, then the page)."""

import json

import pytest

from app import api
from app.ui.compare_model import KEY_FIGURES, MAX_OPTIONS, ComparisonFull, ComparisonSet, column
from app.ui.pages.compare import ComparePage


@pytest.fixture
def page(qtbot, controller):
    widget = ComparePage(controller)
    qtbot.addWidget(widget)
    return widget


def pin_two(page, controller):
    page.pin_current()
    controller.edit("hardware.gpu", "h200-sxm")
    page.pin_current()


def shown_curves(plot):
    return [c for c in plot.plotItem.listDataItems() if c.xData is not None and len(c.xData)]


def test_model_pins_sizes_once_and_refuses_a_fifth(catalog):
    comparison = ComparisonSet()
    data = api.example("worked-example")
    first = comparison.pin(data, catalog)
    data["hardware"]["gpu"] = "h200-sxm"
    assert first.scenario["hardware"]["gpu"] == "rtx-pro-6000-bse"  # a copy was kept
    for _ in range(MAX_OPTIONS - 1):
        comparison.pin(data, catalog)
    with pytest.raises(ComparisonFull):
        comparison.pin(data, catalog)
    assert len(comparison) == MAX_OPTIONS
    assert len(column(first.result)) == len(KEY_FIGURES)


def test_model_refuses_an_invalid_scenario(catalog):
    comparison = ComparisonSet()
    with pytest.raises(api.ScenarioError):
        comparison.pin({"model": "no-such-model"}, catalog)
    assert len(comparison) == 0


def test_two_pins_show_two_columns_and_two_curves(page, controller):
    pin_two(page, controller)
    table = page.table
    assert table.columnCount() == 2
    assert table.horizontalHeaderItem(0).text().startswith("A")
    assert table.horizontalHeaderItem(1).text().startswith("B")
    gpu_row = [label for label, _ in KEY_FIGURES].index("GPU x count per replica")
    assert table.item(gpu_row, 0).text() != table.item(gpu_row, 1).text()
    assert "H200" in table.item(gpu_row, 1).text()
    assert len(shown_curves(page.speed_plot)) == 2
    assert len(shown_curves(page.throughput_plot)) == 2
    assert len(page.speed_plot.plotItem.legend.items) == 2


def test_pinned_option_keeps_its_result(page, controller):
    page.pin_current()
    before = page.comparison.options[0].result
    controller.edit("hardware.gpu", "h200-sxm")
    controller.recompute()
    assert page.comparison.options[0].result is before


def test_fifth_pin_is_refused_with_a_message(page, controller):
    for _ in range(MAX_OPTIONS):
        page.pin_current()
    page.pin_current()
    assert len(page.comparison) == MAX_OPTIONS
    assert page.table.columnCount() == MAX_OPTIONS
    assert "unpin" in page.message.text()
    assert not page.message.isHidden()


def test_unpin(page, controller):
    pin_two(page, controller)
    page.unpin_buttons[0].click()
    assert page.table.columnCount() == 1
    assert "H200" in page.table.item(1, 0).text()
    assert len(shown_curves(page.speed_plot)) == 1
    assert page.unpin_buttons[1].isHidden()
    page.unpin(0)
    assert page.table.isHidden() and not page.empty.isHidden()


def test_pin_from_a_saved_file(page, tmp_path):
    data = api.example("small-chat")
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    page.pin_file(path)
    assert page.table.columnCount() == 1
    assert data["name"][:10] in page.table.horizontalHeaderItem(0).text()
    assert page.comparison.options[0].scenario == data


def test_pin_from_a_bad_file_shows_the_problem(page, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    page.pin_file(path)
    assert page.table.columnCount() == 0
    assert "not valid JSON" in page.message.text()
