"""The window opens at once, shows the welcome page on first run, searches as you type, takes drops."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from tests.desktop.conftest import index_folder, wait_idle


def test_window_opens_on_the_welcome_page(qtbot: QtBot, window: MainWindow) -> None:
    assert window.isVisible()
    assert window.windowTitle() == "Citeline"
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.welcome)
    assert window.engine._embedder is None  # no model was loaded to open the window


def test_typing_shows_keyword_results(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    window.focus_search()
    qtbot.keyClicks(window.search.box, "zebracorn")
    qtbot.waitUntil(lambda: window.search.results.count() > 0)
    first = window.search.results.item(0)
    assert first.toolTip().endswith("deploy.md")
    assert "keyword results" in window.search.info.text()


def test_results_are_keyboard_driven(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    window.focus_search()
    qtbot.keyClicks(window.search.box, "rollback")
    qtbot.waitUntil(lambda: window.search.results.count() > 0)
    qtbot.keyClick(window.search.box, Qt.Key.Key_Down)
    assert window.search.results.hasFocus()
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        qtbot.keyClick(window.search.results, Qt.Key.Key_Return)
    assert window.preview.title.text() == "deploy.md"
    qtbot.keyClick(window.search.results, Qt.Key.Key_Escape)
    assert window.search.box.hasFocus()


def test_ctrl_k_focuses_the_search_box_from_anywhere(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.focus_search()
    window.preview.view.setFocus()
    qtbot.waitUntil(window.preview.view.hasFocus)
    qtbot.keyClick(window.preview.view, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(window.search.box.hasFocus)


def _drag(window: MainWindow, urls: list[QUrl]) -> tuple[QDragEnterEvent, QDropEvent, QMimeData]:
    """Real drag events; the caller keeps the QMimeData alive (the events do not own it)."""
    mime = QMimeData()
    mime.setUrls(urls)
    centre = window.rect().center()
    enter = QDragEnterEvent(
        QPointF(centre),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    drop = QDropEvent(
        QPointF(centre),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    return enter, drop, mime


def test_dropping_a_folder_indexes_it(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    enter, drop, _mime = _drag(window, [QUrl.fromLocalFile(str(small_folder))])
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        QApplication.sendEvent(window, drop)
        assert drop.isAccepted()
        qtbot.waitUntil(lambda: window.folders.tree.topLevelItemCount() == 1)
    item = window.folders.tree.topLevelItem(0)
    assert item.text(0) == small_folder.name
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.indexing.views[str(small_folder)].indexed == 4)
    assert window.indexing.views[str(small_folder)].state == "watching"
    assert window.folders.tree.topLevelItem(0).text(2) == "4 (+2 skipped)"


def test_dropping_text_is_ignored(window: MainWindow) -> None:
    mime = QMimeData()
    mime.setText("not a file")
    enter = QDragEnterEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    enter.setAccepted(False)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()


def test_dropping_a_single_file_indexes_only_that_file(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    note = small_folder / "notes" / "meeting.txt"
    enter, drop, _mime = _drag(window, [QUrl.fromLocalFile(str(note))])
    QApplication.sendEvent(window, enter)
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        QApplication.sendEvent(window, drop)
    wait_idle(qtbot, window)
    view = window.indexing.views[str(note.parent)]
    qtbot.waitUntil(lambda: view.indexed == 1)


def test_geometry_and_recent_questions_persist(qtbot: QtBot, make_window: Callable[[], MainWindow]) -> None:
    first = make_window()
    first.resize(640, 480)  # within the offscreen screen (800x600)
    first._remember("how do we roll back?")
    first.shutdown()
    second = make_window()
    assert second.recent_questions() == ["how do we roll back?"]
    assert [a.text() for a in second.recent_menu.actions()] == ["how do we roll back?"]
    assert (second.width(), second.height()) == (640, 480)


def test_a_second_start_catches_up_without_the_welcome_page(
    qtbot: QtBot, make_window: Callable[[], MainWindow], small_folder: Path
) -> None:
    first = make_window()
    index_folder(qtbot, first, small_folder)
    first.shutdown()
    (small_folder / "notes" / "later.md").write_text(
        "# Later\n\nThe pangolin memo arrived.\n", encoding="utf-8"
    )
    second = make_window()
    view = lambda: second.indexing.views.get(str(small_folder))  # noqa: E731
    qtbot.waitUntil(
        lambda: (v := view()) is not None and v.indexed == 5 and v.state == "watching", timeout=60_000
    )
    assert second.stack.currentWidget() is second.splitter
