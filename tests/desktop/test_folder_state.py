"""Each folder has its own state, counts, progress and time left (issue 18 item 1).

The engine's progress names the folder it counts; the window touches only that folder's row; the time left
comes from rates measured in this run and is not shown before one is known.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from desktop.indexing import FolderView, Indexing
from desktop.mainwindow import MainWindow
from desktop.tasks import Job, TaskManager
from desktop.widgets.explorer import IndexExplorer
from desktop.widgets.folders import FoldersPanel, _fill, share_widths
from engine.api import Engine
from engine.events import IndexProgress
from engine.ingest import extract as extract_module
from engine.progress import PhaseRates, time_left
from tests.conftest import FailsOnce, write
from tests.desktop.conftest import index_folder, make_corpus, wait_idle


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
    assert rates.eta(IndexProgress("lexical", 400, 400)) is None  # nothing left: no "1 s left"


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


# -- removing asks first ---------------------------------------------------------------------------------
def test_removing_a_folder_asks_first_and_cancel_keeps_it(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    panel = window.folders
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    panel.remove_button.click()
    box = panel.confirm
    assert box is not None and box.isVisible()
    assert "Remove “kb” from Citeline?" in box.text()
    assert "4 indexed files (and 2 skipped or failed) leave the index" in box.informativeText()
    assert "files on disk are not touched" in box.informativeText()
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: panel.confirm is None)
    wait_idle(qtbot, window)
    assert panel.tree.topLevelItemCount() == 1 and len(window.engine.folders()) == 1

    panel.remove_button.click()
    remove = next(b for b in panel.confirm.buttons() if b.text() == "Remove from index")  # type: ignore[union-attr]
    remove.click()
    window.indexing.commit_removals()  # rather than wait for the undo window to pass
    qtbot.waitUntil(lambda: not window.engine.folders() and panel.tree.topLevelItemCount() == 0)
    assert (small_folder / "docs" / "deploy.md").is_file()  # the files on disk stay


# -- what is in my index ---------------------------------------------------------------------------------
def rows(explorer: IndexExplorer) -> dict[str, tuple[str, str]]:
    tree = explorer.tree
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return {i.text(0): (i.text(1), i.text(2)) for i in items if i is not None and not i.isHidden()}


def test_explorer_shows_a_folder_by_state_with_reasons_and_retries_failed_files(
    qtbot: QtBot, window: MainWindow, small_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extract_module, "_REGISTRY", dict(extract_module._REGISTRY))
    extract_module.register([".flaky"], FailsOnce())
    tree = tmp_path / "tree"
    write(tree, "app.py", "def create_app():\n    return 'the pelican factory'\n")
    write(tree, "docs/logo.svg", "<svg><title>x</title></svg>\n")
    write(tree, "notes.flaky", "the cormorant schedule")
    index_folder(qtbot, window, small_folder)
    index_folder(qtbot, window, tree)
    panel = window.folders
    panel.tree.setCurrentItem(panel.tree.findItems("tree", Qt.MatchFlag.MatchExactly)[0])
    window.show_explorer()
    explorer = window.findChild(IndexExplorer)
    assert explorer is not None
    qtbot.waitUntil(lambda: explorer.tree.topLevelItemCount() == 9)
    assert str(explorer.folder_box.currentData()) == str(tree)  # opens on the folder selected in the list
    assert set(rows(explorer)) == {"app.py", "docs/logo.svg", "notes.flaky"}
    assert explorer.summary.text() == "tree: 1 indexed, 1 skipped, 1 failed"
    explorer.state_box.setCurrentIndex(explorer.state_box.findData("skipped"))
    assert rows(explorer) == {"docs/logo.svg": ("skipped", "unsupported file type (.svg)")}
    explorer.state_box.setCurrentIndex(explorer.state_box.findData("failed"))
    assert list(rows(explorer)) == ["notes.flaky"]
    assert "not today" in rows(explorer)["notes.flaky"][1]
    explorer.folder_box.setCurrentIndex(explorer.folder_box.findData(""))
    explorer.state_box.setCurrentIndex(0)
    explorer.filter.setText("secret")
    assert rows(explorer) == {".env": ("skipped", "secret")}
    explorer.filter.clear()
    explorer.state_box.setCurrentIndex(explorer.state_box.findData("failed"))
    assert explorer.retry_button.text() == "Retry 1 failed" and explorer.retry_button.isEnabled()

    explorer.retry_button.click()
    qtbot.waitUntil(lambda: explorer.note.text().startswith("Read 1 again"), timeout=60_000)
    assert explorer.note.text() == "Read 1 again: 1 indexed."
    assert rows(explorer) == {}  # nothing failed any more
    assert not explorer.retry_button.isEnabled()
    wait_idle(qtbot, window)
    assert window.indexing.views[str(tree)].failed == 0 and window.indexing.views[str(tree)].indexed == 2
    explorer.close()


# -- a narrow window -------------------------------------------------------------------------------------
def test_columns_share_a_narrow_pane_state_first() -> None:
    assert share_widths(400, [50, 150, 110]) == [140, 150, 110]  # all fit: the name takes the rest
    assert share_widths(262, [50, 150, 110]) == [50, 150, 62]  # the counts are cut, not the state
    assert share_widths(180, [50, 150, 110]) == [50, 130, 0]  # too narrow for counts: hidden, not "6…"
    assert share_widths(180, [120, 70, 60]) == [70, 70, 40]  # a short state leaves room for the name
    assert sum(share_widths(100, [50, 150, 110])) == 100


def test_the_folder_pane_shrinks_in_an_800_by_600_window(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    panel = window.folders
    assert panel.minimumSizeHint().width() <= 200  # was 285: two rows of buttons that never wrapped
    qtbot.waitUntil(lambda: panel.width() <= 220)
    tree = panel.tree
    shown = [c for c in range(3) if not tree.isColumnHidden(c)]
    assert sum(tree.columnWidth(c) for c in shown) <= tree.viewport().width()  # no sideways scrolling
    assert tree.topLevelItem(0).toolTip(2).startswith("4 indexed, 2 skipped, 0 failed")


def test_a_busy_folders_row_says_how_far_it_is(qtbot: QtBot) -> None:
    item = QTreeWidgetItem()
    _fill(item, FolderView("/b", state="indexing", percent=48, done=48, total=100, eta_s=3.2))
    assert (item.text(1), item.text(2)) == ("indexing 48% · 3 s left", "…")  # new: no counts yet, not "0"
    assert item.toolTip(1) == "indexing 48% · 3 s left: 48 of 100 files"
    view = FolderView("/a", state="vectors", percent=10, done=64, total=600, files=6, indexed=4, skipped=2)
    _fill(item, view)
    assert (item.text(2), item.toolTip(1)) == ("4 (+2 skipped)", "vectors 10%: 64 of 600 passages")


# -- and can be undone -----------------------------------------------------------------------------------
def _remove_confirmed(qtbot: QtBot, panel: FoldersPanel) -> None:
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    panel.remove_button.click()
    assert panel.confirm is not None
    next(b for b in panel.confirm.buttons() if b.text() == "Remove from index").click()


def _file_rows(window: MainWindow) -> dict[str, tuple[int, object]]:
    catalog = window.engine.catalog
    return {f.path: (f.id, catalog.indexed_at(f.path)) for f in window.engine.files()}


def _names(tree: QTreeWidget) -> list[str]:
    return [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]


def test_a_removal_can_be_undone_at_once_without_indexing_again(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    panel = window.folders
    before = _file_rows(window)
    counts = _names(panel.tree), panel.tree.topLevelItem(0).text(2)
    _remove_confirmed(qtbot, panel)
    assert panel.tree.topLevelItemCount() == 0  # gone from the list at once
    assert panel.undo_bar.isVisible() and "Removed “kb” from the index." in panel.undo_bar.label.text()
    window.focus_search()
    window.search.set_query("zebracorn")
    qtbot.waitUntil(lambda: window.search.info.text() == "No matches")  # and from the results
    jobs: list[str] = []
    window.tasks.finished.connect(lambda job: jobs.append(job.name))
    qtbot.mouseClick(panel.undo_bar.undo_button, Qt.MouseButton.LeftButton)
    assert not panel.undo_bar.isVisible()
    assert (_names(panel.tree), panel.tree.topLevelItem(0).text(2)) == counts
    assert window.indexing.views[str(small_folder)].state == "watching"
    qtbot.waitUntil(lambda: window.search.results.count() > 0)
    wait_idle(qtbot, window)
    qtbot.wait(300)
    assert not [name for name in jobs if name.startswith(("indexing", "computing", "removing"))], jobs
    assert _file_rows(window) == before  # the same rows, written when they were: nothing read again
    assert not window.qsettings.value("folders/pending_removal")
    _remove_confirmed(qtbot, panel)  # and by keyboard, as the F1 sheet says
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _names(panel.tree) == counts[0])  # the button's click is animated
    assert not panel.undo_bar.isVisible()


def test_a_removal_is_done_when_the_undo_window_passes(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    window.indexing._undo_timer.setInterval(300)
    _remove_confirmed(qtbot, window.folders)
    assert len(window.engine.folders()) == 1  # still undoable: nothing removed yet
    qtbot.waitUntil(lambda: not window.engine.folders(), timeout=10_000)
    assert not window.folders.undo_bar.isVisible()
    assert (small_folder / "docs" / "deploy.md").is_file()


def test_a_question_asked_during_the_undo_window_never_uses_the_removed_folder(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    _remove_confirmed(qtbot, window.folders)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000) as blocker:
        window.ask("When do we deploy the zebracorn pipeline?")
    assert not [h for h in blocker.args[0].evidence if h.path.startswith(str(small_folder))]
    assert not window.engine.folders()


def test_a_removal_pending_at_quit_or_crash_is_done(
    qtbot: QtBot, make_window: Callable[[], MainWindow], small_folder: Path, tmp_path: Path
) -> None:
    first = make_window()
    other = make_corpus(tmp_path / "other", 3)
    index_folder(qtbot, first, small_folder)
    index_folder(qtbot, first, other)
    first.indexing.remove_later(str(small_folder))
    assert first.shutdown()  # quit inside the undo window: the removal is done, not lost
    second = make_window()
    qtbot.waitUntil(lambda: list(second.indexing.views) == [str(other)], timeout=10_000)
    assert [f.path for f in second.engine.folders()] == [str(other)]
    wait_idle(qtbot, second)
    second.indexing.remove_later(str(other))
    second.indexing.undoable.clear()  # as if the process died before the undo window ended
    second.indexing._undo_timer.stop()
    assert second.shutdown()
    third = make_window()  # the removal saved in desktop.ini is done at start
    qtbot.waitUntil(lambda: not third.engine.folders(), timeout=10_000)
    wait_idle(qtbot, third)
    assert not third.indexing.views
