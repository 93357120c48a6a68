"""Vector charts of the report, drawn with reportlab.graphics from :mod:`app.report.series`.

- speed per user against concurrency, with the band, the target and the naive figure;
- aggregate output tokens/s of a replica against concurrency, with the band;
- TTFT of one user against prompt length (log scale), with the band and the target;
- the memory one GPU must hold (weights, KV cache, runtime) against what it may use;
- the first three again with the imported measurements drawn on them (the Validation
  chapter).

Every string names the embedded DejaVu font (reportlab's default is a non-embedded
Helvetica).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
)
from reportlab.lib import colors

from app.domain.result import SizingResult
from app.i18n import msg, plural
from app.report import series
from app.report.style import ACCENT, ACCENT_LIGHT, BAD, FONT, INK, MUTED, RULE
from app.report.text import GB, message, num, t

NAIVE = colors.HexColor("#8a6d00")
KV_COLOUR = colors.HexColor("#3f8f5a")
RUNTIME_COLOUR = colors.HexColor("#9aa5b1")
MARKER = colors.HexColor("#7b8794")
MEASURED = colors.HexColor("#c2410c")  # measured points on the predicted curves


def nice_step(span: float, count: int = 5) -> float:
    """A round tick step (1, 2 or 5 x 10^n) giving about ``count`` ticks over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def linear_ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = nice_step(high - low, count)
    first = math.ceil(low / step) * step
    ticks, value = [], first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def log2_ticks(low: float, high: float, most: int = 7) -> list[float]:
    exponents = list(range(math.ceil(math.log2(low)), math.floor(math.log2(high)) + 1))
    stride = max(1, math.ceil(len(exponents) / most))
    return [2.0**e for e in exponents[::stride]]


def tick_label(value: float, lang: str) -> str:
    if value != 0 and abs(value) < 10 and value != int(value):
        return num(value, "g", lang)
    return num(value, ",.0f", lang)


@dataclass
class Plot:
    """An x/y plot area inside a Drawing, mapping data to points."""

    width: float
    height: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    log_x: bool = False
    left: float = 50
    bottom: float = 52
    right: float = 12
    top: float = 10

    def __post_init__(self) -> None:
        # The renderer's initial font would otherwise be a non-embedded Helvetica.
        self.drawing = Drawing(self.width, self.height, initialFontName=FONT, initialFontSize=7)
        self.hlines: list[float] = []  # heights [pt] of the horizontal lines drawn so far

    @property
    def inner_width(self) -> float:
        return self.width - self.left - self.right

    @property
    def inner_height(self) -> float:
        return self.height - self.bottom - self.top

    def px(self, x: float) -> float:
        low, high = self.x_range
        if self.log_x:
            x, low, high = math.log(x), math.log(low), math.log(high)
        return self.left + (x - low) / (high - low) * self.inner_width

    def py(self, y: float) -> float:
        low, high = self.y_range
        return self.bottom + (y - low) / (high - low) * self.inner_height

    def text(self, x, y, value, size=7, colour=INK, anchor="start", bold=False) -> None:
        self.drawing.add(String(x, y, value, fontName=FONT, fontSize=size, fillColor=colour,
                                textAnchor=anchor))

    def axes(self, x_ticks, y_ticks, x_label: str, y_label: str, lang: str) -> None:
        x0, x1 = self.left, self.left + self.inner_width
        y0, y1 = self.bottom, self.bottom + self.inner_height
        for y in y_ticks:
            self.drawing.add(Line(x0, self.py(y), x1, self.py(y), strokeColor=RULE,
                                  strokeWidth=0.4))
            self.text(x0 - 4, self.py(y) - 2.5, tick_label(y, lang), anchor="end")
        for x in x_ticks:
            self.drawing.add(Line(self.px(x), y0, self.px(x), y0 - 3, strokeColor=INK,
                                  strokeWidth=0.5))
            self.text(self.px(x), y0 - 11, tick_label(x, lang), anchor="middle")
        self.drawing.add(Line(x0, y0, x1, y0, strokeColor=INK, strokeWidth=0.6))
        self.drawing.add(Line(x0, y0, x0, y1, strokeColor=INK, strokeWidth=0.6))
        self.text((x0 + x1) / 2, y0 - 22, x_label, size=7.5, anchor="middle")
        label = Group(String(0, 0, y_label, fontName=FONT, fontSize=7.5, fillColor=INK,
                             textAnchor="middle"))
        label.transform = (0, 1, -1, 0, 12, (y0 + y1) / 2)
        self.drawing.add(label)

    def band(self, xs: Sequence[float], low: Sequence[float], high: Sequence[float]) -> None:
        points: list[float] = []
        for x, y in zip(xs, high, strict=True):
            points += [self.px(x), self.py(min(y, self.y_range[1]))]
        for x, y in zip(reversed(xs), reversed(low), strict=True):
            points += [self.px(x), self.py(max(y, self.y_range[0]))]
        self.drawing.add(Polygon(points, fillColor=ACCENT_LIGHT, strokeColor=None,
                                 strokeWidth=0))

    def line(self, xs, ys, colour=ACCENT, width=1.6, dash=None) -> None:
        points: list[float] = []
        for x, y in zip(xs, ys, strict=True):
            points += [self.px(x), self.py(y)]
        self.drawing.add(PolyLine(points, strokeColor=colour, strokeWidth=width,
                                  strokeDashArray=dash, strokeLineJoin=1))

    def hline(self, y: float, colour, dash) -> None:
        self.hlines.append(self.py(y))
        self.drawing.add(Line(self.left, self.py(y), self.left + self.inner_width, self.py(y),
                              strokeColor=colour, strokeWidth=1, strokeDashArray=dash))

    LABEL_SIZE = 6.5  # pt, the marker's label

    def label_height(self, top: float) -> float:
        """The baseline for a label under the plot's top that no horizontal line crosses
        (a target or naive line near the top would strike it through): the first free row
        of label height downwards."""
        size = self.LABEL_SIZE
        for row in range(8):
            base = top - 9 - row * (size + 3)
            if base < self.bottom + 2:
                break
            # the glyphs span about base - 2 .. base + size; keep 1.5 pt clear of a line
            if all(not base - 3.5 <= y <= base + size + 1.5 for y in self.hlines):
                return base
        return top - 9

    def vline(self, x: float, label: str) -> None:
        top = self.bottom + self.inner_height
        self.drawing.add(Line(self.px(x), self.bottom, self.px(x), top, strokeColor=MARKER,
                              strokeWidth=0.8, strokeDashArray=[2, 2]))
        anchor = "end" if self.px(x) > self.left + 0.7 * self.inner_width else "start"
        offset = -3 if anchor == "end" else 3
        self.text(self.px(x) + offset, self.label_height(top), label, size=self.LABEL_SIZE,
                  colour=MUTED, anchor=anchor)

    def dots(self, points: Sequence[tuple[float, float]], colour=MEASURED) -> None:
        """Measured points as filled circles (clipped to the plot)."""
        x_low, x_high = self.x_range
        for x, y in points:
            if x_low <= x <= x_high and self.y_range[0] <= y <= self.y_range[1]:
                self.drawing.add(Circle(self.px(x), self.py(y), 2.6, fillColor=colour,
                                        strokeColor=colors.white, strokeWidth=0.6))

    def legend(self, items: list[tuple[str, object, list | None, str]]) -> None:
        """``items``: (kind 'line', 'box' or 'dot', colour, dash, text), left to right."""
        x, y = self.left, 8
        for kind, colour, dash, label in items:
            if kind == "dot":
                self.drawing.add(Circle(x + 7, y + 2.5, 2.6, fillColor=colour,
                                        strokeColor=None))
            elif kind == "box":
                self.drawing.add(Rect(x, y - 1, 14, 7, fillColor=colour, strokeColor=None))
            else:
                self.drawing.add(Line(x, y + 2.5, x + 14, y + 2.5, strokeColor=colour,
                                      strokeWidth=1.4, strokeDashArray=dash))
            self.text(x + 18, y, label, size=6.8)
            x += 18 + len(label) * 3.6 + 12


TARGET_DASH = [4, 2]
NAIVE_DASH = [1, 2]
#: The most room above the expected curve a speed chart gives the range's high end [-]: a
#: wide range (a regime with few calibration cases) must not squash the expected curve; the
#: tables give the whole range (the window's charts follow it too).
OPTIMISTIC_ROOM = 2.0


def _top(values: Sequence[float], *extra: float | None) -> float:
    return max([*values, *(e for e in extra if e is not None)] or [1.0]) * 1.08


def no_data(width: float, lang: str) -> Drawing:
    drawing = Drawing(width, 24, initialFontName=FONT, initialFontSize=7)
    drawing.add(String(0, 8, t(lang, "No curve: the result holds no points for this chart."),
                       fontName=FONT, fontSize=8, fillColor=MUTED))
    return drawing


def _speed_chart(width: float, height: float, data: series.Series, y_label: str,
                 mark_x: float, mark_label: str, lang: str,
                 target: float | None = None, naive: float | None = None,
                 measured: Sequence[tuple[float, float]] = ()) -> Drawing:
    if len(data.x) < 2:
        return no_data(width, lang)
    x_max = max([*data.x, *(x for x, _ in measured)])
    room = OPTIMISTIC_ROOM * max(data.y)
    top = _top([*(min(high, room) for high in data.high), *(y for _, y in measured)], target,
               naive)
    plot = Plot(width, height, (0, x_max), (0, top))
    plot.axes(linear_ticks(0, x_max), linear_ticks(0, top),
              t(lang, "concurrent users (one replica)"), y_label, lang)
    plot.band(data.x, data.low, data.high)
    legend = [("line", ACCENT, None, t(lang, "expected")),
              ("box", ACCENT_LIGHT, None, t(lang, "band (pessimistic to optimistic)"))]
    if target is not None:
        plot.hline(target, BAD, TARGET_DASH)
        legend.append(("line", BAD, TARGET_DASH, t(lang, "target")))
    if naive is not None:
        plot.hline(naive, NAIVE, NAIVE_DASH)
        legend.append(("line", NAIVE, NAIVE_DASH, t(lang, "naive figure")))
    plot.line(data.x, data.y)
    plot.vline(mark_x, mark_label)
    if measured:
        plot.dots(measured)
        legend.append(("dot", MEASURED, None, t(lang, "measured")))
    plot.legend(legend)
    return plot.drawing


def scenario_label(users: float, lang: str) -> str:
    """The mark of the scenario's load on the speed charts: 'scenario: 40 users'."""
    return plural(users, msg("scenario: {users:,.0f} user"), msg("scenario: {users:,.0f} users"),
                  users=users).text(lang)


def tokens_per_user_chart(result: SizingResult, width: float, lang: str,
                          height: float = 200, measured: bool = False) -> Drawing:
    """Tokens/s per user against users; ``measured``: with the imported points."""
    p = result.performance
    users = p.at_concurrency.concurrency
    points = series.measured_over_users(result, "tokens_per_s_per_user") if measured else []
    return _speed_chart(width, height, series.tokens_per_user(result),
                        t(lang, "tokens/s per user"), users, scenario_label(users, lang), lang,
                        target=p.targets.get("tokens_per_s_per_user"),
                        naive=None if measured else p.naive_tokens_per_s, measured=points)


def throughput_chart(result: SizingResult, width: float, lang: str,
                     height: float = 190, measured: bool = False) -> Drawing:
    """Output tokens/s of one replica against users; ``measured``: with the imported points."""
    p = result.performance
    users = p.at_concurrency.concurrency
    points = series.measured_over_users(result, "output_tokens_per_s") if measured else []
    return _speed_chart(width, height, series.aggregate_throughput(result),
                        t(lang, "output tokens/s (replica)"), users,
                        scenario_label(users, lang), lang, measured=points)


def ttft_chart(result: SizingResult, width: float, lang: str, height: float = 190,
               measured: bool = False) -> Drawing:
    """TTFT of one user against prompt length; ``measured``: with the imported points."""
    data = series.ttft_by_prompt(result)
    if len(data.x) < 2:
        return no_data(width, lang)
    points = series.measured_ttft_by_prompt(result) if measured else []
    target = result.performance.targets.get("ttft_s")
    top = _top([*data.high, *(y for _, y in points)], target)
    plot = Plot(width, height, (min(data.x), max(data.x)), (0, top), log_x=True)
    plot.axes(log2_ticks(min(data.x), max(data.x)), linear_ticks(0, top),
              t(lang, "prompt length [tokens] (log scale)"), t(lang, "TTFT [s]"), lang)
    plot.band(data.x, data.low, data.high)
    legend = [("line", ACCENT, None, t(lang, "expected, one user")),
              ("box", ACCENT_LIGHT, None, t(lang, "band"))]
    if target is not None:
        plot.hline(target, BAD, TARGET_DASH)
        legend.append(("line", BAD, TARGET_DASH, t(lang, "target")))
    plot.line(data.x, data.y)
    prompt = result.inputs.workload.prompt_tokens
    if min(data.x) <= prompt <= max(data.x):
        plot.vline(prompt, t(lang, "scenario: {tokens:,} tokens", tokens=prompt))
    if points:
        plot.dots(points)
        legend.append(("dot", MEASURED, None, t(lang, "measured, one user")))
    plot.legend(legend)
    return plot.drawing


def bar_segment(plot: Plot, start: float, value: float, colour, band: tuple[float, float],
                lang: str, min_label: float) -> None:
    """One part of a horizontal stacked bar from ``start`` to ``start + value`` [B], labelled
    with its size in GB when it is wider than ``min_label`` points."""
    y0, bar_height = band
    left, right = plot.px(start / GB), plot.px((start + value) / GB)
    plot.drawing.add(Rect(left, y0, right - left, bar_height, fillColor=colour,
                          strokeColor=colors.white, strokeWidth=0.5))
    if right - left > min_label:
        plot.text((left + right) / 2, y0 + bar_height / 2 - 3,
                  f"{num(value / GB, ',.1f', lang)} GB", colour=colors.white, anchor="middle")


def memory_chart(result: SizingResult, width: float, lang: str, height: float = 118) -> Drawing:
    bar = series.memory_bar(result)
    top = max(bar.capacity, bar.needed) * 1.05
    plot = Plot(width, height, (0, top / GB), (0, 1), left=14, bottom=52, top=26)
    drawing = plot.drawing
    y0, bar_height = plot.bottom + 8, plot.inner_height - 16
    x = 0.0
    segments = [(bar.weights, ACCENT, t(lang, "weights")),
                (bar.kv_cache, KV_COLOUR, t(lang, "KV cache at peak context")),
                (bar.runtime, RUNTIME_COLOUR, t(lang, "runtime and activations"))]
    for value, colour, _ in segments:
        bar_segment(plot, x, value, colour, (y0, bar_height), lang, min_label=40)
        x += value
    _finish_memory_bar(plot, top, t(lang, "memory of one GPU [GB]"), (bar.usable, bar.capacity),
                       (y0, bar_height), segments, lang)
    return drawing


def _finish_memory_bar(plot: Plot, top: float, title: str, limits: tuple[float, float],
                       bar: tuple[float, float], segments: list, lang: str) -> None:
    """The GB axis under a memory bar, its usable and physical limits, and the legend.

    ``limits`` are (usable, physical) memory [B]; ``bar`` is the bar's (y0, height).
    """
    for tick in linear_ticks(0, top / GB, 6):
        plot.drawing.add(Line(plot.px(tick), plot.bottom, plot.px(tick), plot.bottom - 3,
                              strokeColor=INK, strokeWidth=0.5))
        plot.text(plot.px(tick), plot.bottom - 11, tick_label(tick, lang), anchor="middle")
    plot.drawing.add(Line(plot.left, plot.bottom, plot.left + plot.inner_width, plot.bottom,
                          strokeColor=INK, strokeWidth=0.6))
    plot.text(plot.left + plot.inner_width / 2, plot.bottom - 22, title, size=7.5,
              anchor="middle")
    usable, physical = limits
    _limit(plot, usable, *bar, BAD, t(lang, "usable {value:,.1f} GB", value=usable / GB),
           row=0, dash=[3, 2])
    _limit(plot, physical, *bar, INK, t(lang, "GPU memory {value:,.1f} GB",
                                        value=physical / GB), row=1, dash=None)
    plot.legend([("box", colour, None, label) for _, colour, label in segments])


def _limit(plot: Plot, value: float, y0: float, height: float, colour, label: str,
           row: int, dash: list | None) -> None:
    """A vertical limit line through the bar, labelled above it (row 0 or 1), to its left."""
    x = plot.px(value / GB)
    plot.drawing.add(Line(x, y0 - 4, x, y0 + height + 4 + 9 * row, strokeColor=colour,
                          strokeWidth=1.2, strokeDashArray=dash))
    plot.text(x - 3, y0 + height + 6 + 9 * row, label, size=6.8, colour=colour, anchor="end")


GRADIENT_COLOUR = colors.HexColor("#d97706")
OPTIMIZER_COLOUR = colors.HexColor("#7c3aed")
ACTIVATION_COLOUR = colors.HexColor("#0e9aa7")


def training_memory_chart(result: SizingResult, width: float, lang: str,
                          height: float = 118) -> Drawing:
    """The fullest GPU's memory during training: weights, gradients, optimizer states,
    activations and runtime, against the usable and the physical memory."""
    tr = result.training
    if tr is None:
        return no_data(width, lang)
    top = max(tr.gpu_memory_bytes, tr.per_gpu_bytes) * 1.05
    plot = Plot(width, height, (0, top / GB), (0, 1), left=14, bottom=52, top=26)
    drawing = plot.drawing
    y0, bar_height = plot.bottom + 8, plot.inner_height - 16
    segments = [(tr.weights_bytes_per_gpu, ACCENT, t(lang, "weights")),
                (tr.gradients_bytes_per_gpu, GRADIENT_COLOUR, t(lang, "gradients")),
                (tr.optimizer_bytes_per_gpu, OPTIMIZER_COLOUR, t(lang, "optimizer states")),
                (tr.activation_bytes_per_gpu, ACTIVATION_COLOUR, t(lang, "activations")),
                (tr.runtime_bytes_per_gpu, RUNTIME_COLOUR, t(lang, "runtime"))]
    x = 0.0
    for value, colour, _ in segments:
        if colour is RUNTIME_COLOUR:  # outside the job's budget: above the usable memory
            x = max(x, tr.gpu_usable_bytes)
        bar_segment(plot, x, value, colour, (y0, bar_height), lang, min_label=34)
        x += value
    _finish_memory_bar(plot, top, t(lang, "memory of one GPU during training [GB]"),
                       (tr.gpu_usable_bytes, tr.gpu_memory_bytes), (y0, bar_height), segments,
                       lang)
    return drawing


def time_to_train_chart(result: SizingResult, width: float, lang: str,
                        height: float = 190) -> Drawing:
    """Wall-clock days to train against the GPU count (log scale), with the target."""
    tr = result.training
    points = tr.scaling if tr is not None else []
    if len(points) < 2:
        return no_data(width, lang)
    xs = [float(p.gpus) for p in points]
    ys = [p.wall_clock_s / 86_400 for p in points]
    target = tr.target_days
    top = _top(ys, target)
    plot = Plot(width, height, (min(xs), max(xs)), (0, top), log_x=True)
    plot.axes(log2_ticks(min(xs), max(xs)), linear_ticks(0, top),
              t(lang, "GPUs (log scale)"), t(lang, "time to train [days]"), lang)
    legend = [("line", ACCENT, None, t(lang, "wall clock, best layout at each count"))]
    if target is not None:
        plot.hline(target, BAD, TARGET_DASH)
        legend.append(("line", BAD, TARGET_DASH, t(lang, "target")))
    plot.line(xs, ys)
    if min(xs) <= tr.gpus_total <= max(xs):
        plot.vline(tr.gpus_total, plural(tr.gpus_total, msg("chosen: {gpus:,} GPU"),
                                         msg("chosen: {gpus:,} GPUs"),
                                         gpus=tr.gpus_total).text(lang))
    plot.legend(legend)
    return plot.drawing


NETWORK_COLOURS = (ACCENT, KV_COLOUR, NAIVE, colors.HexColor("#7c3aed"), MARKER)
NODES_SHOWN = 6
GPUS_SHOWN = 8


def topology_chart(result: SizingResult, width: float, lang: str) -> Drawing:
    """Servers with their GPUs, and one line per network joining them (a schematic).

    The servers sit on the left; each network is a horizontal line above them, labelled on
    the right with its switches, and every server drops a link to every network.
    """
    infra, scale = result.infrastructure, result.scale
    groups = infra.network.groups if infra else []
    spacing = 14
    box_height, bottom = 50, 22
    top = bottom + box_height
    height = top + 18 + spacing * max(len(groups), 1) + 4
    drawing = Drawing(width, height, initialFontName=FONT, initialFontSize=7)
    area = width * 0.52
    shown = min(scale.nodes, NODES_SHOWN)
    more = scale.nodes - shown
    slots = shown + (1 if more else 0)
    gap = 8
    box_width = min(110.0, (area - gap * (slots - 1)) / max(slots, 1))
    xs = [i * (box_width + gap) for i in range(slots)]
    line_end = xs[-1] + box_width + 14
    for index, network in enumerate(groups):
        y = top + 14 + index * spacing
        colour = NETWORK_COLOURS[index % len(NETWORK_COLOURS)]
        drawing.add(Line(0, y, line_end, y, strokeColor=colour, strokeWidth=1.2))
        offset = 10 + index * 6
        for x in xs[:shown]:
            drawing.add(Line(x + offset, top, x + offset, y, strokeColor=colour,
                             strokeWidth=0.7))
        text = t(lang, "{network}: {count} x {switch}", network=network.network,
                 count=network.count, switch=network.switch_name)
        drawing.add(String(line_end + 4, y - 2.5, text, fontName=FONT, fontSize=6.8,
                           fillColor=colour))
    for number, x in enumerate(xs[:shown], 1):
        _node(drawing, x, bottom, box_width, box_height, number, scale.gpus_per_node, lang)
    if more:
        x = xs[-1]
        drawing.add(Rect(x, bottom, box_width, box_height, fillColor=colors.white,
                         strokeColor=MARKER, strokeDashArray=[2, 2]))
        drawing.add(String(x + box_width / 2, bottom + box_height / 2 - 3,
                           f"+{num(more, ',d', lang)}", fontName=FONT, fontSize=8,
                           fillColor=MUTED, textAnchor="middle"))
    caption = plural(scale.gpus_per_node,
                     msg("{nodes} x {server}, {gpus} GPU each; scale-up: {scale_up}"),
                     msg("{nodes} x {server}, {gpus} GPUs each; scale-up: {scale_up}"),
                     nodes=scale.nodes, server=scale.server_shown, gpus=scale.gpus_per_node,
                     scale_up=message(infra.network.scale_up_message, infra.network.scale_up,
                                      lang) if infra else "–").text(lang)
    drawing.add(String(0, 6, caption[:140], fontName=FONT, fontSize=6.8, fillColor=INK))
    return drawing


def _node(drawing: Drawing, x: float, y: float, width: float, height: float, number: int,
          gpus: int, lang: str) -> None:
    drawing.add(Rect(x, y, width, height, rx=3, ry=3, fillColor=colors.HexColor("#f3f5f7"),
                     strokeColor=INK, strokeWidth=0.6))
    label = t(lang, "server {n}", n=number) if width >= 55 else f"#{number}"
    drawing.add(String(x + width - 4, y + height - 10, label, fontName=FONT, fontSize=6.8,
                       fillColor=INK, textAnchor="end"))
    drawn = min(gpus, GPUS_SHOWN)
    size = min(9.0, (width - 8) / max(drawn, 1) - 2)
    for index in range(drawn):
        drawing.add(Rect(x + 4 + index * (size + 2), y + 8, size, size, fillColor=KV_COLOUR,
                         strokeColor=None))
    drawing.add(Line(x + 4, y + 6, x + 4 + drawn * (size + 2) - 2, y + 6, strokeColor=ACCENT,
                     strokeWidth=1.2))
    if gpus > drawn:
        drawing.add(String(x + width - 4, y + 8, f"x{gpus}", fontName=FONT, fontSize=6.5,
                           fillColor=MUTED, textAnchor="end"))


CHARTS: dict[str, Callable[[SizingResult, float, str], Drawing]] = {
    "tokens_per_user": tokens_per_user_chart,
    "throughput": throughput_chart,
    "ttft": ttft_chart,
    "memory": memory_chart,
    "topology": topology_chart,
    "training_memory": training_memory_chart,
    "time_to_train": time_to_train_chart,
}
