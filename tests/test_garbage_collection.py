"""The suite's garbage collection (tests/conftest.py, ``pytest_configure``): never automatic,
so never on a thread of the suite's own (pytest-timeout's timer, pytest-xdist's channel),
where it would destroy a window test's QObjects off the GUI thread."""

from __future__ import annotations

import gc
import threading


def test_automatic_collection_is_off_during_a_test():
    assert not gc.isenabled()


def test_a_thread_that_allocates_a_lot_starts_no_collection():
    started_on = []

    def record(phase, _info):
        if phase == "start":
            started_on.append(threading.current_thread().name)

    def allocate():
        cycles = []
        for _ in range(50_000):  # far past the threshold of 700 that starts a collection
            pair = [None]
            pair[0] = pair
            cycles.append(pair)

    gc.callbacks.append(record)
    try:
        thread = threading.Thread(target=allocate, name="allocator")
        thread.start()
        thread.join()
    finally:
        gc.callbacks.remove(record)
    assert "allocator" not in started_on
