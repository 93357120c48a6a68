"""The main window: navigation, menus, safety of unsaved work, language, dialogs, state."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox

from app import __version__
from app.i18n import translate
from app.ui import app as gui_app
from app.ui import files, recovery, text
from app.ui.dialogs.about import AboutDialog, MethodDialog
from app.ui.dialogs.preferences import PreferencesDialog
from app.ui.main_window import MainWindow
from app.ui.pages import PAGES, STEPS

USERS = "workload.concurrent_users"
Button = QMessageBox.StandardButton


@pytest.fixture(autouse=True)
def answers(message_answers):
    return message_answers


@pytest.fixture
def windows(qtbot):
    """Makes main windows; closes them at the end without asking about unsaved work."""
    made = []

    def make(controller):
        made.append(MainWindow(controller))
        return made[-1]

    yield make
    for win in made:
        win.controller.wait_until_idle()
        win.controller.undo_stack.setClean()  # closing at teardown must not ask
        win.close()
        win.deleteLater()
    text.set_language("en")


@pytest.fixture
def window(controller, windows):
    return windows(controller)


def make_dirty(controller, users=33):
    assert controller.edit(USERS, users) == []
    controller.wait_until_idle()
    assert controller.dirty


def scenario_file(tmp_path, controller, name="dropped"):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({**controller.data, "name": name}), encoding="utf-8")
    return path


def drop(window, paths):
    """Mime data and a drop event of ``paths``; keep both alive while the event is used."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    return mime, QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)


# --- title and navigation ----------------------------------------------------------------
def test_title_shows_the_scenario_name_and_a_modified_marker(window, controller):
    assert controller.scenario.name in window.windowTitle()
    assert "[*]" in window.windowTitle() and not window.isWindowModified()
    make_dirty(controller)
    assert window.isWindowModified()
    controller.edit("name", "Renamed scenario")
    assert "Renamed scenario" in window.windowTitle()


def test_back_and_next_walk_the_steps(window):
    assert window.steps.currentRow() == 0 and window.stack.currentIndex() == 0
    assert not window.back.isEnabled() and window.next.isEnabled()
    window.next.click()
    assert window.steps.currentRow() == 1 and window.stack.currentIndex() == 1
    window.back.click()
    assert window.steps.currentRow() == 0
    for _ in range(len(PAGES)):
        window.next.click()
    assert window.steps.currentRow() == len(STEPS) - 1
    assert not window.next.isEnabled() and window.back.isEnabled()


def test_keyboard_shortcuts_for_back_and_next(window):
    back, forward = window.actions_["Previous step"], window.actions_["Next step"]
    assert QKeySequence("Ctrl+PgDown") in forward.shortcuts()
    assert QKeySequence("Alt+Right") in forward.shortcuts()
    assert QKeySequence("Ctrl+PgUp") in back.shortcuts()
    assert QKeySequence("Alt+Left") in back.shortcuts()
    forward.trigger()
    forward.trigger()
    assert window.stack.currentIndex() == 2
    back.trigger()
    assert window.stack.currentIndex() == 1
    window.step_actions[4].trigger()
    assert window.stack.currentIndex() == 4


def test_step_list_has_every_page_and_takes_the_keyboard(window, qtbot):
    assert window.steps.count() == len(PAGES)
    assert [window.steps.item(i).text() for i in range(len(PAGES))] == [
        page.title() for page in window.pages]
    assert window.steps.focusPolicy() & Qt.FocusPolicy.TabFocus
    qtbot.keyClick(window.steps, Qt.Key.Key_Down)
    qtbot.keyClick(window.steps, Qt.Key.Key_Down)
    assert window.stack.currentIndex() == 2
    window.steps.setCurrentRow(len(STEPS))  # an extra page (beyond the steps)
    assert window.stack.currentIndex() == len(STEPS)


def tab_order(window) -> list:
    """The widgets Tab reaches, in order, starting after the step list."""
    reached, widget = [], window.steps.nextInFocusChain()
    while widget is not window.steps:
        if (widget.isVisible() and widget.isEnabled()
                and widget.focusPolicy() & Qt.FocusPolicy.TabFocus):
            reached.append(widget)
        widget = widget.nextInFocusChain()
    return reached


@pytest.mark.parametrize("row", [0, 3])
def test_tab_goes_steps_page_back_next(window, qtbot, row):
    window.show()
    qtbot.waitExposed(window)
    window.go(row)  # row 3 is made on this first visit, after the window was shown
    order = tab_order(window)
    page = window.built[row]
    in_page = [i for i, widget in enumerate(order) if page.isAncestorOf(widget)]
    assert in_page, "the page has widgets that take the keyboard"
    buttons = [button for button in (window.back, window.next) if button.isEnabled()]
    assert order[in_page[-1] + 1:in_page[-1] + 1 + len(buttons)] == buttons
    before = order[:in_page[0]]
    assert all(widget is window.stack.currentWidget() for widget in before)


def test_pages_are_made_on_first_visit_and_stay_live(window, controller):
    assert set(window.built) == {0}
    window.go(3)
    assert set(window.built) == {0, 3}
    assert window.stack.currentWidget().widget() is window.built[3]
    assert len(window.pages) == len(PAGES) and set(window.built) == set(range(len(PAGES)))
    seen = []
    window.built[3].show_result = seen.append
    controller.result_changed.disconnect()
    controller.result_changed.connect(lambda r: seen.append(r))
    make_dirty(controller)
    assert seen


# --- unsaved work ------------------------------------------------------------------------
def test_close_with_unsaved_work_asks_and_cancel_keeps_the_window(window, controller,
                                                                 answers):
    queue, asked = answers
    window.show()
    make_dirty(controller)
    queue.append(Button.Cancel)
    assert not window.close()
    assert len(asked) == 1 and window.isVisible() and controller.dirty
    queue.append(Button.Discard)
    window.autosave()
    window.autosaver.wait()
    assert list(recovery.folder().glob("*.json"))
    assert window.close()
    assert len(asked) == 2 and recovery.orphans() == []


def test_close_and_save_writes_the_file(window, controller, answers, tmp_path):
    queue, _ = answers
    target = tmp_path / "kept.json"
    controller.save(target)
    make_dirty(controller, users=44)
    queue.append(Button.Save)
    assert window.close()
    assert json.loads(target.read_text(encoding="utf-8"))["workload"]["concurrent_users"] == 44


def test_close_without_unsaved_work_does_not_ask(window, answers):
    _, asked = answers
    window.show()
    assert window.close() and asked == []


def test_new_open_and_recent_ask_before_losing_work(window, controller, answers, tmp_path):
    queue, asked = answers
    other = scenario_file(tmp_path, controller, "other")
    make_dirty(controller)
    queue.extend([Button.Cancel, Button.Cancel])
    window.new()
    assert not window.open_recent(other)
    assert len(asked) == 2 and controller.value(USERS) == 33 and controller.path is None
    queue.append(Button.Discard)
    assert window.open_recent(other)
    assert controller.path == other and controller.scenario.name == "other"


def test_recent_menu_lists_files_and_opens_them(window, controller, tmp_path):
    first, second = (scenario_file(tmp_path, controller, name) for name in ("first", "second"))
    assert not window.recent_menu.isEnabled()  # nothing yet
    window.open_path(first)
    assert window.recent_menu.isEnabled()
    window.open_path(second)
    window.fill_recent()
    entries = window.recent_menu.actions()
    assert [action.text() for action in entries] == [str(second.resolve()),
                                                     str(first.resolve())]
    entries[1].trigger()
    assert controller.scenario.name == "first"


# QDragEnterEvent has only the (deprecated) QPoint constructor in PySide6.
OLD_DRAG_ENTER = pytest.mark.filterwarnings("ignore:.*QDragEnterEvent:DeprecationWarning")


@OLD_DRAG_ENTER
def test_drop_of_a_json_file_opens_it(window, controller, tmp_path):
    path = scenario_file(tmp_path, controller)
    mime, event = drop(window, [tmp_path / "notes.txt", path])
    enter = QDragEnterEvent(event.position().toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    window.dropEvent(event)
    assert controller.path == path and controller.scenario.name == "dropped"


@OLD_DRAG_ENTER
def test_drop_without_a_scenario_is_refused(window, controller, tmp_path):
    mime, event = drop(window, [tmp_path / "notes.txt"])
    enter = QDragEnterEvent(event.position().toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter.ignore()
    window.dragEnterEvent(enter)
    assert not enter.isAccepted()
    window.dropEvent(event)
    assert controller.path is None


def test_drop_asks_before_losing_work(window, controller, tmp_path, answers):
    queue, asked = answers
    make_dirty(controller)
    queue.append(Button.Cancel)
    mime, event = drop(window, [scenario_file(tmp_path, controller)])  # the event needs mime
    window.dropEvent(event)
    assert len(asked) == 1 and controller.path is None


def test_autosave_only_while_dirty(window, controller):
    def kept():
        window.autosave()
        window.autosaver.wait()
        return [recovery.read(p) for p in recovery.folder().glob("*.json")]

    assert kept() == []
    make_dirty(controller)
    [(data, source)] = kept()
    assert data == controller.data and source is None
    controller.undo_stack.undo()
    assert kept() == []


def test_undo_and_redo_actions_name_the_edit(window, controller):
    undo, redo = window.actions_["&Undo"], window.actions_["&Redo"]
    assert not undo.isEnabled() and not redo.isEnabled()
    assert undo.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    make_dirty(controller)
    assert undo.isEnabled() and USERS in undo.text()
    undo.trigger()
    assert controller.value(USERS) != 33 and redo.isEnabled()
    redo.trigger()
    assert controller.value(USERS) == 33


# --- recovery after a crash --------------------------------------------------------------
@pytest.mark.parametrize("answer", [Button.Yes, Button.Discard])
def test_recovery_after_a_crash_is_offered(catalog, windows, answers, tmp_path, answer):
    queue, asked = answers
    first = gui_app.Controller(catalog)
    first.recompute()
    source = tmp_path / "source.json"
    first.edit_many({USERS: 55, "name": "Work before the crash"}, "edit")
    first.wait_until_idle()
    left = recovery.folder() / "crashed.json"  # the autosave fired, then the program died
    left.parent.mkdir(parents=True, exist_ok=True)
    left.write_text(json.dumps({"source": str(source), "scenario": first.data}), "utf-8")

    window = windows(gui_app.Controller(catalog))
    window.controller.recompute()
    queue.append(answer)
    restored = gui_app.offer_recovery(window)
    window.autosaver.wait()
    assert len(asked) == 1 and recovery.orphans() == []  # adopted, or discarded
    assert left.is_file() == restored  # restored work keeps its file until saved
    assert restored == (answer == Button.Yes)
    if restored:
        assert window.controller.scenario.name == "Work before the crash"
        assert window.controller.value(USERS) == 55
        assert window.controller.path == source and window.controller.dirty
    else:
        assert window.controller.scenario.name != "Work before the crash"
        assert not window.controller.dirty


def test_no_recovery_question_after_a_clean_exit(window, answers):
    _, asked = answers
    assert gui_app.offer_recovery(window) is False
    assert asked == []


# --- language, preferences, help -----------------------------------------------------------
def test_preferences_switch_the_language_at_once(window, controller, qtbot):
    first = window.page(0)
    german_heading = translate(PAGES[0].title, "de")
    assert german_heading != PAGES[0].title
    dialog = window.show_preferences()
    assert isinstance(dialog, PreferencesDialog) and dialog.isVisible()
    assert window.actions_["&Preferences…"].shortcut() == QKeySequence(
        QKeySequence.StandardKey.Preferences)
    with qtbot.waitSignal(controller.language_changed):
        dialog.language.setCurrentIndex(dialog.language.findData("de"))
    assert files.LANGUAGE.read() == "de" and controller.language == "de"
    assert window.file_menu.title() == "&Datei"
    assert window.go_menu.title() == "&Gehe zu"
    assert window.actions_["&Preferences…"].text() == "&Einstellungen…"
    assert dialog.windowTitle() == "Einstellungen"
    assert german_heading in first.heading.text()
    assert window.steps.item(0).text() == german_heading
    window.go(1)  # a page made after the switch starts in German
    assert translate(PAGES[1].title, "de") in window.built[1].heading.text()
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    assert window.go_menu.title() == "&Go" and window.file_menu.title() == "&File"
    assert PAGES[0].title in first.heading.text()
    assert files.LANGUAGE.read() == "en"


def test_the_language_preference_is_used_at_start(user_config_dir, monkeypatch):
    assert gui_app.preferred_language() == text.system_language()
    files.LANGUAGE.write("de")
    assert gui_app.preferred_language() == "de"
    files.LANGUAGE.write("klingon")
    assert gui_app.preferred_language() == text.system_language()


def test_about_names_version_catalogs_and_offline(window, controller):
    dialog = window.show_about()
    assert isinstance(dialog, AboutDialog) and dialog.isVisible()
    shown = dialog.text.text()
    assert __version__ in shown and "offline" in shown
    for kind, version in controller.catalog.versions.items():
        assert kind in shown and version in shown
    dialog.close()


def test_sizing_method_shows_the_method_read_only(window):
    dialog = window.show_method()
    assert isinstance(dialog, MethodDialog) and dialog.browser.isReadOnly()
    assert "sizing method" in dialog.browser.toPlainText().lower()
    dialog.close()


def test_sizing_method_says_when_the_file_is_missing(qtbot, tmp_path):
    dialog = MethodDialog(path=tmp_path / "METHOD.md")
    qtbot.addWidget(dialog)
    assert "not found" in dialog.browser.toPlainText()
    assert str(tmp_path / "METHOD.md") in dialog.browser.toPlainText()


# --- window state and look ---------------------------------------------------------------
def test_geometry_is_window_state_saved_on_close_and_restored(controller, windows, catalog):
    first = windows(controller)
    first.show()
    first.resize(640, 480)
    assert first.close()
    assert not files.WINDOW_GEOMETRY.read().isEmpty()
    assert files.LANGUAGE.read() == ""  # window state does not touch preferences
    second = windows(gui_app.Controller(catalog))
    assert (second.width(), second.height()) == (640, 480)


def test_the_window_follows_the_system_palette(window):
    assert window.styleSheet() == "" and window.centralWidget().styleSheet() == ""
    app = QApplication.instance()
    original = app.palette()
    dark = QPalette(original)
    dark.setColor(QPalette.ColorRole.Window, QColor(30, 30, 30))
    dark.setColor(QPalette.ColorRole.WindowText, QColor(230, 230, 230))
    try:
        app.setPalette(dark)
        QApplication.processEvents()
        assert window.palette().color(QPalette.ColorRole.Window) == QColor(30, 30, 30)
        assert window.steps.palette().color(QPalette.ColorRole.WindowText) == QColor(230, 230,
                                                                                     230)
    finally:
        app.setPalette(original)
        QApplication.processEvents()


def test_busy_indicator_while_sizing(window, controller):
    controller.edit(USERS, 41)
    assert window.busy.text() == "Sizing…"
    controller.wait_until_idle()
    assert window.busy.text() == ""


def test_a_controller_outliving_its_window_keeps_working(controller, tmp_path):
    window = MainWindow(controller)
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del window
    make_dirty(controller, users=21)  # no slot of the deleted window may run
    controller.undo_stack.undo()
    controller.save(tmp_path / "s.json")
    assert controller.path == tmp_path / "s.json"
    assert controller.wait_until_idle() and not controller.dirty


def test_training_step_appears_only_for_training_rag_or_cpu(qtbot, controller):
    from app import api
    from app.ui.main_window import MainWindow
    from app.ui.pages import row_of

    window = MainWindow(controller)
    qtbot.addWidget(window)
    row = row_of("TrainingPage")
    assert window.steps.item(row).isHidden()
    controller.load(api.example("pretrain"), None)
    assert not window.steps.item(row).isHidden()
    controller.load(api.example("worked-example"), None)
    window.go(row - 1)
    window.go_next()
    assert window.steps.currentRow() == row + 1
    controller.undo_stack.setClean()


def test_export_and_verify_are_in_the_menus(qtbot, controller):
    from app.ui.main_window import MainWindow

    window = MainWindow(controller)
    qtbot.addWidget(window)
    assert "Export report…" in window.actions_
    assert "&Verify report…" in window.actions_
    export = window.show_export()
    verify = window.show_verify()
    assert export.isVisible() and verify.isVisible()
    export.close()
    verify.close()
