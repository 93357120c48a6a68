"""2 Memory: what one GPU and the whole replica must hold, and how many users fit."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout

from app.domain.result import MemoryResult, SizingResult
from app.i18n import Message, msg, plural
from app.ui.charts import FigureTable, VramChart, vram_parts
from app.ui.pages.base import StepPage
from app.ui.summary_panel import Badge
from app.ui.text import render, t
from app.ui.units import gb_gib, number

KIB = 1024
# Long labels (German) put their value on the next line rather than widen the page.
WRAP = QFormLayout.RowWrapPolicy.WrapLongRows
VALUE_CHARACTERS = 20  # the narrowest a fact's value may be before it wraps under its label
DASH = "–"
ROWS = (
    "Weights",
    "KV cache at peak context",
    "KV cache at average context",
    "Runtime and activations",
    "Total at peak context",
    "Usable by the engine",
    "Left for the KV cache",
    "Physical memory",
)
FACTS = (
    "KV cache per token",
    "KV cache per sequence",
    "Concurrent sequences",
    "Peak against average context",
)


def kib(value_bytes: float) -> str:
    return f"{number(value_bytes / KIB, ',.0f')} KiB"


def bullets(title: str, messages: list[Message]) -> str:
    """A bold title and the engine's sentences as a list, in the window's language."""
    items = "".join(f"<li>{escape(render(message))}</li>" for message in messages)
    return f"<b>{escape(title)}</b><ul style='margin-left: 0px'>{items}</ul>"


def is_naive(message: Message) -> bool:
    """The engine's sentence on the rule of thumb (shown beside the naive figure)."""
    return "rule of thumb" in message.template


def replica_total(m: MemoryResult) -> float:
    """The whole replica at peak: weights, KV cache and runtime of all its GPUs [B]."""
    return m.weights_bytes + m.kv_cache_bytes + m.runtime_bytes


def breakdown_rows(m: MemoryResult) -> list[tuple[str, str]]:
    """(one GPU, whole replica) for each row of the table, GB and GiB."""
    parts = vram_parts(m)
    return [
        (gb_gib(m.weights_bytes_per_gpu), gb_gib(m.weights_bytes)),
        (gb_gib(parts["kv"]), gb_gib(m.kv_cache_bytes)),
        (DASH, gb_gib(m.kv_cache_bytes_average)),
        (gb_gib(m.runtime_bytes_per_gpu), gb_gib(m.runtime_bytes)),
        (gb_gib(m.per_gpu_bytes), gb_gib(replica_total(m))),
        (gb_gib(m.gpu_usable_bytes), DASH),
        (gb_gib(m.kv_budget_bytes_per_gpu), DASH),
        (gb_gib(m.gpu_memory_bytes), DASH),
    ]


def facts(m: MemoryResult) -> list[str]:
    """The KV and capacity figures, in the order of ``FACTS``."""
    return [
        t(
            "{replica} for the replica, {gpu} on each GPU",
            replica=kib(m.kv_bytes_per_token),
            gpu=kib(m.kv_bytes_per_token_per_gpu),
        ),
        t(
            "{size} at {tokens} tokens",
            size=gb_gib(m.kv_bytes_per_sequence, 2),
            tokens=number(m.peak_context_tokens, ",.0f"),
        ),
        t(
            "{fit} fit at peak context (sized for {sized}; engine limit {limit})",
            fit=number(m.max_concurrent_sequences, ",.0f"),
            sized=number(m.concurrency_sized, ",.0f"),
            limit=number(m.batch_limit, ",.0f"),
        ),
        t(
            "{peak} tokens at peak, {average} on average: KV cache {kv_peak} against {kv_avg}",
            peak=number(m.peak_context_tokens, ",.0f"),
            average=number(m.average_context_tokens, ",.0f"),
            kv_peak=gb_gib(m.kv_cache_bytes),
            kv_avg=gb_gib(m.kv_cache_bytes_average),
        ),
    ]


def fit_text(r: SizingResult) -> str:
    """The badge: the result's verdict on the memory; a training result's Step 2 describes
    serving the trained model (the training memory is on the Training page)."""
    if r.training is not None:
        return (t("Serving the trained model fits in memory") if r.memory.fits
                else t("Serving the trained model does not fit"))
    return t("Fits in memory") if r.verdict.fits else t("Does not fit")


class MemoryPage(StepPage):
    HELP = (
        "What each GPU must hold at peak: the weights, the KV cache of every user at the "
        "longest context, and the runtime. The engine may use only part of the card."
    )

    def build(self) -> None:
        self.fit_badge = Badge()
        self.chart = VramChart()
        self.table = FigureTable(len(ROWS), 3)
        self.fact_labels = {name: QLabel() for name in FACTS}
        self.fact_values = {name: QLabel(wordWrap=True) for name in FACTS}
        self.naive_box = QGroupBox()
        self.naive_labels = (QLabel(), QLabel())
        self.naive_values = (QLabel(), QLabel())
        self.naive_why = QLabel(wordWrap=True)
        self.explanation = QLabel(wordWrap=True)
        self.layout_.addWidget(self.fit_badge, 0, Qt.AlignmentFlag.AlignLeft)
        self.layout_.addLayout(self.build_top())
        self.layout_.addWidget(self.build_naive())
        self.layout_.addWidget(self.explanation)
        self.layout_.addStretch(1)

    def build_top(self) -> QHBoxLayout:
        form = QFormLayout()
        form.setRowWrapPolicy(WRAP)
        for name in FACTS:
            # A value gets a readable width; short of it, it goes under its label.
            self.fact_values[name].setMinimumWidth(
                VALUE_CHARACTERS * self.fact_values[name].fontMetrics().averageCharWidth())
            form.addRow(self.fact_labels[name], self.fact_values[name])
        column = QVBoxLayout()
        column.addWidget(self.table)
        column.addLayout(form)
        column.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.chart, 2)
        row.addLayout(column, 3)
        return row

    def build_naive(self) -> QGroupBox:
        form = QFormLayout(self.naive_box)
        form.setRowWrapPolicy(WRAP)
        for label, value in zip(self.naive_labels, self.naive_values, strict=True):
            form.addRow(label, value)
        form.addRow(self.naive_why)
        return self.naive_box

    def retranslate(self) -> None:
        self.chart.retranslate()
        self.table.setHorizontalHeaderLabels([t("Memory"), t("One GPU"), t("Whole replica")])
        for row, name in enumerate(ROWS):
            self.table.item(row, 0).setText(t(name))
        for name in FACTS:
            self.fact_labels[name].setText(t(name) + ":")
        self.naive_box.setTitle(t("Rule of thumb against this estimate"))
        self.naive_labels[0].setText(t("Rule of thumb, parameters x 2 bytes:"))
        self.naive_labels[1].setText(t("This estimate, whole replica at peak context:"))

    def show_result(self, result: SizingResult) -> None:
        m, gpus = result.memory, result.selection.chosen.gpus_per_replica
        fits = m.fits if result.training is not None else result.verdict.fits
        self.fit_badge.set_state(fits, fit_text(result))
        self.chart.show_result(result)
        self.table.setHorizontalHeaderLabels(
            [
                t("Memory"),
                t("One GPU"),
                # "(n GPUs)" on a line of its own: the column is narrow beside the chart.
                render(plural(gpus, msg("Whole replica ({n} GPU)"),
                              msg("Whole replica ({n} GPUs)"), n=gpus)).replace(" (", "\n(", 1),
            ]
        )
        self.table.set_rows([[t(ROWS[row]), *cells] for row, cells in enumerate(breakdown_rows(m))])
        for name, text in zip(FACTS, facts(m), strict=True):
            self.fact_values[name].setText(text)
        self.show_naive(m)
        self.explanation.setText(
            bullets(t("How this was sized"), [msg for msg in m.messages if not is_naive(msg)])
        )

    def show_naive(self, m: MemoryResult) -> None:
        self.naive_values[0].setText(gb_gib(m.naive_weights_bytes))
        self.naive_values[1].setText(gb_gib(replica_total(m)))
        why = [message for message in m.messages if is_naive(message)]
        self.naive_why.setText(render(why[0]) if why else "")
