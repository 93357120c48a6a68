"""Files the user cares about: atomic writes, settings, recent files."""

from __future__ import annotations

import os
import stat

import pytest
from PySide6.QtCore import QByteArray

from app.ui import files


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_atomic_writes_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "deep" / "scenario.json"
    files.write_atomic(target, "{}\n")
    assert target.read_text(encoding="utf-8") == "{}\n"
    assert leftovers(target.parent) == []


def test_failing_replace_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "scenario.json"
    target.write_text("old", encoding="utf-8")

    def broken_replace(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        files.write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_write_atomic_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "scenario.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    files.write_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_settings_are_declared_once_preferences_apart_from_window_state():
    preference_keys = {setting.key for setting in files.PREFERENCES}
    state_keys = {setting.key for setting in files.WINDOW_STATE}
    assert "language" in preference_keys
    assert "window/geometry" in state_keys
    assert not preference_keys & state_keys


def test_settings_read_their_default_and_what_was_written(user_config_dir):
    assert files.LANGUAGE.read() == ""
    assert files.WINDOW_GEOMETRY.read().isEmpty()
    files.LANGUAGE.write("de")
    files.WINDOW_GEOMETRY.write(QByteArray(b"\x01\x02geometry"))
    assert files.LANGUAGE.read() == "de"
    assert bytes(files.WINDOW_GEOMETRY.read()) == b"\x01\x02geometry"
    assert (user_config_dir / "aisizer.ini").is_file()


def test_recent_files_newest_first_without_duplicates(user_config_dir, tmp_path):
    paths = [tmp_path / f"s{i}.json" for i in range(files.MAX_RECENT + 2)]
    for path in paths:
        path.write_text("{}", encoding="utf-8")
        files.remember_recent(path)
    files.remember_recent(paths[3])
    recent = files.recent_files()
    assert len(recent) == files.MAX_RECENT
    assert recent[0] == paths[3].resolve()
    assert recent[1] == paths[-1].resolve()
    assert len(set(recent)) == len(recent)
    assert files.last_folder() == str(tmp_path.resolve())


def test_recent_files_forget_files_that_are_gone(user_config_dir, tmp_path):
    kept, gone = tmp_path / "kept.json", tmp_path / "gone.json"
    for path in (kept, gone):
        path.write_text("{}", encoding="utf-8")
        files.remember_recent(path)
    gone.unlink()
    assert files.recent_files() == [kept.resolve()]


def test_one_recent_file_reads_back_as_a_list(user_config_dir, tmp_path):
    only = tmp_path / "only.json"
    only.write_text("{}", encoding="utf-8")
    files.remember_recent(only)
    assert files.recent_files() == [only.resolve()]
