"""The Infrastructure page at the screenshot size: its tables' values read on one or two lines.

The summary table ("Power, cooling and feeds") used to sit in a narrow column beside the
inputs, and its German labels left the values about one word wide. The tables now run under
the inputs over the page's whole width; a page narrower than ``SIDE_BY_SIDE_MIN`` also puts
the power chart under the inputs.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QBoxLayout

from app.ui.main_window import MainWindow
from app.ui.pages.infrastructure import SIDE_BY_SIDE_MIN, InfrastructurePage


@pytest.fixture
def window(shown_window):
    return shown_window


def settle() -> None:
    """Let layouts settle: they run in posted events, wrapped labels a round later."""
    for _ in range(3):
        QApplication.processEvents()


def infrastructure(win: MainWindow) -> InfrastructurePage:
    row = next(i for i in range(win.stack.count())
               if isinstance(win.page(i), InfrastructurePage))
    win.go(row)
    win.controller.wait_until_idle()
    settle()
    return win.page(row)


def lines(table, row: int) -> float:
    """About how many lines of text row ``row`` holds."""
    single = table.fontMetrics().lineSpacing()
    padding = min(table.rowHeight(r) for r in range(table.rowCount())) - single
    return (table.rowHeight(row) - padding) / single


@pytest.mark.parametrize("language", ["en", "de"])
def test_values_read_on_one_or_two_lines(window, language):
    window.controller.set_language(language)
    page = infrastructure(window)
    summary = page.summary
    assert summary.columnWidth(1) >= 2 * summary.columnWidth(0)
    for table in (summary, page.storage):
        for row in range(table.rowCount()):
            assert lines(table, row) <= 2.2, (table.item(row, 0).text(),
                                              table.item(row, 1).text())
    assert page.top.direction() == QBoxLayout.Direction.LeftToRight


def test_a_narrow_page_puts_the_chart_under_the_inputs(qtbot, controller):
    page = InfrastructurePage(controller)
    qtbot.addWidget(page)
    page.resize(SIDE_BY_SIDE_MIN - 100, 900)
    page.show()
    settle()
    assert page.top.direction() == QBoxLayout.Direction.TopToBottom
    page.resize(SIDE_BY_SIDE_MIN + 100, 900)
    settle()
    assert page.top.direction() == QBoxLayout.Direction.LeftToRight
