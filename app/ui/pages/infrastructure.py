"""Infrastructure: the first-order power, heat, racks and cost the result carries today."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGridLayout, QGroupBox, QLabel

from app.domain.result import SizingResult
from app.ui.pages.base import StepPage
from app.ui.text import t
from app.ui.units import number, watts

NOTICE_STYLE = ("QLabel { background: #fff8e1; border: 1px solid #ffe082; border-radius: 4px; "
                "padding: 8px; }")
COOLING = {"air": "Air-cooled", "liquid": "Liquid-cooled", "dlc": "Direct liquid cooling",
           "rdhx": "Rear-door heat exchanger"}
# Group title -> the figures it shows, in order.
GROUPS = {
    "Power and energy": ("IT power", "Facility power", "PUE", "Annual energy"),
    "Heat and cooling": ("Heat", "Cooling capacity", "Cooling"),
    "Space": ("Nodes", "Racks"),
    "Capital cost (indicative)": ("Capital cost", "GPUs", "Servers"),
}


def usd(value: float | None) -> str:
    """'USD 34,260', or 'n/a' when the catalog has no price."""
    return t("USD {amount}", amount=number(value, ",.0f")) if value is not None else t("n/a")


def figure_texts(r: SizingResult, server_name: str) -> dict[str, str]:
    """Each figure of the page as the user reads it, units labelled."""
    f, cost = r.facility, r.cost
    return {
        "IT power": watts(f.it_power_w),
        "Facility power": watts(f.facility_power_w),
        "PUE": number(f.pue, ",.2f"),
        "Annual energy": t("{kwh} kWh per year", kwh=number(f.annual_energy_kwh, ",.0f")),
        "Heat": t("{btu} BTU/h", btu=number(f.heat_btu_per_h, ",.0f")),
        "Cooling capacity": t("{tons} tons of refrigeration", tons=number(f.cooling_tons)),
        "Cooling": t(COOLING.get(f.cooling, f.cooling)),
        "Nodes": t("{n} x {server}", n=r.scale.nodes, server=server_name),
        "Racks": str(f.racks),
        "Capital cost": usd(cost.capital_usd),
        "GPUs": usd(cost.gpus_usd),
        "Servers": usd(cost.servers_usd),
    }


class InfrastructurePage(StepPage):
    TITLE = "Infrastructure"

    def build(self) -> None:
        self.notice = QLabel(wordWrap=True)
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.layout_.addWidget(self.notice)
        grid = QGridLayout()
        self.boxes: dict[str, QGroupBox] = {}
        self.labels: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        for index, (title, names) in enumerate(GROUPS.items()):
            grid.addWidget(self.build_group(title, names), index // 2, index % 2)
        self.layout_.addLayout(grid)
        self.cost_note = QLabel(wordWrap=True)
        self.boxes["Capital cost (indicative)"].layout().addRow(self.cost_note)
        self.layout_.addStretch(1)

    def build_group(self, title: str, names: tuple[str, ...]) -> QGroupBox:
        box = self.boxes[title] = QGroupBox()
        form = QFormLayout(box)
        for name in names:
            self.labels[name], self.values[name] = QLabel(), QLabel()
            self.values[name].setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(self.labels[name], self.values[name])
        return box

    def retranslate(self) -> None:
        self.notice.setText(t(
            "<b>First-order estimate.</b> Power and heat come from the servers' maximum power "
            "and an industry-average PUE, racks from rack units and a power limit per rack. "
            "The infrastructure step will refine racks, cooling, electrical feeds, network "
            "and storage."))
        for title, box in self.boxes.items():
            box.setTitle(t(title))
        for name, label in self.labels.items():
            label.setText(t(name))

    def show_result(self, r: SizingResult) -> None:
        server = self.controller.catalog.servers.get(r.scale.server)
        texts = figure_texts(r, server.name if server else r.scale.server)
        for name, text in texts.items():
            self.values[name].setText(text)
        self.cost_note.setText(t(r.cost.note))
