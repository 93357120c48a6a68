"""The one controller: owns the scenario, applies edits as undoable commands, recomputes.

Pages and charts never compute numbers: they send edits (``controller.edit("workload.
concurrent_users", 64)``) and redraw when ``result_changed`` fires. An edit that does not
validate is refused with readable problems (``problems_changed``) and the scenario stays as
it was.

Sizing runs off the GUI thread: a Step 3 search over the whole catalog takes over 100 ms,
too long to block typing. An edit after a quiet spell starts a sizing at once; edits that
follow within ``RECOMPUTE_DELAY_MS`` or while a sizing runs are coalesced into one sizing after
the last of them. A job (``SizingJob``, on a plain Python thread that never calls Qt, see
``app.ui.threads``) only reads the immutable scenario and catalog and posts its result, which
the GUI thread takes; a result whose generation is no longer the current one is dropped.

A sizing arrives in two stages (``api.size_in_stages``): ``result_changed`` with everything
but the levers, then, when a target is missed, ``levers_changed`` with the same result and
its levers (the what-if re-evaluations take most of a sizing's time). ``levers_pending`` is
True in between. The worker starts the levers only once the window has taken the first stage
(both threads share Python's one interpreter lock, so the levers would otherwise slow the
redraw down), and skips them when the scenario changed meanwhile.
``recompute()`` sizes synchronously (on open, and for scripts); ``wait_until_idle()`` waits
for the pending result (tests, scripts, the end of the program).
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QEventLoop,
    QObject,
    QTimer,
    Signal,
)
from PySide6.QtGui import QUndoCommand, QUndoStack

from app import api
from app.catalog.loader import default_catalog
from app.domain.catalog import Catalog
from app.domain.field_paths import value_at, with_value
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.i18n import Message
from app.ui import files, text
from app.ui.threads import Worker

RECOMPUTE_DELAY_MS = 30


def scenario_of_report(path: Path) -> dict:
    """The scenario attached to an AI Sizer report, validated (ScenarioError otherwise).

    A signed report modified after signing (or forged) is refused: its attachment is not
    what the signer signed (``aisizer size --accept-modified`` is the way to use it anyway).
    """
    from app.report.attachments import ReportFileError
    from app.report.verify import ModifiedReportError, checked_scenario

    try:
        data, _ = checked_scenario(path)
    except ModifiedReportError as exc:
        raise api.ScenarioError([text.t(
            "{path} is {verdict} ({detail}). Its attached scenario is not opened, because it "
            "may not be what the signer signed.", path=str(path),
            verdict=text.t(exc.outcome.summary), detail=text.t(exc.outcome.detail))]) from None
    except (ReportFileError, OSError) as exc:
        raise api.ScenarioError([str(exc)]) from None
    api.load_scenario(data)
    return data


class EditCommand(QUndoCommand):
    """Replace the scenario by another (undo restores the previous one).

    Both come with their validated Scenario, so neither redo nor undo validates again.
    Edits with the same ``merge_key`` in a row (one field's edit while the user types: "3",
    "30", "300", "3000") merge into one undo step.
    """

    MERGEABLE = 1  # the id() of a command that merges with the one before it

    def __init__(self, controller: Controller, after: dict, after_scenario: Scenario,
                 label: str, merge_key: Any = None):
        super().__init__(label)
        self.controller = controller
        self.before, self.before_scenario = controller.data, controller.scenario
        self.after, self.after_scenario = copy.deepcopy(after), after_scenario
        self.merge_key = merge_key

    def id(self) -> int:  # noqa: A003 (Qt's name)
        return -1 if self.merge_key is None else self.MERGEABLE

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        """Take ``other``'s result when it continues the same edit (same ``merge_key``)."""
        if not isinstance(other, EditCommand) or other.merge_key != self.merge_key:
            return False
        self.after, self.after_scenario = other.after, other.after_scenario
        return True

    def redo(self) -> None:
        self.controller._set_data(self.after, self.after_scenario)

    def undo(self) -> None:
        self.controller._set_data(self.before, self.before_scenario)


class Generation:
    """The number of the scenario's latest change, shared with the worker (a plain object:
    the worker may read it without touching a QObject)."""

    def __init__(self):
        self.value = 0

    def bump(self) -> int:
        self.value += 1
        return self.value


class SizingJob:
    """Sizes one scenario on a worker thread (``app.ui.threads``: no Qt, no QObject there).

    ``job(post)`` posts ``(generation, result, error, levers_follow)`` for each stage of the
    sizing.
    """

    TAKEN_TIMEOUT_S = 1.0  # the longest the levers wait for the window to take the result

    def __init__(self, generation: Generation, scenario: Scenario, catalog: Catalog,
                 taken: threading.Event | None = None):
        self.latest, self.generation = generation, generation.value
        self.scenario, self.catalog = scenario, catalog
        self.taken = taken or threading.Event()  # set when the window has drawn a stage

    def __call__(self, post: Callable[[tuple], None]) -> None:
        """Send each stage; wait for the window to take it before the levers; skip them once
        the scenario has changed."""
        try:
            for result, levers_follow in api.size_in_stages(self.scenario, self.catalog):
                post((self.generation, result, None, levers_follow))
                if levers_follow:
                    self.taken.wait(self.TAKEN_TIMEOUT_S)
                if self.latest.value != self.generation:
                    return
        except Exception as exc:  # handed to the GUI thread, which reports or re-raises
            post((self.generation, None, exc, False))


class Controller(QObject):
    """Owns the current scenario and its result."""

    scenario_changed = Signal(object)  # Scenario
    result_changed = Signal(object)  # SizingResult (its levers may follow)
    levers_changed = Signal(object)  # the same SizingResult, with its levers
    problems_changed = Signal(list)  # readable problems of the last refused edit or sizing
    stale_changed = Signal(bool)  # the figures are not for the input shown (see ``stale``)
    scenario_loaded = Signal()  # New or Open: pins, searches, filters and page state start clean
    dirty_changed = Signal(bool)
    path_changed = Signal(object)  # Path | None
    language_changed = Signal(str)
    busy_changed = Signal(bool)  # a sizing runs in the background
    catalog_changed = Signal(object)  # Catalog: the user's catalog changed (a form, an import)

    def __init__(self, catalog: Catalog | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.catalog = catalog or default_catalog()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._data: dict = api.example("worked-example")
        self._scenario: Scenario = api.load_scenario(self._data)
        self._result: SizingResult | None = None
        self._problems: list[Message] = []  # rendered in the current language when shown
        self.path: Path | None = None
        self.comparison = None  # the Compare page's pinned options, when it exists
        self.language = text.language()
        self._timer = QTimer(self, singleShot=True, interval=RECOMPUTE_DELAY_MS)
        self._timer.timeout.connect(self._size_latest)
        self._worker = Worker("sizing", self._stage_message, self._job_done, self)
        self._generation = Generation()  # bumped by every change of the scenario
        self._levers_pending = False
        self._taken = threading.Event()  # the running job's: the window took its result
        self._rerun = False  # the scenario changed while a job ran: size again when it ends
        self._busy_shown = False

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
    def levers_pending(self) -> bool:
        """True while the current result's levers are still being computed."""
        return self._levers_pending

    @property
    def problems(self) -> list[str]:
        """The problems of the last refused edit or sizing, in the window's language."""
        return [text.render(message) for message in self._problems]

    @property
    def stale(self) -> bool:
        """True while the figures are not for what the user entered: an edit was refused (its
        input is invalid) or the last sizing failed, and no valid edit or result came since.
        The window marks the figures stale and exports no report from them."""
        return bool(self._problems)

    def _set_problems(self, problems: list[Message]) -> None:
        """Show ``problems`` (none: clear them) and say when the figures turn stale or
        current."""
        was = self.stale
        self._problems = list(problems)
        self.problems_changed.emit(self.problems)
        if self.stale != was:
            self.stale_changed.emit(self.stale)

    def refuse(self, problems: list[Message]) -> None:
        """An input refused before it reached the scenario (a field's own check): show why,
        and the figures are stale until a valid edit."""
        self._set_problems(problems)

    def clear_refusal(self) -> None:
        """The refused input is gone (its field shows the scenario's value again): the
        figures are current."""
        if self._problems:
            self._set_problems([])

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def _clean_changed(self, clean: bool) -> None:
        # A method, not a lambda: Qt disconnects it before the stack dies with the controller.
        self.dirty_changed.emit(not clean)

    @property
    def refusal(self) -> list[Message]:
        """The problems of the last refused edit or sizing, as Messages (a problem with the
        input is a :class:`~app.domain.problems.Problem` that names its field)."""
        return list(self._problems)

    def value(self, dotted: str) -> Any:
        """The scenario's current value at a dotted path."""
        return value_at(self._data, dotted)

    # --- edits -----------------------------------------------------------------------------
    def validate(self, data: dict) -> list[str]:
        """Problems with ``data`` as a scenario in the window's language (empty when it is
        valid); each starts with the field's JSON path, e.g. ``workload.concurrent_users:``."""
        return [text.render(message) for message in self.refusals(data)]

    def refusals(self, data: dict) -> list[Message]:
        """Problems with ``data`` as a scenario, as Messages (empty when it is valid)."""
        return self._checked(data)[1]

    def _checked(self, data: dict) -> tuple[Scenario | None, list[Message]]:
        """``data`` validated once: (the Scenario, no problems) or (None, its problems)."""
        try:
            return api.load_scenario(data), []
        except api.ScenarioError as exc:
            return None, list(exc.messages)

    def edit(self, dotted: str, value: Any, label: str | None = None,
             merge_key: Any = None) -> list[str]:
        """Set one field; returns the problems if the edit was refused (state unchanged)."""
        return self.replace(with_value(self._data, dotted, value), label or dotted, merge_key)

    def edit_many(self, changes: dict[str, Any], label: str, merge_key: Any = None) -> list[str]:
        """Set several fields as one undoable step."""
        data = self._data
        for dotted, value in changes.items():
            data = with_value(data, dotted, value)
        return self.replace(data, label, merge_key)

    def replace(self, data: dict, label: str, merge_key: Any = None) -> list[str]:
        """Make ``data`` the scenario as one undoable step, if it validates (once: the
        Scenario validated here is the one the step keeps).

        A valid edit clears the problems of an earlier refusal, also when it leaves the
        scenario as it was (TTFT 0 refused, then 2 again). Consecutive edits with the same
        ``merge_key`` (not None) are one undo step.
        """
        scenario, refusals = self._checked(data)
        if refusals:
            self._set_problems(refusals)
            return self.problems
        self.clear_refusal()
        if data != self._data:
            self.undo_stack.push(EditCommand(self, data, scenario, label, merge_key))
        return []

    def _set_data(self, data: dict, scenario: Scenario) -> None:
        self._data, self._scenario = copy.deepcopy(data), scenario
        self.scenario_changed.emit(self._scenario)
        self.schedule()

    def set_catalog(self, catalog: Catalog) -> None:
        """Use ``catalog`` from now on (the user's catalog changed) and size again."""
        self.catalog = catalog
        self.catalog_changed.emit(catalog)
        self.schedule()

    # --- sizing ----------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True while a result for the current scenario is still to come."""
        return self._worker.busy or self._timer.isActive()

    def schedule(self, wait: bool = False) -> None:
        """Size the scenario soon, off the GUI thread; a burst of edits sizes once.

        With ``wait`` the sizing starts only once the event loop runs (at start-up: the
        window shows and settles first, and the worker's first imports do not overlap the
        window's own first-time set-up).
        """
        self._generation.bump()  # whatever runs now sizes an outdated scenario
        self._levers_pending = False  # the levers to come would be an old scenario's
        self._taken.set()  # a job waiting to start its levers skips them now
        if self.busy or wait:
            self._timer.start()
        else:
            self._start_job()
        self._update_busy()

    def recompute(self) -> None:
        """Size the scenario now, on this thread, and tell every view."""
        self._timer.stop()
        self._generation.bump()
        self._rerun = False
        self._levers_pending = False
        try:
            result, error = api.size(self._scenario, self.catalog), None
        except api.ScenarioError as exc:
            result, error = None, exc
        self._update_busy()
        self._deliver(result, error)

    def wait_until_idle(self, timeout_s: float = 60.0) -> bool:
        """Process events until the current scenario's result is delivered (False on timeout).

        For tests, scripts and benchmarks: the window itself never waits. The default
        timeout is far above a sizing's second or two: on a loaded machine (CI's two shared
        cores) a sizing with its levers took several times that, and a test failed on time,
        not on its result.
        """
        if self._timer.isActive():
            self._timer.stop()
            self._size_latest()
        deadline = time.monotonic() + timeout_s
        while self.busy:
            if time.monotonic() > deadline:
                return False
            self._worker.poll(wait_s=0.005)
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        return True

    def _size_latest(self) -> None:
        if self._worker.busy:
            self._rerun = True
        else:
            self._start_job()

    def _start_job(self) -> None:
        self._rerun = False
        self._taken = threading.Event()
        self._worker.submit(SizingJob(self._generation, self._scenario, self.catalog,
                                      self._taken))

    def _update_busy(self) -> None:
        if self.busy != self._busy_shown:
            self._busy_shown = self.busy
            self.busy_changed.emit(self._busy_shown)

    def _stage_message(self, message: tuple) -> None:
        self._stage_arrived(*message)

    def _job_done(self) -> None:
        if self._rerun:
            self._start_job()
        self._update_busy()

    def _stage_arrived(self, generation: int, result: SizingResult | None,
                       error: Exception | None, levers_follow: bool) -> None:
        try:
            self._take_stage(generation, result, error, levers_follow)
        finally:
            # The worker goes on to the levers once the window has also painted the result
            # (events posted by the redraw, paints included, run before a zero timer).
            QTimer.singleShot(0, self._taken.set)

    def _take_stage(self, generation: int, result: SizingResult | None,
                    error: Exception | None, levers_follow: bool) -> None:
        if generation != self._generation.value:
            return  # the scenario changed meanwhile: this result is stale
        if error is not None and not isinstance(error, api.ScenarioError):
            self._levers_pending = False
            self.problems_changed.emit([f"sizing failed: {error}"])
            raise error  # a bug, not bad input: let the exception hook report it
        if self._levers_pending:  # the second stage of the sizing delivered last
            self._levers_pending = False
            self._result = result
            self.levers_changed.emit(result)
            return
        self._levers_pending = levers_follow
        self._deliver(result, error)

    def _deliver(self, result: SizingResult | None, error: api.ScenarioError | None) -> None:
        if error is not None:
            self._set_problems(error.messages)
            return
        self._result = result
        self._set_problems([])
        self.result_changed.emit(result)

    # --- files -----------------------------------------------------------------------------
    def load(self, data: dict, path: Path | None, scenario: Scenario | None = None) -> None:
        """Start from ``data`` (validated here unless its ``scenario`` is given) with a clean
        undo history."""
        scenario = scenario or api.load_scenario(data)
        self.undo_stack.clear()
        self.clear_refusal()  # an earlier scenario's refusal does not apply to this one
        if self.comparison is not None:  # pins belong to the scenario they were made for
            self.comparison.clear()
        self._data, self._scenario = copy.deepcopy(data), scenario
        self.path = path
        self.path_changed.emit(path)
        self.scenario_changed.emit(scenario)
        self.undo_stack.setClean()
        self.dirty_changed.emit(False)
        self.scenario_loaded.emit()
        self.recompute()

    def new(self) -> None:
        self.load(api.example("worked-example"), None)

    def open(self, path: Path) -> None:
        """Open a scenario file, or the scenario a PDF report carries (raises
        api.ScenarioError with readable problems)."""
        path = Path(path)
        if path.suffix.lower() == ".pdf":
            self.load(scenario_of_report(path), None)  # saving asks for a new .json name
            return
        data = api._parse(path)
        scenario = api.load_scenario(data)  # refused before anything changes or is recent
        files.remember_recent(path)
        self.load(data, path, scenario)

    def save(self, path: Path | None = None) -> Path:
        """Write the scenario atomically; returns where."""
        if path is None and self.path is None:
            raise ValueError("the scenario has no file yet: give a path")
        target = Path(path or self.path)
        files.write_atomic(target, json.dumps(self._data, indent=2) + "\n")
        files.remember_recent(target)
        self.path = target
        self.undo_stack.setClean()
        self.path_changed.emit(target)
        return target

    def set_language(self, lang: str) -> None:
        """Switch the window's language; every page, menu and chart retranslates."""
        text.set_language(lang)
        if lang != self.language:
            self.language = lang
            self.language_changed.emit(lang)
            if self._problems:  # shown problems re-render in the new language
                self.problems_changed.emit(self.problems)
