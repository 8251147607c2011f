"""A drag source in its own process, as a file manager is: pressing the mouse on its window starts a real
drag (XDND under X11) offering exactly the bytes given, under text/uri-list (run by test_xdnd.py).

    python -m tests.desktop.xdnd_source X Y HEX_OF_URI_LIST

Prints "ready" once its window is mapped at (X, Y), then "dropped <action>" when the drag ends. It keeps
running after the drop, since the target reads the data from it then; the test ends it (or 60 s pass).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QByteArray, QMimeData, Qt, QTimer
from PySide6.QtGui import QDrag, QMouseEvent
from PySide6.QtWidgets import QApplication, QLabel

SIZE = 160


class Source(QLabel):
    def __init__(self, payload: bytes) -> None:
        super().__init__("drag me")
        self.payload = payload
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint)
        self.setFixedSize(SIZE, SIZE)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        mime = QMimeData()
        mime.setData("text/uri-list", QByteArray(self.payload))
        drag = QDrag(self)
        drag.setMimeData(mime)
        action = drag.exec(Qt.DropAction.CopyAction | Qt.DropAction.LinkAction, Qt.DropAction.CopyAction)
        print(f"dropped {action.name}", flush=True)
        # Stay up, as a file manager does: the target fetches the data from us after the drop.


def main(argv: list[str]) -> int:
    x, y, payload = int(argv[0]), int(argv[1]), bytes.fromhex(argv[2])
    app = QApplication(sys.argv[:1])
    source = Source(payload)
    source.move(x, y)
    source.show()
    QTimer.singleShot(300, lambda: print("ready", flush=True))
    QTimer.singleShot(60_000, app.quit)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
