"""Threads for the window: one writer lane for every Engine write, a small pool for reads.

Engine jobs that are generators are drained in the worker. The worker keeps only the latest
IndexProgress and a queue of the events the caller asked to see; a QTimer on the UI thread polls the
running jobs ~10 times a second and emits at most one `progress` and one `events` signal per job per
tick, never one signal per event. Every job can be cancelled: a threading.Event read through the
`cancelled` callable the engine's generators check at each yield.
"""

from __future__ import annotations

import enum
import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from engine.errors import Cancelled, CiteError
from engine.events import FileIndexed, FileRemoved, FileSkipped, IndexProgress

log = logging.getLogger(__name__)

POLL_MS = 100
SHUTDOWN_WAIT_S = 0.6  # the engine reaches a cancellation point within ~0.5 s; the user waits no longer
GENERIC_ERROR = "Something went wrong while {name}."
GENERIC_HINT = "the details are in the log (Help → Log)"


class State(enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


_ids = itertools.count(1)


@dataclass(eq=False)
class Job:
    """A unit of work handed to a lane. Workers write its fields; the UI thread reads them."""

    name: str
    lane: str
    id: int = field(default_factory=lambda: next(_ids))
    state: State = State.QUEUED
    progress: IndexProgress | None = None
    counts: dict[str, int] = field(default_factory=lambda: {"indexed": 0, "skipped": 0, "removed": 0})
    result: Any = None
    error: str = ""
    hint: str = ""
    then: Callable[[Job], None] | None = None
    _cancel: threading.Event = field(default_factory=threading.Event)
    _outbox: deque[object] = field(default_factory=deque)
    _sent: IndexProgress | None = None

    def cancel(self) -> None:
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def finished(self) -> bool:
        return self.state in (State.DONE, State.FAILED, State.CANCELLED)

    def post(self, event: object) -> None:
        """Queue an event for the UI (thread-safe: deque append)."""
        self._outbox.append(event)

    def drain(self) -> list[object]:
        out: list[object] = []
        while self._outbox:
            out.append(self._outbox.popleft())
        return out


def drain_stream(job: Job, stream: Iterable[object], forward: tuple[type, ...] = ()) -> None:
    """Consume an engine generator in the worker, keeping the latest progress and counting files."""
    iterator = iter(stream)
    try:
        for event in iterator:
            if job.cancelled():
                raise Cancelled()  # checked first: nothing made after a stop reaches the UI
            _note(job, event)
            if forward and isinstance(event, forward):
                job.post(event)
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()  # release the engine's write lock now, not when the traceback is collected


def _note(job: Job, event: object) -> None:
    if isinstance(event, IndexProgress):
        job.progress = event
    elif isinstance(event, FileIndexed):
        job.counts["indexed"] += 1
    elif isinstance(event, FileSkipped):
        job.counts["skipped"] += 1
    elif isinstance(event, FileRemoved):
        job.counts["removed"] += 1


class TaskManager(QObject):
    """Owns the writer lane and the read pool; results come back as signals on the UI thread."""

    progress = Signal(object)  # Job whose .progress changed since the last tick
    events = Signal(object, list)  # Job, forwarded events since the last tick
    finished = Signal(object)  # Job, in a final state (done, failed or cancelled)
    _done = Signal(object)  # internal: emitted by a worker thread, delivered queued

    def __init__(self, parent: QObject | None = None, readers: int = 3) -> None:
        super().__init__(parent)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="citeline-writer")
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="citeline-read")
        self._active: dict[int, Job] = {}
        self._closed = False
        self._running = 0
        self._idle = threading.Condition()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)

    # -- submitting -----------------------------------------------------------------------------------
    def write(self, name: str, body: Callable[[Job], Any], then: Callable[[Job], None] | None = None) -> Job:
        """Run `body(job)` on the one writer thread (every DuckDB/Tantivy write goes here)."""
        return self._submit("write", name, body, then)

    def read(self, name: str, body: Callable[[Job], Any], then: Callable[[Job], None] | None = None) -> Job:
        """Run `body(job)` on the read pool (search, answer, status, file loads)."""
        return self._submit("read", name, body, then)

    def write_stream(
        self,
        name: str,
        factory: Callable[[Callable[[], bool]], Iterable[object]],
        then: Callable[[Job], None] | None = None,
        forward: tuple[type, ...] = (),
    ) -> Job:
        """Drain the generator `factory(cancelled)` on the writer thread."""
        return self.write(name, lambda job: drain_stream(job, factory(job.cancelled), forward), then)

    def read_stream(
        self,
        name: str,
        factory: Callable[[Callable[[], bool]], Iterable[object]],
        then: Callable[[Job], None] | None = None,
        forward: tuple[type, ...] = (),
    ) -> Job:
        return self.read(name, lambda job: drain_stream(job, factory(job.cancelled), forward), then)

    def _submit(
        self, lane: str, name: str, body: Callable[[Job], Any], then: Callable[[Job], None] | None
    ) -> Job:
        job = Job(name, lane, then=then)
        if self._closed:
            job.state = State.CANCELLED
            return job
        self._active[job.id] = job
        pool = self._writer if lane == "write" else self._readers
        pool.submit(self._run, job, body)
        if not self._timer.isActive():
            self._timer.start()
        return job

    # -- workers --------------------------------------------------------------------------------------
    def _run(self, job: Job, body: Callable[[Job], Any]) -> None:
        with self._idle:
            self._running += 1
        try:
            self._work(job, body)
        finally:
            with self._idle:
                self._running -= 1
                self._idle.notify_all()
        if not self._closed:  # after shutdown the window may be gone: nobody to tell
            self._done.emit(job)

    def _work(self, job: Job, body: Callable[[Job], Any]) -> None:
        try:
            if job.cancelled():
                raise Cancelled()
            job.state = State.RUNNING
            job.result = body(job)
            job.state = State.DONE
        except Cancelled:
            job.state = State.CANCELLED
        except CiteError as exc:
            log.info("%s failed: %s", job.name, exc)
            job.error, job.hint, job.state = exc.message, exc.hint, State.FAILED
        except Exception:
            log.exception("%s failed", job.name)
            job.error, job.hint = GENERIC_ERROR.format(name=job.name), GENERIC_HINT
            job.state = State.FAILED

    # -- UI thread ------------------------------------------------------------------------------------
    def _poll(self) -> None:
        for job in list(self._active.values()):
            self._flush(job)
        if not self._active:
            self._timer.stop()

    def _flush(self, job: Job) -> None:
        if job.progress is not None and job.progress is not job._sent:
            job._sent = job.progress
            self.progress.emit(job)
        batch = job.drain()
        if batch:
            self.events.emit(job, batch)

    def _on_done(self, job: Job) -> None:
        self._active.pop(job.id, None)
        self._flush(job)
        self.finished.emit(job)
        if job.then is not None and not self._closed:
            try:
                job.then(job)
            except Exception:  # a slot must never take the event loop down
                log.exception("callback of %s failed", job.name)

    # -- control --------------------------------------------------------------------------------------
    def active(self, lane: str | None = None) -> list[Job]:
        return [j for j in self._active.values() if lane is None or j.lane == lane]

    def cancel_all(self) -> None:
        for job in list(self._active.values()):
            job.cancel()

    def shutdown(self, timeout: float = SHUTDOWN_WAIT_S) -> bool:
        """Cancel everything and wait at most `timeout` seconds for the workers to reach a cancellation
        point. True when every worker is idle; False when one is still busy (a model load or a single
        long native call cannot be interrupted), and quitting must not wait for it."""
        self._closed = True
        self.cancel_all()
        self._timer.stop()
        self._writer.shutdown(wait=False, cancel_futures=True)
        self._readers.shutdown(wait=False, cancel_futures=True)
        return self.wait_idle(timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Whether no worker is running a job, waiting up to `timeout` seconds for that."""
        with self._idle:
            return self._idle.wait_for(lambda: self._running == 0, timeout)
