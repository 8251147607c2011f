"""First run: no folders yet. Offer the demo folder, a folder of one's own, or a drop."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

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
        hint = QLabel("…or drop a folder anywhere on this window.")
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
