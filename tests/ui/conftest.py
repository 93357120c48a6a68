"""Shared fixtures for the window's tests (offscreen, isolated settings)."""

import gc
import os
import time
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QMessageBox

from app import api
from app.catalog.loader import clear_cache, load_catalog
from app.ui import text, threads
from app.ui.controller import Controller


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(include_user=False)


class SizingMemo:
    """``api.size_in_stages`` (and so ``api.size``) computed once per scenario and catalog in
    the window tests, then replayed.

    The window tests size the worked example and a few other scenarios hundreds of times (every
    ``controller`` fixture, every example a test loads): about a second each, most of their
    time. The engine is pure (its result depends on the scenario and the catalog only, reads no
    file, clock or environment) and its results are frozen models, so a replay is the result
    the engine gives; tests/engine checks the engine itself, uncached. A key is the scenario's
    JSON and the catalog object (held, so its id is not reused); a sizing that raises or is not
    read to its end is not kept. Stages are replayed lazily, as the engine yields them, so a
    job that stops after the first stage (an outdated scenario) still stops there.
    """

    def __init__(self, real):
        self.real = real
        self.kept: dict[tuple[str, int], tuple[object, list]] = {}
        self.hits = self.misses = 0

    def __call__(self, scenario, catalog=None):
        cat = catalog if catalog is not None else api.default_catalog()
        key = (scenario.model_dump_json(), id(cat))
        kept = self.kept.get(key)
        if kept is not None and kept[0] is cat:
            self.hits += 1
            yield from kept[1]
            return
        self.misses += 1
        stages = []
        for stage in self.real(scenario, cat):
            stages.append(stage)
            yield stage
        self.kept[key] = (cat, stages)


#: One memo for the whole session (each scenario sized once), patched in per window-test module
#: only: a session-wide patch stayed on for the engine and CLI tests a worker ran after a window
#: module (xdist's loadscope), and their cache counts came out wrong (300 == 2 * 0).
MEMO = SizingMemo(api.size_in_stages)


@pytest.fixture(scope="module", autouse=True)
def sizing_memo():
    """The memo, on for the window tests of this module and off again after it;
    ``AISIZER_TESTS_FRESH_SIZING=1`` turns it off (every sizing computed, as before the memo:
    to rule it out, or to time the window tests with it)."""
    if os.environ.get("AISIZER_TESTS_FRESH_SIZING") == "1":
        yield MEMO
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(api, "size_in_stages", MEMO)
        yield MEMO
    assert api.size_in_stages is MEMO.real  # the next module sizes with the engine itself


@pytest.fixture
def no_request_fits() -> dict:
    """The worked example with BF16 weights and 131,072-token contexts: not one request fits
    one replica (70.6 GB of weights and 20 GiB of KV cache per GPU against 92.4 GB usable),
    so the result is "does not fit" (the worked example itself fits on two replicas, #14)."""
    data = api.example("worked-example")
    data["model"] = "llama-3.1-70b"
    data["precision"]["weights"] = "bf16"
    data["workload"].update(max_context_tokens=131_072, prompt_tokens=100_000)
    return data


@pytest.fixture
def controller(qtbot, catalog, user_config_dir):
    """A controller with the worked example sized."""
    ctrl = Controller(catalog)
    ctrl.recompute()
    return ctrl


@pytest.fixture(autouse=True)
def english_afterwards():
    """Every test leaves the window's language English, whatever it switched to."""
    yield
    text.set_language("en")


@pytest.fixture
def shown_window(qtbot, controller):
    """The main window at the screenshot size (1400 x 900), shown."""
    from app.ui.app import SCREENSHOT_SIZE
    from app.ui.main_window import MainWindow

    window = MainWindow(controller)
    qtbot.addWidget(window)
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    yield window
    controller.wait_until_idle()


@pytest.fixture(scope="module")
def module_window(qapp, catalog, tmp_path_factory):
    """One main window (1400 x 900, shown) for a whole test module, with its own configuration
    folder: for tests that set up the state they check themselves (load an example, switch the
    language, visit pages) and only read the window. Building a window and its pages takes
    seconds, most of a window test's time; tests that need a fresh one use ``shown_window``."""
    from app.ui.app import SCREENSHOT_SIZE
    from app.ui.main_window import MainWindow

    with pytest.MonkeyPatch.context() as mp:
        config = tmp_path_factory.mktemp("module-config")
        mp.setenv("AISIZER_CONFIG_DIR", str(config))
        clear_cache()
        ctrl = Controller(catalog)
        ctrl.recompute()
        window = MainWindow(ctrl)
        window.resize(*SCREENSHOT_SIZE)
        window.show()
        yield window
        ctrl.wait_until_idle()
        ctrl.undo_stack.setClean()  # nothing to ask about on close
        window.close()
        window.deleteLater()
        qapp.processEvents()
        clear_cache()


@pytest.fixture
def requirements_page(qtbot, controller):
    """Step 1 alone, tall enough for every group."""
    from app.ui.pages.requirements import RequirementsPage

    page = RequirementsPage(controller)
    qtbot.addWidget(page)
    page.resize(1000, 1200)
    return page


@pytest.fixture
def message_answers(monkeypatch):
    """QMessageBox.question answers from a list, and records each question asked.

    A message box nobody expected fails the test instead of waiting for a click forever.
    """
    asked, queue = [], []

    def question(parent, title, message, *args, **kwargs):
        asked.append(message)
        assert queue, f"unexpected question: {message}"
        return queue.pop(0)

    def unexpected(parent, title, message, *args, **kwargs):
        raise AssertionError(f"unexpected message box: {message}")

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "warning", unexpected)
    monkeypatch.setattr(QMessageBox, "critical", unexpected)
    return queue, asked


@pytest.fixture
def automatic_collection() -> Iterator[None]:
    """Python's automatic garbage collection on during the test, as in the program (the suite
    keeps it off and collects between tests, tests/conftest.py): for the tests of
    app/ui/threads.py's own guard, which switches it off while a job's thread lives. Off again
    once every job thread has ended and the guard has seen it, so it does not switch the
    collector on behind the suite's back. Ask for it before any fixture that starts a sizing.

    A job thread of an earlier test that still runs (its levers, say) would keep the guard
    holding from before this test switched the collector on, and the guard would then not
    switch it off for this test's jobs: the earlier threads end first."""
    _join_job_threads()
    gc.enable()
    yield
    _join_job_threads()
    gc.disable()


def _join_job_threads(timeout_s: float = 10.0) -> None:
    """Wait (at most ``timeout_s``) until every job thread has ended and the guard of
    app/ui/threads.py has seen it."""
    deadline = time.monotonic() + timeout_s
    while threads._alive and time.monotonic() < deadline:
        for thread in list(threads._alive):
            thread.join(0.05)
        threads._reap()
