"""Small dialogs: the shortcut sheet, the log viewer, About."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeySequence
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLayout,
    QMessageBox,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine
from desktop.logs import tail
from desktop.names import file_name
from desktop.tasks import Job, State, TaskManager

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Ctrl+K", "Focus the search box from anywhere"),
    ("Enter (in the search box)", "Ask the question"),
    ("Down / Up", "Move through the results"),
    ("Enter (on a result)", "Open it in the preview"),
    ("Esc", "Back to the search box"),
    ("Ctrl+N", "New conversation: the next question stands alone"),
    ("Del (on a conversation)", "Delete it (asks first)"),
    ("Ctrl+O", "Add a folder"),
    ("Ctrl+Shift+P", "Include/exclude patterns of the selected folder"),
    ("Ctrl+Z", "Undo removing a folder (while it is offered)"),
    ("Ctrl+,", "Settings"),
    ("F1 or Ctrl+/", "This sheet"),
    ("Ctrl+Q", "Quit"),
)
ROW_PADDING = 10  # pixels above and below a row's text


def native(keys: str) -> str:
    """Show Ctrl as Cmd on macOS (QKeySequence does the mapping)."""
    if keys.startswith("Ctrl+"):
        return QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)
    return keys


class ShortcutSheet(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(SHORTCUTS), 2)
        table.setHorizontalHeaderLabels(["Keys", "Action"])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, action) in enumerate(SHORTCUTS):
            table.setItem(row, 0, QTableWidgetItem(native(keys)))
            table.setItem(row, 1, QTableWidgetItem(action))
        fit_to_contents(table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetFixedSize)  # the sheet is as big as its rows


def fit_to_contents(table: QTableWidget) -> None:
    """A short, fixed table shown whole: every row and column at its content's size, no scroll bars."""
    table.resizeColumnsToContents()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + ROW_PADDING)
    table.horizontalHeader().setStretchLastSection(True)
    table.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    for policy in (table.setVerticalScrollBarPolicy, table.setHorizontalScrollBarPolicy):
        policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)


class LogViewer(QDialog):
    def __init__(self, path: Path, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Log — {path}")
        self.resize(900, 560)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlainText("Loading…")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        tasks.read("reading the log", lambda job: tail(path), then=self._loaded)

    def _loaded(self, job: Job) -> None:
        text = job.result if job.state is State.DONE else job.error
        self.text.setPlainText(text or "The log is empty.")
        self.text.verticalScrollBar().setValue(self.text.verticalScrollBar().maximum())


class PatternsDialog(QDialog):
    """A folder's include and exclude globs, one per line (gitignore syntax)."""

    saved = Signal(list, list)  # include, exclude

    def __init__(
        self, path: str, include: tuple[str, ...], exclude: tuple[str, ...], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Patterns — {file_name(path)}")
        self.resize(460, 380)
        self.include = self._box(include, "only these, e.g.\n*.md\ndocs/")
        self.exclude = self._box(exclude, "never these, e.g.\n*.txt\nbuild/")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        note = QLabel(f"One glob per line, gitignore style, relative to {path}.")
        note.setObjectName("muted")
        note.setWordWrap(True)
        layout.addWidget(note)
        for text, box in (("&Include (empty: everything)", self.include), ("&Exclude", self.exclude)):
            label = QLabel(text)
            label.setBuddy(box)
            layout.addWidget(label)
            layout.addWidget(box, 1)
        layout.addWidget(buttons)

    @staticmethod
    def _box(lines: tuple[str, ...], placeholder: str) -> QPlainTextEdit:
        box = QPlainTextEdit("\n".join(lines))
        box.setPlaceholderText(placeholder)
        box.setTabChangesFocus(True)  # Tab moves on: the dialog stays keyboard-driven
        return box

    @staticmethod
    def lines(box: QPlainTextEdit) -> list[str]:
        return [line.strip() for line in box.toPlainText().splitlines() if line.strip()]

    def _save(self) -> None:
        self.saved.emit(self.lines(self.include), self.lines(self.exclude))
        self.accept()


def show_about(parent: QWidget, home: Path) -> None:
    QMessageBox.about(
        parent,
        "About Citeline",
        f"<h3>Citeline {engine.__version__}</h3>"
        "<p>Offline search and cited answers over your own folders. Nothing leaves this computer "
        "unless you choose the Claude generator.</p>"
        f"<p>Data: <code>{home}</code></p>",
    )
