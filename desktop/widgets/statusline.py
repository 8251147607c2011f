"""The status bar's standing line: what the app is doing now (adding, scanning, indexing a folder, its
vectors, reading its scans, with counts and time left), and "Ready" only once every lane is idle.

A job that ends is not news while the chain it belongs to goes on: "Adding folders: done" while the same
folder is still being indexed told a first-time user the wrong thing. Failures and cancellations are
still flashed by the window (QStatusBar.showMessage covers this line for a few seconds).
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from desktop.indexing import TIMED, Indexing
from desktop.names import file_name
from desktop.tasks import Job, TaskManager
from engine.api import time_left
from engine.events import IndexProgress

PHASE_TEXT = {
    "scan": "Scanning {name}…",
    "lexical": "Indexing {name}: {done} of {total} files",
    "vectors": "Computing vectors for {name}: {done} of {total} passages",
    "ocr": "Reading scans in {name}: {done} of {total} pages",
}
READY = "Ready"
ALL_WATCHED = "Ready · every folder is indexed and watched for changes"


def activity(indexing: Indexing, tasks: TaskManager) -> str:
    """One line for the status bar, from the running index job's progress, else the writer's job."""
    job = indexing.current
    if job is not None and not job.finished:
        return _progress_text(indexing, job)
    writes = [j for j in tasks.active("write") if not j.finished]
    if writes:
        return writes[0].name.capitalize() + "…"
    views = indexing.views.values()
    noted = [v for v in views if v.detail]  # e.g. "keyword search only: the embedder model is missing"
    if noted:
        return f"{READY} · “{file_name(noted[0].path)}”: {noted[0].detail}"
    if views and all(v.state == "watching" for v in views):
        return ALL_WATCHED
    return READY


def _progress_text(indexing: Indexing, job: Job) -> str:
    event: IndexProgress | None = job.progress
    template = PHASE_TEXT.get(event.phase) if event is not None else None
    if event is None or template is None or not event.path:
        return job.name.capitalize() + "…"
    view = indexing.view_of(event.path)
    name = f"“{file_name(view.path if view else event.path)}”"
    text = template.format(name=name, done=f"{event.done:,}", total=f"{event.total:,}")
    eta = indexing.rates.eta(event) if event.phase in TIMED else None
    return text + (f" · {time_left(eta)}" if eta is not None else "")


class StatusLine(QLabel):
    """Kept current from the indexing signals and the task manager's ~10/s progress tick."""

    def __init__(self, indexing: Indexing, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(READY, parent)
        self.setObjectName("statusLine")
        # Ignored: a long folder name is cut at the window's edge, it never widens the window
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.indexing = indexing
        self.tasks = tasks
        for signal in (indexing.busy, indexing.changed, indexing.idle, tasks.progress, tasks.finished):
            signal.connect(self.refresh)

    def refresh(self, *_args: object) -> None:
        text = activity(self.indexing, self.tasks)
        if text != self.text():
            self.setText(text)
            self.setToolTip(text)
