"""A form for one catalog entry (GPU, server, model), built from the entry's pydantic model.

Every field of the schema gets an input chosen by its type: text, a number (empty = not set
for optional fields), a check box, a choice for fixed values, a comma-separated list, a date.
Nested parts of a model (experts, latent attention, linear-attention layers ...) are
checkable groups: unchecked means the model has none. The labels and tips are English texts
translated through :func:`app.ui.text.t` (``entry_labels``); a field the schema gains later
still gets an input, labelled with its name and described by the schema.

``values()`` reads what the user entered (numbers in the window's language), ``load()`` shows
an entry, ``show_errors()`` marks the inputs a validation error names and returns one sentence
per problem, naming the field by its label.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.domain.problems import detail
from app.ui.entry_labels import label_and_help
from app.ui.fields import format_number, parse_number
from app.ui.text import language, render, t

INVALID_STYLE = "border: 1px solid #c62828;"
PROVENANCE = ("source", "as_of", "derived", "notes")
KIND_TITLES = {"gpus": "GPU", "servers": "Server", "models": "Model"}
LIST_SEPARATOR = ","


class InputError(ValueError):
    """What the user typed cannot be read (a number that is no number)."""


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(the type without ``| None``, whether None is allowed)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return (args[0] if len(args) == 1 else annotation), len(args) < len(
            typing.get_args(annotation))
    return annotation, False


def _literal_values(kind: Any) -> list[str] | None:
    if typing.get_origin(kind) is Literal:
        return [str(value) for value in typing.get_args(kind)]
    return None


def _is_model(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, BaseModel)


class FieldInput:
    """One input of the form, bound to one field of the entry's model."""

    def __init__(self, name: str, info: FieldInfo, owner: str,
                 choices: list[str] | None = None):
        self.name, self.info, self.owner = name, info, owner
        self.kind, self.optional = _unwrap(info.annotation)
        self.choices = choices
        self.required = info.is_required()
        self.widget = self.make_widget()
        self.label = QLabel()
        self.label.setBuddy(self.widget)
        self.widget.setObjectName(f"entry_{owner}_{name}")

    # --- building --------------------------------------------------------------------------
    def make_widget(self) -> QWidget:
        choices = self.choices or _literal_values(self.kind)
        if self.kind is bool:
            return QCheckBox()
        if choices is not None:
            combo = QComboBox()
            if self.optional or not self.required:
                combo.addItem("", None)
            for value in choices:
                combo.addItem(value, value)
            return combo
        return QLineEdit()

    def retranslate(self) -> None:
        label, tip, key = label_and_help(self.owner, self.name, self.info)
        self.label.setText(t(label) + (" *" if self.required else ""))
        lines = ([t(tip)] if tip else []) + ([t("config.json: {key}", key=key)] if key else [])
        self.widget.setToolTip("\n".join(lines))
        if isinstance(self.widget, QLineEdit):
            self.widget.setPlaceholderText(self.placeholder())

    def placeholder(self) -> str:
        if self.required:
            return t("required")
        default = self.info.default
        if default in (None, "", []) or isinstance(default, type(...)):
            return t("not set")
        if isinstance(default, float | int) and not isinstance(default, bool):
            return t("default: {value}", value=format_number(default))
        return t("default: {value}", value=str(default))

    # --- values ----------------------------------------------------------------------------
    def value(self) -> Any:
        """The value the user entered, or None when the input is empty (not set)."""
        widget = self.widget
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        if isinstance(widget, QComboBox):
            return widget.currentData()
        text = widget.text().strip()
        if not text:
            return None
        if self.kind in (int, float):
            number = parse_number(text, self.kind is int, language())
            if isinstance(number, str):
                raise InputError(text)
            return number
        if typing.get_origin(self.kind) is list:
            return [part.strip() for part in text.split(LIST_SEPARATOR) if part.strip()]
        return text

    def set_value(self, value: Any) -> None:
        widget = self.widget
        if isinstance(widget, QCheckBox):
            default = self.info.default if isinstance(self.info.default, bool) else False
            widget.setChecked(bool(default if value is None else value))
        elif isinstance(widget, QComboBox):
            index = widget.findData(value)
            widget.setCurrentIndex(max(index, 0))
        elif value is None:
            widget.setText("")
            return
        elif isinstance(value, list):
            widget.setText(f"{LIST_SEPARATOR} ".join(str(item) for item in value))
        elif isinstance(value, float | int) and not isinstance(value, bool):
            widget.setText(format_number(value))
        elif isinstance(value, dt.date):
            widget.setText(value.isoformat())
        else:
            widget.setText(str(value))
        if isinstance(widget, QLineEdit):
            widget.setCursorPosition(0)  # long sources read from their start

    def mark(self, invalid: bool) -> None:
        self.widget.setStyleSheet(INVALID_STYLE if invalid else "")


def ordered(spec_class: type[BaseModel]) -> list[str]:
    """The fields in the schema's order, with the provenance fields last."""
    names = list(spec_class.model_fields)
    return [n for n in names if n not in PROVENANCE] + [n for n in PROVENANCE if n in names]


@dataclass
class Section:
    """A group of inputs: the entry's own fields, or a nested part (checkable)."""

    name: str  # "" for the entry's own fields
    box: QGroupBox
    inputs: dict[str, FieldInput]
    body: QWidget = dataclasses.field(default_factory=QWidget)


class EntryForm(QWidget):
    """The inputs for every field of ``spec_class`` (a pydantic model), in sections."""

    def __init__(self, spec_class: type[BaseModel], owner: str,
                 fixed: tuple[str, ...] = ("id",), choices: dict[str, list[str]] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.spec_class, self.owner = spec_class, owner
        self.sections: list[Section] = []
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        own: dict[str, FieldInput] = {}
        for name in ordered(spec_class):
            info = spec_class.model_fields[name]
            if name in fixed:
                continue
            kind, _ = _unwrap(info.annotation)
            if _is_model(kind):
                self.sections.append(self.nested(name, kind))
            else:
                own[name] = FieldInput(name, info, owner, (choices or {}).get(name))
        main = Section("", QGroupBox(), own)
        self.fill(main)
        column.addWidget(main.box)
        self.sections.insert(0, main)
        for section in self.sections[1:]:
            column.addWidget(section.box)
        column.addStretch(1)
        self.retranslate()

    def nested(self, name: str, model: type[BaseModel]) -> Section:
        inputs = {field: FieldInput(field, info, f"{self.owner}.{name}")
                  for field, info in model.model_fields.items()}
        box = QGroupBox(checkable=True)
        box.setObjectName(f"entry_{self.owner}_{name}")
        section = Section(name, box, inputs)
        self.fill(section)
        box.toggled.connect(section.body.setVisible)  # unchecked: the model has none
        box.setChecked(False)
        section.body.setVisible(False)
        return section

    @staticmethod
    def fill(section: Section) -> None:
        QVBoxLayout(section.box).addWidget(section.body)
        form = QFormLayout(section.body)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for field in section.inputs.values():
            form.addRow(field.label, field.widget)

    def retranslate(self) -> None:
        for section in self.sections:
            for field in section.inputs.values():
                field.retranslate()
            if section.name:
                label, tip, _ = label_and_help(self.owner, section.name,
                                               self.spec_class.model_fields[section.name])
                section.box.setTitle(t(label))
                section.box.setToolTip(t(tip) if tip else "")
            else:
                section.box.setTitle(t(KIND_TITLES.get(self.owner, "Entry")))

    # --- values ----------------------------------------------------------------------------
    def values(self) -> tuple[dict, list[str]]:
        """(the entered fields as the catalog holds them, sentences for unreadable inputs)."""
        data: dict = {}
        unreadable: list[str] = []
        for section in self.sections:
            if section.name and not section.box.isChecked():
                continue
            target = data.setdefault(section.name, {}) if section.name else data
            for name, field in section.inputs.items():
                field.mark(False)
                try:
                    value = field.value()
                except InputError as exc:
                    field.mark(True)
                    unreadable.append(t("{field}: '{value}' is not a number",
                                        field=field.label.text().rstrip(" *"), value=str(exc)))
                    continue
                if value is not None:
                    target[name] = value
        return data, unreadable

    def load(self, entry: BaseModel | dict | None) -> None:
        """Show ``entry`` (None: an empty form)."""
        data = entry.model_dump() if isinstance(entry, BaseModel) else dict(entry or {})
        for section in self.sections:
            values = data.get(section.name) if section.name else data
            if section.name:
                section.box.setChecked(isinstance(values, dict))
            for name, field in section.inputs.items():
                field.mark(False)
                field.set_value(values.get(name) if isinstance(values, dict) else None)

    def field(self, path: str) -> FieldInput | None:
        """The input of a field by its path (``memory_gb``, ``moe.experts``)."""
        section_name, _, name = path.rpartition(".")
        for section in self.sections:
            if section.name == section_name and name in section.inputs:
                return section.inputs[name]
        return None

    def show_errors(self, error: ValidationError) -> list[str]:
        """Mark the inputs ``error`` names; one sentence per problem, naming the field."""
        sentences = []
        for item in error.errors():
            location = [str(part) for part in item["loc"]]
            field = self.field(".".join(location[:2])) or self.field(location[0])
            if field is not None:
                field.mark(True)
                name = field.label.text().rstrip(" *")
            else:
                name = ".".join(location) or t("Entry")
            sentences.append(f"{name}: {render(detail(item))}")
        return sentences
