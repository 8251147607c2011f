"""Keep watched folders in sync: watchdog events, debounced into batches of paths.

An editor's atomic save (write a temp file, move it over the target), a directory move and a branch
switch touching a thousand files all arrive as bursts of events; they are collected until the folder has
been quiet for `debounce` seconds (or `max_wait` has passed during a long burst) and handed over as one
set of paths. The callback runs on the debounce thread: callers hand the paths to the one writer.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

DEBOUNCE_S = 0.5
MAX_WAIT_S = 2.0


class _Collector(FileSystemEventHandler):
    def __init__(self, sink: Callable[[Iterable[str]], None]) -> None:
        self.sink = sink

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        self.sink(p if isinstance(p, str) else p.decode() for p in paths if p)


class FolderWatcher:
    def __init__(
        self,
        roots: Iterable[Path],
        on_changes: Callable[[set[Path]], None],
        debounce: float = DEBOUNCE_S,
        max_wait: float = MAX_WAIT_S,
        polling: bool = False,
    ) -> None:
        self.roots = [Path(r) for r in roots]
        self.on_changes = on_changes
        self.debounce = debounce
        self.max_wait = max_wait
        self._observer: Any = PollingObserver(timeout=0.5) if polling else Observer()
        self._pending: set[Path] = set()
        self._first = 0.0
        self._last = 0.0
        self._cond = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="citeline-debounce", daemon=True)

    def _add(self, paths: Iterable[str]) -> None:
        with self._cond:
            now = time.monotonic()
            if not self._pending:
                self._first = now
            self._pending.update(Path(p) for p in paths)
            self._last = now
            self._cond.notify()

    def start(self) -> None:
        handler = _Collector(self._add)
        for root in self.roots:
            self._observer.schedule(handler, str(root), recursive=True)
        self._observer.start()
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self._observer.stop()
        self._observer.join(timeout=5)
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._stopped:
                    self._cond.wait()
                if self._stopped:
                    return
                now = time.monotonic()
                quiet_for = now - self._last
                waited = now - self._first
                if quiet_for < self.debounce and waited < self.max_wait:
                    self._cond.wait(timeout=min(self.debounce - quiet_for, self.max_wait - waited))
                    continue
                batch, self._pending = self._pending, set()
            self.on_changes(batch)


def watch_forever(
    engine: Any,
    polling: bool = False,
    on_batch: Callable[[Any], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Run the watcher until interrupted; the calling thread is the one writer that applies batches."""
    batches: queue.Queue[set[Path]] = queue.Queue()
    roots = [Path(f.path) for f in engine.folders()]
    watcher = FolderWatcher(roots, batches.put, polling=polling)
    watcher.start()
    try:
        while stop is None or not stop.is_set():
            try:
                paths = batches.get(timeout=0.2)
            except queue.Empty:
                continue
            job = engine.sync(paths)
            if on_batch is not None:
                on_batch(job)
            else:
                for _ in job:
                    pass
    finally:
        watcher.stop()
