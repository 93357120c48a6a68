"""The start page (issue 13): without a file the app offers recent files, a new scenario
from a template and the examples instead of opening the worked example; ``make run`` still
opens the worked example, as a new unsaved scenario."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app import api
from app.ui import files
from app.ui.dialogs.start import TEMPLATES, StartDialog
from app.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(qtbot, controller):
    win = MainWindow(controller)
    yield win
    controller.wait_until_idle()
    controller.undo_stack.setClean()
    win.close()


def items(listing) -> list[str]:
    return [listing.item(row).text() for row in range(listing.count())]


def test_the_start_page_lists_recent_files_templates_and_examples(qtbot, window, tmp_path):
    saved = tmp_path / "bank.json"
    saved.write_text(json.dumps(api.example("small-chat")), encoding="utf-8")
    files.remember_recent(saved)
    dialog = window.show_start()
    assert isinstance(dialog, StartDialog) and dialog.isVisible()
    assert items(dialog.recent) == [str(saved)]
    assert items(dialog.templates) == [label for label, _ in TEMPLATES]
    worked = [text for text in items(dialog.examples) if "sizing guide's own plan" in text]
    assert len(worked) == 1
    assert "misses its speed target" in worked[0] and "two replicas" in worked[0]
    assert dialog.examples.count() == len(api.example_names())
    dialog.close()


def test_a_template_starts_a_new_unsaved_scenario(qtbot, window, controller):
    dialog = window.show_start()
    dialog.templates.itemActivated.emit(dialog.templates.item(1))  # the batch job
    assert not dialog.isVisible()
    assert controller.scenario.workload.kind == "batch_inference"
    assert controller.scenario.name == "New scenario" and not controller.scenario.customer
    assert controller.path is None and not controller.dirty


def test_an_example_and_a_recent_file_open_from_the_start_page(qtbot, window, controller,
                                                              tmp_path):
    dialog = window.show_start()
    row = api.example_names().index("pretrain")
    dialog.examples.itemActivated.emit(dialog.examples.item(row))
    assert controller.scenario.workload.kind == "pretraining" and controller.path is None
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(api.example("small-chat")), encoding="utf-8")
    files.remember_recent(saved)
    dialog = window.show_start()
    dialog.recent.itemActivated.emit(dialog.recent.item(0))
    assert controller.path == saved


def test_make_run_opens_the_worked_example_explicitly():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^run: setup\n\t(.+)$", makefile, re.MULTILINE).group(1)
    assert "aisizer gui $(or $(ARGS),--example worked-example)" in recipe


def test_gui_example_opens_a_built_in_example_unsaved(monkeypatch):
    from app import cli
    from app.ui import app as gui

    seen = {}
    monkeypatch.setattr(gui, "run", lambda *args: seen.setdefault("args", args) and 0)
    cli.main(["gui", "--example", "worked-example"])
    assert seen["args"] == (None, None, "worked-example")
