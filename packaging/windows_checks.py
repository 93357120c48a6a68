"""Checks of the Windows folder that run on Linux: what it must hold, what it must not, and
whether every DLL and extension module finds the DLLs it imports.

    python packaging/windows_checks.py dist/windows/aisizer     # both checks, one line each

:func:`check_imports` reads the import and delay-load import tables of every ``.exe``,
``.dll`` and ``.pyd`` (packaging/winpe.py) and resolves each name the way Windows would find
it for a Python extension module: the importing file's own folder, the embedded Python's
folder (the application folder), the folders that packages register with
``os.add_dll_directory`` when they are imported (:data:`DLL_DIRECTORIES`), else the Windows
system (:data:`SYSTEM_DLLS`, API sets ``api-ms-win-*``/``ext-ms-win-*``). A name found
nowhere, or found only in a folder Windows does not search for that file, is a problem.

:func:`check_manifest` checks the folder's contents against the build's rules
(:data:`REQUIRED`, :data:`FORBIDDEN`, the size limit).
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))

import slimming  # noqa: E402
import winpe  # noqa: E402

SIZE_LIMIT = 300 * 10**6  # bytes unpacked (the 300 MB)

# Where things are inside the folder (forward slashes, relative to the folder).
PYTHON_DIR = "lib/python"
SITE_PACKAGES = "lib/site-packages"

# Folders that a package adds to the DLL search path when it is imported, before it loads its
# extension modules: PySide6/__init__.py adds shiboken6/ (and puts PySide6/ on PATH for the Qt
# plugins), numpy/__init__.py adds numpy.libs/ (delvewheel). Relative to the folder.
DLL_DIRECTORIES = (f"{SITE_PACKAGES}/PySide6", f"{SITE_PACKAGES}/shiboken6",
                   f"{SITE_PACKAGES}/numpy.libs")

# DLLs that Windows 10 (1809 or newer, the oldest Qt 6 supports) and Windows 11 on x86-64
# have in System32, so the folder must not carry them. Sources: the Windows SDK's import
# libraries (um/x64/*.lib name these DLLs), Microsoft's "Windows API index"; icuuc.dll is the
# system ICU (Windows 10 1703 and newer), which Qt 6.12 uses; d3dcompiler_47.dll has been part
# of Windows since 8.1. The MSVC runtime (vcruntime140*.dll, msvcp140*.dll, concrt140.dll) is
# NOT here: it is not part of Windows, and the folder carries it.
SYSTEM_DLLS = frozenset("""
advapi32.dll authz.dll bcrypt.dll bcryptprimitives.dll cfgmgr32.dll comctl32.dll comdlg32.dll
crypt32.dll d2d1.dll d3d11.dll d3d12.dll d3d9.dll d3dcompiler_47.dll dbghelp.dll dcomp.dll
dnsapi.dll dwmapi.dll dwrite.dll dxgi.dll gdi32.dll gdiplus.dll glu32.dll icu.dll icuin.dll
icuuc.dll imagehlp.dll imm32.dll iphlpapi.dll kernel32.dll kernelbase.dll mpr.dll mscms.dll
msimg32.dll msvcrt.dll mswsock.dll ncrypt.dll netapi32.dll ntdll.dll odbc32.dll ole32.dll
oleacc.dll oleaut32.dll opengl32.dll powrprof.dll propsys.dll psapi.dll rpcrt4.dll
secur32.dll setupapi.dll shcore.dll shell32.dll shlwapi.dll ucrtbase.dll uiautomationcore.dll
urlmon.dll user32.dll userenv.dll usp10.dll uxtheme.dll version.dll winhttp.dll wininet.dll
winmm.dll winspool.drv wintrust.dll wldap32.dll ws2_32.dll wtsapi32.dll
""".split())  # noqa: SIM905 (a word list reads better than 68 quoted strings)
API_SET = re.compile(r"^(api|ext)-ms-win-[a-z0-9-]+\.dll$")
PE_SUFFIXES = (".exe", ".dll", ".pyd", ".drv")

# What the folder must hold (glob patterns, relative, forward slashes; each must match a file).
REQUIRED = (
    "aisizer.exe", "aisizer-gui.exe", "VERSION.txt",
    f"{PYTHON_DIR}/python.exe", f"{PYTHON_DIR}/pythonw.exe", f"{PYTHON_DIR}/python3*.dll",
    f"{PYTHON_DIR}/python3*.zip", f"{PYTHON_DIR}/python3*._pth",
    f"{PYTHON_DIR}/vcruntime140.dll",
    "lib/aisizer_launcher.py", "lib/app/__init__.py", "lib/app/cli.py", "lib/app/selftest.py",
    "lib/catalogs/*.toml", "lib/resources/fonts/DejaVuSans.ttf",
    "lib/resources/examples/worked-example.json", "lib/resources/icons/aisizer.png",
    "lib/docs/METHOD.md",
    f"{SITE_PACKAGES}/PySide6/Qt6Core.dll", f"{SITE_PACKAGES}/PySide6/Qt6Gui.dll",
    f"{SITE_PACKAGES}/PySide6/Qt6Widgets.dll", f"{SITE_PACKAGES}/PySide6/QtWidgets.pyd",
    f"{SITE_PACKAGES}/PySide6/plugins/platforms/qwindows.dll",
    f"{SITE_PACKAGES}/PySide6/plugins/platforms/qoffscreen.dll",
    f"{SITE_PACKAGES}/PySide6/translations/qtbase_de.qm",
    f"{SITE_PACKAGES}/shiboken6/shiboken6.abi3.dll",
    f"{SITE_PACKAGES}/numpy/__init__.py", f"{SITE_PACKAGES}/pydantic_core/*.pyd",
    f"{SITE_PACKAGES}/cryptography/hazmat/bindings/_rust.pyd",
    f"{SITE_PACKAGES}/pyhanko/sign/__init__.py", f"{SITE_PACKAGES}/reportlab/__init__.py",
    f"{SITE_PACKAGES}/pyqtgraph/__init__.py", f"{SITE_PACKAGES}/tzdata/zoneinfo/UTC",
    f"{SITE_PACKAGES}/platformdirs/__init__.py",
)

# What the folder must not hold (fnmatch patterns on the relative path, case-insensitive).
FORBIDDEN = (
    ("*/PySide6/qml/*", "QML modules"),
    ("*/PySide6/Qt6Quick*.dll", "Qt Quick"),
    ("*/PySide6/Qt6Qml*.dll", "QML"),
    ("*/PySide6/Qt6Designer*.dll", "Qt Designer"),
    ("*/PySide6/Qt6WebEngine*", "WebEngine"),
    ("*/PySide6/Qt6Network.dll", "Qt Network (the app is offline)"),
    ("*/PySide6/*.exe", "PySide6's developer tools (designer, lupdate, ...)"),
    ("*/PySide6/plugins/designer/*", "Designer plugins"),
    ("*/PySide6/plugins/tls/*", "TLS plugins (the app is offline)"),
    ("*/PySide6/plugins/qmltooling/*", "QML tooling"),
    ("*/PySide6/include/*", "C++ headers"),
    ("*/PySide6/metatypes/*", "build metadata"),
    ("*.lib", "import libraries"),
    ("*.pyi", "type stubs"),
    ("*/__pycache__/*", "bytecode from the build machine"),
    ("*/tests/*", "test suites"),
    ("*/pyqtgraph/examples/*", "pyqtgraph examples"),
    ("lib/app/*.po", "translation sources (the folder carries the compiled .mo)"),
)
TRANSLATION = re.compile(r".*/PySide6/translations/(?P<name>[^/]+\.qm)$")
KEPT_TRANSLATION = slimming.KEEP_TRANSLATIONS  # the languages the app speaks


@dataclass
class ImportReport:
    """What :func:`check_imports` found."""

    files: int = 0
    imports: int = 0
    system: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        verdict = "passed" if not self.problems else f"FAILED ({len(self.problems)} problems)"
        return (f"import tables {verdict}: {self.files} PE files, {self.imports} imported "
                f"names resolved; {len(self.system)} distinct Windows system DLLs and API "
                "sets needed")


def _relative(path: Path, folder: Path) -> str:
    return path.relative_to(folder).as_posix()


def pe_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and p.suffix.lower() in PE_SUFFIXES)


def is_system(name: str) -> bool:
    lowered = name.lower()
    return lowered in SYSTEM_DLLS or bool(API_SET.match(lowered))


def check_imports(folder: Path, files: Iterable[Path] | None = None) -> ImportReport:
    """Resolve every import of every PE file under ``folder`` (see the module docstring)."""
    folder = Path(folder)
    report = ImportReport()
    by_folder: dict[str, set[str]] = {}
    everywhere: dict[str, list[str]] = {}
    all_files = pe_files(folder)
    for path in all_files:
        parent = _relative(path.parent, folder) if path.parent != folder else ""
        by_folder.setdefault(parent, set()).add(path.name.lower())
        everywhere.setdefault(path.name.lower(), []).append(_relative(path, folder))
    searched_always = [PYTHON_DIR, *DLL_DIRECTORIES]
    for path in (list(files) if files is not None else all_files):
        rel = _relative(path, folder)
        try:
            pe = winpe.read(path)
        except winpe.PEError as exc:
            report.problems.append(f"{rel}: cannot be read as a PE file ({exc})")
            continue
        report.files += 1
        if pe.machine != "x86_64":
            report.problems.append(f"{rel}: built for {pe.machine}, not x86_64")
        own = _relative(path.parent, folder) if path.parent != folder else ""
        for name in pe.all_imports:
            report.imports += 1
            lowered = name.lower()
            if any(lowered in by_folder.get(where, ()) for where in (own, *searched_always)):
                continue
            if is_system(name):
                report.system.add(lowered)
                continue
            kind = "delay-load import" if name in pe.delay_imports and name not in \
                pe.imports else "import"
            if lowered in everywhere:
                report.problems.append(
                    f"{rel}: {kind} {name} is only in {', '.join(everywhere[lowered])}, a "
                    "folder Windows does not search for it")
            else:
                report.problems.append(f"{rel}: {kind} {name} is neither in the folder nor "
                                       "a Windows system DLL")
    return report


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def check_manifest(folder: Path, size_limit: int = SIZE_LIMIT) -> list[str]:
    """Problems with the folder's contents: required files missing, forbidden files present,
    translations other than German and English, a ``._pth`` that does not find the app, too
    large. An empty list means the folder passed."""
    folder = Path(folder)
    files = sorted(_relative(p, folder) for p in folder.rglob("*") if p.is_file())
    problems = []
    for pattern in REQUIRED:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in files):
            problems.append(f"missing: {pattern}")
    for name in files:
        lowered = name.lower()
        for pattern, what in FORBIDDEN:
            if fnmatch.fnmatchcase(lowered, pattern.lower()) or \
                    fnmatch.fnmatchcase("/" + lowered, pattern.lower()):
                problems.append(f"not wanted ({what}): {name}")
                break
        found = TRANSLATION.match("/" + name)
        if found and not KEPT_TRANSLATION.match(found.group("name")):
            problems.append(f"not wanted (translation other than German/English): {name}")
    problems += check_pth(folder)
    size = folder_size(folder)
    if size > size_limit:
        problems.append(f"{size / 1e6:.1f} MB unpacked, over the {size_limit / 1e6:.0f} MB limit")
    return problems


def check_pth(folder: Path) -> list[str]:
    """The embedded Python's ``._pth`` must put the standard library, site-packages and the
    folder holding ``app/`` on the path, and nothing outside the folder."""
    python = Path(folder) / PYTHON_DIR
    found = sorted(python.glob("python3*._pth"))
    if len(found) != 1:
        return [f"{PYTHON_DIR}: expected one python3*._pth, found {len(found)}"]
    entries = [line.strip() for line in found[0].read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.lstrip().startswith("#")]
    resolved = {os.path.normpath(str(PurePosixPath(PYTHON_DIR) / e.replace("\\", "/")))
                for e in entries if e != "import site"}
    problems = []
    wanted = {f"{PYTHON_DIR}/{found[0].stem}.zip": "the standard library",
              SITE_PACKAGES: "site-packages", "lib": "the folder holding app/"}
    for where, what in wanted.items():
        if os.path.normpath(where) not in resolved:
            problems.append(f"{found[0].name} does not list {what} ({where})")
    for entry in resolved:
        if entry.startswith(".."):
            problems.append(f"{found[0].name} reaches outside the folder: {entry}")
    return problems


def check_folder(folder: Path) -> bool:
    """Both checks on ``folder``, every problem and one summary line each printed; True when
    the folder passed."""
    folder = Path(folder)
    report = check_imports(folder)
    problems = check_manifest(folder)
    for problem in report.problems + problems:
        print(f"  {problem}", file=sys.stderr)
    print(report.summary())
    size = folder_size(folder)
    count = sum(1 for p in folder.rglob("*") if p.is_file())
    print(f"folder manifest {'passed' if not problems else 'FAILED'}: {count} files, "
          f"{size / 1e6:.1f} MB unpacked ({size / 2**20:.1f} MiB; limit "
          f"{SIZE_LIMIT / 1e6:.0f} MB)")
    return not (report.problems or problems)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.splitlines()[0], file=sys.stderr)
        print("usage: windows_checks.py FOLDER", file=sys.stderr)
        return 2
    return 0 if check_folder(Path(args[0])) else 1


if __name__ == "__main__":
    sys.exit(main())
