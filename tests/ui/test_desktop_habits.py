"""Desktop habits and stale figures (issue 13): a corrected input clears its error; while an
input is invalid the figures are marked stale and no report is made from them; Undo and Redo
work while a text field has focus, and one edit of a field is one undo step.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from app.ui.pages.requirements import RequirementsPage

USERS = "workload.concurrent_users"
TTFT = "targets.ttft_s"


@pytest.fixture
def window(qtbot, controller):
    win = MainWindow(controller)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    yield win
    controller.wait_until_idle()
    controller.undo_stack.setClean()  # closing must not ask about unsaved work
    win.close()


def requirements(window: MainWindow) -> RequirementsPage:
    window.steps.setCurrentRow(0)
    return window.page(0)


def pause(field) -> None:
    """The user stops typing: the field's debounce sends what is typed so far."""
    assert field.timer.isActive()
    field.timer.stop()
    field.send(final=False)


def retype(qtbot, field, text: str) -> None:
    field.editor.selectAll()
    qtbot.keyClicks(field.editor, text)


def test_a_corrected_input_clears_its_error_and_the_stale_marks(qtbot, window, controller):
    ttft = requirements(window).field(TTFT)
    ttft.editor.setFocus()
    retype(qtbot, ttft, "0")
    pause(ttft)
    assert "greater than or equal to 0.001" in ttft.message.text()  # at least 1 ms (#14)
    assert controller.stale and window.summary.stale_note.isVisibleTo(window)
    assert window.summary.fit_badge.stale  # the green/red badges are an earlier input's
    assert "#9e9e9e" in window.summary.verdict.text()  # so is the verdict: grey
    assert not window.actions_["Export report…"].isEnabled()
    assert not window.actions_["Print report…"].isEnabled()
    retype(qtbot, ttft, "2")  # the value the scenario holds: nothing to change, all to clear
    pause(ttft)
    assert ttft.message.isHidden() and not controller.stale
    assert window.summary.problems.text() == ""  # was left showing the refusal
    assert not window.summary.stale_note.isVisibleTo(window)
    assert not window.summary.fit_badge.stale
    assert window.actions_["Export report…"].isEnabled()


def test_finishing_an_invalid_edit_puts_the_value_back_and_the_figures_are_current(
        qtbot, window, controller):
    ttft = requirements(window).field(TTFT)
    ttft.editor.setText("0")
    ttft.editor.editingFinished.emit()
    assert ttft.editor.text() == "2" and "0.001" in ttft.message.text()
    assert not controller.stale


def test_no_report_is_exported_from_stale_figures(qtbot, window, controller, tmp_path):
    from app.ui.dialogs.report_dialogs import ExportDialog

    ttft = requirements(window).field(TTFT)
    retype(qtbot, ttft, "0")
    pause(ttft)
    dialog = ExportDialog(controller, window)
    qtbot.addWidget(dialog)
    target = tmp_path / "report.pdf"
    problem = dialog.export_to(target, "en", "A4", False, "")
    assert "correct it first" in problem and not target.exists()


def test_undo_and_redo_work_while_a_text_field_has_focus(qtbot, window, controller):
    users = requirements(window).field(USERS)
    before = controller.value(USERS)
    users.editor.setFocus()
    users.editor.selectAll()
    qtbot.keyClicks(users.editor, "3000")
    assert QApplication.focusWidget() is users.editor
    qtbot.keyClick(users.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert controller.value(USERS) == before  # the typed value was sent, then undone
    assert controller.undo_stack.canRedo()  # the scenario's Undo ran, not the editor's own
    assert users.editor.value() == before
    qtbot.keyClick(users.editor, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    redo_keys = [k.toString() for k in window.actions_["&Redo"].shortcuts()]
    if controller.value(USERS) != 3000:  # Redo is Ctrl+Shift+Z on some platforms
        assert "Ctrl+Shift+Z" in redo_keys
        qtbot.keyClick(users.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
    assert controller.value(USERS) == 3000


def test_typing_3000_is_one_undo_step(qtbot, window, controller):
    users = requirements(window).field(USERS)
    before = controller.value(USERS)
    count = controller.undo_stack.count()
    users.editor.setFocus()
    users.editor.selectAll()
    for typed in "3000":  # a pause after every key: each sends
        qtbot.keyClicks(users.editor, typed)
        pause(users)
    users.editor.editingFinished.emit()
    assert controller.value(USERS) == 3000
    assert controller.undo_stack.count() == count + 1
    controller.undo_stack.undo()
    assert controller.value(USERS) == before
    users.editor.setValue(50)  # a second edit of the same field is a step of its own
    users.editor.editingFinished.emit()
    assert controller.undo_stack.count() == count + 1  # the undone step was replaced
    controller.undo_stack.undo()
    assert controller.value(USERS) == before


def test_new_and_open_start_clean(qtbot, window, controller, tmp_path):
    """Pins, the model search, the table filters and the step shown belong to the scenario."""
    import json

    from app import api
    from app.ui.pages import row_of

    compare = window.page(row_of("ComparePage"))
    compare.pin_current()
    assert len(controller.comparison) == 1
    step3 = window.page(row_of("GpuSelectionPage"))
    step3.filter_edit.setText("H200")
    step3.meets_only.setChecked(True)
    step1 = requirements(window)
    step1.model.search.setText("llama")
    path = tmp_path / "other.json"
    path.write_text(json.dumps(api.example("small-chat")), encoding="utf-8")
    window.go(3)
    controller.open(path)
    assert len(controller.comparison) == 0
    assert step3.filter_edit.text() == "" and not step3.meets_only.isChecked()
    assert step1.model.search.text() == ""
    assert window.steps.currentRow() == 0
    step3.filter_edit.setText("MI3")
    controller.new()
    assert step3.filter_edit.text() == ""
