"""The user's guide (F1, a topic per page, English and German) and printing the report."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QKeySequence

from app.ui import text
from app.ui.dialogs.help import HelpDialog, guide_path, page_key, topics
from app.ui.pages import PAGES, row_of
from app.ui.pages.report import report_html
from app.ui.printing import print_to_pdf


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_guide_has_a_topic_for_every_page(language):
    path = guide_path(language)
    assert path.name == f"how-to-size.{language}.md"
    keys = [topic.key for topic in topics(path.read_text(encoding="utf-8"))]
    assert keys[0] == "overview"
    assert {page_key(page.class_name) for page in PAGES} <= set(keys)


def test_the_german_guide_is_german():
    english = topics(guide_path("en").read_text(encoding="utf-8"))
    german = topics(guide_path("de").read_text(encoding="utf-8"))
    assert [topic.key for topic in german] == [topic.key for topic in english]
    for en, de in zip(english, german, strict=True):
        assert en.text != de.text
    assert "Speicher" in german[0].text


def test_f1_opens_the_guide_at_the_current_page(shown_window, qtbot):
    action = shown_window.actions_["&How to size"]
    assert action.shortcut() == QKeySequence(QKeySequence.StandardKey.HelpContents)
    shown_window.go(row_of("GpuSelectionPage"))
    action.trigger()
    dialog = shown_window.dialogs["help"]
    assert isinstance(dialog, HelpDialog)
    assert dialog.current_key() == "gpuselection"
    assert "Let the tool choose" in dialog.browser.toPlainText()
    shown_window.go(row_of("InfrastructurePage"))
    action.trigger()
    assert shown_window.dialogs["help"].current_key() == "infrastructure"


def test_the_guide_follows_the_language(shown_window):
    shown_window.controller.set_language("de")
    shown_window.go(row_of("MemoryPage"))
    shown_window.actions_["&How to size"].trigger()
    dialog = shown_window.dialogs["help"]
    assert dialog.windowTitle() == text.t("How to size")
    assert "Gewichte" in dialog.browser.toPlainText()


def test_print_report_is_ctrl_p_in_the_file_menu(shown_window):
    action = shown_window.actions_["Print report…"]
    assert action.shortcut() == QKeySequence(QKeySequence.StandardKey.Print)
    assert action in shown_window.file_menu.actions()


def test_printing_to_a_file_writes_the_report_as_shown(controller, catalog, tmp_path):
    result = controller.result
    names = {k: v.name for k, v in {**catalog.gpus, **catalog.servers}.items()}
    path = print_to_pdf(report_html(result, names), tmp_path / "printed.pdf")
    reader = PdfReader(str(path))
    printed = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert len(reader.pages) >= 2
    assert "Recommended con" in printed and "Key" in printed  # "fi" prints as a ligature
    assert result.model.name in printed
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - 595) < 2 and abs(float(box.height) - 842) < 2  # A4 [pt]
