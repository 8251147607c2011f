"""An inline, dismissable error banner: the message and its hint, never a traceback, never modal.

It wraps, long paths and model names included (desktop.wrap), and never sets the window's minimum width.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from desktop.wrap import breakable, unbroken


class ErrorBanner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.label = QLabel("")
        self.label.setWordWrap(True)
        close = QPushButton("Dismiss")
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self.hide()

    def show_error(self, message: str, hint: str = "") -> None:
        hint = hint.strip().rstrip(".")
        self.label.setText(
            f"<b>{_escape(message)}</b>" + (f"<br>{_escape(hint[:1].upper() + hint[1:])}." if hint else "")
        )
        self.show()

    @property
    def text(self) -> str:
        return unbroken(self.label.text())


def _escape(text: str) -> str:
    return breakable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
