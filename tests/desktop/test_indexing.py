"""Indexing from the window: cancel stops the job, the watcher keeps the index fresh, remove forgets."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.tasks import State
from tests.conftest import write
from tests.desktop.conftest import finished, index_folder, make_corpus, wait_idle

FILES = 400


def test_cancel_stops_indexing(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", FILES)
    window.add_paths([corpus])
    qtbot.waitUntil(
        lambda: window.indexing.current is not None and window.indexing.current.name == "indexing"
    )
    job = window.indexing.current
    assert job is not None
    qtbot.waitUntil(lambda: job.progress is not None and job.progress.phase == "lexical", timeout=30_000)
    assert window.folders.cancel_button.isVisible()
    window.folders.cancel_button.click()
    qtbot.waitUntil(lambda: finished(job), timeout=30_000)
    assert job.state is State.CANCELLED
    wait_idle(qtbot, window)
    view = window.indexing.views[str(corpus)]
    assert view.state == "cancelled"
    assert view.indexed < FILES  # refreshed from engine.status(): stopped part-way (batches of 64 commit)
    assert not window.folders.cancel_button.isVisible()


def test_watcher_picks_up_a_new_file(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    write(small_folder, "notes/new.md", "# Wombats\n\nThe wombat rollout slipped a week.\n")
    window.focus_search()

    def found() -> bool:
        window.search.set_query("wombat")
        qtbot.wait(300)
        return window.search.results.count() > 0

    qtbot.waitUntil(found, timeout=20_000)
    assert window.search.results.item(0).toolTip().endswith("new.md")


def test_remove_folder_forgets_it(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    window.folders.tree.setCurrentItem(window.folders.tree.topLevelItem(0))
    window.folders.remove_button.click()
    assert window.folders.confirm is not None  # it asks first (tests/desktop/test_folder_state.py)
    next(b for b in window.folders.confirm.buttons() if b.text() == "Remove from index").click()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.folders.tree.topLevelItemCount() == 0)
    window.focus_search()
    window.search.set_query("zebracorn")
    qtbot.waitUntil(lambda: window.search.info.text() == "No matches")


def test_index_explorer_lists_skips_with_reasons(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    window.show_explorer()
    from desktop.widgets.explorer import IndexExplorer

    explorer = window.findChild(IndexExplorer)
    assert explorer is not None
    qtbot.waitUntil(lambda: explorer.tree.topLevelItemCount() == 6)
    rows = {
        Path(explorer.tree.topLevelItem(i).text(0)).name: (
            explorer.tree.topLevelItem(i).text(1),
            explorer.tree.topLevelItem(i).text(2),
        )
        for i in range(6)
    }
    assert rows[".env"] == ("skipped", "secret")
    assert rows["logo.bin"] == ("skipped", "binary")
    assert rows["deploy.md"][0] == "indexed"
    explorer.filter.setText("secret")
    assert [explorer.tree.topLevelItem(i).isHidden() for i in range(6)].count(False) == 1
    explorer.close()


def test_errors_show_message_and_hint(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    window.add_paths([small_folder / "docs"])  # inside a watched folder: the engine refuses with a hint
    qtbot.waitUntil(window.banner.isVisible)
    assert "is inside the watched folder" in window.banner.text
    assert "include/exclude patterns" in window.banner.text
    assert "Traceback" not in window.banner.text
