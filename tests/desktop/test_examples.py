"""After the demo loads, three questions it answers are offered; clicking one asks it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.paths import copy_demo
from desktop.widgets.welcome import DEMO_QUESTIONS, ExampleQuestions
from engine.api import Engine
from tests.desktop.conftest import index_folder, wait_idle


@pytest.mark.parametrize("question", DEMO_QUESTIONS)
def test_the_demo_answers_each_example(engine: Engine, question: str) -> None:
    demo = copy_demo(engine.home)
    engine.add_folder(demo)
    engine.run(engine.sync())
    answer = engine.ask(question, generator="extractive")
    assert not answer.refused, f"{question!r} is refused: {answer.reason}"
    assert answer.sentences and all(s.citations for s in answer.sentences)


def _load_demo(qtbot: QtBot, window: MainWindow) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.welcome)
    assert not window.examples.isVisible()
    with qtbot.waitSignal(window.indexing.idle, timeout=120_000):
        qtbot.mouseClick(window.welcome.demo_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)


def _activate_link(qtbot: QtBot, examples: ExampleQuestions, number: int) -> None:
    """Tab to the link `number` inside the label and press Enter, as a keyboard user would."""
    examples.label.setFocus()
    for _ in range(number + 1):
        qtbot.keyClick(examples.label, Qt.Key.Key_Tab)
    qtbot.keyClick(examples.label, Qt.Key.Key_Return)


def test_examples_appear_once_the_demo_is_indexed_and_ask_when_chosen(
    qtbot: QtBot, window: MainWindow
) -> None:
    _load_demo(qtbot, window)
    assert window.examples.isVisible()
    text = window.examples.label.text()
    assert all(q in text for q in DEMO_QUESTIONS)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000) as blocker:
        _activate_link(qtbot, window.examples, 1)
    state = blocker.args[0]
    assert state.question == DEMO_QUESTIONS[1]
    assert window.search.box.text() == DEMO_QUESTIONS[1]
    assert state.final is not None and not state.final.refused
    assert window.recent_questions()[0] == DEMO_QUESTIONS[1]


@pytest.mark.parametrize("hide", [False, True], ids=["kept", "hidden"])
def test_examples_come_back_after_a_restart_unless_hidden(
    qtbot: QtBot, make_window: Callable[[], MainWindow], hide: bool
) -> None:
    first = make_window()
    _load_demo(qtbot, first)
    if hide:
        qtbot.mouseClick(first.examples.close_button, Qt.MouseButton.LeftButton)
        assert not first.examples.isVisible()
    first.shutdown()
    second = make_window()
    demo = str((second.engine.home / "demo").resolve())
    qtbot.waitUntil(
        lambda: (v := second.indexing.views.get(demo)) is not None and v.state == "watching", timeout=60_000
    )
    assert second.examples.isVisible() is not hide


def test_no_examples_for_a_folder_of_ones_own(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    assert not window.examples.isVisible()
