"""Index explorer: every file the index knows, indexed or skipped, with the reason for each skip."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import Job, State, TaskManager
from engine.api import Engine, FileRow


@dataclass(frozen=True)
class Listing:
    indexed: list[FileRow]
    skipped: list[FileRow]  # skipped and failed, with FileRow.error as the reason


def list_files(engine: Engine) -> Listing:
    """Worker thread. Skips come from engine.status(), indexed files from engine.files()."""
    status = engine.status()
    indexed = [f for f in engine.files() if f.status == "indexed"]
    return Listing(indexed, list(status.skipped))


class IndexExplorer(QDialog):
    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Index explorer")
        self.resize(820, 520)
        self.engine = engine
        self.tasks = tasks
        self.summary = QLabel("Loading…")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by path or reason")
        self.filter.textChanged.connect(self._apply_filter)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["File", "Status", "Chunks / reason"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSortingEnabled(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree, 1)

    def load(self) -> None:
        self.tasks.read("listing indexed files", lambda job: list_files(self.engine), then=self._loaded)

    def _loaded(self, job: Job) -> None:
        if job.state is not State.DONE:
            self.summary.setText(f"{job.error} ({job.hint})" if job.hint else job.error)
            return
        listing: Listing = job.result
        self.tree.setSortingEnabled(False)
        self.tree.clear()
        for row in listing.skipped:
            QTreeWidgetItem(self.tree, [row.path, row.status, row.error or ""])
        for row in listing.indexed:
            QTreeWidgetItem(self.tree, [row.path, row.status, str(row.chunks)])
        self.tree.setSortingEnabled(True)
        indexed, skipped = len(listing.indexed), len(listing.skipped)
        self.summary.setText(f"{indexed} files indexed, {skipped} skipped or failed.")
        self._apply_filter(self.filter.text())

    def _apply_filter(self, text: str) -> None:
        needle = text.lower().strip()
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is None:
                continue
            hay = " ".join(item.text(c) for c in range(3)).lower()
            item.setHidden(bool(needle) and needle not in hay)
