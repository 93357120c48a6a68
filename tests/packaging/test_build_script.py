"""packaging/build.py helpers and the spec's portability, without running PyInstaller."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_build():
    spec = importlib.util.spec_from_file_location("aisizer_build",
                                                  ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_comes_from_the_package():
    from app import __version__

    assert load_build().version() == __version__


def test_archive_and_checksum(tmp_path):
    build = load_build()
    bundle = tmp_path / "aisizer"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "aisizer").write_text("#!/bin/sh\n", encoding="utf-8")
    (bundle / "_internal" / "data.txt").write_text("x", encoding="utf-8")
    target = build.archive(bundle)
    assert re.fullmatch(rf"aisizer-{re.escape(build.version())}-[a-z]+-[a-z0-9_]+\.tar\.gz",
                        target.name)
    checksum = target.with_name(target.name + ".sha256").read_text(encoding="utf-8")
    assert checksum == f"{hashlib.sha256(target.read_bytes()).hexdigest()}  {target.name}\n"
    with tarfile.open(target) as archive:
        names = archive.getnames()
        assert "aisizer/aisizer" in names and "aisizer/_internal/data.txt" in names
        assert all(member.uid == 0 and member.uname == "" for member in archive.getmembers())


def test_folder_size_counts_files(tmp_path):
    (tmp_path / "a").write_bytes(b"x" * 1000)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b").write_bytes(b"y" * 24)
    assert load_build().folder_size(tmp_path) == 1024


def test_the_spec_has_no_linux_only_calls():
    text = (ROOT / "packaging" / "aisizer.spec").read_text(encoding="utf-8")
    for forbidden in ("/usr/", "/lib/", "subprocess", "os.system", "'/'", '"/".join'):
        assert forbidden not in text, forbidden
    for platform in ("win32", "darwin"):
        assert platform in text
    for icon in ("aisizer.ico", "aisizer.icns", "aisizer.png"):
        assert icon in text
        assert (ROOT / "packaging" / "icons" / icon).is_file()


def test_icons_are_what_they_claim():
    icons = ROOT / "packaging" / "icons"
    assert (icons / "aisizer.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (icons / "aisizer.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (icons / "aisizer.icns").read_bytes()[:4] == b"icns"


def test_desktop_entry():
    lines = (ROOT / "packaging" / "aisizer.desktop").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[Desktop Entry]"
    fields = dict(line.split("=", 1) for line in lines[1:] if "=" in line)
    assert fields["Type"] == "Application"
    assert fields["Name"] == "AI Sizer"
    assert fields["Exec"].startswith("aisizer gui")
    assert fields["Icon"] == "aisizer"
    assert fields["Terminal"] == "false"
    assert fields["Categories"].endswith(";")
