"""The one controller: owns the scenario, applies edits as undoable commands, recomputes.

Pages and charts never compute numbers: they send edits (``controller.edit("workload.
concurrent_users", 64)``) and redraw when ``result_changed`` fires. An edit that does not
validate is refused with readable problems (``problems_changed``) and the scenario stays as
it was.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from app import api
from app.catalog.loader import default_catalog
from app.domain.catalog import Catalog
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.ui import files

RECOMPUTE_DELAY_MS = 30


def get_field(data: dict, dotted: str) -> Any:
    """The value at a dotted path of a scenario dict (None when absent)."""
    node: Any = data
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def set_field(data: dict, dotted: str, value: Any) -> dict:
    """A copy of ``data`` with ``value`` at ``dotted`` (None removes the field)."""
    result = copy.deepcopy(data)
    keys = dotted.split(".")
    node = result
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    if value is None:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = value
    return result


class EditCommand(QUndoCommand):
    """Replace the scenario by another (undo restores the previous one)."""

    def __init__(self, controller: Controller, before: dict, after: dict, label: str):
        super().__init__(label)
        self.controller, self.before, self.after = controller, before, after

    def redo(self) -> None:
        self.controller._set_data(self.after)

    def undo(self) -> None:
        self.controller._set_data(self.before)


class Controller(QObject):
    """Owns the current scenario and its result."""

    scenario_changed = Signal(object)  # Scenario
    result_changed = Signal(object)  # SizingResult
    problems_changed = Signal(list)  # readable problems of the last refused edit or sizing
    dirty_changed = Signal(bool)
    path_changed = Signal(object)  # Path | None
    language_changed = Signal(str)

    def __init__(self, catalog: Catalog | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.catalog = catalog or default_catalog()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda clean: self.dirty_changed.emit(not clean))
        self._data: dict = api.example("worked-example")
        self._scenario: Scenario = api.load_scenario(self._data)
        self._result: SizingResult | None = None
        self._problems: list[str] = []
        self.path: Path | None = None
        self.language = "en"
        self._timer = QTimer(self, singleShot=True, interval=RECOMPUTE_DELAY_MS)
        self._timer.timeout.connect(self.recompute)

    # --- state -----------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def data(self) -> dict:
        """The scenario as the JSON dict the user's file holds (a copy)."""
        return copy.deepcopy(self._data)

    @property
    def result(self) -> SizingResult | None:
        return self._result

    @property
    def problems(self) -> list[str]:
        return list(self._problems)

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def value(self, dotted: str) -> Any:
        """The scenario's current value at a dotted path."""
        return get_field(self._data, dotted)

    # --- edits -----------------------------------------------------------------------------
    def validate(self, data: dict) -> list[str]:
        """Problems with ``data`` as a scenario (empty when it is valid)."""
        try:
            api.load_scenario(data)
        except api.ScenarioError as exc:
            return exc.problems
        return []

    def edit(self, dotted: str, value: Any, label: str | None = None) -> list[str]:
        """Set one field; returns the problems if the edit was refused (state unchanged)."""
        return self.replace(set_field(self._data, dotted, value), label or dotted)

    def edit_many(self, changes: dict[str, Any], label: str) -> list[str]:
        """Set several fields as one undoable step."""
        data = self._data
        for dotted, value in changes.items():
            data = set_field(data, dotted, value)
        return self.replace(data, label)

    def replace(self, data: dict, label: str) -> list[str]:
        """Make ``data`` the scenario as one undoable step, if it validates."""
        problems = self.validate(data)
        if problems:
            self._problems = problems
            self.problems_changed.emit(problems)
            return problems
        if data != self._data:
            self.undo_stack.push(EditCommand(self, self.data, copy.deepcopy(data), label))
        return []

    def _set_data(self, data: dict) -> None:
        self._data = copy.deepcopy(data)
        self._scenario = api.load_scenario(self._data)
        self.scenario_changed.emit(self._scenario)
        self.schedule()

    # --- sizing ----------------------------------------------------------------------------
    def schedule(self) -> None:
        """Recompute soon; a burst of edits recomputes once."""
        self._timer.start()

    def recompute(self) -> None:
        """Size the scenario now and tell every view."""
        self._timer.stop()
        try:
            self._result = api.size(self._scenario, self.catalog)
            self._problems = []
        except api.ScenarioError as exc:
            self._problems = exc.problems
            self.problems_changed.emit(exc.problems)
            return
        self.problems_changed.emit([])
        self.result_changed.emit(self._result)

    # --- files -----------------------------------------------------------------------------
    def load(self, data: dict, path: Path | None) -> None:
        """Start from ``data`` (validated) with a clean undo history."""
        scenario = api.load_scenario(data)
        self.undo_stack.clear()
        self._data, self._scenario = copy.deepcopy(data), scenario
        self.path = path
        self.path_changed.emit(path)
        self.scenario_changed.emit(scenario)
        self.undo_stack.setClean()
        self.dirty_changed.emit(False)
        self.recompute()

    def new(self) -> None:
        self.load(api.example("worked-example"), None)

    def open(self, path: Path) -> None:
        """Open a scenario file (raises api.ScenarioError with readable problems)."""
        self.load(api._parse(Path(path)), Path(path))
        files.remember_recent(Path(path))

    def save(self, path: Path | None = None) -> Path:
        """Write the scenario atomically; returns where."""
        target = Path(path or self.path)
        files.write_atomic(target, json.dumps(self._data, indent=2) + "\n")
        self.path = target
        self.undo_stack.setClean()
        self.path_changed.emit(target)
        files.remember_recent(target)
        files.clear_autosave()
        return target

    def set_language(self, lang: str) -> None:
        if lang != self.language:
            self.language = lang
            self.language_changed.emit(lang)
