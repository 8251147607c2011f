"""First run: no folders yet. Offer the demo folder, a folder of one's own, or a drop; once the demo is
indexed, offer questions it answers."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QIcon, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from desktop.paths import icon_path


class WelcomePage(QWidget):
    try_demo = Signal()
    add_folder = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        icon = QLabel()
        icon.setPixmap(QIcon(str(icon_path())).pixmap(96, 96))
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel("Welcome to Citeline")
        title.setObjectName("welcomeTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = QLabel(
            "Point Citeline at your folders. It indexes them on this computer, then answers questions "
            "with citations down to the file and line.\n"
            "Nothing leaves your machine unless you choose the Claude generator."
        )
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.demo_button = QPushButton("Try the demo folder")
        self.demo_button.setDefault(True)
        self.demo_button.clicked.connect(self.try_demo)
        self.add_button = QPushButton("Add a folder…")
        self.add_button.clicked.connect(self.add_folder)
        hint = QLabel("…or drop folders or files anywhere on this window (a file is indexed on its own).")
        hint.setObjectName("muted")
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.demo_button)
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        for widget in (icon, title, text):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        layout.addStretch(3)


# Questions the demo folder answers (tests/desktop/test_examples.py asks each through the engine): a price
# that two files disagree on, a fact stated in the docs, and a figure from a how-to.
DEMO_QUESTIONS = (
    "How much does the Team plan cost?",
    "What port does the agent listen on?",
    "How long does a whole laptop restore take?",
)


class ExampleQuestions(QFrame):
    """A line of questions to try, each a link that asks it (Tab reaches them, Enter asks); × hides it.

    A label, not a row of buttons: it wraps, so three long questions never widen the window."""

    ask = Signal(str)
    dismissed = Signal()

    def __init__(self, questions: tuple[str, ...] = DEMO_QUESTIONS, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("examples")
        self.questions = questions
        self.label = QLabel()
        self._write()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.label.linkActivated.connect(lambda href: self.ask.emit(self.questions[int(href)]))
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setToolTip("Hide these examples")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self._dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 2, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def _write(self) -> None:
        """The links in the palette's link colour: a rich-text label keeps the colour it was given when its
        text was set, so a theme change rewrites it (else dark blue links stay on a dark window)."""
        color = self.palette().color(QPalette.ColorRole.Link).name()
        links = " &nbsp;·&nbsp; ".join(
            f'<a href="{n}" style="color:{color}">{html.escape(q)}</a>' for n, q in enumerate(self.questions)
        )
        self.label.setText(f"Try asking: &nbsp;{links}")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._write()

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
