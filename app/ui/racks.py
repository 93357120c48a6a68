"""Rack elevation: each rack's units filled with its nodes and switches, and its power
against the rack's limit (from ``result.infrastructure.racks``).

Each rack has a U scale on its left (U1 at the bottom, as racks are numbered), each block its
position and height ("U1-U8, 8U") with its name, and a legend under the racks says what the
colours, the gauge and its dashed line mean.

Frames, texts and the limit line take their colours from the view's palette (redrawn when it
changes); the blocks and the power bar keep theirs.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem, QWidget

from app.domain.result import SizingResult, switch_in_rack
from app.i18n import msg, plural
from app.ui.text import language, render, t
from app.ui.theme import LIGHT, PaletteFollower, Theme, text_item
from app.ui.units import number
from app.ui.zoom import ZoomableView

UNIT_H = 12.0  # one rack unit in the drawing [px]: a 1U block holds one small line
RACK_W = 170.0
RACK_GAP = 56.0  # room on each rack's left for its U scale
SCALE_EVERY = 5  # the U scale numbers every fifth unit (and the top one) [U]
SMALL_TEXT_PX = 9  # text in a 1U block and on the U scale [px]
GAUGE_H = 60.0
LEGEND_MIN_W = 640.0  # the legend wraps at the racks' width, but not narrower than this [px]
MAX_RACKS = 24
KIND_COLOURS = {"compute": "#4c78a8", "network": "#9d755d"}
RACK_SHADE = 11 / 255  # share of text in a rack's face: #f4f4f4 on white paper [-]
OUTLINE = "#999999"  # the power gauge's frame, readable on light and dark paper


def item_name(name: str, kind: str) -> str:
    """A rack item's name in the window's language: a switch's network (English in the
    result, e.g. 'front-end and storage') is translated; product names stay as they are."""
    return switch_in_rack(name, language()) if kind == "network" else name


def small_text(text: str, theme: Theme, parent=None) -> QGraphicsSimpleTextItem:
    """A line in the small font that fits a 1U block and the U scale."""
    item = text_item(text, theme, parent)
    font = QFont(item.font())
    font.setPixelSize(SMALL_TEXT_PX)
    item.setFont(font)
    return item


def elide(item: QGraphicsSimpleTextItem, room: float) -> None:
    """Shorten the item's text with an ellipsis to ``room`` pixels (the full text stays in the
    block's tooltip)."""
    metrics = QFontMetricsF(item.font())
    item.setText("\n".join(metrics.elidedText(line, Qt.TextElideMode.ElideRight, room)
                           for line in item.text().split("\n")))


def power_colour(share: float) -> QColor:
    """Green below 80 % of the limit, amber to 100 %, red above."""
    if share > 1.0:
        return QColor("#c62828")
    return QColor("#f9a825") if share > 0.8 else QColor("#2e7d32")


class RackScene(QGraphicsScene):
    theme: Theme = LIGHT  # set by the view from its palette

    def draw(self, r: SizingResult, rack_units: int = 42) -> None:
        self.clear()
        site = r.infrastructure
        if site is None:
            return
        for index, rack in enumerate(site.racks[:MAX_RACKS]):
            self.draw_rack(index, rack, rack_units)
        if len(site.racks) > MAX_RACKS:
            hidden = len(site.racks) - MAX_RACKS
            more = text_item(render(plural(hidden, msg("... and {n} more rack"),
                                           msg("... and {n} more racks"), n=hidden)), self.theme)
            self.addItem(more)
            more.setPos(MAX_RACKS * (RACK_W + RACK_GAP), rack_units * UNIT_H / 2)
        shown = min(len(site.racks), MAX_RACKS)
        self.draw_legend(rack_units * UNIT_H + GAUGE_H + 44,
                         max(shown * (RACK_W + RACK_GAP), LEGEND_MIN_W))
        self.setSceneRect(self.itemsBoundingRect().adjusted(-10, -10, 10, 10))

    def draw_rack(self, index: int, rack, rack_units: int) -> None:
        x = index * (RACK_W + RACK_GAP)
        height = rack_units * UNIT_H
        frame = self.addRect(QRectF(x, 0, RACK_W, height), QPen(self.theme.ink, 2),
                             QBrush(self.theme.shade(RACK_SHADE)))
        frame.setToolTip(t("Rack {n}: {used} of {units} U, {kw} kW of {limit} kW", n=index + 1,
                           used=rack.units_used, units=rack_units,
                           kw=number(rack.power_w / 1e3, ",.1f"),
                           limit=number(rack.limit_w / 1e3, ",.0f")))
        self.draw_scale(x, rack_units)
        units_each = max((rack.units_used - rack.switch_units) // max(len(rack.items), 1), 1)
        for position, name in enumerate(item_name(n, rack.kind) for n in rack.items):
            self.draw_block(x, height, position * units_each, units_each, name, rack.kind)
        first = len(rack.items) * units_each  # top-of-rack switches above the nodes, 1U each
        switch_units = max(rack.switch_units // max(len(rack.switches), 1), 1)
        for position, name in enumerate(item_name(n, "network") for n in rack.switches):
            self.draw_block(x, height, first + position * switch_units, switch_units, name,
                            "network")
        self.draw_power(x, height, rack)
        title = text_item(t("Rack {n}", n=index + 1), self.theme)
        title.setPos(x, -18)
        self.addItem(title)

    def draw_scale(self, x: float, rack_units: int) -> None:
        """Tick marks for every unit left of the frame, numbered every ``SCALE_EVERY``."""
        height = rack_units * UNIT_H
        for unit in range(1, rack_units + 1):
            y = height - unit * UNIT_H
            numbered = unit % SCALE_EVERY == 0 or unit in (1, rack_units)
            self.addLine(x - (7 if numbered else 4), y + UNIT_H, x, y + UNIT_H,
                         QPen(self.theme.ink, 1))
            if numbered:
                label = small_text(str(unit), self.theme)
                self.addItem(label)
                label.setPos(x - 9 - label.boundingRect().width(),
                             y + (UNIT_H - label.boundingRect().height()) / 2)

    def draw_block(self, x: float, height: float, first: int, units: int, name: str,
                   kind: str) -> None:
        """One node or switch from unit ``first`` (0: the bottom) up, ``units`` high; its label
        says where it sits and how high it is, and its name (on a line of its own from 3U)."""
        where = t("U{low}-U{high}, {units}U", low=first + 1, high=first + units, units=units)
        if units == 1:
            where = t("U{low}, 1U", low=first + 1)
        top = height - (first + units) * UNIT_H
        item = self.addRect(QRectF(x + 4, top, RACK_W - 8, units * UNIT_H - 1),
                            QPen(Qt.PenStyle.NoPen),
                            QBrush(QColor(KIND_COLOURS.get(kind, "#888888"))))
        item.setToolTip(f"{name}\n{where}")
        tall = units >= 3
        text = (text_item if tall else small_text)(f"{name}\n{where}" if tall
                                                   else f"{where}  {name}", self.theme, item)
        text.setBrush(QBrush(QColor("white")))  # on the coloured block
        elide(text, RACK_W - 14)
        text.setPos(x + 8, top + (units * UNIT_H - 1 - text.boundingRect().height()) / 2
                    if not tall else top + 2)

    def draw_legend(self, y: float, width: float) -> None:
        """What the colours, the gauge and its dashed line mean, in rows ``width`` wide under
        the racks."""
        swatches = [(QColor(KIND_COLOURS["compute"]), t("Compute node")),
                    (QColor(KIND_COLOURS["network"]), t("Network switch")),
                    (self.theme.shade(RACK_SHADE), t("Free units")),
                    (power_colour(0.5), t("Power below 80 % of the rack limit")),
                    (power_colour(0.9), t("80 to 100 %")),
                    (power_colour(1.1), t("Over the limit"))]
        entries = [(colour, text, False) for colour, text in swatches]
        entries.append((self.theme.text, t("Rack power limit (gauge: power drawn / limit)"),
                        True))
        x = -RACK_GAP / 2
        for colour, text, dashed in entries:
            label = text_item(text, self.theme)
            room = 20 + label.boundingRect().width() + 18
            if x + room > width and x > 0:
                x, y = -RACK_GAP / 2, y + 22
            if dashed:
                self.addLine(x, y + 7, x + 14, y + 7, QPen(colour, 1, Qt.PenStyle.DashLine))
            else:
                self.addRect(QRectF(x, y, 14, 14), QPen(QColor(OUTLINE)), QBrush(colour))
            self.addItem(label)
            label.setPos(x + 20, y - 1)
            x += room

    def draw_power(self, x: float, height: float, rack) -> None:
        share = rack.power_w / rack.limit_w if rack.limit_w else 0.0
        bar_h = min(share, 1.2) / 1.2 * GAUGE_H
        gauge = self.addRect(QRectF(x, height + 10, RACK_W, GAUGE_H), QPen(QColor(OUTLINE)))
        gauge.setToolTip(t("Power drawn against the rack's limit (dashed line)"))
        self.addRect(QRectF(x, height + 10 + GAUGE_H - bar_h, RACK_W, bar_h),
                     QPen(Qt.PenStyle.NoPen), QBrush(power_colour(share)))
        limit_y = height + 10 + GAUGE_H - 1 / 1.2 * GAUGE_H
        self.addLine(x, limit_y, x + RACK_W, limit_y, QPen(self.theme.text, 1,
                                                             Qt.PenStyle.DashLine))
        label = text_item(f"{number(rack.power_w / 1e3, ',.1f')} / "
                          f"{number(rack.limit_w / 1e3, ',.0f')} kW", self.theme)
        label.setPos(x + 4, height + GAUGE_H + 14)
        self.addItem(label)


class RackView(PaletteFollower, ZoomableView):
    """Racks side by side; hover a block for what it is; zoom with the wheel or buttons."""

    def __init__(self, parent: QWidget | None = None):
        self.racks = RackScene()
        self.shown: tuple[SizingResult, int] | None = None
        super().__init__(self.racks, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(ZoomableView.DragMode.ScrollHandDrag)
        self.setMinimumHeight(700)

    def show_result(self, result: SizingResult, rack_units: int = 42) -> None:
        self.shown = (result, rack_units)
        self.racks.draw(result, rack_units)
        self.fit()

    def follow(self, theme: Theme) -> None:
        """Draw again in the colours of a new palette."""
        if theme != self.racks.theme:
            self.racks.theme = theme
            if self.shown is not None:
                self.show_result(*self.shown)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit()
