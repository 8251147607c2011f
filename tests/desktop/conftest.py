"""Desktop fixtures: a real window over a real engine in the test's data dir; Qt warnings fail the test."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler
from pytestqt.qtbot import QtBot

from desktop.compat import GuiThreadCollector
from desktop.mainwindow import MainWindow
from desktop.tasks import Job
from engine.api import Engine
from tests.conftest import write

# Known-harmless noise from the offscreen platform plugin, matched exactly by prefix. Nothing else passes.
HARMLESS = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
    "This plugin does not support grabbing the keyboard",
    "QFont::setPointSize: Point size <= 0",
)
BAD = (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg)


@pytest.fixture(autouse=True)
def qt_messages() -> Iterator[list[str]]:
    """Collect Qt warnings from any thread; fail the test on one that is not listed as harmless."""
    bad: list[str] = []
    lock = threading.Lock()

    def handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if mode in BAD and not message.startswith(HARMLESS):
            with lock:
                bad.append(f"{mode.name}: {message}")

    previous = qInstallMessageHandler(handler)
    yield bad
    qInstallMessageHandler(previous)
    assert not bad, "Qt warnings:\n" + "\n".join(bad)


@pytest.fixture(autouse=True)
def gui_thread_gc(qapp: object) -> Iterator[GuiThreadCollector]:
    """As in the app: no automatic collection while a test's Qt objects live (a worker thread could
    collect one and crash); collected on this thread at the end, after every window is shut down."""
    collector = GuiThreadCollector()
    yield collector
    collector.stop()


@pytest.fixture
def make_window(
    qtbot: QtBot, citeline_home: Path, qt_messages: list[str], gui_thread_gc: GuiThreadCollector
) -> Iterator[Callable[[], MainWindow]]:
    """Open real windows over the test's data dir; each is shut down (workers joined) at teardown."""
    windows: list[MainWindow] = []

    def make() -> MainWindow:
        window = MainWindow(Engine(citeline_home))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.shutdown()


@pytest.fixture
def window(make_window: Callable[[], MainWindow]) -> MainWindow:
    return make_window()


def wait_idle(qtbot: QtBot, window: MainWindow, timeout: int = 60_000) -> None:
    """Until nothing is queued or running on any lane."""
    qtbot.waitUntil(lambda: not window.tasks.active(), timeout=timeout)


def index_folder(qtbot: QtBot, window: MainWindow, folder: Path, timeout: int = 60_000) -> None:
    with qtbot.waitSignal(window.indexing.idle, timeout=timeout):
        window.add_paths([folder])
    wait_idle(qtbot, window, timeout)


def make_corpus(root: Path, files: int, lines: int = 30) -> Path:
    for i in range(files):
        body = "\n".join(
            f"Line {n} of note {i}: the heron project tracks item {i * lines + n}." for n in range(lines)
        )
        write(root, f"part{i % 10}/note{i:04d}.md", f"# Note {i}\n\n{body}\n")
    return root


def finished(job: Job | None) -> bool:
    return job is not None and job.finished
