"""Files the window refuses to open show a dialog that says why (issue 14): a deeply nested
scenario used to raise RecursionError in the event loop, with no dialog at all."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QMessageBox

from app import api
from app.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, controller):
    made = MainWindow(controller)
    qtbot.addWidget(made)
    yield made
    controller.wait_until_idle()
    controller.undo_stack.setClean()


@pytest.mark.parametrize(("text", "fragment"), [
    ("[" * 100_000 + "]" * 100_000, "levels deep"),
    (json.dumps(api.example("small-chat"))[:-1] + ', "x": ' + "[" * 70 + "]" * 70 + "}",
     "levels deep"),
    (json.dumps(api.example("small-chat")).replace('"concurrent_users": 8',
                                                     '"concurrent_users": ' + "9" * 5000),
     "4,300 digits"),
    (json.dumps(api.example("small-chat")).replace('"concurrent_users": 8',
                                                     '"concurrent_users": true'),
     "must be a number, not true or false"),
])
def test_a_refused_scenario_shows_a_dialog_and_keeps_the_work(window, controller, tmp_path,
                                                               monkeypatch, text, fragment):
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, message: shown.append(
        message))
    before = controller.data
    path = tmp_path / "refused.json"
    path.write_text(text, encoding="utf-8")
    assert window.open_path(path) is False
    assert len(shown) == 1 and fragment in shown[0], shown
    assert controller.data == before and controller.path is None
