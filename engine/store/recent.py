"""Files that searches returned lately, so the vector backlog embeds them first.

A user who searches while a large folder is still being embedded is asking about the files the keyword
search found; their vectors are the ones that improve the next search. The record is a small JSON file
beside the catalog: the app, `citeline search` from a terminal (a snapshot reader) and the next start
all see it. Each process merges its own notes into the file when it saves (newest time wins), so one
never wipes out another's.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

LIMIT = 500  # files remembered: a few days of searches, and a short list to pass to the backlog's query
SAVE_EVERY_S = 10.0  # at most one write per this many seconds of searching (and one at close)


class RecentFiles:
    def __init__(self, path: Path | None, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, float] = _read(path) if path is not None else {}
        self._dirty = False
        self._saved_at = 0.0

    def note(self, paths: Iterable[str]) -> None:
        """These files were just shown as results (best first: the first gets the latest time)."""
        now = self.clock()
        with self._lock:
            for rank, path in enumerate(dict.fromkeys(paths)):
                self._seen[path] = max(self._seen.get(path, 0.0), now - rank * 1e-3)
                self._dirty = True
            self._trim()
        if now - self._saved_at >= SAVE_EVERY_S:
            self.save()

    def items(self) -> list[tuple[str, float]]:
        """(path, when last shown), newest first."""
        with self._lock:
            return sorted(self._seen.items(), key=lambda item: -item[1])

    def save(self) -> None:
        """Merge into the file and write it atomically; a file that cannot be written costs only the
        order of a later backlog, so it never fails the search that noted it."""
        with self._lock:
            if self.path is None or not self._dirty:
                return
            for path, when in _read(self.path).items():
                self._seen[path] = max(self._seen.get(path, 0.0), when)
            self._trim()
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            try:
                tmp.write_text(json.dumps(self._seen), encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError:
                tmp.unlink(missing_ok=True)
                return
            self._dirty = False
            self._saved_at = self.clock()

    def _trim(self) -> None:
        if len(self._seen) > LIMIT:
            kept = sorted(self._seen.items(), key=lambda item: -item[1])[:LIMIT]
            self._seen = dict(kept)


def _read(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))}
