"""The Infrastructure page's drawings read on their own: every power bar named, racks with a
U scale, unit labels and a legend, the topology with a legend, readable labels and zoom, and
the screenshot mode writing whole pages and both drawings."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from app.api import example, load_scenario, size
from app.ui import text
from app.ui.pages.infrastructure import POWER_PARTS, PowerChart
from app.ui.racks import RackView
from app.ui.topology import TopologyView
from app.ui.zoom import READABLE_SCALE, ZoomButtons


def drawn_ticks(chart: PowerChart) -> list[str]:
    """The tick labels pyqtgraph draws on the bottom axis (it leaves out those that would
    overlap their neighbour)."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = chart.getPlotItem().getAxis("bottom").generateDrawSpecs(painter)
    finally:
        painter.end()
    return [spec[2].replace("\n", " ") for spec in specs[2]]


def texts(scene) -> list[str]:
    return [item.text() for item in scene.items() if isinstance(item, QGraphicsSimpleTextItem)]


@pytest.fixture(scope="module")
def worked():
    return size(load_scenario(example("worked-example")))


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [320, 420])  # the page puts it beside the inputs from 760 px
def test_every_power_bar_is_named_under_it(qtbot, worked, language, width):
    text.set_language(language)
    chart = PowerChart()
    qtbot.addWidget(chart)
    chart.retranslate()
    chart.resize(width, 300)
    chart.show()
    chart.show_result(worked.infrastructure)
    expected = [text.t(part) for part in POWER_PARTS]
    qtbot.waitUntil(lambda: drawn_ticks(chart) == expected, timeout=3000)  # layout settles


def test_every_power_bar_shows_its_kw(qtbot, worked):
    chart = PowerChart()
    qtbot.addWidget(chart)
    chart.show_result(worked.infrastructure)
    power = worked.infrastructure.power
    shown = [value.toPlainText() for value in chart.values]
    assert shown[0] == f"{power.compute_w / 1e3:,.1f} kW"
    assert shown[2] == f"{(power.facility_w - power.it_max_w) / 1e3:,.1f} kW"


def test_racks_have_a_u_scale_unit_labels_and_a_legend(qtbot, worked):
    view = RackView()
    qtbot.addWidget(view)
    view.show_result(worked, 42)
    shown = texts(view.racks)
    racks = worked.infrastructure.racks
    for unit in ("1", "5", "40", "42"):
        assert shown.count(unit) == len(racks)  # every rack has its own scale
    compute = racks[0]
    units = (compute.units_used - compute.switch_units) // len(compute.items)  # per node
    assert any(f"U1-U{units}, {units}U" in s for s in shown), shown
    for entry in ("Compute node", "Network switch", "Free units", "Over the limit"):
        assert entry in shown
    assert any(s.startswith("Rack power limit") for s in shown)


def test_rack_legend_is_german_in_german(qtbot, worked):
    text.set_language("de")
    view = RackView()
    qtbot.addWidget(view)
    view.show_result(worked, 42)
    shown = texts(view.racks)
    assert "Compute node" not in shown
    assert text.t("Compute node") in shown


def test_topology_has_a_legend_and_named_switches(qtbot):
    view = TopologyView()
    qtbot.addWidget(view)
    data = example("large-moe")
    data["hardware"] = {"gpu": "h100-sxm", "tensor_parallel": 8, "pipeline_parallel": 2}
    result = size(load_scenario(data))
    view.show_result(result)
    shown = texts(view.topology)
    assert "Leaf 1" in shown and "Spine 1" in shown
    assert not any(s in ("L1", "S1") for s in shown)
    for entry in ("GPU in use", "Empty GPU slot", "Rack 1 (failure domain)",
                  "Front-end and storage links"):
        assert entry in shown
    assert any(s.startswith("Compute fabric") for s in shown)
    switches = [item for item in view.topology.items() if item.toolTip().startswith(
        ("Spine switch", "Leaf switch"))]
    assert switches and all(item.brush().color().alpha() == 255 for item in switches)  # no
    # wire shows through a switch's label


def test_topology_opens_readable_and_zooms(qtbot):
    view = TopologyView()
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    view.show_result(size(load_scenario(example("large-moe"))))
    opened = view.transform().m11()
    assert opened >= READABLE_SCALE - 1e-9
    buttons = ZoomButtons(view)
    qtbot.addWidget(buttons)
    named = {button.text(): button for button in buttons.buttons.values()}
    named["Zoom in"].click()
    assert view.transform().m11() == pytest.approx(opened * 1.25)
    named["Fit"].click()
    rect = view.mapFromScene(view.sceneRect()).boundingRect()
    assert rect.width() <= view.viewport().width() + 2
    named["100 %"].click()
    assert view.transform().m11() == 1.0


def test_screenshot_mode_writes_whole_pages_and_both_drawings(shown_window, tmp_path):
    from app.ui.app import screenshots

    written = {path.name for path in screenshots(shown_window, tmp_path)}
    assert {"08-infrastructure.png", "08-infrastructure-full.png", "rack-elevation.png",
            "topology.png"} <= written
    window_shot = QImage(str(tmp_path / "08-infrastructure.png"))
    full = QImage(str(tmp_path / "08-infrastructure-full.png"))
    assert full.height() > window_shot.height()  # the page's whole length, not the viewport
    racks = QImage(str(tmp_path / "rack-elevation.png"))
    assert racks.width() > 300 and racks.height() > 600


def test_a_tall_block_names_its_node_in_full_on_a_line_of_its_own(qtbot):
    view = RackView()
    qtbot.addWidget(view)
    result = size(load_scenario(example("large-moe")))
    view.show_result(result, 42)
    first = result.infrastructure.racks[0].items[0]  # e.g. "NVIDIA DGX H200 #1", 8U
    assert any(s.startswith(f"{first}\nU1-U") for s in texts(view.racks)), texts(view.racks)
