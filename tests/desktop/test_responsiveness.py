"""UI-thread watchdog: a 20 ms QTimer must keep ticking while a folder is indexed and a question answered.

The gap is measured on the UI thread only. Indexing, embedding (ONNX), DuckDB and Tantivy all run on
worker threads; a long gap means something holds the GIL or blocks the event loop.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from tests.desktop.conftest import make_corpus, wait_idle

TICK_MS = 20
# A stall a user feels, not scheduler noise: on a loaded 2-core machine a 20 ms timer is sometimes
# 100-140 ms late with nothing blocking (measured on the code before and after a change alike); work
# done on the UI thread by mistake (an index write, an embedding, a model load) stalls it for seconds.
MAX_GAP_S = 0.250


class GapMeter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.gaps: list[float] = []

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        return max(self.gaps, default=0.0)


def test_ui_thread_never_stalls(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", 200, lines=8)
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    meter = GapMeter()
    meter.start()
    with qtbot.waitSignal(window.indexing.idle, timeout=180_000):
        window.add_paths([corpus])  # scan, keyword index, vectors (ONNX), watcher
    window.focus_search()
    qtbot.keyClicks(window.search.box, "heron project item 42")
    qtbot.waitUntil(lambda: window.search.results.count() > 0, timeout=30_000)
    with qtbot.waitSignal(window.answer.answered, timeout=120_000):
        qtbot.keyClick(window.search.box, Qt.Key.Key_Return)  # hybrid retrieval: embeds the question
    wait_idle(qtbot, window)
    worst = meter.stop()
    gaps = sorted(meter.gaps)
    p99 = gaps[int(len(gaps) * 0.99)]
    print(f"\nUI ticks: {len(gaps)}, max gap {worst * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")
    assert window.indexing.views[str(corpus)].indexed == 200
    assert worst < MAX_GAP_S, f"the UI thread stalled for {worst * 1000:.0f} ms"


def test_search_stays_quick_while_the_local_model_answers(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A real llama.cpp answer (the tiny model) runs while the user types a search: the UI thread keeps
    ticking, and the results come from the worker pool without waiting for the model (its thread runs
    at a lower priority, engine/backends/llama_cpp.py lower_priority)."""
    from desktop.widgets.search import DEBOUNCE_MS

    corpus = make_corpus(tmp_path / "corpus", 40, lines=8)
    window.engine.use_settings(
        window.engine.settings.model_copy(update={"generator": "local", "local_model": "generator-tiny"})
    )
    with qtbot.waitSignal(window.indexing.idle, timeout=180_000):
        window.add_paths([corpus])
    wait_idle(qtbot, window)
    window.ask("Which item does the heron project track on line 3 of note 7?")
    state = lambda: window.answer.state  # noqa: E731
    qtbot.waitUntil(
        lambda: state() is not None and state().progress is not None and state().progress.phase != "loading",
        timeout=60_000,
    )
    assert not state().done  # the model is reading or writing now
    meter = GapMeter()
    meter.start()
    window.focus_search()
    started = time.perf_counter()
    qtbot.keyClicks(window.search.box, "heron item 42")
    qtbot.waitUntil(lambda: window.search.results.count() > 0, timeout=10_000)
    waited = time.perf_counter() - started - DEBOUNCE_MS / 1000
    busy = state() is not None and not state().done
    worst = meter.stop()
    print(
        f"\nsearch while the model ran: {waited * 1000:.0f} ms after the debounce;",
        f"UI max gap {worst * 1000:.0f} ms",
    )
    assert busy, "the answer ended before the search: nothing was measured against the model"
    assert worst < MAX_GAP_S, f"the UI thread stalled for {worst * 1000:.0f} ms"
    assert waited < 1.0, f"search results took {waited:.2f} s while the model ran"
    # the model's threads run at nice 10: on a loaded machine they get what is left, so wait generously
    with qtbot.waitSignal(window.answer.answered, timeout=400_000):
        pass
