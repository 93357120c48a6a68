"""In the German window, a refused value and an import warning read in German."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit

from app.ui import text
from app.ui.dialogs.import_model import ImportModelDialog
from app.ui.pages.requirements import RequirementsPage

HF_FIXTURES = Path(__file__).parents[1] / "catalog" / "fixtures" / "hf"


@pytest.fixture
def german(controller):
    controller.set_language("de")
    yield controller
    controller.set_language("en")
    text.set_language("en")


@pytest.fixture
def page(qtbot, german):
    page = RequirementsPage(german)
    qtbot.addWidget(page)
    page.resize(1000, 1200)
    return page


def type_into(editor: QLineEdit, typed: str) -> None:
    editor.setText(typed)
    editor.editingFinished.emit()


def test_invalid_value_shows_a_german_message_and_keeps_the_state(page, german):
    before, result = german.data, german.result
    ttft = page.field("targets.ttft_s")
    shown_before = ttft.editor.text()
    type_into(ttft.editor, "0")
    # the TTFT target is at least 1 ms (#14)
    assert ttft.message.text() == "Der Wert muss mindestens 0,001 sein (angegeben: 0,0)"
    assert not ttft.message.isHidden()
    # the scenario's value is back in the editor, so the figures are current again (issue 13):
    # the refusal stays at its field only
    assert german.problems == [] and not german.stale
    assert german.data == before and german.result is result
    assert german.undo_stack.count() == 0
    assert ttft.editor.text() == shown_before  # the scenario's value is back


def test_a_rule_of_the_scenario_reads_in_german(page, german):
    before = german.data
    context = page.field("workload.max_context_tokens")
    type_into(context.editor, "100")
    assert context.message.text().startswith(
        "Der maximale Kontext (max_context_tokens = 100) ist kleiner als Eingabe + Ausgabe")
    assert german.data == before


def test_a_sizing_problem_reads_in_german(page, german):
    limit = german.result.model.max_context_tokens
    assert german.edit("workload.max_context_tokens", limit + 1000) == []
    assert german.wait_until_idle()
    grouped = {n: f"{n:,}".replace(",", ".") for n in (limit, limit + 1000)}  # 9.192
    assert german.problems == [
        f"workload.max_context_tokens: {grouped[limit + 1000]} überschreitet die Kontextgrenze "
        f"des Modells von {grouped[limit]} Tokens"]


def test_import_warnings_and_errors_read_in_german(qtbot, german, user_config_dir):
    dialog = ImportModelDialog(german)
    qtbot.addWidget(dialog)
    assert dialog.read_folder(HF_FIXTURES / "gemma-3-27b-it") is not None
    shown = dialog.warnings.text()
    assert "text_config.vocab_size fehlt; verwendet wurde 262208, der Standardwert von " \
           "transformers" in shown
    assert "Vision-Encoder" in shown and "is not given" not in shown
    assert dialog.read_folder(HF_FIXTURES / "missing-field") is None
    assert dialog.error.text() == (
        "config.json: num_hidden_layers fehlt (nötig für die Zahl der Schichten).")
