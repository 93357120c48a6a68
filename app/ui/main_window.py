"""The main window: steps on the left, the step in the middle, the live summary on the right."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app import APP_NAME, api
from app.ui import files
from app.ui.controller import Controller
from app.ui.pages import PAGES, STEPS
from app.ui.summary_panel import SummaryPanel
from app.ui.text import t

AUTOSAVE_MS = 60_000
SCENARIO_FILTER = "AI Sizer scenarios (*.json)"


class MainWindow(QMainWindow):
    """The application window around one controller."""

    def __init__(self, controller: Controller):
        super().__init__()
        self.controller = controller
        self.setAcceptDrops(True)
        self.pages = [page(controller) for page in PAGES]
        self.steps = QListWidget()
        self.steps.setObjectName("stepList")
        self.stack = QStackedWidget()
        for page in self.pages:
            scroll = QScrollArea(widgetResizable=True)
            scroll.setWidget(page)
            self.stack.addWidget(scroll)
        self.back, self.next = QPushButton(), QPushButton()
        self.back.clicked.connect(lambda: self.go(self.steps.currentRow() - 1))
        self.next.clicked.connect(lambda: self.go(self.steps.currentRow() + 1))
        self.steps.currentRowChanged.connect(self.show_page)
        self.summary = SummaryPanel(controller)
        self.setCentralWidget(self.build_body())
        self.actions_: dict[str, QAction] = {}
        self.build_menus()
        self.autosave_timer = QTimer(self, interval=AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        controller.dirty_changed.connect(lambda _: self.update_title())
        controller.path_changed.connect(lambda _: self.update_title())
        controller.scenario_changed.connect(lambda _: self.update_title())
        controller.language_changed.connect(lambda _: self.retranslate())
        self.retranslate()
        self.steps.setCurrentRow(0)
        self.resize(1400, 900)

    # --- layout ----------------------------------------------------------------------------
    def build_body(self) -> QWidget:
        centre = QWidget()
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.back)
        buttons.addWidget(self.next)
        column = QVBoxLayout(centre)
        column.addWidget(self.stack, 1)
        column.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.steps)
        splitter.addWidget(centre)
        splitter.addWidget(self.summary)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([200, 900, 300])
        return splitter

    def add_action(self, key: str, slot, shortcut=None) -> QAction:
        action = QAction(self)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(shortcut)
        self.actions_[key] = action
        return action

    def build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        for key, slot, shortcut in (
            ("New", self.new, QKeySequence.StandardKey.New),
            ("Open…", self.open_dialog, QKeySequence.StandardKey.Open),
            ("Save", self.save, QKeySequence.StandardKey.Save),
            ("Save As…", self.save_as, QKeySequence.StandardKey.SaveAs),
        ):
            self.file_menu.addAction(self.add_action(key, slot, shortcut))
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.add_action("Quit", self.close, QKeySequence.StandardKey.Quit))
        self.edit_menu = bar.addMenu("")
        undo = self.controller.undo_stack.createUndoAction(self)
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.controller.undo_stack.createRedoAction(self)
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.edit_menu.addAction(undo)
        self.edit_menu.addAction(redo)
        self.actions_["Undo"], self.actions_["Redo"] = undo, redo
        self.help_menu = bar.addMenu("")

    def retranslate(self) -> None:
        self.file_menu.setTitle(t("&File"))
        self.edit_menu.setTitle(t("&Edit"))
        self.help_menu.setTitle(t("&Help"))
        self.recent_menu.setTitle(t("Open Recent"))
        for key, action in self.actions_.items():
            if key not in ("Undo", "Redo"):
                action.setText(t(key))
        self.back.setText(t("< Back"))
        self.next.setText(t("Next >"))
        row = self.steps.currentRow()
        self.steps.clear()
        for page in self.pages:
            self.steps.addItem(page.title())
        self.steps.setCurrentRow(max(row, 0))
        self.update_title()

    def update_title(self) -> None:
        name = self.controller.scenario.name
        where = self.controller.path.name if self.controller.path else t("unsaved")
        self.setWindowTitle(f"{name} ({where})[*] - {APP_NAME}")
        self.setWindowModified(self.controller.dirty)

    # --- navigation ------------------------------------------------------------------------
    def go(self, row: int) -> None:
        if 0 <= row < self.steps.count():
            self.steps.setCurrentRow(row)

    def show_page(self, row: int) -> None:
        if row < 0:
            return
        self.stack.setCurrentIndex(row)
        self.back.setEnabled(row > 0)
        self.next.setEnabled(row < len(STEPS) - 1)

    # --- files -----------------------------------------------------------------------------
    def confirm_discard(self) -> bool:
        """True when there is no unsaved work, or the user saved or discarded it."""
        if not self.controller.dirty:
            return True
        answer = QMessageBox.question(
            self, APP_NAME, t("The scenario has unsaved changes. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new(self) -> None:
        if self.confirm_discard():
            self.controller.new()

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, t("Open scenario"), "", SCENARIO_FILTER)
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        try:
            self.controller.open(path)
        except api.ScenarioError as exc:
            QMessageBox.warning(self, APP_NAME, t("Cannot open {path}:", path=str(path))
                                + "\n" + "\n".join(exc.problems))
            return False
        return True

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self.write(self.controller.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, t("Save scenario"), "", SCENARIO_FILTER)
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self.write(Path(path))

    def write(self, path: Path) -> bool:
        try:
            self.controller.save(path)
        except OSError as exc:
            QMessageBox.critical(self, APP_NAME, t("Cannot save {path}: {reason}",
                                                   path=str(path), reason=exc.strerror or exc))
            return False
        return True

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in files.recent_files():
            action = self.recent_menu.addAction(str(path))
            action.triggered.connect(lambda _=False, p=path: self.confirm_discard()
                                     and self.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_menu.actions()))

    def autosave(self) -> None:
        if self.controller.dirty:
            files.autosave(self.controller.data, self.controller.path)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if any(u.toLocalFile().endswith(".json") for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls()]
        scenario = next((p for p in paths if p.suffix == ".json"), None)
        if scenario and self.confirm_discard():
            self.open_path(scenario)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        if self.confirm_discard():
            files.clear_autosave()
            event.accept()
        else:
            event.ignore()
