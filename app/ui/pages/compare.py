"""Compare: up to four pinned configurations side by side, as a table and overlaid curves."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from app import api
from app.ui.charts import (
    FOREGROUND,
    Chart,
    dashed,
    line_label,
    marker_line,
    pen,
    set_axis,
    set_title,
)
from app.ui.compare_model import (
    KEY_FIGURES,
    MAX_OPTIONS,
    ComparisonFull,
    ComparisonSet,
    PinnedOption,
    column,
    passes,
)
from app.ui.pages.base import StepPage
from app.ui.text import render, t

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")  # one per option, table and charts
PASS_COLOUR, FAIL_COLOUR = "#2e7d32", "#c62828"
ERROR_STYLE = "color: #c62828;"
NAME_CHARS = 32
SCENARIO_FILTER = "AI Sizer scenarios (*.json)"


def short(text: str, length: int = NAME_CHARS) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


class ComparePage(StepPage):
    HELP = ("Pin the current configuration, change the scenario and pin again, or pin saved "
            "scenario files: up to four options side by side. A pinned option keeps the "
            "result it had when it was pinned.")

    # --- building --------------------------------------------------------------------------
    def build(self) -> None:
        self.comparison = ComparisonSet()
        self.controller.comparison = self.comparison  # the report shows the pinned options
        self.layout_.addLayout(self.build_buttons())
        self.message = QLabel(wordWrap=True)
        self.layout_.addWidget(self.message)
        self.empty = QLabel(wordWrap=True)
        self.layout_.addWidget(self.empty)
        self.table = self.build_table()
        self.layout_.addWidget(self.table)
        self.layout_.addLayout(self.build_unpin_buttons())
        self.charts = QWidget()
        self.charts.setLayout(self.build_charts())
        self.layout_.addWidget(self.charts)
        self.layout_.addStretch(1)
        self.show_message("")

    def build_buttons(self) -> QHBoxLayout:
        self.pin_current_button = QPushButton()
        self.pin_current_button.clicked.connect(self.pin_current)
        self.pin_file_button = QPushButton()
        self.pin_file_button.clicked.connect(self.pin_file_dialog)
        row = QHBoxLayout()
        row.addWidget(self.pin_current_button)
        row.addWidget(self.pin_file_button)
        row.addStretch(1)
        return row

    def build_table(self) -> QTableWidget:
        table = QTableWidget(len(KEY_FIGURES), 0)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        return table

    def build_unpin_buttons(self) -> QHBoxLayout:
        self.unpin_buttons = [QPushButton() for _ in range(MAX_OPTIONS)]
        row = QHBoxLayout()
        for index, button in enumerate(self.unpin_buttons):
            button.clicked.connect(lambda _checked=False, i=index: self.unpin(i))
            row.addWidget(button)
        row.addStretch(1)
        return row

    def build_charts(self) -> QHBoxLayout:
        self.speed_plot, self.speed_curves = self.build_plot(legend_at=(-10, 10))
        self.throughput_plot, self.throughput_curves = self.build_plot(legend_at=(-10, -40))
        self.target_line = marker_line(0, dashed(FOREGROUND, 1), 0.05, (0, 1))
        self.speed_plot.plot.addItem(self.target_line, ignoreBounds=True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.speed_plot)
        row.addWidget(self.throughput_plot)
        return row

    def build_plot(self, legend_at: tuple[int, int]) -> tuple[Chart, list[pg.PlotDataItem]]:
        chart = Chart()
        chart.setMinimumHeight(320)
        chart.plot.addLegend(offset=legend_at, labelTextColor=FOREGROUND)
        curves = [chart.plot.plot(pen=pen(colour)) for colour in COLOURS]
        return chart, curves

    # --- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.pin_current_button.setText(t("Pin current configuration"))
        self.pin_file_button.setText(t("Pin a saved scenario…"))
        self.empty.setText(t("Nothing pinned yet. Pin the current configuration to start a "
                             "comparison."))
        self.table.setVerticalHeaderLabels([t(label) for label, _ in KEY_FIGURES])
        line_label(self.target_line, t("target"))
        self.label_plot(self.speed_plot, t("Tokens/s per user"), "Tokens per second per user")
        self.label_plot(self.throughput_plot, t("Output tokens/s"),
                        "Aggregate throughput of one replica")
        self.refresh()

    def label_plot(self, chart: Chart, left: str, title: str) -> None:
        set_title(chart.plot, t(title))
        set_axis(chart.plot, "left", left, "")
        set_axis(chart.plot, "bottom", t("Concurrent users per replica"), "")

    # --- actions ---------------------------------------------------------------------------
    def pin_current(self) -> None:
        self.pin(lambda: self.comparison.pin(self.controller.data, self.controller.catalog))

    def pin_file(self, path: Path) -> None:
        self.pin(lambda: self.comparison.pin_file(Path(path), self.controller.catalog))

    def pin_file_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, t("Pin a saved scenario"), "",
                                              t(SCENARIO_FILTER))
        if path:
            self.pin_file(Path(path))

    def pin(self, pin_action) -> None:
        """Run one pin action; a refusal is shown on the page, never raised."""
        try:
            pin_action()
        except ComparisonFull as exc:
            self.show_message(str(exc))
            return
        except api.ScenarioError as exc:
            self.show_message(t("Cannot pin this scenario:") + "\n"
                              + "\n".join(render(m) for m in exc.messages))
            return
        self.show_message("")
        self.refresh()

    def unpin(self, index: int) -> None:
        if index < len(self.comparison):
            self.comparison.unpin(index)
            self.show_message("")
            self.refresh()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.setVisible(bool(text))

    # --- redraw ----------------------------------------------------------------------------
    def start_clean(self) -> None:
        """New or Open: the controller dropped the pins of the scenario before."""
        super().start_clean()
        self.show_message("")
        self.refresh()

    def refresh(self) -> None:
        options = self.comparison.options
        self.empty.setVisible(not options)
        self.table.setVisible(bool(options))
        self.charts.setVisible(bool(options))
        self.fill_table(options)
        self.fill_unpin_buttons(options)
        self.fill_charts(options)

    def fill_table(self, options: list[PinnedOption]) -> None:
        self.table.setColumnCount(len(options))
        for col, option in enumerate(options):
            self.table.setHorizontalHeaderItem(col, self.header_item(col, option))
            for row, text in enumerate(column(option.result)):
                self.table.setItem(row, col, self.cell(option, row, text))

    def header_item(self, col: int, option: PinnedOption) -> QTableWidgetItem:
        letter = self.comparison.letter(col)
        item = QTableWidgetItem(f"{letter}\n{short(option.name)}")
        item.setToolTip(f"{letter}: {option.name}")
        item.setForeground(QBrush(QColor(COLOURS[col])))
        return item

    def cell(self, option: PinnedOption, row: int, text: str) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        verdict = passes(option.result, KEY_FIGURES[row][0])
        if verdict is not None:
            item.setForeground(QBrush(QColor(PASS_COLOUR if verdict else FAIL_COLOUR)))
        return item

    def fill_unpin_buttons(self, options: list[PinnedOption]) -> None:
        for index, button in enumerate(self.unpin_buttons):
            button.setVisible(index < len(options))
            button.setText(t("Unpin {letter}", letter=self.comparison.letter(index)))

    def fill_charts(self, options: list[PinnedOption]) -> None:
        for plot, curves, field in ((self.speed_plot, self.speed_curves, "tokens_per_s_per_user"),
                                    (self.throughput_plot, self.throughput_curves,
                                     "output_tokens_per_s")):
            plot.plot.legend.clear()
            for index, curve in enumerate(curves):
                self.fill_curve(plot, curve, options[index] if index < len(options) else None,
                                index, field)
        self.fill_target_line(options)

    def fill_target_line(self, options: list[PinnedOption]) -> None:
        """The speed target, drawn when every pinned option has the same one."""
        targets = {o.result.performance.targets.get("tokens_per_s_per_user") for o in options}
        target = targets.pop() if len(targets) == 1 else None
        self.target_line.setVisible(target is not None)
        if target is not None:
            self.target_line.setValue(target)

    def fill_curve(self, plot: Chart, curve: pg.PlotDataItem,
                   option: PinnedOption | None, index: int, field: str) -> None:
        if option is None:
            curve.setData([], [])
            return
        points = option.result.performance.curve
        curve.setData([p.concurrency for p in points], [getattr(p, field) for p in points])
        plot.plot.legend.addItem(curve, self.legend_name(index, option))

    def legend_name(self, index: int, option: PinnedOption) -> str:
        chosen = option.result.selection.chosen
        return (f"{self.comparison.letter(index)}: {chosen.gpus_per_replica} x "
                f"{option.result.gpu.name}")
