"""The window's undo and redo keep working while a text field or spin box has focus.

A QLineEdit (and the line edit of a spin box) claims Ctrl+Z and Ctrl+Y for its own text
history, so the scenario's Undo and Redo would never fire while the user is in a field. The
filter here declines that claim for the main window's editors: the keys reach the window's
actions, and a value still being typed (the field's debounce) is sent first, so that Undo
takes back the whole edit (typing "3000" is one step, :class:`app.ui.controller.EditCommand`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QWidget

from app.ui.fields import BoundField

SCENARIO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def bound_field_of(widget: QWidget) -> BoundField | None:
    """The scenario field an editor belongs to (None for other text inputs)."""
    while widget is not None and not isinstance(widget, BoundField):
        widget = widget.parentWidget()
    return widget


class ScenarioShortcuts(QObject):
    """Installed on the application by a main window; acts on that window's editors only."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.main_window = window
        QApplication.instance().installEventFilter(self)  # removed when this object dies

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() != QEvent.Type.ShortcutOverride or not self.claims(watched, event):
            return False
        field = bound_field_of(watched)
        if field is not None and field.timer.isActive():
            field.commit()  # the value typed so far becomes the step Undo takes back
        event.ignore()  # not overridden: the window's Undo or Redo action fires
        return True

    def claims(self, watched: QObject, event: QKeyEvent) -> bool:
        """An editor of this window asks to keep Undo or Redo for itself."""
        editor = isinstance(watched, QLineEdit | QAbstractSpinBox)
        return (editor and watched.window() is self.main_window
                and any(event.matches(key) for key in SCENARIO_KEYS))
