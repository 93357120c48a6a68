"""Colours of the drawings (charts, rack elevation, topology), taken from a widget's palette.

The drawings follow the system's light or dark palette. The paper is the palette's Base
colour and text its Text colour; axes, ticks and labels use a softer ink (Text with a fifth of
Base mixed in: #333333 on a white palette, the colour the light drawings always had). Series
colours stay as they are; on a dark paper the dark ones (greys, dark green) are lifted to a
readable brightness. On the default light palette nothing changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QEvent
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QWidget

LIGHT_INK = "#333333"  # axes and labels on white paper; series drawn in it follow the ink
LIGHT_PAPER = "#ffffff"  # white in a light drawing (bar separators) follows the paper
INK_SHARE_OF_PAPER = 0.2  # ink = text with this share of paper mixed in [-]
LABEL_FILL_ALPHA = 200  # labels over lines sit on paper this opaque [0-255]
DARK_LIGHTNESS = 128  # paper darker than this (HSL lightness, 0-255) is a dark palette
READABLE_VALUE = 170  # on dark paper, darker series are lifted to this HSV value [0-255]
PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)


def mix(colour: QColor, other: QColor, share: float) -> QColor:
    """``colour`` with ``share`` (0 to 1) of ``other`` mixed in, channel by channel."""
    return QColor(*(round(a * (1 - share) + b * share) for a, b in (
        (colour.red(), other.red()), (colour.green(), other.green()),
        (colour.blue(), other.blue()))))


@dataclass(frozen=True)
class Theme:
    """Paper and text colours of one palette, and the colours drawn from them."""

    paper: QColor
    text: QColor

    @property
    def ink(self) -> QColor:
        """Axes, ticks, titles and labels: the text softened towards the paper."""
        return mix(self.text, self.paper, INK_SHARE_OF_PAPER)

    @property
    def dark(self) -> bool:
        return self.paper.lightness() < DARK_LIGHTNESS

    def label_fill(self) -> QColor:
        """Background of a label drawn over lines: the paper, slightly see-through."""
        fill = QColor(self.paper)
        fill.setAlpha(LABEL_FILL_ALPHA)
        return fill

    def shade(self, share: float) -> QColor:
        """The paper with ``share`` (0 to 1) of the text mixed in (a panel on the paper)."""
        return mix(self.paper, self.text, share)

    def series(self, colour: QColor | str) -> QColor:
        """A colour of a light drawing as this theme draws it.

        The light ink becomes the ink and white the paper; on dark paper a colour darker than
        ``READABLE_VALUE`` keeps its hue and is lifted to it; anything else is kept.
        """
        colour = QColor(colour)
        if colour == QColor(LIGHT_INK):
            return self.ink
        if colour == QColor(LIGHT_PAPER):
            return QColor(self.paper)
        if self.dark and 0 < colour.value() < READABLE_VALUE:
            return colour.lighter(math.ceil(100 * READABLE_VALUE / colour.value()))
        return colour


LIGHT = Theme(paper=QColor(LIGHT_PAPER), text=QColor("#000000"))  # before a palette is known


def theme_of(widget: QWidget) -> Theme:
    """The theme of ``widget``'s palette (Base and Text colours)."""
    palette = widget.palette()
    return Theme(paper=palette.color(QPalette.ColorRole.Base),
                 text=palette.color(QPalette.ColorRole.Text))


def palette_changed(event: QEvent) -> bool:
    """True for the events that tell a widget its palette (or the application's) changed."""
    return event.type() in PALETTE_EVENTS


class PaletteFollower:
    """Mixin for a widget whose drawing follows its palette.

    ``follow(theme)`` runs when the widget is polished (before it is first shown or grabbed)
    and again whenever its palette or the application's changes.
    """

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Polish:
            self.follow(theme_of(self))
        return super().event(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        super().changeEvent(event)
        if palette_changed(event):
            self.follow(theme_of(self))

    def follow(self, theme: Theme) -> None:
        raise NotImplementedError


def text_item(text: str, theme: Theme, parent: QGraphicsItem | None = None
              ) -> QGraphicsSimpleTextItem:
    """A line of text in a drawing, in the theme's text colour."""
    item = QGraphicsSimpleTextItem(text, parent)
    item.setBrush(QBrush(theme.text))
    return item
