"""3 GPU selection: the chosen configuration, the candidates Step 3 weighed, and the choice.

The engine evaluates only the user's configuration when the scenario names hardware, and
searches the catalog when it does not; the page switches between the two and lets the user
take any candidate as the configuration (one undoable edit).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QAction, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QRadioButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
)

from app.domain.catalog import VENDOR_NAMES
from app.domain.result import Candidate, SizingResult
from app.domain.scenario import Scenario, Selection
from app.i18n import msg, plural
from app.ui.configuration_form import ConfigurationForm
from app.ui.dialogs.catalog_entry import CatalogEntryDialog
from app.ui.fields import Choice, MultiCheckField
from app.ui.flow_layout import FlowLayout
from app.ui.pages.base import StepPage
from app.ui.summary_panel import Badge, verdict_text
from app.ui.text import language, render, t
from app.ui.units import GB, gb, number, rate, seconds, usd

SORT_ROLE = Qt.ItemDataRole.UserRole
FILTER_WIDTH = 240  # the filter box's least width: its placeholder reads in full [px]
MEETS = "meets targets"
DASH = "–"
RANKS = (("capital_cost", "Lowest indicative capital cost"), ("power", "Lowest power"),
         ("gpu_count", "Fewest GPUs"), ("tokens_per_dollar", "Most users per dollar"))
CHOSEN_BY = dict(RANKS) | {"user": "Your configuration"}
SEARCH_GPUS = "the GPUs the search considers"  # gettext context: "One GPU" is also a column
STATS = ("VRAM per GPU", "Users per replica", "Tokens/s per user (one user)", "TTFT (one user)",
         "Replicas / GPUs", "Servers and GPUs (indicative)")
PASSING = (MEETS, "meets the window", "fits")  # the passing states (result.PASSING_STATES)
VERDICT_COLOURS = {state: "#2e7d32" for state in PASSING} | {"does not fit": "#c62828"}
CHOSEN_TIP = ("* The chosen row (★) shows the full sizing: replicas, power (whole servers) and "
              "cost after Step 5 placed the replicas on servers, so they can be higher than "
              "the Step 3 estimates of the other rows.")


#: GPU classes and vendors the search may be kept to (``selection.gpu_classes``, ``vendors``).
GPU_CLASSES = [Choice("datacenter", "Data centre"), Choice("workstation", "Workstation"),
               Choice("consumer", "Consumer")]
VENDORS = [Choice(vendor, name) for vendor, name in VENDOR_NAMES.items()]


class SetField(MultiCheckField):
    """A set of which at least one must stay ticked (GPU classes, vendors)."""

    def local_problem(self, value) -> str:
        return "" if value else t("Keep at least one ticked.")


@dataclass(frozen=True)
class Row:
    """One line of the table: a candidate, and whether it is the chosen configuration."""

    rank: int  # 0 for the chosen configuration, then the engine's ranking
    candidate: Candidate
    chosen: bool = False


def chosen_candidate(r: SizingResult) -> Candidate:
    """The chosen configuration as a table row, with the figures of the full sizing."""
    c, single = r.selection.chosen, r.performance.single_user
    cost = r.cost.gpus_usd  # the servers with their GPUs, like every other row
    return Candidate(
        gpu=c.gpu, gpu_name=r.gpu.name, gpus_per_replica=c.gpus_per_replica,
        tensor_parallel=c.tensor_parallel, pipeline_parallel=c.pipeline_parallel,
        expert_parallel=c.expert_parallel, dp_attention=c.dp_attention,
        precision=c.precision, kv_precision=c.kv_precision,
        fits=r.memory.max_concurrent_sequences >= 1, per_gpu_bytes=r.memory.per_gpu_bytes,
        max_users_per_replica=r.performance.slo_capacity_per_replica,
        tokens_per_s_per_user=single.tokens_per_s_per_user, ttft_s=single.ttft_s,
        replicas=r.scale.replicas, gpus_total=r.scale.gpus_total,
        power_w=r.facility.it_power_w, capital_cost_usd=cost,
        capital_complete=r.cost.compute_complete, verdict=c.verdict, reason="")


def rows_of(r: SizingResult) -> list[Row]:
    rows = [Row(0, chosen_candidate(r), chosen=True)]
    return rows + [Row(i + 1, c) for i, c in enumerate(r.selection.alternatives)]


def parallel_text(c: Candidate) -> str:
    text = str(c.tensor_parallel)
    if c.pipeline_parallel > 1:
        text = t("{t} (x {p} pipeline)", t=c.tensor_parallel, p=c.pipeline_parallel)
    return text + experts_text(c)


def experts_text(c) -> str:
    """The expert layout of a row or the chosen configuration: ", EP 8, DP attention" (empty
    when both are off)."""
    parts = []
    if c.expert_parallel and c.expert_parallel > 1:
        parts.append(t("EP {e}", e=c.expert_parallel))
    if c.dp_attention:
        parts.append(t("DP attention"))
    return "".join(", " + part for part in parts)


def chosen_text(chosen_by: str) -> str:
    """How the configuration was chosen, in the window's language.

    A serving sizing gives the ranking ("capital_cost") or "user"; a training sizing gives
    "training: " and how its search chose ("fewest GPUs that fit[ and meet the target time]
    [, then <rank>]", "closest (...)", "user"; app/engine/training_chain.py choose_training).
    """
    if chosen_by in CHOSEN_BY:
        return t(CHOSEN_BY[chosen_by])
    if not chosen_by.startswith("training: "):
        return t(chosen_by)
    how, _, rank = chosen_by.removeprefix("training: ").partition(", then ")
    texts = {
        "user": t("training: your configuration"),
        "fewest GPUs that fit": t("training: fewest GPUs that fit"),
        "fewest GPUs that fit and meet the target time":
            t("training: fewest GPUs that fit and meet the target time"),
        "closest (nothing fits within training.max_gpus)":
            t("training: closest (nothing fits within the most GPUs allowed)"),
    }
    if how not in texts:
        return chosen_by
    return t("{how}, then {rank}", how=texts[how], rank=t(rank)) if rank else texts[how]


def cost_text(amount: float | None, complete: bool = True) -> str:
    """A price in USD for the table's cost column (its header names the currency); a total
    that leaves out an item without a price says so next to the number."""
    if amount is None:
        return t("n/a")
    return number(amount, ",.0f") if complete else t("{cost} (prices missing)",
                                                     cost=number(amount, ",.0f"))


def cost_with_gaps(c: Candidate) -> str:
    """A candidate's compute cost in USD for the panel, saying so when prices are missing."""
    return usd(c.capital_cost_usd) if c.capital_complete else t(
        "{cost} (prices missing)", cost=usd(c.capital_cost_usd))


def cost_order(c: Candidate) -> float:
    """Sort key of the cost column: a total with prices missing after every complete one."""
    if c.capital_cost_usd is None or not c.capital_complete:
        return math.inf
    return c.capital_cost_usd


def when_fits(text: Callable[[Candidate], str]) -> Callable[[Candidate], str]:
    """``text`` for a candidate that fits, a dash for one that does not."""
    return lambda c: text(c) if c.fits else DASH


def last_when_unfit(key: Callable[[Candidate], float]) -> Callable[[Candidate], float]:
    return lambda c: key(c) if c.fits else math.inf


@dataclass(frozen=True)
class Column:
    header: str
    tip: str
    text: Callable[[Candidate], str]
    key: Callable[[Candidate], Any]


COLUMNS = (
    Column("#", "Rank in the search (★: the chosen configuration)", str, str),  # see display
    Column("GPU", "", str, lambda c: c.gpu),  # the catalog name: see display
    Column("GPUs per\nreplica", "", lambda c: str(c.gpus_per_replica),
           lambda c: c.gpus_per_replica),
    Column("Tensor\nparallel", "Tensor-parallel degree (pipeline stages when more than one; "
           "EP: the experts split over that many GPUs; DP attention: each GPU runs its own "
           "requests' attention)",
           parallel_text, lambda c: c.tensor_parallel),
    Column("Weights /\nKV cache", "Number formats of the weights and of the KV cache",
           lambda c: f"{c.precision.upper()} / {c.kv_precision.upper()}",
           lambda c: c.precision),
    Column("VRAM per\nGPU (GB)", "What one GPU must hold at the users a replica serves",
           lambda c: number(c.per_gpu_bytes / GB), lambda c: c.per_gpu_bytes),
    Column("Max users\nper replica", "Most users one replica serves within both targets",
           when_fits(lambda c: str(c.max_users_per_replica)),
           lambda c: c.max_users_per_replica),
    Column("Tokens/s\nper user", "Generation speed for one user alone",
           when_fits(lambda c: number(c.tokens_per_s_per_user)),
           lambda c: c.tokens_per_s_per_user),
    Column("TTFT (s)", "Time to first token for one user alone",
           when_fits(lambda c: number(c.ttft_s, ",.2f")), last_when_unfit(lambda c: c.ttft_s)),
    Column("Replicas\nneeded", "Replicas for the load plus those for redundancy",
           when_fits(lambda c: str(c.replicas)), last_when_unfit(lambda c: c.replicas)),
    Column("Power (kW)", "Nameplate power of the servers (chosen row: IT power with the "
           "network)",
           when_fits(lambda c: number(c.power_w / 1e3)), last_when_unfit(lambda c: c.power_w)),
    Column("Indicative\ncost (USD)", "Servers with their GPUs at indicative catalog prices; "
           "street prices vary",
           lambda c: cost_text(c.capital_cost_usd, c.capital_complete), cost_order),
    Column("Verdict", "", lambda c: t(c.verdict), lambda c: c.verdict),
    Column("Reason", "Why the candidate lost to the chosen one",
           lambda c: render(c.reason_message), lambda c: c.reason),
)
VERDICT_COLUMN = 12
NUMERIC_COLUMNS = range(2, VERDICT_COLUMN)  # right-aligned
GPU_COLUMN_WIDTH = 230
SIZE_SAMPLE_ROWS = 40  # column widths from the first rows: fitting all 400 takes seconds
AFTER_STEP_5 = (9, 10, 11)  # replicas, power, cost: the chosen row shows the full sizing


class CandidateModel(QAbstractTableModel):
    """The chosen configuration and the alternatives, one row each."""

    def __init__(self, gpu_names: dict[str, str], parent=None):
        super().__init__(parent)
        self.rows: list[Row] = []
        self.texts: list[list[str]] = []  # formatted once per result: views ask often
        self.keys: list[list[Any]] = []
        self.gpu_names = gpu_names
        self.chosen_reason = ""

    def set_rows(self, rows: list[Row], chosen_reason: str) -> None:
        self.beginResetModel()
        self.rows, self.chosen_reason = rows, chosen_reason
        self.texts = [[self.display(row, column) for column in range(len(COLUMNS))]
                      for row in rows]
        self.keys = [[row.rank] + [column.key(row.candidate) for column in COLUMNS[1:]]
                     for row in rows]
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        column = COLUMNS[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return t(column.header)
        if role == Qt.ItemDataRole.ToolTipRole and column.tip:
            return t(column.tip)
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole:
            return self.texts[index.row()][index.column()]
        if role == SORT_ROLE:
            return self.keys[index.row()][index.column()]
        return self.decoration(index.row(), index.column(), role)

    def display(self, row: Row, column: int) -> str:
        c = row.candidate
        if column == 0:
            return "★" if row.chosen else str(row.rank)
        if column == 1:
            return self.gpu_names.get(c.gpu, c.gpu)
        if row.chosen and column == len(COLUMNS) - 1:
            return self.chosen_reason
        text = COLUMNS[column].text(c)
        return f"{text} *" if row.chosen and column in AFTER_STEP_5 else text

    def decoration(self, row_index: int, column: int, role):
        row = self.rows[row_index]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column == VERDICT_COLUMN:
            return QColor(VERDICT_COLOURS.get(row.candidate.verdict, "#b26a00"))
        if row.chosen and role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if row.chosen and role == Qt.ItemDataRole.BackgroundRole:
            return QColor("#e3f2fd")
        if role == Qt.ItemDataRole.ToolTipRole:
            return t(CHOSEN_TIP) if row.chosen else self.texts[row_index][column]
        return None

    def meets(self, source_row: int) -> bool:
        return self.rows[source_row].candidate.verdict == MEETS


class CandidateFilter(QSortFilterProxyModel):
    """Text filter over every column, optionally only the candidates meeting the targets."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.meets_only = False
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)
        self.setSortRole(SORT_ROLE)

    def set_meets_only(self, on: bool) -> None:
        self.beginFilterChange()
        self.meets_only = on
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex) -> bool:
        if self.meets_only and not self.sourceModel().meets(source_row):
            return False
        return super().filterAcceptsRow(source_row, source_parent)


class StayOpenMenu(QMenu):
    """A menu of check boxes that stays open while the user ticks several (a click or Enter
    on a checkable entry toggles it; Esc or a click outside closes the menu)."""

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self.toggle_active():
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if event.key() in keys and self.toggle_active():
            return
        super().keyPressEvent(event)

    def toggle_active(self) -> bool:
        action = self.activeAction()
        if action is None or not action.isCheckable() or not action.isEnabled():
            return False
        action.trigger()
        return True


class GpuSelectionPage(StepPage):
    HELP = ("Step 3 either evaluates the configuration you give, or searches the catalog for "
            "every GPU, count, tensor-parallel degree and number format, keeps those that "
            "work and ranks them. Double-click a row to use it.")

    def build(self) -> None:
        self.layout_.addWidget(self.build_configuration())
        self.typed = ConfigurationForm(self.controller)
        self.layout_.addWidget(self.typed)
        self.layout_.addWidget(self.build_search())
        self.layout_.addLayout(self.build_toolbar())
        self.layout_.addWidget(self.build_table(), 1)
        self.footnote, self.hint = QLabel(wordWrap=True), QLabel(wordWrap=True)
        self.layout_.addWidget(self.footnote)
        self.layout_.addWidget(self.hint)

    # --- building --------------------------------------------------------------------------
    def build_configuration(self) -> QGroupBox:
        self.config_box = QGroupBox()
        self.choose_radio, self.given_radio = QRadioButton(), QRadioButton()
        self.mode = QButtonGroup(self)
        self.mode.addButton(self.choose_radio, 0)
        self.mode.addButton(self.given_radio, 1)
        self.mode.idClicked.connect(self.set_mode)
        self.chosen_label = QLabel(wordWrap=True)
        self.stats = {name: QLabel() for name in STATS}
        self.chosen_label.setTextFormat(Qt.TextFormat.RichText)
        self.verdict_badge = Badge()
        modes = QHBoxLayout()
        for widget in (self.choose_radio, self.given_radio):
            modes.addWidget(widget)
        modes.addStretch(1)
        grid = QGridLayout(self.config_box)
        grid.addLayout(modes, 0, 0, 1, 2)
        grid.addWidget(self.chosen_label, 1, 0)
        grid.addWidget(self.verdict_badge, 1, 1, Qt.AlignmentFlag.AlignTop)
        stats = FlowLayout(spacing=28)  # one line while it fits, two where the page is narrow
        for label in self.stats.values():
            stats.addWidget(label)
        grid.addLayout(stats, 2, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        return self.config_box

    def build_search(self) -> QGroupBox:
        self.search_box = QGroupBox()
        self.rank_label, self.gpus_label = QLabel(), QLabel()
        self.rank_combo = QComboBox()
        self.rank_combo.activated.connect(self.set_rank)
        self.gpu_button = QToolButton(popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        self.gpu_menu = StayOpenMenu(self.gpu_button)
        self.gpu_button.setMenu(self.gpu_menu)
        self.fill_gpu_menu()
        column = QVBoxLayout(self.search_box)
        row = QHBoxLayout()
        for widget in (self.rank_label, self.rank_combo, self.gpus_label, self.gpu_button):
            row.addWidget(widget)
        row.addStretch(1)
        column.addLayout(row)
        grade = QFormLayout()
        self.grade_fields = [
            SetField(self.controller, "selection.gpu_classes", "GPU classes",
                     "Data-centre GPUs by default; workstation and consumer parts only when "
                     "ticked (the plan then warns: no ECC, licence terms, towers in racks).",
                     GPU_CLASSES, columns=3),
            SetField(self.controller, "selection.vendors", "Vendors",
                     "The GPU makers the search may choose from.",
                     VENDORS, columns=3)]
        self.grade_fields[0].set_default(list(Selection().gpu_classes))
        self.grade_fields[1].set_default([choice.value for choice in VENDORS])
        for field in self.grade_fields:
            field.add_to(grade)
        column.addLayout(grade)
        return self.search_box

    def fill_gpu_menu(self) -> None:
        """One checkable action per catalog GPU, after 'All GPUs in the catalog'."""
        self.gpu_menu.clear()
        self.all_gpus = self.gpu_menu.addAction(t("All GPUs in the catalog"))
        self.all_gpus.triggered.connect(lambda: self.controller.edit("selection.gpus", None))
        self.gpu_menu.addSeparator()
        self.gpu_actions = {gpu_id: self.gpu_action(spec.name)
                            for gpu_id, spec in self.controller.catalog.gpus.items()}

    def show_catalog(self, catalog) -> None:
        self.fill_gpu_menu()
        self.model.gpu_names.clear()
        self.model.gpu_names.update({gpu_id: spec.name for gpu_id, spec in catalog.gpus.items()})
        self.show_scenario(self.controller.scenario)

    def open_gpu_form(self) -> None:
        CatalogEntryDialog(self.controller, "gpus", self).exec()

    def gpu_action(self, name: str) -> QAction:
        action = self.gpu_menu.addAction(name)
        action.setCheckable(True)
        action.triggered.connect(lambda _checked: self.restrict_gpus())
        return action

    def build_toolbar(self) -> FlowLayout:
        """The filter, the check box, the count and the buttons on one line while they fit,
        wrapped where the page is narrow (the filter was squeezed to 'Fil...' at 1366 px)."""
        self.filter_edit = QLineEdit(clearButtonEnabled=True)
        self.filter_edit.setMinimumWidth(FILTER_WIDTH)
        self.meets_only = QCheckBox()
        self.count_label = QLabel()
        self.use_button = QPushButton(enabled=False)
        self.use_button.clicked.connect(self.use_selected)
        self.entry_button = QPushButton()  # usable in both modes: a new GPU joins either
        self.entry_button.clicked.connect(self.open_gpu_form)
        bar = FlowLayout(spacing=8)
        for widget in (self.filter_edit, self.meets_only, self.count_label, self.entry_button,
                       self.use_button):
            bar.addWidget(widget)
        return bar

    def build_table(self) -> QTableView:
        self.fitted_for: tuple[bool, str] | None = None
        names = {gpu_id: spec.name for gpu_id, spec in self.controller.catalog.gpus.items()}
        self.model = CandidateModel(names, self)
        self.proxy = CandidateFilter(self)
        self.proxy.setSourceModel(self.model)
        self.filter_edit.textChanged.connect(self.set_filter)
        self.meets_only.toggled.connect(self.set_meets_only)
        self.table = QTableView(sortingEnabled=False)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setResizeContentsPrecision(SIZE_SAMPLE_ROWS)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setWordWrap(False)
        self.table.setMinimumHeight(320)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.doubleClicked.connect(lambda index: self.use_row(index.row()))
        self.table.selectionModel().selectionChanged.connect(lambda *_: self.update_use())
        return self.table

    def start_clean(self) -> None:
        """New or Open: the table's filters were the scenario before's."""
        super().start_clean()
        self.filter_edit.clear()
        self.meets_only.setChecked(False)

    # --- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.config_box.setTitle(t("Configuration"))
        self.choose_radio.setText(t("Let the tool choose"))
        self.given_radio.setText(t("Use this configuration"))
        self.search_box.setTitle(t("Search"))
        self.rank_label.setText(t("Rank by"))
        for field in self.grade_fields:
            field.retranslate()
        self.rank_combo.clear()
        for rank_id, text in RANKS:
            self.rank_combo.addItem(t(text), rank_id)
        self.gpus_label.setText(t("GPUs to consider"))
        self.all_gpus.setText(t("All GPUs in the catalog"))
        self.filter_edit.setPlaceholderText(t("Filter: GPU, format, verdict, reason…"))
        self.meets_only.setText(t("Only candidates that meet the targets"))
        self.use_button.setText(t("Use this configuration"))
        self.use_button.setToolTip(t("Make the selected row the scenario's configuration"))
        self.entry_button.setText(t("Add or edit a GPU…"))
        self.entry_button.setToolTip(t("Describe a GPU in a form and save it to your catalog; "
                                       "the search considers it at once."))
        self.footnote.setText(t(CHOSEN_TIP))
        self.show_scenario(self.controller.scenario)

    # --- scenario and result ---------------------------------------------------------------
    def show_scenario(self, scenario: Scenario) -> None:
        searching = scenario.hardware is None
        (self.choose_radio if searching else self.given_radio).setChecked(True)
        self.search_box.setEnabled(searching)
        self.search_box.setToolTip("" if searching else t(
            "The search settings apply when the tool chooses the configuration."))
        for field in self.grade_fields:
            field.show_scenario()
        index = self.rank_combo.findData(scenario.selection.rank_by)
        self.rank_combo.setCurrentIndex(max(index, 0))
        restricted = scenario.selection.gpus or []
        for gpu_id, action in self.gpu_actions.items():
            action.setChecked(gpu_id in restricted)
        self.gpu_button.setText(render(plural(
            len(restricted), msg("One GPU", msgctxt=SEARCH_GPUS),
            msg("{n} GPUs", msgctxt=SEARCH_GPUS), n=len(restricted))) if restricted
            else t("All GPUs"))

    def show_result(self, r: SizingResult) -> None:
        self.show_chosen(r)
        self.model.set_rows(rows_of(r), t("Chosen: {how}", how=chosen_text(r.selection.chosen_by)))
        self.fit_columns((bool(r.selection.alternatives), language()))
        self.update_count()
        self.hint.setText("" if r.selection.alternatives else t(
            "Only your configuration is evaluated. Choose 'Let the tool choose' to compare it "
            "with every configuration the catalog allows."))
        self.hint.setVisible(not r.selection.alternatives)
        self.footnote.setVisible(bool(r.selection.alternatives))

    def fit_columns(self, occasion: tuple[bool, str]) -> None:
        """Fit the columns to their contents when the mode or the language changed."""
        if occasion == self.fitted_for:
            return
        self.fitted_for = occasion
        self.table.resizeColumnsToContents()
        header = self.table.horizontalHeader()
        header.resizeSection(1, min(header.sectionSize(1), GPU_COLUMN_WIDTH))
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)

    def show_chosen(self, r: SizingResult) -> None:
        c = r.selection.chosen
        name = self.model.gpu_names.get(c.gpu, c.gpu)
        self.chosen_label.setText(
            t("<b>{n} x {gpu}</b> per replica, tensor parallel {t}, pipeline {p}, {w} weights, "
              "{kv} KV cache, {engine}", n=c.gpus_per_replica, gpu=name,
              t=c.tensor_parallel, p=c.pipeline_parallel, w=c.precision.upper(),
              kv=c.kv_precision.upper(), engine=self.engine_name(c.engine))
            + experts_text(c)
            + "<br>" + t("Chosen by: {how}", how=chosen_text(r.selection.chosen_by)))
        self.verdict_badge.set_state(r.verdict.passed, t(r.verdict.state))
        self.verdict_badge.setToolTip(verdict_text(r.verdict))
        for name, value in self.stat_texts(r).items():
            self.stats[name].setText(f"<span style='color:#555'>{t(name)}</span><br>"
                                     f"<b>{value}</b>")

    def engine_name(self, engine_id: str) -> str:
        engine = self.controller.catalog.engines.get(engine_id)
        return engine.name if engine else engine_id

    def stat_texts(self, r: SizingResult) -> dict[str, str]:
        m, p, s = r.memory, r.performance, r.scale
        return {
            "VRAM per GPU": f"{gb(m.per_gpu_bytes)} / {gb(m.gpu_usable_bytes)}",
            "Users per replica": str(p.slo_capacity_per_replica),
            "Tokens/s per user (one user)": rate(p.single_user.tokens_per_s_per_user),
            "TTFT (one user)": seconds(p.single_user.ttft_s),
            "Replicas / GPUs": f"{s.replicas} / {s.gpus_total}",
            "Servers and GPUs (indicative)": cost_with_gaps(chosen_candidate(r)),  # its row's
        }

    def update_count(self) -> None:
        self.count_label.setText(t("{shown} of {total} shown", shown=self.proxy.rowCount(),
                                   total=self.model.rowCount()))
        self.update_use()

    def update_use(self) -> None:
        self.use_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    # --- edits -----------------------------------------------------------------------------
    def set_filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        self.update_count()

    def set_meets_only(self, on: bool) -> None:
        self.proxy.set_meets_only(on)
        self.update_count()

    def set_mode(self, mode: int) -> None:
        if mode == 0:
            self.controller.edit("hardware", None, t("Let the tool choose the configuration"))
        elif self.controller.scenario.hardware is None and self.controller.result is not None:
            self.apply(chosen_candidate(self.controller.result))

    def set_rank(self, index: int) -> None:
        self.controller.edit("selection.rank_by", self.rank_combo.itemData(index),
                             t("Rank by {what}", what=self.rank_combo.itemText(index)))

    def restrict_gpus(self) -> None:
        chosen = [gpu_id for gpu_id, action in self.gpu_actions.items() if action.isChecked()]
        self.controller.edit("selection.gpus", chosen or None, t("GPUs to consider"))

    def use_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.use_row(rows[0].row())

    def use_row(self, proxy_row: int) -> None:
        source = self.proxy.mapToSource(self.proxy.index(proxy_row, 0))
        self.apply(self.model.rows[source.row()].candidate)

    def apply(self, c: Candidate) -> None:
        """Make ``c`` the scenario's configuration: one undoable step."""
        hardware = {"gpu": c.gpu, "gpus_per_replica": c.gpus_per_replica,
                    "tensor_parallel": c.tensor_parallel,
                    "pipeline_parallel": c.pipeline_parallel,
                    "expert_parallel": c.expert_parallel or 1,
                    "dp_attention": bool(c.dp_attention)}
        name = self.model.gpu_names.get(c.gpu, c.gpu)
        self.controller.edit_many(
            {"hardware": hardware, "precision.weights": c.precision,
             "precision.kv_cache": c.kv_precision},
            t("Use {n} x {gpu}, {w}", n=c.gpus_per_replica, gpu=name, w=c.precision.upper()))
