"""Threads kept in the catalog (migration 3): threads, turns and each turn's citations.

A turn stores the question, the standalone question searched, the whole answer as JSON (sentences,
citations, evidence, conflicts, timings) so an old answer reopens as it was shown, and one row per
citation with the cited file's content hash and mtime when it was answered: an old citation whose file
has changed since (or gone) is reported as a changed source when the thread is opened.

A turn is a few rows written under the catalog's lock (Catalog.write), between a sync's batches; it is not
routed through the desktop's writer lane, where an answer would wait for a long sync to finish.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, fields, replace
from datetime import datetime
from typing import Any

from engine.conversation import Searched, Thread, Turn
from engine.errors import CiteError
from engine.events import Answer, AnswerSentence, Citation, Conflict, Hit
from engine.store.catalog import Catalog

THREAD_COLS = (
    "t.id, t.title, t.created_at, t.updated_at, (SELECT count(*) FROM turns u WHERE u.thread_id = t.id)"
)
TURN_COLS = "id, thread_id, ord, question, searched, follow_up, answer, asked_at"


def _read(catalog: Catalog) -> Any:
    """A read cursor of the catalog (its own per-call cursor, which stores names as the catalog does)."""
    return catalog._cur()


def _now() -> datetime:
    """Local time to the microsecond: two turns in one second still order the threads they moved."""
    return datetime.now()


# -------------------------------------------------------------------------------------------- threads


def create_thread(catalog: Catalog, title: str) -> int:
    title = " ".join(title.split()) or "Untitled"
    with catalog.write(chunks_changed=False) as con:
        row = con.execute(
            "INSERT INTO threads(title, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
            [title, _now(), _now()],
        ).fetchone()
    assert row is not None
    return int(row[0])


def threads(catalog: Catalog, search: str = "") -> list[Thread]:
    """Every thread, the most recently continued first; with `search`, those whose title or any question
    (as asked or as searched) holds every word of it, in any case."""
    sql = f"SELECT {THREAD_COLS} FROM threads t"
    args: list[Any] = []
    needles = [w.lower() for w in search.split()]
    if needles:
        text = (
            "lower(t.title || ' ' || coalesce((SELECT string_agg(u.question || ' ' || u.searched, ' ') "
            "FROM turns u WHERE u.thread_id = t.id), ''))"
        )
        sql += " WHERE " + " AND ".join(f"contains({text}, ?)" for _ in needles)
        args += needles
    rows = _read(catalog).execute(sql + " ORDER BY t.updated_at DESC, t.id DESC", args).fetchall()
    return [Thread(int(r[0]), r[1], r[2], r[3], int(r[4])) for r in rows]


def thread(catalog: Catalog, thread_id: int) -> Thread | None:
    row = (
        _read(catalog).execute(f"SELECT {THREAD_COLS} FROM threads t WHERE t.id = ?", [thread_id]).fetchone()
    )
    return Thread(int(row[0]), row[1], row[2], row[3], int(row[4])) if row else None


def find_thread(catalog: Catalog, name: str) -> Thread | None:
    """A thread by its id ("12" or "#12") or by its title (any case; the latest of that title)."""
    key = name.strip()
    if key.lstrip("#").isdigit():
        found = thread(catalog, int(key.lstrip("#")))
        if found is not None:
            return found
    row = (
        _read(catalog)
        .execute(
            f"SELECT {THREAD_COLS} FROM threads t WHERE lower(t.title) = lower(?) "
            "ORDER BY t.updated_at DESC, t.id DESC LIMIT 1",
            [" ".join(key.split())],
        )
        .fetchone()
    )
    return Thread(int(row[0]), row[1], row[2], row[3], int(row[4])) if row else None


def require(catalog: Catalog, thread_id: int) -> Thread:
    found = thread(catalog, thread_id)
    if found is None:
        raise CiteError(f"There is no thread {thread_id}.", "list them with: citeline threads")
    return found


def rename_thread(catalog: Catalog, thread_id: int, title: str) -> Thread:
    title = " ".join(title.split())
    if not title:
        raise CiteError("A thread's title cannot be empty.", "give it a few words")
    require(catalog, thread_id)
    with catalog.write(chunks_changed=False) as con:
        con.execute("UPDATE threads SET title = ? WHERE id = ?", [title, thread_id])
    return require(catalog, thread_id)


def delete_thread(catalog: Catalog, thread_id: int) -> None:
    """The thread, its turns and their citations (the cited files are not touched)."""
    with catalog.write(chunks_changed=False) as con:
        con.execute(
            "DELETE FROM turn_citations WHERE turn_id IN (SELECT id FROM turns WHERE thread_id = ?)",
            [thread_id],
        )
        con.execute("DELETE FROM turns WHERE thread_id = ?", [thread_id])
        con.execute("DELETE FROM threads WHERE id = ?", [thread_id])


# ---------------------------------------------------------------------------------------------- turns


def turns(catalog: Catalog, thread_id: int) -> list[Turn]:
    rows = (
        _read(catalog)
        .execute(f"SELECT {TURN_COLS} FROM turns WHERE thread_id = ? ORDER BY ord", [thread_id])
        .fetchall()
    )
    return [_turn(r) for r in rows]


def _turn(row: Sequence[Any]) -> Turn:
    return Turn(
        int(row[0]), int(row[1]), int(row[2]), row[3], row[4], bool(row[5]), answer_from_json(row[6]), row[7]
    )


def add_turn(catalog: Catalog, thread_id: int, searched: Searched, answer: Answer) -> Turn:
    """Store an answered (or refused) question at the end of its thread; the thread moves to the top."""
    now = _now()
    record = json.dumps(answer_to_dict(answer))
    with catalog.write(chunks_changed=False) as con:
        row = con.execute(
            "INSERT INTO turns(thread_id, ord, question, searched, follow_up, refused, answer_text, answer, "
            "timings, asked_at) SELECT ?, coalesce(max(ord), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ? FROM turns "
            "WHERE thread_id = ? RETURNING id",
            [
                thread_id,
                answer.question,
                searched.standalone,
                searched.follow_up,
                answer.refused,
                answer.text,
                record,
                json.dumps(answer.timings_ms),
                now,
                thread_id,
            ],
        ).fetchone()
        assert row is not None
        turn_id = int(row[0])
        _insert_citations(catalog, con, turn_id, answer)
        con.execute("UPDATE threads SET updated_at = ? WHERE id = ?", [now, thread_id])
    found = _read(catalog).execute(f"SELECT {TURN_COLS} FROM turns WHERE id = ?", [turn_id]).fetchone()
    assert found is not None
    return _turn(found)


def _insert_citations(catalog: Catalog, con: Any, turn_id: int, answer: Answer) -> None:
    for number, sentence in enumerate(answer.sentences, start=1):
        for c in sentence.citations:
            row = catalog.file(c.path)
            con.execute(
                "INSERT INTO turn_citations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    turn_id,
                    number,
                    c.source,
                    c.path,
                    c.start_line,
                    c.end_line,
                    c.page,
                    c.quote,
                    row.hash if row else None,
                    row.mtime if row else None,
                ],
            )


def changed_sources(catalog: Catalog, turn_id: int) -> tuple[str, ...]:
    """Cited files that changed since the turn was answered: gone from disk, re-indexed with other
    content, or modified on disk after their last indexing (not yet re-read)."""
    rows = (
        _read(catalog)
        .execute(
            "SELECT DISTINCT path, file_hash, file_mtime FROM turn_citations WHERE turn_id = ? ORDER BY path",
            [turn_id],
        )
        .fetchall()
    )
    return tuple(path for path, digest, mtime in rows if _changed(catalog, path, digest, mtime))


def _changed(catalog: Catalog, path: str, digest: str | None, mtime: float | None) -> bool:
    try:
        on_disk = os.stat(path).st_mtime
    except OSError:
        return True
    row = catalog.file(path)
    if row is None or (digest is not None and row.hash != digest):
        return True
    return on_disk != row.mtime and on_disk != mtime


def with_changes(catalog: Catalog, found: Sequence[Turn]) -> list[Turn]:
    return [replace(t, changed=changed_sources(catalog, t.id)) for t in found]


# ----------------------------------------------------------------------------------------------- JSON


def answer_to_dict(answer: Answer) -> dict[str, Any]:
    return asdict(answer)


def answer_from_json(text: str) -> Answer:
    data = json.loads(text)
    return Answer(
        question=data["question"],
        text=data["text"],
        refused=data["refused"],
        reason=data.get("reason", ""),
        sentences=tuple(_sentence(s) for s in data.get("sentences", ())),
        evidence=tuple(Hit(**_known(Hit, h)) for h in data.get("evidence", ())),
        conflicts=tuple(_conflict(c) for c in data.get("conflicts", ())),
        dropped=tuple(data.get("dropped", ())),
        generator=data.get("generator", ""),
        timings_ms=dict(data.get("timings_ms", {})),
        repaired_quotes=int(data.get("repaired_quotes", 0)),
        from_draft=bool(data.get("from_draft", False)),
        usage=dict(data.get("usage", {})),
    )


def _sentence(data: dict[str, Any]) -> AnswerSentence:
    return AnswerSentence(
        data["text"], tuple(Citation(**_known(Citation, c)) for c in data.get("citations", ()))
    )


def _conflict(data: dict[str, Any]) -> Conflict:
    return Conflict(tuple(data["sources"]), data["current"], data["reason"], data.get("summary", ""))


def _known(kind: type, data: dict[str, Any]) -> dict[str, Any]:
    """The fields `kind` has today: an answer stored by another version still opens."""
    names = {f.name for f in fields(kind)}
    return {k: v for k, v in data.items() if k in names}
