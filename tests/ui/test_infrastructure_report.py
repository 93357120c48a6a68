"""Infrastructure and Report pages: figures from the result, redrawn after every edit."""

import pytest

from app.ui.pages.infrastructure import InfrastructurePage
from app.ui.pages.report import ReportPage
from app.ui.text import render, t
from app.ui.units import watts


@pytest.fixture
def infrastructure(qtbot, controller):
    widget = InfrastructurePage(controller)
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def report(qtbot, controller):
    widget = ReportPage(controller)
    qtbot.addWidget(widget)
    return widget


def test_infrastructure_shows_the_result(infrastructure, controller):
    facility = controller.result.facility
    assert infrastructure.values["IT power"].text() == watts(facility.it_power_w)
    assert infrastructure.values["Racks"].text() == str(facility.racks)
    assert "BTU/h" in infrastructure.values["Heat"].text()
    assert t("First-order estimate.") in infrastructure.notice.text()
    assert infrastructure.cost_note.text() == controller.result.cost.note


def test_infrastructure_follows_edits(infrastructure, controller):
    before = {name: label.text() for name, label in infrastructure.values.items()}
    controller.edit("availability.redundancy", "none")
    controller.recompute()
    after = {name: label.text() for name, label in infrastructure.values.items()}
    assert controller.result.scale.nodes == 1
    assert after["IT power"] == watts(controller.result.facility.it_power_w) != before["IT power"]
    assert after["Capital cost"] != before["Capital cost"]


def test_missing_prices_read_n_a(infrastructure, controller):
    controller.edit("hardware", {"gpu": "l40s", "tensor_parallel": 4})
    controller.recompute()
    if controller.result.cost.servers_usd is None:
        assert infrastructure.values["Servers"].text() == t("n/a")
    if controller.result.cost.gpus_usd is None:
        assert infrastructure.values["GPUs"].text() == t("n/a")


def test_report_summarises_the_result(report, controller):
    text = report.text()
    r = controller.result
    assert controller.scenario.name in text
    assert t("Recommended configuration") in text
    assert t("missed") in text  # the worked example misses its speed target
    for message in r.warning_messages:
        assert render(message) in text
    for lever in r.performance.levers:
        assert render(lever.change_message) in text
    for assumption in r.assumptions:
        assert assumption.name in text


def test_report_follows_edits(report, controller):
    before = report.text()
    controller.edit("availability.redundancy", "none")
    controller.recompute()
    after = report.text()
    assert after != before
    assert f"{controller.result.scale.replicas} replicas" in after


def test_export_is_not_there_yet(report):
    assert not report.export_button.isEnabled()
    assert "signed PDF" in report.export_button.toolTip()
