"""Work off the GUI thread without Qt crashing: plain Python threads, no collection there.

Two rules keep a worker thread from corrupting Qt's state:

1. **No Qt on a worker.** A :class:`Worker` runs each job on a plain Python thread that calls
   no Qt and holds no QObject. A job gets ``post``, the ``put`` of a ``queue.SimpleQueue``,
   and posts plain Python messages; the GUI thread takes them every :data:`POLL_MS` while a
   job runs and hands them to the owner's handler, in order.
2. **No garbage collection on a worker.** Python runs its cyclic collector on whichever
   thread allocates when a threshold trips. A collection on a worker destroys whatever
   cyclic garbage it finds there, QObjects of the GUI thread included (a closed controller
   and its timers, say); a QObject must die in its own thread, and one that does not leaves
   Qt's timer list pointing at freed memory: the GUI thread then crashed in its next timer
   round (``QCoreApplication::notifyInternal2`` under ``QTimerInfoList::activateTimers``,
   about one run in two of the controller's burst-of-edits test). The collector is therefore
   off from before a job's thread starts until the GUI thread has seen that thread end
   (``_hold_collection``, ``_reap``); collections then resume on the GUI thread. Switching it off
   on the worker itself is not enough: it was switched on again there, and the thread's last
   allocations could still start a collection on it.

The price is a few milliseconds: a result reaches the window :data:`POLL_MS` after it was
posted at most, and polling stops when no job runs.
"""

from __future__ import annotations

import gc
import queue
import threading
import time
from collections import deque
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer

POLL_MS = 10  # how often the GUI thread looks for messages while a job runs

REAP_MS = 100  # how often the GUI thread looks for ended job threads while any may run

_alive: list[threading.Thread] = []  # job threads that may still run (GUI thread only)
_collector = {"was_enabled": True}  # the collector's state before the first of them
_reaper: list[QTimer] = []  # calls _reap while _alive is not empty (made on first use)


def _hold_collection(thread: threading.Thread) -> None:
    """Switch automatic garbage collection off for ``thread``, before it starts (GUI thread)."""
    _reap()
    if not _alive:
        _collector["was_enabled"] = gc.isenabled()
        gc.disable()
    _alive.append(thread)
    if not _reaper:  # the application's child: it outlives every window
        _reaper.append(QTimer(QCoreApplication.instance(), interval=REAP_MS))
        _reaper[0].timeout.connect(_reap)
    _reaper[0].start()


def _reap() -> None:
    """Forget the job threads that have ended; once none is left, switch collection back on
    as it was. Workers reap as they poll, and a timer of the application's reaps every
    REAP_MS, so a job whose worker was deleted while it ran (its window closed) does not keep
    the collector off."""
    if _alive:
        _alive[:] = [thread for thread in _alive if thread.is_alive()]
        if not _alive:
            _reaper[0].stop()
            if _collector["was_enabled"]:
                gc.enable()


Job = Callable[[Callable[[object], None]], None]  # job(post): posts messages, returns nothing


class Worker(QObject):
    """Runs jobs one after another, each on its own plain Python thread, and hands what they
    post to ``handler(message)`` on the GUI thread.

    ``submit(job)`` queues ``job(post)`` (GUI thread); ``busy`` is True until every job has
    ended and every message has been handled; ``ended`` (optional) is called on the GUI
    thread after each job's thread has ended and its messages were handled.
    """

    def __init__(self, name: str, handler: Callable[[object], None],
                 ended: Callable[[], None] | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.name = name
        self.messages: queue.SimpleQueue = queue.SimpleQueue()
        self._handler, self._ended = handler, ended
        self._waiting: deque[Job] = deque()
        self._thread: threading.Thread | None = None
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self.poll)

    @property
    def busy(self) -> bool:
        return self._thread is not None or bool(self._waiting) or not self.messages.empty()

    def submit(self, job: Job) -> None:
        """Run ``job(post)`` on a thread of its own once the jobs before it have ended."""
        self._waiting.append(job)
        if self._thread is None:
            self._start_next()
        self._timer.start()

    def poll(self, wait_s: float = 0.0) -> None:
        """Hand the messages posted so far to the handler; when the running job's thread has
        ended (``wait_s``: wait that long for it), start the next job. GUI thread.

        A handler that raises leaves the messages after it for the next poll.
        """
        thread = self._thread
        if thread is not None and wait_s > 0:
            thread.join(wait_s)
        finished = thread is not None and not thread.is_alive()  # before the last messages
        self._deliver()
        if finished:
            self._thread = None
            _reap()
            if self._ended is not None:
                self._ended()
            if self._waiting and self._thread is None:
                self._start_next()
        if not self.busy:
            self._timer.stop()

    def wait(self, timeout_s: float) -> bool:
        """Run the GUI side until no job is left (False after ``timeout_s`` seconds)."""
        deadline = time.monotonic() + timeout_s
        while self.busy:
            if time.monotonic() > deadline:
                return False
            self.poll(wait_s=0.005)
        return True

    def _deliver(self) -> None:
        while True:
            try:
                message = self.messages.get_nowait()
            except queue.Empty:
                return
            self._handler(message)

    def _start_next(self) -> None:
        job = self._waiting.popleft()
        self._thread = threading.Thread(target=job, args=(self.messages.put,), name=self.name)
        _hold_collection(self._thread)  # before it starts; back on once the GUI saw it end
        self._thread.start()
