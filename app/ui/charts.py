"""Live charts of the sizing result (pyqtgraph), and the small tables beside them.

Every plot item is created once in ``__init__`` and updated with ``setData`` / ``setOpts`` /
``setPos`` in ``show_result``; ``retranslate`` re-sets axis labels and legend names. The charts
read only the :class:`SizingResult`: they convert units (bytes to GB, seconds to ms), stack
the memory parts and multiply the curve by the band, nothing else.

Charts follow the palette (:class:`ThemedView`, :mod:`app.ui.theme`): paper, axes, texts and
pens are re-coloured when the widget is polished and whenever its palette changes. Tick
labels use the window's decimal and thousands separators (:class:`LocalAxis`).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGraphicsItem,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from app.domain.result import Band, MemoryResult, PerformanceResult, SizingResult
from app.i18n import localise_number, msg, plural
from app.report.charts import OPTIMISTIC_ROOM
from app.ui.text import language, render, t
from app.ui.theme import LIGHT, LIGHT_INK, PaletteFollower, Theme
from app.ui.units import GB, number

COLORS = {
    "weights": "#1f77b4",  # blue
    "kv": "#ff7f0e",  # orange
    "runtime": "#9e9e9e",  # grey
    "free": "#c8e6c9",  # light green
    "compute": "#6a3d9a",
    "prefill": "#e377c2",
    "communication": "#17becf",
    "activations": "#bcbd22",  # olive: norms, activation and quantising kernels
    "overlap": "#8d6e63",  # brown: the weights read and the compute beyond the longer of them
    "per_user": "#1f77b4",
    "total": "#2e7d32",
    "target": "#c62828",
    "naive": "#555555",
    "marker": "#37474f",
    "measured": "#c2410c",  # measured points on the predicted curves (Validation)
}
FOREGROUND = LIGHT_INK  # axes and labels of a light chart; a palette's ink replaces it
LABEL_SIZE = "10pt"
BAND_ALPHA = 60


def pen(color: str, width: float = 2, style: Qt.PenStyle = Qt.PenStyle.SolidLine):
    return pg.mkPen(color=color, width=width, style=style)


def dashed(color: str, width: float = 1.5):
    return pen(color, width, Qt.PenStyle.DashLine)


def translucent(color: str) -> pg.QtGui.QColor:
    colour = pg.mkColor(color)
    colour.setAlpha(BAND_ALPHA)
    return colour


class LocalAxis(pg.AxisItem):
    """An axis whose tick labels use the window's decimal mark ('2,5' in German).

    It is painted into a pixmap once and reused until the axis changes (Qt's device
    coordinate cache): replaying its tick labels took about 2 ms per axis and paint, and the
    Performance step shows eight axes.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def tickStrings(self, values, scale, spacing) -> list[str]:  # noqa: N802 (pyqtgraph API)
        lang = language()
        return [localise_number(text, lang) for text in super().tickStrings(values, scale,
                                                                             spacing)]


def style_plot(plot: pg.PlotItem) -> None:
    """Localised readable axes, no zooming, and units exactly as labelled (no SI prefix)."""
    plot.setAxisItems({side: LocalAxis(side) for side in ("left", "bottom")})
    for side in ("left", "bottom"):
        axis = plot.getAxis(side)
        axis.setPen(FOREGROUND)
        axis.setTextPen(FOREGROUND)
        axis.enableAutoSIPrefix(False)
    plot.showGrid(x=True, y=True, alpha=0.15)
    plot.setMouseEnabled(x=False, y=False)
    plot.setMenuEnabled(False)
    plot.hideButtons()


def ink(plot: pg.PlotItem) -> str:
    """The colour of ``plot``'s texts: its axes' (the theme's ink once applied)."""
    return plot.getAxis("left").textPen().color().name()


def set_axis(plot: pg.PlotItem, side: str, text: str, units: str) -> None:
    """Axis title with its unit, both already in the window's language."""
    plot.setLabel(side, text, units=units, color=ink(plot), **{"font-size": LABEL_SIZE})


def set_title(plot: pg.PlotItem, text: str) -> None:
    """The plot's title, in the colour of its axes."""
    plot.setTitle(text, color=ink(plot), size=LABEL_SIZE)


def wrap(text: str, metrics: QFontMetrics, room: float) -> list[str]:
    """``text`` in lines no wider than ``room`` [px], broken between words (a single word
    wider than ``room`` keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def set_wrapped_title(plot: pg.PlotItem, text: str, room: float) -> None:
    """The plot's title on as many lines as it needs to stay within ``room`` [px]: a title
    wider than its plot would widen the plot beyond its view and cut its right side off."""
    font = QFont(plot.titleLabel.item.font())
    font.setPointSizeF(float(LABEL_SIZE.removesuffix("pt")))
    metrics = QFontMetrics(font)
    lines = wrap(text, metrics, room)
    set_title(plot, "<br>".join(lines))
    height = max(30, len(lines) * metrics.lineSpacing() + 12)  # pyqtgraph fixes one line: 30
    plot.titleLabel.setMaximumHeight(height)
    plot.layout.setRowFixedHeight(0, height)


def line_label(line: pg.InfiniteLine, text: str) -> None:
    """Set the text along ``line`` (laid out anew only when it changed)."""
    if line.label.format != text:
        line.label.setFormat(text)


def marker_line(angle: int, line_pen, position: float, anchor: tuple) -> pg.InfiniteLine:
    """A reference line with a label along it (created once, moved with ``setPos``)."""
    return pg.InfiniteLine(
        angle=angle,
        pen=line_pen,
        movable=False,
        label="",
        labelOpts={
            "position": position,
            "color": FOREGROUND,
            "anchors": [anchor, anchor],
            "fill": LIGHT.label_fill(),
        },
    )


def side_label(line: pg.InfiniteLine, users: float, last: float) -> None:
    """Label a vertical line on its left in the right half of a log axis, else on its right."""
    right_half = math.log10(max(users, 1)) > math.log10(max(last, 2)) / 2
    anchor = (1, 0.5) if right_half else (0, 0.5)
    line.label.anchors = [anchor, anchor]
    line.label.updatePosition()


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """1-2-5 ticks between ``low`` and ``high`` for a log10 axis: (log10 value, label)."""
    ticks = []
    for exponent in range(math.floor(math.log10(max(low, 1e-9))), math.ceil(math.log10(high)) + 1):
        for mantissa in (1, 2, 5):
            value = mantissa * 10**exponent
            if low <= value <= high:
                ticks.append((math.log10(value), number(value, ",.0f")))
    return ticks


def rename(legend: pg.LegendItem, item, text: str) -> None:
    """Change the name an item has in ``legend`` (in the legend's text colour)."""
    for sample, label in legend.items:
        if sample.item is item:
            label.setText(text, color=legend.labelTextColor())


# --- palette --------------------------------------------------------------------------------
def repen(item, theme: Theme) -> None:
    """Give a line, curve or bar outline its light pen re-coloured for ``theme``.

    The light pen is the one the item had when first themed (pens are set at construction).
    Items drawn without a pen (pyqtgraph's default) are left alone.
    """
    current = item.pen if isinstance(item, pg.InfiniteLine) else item.opts.get("pen")
    if current is None:
        return
    if not hasattr(item, "light_pen"):
        item.light_pen = QPen(pg.mkPen(current))
    themed = QPen(item.light_pen)
    themed.setColor(theme.series(item.light_pen.color()))
    if isinstance(item, pg.BarGraphItem):
        item.setOpts(pen=themed)
    else:
        item.setPen(themed)


def restyle(item, theme: Theme) -> None:
    """Colour one item of a chart's scene for ``theme``: axes, texts, labels and pens."""
    if isinstance(item, pg.AxisItem):
        item.setPen(theme.ink)
        item.setTextPen(theme.ink)
        if item.label.isVisible():
            item.setLabel(item.labelText, item.labelUnits, item.labelUnitPrefix,
                          **{**item.labelStyle, "color": theme.ink.name()})
    elif isinstance(item, pg.LegendItem):
        item.setLabelTextColor(theme.ink)
    elif isinstance(item, pg.LabelItem):  # legend names and plot titles
        item.setText(item.text, color=theme.ink)
    elif isinstance(item, pg.TextItem):
        item.setColor(theme.ink)
        if isinstance(item, pg.InfLineLabel):
            item.fill = pg.mkBrush(theme.label_fill())
            item.update()
    elif isinstance(item, pg.InfiniteLine | pg.PlotDataItem | pg.BarGraphItem):
        repen(item, theme)


class ThemedView(PaletteFollower):
    """Mixin for a pyqtgraph view: its paper, axes, texts and pens follow the palette.

    Applied when the view is polished, so items added after ``__init__`` are included, and
    again whenever the palette changes.
    """

    def follow(self, theme: Theme) -> None:
        scene = self.scene()
        if scene is None:  # still in pyqtgraph's __init__
            return
        self.setBackground(theme.paper)
        for item in scene.items():
            restyle(item, theme)


class Chart(ThemedView, pg.PlotWidget):
    """A single plot with readable axes, on the palette's paper."""

    def __init__(self, parent=None):
        super().__init__(parent, background="w")
        self.plot = self.getPlotItem()
        style_plot(self.plot)
        self.setMinimumHeight(300)


# --- Step 2 ---------------------------------------------------------------------------------
def vram_parts(memory: MemoryResult) -> dict[str, float]:
    """The stacked parts of one GPU [B]: weights, KV cache and runtime as the result has them
    (``MemoryResult.kv_cache_bytes_per_gpu``), and free, what is left of the usable memory
    (none when it does not fit).
    """
    free = max(memory.gpu_usable_bytes - memory.per_gpu_bytes, 0.0)
    return {"weights": memory.weights_bytes_per_gpu, "kv": memory.kv_cache_bytes_per_gpu,
            "runtime": memory.runtime_bytes_per_gpu, "free": free}


class StackedMemoryBar(ThemedView, pg.GraphicsLayoutWidget):
    """One stacked bar of a GPU's memory by part, with its legend and a usable-memory line.

    Subclasses pass the colour of each part; ``stack`` sets the heights [GB] and
    ``label_parts`` names them in the legend with their amounts.
    """

    BAR_WIDTH = 0.6
    LEGEND_MARGIN = 10  # [px] the legend keeps from the view's edges
    legend: pg.LegendItem | None = None  # pyqtgraph resizes the view before __init__ ends

    def __init__(self, colours: dict[str, str], minimum_width: int, parent=None):
        super().__init__(parent)
        self.setBackground("w")
        self.setMinimumSize(minimum_width, 380)
        self.plot = self.addPlot(row=0, col=0)
        style_plot(self.plot)
        self.plot.showGrid(x=False, y=True, alpha=0.15)
        white = pg.mkPen("w", width=1)
        self.bars = {part: pg.BarGraphItem(x=[0], y0=[0], height=[0], width=self.BAR_WIDTH,
                                           brush=colour, pen=white)
                     for part, colour in colours.items()}
        self.legend = pg.LegendItem(labelTextColor=FOREGROUND, colCount=2)
        self.addItem(self.legend, row=1, col=0)
        self.ci.layout.setRowStretchFactor(0, 1)
        for bar in self.bars.values():
            self.plot.addItem(bar)
            self.legend.addItem(bar, "")
        self.usable_line = marker_line(0, dashed(COLORS["target"], 2), 0.98, (1, 0))
        self.plot.addItem(self.usable_line, ignoreBounds=True)
        self.plot.setXRange(-0.45, 1.45, padding=0)
        self.values: dict[str, float] = {}

    def stack(self, parts: dict[str, float], memory_bytes: float, needed_bytes: float) -> None:
        """Stack ``parts`` [B] from zero; the y axis reaches the larger of memory and need."""
        bottom = 0.0
        self.values = {part: size / GB for part, size in parts.items()}
        for part, height in self.values.items():
            self.bars[part].setOpts(y0=[bottom], height=[height])
            bottom += height
        self.plot.setYRange(0, max(memory_bytes, needed_bytes) / GB * 1.08, padding=0)

    def label_parts(self, names: dict[str, str]) -> None:
        """Axis, tick and legend texts (``names`` already translated)."""
        set_axis(self.plot, "left", t("Memory per GPU"), "GB")
        self.plot.getAxis("bottom").setTicks([[(0, t("One GPU (the fullest)"))]])
        for part, name in names.items():
            amount = self.values.get(part)
            label = name if amount is None else f"{name}: {number(amount, ',.1f')} GB"
            rename(self.legend, self.bars[part], label)
        self.fit_legend()

    def fit_legend(self) -> None:
        """The legend in two columns when they fit the view, else in one (longer names, as
        in German): a legend wider than the view would widen the plot and cut its right side.
        """
        for columns in (2, 1):
            self.legend.setColumnCount(columns)
            needed = self.legend.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
            if needed + self.LEGEND_MARGIN <= self.width():
                break
        self.centralWidget.setGeometry(self.range)  # laid out again within the new minimum

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.legend is not None and not self.closed:  # closed: the scene is gone
            self.fit_legend()


class VramChart(StackedMemoryBar):
    """Stacked bar of one GPU's memory, with usable and physical memory as lines."""

    PARTS = {
        "weights": "Weights",
        "kv": "KV cache at peak",
        "runtime": "Runtime and activations",
        "free": "Free",
    }

    def __init__(self, parent=None):
        super().__init__({part: COLORS[part] for part in self.PARTS}, 460, parent)
        # Usable memory labelled under its line, physical memory over its own: both stay legible
        # when the engine may use most of the card.
        self.memory_line = marker_line(0, pen(FOREGROUND, 1.5), 0.98, (1, 1))
        self.plot.addItem(self.memory_line, ignoreBounds=True)

    def retranslate(self) -> None:
        self.label_parts({part: t(name) for part, name in self.PARTS.items()})

    def show_result(self, result: SizingResult) -> None:
        memory = result.memory
        self.stack(vram_parts(memory), memory.gpu_memory_bytes, memory.per_gpu_bytes)
        self.show_lines(memory)
        self.retranslate()

    def show_lines(self, memory: MemoryResult) -> None:
        usable, physical = memory.gpu_usable_bytes / GB, memory.gpu_memory_bytes / GB
        self.usable_line.setPos(usable)
        self.memory_line.setPos(physical)
        line_label(self.usable_line, t("Usable by the engine: {gb} GB", gb=number(usable, ",.1f")))
        line_label(self.memory_line, t("Physical memory: {gb} GB", gb=number(physical, ",.1f")))


# --- Step 4 ---------------------------------------------------------------------------------
class BandedCurve:
    """An expected curve with its band (low and high edges and the shading between)."""

    def __init__(self, plot: pg.PlotItem, color: str):
        self.expected = pg.PlotDataItem(pen=pen(color, 2.5))
        self.low = pg.PlotDataItem(pen=pen(color, 0.5))
        self.high = pg.PlotDataItem(pen=pen(color, 0.5))
        self.fill = pg.FillBetweenItem(self.low, self.high, brush=translucent(color))
        self.band_sample = pg.PlotDataItem(pen=None, fillLevel=0, fillBrush=translucent(color))
        for item in (self.fill, self.low, self.high, self.expected):
            plot.addItem(item)

    def set_data(self, x: np.ndarray, y: np.ndarray, band: Band) -> None:
        """The expected rate ``y`` against ``x``, shaded over its expected range."""
        self.expected.setData(x, y)
        low, high = band.speed_range(y)
        with QSignalBlocker(self.low), QSignalBlocker(self.high):
            self.low.setData(x, low)  # the shading is redrawn once, below, not per edge
            self.high.setData(x, high)
        self.fill.updatePath()


def marker_label(name: str, users: float) -> str:
    return render(plural(users, msg("{name}: {users} user"), msg("{name}: {users} users"),
                         name=t(name), users=number(users, ",.0f")))


class ThroughputChart(ThemedView, pg.GraphicsLayoutWidget):
    """Tokens/s per user (top) and output tokens/s of the replica (bottom) against users."""

    # Labels of the vertical lines sit low in the lower plot, where the rising output curve
    # leaves room; the horizontal lines of the upper plot keep theirs.
    MARKERS = {
        "scenario": ("Scenario load", 0.08),
        "slo": ("SLO capacity", 0.2),
        "saturation": ("Saturation", 0.32),
    }

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setBackground("w")
        self.setMinimumHeight(600)
        self.legend = pg.LegendItem(labelTextColor=FOREGROUND, colCount=4)
        self.addItem(self.legend, row=0, col=0)
        self.per_user_plot = self.addPlot(row=1, col=0)
        self.total_plot = self.addPlot(row=2, col=0)
        self.total_plot.setXLink(self.per_user_plot)
        for plot in (self.per_user_plot, self.total_plot):
            style_plot(plot)
            plot.setLogMode(x=True, y=False)
            plot.getAxis("left").setWidth(70)
        self.per_user = BandedCurve(self.per_user_plot, COLORS["per_user"])
        self.total = BandedCurve(self.total_plot, COLORS["total"])
        for curve in (self.per_user, self.total):
            self.legend.addItem(curve.expected, "")
            self.legend.addItem(curve.band_sample, "")
        self.build_lines()
        self.result: SizingResult | None = None

    def build_lines(self) -> None:
        self.target_line = marker_line(0, dashed(COLORS["target"], 2), 0.02, (0, 1))
        self.naive_line = marker_line(0, dashed(COLORS["naive"]), 0.45, (0.5, 1))
        self.per_user_plot.addItem(self.target_line, ignoreBounds=True)
        self.per_user_plot.addItem(self.naive_line, ignoreBounds=True)
        self.markers = {}
        for key, (_name, height) in self.MARKERS.items():
            style = Qt.PenStyle.DotLine if key == "saturation" else Qt.PenStyle.DashDotLine
            labelled = marker_line(90, pen(COLORS["marker"], 1.5, style), height, (0, 0.5))
            plain = pg.InfiniteLine(angle=90, pen=pen(COLORS["marker"], 1.5, style))
            self.total_plot.addItem(labelled, ignoreBounds=True)
            self.per_user_plot.addItem(plain, ignoreBounds=True)
            self.markers[key] = (labelled, plain)

    def retranslate(self) -> None:
        set_axis(self.per_user_plot, "left", t("Per user"), t("tokens/s"))
        set_axis(self.total_plot, "left", t("Replica output"), t("tokens/s"))
        set_axis(self.total_plot, "bottom", t("Concurrent users (log scale)"), t("users"))
        rename(self.legend, self.per_user.expected, t("Tokens/s per user"))
        rename(self.legend, self.per_user.band_sample, t("Its expected range"))
        rename(self.legend, self.total.expected, t("Output tokens/s of a replica"))
        rename(self.legend, self.total.band_sample, t("Its expected range"))
        if self.result is not None:
            self.label_lines(self.result)

    def show_result(self, result: SizingResult) -> None:
        self.result = result
        p = result.performance
        users = np.array([point.concurrency for point in p.curve], dtype=float)
        per_user = np.array([point.tokens_per_s_per_user for point in p.curve], dtype=float)
        total = np.array([point.output_tokens_per_s for point in p.curve], dtype=float)
        self.per_user.set_data(users, per_user, p.band)
        self.total.set_data(users, total, p.band)
        last = max(users.max(initial=1.0), 2.0)
        self.place_lines(p, last)
        self.label_lines(result)
        self.set_x_range(last)
        self.set_y_ranges(p, per_user.max(initial=0), total.max(initial=0))

    def positions(self, p: PerformanceResult) -> dict[str, float]:
        """Users at each marked operating point."""
        return {
            "scenario": p.at_concurrency.concurrency,
            "slo": p.slo_capacity_per_replica,
            "saturation": p.saturation.concurrency,
        }

    def place_lines(self, p: PerformanceResult, last: float) -> None:
        target = p.targets.get("tokens_per_s_per_user")
        self.target_line.setVisible(target is not None)
        self.target_line.setPos(target or 0)
        self.naive_line.setPos(p.naive_tokens_per_s)
        for key, users in self.positions(p).items():
            for line in self.markers[key]:
                line.setVisible(users >= 1)  # no line for an SLO capacity of no users
                line.setPos(math.log10(max(users, 1)))
            side_label(self.markers[key][0], users, last)

    def label_lines(self, result: SizingResult) -> None:
        p = result.performance
        target = p.targets.get("tokens_per_s_per_user", 0.0)
        line_label(self.target_line, t("Target: {rate} tokens/s", rate=number(target, ",.0f")))
        line_label(
            self.naive_line,
            t(
                "Naive, the guide's rule (bandwidth / active weights): {rate} tokens/s",
                rate=number(p.naive_tokens_per_s, ",.1f"),
            ),
        )
        for key, users in self.positions(p).items():
            line_label(self.markers[key][0], marker_label(self.MARKERS[key][0], users))

    def set_x_range(self, last: float) -> None:
        self.per_user_plot.setXRange(0, math.log10(last), padding=0.02)
        for plot in (self.per_user_plot, self.total_plot):
            plot.getAxis("bottom").setTicks([log_ticks(1, last)])

    def set_y_ranges(self, p: PerformanceResult, per_user_top: float, total_top: float) -> None:
        """Room for the curves, the target, the naive figure and the range's high end, but at
        most twice the expected top: a wide range (a regime with few calibration cases) must
        not squash the expected curve; the table gives the whole range."""
        target = p.targets.get("tokens_per_s_per_user", 0.0)
        high = min(p.band.speed_range(per_user_top)[1], OPTIMISTIC_ROOM * per_user_top)
        top = max(high, p.naive_tokens_per_s, target)
        self.per_user_plot.setYRange(0, top * 1.15, padding=0)
        total = min(p.band.speed_range(total_top)[1], OPTIMISTIC_ROOM * total_top)
        self.total_plot.setYRange(0, total * 1.1, padding=0)


class TtftChart(Chart):
    """Time to first token of one user alone against the prompt length."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot.setLogMode(x=True, y=False)
        self.curve = pg.PlotDataItem(
            pen=pen(COLORS["per_user"], 2.5),
            symbol="o",
            symbolSize=4,
            symbolBrush=COLORS["per_user"],
            symbolPen=None,
        )
        self.plot.addItem(self.curve)
        self.target_line = marker_line(0, dashed(COLORS["target"], 2), 0.02, (0, 1))
        self.plot.addItem(self.target_line, ignoreBounds=True)
        self.target = 0.0

    def retranslate(self) -> None:
        set_axis(self.plot, "left", t("Time to first token"), "s")
        set_axis(self.plot, "bottom", t("Prompt length (log scale)"), t("tokens"))
        set_title(self.plot, t("One user alone"))
        line_label(self.target_line, t("TTFT target: {s} s", s=number(self.target, ",.1f")))

    def show_result(self, result: SizingResult) -> None:
        points = result.performance.ttft_curve
        prompts = np.array([point.prompt_tokens for point in points], dtype=float)
        ttft = np.array([point.ttft_s for point in points], dtype=float)
        self.curve.setData(prompts, ttft)
        target = result.performance.targets.get("ttft_s")
        self.target = target or 0.0
        self.target_line.setVisible(target is not None)
        self.target_line.setPos(self.target)
        if prompts.size:
            self.plot.getAxis("bottom").setTicks([log_ticks(prompts.min(), prompts.max())])
            self.plot.setXRange(math.log10(prompts.min()), math.log10(prompts.max()), padding=0.03)
        self.plot.setYRange(0, max(ttft.max(initial=0), self.target) * 1.15, padding=0)
        line_label(self.target_line, t("TTFT target: {s} s", s=number(self.target, ",.1f")))


def measured_dots(color: str) -> pg.PlotDataItem:
    """Measured points: dots without a line (a PlotDataItem follows the plot's log mode)."""
    return pg.PlotDataItem(pen=None, symbol="o", symbolSize=9, symbolBrush=color,
                           symbolPen=pg.mkPen("w", width=1))


def dot_data(points: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([x for x, _ in points], dtype=float),
            np.array([y for _, y in points], dtype=float))


class MeasuredThroughputChart(ThroughputChart):
    """The Step 4 curves over users with the imported measurements drawn on them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.measured_per_user = measured_dots(COLORS["measured"])
        self.measured_total = measured_dots(COLORS["measured"])
        self.per_user_plot.addItem(self.measured_per_user)
        self.total_plot.addItem(self.measured_total)
        self.legend.addItem(self.measured_per_user, "")

    def retranslate(self) -> None:
        super().retranslate()
        rename(self.legend, self.measured_per_user, t("Measured"))

    def show_result(self, result: SizingResult) -> None:
        super().show_result(result)
        v, workload = result.validation, result.inputs.workload
        lengths = (workload.prompt_tokens, workload.output_tokens)
        per_user = v.over_users("tokens_per_s_per_user", *lengths) if v else []
        total = v.over_users("output_tokens_per_s", *lengths) if v else []
        self.measured_per_user.setData(*dot_data(per_user))
        self.measured_total.setData(*dot_data(total))
        self.include(self.per_user_plot, per_user)
        self.include(self.total_plot, total)

    @staticmethod
    def include(plot: pg.PlotItem, points: list[tuple[float, float]]) -> None:
        """Raise the plot's top to show every measured point."""
        top = plot.viewRange()[1][1]
        highest = max((y for _, y in points), default=0.0)
        if highest > top:
            plot.setYRange(0, highest * 1.1, padding=0)


class MeasuredTtftChart(TtftChart):
    """TTFT of one user alone against the prompt, with the measured one-user points."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.measured = measured_dots(COLORS["measured"])
        self.plot.addItem(self.measured)

    def show_result(self, result: SizingResult) -> None:
        super().show_result(result)
        points = result.validation.one_user_ttft() if result.validation else []
        self.measured.setData(*dot_data(points))
        MeasuredThroughputChart.include(self.plot, points)


class DecodeBreakdownChart(Chart):
    """Where the time of one decode step goes, as horizontal bars in milliseconds."""

    PARTS = {
        "weights_read_s": ("Weights read", "weights"),
        "kv_read_s": ("KV cache read", "kv"),
        "compute_s": ("Compute", "compute"),
        "prefill_share_s": ("Other users' prompts", "prefill"),
        "overlap_s": ("Partial overlap", "overlap"),
        "activations_s": ("Norms and activations", "activations"),
        "communication_s": ("Communication", "communication"),
        "overhead_s": ("Step overhead", "runtime"),
    }
    BAR_HEIGHT = 0.6
    TITLE_MARGIN = 24  # [px] beside the title, within the view
    VALUE_MARGIN = 12  # [px] between a value and the plot's right edge
    title_text = ""  # a class default: pyqtgraph resizes the view before __init__ ends

    def __init__(self, parent=None):
        super().__init__(parent)
        count = len(self.PARTS)
        brushes = [COLORS[color] for _name, color in self.PARTS.values()]
        self.bars = pg.BarGraphItem(
            x0=np.zeros(count),
            y=np.arange(count),
            height=self.BAR_HEIGHT,
            width=np.zeros(count),
            brushes=brushes,
            pen=None,
        )
        self.plot.addItem(self.bars)
        self.values = [pg.TextItem(color=FOREGROUND, anchor=(0, 0.5)) for _ in self.PARTS]
        for text in self.values:
            self.plot.addItem(text, ignoreBounds=True)
        self.plot.invertY(True)
        self.plot.showGrid(x=True, y=False, alpha=0.15)
        self.plot.setYRange(-0.6, count - 0.4, padding=0)
        self.plot.vb.sigResized.connect(self.fit_values)
        self.result: SizingResult | None = None
        self.ms = np.zeros(count)

    def retranslate(self) -> None:
        set_axis(self.plot, "bottom", t("Time in one decode step"), "ms")
        names = [(row, t(name)) for row, (name, _color) in enumerate(self.PARTS.values())]
        axis = self.plot.getAxis("left")
        axis.setTicks([names])
        # Room for the longest name: the axis would otherwise drop labels on the first paint.
        metrics = QFontMetrics(axis.style["tickFont"] or self.font())
        axis.setWidth(max(metrics.horizontalAdvance(name) for _row, name in names) + 16)
        if self.result is not None:
            self.show_title(self.result)

    def show_title(self, result: SizingResult) -> None:
        """The step time the solid bars add up to, and what bounds it."""
        p = result.performance
        parts = p.decode_breakdown
        bound = t("memory-bound") if parts.bound == "memory" else t("compute-bound")
        self.title_text = render(plural(
            p.at_concurrency.concurrency,
            msg("At one user: {ms} ms per step (solid bars), {bound}"),
            msg("At {users} users: {ms} ms per step (solid bars), {bound}"),
            users=number(p.at_concurrency.concurrency, ",.0f"),
            ms=number(parts.step_s * 1e3, ",.1f"),
            bound=bound,
        ))
        self.fit_title()

    def fit_title(self) -> None:
        """The title within the width beside the axis (on two lines in a narrow view)."""
        axis = self.plot.getAxis("left")  # its set width: it may not be laid out yet
        room = self.width() - max(axis.width(), axis.minimumWidth()) - self.TITLE_MARGIN
        set_wrapped_title(self.plot, self.title_text, room)
        self.centralWidget.setGeometry(self.range)  # laid out again within the new minimum

    def fit_values(self) -> None:
        """The x range leaves room right of the longest bar for its value."""
        top = max(self.ms.max(initial=0), 1e-3)
        metrics = QFontMetrics(self.values[0].textItem.font())
        label = max(metrics.horizontalAdvance(text.toPlainText()) for text in self.values)
        width = self.plot.vb.width()
        share = min((label + self.VALUE_MARGIN) / width, 0.6) if width > label else 0.2
        self.plot.setXRange(0, top / (1 - share), padding=0)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.title_text and not self.closed:  # closed: the scene is gone
            self.fit_title()

    def show_result(self, result: SizingResult) -> None:
        """Solid bars for the parts that add up to the step, hollow ones for those hidden
        under the overlap of the weights read and the compute."""
        self.result = result
        parts = result.performance.decode_breakdown
        ms = np.array([getattr(parts, field) * 1e3 for field in self.PARTS], dtype=float)
        hidden = [field in parts.overlapped for field in self.PARTS]
        colours = [COLORS[colour] for _name, colour in self.PARTS.values()]
        self.bars.setOpts(width=ms, brushes=[
            pg.mkBrush(translucent(colour) if off else colour)
            for colour, off in zip(colours, hidden, strict=True)],
            pens=[pg.mkPen(colour, width=1.5) if off else pg.mkPen(None)
                  for colour, off in zip(colours, hidden, strict=True)])
        for row, (text, value) in enumerate(zip(self.values, ms, strict=True)):
            shown = number(value, ",.1f")
            text.setText(t("{ms} ms, overlapped", ms=shown) if hidden[row] else f"{shown} ms")
            text.setPos(value, row)
        self.ms = ms
        self.fit_values()
        self.show_title(result)


# --- tables beside the charts -----------------------------------------------------------------
class FigureTable(QTableWidget):
    """A read-only table of figures whose cells are updated in place, sized to its rows."""

    def __init__(self, rows: int, columns: int, parent=None):
        super().__init__(rows, columns, parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrap(True)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for row in range(rows):
            for column in range(columns):
                self.setItem(row, column, QTableWidgetItem())

    def stretch_only(self, *columns: int) -> None:
        """Stretch these columns; the others take the width of their contents."""
        header = self.horizontalHeader()
        for column in range(self.columnCount()):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if column in columns
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)

    def updateGeometries(self) -> None:  # noqa: N802 (Qt's name)
        """Wrapped rows change height when the columns widen: fit the table to them again."""
        super().updateGeometries()
        self.fit_height()

    def set_rows(self, rows: list[list[str]] | list[tuple[str, ...]]) -> None:
        """Show ``rows`` (one list of cell texts per row), then fit the height once.

        Fitting measures every wrapped row: once per update, not once per row.
        """
        old = self.rowCount()
        if old != len(rows):
            self.setRowCount(len(rows))
            for row in range(old, len(rows)):
                for column in range(self.columnCount()):
                    self.setItem(row, column, QTableWidgetItem())
        for row, texts in enumerate(rows):
            for column, text in enumerate(texts):
                item = self.item(row, column)
                if item.text() != text:
                    item.setText(text)
        self.fit_height()

    def fit_height(self) -> None:
        header = self.horizontalHeader()
        height = header.sizeHint().height() if header.isVisibleTo(self) else 0
        height += self.verticalHeader().length()  # the rows' heights, summed by Qt
        height += 2 * self.frameWidth()
        if height != self.height():
            self.setFixedHeight(height)

    def text(self, row: int, column: int) -> str:
        return self.item(row, column).text()
