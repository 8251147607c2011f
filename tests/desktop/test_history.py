"""The history pane (issue 19): questions asked in the window form threads, follow-ups search with the
thread, threads are listed, searched, continued, renamed, deleted and exported, and an old answer whose
cited file changed says so."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from desktop.answer_format import AnswerState
from desktop.mainwindow import MainWindow
from desktop.widgets.history import CHANGED, THREAD_ROLE
from tests.conftest import write
from tests.desktop.conftest import index_folder, wait_idle

pytestmark = [pytest.mark.models, pytest.mark.slow]

PTO = (
    "# Paid time off\n\nSenior engineers accrue 25 days of paid leave per year.\n\n"
    "## Carryover\n\nUnused PTO days carry over into the next year, up to a limit of 5 days.\n"
)
TRAVEL = "# Travel\n\nEach traveller may carry over 2 bags above the weight limit, for a fee.\n"
DEPLOY = (
    "# Deploying\n\nWe deploy every Tuesday.\n\n## Rollback\n\nTo roll back a deploy, run make rollback.\n"
)


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    write(root, "hr/pto.md", PTO)
    write(root, "travel/bags.md", TRAVEL)
    write(root, "eng/deploy.md", DEPLOY)
    return root


@pytest.fixture
def ready(qtbot: QtBot, window: MainWindow, kb: Path) -> MainWindow:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, kb)
    return window


def ask(qtbot: QtBot, window: MainWindow, question: str) -> AnswerState:
    window.focus_search()
    window.search.box.setText(question)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000) as blocker:
        qtbot.keyClick(window.search.box, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    state: AnswerState = blocker.args[0]
    assert state.final is not None
    return state


def titles(window: MainWindow) -> list[str]:
    items = [window.history.list.item(i) for i in range(window.history.list.count())]
    return [item.data(THREAD_ROLE).title for item in items]


def test_questions_form_a_thread_and_a_follow_up_searches_with_it(qtbot: QtBot, ready: MainWindow) -> None:
    history = ready.history
    first = ask(qtbot, ready, "How many PTO days do senior engineers get?")
    assert not first.final.refused  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: titles(ready) == ["How many PTO days do senior engineers get?"])
    assert history.list.item(0).text().endswith("· 1 question")
    assert history.note.text() == "1 conversation kept"  # was "1 kept": one what?
    follow = ask(qtbot, ready, "and how many can they carry over?")
    assert "5 days" in follow.final.text  # type: ignore[union-attr]
    answer = ready.answer  # the question in its heading; what it was searched as under it, muted
    assert answer.question.text() == "and how many can they carry over?"
    assert answer.searched.isVisible() and answer.searched.objectName() == "muted"
    assert answer.searched.text().startswith("searched: and how many can they carry over? (")
    qtbot.waitUntil(lambda: history.turn_list.count() == 2)
    assert history.list.item(0).text().endswith("· 2 questions") and len(titles(ready)) == 1
    assert "searched: and how many can they carry over? (" in history.turn_list.item(1).toolTip()
    history.turn_list.itemClicked.emit(history.turn_list.item(0))  # the first answer has no such line
    assert answer.question.text() == "How many PTO days do senior engineers get?"
    assert not answer.searched.isVisible()
    history.turn_list.itemClicked.emit(history.turn_list.item(1))  # the stored follow-up keeps it
    assert answer.searched.isVisible() and answer.searched.text().startswith("searched: and how many")
    ready.history.new_conversation()
    ask(qtbot, ready, "How do we roll back a deploy?")
    qtbot.waitUntil(lambda: len(titles(ready)) == 2)
    assert titles(ready)[0] == "How do we roll back a deploy?"  # the latest first
    assert [t.turns for t in ready.engine.threads()] == [1, 2]


def test_threads_are_searched_continued_renamed_deleted_and_kept_across_a_restart(
    qtbot: QtBot, ready: MainWindow, make_window: Callable[[], MainWindow]
) -> None:
    history = ready.history
    ask(qtbot, ready, "How many PTO days do senior engineers get?")
    history.new_conversation()
    ask(qtbot, ready, "How do we roll back a deploy?")
    qtbot.waitUntil(lambda: len(titles(ready)) == 2)
    history.search_box.setText("senior")
    qtbot.waitUntil(lambda: titles(ready) == ["How many PTO days do senior engineers get?"])
    assert history.note.text() == "1 conversation matching “senior”"
    history.list.setCurrentRow(0)  # continue it: its answer opens, the next question follows up
    qtbot.waitUntil(lambda: ready.answer.question.text() == "How many PTO days do senior engineers get?")
    follow = ask(qtbot, ready, "and how many can they carry over?")
    assert "5 days" in follow.final.text  # type: ignore[union-attr]
    history.search_box.clear()
    qtbot.waitUntil(lambda: len(titles(ready)) == 2 and history.list.currentRow() == 0)
    history.rename_current()
    history.list.currentItem().setText("Leave")  # what the inline editor commits
    qtbot.waitUntil(lambda: titles(ready) == ["Leave", "How do we roll back a deploy?"])
    history.list.setCurrentRow(1)
    history.ask_delete()
    box = history.confirm
    assert isinstance(box, QMessageBox) and "not touched" in box.text()
    delete = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)
    delete.click()
    qtbot.waitUntil(lambda: titles(ready) == ["Leave"])
    ready.shutdown()
    again = make_window()
    qtbot.waitUntil(lambda: titles(again) == ["Leave"])
    assert again.history.list.item(0).text().endswith("· 2 questions")


def test_an_old_answer_opens_with_its_changed_source_marked(
    qtbot: QtBot, ready: MainWindow, kb: Path
) -> None:
    history = ready.history
    ask(qtbot, ready, "How many PTO days do senior engineers get?")
    qtbot.waitUntil(lambda: history.turn_list.count() == 1)
    assert "⚠" not in history.turn_list.item(0).text()
    assert CHANGED not in history.turn_list.item(0).toolTip()
    (kb / "hr/pto.md").write_text(PTO.replace("25 days", "27 days"), encoding="utf-8")
    history.new_conversation()
    history.list.setCurrentRow(0)
    qtbot.waitUntil(lambda: history.turn_list.count() == 1 and "⚠" in history.turn_list.item(0).text())
    tip = history.turn_list.item(0).toolTip()
    assert f"{CHANGED} since this answer: {(kb / 'hr/pto.md').resolve()}" in tip
    assert ready.answer.status.text().startswith(f"⚠ {CHANGED} since this answer (")
    assert ready.answer.status.text().endswith("): pto.md")
    assert "25 days" in ready.answer.browser.toPlainText()  # the answer as it was given


def test_a_thread_and_one_answer_export_to_markdown_and_json(
    qtbot: QtBot, ready: MainWindow, tmp_path: Path
) -> None:
    history = ready.history
    ask(qtbot, ready, "How many PTO days do senior engineers get?")
    ask(qtbot, ready, "and how many can they carry over?")
    qtbot.waitUntil(lambda: history.turn_list.count() == 2 and history.list.currentItem() is not None)
    history.export_to(tmp_path / "t.md", "markdown")
    history.export_to(tmp_path / "t.json", "json")
    history.turn_list.setCurrentRow(0)
    history.export_to(tmp_path / "one.md", "markdown", one_answer=True)
    wait_idle(qtbot, ready)
    text = (tmp_path / "t.md").read_text(encoding="utf-8")
    assert text.startswith("# How many PTO days do senior engineers get?") and "pto.md:" in text
    assert "  > Senior engineers accrue 25 days of paid leave per year." in text
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert [t["question"] for t in data["turns"]][1] == "and how many can they carry over?"
    assert "carry" not in (tmp_path / "one.md").read_text(encoding="utf-8")
    assert history.note.text().startswith(f"Exported to {tmp_path}")  # the three ran side by side
