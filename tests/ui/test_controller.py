"""The controller: undoable edits, sizing off the GUI thread, files, language."""

from __future__ import annotations

import gc
import json
import os
import threading

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThread

from app import api
from app.ui import files, text
from app.ui.controller import Controller, Generation, SizingJob

USERS = "workload.concurrent_users"


def users_sized(controller: Controller) -> int:
    return controller.result.inputs.workload.concurrent_users


def edited(controller: Controller, dotted: str, value) -> list[str]:
    problems = controller.edit(dotted, value)
    assert controller.wait_until_idle()
    return problems


@pytest.fixture
def english():
    yield
    text.set_language("en")


def test_edit_changes_the_result(controller, qtbot):
    before = users_sized(controller)
    with qtbot.waitSignal(controller.result_changed, timeout=10_000) as blocker:
        assert controller.edit(USERS, before + 7) == []
    assert blocker.args[0] is controller.result
    assert users_sized(controller) == before + 7
    assert controller.problems == []


def test_result_arrives_on_the_gui_thread(controller, qtbot):
    threads = []
    controller.result_changed.connect(lambda _: threads.append(QThread.currentThread()))
    edited(controller, USERS, 12)
    assert threads == [QCoreApplication.instance().thread()]


def test_invalid_edit_is_refused_and_keeps_the_state(controller, qtbot):
    before, result = controller.data, controller.result
    with qtbot.waitSignal(controller.problems_changed) as blocker:
        problems = controller.edit(USERS, -5)
    assert problems and "concurrent_users" in problems[0]
    assert blocker.args == [problems]
    assert controller.data == before
    assert controller.result is result
    assert controller.undo_stack.count() == 0
    assert not controller.dirty and not controller.busy


def test_undo_and_redo_restore_scenarios_and_results(controller):
    first = controller.result.model_dump()
    edited(controller, USERS, 11)
    edited(controller, USERS, 23)
    second = controller.result.model_dump()
    controller.undo_stack.undo()
    assert controller.wait_until_idle()
    assert controller.value(USERS) == 11 and users_sized(controller) == 11
    controller.undo_stack.undo()
    assert controller.wait_until_idle()
    assert controller.result.model_dump() == first
    controller.undo_stack.redo()
    controller.undo_stack.redo()
    assert controller.wait_until_idle()
    assert controller.value(USERS) == 23
    assert controller.result.model_dump() == second


def test_edit_many_is_one_undo_step(controller):
    before = controller.data
    controller.edit_many({USERS: 9, "workload.prompt_tokens": 1234}, "two fields")
    assert controller.undo_stack.count() == 1
    assert controller.undo_stack.undoText() == "two fields"
    controller.undo_stack.undo()
    assert controller.data == before


def test_a_burst_of_edits_delivers_only_the_last_result(controller):
    delivered = []
    controller.result_changed.connect(lambda r: delivered.append(
        r.inputs.workload.concurrent_users))
    for users in (3, 4, 5, 6, 7):
        controller.edit(USERS, users)
    assert controller.busy
    assert controller.wait_until_idle()
    assert delivered and delivered[-1] == 7
    assert 7 in delivered and len(delivered) <= 2
    assert users_sized(controller) == 7


def test_a_stale_result_is_dropped(controller):
    delivered = []
    controller.result_changed.connect(delivered.append)
    stale = controller._generation.value - 1
    controller._stage_arrived(stale, controller.result, None, False)
    assert delivered == []


def test_the_levers_follow_the_rest_of_the_result(controller, qtbot, sizing_memo):
    """The worked example misses its speed target: the result comes first without levers,
    then the same result with them (the same as a fresh sizing, past the tests' memo)."""
    pending, levers = [], []
    controller.result_changed.connect(lambda r: pending.append(
        (controller.levers_pending, list(r.performance.levers))))
    controller.levers_changed.connect(levers.append)
    edited(controller, USERS, 41)
    assert pending == [(True, [])]
    assert len(levers) == 1 and levers[0] is controller.result
    assert levers[0].performance.levers and not controller.levers_pending
    assert levers[0].performance.curve == controller.result.performance.curve
    *_, (fresh, _) = sizing_memo.real(controller.scenario, controller.catalog)
    assert levers[0].model_dump() == fresh.model_dump()


def test_a_result_meeting_its_targets_has_no_lever_stage(controller):
    levers = []
    controller.levers_changed.connect(levers.append)
    edited(controller, "targets.tokens_per_s_per_user", 1)
    assert all(controller.result.performance.targets_met.values())
    assert levers == [] and not controller.levers_pending


def test_levers_of_an_outdated_scenario_are_dropped(controller):
    levers = []
    controller.levers_changed.connect(levers.append)
    controller.edit(USERS, 43)
    controller.edit(USERS, 44)  # while the first sizing runs
    assert controller.wait_until_idle()
    assert [users_sized_of(r) for r in levers] == [44]


def users_sized_of(result) -> int:
    return result.inputs.workload.concurrent_users


def test_the_worker_skips_the_levers_once_the_scenario_changed(controller):
    generation = Generation()
    sent = []  # what the job posts for the GUI thread
    job = SizingJob(generation, controller.scenario, controller.catalog)
    generation.bump()  # an edit arrived while the job ran
    job(sent.append)
    assert len(sent) == 1
    number, result, error, levers_follow = sent[0]
    assert number == 0 and error is None and levers_follow and result.performance.levers == []
    job.latest = Generation()  # nothing changed: both stages are sent
    sent.clear()
    job(sent.append)
    assert [message[3] for message in sent] == [True, False]
    assert sent[1][1].performance.levers


def test_sizing_runs_on_a_plain_thread_that_holds_no_qt_object(automatic_collection, controller,
                                                                monkeypatch):
    """app.ui.threads: the job holds no QObject, and the garbage collector is off while its
    thread lives (a collection there could destroy a GUI-thread QObject)."""
    seen = []
    sized = api.size_in_stages

    def size_in_stages(scenario, catalog):
        seen.append((threading.current_thread().name, gc.isenabled()))
        yield from sized(scenario, catalog)

    monkeypatch.setattr(api, "size_in_stages", size_in_stages)
    job = SizingJob(Generation(), controller.scenario, controller.catalog)
    assert not any(isinstance(value, QObject) for value in vars(job).values())
    collecting = gc.isenabled()
    controller.edit(USERS, 12)
    assert controller.wait_until_idle()
    assert seen == [("sizing", False)]
    assert gc.isenabled() == collecting  # switched back on once the thread has ended
    assert users_sized(controller) == 12


def test_no_garbage_collection_runs_on_the_sizing_thread(automatic_collection, controller):
    """A collection on a worker destroyed GUI-thread QObjects there (and crashed Qt's timers):
    whatever the thresholds, every collection during a burst of sizings runs on this thread."""
    threads = []

    def record(phase, _info):
        if phase == "start":
            threads.append(threading.current_thread().name)

    thresholds = gc.get_threshold()
    gc.callbacks.append(record)  # the list the collector reads: appended to, not replaced
    gc.set_threshold(1)  # a collection at nearly every allocation, wherever it happens
    try:
        for users in (5, 6, 7, 8):
            controller.edit(USERS, users)
            assert controller.wait_until_idle()
        gc.collect()
    finally:
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(record)
    assert threads and set(threads) == {threading.main_thread().name}


def test_recompute_is_synchronous_and_outdates_a_running_sizing(controller):
    delivered = []
    controller.result_changed.connect(lambda r: delivered.append(
        r.inputs.workload.concurrent_users))
    controller.edit(USERS, 31)  # starts a worker
    controller.recompute()  # sizes 31 here and now
    assert delivered == [31]
    assert controller.wait_until_idle()
    assert delivered == [31]  # the worker's copy was stale


def test_busy_is_announced(controller, qtbot):
    states = []
    controller.busy_changed.connect(states.append)
    edited(controller, USERS, 17)
    assert states == [True, False]


def test_dirty_flag_follows_edits_saves_and_undo(controller, tmp_path, qtbot):
    assert not controller.dirty
    with qtbot.waitSignal(controller.dirty_changed) as blocker:
        controller.edit(USERS, 15)
    assert blocker.args == [True] and controller.dirty
    controller.save(tmp_path / "s.json")
    assert not controller.dirty
    controller.undo_stack.undo()
    assert controller.dirty


def test_save_and_open_round_trip(controller, tmp_path, catalog):
    edited(controller, USERS, 21)
    target = tmp_path / "round-trip.json"
    with_paths = []
    controller.path_changed.connect(with_paths.append)
    assert controller.save(target) == target
    assert with_paths == [target] and controller.path == target
    assert [p.name for p in tmp_path.glob("*.json*")] == ["round-trip.json"]
    assert not list(tmp_path.glob(".*.tmp"))
    assert json.loads(target.read_text(encoding="utf-8")) == controller.data
    other = Controller(catalog)
    other.open(target)
    assert other.data == controller.data
    assert other.path == target and not other.dirty
    assert users_sized(other) == 21
    assert files.recent_files()[0] == target.resolve()


def test_a_failing_save_keeps_the_old_file_and_the_work(controller, tmp_path, monkeypatch):
    target = tmp_path / "kept.json"
    controller.save(target)
    saved = target.read_bytes()
    edited(controller, USERS, 19)

    def full_disk(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        controller.save(target)
    assert target.read_bytes() == saved
    assert [p.name for p in tmp_path.glob("*.json*")] == ["kept.json"]
    assert not list(tmp_path.glob(".*.tmp"))
    assert controller.dirty and controller.value(USERS) == 19


def test_opening_an_invalid_file_raises_readable_problems_and_keeps_the_work(controller,
                                                                             tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**controller.data, "workload": {"concurrent_users": -1}}),
                   encoding="utf-8")
    edited(controller, USERS, 13)
    with pytest.raises(api.ScenarioError) as caught:
        controller.open(bad)
    assert any("concurrent_users" in problem for problem in caught.value.problems)
    assert controller.value(USERS) == 13 and controller.dirty and controller.path is None


def test_new_starts_clean_from_the_example(controller):
    edited(controller, USERS, 29)
    controller.new()
    assert controller.data == api.example("worked-example")
    assert not controller.dirty and controller.undo_stack.count() == 0


def test_recent_files_list_after_open_and_save(controller, tmp_path, catalog):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    controller.save(first)
    controller.save(second)
    Controller(catalog).open(first)
    assert files.recent_files() == [first.resolve(), second.resolve()]


def test_language_switch_is_announced(controller, qtbot, english):
    with qtbot.waitSignal(controller.language_changed) as blocker:
        controller.set_language("de")
    assert blocker.args == ["de"]
    assert text.language() == "de" and controller.language == "de"
    with pytest.raises(ValueError):
        controller.set_language("xx")
    assert controller.language == "de"


def test_an_edit_validates_the_scenario_once_and_undo_redo_not_again(controller, monkeypatch):
    """The Scenario validated to accept an edit is the one the undo step keeps."""
    calls = []
    original = api.load_scenario

    def counted(source):
        calls.append(source)
        return original(source)

    monkeypatch.setattr(api, "load_scenario", counted)
    before = controller.scenario
    assert controller.edit(USERS, controller.value(USERS) + 3) == []
    assert len(calls) == 1
    assert controller.scenario is not before
    after = controller.scenario
    controller.undo_stack.undo()
    assert controller.scenario is before
    controller.undo_stack.redo()
    assert controller.scenario is after
    assert len(calls) == 1
    controller.wait_until_idle()


def test_a_refusal_keeps_its_problems_structured(controller):
    problems = controller.edit(USERS, -5)
    assert problems and [p.field for p in controller.refusal] == [USERS]
    assert controller.problems == problems


def test_a_controller_deleted_while_sizing_does_not_keep_the_collector_off(
        automatic_collection, catalog, qtbot):
    """The collector is off while a job's thread lives; a window closed meanwhile (its
    controller and worker deleted) must not leave it off once that thread has ended."""
    collecting = gc.isenabled()
    first = Controller(catalog)
    first.edit(USERS, 13)  # a sizing starts on its thread
    assert not gc.isenabled()
    shiboken6.delete(first)  # the controller, its worker and their timers go
    second = Controller(catalog)
    second.edit(USERS, 14)
    assert second.wait_until_idle()
    qtbot.waitUntil(lambda: gc.isenabled() == collecting, timeout=10_000)
