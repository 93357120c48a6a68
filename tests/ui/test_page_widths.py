"""No page needs a horizontal scroll bar at the default window size, in English or German.

Screenshots for the docs are taken at 1400 x 900 and users open the window on laptops: a page
wider than its scroll area cuts long lines off at the right. The examples fill different
pages (training, RAG and CPU examples the Training page, long server names the Scale box).
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from app import api
from app.ui.flow_layout import FlowLayout
from app.ui.main_window import MainWindow

EXAMPLES = ("worked-example", "pretrain", "rag-assistant", "cpu-small-model")


@pytest.fixture
def window(module_window):
    """One window for the module: each test loads its example and language itself, as a user
    who opens another file or switches the language in the same window does."""
    return module_window


def settle() -> None:
    """Let layouts settle: they run in posted events, wrapped labels a round later."""
    for _ in range(3):
        QApplication.processEvents()


def overflowing(win: MainWindow, example: str, language: str) -> dict[str, str]:
    """Pages with a horizontal scroll bar: class name -> 'content width > viewport width'."""
    win.controller.load(api.example(example), None)
    win.controller.set_language(language)
    win.controller.wait_until_idle()
    wide = {}
    for row in range(win.stack.count()):
        win.go(row)
        win.controller.wait_until_idle()
        settle()
        area, page = win.stack.widget(row), win.page(row)
        if area.horizontalScrollBar().maximum() > 0:
            wide[type(page).__name__] = (f"{page.minimumSizeHint().width()} px > "
                                         f"{area.viewport().width()} px")
    return wide


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("example", EXAMPLES)
def test_no_page_needs_a_horizontal_scroll_bar(window, example, language):
    assert overflowing(window, example, language) == {}


def test_a_flow_layout_keeps_one_line_while_it_fits_and_wraps_when_narrow(qtbot):
    holder = QWidget()
    qtbot.addWidget(holder)
    flow = FlowLayout(holder, spacing=10)
    labels = [QLabel("A badge of some length") for _ in range(3)]
    for label in labels:
        flow.addWidget(label)
    labels[2].hide()  # hidden widgets take no space
    wide, narrow = flow.sizeHint().width(), flow.minimumSize().width()
    assert narrow < wide
    holder.resize(wide, 200)
    holder.show()
    settle()
    assert labels[0].y() == labels[1].y() and labels[1].x() > labels[0].x()
    holder.resize(narrow, 200)
    settle()
    assert labels[1].y() > labels[0].y() and labels[1].x() == labels[0].x()
    assert flow.heightForWidth(narrow) > flow.heightForWidth(wide)


LAPTOP = (1366, 768)  # the common laptop screen (issue 13: no clipped labels there)


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_page_needs_a_horizontal_scroll_bar_on_a_laptop_screen(shown_window, language):
    # a fresh window: 5 px are at stake here, and a page laid out in the other language first
    # kept them (829 px > 824 px in a shared window)
    shown_window.resize(*LAPTOP)
    settle()
    assert overflowing(shown_window, "worked-example", language) == {}
