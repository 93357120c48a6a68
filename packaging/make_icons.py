"""Render the application icon from packaging/icons/aisizer.svg to PNG, ICO and ICNS.

    .venv/bin/python packaging/make_icons.py

Writes aisizer.png (256 px, Linux desktop entry and window icon), aisizer.ico (Windows:
16-256 px, PNG-compressed entries) and aisizer.icns (macOS: 16-1024 px, PNG entries) beside the
SVG. Needs only PySide6 (QtSvg renders the SVG); no Pillow. The outputs are committed, so a
build does not need to run this.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "icons"
SVG = HERE / "aisizer.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size.
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024))


def render_png(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SVG}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows ICO whose entries are PNG images (Windows Vista and later read these)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = 6 + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS ICNS with PNG elements."""
    body = b""
    for kind, size in ICNS_TYPES:
        png = pngs[size]
        body += kind + struct.pack(">I", 8 + len(png)) + png
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    sizes = sorted(set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: render_png(size) for size in sizes}
    (HERE / "aisizer.png").write_bytes(pngs[256])
    (HERE / "aisizer.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (HERE / "aisizer.icns").write_bytes(icns(pngs))
    for name in ("aisizer.png", "aisizer.ico", "aisizer.icns"):
        print(f"wrote {HERE / name} ({(HERE / name).stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
