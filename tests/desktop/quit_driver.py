"""The real app, quit with Ctrl+Q while a job runs (run by tests/desktop/test_quit.py in a subprocess).

    python -m tests.desktop.quit_driver index FOLDER   # quit while FOLDER is being indexed
    python -m tests.desktop.quit_driver stuck          # quit while a job never reaches a cancellation point

Prints "quitting <epoch seconds>" as it presses the keys. Only the window class is extended, to reach
the window from inside the process; everything from the key press on (the Quit action, closeEvent,
shutdown, the app's exit) is the app's own code. The stuck job stands for a call that cannot be
interrupted, such as loading a model file.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest

import desktop.app
import desktop.mainwindow
from desktop.tasks import Job, State

STUCK_S = 60.0
NEVER_BUSY_S = 45.0  # no job seen running by then: say so and end, so the test fails instead of hanging


class QuittingWindow(desktop.mainwindow.MainWindow):
    mode = "index"
    folder: Path | None = None

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._busy: Job | None = None
        self._pressed = False
        self._watch = QTimer(self)
        self._watch.setInterval(20)
        self._watch.timeout.connect(self._quit_when_busy)
        self.first_shown.connect(self._start)
        QTimer.singleShot(int(NEVER_BUSY_S * 1000), self._never_busy)

    def _never_busy(self) -> None:
        if self._pressed:
            return
        started = "started" if self._watch.isActive() else "never started"
        job = self._busy.state if self._busy is not None else None
        print(f"never busy: {self.mode} {started}, job {job}", flush=True)
        os._exit(3)

    def _start(self) -> None:
        if self.mode == "stuck":
            self._busy = self.tasks.read("loading the model", lambda job: time.sleep(STUCK_S))
        elif self.folder is not None:
            self.add_paths([self.folder])
        self._watch.start()

    def _quit_when_busy(self) -> None:
        if not self._running():
            return
        self._watch.stop()
        self._pressed = True
        print(f"quitting {time.time():.3f}", flush=True)
        QTest.keyClick(self, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)

    def _running(self) -> bool:
        if self.mode == "stuck":
            return self._busy is not None and self._busy.state is State.RUNNING
        return any(job.progress is not None for job in self.tasks.active("write"))


def main(argv: list[str]) -> int:
    QuittingWindow.mode = argv[0]
    QuittingWindow.folder = Path(argv[1]) if len(argv) > 1 else None
    desktop.mainwindow.MainWindow = QuittingWindow  # type: ignore[misc]
    return desktop.app.main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
