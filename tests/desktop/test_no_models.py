"""Asking without the model files, as on a machine that has none yet: the keyword evidence is quoted (no
failure on the embedder that only sharpens the ranking), the conversation is kept and continued, and an
answer that fails leaves the history pane pointing at no thread that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.answer_format import AnswerState
from desktop.mainwindow import MainWindow
from desktop.tasks import Job, State
from tests.desktop.conftest import index_folder, wait_idle


@pytest.fixture
def bare(
    qtbot: QtBot,
    make_window: Callable[[], MainWindow],
    small_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> MainWindow:
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))
    window = make_window()
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    return window


def ask(qtbot: QtBot, window: MainWindow, question: str) -> AnswerState:
    window.focus_search()
    window.search.box.setText(question)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000) as blocker:
        qtbot.keyClick(window.search.box, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    state: AnswerState = blocker.args[0]
    return state


def failed_jobs(window: MainWindow) -> list[str]:
    seen: list[str] = []

    def record(job: Job) -> None:
        if job.state is State.FAILED:
            seen.append(f"{job.name}: {job.error}")

    window.tasks.finished.connect(record)
    return seen


def test_without_the_embedder_a_question_is_answered_from_keyword_evidence_in_a_thread(
    qtbot: QtBot, bare: MainWindow
) -> None:
    failures = failed_jobs(bare)
    first = ask(qtbot, bare, "How do we roll back a deploy?")
    assert first.error is None, first.error
    assert first.final is not None and not first.final.refused, first.final
    assert "make rollback" in first.final.text and first.final.sentences[0].citations
    history = bare.history
    qtbot.waitUntil(lambda: history.list.count() == 1 and history.turn_list.count() == 1)
    second = ask(qtbot, bare, "and who do we notify?")
    assert second.error is None, second.error
    qtbot.waitUntil(lambda: history.turn_list.count() == 2)
    assert [t.turns for t in bare.engine.threads()] == [2]
    assert failures == [] and "no thread" not in history.note.text()


def test_an_answer_that_fails_in_a_new_thread_leaves_none_behind(qtbot: QtBot, bare: MainWindow) -> None:
    """The local model is missing too: the answer fails with that message, the engine deletes the thread it
    had begun, and the pane must not go on to open it ("There is no thread 1") or send the next question
    there."""
    failures = failed_jobs(bare)
    bare.engine.settings = bare.engine.settings.model_copy(update={"generator": "local"})
    state = ask(qtbot, bare, "How do we roll back a deploy?")
    assert state.error is not None and "generator model" in state.error[0]
    assert bare.history.current is None
    assert not [f for f in failures if not f.startswith("answering")], failures
    assert "no thread" not in bare.history.note.text()
    bare.engine.settings = bare.engine.settings.model_copy(update={"generator": "extractive"})
    again = ask(qtbot, bare, "How do we roll back a deploy?")
    assert again.error is None and again.final is not None and not again.final.refused
    assert [t.turns for t in bare.engine.threads()] == [1]
