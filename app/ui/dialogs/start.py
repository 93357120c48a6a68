"""The start page: what to open when the app starts without a file.

Recent files, a new scenario from a template (a built-in example with its name, customer and
project cleared), or one of the examples as it is. The worked example is the sizing guide's
own plan, which does not fit: the list says so, and the summary names the fix once it is
open. ``make run`` opens the worked example directly (Makefile).
"""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import api
from app.ui import files
from app.ui.text import t

#: Templates: (English label, the example it starts from).
TEMPLATES = (("Chat assistant (online inference)", "small-chat"),
             ("Batch job (a volume within a window)", "batch-summaries"),
             ("Fine-tuning (LoRA or QLoRA)", "fine-tune-lora"),
             ("Pre-training", "pretrain"),
             ("Assistant with retrieval (RAG)", "rag-assistant"))
WORKED = "worked-example"
WORKED_NOTE = ("{name}: the sizing guide's own plan, which misses its speed target: its 40 "
               "users need more memory than one replica of 2 x RTX PRO 6000 has, so they take "
               "two replicas, and each user still gets about half the 30 tokens/s asked; "
               "Step 4 shows what would meet it")
ROLE = Qt.ItemDataRole.UserRole


def from_template(name: str) -> dict:
    """An example as the start of a new scenario: its name, customer and project cleared."""
    data = copy.deepcopy(api.example(name))
    data["name"] = t("New scenario")
    for key in ("customer", "project"):
        data.pop(key, None)
    return data


class StartDialog(QDialog):
    """Choose what to open; ``open_*`` load it into the window's controller."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle(t("Start page"))
        self.recent = self.listing([(str(path), path) for path in files.recent_files()])
        self.templates = self.listing([(t(label), name) for label, name in TEMPLATES])
        self.examples = self.listing([(self.example_text(name), name)
                                      for name in api.example_names()])
        self.recent.itemActivated.connect(lambda item: self.open_recent(item.data(ROLE)))
        self.templates.itemActivated.connect(lambda item: self.open_template(item.data(ROLE)))
        self.examples.itemActivated.connect(lambda item: self.open_example(item.data(ROLE)))
        open_file = QPushButton(t("Open a file…"))
        open_file.clicked.connect(self.open_file)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(open_file)
        row.addStretch(1)
        row.addWidget(buttons)
        column = QVBoxLayout(self)
        column.addWidget(QLabel(t("Double-click an entry to open it.")))
        for title, listing in ((t("Recent files"), self.recent),
                               (t("New from a template"), self.templates),
                               (t("Examples"), self.examples)):
            column.addWidget(self.group(title, listing))
        column.addLayout(row)
        self.resize(760, 620)

    @staticmethod
    def listing(entries: list[tuple[str, object]]) -> QListWidget:
        widget = QListWidget(wordWrap=True)
        widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for text, value in entries:
            item = QListWidgetItem(text)
            item.setData(ROLE, value)
            item.setToolTip(text)
            widget.addItem(item)
        if not entries:
            widget.addItem(QListWidgetItem(t("(none yet)")))
            widget.setEnabled(False)
        return widget

    @staticmethod
    def group(title: str, listing: QListWidget) -> QGroupBox:
        box = QGroupBox(title)
        QVBoxLayout(box).addWidget(listing)
        return box

    @staticmethod
    def example_text(name: str) -> str:
        """The example's scenario name; the worked example with its one-sentence verdict."""
        shown = api.example(name).get("name", name)
        return t(WORKED_NOTE, name=shown) if name == WORKED else shown

    def load(self, data: dict) -> None:
        self.window_.controller.load(data, None)
        self.accept()

    def open_template(self, name: str) -> None:
        self.load(from_template(name))

    def open_example(self, name: str) -> None:
        self.load(api.example(name))

    def open_recent(self, path: Path) -> None:
        if self.window_.open_path(Path(path)):
            self.accept()

    def open_file(self) -> None:
        self.window_.open_dialog()
        if self.window_.controller.path is not None:
            self.accept()
