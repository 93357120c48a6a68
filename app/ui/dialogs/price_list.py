"""Edit > Price list: the prices of the plan's bill of materials, with the user's own prices
(a quote) and the date they were quoted, saved in the scenario.

Each row is a priced item of the current plan: its system or server, its GPUs when they are
bought apart, each switch, the fabric's optics, storage per TB, racks, PDUs and liquid
cooling. An entered price replaces the catalog's in every total (the scenario's
``infrastructure.price_overrides_usd``, by catalog id) and the cost line cites "price entered
for this scenario (as of <date>)". Prices are in USD, as the catalogs are.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.domain.result import SizingResult
from app.ui.controller import Controller
from app.ui.fields import MESSAGE_STYLE, format_number, parse_number, problem_in_words
from app.ui.text import language, t
from app.ui.units import usd

COLUMNS = ("Item", "Price in the plan (USD)", "Your price (USD)", "Source")
ITEM, PLAN, YOURS, SOURCE = range(len(COLUMNS))
#: Lines priced by a planning figure, not a catalog entry: key, the line's item (English).
PLANNING_ITEMS = (("fabric_optics", "Fabric optics and cables per GPU"),
                  ("storage", "Storage (usable TB)"), ("rack", "Racks"), ("pdu", "Rack PDUs"),
                  ("dlc_cooling", "Liquid cooling per rack (CDU, manifolds)"))


def priced_items(result: SizingResult, names: dict[str, str]) -> list[tuple[str, str]]:
    """(price key, the cost line's item) of every line of the plan's bill of materials."""
    site = result.infrastructure
    if site is None:
        return []
    lines = {line.item for line in site.cost_lines}
    keys = [(result.scale.server, names.get(result.scale.server, "")),
            (result.selection.chosen.gpu, names.get(result.selection.chosen.gpu, ""))]
    keys += [(group.switch, group.switch_name) for group in site.network.groups]
    keys += list(PLANNING_ITEMS)
    found: list[tuple[str, str]] = []
    for key, item in keys:
        if item in lines and key not in dict(found):
            found.append((key, item))
    return found


class PriceListDialog(QDialog):
    """The plan's priced items; type a price to replace the catalog's, clear it to go back."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("priceListDialog")
        self.setWindowTitle(t("Price list"))
        self.controller = controller
        catalog = controller.catalog
        self.names = {k: v.name for k, v in
                      {**catalog.gpus, **catalog.servers, **catalog.switches}.items()}
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([t(c) for c in COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SOURCE, QHeaderView.ResizeMode.Stretch)
        self.as_of = QLineEdit(placeholderText=t("YYYY-MM-DD"))
        self.note = QLabel(t("Prices are in USD, as the catalogs are. An empty price uses the "
                             "catalog's; the cost lines cite your prices with their date."),
                           wordWrap=True)
        self.error = QLabel(wordWrap=True, visible=False)
        self.error.setStyleSheet(MESSAGE_STYLE)
        form = QFormLayout()
        form.addRow(t("Prices as of"), self.as_of)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(900, 460)
        self.fill()

    def fill(self) -> None:
        result = self.controller.result
        infrastructure = self.controller.scenario.infrastructure
        entered = infrastructure.price_overrides_usd
        self.keys = priced_items(result, self.names) if result is not None else []
        lines = {line.item: line for line in result.infrastructure.cost_lines} if self.keys \
            else {}
        self.table.setRowCount(len(self.keys))
        for row, (key, item) in enumerate(self.keys):
            line = lines[item]
            texts = (t(item), usd(line.unit_usd) if line.unit_usd is not None else "–",
                     format_number(entered[key]) if key in entered else "", line.source)
            for col, text in enumerate(texts):
                cell = QTableWidgetItem(text)
                if col != YOURS:
                    cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, col, cell)
        as_of = infrastructure.price_list_as_of
        self.as_of.setText(as_of.isoformat() if as_of else "")

    def prices(self) -> tuple[dict[str, float], list[str]]:
        """The prices typed (catalog ids and planning keys the plan does not show now are
        kept as they were) and the problems, each naming its item."""
        kept = dict(self.controller.scenario.infrastructure.price_overrides_usd)
        problems = []
        for row, (key, item) in enumerate(self.keys):
            text = self.table.item(row, YOURS).text()
            kept.pop(key, None)
            value = parse_number(text, False, language())  # the text itself if no number
            if isinstance(value, str):
                problems.append(t("{item}: '{value}' is not a price in USD.", item=t(item),
                                  value=text))
            elif value is not None and value < 0:
                problems.append(t("{item}: a price cannot be negative.", item=t(item)))
            elif value is not None:
                kept[key] = float(value)
        return kept, problems

    def quoted(self) -> tuple[date | None, list[str]]:
        text = self.as_of.text().strip()
        if not text:
            return None, []
        try:
            return date.fromisoformat(text), []
        except ValueError:
            return None, [t("Prices as of: '{value}' is not a date (YYYY-MM-DD).", value=text)]

    def apply(self) -> list[str]:
        """Save the price list in the scenario as one undoable edit, or say what is wrong."""
        prices, problems = self.prices()
        as_of, date_problems = self.quoted()
        problems += date_problems
        if not problems:
            problems = self.controller.edit_many(
                {"infrastructure.price_overrides_usd": prices,
                 "infrastructure.price_list_as_of": as_of.isoformat() if as_of else None},
                t("Price list"))
            if problems:
                problems = [problem_in_words(p) for p in self.controller.refusal]
        self.error.setText("\n".join(problems))
        self.error.setVisible(bool(problems))
        if not problems:
            self.accept()
        return problems
