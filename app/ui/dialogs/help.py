"""Help > How to size (F1): the user's guide (resources/help/how-to-size.<lang>.md) by topic.

The guide is one Markdown file per language; each heading ends with its topic's key
(``## 3 GPU selection {#gpuselection}``), the key a page's class name gives
(``GpuSelectionPage`` -> ``gpuselection``), so F1 opens the guide at the page the user is on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import paths
from app.ui.text import language, t

HEADING = re.compile(r"^(#{1,2}) (.+?) \{#([a-z]+)\}\s*$")
OVERVIEW = "overview"


@dataclass(frozen=True)
class Topic:
    key: str
    title: str
    text: str  # Markdown, its heading included


def guide_path(lang: str) -> Path:
    """The guide in ``lang``; English where there is none in that language."""
    folder = paths.resources_dir() / "help"
    path = folder / f"how-to-size.{lang}.md"
    return path if path.exists() else folder / "how-to-size.en.md"


def topics(markdown: str) -> list[Topic]:
    """The guide cut at its headings, each part with its key and title."""
    found: list[Topic] = []
    key = title = None
    lines: list[str] = []
    for line in markdown.splitlines():
        heading = HEADING.match(line)
        if heading:
            if key:
                found.append(Topic(key, title, "\n".join(lines).strip()))
            key, title = heading[3], heading[2]
            lines = [f"{heading[1]} {title}"]
        elif key:
            lines.append(line)
    if key:
        found.append(Topic(key, title, "\n".join(lines).strip()))
    return found


def page_key(class_name: str) -> str:
    """The guide's key for a page: its class name without 'Page', in lower case."""
    return class_name.removesuffix("Page").lower()


class HelpDialog(QDialog):
    """The guide's topics on the left, the chosen one on the right."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None):
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.setWindowTitle(t("How to size"))
        self.list = QListWidget()
        self.list.setMaximumWidth(250)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # offline: no link leaves the dialog
        path = path or guide_path(language())
        try:
            self.topics = topics(path.read_text(encoding="utf-8"))
        except OSError:
            self.topics = [Topic(OVERVIEW, t("How to size"), t(
                "The guide was not found at {path}.", path=str(path)))]
        for topic in self.topics:
            self.list.addItem(topic.title)
        self.list.currentRowChanged.connect(self.show_row)
        body = QHBoxLayout()
        body.addWidget(self.list)
        body.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body)
        layout.addWidget(buttons)
        self.resize(860, 620)
        self.show_topic(OVERVIEW)

    def show_row(self, row: int) -> None:
        if 0 <= row < len(self.topics):
            self.browser.setMarkdown(self.topics[row].text)

    def show_topic(self, key: str) -> None:
        """Open the topic ``key`` (a page's key), or the overview when there is none."""
        keys = [topic.key for topic in self.topics]
        row = keys.index(key) if key in keys else 0
        self.list.setCurrentRow(row)
        self.show_row(row)

    def current_key(self) -> str:
        return self.topics[self.list.currentRow()].key
