"""Drops as file managers send them: text/uri-list in its real shapes, plain paths, folders and files.

The MIME data is real QMimeData built from the bytes senders put on the wire; the real X drag and drop
between two processes is tests/desktop/test_xdnd.py.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.drops import URI_LIST, dropped_paths
from desktop.mainwindow import MainWindow
from tests.desktop.conftest import wait_idle


def uri_list(raw: bytes, **extra: bytes) -> QMimeData:
    mime = QMimeData()
    mime.setData(URI_LIST, QByteArray(raw))
    for fmt, data in extra.items():
        mime.setData(fmt.replace("_", "/", 1).replace("_", "-"), QByteArray(data))
    return mime


def plain(text: str) -> QMimeData:
    mime = QMimeData()
    mime.setText(text)
    return mime


@pytest.mark.parametrize(
    "raw",
    [
        b"file:///srv/My%20Notes\r\nfile:///srv/caf%C3%A9.md\r\n",  # CRLF, trailing (Files, Dolphin, Thunar)
        b"file:///srv/My%20Notes\r\nfile:///srv/caf%C3%A9.md",  # no trailing CRLF
        b"file:///srv/My%20Notes\nfile:///srv/caf%C3%A9.md\n",  # bare LF (PCManFM, some toolkits)
        b"# dragged from a file manager\r\nfile:///srv/My%20Notes\r\n\r\nfile:///srv/caf%C3%A9.md\r\n",
        b"file://localhost/srv/My%20Notes\r\nfile:/srv/caf%C3%A9.md\r\n",  # host form, one-slash form
        b"file:///srv/My%20Notes\r\nfile:///srv/My%20Notes/\r\nfile:///srv/caf%C3%A9.md\r\n",
    ],
    ids=["crlf", "no-trailing-crlf", "lf", "comment-and-blank", "localhost-and-short", "repeated"],
)
def test_uri_lists_in_every_shape_give_the_paths(raw: bytes) -> None:
    assert dropped_paths(uri_list(raw)) == [Path("/srv/My Notes"), Path("/srv/café.md")]


def test_this_machines_name_is_local_and_another_machines_is_not() -> None:
    host = socket.gethostname()
    mime = uri_list(f"file://{host}/srv/a.md\r\nfile://fileserver.example/srv/b.md\r\n".encode())
    assert dropped_paths(mime) == [Path("/srv/a.md")]


def test_web_links_and_prose_are_not_drops_of_files() -> None:
    assert dropped_paths(uri_list(b"https://example.com/notes.md\r\n")) == []
    assert dropped_paths(plain("not a file")) == []
    assert dropped_paths(plain("/srv/notes and some words\nmore prose here")) == []
    assert dropped_paths(QMimeData()) == []


def test_plain_text_paths_and_uris_count(tmp_path: Path) -> None:
    assert dropped_paths(plain("/srv/notes\r\n/srv/todo.md\n")) == [Path("/srv/notes"), Path("/srv/todo.md")]
    assert dropped_paths(plain("file:///srv/My%20Notes")) == [Path("/srv/My Notes")]
    assert dropped_paths(plain("~/notes")) == [Path.home() / "notes"]


def test_kde_drops_carry_the_same_list() -> None:
    mime = uri_list(b"file:///srv/notes\r\n", application_x_kde4_urilist=b"file:///srv/notes\r\n")
    assert mime.hasFormat("application/x-kde4-urilist")
    assert dropped_paths(mime) == [Path("/srv/notes")]


def _drop(window: MainWindow, mime: QMimeData) -> tuple[QDragEnterEvent, QDropEvent]:
    """The events a drop delivers. They do not own the MIME data: the caller keeps it alive."""
    centre = QPointF(window.rect().center())
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter, drop = QDragEnterEvent(centre, *args), QDropEvent(centre, *args)
    enter.setAccepted(False)
    drop.setAccepted(False)
    return enter, drop


def test_a_mixed_drop_adds_the_folder_and_the_lone_file(
    qtbot: QtBot, window: MainWindow, small_folder: Path, tmp_path: Path
) -> None:
    """A folder and a file from elsewhere, percent-encoded, CRLF-separated, as Files (Nautilus) sends them."""
    lone = tmp_path / "loose notes" / "café plan.md"
    lone.parent.mkdir()
    lone.write_text("# Plan\n\nThe ocelot review is on Thursday.\n", encoding="utf-8")
    raw = f"{small_folder.as_uri()}\r\n{lone.as_uri()}\r\n".encode()
    assert b"%20" in raw and b"%C3%A9" in raw
    mime = uri_list(raw)
    enter, drop = _drop(window, mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        QApplication.sendEvent(window, drop)
        assert drop.isAccepted()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.indexing.views[str(small_folder)].indexed == 4)
    qtbot.waitUntil(lambda: window.indexing.views[str(lone.parent)].indexed == 1)
    hits = window.engine.search("ocelot", mode="keyword").hits
    assert [Path(hit.path) for hit in hits] == [lone]


def test_a_plain_text_path_drop_is_accepted(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    mime = plain(str(small_folder))
    enter, drop = _drop(window, mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        QApplication.sendEvent(window, drop)
    qtbot.waitUntil(lambda: str(small_folder) in window.indexing.views)


def test_files_dropped_on_the_search_box_are_added_not_typed(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    window.stack.setCurrentWidget(window.splitter)
    box = window.search.box
    mime = uri_list(f"{small_folder.as_uri()}\r\n".encode())
    mime.setText(str(small_folder))  # as Qt's X11 drop data offers it too
    enter, drop = _drop(window, mime)
    QApplication.sendEvent(box, enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        QApplication.sendEvent(box, drop)
    qtbot.waitUntil(lambda: str(small_folder) in window.indexing.views)
    assert box.text() == ""


def test_plain_text_dropped_on_the_search_box_is_typed(window: MainWindow) -> None:
    window.stack.setCurrentWidget(window.splitter)
    box = window.search.box
    mime = plain("zebracorn")
    enter, drop = _drop(window, mime)
    QApplication.sendEvent(box, enter)
    QApplication.sendEvent(box, drop)
    assert box.text() == "zebracorn"
    assert not window.indexing.views
