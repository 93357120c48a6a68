"""The Assumptions page and the report's assumptions table show readable, translated names.

Raw ids ('training_mfu', 'vllm.eta_mem') are for the result JSON and the scenario's
``factor_overrides``: the page keeps the id in the name cell's tooltip and in the line under
the table, the report prints it small under the name. Sources the engine wrote read German in
German; catalog citations stay as written.
"""

from __future__ import annotations

import pytest

from app import api
from app.report.accuracy import recorded
from app.report.chapters.assumptions import section_assumptions
from app.report.context import Context
from app.ui.pages.assumptions import NAME, SOURCE, AssumptionsPage


@pytest.fixture
def page(qtbot, controller):
    widget = AssumptionsPage(controller)
    qtbot.addWidget(widget)
    return widget


def column(page, col: int) -> list[str]:
    return [page.table.item(row, col).text() for row in range(page.table.rowCount())]


def test_the_page_shows_labels_and_no_ids(page, controller, catalog):
    """#13: the window speaks the user's words; the ids stay in the attached JSON only."""
    result = controller.result
    names = column(page, NAME)
    assert names == [a.label() for a in result.assumptions]
    assert not {a.name for a in result.assumptions} & set(names)  # no raw id as the name
    gpu = catalog.gpus[result.gpu.id]
    assert f"GPU memory ({gpu.name})" in names
    tips = [page.table.item(row, NAME).toolTip() for row in range(page.table.rowCount())]
    assert tips == [a.label() for a in result.assumptions]  # the whole name, if elided


def test_the_page_reads_german(page, controller):
    result = controller.result
    controller.set_language("de")
    names, sources = column(page, NAME), column(page, SOURCE)
    assert names == [a.label("de") for a in result.assumptions]
    assert "Batch-Grenze (max_num_seqs)" in names
    assert any(n.startswith("Effizienz der Speicherbandbreite, Gewichte (") for n in names)
    assert not any("not calibrated on this GPU family" in s or "(as of " in s for s in sources)
    assert any(s.startswith("Profil ") for s in sources)
    page.show_source(0)
    first = result.assumptions[0]
    assert first.label("de") in page.source.text()
    assert f"({first.name})" not in page.source.text()
    controller.set_language("en")
    assert column(page, NAME) == [a.label() for a in result.assumptions]


def table_cells(lang: str, result) -> tuple[list[str], list[str]]:
    """The first column of the report's assumptions table (plain text) and its sources."""
    ctx = Context(result=result, lang=lang, width=500.0, accuracy=recorded(),
                  report_date="2026-11-30")
    flowables = section_assumptions(ctx)
    table = next(f for f in flowables if hasattr(f, "_cellvalues"))
    names = [row[0].getPlainText() for row in table._cellvalues[1:]]
    sources = [f.getPlainText() for f in flowables
               if hasattr(f, "getPlainText") and f.getPlainText().startswith("[")]
    return names, sources


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_report_table_shows_labels_without_their_ids(lang, catalog):
    result = api.size(api.load_scenario(api.example("fine-tune-lora")), catalog)
    names, sources = table_cells(lang, result)
    assert len(names) == len(result.assumptions)
    for cell, a in zip(names, result.assumptions, strict=True):
        assert cell.startswith(a.label(lang)) and a.name not in cell, cell
    rendered = {a.source_text(lang) for a in result.assumptions}
    assert len(sources) == len(rendered)
    if lang == "de":
        assert any("Server aus dem Katalog" in s for s in sources)
        assert not any("(as of " in s or "catalog server:" in s for s in sources)


def test_long_names_leave_the_source_column_room(page, controller, qtbot):
    controller.load(api.example("fine-tune-lora"), None)
    controller.set_language("de")
    page.resize(870, 800)
    page.show()
    qtbot.waitUntil(lambda: page.table.viewport().width() > 700)
    width = page.table.viewport().width()
    assert page.table.columnWidth(NAME) <= 0.4 * width + 1
    assert page.table.columnWidth(SOURCE) >= 0.25 * width
