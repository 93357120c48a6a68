"""Edit > Price list: the plan's priced items, the user's own prices with their date, saved
in the scenario and cited by the cost lines."""

from __future__ import annotations

from app.ui.dialogs.price_list import ITEM, YOURS, PriceListDialog


def row_of(dialog, item):
    return next(row for row in range(dialog.table.rowCount())
                if dialog.table.item(row, ITEM).text() == item)


def test_the_list_shows_every_priced_item_of_the_plan(qtbot, controller):
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    items = {dialog.table.item(row, ITEM).text() for row in range(dialog.table.rowCount())}
    lines = {line.item for line in controller.result.infrastructure.cost_lines}
    assert items == lines


def test_entered_prices_with_their_date_replace_the_catalogs(qtbot, controller):
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    steps = controller.undo_stack.count()
    dialog.table.item(row_of(dialog, "Racks"), YOURS).setText("3,500")
    gpu = controller.catalog.gpus[controller.result.selection.chosen.gpu].name
    dialog.table.item(row_of(dialog, gpu), YOURS).setText("9000")
    dialog.as_of.setText("2026-11-28")
    assert dialog.apply() == []
    assert controller.undo_stack.count() == steps + 1
    infrastructure = controller.scenario.infrastructure
    assert infrastructure.price_overrides_usd == {"rack": 3500.0,
                                                  controller.result.selection.chosen.gpu: 9000.0}
    assert str(infrastructure.price_list_as_of) == "2026-11-28"
    controller.recompute()
    lines = {line.item: line for line in controller.result.infrastructure.cost_lines}
    assert lines["Racks"].unit_usd == 3500
    assert lines["Racks"].source == "price entered for this scenario (as of 2026-11-28)"
    assert not lines["Racks"].estimated
    assert lines[gpu].unit_usd == 9000


def test_a_bad_price_or_date_is_named_and_nothing_changes(qtbot, controller):
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    before = controller.scenario
    dialog.table.item(row_of(dialog, "Racks"), YOURS).setText("cheap")
    dialog.as_of.setText("28.11.2026")
    problems = dialog.apply()
    assert problems == ["Racks: 'cheap' is not a price.",
                        "Prices as of: '28.11.2026' is not a date (YYYY-MM-DD)."]
    assert controller.scenario == before
    assert dialog.error.text() == "\n".join(problems)


def test_clearing_a_price_goes_back_to_the_catalog(qtbot, controller):
    controller.edit("infrastructure.price_overrides_usd", {"rack": 3500.0})
    controller.recompute()
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    assert dialog.table.item(row_of(dialog, "Racks"), YOURS).text() == "3,500"
    dialog.table.item(row_of(dialog, "Racks"), YOURS).setText("")
    assert dialog.apply() == []
    assert controller.scenario.infrastructure.price_overrides_usd == {}


def test_an_entered_price_is_cited_in_german(qtbot, controller):
    from app.domain.assumption_labels import source_text

    assert source_text("price entered for this scenario (as of 2026-11-28)", None, "de") == \
        "für dieses Szenario eingegebener Preis (Stand 2026-11-28)"


def test_a_quote_in_euro_is_kept_in_usd_with_its_rate(qtbot, controller):
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    dialog.currency.setText("eur")
    dialog.rate.setText("1.08")
    dialog.table.item(row_of(dialog, "Racks"), YOURS).setText("3,000")
    dialog.as_of.setText("2026-11-28")
    assert dialog.apply() == []
    infrastructure = controller.scenario.infrastructure
    assert infrastructure.price_overrides_usd == {"rack": 3240.0}  # 3,000 EUR x 1.08
    assert (infrastructure.price_list_currency, infrastructure.price_list_usd_per_unit) == \
        ("EUR", 1.08)
    controller.recompute()
    rate = next(a for a in controller.result.assumptions if a.name == "price_list_usd_per_unit")
    assert (rate.value, rate.unit) == (1.08, "USD/EUR")
    assert rate.source == "Entered with the price list, quoted on 2026-11-28"
    again = PriceListDialog(controller)
    qtbot.addWidget(again)
    assert again.table.item(row_of(again, "Racks"), YOURS).text() == "3,000"  # in EUR
    assert again.currency.text() == "EUR"


def test_a_foreign_currency_needs_its_rate(qtbot, controller):
    dialog = PriceListDialog(controller)
    qtbot.addWidget(dialog)
    dialog.currency.setText("GBP")
    problems = dialog.apply()
    assert problems == ["Exchange rate: give the USD one GBP buys on the list's date (a "
                        "number above 0)."]
