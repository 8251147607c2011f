"""Is a file current? One rule, read from one input, for the answer pipeline and MCP check_staleness.

The rules that compare versions live in engine/answer/conflicts.py. What they read is decided here, once:
a file's facts come from its name and the head of its indexed text (the first HEAD_CHUNKS chunks, where
titles, dates and status markers sit) with the modification time the index recorded, which is exactly what
the answer pipeline hands `conflicts.detect` for its evidence. A file the index skipped is judged by its
name alone. So `ask` and `check_staleness` cannot disagree about which of two versions is current.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePath
from typing import Any

from engine.answer.conflicts import (
    DocFacts,
    Judgement,
    Relation,
    compare,
    doc_facts,
    same_family,
    superseded_by,
    text_facts,
)
from engine.store.catalog import Catalog, FileRow

HEAD_CHUNKS = 3  # chunks of a file read for its facts
MAX_SIBLINGS = 20  # related files judged against one file


@dataclass(frozen=True)
class RelatedVersion:
    path: str
    relation: Relation  # how it stands against the file: "newer" means it is the current one
    reasons: tuple[str, ...]
    mtime: float


@dataclass(frozen=True)
class StalenessReport:
    path: str
    mtime: float  # on disk now
    age_days: float
    max_age_days: int
    older_than_max: bool
    index_status: str  # indexed, skipped, failed or "not indexed"
    indexed_at: Any  # a naive timestamp as the catalog stores it, or None
    changed_since_indexed: bool
    draft: bool
    version: str | None
    effective_date: str | None
    superseded: bool
    superseded_by: tuple[str, ...]
    related: tuple[RelatedVersion, ...]  # files of the same directory that look like versions of it
    verdict: str


def head_text(catalog: Catalog, path: str) -> str:
    """The opening text of an indexed file (its first chunks), or "" when the index holds none."""
    row = catalog.file(path)
    if row is None:
        return ""
    return "\n".join(c.text for c in catalog.chunks_of_file(row.id)[:HEAD_CHUNKS])


def facts_of(catalog: Catalog, path: str, row: FileRow | None, mtime: float) -> DocFacts:
    """A file's facts: from its indexed head when it was indexed, else from its name."""
    if row is not None and row.status == "indexed":
        return text_facts(path, row.mtime, head_text(catalog, path))
    return doc_facts(PurePath(path), row.mtime if row is not None else mtime)


def _judge(catalog: Catalog, facts: DocFacts, target: Path) -> list[tuple[DocFacts, Judgement]]:
    """The catalogued files of the same directory that look like versions of it, each judged against it."""
    judged: list[tuple[DocFacts, Judgement]] = []
    for row in catalog.files_in_dir(str(target.parent)):
        if len(judged) < MAX_SIBLINGS and row.path != str(target) and same_family(target, row.path):
            other = facts_of(catalog, row.path, row, row.mtime)
            judged.append((other, compare(facts, other)))
    return judged


def verdict(
    facts: DocFacts, judged: Sequence[tuple[DocFacts, Judgement]], age_days: float, max_age_days: int
) -> tuple[list[str], str]:
    """(what supersedes it, a one-line verdict)."""
    replaced = superseded_by(facts, judged)
    if replaced:
        return replaced, "superseded by " + ", ".join(PurePath(p).name for p in replaced)
    if facts.marked_superseded:
        return [], "marked superseded in its own text"
    maybe = [other.path.name for other, judgement in judged if judgement.relation == "possibly newer"]
    notes = []
    if maybe:
        notes.append("possibly superseded by " + ", ".join(maybe) + " (only the file time says so)")
    if facts.draft:
        notes.append("a draft")
    if age_days > max_age_days:
        notes.append(f"older than {max_age_days} days ({age_days:.0f})")
    return [], "; ".join(notes) or f"current: no newer version found; modified {age_days:.0f} days ago"


def report(catalog: Catalog, target: Path, max_age_days: int) -> StalenessReport:
    """How current the file at `target` (resolved, existing) is."""
    stat = target.stat()
    row = catalog.file(str(target))
    age = max(0.0, (datetime.now(timezone.utc).timestamp() - stat.st_mtime) / 86400)
    facts = facts_of(catalog, str(target), row, stat.st_mtime)
    judged = _judge(catalog, facts, target)
    replaced, line = verdict(facts, judged, age, max_age_days)
    return StalenessReport(
        path=str(target),
        mtime=stat.st_mtime,
        age_days=round(age, 2),
        max_age_days=max_age_days,
        older_than_max=age > max_age_days,
        index_status=row.status if row else "not indexed",
        indexed_at=catalog.indexed_at(str(target)),
        changed_since_indexed=row is not None and (row.mtime != stat.st_mtime or row.size != stat.st_size),
        draft=facts.draft,
        version=".".join(map(str, facts.version)) if facts.version else None,
        effective_date=facts.effective.isoformat() if facts.effective else None,
        superseded=bool(replaced) or facts.marked_superseded,
        superseded_by=tuple(replaced),
        related=tuple(RelatedVersion(str(o.path), j.relation, tuple(j.reasons), o.mtime) for o, j in judged),
        verdict=line,
    )
