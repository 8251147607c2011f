"""The tools' logic: each one a few calls on the Engine facade, in a session that holds the index open.

The DuckDB catalog admits one process at a time, so a call opens the index and the knowledge base closes
it after a short idle spell: a long-lived MCP client does not lock the desktop app or `citeline sync` out,
and each burst of calls sees a fresh index. The embedder stays loaded across spells.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.api import Engine, SearchResult, shown
from engine.errors import CiteError, MissingModel
from engine.mcp_server.files import (
    doc_text,
    folder_inside,
    glob_match,
    read_bytes,
    require_indexed,
    resolve_inside,
    roots_of,
    unshown,
)
from engine.mcp_server.results import answer_out, folder_topics, hit_out, staleness_out
from engine.mcp_server.schemas import AnswerOut, DocText, SearchOut, Staleness, Topics


class KnowledgeBase:
    """The tools' logic over one Engine, serialised by a lock. The index is opened for a call and closed
    `idle_release_s` after the last one (0: at once), so other Citeline processes can take the writer lock."""

    def __init__(self, home: str | os.PathLike[str] | None = None, idle_release_s: float = 5.0) -> None:
        self._engine = Engine(home, snapshot_when_busy=True)  # reads while the app or watch indexes
        self._idle = idle_release_s
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    @contextmanager
    def _session(self) -> Iterator[Engine]:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            try:
                yield self._engine
            finally:
                self._schedule_release()

    def _schedule_release(self) -> None:
        if self._idle <= 0:
            self._engine.close()
            return
        self._timer = threading.Timer(self._idle, self._release)
        self._timer.daemon = True
        self._timer.start()

    def _release(self) -> None:
        with self._lock:
            if self._timer is threading.current_thread():
                self._timer = None
                self._engine.close()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._engine.close()

    # -- search_kb ------------------------------------------------------------------------------------
    def search(
        self, query: str, k: int = 5, folder: str | None = None, file_glob: str | None = None
    ) -> SearchOut:
        if not query.strip():
            raise CiteError("The query is empty.", "give a few words to search for")
        with self._session() as engine:
            _require_chunks(engine)
            roots = roots_of(engine.folders())
            where = str(folder_inside(folder, roots)) if folder else None
            result, note = _run_search(engine, query, k, where, file_glob)
            hits = [h for h in result.hits if not file_glob or glob_match(file_glob, Path(h.path), roots)]
        mode = "hybrid" if result.mode == "hybrid" else "keyword"
        return SearchOut(
            query=query, mode=mode, note=note, hits=[hit_out(r, h) for r, h in enumerate(hits[:k], 1)]
        )

    # -- fetch_doc ------------------------------------------------------------------------------------
    def fetch(
        self,
        path: str,
        start_line: int | None = None,
        end_line: int | None = None,
        page: int | None = None,
        start_char: int = 0,
    ) -> DocText:
        with self._session() as engine:
            path = unshown(path, (f.path for f in engine.files()))
            target = resolve_inside(path, roots_of(engine.folders()))
            if target.is_dir():
                raise CiteError(
                    f"{shown(path)} is a folder.", "list its files with list_kb_topics or search_kb"
                )
            require_indexed(engine.file(target), target)
        return doc_text(target, read_bytes(target), start_line, end_line, page, start_char=start_char)

    # -- list_kb_topics -------------------------------------------------------------------------------
    def topics(self) -> Topics:
        with self._session() as engine:
            folders = [folder_topics(engine, f) for f in engine.folders()]
            done, total = engine.vector_coverage()
            chunks = engine.chunk_count()
        note = "" if folders else "No folder is watched yet; add one with: citeline add FOLDER"
        return Topics(
            folders=folders,
            chunks=chunks,
            vectors_fraction=1.0 if not total else done / total,
            search_mode="hybrid" if done else "keyword",
            note=note,
        )

    # -- check_staleness ------------------------------------------------------------------------------
    def staleness(self, path: str, max_age_days: int = 30) -> Staleness:
        with self._session() as engine:
            target = resolve_inside(path, roots_of(engine.folders()))
            if target.is_dir():
                raise CiteError(f"{path} is a folder.", "give a file")
            report = engine.staleness(target, max_age_days)
        return staleness_out(report)

    # -- ask ------------------------------------------------------------------------------------------
    def ask(self, question: str, thread: str | None = None) -> AnswerOut:
        """A cited answer; in a thread (its id or a name, created when new) the turn is kept."""
        if not question.strip():
            raise CiteError("The question is empty.", "ask something the folders can answer")
        with self._session() as engine:
            _require_chunks(engine)
            if thread is None or not thread.strip():
                return answer_out(engine.ask(question))
            found = engine.find_thread(thread) or engine.new_thread(thread)
            searched, answer, _ = engine.ask_in_thread(question, found.id)
        return answer_out(answer).model_copy(update={"thread_id": found.id, "searched": searched.standalone})


def _require_chunks(engine: Engine) -> None:
    if engine.chunk_count() == 0:
        raise CiteError(
            "The index is empty: nothing has been indexed yet.",
            "add a folder with: citeline add FOLDER (or wait for the first sync to finish)",
        )


def _run_search(
    engine: Engine, query: str, k: int, folder: str | None, file_glob: str | None
) -> tuple[SearchResult, str]:
    """The engine's search (mode and second stage as Engine.plan_search decides), widened when a glob
    filters afterwards; a missing embedder degrades it to keyword, said in the note."""
    want = min(max(k * 10, 100), 500) if file_glob else k
    ext = re.fullmatch(r"\*\.(\w+)", file_glob.strip()) if file_glob else None
    exts = (ext.group(1),) if ext else ()  # "*.md": let the engine filter before ranking is cut
    try:
        result = engine.find(query, k=want, folder=folder, extensions=exts)
    except MissingModel as exc:
        if not engine.has_vectors():
            raise
        result = engine.find(query, k=want, mode="keyword", folder=folder, extensions=exts)
        return result, f"keyword (BM25) only: {exc.message} ({exc.hint})"
    if result.mode == "keyword":
        return result, "keyword (BM25) only: no embeddings yet; run citeline sync to add them"
    done, total = engine.vector_coverage()
    return (
        result,
        "" if done == total else f"vectors cover {done}/{total} chunk texts; the rest are found by keyword",
    )
