"""An inline, dismissable error banner: the message and its hint, never a traceback, never modal."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


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
        return self.label.text()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
