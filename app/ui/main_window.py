"""The main window: steps on the left, the step in the middle, the live summary on the right.

The window holds no numbers of its own: it shows the controller's scenario and result, sends
menu commands to it, and keeps the user's work safe (confirmation before losing it, a
recovery copy about a second after each change while there is unsaved work, atomic saves;
see ``app.ui.recovery``). Colours come from the system palette,
so the window follows the light or dark scheme of the desktop.
"""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
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
from app.ui import files, recovery
from app.ui.controller import Controller
from app.ui.dialogs.about import AboutDialog, MethodDialog
from app.ui.dialogs.preferences import PreferencesDialog
from app.ui.pages import PAGES, STEPS, row_of
from app.ui.pages.base import StepPage
from app.ui.shortcuts import ScenarioShortcuts
from app.ui.summary_panel import SummaryPanel
from app.ui.text import language, render, t
from app.ui.units import number_locale

SCENARIO_FILTER = "AI Sizer scenarios (*.json)"
OPEN_FILTER = "AI Sizer scenarios and reports (*.json *.pdf)"
BACK_KEYS = ("Ctrl+PgUp", "Alt+Left")
NEXT_KEYS = ("Ctrl+PgDown", "Alt+Right")


def scenario_files(urls) -> list[Path]:
    """The local scenario files (.json) and reports (.pdf) among dropped ``urls``."""
    local = (Path(url.toLocalFile()) for url in urls if url.isLocalFile())
    return [path for path in local if path.suffix.lower() in (".json", ".pdf")]


def dropped_files(urls) -> list[Path]:
    """The local files among dropped ``urls`` that may be scenarios, reports or load-test
    results (.json, .pdf, .jsonl, .csv)."""
    local = (Path(url.toLocalFile()) for url in urls if url.isLocalFile())
    return [path for path in local if path.suffix.lower() in (".json", ".pdf", ".jsonl", ".csv")]


class MainWindow(QMainWindow):
    """The application window around one controller."""

    def __init__(self, controller: Controller):
        super().__init__()
        self.controller = controller
        self.setAcceptDrops(True)
        self.steps = QListWidget()
        self.steps.setObjectName("stepList")
        self.steps.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.built: dict[int, StepPage] = {}  # pages are made on first visit (start-up time)
        self.stack = QStackedWidget()
        for _ in PAGES:
            self.stack.addWidget(QScrollArea(widgetResizable=True))
            self.steps.addItem("")
        self.back, self.next = QPushButton(), QPushButton()
        self.back.setObjectName("backButton")
        self.next.setObjectName("nextButton")
        self.summary = SummaryPanel(controller)
        self.splitter = self.build_body()
        self.setCentralWidget(self.splitter)
        self.actions_: dict[str, QAction] = {}
        self.dialogs: dict[str, QWidget] = {}
        self.build_menus()
        self.shortcuts = ScenarioShortcuts(self)  # Undo and Redo also from a text field
        self.busy = QLabel()
        self.statusBar().addPermanentWidget(self.busy)
        self.autosaver = recovery.Autosaver(self.recovery_state, self)
        self.autosaver.failed.connect(self.autosave_failed)
        self.autosaver.recovered.connect(self.autosave_recovered)
        self.autosave_warning = QLabel()
        self.autosave_warning.setObjectName("autosaveWarning")
        self.autosave_warning.hide()
        self.statusBar().addWidget(self.autosave_warning, 1)
        self.connect_controller()
        self.retranslate()
        self.follow_workload()
        self.steps.setCurrentRow(0)
        self.show_page(0)
        self.resize(1400, 900)
        self.restore_state()
        self.steps.setFocus()

    # --- layout ----------------------------------------------------------------------------
    def build_body(self) -> QSplitter:
        """Steps | page with Back and Next | summary. Tab moves through them in that order."""
        self.back.clicked.connect(self.go_back)
        self.next.clicked.connect(self.go_next)
        self.steps.currentRowChanged.connect(self.show_page)
        centre = QWidget()
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.back)
        buttons.addWidget(self.next)
        column = QVBoxLayout(centre)
        column.addWidget(self.stack, 1)
        column.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setObjectName("mainSplitter")
        splitter.addWidget(self.steps)
        splitter.addWidget(centre)
        splitter.addWidget(self.summary)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([200, 900, 300])
        return splitter

    def connect_controller(self) -> None:
        # Methods, not lambdas: Qt disconnects them when the window goes before the controller.
        controller = self.controller
        controller.dirty_changed.connect(self.update_title)
        controller.path_changed.connect(self.update_title)
        controller.path_changed.connect(self.enable_recent)
        controller.scenario_changed.connect(self.update_title)
        controller.scenario_changed.connect(self.follow_workload)
        controller.language_changed.connect(self.retranslate)
        controller.busy_changed.connect(self.show_busy)
        controller.scenario_loaded.connect(self.go_first)
        controller.scenario_changed.connect(self.autosaver.changed)
        controller.dirty_changed.connect(self.autosaver.changed)
        controller.path_changed.connect(self.autosaver.changed)
        stack = controller.undo_stack
        for signal in (stack.canUndoChanged, stack.canRedoChanged, stack.undoTextChanged,
                       stack.redoTextChanged):
            signal.connect(self.update_undo_actions)

    def add_action(self, key: str, slot, shortcut=None) -> QAction:
        """An action whose text is ``t(key)``; ``shortcut`` is a StandardKey or key names."""
        action = QAction(self)
        action.triggered.connect(slot)
        if isinstance(shortcut, tuple):
            action.setShortcuts([QKeySequence(keys) for keys in shortcut])
        elif shortcut is not None:
            action.setShortcut(shortcut)
        self.actions_[key] = action
        return action

    def build_menus(self) -> None:
        bar, keys = self.menuBar(), QKeySequence.StandardKey
        self.file_menu = bar.addMenu("")
        for key, slot, shortcut in (
            ("New", self.new, keys.New),
            ("Open…", self.open_dialog, keys.Open),
            ("Save", self.save, keys.Save),
            ("Save As…", self.save_as, keys.SaveAs),
        ):
            self.file_menu.addAction(self.add_action(key, slot, shortcut))
        self.file_menu.addAction(self.add_action("Start page…", self.show_start))
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.enable_recent()
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.add_action("Export report…", self.show_export,
                                                 QKeySequence("Ctrl+E")))
        self.file_menu.addAction(self.add_action("Print report…", self.print_report, keys.Print))
        self.file_menu.addAction(self.add_action("Export test plan…", self.export_test_plan))
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.add_action("Quit", self.close, keys.Quit))
        self.edit_menu = bar.addMenu("")
        self.edit_menu.addAction(self.add_action("&Undo", self.controller.undo_stack.undo,
                                                 keys.Undo))
        self.edit_menu.addAction(self.add_action("&Redo", self.controller.undo_stack.redo,
                                                 keys.Redo))
        self.edit_menu.addSeparator()
        preferences = self.add_action("&Preferences…", self.show_preferences, keys.Preferences)
        preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.edit_menu.addAction(preferences)
        self.edit_menu.addAction(self.add_action("Price &list…", self.show_price_list))
        self.build_go_menu()
        self.controller.stale_changed.connect(self.show_stale)
        self.catalog_menu = bar.addMenu("")
        for key, slot in (("Add or edit a &GPU…", lambda: self.show_entry_form("gpus")),
                          ("Add or edit a &server…", lambda: self.show_entry_form("servers")),
                          ("Add or edit a &model…", lambda: self.show_entry_form("models")),
                          ("&Import model folder…", self.show_import)):
            self.catalog_menu.addAction(self.add_action(key, slot))
        self.help_menu = bar.addMenu("")
        self.help_menu.addAction(self.add_action("&How to size", self.show_help,
                                                 keys.HelpContents))
        self.help_menu.addAction(self.add_action("&Sizing method", self.show_method))
        self.help_menu.addAction(self.add_action("&Verify report…", self.show_verify))
        about = self.add_action("&About AI Sizer", self.show_about)
        about.setMenuRole(QAction.MenuRole.AboutRole)
        self.help_menu.addAction(about)
        self.update_undo_actions()

    def go_first(self) -> None:
        """New or Open start at Step 1 (the step shown was the scenario before's)."""
        self.steps.setCurrentRow(0)

    def show_stale(self, stale: bool) -> None:
        """No report from stale figures: export and print wait for a valid input."""
        for key in ("Export report…", "Print report…"):
            self.actions_[key].setEnabled(not stale)

    def build_go_menu(self) -> None:
        self.go_menu = self.menuBar().addMenu("")
        self.go_menu.addAction(self.add_action("Previous step", self.go_back, BACK_KEYS))
        self.go_menu.addAction(self.add_action("Next step", self.go_next, NEXT_KEYS))
        self.go_menu.addSeparator()
        self.step_actions = []
        for row in range(len(PAGES)):
            action = QAction(self)
            action.triggered.connect(lambda _=False, r=row: self.go(r))
            if row < 9:
                action.setShortcut(QKeySequence(f"Ctrl+{row + 1}"))
            self.go_menu.addAction(action)
            self.step_actions.append(action)

    def retranslate(self, *_) -> None:
        self.setLocale(number_locale(language()))  # spin boxes: the language's separators
        self.file_menu.setTitle(t("&File"))
        self.edit_menu.setTitle(t("&Edit"))
        self.go_menu.setTitle(t("&Go"))
        self.catalog_menu.setTitle(t("&Catalog"))
        self.help_menu.setTitle(t("&Help"))
        self.recent_menu.setTitle(t("Open Recent"))
        for key, action in self.actions_.items():
            action.setText(t(key))
        self.update_undo_actions()
        self.back.setText(t("< Back"))
        self.next.setText(t("Next >"))
        self.steps.setAccessibleName(t("Steps"))
        for row, page in enumerate(PAGES):
            title = t(page.title)
            self.steps.item(row).setText(title)
            self.step_actions[row].setText(title)
        self.show_busy(self.controller.busy)
        self.update_title()

    def update_title(self, *_) -> None:
        name = self.controller.scenario.name
        where = self.controller.path.name if self.controller.path else t("unsaved")
        self.setWindowTitle(f"{name} ({where})[*] - {APP_NAME}")
        self.setWindowModified(self.controller.dirty)

    def update_undo_actions(self, *_) -> None:
        """Undo and Redo name the edit they undo or redo, in the window's language."""
        stack = self.controller.undo_stack
        if not shiboken6.isValid(stack):
            return  # the stack announces its own destruction
        undo, redo = self.actions_["&Undo"], self.actions_["&Redo"]
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        undo.setText(t("&Undo {what}", what=stack.undoText()) if stack.canUndo() else t("&Undo"))
        redo.setText(t("&Redo {what}", what=stack.redoText()) if stack.canRedo() else t("&Redo"))

    def show_busy(self, busy: bool) -> None:
        self.busy.setText(t("Sizing…") if busy else "")

    # --- navigation ------------------------------------------------------------------------
    def go(self, row: int) -> None:
        if 0 <= row < self.steps.count():
            self.steps.setCurrentRow(row)

    def go_back(self) -> None:
        row = self.steps.currentRow() - 1
        while row > 0 and self.steps.item(row).isHidden():
            row -= 1
        self.go(row)

    def go_next(self) -> None:
        row = self.steps.currentRow() + 1
        while row < len(STEPS) - 1 and self.steps.item(row).isHidden():
            row += 1
        if row < len(STEPS):
            self.go(row)

    def follow_workload(self, *_) -> None:
        """Step 1 decides which steps appear: the training and workloads step only when the
        scenario trains, fine-tunes, retrieves (RAG) or compares a CPU."""
        scenario = self.controller.scenario
        extra = (scenario.workload.kind in ("fine_tuning", "pretraining")
                 or getattr(scenario, "rag", None) is not None
                 or getattr(scenario, "cpu", None) is not None)
        self.steps.item(row_of("TrainingPage")).setHidden(not extra)

    def page(self, row: int) -> StepPage:
        """The page at ``row``, made now if this is its first visit.

        A page made later shows the current scenario, result and language at once, and from
        then on listens to the controller like the others.
        """
        if row not in self.built:
            page = self.built[row] = PAGES[row].load()(self.controller)
            self.stack.widget(row).setWidget(page)
            self.tab_through(page)
        return self.built[row]

    def tab_through(self, page: StepPage) -> None:
        """Tab goes steps, page, Back, Next: Qt appends a late page after Next otherwise."""
        last, widget = None, page.nextInFocusChain()
        while page.isAncestorOf(widget):
            if widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
                last = widget
            widget = widget.nextInFocusChain()
        if last is not None:
            QWidget.setTabOrder(last, self.back)
            QWidget.setTabOrder(self.back, self.next)

    @property
    def pages(self) -> list[StepPage]:
        """Every page (made now where not visited yet)."""
        return [self.page(row) for row in range(len(PAGES))]

    def show_page(self, row: int) -> None:
        if row < 0:
            return
        self.page(row)
        self.stack.setCurrentIndex(row)
        self.back.setEnabled(row > 0)
        self.next.setEnabled(row < len(STEPS) - 1)

    # --- dialogs ---------------------------------------------------------------------------
    def show_dialog(self, name: str, make) -> QWidget:
        """Show the dialog ``name`` without blocking (made once, kept while the window is)."""
        dialog = self.dialogs.get(name)
        if dialog is None:
            dialog = self.dialogs[name] = make()
        if dialog.isVisible():
            dialog.raise_()  # it may hide behind the window
        dialog.show()
        dialog.activateWindow()
        return dialog

    def show_preferences(self) -> QWidget:
        return self.show_dialog("preferences", lambda: PreferencesDialog(self.controller, self))

    def show_price_list(self) -> QWidget:
        from app.ui.dialogs.price_list import PriceListDialog

        self.dialogs.pop("prices", None)  # made for the current plan and language
        return self.show_dialog("prices", lambda: PriceListDialog(self.controller, self))

    def show_about(self) -> QWidget:
        self.dialogs.pop("about", None)  # its text is made in the current language
        return self.show_dialog("about", lambda: AboutDialog(self.controller.catalog, self))

    def show_export(self) -> QWidget:
        from app.ui.dialogs.report_dialogs import ExportDialog  # reportlab/pyHanko load late

        self.dialogs.pop("export", None)  # made in the current language and identity state
        return self.show_dialog("export", lambda: ExportDialog(self.controller, self))

    def export_test_plan(self) -> list[Path]:
        from app.ui.dialogs.test_plan import export_test_plan

        written = export_test_plan(self, self.controller)
        if written:
            self.statusBar().showMessage(t("Test plan written to {folder}.",
                                           folder=str(written[0].parent)), 5000)
        return written

    def show_verify(self) -> QWidget:
        from app.ui.dialogs.report_dialogs import VerifyDialog

        self.dialogs.pop("verify", None)
        return self.show_dialog("verify", lambda: VerifyDialog(self.controller, self))

    def show_entry_form(self, kind: str) -> QWidget:
        """Catalog > Add or edit a GPU / server / model: the entry form (made afresh, so it
        lists the catalog as it is now)."""
        from app.ui.dialogs.catalog_entry import CatalogEntryDialog

        self.dialogs.pop(f"entry-{kind}", None)
        return self.show_dialog(f"entry-{kind}",
                                lambda: CatalogEntryDialog(self.controller, kind, self))

    def show_import(self) -> QWidget:
        from app.ui.dialogs.import_model import ImportModelDialog

        self.dialogs.pop("import", None)
        return self.show_dialog("import", lambda: ImportModelDialog(self.controller, self))

    def show_help(self) -> QWidget:
        """The user's guide at the current page's topic (F1)."""
        from app.ui.dialogs.help import HelpDialog, page_key

        self.dialogs.pop("help", None)  # made in the current language
        dialog = self.show_dialog("help", lambda: HelpDialog(self))
        dialog.show_topic(page_key(PAGES[self.stack.currentIndex()].class_name))
        return dialog

    def print_report(self) -> bool:
        return self.page(row_of("ReportPage")).print_report()

    def show_method(self) -> QWidget:
        self.dialogs.pop("method", None)
        return self.show_dialog("method", lambda: MethodDialog(self))

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

    def show_start(self) -> QWidget | None:
        """Recent files, a new scenario from a template, or an example (File > Start page;
        at start-up without a file)."""
        from app.ui.dialogs.start import StartDialog

        if not self.confirm_discard():
            return None
        self.dialogs.pop("start", None)  # the recent files as they are now
        return self.show_dialog("start", lambda: StartDialog(self))

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, t("Open scenario"), files.last_folder(),
                                              t(OPEN_FILTER))
        if path:
            self.open_path(Path(path))

    def open_recent(self, path: Path) -> bool:
        return self.confirm_discard() and self.open_path(path)

    def open_path(self, path: Path) -> bool:
        try:
            self.controller.open(path)
        except api.ScenarioError as exc:
            QMessageBox.warning(self, APP_NAME, t("Cannot open {path}:", path=str(path))
                                + "\n" + "\n".join(render(m) for m in exc.messages))
            return False
        return True

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self.write(self.controller.path)

    def save_as(self) -> bool:
        folder = files.last_folder() or str(Path.home())
        suggested = str(Path(folder) / f"{self.controller.scenario.name}.json")
        path, _ = QFileDialog.getSaveFileName(self, t("Save scenario"), suggested,
                                              t(SCENARIO_FILTER))
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self.write(Path(path))

    def write(self, path: Path) -> bool:
        try:
            written = self.controller.save(path)
        except OSError as exc:
            QMessageBox.critical(self, APP_NAME, t("Cannot save {path}: {reason}",
                                                   path=str(path), reason=exc.strerror or exc))
            return False
        self.statusBar().showMessage(t("Saved to {path}", path=str(written)), 5000)
        self.autosaver.flush()  # saved: the recovery copy goes at once
        return True

    def enable_recent(self, *_) -> None:
        """Open Recent is enabled while there are recent files (a disabled menu never fills)."""
        self.recent_menu.setEnabled(bool(files.recent_files()))

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in files.recent_files():
            action = self.recent_menu.addAction(str(path))
            action.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        self.recent_menu.setEnabled(bool(self.recent_menu.actions()))

    def recovery_state(self) -> tuple[bool, dict, Path | None]:
        """What the recovery copy keeps: unsaved work, or nothing once saved (or undone)."""
        return self.controller.dirty, self.controller.data, self.controller.path

    def autosave(self) -> None:
        """Write the recovery copy now (it is written about a second after each change)."""
        self.autosaver.flush()

    def autosave_failed(self, reason: str) -> None:
        """Told once per run of failures; the autosaver retries quietly."""
        self.autosave_warning.setText(t(
            "Cannot keep a recovery copy of your work ({reason}); save it to keep it safe. "
            "AI Sizer keeps trying.", reason=reason))
        self.autosave_warning.show()

    def autosave_recovered(self) -> None:
        self.autosave_warning.hide()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if dropped_files(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        dropped = dropped_files(event.mimeData().urls())
        if not dropped:
            return
        event.acceptProposedAction()
        if self.import_results(dropped):
            return
        found = scenario_files(event.mimeData().urls())
        if found and self.confirm_discard():
            self.open_path(found[0])

    def import_results(self, paths: list[Path]) -> bool:
        """Load-test result files dropped anywhere go to the Validation step (True); other
        files are left to open as a scenario (False)."""
        from app.measurements import MeasurementError

        try:
            api.import_measurements(paths, self.controller.scenario)
        except MeasurementError:
            return False
        row = row_of("ValidationPage")
        self.go(row)
        return self.page(row).import_files(paths)

    # --- window state ----------------------------------------------------------------------
    def restore_state(self) -> None:
        """Geometry and splitter as the user left them (window state, not preferences)."""
        geometry = files.WINDOW_GEOMETRY.read()
        if not geometry.isEmpty():
            self.restoreGeometry(geometry)
        splitter = files.WINDOW_SPLITTER.read()
        if not splitter.isEmpty():
            self.splitter.restoreState(splitter)

    def save_state(self) -> None:
        files.WINDOW_GEOMETRY.write(self.saveGeometry())
        files.WINDOW_SPLITTER.write(self.splitter.saveState())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        if self.confirm_discard():
            self.save_state()
            self.autosaver.close()
            event.accept()
        else:
            event.ignore()
