"""Parsers of rich formats run in a worker process that can be killed.

A PDF or a zipped Office file is parsed by third-party code (pypdf, python-docx, lxml) that can loop or
balloon on a crafted or broken file. In the indexing process that would stall a folder for good or take
the app's memory with it. So those formats are parsed in one long-lived worker process (started on first
use with "spawn": the app's threads are never forked) with a memory ceiling (RLIMIT_AS, where the OS has
it) and a time limit per file. A file that runs past either is skipped with the reason; the worker is
killed and the next file starts a fresh one. Plain text, code and Markdown are parsed in-process (their
cost is linear in a size already capped).
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from engine.errors import ExtractError

log = logging.getLogger(__name__)

TIME_LIMIT_S = 180.0  # one file; a 500-page text PDF parses in well under a minute on 2 cores
MEMORY_LIMIT = 2 * 1024**3  # bytes of address space for the worker (Linux; elsewhere not enforced)
_SPAWN = multiprocessing.get_context("spawn")


def _serve(conn: Connection, memory_limit: int) -> None:
    """The worker: apply the memory ceiling, then run (module, function, args) requests until EOF."""
    if memory_limit and sys.platform.startswith("linux"):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    while True:
        try:
            module, name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            function = getattr(importlib.import_module(module), name)
            conn.send((True, function(*args)))
        except MemoryError:
            conn.send((False, ExtractError("ran out of memory while being read", "")))
        except BaseException as exc:  # sent back and raised in the caller
            try:
                conn.send((False, exc))
            except Exception:  # an exception that does not pickle: its text does
                conn.send((False, ExtractError(f"{type(exc).__name__}: {exc}", "")))


class Sandbox:
    """One worker process, one request at a time (callers are serialised by a lock)."""

    def __init__(self, time_limit_s: float = TIME_LIMIT_S, memory_limit: int = MEMORY_LIMIT) -> None:
        self.time_limit_s = time_limit_s
        self.memory_limit = memory_limit
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None

    def run(self, function: Callable[..., Any], *args: Any, what: str = "the file") -> Any:
        """`function(*args)` in the worker (it must be a module-level function). ExtractError when it
        runs past the time limit or the worker dies (out of memory, a crash in native code)."""
        with self._lock:
            conn = self._start()
            conn.send((function.__module__, function.__qualname__, args))
            if not conn.poll(self.time_limit_s):
                self._kill()
                raise ExtractError(
                    f"{what} took longer than {self.time_limit_s:.0f} s to read; skipped",
                    "it may be malformed; re-save or export it to index it",
                )
            try:
                ok, value = conn.recv()
            except (EOFError, OSError) as exc:
                code = self._process.exitcode if self._process is not None else None
                self._kill()
                raise ExtractError(
                    f"reading {what} stopped its reader (out of memory or a crash, exit code {code}); "
                    "skipped",
                    "it may be malformed or far larger than it looks",
                ) from exc
        if ok:
            return value
        raise value

    def _start(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._kill()
        parent, child = _SPAWN.Pipe()
        process = _SPAWN.Process(target=_serve, args=(child, self.memory_limit), daemon=True, name="extract")
        process.start()
        child.close()
        self._process, self._conn = process, parent
        log.debug("extraction worker started (pid %s)", process.pid)
        return parent

    def _kill(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
        self._process = self._conn = None

    def close(self) -> None:
        with self._lock:
            self._kill()


_shared: Sandbox | None = None
_shared_lock = threading.Lock()


def shared() -> Sandbox:
    """The process's one extraction worker."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Sandbox()
        return _shared


def enabled() -> bool:
    """Off inside the worker itself, and where spawning cannot work (a frozen app without support)."""
    return multiprocessing.parent_process() is None and os.environ.get("CITELINE_SANDBOX", "1") != "0"
