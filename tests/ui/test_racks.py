"""Rack elevation: one frame per rack, every node and switch placed, power against limit."""

from PySide6.QtWidgets import QGraphicsRectItem

from app.api import example, load_scenario, size
from app.ui.racks import RackView, power_colour


def test_every_item_of_every_rack_is_drawn(qtbot):
    view = RackView()
    qtbot.addWidget(view)
    result = size(load_scenario(example("large-moe")))
    view.show_result(result)
    tips = [i.toolTip().split("\n")[0] for i in view.racks.items()
            if isinstance(i, QGraphicsRectItem)]  # a block's name, then where it sits
    racks = result.infrastructure.racks
    assert sum(tip.startswith("Rack ") for tip in tips) == len(racks)
    for rack in racks:
        for name in rack.items:
            assert name in tips


def test_power_colour_turns_red_above_the_limit():
    assert power_colour(0.5).name() == "#2e7d32"
    assert power_colour(0.9).name() == "#f9a825"
    assert power_colour(1.1).name() == "#c62828"
