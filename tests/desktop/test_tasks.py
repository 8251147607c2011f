"""The task manager: one writer lane, results via signals, throttled progress, cancel, errors."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from pytestqt.qtbot import QtBot

from desktop.tasks import GENERIC_HINT, Job, State, TaskManager
from engine.errors import CiteError
from engine.events import FileIndexed, IndexProgress


@pytest.fixture
def tasks(qtbot: QtBot) -> Iterator[TaskManager]:
    manager = TaskManager()
    yield manager
    manager.shutdown()


def run(qtbot: QtBot, tasks: TaskManager, submit: Callable[[], Job]) -> Job:
    with qtbot.waitSignal(tasks.finished, timeout=20_000) as blocker:
        job = submit()
    assert blocker.args[0] is job
    return job


def test_writes_run_one_at_a_time_on_one_thread(qtbot: QtBot, tasks: TaskManager) -> None:
    seen: list[str] = []
    running = 0
    overlap = False
    lock = threading.Lock()

    def body(job: Job) -> None:
        nonlocal running, overlap
        with lock:
            running += 1
            overlap = overlap or running > 1
        seen.append(threading.current_thread().name)
        time.sleep(0.02)
        with lock:
            running -= 1

    jobs = [tasks.write(f"w{i}", body) for i in range(5)]
    qtbot.waitUntil(lambda: all(j.finished for j in jobs))
    assert not overlap
    assert len(set(seen)) == 1 and seen[0].startswith("citeline-writer")
    assert threading.current_thread().name not in seen


def test_progress_is_polled_not_signalled_per_event(qtbot: QtBot, tasks: TaskManager) -> None:
    def stream(cancelled: Callable[[], bool]) -> Iterator[object]:
        for i in range(20_000):
            yield IndexProgress("lexical", i + 1, 20_000, f"/f{i}")
            if i % 2000 == 0:
                time.sleep(0.05)
            yield FileIndexed(f"/f{i}", 1)

    signals: list[IndexProgress] = []
    tasks.progress.connect(lambda job: signals.append(job.progress))
    started = time.monotonic()
    job = run(qtbot, tasks, lambda: tasks.write_stream("indexing", stream))
    elapsed = time.monotonic() - started
    assert job.state is State.DONE
    assert job.counts["indexed"] == 20_000
    assert signals[-1] == IndexProgress("lexical", 20_000, 20_000, "/f19999")  # the last state is delivered
    assert len(signals) <= elapsed * 10 + 3  # ~10 per second, not 20,000


def test_cancel_reaches_the_generator(qtbot: QtBot, tasks: TaskManager) -> None:
    started = threading.Event()
    checks: list[bool] = []

    def stream(cancelled: Callable[[], bool]) -> Iterator[object]:
        started.set()
        while True:
            checks.append(cancelled())
            yield IndexProgress("lexical", len(checks), 0)
            time.sleep(0.005)

    job = tasks.write_stream("indexing", stream)
    qtbot.waitUntil(started.is_set)
    with qtbot.waitSignal(tasks.finished, timeout=10_000):
        job.cancel()
    assert job.state is State.CANCELLED


def test_cite_error_keeps_message_and_hint(qtbot: QtBot, tasks: TaskManager) -> None:
    def body(job: Job) -> None:
        raise CiteError("The index is in use.", "close the other window")

    job = run(qtbot, tasks, lambda: tasks.read("searching", body))
    assert (job.state, job.error, job.hint) == (
        State.FAILED,
        "The index is in use.",
        "close the other window",
    )


def test_other_errors_are_generic_with_the_traceback_in_the_log(
    qtbot: QtBot, tasks: TaskManager, caplog: pytest.LogCaptureFixture
) -> None:
    def body(job: Job) -> None:
        raise ZeroDivisionError("secret internals")

    with caplog.at_level(logging.ERROR):
        job = run(qtbot, tasks, lambda: tasks.read("searching", body))
    assert job.error == "Something went wrong while searching." and job.hint == GENERIC_HINT
    assert "secret internals" not in job.error
    assert any(r.exc_info and r.exc_info[0] is ZeroDivisionError for r in caplog.records)


def test_results_arrive_on_the_ui_thread(qtbot: QtBot, tasks: TaskManager) -> None:
    where: list[str] = []
    run(
        qtbot,
        tasks,
        lambda: tasks.read(
            "x", lambda job: 42, then=lambda job: where.append(threading.current_thread().name)
        ),
    )
    assert where == [threading.main_thread().name]


def test_jobs_after_shutdown_are_refused(tasks: TaskManager) -> None:
    tasks.shutdown()
    job = tasks.write("late", lambda job: None)
    assert job.state is State.CANCELLED


def test_shutdown_waits_for_a_cooperative_job(qtbot: QtBot, tasks: TaskManager) -> None:
    started = threading.Event()

    def stream(cancelled: Callable[[], bool]) -> Iterator[object]:
        started.set()
        while True:
            yield IndexProgress("lexical", 0, 0)
            time.sleep(0.01)

    job = tasks.write_stream("indexing", stream)
    started.wait(10)
    assert tasks.shutdown(timeout=5.0)
    assert job.state is State.CANCELLED


def test_shutdown_does_not_wait_long_for_a_job_that_cannot_stop(tasks: TaskManager) -> None:
    started, release = threading.Event(), threading.Event()

    def body(job: Job) -> None:  # like a model load: no cancellation point until it returns
        started.set()
        release.wait(30)

    job = tasks.read("loading the model", body)
    started.wait(10)
    begun = time.monotonic()
    assert not tasks.shutdown(timeout=0.2)
    assert time.monotonic() - begun < 1.0 and job.state is State.RUNNING
    release.set()
    assert tasks.wait_idle(10)


def test_nothing_made_after_a_stop_is_forwarded(qtbot: QtBot, tasks: TaskManager) -> None:
    seen: list[object] = []
    tasks.events.connect(lambda job, batch: seen.extend(batch))

    def stream(cancelled: Callable[[], bool]) -> Iterator[object]:
        yield FileIndexed("/before", 1)
        while not cancelled():
            time.sleep(0.01)
        yield FileIndexed("/after", 1)  # a stream cut short may still send something

    job = tasks.read_stream("answering", stream, forward=(FileIndexed,))
    qtbot.waitUntil(lambda: seen == [FileIndexed("/before", 1)])
    with qtbot.waitSignal(tasks.finished, timeout=10_000):
        job.cancel()
    assert seen == [FileIndexed("/before", 1)] and job.state is State.CANCELLED
