"""Windows code paths, exercised on Linux: a file held open by another program when saving,
the configuration folder under %APPDATA%, folders with spaces and non-ASCII names, and the
crash message for a DLL that does not load."""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path

import pytest

from app import atomic, paths
from app.i18n import tr, translate

ROOT = Path(__file__).resolve().parents[2]


def windows_error(code: int) -> PermissionError:
    """What os.replace raises on Windows when the target is held (winerror set)."""
    exc = PermissionError(13, "The process cannot access the file because it is being used "
                              "by another process")
    exc.winerror = code
    return exc


class HeldFor:
    """os.replace that fails like Windows while another program holds the target."""

    def __init__(self, failures: int, code: int = atomic.ERROR_SHARING_VIOLATION):
        self.failures, self.code, self.calls = failures, code, 0
        self.real = atomic.os.replace

    def __call__(self, source, target):
        self.calls += 1
        if self.calls <= self.failures:
            raise windows_error(self.code)
        return self.real(source, target)


def test_a_briefly_held_file_is_replaced_after_a_retry(tmp_path, monkeypatch):
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")
    held = HeldFor(failures=2)
    monkeypatch.setattr(atomic.os, "replace", held)
    slept = []
    monkeypatch.setattr(atomic.time, "sleep", slept.append)
    atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert held.calls == 3 and slept == list(atomic.RETRY_DELAYS[:2])
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]  # no temporary file left


def test_a_file_held_open_gives_up_with_a_clear_message(tmp_path, monkeypatch):
    target = tmp_path / "Jörg Müller" / "my scenario.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    held = HeldFor(failures=100)
    monkeypatch.setattr(atomic.os, "replace", held)
    slept = []
    monkeypatch.setattr(atomic.time, "sleep", slept.append)
    with pytest.raises(atomic.FileInUseError) as caught:
        atomic.write_text(target, "new")
    assert isinstance(caught.value, PermissionError)  # callers catching OSError still do
    assert caught.value.strerror == atomic.IN_USE
    assert caught.value.filename == str(target)
    assert 1.5 <= sum(slept) <= 3.0  # about two seconds, then the user is told
    assert held.calls == len(atomic.RETRY_DELAYS) + 1
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in target.parent.iterdir()) == ["my scenario.json"]


def test_a_read_only_file_is_said_to_be_read_only_without_waiting(tmp_path, monkeypatch):
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")
    monkeypatch.setattr(atomic.os, "replace", HeldFor(100, atomic.ERROR_ACCESS_DENIED))
    monkeypatch.setattr(atomic, "_read_only", lambda path: True)
    monkeypatch.setattr(atomic.time, "sleep", lambda s: pytest.fail("no wait for read-only"))
    with pytest.raises(atomic.FileInUseError) as caught:
        atomic.write_bytes(target, b"new")
    assert caught.value.strerror == atomic.READ_ONLY


def test_other_permission_errors_are_raised_at_once(tmp_path, monkeypatch):
    def refused(source, target):
        raise PermissionError(13, "Permission denied")  # POSIX: no winerror

    monkeypatch.setattr(atomic.os, "replace", refused)
    monkeypatch.setattr(atomic.time, "sleep", lambda s: pytest.fail("no retry on POSIX"))
    with pytest.raises(PermissionError) as caught:
        atomic.write_bytes(tmp_path / "x", b"new")
    assert not isinstance(caught.value, atomic.FileInUseError)


def test_the_read_only_attribute_is_read_where_there_is_one(tmp_path):
    path = tmp_path / "x"
    path.write_bytes(b"")
    assert atomic._read_only(path) is bool(getattr(path.stat(), "st_file_attributes", 0)
                                           & getattr(stat, "FILE_ATTRIBUTE_READONLY", 1))
    assert atomic._read_only(tmp_path / "missing") is False


def test_the_messages_have_german():
    for text in (atomic.IN_USE, atomic.READ_ONLY):
        assert translate(text, "de") != text
        assert tr("Cannot save {path}: {reason}", "de", path="x.json", reason=text).startswith(
            "x.json kann nicht gespeichert werden: ")


def test_the_config_folder_is_appdata_without_an_author_level(monkeypatch):
    monkeypatch.delenv("AISIZER_CONFIG_DIR", raising=False)
    seen = {}

    def user_config_dir(appname, appauthor=None, version=None, roaming=False,
                        ensure_exists=False):
        seen.update(appname=appname, appauthor=appauthor, roaming=roaming)
        return f"C:\\Users\\Jörg Müller\\AppData\\Roaming\\{appname}"

    monkeypatch.setattr(paths.platformdirs, "user_config_dir", user_config_dir)
    assert str(paths.config_dir()).endswith("AppData\\Roaming\\AISizer")
    assert seen == {"appname": "AISizer", "appauthor": False, "roaming": True}
    assert paths.user_catalog_dir() == paths.config_dir() / "catalogs"


def test_platformdirs_puts_it_under_appdata_on_windows(monkeypatch):
    """platformdirs' Windows rules with the arguments app.paths passes, on Linux: the folder
    Windows names %APPDATA% (CSIDL_APPDATA), with no author level."""
    windows = pytest.importorskip("platformdirs.windows")
    monkeypatch.setattr(windows, "get_win_folder",
                        lambda csidl: {"CSIDL_APPDATA": "C:\\Users\\Jörg Müller\\AppData\\"
                                       "Roaming"}.get(csidl, "C:\\elsewhere"))
    folder = windows.Windows(appname="AISizer", appauthor=False, roaming=True).user_config_dir
    # os.path.join on Linux joins with "/"; Windows joins with "\\".
    assert folder.replace("/", "\\") == "C:\\Users\\Jörg Müller\\AppData\\Roaming\\AISizer"


def test_the_config_folder_may_have_spaces_and_umlauts(tmp_path, monkeypatch):
    folder = tmp_path / "Jörg Müller" / "App Data"
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(folder))
    written = atomic.write_text(paths.user_catalog_dir() / "gpus.toml", "catalog_version = 1\n")
    assert written.read_text(encoding="utf-8") == "catalog_version = 1\n"
    launcher = load_launcher()
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log = launcher.write_crash_log(*sys.exc_info())
    assert log.parent == folder / "crash-logs"
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")


def load_launcher():
    spec = importlib.util.spec_from_file_location("aisizer_launcher_w",
                                                  ROOT / "packaging" / "launcher.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_dll_that_does_not_load_gets_a_windows_message(tmp_path):
    launcher = load_launcher()
    exc = ImportError("DLL load failed while importing QtCore: The specified module could not "
                      "be found.")
    text = launcher.message_for(ImportError, exc, tmp_path / "crash.log")
    assert text.startswith("AI Sizer cannot start: Windows could not load QtCore")
    assert "keep the lib folder beside aisizer.exe" in text
    assert str(tmp_path / "crash.log") in text
