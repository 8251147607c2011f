"""The status bar says what is happening until everything is idle (a first-time user read "Adding folders:
done" while the folder was still being indexed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.tasks import Job
from tests.desktop.conftest import index_folder, make_corpus, wait_idle


def shown(window: MainWindow) -> str:
    """What the status bar shows: a flashed message covers the standing line."""
    line = getattr(window, "status_line", None)
    return window.statusBar().currentMessage() or (line.text() if line is not None else "")


def test_the_status_bar_follows_the_whole_chain_and_says_ready_only_when_idle(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = make_corpus(tmp_path / "heron notes", 120)
    seen: list[tuple[str, str]] = []  # (the running index job, what the bar showed)

    def look(_job: Job | None = None) -> None:
        current = window.indexing.current
        if current is not None and not current.finished:
            seen.append((current.name, shown(window)))

    window.tasks.progress.connect(look)
    window.indexing.busy.connect(look)
    with qtbot.waitSignal(window.indexing.idle, timeout=120_000):
        window.add_paths([folder])
    wait_idle(qtbot, window)
    assert seen, "no progress was seen"
    assert not [text for _job, text in seen if "done" in text.lower() or text.startswith("Ready")], seen
    texts = [text for _job, text in seen]
    assert any(t.startswith("Indexing “heron notes”: ") and " of 120 files" in t for t in texts), texts
    assert any(t.startswith("Computing vectors for “heron notes”: ") for t in texts), texts
    qtbot.waitUntil(lambda: shown(window).startswith("Ready"))


def test_ready_says_when_a_folder_has_keyword_search_only(
    qtbot: QtBot,
    make_window: Callable[[], MainWindow],
    small_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No embedder: the folder is searchable by keywords only; "every folder is indexed" overstates it."""
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))
    window = make_window()
    index_folder(qtbot, window, small_folder)
    qtbot.waitUntil(lambda: shown(window).startswith("Ready"))
    assert shown(window).startswith("Ready · “kb”: keyword search only"), shown(window)
