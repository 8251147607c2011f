"""Engine values turned into the tools' results (engine/mcp_server/schemas.py): plain conversions."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path, PurePath
from typing import Any

from engine.api import Engine, FolderRow, StalenessReport, shown
from engine.events import Answer, Hit
from engine.mcp_server.files import iso
from engine.mcp_server.schemas import (
    AnswerOut,
    CitationOut,
    ConflictOut,
    DocHeading,
    FolderTopics,
    Related,
    SearchHit,
    SentenceOut,
    SourceOut,
    Staleness,
    SubFolder,
)

MAX_HEADED_FILES = 100  # Markdown files per folder whose headings list_kb_topics reports
MARKDOWN = frozenset({".md", ".markdown", ".mdx"})


def when(value: Any) -> str | None:
    """A catalog timestamp (naive, as DuckDB stores it) in ISO 8601."""
    if value is None:
        return None
    return value.isoformat(timespec="seconds") if isinstance(value, datetime) else str(value)


def hit_out(rank: int, hit: Hit) -> SearchHit:
    return SearchHit(
        rank=rank,
        path=shown(hit.path),
        start_line=hit.start_line,
        end_line=hit.end_line,
        page=hit.page,
        heading=hit.heading,
        snippet=hit.snippet,
        text=hit.text,
        score=round(hit.score, 6),
        lexical_rank=hit.lexical_rank,
        lexical_score=hit.lexical_score,
        vector_rank=hit.vector_rank,
        vector_score=hit.vector_score,
        named_rank=hit.named_rank,
        exact_rank=hit.exact_rank,
        rerank_score=hit.rerank_score,
        modified=iso(hit.mtime),
    )


def folder_topics(engine: Engine, folder: FolderRow) -> FolderTopics:
    root = Path(folder.path)
    files = engine.files(folder.path)
    indexed = [f for f in files if f.status == "indexed"]
    rels = [PurePath(os.path.relpath(f.path, root)) for f in indexed]
    subs: dict[str, int] = {}
    types: dict[str, int] = {}
    for rel in rels:
        if len(rel.parts) > 1:
            subs[rel.parts[0]] = subs.get(rel.parts[0], 0) + 1
        types[rel.suffix.lower() or rel.name] = types.get(rel.suffix.lower() or rel.name, 0) + 1
    md = [(f, rel) for f, rel in zip(indexed, rels, strict=True) if rel.suffix.lower() in MARKDOWN]
    headed = [
        DocHeading(file=shown(rel.as_posix()), headings=top_headings(engine.headings(f.path)))
        for f, rel in md[:MAX_HEADED_FILES]
    ]
    return FolderTopics(
        path=shown(folder.path),
        files=len(files),
        indexed=len(indexed),
        skipped=sum(f.status == "skipped" for f in files),
        failed=sum(f.status == "failed" for f in files),
        chunks=sum(f.chunks for f in files),
        synced_at=when(folder.synced_at),
        root_files=sum(len(rel.parts) == 1 for rel in rels),
        subfolders=[SubFolder(name=shown(n), files=c) for n, c in sorted(subs.items())],
        file_types=dict(sorted(((shown(t), c) for t, c in types.items()), key=lambda kv: (-kv[1], kv[0]))),
        markdown=[h for h in headed if h.headings],
        markdown_truncated=len(md) > MAX_HEADED_FILES,
    )


def top_headings(headings: list[str]) -> list[str]:
    """The first segment of each chunk's heading path, in order, without repeats."""
    seen: dict[str, None] = {}
    for heading in headings:
        top = heading.split(" > ", 1)[0].strip()
        if top:
            seen.setdefault(top, None)
    return list(seen)


def staleness_out(report: StalenessReport) -> Staleness:
    return Staleness(
        path=shown(report.path),
        modified=iso(report.mtime),
        age_days=report.age_days,
        max_age_days=report.max_age_days,
        older_than_max=report.older_than_max,
        index_status=report.index_status,
        indexed_at=when(report.indexed_at),
        changed_since_indexed=report.changed_since_indexed,
        draft=report.draft,
        version=report.version,
        effective_date=report.effective_date,
        superseded=report.superseded,
        superseded_by=list(report.superseded_by),
        related=[
            Related(path=shown(r.path), relation=r.relation, reasons=list(r.reasons), modified=iso(r.mtime))
            for r in report.related
        ],
        verdict=report.verdict,
    )


def answer_out(answer: Answer) -> AnswerOut:
    return AnswerOut(
        question=answer.question,
        refused=answer.refused,
        text=answer.text,
        reason=answer.reason,
        sentences=[
            SentenceOut(
                text=s.text,
                citations=[
                    CitationOut(
                        source=c.source,
                        path=shown(c.path),
                        start_line=c.start_line,
                        end_line=c.end_line,
                        page=c.page,
                        quote=c.quote,
                    )
                    for c in s.citations
                ],
            )
            for s in answer.sentences
        ],
        sources=[
            SourceOut(
                source=n,
                path=shown(h.path),
                start_line=h.start_line,
                end_line=h.end_line,
                page=h.page,
                heading=h.heading,
            )
            for n, h in enumerate(answer.evidence, 1)
        ],
        conflicts=[
            ConflictOut(sources=list(c.sources), current=c.current, reason=c.reason, summary=c.summary)
            for c in answer.conflicts
        ],
        generator=answer.generator,
    )
