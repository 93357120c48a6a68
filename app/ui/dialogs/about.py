"""Help menu dialogs: About AI Sizer, and the sizing method (docs/METHOD.md) to read."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import APP_NAME, __version__, paths
from app.domain.catalog import Catalog
from app.ui.text import t


def method_path() -> Path:
    """Where the description of the sizing method lives (source tree or bundle)."""
    return paths.root() / "docs" / "METHOD.md"


def about_html(catalog: Catalog) -> str:
    """Name, version, catalog versions and the offline promise, as rich text."""
    versions = "".join(f"<tr><td>{escape(kind)}</td><td>{escape(version)}</td></tr>"
                       for kind, version in sorted(catalog.versions.items()))
    paragraphs = (
        t("Version {version}", version=__version__),
        t("Offline sizing of AI infrastructure for large language models."),
    )
    offline = t("AI Sizer works offline: it never opens a network connection, and your "
                "scenarios stay on this computer.")
    return (f"<h2>{escape(APP_NAME)}</h2>"
            + "".join(f"<p>{escape(text)}</p>" for text in paragraphs)
            + f"<p><b>{escape(t('Catalog versions'))}</b></p>"
            + f"<table cellspacing='0' cellpadding='2'>{versions}</table>"
            + f"<p>{escape(offline)}</p>")


def _closing_buttons(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    return buttons


class AboutDialog(QDialog):
    """Help > About AI Sizer."""

    def __init__(self, catalog: Catalog, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(t("About AI Sizer"))
        self.text = QLabel(about_html(catalog), wordWrap=True)
        self.text.setObjectName("aboutText")
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(_closing_buttons(self))


class MethodDialog(QDialog):
    """Help > Sizing method: docs/METHOD.md, read-only, links never followed."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None):
        super().__init__(parent)
        self.setObjectName("methodDialog")
        self.setWindowTitle(t("Sizing method"))
        self.browser = QTextBrowser()
        self.browser.setObjectName("methodText")
        self.browser.setOpenLinks(False)  # offline: no link leaves the dialog
        path = path or method_path()
        try:
            self.browser.setMarkdown(path.read_text(encoding="utf-8"))
        except OSError:
            self.browser.setPlainText(t("The description of the sizing method was not found "
                                        "at {path}.", path=str(path)))
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(_closing_buttons(self))
        self.resize(800, 700)
