"""The Validation step: result files dropped or imported, every point beside the prediction,
verdicts, measured points on the Step 4 charts, the site profile saved; File > Export test
plan."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from app import api
from app.catalog.loader import load_catalog
from app.ui import text
from app.ui.pages.validation import ValidationPage

FIXTURES = Path(__file__).resolve().parents[1] / "measurements" / "fixtures"
SWEEP = sorted((FIXTURES / "vllm").glob("*.json"))


@pytest.fixture
def small_chat(controller):
    controller.load(api.example("small-chat"), None)
    controller.wait_until_idle()
    return controller


@pytest.fixture
def page(small_chat, qtbot):
    widget = ValidationPage(small_chat)
    qtbot.addWidget(widget)
    widget.resize(1000, 1400)
    return widget


def imported(page, controller, paths) -> bool:
    ok = page.import_files(paths)
    controller.wait_until_idle()
    page.show_result(controller.result)
    return ok


def test_without_measurements_the_page_says_so(page):
    assert "No measurements yet" in page.status.text()
    assert page.points.isHidden() and page.fit_box.isHidden()
    assert not page.clear_button.isEnabled()


def test_imported_points_beside_the_prediction_with_verdicts(page, small_chat):
    assert imported(page, small_chat, SWEEP)
    v = small_chat.result.validation
    assert len(v.points) == 6 and "6 measured points from 6 files" in page.status.text()
    assert page.points.rowCount() == sum(len(row.predicted) for row in v.points)
    assert page.points.item(0, 0).text() == "vllm-c1.json: concurrency 1"
    assert page.badges["ttft_s"].text() == "TTFT: met with headroom (79% better than the target)"
    assert page.badges["tokens_per_s_per_user"].text().startswith("tokens/s per user: met")
    assert "holds" in page.plan.text()
    assert "Decode x0.850, prefill x1.050" in page.fit_summary.text()
    assert page.residuals.rowCount() == len(v.fit.residuals)


def test_measured_points_drawn_on_the_step_4_charts(page, small_chat):
    imported(page, small_chat, SWEEP)
    dots = page.throughput.measured_per_user
    x, y = dots.xData, dots.yData  # getData() gives the log-scaled x the plot draws
    expected = sorted((row.measured.users, row.measured.value("tokens_per_s_per_user"))
                      for row in small_chat.result.validation.points)
    assert np.allclose(x, [e[0] for e in expected]) and np.allclose(y, [e[1] for e in expected])
    tx, ty = page.ttft.measured.xData, page.ttft.measured.yData
    assert list(tx) == [1500.0] and ty[0] == pytest.approx(0.19937, rel=1e-3)


def test_a_broken_file_imports_nothing_and_says_which_field(page, small_chat):
    before = small_chat.data
    assert not imported(page, small_chat, [SWEEP[0], FIXTURES / "broken" / "vllm-no-ttft.json"])
    assert "Nothing was imported" in page.problems.text()
    assert "lacks the field 'mean_ttft_ms'" in page.problems.text()
    assert small_chat.data == before


def test_import_is_one_undoable_edit(page, small_chat):
    imported(page, small_chat, SWEEP)
    assert len(small_chat.scenario.measurements) == 6
    small_chat.undo_stack.undo()
    assert small_chat.scenario.measurements == []


def test_files_dropped_on_the_page_are_imported(page, small_chat):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in SWEEP[:2]])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    page.dropEvent(event)
    small_chat.wait_until_idle()
    assert len(small_chat.scenario.measurements) == 2


def test_saving_a_site_profile_makes_the_sizing_site_calibrated(page, small_chat,
                                                                user_config_dir):
    imported(page, small_chat, SWEEP)
    page.save_profile()
    assert "give the engine version" in page.saved.text()
    page.version.setText("0.11.0")
    page.note.setText("rack 3")
    page.save_profile()
    small_chat.wait_until_idle()
    assert "Saved site profile 'l40s-vllm-0.11.0-" in page.saved.text()
    profiles = load_catalog().site_profiles
    assert len(profiles) == 1 and next(iter(profiles.values())).operator_note == "rack 3"
    assert small_chat.result.performance.site_profile in profiles


def test_export_test_plan_writes_the_folder(small_chat, qtbot, tmp_path):
    from app.ui.dialogs.test_plan import export_test_plan
    from app.ui.main_window import MainWindow

    window = MainWindow(small_chat)
    qtbot.addWidget(window)
    written = export_test_plan(window, small_chat, tmp_path)
    assert {p.name for p in written} == {"README.md", "launch-server.sh", "run-load-test.sh",
                                         "expected.csv", "scenario.json"}
    assert "vllm serve" in (tmp_path / "launch-server.sh").read_text()
    assert "Export test plan…" in [a.text() for a in window.file_menu.actions()]


def test_the_page_in_german(page, small_chat):
    imported(page, small_chat, SWEEP)
    text.set_language("de")
    small_chat.set_language("de")
    page.retranslate_all()
    assert page.import_button.text() == "Ergebnisse importieren…"
    assert "mit Spielraum erreicht" in page.badges["ttft_s"].text()
    assert page.points.horizontalHeaderItem(3).text() == "Gemessen"


def test_result_files_dropped_on_the_window_go_to_the_validation_step(small_chat, qtbot):
    from app.ui.main_window import MainWindow
    from app.ui.pages import row_of

    window = MainWindow(small_chat)
    qtbot.addWidget(window)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(FIXTURES / "sglang.jsonl"))])
    window.dropEvent(QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    small_chat.wait_until_idle()
    assert window.steps.currentRow() == row_of("ValidationPage")
    assert len(small_chat.scenario.measurements) == 6
    assert small_chat.path is None  # not opened as a scenario
    small_chat.undo_stack.setClean()  # closing the window at teardown must not ask
