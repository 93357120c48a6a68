"""The last German rough edges: inline messages follow a language switch, number inputs group
thousands, switches in the racks name their network in German, one replica or sequence is
singular, a space before %, and the memory and decode charts fit their German texts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QLineEdit

from app import api
from app.engine.narrative import memory_messages
from app.i18n import tr
from app.ui import text
from app.ui.charts import DecodeBreakdownChart, VramChart
from app.ui.fields import parse_number
from app.ui.pages.redundancy import autoscaling_text
from app.ui.pages.training import TrainingPage
from app.ui.racks import RackView, item_name


@pytest.fixture
def page(requirements_page):
    return requirements_page


def type_into(editor: QLineEdit, typed: str) -> None:
    editor.setText(typed)
    editor.editingFinished.emit()


# --- 1: a refusal shown under a field follows the language ------------------------------------
def test_a_refusal_shown_under_a_field_switches_language(page, controller):
    ttft = page.field("targets.ttft_s")
    type_into(ttft.editor, "0")
    assert ttft.message.text() == "Input should be greater than or equal to 0.001 (got 0.0)"
    controller.set_language("de")
    assert ttft.message.text() == "Der Wert muss mindestens 0,001 sein (angegeben: 0,0)"
    assert not ttft.message.isHidden()
    controller.set_language("en")
    assert ttft.message.text() == "Input should be greater than or equal to 0.001 (got 0.0)"
    assert controller.undo_stack.count() == 0  # asking again edits nothing


def test_each_field_keeps_its_own_refusal_after_a_switch(page, controller):
    """The controller's problems are the last refusal's: the field asks about its own value."""
    context, ttft = page.field("workload.max_context_tokens"), page.field("targets.ttft_s")
    type_into(context.editor, "100")
    type_into(ttft.editor, "0")
    controller.set_language("de")
    assert context.message.text().startswith("Der maximale Kontext (max_context_tokens = 100)")
    assert ttft.message.text().startswith("Der Wert muss mindestens 0,001 sein")


def test_a_refusal_found_by_the_field_itself_switches_language(page, controller):
    allowed = page.field("precision.allowed_weights")
    for box in allowed.boxes:
        box.setChecked(False)
    assert allowed.message.text() == "Keep at least one format allowed."
    controller.set_language("de")
    assert allowed.message.text() == text.t("Keep at least one format allowed.")
    assert allowed.message.text() != "Keep at least one format allowed."


def test_an_accepted_edit_still_clears_the_message(page, controller):
    ttft = page.field("targets.ttft_s")
    type_into(ttft.editor, "0")
    type_into(ttft.editor, "1,5")
    assert ttft.message.isHidden()
    controller.set_language("de")
    assert ttft.message.isHidden()


# --- 2: number inputs group thousands -----------------------------------------------------------
def test_number_inputs_group_thousands_in_each_language(page, controller):
    context = page.field("workload.max_context_tokens")
    assert context.editor.text() == "8,192"
    controller.set_language("de")
    assert context.editor.text() == "8.192"
    assert context.read() == 8192
    type_into(context.editor, "16.384")
    assert controller.scenario.workload.max_context_tokens == 16384
    type_into(context.editor, "32768")  # typed without separators
    assert controller.scenario.workload.max_context_tokens == 32768
    controller.set_language("en")
    assert context.editor.text() == "32,768"


def test_tokens_to_train_are_grouped(qtbot, controller):
    controller.load(api.example("pretrain"), None)
    page = TrainingPage(controller)
    qtbot.addWidget(page)
    assert page.tokens.editor.text() == "1,000,000,000,000"
    controller.set_language("de")
    assert page.tokens.editor.text() == "1.000.000.000.000"
    type_into(page.tokens.editor, "2.000.000.000.000")
    assert controller.scenario.training.tokens_total == 2e12
    type_into(page.tokens.editor, "3000000000000")  # typed without separators
    assert controller.scenario.training.tokens_total == 3e12
    type_into(page.tokens.editor, "2,5")  # the decimal comma
    assert controller.scenario.training.tokens_total == 2.5


def test_a_spin_box_names_one_in_the_singular(page, controller):
    prompt = page.field("workload.prompt_tokens")
    prompt.editor.setValue(1)
    assert prompt.editor.suffix() == " token"
    controller.set_language("de")
    assert prompt.editor.suffix() == " Token"
    prompt.put(2048)  # the scenario's value shown
    assert prompt.editor.suffix() == " Tokens"
    users = page.field("workload.concurrent_users")
    users.put(1)
    assert users.editor.suffix() == " Nutzer"


@pytest.mark.parametrize(("typed", "lang", "whole", "value"), [
    ("8192", "en", True, 8192), ("8,192", "en", True, 8192), ("8.192", "de", True, 8192),
    ("1,234.5", "en", False, 1234.5), ("1.234,5", "de", False, 1234.5),
    ("1,000,000", "en", False, 1e6), ("1.000.000", "de", False, 1e6),
    ("1,5", "en", False, 1.5), ("0.5", "de", False, 0.5), ("8.192", "en", False, 8.192),
    ("", "de", False, None), ("1,5", "de", True, "1,5"), ("1.2.3", "en", False, "1.2.3"),
])
def test_parse_number(typed, lang, whole, value):
    assert parse_number(typed, whole, lang) == value


# --- 3: switches in the racks name their network in German ---------------------------------------
def test_rack_items_name_their_network_in_german(qtbot, controller):
    text.set_language("de")
    assert item_name("SN4600C (100GbE) (front-end and storage) #2", "network") \
        == "SN4600C (100GbE) (Front-End und Speicher) #2"
    assert item_name("SN2201 (1GbE out-of-band) (out-of-band) #1", "network") \
        == "SN2201 (1GbE out-of-band) (Out-of-Band) #1"
    assert item_name("DGX H100 (server) #1", "compute") == "DGX H100 (server) #1"
    view = RackView()
    qtbot.addWidget(view)
    view.show_result(controller.result)
    tips = "\n".join(item.toolTip() for item in view.racks.items())
    assert "(front-end" not in tips and "(out-of-band)" not in tips
    assert "(Out-of-Band) #1" in tips


# --- 4: one replica, one sequence; a space before % --------------------------------------------
def test_percentages_have_a_space_in_german():
    assert tr("{share:.0%} of it", "de", share=0.693) == "69\u00a0% of it"
    assert tr("{share:.1%}", "de", share=0.0025) == "0,2\u00a0%"
    assert tr("{share:.0%} of it", "en", share=0.693) == "69% of it"
    assert tr("{n:,}", "de", n=1234) == "1.234"


def test_one_sequence_and_one_replica_are_singular():
    data = api.example("worked-example")
    data["workload"]["concurrent_users"] = 1
    result = api.size(api.load_scenario(data))
    assert result.memory.concurrency_sized == 1
    memory = [m.text("de") for m in result.memory.messages]
    assert "Eine Sequenz bei maximalem Kontext braucht" in " ".join(memory)
    assert any(m.text().startswith("One sequence at peak context needs") for m in
               result.memory.messages)
    one = result.memory.model_copy(update={"fits": True, "max_concurrent_sequences": 1})
    fits = memory_messages(one, "BF16", "FP16", 2)
    assert "It fits: one sequence at peak context." in [m.text() for m in fits]
    assert "Es passt: eine Sequenz bei maximalem Kontext." in [m.text("de") for m in fits]
    scale = " ".join(m.text("de") for m in result.scale.messages)
    assert "Ein Replikat trägt die Last;" in scale
    german = " ".join(m.text("de") for m in [*result.memory.messages, *result.scale.messages])
    assert "1 Replikate" not in german and "1 Sequenzen" not in german


def test_autoscaling_range_of_one_count():
    assert autoscaling_text(1, 3) == "1 to 3 replicas"
    assert autoscaling_text(1, 1) == "1 replica"
    assert autoscaling_text(2, 2) == "2 replicas"
    text.set_language("de")
    assert autoscaling_text(1, 1) == "1 Replikat"
    assert autoscaling_text(1, 3) == "1 bis 3 Replikate"


# --- 5: the charts fit their German texts -----------------------------------------------------
def right_edge(item) -> float:
    """The right edge of a graphics item in view pixels."""
    return item.mapToScene(QPointF(item.boundingRect().right(), 0)).x()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_memory_chart_fits_its_texts_at_its_minimum_width(qtbot, controller, lang):
    controller.set_language(lang)
    chart = VramChart()
    qtbot.addWidget(chart)
    chart.resize(chart.minimumWidth(), 520)
    chart.show()
    qtbot.waitExposed(chart)
    chart.show_result(controller.result)
    chart.retranslate()
    width = chart.width()
    assert chart.centralWidget.geometry().width() <= width + 2  # the layout is not cut off
    for line in (chart.usable_line, chart.memory_line):
        assert right_edge(line.label) <= width
    assert chart.legend.columnCount == (2 if lang == "en" else 1)  # English looks as before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_decode_chart_fits_its_title_and_values(qtbot, controller, lang):
    controller.set_language(lang)
    chart = DecodeBreakdownChart()
    qtbot.addWidget(chart)
    chart.resize(417, 480)
    chart.show()
    qtbot.waitExposed(chart)
    chart.retranslate()
    chart.show_result(controller.result)
    width = chart.width()

    def fits() -> bool:
        return (chart.plot.geometry().width() <= width
                and right_edge(chart.plot.titleLabel) <= width
                and all(right_edge(value) <= width for value in chart.values)
                and "<br>" in chart.plot.titleLabel.text)  # too long for one line at 417 px

    qtbot.waitUntil(fits, timeout=3000)  # the layout settles (slowly on a loaded machine)
    chart.resize(900, 480)
    qtbot.waitUntil(lambda: "<br>" not in chart.plot.titleLabel.text, timeout=2000)
    assert chart.plot.geometry().width() <= chart.width()
