"""The Windows installer (NSIS, built on Linux with Debian's `nsis` package): per user, no
administrator rights, a Start-menu entry, an entry in Settings > Apps, an uninstaller. A
64-bit installer (``Target amd64-unicode``), like the program it installs.

    python packaging/build_windows.py --installer   # builds the folder, the zip, then this

It installs the folder packaging/build_windows.py made to
``%LOCALAPPDATA%\\Programs\\AI Sizer`` (the user may choose another), replacing the files of an
earlier version there, and never touches the user's settings in ``%APPDATA%\\AISizer``; the
uninstaller removes the program, its Start-menu entry, its registration under
``HKCU\\...\\Uninstall\\AISizer`` and the bytecode cache in ``%LOCALAPPDATA%\\AISizer``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import build_windows

SCRIPT = r"""Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma
RequestExecutionLevel user
Name "AI Sizer {version}"
OutFile "{out}"
Icon "{icon}"
UninstallIcon "{icon}"
InstallDir "$LOCALAPPDATA\Programs\AI Sizer"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\AISizer"
InstallDirRegKey HKCU "${{UNINSTALL_KEY}}" "InstallLocation"
VIProductVersion "{numeric}"
VIAddVersionKey /LANG=1033 "ProductName" "AI Sizer"
VIAddVersionKey /LANG=1033 "FileDescription" "AI Sizer {version} setup"
VIAddVersionKey /LANG=1033 "FileVersion" "{version}"
VIAddVersionKey /LANG=1033 "ProductVersion" "{version}"
VIAddVersionKey /LANG=1033 "LegalCopyright" "AI Sizer"

!include "MUI2.nsh"
!define MUI_ICON "{icon}"
!define MUI_UNICON "{icon}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\aisizer-gui.exe"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "German"

Section "AI Sizer"
  SetShellVarContext current
  ; An earlier version's files go first, so none of them stays behind beside the new ones.
  RMDir /r "$INSTDIR\lib"
  SetOutPath "$INSTDIR"
  File /r "{folder}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortCut "$SMPROGRAMS\AI Sizer.lnk" "$INSTDIR\aisizer-gui.exe" "" \
    "$INSTDIR\aisizer-gui.exe" 0
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "DisplayName" "AI Sizer"
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "DisplayVersion" "{version}"
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "Publisher" "AI Sizer"
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "DisplayIcon" "$INSTDIR\aisizer-gui.exe"
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${{UNINSTALL_KEY}}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${{UNINSTALL_KEY}}" "NoModify" 1
  WriteRegDWORD HKCU "${{UNINSTALL_KEY}}" "NoRepair" 1
  WriteRegDWORD HKCU "${{UNINSTALL_KEY}}" "EstimatedSize" {size_kb}
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\AI Sizer.lnk"
  RMDir /r "$INSTDIR\lib"
  Delete "$INSTDIR\aisizer.exe"
  Delete "$INSTDIR\aisizer-gui.exe"
  Delete "$INSTDIR\VERSION.txt"
  Delete "$INSTDIR\README.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  RMDir /r "$LOCALAPPDATA\AISizer\pycache"
  RMDir "$LOCALAPPDATA\AISizer"
  DeleteRegKey HKCU "${{UNINSTALL_KEY}}"
SectionEnd
"""


def script(folder: Path, out: Path, version: str, icon: Path) -> str:
    numbers = ([int(n) for n in re.findall(r"\d+", version)[:4]] + [0] * 4)[:4]
    size_kb = build_windows.windows_checks.folder_size(folder) // 1024
    return SCRIPT.format(version=version, out=out, icon=icon, folder=folder,
                         numeric=".".join(map(str, numbers)), size_kb=size_kb)


def build(folder: Path, dist: Path, version: str, identity) -> Path:
    """``dist/aisizer-<version>-windows-x86_64-setup.exe`` and its ``.sha256``."""
    makensis = shutil.which("makensis")
    if makensis is None:
        raise SystemExit("the installer needs makensis (Debian: apt-get install nsis)")
    # makensis runs in the folder of the .nsi: every path absolute
    folder, dist = Path(folder).resolve(), Path(dist).resolve()
    dist.mkdir(parents=True, exist_ok=True)
    out = dist / f"{build_windows.NAME}-{version}-windows-x86_64-setup.exe"
    nsi = folder.parent / "aisizer.nsi"
    nsi.write_text(script(folder, out, version, build_windows.PACKAGING / "icons" /
                          "aisizer.ico"), encoding="utf-8")
    subprocess.run([makensis, "-V2", "-INPUTCHARSET", "UTF8", str(nsi)], check=True)
    if identity is not None:
        build_windows.sign(out, identity)
    checksum = out.with_name(out.name + ".sha256")
    checksum.write_text(f"{build_windows.sha256(out)}  {out.name}\n", encoding="utf-8")
    return out
