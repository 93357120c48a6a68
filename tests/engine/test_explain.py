"""The serving result's sections and their sentences (app.engine.explain).

Each section assembles the numbers of one step with its translatable sentences: the English
text stays in the result for the command line and old readers, the Messages let the window
and the report show them in German.
"""

import pytest

from app.api import example, load_scenario, size
from app.domain.result import CostLineResult, InfrastructureResult
from app.engine import explain


@pytest.fixture(scope="module")
def site() -> InfrastructureResult:
    return size(load_scenario(example("small-chat"))).infrastructure



def line(item: str, total: float | None, estimated: bool = False) -> CostLineResult:
    return CostLineResult(item=item, quantity=1, unit_usd=total, total_usd=total, source="s",
                          estimated=estimated)



def test_cost_note_names_each_item_without_a_price_in_its_own_sentence():
    note = explain.cost_note(True, ["Racks", "Rack PDUs"])
    assert [m.template for m in note[1:]] == ["No price for {item}."] * 2
    english = " ".join(m.text() for m in note)
    assert english.endswith("is published. No price for Racks. No price for Rack PDUs.")
    german = " ".join(m.text("de") for m in note)
    assert "Kein Preis für" in german and "No price" not in german



def test_cost_note_without_estimates_or_gaps_is_the_catalog_sentence_alone():
    note = explain.cost_note(False, [])
    assert [m.text() for m in note] == [
        "Indicative prices from the catalog, dated and sourced (street prices vary by 20-40 %)."]



def test_cost_result_note_is_its_messages_in_english(site):
    site = site.model_copy(update={"cost_lines": [line("GPUs", 1000.0), line("Racks", None)]})
    cost = explain.cost_result(site)
    assert cost.note == " ".join(m.text() for m in cost.note_messages)
    assert cost.note.endswith("No price for Racks.")
    assert cost.note_messages[-1].params == {"item": "Racks"}
