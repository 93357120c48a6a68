"""Rack elevation: each rack's units filled with its nodes and switches, and its power
against the rack's limit (from ``result.infrastructure.racks``).

Frames, texts and the limit line take their colours from the view's palette (redrawn when it
changes); the blocks and the power bar keep theirs.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from app.domain.result import SizingResult
from app.i18n import msg, plural, translate
from app.ui.text import language, render, t
from app.ui.theme import LIGHT, PaletteFollower, Theme, text_item
from app.ui.units import number

UNIT_H = 9.0
RACK_W = 150.0
RACK_GAP = 40.0
MAX_RACKS = 24
KIND_COLOURS = {"compute": "#4c78a8", "network": "#9d755d"}
RACK_SHADE = 11 / 255  # share of text in a rack's face: #f4f4f4 on white paper [-]
OUTLINE = "#999999"  # the power gauge's frame, readable on light and dark paper
_NETWORK = re.compile(r" \(([^()]+)\)( #\d+)$")  # "<switch> (<network>) #<n>"


def item_name(name: str, kind: str) -> str:
    """A rack item's name in the window's language: a switch's network (English in the
    result, e.g. 'front-end and storage') is translated; product names stay as they are."""
    if kind != "network":
        return name
    return _NETWORK.sub(lambda m: f" ({translate(m[1], language())}){m[2]}", name)


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
        units_each = max(rack.units_used // max(len(rack.items), 1), 1)
        y = height
        for name in (item_name(n, rack.kind) for n in rack.items):
            y -= units_each * UNIT_H
            item = self.addRect(QRectF(x + 4, y, RACK_W - 8, units_each * UNIT_H - 1),
                                QPen(Qt.PenStyle.NoPen),
                                QBrush(QColor(KIND_COLOURS.get(rack.kind, "#888888"))))
            item.setToolTip(name)
            if units_each >= 3:
                text = text_item(name[:24], self.theme, item)
                text.setBrush(QBrush(QColor("white")))  # on the coloured block
                text.setPos(x + 8, y + 2)
        self.draw_power(x, height, rack)
        title = text_item(t("Rack {n}", n=index + 1), self.theme)
        title.setPos(x, -18)
        self.addItem(title)

    def draw_power(self, x: float, height: float, rack) -> None:
        share = rack.power_w / rack.limit_w if rack.limit_w else 0.0
        bar_h = min(share, 1.2) / 1.2 * 60
        self.addRect(QRectF(x, height + 10, RACK_W, 60), QPen(QColor(OUTLINE)))
        self.addRect(QRectF(x, height + 70 - bar_h, RACK_W, bar_h), QPen(Qt.PenStyle.NoPen),
                     QBrush(power_colour(share)))
        limit_y = height + 70 - 1 / 1.2 * 60
        self.addLine(x, limit_y, x + RACK_W, limit_y, QPen(self.theme.text, 1,
                                                             Qt.PenStyle.DashLine))
        label = text_item(f"{number(rack.power_w / 1e3, ',.1f')} / "
                          f"{number(rack.limit_w / 1e3, ',.0f')} kW", self.theme)
        label.setPos(x + 4, height + 74)
        self.addItem(label)


class RackView(PaletteFollower, QGraphicsView):
    """Racks side by side; hover a block for what it is."""

    def __init__(self, parent: QWidget | None = None):
        self.racks = RackScene()
        self.shown: tuple[SizingResult, int] | None = None
        super().__init__(self.racks, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(460)

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

    def fit(self) -> None:
        rect = self.racks.sceneRect()
        if rect.width() < 1200:
            self.resetTransform()
            self.centerOn(rect.center())
        else:
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit()
