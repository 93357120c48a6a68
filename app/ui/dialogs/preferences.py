"""Edit > Preferences: what the user chooses once and keeps (today: the window's language).

A change applies at once, with no OK needed: the choice is stored in the settings, then the
controller tells every page, menu and chart to retranslate. Window state (geometry, splitter)
is not a preference and is not shown here.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.i18n import LANGUAGES
from app.ui import files
from app.ui.controller import Controller
from app.ui.text import t


def apply_language(controller: Controller, lang: str) -> None:
    """Store ``lang`` as the user's language and switch the window to it."""
    files.LANGUAGE.write(lang)
    controller.set_language(lang)


class PreferencesDialog(QDialog):
    """The user's preferences, applied as soon as they change."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.controller = controller
        self.language = QComboBox()
        self.language.setObjectName("languageChoice")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)  # each language named in its own words
        self.language_label = QLabel()
        self.language_label.setBuddy(self.language)
        self.note = QLabel(wordWrap=True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.language_label, self.language)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.show_current()
        self.language.currentIndexChanged.connect(self.language_chosen)
        controller.language_changed.connect(self.retranslate)
        self.retranslate()

    def show_current(self) -> None:
        index = self.language.findData(self.controller.language)
        self.language.setCurrentIndex(max(index, 0))

    def language_chosen(self, index: int) -> None:
        apply_language(self.controller, self.language.itemData(index))

    def retranslate(self, *_) -> None:
        self.setWindowTitle(t("Preferences"))
        self.language_label.setText(t("&Language:"))
        self.note.setText(t("The window changes language at once; saved scenarios and reports "
                            "are not affected."))
