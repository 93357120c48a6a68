"""5 Redundancy and scale: how many replicas, on which nodes, and what survives a failure."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.domain.result import ScaleResult, SizingResult
from app.domain.scenario import Scenario
from app.engine.narrative import replica_range
from app.i18n import msg, plural
from app.ui.pages.base import StepPage
from app.ui.text import render, t
from app.ui.units import number, seconds

REDUNDANCY = (
    ("none", "None", "Only the replicas the load needs; a failed node drops users."),
    ("n+1", "N+1", "One node more than the load needs: the load is still served with one "
                   "node lost."),
    ("2n", "2N", "Twice the nodes and replicas of the load: half the nodes may fail."),
)
FIGURES = ("Replicas for the load", "Replicas with availability", "Nodes", "Replicas per node",
           "Nodes per replica", "GPUs", "Autoscaling range", "Cold start",
           "Batch completion")
REPLICA_COLOURS = ("#1565c0", "#64b5f6", "#00897b", "#80cbc4")
FREE_SLOT, NODE_FILL, NODE_EDGE = "#cfd8dc", "#fafafa", "#90a4ae"
MAX_NODES_DRAWN = 12
STORAGE_CHARACTERS = 24  # the storage selector's width in characters; the list shows all


def replica_slots(s: ScaleResult, gpus_per_replica: int) -> list[list[int | None]]:
    """For each node, the replica each GPU slot holds (None: free), replicas spread evenly."""
    nodes: list[list[int | None]] = [[] for _ in range(s.nodes)]
    if not nodes:
        return []
    for replica in range(s.replicas):
        if s.nodes_per_replica > 1:
            first = replica * s.nodes_per_replica
            spanned = nodes[first:first + s.nodes_per_replica]
            left = gpus_per_replica
            for node in spanned:
                node += [replica] * min(left, s.gpus_per_node)
                left -= s.gpus_per_node
        else:
            nodes[replica % s.nodes] += [replica] * gpus_per_replica
    return [(node + [None] * s.gpus_per_node)[:s.gpus_per_node] for node in nodes]


def cold_start_text(value_s: float) -> str:
    if value_s < 60:
        return seconds(value_s)
    return t("{s} s ({m} min)", s=number(value_s, ",.0f"), m=number(value_s / 60, ",.1f"))


def autoscaling_text(low: int, high: int) -> str:
    """'1 to 3 replicas'; a range of one count is that count ('1 replica')."""
    return render(replica_range(low, high))


class NodeDiagram(QWidget):
    """Nodes as boxes, GPU slots as squares coloured by the replica they run."""

    SLOT, GAP, PAD = 14, 3, 8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.slots: list[list[int | None]] = []
        self.more = ""

    def set_slots(self, slots: list[list[int | None]], more: str) -> None:
        self.slots, self.more = slots, more
        self.updateGeometry()
        self.update()

    def node_size(self) -> QSize:
        gpus = len(self.slots[0]) if self.slots else 0
        return QSize(2 * self.PAD + gpus * (self.SLOT + self.GAP), 2 * self.PAD + self.SLOT)

    def per_row(self, width: int) -> int:
        """How many nodes fit side by side in ``width`` (at least one)."""
        return max(1, width // (self.node_size().width() + self.PAD))

    def sizeHint(self) -> QSize:
        node = self.node_size()
        per_row = self.per_row(900)
        width = min(len(self.slots), per_row) * (node.width() + self.PAD)
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        """One node wide: narrower pages put fewer nodes in a row (heightForWidth)."""
        return QSize(self.node_size().width() + self.PAD, 0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        rows = -(-len(self.slots) // self.per_row(width))
        return rows * (self.node_size().height() + self.PAD) + (18 if self.more else 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        node = self.node_size()
        per_row = self.per_row(self.width())
        for i, slots in enumerate(self.slots):
            x = (i % per_row) * (node.width() + self.PAD)
            y = (i // per_row) * (node.height() + self.PAD)
            self.paint_node(painter, QRectF(x, y, node.width(), node.height()), slots)
        if self.more:
            rows = -(-len(self.slots) // per_row)
            painter.setPen(self.palette().windowText().color())
            painter.drawText(0, rows * (node.height() + self.PAD) + 12, self.more)
        painter.end()

    def paint_node(self, painter: QPainter, box: QRectF, slots: list[int | None]) -> None:
        painter.setPen(QPen(QColor(NODE_EDGE)))
        painter.setBrush(QColor(NODE_FILL))
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(Qt.PenStyle.NoPen)
        order = list(dict.fromkeys(r for r in slots if r is not None))
        for j, replica in enumerate(slots):
            colour = (FREE_SLOT if replica is None
                      else REPLICA_COLOURS[order.index(replica) % len(REPLICA_COLOURS)])
            painter.setBrush(QColor(colour))
            x = box.x() + self.PAD + j * (self.SLOT + self.GAP)
            painter.drawRect(QRectF(x, box.y() + self.PAD, self.SLOT, self.SLOT))


class RedundancyPage(StepPage):
    HELP = ("Replicas for the load come from Step 4; redundancy adds nodes so that the load "
            "is still served when a node fails. Replicas are spread evenly over the nodes.")

    def build(self) -> None:
        top = QGridLayout()
        top.addWidget(self.build_redundancy(), 0, 0)
        top.addWidget(self.build_storage(), 1, 0)
        top.addWidget(self.build_figures(), 0, 1, 2, 1)
        top.setColumnStretch(0, 1)
        top.setColumnStretch(1, 1)
        self.layout_.addLayout(top)
        self.layout_.addWidget(self.build_failure())
        self.layout_.addWidget(self.build_rack_failure())
        self.layout_.addStretch(1)

    def build_redundancy(self) -> QGroupBox:
        self.redundancy_box = QGroupBox()
        self.redundancy = QButtonGroup(self)
        self.redundancy.idClicked.connect(self.set_redundancy)
        column = QVBoxLayout(self.redundancy_box)
        self.redundancy_notes = []
        for index in range(len(REDUNDANCY)):
            button, note = QRadioButton(), QLabel(wordWrap=True)
            note.setContentsMargins(24, 0, 0, 4)
            self.redundancy.addButton(button, index)
            self.redundancy_notes.append(note)
            column.addWidget(button)
            column.addWidget(note)
        return self.redundancy_box

    def build_storage(self) -> QGroupBox:
        self.storage_box = QGroupBox()
        self.storage_combo = QComboBox()
        # Long tier names must not widen the page: the box shows the start, the list all of it.
        self.storage_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.storage_combo.setMinimumContentsLength(STORAGE_CHARACTERS)
        self.storage_combo.activated.connect(self.set_storage)
        self.storage_note = QLabel(wordWrap=True)
        column = QVBoxLayout(self.storage_box)
        column.addWidget(self.storage_combo)
        column.addWidget(self.storage_note)
        return self.storage_box

    def build_figures(self) -> QGroupBox:
        self.figures_box = QGroupBox()
        self.figures = QFormLayout(self.figures_box)
        self.planning = QLabel(wordWrap=True)
        self.figures.addRow(self.planning)
        self.figure_labels = {name: QLabel() for name in FIGURES}
        self.figure_values = {name: QLabel(wordWrap=True) for name in FIGURES}
        for name in FIGURES:
            self.figure_values[name].setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse)
            self.figures.addRow(self.figure_labels[name], self.figure_values[name])
        return self.figures_box

    def build_failure(self) -> QGroupBox:
        self.failure_box = QGroupBox()
        self.failure = QLabel(wordWrap=True)
        self.diagram = NodeDiagram()
        self.legend = QLabel(wordWrap=True)
        self.messages = QLabel(wordWrap=True)
        column = QVBoxLayout(self.failure_box)
        for widget in (self.failure, self.diagram, self.legend, self.messages):
            column.addWidget(widget)
        return self.failure_box

    def build_rack_failure(self) -> QGroupBox:
        """What still serves when a rack fails, whether the redundancy covers it, the racks."""
        self.rack_box = QGroupBox()
        self.rack_failure = QLabel(wordWrap=True)
        self.rack_note = QLabel(wordWrap=True)
        self.rack_layout = QLabel(wordWrap=True)
        column = QVBoxLayout(self.rack_box)
        for widget in (self.rack_failure, self.rack_note, self.rack_layout):
            column.addWidget(widget)
        return self.rack_box

    # --- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.redundancy_box.setTitle(t("Redundancy"))
        for index, (_, name, note) in enumerate(REDUNDANCY):
            self.redundancy.button(index).setText(t(name, msgctxt="redundancy"))
            self.redundancy_notes[index].setText(t(note))
        self.storage_box.setTitle(t("Model storage"))
        self.storage_note.setText(t("Nodes load the weights from this storage class when they "
                                    "start; it sets the cold-start time."))
        self.fill_storage()
        self.figures_box.setTitle(t("Scale"))
        for name in FIGURES:
            self.figure_labels[name].setText(t(name))
        self.failure_box.setTitle(t("When a node fails"))
        self.rack_box.setTitle(t("When a rack fails"))
        self.legend.setText(t("Each box is a node, each square a GPU slot; squares of one "
                              "colour run one replica, grey slots are free."))

    def fill_storage(self) -> None:
        self.storage_combo.clear()
        for tier_id, tier in self.controller.catalog.storage.items():
            self.storage_combo.addItem(
                t("{name} – {read} GB/s read per node", name=tier.name,
                  read=number(tier.read_gb_s, "g")), tier_id)
        self.show_scenario(self.controller.scenario)

    # --- scenario and result ---------------------------------------------------------------
    def show_scenario(self, scenario: Scenario) -> None:
        ids = [r[0] for r in REDUNDANCY]
        self.redundancy.button(ids.index(scenario.availability.redundancy)).setChecked(True)
        index = self.storage_combo.findData(scenario.availability.storage_tier)
        self.storage_combo.setCurrentIndex(index)
        self.storage_combo.setToolTip(self.storage_combo.currentText())  # the box may cut it

    def show_result(self, r: SizingResult) -> None:
        s = r.scale
        for name, text in self.figure_texts(r).items():
            self.figure_values[name].setText(text)
        self.figures.setRowVisible(self.figure_labels["Replicas per node"],
                                   s.nodes_per_replica <= 1)
        self.figures.setRowVisible(self.figure_labels["Nodes per replica"],
                                   s.nodes_per_replica > 1)
        self.figures.setRowVisible(self.figure_labels["Batch completion"],
                                   s.batch_completion_hours is not None)
        self.failure.setText(f"<b>{render(s.failure_message) or s.failure_statement}</b>")
        planning = s.planning.message if s.planning is not None else None
        self.planning.setText(render(planning))
        self.planning.setVisible(planning is not None)
        shown = [s.failure_message, s.rack_failure_message, s.rack_redundancy_message, planning]
        self.messages.setText("<br>".join(
            f"• {render(m)}" for m in s.messages if m not in shown))
        self.show_rack_failure(s)
        self.show_diagram(r)

    def show_rack_failure(self, s: ScaleResult) -> None:
        self.rack_box.setVisible(bool(s.rack_failure_statement))
        self.rack_failure.setText(
            f"<b>{render(s.rack_failure_message) or s.rack_failure_statement}</b>")
        self.rack_note.setText(render(s.rack_redundancy_message))
        self.rack_note.setVisible(s.rack_redundancy_message is not None)
        self.rack_layout.setText(t(
            "Racks from the Infrastructure step: {racks}; nodes in the fullest rack: {nodes}. "
            "Replicas are spread evenly over the nodes and across the racks.",
            racks=s.compute_racks, nodes=s.nodes_in_fullest_rack))

    def figure_texts(self, r: SizingResult) -> dict[str, str]:
        s = r.scale
        hours = s.batch_completion_hours
        return {
            "Replicas for the load": str(s.replicas_for_load),
            "Replicas with availability": t("{n} ({redundancy})", n=s.replicas,
                                            redundancy=s.redundancy.upper()),
            "Nodes": render(plural(s.gpus_per_node, msg("{n} x {server}, {gpus} GPU each"),
                                   msg("{n} x {server}, {gpus} GPUs each"), n=s.nodes,
                                   server=s.server_shown,
                                   gpus=s.gpus_per_node)),
            "Replicas per node": t("up to {n}", n=s.replicas_per_node),
            "Nodes per replica": str(s.nodes_per_replica),
            "GPUs": str(s.gpus_total),
            "Autoscaling range": autoscaling_text(s.autoscale_min_replicas,
                                                  s.autoscale_max_replicas),
            "Cold start": cold_start_text(s.cold_start_s),
            "Batch completion": t("{h} h", h=number(hours, ",.1f")) if hours else "",
        }

    def show_diagram(self, r: SizingResult) -> None:
        slots = replica_slots(r.scale, r.selection.chosen.gpus_per_replica)
        hidden = len(slots) - MAX_NODES_DRAWN
        more = render(plural(hidden, msg("… and one more node"), msg("… and {n} more nodes"),
                             n=hidden)) if hidden > 0 else ""
        self.diagram.set_slots(slots[:MAX_NODES_DRAWN], more)

    # --- edits -----------------------------------------------------------------------------
    def set_redundancy(self, index: int) -> None:
        value, name, _ = REDUNDANCY[index]
        self.controller.edit("availability.redundancy", value,
                             t("Redundancy {name}", name=msg(name, msgctxt="redundancy")))

    def set_storage(self, index: int) -> None:
        self.controller.edit("availability.storage_tier", self.storage_combo.itemData(index),
                             t("Model storage"))
