"""Import a local Hugging Face model folder into the user's catalog and select it.

Only config.json and the safetensors headers are read (``app.catalog.hf_import``); nothing is
downloaded. The dialog shows what was read and every warning before anything is saved.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.catalog.hf_import import (
    ImportedModel,
    ModelImportError,
    read_model_folder,
    save_to_user_catalog,
)
from app.catalog.loader import clear_cache, load_catalog
from app.ui.controller import Controller
from app.ui.text import render, t
from app.ui.units import gb_gib

ERROR_STYLE = "color: #c62828;"
WARNING_STYLE = "color: #a15c00;"
ROWS = ("Name", "Family", "Layers", "Attention heads", "Context limit", "Sliding window",
        "Experts", "Weights format", "Weights on disk", "Files read")


def imported_facts(imported: ImportedModel) -> dict[str, str]:
    """What the folder told us, one line per row of the dialog."""
    spec = imported.spec
    experts = t("{k} of {e} per token", k=spec.moe.experts_per_token, e=spec.moe.experts) \
        if spec.moe else t("none (dense)")
    on_disk = imported.weights_bytes_on_disk
    return {
        "Name": spec.name,
        "Family": spec.family,
        "Layers": t("{layers}, width {width:,}", layers=spec.layers, width=spec.hidden_size),
        "Attention heads": t("{heads} query, {kv} KV, {dim} wide", heads=spec.attention_heads,
                             kv=spec.kv_heads, dim=spec.head_dim_value),
        "Context limit": t("{tokens:,} tokens", tokens=spec.max_context_tokens),
        "Sliding window": sliding_window(imported),
        "Experts": experts,
        "Weights format": imported.quantization or t("unknown (bf16 assumed)"),
        "Weights on disk": gb_gib(on_disk) if on_disk else t("unknown"),
        "Files read": ", ".join(imported.files_read),
    }


def sliding_window(imported: ImportedModel) -> str:
    spec = imported.spec
    if not spec.sliding_window:
        return t("none", msgctxt="sliding window")
    local = spec.layers - (spec.global_layers or 0)
    return t("{tokens:,} tokens on {local} of {layers} layers", tokens=spec.sliding_window,
             local=local, layers=spec.layers)


class ImportModelDialog(QDialog):
    """Choose a folder, check what was read, save it to the user catalog."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.imported: ImportedModel | None = None
        self.folder = QLineEdit(readOnly=True)
        self.browse = QPushButton()
        self.browse.clicked.connect(self.choose_folder)
        self.intro = QLabel(wordWrap=True)
        self.model_id = QLineEdit()
        self.model_id.editingFinished.connect(self.reread)
        self.row_labels = {name: QLabel() for name in ROWS}
        self.row_values = {name: QLabel(wordWrap=True) for name in ROWS}
        self.warnings = QLabel(wordWrap=True)
        self.warnings.setStyleSheet(WARNING_STYLE)
        self.error = QLabel(wordWrap=True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.setLayout(self.build())
        self.retranslate()
        self.show_imported()
        self.resize(640, 520)

    def build(self) -> QVBoxLayout:
        chooser = QHBoxLayout()
        chooser.addWidget(self.folder, 1)
        chooser.addWidget(self.browse)
        self.folder_label, self.id_label = QLabel(), QLabel()
        self.form = QFormLayout()
        self.form.addRow(self.folder_label, chooser)
        self.form.addRow(self.id_label, self.model_id)
        for name in ROWS:
            self.form.addRow(self.row_labels[name], self.row_values[name])
        column = QVBoxLayout()
        column.addWidget(self.intro)
        column.addLayout(self.form)
        column.addWidget(self.warnings)
        column.addWidget(self.error)
        column.addStretch(1)
        column.addWidget(self.buttons)
        return column

    def retranslate(self) -> None:
        self.setWindowTitle(t("Import model folder"))
        self.intro.setText(t("AI Sizer reads the folder's config.json and the headers of its "
                             "safetensors files; no weights are loaded and nothing is "
                             "downloaded. Check what was read, then save."))
        self.folder_label.setText(t("Model folder"))
        self.browse.setText(t("Choose…"))
        self.browse.setToolTip(t("Pick a folder that holds the model's config.json."))
        self.id_label.setText(t("Catalog id"))
        self.model_id.setToolTip(t("The id the model gets in your catalog; empty: from the "
                                   "folder name."))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText(
            t("Save to my catalog"))
        for name in ROWS:
            self.row_labels[name].setText(t(name))

    # --- reading ----------------------------------------------------------------------------
    def choose_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, t("Choose a model folder"))
        if chosen:
            self.read_folder(Path(chosen))

    def reread(self) -> None:
        if self.folder.text():
            self.read_folder(Path(self.folder.text()))

    def read_folder(self, folder: Path) -> ImportedModel | None:
        """Read ``folder`` and show what it holds (or why it cannot be used)."""
        self.folder.setText(str(folder))
        try:
            self.imported = read_model_folder(folder, self.model_id.text().strip() or None)
            self.error.setText("")
        except ModelImportError as exc:
            self.imported = None
            self.error.setText(render(exc.message))
        self.show_imported()
        return self.imported

    def show_imported(self) -> None:
        facts = imported_facts(self.imported) if self.imported else {}
        for name in ROWS:
            self.row_values[name].setText(facts.get(name, "–"))
        lines = "".join(f"<br>• {html.escape(line)}" for line in self.notes())
        self.warnings.setText(f"<b>{t('Check before saving:')}</b>{lines}")
        self.warnings.setVisible(bool(self.notes()))
        self.error.setVisible(bool(self.error.text()))
        self.model_id.setPlaceholderText(self.imported.spec.id if self.imported else "")
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(self.imported is not None)

    def notes(self) -> list[str]:
        """The import's warnings in the window's language, and a note when the id replaces a
        catalog entry."""
        if self.imported is None:
            return []
        lines = [render(message) for message in self.imported.warning_messages]
        if self.imported.spec.id in self.controller.catalog.models:
            lines.append(t("A model with the id {id} is already in the catalog; saving "
                           "replaces it for you.", id=self.imported.spec.id))
        return lines

    # --- saving -----------------------------------------------------------------------------
    def import_model(self) -> str | None:
        """Save the model to the user catalog, reload the catalog and select the model."""
        if self.imported is None:
            return None
        model_id = self.imported.spec.id
        try:
            save_to_user_catalog(self.imported.spec)
        except ModelImportError as exc:
            self.error.setText(render(exc.message))
            self.show_imported()
            return None
        clear_cache()
        self.controller.set_catalog(load_catalog())
        self.controller.edit("model", model_id, t("Import model"))
        self.controller.recompute()
        return model_id

    def accept(self) -> None:
        if self.import_model() is not None:
            super().accept()
