"""Application set-up: fonts, language, recovery, the main window, screenshot mode."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication, QMessageBox

from app import APP_NAME, ORG_NAME, __version__, api, paths
from app.ui import files
from app.ui.controller import Controller
from app.ui.main_window import MainWindow
from app.ui.text import set_language, system_language, t


def application() -> QApplication:
    """The QApplication, created once, with the bundled font."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(__version__)
    families = []
    for font in sorted((paths.resources_dir() / "fonts").glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(font))
        families += QFontDatabase.applicationFontFamilies(font_id)
    if families:
        app.setFont(QFont(families[0], 10))
    return app


def preferred_language() -> str:
    stored = files.settings().value("language", "", type=str)
    return stored or system_language()


def offer_recovery(window: MainWindow) -> None:
    """After a crash, offer the autosaved work back."""
    found = files.recovery()
    if found is None:
        return
    data, source = found
    answer = QMessageBox.question(window, APP_NAME, t(
        "AI Sizer did not close cleanly last time. Restore the unsaved scenario?"))
    if answer == QMessageBox.StandardButton.Yes:
        try:
            window.controller.load(data, source)
            window.controller.undo_stack.resetClean()
        except api.ScenarioError:
            pass
    files.clear_autosave()


def make_window(scenario: Path | None = None) -> MainWindow:
    """Controller and window, with ``scenario`` or the built-in example loaded."""
    set_language(preferred_language())
    controller = Controller()
    controller.language = preferred_language()
    window = MainWindow(controller)
    if scenario is not None:
        window.open_path(Path(scenario))
    else:
        controller.recompute()
    return window


def screenshots(window: MainWindow, folder: Path) -> list[Path]:
    """Render every page to ``folder``/NN-name.png; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    window.show()
    for row, page in enumerate(window.pages):
        window.go(row)
        window.stack.setCurrentIndex(row)
        QApplication.processEvents()
        name = type(page).__name__.removesuffix("Page").lower()
        path = folder / f"{row + 1:02d}-{name}.png"
        window.grab().save(str(path))
        written.append(path)
    return written


def run(scenario: str | None = None, screenshot_dir: str | None = None) -> int:
    """Open the desktop app (the ``gui`` command)."""
    app = application()
    window = make_window(Path(scenario) if scenario else None)
    if screenshot_dir:
        for path in screenshots(window, Path(screenshot_dir)):
            print(path)
        return 0
    window.show()
    offer_recovery(window)
    return app.exec()
