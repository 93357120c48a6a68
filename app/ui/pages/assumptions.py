"""Assumptions: every efficiency factor and default the result used, with its source.

The serving engine's efficiency factors can be overridden for this scenario (saved in its
``factor_overrides``) or fitted to a customer's measurement; everything else is read-only here.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from app import api
from app.domain.result import Assumption, SizingResult
from app.domain.scenario import OVERRIDABLE_FACTORS, Scenario
from app.i18n import msg, plural
from app.ui.pages.base import StepPage
from app.ui.text import language, render, t
from app.ui.units import number, rate, unit_text

COLUMNS = ("Assumption", "Value", "Unit", "Overridden", "Source")
NAME, VALUE, UNIT, OVERRIDDEN, SOURCE = range(len(COLUMNS))
EDITABLE_BACKGROUND = "#fff8e1"
ERROR_STYLE = "color: #c62828;"
FIELD_WIDTH = 320
NAME_SHARE = 0.4  # the names take at most this share of the table's width
TABLE_MIN_HEIGHT = 330  # the first rows, the engine's factors, stay in view
SCALED_UNITS = {  # engine unit: (shown unit, factor, from this value up), largest first
    "B": (("GB", 1e-9, 1e8), ("MB", 1e-6, 1e5), ("kB", 1e-3, 1e3)),
    "B/s": (("GB/s", 1e-9, 1e8),),
    "FLOP/s": (("TFLOP/s", 1e-12, 1e10),),
    "W": (("kW", 1e-3, 1e3),),
}
FACTOR_TIME = ("ms", 1e3)
# Units written as words (the engine's Assumption.unit and the catalog defaults' units):
# shown through t(). Symbols (s, ms, B, GB, W, V, A, h, USD, kg/kWh...) are the same in German.


def factor_of(a: Assumption) -> str | None:
    """The overridable factor an assumption row shows ('vllm.eta_mem' -> 'eta_mem')."""
    prefix, _, key = a.name.rpartition(".")
    return key if prefix and key in OVERRIDABLE_FACTORS else None


def display_unit(a: Assumption) -> tuple[str, float]:
    """The unit a value is shown in and the factor from the engine's SI value."""
    if factor_of(a) and a.unit == "s":
        return FACTOR_TIME  # factor times are all below a second
    numeric = isinstance(a.value, int | float) and not isinstance(a.value, bool)
    for unit, scale, least in SCALED_UNITS.get(a.unit, ()):
        if numeric and abs(a.value) >= least:
            return unit, scale
    return a.unit, 1.0




def value_text(value, scale: float) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    shown = value * scale
    return number(shown, ",.0f" if abs(shown) >= 1e4 else ",.4g")


def parse_number(text: str) -> float | None:
    """A number typed in the window's language (None for an empty cell; ValueError if bad)."""
    text = text.strip()
    if not text:
        return None
    if language() == "de":
        return float(text.replace(".", "").replace(",", "."))
    return float(text.replace(",", ""))



# --- calibration from a measurement ---------------------------------------------------------
METRICS = (  # metric id, label, factor from the shown unit to SI
    ("itl_s", "Inter-token latency [ms]", 1e-3),
    ("tokens_per_s_per_user", "Tokens/s per user", 1.0),
    ("output_tokens_per_s", "Total output tokens/s, one replica", 1.0),
    ("ttft_s", "TTFT [ms]", 1e-3),
)
SCALE = {metric: factor for metric, _, factor in METRICS}


def metric_text(metric: str, value: float) -> str:
    """A metric's SI value as the form shows it."""
    if SCALE[metric] != 1.0:
        return f"{number(value / SCALE[metric], ',.1f')} ms"
    return rate(value)


def curve_value(result: SizingResult, metric: str, users: float) -> float | None:
    """The result's ``metric`` at ``users`` concurrent users of one replica, if on its curve."""
    for point in result.performance.curve:
        if abs(point.concurrency - users) < 0.5:
            return float(getattr(point, metric))
    return None


def fitted_text(overrides: dict[str, float], labels: dict[str, str]) -> str:
    """The fitted factors, each by its label (``labels``: factor -> label; the factor's name
    where the result has no row for it)."""
    parts = []
    for name in OVERRIDABLE_FACTORS:
        if name in overrides:
            scale = FACTOR_TIME[1] if name.endswith("_s") else 1.0
            unit = f" {FACTOR_TIME[0]}" if name.endswith("_s") else ""
            parts.append(f"{labels.get(name, name)} {number(overrides[name] * scale, ',.4g')}"
                         f"{unit}")
    return ", ".join(parts)


def factor_labels(result: SizingResult | None) -> dict[str, str]:
    """Each overridable factor's label in the window's language, from the result's rows."""
    if result is None:
        return {}
    return {factor_of(a): a.label(language()) for a in result.assumptions if factor_of(a)}


class NoteLabel(QLabel):
    """A wrapped line of text that takes no room while it is empty."""

    def __init__(self):
        super().__init__(wordWrap=True, visible=False)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt API)
        super().setText(text)
        self.setVisible(bool(text))


class AssumptionsPage(StepPage):
    HELP = ("Every efficiency factor and default behind the result, with its source. The serving "
            "engine's efficiency factors (shaded) can be changed for this scenario: double-click "
            "a value, type a new one, or clear it to go back to the catalog value. Overridden "
            "values are saved in the scenario, shown in bold and listed in the report.")

    # --- building --------------------------------------------------------------------------
    def build(self) -> None:
        self.factor_rows: dict[int, tuple[str, float]] = {}
        self.fitted: dict[str, float] | None = None
        self.pending_check: tuple[str, float, int] | None = None
        self.users_from_result = True
        self.table = self.build_table()
        self.source = QLabel(wordWrap=True,
                             textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addLayout(self.build_search())
        self.layout_.addWidget(self.table, 1)
        self.layout_.addWidget(self.source)
        self.layout_.addLayout(self.build_reset_row())
        self.layout_.addWidget(self.build_calibration())

    def build_table(self) -> QTableWidget:
        table = QTableWidget(0, len(COLUMNS))
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                              | QAbstractItemView.EditTrigger.EditKeyPressed)
        table.verticalHeader().setVisible(False)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setMinimumHeight(TABLE_MIN_HEIGHT)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)  # fit_columns
        header.setSectionResizeMode(SOURCE, QHeaderView.ResizeMode.Stretch)
        table.installEventFilter(self)  # fit_columns when the table's width changes
        table.itemChanged.connect(self.value_edited)
        table.currentCellChanged.connect(lambda row, *_: self.show_source(row))
        return table

    def start_clean(self) -> None:
        """New or Open: the search was the scenario before's."""
        super().start_clean()
        self.search.clear()

    def build_search(self) -> QHBoxLayout:
        """A search box over the table: rows whose name, value, unit, source or id hold the
        words typed (in any order, any case) stay; the others hide."""
        self.search = QLineEdit(clearButtonEnabled=True)
        self.search.setObjectName("assumptionSearch")
        self.search.textChanged.connect(lambda _: self.apply_search())
        self.search_count = QLabel()
        row = QHBoxLayout()
        row.addWidget(self.search, 1)
        row.addWidget(self.search_count)
        return row

    def apply_search(self) -> None:
        words = self.search.text().casefold().split()
        result = self.controller.result
        ids = [a.name for a in result.assumptions] if result is not None else []
        shown = 0
        for row in range(self.table.rowCount()):
            cells = [self.table.item(row, col).text() for col in range(len(COLUMNS))]
            haystack = " ".join(cells + ids[row:row + 1]).casefold()
            hidden = not all(word in haystack for word in words)
            self.table.setRowHidden(row, hidden)
            shown += not hidden
        self.search_count.setText(t("{shown} of {total} shown", shown=shown,
                                    total=self.table.rowCount()) if words else "")

    def build_reset_row(self) -> QHBoxLayout:
        self.reset_button = QPushButton()
        self.reset_button.clicked.connect(self.reset)
        self.edit_error = QLabel(wordWrap=True)
        self.edit_error.setStyleSheet(ERROR_STYLE)
        row = QHBoxLayout()
        row.addWidget(self.reset_button)
        row.addWidget(self.edit_error, 1)
        return row

    def build_calibration(self) -> QGroupBox:
        self.calibration = QGroupBox()
        self.metric_combo = QComboBox()
        self.measured = QDoubleSpinBox(decimals=2, minimum=0.0, maximum=1e7)
        self.users = QSpinBox(minimum=1, maximum=100_000)
        self.users.valueChanged.connect(self.users_edited)
        self.metric_combo.currentIndexChanged.connect(lambda _: self.show_prediction())
        self.calibrate_button = QPushButton()
        self.calibrate_button.clicked.connect(self.calibrate_from_form)
        self.form = QFormLayout()
        self.form_labels = [QLabel() for _ in range(3)]  # kept: the form has no parent yet
        for label, field in zip(self.form_labels, (self.metric_combo, self.measured, self.users),
                                strict=True):
            field.setMaximumWidth(FIELD_WIDTH)
            self.form.addRow(label, field)
        self.prediction, self.fit_result, self.fit_check, self.fit_error = (
            NoteLabel() for _ in range(4))
        self.fit_error.setStyleSheet(ERROR_STYLE)
        self.calibration.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self.calibration)
        layout.addLayout(self.form)
        layout.addWidget(self.prediction)
        layout.addWidget(self.calibrate_button, alignment=Qt.AlignmentFlag.AlignLeft)
        for label in (self.fit_result, self.fit_check, self.fit_error):
            layout.addWidget(label)
        return self.calibration

    # --- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([t(name) for name in COLUMNS])
        self.search.setPlaceholderText(t("Search the assumptions: name, value, source…"))
        self.apply_search()
        self.reset_button.setText(t("Reset to catalog values"))
        self.calibration.setTitle(t("Calibrate from a measurement"))
        index = max(self.metric_combo.currentIndex(), 0)
        self.metric_combo.blockSignals(True)
        self.metric_combo.clear()
        for metric, label, _ in METRICS:
            self.metric_combo.addItem(t(label), metric)
        self.metric_combo.setCurrentIndex(index)
        self.metric_combo.blockSignals(False)
        for label, text in zip(self.form_labels, ("Measured metric", "Measured value",
                                                  "Concurrent users on one replica"), strict=True):
            label.setText(t(text))
        self.calibrate_button.setText(t("Calibrate"))
        self.show_fitted()

    # --- the table -------------------------------------------------------------------------
    def show_result(self, result: SizingResult) -> None:
        self.fill_table(result.assumptions)
        if self.users_from_result:
            self.users.blockSignals(True)
            self.users.setValue(max(1, round(result.performance.at_concurrency.concurrency)))
            self.users.blockSignals(False)
        self.show_prediction()
        self.show_check(result)

    def fill_table(self, assumptions: list[Assumption]) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(len(assumptions))
        self.factor_rows.clear()
        for row, a in enumerate(assumptions):
            self.fill_row(row, a)
        self.table.blockSignals(False)
        self.apply_search()
        self.fit_columns()
        self.show_source(self.table.currentRow())

    def fit_columns(self) -> None:
        """The names as wide as the longest, up to ``NAME_SHARE`` of the table: the sources
        keep the rest (a long name elides; its row's line under the table has it in full)."""
        header = self.table.horizontalHeader()
        widest = max(self.table.sizeHintForColumn(NAME), header.sectionSizeHint(NAME))
        header.resizeSection(NAME, min(widest, int(self.table.viewport().width() * NAME_SHARE)))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if watched is self.table and event.type() == QEvent.Type.Resize:
            self.fit_columns()
        return super().eventFilter(watched, event)

    def fill_row(self, row: int, a: Assumption) -> None:
        unit, scale = display_unit(a)
        factor = factor_of(a)
        if factor:
            self.factor_rows[row] = (factor, scale)
        lang = language()
        source = a.source_text(lang)
        texts = (a.label(lang), value_text(a.value, scale), unit_text(unit),
                 t("overridden") if a.overridden else "", source)
        for col, text in enumerate(texts):
            self.table.setItem(row, col, self.cell(text, a, editable=bool(factor) and col == VALUE))
        self.table.item(row, NAME).setToolTip(a.label(lang))  # the whole name, if elided
        self.table.item(row, SOURCE).setToolTip(source)

    def cell(self, text: str, a: Assumption, editable: bool) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        item.setFlags(flags | Qt.ItemFlag.ItemIsEditable if editable else flags)
        if editable:
            item.setBackground(QBrush(QColor(EDITABLE_BACKGROUND)))
            item.setToolTip(t("Double-click to override this factor for this scenario"))
        if a.overridden:
            font = QFont(item.font())
            font.setBold(True)
            item.setFont(font)
        return item

    def show_source(self, row: int) -> None:
        result = self.controller.result
        if result is None or not 0 <= row < len(result.assumptions):
            self.source.setText(t("Select a row to read its full source."))
            return
        a = result.assumptions[row]
        lang = language()
        self.source.setText(f"<b>{escape(a.label(lang))}</b>: {escape(a.source_text(lang))}")

    # --- edits -----------------------------------------------------------------------------
    def value_edited(self, item: QTableWidgetItem) -> None:
        if item.column() != VALUE or item.row() not in self.factor_rows:
            return
        factor, scale = self.factor_rows[item.row()]
        try:
            value = parse_number(item.text())
        except ValueError:
            self.refuse(t("'{value}' is not a number.", value=item.text()))
            return
        self.set_factor(factor, None if value is None else value / scale)

    def set_factor(self, factor: str, value: float | None) -> list[str]:
        """Override one factor for this scenario (None: back to the catalog value)."""
        label = factor_labels(self.controller.result).get(factor, factor)
        problems = self.controller.edit(f"factor_overrides.{factor}", value,
                                        label=t("Override {factor}", factor=label))
        if problems:
            self.refuse("\n".join(problems))
        else:
            self.edit_error.clear()
        return problems

    def refuse(self, text: str) -> None:
        """Show why an edit was refused and put the shown values back (after the edit signal)."""
        self.edit_error.setText(text)
        QTimer.singleShot(0, self, self.refill)

    def refill(self) -> None:
        if self.controller.result is not None:
            self.fill_table(self.controller.result.assumptions)

    def reset(self) -> None:
        self.controller.edit("factor_overrides", None, label=t("Reset to catalog values"))
        self.edit_error.clear()

    def show_scenario(self, scenario: Scenario) -> None:
        self.reset_button.setEnabled(bool(scenario.factor_overrides))
        if self.fitted is not None and scenario.factor_overrides != self.fitted:
            self.fitted, self.pending_check = None, None
            self.show_fitted()
            self.fit_check.setText("")

    # --- calibration -----------------------------------------------------------------------
    def users_edited(self, _value: int) -> None:
        self.users_from_result = False
        self.show_prediction()

    def current_metric(self) -> str:
        return self.metric_combo.currentData() or METRICS[0][0]

    def show_prediction(self) -> None:
        result, metric = self.controller.result, self.current_metric()
        value = curve_value(result, metric, self.users.value()) if result else None
        users = self.users.value()
        self.prediction.setText("" if value is None else render(plural(
            users, msg("The model predicts {value} at one user now."),
            msg("The model predicts {value} at {users} users now."),
            value=metric_text(metric, value), users=users)))

    def calibrate_from_form(self) -> None:
        metric = self.current_metric()
        self.calibrate(metric, self.measured.value() * SCALE[metric], self.users.value())

    def calibrate(self, metric: str, measured: float, users: int) -> list[str]:
        """Fit the factors to ``measured`` [SI] at ``users`` and apply them as one edit."""
        try:
            fitted = api.calibrate(self.controller.scenario, metric, measured, users,
                                   self.controller.catalog)
            problems = self.controller.edit("factor_overrides", dict(fitted.factor_overrides),
                                            label=t("Calibrate from a measurement"))
        except api.ScenarioError as exc:
            problems = [render(m) for m in exc.messages]
        self.fit_error.setText("\n".join(problems))
        if not problems:
            self.fitted = dict(fitted.factor_overrides)
            self.pending_check = (metric, measured, users)
            self.show_fitted()
        return problems

    def show_fitted(self) -> None:
        if not self.fitted:
            self.fit_result.setText("")
            return
        self.fit_result.setText(t(
            "All efficiencies were scaled together by one factor (and the overheads divided by "
            "it) to match the measurement. Fitted values: {values}.",
            values=fitted_text(self.fitted, factor_labels(self.controller.result))))

    def show_check(self, result: SizingResult) -> None:
        if self.pending_check is None:
            return
        metric, measured, users = self.pending_check
        value = curve_value(result, metric, users)
        self.pending_check = None
        self.fit_check.setText("" if value is None else render(plural(
            users, msg("Check: the model now predicts {value} at one user (measured {measured})."),
            msg("Check: the model now predicts {value} at {users} users (measured {measured})."),
            value=metric_text(metric, value), users=users,
            measured=metric_text(metric, measured))))
