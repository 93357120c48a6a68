"""The report's building blocks: headings, paragraphs, table cells, bullets, key-value tables."""

from __future__ import annotations

from reportlab.platypus import Flowable, ListFlowable, ListItem, Paragraph

from app.report.context import Context
from app.report.style import FONT_BOLD, styles, table
from app.report.text import markup


class Heading(Paragraph):
    """A section heading that the document lists in its contents and outline."""

    # room a heading needs below it on its page, for the first lines of what it heads [pt];
    # with less, it moves to the next page instead of standing alone at the foot of this one
    FOLLOW = 48.0

    def __init__(self, text: str, level: int, key: str):
        style = styles()["h1" if level == 0 else "h2"]
        super().__init__(markup(text), style)
        self.toc_text, self.level, self.key = text, level, key
        self._orphaned = False

    def wrap(self, available_width, available_height):
        width, height = super().wrap(available_width, available_height)
        self._orphaned = available_height < height + self.FOLLOW
        # too tall for what is left: the frame asks split(), which moves it on
        return width, (available_height + 1 if self._orphaned else height)

    def split(self, available_width, available_height):
        if self._orphaned or available_height < self.height + self.FOLLOW:
            return []
        return super().split(available_width, available_height)


def para(text: str, style: str = "body") -> Paragraph:
    return Paragraph(markup(text), styles()[style])


def cell(text: str, style: str = "cell") -> Paragraph:
    return Paragraph(markup(text), styles()[style])


def bold(label: str, text: str, style: str = "body") -> Paragraph:
    return Paragraph(f"<b>{markup(label)}</b> {markup(text)}", styles()[style])


def code(text: str) -> Paragraph:
    escaped = markup(text).replace("\n", "<br/>").replace("  ", "&nbsp;&nbsp;")
    return Paragraph(escaped, styles()["code"])


def bullets(items: list[Flowable | str]) -> ListFlowable:
    flowables = [ListItem(item if isinstance(item, Flowable) else para(item, "bullet"),
                          leftIndent=12, value="•") for item in items]
    return ListFlowable(flowables, bulletType="bullet", start="•", leftIndent=12,
                        bulletFontName=FONT_BOLD, bulletFontSize=8)


def heading(ctx: Context, chapter: str, title: str) -> Heading:
    """The numbered heading of ``chapter`` (its number from the table of contents)."""
    number = ctx.number(chapter)
    return Heading(f"{number} {title}", 0, f"section-{number}")


def subheading(ctx: Context, title: str) -> Heading:
    ctx.parts += 1  # a running count keeps the bookmark names reproducible
    return Heading(title, 1, f"part-{ctx.parts}")


def key_values(ctx: Context, rows: list[tuple[str, str]], first: float = 0.34) -> Flowable:
    data = [[cell(key), cell(value)] for key, value in rows]
    return table(data, [ctx.width * first, ctx.width * (1 - first)], header=False)
