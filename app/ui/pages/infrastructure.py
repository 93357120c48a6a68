"""Infrastructure: racks, power, cooling, feeds, energy, networks, storage, cost, topology.

Every figure comes from ``result.infrastructure``; the inputs on the left edit the scenario's
``infrastructure`` block (empty fields take the catalog defaults, listed on the Assumptions
page with their sources).
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.domain.assumption_labels import source_text
from app.domain.result import (
    InfrastructureResult,
    SizingResult,
    cost_item,
    priced_total,
    storage_class,
)
from app.domain.scenario import Scenario
from app.i18n import translate
from app.ui.charts import FigureTable, ThemedView, pen, set_axis, style_plot, wrap
from app.ui.fields import BoundField, CheckField, Choice, ChoiceField, OptionalNumberField
from app.ui.pages.base import StepPage
from app.ui.racks import RackView
from app.ui.text import language, render, t
from app.ui.topology import TopologyView
from app.ui.units import number, tb, usd, watts
from app.ui.zoom import ZoomButtons

#: Below this page width [px] the summary and the power chart go under the inputs instead of
#: beside them (at 1400 x 900 the page is about 850 px wide: side by side).
SIDE_BY_SIDE_MIN = 760
COOLING_CHARS = 24  # characters the cooling choice shows before it elides
POWER_PARTS = ("Compute nodes", "Network", "Cooling and facility overhead")
POWER_COLOURS = ("#4c78a8", "#9d755d", "#bab0ac")
COOLING_CHOICES = [
    Choice(None, "From the server (liquid-cooled servers: direct liquid)"),
    Choice("air", "Air"),
    Choice("rdhx", "Rear-door heat exchanger"),
    Choice("dlc", "Direct liquid cooling"),
]


class DefaultCheckField(CheckField):
    """A yes/no field whose absence in the scenario means ``default``."""

    def __init__(self, *args, default: bool):
        super().__init__(*args)
        self.default = default

    def write(self, value) -> None:
        self.editor.setChecked(self.default if value is None else bool(value))


class PowerChart(ThemedView, pg.PlotWidget):
    """Facility power split into compute, network and overhead (one bar each), every bar
    named under it (on as many lines as its name needs) and its kW over it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setBackground("w")
        self.setMinimumHeight(220)
        style_plot(self.getPlotItem())
        self.bars = [pg.BarGraphItem(x=[i], height=[0], width=0.6, brush=colour,
                                     pen=pen(colour, 1)) for i, colour in enumerate(POWER_COLOURS)]
        self.values = [pg.TextItem(anchor=(0.5, 1.0)) for _ in POWER_PARTS]
        for bar, value in zip(self.bars, self.values, strict=True):
            self.addItem(bar)
            self.addItem(value)
        self.name_ticks()

    def name_ticks(self) -> None:
        """Each bar's name under it, wrapped to the third of the axis that is its own (a name
        sticking out of the axis is not drawn), the axis as high as the longest name's lines."""
        plot = self.getPlotItem()
        if plot is None:  # closing
            return
        axis = plot.getAxis("bottom")
        metrics = QFontMetrics(axis.style.get("tickFont") or axis.font())
        room = max((self.width() - plot.getAxis("left").width()) / len(POWER_PARTS) - 8, 40)
        names = [wrap(t(part), metrics, room) for part in POWER_PARTS]
        axis.setTicks([[(i, "\n".join(lines)) for i, lines in enumerate(names)]])
        axis.setHeight(max(len(lines) for lines in names) * metrics.lineSpacing() + 14)

    def retranslate(self) -> None:
        set_axis(self.getPlotItem(), "left", t("Power"), "kW")
        self.name_ticks()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if hasattr(self, "values"):  # pyqtgraph resizes the view before __init__ ends
            self.name_ticks()

    def show_result(self, site: InfrastructureResult) -> None:
        overhead = site.power.facility_w - site.power.it_max_w
        values = (site.power.compute_w, site.power.network_w, overhead)
        for i, (bar, value) in enumerate(zip(self.bars, values, strict=True)):
            bar.setOpts(height=[value / 1e3])
            self.values[i].setText(f"{number(value / 1e3, ',.1f')} kW")  # in the theme's ink
            self.values[i].setPos(i, value / 1e3)
        self.setYRange(0, max(values) / 1e3 * 1.18, padding=0)
        self.setXRange(-0.5, len(POWER_PARTS) - 0.5, padding=0)  # a third of the axis each
        self.name_ticks()


class InfrastructurePage(StepPage):
    HELP = ("Racks, power, cooling, feeds, networks, storage and cost around the replicas. "
            "Empty fields use the catalog defaults; prices are indicative and dated.")

    def build(self) -> None:
        """The inputs with the power chart beside them; the tables (summary, networks,
        storage, cost) under both over the page's whole width, where their values read on one
        or two lines in English and German. Narrower than ``SIDE_BY_SIDE_MIN`` the chart goes
        under the inputs."""
        self.fields: list[BoundField] = []
        self.groups: list[tuple[QGroupBox, str]] = []
        self.top = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.top.addWidget(self.inputs(), 0)
        self.top.addWidget(self.figures(), 1)
        self.layout_.addLayout(self.top)
        for box in self.table_boxes:
            self.layout_.addWidget(box)
        self.layout_.addWidget(self.warning)
        self.layout_.addWidget(self.titled(self.racks_box(), "Rack elevation"))
        self.layout_.addWidget(self.titled(self.topology_box(), "Node topology"))
        self.layout_.addStretch(1)

    # --- inputs ---------------------------------------------------------------------------
    def inputs(self) -> QWidget:
        box = QGroupBox()
        self.groups.append((box, "Site"))
        form = QFormLayout(box)
        c = self.controller
        rows = [
            ChoiceField(c, "infrastructure.cooling", "Cooling",
                        "How the racks are cooled; it sets the rack power limit and the PUE.",
                        COOLING_CHOICES),
            OptionalNumberField(c, "infrastructure.rack_power_limit_kw", "Rack power limit",
                                "Most power one rack may draw.", unit="kW"),
            OptionalNumberField(c, "infrastructure.pue", "PUE",
                                "Facility power divided by IT power."),
            OptionalNumberField(c, "infrastructure.feed_voltage_v", "Feed voltage",
                                "Line-to-line voltage of the three-phase feeds.", unit="V"),
            OptionalNumberField(c, "infrastructure.pdu_rating_a", "PDU rating",
                                "Current rating of one rack PDU.", unit="A"),
            DefaultCheckField(c, "infrastructure.ab_feeds", "A/B feeds",
                              "Two independent feeds per rack; each must carry the whole rack.",
                              default=True),
            OptionalNumberField(c, "infrastructure.utilisation", "Average load",
                                "Average load as a share of the peak (0 to 1)."),
            OptionalNumberField(c, "infrastructure.electricity_usd_per_kwh", "Electricity price",
                                "Price of one kWh.", unit="USD/kWh"),
            OptionalNumberField(c, "infrastructure.colocation_usd_per_kw_month", "Colocation",
                                "Colocation fee per kW of IT power and month.",
                                unit="USD/kW/month"),
            OptionalNumberField(c, "infrastructure.grid_kg_co2e_per_kwh", "Grid CO2e factor",
                                "Emissions of the site's electricity.", unit="kg/kWh"),
            OptionalNumberField(c, "infrastructure.years", "Years",
                                "Years for the total cost of ownership."),
            CheckField(c, "infrastructure.force_fabric", "Scale-out fabric",
                       "Add a scale-out fabric even when every replica fits in one node."),
        ]
        for field in rows:
            field.add_to(form)
            self.fields.append(field)
        # the longest cooling choice would make the whole column as wide as itself; the list
        # that opens still shows every choice in full
        cooling = rows[0].editor
        cooling.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        cooling.setMinimumContentsLength(COOLING_CHARS)
        cooling.view().setMinimumWidth(cooling.view().sizeHintForColumn(0))
        box.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        return box

    # --- figures --------------------------------------------------------------------------
    def figures(self) -> QWidget:
        """The power chart (beside the inputs); the tables are made here too, in
        ``table_boxes``, and placed under both by :meth:`build`."""
        self.summary = FigureTable(0, 2)
        self.summary.stretch_only(1)
        self.networks = FigureTable(0, 4)
        self.networks.stretch_only(1)
        self.storage = FigureTable(0, 3)
        self.storage.stretch_only(1)
        self.costs = FigureTable(0, 4)
        self.costs.stretch_only(0, 3)
        self.power_chart = PowerChart()
        self.warning = QLabel(wordWrap=True)
        self.warning.setStyleSheet("color: #c62828;")
        self.table_boxes = [self.titled(widget, title) for widget, title in (
            (self.summary, "Power, cooling and feeds"), (self.networks, "Networks"),
            (self.storage, "Storage"), (self.costs, "Cost (indicative)"))]
        return self.titled(self.power_chart, "Power breakdown")

    def racks_box(self) -> QWidget:
        holder = QWidget()
        column = QVBoxLayout(holder)
        self.rack_view = RackView()
        self.rack_zoom = ZoomButtons(self.rack_view)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.rack_zoom)
        column.addLayout(buttons)
        column.addWidget(self.rack_view)
        return holder

    def topology_box(self) -> QWidget:
        holder = QWidget()
        column = QVBoxLayout(holder)
        self.topology = TopologyView()
        buttons = QHBoxLayout()
        self.topology_zoom = ZoomButtons(self.topology)
        buttons.addWidget(self.topology_zoom)
        self.png_button, self.svg_button = QPushButton(), QPushButton()
        self.png_button.clicked.connect(lambda: self.export("png"))
        self.svg_button.clicked.connect(lambda: self.export("svg"))
        buttons.addStretch(1)
        buttons.addWidget(self.png_button)
        buttons.addWidget(self.svg_button)
        column.addLayout(buttons)
        column.addWidget(self.topology)
        return holder

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        wide = self.width() >= SIDE_BY_SIDE_MIN
        direction = (QBoxLayout.Direction.LeftToRight if wide
                     else QBoxLayout.Direction.TopToBottom)
        if self.top.direction() != direction:
            self.top.setDirection(direction)

    def titled(self, widget: QWidget, title: str) -> QGroupBox:
        box = QGroupBox()
        QVBoxLayout(box).addWidget(widget)
        self.groups.append((box, title))
        return box

    # --- StepPage -------------------------------------------------------------------------
    def retranslate(self) -> None:
        for box, title in self.groups:
            box.setTitle(t(title))
        for field in self.fields:
            field.retranslate()
        self.power_chart.retranslate()
        self.rack_zoom.retranslate()
        self.topology_zoom.retranslate()
        self.networks.setHorizontalHeaderLabels([t("Network"), t("Switch"), t("Count"),
                                                 t("Ports in use")])
        self.storage.setHorizontalHeaderLabels([t("Tier"), t("Purpose"), t("Capacity")])
        self.costs.setHorizontalHeaderLabels([t("Item"), t("Quantity"), t("Total"),
                                              t("Source")])
        self.summary.horizontalHeader().hide()
        self.png_button.setText(t("Export PNG…"))
        self.svg_button.setText(t("Export SVG…"))

    def show_scenario(self, scenario: Scenario) -> None:
        for field in self.fields:
            field.show_scenario()

    def show_result(self, result: SizingResult) -> None:
        site = result.infrastructure
        if site is None:
            return
        self.show_summary(site)
        self.show_networks(site)
        self.show_storage(site)
        self.show_costs(site)
        self.power_chart.show_result(site)
        self.warning.setText("\n".join(render(m) for m in site.warnings))
        self.rack_view.show_result(result, self.controller.scenario.infrastructure.rack_units)
        self.topology.show_result(result)

    def show_summary(self, site: InfrastructureResult) -> None:
        p, c, e, el = site.power, site.cooling, site.energy, site.electrical
        compute = sum(1 for r in site.racks if r.kind == "compute")
        rows = [
            (t("Racks"), t("{n} ({compute} compute, {network} network), limit {kw} per rack",
                            n=len(site.racks), compute=compute, network=len(site.racks) - compute,
                            kw=watts(c.rack_limit_w))),
            (t("Power per node"), watts(p.node_max_w)),
            (t("IT power"), t("{it} (compute {compute}, network {network})", it=watts(p.it_max_w),
                              compute=watts(p.compute_w), network=watts(p.network_w))),
            (t("Facility power"), t("{kw} at PUE {pue}", kw=watts(p.facility_w),
                                    pue=number(p.pue, "g"))),
            (t("Heat"), t("{btu} BTU/h, {tons} tons of refrigeration",
                          btu=number(c.heat_btu_per_h, ",.0f"), tons=number(c.tons, ",.1f"))),
            (t("Cooling"), t("{kind}: air {cfm} CFM, coolant {lpm} L/min", kind=t(c.kind),
                             cfm=number(c.airflow_cfm, ",.0f"),
                             lpm=number(c.liquid_l_per_min, ",.0f"))),
            (t("Feeds"), t("{v} V three-phase; worst rack {a} A per feed; "
                           "{pdus} PDUs of {rating} A",
                           v=number(el.voltage_v, "g"), a=number(el.max_rack_current_a, ",.1f"),
                           pdus=el.pdus_total, rating=number(el.pdu_rating_a, "g"))),
            (t("Energy per year"), t("{kwh} kWh, {cost}", kwh=number(e.annual_kwh, ",.0f"),
                                     cost=usd(e.annual_cost_usd))),
            (t("CO2e per year"), t("{tonnes} t", tonnes=number(e.annual_co2e_kg / 1e3, ",.1f"))
             if e.annual_co2e_kg else t("not computed (set the grid factor)")),
            (t("Scale-up"), render(site.network.scale_up_message) or site.network.scale_up),
        ]
        self.summary.set_rows(rows)

    def show_networks(self, site: InfrastructureResult) -> None:
        rows = [(t(g.network), g.switch_name, number(g.count, ",d"), number(g.ports_used, ",d"))
                for g in site.network.groups]
        f = site.network.fabric
        if f is not None:
            rows.append((t("compute fabric"), t(
                "{tiers} tiers: {leaves} leaf, {spines} spine, {cores} core", tiers=f.tiers,
                leaves=f.leaves, spines=f.spines, cores=f.cores),
                t("{cables} cables", cables=f.cables_per_tier),
                t("{n} transceivers", n=f.transceivers)))
        else:
            reason = render(site.network.fabric_reason_message) or site.network.fabric_reason
            rows.append((t("compute fabric"), reason, "", ""))
        self.networks.set_rows(rows)

    def show_storage(self, site: InfrastructureResult) -> None:
        rows = [(t(line.tier), t(line.purpose), tb(line.capacity_bytes))
                for line in site.storage.lines]
        rows.append((t("total"), t("'{tier}' tier, {read} GB/s read per node",
                                   tier=storage_class(site.storage.preset, language()),
                                   read=number(site.storage.read_bytes_per_s_per_node / 1e9, "g")),
                     tb(site.storage.total_bytes)))
        self.storage.set_rows(rows)

    def show_costs(self, site: InfrastructureResult) -> None:
        rows = [(render(cost_item(line)) + (f" ({t('estimated')})" if line.estimated
                                 and "estimated" not in line.item else ""),
                 number(line.quantity, ",.4g"), usd(line.total_usd),
                 source_text(translate(line.source, language()), None, language()))
                # a citation with its date (its 'as of' translated), or "no price in the catalog"
                for line in site.cost_lines]
        rows += [(t("Capital (indicative)"), "",
                  render(priced_total(usd(site.capital_usd), site.unpriced)), ""),
                 (t("Running per year"), "", usd(site.annual_running_usd), ""),
                 (t("Total over {years} years", years=number(site.years, "g")), "",
                  usd(site.tco_usd), ""),
                 (t("Per million output tokens"), "",
                  usd(site.cost_per_million_tokens_usd, ",.2f"), "")]
        self.costs.set_rows(rows)

    def export(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, t("Export topology"), f"topology.{kind}",
                                              f"{kind.upper()} (*.{kind})")
        if path:
            self.export_to(Path(path), kind)

    def export_to(self, path: Path, kind: str) -> None:
        if kind == "svg":
            self.topology.export_svg(path)
        else:
            self.topology.export_png(path)
