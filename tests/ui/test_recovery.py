"""Recovery of unsaved work (issue 14, "Edits that get lost"): a copy about a second after each
change, written off the GUI thread; kept until saved or discarded; one lock per window; a
full disk told once; the file dialogs' settings in the configuration folder; a real crash."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue

import pytest
from PySide6.QtWidgets import QMessageBox

from app import paths
from app.ui import app as gui_app
from app.ui import recovery
from app.ui.main_window import MainWindow

USERS = "workload.concurrent_users"
Button = QMessageBox.StandardButton
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def answers(message_answers, user_config_dir):
    return message_answers


@pytest.fixture
def windows(qtbot, catalog):
    """Makes main windows with their own controllers; closes them cleanly at the end."""
    made = []

    def make():
        controller = gui_app.Controller(catalog)
        controller.recompute()
        made.append(MainWindow(controller))
        return made[-1]

    yield make
    for win in made:
        win.controller.wait_until_idle()
        win.controller.undo_stack.setClean()
        win.close()
        win.deleteLater()


def edit(window, users=33):
    assert window.controller.edit(USERS, users) == []
    window.controller.wait_until_idle()


def copies() -> list[Path]:
    return sorted(recovery.folder().glob("*.json")) if recovery.folder().is_dir() else []


def kept_users(path: Path) -> int:
    return json.loads(path.read_text(encoding="utf-8"))["scenario"]["workload"]["concurrent_users"]


def crashed_copy(users=55, name="crashed") -> Path:
    """A recovery file left by a window whose process died (no lock held)."""
    data = gui_app.api.example("worked-example")
    data["workload"]["concurrent_users"] = users
    path = recovery.folder() / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"source": None, "scenario": data}), encoding="utf-8")
    return path


# --- 1. within a second or two, off the GUI thread ---------------------------------------
def test_an_edit_is_on_disk_within_two_seconds_written_off_the_gui_thread(
        windows, qtbot, monkeypatch):
    threads = []
    write = recovery.atomic.write_text

    def recorded(path, text, *args):
        threads.append(threading.current_thread())
        return write(path, text, *args)

    monkeypatch.setattr(recovery.atomic, "write_text", recorded)
    window = windows()
    assert recovery.DELAY_MS <= 2000  # the design: written a second or two after a change
    edit(window, 4321)
    # the wall time is measured outside the suite (a loaded machine stretches it); here the
    # copy must come without a further edit or a timer of the old minute
    qtbot.waitUntil(lambda: bool(copies()) and kept_users(copies()[0]) == 4321, timeout=15000)
    assert threads and all(th is not threading.main_thread() for th in threads)
    window.controller.undo_stack.undo()  # back to the saved state: nothing left to recover
    qtbot.waitUntil(lambda: not copies(), timeout=2000)


# --- 2. kept until saved or discarded ----------------------------------------------------
def test_restored_work_keeps_its_file_so_a_second_crash_loses_nothing(windows, answers, qtbot):
    queue, asked = answers
    left = crashed_copy(55)
    first = windows()
    queue.append(Button.Yes)
    assert gui_app.offer_recovery(first) is True
    assert first.controller.value(USERS) == 55 and first.controller.dirty
    first.autosaver.wait()
    assert copies() == [left] and kept_users(left) == 55  # still there after the restore
    edit(first, 66)
    qtbot.waitUntil(lambda: kept_users(left) == 66, timeout=2000)
    first.autosaver.lock.unlock()  # the second crash: the process and its lock are gone
    first.autosaver.closed = True

    second = windows()
    queue.append(Button.Yes)
    assert gui_app.offer_recovery(second) is True and len(asked) == 2
    assert second.controller.value(USERS) == 66


def test_discard_deletes_the_copy_and_cancel_keeps_it(windows, answers):
    queue, _ = answers
    left = crashed_copy()
    queue.append(Button.Cancel)
    assert gui_app.offer_recovery(windows()) is False
    assert left.is_file()
    window = windows()
    queue.append(Button.Discard)
    assert gui_app.offer_recovery(window) is False
    window.autosaver.wait()
    assert not left.is_file() and recovery.orphans() == []


def test_saving_removes_the_copy(windows, qtbot, tmp_path):
    window = windows()
    edit(window)
    window.autosave()
    window.autosaver.wait()
    assert len(copies()) == 1
    assert window.write(tmp_path / "saved.json")
    qtbot.waitUntil(lambda: not copies(), timeout=2000)


@pytest.mark.parametrize("content", ["{not json", "[]", '{"source": null}',
                                     '{"scenario": "text"}', "[" * 100_000])
def test_a_damaged_recovery_file_offers_nothing(user_config_dir, content):
    recovery.folder().mkdir()
    (recovery.folder() / "damaged.json").write_text(content, encoding="utf-8")
    assert recovery.orphans() == []


def test_the_single_file_of_earlier_versions_is_offered_and_removed_once_copied(
        windows, answers, user_config_dir, qtbot):
    queue, _ = answers
    legacy = user_config_dir / recovery.LEGACY_NAME
    legacy.write_text(crashed_copy(58).read_text(encoding="utf-8"), encoding="utf-8")
    (recovery.folder() / "crashed.json").unlink()
    window = windows()
    queue.append(Button.Yes)
    assert gui_app.offer_recovery(window) is True and window.controller.value(USERS) == 58
    qtbot.waitUntil(lambda: not legacy.exists(), timeout=2000)
    [mine] = copies()
    assert kept_users(mine) == 58


# --- 3. one lock per window --------------------------------------------------------------
def test_a_second_window_neither_claims_nor_deletes_the_first_ones_copy(windows, answers):
    _, asked = answers
    first = windows()
    edit(first, 77)
    first.autosave()
    first.autosaver.wait()
    [mine] = copies()
    second = windows()
    assert gui_app.offer_recovery(second) is False and asked == []
    second.autosave()
    second.autosaver.wait()
    assert mine.is_file() and kept_users(mine) == 77


# --- 4. a full disk is told once ---------------------------------------------------------
def test_a_full_disk_is_told_once_and_retried_quietly(windows, qtbot, monkeypatch):
    write = recovery.atomic.write_text

    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(recovery.atomic, "write_text", full)
    window = windows()
    told = []
    window.autosaver.failed.connect(told.append)
    for users in (31, 32, 33):
        edit(window, users)
        window.autosave()
        window.autosaver.wait()
        qtbot.wait(20)
    assert told == ["No space left on device"]
    assert not window.autosave_warning.isHidden()
    assert "No space left on device" in window.autosave_warning.text()
    assert window.autosaver.timer.isActive()  # the quiet retry
    assert window.autosaver.timer.interval() == recovery.RETRY_MS
    monkeypatch.setattr(recovery.atomic, "write_text", write)
    window.autosave()
    qtbot.waitUntil(lambda: window.autosave_warning.isHidden(), timeout=2000)
    assert kept_users(copies()[0]) == 33 and told == ["No space left on device"]


def test_an_unwritable_folder_is_told_not_raised(windows, qtbot, user_config_dir):
    (user_config_dir / "recovery").write_text("a file where the folder should be")
    window = windows()
    edit(window)
    window.autosave()
    qtbot.waitUntil(lambda: not window.autosave_warning.isHidden(), timeout=2000)


# --- 5. the file dialogs' settings stay in the configuration folder ----------------------
DIALOG = """
from PySide6.QtWidgets import QApplication, QFileDialog
from app.ui.app import application
app = application()
dialog = QFileDialog(None, "Open", "")
dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
dialog.show()
app.processEvents()
dialog.close()
del dialog
app.processEvents()
"""


def child_env(tmp_path: Path, config: Path) -> dict:
    return {**os.environ, "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME":
            str(tmp_path / "xdg"), "AISIZER_CONFIG_DIR": str(config),
            "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}


def test_file_dialogs_write_no_qtproject_conf_outside_the_config_folder(tmp_path):
    config = tmp_path / "config"
    subprocess.run([sys.executable, "-c", DIALOG], env=child_env(tmp_path, config),
                   check=True, timeout=120, cwd=ROOT)
    outside = [p for p in tmp_path.rglob("QtProject.conf") if config not in p.parents]
    assert outside == []
    assert (config / "QtProject.conf").is_file()  # the dialog did write its history


# --- 6. a real crash ---------------------------------------------------------------------
CHILD = """
import time
from PySide6.QtCore import QTimer
from app.ui.app import application, make_window
app = application()
window = make_window()
window.show()
window.controller.wait_until_idle()
def edit():
    assert window.controller.edit("workload.concurrent_users", 4321) == []
    print("edited", time.time(), flush=True)
QTimer.singleShot(0, edit)
app.exec()
"""


# The child starts Qt, sizes the worked example and edits: seconds on an idle machine, a minute
# or two on a loaded one. Past this the test fails instead of waiting for ever (CI hangs).
CHILD_DEADLINE_S = 180.0


def first_line(child: subprocess.Popen, deadline_s: float) -> str:
    """The child's first line of output, read by a helper thread so that a child that hangs
    before printing fails the test after ``deadline_s`` (a plain ``readline()`` never returns)."""
    lines: Queue[str] = Queue()
    threading.Thread(target=lambda: lines.put(child.stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=deadline_s)
    except Empty:
        pytest.fail(f"the child printed nothing within {deadline_s:.0f} s "
                    f"(still running: {child.poll() is None})", pytrace=False)


def test_killed_two_and_a_half_seconds_after_an_edit_the_edit_is_recovered(
        tmp_path, user_config_dir, windows, answers):
    queue, _ = answers
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, env=child_env(tmp_path, user_config_dir))
    try:
        line = first_line(child, CHILD_DEADLINE_S)
        assert line.startswith("edited"), line
        edited = float(line.split()[1])
        while time.time() < edited + 2.5:
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
        child.stdout.close()
    [left] = copies()
    assert left.with_suffix(".lock").is_file()  # the dead process's lock is still there
    window = windows()
    queue.append(Button.Yes)
    assert gui_app.offer_recovery(window) is True
    assert window.controller.value(USERS) == 4321 and window.controller.dirty
    window.controller.undo_stack.setClean()
    window.close()  # a clean end: neither the copy nor any lock is left
    assert list(recovery.folder().iterdir()) == []


def test_a_dead_windows_lock_without_a_copy_is_cleared(windows, user_config_dir):
    recovery.folder().mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "from PySide6.QtCore import QLockFile; import os, sys; "
         "lock = QLockFile(sys.argv[1]); assert lock.tryLock(0); os._exit(0)",
         str(recovery.folder() / "dead.lock")], check=True, timeout=60)
    assert dead.returncode == 0 and (recovery.folder() / "dead.lock").is_file()
    assert recovery.orphans() == []
    assert not (recovery.folder() / "dead.lock").exists()


def test_the_configuration_folder_holds_the_recovery_folder(user_config_dir):
    assert recovery.folder() == paths.config_dir() / "recovery" == user_config_dir / "recovery"
