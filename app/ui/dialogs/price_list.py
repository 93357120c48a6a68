"""Edit > Price list: the prices of the plan's bill of materials, with the user's own prices
(a quote) and the date they were quoted, saved in the scenario.

Each row is a priced item of the current plan: its system or server, its GPUs when they are
bought apart, each switch, the fabric's optics, storage per TB, racks, PDUs and liquid
cooling. An entered price replaces the catalog's in every total (the scenario's
``infrastructure.price_overrides_usd``, by catalog id) and the cost line cites "price entered
for this scenario (as of <date>)". A quote in another currency is typed in it with the
exchange rate of its date (USD per unit): the prices are kept converted to USD, as the
catalogs and every total are, and the rate is listed with the assumptions.
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

COLUMNS = ("Item", "Price in the plan (USD)", "Your price", "Source")
USD = "USD"
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
        self.currency = QLineEdit(maxLength=3, placeholderText=USD)
        self.rate = QLineEdit(placeholderText=t("USD per unit, e.g. 1.08 for EUR"))
        self.currency.textChanged.connect(self.show_rate)
        self.note = QLabel(t("Type the prices of your quote in its currency. An empty price "
                             "uses the catalog's; the cost lines cite your prices with their "
                             "date, converted to USD as every total is."), wordWrap=True)
        self.error = QLabel(wordWrap=True, visible=False)
        self.error.setStyleSheet(MESSAGE_STYLE)
        self.form = form = QFormLayout()
        form.addRow(t("Prices as of"), self.as_of)
        form.addRow(t("Currency of the prices"), self.currency)
        form.addRow(t("Exchange rate (USD per unit)"), self.rate)
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
        self.resize(900, 500)
        self.fill()
        self.show_rate()

    def fill(self) -> None:
        result = self.controller.result
        infrastructure = self.controller.scenario.infrastructure
        entered = infrastructure.price_overrides_usd
        self.keys = priced_items(result, self.names) if result is not None else []
        currency = infrastructure.price_list_currency
        rate = infrastructure.price_list_usd_per_unit if currency != USD else None
        self.currency.setText("" if currency == USD else currency)
        self.rate.setText(format_number(rate) if rate else "")
        lines = {line.item: line for line in result.infrastructure.cost_lines} if self.keys \
            else {}
        self.table.setRowCount(len(self.keys))
        for row, (key, item) in enumerate(self.keys):
            line = lines[item]
            texts = (t(item), usd(line.unit_usd) if line.unit_usd is not None else "–",
                     format_number(round(entered[key] / (rate or 1.0), 2)) if key in entered
                     else "", line.source)
            for col, text in enumerate(texts):
                cell = QTableWidgetItem(text)
                if col != YOURS:
                    cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, col, cell)
        as_of = infrastructure.price_list_as_of
        self.as_of.setText(as_of.isoformat() if as_of else "")

    def show_rate(self) -> None:
        """The exchange rate is asked for a currency other than USD only."""
        self.rate.setEnabled(self.currency_code() != USD)

    def currency_code(self) -> str:
        return self.currency.text().strip().upper() or USD

    def exchange(self) -> tuple[float, list[str]]:
        """USD per unit of the quote's currency (1 for USD) and the problems with it."""
        code = self.currency_code()
        if code == USD:
            return 1.0, []
        if not (len(code) == 3 and code.isalpha()):
            return 1.0, [t("Currency of the prices: '{value}' is not a three-letter code "
                           "(EUR, GBP, CHF...).", value=self.currency.text())]
        rate = parse_number(self.rate.text(), False, language())
        if rate is None or isinstance(rate, str) or rate <= 0:
            return 1.0, [t("Exchange rate: give the USD one {currency} buys on the list's "
                           "date (a number above 0).", currency=code)]
        return float(rate), []

    def prices(self, rate: float = 1.0) -> tuple[dict[str, float], list[str]]:
        """The prices typed, converted to USD at ``rate`` (catalog ids and planning keys the
        plan does not show now are kept as they were), and the problems, each naming its
        item."""
        kept = dict(self.controller.scenario.infrastructure.price_overrides_usd)
        problems = []
        for row, (key, item) in enumerate(self.keys):
            text = self.table.item(row, YOURS).text()
            kept.pop(key, None)
            value = parse_number(text, False, language())  # the text itself if no number
            if isinstance(value, str):
                problems.append(t("{item}: '{value}' is not a price.", item=t(item),
                                  value=text))
            elif value is not None and value < 0:
                problems.append(t("{item}: a price cannot be negative.", item=t(item)))
            elif value is not None:
                kept[key] = round(float(value) * rate, 2)
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
        rate, problems = self.exchange()
        prices, price_problems = self.prices(rate)
        as_of, date_problems = self.quoted()
        problems += price_problems + date_problems
        if not problems:
            code = self.currency_code()
            problems = self.controller.edit_many(
                {"infrastructure.price_overrides_usd": prices,
                 "infrastructure.price_list_as_of": as_of.isoformat() if as_of else None,
                 "infrastructure.price_list_currency": code,
                 "infrastructure.price_list_usd_per_unit": rate if code != USD else None},
                t("Price list"))
            if problems:
                problems = [problem_in_words(p) for p in self.controller.refusal]
        self.error.setText("\n".join(problems))
        self.error.setVisible(bool(problems))
        if not problems:
            self.accept()
        return problems
