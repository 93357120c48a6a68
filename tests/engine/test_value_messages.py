"""Sentences the engine leaves for later rendering: the scale-up link and the cost note.

Both are :class:`Message` objects, so the window and the report show them in German with
German numbers; the English text stays in the result for the command line and old readers.
"""

import pytest

from app.api import example, load_scenario, size
from app.domain.result import CostLineResult, InfrastructureResult
from app.engine import explain, network
from app.i18n import Message


def test_scale_up_description_is_a_message_with_localised_numbers():
    link = network.scale_up_description("nvlink", 1800, 8)
    assert isinstance(link, Message)
    assert link.text() == "NVLink/NVSwitch, 1,800 GB/s per GPU per direction, 8 GPUs per node"
    assert link.text("de") == "NVLink/NVSwitch, 1.800 GB/s je GPU und Richtung, 8 GPUs je Knoten"


def test_an_unknown_link_keeps_its_code():
    assert network.scale_up_description("cxl", 64, 4).text().startswith("cxl, 64 GB/s")


@pytest.fixture(scope="module")
def site() -> InfrastructureResult:
    return size(load_scenario(example("small-chat"))).infrastructure


def test_the_result_keeps_the_english_text_and_the_messages(site):
    net = site.network
    assert net.scale_up == net.scale_up_message.text()
    assert net.fabric_reason == net.fabric_reason_message.text()
    assert "je GPU und Richtung" in net.scale_up_message.text("de")


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
