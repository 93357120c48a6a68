"""Fonts, paragraph styles and table styles of the report.

Only the bundled DejaVu Sans (regular and bold) is used, embedded as subsets: reportlab would
otherwise fall back to a non-embedded Helvetica for the page's initial font and for table
cells (docs ECOSYSTEM.md), so every style and every TableStyle names the font.
"""

from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Table, TableStyle

from app import paths

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
PAPER = {"a4": A4, "letter": LETTER}
MARGIN = 2.0 * cm
TOP_MARGIN = 2.4 * cm
BOTTOM_MARGIN = 2.2 * cm

INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
ACCENT = colors.HexColor("#1d4f91")
ACCENT_LIGHT = colors.HexColor("#d6e2f3")
RULE = colors.HexColor("#cbd2d9")
SHADE = colors.HexColor("#f3f5f7")
GOOD = colors.HexColor("#1e7b34")
BAD = colors.HexColor("#b42318")
WARN_BG = colors.HexColor("#fff4e5")


@cache
def register_fonts() -> None:
    """Register DejaVu Sans with reportlab (once per process)."""
    fonts = paths.resources_dir() / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(fonts / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(fonts / "DejaVuSans-Bold.ttf")))
    # <b> and <i> inside paragraphs map to these; no italic face is shipped.
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT,
                                  boldItalic=FONT_BOLD)


def _style(name: str, **kw) -> ParagraphStyle:
    base = {"fontName": FONT, "fontSize": 9.5, "leading": 13, "textColor": INK,
            "alignment": TA_LEFT}
    base.update(kw)
    return ParagraphStyle(name, **base)


@cache
def styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    return {
        "body": _style("body", spaceAfter=5),
        "small": _style("small", fontSize=8, leading=10.5, textColor=MUTED, spaceAfter=4),
        "cell": _style("cell", fontSize=8, leading=10),
        "cell_small": _style("cell_small", fontSize=7, leading=8.6),
        "cell_head": _style("cell_head", fontName=FONT_BOLD, fontSize=8, leading=10,
                            textColor=colors.white),
        "h1": _style("h1", fontName=FONT_BOLD, fontSize=15, leading=19, textColor=ACCENT,
                     spaceBefore=4, spaceAfter=8),
        "h2": _style("h2", fontName=FONT_BOLD, fontSize=11, leading=14, textColor=INK,
                     spaceBefore=8, spaceAfter=4),
        "bullet": _style("bullet", leftIndent=12, bulletIndent=2, spaceAfter=3),
        "code": _style("code", fontSize=7.5, leading=9.6, leftIndent=6, rightIndent=6,
                       backColor=SHADE, borderColor=RULE, borderWidth=0.5, borderPadding=5,
                       spaceBefore=4, spaceAfter=9, textColor=INK),
        "note": _style("note", fontSize=8.5, leading=11.5, backColor=WARN_BG,
                       borderPadding=5, spaceBefore=4, spaceAfter=9),
        "cover_title": _style("cover_title", fontName=FONT_BOLD, fontSize=24, leading=30,
                              textColor=ACCENT, spaceAfter=10),
        "cover_sub": _style("cover_sub", fontSize=14, leading=19, spaceAfter=24),
        "toc_title": _style("toc_title", fontName=FONT_BOLD, fontSize=15, leading=19,
                            textColor=ACCENT, spaceAfter=10),
        "toc1": _style("toc1", fontSize=10, leading=15),
        "toc2": _style("toc2", fontSize=9, leading=12, leftIndent=14, textColor=MUTED),
        "caption": _style("caption", fontSize=8, leading=10, textColor=MUTED,
                          alignment=TA_CENTER, spaceBefore=2, spaceAfter=10),
    }


def table(rows: list[list], widths: list[float] | None = None, header: bool = True,
          zebra: bool = True, extra: list[tuple] | None = None) -> Table:
    """A table in the report's look; every cell in DejaVu Sans (never Helvetica)."""
    commands: list[tuple] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("LEADING", (0, 0), (-1, -1), 10),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    if header:
        commands += [
            ("FONTNAME", (0, 0), (-1, 0), FONT_BOLD),
            ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
            ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ]
    if zebra:
        first = 1 if header else 0
        for row in range(first, len(rows)):
            if (row - first) % 2 == 1:
                commands.append(("BACKGROUND", (0, row), (-1, row), SHADE))
    commands += extra or []
    result = Table(rows, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
    result.setStyle(TableStyle(commands))
    return result
