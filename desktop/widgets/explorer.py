"""Index explorer: what the index holds, folder by folder.

Every file the index knows, indexed, skipped or failed, with the reason for each one not indexed; filtered
by folder, by state and by text; Retry reads the failed files shown again (Engine.retry through the
indexing chain, so vectors and the folder list follow).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.indexing import Indexing
from desktop.names import file_name, keep, shown
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.folders import FoldersPanel
from engine.api import Engine, FileRow

STATES = ("indexed", "skipped", "failed")
PATH_ROLE = Qt.ItemDataRole.UserRole
FOLDER_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ["File", "Status", "Chunks / reason", "Folder"]


@dataclass(frozen=True)
class Entry:
    folder: str  # the watched folder's path
    row: FileRow


@dataclass(frozen=True)
class Listing:
    folders: list[str]
    entries: list[Entry]

    def counts(self, folder: str = "") -> dict[str, int]:
        """Files per state, of one folder ("" for all)."""
        rows = [e.row for e in self.entries if not folder or e.folder == folder]
        return {state: sum(1 for r in rows if r.status == state) for state in STATES}


def list_files(engine: Engine) -> Listing:
    """Worker thread: every file of every watched folder, with its state and reason."""
    folders = {f.id: f.path for f in engine.folders()}
    entries = [Entry(folders.get(r.folder_id, ""), r) for r in engine.files()]
    return Listing(sorted(folders.values(), key=str.lower), entries)


def _relative(path: str, folder: str) -> str:
    try:
        return Path(path).relative_to(folder).as_posix()
    except ValueError:
        return path


class IndexExplorer(QDialog):
    def __init__(
        self,
        engine: Engine,
        tasks: TaskManager,
        parent: QWidget | None = None,
        indexing: Indexing | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Index explorer")
        self.resize(860, 540)
        self.engine = engine
        self.tasks = tasks
        # Retries go through the window's indexing chain when there is one (vectors, folder states).
        self.indexing = indexing or (parent.findChild(Indexing) if parent is not None else None)
        self.listing = Listing([], [])
        self._wanted_folder = _selected_folder(parent)
        self._retry: tuple[Job, list[str]] | None = None
        self.summary = QLabel("Loading…")
        self.folder_box = QComboBox()
        self.folder_box.setToolTip("Show the files of one folder")
        self.state_box = QComboBox()
        self.state_box.addItem("All states", "")
        for state in STATES:
            self.state_box.addItem(state.capitalize(), state)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by path or reason")
        self.filter.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(False)
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.retry_button = QPushButton("Retry failed")
        self.retry_button.setToolTip("Read the failed files shown again, even if they have not changed")
        self.note = QLabel("")
        self.note.setObjectName("muted")
        self._layout()
        self.folder_box.currentIndexChanged.connect(self._apply_filter)
        self.state_box.currentIndexChanged.connect(self._apply_filter)
        self.filter.textChanged.connect(self._apply_filter)
        self.retry_button.clicked.connect(self.retry_failed)
        tasks.finished.connect(self._on_finished)

    def _layout(self) -> None:
        filters = QHBoxLayout()
        filters.addWidget(self.folder_box, 2)
        filters.addWidget(self.state_box)
        filters.addWidget(self.filter, 3)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(filters)
        layout.addWidget(self.tree, 1)
        layout.addLayout(bottom)

    # -- loading --------------------------------------------------------------------------------------
    def load(self) -> None:
        self.tasks.read("listing indexed files", lambda job: list_files(self.engine), then=self._loaded)

    def _loaded(self, job: Job) -> None:
        if job.state is not State.DONE:
            self.summary.setText(f"{job.error} ({job.hint})" if job.hint else job.error)
            return
        self.listing = job.result
        self._fill_folders()
        self.tree.setSortingEnabled(False)
        self.tree.clear()
        for entry in self.listing.entries:
            self._add_item(entry)
        self.tree.setSortingEnabled(True)
        self._apply_filter()
        self._report_retry()

    def _fill_folders(self) -> None:
        current = self._folder() if self.folder_box.count() else self._wanted_folder
        self.folder_box.blockSignals(True)
        self.folder_box.clear()
        self.folder_box.addItem("All folders", "")
        for folder in self.listing.folders:
            self.folder_box.addItem(file_name(folder), keep(folder))
            self.folder_box.setItemData(
                self.folder_box.count() - 1, shown(folder), Qt.ItemDataRole.ToolTipRole
            )
        found = [i for i in range(1, self.folder_box.count()) if str(self.folder_box.itemData(i)) == current]
        self.folder_box.setCurrentIndex(found[0] if found else 0)
        self.folder_box.blockSignals(False)

    def _folder(self) -> str:
        """The chosen folder's real path ("" for all)."""
        data = self.folder_box.currentData()
        return str(data) if data else ""

    def _add_item(self, entry: Entry) -> None:
        row = entry.row
        detail = str(row.chunks) if row.status == "indexed" else (row.error or row.status)
        item = QTreeWidgetItem(
            self.tree, [shown(_relative(row.path, entry.folder)), row.status, detail, file_name(entry.folder)]
        )
        item.setData(0, PATH_ROLE, keep(row.path))
        item.setData(0, FOLDER_ROLE, keep(entry.folder))
        item.setToolTip(0, shown(row.path))
        item.setToolTip(2, detail)
        item.setToolTip(3, shown(entry.folder))

    # -- filtering ------------------------------------------------------------------------------------
    def _apply_filter(self) -> None:
        folder, state = self._folder(), self.state_box.currentData() or ""
        needle = self.filter.text().lower().strip()
        shown = failed = 0
        for item in self._items():
            hay = " ".join(item.text(c) for c in range(3)).lower()
            visible = (
                (not folder or str(item.data(0, FOLDER_ROLE)) == folder)
                and (not state or item.text(1) == state)
                and (not needle or needle in hay)
            )
            item.setHidden(not visible)
            shown += visible
            failed += visible and item.text(1) == "failed"
        self.tree.setColumnHidden(3, bool(folder))
        self._summarise(folder, shown)
        self.retry_button.setText(f"Retry {failed} failed" if failed else "Retry failed")
        self.retry_button.setEnabled(failed > 0 and self._retry is None)

    def _summarise(self, folder: str, shown: int) -> None:
        counts = self.listing.counts(folder)
        where = file_name(folder) if folder else f"{len(self.listing.folders)} folders"
        parts = ", ".join(f"{counts[s]} {s}" for s in STATES)
        total = sum(counts.values())
        self.summary.setText(f"{where}: {parts}" + (f" — {shown} shown" if shown != total else ""))

    def _items(self) -> list[QTreeWidgetItem]:
        found = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in found if item is not None]

    def shown_paths(self, state: str = "") -> list[str]:
        """Full paths of the rows shown (of one state)."""
        return [
            str(item.data(0, PATH_ROLE))
            for item in self._items()
            if not item.isHidden() and (not state or item.text(1) == state)
        ]

    # -- retry ----------------------------------------------------------------------------------------
    def retry_failed(self) -> None:
        paths = self.shown_paths("failed")
        if not paths or self._retry is not None:
            return
        if self.indexing is not None:
            job = self.indexing.retry(paths)
        else:
            job = self.tasks.write_stream(
                "retrying failed files", lambda cancelled: self.engine.retry(paths, cancelled=cancelled)
            )
        self._retry = (job, paths)
        self.retry_button.setEnabled(False)
        self.note.setText(f"Reading {len(paths)} failed file{'s' if len(paths) != 1 else ''} again…")

    def _on_finished(self, job: Job) -> None:
        if self._retry is not None and job is self._retry[0]:
            if job.state is not State.DONE:
                self.note.setText(f"Retry stopped: {job.error}" if job.error else "Retry stopped.")
            self.load()

    def _report_retry(self) -> None:
        if self._retry is None:
            return
        job, paths = self._retry
        self._retry = None
        if job.state is State.DONE:
            status = {e.row.path: e.row.status for e in self.listing.entries}
            after = [status.get(p, "removed") for p in paths]
            parts = ", ".join(f"{after.count(s)} {s}" for s in (*STATES, "removed") if after.count(s))
            self.note.setText(f"Read {len(paths)} again: {parts}.")
        self._apply_filter()


def _selected_folder(parent: QWidget | None) -> str:
    """The folder selected in the window's folder list, if any: the explorer opens on it."""
    panel = parent.findChild(FoldersPanel) if parent is not None else None
    return panel.selected_path() if panel is not None else ""
