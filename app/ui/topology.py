"""The node topology view: users, load balancer, switches, nodes with their GPUs, storage.

Drawn from the SizingResult alone (``infrastructure`` and ``scale``): racks are failure
domains and colour their nodes; each node shows its GPUs inside the scale-up domain
(NVLink/NVSwitch or PCIe) and its NICs; with a scale-out fabric, leaf i is wired to GPU i of
every node (rail-optimised) and every leaf to every spine. Up to 64 nodes are drawn one by
one; beyond, each rack is one box with its node count. Zoom with the wheel, pan by dragging,
hover for details; export to PNG or SVG. Texts, boxes and the exported paper take their
colours from the view's palette (redrawn when it changes).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QWidget,
)

from app.domain.result import SizingResult, storage_class
from app.i18n import msg, plural
from app.ui.text import language, render, t
from app.ui.theme import LIGHT, PaletteFollower, Theme, mix, text_item
from app.ui.units import number
from app.ui.zoom import ZoomableView, save_png

MAX_DRAWN_NODES = 64
NODE_W, NODE_H, GAP = 150, 90, 24
RACK_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                "#7f7f7f", "#bcbd22", "#17becf")
LEAF_W, SPINE_W = 72, 84  # wide enough for "Leaf 32" and "Spine 24" [px]
LEGEND_Y = 360  # the legend's first row, under the storage [px]
GPU_USED, GPU_EMPTY = "#76b900", "#dddddd"
LINE = QPen(QColor("#777777"), 1)
RAIL = QPen(QColor("#1f77b4"), 0.6)


def box(scene: TopologyScene, rect: QRectF, label: str, colour: str, tip: str,
        fill_alpha: int = 40) -> QGraphicsRectItem:
    """A labelled rectangle with a tooltip, in ``colour`` as the scene's theme draws it."""
    colour = scene.theme.series(colour)
    # A solid fill (the colour as it looks at ``fill_alpha`` over the paper): the wires run
    # behind the boxes, and a see-through fill let them cross the labels.
    fill = mix(colour, scene.theme.paper, 1 - fill_alpha / 255)
    item = scene.addRect(rect, QPen(colour, 1.5), QBrush(fill))
    item.setToolTip(tip)
    text = text_item(label, scene.theme, item)
    text.setPos(rect.x() + 4, rect.y() + 2)
    return item


def _alpha(colour: QColor, alpha: int) -> QColor:
    value = QColor(colour)
    value.setAlpha(alpha)
    return value


def row_x(index: int, count: int, item_w: float, width: float, gap: float = GAP) -> float:
    """x of item ``index`` in a row of ``count`` items centred over ``width``."""
    row = count * item_w + (count - 1) * gap
    return (width - row) / 2 + index * (item_w + gap)


def scale_up_text(r: SizingResult) -> str:
    """The link between the GPUs of a node, in the window's language."""
    network = r.infrastructure.network
    return render(network.scale_up_message) or network.scale_up


def line(scene: QGraphicsScene, a: QGraphicsItem, b: QGraphicsItem, pen: QPen = LINE) -> None:
    """A wire from the bottom centre of ``a`` to the top centre of ``b``."""
    ra, rb = a.sceneBoundingRect(), b.sceneBoundingRect()
    item = scene.addLine(ra.center().x(), ra.bottom(), rb.center().x(), rb.top(), pen)
    item.setZValue(-1)


class TopologyScene(QGraphicsScene):
    """Builds the picture for one result."""

    theme: Theme = LIGHT  # set by the view from its palette

    def draw(self, r: SizingResult) -> None:
        self.clear()
        site = r.infrastructure
        if site is None:
            return
        nodes = self.draw_nodes(r)
        self.width = max(item.sceneBoundingRect().right() for item in nodes) if nodes else NODE_W
        switches = self.draw_network(r, nodes)
        self.draw_front(r, switches)
        self.draw_storage(r, switches.get("storage", switches.get("front-end and storage",
                                                                   nodes[:8])))
        self.draw_legend(r, LEGEND_Y)
        self.setSceneRect(self.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    # --- layers, top to bottom -------------------------------------------------------------
    def draw_front(self, r: SizingResult, switches: dict) -> None:
        front = switches.get("front-end", switches.get("front-end and storage", []))
        width = self.width
        users = box(self, QRectF(row_x(0, 2, 140, width), -420, 140, 40), t("Users"), "#444444",
                    t("Users send requests to the load balancer"))
        balancer = box(self, QRectF(row_x(1, 2, 140, width), -420, 140, 40), t("Load balancer"),
                       "#444444", t("Spreads requests over the replicas; private endpoint"))
        self.addLine(users.rect().right(), -400, balancer.rect().left(), -400, LINE)
        for item in front:
            line(self, balancer, item)

    def draw_network(self, r: SizingResult, nodes: list[QGraphicsItem]) -> dict:
        placed: dict[str, list] = {}
        y = {"front-end": -340, "front-end and storage": -340, "compute fabric": -200,
             "storage": 180}
        for group in r.infrastructure.network.groups:
            if group.network == "out-of-band":
                continue
            if group.network == "compute fabric":
                placed[group.network] = self.draw_fabric(r, nodes)
                continue
            row = []
            count = min(group.count, 16)
            for i in range(count):
                rect = QRectF(row_x(i, count, NODE_W, self.width), y[group.network], NODE_W, 34)
                row.append(box(self, rect, f"{t(group.network)} {i + 1}", "#555555",
                               f"{group.switch_name}\n{number(group.ports_used, ',d')} "
                               f"{t('ports in use')}"))
            placed[group.network] = row
            targets = nodes[:MAX_DRAWN_NODES]
            pairs = max(len(row) // 2, 1)
            for j, node in enumerate(targets):
                for switch in row[2 * (j % pairs): 2 * (j % pairs) + 2]:  # dual-homed
                    if group.network.startswith("front-end"):
                        line(self, switch, node)
                    else:
                        line(self, node, switch)
        return placed

    def draw_fabric(self, r: SizingResult, nodes: list[QGraphicsItem]) -> list:
        fabric = r.infrastructure.network.fabric
        n_leaves, n_spines = min(fabric.leaves, 32), min(fabric.spines, 24)
        leaves = [box(self, QRectF(row_x(i, n_leaves, LEAF_W, self.width), -200, LEAF_W, 30),
                      t("Leaf {n}", n=i + 1), "#1f77b4",
                      t("Leaf switch {n} ({switch}); rail {n}", n=i + 1, switch=fabric.switch))
                  for i in range(n_leaves)]
        spines = [box(self, QRectF(row_x(i, n_spines, SPINE_W, self.width), -270, SPINE_W, 30),
                      t("Spine {n}", n=i + 1), "#0b3d91",
                      t("Spine switch {n} ({switch})", n=i + 1, switch=fabric.switch))
                  for i in range(n_spines)]
        for leaf in leaves:
            for spine in spines:
                line(self, spine, leaf, RAIL)
        for node in nodes[:MAX_DRAWN_NODES]:
            for leaf in leaves[: r.scale.gpus_per_node]:
                line(self, leaf, node, RAIL)
        return leaves + spines

    def draw_nodes(self, r: SizingResult) -> list[QGraphicsItem]:
        site, scale = r.infrastructure, r.scale
        compute = [rack for rack in site.racks if rack.kind == "compute"]
        drawn = []
        grouped = scale.nodes > MAX_DRAWN_NODES
        x = 0.0
        for index, rack in enumerate(compute):
            colour = RACK_COLOURS[index % len(RACK_COLOURS)]
            if grouped:
                rect = QRectF(x, 0, NODE_W, NODE_H)
                nodes = len(rack.items)
                tip = render(plural(nodes, msg("Rack {n}: {nodes} node, {kw} kW"),
                                    msg("Rack {n}: {nodes} nodes, {kw} kW"), n=index + 1,
                                    nodes=nodes, kw=number(rack.power_w / 1e3, ",.1f")))
                label = render(plural(nodes, msg("Rack {n}: {nodes} node"),
                                      msg("Rack {n}: {nodes} nodes"), n=index + 1, nodes=nodes))
                drawn.append(box(self, rect, label, colour, tip, 70))
                x += NODE_W + GAP
                continue
            for name in rack.items:
                drawn.append(self.draw_node(QRectF(x, 0, NODE_W, NODE_H), name, colour, index,
                                            r))
                x += NODE_W + GAP
            x += GAP
        return drawn

    def draw_node(self, rect: QRectF, name: str, colour: str, rack: int,
                  r: SizingResult) -> QGraphicsItem:
        gpus = r.scale.gpus_per_node
        used = -(-r.scale.gpus_total // max(r.scale.nodes, 1))
        scale_up = scale_up_text(r)
        tip = render(plural(
            gpus, msg("{name}\nRack {rack} (failure domain)\n{gpus} GPU; {scale_up}"),
            msg("{name}\nRack {rack} (failure domain)\n{gpus} GPUs; {scale_up}"),
            name=name, rack=rack + 1, gpus=gpus, scale_up=scale_up))
        node = box(self, rect, t("Node {n}", n=name.rsplit("#", 1)[-1]), colour, tip, 50)
        domain = QGraphicsRectItem(QRectF(rect.x() + 6, rect.y() + 22, rect.width() - 12, 40),
                                   node)
        domain.setPen(QPen(QColor(colour).darker(130), 1, Qt.PenStyle.DashLine))
        domain.setToolTip(scale_up)
        per_row = min(gpus, 8)
        size = (rect.width() - 20) / max(per_row, 1) - 2
        for i in range(min(gpus, 16)):
            gx = rect.x() + 10 + (i % per_row) * (size + 2)
            gy = rect.y() + 26 + (i // per_row) * (size / 2 + 2)
            gpu = QGraphicsRectItem(QRectF(gx, gy, size, size / 2), node)
            gpu.setBrush(QBrush(QColor(GPU_USED if i < used else GPU_EMPTY)))
            gpu.setToolTip(t("GPU {n}", n=i + 1) if i < used else t("Empty GPU slot"))
        nic = text_item(t("NICs"), self.theme, node)
        nic.setPos(rect.x() + 6, rect.bottom() - 22)
        return node

    def draw_storage(self, r: SizingResult, above: list[QGraphicsItem]) -> None:
        store = r.infrastructure.storage
        rect = QRectF(row_x(0, 1, 260, self.width), 280, 260, 50)
        tip = t("{tb} TB on the '{tier}' tier, {read} GB/s read per node",
                tb=number(store.total_bytes / 1e12, ",.1f"),
                tier=storage_class(store.preset, language()),
                read=number(store.read_bytes_per_s_per_node / 1e9, "g"))
        storage = box(self, rect, t("Storage"), "#8c564b", tip, 60)
        for item in above:
            line(self, item, storage)


    def draw_legend(self, r: SizingResult, y: float) -> None:
        """What the colours, boxes and lines mean, in rows as wide as the drawing."""
        compute = sum(rack.kind == "compute" for rack in r.infrastructure.racks)
        racks = min(compute, len(RACK_COLOURS))
        entries = [("box", RACK_COLOURS[i], t("Rack {n} (failure domain)", n=i + 1))
                   for i in range(racks)]
        entries += [("fill", GPU_USED, t("GPU in use")), ("fill", GPU_EMPTY, t("Empty GPU slot")),
                    ("dash", "#555555", t("Scale-up domain: {link}", link=scale_up_text(r))),
                    ("line", LINE, t("Front-end and storage links")),
                    ("line", RAIL, t("Compute fabric (rail-optimised, leaf to spine)"))]
        x, width = 0.0, max(self.width, 700)
        for kind, style, text in entries:
            label = text_item(text, self.theme)
            room = 26 + label.boundingRect().width() + 20
            if x + room > width and x > 0:
                x, y = 0.0, y + 24
            self.legend_mark(kind, style, QRectF(x, y, 18, 14))
            self.addItem(label)
            label.setPos(x + 26, y - 1)
            x += room

    def legend_mark(self, kind: str, style, rect: QRectF) -> None:
        if kind == "line":
            self.addLine(rect.left(), rect.center().y(), rect.right(), rect.center().y(),
                         QPen(style.color(), max(style.widthF(), 1.5)))
        elif kind == "dash":
            self.addRect(rect, QPen(QColor(style), 1, Qt.PenStyle.DashLine))
        elif kind == "fill":
            self.addRect(rect, QPen(QColor("#555555"), 0.5), QBrush(QColor(style)))
        else:
            colour = self.theme.series(style)
            self.addRect(rect, QPen(colour, 1.5), QBrush(_alpha(colour, 50)))


class TopologyView(PaletteFollower, ZoomableView):
    """Zoomable, pannable view of a TopologyScene, with PNG and SVG export."""

    def __init__(self, parent: QWidget | None = None):
        self.topology = TopologyScene()
        self.shown: SizingResult | None = None
        super().__init__(self.topology, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setMinimumHeight(600)

    def show_result(self, result: SizingResult) -> None:
        self.shown = result
        self.topology.draw(result)
        self.fit()

    def follow(self, theme: Theme) -> None:
        """Draw again in the colours of a new palette."""
        if theme != self.topology.theme:
            self.topology.theme = theme
            if self.shown is not None:
                self.show_result(self.shown)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit()

    def export_png(self, path: Path, scale: float = 2.0) -> None:
        save_png(self.topology, self.topology.theme.paper, path, scale)

    def export_svg(self, path: Path) -> None:
        rect = self.topology.sceneRect()
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(QSize(int(rect.width()), int(rect.height())))
        generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
        generator.setTitle("AI Sizer topology")
        painter = QPainter(generator)
        self.topology.render(painter)
        painter.end()
