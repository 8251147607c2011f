"""The indexing pipeline as the window sees it: add -> keyword index -> vectors -> reading scans (OCR of
images and pages without text, then their vectors) -> watch.

Every step is a job on the one writer lane; each one queues the next when it finishes. Each folder has its
own state (scanning, indexing n%, keyword-ready, vectors n%, reading scans n%, ready, watching, error),
derived from the polled progress, whose events name the folder they count: a job touches only the folders
it works on, so a finished folder stays finished while another is added. The phase's time left comes from
the rates this run measured (engine.progress.PhaseRates); there is none before a rate is known.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from desktop.names import file_name, shown
from desktop.tasks import Job, State, TaskManager
from engine.api import Engine, FolderWatcher, PhaseRates, Status, time_left
from engine.errors import CiteError
from engine.events import IndexProgress

log = logging.getLogger(__name__)
BUSY_STATES = ("queued", "scanning", "indexing")
REMOVING = "removing "  # the name of a removal job, before the folder's
UNDO_MS = 10_000  # how long a removal can be undone
PENDING_KEY = "folders/pending_removal"  # desktop.ini: removals asked for and not yet done (a crash, a quit)


READING_SCANS = "reading scans"  # OCR of images and pages without a text layer, after the vectors
PHASE_STATES = {"scan": "scanning", "lexical": "indexing", "vectors": "vectors", "ocr": READING_SCANS}
COUNTED = ("indexing", "vectors", READING_SCANS)  # states shown with a percent and a time left
TIMED = ("lexical", "vectors", "ocr")  # progress phases with a measured rate, so a time left


@dataclass
class FolderView:
    path: str
    state: str = "queued"  # queued|scanning|indexing|keyword-ready|vectors|ready|watching|cancelled|error
    percent: int = 0
    detail: str = ""
    files: int = 0
    indexed: int = 0
    skipped: int = 0
    failed: int = 0
    chunks: int = 0
    done: int = 0  # of the current phase: files (keyword index), chunk texts (vectors) or pages (OCR)
    total: int = 0
    eta_s: float | None = None  # the current phase's seconds left, None until a rate is measured
    resume: str = ""  # the state to return to when its scans are read (ready, or keyword-ready)

    @property
    def label(self) -> str:
        if self.state in COUNTED:
            left = f" · {time_left(self.eta_s)}" if self.eta_s is not None else ""
            return f"{self.state} {self.percent}%{left}"
        return self.state

    def enter(self, state: str, detail: str = "") -> None:
        """A new state: the previous phase's counts and time left no longer apply."""
        self.state, self.detail, self.eta_s = state, detail, None
        self.percent = self.done = self.total = 0


@dataclass
class AddResult:
    """What an add job did: folders now watched, single paths to sync, per-path errors."""

    roots: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)


def _escape_glob(name: str) -> str:
    return re.sub(r"([\[\]*?\\!#])", r"\\\1", name)


def add_paths(engine: Engine, paths: Iterable[Path]) -> AddResult:
    """Writer thread: add folders; sync a watched file, or add an unwatched file's folder for it alone."""
    out = AddResult()
    for raw in paths:
        path = raw.expanduser().resolve()
        try:
            if path.is_dir():
                out.roots.append(engine.add_folder(path).path)
            elif path.is_file():
                _add_file(engine, path, out)
            else:
                out.errors.append((f"{path} does not exist.", "drop a folder or a file that is on disk"))
        except CiteError as exc:
            out.errors.append((exc.message, exc.hint))
    return out


def _add_file(engine: Engine, path: Path, out: AddResult) -> None:
    folder = engine.folder_of(path)
    if folder is not None and not folder.include:
        out.paths.append(str(path))
        return
    include = [*(folder.include if folder else ()), "/" + _escape_glob(path.name)]
    out.roots.append(engine.add_folder(path.parent, include=include).path)


def _under(path: str, root: str) -> bool:
    return (
        path == root
        or path.startswith(root.rstrip("/\\") + "/")
        or path.startswith(root.rstrip("/\\") + "\\")
    )


class Indexing(QObject):
    changed = Signal()  # folder views changed: the panel re-renders from `views`
    empty = Signal(bool)  # no folders at all (the welcome page shows)
    error = Signal(str, str)  # message, hint
    busy = Signal(object)  # the running index/vector job, or None when idle
    idle = Signal()  # a whole add/sync/vectors/watch chain finished
    pending = Signal(list)  # the folders whose removal can still be undone (empty: none)
    _batch = Signal(object)  # watcher thread -> UI thread

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.views: dict[str, FolderView] = {}
        self.current: Job | None = None
        self.rates = PhaseRates()  # this run's keyword and vector rates, for each folder's time left
        self._added = False  # an add was asked for: never show the welcome page after that
        self._watcher: FolderWatcher | None = None  # touched on the writer thread only
        self.undoable: dict[str, FolderView] = {}  # removed from view, kept in the index until the undo ends
        self.removing: set[str] = set()  # removal queued on the writer lane, not yet done
        self._after_removals: list[Callable[[], None]] = []  # waiting for `removing` to empty
        self._undo_timer = QTimer(self)
        self._undo_timer.setSingleShot(True)
        self._undo_timer.setInterval(UNDO_MS)
        self._undo_timer.timeout.connect(self.commit_removals)
        self._batch.connect(self._on_batch, Qt.ConnectionType.QueuedConnection)
        tasks.progress.connect(self._on_progress)

    # -- entry points (UI thread) ---------------------------------------------------------------------
    def start(self) -> None:
        """Load the folder list, then catch up with changes made while the app was closed.

        The load runs on the writer lane, so it sees the catalog before any add the user makes meanwhile
        (a drop during start-up): the catch-up then covers exactly the folders that were there before.
        """
        for path in self._persisted():  # asked for before a crash, or a quit that could not wait for it
            self._queue_removal(path, missing_ok=True)
        self.tasks.write("loading folders", lambda job: self.engine.status(), then=self._after_load)

    def add(self, paths: Iterable[Path]) -> None:
        self._added = True
        items = list(paths)
        self.tasks.write("adding folders", lambda job: add_paths(self.engine, items), then=self._after_add)

    def add_demo(self) -> None:
        from desktop.paths import copy_demo

        self.tasks.write("copying the demo", lambda job: copy_demo(self.engine.home), then=self._after_copy)

    def _after_copy(self, job: Job) -> None:
        if self._ok(job):
            self.add([job.result])

    def remove(self, path: str) -> None:
        """Forget a folder now. The running job is stopped only when it is working on that folder."""
        self._stop_work_on(path)
        self.views.pop(path, None)
        self.changed.emit()
        self._queue_removal(path)

    def remove_later(self, path: str) -> None:
        """Take a folder out of the list and the search results at once, and out of the index when the undo
        window passes (or the app quits): until then `undo_removals` brings it back as it was, without
        indexing anything again. Saved in desktop.ini, so a crash meanwhile still removes it next time."""
        self._stop_work_on(path)
        self.undoable[path] = self.views.pop(path, FolderView(path))
        self._persist()
        self._undo_timer.start()
        self.changed.emit()
        self.pending.emit(list(self.undoable))

    def undo_removals(self) -> None:
        """Every folder whose removal is still pending comes back; one whose indexing was stopped for the
        removal is brought up to date (incrementally: what was indexed stays)."""
        self._undo_timer.stop()
        restored, self.undoable = self.undoable, {}
        self._persist()
        self.views.update(restored)
        self.pending.emit([])
        self.changed.emit()
        unfinished = [p for p, v in restored.items() if v.state not in ("keyword-ready", "ready", "watching")]
        if unfinished:
            self.index(unfinished)
        log.info("removal undone: %s", ", ".join(shown(p) for p in restored))

    def commit_removals(self) -> None:
        """The undo window is over: the pending folders leave the index."""
        self._undo_timer.stop()
        paths, self.undoable = list(self.undoable), {}
        self.pending.emit([])
        for path in paths:
            self._queue_removal(path)

    def after_removals(self, then: Callable[[], None]) -> None:
        """Call `then` once no removed folder is left in the index: a question asked meanwhile must not be
        answered from a folder the user removed. Removals still in their undo window are done now (asking
        is moving on). Waits only for the removals themselves: when the writer is busy with other work
        they queue behind, `then` runs at once (they would keep the question waiting too long)."""
        self.commit_removals()
        writes = self.tasks.active("write")
        others = [j for j in writes if j.state is State.RUNNING and not j.name.startswith(REMOVING)]
        if not self.removing or others:
            then()
        else:
            self._after_removals.append(then)

    def hidden(self) -> set[str]:
        """Folders the user removed whose files may still be in the index: keep them out of results."""
        return set(self.undoable) | self.removing

    def _stop_work_on(self, path: str) -> None:
        progress = self.current.progress if self.current is not None else None
        if self.current is not None and (progress is None or _under(progress.path, path)):
            self.current.cancel()

    def _queue_removal(self, path: str, missing_ok: bool = False) -> None:
        self.removing.add(path)

        def body(job: Job) -> None:
            if not (missing_ok and self.engine.folder(path) is None):
                self.engine.remove_folder(path)

        name = f"{REMOVING}“{file_name(path)}”"
        self.tasks.write(name, body, then=lambda job: self._after_remove(job, path))

    def _after_remove(self, job: Job, path: str) -> None:
        self.removing.discard(path)
        if self._ok(job):
            self._persist()
        if not self.removing:
            waiting, self._after_removals = self._after_removals, []
            for then in waiting:
                then()
        self.refresh()
        self.watch()

    def _persisted(self) -> list[str]:
        from desktop.paths import ui_settings

        value = ui_settings(self.engine.home).value(PENDING_KEY, [])
        if isinstance(value, str):  # QSettings (INI) gives a lone item back as a plain string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _persist(self) -> None:
        """What is still to be removed: the folders in the undo window and those queued for removal."""
        from desktop.paths import ui_settings

        settings = ui_settings(self.engine.home)
        settings.setValue(PENDING_KEY, sorted(self.hidden()))
        settings.sync()

    def patterns(self, path: str, then: Callable[[tuple[str, ...], tuple[str, ...]], None]) -> None:
        """Read a folder's include/exclude globs (read lane); `then(include, exclude)` on the UI thread."""

        def loaded(job: Job) -> None:
            if self._ok(job) and job.result is not None:
                then(job.result.include, job.result.exclude)

        self.tasks.read("reading folder patterns", lambda job: self.engine.folder(path), then=loaded)

    def set_patterns(self, path: str, include: list[str], exclude: list[str]) -> None:
        """Save a folder's globs (writer lane), then re-sync it: newly excluded files leave the index."""
        self.tasks.write(
            f"saving the patterns of {file_name(path)}",
            lambda job: self.engine.add_folder(path, include, exclude),
            then=lambda job: self._after_patterns(job, path),
        )

    def _after_patterns(self, job: Job, path: str) -> None:
        if self._ok(job):
            self.index([path])

    def index(self, paths: list[str] | None = None, quiet: bool = False) -> None:
        """Keyword-index every folder (paths=None) or some paths, then vectors, then watch."""
        if not quiet:
            for view in self._views_for(paths):
                view.enter("queued")
            self.changed.emit()
        job = self.tasks.write_stream(
            "indexing",
            lambda cancelled: self.engine.sync(paths, embed=False, cancelled=cancelled),
            then=lambda job: self._after_index(job, paths, quiet),
        )
        self._set_current(job)

    def retry(self, paths: list[str]) -> Job:
        """Read failed files again though unchanged, then vectors, then watch, as `index` does."""
        for view in self._views_for(paths):
            view.enter("queued")
        self.changed.emit()
        job = self.tasks.write_stream(
            f"retrying {len(paths)} files" if len(paths) != 1 else "retrying 1 file",
            lambda cancelled: self.engine.retry(paths, cancelled=cancelled),
            then=lambda job: self._after_index(job, paths, False),
        )
        self._set_current(job)
        return job

    def cancel(self) -> None:
        if self.current is not None:
            self.current.cancel()

    def refresh(self) -> None:
        self.tasks.read("reading the index status", lambda job: self.engine.status(), then=self._after_status)

    def watch(self) -> None:
        self.tasks.write("watching folders", self._restart_watcher, then=self._after_watch)

    def close(self) -> None:
        """At quit, after the task lanes have stopped: no watcher thread may outlive the window. A removal
        still in its undo window is done now, on this thread, when no worker is left to write; else it
        stays saved and is done at the next start."""
        self._stop_watcher()
        self._undo_timer.stop()
        if not self.undoable or not self.tasks.wait_idle(0):
            return
        for path in list(self.undoable):
            try:
                self.engine.remove_folder(path)
            except Exception:  # the next start tries again; the user's files are never touched
                log.exception("could not remove %s at quit", shown(path))
                continue
            del self.undoable[path]
            log.info("folder removed at quit: %s", shown(path))
        self._persist()

    # -- chain ----------------------------------------------------------------------------------------
    def _after_load(self, job: Job) -> None:
        if not self._ok(job):
            return
        self._after_status(job)
        status: Status = job.result
        folders = [f.path for f in status.folders if f.path not in self.hidden()]
        if folders:
            self.index(folders)
        elif not self._added:  # a drop may have come in while the folder list was loading
            self.empty.emit(True)

    def _after_add(self, job: Job) -> None:
        if not self._ok(job):
            return
        result: AddResult = job.result
        for message, hint in result.errors:
            self.error.emit(message, hint)
        for root in result.roots:
            self.views.setdefault(root, FolderView(root))
        if result.roots or result.paths:
            self.empty.emit(False)
            self.index(result.roots + result.paths)
        self.changed.emit()

    def _after_index(self, job: Job, paths: list[str] | None, quiet: bool) -> None:
        busy = [v for v in self._views_for(paths) if v.state in (*BUSY_STATES, "keyword-ready")]
        if job.state is State.DONE:
            self._set_states(busy, "keyword-ready")
            self._embed()
        else:
            self._set_states(busy, "cancelled" if job.state is State.CANCELLED else "error", job.error)
            self._ok(job)
            self._set_current(None)
            self.watch()
        self.refresh()

    def _embed(self) -> None:
        job = self.tasks.write_stream("computing vectors", self.engine.embed_pending, then=self._after_embed)
        self._set_current(job)

    def _after_embed(self, job: Job) -> None:
        self._set_current(None)
        waiting = [v for v in self.views.values() if v.state in ("keyword-ready", "vectors", READING_SCANS)]
        if job.state is State.DONE:
            self._set_states([v for v in waiting if v.state in ("vectors", READING_SCANS)], "ready")
        elif job.state is State.FAILED:
            # Keyword search still works without vectors: say why, do not mark the folder broken.
            self._set_states(waiting, "keyword-ready", f"keyword search only: {job.error}")
            self.error.emit(job.error, job.hint)
        self.refresh()  # the counts: a scan the keyword pass skipped is indexed once OCR has read it
        self.watch()

    def _after_watch(self, job: Job) -> None:
        self._ok(job)
        if job.state is State.DONE:
            for view in self.views.values():
                if view.state in ("keyword-ready", "vectors", "ready"):
                    view.enter("watching", view.detail)
        self.changed.emit()
        if self.current is None:
            self.idle.emit()

    def _after_status(self, job: Job) -> None:
        if not self._ok(job):
            return
        status: Status = job.result
        known = {f.path for f in status.folders}
        for path, view in list(self.views.items()):
            if path not in known and view.state not in BUSY_STATES:  # busy: added after this status was read
                del self.views[path]
        hidden = self.hidden()
        for folder in status.folders:
            if folder.path in hidden:
                continue
            view = self.views.setdefault(folder.path, FolderView(folder.path))
            view.files, view.indexed, view.skipped = folder.files, folder.indexed, folder.skipped
            view.failed, view.chunks = folder.failed, folder.chunks
        self.changed.emit()

    # -- watcher (writer thread) ----------------------------------------------------------------------
    def _restart_watcher(self, job: Job) -> int:
        roots = [Path(f.path) for f in self.engine.folders() if Path(f.path).is_dir()]
        if self._watcher is not None and self._watcher.roots == roots:
            return len(roots)  # same folders: keep the running observer (and its pending events)
        self._stop_watcher()
        if roots:
            self._watcher = self.engine.watcher(self._batch.emit, roots)
            self._watcher.start()
        return len(roots)

    def _stop_watcher(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()

    def _on_batch(self, paths: set[Path]) -> None:
        hidden = self.hidden()
        changed = [str(p) for p in sorted(paths) if not any(_under(str(p), root) for root in hidden)]
        log.info("watcher: %d changed paths", len(changed))
        if changed:
            self.index(changed, quiet=True)

    # -- progress (UI thread, ~10/s) ------------------------------------------------------------------
    def _on_progress(self, job: Job) -> None:
        if job is not self.current or job.progress is None:
            return
        event: IndexProgress = job.progress
        self.rates.update(event)
        state = PHASE_STATES.get(event.phase)
        owner = self.view_of(event.path) if event.path else None
        if state is None or owner is None:  # "done", or the whole index's vectors (none were missing)
            return
        self._finish_others(owner, state)
        if owner.state != state:
            resume = "ready" if owner.state in ("vectors", "ready") else "keyword-ready"
            owner.enter(state)
            owner.resume = resume if state == READING_SCANS else ""
        owner.done, owner.total = event.done, event.total
        owner.percent = int(100 * event.done / event.total) if event.total else 0
        owner.eta_s = None if state == "scanning" else self.rates.eta(event)
        if state == "vectors" and event.done >= event.total:
            owner.enter("ready")
        self.changed.emit()

    def _finish_others(self, owner: FolderView, state: str) -> None:
        """A job works through its folders one at a time: one still in this phase has finished it."""
        after = "ready" if state == "vectors" else "keyword-ready"
        phase = ("vectors",) if state == "vectors" else ("scanning", "indexing")
        others = [v for v in self.views.values() if v is not owner]
        if state in ("vectors", READING_SCANS):  # a folder's scans are read: it is as it was before
            for view in [v for v in others if v.state == READING_SCANS]:
                view.enter(view.resume or "ready")
            if state == READING_SCANS:
                self.changed.emit()
                return
        finished = [v for v in others if v.state in phase]
        self._set_states(finished, after)
        if finished and after == "keyword-ready":
            self.refresh()  # its counts, now, not when the whole job is done

    # -- helpers --------------------------------------------------------------------------------------
    def _set_current(self, job: Job | None) -> None:
        self.current = job
        self.busy.emit(job)

    def _ok(self, job: Job) -> bool:
        if job.state is State.FAILED:
            self.error.emit(job.error, job.hint)
        return job.state is State.DONE

    def view_of(self, path: str) -> FolderView | None:
        inside = [v for root, v in self.views.items() if _under(path, root)]
        return max(inside, key=lambda v: len(v.path), default=None)

    def _views_for(self, paths: list[str] | None) -> list[FolderView]:
        if paths is None:
            return list(self.views.values())
        found: dict[str, FolderView] = {}
        for path in paths:
            view = self.view_of(path)
            if view is not None:
                found[view.path] = view
        return list(found.values())

    def _set_states(self, views: list[FolderView], state: str, detail: str = "") -> None:
        for view in views:
            view.enter(state, detail)
        self.changed.emit()
