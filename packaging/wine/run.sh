#!/bin/sh
# Run the Windows folder under Wine on Linux: `make windows-wine`, or
#     sh packaging/wine/run.sh build/windows/aisizer
#
# Wine 10.0 from Debian 13 (trixie), in a chroot made with debootstrap (build/wine-trixie, or
# AISIZER_WINE_CHROOT), first made with network to the Debian mirror (DEBIAN_MIRROR), reused
# after. Needs root (debootstrap, chroot, unshare). The folder is copied to a path with a
# space and umlauts ("Jörg Müller"). Three steps, each printed as it runs:
#
#   1. plain Wine: the embedded Python starts, then each top-level module is imported in a
#      process of its own (an unimplemented Wine function aborts the whole process);
#   2. Wine with two test-only stand-ins that are never shipped: the five trivial complex
#      accessors Wine's ucrtbase leaves unimplemented (wine/patch_ucrtbase.py; numpy needs
#      crealf at import) and a stub icuuc.dll (wine/icuuc_stub.c; Qt 6.12 imports the system
#      ICU's converters, which Wine does not have);
#   3. with those: `aisizer.exe selftest` in a new network namespace (unshare -n), and the
#      window's screenshot mode (PNGs to build/wine-screenshots).
#
# Exit status: that of the selftest in step 3.
set -eu

FOLDER=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CHROOT=${AISIZER_WINE_CHROOT:-$ROOT/build/wine-trixie}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SHOTS=$ROOT/build/wine-screenshots
WORK=/opt/aisizer-wine
TARGET="$WORK/Jörg Müller/aisizer"

if [ "$(id -u)" -ne 0 ]; then
    echo "windows-wine needs root (debootstrap, chroot, unshare -n)." >&2
    exit 1
fi
if [ ! -f "$CHROOT/etc/debian_version" ]; then
    command -v debootstrap >/dev/null 2>&1 || apt-get install -y --no-install-recommends debootstrap
    echo "==> debootstrap trixie $CHROOT ($MIRROR)"
    debootstrap --variant=minbase trixie "$CHROOT" "$MIRROR"
fi

mounted=""
cleanup() {
    for point in $mounted; do umount "$point" 2>/dev/null || umount -l "$point" || true; done
}
trap cleanup EXIT INT TERM
for point in proc dev; do
    if ! mountpoint -q "$CHROOT/$point"; then
        case $point in
            proc) mount -t proc proc "$CHROOT/proc" ;;
            dev) mount --bind /dev "$CHROOT/dev" ;;
        esac
        mounted="$CHROOT/$point $mounted"
    fi
done

WINE_DEBUG=-all
inside() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 WINEPREFIX=/root/.wine-aisizer WINEDEBUG="$WINE_DEBUG" XDG_RUNTIME_DIR=/tmp \
    QT_QPA_PLATFORM=offscreen "$@"; }
# Offline: a new network namespace holding only a loopback interface, brought up (on Windows
# socket.socketpair() connects over 127.0.0.1, and asyncio makes one; real Windows always has
# loopback).
offline() { unshare -n sh -c 'ip link set lo up 2>/dev/null || true; exec "$@"' sh "$@"; }
offline_inside() { offline chroot "$CHROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root \
    LANG=C.UTF-8 WINEPREFIX=/root/.wine-aisizer WINEDEBUG=-all XDG_RUNTIME_DIR=/tmp \
    QT_QPA_PLATFORM=offscreen "$@"; }

if ! inside sh -c 'command -v wine && command -v x86_64-w64-mingw32-gcc && command -v python3' \
        >/dev/null 2>&1; then
    echo "==> installing Wine, Python and MinGW in the chroot"
    inside sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
        --no-install-recommends wine wine64 python3-minimal gcc-mingw-w64-x86-64-win32 \
        binutils-mingw-w64-x86-64'
fi
echo "==> $(inside wine --version) in Debian $(cat "$CHROOT/etc/debian_version")"

rm -rf "$CHROOT$WORK"
mkdir -p "$CHROOT$WORK/tools/wine" "$(dirname "$CHROOT$TARGET")"
cp "$ROOT/packaging/winpe.py" "$CHROOT$WORK/tools/"
cp "$HERE/patch_ucrtbase.py" "$HERE/icuuc_stub.c" "$CHROOT$WORK/tools/wine/"
cp -r "$FOLDER" "$CHROOT$TARGET"
python="$TARGET/lib/python/python.exe"
in_folder() { inside sh -c 'cd "$1" && shift && exec "$@"' sh "$TARGET" "$@"; }

MODULES="pydantic_core pydantic cryptography.hazmat.bindings._rust PIL._imaging lxml.etree
    reportlab.pdfgen.canvas pyhanko.sign numpy shiboken6 PySide6.QtCore PySide6.QtGui
    PySide6.QtWidgets pyqtgraph app.api app.ui.app"
probe() {  # import each module in its own process (an unimplemented function aborts it all)
    failed=""
    for module in $1; do
        # setsid: Wine's crash handler signals its whole process group, this script with it.
        out=$(WINE_DEBUG=err+module setsid -w chroot "$CHROOT" /usr/bin/env -i \
              PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 WINEPREFIX=/root/.wine-aisizer \
              WINEDEBUG=err+module XDG_RUNTIME_DIR=/tmp QT_QPA_PLATFORM=offscreen \
              sh -c 'cd "$1" && timeout 300 wine "$2" -c "import $3"' sh "$TARGET" \
              "$python" "$module" 2>&1 < /dev/null && echo "exit=0" || echo "exit=$?")
        out=$(printf '%s\n' "$out" | tr -d '\000')
        code=$(printf '%s\n' "$out" | sed -n 's/^exit=//p' | tail -1)
        if [ "$code" = 0 ]; then
            echo "    ok      import $module"
        else
            failed="$failed $module"
            why=$(printf '%s\n' "$out" | grep -m1 -E 'unimplemented function|not found' \
                  || printf '%s\n' "$out" | grep -v '^exit=' | tail -1)
            echo "    FAILED  import $module (exit $code): $why"
        fi
    done
}

UCRT=$(inside sh -c 'ls /usr/lib/*/wine/x86_64-windows/ucrtbase.dll')
if [ -f "$CHROOT$UCRT.orig" ]; then mv "$CHROOT$UCRT.orig" "$CHROOT$UCRT"; fi  # an interrupted run
rm -f "$CHROOT/root/.wine-aisizer/drive_c/windows/system32/icuuc.dll"

echo "==> 1. plain Wine"
in_folder timeout 300 wine "$python" -c \
    "import sys, platform; print('   ', sys.version.split()[0], platform.platform())" 2>&1 \
    | tr -d '\000' | grep -v '^wine: created\|XDG_RUNTIME_DIR\|rundll32' || true
in_folder timeout 300 wine "$TARGET/aisizer.exe" --version 2>&1 | tr -d '\000' | tail -1 \
    | sed 's/^/    aisizer.exe --version: /'
probe "$MODULES"

restore() {
    if [ -f "$CHROOT$UCRT.orig" ]; then mv "$CHROOT$UCRT.orig" "$CHROOT$UCRT"; fi
    rm -f "$CHROOT/root/.wine-aisizer/drive_c/windows/system32/icuuc.dll"
    cleanup
}
trap restore EXIT INT TERM
echo "==> 2. Wine with the test-only stand-ins (crealf & co. in ucrtbase, a stub icuuc.dll)"
inside python3 "$WORK/tools/wine/patch_ucrtbase.py" "$UCRT" | sed 's/^/    /'
inside x86_64-w64-mingw32-gcc -shared -O2 -s -o "$WORK/tools/icuuc.dll" \
    "$WORK/tools/wine/icuuc_stub.c"
cp "$CHROOT$WORK/tools/icuuc.dll" "$CHROOT/root/.wine-aisizer/drive_c/windows/system32/"
if [ -n "$failed" ]; then probe "$failed"; else echo "    (nothing failed in step 1)"; fi

echo "==> 3. aisizer.exe selftest in a network namespace (unshare -n)"
log="$CHROOT$WORK/selftest.log"
offline_inside sh -c 'cd "$1" && timeout 600 wine aisizer.exe selftest; echo "selftest exit \
status: $?"' sh "$TARGET" > "$log" 2>&1 || true
tr -d '\000' < "$log" | grep -E '^(PASS|FAIL|selftest)' | sed 's/^/    /'
status=$(tr -d '\000' < "$log" | sed -n 's/^selftest exit status: //p')
status=${status:-1}
echo "==> 4. the window's screenshot mode (aisizer.exe gui --screenshot-dir), offline"
rm -rf "$CHROOT$WORK/shots" && mkdir -p "$CHROOT$WORK/shots"
offline_inside sh -c 'cd "$1" && timeout 600 wine aisizer.exe gui --screenshot-dir "Z:$2"' \
    sh "$TARGET" "$WORK/shots" > "$CHROOT$WORK/shots.log" 2>&1 \
    || { echo "    screenshot mode exited with $?:"; tr -d '\000' < "$CHROOT$WORK/shots.log" \
         | grep -v '^[[:space:]]' | tail -5 | sed 's/^/      /'; }
rm -rf "$SHOTS" && mkdir -p "$SHOTS"
if cp "$CHROOT$WORK/shots/"*.png "$SHOTS/" 2>/dev/null; then
    echo "    $(ls "$SHOTS" | wc -l) PNGs in $SHOTS"
else
    echo "    no screenshots written"
fi
SETUP=$(ls "$ROOT"/dist/aisizer-*-windows-x86_64-setup.exe 2>/dev/null | tail -1)
if [ -n "$SETUP" ]; then
    echo "==> 5. the installer, silently (/S), into a folder with a space, then the uninstaller"
    cp "$SETUP" "$CHROOT$WORK/setup.exe"
    place='C:\users\root\AppData\Local\Programs\AI Sizer'
    unix="$CHROOT/root/.wine-aisizer/drive_c/users/root/AppData/Local/Programs/AI Sizer"
    rm -rf "$unix"
    inside sh -c 'timeout 900 wine "$1" /S' sh "$WORK/setup.exe" >/dev/null 2>&1 \
        && echo "    installed: $(ls "$unix" | tr '\n' ' ')" || echo "    the installer failed ($?)"
    inside sh -c 'timeout 300 wine "$1\aisizer.exe" --version' sh "$place" 2>&1 \
        | tr -d '\000' | tail -1 | sed 's/^/    installed aisizer.exe --version: /'
    lnk="$CHROOT/root/.wine-aisizer/drive_c/users/root/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/AI Sizer.lnk"
    [ -f "$lnk" ] && echo "    Start-menu entry: present" || echo "    Start-menu entry: MISSING"
    inside sh -c 'wine reg query "HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\AISizer" /v DisplayVersion' \
        2>/dev/null | tr -d '\000\r' | grep DisplayVersion | sed 's/^ */    registered: /' || true
    inside sh -c 'timeout 300 wine "$1\uninstall.exe" /S' sh "$place" >/dev/null 2>&1 || true
    # The NSIS uninstaller copies itself to a temporary folder and returns at once: wait.
    for _ in $(seq 90); do [ -e "$unix" ] || [ -f "$lnk" ] || break; sleep 2; done
    if [ -e "$unix" ] || [ -f "$lnk" ]; then echo "    after uninstall: files left: $(ls "$unix" 2>/dev/null | tr '\n' ' ')"
    else echo "    after uninstall: the folder and the Start-menu entry are gone"; fi
fi
exit "$status"
