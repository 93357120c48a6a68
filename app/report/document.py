"""The PDF document: page templates, header and footer, contents, and the signature block.

:func:`render` lays out the chapters of :mod:`app.report.chapters` with reportlab's platypus
in invariant mode (no time stamps or random ids), so the same result, language, paper and
date give the same bytes. It returns the PDF and, when a signer is given, where the visible
signature block landed (page and rectangle), so that the signature field can be placed over
it.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass

from reportlab.lib.units import cm
from reportlab.lib.utils import TimeStamp
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from app.domain.result import SizingResult
from app.report.accuracy import Accuracy
from app.report.chapters import SECTIONS
from app.report.chapters.cover import cover
from app.report.chapters.signature import section_signature
from app.report.context import Context, Signer
from app.report.flowables import Heading, para
from app.report.identity import grouped
from app.report.style import (
    ACCENT,
    BOTTOM_MARGIN,
    FONT,
    FONT_BOLD,
    INK,
    MARGIN,
    MUTED,
    PAPER,
    RULE,
    SHADE,
    TOP_MARGIN,
    register_fonts,
    styles,
)
from app.report.text import markup, t


@dataclass(frozen=True)
class SignatureBox:
    """Where the visible signature block is: page index (0-based) and rectangle [pt]."""

    page: int
    box: tuple[float, float, float, float]


class SignatureBlock(Flowable):
    """The visible signature: who signed, when, and the certificate's fingerprint."""

    HEIGHT = 4.1 * cm

    def __init__(self, signer: Signer, lang: str, width: float):
        super().__init__()
        self.signer, self.lang, self.width, self.height = signer, lang, width, self.HEIGHT
        self.placed: SignatureBox | None = None

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self) -> None:
        c, s, lang = self.canv, self.signer, self.lang
        c.saveState()
        c.setFillColor(SHADE)
        c.setStrokeColor(ACCENT)
        c.setLineWidth(1)
        c.roundRect(0, 0, self.width, self.height, 4, stroke=1, fill=1)
        c.setFillColor(ACCENT)
        c.setFont(FONT_BOLD, 10)
        top = self.height - 16
        c.drawString(10, top, t(lang, "Digitally signed (PAdES baseline B-B)"))
        groups = grouped(s.fingerprint).split()  # 16 groups of four, read aloud in two lines
        fingerprint_lines = (" ".join(groups[:8]), " ".join(groups[8:]))
        lines = [
            (t(lang, "Signer"), s.name),
            (t(lang, "Organisation"), s.organisation or "–"),
            (t(lang, "Email"), s.email or "–"),
            (t(lang, "Signing time"), s.signing_time),
            (t(lang, "Certificate issuer"), t(lang, s.issuer)),
            (t(lang, "SHA-256 fingerprint"), fingerprint_lines[0]),
            ("", fingerprint_lines[1]),
        ]
        y = top - 15
        for label, value in lines:
            c.setFillColor(MUTED)
            c.setFont(FONT, 7.5)
            c.drawString(10, y, label)
            c.setFillColor(INK)
            c.setFont(FONT_BOLD if label == t(lang, "Signer") else FONT, 8)
            c.drawString(118, y, value)
            y -= 11.5
        c.restoreState()
        x, y = c.absolutePosition(0, 0)
        self.placed = SignatureBox(c.getPageNumber() - 1, (x, y, x + self.width, y + self.height))


HEADER_SIZE = 7.5  # pt, header and footer
HEADER_GAP = 12.0  # pt between the header's title and customer


def fit(text: str, room: float, size: float = HEADER_SIZE) -> str:
    """``text`` cut at a word (with an ellipsis) to fit ``room`` points in the header font."""
    if stringWidth(text, FONT, size) <= room:
        return text
    words = text.split()
    while words:
        words.pop()
        cut = " ".join(words).rstrip(",;:·-–") + " …"
        if stringWidth(cut, FONT, size) <= room:
            return cut
    cut = text
    while cut and stringWidth(cut + "…", FONT, size) > room:
        cut = cut[:-1]
    return cut + "…" if cut else ""


def header_texts(left: str, right: str, width: float) -> tuple[str, str]:
    """The header's title (left) and customer (right), shortened so they never overlap.

    The customer keeps its full width while the title leaves room for it, and at least 40 %
    of the line otherwise; the title gets the rest.
    """
    left_width = stringWidth(left, FONT, HEADER_SIZE)
    right_room = min(stringWidth(right, FONT, HEADER_SIZE),
                     max(0.4 * width, width - left_width - HEADER_GAP))
    right = fit(right, right_room)
    left = fit(left, width - stringWidth(right, FONT, HEADER_SIZE) - HEADER_GAP)
    return left, right


def timestamp(when: dt.datetime) -> TimeStamp:
    """reportlab's document time stamp (/CreationDate, /ModDate) set to ``when`` (UTC)."""
    stamp = TimeStamp(invariant=True)
    when = when.astimezone(dt.UTC)
    stamp.t = when.timestamp()
    stamp.lt = when.timetuple()
    stamp.YMDhms = tuple(stamp.lt)[:6]
    stamp.dhh = stamp.dmm = 0
    stamp.tzname = "UTC"
    return stamp


def numbered_canvas(lang: str, header_left: str, header_right: str, footer: str,
                    created: dt.datetime | None = None):
    """A canvas class that draws header, footer and 'Page n of N' once all pages are known.

    ``created`` becomes the PDF's creation date (reportlab's invariant mode would write
    2000-01-01).
    """

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            if created is not None:
                self._doc._timeStamp = timestamp(created)
            self._pages: list[dict] = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                if self._pageNumber > 1:
                    self._decorate(total)
                super().showPage()
            super().save()

        def _decorate(self, total: int) -> None:
            width, height = self._pagesize
            self.saveState()
            self.setStrokeColor(RULE)
            self.setLineWidth(0.5)
            self.line(MARGIN, height - TOP_MARGIN + 14, width - MARGIN, height - TOP_MARGIN + 14)
            self.line(MARGIN, BOTTOM_MARGIN - 16, width - MARGIN, BOTTOM_MARGIN - 16)
            self.setFillColor(MUTED)
            self.setFont(FONT, HEADER_SIZE)
            left, right = header_texts(header_left, header_right, width - 2 * MARGIN)
            self.drawString(MARGIN, height - TOP_MARGIN + 20, left)
            self.drawRightString(width - MARGIN, height - TOP_MARGIN + 20, right)
            self.drawString(MARGIN, BOTTOM_MARGIN - 27, footer)
            self.drawRightString(width - MARGIN, BOTTOM_MARGIN - 27,
                                 t(lang, "Page {page} of {total}", page=self._pageNumber,
                                   total=total))
            self.restoreState()

    return NumberedCanvas


class ReportTemplate(BaseDocTemplate):
    """Cover page, then body pages; headings feed the contents and the PDF outline."""

    def __init__(self, stream, paper: str, **kwargs):
        super().__init__(stream, pagesize=PAPER[paper], leftMargin=MARGIN, rightMargin=MARGIN,
                         topMargin=TOP_MARGIN, bottomMargin=BOTTOM_MARGIN, invariant=1,
                         initialFontName=FONT, initialFontSize=9, **kwargs)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("cover", [frame]), PageTemplate("body", [frame])])

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading):
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(flowable.toc_text, flowable.key, flowable.level,
                                      closed=flowable.level > 0)
            if flowable.level == 0:
                self.notify("TOCEntry", (0, markup(flowable.toc_text), self.page,
                                         flowable.key))


def contents(lang: str) -> list[Flowable]:
    toc_style = TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT),
                            ("VALIGN", (0, 0), (-1, -1), "TOP"),
                            ("LEFTPADDING", (0, 0), (-1, -1), 0),
                            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                            ("TOPPADDING", (0, 0), (-1, -1), 0),
                            ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
    toc = TableOfContents(dotsMinLevel=0, tableStyle=toc_style)
    toc.levelStyles = [styles()["toc1"], styles()["toc2"]]
    return [para(t(lang, "Contents"), "toc_title"), toc]


def render(result: SizingResult, *, lang: str, paper: str, accuracy: Accuracy,
           report_date: str, signer: Signer | None = None,
           compared: list | None = None, created: dt.datetime | None = None
           ) -> tuple[bytes, SignatureBox | None]:
    """The report as PDF bytes, and the signature block's place when ``signer`` is given.

    The PDF's creation date is ``created``, by default the report's date at 00:00 UTC (the
    same bytes for the same date: reproducible, as invariant mode means).
    """
    register_fonts()
    buffer = io.BytesIO()
    name = result.inputs.name
    title = t(lang, "Sizing report: {name}", name=name)
    doc = ReportTemplate(buffer, paper, title=title, author=result.inputs.author,
                         subject=t(lang, "LLM infrastructure sizing report"),
                         creator=f"AI Sizer {result.tool_version}", lang=lang)
    ctx = Context(result, lang, doc.width, accuracy, report_date, signer,
                  compared=list(compared or []))
    block = SignatureBlock(signer, lang, doc.width) if signer else None
    story: list[Flowable] = [NextPageTemplate("body"), *cover(ctx), *contents(lang),
                             PageBreak()]
    for section in SECTIONS:
        story += [_section_break(doc.height), *section(ctx)]
    story += section_signature(ctx, block)
    footer = t(lang, "AI Sizer {version} · {date}", version=result.tool_version,
               date=report_date)
    canvas = numbered_canvas(lang, title, result.inputs.customer, footer,
                             created=created or creation_time(report_date))
    doc.multiBuild(story, canvasmaker=canvas)
    return buffer.getvalue(), (block.placed if block else None)


def creation_time(report_date: str) -> dt.datetime:
    """The report's date (ISO) at 00:00 UTC."""
    return dt.datetime.combine(dt.date.fromisoformat(report_date), dt.time(), tzinfo=dt.UTC)


def _section_break(frame_height: float) -> Flowable:
    """A new page unless most of the page is still free (short sections share a page)."""
    return CondPageBreak(frame_height * 0.55)
