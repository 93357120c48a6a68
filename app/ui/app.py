"""Application set-up: fonts, language, recovery, the main window, screenshot mode."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication, QMessageBox

from app import APP_NAME, ORG_NAME, __version__, api, paths
from app.i18n import LANGUAGES
from app.ui import files, recovery
from app.ui.controller import Controller
from app.ui.main_window import MainWindow
from app.ui.text import render, set_language, system_language, t
from app.ui.theme import theme_of
from app.ui.zoom import save_png

SCREENSHOT_SIZE = (1400, 900)


def application() -> QApplication:
    """The QApplication, created once, with the bundled font."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(__version__)
    keep_qt_settings_in_config_folder()
    families = []
    for font in sorted((paths.resources_dir() / "fonts").glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(font))
        families += QFontDatabase.applicationFontFamilies(font_id)
    if families:
        app.setFont(QFont(families[0], 10))
    return app


def keep_qt_settings_in_config_folder() -> None:
    """Qt's own settings (the file dialogs' history, written as ``QtProject.conf`` when a
    dialog closes) go to the configuration folder, not ``~/.config``. (On Windows Qt's
    native format is the registry, which ``setPath`` does not move.)"""
    folder = str(paths.config_dir())
    for kind in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(kind, QSettings.Scope.UserScope, folder)


def preferred_language() -> str:
    """The language the user chose in Preferences, else the system's (English if unknown)."""
    stored = files.LANGUAGE.read()
    return stored if stored in LANGUAGES else system_language()


def offer_recovery(window: MainWindow) -> bool:
    """After a crash, offer the newest unsaved work no running window holds; True when it
    was restored. Restore keeps its recovery file (the window adopts it) until the work is
    saved or discarded; Discard deletes it; Cancel keeps it for the next start."""
    found = recovery.orphans()
    if not found:
        return False
    newest, others = found[0], found[1:]
    recovery.release(others)
    Button = QMessageBox.StandardButton
    answer = QMessageBox.question(window, APP_NAME, t(
        "AI Sizer did not close cleanly last time. Restore the unsaved scenario?\n\n"
        "Discard deletes it; Cancel keeps it for the next start."),
        Button.Yes | Button.Discard | Button.Cancel, Button.Yes)
    if answer == Button.Yes:
        try:
            window.controller.load(newest.scenario, newest.source)
        except api.ScenarioError as exc:
            recovery.release([newest])
            QMessageBox.warning(window, APP_NAME, t("Cannot restore the unsaved scenario:")
                                + "\n" + "\n".join(render(m) for m in exc.messages))
            return False
        window.autosaver.adopt(newest)
        window.controller.undo_stack.resetClean()  # restored work is unsaved work
        window.autosaver.flush()
        return True
    if answer == Button.Discard:
        window.autosaver.adopt(newest)
        window.autosaver.discard()
        return False
    recovery.release([newest])
    return False


def make_window(scenario: Path | None = None) -> MainWindow:
    """Controller and window, with ``scenario`` or the built-in example loaded.

    The example is sized on the worker thread once the window has shown (the summary says
    "Sizing…" until the result comes): the window appears before the engine and numpy are
    even imported.
    """
    set_language(preferred_language())
    controller = Controller()
    window = MainWindow(controller)
    if scenario is not None:
        window.open_path(Path(scenario))
    else:
        controller.schedule(wait=True)
    return window


def screenshots(window: MainWindow, folder: Path) -> list[Path]:
    """Render every page to ``folder``: NN-name.png as the window shows it, NN-name-full.png
    with the page's whole length (what the window scrolls to), and the Infrastructure page's
    drawings whole (rack-elevation.png, topology.png); returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.controller.wait_until_idle()
    for row, page in enumerate(window.pages):
        window.go(row)
        QApplication.processEvents()
        name = type(page).__name__.removesuffix("Page").lower()
        path = folder / f"{row + 1:02d}-{name}.png"
        window.grab().save(str(path))
        full = folder / f"{row + 1:02d}-{name}-full.png"
        window.stack.widget(row).widget().grab().save(str(full))
        written += [path, full]
    return written + drawings(window, folder)


def drawings(window: MainWindow, folder: Path) -> list[Path]:
    """The rack elevation and the topology of the open scenario, whole, at twice their size."""
    page = next(p for p in window.pages if hasattr(p, "rack_view"))
    written = []
    for view, scene, name in ((page.rack_view, page.rack_view.racks, "rack-elevation.png"),
                              (page.topology, page.topology.topology, "topology.png")):
        save_png(scene, theme_of(view).paper, folder / name)
        written.append(folder / name)
    return written


def run(scenario: str | None = None, screenshot_dir: str | None = None,
        example: str | None = None) -> int:
    """Open the desktop app (the ``gui`` command): ``scenario`` (a file), ``example`` (a
    built-in example, unsaved), else the start page over the worked example."""
    app = application()
    window = make_window(Path(scenario) if scenario else None)
    if example is not None and scenario is None:
        try:
            window.controller.load(api.example(example), None)
        except api.ScenarioError as exc:
            print(f"aisizer: {'; '.join(map(str, exc.messages))}", file=sys.stderr)
            return 2
    if screenshot_dir:
        for path in screenshots(window, Path(screenshot_dir)):
            print(path)
        return 0
    window.show()
    if not offer_recovery(window) and scenario is None and example is None:
        window.show_start()  # what to open: recent files, a template, an example
    code = app.exec()
    window.controller.wait_until_idle()  # no sizing may outlive the window it sizes for
    return code
