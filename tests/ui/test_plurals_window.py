"""A count of one reads in the singular in the window and in the report's charts.

The worked example with one user, one GPU per replica and no redundancy (one replica on one
one-GPU server, the GPU search restricted to one GPU): every text the Memory, GPU selection,
Performance and Report pages show (labels, buttons, tables, badges, chart labels and titles)
holds no "1 GPUs", "1 users", "1 replicas"... in English or German, and the report's charts
draw none either (tests/engine/test_plurals.py checks the engine's sentences and the report's
sections).
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QTextEdit,
    QWidget,
)
from reportlab.graphics.shapes import String

from app import api
from app.engine.network import scale_up_description
from app.engine.performance import Workload
from app.engine.resolved import Demand
from app.engine.scale import Capacities
from app.engine.selection import verdict_for
from app.report import charts
from app.ui.compare_model import _speed
from app.ui.pages.assumptions import AssumptionsPage
from app.ui.pages.gpu_selection import GpuSelectionPage
from app.ui.pages.memory import MemoryPage
from app.ui.pages.performance import PerformancePage
from app.ui.pages.report import ReportPage

ONE = re.compile(r"(?<![\d.,+])1 (?:concurrent |more |spare |data-parallel |GPU )?"
                 r"(?:replicas|GPUs|nodes|users|sequences|racks|servers)\b"
                 r"|\bat 1 users\b")
EINS = re.compile(r"(?<![\d.,+])1 (?:gleichzeitigen |weitere |GPU-)?"
                  r"(?:Replikate|Replikaten|GPUs|Sequenzen|Racks|Nutzern|Servern)\b"
                  r"|(?<![\d.,+])1 gleichzeitige\b")
BAD = {"en": ONE, "de": EINS}
# The Workstation Edition: a one-GPU tower hosts it (the passive Server Edition goes into
# 4- and 8-GPU servers only), so one replica of one GPU runs on one node with one GPU.
GPU = "rtx-pro-6000-ws"
ONE_OF_EACH = (("hardware.gpu", GPU), ("workload.concurrent_users", "1"),
               ("hardware.gpus_per_replica", "1"),
               ("hardware.tensor_parallel", "1"), ("availability.redundancy", "none"),
               ("selection.gpus", f'["{GPU}"]'))
PAGES = (MemoryPage, GpuSelectionPage, PerformancePage, ReportPage)
TAG = re.compile(r"<[^>]+>")


def one_of_each() -> dict:
    data = api.example("worked-example")
    for field, value in ONE_OF_EACH:
        data = api.set_field(data, field, value)
    return data


def model_texts(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    roles = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
    texts = [model.headerData(section, orientation, role)
             for orientation, count in ((Qt.Orientation.Horizontal, model.columnCount()),
                                        (Qt.Orientation.Vertical, model.rowCount()))
             for section in range(count) for role in roles]
    texts += [model.data(model.index(row, column), role) for row in range(model.rowCount())
              for column in range(model.columnCount()) for role in roles]
    return [text for text in texts if isinstance(text, str)]


def scene_texts(view: QGraphicsView) -> list[str]:
    """Every text item a chart draws: titles, axis labels, legends, line labels."""
    scene = view.scene()
    if scene is None:
        return []
    return [item.toPlainText() for item in scene.items() if hasattr(item, "toPlainText")]


def shown_texts(root: QWidget) -> list[str]:
    """What a page shows: labels, buttons, titles, tables, browsers, tooltips and charts."""
    texts = []
    for widget in (root, *root.findChildren(QWidget)):
        texts.append(widget.toolTip())
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QTextEdit):
            texts.append(widget.toPlainText())
        if isinstance(widget, QAbstractItemView):
            texts += model_texts(widget)
        if isinstance(widget, QGraphicsView):
            texts += scene_texts(widget)
    return [TAG.sub("", text).replace("&nbsp;", " ") for text in texts if text]


def around(bad: re.Pattern, text: str) -> list[str]:
    """Each match of ``bad`` in ``text`` with a little of the text around it."""
    return [repr(text[max(hit.start() - 50, 0):hit.end() + 30]) for hit in bad.finditer(text)]


def drawn_strings(node) -> list[str]:
    """Every String of a reportlab drawing, at any depth."""
    if isinstance(node, String):
        return [node.text]
    return [text for child in getattr(node, "contents", None) or [] for text in
            drawn_strings(child)]


@pytest.fixture
def pages(qtbot, controller):
    made = {}
    for kind in PAGES:
        page = kind(controller)
        qtbot.addWidget(page)
        made[kind] = page
    return made


@pytest.mark.parametrize("lang", ["en", "de"])
def test_pages_show_no_count_of_one_in_the_plural(pages, controller, lang):
    controller.set_language(lang)
    controller.load(one_of_each(), None)
    assert controller.wait_until_idle()
    r = controller.result
    assert r.selection.chosen.gpus_per_replica == 1
    assert r.performance.at_concurrency.concurrency == 1
    assert (r.scale.replicas, r.scale.nodes, r.scale.gpus_per_node) == (1, 1, 1)
    texts = {kind.__name__: shown_texts(page) for kind, page in pages.items()}
    found = [f"[{lang}] {name}: {hit}" for name, shown in texts.items() for text in shown
             for hit in around(BAD[lang], text)]
    assert not found, "\n".join(found)
    # the singular is what they show instead
    expected = {
        "en": {"MemoryPage": "Whole replica\n(1 GPU)", "GpuSelectionPage": "One GPU",
               "PerformancePage": "at one user, ", "ReportPage": "One replica of 1 x"},
        "de": {"MemoryPage": "Ganzes Replikat\n(1 GPU)", "GpuSelectionPage": "Eine GPU",
               "PerformancePage": "bei einem Nutzer, ",
               "ReportPage": "Ein Replikat mit 1 x"},
    }[lang]
    for name, part in expected.items():
        assert any(part in text for text in texts[name]), (name, part)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_chart_labels_take_the_singular(pages, controller, lang):
    controller.set_language(lang)
    controller.load(one_of_each(), None)
    assert controller.wait_until_idle()
    performance = pages[PerformancePage]
    labels = scene_texts(performance.throughput) + scene_texts(performance.breakdown)
    scenario, title = {"en": ("Scenario load: 1 user", "At one user: "),
                       "de": ("Last des Szenarios: 1 Nutzer", "Bei einem Nutzer: ")}[lang]
    assert scenario in labels, labels
    assert performance.breakdown.title_text.startswith(title)
    assert not [text for text in labels if BAD[lang].search(text)]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_report_charts_draw_no_count_of_one_in_the_plural(lang):
    one = api.size(api.load_scenario(one_of_each()))
    lora = api.size(api.load_scenario(api.example("fine-tune-lora")))
    assert lora.training.gpus_total == 1
    drawn = [text for result in (one, lora) for chart in charts.CHARTS.values()
             for text in drawn_strings(chart(result, 450.0, lang))]
    found = [text for text in drawn if BAD[lang].search(text)]
    assert not found, found
    singular = {"en": ("scenario: 1 user", "chosen: 1 GPU", "1 GPU each;", "one GPU per node"),
                "de": ("Szenario: 1 Nutzer", "gewählt: 1 GPU", "je 1 GPU;",
                       "eine GPU je Knoten")}[lang]
    for part in singular:
        assert any(part in text for text in drawn), (part, drawn)


def test_the_plural_stays_for_more(pages, controller):
    """The worked example as shipped (40 users, two GPUs per replica) keeps its plurals."""
    controller.recompute()
    assert controller.wait_until_idle()
    shown = [text for page in pages.values() for text in shown_texts(page)]
    # two replicas of 20 users carry its 40 (#14), four with N+1
    for part in ("Whole replica\n(2 GPUs)", "Scenario load: 20 users",
                 "At 20 users: ", "4 replicas of 2 x"):
        assert any(part in text for text in shown), part


def test_compare_and_calibration_texts(qtbot, controller):
    controller.load(one_of_each(), None)
    assert _speed(controller.result).endswith(" at 1 user")
    page = AssumptionsPage(controller)
    qtbot.addWidget(page)
    page.users.setValue(1)
    page.show_prediction()
    assert page.prediction.text().endswith(" at one user now.")
    assert page.calibrate(page.current_metric(), 0.07, 1) == []
    controller.recompute()
    assert " at one user (measured " in page.fit_check.text()
    page.users.setValue(5)
    page.show_prediction()
    assert page.prediction.text().endswith(" at 5 users now.")


def test_engine_sentences_of_one():
    demand = Demand(Workload(1000, 100), 2048, 10, 2.0, 30.0, "n+1")  # plans conservatively
    one, three = Capacities(1, 1), Capacities(3, 3)
    assert verdict_for(None, one, demand, None)[1].text() == \
        "1 user per replica within the targets"
    assert verdict_for(None, three, demand, None)[1].text() == \
        "3 users per replica within the targets"
    assert verdict_for(None, one, demand, None)[1].text("de") == \
        "1 Nutzer je Replikat innerhalb der Ziele"
    link = scale_up_description("pcie", 64, 1)
    assert link.text() == "PCIe, 64 GB/s per GPU per direction, one GPU per node"
    assert link.text("de") == "PCIe, 64 GB/s je GPU und Richtung, eine GPU je Knoten"
    assert scale_up_description("pcie", 64, 4).text().endswith(", 4 GPUs per node")
