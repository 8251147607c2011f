"""Folders panel: the watched folders with their state and counts, add/remove, progress and Cancel.

Removing a folder asks first, saying how many files leave the index and that the files on disk stay; then
for ten seconds an Undo brings it back as it was (Indexing.remove_later), nothing indexed again.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.indexing import BUSY_STATES, READING_SCANS, TIMED, UNDO_MS, FolderView, Indexing
from desktop.names import file_name, keep, shown
from desktop.tasks import Job
from desktop.widgets.dialogs import PatternsDialog
from desktop.widgets.flow import FlowLayout
from engine.api import time_left

PATH_ROLE = Qt.ItemDataRole.UserRole
UNITS = {"indexing": "files", "vectors": "passages", READING_SCANS: "pages"}  # what done/total count
COUNTS_MIN = 40  # pixels the Indexed column keeps in a narrow pane (the start of "64 (+2 skipped)")
PHASES = {
    "scan": "Scanning",
    "lexical": "Keyword index",
    "vectors": "Vectors",
    "ocr": "Reading scans",
    "done": "Finishing",
}


class FoldersPanel(QWidget):
    explore = Signal()  # show the index explorer

    def __init__(self, indexing: Indexing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.indexing = indexing
        self.tree = FolderTree()
        self.add_button = QPushButton("Add folder…")
        self.remove_button = QPushButton("Remove")
        self.reindex_button = QPushButton("Re-index")
        self.patterns_button = QPushButton("&Patterns…")
        self.patterns_button.setToolTip("Include/exclude patterns of the selected folder (Ctrl+Shift+P)")
        self.patterns_action = QAction("Patterns…", self.tree)
        self.patterns_action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.patterns_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.tree.addAction(self.patterns_action)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.explore_button = QPushButton("Index explorer…")
        self.progress = QProgressBar()
        self.progress_label = QLabel("")
        self.progress_label.setObjectName("muted")
        self.progress_label.setWordWrap(True)  # a long file name wraps instead of widening the pane
        self.cancel_button = QPushButton("Cancel")
        self.confirm: QMessageBox | None = None  # the open "Remove folder?" question
        self.undo_bar = UndoBar()
        self._layout()
        self._wire()
        self._on_busy(None)

    def _layout(self) -> None:
        top = QHBoxLayout()
        title = QLabel("Folders")
        title.setObjectName("panelTitle")
        top.addWidget(title, 1)
        top.addWidget(self.add_button)
        actions = FlowLayout()  # wraps when the pane is narrow, so the pane can shrink (800x600 windows)
        for button in (self.remove_button, self.reindex_button, self.patterns_button, self.explore_button):
            actions.addWidget(button)
        busy = QHBoxLayout()
        busy.addWidget(self.progress, 1)
        busy.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.undo_bar)
        layout.addLayout(actions)
        layout.addLayout(busy)
        layout.addWidget(self.progress_label)

    def _wire(self) -> None:
        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self._remove_selected)
        self.reindex_button.clicked.connect(lambda: self.indexing.index(None))
        self.explore_button.clicked.connect(self.explore)
        self.patterns_button.clicked.connect(self.edit_patterns)
        self.patterns_action.triggered.connect(self.edit_patterns)
        self.cancel_button.clicked.connect(self.indexing.cancel)
        self.undo_bar.undo_button.clicked.connect(self.indexing.undo_removals)
        self.indexing.pending.connect(self.undo_bar.show_pending)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.indexing.changed.connect(self.redraw)
        self.indexing.busy.connect(self._on_busy)
        self.indexing.tasks.progress.connect(self._on_progress)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder to index")
        if folder:
            self.indexing.add([Path(folder)])

    def selected_path(self) -> str:
        item = self.tree.currentItem()
        return str(item.data(0, PATH_ROLE)) if item is not None else ""

    def _remove_selected(self) -> None:
        """Ask before removing: the folder's files leave the index (the files on disk are untouched)."""
        path = self.selected_path()
        if not path:
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Remove folder", _removal_question(path), parent=self)
        box.setInformativeText(_removal_detail(self.indexing.views.get(path)))
        box.addButton("Remove from index", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(lambda button: self._confirmed(path, box.buttonRole(button)))
        box.finished.connect(lambda _: setattr(self, "confirm", None))
        self.confirm = box
        box.open()

    def _confirmed(self, path: str, role: QMessageBox.ButtonRole) -> None:
        if role == QMessageBox.ButtonRole.DestructiveRole:
            self.indexing.remove_later(path)

    def edit_patterns(self) -> None:
        """Open the selected folder's include/exclude dialog, prefilled from the catalog (read lane)."""
        item = self.tree.currentItem()
        if item is not None:
            path = str(item.data(0, PATH_ROLE))
            self.indexing.patterns(path, lambda include, exclude: self._show_patterns(path, include, exclude))

    def _show_patterns(self, path: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> None:
        dialog = PatternsDialog(path, include, exclude, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(lambda inc, exc: self.indexing.set_patterns(path, inc, exc))
        dialog.open()

    def _update_buttons(self) -> None:
        selected = self.tree.currentItem() is not None
        for widget in (self.remove_button, self.patterns_button, self.patterns_action):
            widget.setEnabled(selected)

    # -- rendering ------------------------------------------------------------------------------------
    def redraw(self) -> None:
        views = sorted(self.indexing.views.values(), key=lambda v: v.path.lower())
        current = self.tree.currentItem()
        selected = str(current.data(0, PATH_ROLE)) if current is not None else None
        while self.tree.topLevelItemCount() > len(views):
            self.tree.takeTopLevelItem(self.tree.topLevelItemCount() - 1)
        for row, view in enumerate(views):
            item = self.tree.topLevelItem(row) or QTreeWidgetItem(self.tree)
            _fill(item, view)
            if view.path == selected:
                self.tree.setCurrentItem(item)
        self._update_buttons()
        self.tree.fit_columns()

    def _on_busy(self, job: Job | None) -> None:
        for widget in (self.progress, self.cancel_button, self.progress_label):
            widget.setVisible(job is not None)
        if job is not None:
            self.progress.setRange(0, 0)  # indeterminate until the first progress tick
            self.progress_label.setText(job.name.capitalize() + "…")

    def _on_progress(self, job: Job) -> None:
        event = job.progress
        if job is not self.indexing.current or event is None:
            return
        if event.total > 0:
            self.progress.setRange(0, event.total)
            self.progress.setValue(min(event.done, event.total))
        name = file_name(event.path) if event.path else ""
        counts = f"{event.done}/{event.total}" if event.total else ""
        eta = self.indexing.rates.eta(event) if event.phase in TIMED else None
        left = f" · {time_left(eta)}" if eta is not None else ""
        self.progress_label.setText(f"{PHASES.get(event.phase, event.phase)} {counts}{left}  {name}".strip())
        self.progress_label.setToolTip(shown(event.path))


class UndoBar(QFrame):
    """ "Removed “notes” from the index. [Undo]" while a removal can be undone (Ctrl+Z too, unless a text
    box has the focus and undoes its own typing)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("undoBar")
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.undo_button = QPushButton("Undo")
        self.undo_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Undo))
        self.undo_button.setToolTip(f"Bring the folder back as it was (for {UNDO_MS // 1000} s)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.undo_button)
        self.hide()

    def show_pending(self, paths: list[str]) -> None:
        names = ", ".join(f"“{file_name(p)}”" for p in paths)
        self.label.setText(f"Removed {names} from the index.")
        self.label.setToolTip("\n".join(shown(p) for p in paths))
        self.setVisible(bool(paths))


class FolderTree(QTreeWidget):
    """The folder list. Its columns share the width it has and it never scrolls sideways (share_widths);
    text that does not fit is elided, and each cell's tooltip has all of it."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("folders")
        self.setHeaderLabels(["Folder", "State", "Indexed"])
        self.setRootIsDecorated(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        wants = [max(self.sizeHintForColumn(c), self.header().sectionSizeHint(c)) for c in range(3)]
        for column, width in enumerate(share_widths(self.viewport().width(), wants)):
            self.setColumnHidden(column, width == 0)
            if width:
                self.setColumnWidth(column, width)


def share_widths(available: int, wants: list[int]) -> list[int]:
    """Widths of [name, state, counts] in `available` pixels. When all fit, the name takes what is left.
    Else the state comes first (it says what is happening and how long it takes): the name keeps what it
    wants up to a third, and the counts get what remains (elided), or 0 (hidden) when that is under
    COUNTS_MIN; the tooltips and the index explorer have them."""
    name, state, counts = wants
    if name + state + counts <= available:
        return [available - state - counts, state, counts]
    name = min(name, max(available // 3, available - state - COUNTS_MIN))
    state = min(state, available - name)
    counts = available - name - state
    return [name, state, counts] if counts >= COUNTS_MIN else [name, available - name, 0]


def _removal_question(path: str) -> str:
    return f"Remove “{file_name(path)}” from Citeline?"


def _removal_detail(view: FolderView | None) -> str:
    if view is None or not view.files:
        what = "Its files leave"
    else:
        plural = "s" if view.indexed != 1 else ""
        others = view.files - view.indexed
        what = f"Its {view.indexed} indexed file{plural}"
        what += f" (and {others} skipped or failed)" if others else ""
        what += " leave" if view.indexed != 1 or others else " leaves"
    return (
        f"{what} the index: searches and answers will no longer find them.\n\n"
        f"The files on disk are not touched. You can undo this for {UNDO_MS // 1000} seconds, and add the "
        "folder again at any time."
    )


def _fill(item: QTreeWidgetItem, view: FolderView) -> None:
    item.setText(0, file_name(view.path))
    item.setToolTip(0, shown(view.path))
    item.setData(0, PATH_ROLE, keep(view.path))
    item.setText(1, view.label + (" *" if view.detail else ""))
    unit = UNITS.get(view.state)
    item.setToolTip(
        1, view.detail or (f"{view.label}: {view.done} of {view.total} {unit}" if unit else view.label)
    )
    others = ", ".join(f"{n} {what}" for n, what in ((view.skipped, "skipped"), (view.failed, "failed")) if n)
    counts = f"{view.indexed}" + (f" (+{others})" if others else "")
    new = not view.files and view.state in BUSY_STATES  # no counts until its first keyword pass ends
    item.setText(2, "…" if new else counts)
    item.setToolTip(
        2, f"{view.indexed} indexed, {view.skipped} skipped, {view.failed} failed, {view.chunks} chunks"
    )
