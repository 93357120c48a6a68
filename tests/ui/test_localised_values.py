"""The German window formats and names every value in German.

Units and currencies (app/ui/units.py), chart axes and ticks, spin boxes, rack and topology
labels and tooltips, the Infrastructure tables and the summary panel: German numbers
(1.234,5), German unit names (Tokens/s, Nutzer) and '1.234 USD'; English again after
switching back.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSimpleTextItem, QSpinBox

from app.api import example, load_scenario, size
from app.ui import text
from app.ui.charts import LocalAxis, ThroughputChart, TtftChart
from app.ui.main_window import MainWindow
from app.ui.pages.infrastructure import InfrastructurePage
from app.ui.racks import RackView
from app.ui.summary_panel import SummaryPanel
from app.ui.topology import TopologyView
from app.ui.units import number_locale, rate, tb, usd


@pytest.fixture(scope="module")
def large():
    """A result with several racks and a scale-out fabric."""
    return size(load_scenario(example("large-moe")))


# --- units ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ("12.3 tokens/s", "1,234 tokens/s", "USD 1,234", "USD 0.25", "1.50 TB", "n/a")),
    ("de", ("12,3 Tokens/s", "1.234 Tokens/s", "1.234 USD", "0,25 USD", "1,50 TB", "k. A.")),
])
def test_units_in_each_language(lang, expected):
    text.set_language(lang)
    assert (rate(12.34), rate(1234), usd(1234), usd(0.25, ",.2f"), tb(1.5e12), usd(None)) \
        == expected


def test_rate_takes_a_translated_unit_or_none():
    text.set_language("de")
    assert rate(12.34, text.t("users")) == "12,3 Nutzer"
    assert rate(12.34, "").strip() == "12,3"


def test_number_locale_has_the_separators_of_number():
    assert number_locale("de").toString(1234.5, "f", 1) == "1.234,5"
    assert number_locale("en").toString(1234.5, "f", 1) == "1,234.5"


# --- charts ---------------------------------------------------------------------------------
def test_linear_tick_labels_use_the_decimal_comma_in_german(qtbot):
    axis = LocalAxis("left")
    assert axis.tickStrings([0.5, 1.0, 1.5], 1.0, 0.5) == ["0.5", "1.0", "1.5"]
    text.set_language("de")
    assert axis.tickStrings([0.5, 1.0, 1.5], 1.0, 0.5) == ["0,5", "1,0", "1,5"]


def test_axis_units_and_line_labels_are_german(qtbot, controller):
    chart, ttft = ThroughputChart(), TtftChart()
    qtbot.addWidget(chart)
    qtbot.addWidget(ttft)
    text.set_language("de")
    chart.show_result(controller.result)
    chart.retranslate()
    ttft.show_result(controller.result)
    ttft.retranslate()  # as the page does on a language switch
    assert chart.per_user_plot.getAxis("left").labelUnits == "Tokens/s"
    assert chart.total_plot.getAxis("bottom").labelUnits == "Nutzer"
    assert ttft.plot.getAxis("bottom").labelUnits == "Tokens"
    assert "Tokens/s" in chart.target_line.label.format
    assert "." not in ttft.target_line.label.format  # "TTFT-Ziel: 2,0 s"


# --- spin boxes -----------------------------------------------------------------------------
def test_spin_boxes_follow_the_language_and_back(qtbot, controller):
    window = MainWindow(controller)
    qtbot.addWidget(window)
    spin = next(s for s in window.findChildren(QSpinBox) if s.value() >= 1000)
    assert "," in spin.text()  # 6,144 tokens
    controller.set_language("de")
    assert spin.locale().decimalPoint() == "," and "." in spin.text()  # 6.144 Tokens
    controller.set_language("en")
    assert spin.locale().decimalPoint() == "." and "," in spin.text()
    controller.undo_stack.setClean()


# --- racks and topology ---------------------------------------------------------------------
def test_rack_labels_and_tooltips_use_german_numbers(qtbot, large):
    text.set_language("de")
    view = RackView()
    qtbot.addWidget(view)
    view.show_result(large)
    rack = large.infrastructure.racks[0]
    kw = f"{rack.power_w / 1e3:.1f}".replace(".", ",")
    labels = [i.text() for i in view.racks.items() if isinstance(i, QGraphicsSimpleTextItem)]
    assert any(label.startswith(f"{kw} / ") for label in labels)
    tips = [i.toolTip() for i in view.racks.items() if isinstance(i, QGraphicsRectItem)]
    assert any(f"{kw} kW von" in tip for tip in tips)


def test_topology_names_switches_and_links_in_german(qtbot, controller):
    text.set_language("de")
    view = TopologyView()
    qtbot.addWidget(view)
    view.show_result(controller.result)
    labels = [i.text() for i in view.topology.items() if isinstance(i, QGraphicsSimpleTextItem)]
    assert "Front-End und Speicher 1" in labels
    tips = "\n".join(i.toolTip() for i in view.topology.items())
    assert "je GPU und Richtung" in tips and "per direction" not in tips


# --- tables ---------------------------------------------------------------------------------
def column(table, index: int) -> list[str]:
    return [table.item(row, index).text() for row in range(table.rowCount())]


def test_infrastructure_tables_are_german(qtbot, controller):
    text.set_language("de")
    page = InfrastructurePage(controller)
    qtbot.addWidget(page)
    summary, costs = dict(zip(column(page.summary, 0), column(page.summary, 1), strict=True)), \
        column(page.costs, 2)
    assert "je GPU und Richtung" in summary["Scale-up"]
    assert summary["Energie pro Jahr"].endswith(" USD")
    assert all(not cell.startswith("USD") for cell in costs)
    assert any(cell.endswith(" USD") for cell in costs)
    sources = column(page.costs, 3)
    # Every catalog server and GPU has a price now (issue 13): no line falls back to the
    # "no price" text, in either language.
    assert not any("no price" in cell or "kein Preis" in cell for cell in sources)
    fabric = column(page.networks, 1)[-1]
    assert fabric.startswith("Jedes Replikat")  # no fabric needed: the reason, in German


def test_summary_panel_names_tokens_per_second_in_german(qtbot, controller):
    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    controller.load(example("small-chat"), None)  # the worked example does not fit: no speed
    controller.set_language("de")
    assert panel.values["Tokens/s per user"].text().split(" (")[0].endswith("Tokens/s")
    controller.set_language("en")
    assert "tokens/s" in panel.values["Tokens/s per user"].text()
