"""Charts, rack elevation and topology follow the palette: light as always, dark when asked.

A dark application palette (base #1e1e1e, text #e0e0e0) must reach the charts' paper, axes,
labels and pens, and the drawings' texts, frames and exported paper; setting the light palette
back restores the light look exactly.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QGraphicsSimpleTextItem

from app.api import example, load_scenario, size
from app.ui.charts import COLORS, FOREGROUND, ThroughputChart, VramChart
from app.ui.pages.infrastructure import PowerChart
from app.ui.racks import RackView
from app.ui.theme import LIGHT, Theme, mix, theme_of
from app.ui.topology import TopologyView

BASE, TEXT = QColor("#1e1e1e"), QColor("#e0e0e0")
DARK_INK = mix(TEXT, BASE, 0.2)


@pytest.fixture
def dark(qapp):
    """The application palette made dark for one test, the original restored after it."""
    original = QPalette(qapp.palette())
    palette = QPalette(original)
    palette.setColor(QPalette.ColorRole.Base, BASE)
    palette.setColor(QPalette.ColorRole.Text, TEXT)
    yield lambda: use(palette)
    use(original)


def use(palette: QPalette) -> None:
    """Set the application palette and let Qt deliver the change to every widget."""
    QApplication.instance().setPalette(palette)
    QApplication.processEvents()


@pytest.fixture(scope="module")
def result():
    return size(load_scenario(example("small-chat")))


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.resize(600, 500)
    widget.show()
    QApplication.processEvents()
    return widget


# --- the theme ------------------------------------------------------------------------------
def test_light_palette_keeps_the_light_colours():
    light = Theme(paper=QColor("#ffffff"), text=QColor("#000000"))
    assert light == LIGHT and not light.dark
    assert light.ink == QColor(FOREGROUND)  # #333333, as the charts always had
    for colour in COLORS.values():
        assert light.series(colour) == QColor(colour)
    assert light.label_fill() == QColor(255, 255, 255, 200)


def test_dark_palette_lifts_dark_series_and_keeps_bright_ones():
    theme = Theme(paper=BASE, text=TEXT)
    assert theme.dark and theme.ink == DARK_INK
    assert theme.series(FOREGROUND) == DARK_INK and theme.series("#ffffff") == BASE
    assert theme.series(COLORS["naive"]).value() >= 170  # grey lines stay visible
    assert theme.series(COLORS["target"]) == QColor(COLORS["target"])


# --- charts ---------------------------------------------------------------------------------
def axis_colours(plot) -> tuple[QColor, QColor]:
    axis = plot.getAxis("left")
    return axis.pen().color(), axis.textPen().color()


def test_chart_follows_a_dark_palette_and_back(qtbot, dark, result):
    chart = shown(qtbot, ThroughputChart())
    chart.show_result(result)
    chart.retranslate()
    assert chart.backgroundBrush().color() == QColor("#ffffff")
    assert axis_colours(chart.per_user_plot) == (QColor(FOREGROUND), QColor(FOREGROUND))
    dark()
    assert chart.backgroundBrush().color() == BASE
    assert axis_colours(chart.per_user_plot) == (DARK_INK, DARK_INK)
    label = chart.per_user_plot.getAxis("left").labelStyle["color"]
    assert QColor(label) == DARK_INK
    assert chart.naive_line.pen.color().value() >= 170
    assert chart.target_line.label.fill.color() == QColor(30, 30, 30, 200)
    assert chart.legend.labelTextColor() == DARK_INK
    chart.retranslate()  # later texts are drawn in the dark ink too
    assert all(QColor(label.opts["color"]) == DARK_INK for _, label in chart.legend.items)
    use(QPalette())  # the light default again
    assert chart.backgroundBrush().color() == QColor("#ffffff")
    assert chart.naive_line.pen.color() == QColor(COLORS["naive"])


def test_memory_bar_lines_and_separators_follow_the_palette(qtbot, dark, result):
    chart = shown(qtbot, VramChart())
    chart.show_result(result)
    assert chart.memory_line.pen.color() == QColor(FOREGROUND)
    dark()
    assert chart.memory_line.pen.color() == DARK_INK
    assert chart.bars["weights"].opts["pen"].color() == BASE  # white separators become paper


def test_a_chart_made_under_a_dark_palette_starts_dark(qtbot, dark, result):
    dark()
    chart = shown(qtbot, PowerChart())
    chart.show_result(result.infrastructure)
    assert chart.backgroundBrush().color() == BASE
    assert axis_colours(chart.getPlotItem()) == (DARK_INK, DARK_INK)


def test_dark_chart_renders_dark(qtbot, dark, result):
    chart = shown(qtbot, ThroughputChart())
    chart.show_result(result)
    dark()
    image = chart.grab().toImage()
    assert QColor(image.pixel(5, image.height() // 2)) == BASE


# --- drawings -------------------------------------------------------------------------------
def texts(scene) -> list[QGraphicsSimpleTextItem]:
    return [i for i in scene.items() if isinstance(i, QGraphicsSimpleTextItem)]


def test_racks_redraw_in_the_dark_palette(qtbot, dark, result):
    view = shown(qtbot, RackView())
    view.show_result(result)
    frames = [i for i in view.racks.items() if isinstance(i, QGraphicsRectItem)
              and i.toolTip().startswith("Rack ")]
    assert frames[0].brush().color() == QColor("#f4f4f4")
    assert frames[0].pen().color() == QColor(FOREGROUND)
    dark()
    assert theme_of(view).dark and view.racks.theme.dark
    frames = [i for i in view.racks.items() if isinstance(i, QGraphicsRectItem)
              and i.toolTip().startswith("Rack ")]
    assert frames[0].pen().color() == DARK_INK and frames[0].brush().color().lightness() < 60
    titles = [i for i in texts(view.racks) if i.text().startswith("Rack ")]
    assert titles and all(i.brush().color() == TEXT for i in titles)


def test_topology_texts_and_export_follow_the_palette(qtbot, dark, result, tmp_path):
    view = shown(qtbot, TopologyView())
    view.show_result(result)
    assert all(i.brush().color() == QColor("#000000") for i in texts(view.topology))
    dark()
    assert all(i.brush().color() == TEXT for i in texts(view.topology))
    view.export_png(tmp_path / "topology.png")
    from PySide6.QtGui import QImage

    assert QColor(QImage(str(tmp_path / "topology.png")).pixel(1, 1)) == BASE
