"""The window stays usable at 800x600: long messages wrap instead of widening it, and a long question put in
the search box for the user shows its start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.preview import REFUSED_EVIDENCE, SourceTarget
from desktop.widgets.welcome import DEMO_QUESTIONS
from tests.desktop.conftest import index_folder, wait_idle


def _fits(label: QLabel) -> bool:
    """Every line of the label's text, laid out as the label lays it out, fits in its width."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    if label.textFormat().name == "PlainText":
        doc.setPlainText(label.text())
    else:
        doc.setHtml(label.text())
    doc.setTextWidth(label.contentsRect().width())
    return doc.idealWidth() <= label.contentsRect().width() + 1


def test_a_missing_model_message_wraps_and_never_widens_the_window(
    qtbot: QtBot,
    make_window: Callable[[], MainWindow],
    small_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))  # as on a machine without them
    window = make_window()  # the local model is missing too: the answer fails with its long message
    index_folder(qtbot, window, small_folder)
    qtbot.waitUntil(lambda: window.banner.isVisible() and "embedder model" in window.banner.text)
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("When do we deploy the zebracorn pipeline?")
    wait_idle(qtbot, window)
    assert "generator model" in window.answer.status.text()
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    assert window.minimumSizeHint().width() <= 800, window.minimumSizeHint()
    assert window.minimumSizeHint().height() <= 600, window.minimumSizeHint()  # wrapped, not made tall
    assert window.answer.minimumSizeHint().width() < 400
    assert window.banner.minimumSizeHint().width() < 400
    qtbot.wait(50)
    assert _fits(window.banner.label), window.banner.label.text()
    assert _fits(window.answer.status), window.answer.status.text()
    status = window.answer.status
    assert status.width() >= 0.9 * window.answer.width()  # a row of its own, not beside the buttons
    # every line shows (the layout settles the height a pass after the width; under load, later)
    qtbot.waitUntil(lambda: status.height() >= status.heightForWidth(status.width()), timeout=5_000)


def test_a_long_question_set_in_the_box_shows_its_start(qtbot: QtBot, window: MainWindow) -> None:
    """An example question (or a recent one) is put in the box for the user: at 800x600 the box is narrower
    than the question, and its first words are what must show."""
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    question = max(DEMO_QUESTIONS, key=len)
    window.examples.ask.emit(question)  # what clicking the example does
    box = window.search.box
    assert box.text() == question
    assert box.fontMetrics().horizontalAdvance(question) > box.width()  # it cannot all show
    assert box.cursorPosition() == 0
    assert box.cursorRect().left() < box.fontMetrics().horizontalAdvance("M") * 2
    wait_idle(qtbot, window)


def test_the_preview_header_wraps_a_long_note_at_800_by_600(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A refusal's closest passage says so in the preview's header: the note wraps there, it does not
    make the window wider than 800 px (under X11 a window grown so stays grown)."""
    path = tmp_path / "notes" / "2025-03-support-sync-with-the-whole-team.txt"
    path.parent.mkdir()
    path.write_text("\n".join(f"line {n} of the sync notes" for n in range(40)), encoding="utf-8")
    window.stack.setCurrentWidget(window.splitter)
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    target = SourceTarget(str(path), 10, 14, cited=False, note=REFUSED_EVIDENCE)
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.preview.open_target(target)
    qtbot.wait(50)
    assert window.preview.where.text().endswith(REFUSED_EVIDENCE)
    assert window.minimumSizeHint().width() <= 800, window.minimumSizeHint()
    assert window.preview.minimumSizeHint().width() < 400


def test_the_window_stays_800_by_600_with_the_banner_examples_undo_bar_and_a_conversation(
    qtbot: QtBot,
    make_window: Callable[[], MainWindow],
    small_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Everything that stacks above the panes shows at once (the missing-model banner, the example
    questions, the Undo bar of a removed folder) and a conversation is listed: the history pane gives way
    (its lists kept 70 px each and made the pane 250 px high, the window 602 px under X11)."""
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))
    window = make_window()
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    other = tmp_path / "other"
    other.mkdir()
    (other / "note.md").write_text("# Note\n\nnothing much\n", encoding="utf-8")
    index_folder(qtbot, window, small_folder)
    index_folder(qtbot, window, other)
    qtbot.waitUntil(lambda: window.banner.isVisible())
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("How do we roll back a deploy?")
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.history.list.count() == 1)
    window.examples.setVisible(True)  # as once the demo is indexed
    window.indexing.remove_later(str(other.resolve()))
    qtbot.waitUntil(window.folders.undo_bar.isVisible)
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.size().height() == 600 and window.width() == 800)
    qtbot.wait(50)
    central = window.centralWidget()
    width = central.contentsRect().width()
    above = sum(w.heightForWidth(width) for w in (window.banner, window.examples) if w.isVisible())
    needed = above + window.stack.minimumSizeHint().height() + 4 * central.layout().spacing()
    assert needed <= central.height(), (needed, central.height())
    assert window.history.minimumSizeHint().height() <= window.folders.minimumSizeHint().height() + 40
    history = window.history
    assert history.list.height() >= history.list.minimumHeight() > 0
    assert history.turn_list.height() >= history.turn_list.minimumHeight() > 0
    window.indexing.undo_removals()
    wait_idle(qtbot, window)
