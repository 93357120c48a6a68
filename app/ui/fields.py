"""Input rows bound to one field of the scenario.

Each row sends ``controller.edit(path, value)`` when the user changes it (typing is debounced,
finishing an edit sends at once), shows the controller's refusal inline next to the editor (asked
again in the new language when the language changes) and puts the scenario's value back.
Numbers show the language's thousands separators and are read with or without them.
``show_scenario`` fills the editor without sending anything. Labels, tooltips and units are
English texts translated through :func:`app.ui.text.t`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QRegularExpression, Qt, QTimer
from PySide6.QtGui import QRegularExpressionValidator, QShowEvent, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.domain.field_paths import covers, with_value
from app.domain.problems import Problem, verbatim
from app.i18n import Message, localise_number
from app.ui.controller import Controller
from app.ui.text import language, render, t

DEBOUNCE_MS = 400
MESSAGE_STYLE = "color: #c62828;"
NUMBER_WIDTH = 110
_NOTHING = object()  # no refused value to ask about again
#: Each scenario field's English label, as the window's fields name it (filled as they are
#: made): a problem shown away from its field is named by it, not by its path.
FIELD_LABELS: dict[str, str] = {}


def field_label(path: str) -> str:
    """The label of the field at ``path`` in the window's language; a path no field shows:
    its last part in words ("targets.ttft_s" -> "ttft s")."""
    if path in FIELD_LABELS:
        return t(FIELD_LABELS[path])
    return path.rsplit(".", 1)[-1].replace("_", " ")


def problem_in_words(problem: Message) -> str:
    """A problem as a sentence away from its field: the field's label, then what is wrong."""
    if isinstance(problem, Problem) and problem.field:
        return t("{field}: {problem}", field=field_label(problem.field),
                 problem=problem.at_the_field(language()))
    return problem.at_the_field(language()) if isinstance(problem, Problem) else render(problem)


def problem_for(path: str, problems: list[Message]) -> str:
    """What to show under the field at ``path``: the problem about it (its own, its group's
    or one inside it: ``Problem.field``), else the first, in the window's language and
    without the field path (:meth:`Problem.at_the_field`)."""
    named = [p for p in problems if isinstance(p, Problem) and covers(p.field, path)]
    shown = (named or problems or [None])[0]
    if isinstance(shown, Problem):
        return shown.at_the_field(language())
    return render(shown) if shown is not None else ""


class SpinBox(QSpinBox):
    """A spin box that ignores the wheel unless focused (scrolling the page must not edit)."""

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class ComboBox(QComboBox):
    """A combo box that ignores the wheel unless focused."""

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class BoundField(QWidget):
    """An editor bound to the scenario field at ``path``, with an inline message."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 editor: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller, self.path = controller, path
        self.label_text, self.tooltip_text = label, tooltip
        FIELD_LABELS.setdefault(path, label)
        self.editor = editor
        self.label = QLabel()
        self.label.setBuddy(editor)
        self.message = QLabel(wordWrap=True, visible=False)
        self.message.setStyleSheet(MESSAGE_STYLE)
        self.row = QHBoxLayout()
        self.row.addWidget(editor)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(self.row)
        column.addWidget(self.message)
        self.refused: Any = _NOTHING  # the value whose refusal the message shows
        self.session = 0  # edits of one session (typing until editing finishes) are one step
        self.timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self.timer.timeout.connect(lambda: self.send(final=False))

    # --- for subclasses -------------------------------------------------------------------
    def read(self) -> Any:
        """The editor's value as the scenario holds it."""
        raise NotImplementedError

    def write(self, value: Any) -> None:
        """Show ``value`` in the editor (signals are blocked by the caller)."""
        raise NotImplementedError

    def local_problem(self, value: Any) -> str:
        """A problem with ``value`` found before asking the controller (empty when none)."""
        return ""

    # --- shared ---------------------------------------------------------------------------
    def focus_widgets(self) -> list[QWidget]:
        """The widgets Tab visits, in order."""
        return [self.editor]

    def add_to(self, form: QFormLayout) -> None:
        form.addRow(self.label, self)

    def typed(self) -> None:
        """The user is typing: send once they pause."""
        self.timer.start()

    def commit(self) -> list[str]:
        """The user finished editing: send now."""
        self.timer.stop()
        return self.send(final=True)

    def apply(self, value: Any) -> list[str]:
        """Set ``value`` as if the user had entered it (presets)."""
        self.put(value)
        return self.commit()

    def send(self, final: bool = True) -> list[str]:
        """Edit the scenario; on refusal show why and, once editing is over, revert (the
        figures are then current again). What one session of typing sends is one undo
        step."""
        value = self.read()
        problem = self.local_problem(value)
        problems = [problem] if problem else self.controller.edit_many(
            self.changes(value), t(self.label_text), merge_key=(self.path, id(self),
                                                                self.session))
        if problem:
            self.controller.refuse([verbatim(problem)])
        self.show_refusal([verbatim(problem)] if problem else self.refusal_of(problems))
        self.refused = value if problems else _NOTHING
        if problems and final:
            self.put(self.controller.value(self.path))
            self.controller.clear_refusal()
        if final:
            self.session += 1
        return problems

    def changes(self, value: Any) -> dict[str, Any]:
        """The scenario fields an edit of ``value`` sets, as one undoable step."""
        return {self.path: value}

    def refusal_of(self, problems: list[str]) -> list[Message]:
        """The controller's refusal as Messages when ``problems`` (its answer) is one."""
        return self.controller.refusal if problems else []

    def show_refusal(self, refusal: list[Message]) -> None:
        self.show_message(problem_for(self.path, refusal))

    def problems_with(self, value: Any) -> list[Message]:
        """Why ``value`` is refused (asks, edits nothing): the field's own check, else the
        scenario's problems."""
        problem = self.local_problem(value)
        if problem:
            return [verbatim(problem)]
        return self.controller.refusals(with_value(self.controller.data, self.path, value))

    def put(self, value: Any) -> None:
        """Write ``value`` without the editor's signals sending it back."""
        blockers = [w.blockSignals(True) for w in self.focus_widgets()]
        try:
            self.write(value)
        finally:
            for widget, blocked in zip(self.focus_widgets(), blockers, strict=True):
                widget.blockSignals(blocked)

    def keep_editor_size(self) -> None:
        """Numbers need no more width than their hint: the spare width stays empty."""
        self.row.addStretch(1)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_scenario(self) -> None:
        """Show the scenario's value; a pending refusal no longer applies."""
        if not self.timer.isActive():
            self.put(self.controller.value(self.path))
            self.show_message("")

    def retranslate(self) -> None:
        self.label.setText(t(self.label_text))
        for widget in (self.label, *self.focus_widgets()):
            widget.setToolTip(t(self.tooltip_text))
        self.retranslate_message()

    def retranslate_message(self) -> None:
        """A refusal still shown is asked again, so that it reads in the new language (the
        page retranslates its fields on ``controller.language_changed``)."""
        if self.message.isHidden():
            return
        if self.refused is not _NOTHING:
            self.show_refusal(self.problems_with(self.refused))
        elif self.controller.refusal:  # a page's own send(): the controller's last refusal
            self.show_refusal(self.controller.refusal)


def unit_text(unit: str, count: int) -> str:
    """``unit`` after ``count`` in the window's language: singular after one (1 sequence)."""
    if count == 1:
        singular = {"sequences": t("sequence"), "tokens": t("token"), "users": t("user")}
        return singular.get(unit, t(unit))
    return t(unit)


class IntField(BoundField):
    """A whole number in a spin box, with its unit."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 minimum: int, maximum: int, unit: str = ""):
        super().__init__(controller, path, label, tooltip, SpinBox())
        self.unit = unit
        self.editor.setRange(minimum, maximum)
        self.editor.setGroupSeparatorShown(True)
        self.editor.setMinimumWidth(NUMBER_WIDTH)
        self.keep_editor_size()
        self.editor.valueChanged.connect(self.typed)
        self.editor.valueChanged.connect(self.show_unit)
        self.editor.editingFinished.connect(self.commit)

    def read(self) -> Any:
        return self.editor.value()

    def write(self, value: Any) -> None:
        if isinstance(value, int) and value != self.editor.value():
            self.editor.setValue(value)
            self.show_unit()

    def show_unit(self) -> None:
        suffix = f" {unit_text(self.unit, self.editor.value())}" if self.unit else ""
        if suffix != self.editor.suffix():
            self.editor.setSuffix(suffix)

    def retranslate(self) -> None:
        super().retranslate()
        self.show_unit()


class UsersField(IntField):
    """Concurrent users, or 'max': as many as the hardware admits (saturation)."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 maximum: int, max_label: str, max_tooltip: str):
        super().__init__(controller, path, label, tooltip, 1, maximum, "users")
        self.max_label, self.max_tooltip = max_label, max_tooltip
        self.saturation = QCheckBox()
        self.saturation.toggled.connect(self.commit)
        self.row.insertWidget(1, self.saturation)

    def focus_widgets(self) -> list[QWidget]:
        return [self.editor, self.saturation]

    def read(self) -> Any:
        return "max" if self.saturation.isChecked() else self.editor.value()

    def write(self, value: Any) -> None:
        self.saturation.setChecked(value == "max")
        self.editor.setEnabled(value != "max")
        super().write(value)

    def retranslate(self) -> None:
        super().retranslate()
        self.saturation.setText(t(self.max_label))
        self.saturation.setToolTip(t(self.max_tooltip))


def format_number(value: float) -> str:
    """``value`` as an input shows it: the language's thousands separators and decimal mark
    (8,192 and 0.5; 8.192 and 0,5 in German), every digit kept."""
    text = str(int(value)) if float(value).is_integer() else repr(float(value))
    whole, point, fraction = text.partition(".")
    if whole.isdigit():  # not '1e-05'
        text = f"{int(whole):,}{point}{fraction}"
    return localise_number(text, language())


def parse_number(text: str, whole: bool, lang: str) -> Any:
    """What the user typed into a number input: None when empty, else the number.

    The thousands separators of ``lang`` may be there or not (8192, 8,192; 8.192 in German).
    A separator that does not group thousands is read as the decimal mark, so 1,5 and 0.5
    mean the same in both languages; whole numbers have no decimal mark. Text that is no
    number is returned as it is: the controller refuses it with a message.
    """
    group, point = (".", ",") if lang == "de" else (",", ".")
    typed = re.sub(r"\s", "", text)
    if typed in ("", ".", ","):
        return None
    if whole:
        digits = typed.replace(group, "")
        return int(digits) if digits.isdigit() else text
    if re.fullmatch(rf"\d{{1,3}}(\{group}\d{{3}})+", typed):  # 1,234,567
        typed = typed.replace(group, "")
    elif point in typed:  # 1,234.5
        integer, _, fraction = typed.rpartition(point)
        typed = f"{integer.replace(group, '')}.{fraction}"
    elif typed.count(group) == 1:  # 1,5 in English, 0.5 in German
        typed = typed.replace(group, ".")
    try:
        return float(typed)
    except ValueError:
        return text


class OptionalNumberField(BoundField):
    """A number that may be left empty (None: the default, shown as placeholder)."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 whole: bool = False, unit: str = ""):
        super().__init__(controller, path, label, tooltip, QLineEdit())
        self.whole, self.unit = whole, unit
        self.text_language = language()  # the language the editor's text is written in
        self.unit_label = QLabel()
        self.row.insertWidget(1, self.unit_label)
        pattern = r"[\d.,]*"  # digits and separators (thousands, decimal mark)
        self.editor.setValidator(QRegularExpressionValidator(QRegularExpression(pattern)))
        self.editor.setClearButtonEnabled(True)
        self.editor.setMinimumWidth(NUMBER_WIDTH)
        self.keep_editor_size()
        self.editor.textEdited.connect(self.typed)
        self.editor.editingFinished.connect(self.commit)

    def read(self) -> Any:
        return parse_number(self.editor.text(), self.whole, self.text_language)

    def write(self, value: Any) -> None:
        if value != self.read() or self.text_language != language():
            self.editor.setText("" if value is None else format_number(value))
            self.text_language = language()

    def set_placeholder(self, text: str) -> None:
        self.editor.setPlaceholderText(text)

    def retranslate(self) -> None:
        super().retranslate()
        self.unit_label.setText(t(self.unit) if self.unit else "")
        shown = self.read()  # the number in the editor, read in the language it was written in
        if isinstance(shown, int | float):
            self.put(shown)  # written again with the new language's separators
        self.text_language = language()


class TextField(BoundField):
    """Free text (names, region)."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str):
        super().__init__(controller, path, label, tooltip, QLineEdit())
        self.editor.textEdited.connect(self.typed)
        self.editor.editingFinished.connect(self.commit)

    def read(self) -> Any:
        return self.editor.text()

    def write(self, value: Any) -> None:
        if (value or "") != self.editor.text():
            self.editor.setText(value or "")


class CheckField(BoundField):
    """A yes/no field: the checkbox carries the label."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str):
        super().__init__(controller, path, label, tooltip, QCheckBox())
        self.editor.toggled.connect(self.commit)

    def add_to(self, form: QFormLayout) -> None:
        form.addRow("", self)

    def read(self) -> Any:
        return self.editor.isChecked()

    def write(self, value: Any) -> None:
        self.editor.setChecked(bool(value))

    def retranslate(self) -> None:
        super().retranslate()
        self.editor.setText(t(self.label_text))


@dataclass
class Choice:
    """One entry of a :class:`ChoiceField` (label and tooltip in English)."""

    value: Any
    label: str
    tooltip: str = ""
    enabled: bool = True
    params: dict = field(default_factory=dict)
    msgctxt: str | None = None  # gettext context of the label ("None" of which setting)


class ChoiceField(BoundField):
    """One value out of a fixed list; disabled entries explain themselves in a tooltip."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 choices: list[Choice]):
        super().__init__(controller, path, label, tooltip, ComboBox())
        self.choices = choices
        for choice in choices:
            self.editor.addItem(choice.label)
            self.editor.model().item(self.editor.count() - 1).setEnabled(choice.enabled)
        self.editor.setMinimumWidth(160)
        self.editor.currentIndexChanged.connect(self.commit)

    def values(self) -> list[Any]:
        return [choice.value for choice in self.choices]

    def set_choices(self, choices: list[Choice]) -> None:
        """Replace the entries (the catalog changed) and show the scenario's value again."""
        self.editor.blockSignals(True)
        self.editor.clear()
        self.choices = choices
        for choice in choices:
            self.editor.addItem(choice.label)
        self.retranslate()
        self.put(self.controller.value(self.path))
        self.editor.blockSignals(False)

    def read(self) -> Any:
        index = self.editor.currentIndex()
        return self.choices[index].value if index >= 0 else None

    def write(self, value: Any) -> None:
        values = self.values()
        self.editor.setCurrentIndex(values.index(value) if value in values else -1)

    def relabel(self, value: Any, label: str, **params: Any) -> None:
        """Change the English label of the entry for ``value`` (e.g. to name the default)."""
        choice = self.choices[self.values().index(value)]
        choice.label, choice.params = label, params
        self.editor.setItemText(self.choices.index(choice),
                                t(label, msgctxt=choice.msgctxt, **params))

    def retranslate(self) -> None:
        super().retranslate()
        for index, choice in enumerate(self.choices):
            self.editor.setItemText(index, t(choice.label, msgctxt=choice.msgctxt,
                                             **choice.params))
            tip = t(choice.tooltip) if choice.tooltip else None
            self.editor.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)


class MultiCheckField(BoundField):
    """A set of values, one checkbox each (None: the default set, passed in by the page)."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 choices: list[Choice], columns: int = 3):
        super().__init__(controller, path, label, tooltip, QWidget())
        self.choices = choices
        self.default: list = []
        self.boxes = [QCheckBox() for _ in choices]
        grid = QGridLayout(self.editor)
        grid.setContentsMargins(0, 0, 0, 0)
        for index, box in enumerate(self.boxes):
            grid.addWidget(box, index // columns, index % columns)
            box.toggled.connect(self.commit)

    def focus_widgets(self) -> list[QWidget]:
        return list(self.boxes)

    def add_to(self, form: QFormLayout) -> None:
        """Label above, boxes across the whole width."""
        form.addRow(self.label)
        form.addRow(self)

    def read(self) -> Any:
        return [c.value for c, box in zip(self.choices, self.boxes, strict=True) if box.isChecked()]

    def write(self, value: Any) -> None:
        chosen = self.default if value is None else value
        for choice, box in zip(self.choices, self.boxes, strict=True):
            box.setChecked(choice.value in chosen)

    def local_problem(self, value: Any) -> str:
        return "" if value else t("Keep at least one format allowed.")

    def set_default(self, values: list) -> None:
        """What None means; shown when the scenario leaves the field out."""
        self.default = list(values)
        if self.controller.value(self.path) is None:
            self.put(None)

    def retranslate(self) -> None:
        super().retranslate()
        for choice, box in zip(self.choices, self.boxes, strict=True):
            box.setText(t(choice.label, msgctxt=choice.msgctxt, **choice.params))
            box.setToolTip(t(choice.tooltip, **choice.params))


class SearchListField(BoundField):
    """One value out of a long list, with a search box that filters by any shown text."""

    def __init__(self, controller: Controller, path: str, label: str, tooltip: str,
                 search_hint: str):
        super().__init__(controller, path, label, tooltip, QWidget())
        self.search_hint = search_hint
        self.search = QLineEdit(clearButtonEnabled=True)
        self.list = QListWidget()
        self.list.setMinimumHeight(160)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        column = QVBoxLayout(self.editor)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.search)
        column.addWidget(self.list)
        self.search.textChanged.connect(self.filter)
        self.list.currentItemChanged.connect(lambda current, _previous: self.browsed(current))
        self.list.itemClicked.connect(lambda _item: self.commit())
        self.list.itemActivated.connect(lambda _item: self.commit())

    def focus_widgets(self) -> list[QWidget]:
        return [self.search, self.list]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self.list.currentItem() is not None:
            self.list.scrollToItem(self.list.currentItem())

    def set_items(self, items: list[tuple[str, str]]) -> None:
        """Replace the entries: (value, text shown)."""
        self.list.blockSignals(True)
        self.list.clear()
        for value, text in items:
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, value)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.filter(self.search.text())
        self.put(self.controller.value(self.path))

    def filter(self, text: str) -> None:
        """Hide the entries that do not contain every word of ``text``."""
        words = text.lower().split()
        for row in range(self.list.count()):
            item = self.list.item(row)
            haystack = f"{item.text()} {item.data(Qt.ItemDataRole.UserRole)}".lower()
            item.setHidden(not all(word in haystack for word in words))

    def visible_values(self) -> list[str]:
        items = (self.list.item(row) for row in range(self.list.count()))
        return [i.data(Qt.ItemDataRole.UserRole) for i in items if not i.isHidden()]

    def browsed(self, item: QListWidgetItem | None) -> None:
        """Moving through the list with the keys sends once the user pauses."""
        if item is not None:
            self.typed()

    def read(self) -> Any:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def write(self, value: Any) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == value:
                self.list.setCurrentRow(row)
                self.list.scrollToItem(self.list.item(row))
                return
        self.list.setCurrentRow(-1)

    def retranslate(self) -> None:
        super().retranslate()
        self.search.setPlaceholderText(t(self.search_hint))
