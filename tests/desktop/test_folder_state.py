"""Each folder has its own state, counts, progress and time left (issue 18 item 1).

The engine's progress names the folder it counts; the window touches only that folder's row; the time left
comes from rates measured in this run and is not shown before one is known.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.indexing import FolderView, Indexing
from desktop.mainwindow import MainWindow
from desktop.tasks import Job, TaskManager
from engine.api import Engine
from engine.events import IndexProgress
from engine.progress import PhaseRates, time_left
from tests.conftest import write
from tests.desktop.conftest import index_folder, make_corpus


class Clock:
    """A hand-set clock for rates."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# -- engine: progress per folder, rates ------------------------------------------------------------------
def test_vectors_progress_counts_only_the_folders_that_need_them(engine: Engine, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    write(first, "one.md", "# One\n\nThe heron index is healthy.\n")
    write(second, "two.md", "# Two\n\nThe osprey index is new.\n")
    write(second, "three.md", "# Three\n\nA third note about kestrels.\n")
    engine.add_folder(first)
    engine.run(engine.sync())
    engine.add_folder(second)
    engine.run(engine.sync([second], embed=False))
    events = [e for e in engine.embed_pending() if isinstance(e, IndexProgress)]
    assert {e.path for e in events} == {str(second.resolve())}  # the finished folder is not counted again
    assert events[0].done == 0 and events[-1].done == events[-1].total == 2
    assert engine.status().vectors_fraction == 1.0
    assert [(e.path, e.done, e.total) for e in engine.embed_pending()] == [("", 3, 3)]  # nothing left


def test_rates_give_no_eta_until_measured_and_carry_to_the_next_folder() -> None:
    rates = PhaseRates()
    rates.update(IndexProgress("lexical", 16, 100, "/a/x.md"), now=10.0)
    assert rates.eta(IndexProgress("lexical", 16, 100)) is None  # one event: no rate yet
    rates.update(IndexProgress("lexical", 48, 100, "/a/y.md"), now=12.0)  # 32 files in 2 s
    assert rates.rate("lexical") == 16.0
    assert rates.eta(IndexProgress("lexical", 48, 100)) == pytest.approx(52 / 16)
    assert rates.eta(IndexProgress("vectors", 0, 500)) is None  # another phase has its own rate
    rates.update(IndexProgress("lexical", 16, 400, "/b/x.md"), now=20.0)  # the next folder starts
    assert rates.eta(IndexProgress("lexical", 16, 400)) == pytest.approx(384 / 16)
    rates.update(IndexProgress("lexical", 32, 400, "/b/y.md"), now=24.0)  # measured anew: 4 files/s
    assert rates.rate("lexical") == 4.0


def test_time_left_reads_as_people_say_it() -> None:
    assert [time_left(s) for s in (0.2, 8, 59.4, 61, 150, 3599, 3900)] == [
        "1 s left",
        "8 s left",
        "59 s left",
        "1 min left",
        "3 min left",
        "1 h 0 min left",
        "1 h 5 min left",
    ]


# -- the window: one folder's progress never shows on another ------------------------------------------
@pytest.fixture
def indexing(qtbot: QtBot, engine: Engine) -> Iterator[Indexing]:
    tasks = TaskManager()
    indexing = Indexing(engine, tasks)
    indexing.rates = PhaseRates(clock=Clock())
    yield indexing
    tasks.shutdown()


def tick(indexing: Indexing, job: Job, event: IndexProgress, at: float) -> None:
    """What the task manager's poll does for a running job, at a set time."""
    indexing.rates.clock.now = at  # type: ignore[attr-defined]
    job.progress = event
    indexing.tasks.progress.emit(job)


def test_a_second_folders_progress_leaves_the_first_alone(indexing: Indexing) -> None:
    indexing.views = {"/a": FolderView("/a", state="watching"), "/b": FolderView("/b")}
    job = Job("indexing", "write")
    indexing.current = job
    tick(indexing, job, IndexProgress("scan", 0, 0, "/b"), at=0)
    assert indexing.views["/b"].label == "scanning"
    tick(indexing, job, IndexProgress("lexical", 16, 100, "/b/x.md"), at=1)
    assert indexing.views["/b"].label == "indexing 16%"  # no rate yet: no time left shown
    tick(indexing, job, IndexProgress("lexical", 48, 100, "/b/y.md"), at=3)
    assert indexing.views["/b"].label == "indexing 48% · 3 s left"  # 16 files/s, 52 to go
    vectors = Job("computing vectors", "write")
    indexing.current = vectors
    tick(indexing, vectors, IndexProgress("vectors", 0, 600, "/b"), at=4)
    assert indexing.views["/b"].label == "vectors 0%"
    tick(indexing, vectors, IndexProgress("vectors", 64, 600, "/b"), at=6)
    assert indexing.views["/b"].label == "vectors 10% · 17 s left"  # 32 chunks/s, 536 to go
    assert (indexing.views["/b"].done, indexing.views["/b"].total) == (64, 600)
    tick(indexing, vectors, IndexProgress("vectors", 600, 600, "/b"), at=20)
    assert indexing.views["/b"].state == "ready"
    assert indexing.views["/a"].label == "watching"  # never flipped to "vectors n%"


def test_a_job_over_two_folders_finishes_each_in_turn(indexing: Indexing) -> None:
    indexing.views = {p: FolderView(p) for p in ("/a", "/b")}
    job = Job("indexing", "write")
    indexing.current = job
    tick(indexing, job, IndexProgress("lexical", 10, 10, "/a/x.md"), at=0)
    tick(indexing, job, IndexProgress("scan", 0, 0, "/b"), at=1)
    assert (indexing.views["/a"].state, indexing.views["/b"].state) == ("keyword-ready", "scanning")
    vectors = Job("computing vectors", "write")
    indexing.current = vectors
    tick(indexing, vectors, IndexProgress("vectors", 5, 90, "/a"), at=2)
    tick(indexing, vectors, IndexProgress("vectors", 0, 40, "/b"), at=3)
    assert (indexing.views["/a"].state, indexing.views["/b"].label) == ("ready", "vectors 0%")


def test_adding_a_second_folder_never_flips_the_first(
    qtbot: QtBot, window: MainWindow, small_folder: Path, tmp_path: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    first = window.indexing.views[str(small_folder)]
    assert first.state == "watching"
    seen: list[str] = []
    window.indexing.changed.connect(lambda: seen.append(first.label))
    second = make_corpus(tmp_path / "second", 60)
    index_folder(qtbot, window, second, timeout=120_000)
    assert set(seen) == {"watching"}
    assert window.indexing.views[str(second)].state == "watching"
    assert window.indexing.views[str(second)].indexed == 60 and first.indexed == 4
