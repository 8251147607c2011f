"""Screenshot of the real window: add the demo folder, ask a question, open the first citation, grab.

    python -m desktop.screenshot OUT.png [--question "..."] [--generator extractive] [--theme light]

Runs against a throw-away data dir unless --data-dir is given. Needs a display (or Xvfb / offscreen).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from desktop.answer_format import AnswerState
from desktop.compat import GuiThreadCollector
from desktop.logs import setup_logging
from desktop.mainwindow import MainWindow
from desktop.theme import apply_theme
from desktop.widgets.preview import SourceTarget
from engine.api import Engine

QUESTION = "How much does the Team plan cost?"
TIMEOUT_MS = 300_000


class Shot(QObject):
    """Drives the window through the demo: each step starts when the previous one signals."""

    def __init__(self, window: MainWindow, out: Path, question: str, drop: Path | None = None) -> None:
        super().__init__(window)
        self.window, self.out, self.question, self.drop = window, out, question, drop
        self.code = 1
        self._asked = False
        self._answered_yet = False
        window.indexing.empty.connect(self._on_empty)
        window.indexing.idle.connect(self._ask)
        window.answer.answered.connect(self._answered)
        window.preview.shown.connect(self._shown)

    def _on_empty(self, empty: bool) -> None:
        if not empty:
            return
        if self.drop is None:
            self.window.try_demo()
        else:
            drop_folder(self.window, self.drop)

    def _ask(self) -> None:
        if self._asked:
            return
        self._asked = True
        self.window.focus_search()
        self.window.search.set_query(self.question)
        self.window.ask(self.question)

    def _answered(self, state: AnswerState) -> None:
        self._answered_yet = True
        cited = [c for s in state.sentences for c in s.citations]
        if cited:
            c = cited[-1]
            self.window.preview.open_target(SourceTarget(c.path, c.start_line, c.end_line, c.page, c.quote))
        else:
            QTimer.singleShot(300, self.grab)

    def _shown(self, target: SourceTarget) -> None:
        if not self._answered_yet:  # the evidence's first source, shown while a model still writes
            return
        QTimer.singleShot(300, self.grab)  # let the last layout and paint settle

    def grab(self) -> None:
        self.code = 0 if self.window.grab().save(str(self.out)) else 1
        print(f"saved {self.out}" if self.code == 0 else f"could not write {self.out}")
        QApplication.quit()


def drop_folder(window: MainWindow, folder: Path) -> None:
    """Deliver a real drag-enter and drop of the folder's URL, as a file manager would."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder.resolve()))])
    centre = QPointF(window.rect().center())
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, QDragEnterEvent(centre, *args))
    QApplication.sendEvent(window, QDropEvent(centre, *args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m desktop.screenshot")
    parser.add_argument("out", type=Path)
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--generator", default="extractive", choices=["local", "claude", "extractive"])
    parser.add_argument("--theme", default="light", choices=["system", "light", "dark"])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--drop", type=Path, default=None, help="drop this folder on the window (else: demo)")
    args = parser.parse_args(argv)
    home = args.data_dir or Path(tempfile.mkdtemp(prefix="citeline-shot-"))
    setup_logging(home)
    app = QApplication(sys.argv[:1])
    collector = GuiThreadCollector()  # noqa: F841 (kept for the timer's life)
    apply_theme(app, args.theme)
    engine = Engine(home)
    engine.settings = engine.settings.model_copy(update={"generator": args.generator})
    window = MainWindow(engine)
    window.resize(1440, 900)
    shot = Shot(window, args.out.resolve(), args.question, args.drop)
    window.show()
    QTimer.singleShot(TIMEOUT_MS, lambda: (print("timed out"), QApplication.quit()))
    app.exec()
    window.shutdown()
    return shot.code


if __name__ == "__main__":
    sys.exit(main())
