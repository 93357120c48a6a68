"""The node topology view: drawn from the result, grouped beyond 64 nodes, exported."""

from PySide6.QtWidgets import QGraphicsRectItem

from app.api import example, load_scenario, size
from app.ui.topology import MAX_DRAWN_NODES, TopologyView


def labels(view):
    return [item.toolTip() for item in view.topology.items()
            if isinstance(item, QGraphicsRectItem)]


def sized(name, **changes):
    data = example(name)
    data.update(changes)
    return size(load_scenario(data))


def test_draws_every_node_with_its_gpus(qtbot):
    view = TopologyView()
    qtbot.addWidget(view)
    result = sized("large-moe")
    view.show_result(result)
    tips = labels(view)
    assert sum(tip.startswith("NVIDIA DGX H200 #") for tip in tips) == result.scale.nodes
    assert sum(tip.startswith("GPU ") for tip in tips) == result.scale.gpus_total


def test_fabric_leaves_and_spines_appear_when_a_replica_spans_nodes(qtbot):
    view = TopologyView()
    qtbot.addWidget(view)
    result = sized("large-moe", hardware={"gpu": "h100-sxm", "tensor_parallel": 8,
                                          "pipeline_parallel": 2})
    view.show_result(result)
    fabric = result.infrastructure.network.fabric
    tips = labels(view)
    assert sum(tip.startswith("Leaf switch") for tip in tips) == fabric.leaves
    assert sum(tip.startswith("Spine switch") for tip in tips) == fabric.spines


def test_more_than_64_nodes_are_grouped_by_rack(qtbot):
    view = TopologyView()
    qtbot.addWidget(view)
    data = example("small-chat")
    data["workload"]["concurrent_users"] = 20000
    data["availability"]["redundancy"] = "n+1"
    result = size(load_scenario(data))
    assert result.scale.nodes > MAX_DRAWN_NODES
    view.show_result(result)
    tips = labels(view)
    racks = [tip for tip in tips if tip.startswith("Rack ")]
    assert racks and not any(tip.startswith("4-GPU") for tip in tips)


def test_export_png_and_svg(qtbot, tmp_path):
    view = TopologyView()
    qtbot.addWidget(view)
    view.show_result(sized("small-chat"))
    view.export_png(tmp_path / "t.png")
    view.export_svg(tmp_path / "t.svg")
    assert (tmp_path / "t.png").stat().st_size > 1000
    assert "<svg" in (tmp_path / "t.svg").read_text()
