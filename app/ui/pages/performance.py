"""4 Performance: speed and first-token time of one replica, against the targets."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.domain.result import Band, Lever, OperatingPoint, PerformanceResult, SizingResult
from app.i18n import msg, plural
from app.ui.charts import DecodeBreakdownChart, FigureTable, ThroughputChart, TtftChart
from app.ui.flow_layout import FlowLayout
from app.ui.pages.base import StepPage
from app.ui.pages.memory import bullets
from app.ui.summary_panel import Badge, verdict_text
from app.ui.text import render, t
from app.ui.units import number, rate, seconds

POINTS = ("One user", "Scenario load", "Saturation")
POINT_COLUMNS = (
    "Operating point",
    "Users",
    "Time to first token",
    "Tokens/s per user",
    "Output tokens/s (replica)",
)
LEVER_COLUMNS = ("Change", "Target missed", "Value after", "Meets both targets", "Note")
TARGET_NAMES = {"ttft": "TTFT", "tokens_per_s_per_user": "Tokens/s per user"}


def bare(value: float) -> str:
    """A rate without its unit (the expected figure above it carries the unit)."""
    return rate(value, "").strip()


def ranged(expected: str, low: str, high: str) -> str:
    return t("{expected}\nrange {low} – {high}", expected=expected, low=low, high=high)


def point_cells(point: OperatingPoint, band: Band) -> list[str]:
    """Users, TTFT, tokens/s per user, output tokens/s, each with its expected range."""
    ttft, speed, total = point.ttft_s, point.tokens_per_s_per_user, point.output_tokens_per_s
    return [
        number(point.concurrency, ",.0f"),
        ranged(seconds(ttft), *map(seconds, band.ttft_range(ttft))),
        ranged(rate(speed), *map(bare, band.speed_range(speed))),
        ranged(rate(total), *map(bare, band.speed_range(total))),
    ]


def lever_value(lever: Lever) -> str:
    if lever.target == "tokens_per_s_per_user":
        return rate(lever.value_after, t("tokens/s per user"))
    return seconds(lever.value_after)


def lever_cells(lever: Lever) -> list[str]:
    change = render(lever.change_message) if lever.change_message else lever.change
    note = render(lever.note_message) if lever.note_message else lever.note
    return [
        change,
        t(TARGET_NAMES.get(lever.target, lever.target)),
        lever_value(lever),
        t("Yes") if lever.meets else t("No"),
        note,
    ]


def target_text(p: PerformanceResult, key: str) -> str:
    """'TTFT target 2.00 s: 1.40 s at 40 users, met' and the like."""
    at = p.at_concurrency
    shared = {"users": number(at.concurrency, ",.0f"),
              "verdict": t("met") if p.targets_met[key] else t("missed")}
    if key == "ttft":
        return render(plural(
            at.concurrency, msg("TTFT under {target}: {value} at one user, {verdict}"),
            msg("TTFT under {target}: {value} at {users} users, {verdict}"),
            target=seconds(p.targets["ttft_s"]), value=seconds(at.ttft_s), **shared))
    return render(plural(
        at.concurrency,
        msg("Tokens/s per user at least {target}: {value} at one user, {verdict}"),
        msg("Tokens/s per user at least {target}: {value} at {users} users, {verdict}"),
        target=rate(p.targets["tokens_per_s_per_user"]), value=rate(at.tokens_per_s_per_user),
        **shared))


class PerformancePage(StepPage):
    HELP = (
        "How fast one replica answers: the first token, then tokens per second for each "
        "user, from one user to the most the memory and the engine allow."
    )

    def build(self) -> None:
        self.badges = {key: Badge() for key in TARGET_NAMES}
        self.unfit = Badge(wordWrap=True)  # the verdict, when the scenario's load does not fit
        self.no_targets = QLabel()
        self.planning = QLabel(wordWrap=True)
        self.points = FigureTable(len(POINTS), len(POINT_COLUMNS))
        self.points.stretch_only(2, 3, 4)  # the figures get the width their headers need
        self.throughput = ThroughputChart()
        self.ttft = TtftChart()
        self.breakdown = DecodeBreakdownChart()
        self.breakdown_note = QLabel(wordWrap=True)
        self.naive = QLabel(wordWrap=True)
        self.levers_box = QGroupBox()
        self.levers = FigureTable(0, len(LEVER_COLUMNS))
        self.levers.stretch_only(0, 4)
        self.explanation = QLabel(wordWrap=True)
        self.layout_.addLayout(self.build_targets())
        self.layout_.addWidget(self.planning)
        self.layout_.addWidget(self.points)
        self.layout_.addWidget(self.throughput)
        self.layout_.addWidget(self.naive)
        self.layout_.addLayout(self.build_charts())
        self.layout_.addWidget(self.build_levers())
        self.layout_.addWidget(self.explanation)
        self.layout_.addStretch(1)

    def build_targets(self) -> FlowLayout:
        """The target badges side by side, one under the other where the page is narrow."""
        row = FlowLayout()
        for badge in (*self.badges.values(), self.unfit):
            row.addWidget(badge)
        row.addWidget(self.no_targets)
        return row

    def build_charts(self) -> QHBoxLayout:
        breakdown = QWidget()
        column = QVBoxLayout(breakdown)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.breakdown)
        column.addWidget(self.breakdown_note)
        row = QHBoxLayout()
        row.addWidget(self.ttft, 1)
        row.addWidget(breakdown, 1)
        return row

    def build_levers(self) -> QGroupBox:
        column = QVBoxLayout(self.levers_box)
        column.addWidget(self.levers)
        return self.levers_box

    def retranslate(self) -> None:
        for chart in (self.throughput, self.ttft, self.breakdown):
            chart.retranslate()
        self.points.setHorizontalHeaderLabels([t(name) for name in POINT_COLUMNS])
        self.levers.setHorizontalHeaderLabels([t(name) for name in LEVER_COLUMNS])
        self.levers_box.setTitle(t("What would meet the targets"))
        self.no_targets.setText(t("No per-user targets apply to this workload."))
        self.breakdown_note.setText(
            t(
                "Reading the weights and the matrix compute overlap, though not completely: a "
                "step takes the longer of the two (the other is drawn light, marked "
                "overlapped) and what the partial overlap adds, plus the KV cache read, the "
                "communication and the overhead; the solid bars add up to the step. "
                "Memory-bound: reading the weights takes longer than the compute; compute-bound: "
                "the other way round."
            )
        )

    def show_result(self, result: SizingResult) -> None:
        p = result.performance
        for chart in (self.throughput, self.ttft, self.breakdown):
            chart.show_result(result)
        self.show_targets(result)
        self.show_planning(result)
        points = (p.single_user, p.at_concurrency, p.saturation)
        rows = [[t(POINTS[row]), *point_cells(point, p.band)] for row, point in enumerate(points)]
        if not result.verdict.fits:  # the scenario's load does not fit: no figures as if real
            rows[1][2:] = [t("does not fit")] * 3
        self.points.set_rows(rows)
        if not self.controller.levers_pending:
            self.show_levers(result)
        self.naive.setText(render(p.naive_message) if p.naive_message else p.naive_explanation)
        self.explanation.setText(bullets(t("How this was estimated"), p.messages))

    def show_targets(self, result: SizingResult) -> None:
        """A badge per target at the scenario's load; the verdict instead when the load does
        not fit (its figures describe no run that could happen)."""
        p, fits = result.performance, result.verdict.fits
        for key, badge in self.badges.items():
            known = key in p.targets_met and fits
            badge.set_state(p.targets_met.get(key) if known else None,
                            target_text(p, key) if known else "")
        self.unfit.set_state(False if not fits else None, verdict_text(result.verdict))
        self.no_targets.setVisible(not p.targets_met and fits)

    def show_planning(self, result: SizingResult) -> None:
        """Which end of the expected range Step 5 sizes the replicas by (the range is in the
        table below), and what the other would need."""
        planning = result.scale.planning
        self.planning.setVisible(planning is not None)
        if planning is not None:
            self.planning.setText(render(planning.message))

    def show_levers(self, result: SizingResult) -> None:
        levers = result.performance.levers
        self.levers_box.setVisible(bool(levers))
        self.levers.set_rows([lever_cells(lever) for lever in levers])
        for row in range(len(levers)):
            self.levers.item(row, 3).setTextAlignment(Qt.AlignmentFlag.AlignCenter)
