#!/bin/sh
# Add AI Sizer to the desktop's application menu for the current user (no root needed).
#
#     ./install-desktop-entry.sh            install (run it from the unpacked aisizer/ folder)
#     ./install-desktop-entry.sh --remove   remove the menu entry and icon again
#
# Writes ~/.local/share/applications/aisizer.desktop (Exec pointing at this folder's aisizer)
# and ~/.local/share/icons/hicolor/256x256/apps/aisizer.png. Nothing else is changed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
entry="$data/applications/aisizer.desktop"
icon="$data/icons/hicolor/256x256/apps/aisizer.png"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$entry" "$icon"
    echo "Removed $entry and $icon"
    exit 0
fi
mkdir -p "$(dirname "$entry")" "$(dirname "$icon")"
cp "$here/_internal/resources/icons/aisizer.png" "$icon"
sed -e "s|^Exec=aisizer |Exec=\"$here/aisizer\" |" -e "s|^TryExec=aisizer$|TryExec=$here/aisizer|" \
    "$here/aisizer.desktop" > "$entry"
chmod 644 "$entry"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$data/applications" || true
echo "Installed $entry (runs $here/aisizer)"
