"""Add or edit a GPU, a server or a model of the catalog in a form.

The form has an input for every field the schema needs (``app.ui.entry_form``); the entry
can start empty, from a catalog entry (to edit it, or to copy it under another id) or, for a
model, from a local Hugging Face folder (the same reading as the import dialog). Saving
validates the entry (a problem names the field by its label), writes it into the user catalog
atomically (``app.catalog.user_catalog``) and reloads the catalog, so the entry appears at
once in the window's pickers and in ``aisizer catalog list``.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

from pydantic import BaseModel, ValidationError
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.catalog.hf_import import ModelImportError, read_model_folder
from app.catalog.loader import ENTRY_MODELS, load_catalog
from app.catalog.user_catalog import UserCatalogError, save_user_entry, user_entry_ids
from app.ui.controller import Controller
from app.ui.entry_form import EntryForm
from app.ui.text import render, t

ERROR_STYLE = "color: #c62828;"
NOTE_STYLE = "color: #a15c00;"
ID_PATTERN = r"^[a-z0-9][a-z0-9._+-]*$"
TITLES = {"gpus": "Add or edit a GPU", "servers": "Add or edit a server",
          "models": "Add or edit a model"}
USE_LABELS = {"gpus": "Evaluate the scenario on this GPU",
              "servers": "Use this server for the scenario's configuration",
              "models": "Serve this model in the scenario"}
SCENARIO_FIELDS = {"gpus": "hardware.gpu", "servers": "hardware.server", "models": "model"}


class CatalogEntryDialog(QDialog):
    """One catalog entry of ``kind`` (gpus, servers, models) in a form, saved to the user's
    catalog."""

    def __init__(self, controller: Controller, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller, self.kind = controller, kind
        self.setObjectName(f"catalogEntryDialog_{kind}")
        self.start = QComboBox()
        self.start.activated.connect(lambda _index: self.start_from(self.start.currentData()))
        self.entry_id = QLineEdit()
        self.entry_id.setObjectName("entry_id")
        self.entry_id.textChanged.connect(lambda _text: self.show_note())
        choices = {"native_precision": sorted(controller.catalog.precisions)}
        self.form = EntryForm(ENTRY_MODELS[kind], kind, choices=choices)
        self.use = QCheckBox()
        self.use.setChecked(kind == "models")
        self.note, self.error = QLabel(wordWrap=True), QLabel(wordWrap=True)
        self.note.setStyleSheet(NOTE_STYLE)
        self.error.setStyleSheet(ERROR_STYLE)
        self.import_button = QPushButton()
        self.import_button.clicked.connect(self.choose_folder)
        self.import_button.setVisible(kind == "models")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.setLayout(self.build())
        self.fill_start()
        self.retranslate()
        self.start_from(None)
        self.resize(720, 760)

    def build(self) -> QVBoxLayout:
        self.start_label, self.id_label, self.intro = QLabel(), QLabel(), QLabel(wordWrap=True)
        top = QFormLayout()
        starting = QHBoxLayout()
        starting.addWidget(self.start, 1)
        starting.addWidget(self.import_button)
        top.addRow(self.start_label, starting)
        top.addRow(self.id_label, self.entry_id)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(self.form)
        column = QVBoxLayout()
        column.addWidget(self.intro)
        column.addLayout(top)
        column.addWidget(scroll, 1)
        for widget in (self.note, self.error, self.use, self.buttons):
            column.addWidget(widget)
        return column

    def fill_start(self) -> None:
        """The entries to start from: a new one, then every catalog entry of the kind."""
        self.start.clear()
        self.start.addItem("", None)
        mine = user_entry_ids(self.kind)
        table = getattr(self.controller.catalog, self.kind)
        for entry_id, entry in sorted(table.items(), key=lambda item: item[1].name.lower()):
            mark = " ★" if entry_id in mine else ""
            self.start.addItem(f"{entry.name}  ({entry_id}){mark}", entry_id)

    def retranslate(self) -> None:
        self.setWindowTitle(t(TITLES[self.kind]))
        self.intro.setText(t("Fields marked * are needed; empty optional fields keep their "
                             "defaults. Saving adds the entry to your catalog (★), where it "
                             "replaces a built-in entry with the same id."))
        self.start_label.setText(t("Start from"))
        self.start.setItemText(0, t("(a new entry)"))
        self.id_label.setText(t("Catalog id") + " *")
        self.entry_id.setToolTip(t("Lower-case letters, digits and . _ + -, starting with a "
                                   "letter or digit."))
        self.import_button.setText(t("Read a model folder…"))
        self.import_button.setToolTip(t("Fill the form from a local Hugging Face folder "
                                        "(config.json); check it, then save."))
        self.use.setText(t(USE_LABELS[self.kind]))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText(
            t("Save to my catalog"))
        self.form.retranslate()

    # --- starting points -------------------------------------------------------------------
    def start_from(self, entry_id: str | None) -> None:
        """Fill the form from the catalog entry ``entry_id`` (None: a new, empty entry)."""
        entry = getattr(self.controller.catalog, self.kind).get(entry_id) if entry_id else None
        self.form.load(entry)
        self.entry_id.setText(entry_id or "")
        if entry is None:
            self.form.field("as_of").set_value(dt.date.today())
        self.error.setText("")
        self.show_note()

    def choose_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, t("Choose a model folder"))
        if chosen:
            self.read_folder(Path(chosen))

    def read_folder(self, folder: Path) -> bool:
        """Fill the form from a Hugging Face model folder; its warnings are shown."""
        try:
            imported = read_model_folder(folder)
        except ModelImportError as exc:
            self.error.setText(render(exc.message))
            self.error.setVisible(True)
            return False
        self.form.load(imported.spec)
        self.entry_id.setText(imported.spec.id)
        self.error.setText("")
        self.show_note([render(message) for message in imported.warning_messages])
        return True

    def show_note(self, extra: list[str] | None = None) -> None:
        lines = list(extra or [])
        entry_id = self.entry_id.text().strip()
        if entry_id in getattr(self.controller.catalog, self.kind) and \
                entry_id not in user_entry_ids(self.kind):
            lines.append(t("The built-in entry {id} stays in the program; yours replaces it "
                           "for you.", id=entry_id))
        self.note.setText("<br>".join(f"• {html.escape(line)}" for line in lines))
        self.note.setVisible(bool(lines))
        self.error.setVisible(bool(self.error.text()))
        self.use.setEnabled(self.kind != "servers"
                            or self.controller.scenario.hardware is not None)

    # --- saving ----------------------------------------------------------------------------
    def entry(self) -> BaseModel | None:
        """The entry the form describes, or None with the problems shown."""
        values, problems = self.form.values()
        entry_id = self.entry_id.text().strip()
        problems += self.id_problems(entry_id)
        entry = None
        if not problems:
            try:
                entry = ENTRY_MODELS[self.kind].model_validate({**values, "id": entry_id})
            except ValidationError as exc:
                problems += self.form.show_errors(exc)
        if entry is not None:
            problems += self.reference_problems(entry)
        self.error.setText("<br>".join(html.escape(p, quote=False) for p in problems))
        self.error.setVisible(bool(problems))
        return None if problems else entry

    def id_problems(self, entry_id: str) -> list[str]:
        if re.match(ID_PATTERN, entry_id):
            return []
        return [t("Catalog id: '{value}' is not valid; use lower-case letters, digits and "
                  ". _ + -, starting with a letter or digit.", value=entry_id)]

    def reference_problems(self, entry: BaseModel) -> list[str]:
        """Ids the entry names that the catalog does not have."""
        catalog = self.controller.catalog
        if self.kind == "servers":
            unknown = [gpu for gpu in entry.gpu_ids if gpu not in catalog.gpus]
            if unknown:
                field = self.form.field("gpu_ids")
                field.mark(True)
                return [t("{field}: {ids} not in the catalog; known: {known}",
                          field=field.label.text().rstrip(" *"), ids=", ".join(unknown),
                          known=", ".join(sorted(catalog.gpus)))]
        if self.kind == "models" and entry.native_precision not in catalog.precisions:
            field = self.form.field("native_precision")
            field.mark(True)
            return [t("{field}: {ids} not in the catalog; known: {known}",
                      field=field.label.text().rstrip(" *"), ids=entry.native_precision,
                      known=", ".join(sorted(catalog.precisions)))]
        return []

    def save(self) -> str | None:
        """Validate, save to the user catalog, reload the catalog; the saved id or None."""
        entry = self.entry()
        if entry is None:
            return None
        try:
            save_user_entry(self.kind, entry)
        except UserCatalogError as exc:
            self.error.setText(html.escape(render(exc.message), quote=False))
            self.error.setVisible(True)
            return None
        self.controller.set_catalog(load_catalog())
        if self.use.isChecked() and self.use.isEnabled():
            self.controller.edit(SCENARIO_FIELDS[self.kind], entry.id, t(TITLES[self.kind]))
        return entry.id

    def accept(self) -> None:
        if self.save() is not None:
            super().accept()
