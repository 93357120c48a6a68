"""The last English and unlocalised values of the German window.

- problems already shown re-render when the language changes (the controller keeps Messages);
- the Assumptions page's Unit column names its word units in German;
- the summary panel and the Training page name servers and GPUs by their catalog names;
- the Compare charts' titles keep the palette's ink after a language switch; prices go through
  ``units.usd`` ('USD 1,234', '1.234 USD').
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from app import api
from app.ui import text
from app.ui.compare_model import KEY_FIGURES, column
from app.ui.pages.assumptions import UNIT, AssumptionsPage, display_unit
from app.ui.pages.compare import ComparePage
from app.ui.pages.gpu_selection import GpuSelectionPage, chosen_text
from app.ui.pages.training import TrainingPage
from app.ui.summary_panel import SummaryPanel
from app.ui.theme import mix
from app.ui.units import UNIT_NAMES, unit_text, usd

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"
USERS = "workload.concurrent_users"


def figures(table) -> dict[str, str]:
    return {table.text(row, 0): table.text(row, 1) for row in range(table.rowCount())}


# --- problems follow the language -----------------------------------------------------------
def test_a_refused_edit_re_renders_after_a_language_switch(controller, qtbot):
    problems = controller.edit(USERS, 0)
    assert problems == ["workload.concurrent_users: must be between 1 and 10,000,000 or 'max' "
                        "(got 0)"]
    assert controller.problems == problems
    with qtbot.waitSignal(controller.problems_changed) as blocker:
        controller.set_language("de")
    german = controller.problems
    assert blocker.args == [german]
    assert german[0].startswith("workload.concurrent_users: ")
    assert "muss zwischen 1 und 10.000.000 liegen" in german[0]
    controller.set_language("en")
    assert controller.problems == problems


def test_the_edit_returns_what_the_signal_carries_in_german(controller, qtbot):
    controller.set_language("de")
    with qtbot.waitSignal(controller.problems_changed) as blocker:
        problems = controller.edit(USERS, 0)
    assert blocker.args == [problems] and "angegeben: 0" in problems[0]


def test_a_sizing_problem_re_renders_in_the_summary_panel(controller, qtbot):
    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    assert controller.edit("hardware", {"gpu": "h100-sxm", "tensor_parallel": 3}) == []
    controller.recompute()
    english = panel.problems.text()  # named by the field's label, not its path (issue 13)
    assert english.lower().startswith("tensor parallel: 3 does not split")
    controller.set_language("de")
    german = panel.problems.text()
    assert "teilt die" in german and "does not split" not in german
    assert "hardware." not in german


def test_no_problem_no_signal_on_a_language_switch(controller, qtbot):
    with qtbot.assertNotEmitted(controller.problems_changed):
        controller.set_language("de")


# --- the Unit column of the Assumptions page ------------------------------------------------
SYMBOLS = {"", "s", "ms", "B", "kB", "MB", "GB", "B/s", "GB/s", "FLOP/s", "TFLOP/s", "W", "kW",
           "V", "A", "F", "K", "h", "USD", "USD/TB", "USD/kWh", "kg/kWh"}


def engine_units() -> set[str]:
    """Every unit literal the engine gives an assumption: ``Assumption(unit=...)``, the unit
    argument of the defaults helpers (``resolved.default_value`` and the chains' ``value``,
    infrastructure ``get``/``default``) and ``FACTOR_UNITS``."""
    positions = {"default_value": 2, "value": 1, "get": 2, "default": 1}
    units = set()
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                args = list(node.args)
                if name in positions and len(args) > positions[name] and \
                        isinstance(args[positions[name]], ast.Constant):
                    units.add(args[positions[name]].value)
                units |= {k.value.value for k in node.keywords if k.arg == "unit"
                          and isinstance(k.value, ast.Constant)}
            elif isinstance(node, ast.Assign) and any(
                    getattr(target, "id", "") == "FACTOR_UNITS" for target in node.targets):
                units |= {v.value for v in node.value.values}
    return {unit for unit in units if isinstance(unit, str)}


def test_the_scan_finds_the_engine_units():
    units = engine_units()
    assert {"sequences", "tokens", "chunks/GPU", "USD/kW/month", "s", "B"} <= units


def test_every_word_unit_is_translated():
    text.set_language("de")
    untranslated = sorted(u for u in engine_units() - SYMBOLS if unit_text(u) == u)
    assert not untranslated, f"units without German in UNIT_NAMES: {untranslated}"
    assert set(UNIT_NAMES) <= engine_units() | {"tokens/parameter"}


@pytest.mark.parametrize("name", api.example_names())
def test_every_shown_unit_of_the_examples_is_german(name, catalog):
    text.set_language("de")
    result = api.size(api.load_scenario(api.example(name)), catalog)
    for a in result.assumptions:
        unit = display_unit(a)[0]
        assert unit in SYMBOLS or unit_text(unit) != unit, (a.name, unit)


def test_the_unit_column_reads_german(controller, qtbot):
    page = AssumptionsPage(controller)
    qtbot.addWidget(page)
    controller.set_language("de")
    units = {page.table.item(row, UNIT).text() for row in range(page.table.rowCount())}
    assert {"Sequenzen", "Tokens"} <= units
    assert not units & {"sequences", "tokens"}
    controller.set_language("en")
    units = {page.table.item(row, UNIT).text() for row in range(page.table.rowCount())}
    assert {"sequences", "tokens"} <= units


# --- catalog names instead of ids -----------------------------------------------------------
def test_the_summary_panel_names_the_server(controller, qtbot, catalog):
    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    server = catalog.servers[controller.result.scale.server]
    assert server.name != server.id
    shown = panel.values["Nodes"].text()
    assert shown.endswith(f" x {server.name}") and server.id not in shown


def test_the_training_page_names_the_gpu(controller, qtbot, catalog):
    page = TrainingPage(controller)
    qtbot.addWidget(page)
    controller.load(api.example("fine-tune-lora"), None)
    gpu = catalog.gpus[controller.result.training.gpu]
    shown = figures(page.figures)["GPUs"]
    assert f" x {gpu.name} on " in shown and gpu.id not in shown
    controller.load(api.example("rag-assistant"), None)
    embedding = catalog.gpus[controller.result.rag.embedding_gpu]
    shown = figures(page.rag_table)["Embedding"]
    assert shown.endswith(f" x {embedding.name}") and embedding.id not in shown


# --- Compare and GPU selection --------------------------------------------------------------
BASE, INK = QColor("#1e1e1e"), QColor("#e0e0e0")


@pytest.fixture
def dark(qapp):
    original = QPalette(qapp.palette())
    palette = QPalette(original)
    palette.setColor(QPalette.ColorRole.Base, BASE)
    palette.setColor(QPalette.ColorRole.Text, INK)
    qapp.setPalette(palette)
    QApplication.processEvents()
    yield mix(INK, BASE, 0.2)
    qapp.setPalette(original)
    QApplication.processEvents()


def test_compare_titles_keep_the_dark_ink_after_a_language_switch(controller, qtbot, dark):
    page = ComparePage(controller)
    qtbot.addWidget(page)
    page.resize(900, 700)
    page.show()
    QApplication.processEvents()
    controller.set_language("de")
    for chart in (page.speed_plot, page.throughput_plot):
        assert QColor(chart.plot.titleLabel.opts["color"]) == dark
    assert page.speed_plot.plot.titleLabel.text == text.t("Tokens per second per user")
    assert page.speed_plot.plot.titleLabel.text != "Tokens per second per user"


def cost_of(result) -> str:
    return dict(KEY_FIGURES)["Indicative capital cost"](result)


@pytest.mark.parametrize(("lang", "start", "end"), [("en", "USD ", ""), ("de", "", " USD")])
def test_compare_prices_go_through_units_usd(controller, lang, start, end):
    text.set_language(lang)
    result = controller.result
    shown = cost_of(result)
    assert shown == usd(result.cost.capital_usd)
    assert shown.startswith(start) and shown.endswith(end)
    assert ("." if lang == "de" else ",") in shown  # thousands separator of the language


def test_gpu_selection_price_is_units_usd(controller, qtbot):
    page = GpuSelectionPage(controller)
    qtbot.addWidget(page)
    for lang in ("en", "de"):
        controller.set_language(lang)
        cost = controller.result.cost.gpus_usd  # servers and GPUs, as in the chosen row
        assert page.stat_texts(controller.result)["Servers and GPUs (indicative)"] == usd(cost)


def test_the_training_page_groups_thousands(controller, qtbot):
    page = TrainingPage(controller)
    qtbot.addWidget(page)
    controller.load(api.example("rag-assistant"), None)
    dim = controller.result.rag.embedding_dim
    assert dim >= 1000
    assert f"{dim:,} dimensions" in figures(page.rag_table)["Embedding"]
    controller.set_language("de")
    assert f"{dim:,} Dimensionen".replace(",", ".") in figures(page.rag_table)["Embedding-Modell"]


@pytest.mark.parametrize(("chosen_by", "german"), [
    ("capital_cost", "Niedrigste indikative Investitionskosten"),
    ("user", "Ihre Konfiguration"),
    ("training: fewest GPUs that fit", "Training: die wenigsten GPUs, die passen"),
    ("training: fewest GPUs that fit and meet the target time, then capital cost",
     "Training: die wenigsten GPUs, die passen und die Zieldauer einhalten, danach "
     "Investitionskosten"),
    ("training: closest (nothing fits within training.max_gpus)",
     "Training: am nächsten dran (nichts passt in die höchstens erlaubten GPUs)"),
    ("training: user", "Training: Ihre Konfiguration"),
])
def test_how_the_configuration_was_chosen_reads_german(chosen_by, german):
    text.set_language("de")
    assert chosen_text(chosen_by) == german
    text.set_language("en")
    if chosen_by.startswith("training: ") and chosen_by != "training: user":
        english = chosen_text(chosen_by)  # as the engine wrote it, a field path in words
        assert english == chosen_by.replace("training.max_gpus", "the most GPUs allowed")


def test_the_gpu_selection_page_says_how_a_training_run_was_chosen(controller, qtbot):
    page = GpuSelectionPage(controller)
    qtbot.addWidget(page)
    controller.load(api.example("fine-tune-lora"), None)
    controller.set_language("de")
    assert "Auswahl: Training: die wenigsten GPUs, die passen" in page.chosen_label.text()
    assert "fewest" not in page.chosen_label.text()


def test_compare_names_servers_and_gpus(controller, qtbot, catalog):
    page = ComparePage(controller)
    qtbot.addWidget(page)
    page.pin_current()
    result = page.comparison.options[0].result
    server = catalog.servers[result.scale.server]
    nodes = page.table.item([label for label, _ in KEY_FIGURES].index("Nodes"), 0).text()
    assert nodes == f"{result.scale.nodes} x {server.name}"


def test_compare_groups_thousands(controller):
    data = api.example("small-chat")
    data["workload"]["concurrent_users"] = 200_000
    result = api.size(api.load_scenario(data), controller.catalog)
    assert result.scale.gpus_total >= 1000 and result.scale.nodes >= 1000
    labels = [label for label, _ in KEY_FIGURES]
    english = dict(zip(labels, column(result), strict=True))
    assert english["GPUs total"] == f"{result.scale.gpus_total:,}"
    assert english["Replicas"] == f"{result.scale.replicas:,}"
    assert english["Nodes"].startswith(f"{result.scale.nodes:,} x ")
    text.set_language("de")
    german = dict(zip(labels, column(result), strict=True))
    assert german["GPUs total"] == f"{result.scale.gpus_total:,}".replace(",", ".")


def test_the_summary_panel_groups_thousands(controller, qtbot):
    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    data = api.example("small-chat")
    data["workload"]["concurrent_users"] = 200_000
    controller.load(data, None)
    s = controller.result.scale
    assert s.replicas >= 1000
    assert panel.values["Replicas"].text().startswith(f"{s.replicas_for_load:,} for load, ")
    controller.set_language("de")
    assert panel.values["Replicas"].text().startswith(
        f"{s.replicas_for_load:,} für Last".replace(",", "."))


def test_the_summary_names_the_redundancy_and_colours_the_memory_bar(qtbot, controller,
                                                                    no_request_fits):
    from PySide6.QtGui import QPalette

    from app.ui.summary_panel import FAIL, PASS, SummaryPanel

    panel = SummaryPanel(controller)
    qtbot.addWidget(panel)
    # the worked example: one replica holds 39 of its 40 users, so two carry 20 each (#14)
    assert controller.result.memory.fits is True
    assert panel.values["Replicas"].text() == "2 for load, 4 with N+1"
    assert panel.vram_bar.text() == "72% of the usable memory"
    assert panel.vram_bar.palette().color(QPalette.ColorRole.Highlight).name() == PASS
    controller.edit("precision.kv_cache", "fp8")
    controller.edit("availability.redundancy", "none")
    assert controller.wait_until_idle()
    assert panel.values["Replicas"].text() == "1 for load, no redundancy"
    assert panel.vram_bar.palette().color(QPalette.ColorRole.Highlight).name() == PASS
    controller.load(no_request_fits, None)  # not one request fits
    assert controller.wait_until_idle()
    assert controller.result.memory.fits is False
    assert panel.vram_bar.palette().color(QPalette.ColorRole.Highlight).name() == FAIL
    controller.set_language("de")
    assert panel.vram_bar.text().endswith("% des nutzbaren Speichers")
