"""A refusal cites nothing: the evidence the preview opens for it is shown as the closest passage, not
cited, in the passage tint; only a citation gets the citation's tint (first-time-user review, issue 18)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QTextCharFormat
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.theme import LIGHT_CODE
from desktop.widgets.codeview import CodeView
from tests.desktop.conftest import index_folder, wait_idle


def _span_color(view: CodeView) -> str:
    full = [
        s
        for s in view.extraSelections()
        if s.format.boolProperty(QTextCharFormat.Property.FullWidthSelection)
    ]
    return full[0].format.background().color().name() if full else ""


def _answer(qtbot: QtBot, window: MainWindow, question: str) -> object:
    with qtbot.waitSignal(window.answer.answered, timeout=60_000) as blocker:
        window.ask(question)
    wait_idle(qtbot, window)
    return blocker.args[0]


def test_a_refusal_shows_its_closest_passage_as_not_cited(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    state = _answer(qtbot, window, "What is the airspeed of an unladen swallow?")
    assert getattr(state, "refused", False) and window.answer.evidence.count() > 0
    preview = window.preview
    qtbot.waitUntil(lambda: preview.target is not None and _span_color(preview.view) != "")
    assert _span_color(preview.view) == LIGHT_CODE.passage  # not the amber of a citation
    assert "not cited" in preview.where.text() and "refused" in preview.where.text()
    assert "not cited" in window.answer.evidence_title.text()
    with qtbot.waitSignal(preview.shown, timeout=10_000):  # another of its passages, chosen by the user
        window.answer.evidence.itemClicked.emit(
            window.answer.evidence.item(window.answer.evidence.count() - 1)
        )
    assert _span_color(preview.view) == LIGHT_CODE.passage
    assert "closest passage" in preview.where.text() and "not cited" in preview.where.text()


def test_an_answer_shows_its_first_citation_in_the_cited_tint(
    qtbot: QtBot, window: MainWindow, small_folder: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, small_folder)
    state = _answer(qtbot, window, "When do we deploy the zebracorn pipeline?")
    cited = [c for s in getattr(state, "shown", []) for c in s.citations]
    assert cited, "the question is answered with a citation"
    preview = window.preview
    qtbot.waitUntil(lambda: preview.target is not None and preview.target.cited, timeout=10_000)
    qtbot.waitUntil(lambda: _span_color(preview.view) == LIGHT_CODE.span)
    assert preview.target.path == cited[0].path and f"cited as [{cited[0].source}]" in preview.where.text()


def test_evidence_of_an_answer_that_failed_is_not_cited_and_not_promised(
    qtbot: QtBot,
    make_window: Callable[[], MainWindow],
    small_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No models: the evidence is found by keywords, the answer fails (the local generator's model is
    missing); the evidence shown does not say "not cited yet" as if a citation were still coming."""
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))
    window = make_window()
    update = {"generator": "local", "quote_fallback": False}  # no quoted draft: nothing is cited
    window.engine.settings = window.engine.settings.model_copy(update=update)
    index_folder(qtbot, window, small_folder)
    state = _answer(qtbot, window, "When do we deploy the zebracorn pipeline?")
    assert getattr(state, "error", None) is not None
    preview = window.preview
    assert window.answer.evidence.count() > 0  # found by keywords
    qtbot.waitUntil(lambda: preview.target is not None and "loading" not in preview.where.text())
    assert preview.where.text().endswith("evidence [1], not cited")
    assert _span_color(preview.view) == LIGHT_CODE.passage
