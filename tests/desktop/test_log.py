"""Help → Log records what the user did and what it cost: folders added and removed, index runs with their
counts and seconds, questions with their timings, errors."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.logs import log_path, setup_logging
from desktop.mainwindow import MainWindow
from desktop.widgets.dialogs import LogViewer
from engine.errors import CiteError
from tests.desktop.conftest import index_folder, wait_idle


@pytest.fixture
def log_file(window: MainWindow) -> Iterator[Path]:
    """The app's own log file in the test's data dir, detached again afterwards."""
    path = setup_logging(window.engine.home)
    yield path
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "baseFilename", None) == str(path):
            root.removeHandler(handler)
            handler.close()


def _ask(qtbot: QtBot, window: MainWindow, question: str) -> None:
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask(question)


def test_the_log_records_folders_index_runs_and_questions(
    qtbot: QtBot, window: MainWindow, small_folder: Path, log_file: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    _ask(qtbot, window, "What do we deploy with every Tuesday?")
    text = log_file.read_text(encoding="utf-8")
    assert f"folder added: {small_folder}" in text
    assert re.search(r"indexing done in \d+\.\d s: 4 indexed, 2 skipped, 0 removed", text), text
    assert re.search(r"computing vectors done in \d+\.\d s: \d+ chunks", text), text
    line = next(line for line in text.splitlines() if "What do we deploy" in line)
    assert "answered in" in line and "by extractive" in line
    assert re.search(r"timings: \w+ \d+ ms", line), line


def test_the_log_records_refusals_removals_and_errors(
    qtbot: QtBot, window: MainWindow, small_folder: Path, log_file: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    _ask(qtbot, window, "What is the airspeed of an unladen swallow?")
    with qtbot.waitSignal(window.tasks.finished, check_params_cb=lambda job: job.name == "adding folders"):
        window.add_paths([small_folder / "no-such-folder"])
    with qtbot.waitSignal(window.tasks.finished, check_params_cb=lambda job: job.name == "checking"):
        window.tasks.read("checking", _fails)
    with qtbot.waitSignal(window.indexing.changed):
        window.indexing.remove(str(small_folder))
    wait_idle(qtbot, window)
    text = log_file.read_text(encoding="utf-8")
    assert re.search(r"question 'What is the airspeed of an unladen swallow\?' refused", text), text
    assert f"could not add: {small_folder / 'no-such-folder'} does not exist." in text
    warning = "WARNING MainThread desktop.mainwindow: checking failed: The disk is full. (free some space)"
    assert warning in text
    assert f"folder removed: {small_folder}" in text


def _fails(job: object) -> None:
    raise CiteError("The disk is full.", "free some space")


def test_the_log_viewer_shows_an_index_run(
    qtbot: QtBot, window: MainWindow, small_folder: Path, log_file: Path
) -> None:
    index_folder(qtbot, window, small_folder)
    viewer = LogViewer(log_path(window.engine.home), window.tasks, window)
    qtbot.addWidget(viewer)
    qtbot.waitUntil(lambda: "indexing done in" in viewer.text.toPlainText())
    assert f"folder added: {small_folder}" in viewer.text.toPlainText()
