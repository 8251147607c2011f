"""The real window in its own process, waiting for a drop from another one (run by test_xdnd.py).

    python -m tests.desktop.xdnd_target DATA_DIR

Shows the window at (0, 0), 800x600, over an empty data dir and prints "ready" once the folder list has
loaded. After a drop, once the folders are indexed, prints "indexed <json: folder -> files indexed>" and
quits. Everything from the drop on (drag enter, drop, add, index) is the app's own code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop.logs import setup_logging
from desktop.mainwindow import MainWindow
from engine.api import Engine

TIMEOUT_MS = 90_000


def main(argv: list[str]) -> int:
    home = Path(argv[0])
    setup_logging(home)
    app = QApplication(sys.argv[:1])
    window = MainWindow(Engine(home))
    window.setGeometry(0, 0, 800, 600)

    def indexed() -> None:
        if window.tasks.active():  # the status read that carries the counts may still be running
            QTimer.singleShot(100, indexed)
            return
        counts = {path: view.indexed for path, view in window.indexing.views.items()}
        print("indexed " + json.dumps(counts), flush=True)
        app.quit()

    window.indexing.empty.connect(lambda empty: print("ready", flush=True) if empty else None)
    window.indexing.idle.connect(indexed)
    window.show()
    QTimer.singleShot(TIMEOUT_MS, app.quit)
    app.exec()
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
