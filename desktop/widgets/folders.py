"""Folders panel: the watched folders with their state and counts, add/remove, progress and Cancel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.indexing import FolderView, Indexing
from desktop.tasks import Job
from desktop.widgets.dialogs import PatternsDialog

PATH_ROLE = Qt.ItemDataRole.UserRole
PHASES = {"scan": "Scanning", "lexical": "Keyword index", "vectors": "Vectors", "done": "Finishing"}


class FoldersPanel(QWidget):
    explore = Signal()  # show the index explorer

    def __init__(self, indexing: Indexing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.indexing = indexing
        self.tree = QTreeWidget()
        self.tree.setObjectName("folders")
        self.tree.setHeaderLabels(["Folder", "State", "Indexed"])
        self.tree.setRootIsDecorated(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)
        for column in (1, 2):
            self.tree.header().setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
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
        self.cancel_button = QPushButton("Cancel")
        self._layout()
        self._wire()
        self._on_busy(None)

    def _layout(self) -> None:
        top = QHBoxLayout()
        title = QLabel("Folders")
        title.setObjectName("panelTitle")
        top.addWidget(title, 1)
        top.addWidget(self.patterns_button)
        top.addWidget(self.add_button)
        actions = QHBoxLayout()
        for button in (self.remove_button, self.reindex_button, self.explore_button):
            actions.addWidget(button)
        actions.addStretch(1)
        busy = QHBoxLayout()
        busy.addWidget(self.progress, 1)
        busy.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
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
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.indexing.changed.connect(self.redraw)
        self.indexing.busy.connect(self._on_busy)
        self.indexing.tasks.progress.connect(self._on_progress)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder to index")
        if folder:
            self.indexing.add([Path(folder)])

    def _remove_selected(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self.indexing.remove(str(item.data(0, PATH_ROLE)))

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
        selected = current.data(0, PATH_ROLE) if current is not None else None
        while self.tree.topLevelItemCount() > len(views):
            self.tree.takeTopLevelItem(self.tree.topLevelItemCount() - 1)
        for row, view in enumerate(views):
            item = self.tree.topLevelItem(row) or QTreeWidgetItem(self.tree)
            _fill(item, view)
            if view.path == selected:
                self.tree.setCurrentItem(item)
        self._update_buttons()

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
        name = Path(event.path).name if event.path else ""
        counts = f"{event.done}/{event.total}" if event.total else ""
        self.progress_label.setText(f"{PHASES.get(event.phase, event.phase)} {counts}  {name}".strip())


def _fill(item: QTreeWidgetItem, view: FolderView) -> None:
    item.setText(0, Path(view.path).name or view.path)
    item.setToolTip(0, view.path)
    item.setData(0, PATH_ROLE, view.path)
    item.setText(1, view.label + (" *" if view.detail else ""))
    item.setToolTip(1, view.detail or view.label)
    others = ", ".join(f"{n} {what}" for n, what in ((view.skipped, "skipped"), (view.failed, "failed")) if n)
    item.setText(2, f"{view.indexed}" + (f" (+{others})" if others else ""))
    item.setToolTip(
        2, f"{view.indexed} indexed, {view.skipped} skipped, {view.failed} failed, {view.chunks} chunks"
    )
