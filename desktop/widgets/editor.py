"""Open in editor: the file in the system's default application, and what to do when none opens it.

QDesktopServices.openUrl returns False when nothing handles the file (no default application, no
xdg-open): the user is told so, with a hint, and offered the path to copy (path:line, which most editors'
"go to file" accept) and the containing folder to show. The log gets the details.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.names import file_name, file_url, shown

log = logging.getLogger(__name__)


def open_in_editor(path: str, line: int, parent: QWidget | None = None) -> bool:
    """Open `path` in its default application; when none does, open the fallback dialog (non-modal to the
    app, modal to the window) and return False."""
    if QDesktopServices.openUrl(file_url(path)):
        return True
    log.warning("no application opened %s", shown(path))
    dialog = EditorFallback(path, line, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return False


def show_in_folder(path: str) -> bool:
    """Open the folder that holds `path` in the file manager; False when nothing could."""
    folder = str(Path(path).parent)
    opened = QDesktopServices.openUrl(file_url(folder))
    if not opened:
        log.warning("no file manager opened %s", shown(folder))
    return opened


class EditorFallback(QDialog):
    """Says "Could not open x in an editor" with a hint; offers Copy path:line and Show in folder."""

    def __init__(self, path: str, line: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path, self.line = path, max(1, line)
        self.setWindowTitle("Open in editor")
        self.setObjectName("editorFallback")
        name = file_name(path)
        kind = f"{Path(path).suffix} files" if Path(path).suffix else "this file"
        self.message = _label(f"Could not open {name} in an editor.")
        bold = self.message.font()
        bold.setBold(True)
        self.message.setFont(bold)
        self.hint = _label(
            f"No application on this computer is set to open {kind}. Choose one in your system's "
            "default-applications settings, or copy the location and open it from your editor."
        )
        self.location = _label(self.place)
        self.location.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = _label("")
        self.status.setObjectName("muted")
        self._buttons()
        layout = QVBoxLayout(self)
        for widget in (self.message, self.hint, self.location, self.status):
            layout.addWidget(widget)
        layout.addWidget(self.box)
        self.setMinimumWidth(460)

    def _buttons(self) -> None:
        self.box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.box.rejected.connect(self.reject)
        self.copy_button = QPushButton("Copy path:line")
        self.folder_button = QPushButton("Show in folder")
        for button in (self.copy_button, self.folder_button):
            button.setAutoDefault(False)
            self.box.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_place)
        self.folder_button.clicked.connect(self.show_folder)

    @property
    def place(self) -> str:
        return f"{shown(self.path)}:{self.line}"

    def copy_place(self) -> None:
        QGuiApplication.clipboard().setText(self.place)
        self.status.setText("Copied to the clipboard.")

    def show_folder(self) -> bool:
        if show_in_folder(self.path):
            self.status.setText("Opened the folder in the file manager.")
            return True
        self.status.setText(
            f"Could not open the folder {shown(str(Path(self.path).parent))} either: no file manager is "
            "set up. "
            "Copy the path and open it from your editor or a terminal."
        )
        return False


def _label(text: str) -> QLabel:
    """A wrapping label that shows its text as it is (a file name is never read as markup)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label
