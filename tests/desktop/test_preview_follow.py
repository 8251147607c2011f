"""A new question and the preview (issue 18 item 6): the previous answer's source does not stay open; the
preview is cleared, then shows the new evidence's first hit with the question's words marked, unless the
user opened something else meanwhile."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFont
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.highlight import TERM_COLOR
from desktop.widgets.preview import SourceTarget
from tests.conftest import write
from tests.desktop.conftest import index_folder, wait_idle


@pytest.fixture
def handbook(tmp_path: Path) -> Path:
    root = tmp_path / "handbook"
    write(root, "deploy.md", "# Deploying\n\nWe deploy with the zebracorn pipeline every Tuesday.\n")
    write(root, "leave.md", "# Leave\n\nEmployees accrue twenty days of quokka leave per year.\n")
    return root


def _ready(qtbot: QtBot, window: MainWindow, folder: Path) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, folder)


def _marked_words(window: MainWindow) -> set[str]:
    doc, words = window.preview.view.document(), set()
    block = doc.firstBlock()
    while block.isValid():
        for r in block.layout().formats():
            if r.format.background().color() == TERM_COLOR and r.format.fontWeight() >= QFont.Weight.Bold:
                words.add(block.text()[r.start : r.start + r.length])
        block = block.next()
    return words


def test_a_new_question_shows_its_own_first_evidence(
    qtbot: QtBot, window: MainWindow, handbook: Path
) -> None:
    _ready(qtbot, window, handbook)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("When do we deploy the zebracorn pipeline?")
    wait_idle(qtbot, window)
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):  # the user follows a citation
        window.preview.open_target(SourceTarget(str(handbook / "deploy.md"), 3, 3, quote="every Tuesday"))
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("How many days of quokka leave?")
        assert window.preview.title.text() == "No source open"  # at once: not the last answer's source
        assert window.preview.view.toPlainText() == ""
    qtbot.waitUntil(lambda: window.preview.title.text() == "leave.md", timeout=10_000)
    first = window.answer.evidence.item(0).toolTip()
    assert window.preview.target is not None and window.preview.target.path == first
    qtbot.waitUntil(lambda: _marked_words(window) >= {"quokka", "leave"})
    wait_idle(qtbot, window)  # the answer cites: its first citation shows, the question's words still marked
    qtbot.waitUntil(lambda: window.preview.target is not None and window.preview.target.cited)
    assert "cited as" in window.preview.target.note
    qtbot.waitUntil(lambda: _marked_words(window) >= {"quokka", "leave"})


def test_what_the_user_opens_meanwhile_stays(qtbot: QtBot, window: MainWindow, handbook: Path) -> None:
    _ready(qtbot, window, handbook)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("How many days of quokka leave?")
        window.preview.open_target(SourceTarget(str(handbook / "deploy.md"), 3, 3))
    wait_idle(qtbot, window)
    assert window.answer.evidence.count() > 0
    assert window.preview.title.text() == "deploy.md"
