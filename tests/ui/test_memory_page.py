"""Step 2 page: the VRAM chart and the tables show the result, and update in place."""

from __future__ import annotations

import pytest

from app import api
from app.ui import text
from app.ui.pages.memory import ROWS, MemoryPage
from app.ui.units import GB, gb_gib

USERS = "workload.concurrent_users"


@pytest.fixture
def page(controller, qtbot):
    widget = MemoryPage(controller)
    qtbot.addWidget(widget)
    yield widget
    text.set_language("en")


def bar_heights(page: MemoryPage) -> dict[str, float]:
    return {part: bar.opts["height"][0] for part, bar in page.chart.bars.items()}


def test_the_stacked_bar_adds_up_to_what_one_gpu_holds(page, controller):
    memory = controller.result.memory
    heights = bar_heights(page)
    held = heights["weights"] + heights["kv"] + heights["runtime"]
    assert heights["weights"] == pytest.approx(memory.weights_bytes_per_gpu / GB)
    assert held == pytest.approx(memory.per_gpu_bytes / GB)
    assert page.chart.usable_line.value() == pytest.approx(memory.gpu_usable_bytes / GB)
    assert page.chart.memory_line.value() == pytest.approx(memory.gpu_memory_bytes / GB)
    assert page.chart.plot.getAxis("left").labelUnits == "GB"


def test_a_load_that_does_not_fit_says_why(page, controller, no_request_fits):
    controller.load(no_request_fits, None)
    memory = controller.result.memory
    assert not memory.fits
    assert bar_heights(page)["free"] == 0
    assert page.fit_badge.text() == "Does not fit"
    assert "only 0 of 40" in page.explanation.text()


def test_the_worked_example_fits_the_users_one_replica_carries(page, controller):
    """Issue 14: one replica holds 39 of the 40 users, so each of two carries 20."""
    memory = controller.result.memory
    assert memory.fits and memory.concurrency_sized == 20
    assert page.fit_badge.text() != "Does not fit"


def test_the_table_shows_gb_and_gib_for_one_gpu_and_the_replica(page, controller):
    memory = controller.result.memory
    assert page.table.rowCount() == len(ROWS)
    assert page.table.text(0, 0) == "Weights"
    assert page.table.text(0, 1) == gb_gib(memory.weights_bytes_per_gpu)
    assert page.table.text(0, 2) == gb_gib(memory.weights_bytes)
    assert page.table.text(2, 2) == gb_gib(memory.kv_cache_bytes_average)
    assert "GB" in page.table.text(7, 1) and "GiB" in page.table.text(7, 1)
    assert "(2 GPUs)" in page.table.horizontalHeaderItem(2).text()


def test_kv_figures_and_the_rule_of_thumb_are_shown(page, controller):
    memory = controller.result.memory
    facts = {name: label.text() for name, label in page.fact_values.items()}
    assert "320 KiB" in facts["KV cache per token"]
    assert "160 KiB" in facts["KV cache per token"]
    assert "8,192" in facts["Peak against average context"]
    assert "7,168" in facts["Peak against average context"]
    assert facts["Concurrent sequences"].startswith("39 fit")
    assert page.naive_values[0].text() == gb_gib(memory.naive_weights_bytes)
    assert "rule of thumb" in page.naive_why.text()
    assert "rule of thumb" not in page.explanation.text()  # shown once, beside the figure


def test_an_edit_updates_the_same_chart_items(page, controller):
    chart = page.chart
    plot, bars, legend = chart.plot, dict(chart.bars), chart.legend
    before = bar_heights(page)
    kv_row = page.table.text(1, 2)
    controller.edit(USERS, 10)
    controller.recompute()
    assert chart.plot is plot and chart.legend is legend
    assert all(chart.bars[part] is bar for part, bar in bars.items())
    assert all(bar.scene() is plot.scene() for bar in bars.values())
    after = bar_heights(page)
    assert after["kv"] < before["kv"]
    assert after["weights"] == before["weights"]
    assert after["free"] > 0
    assert page.table.text(1, 2) != kv_row
    assert page.fit_badge.text() == "Fits in memory"


def test_another_scenario_redraws_every_figure(page, controller):
    controller.load(api.example("choose-gpu"), None)
    memory = controller.result.memory
    assert page.table.text(4, 1) == gb_gib(memory.per_gpu_bytes)
    assert page.chart.memory_line.value() == pytest.approx(memory.gpu_memory_bytes / GB)
    gpus = controller.result.selection.chosen.gpus_per_replica  # Step 3's choice, conservative
    # Step 3's choice moves with each refit of the ranges (#12): 1 GPU or several
    noun = "GPUs" if gpus > 1 else "GPU"
    assert f"({gpus} {noun})" in page.table.horizontalHeaderItem(2).text()


def test_retranslate_resets_axis_labels_legend_and_table(page, controller):
    controller.set_language("de")
    assert page.chart.plot.getAxis("left").labelText == "Speicher je GPU"
    assert page.table.text(0, 0) == "Gewichte"
    assert page.table.horizontalHeaderItem(1).text() == "Eine GPU"
    legend_texts = [label.text for _sample, label in page.chart.legend.items]
    assert any(label.startswith("Gewichte: ") for label in legend_texts)
    assert "," in page.table.text(0, 1)  # German decimal comma
    controller.set_language("en")
    assert page.chart.plot.getAxis("left").labelText == "Memory per GPU"
