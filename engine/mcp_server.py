"""`citeline mcp`: a read-only Model Context Protocol server over the Engine.

Tools: search_kb, fetch_doc, list_kb_topics, check_staleness, ask. The server never adds, removes or rewrites
folders, and reads only files inside the watched folders that the index accepted (so secrets and ignored
files the scanner skipped stay unreadable). Paths are resolved (symlinks, "..") before they are checked.

The DuckDB catalog admits one process at a time, so the server opens the index for a call and closes it
after a short idle spell: a long-lived MCP client does not lock the desktop app or `citeline sync` out, and
each burst of calls sees a fresh index. The embedder stays loaded across spells.

Every failure a user can cause (unknown path, path outside the folders, empty index, missing model, index
in use) reaches the client as a tool error carrying the CiteError message and hint; the server keeps going.
"""

from __future__ import annotations

import fnmatch
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine import __version__
from engine.answer.conflicts import (
    DocFacts,
    Judgement,
    Relation,
    compare,
    doc_facts,
    same_family,
    superseded_by,
)
from engine.errors import CiteError, ExtractError, MissingDependency, MissingModel
from engine.events import Answer, Hit, Line

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from engine.api import Engine
    from engine.store.catalog import Catalog, FileRow, FolderRow

T = TypeVar("T")

MAX_FETCH_BYTES = 200_000  # one fetch_doc answer; a model's context is the scarce resource
MAX_SIBLINGS = 20  # related files read by check_staleness
MAX_HEADED_FILES = 100  # Markdown files per folder whose headings list_kb_topics reports
EXTRACTED = frozenset({".pdf", ".docx"})  # shown as extracted text; everything else as its own lines
MARKDOWN = frozenset({".md", ".markdown", ".mdx"})


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


# ------------------------------------------------------------------------------------------ results


class SearchHit(_Out):
    rank: int
    path: str = Field(description="Absolute path; pass it to fetch_doc or check_staleness.")
    start_line: int
    end_line: int
    page: int | None = Field(description="PDF page (line numbers then count within the page).")
    heading: str = Field(description='Markdown heading path ("Setup > Install") or code symbol.')
    snippet: str = Field(description="The best matching passage, query terms in **bold**.")
    text: str = Field(description="The whole chunk.")
    score: float = Field(description="Fused (RRF) score; higher is better (order may be reranked).")
    lexical_rank: int | None
    lexical_score: float | None
    vector_rank: int | None
    vector_score: float | None
    rerank_score: float | None = Field(
        description="Second-stage score (MaxSim by default) for the top 20 of a hybrid search, else null."
    )
    modified: str = Field(description="File modification time, ISO 8601 UTC.")


class SearchOut(_Out):
    query: str
    mode: Literal["hybrid", "keyword"] = Field(description="hybrid = BM25 + vectors fused; keyword = BM25.")
    note: str
    hits: list[SearchHit]


class DocText(_Out):
    path: str
    format: Literal["text", "pdf", "docx"]
    total_lines: int = Field(description="Last line number (for a PDF: lines in all pages).")
    pages: int | None
    start_line: int | None = Field(description="First line shown.")
    end_line: int | None = Field(description="Last line shown.")
    truncated: bool
    next_start_line: int | None = Field(description="Where to continue when truncated.")
    next_page: int | None
    text: str = Field(description='Numbered lines "N<TAB>text"; PDFs have "--- page N ---" markers.')


class SubFolder(_Out):
    name: str
    files: int


class DocHeading(_Out):
    file: str = Field(description="Path relative to the watched folder.")
    headings: list[str]


class FolderTopics(_Out):
    path: str
    files: int = Field(description="Files the catalog knows, indexed or not.")
    indexed: int
    skipped: int
    failed: int
    chunks: int
    synced_at: str | None
    root_files: int = Field(description="Indexed files directly in the folder.")
    subfolders: list[SubFolder] = Field(description="Top-level sub-folders with their indexed file counts.")
    file_types: dict[str, int] = Field(description="Indexed files per extension.")
    markdown: list[DocHeading] = Field(description="Top-level headings of Markdown files.")
    markdown_truncated: bool


class Topics(_Out):
    folders: list[FolderTopics]
    chunks: int
    vectors_fraction: float
    search_mode: Literal["hybrid", "keyword"]
    note: str


class Related(_Out):
    path: str
    relation: Relation = Field(
        description="newer/older: this file is/is not the current one of the two (by a marker, a status, a "
        "version or a date); possibly newer/older: only the file time says so; unclear: the signs disagree."
    )
    reasons: list[str]
    modified: str


class Staleness(_Out):
    path: str
    modified: str
    age_days: float
    max_age_days: int
    older_than_max: bool
    index_status: str = Field(description="indexed, skipped, failed or not indexed.")
    indexed_at: str | None
    changed_since_indexed: bool
    draft: bool
    version: str | None
    effective_date: str | None
    superseded: bool
    superseded_by: list[str]
    related: list[Related] = Field(description="Files of the same folder that look like versions of it.")
    verdict: str


class CitationOut(_Out):
    source: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    quote: str


class SentenceOut(_Out):
    text: str
    citations: list[CitationOut]


class SourceOut(_Out):
    source: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    heading: str


class ConflictOut(_Out):
    sources: list[int]
    current: int
    reason: str
    summary: str


class AnswerOut(_Out):
    question: str
    refused: bool
    text: str
    reason: str
    sentences: list[SentenceOut]
    sources: list[SourceOut] = Field(description="The evidence, numbered as the citations' source field.")
    conflicts: list[ConflictOut]
    generator: str


# ---------------------------------------------------------------------------------------------- paths


def resolve_inside(raw: str, roots: Sequence[Path]) -> Path:
    """`raw` (absolute, or relative to a watched folder) resolved, symlinks and ".." included, and checked to
    lie inside one of `roots`. The containment check comes first, so nothing is said about outside files."""
    if not raw.strip():
        raise CiteError("No path given.", "pass a path from search_kb or list_kb_topics")
    if not roots:
        raise CiteError("No folder is watched yet.", "add one with: citeline add FOLDER")
    given = Path(raw).expanduser()
    candidates = [given] if given.is_absolute() else [root / given for root in roots]
    inside = [p for p in (c.resolve() for c in candidates) if any(_within(p, r) for r in roots)]
    if not inside:
        raise CiteError(
            f"{raw} is outside the watched folders.",
            "only files inside these can be read: " + ", ".join(str(r) for r in roots),
        )
    found = next((p for p in inside if p.exists()), None)
    if found is None:
        raise CiteError(
            f"{raw} does not exist.", "list files with list_kb_topics or find them with search_kb"
        )
    return found


def _folder_inside(raw: str, roots: Sequence[Path]) -> Path:
    path = resolve_inside(raw, roots)
    if not path.is_dir():
        raise CiteError(f"{raw} is not a folder.", "give a watched folder or a sub-folder of one")
    return path


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _roots(folders: Iterable[FolderRow]) -> list[Path]:
    return [Path(f.path).resolve() for f in folders]


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")


def _when(value: Any) -> str | None:
    """A catalog timestamp (naive, as DuckDB stores it) in ISO 8601."""
    if value is None:
        return None
    return value.isoformat(timespec="seconds") if isinstance(value, datetime) else str(value)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CiteError(
            f"{path} could not be read: {exc.strerror or exc}", "check the file's permissions"
        ) from exc


def _require_indexed(row: FileRow | None, path: Path) -> FileRow:
    if row is None:
        raise CiteError(
            f"{path} is not in the index.",
            "it may be new or excluded by the folder's rules; run: citeline sync",
        )
    if row.status != "indexed":
        raise CiteError(
            f"{path} was not indexed ({row.error or row.status}).",
            "Citeline serves only files it indexed; secrets, binaries and ignored files stay out",
        )
    return row


# ------------------------------------------------------------------------------------------ documents


def document_lines(path: Path, data: bytes) -> tuple[Literal["text", "pdf", "docx"], list[Line]]:
    """The lines citations point at: a PDF or DOCX as extracted, anything else as the file's own lines."""
    from engine.ingest.extract import decode_text, extract, split_lines

    suffix = path.suffix.lower()
    if suffix in EXTRACTED:
        return ("pdf" if suffix == ".pdf" else "docx"), list(extract(path, data).lines)
    return "text", [Line(text, n) for n, text in enumerate(split_lines(decode_text(data)), 1)]


def select_lines(lines: Sequence[Line], start: int | None, end: int | None, page: int | None) -> list[Line]:
    """Lines start..end (inclusive, 1-based); for a PDF, within `page` (all pages when no page is given)."""
    ranged = start is not None or end is not None
    if any(line.page is not None for line in lines):
        if page is None and ranged:
            raise CiteError(
                "Line numbers in a PDF count within a page.", "give page together with start_line"
            )
        if page is None:
            return list(lines)
        pages = max(line.page or 0 for line in lines)
        lines = [line for line in lines if line.page == page]
        if not lines:
            raise CiteError(f"There is no page {page} with text.", f"the document has {pages} pages")
    elif page is not None:
        raise CiteError("page applies to PDFs only.", "leave page out for this file")
    if not lines or not ranged:
        return list(lines)
    lo, hi = start or 1, end or lines[-1].line
    if lo > lines[-1].line:
        raise CiteError(f"start_line {lo} is past the end ({lines[-1].line} lines).", "give a smaller one")
    if hi < lo:
        raise CiteError(f"Bad line range {lo}-{hi}.", "give start_line <= end_line")
    return [line for line in lines if lo <= line.line <= hi]


def render_lines(lines: Sequence[Line], cap: int = MAX_FETCH_BYTES) -> tuple[str, int, bool]:
    """Numbered text of `lines` up to `cap` UTF-8 bytes, how many lines it holds, and whether it was cut.
    The cut falls between lines, except that a first line longer than the cap is itself cut short."""
    out: list[str] = []
    size, page = 0, None
    for count, line in enumerate(lines):
        piece = f"{line.line}\t{line.text}\n"
        if line.page is not None and line.page != page:
            piece, page = f"--- page {line.page} ---\n{piece}", line.page
        size += len(piece.encode("utf-8"))
        if size > cap:
            if not out:
                return piece.encode("utf-8")[:cap].decode("utf-8", "ignore"), 1, True
            return "".join(out), count, True
        out.append(piece)
    return "".join(out), len(lines), False


def doc_text(
    path: Path, data: bytes, start: int | None, end: int | None, page: int | None, cap: int = MAX_FETCH_BYTES
) -> DocText:
    fmt, lines = document_lines(path, data)
    chosen = select_lines(lines, start, end, page)
    text, shown, cut = render_lines(chosen, cap)
    rest = chosen[shown] if shown < len(chosen) else None
    pages = max((line.page or 0 for line in lines), default=0) or None
    return DocText(
        path=str(path),
        format=fmt,
        total_lines=len(lines) if pages else (lines[-1].line if lines else 0),
        pages=pages,
        start_line=chosen[0].line if chosen else None,
        end_line=chosen[shown - 1].line if shown else None,
        truncated=cut,
        next_start_line=rest.line if rest else None,
        next_page=rest.page if rest else None,
        text=text,
    )


# -------------------------------------------------------------------------------------------- engine


class KnowledgeBase:
    """The tools' logic over one Engine, serialised by a lock. The index is opened for a call and closed
    `idle_release_s` after the last one (0: at once), so other Citeline processes can take the writer lock."""

    def __init__(self, home: str | os.PathLike[str] | None = None, idle_release_s: float = 5.0) -> None:
        from engine.api import Engine

        self._engine = Engine(home)
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
            catalog = engine.catalog
            _require_chunks(catalog)
            roots = _roots(engine.folders())
            where = str(_folder_inside(folder, roots)) if folder else None
            missing, total = catalog.count_missing_vectors()
            mode: Literal["hybrid", "keyword"] = "hybrid" if total > missing else "keyword"
            note = _coverage_note(mode, total - missing, total)
            hits, mode, note = _run_search(engine, query, k, mode, note, where, file_glob)
        return SearchOut(
            query=query, mode=mode, note=note, hits=[_hit_out(r, h) for r, h in enumerate(hits, 1)]
        )

    # -- fetch_doc ------------------------------------------------------------------------------------
    def fetch(
        self, path: str, start_line: int | None = None, end_line: int | None = None, page: int | None = None
    ) -> DocText:
        with self._session() as engine:
            target = resolve_inside(path, _roots(engine.folders()))
            if target.is_dir():
                raise CiteError(f"{path} is a folder.", "list its files with list_kb_topics or search_kb")
            _require_indexed(engine.catalog.file(str(target)), target)
        return doc_text(target, _read(target), start_line, end_line, page)

    # -- list_kb_topics -------------------------------------------------------------------------------
    def topics(self) -> Topics:
        with self._session() as engine:
            catalog = engine.catalog
            folders = [_folder_topics(catalog, f) for f in engine.folders()]
            missing, total = catalog.count_missing_vectors()
            chunks = catalog.count_chunks()
        note = "" if folders else "No folder is watched yet; add one with: citeline add FOLDER"
        return Topics(
            folders=folders,
            chunks=chunks,
            vectors_fraction=1.0 if not total else (total - missing) / total,
            search_mode="hybrid" if total > missing else "keyword",
            note=note,
        )

    # -- check_staleness ------------------------------------------------------------------------------
    def staleness(self, path: str, max_age_days: int = 30) -> Staleness:
        with self._session() as engine:
            target = resolve_inside(path, _roots(engine.folders()))
            if target.is_dir():
                raise CiteError(f"{path} is a folder.", "give a file")
            row = engine.catalog.file(str(target))
            siblings = _siblings(engine.catalog, row, target)
            indexed_at = _indexed_at(engine.catalog, str(target))
        return _staleness(target, row, siblings, indexed_at, max_age_days)

    # -- ask ------------------------------------------------------------------------------------------
    def ask(self, question: str) -> AnswerOut:
        if not question.strip():
            raise CiteError("The question is empty.", "ask something the folders can answer")
        with self._session() as engine:
            ask: Callable[[str], Answer] | None = getattr(engine, "ask", None)
            if ask is None:
                raise CiteError(
                    "answering is not available in this build", "use search_kb and fetch_doc instead"
                )
            _require_chunks(engine.catalog)
            answer = ask(question)
        return _answer_out(answer)


def _require_chunks(catalog: Catalog) -> None:
    if catalog.count_chunks() == 0:
        raise CiteError(
            "The index is empty: nothing has been indexed yet.",
            "add a folder with: citeline add FOLDER (or wait for the first sync to finish)",
        )


def _coverage_note(mode: str, done: int, total: int) -> str:
    if mode == "keyword":
        return "keyword (BM25) only: no embeddings yet; run citeline sync to add them"
    return "" if done == total else f"vectors cover {done}/{total} chunk texts; the rest are found by keyword"


def _run_search(
    engine: Engine,
    query: str,
    k: int,
    mode: Literal["hybrid", "keyword"],
    note: str,
    folder: str | None,
    file_glob: str | None,
) -> tuple[list[Hit], Literal["hybrid", "keyword"], str]:
    want = min(max(k * 10, 100), 500) if file_glob else k
    ext = re.fullmatch(r"\*\.(\w+)", file_glob.strip()) if file_glob else None
    exts = (ext.group(1),) if ext else ()  # "*.md": let the engine filter before ranking is cut
    try:
        reranker = engine.default_reranker() if mode == "hybrid" else None
        result = engine.search(query, k=want, mode=mode, folder=folder, extensions=exts, reranker=reranker)
    except MissingModel as exc:
        if mode != "hybrid":
            raise
        result = engine.search(query, k=want, mode="keyword", folder=folder, extensions=exts)
        mode, note = "keyword", f"keyword (BM25) only: {exc.message} ({exc.hint})"
    roots = _roots(engine.folders())
    hits = [h for h in result.hits if not file_glob or glob_match(file_glob, Path(h.path), roots)]
    return hits[:k], mode, note


def glob_match(pattern: str, path: Path, roots: Sequence[Path]) -> bool:
    """A pattern with no "/" matches the file name ("*.md"); one with "/" the path relative to its watched
    folder, where "*" also crosses "/" ("docs/*.md" matches docs/a/b.md)."""
    pattern = pattern.strip().replace("\\", "/")
    if "/" not in pattern:
        return fnmatch.fnmatch(path.name.lower(), pattern.lower())
    root = next((r for r in roots if _within(path, r)), None)
    rel = PurePath(os.path.relpath(path, root)).as_posix() if root else path.as_posix()
    return fnmatch.fnmatch(rel.lower(), pattern.lower().lstrip("/"))


def _hit_out(rank: int, hit: Hit) -> SearchHit:
    return SearchHit(
        rank=rank,
        path=hit.path,
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
        rerank_score=hit.rerank_score,
        modified=_iso(hit.mtime),
    )


def _folder_topics(catalog: Catalog, folder: FolderRow) -> FolderTopics:
    root = Path(folder.path)
    files = catalog.files(folder.id)
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
        DocHeading(file=rel.as_posix(), headings=_top_headings(catalog, f.id))
        for f, rel in md[:MAX_HEADED_FILES]
    ]
    return FolderTopics(
        path=folder.path,
        files=len(files),
        indexed=len(indexed),
        skipped=sum(f.status == "skipped" for f in files),
        failed=sum(f.status == "failed" for f in files),
        chunks=sum(f.chunks for f in files),
        synced_at=_when(folder.synced_at),
        root_files=sum(len(rel.parts) == 1 for rel in rels),
        subfolders=[SubFolder(name=n, files=c) for n, c in sorted(subs.items())],
        file_types=dict(sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))),
        markdown=[h for h in headed if h.headings],
        markdown_truncated=len(md) > MAX_HEADED_FILES,
    )


def _top_headings(catalog: Catalog, file_id: int) -> list[str]:
    """The first segment of each chunk's heading path, in order, without repeats."""
    seen: dict[str, None] = {}
    for chunk in catalog.chunks_of_file(file_id):
        top = chunk.heading.split(" > ", 1)[0].strip()
        if top:
            seen.setdefault(top, None)
    return list(seen)


def _indexed_at(catalog: Catalog, path: str) -> str | None:
    # FileRow does not carry indexed_at; this read goes through the catalog's own read cursor.
    row = catalog._cur().execute("SELECT indexed_at FROM files WHERE path = ?", [path]).fetchone()
    return _when(row[0]) if row else None


# ------------------------------------------------------------ staleness (rules: engine/answer/conflicts.py)


@dataclass(frozen=True)
class _Sibling:
    path: Path
    mtime: float
    indexed: bool


def _siblings(catalog: Catalog, row: FileRow | None, target: Path) -> list[_Sibling]:
    """Other catalogued files of the same directory (no disk walk)."""
    if row is None:
        rows = [f for f in catalog.files() if Path(f.path).parent == target.parent]
    else:
        rows = [f for f in catalog.files(row.folder_id) if Path(f.path).parent == target.parent]
    return [_Sibling(Path(f.path), f.mtime, f.status == "indexed") for f in rows if f.path != str(target)]


def read_facts(path: Path, mtime: float, readable: bool) -> DocFacts:
    """DocFacts from the file's extracted text when it may be read, else from its name alone."""
    if not readable:
        return doc_facts(path, mtime)
    from engine.ingest.extract import extract

    try:
        document = extract(path, path.read_bytes())
    except (ExtractError, OSError):
        return doc_facts(path, mtime)
    return doc_facts(path, mtime, document.title, (line.text for line in document.lines))


def _judge(facts: DocFacts, siblings: Sequence[_Sibling]) -> list[tuple[DocFacts, Judgement]]:
    """The siblings that look like versions of the file (MAX_SIBLINGS at most), each judged against it."""
    judged: list[tuple[DocFacts, Judgement]] = []
    for sib in siblings:
        if len(judged) < MAX_SIBLINGS and same_family(facts.path, sib.path):
            mtime = sib.path.stat().st_mtime if sib.path.exists() else sib.mtime
            other = read_facts(sib.path, mtime, sib.indexed)
            judged.append((other, compare(facts, other)))
    return judged


def _related(other: DocFacts, judgement: Judgement) -> Related:
    return Related(
        path=str(other.path),
        relation=judgement.relation,
        reasons=list(judgement.reasons),
        modified=_iso(other.mtime),
    )


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


def _staleness(
    target: Path, row: FileRow | None, siblings: Sequence[_Sibling], indexed_at: str | None, max_age_days: int
) -> Staleness:
    stat = target.stat()
    now = datetime.now(timezone.utc).timestamp()
    age = max(0.0, (now - stat.st_mtime) / 86400)
    facts = read_facts(target, stat.st_mtime, row is not None and row.status == "indexed")
    judged = _judge(facts, siblings)
    replaced, line = verdict(facts, judged, age, max_age_days)
    return Staleness(
        path=str(target),
        modified=_iso(stat.st_mtime),
        age_days=round(age, 2),
        max_age_days=max_age_days,
        older_than_max=age > max_age_days,
        index_status=row.status if row else "not indexed",
        indexed_at=indexed_at,
        changed_since_indexed=row is not None and (row.mtime != stat.st_mtime or row.size != stat.st_size),
        draft=facts.draft,
        version=".".join(map(str, facts.version)) if facts.version else None,
        effective_date=facts.effective.isoformat() if facts.effective else None,
        superseded=bool(replaced) or facts.marked_superseded,
        superseded_by=replaced,
        related=[_related(other, judgement) for other, judgement in judged],
        verdict=line,
    )


def _answer_out(answer: Answer) -> AnswerOut:
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
                        path=c.path,
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
                path=h.path,
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


# -------------------------------------------------------------------------------------------- server

INSTRUCTIONS = """Citeline: search and cited answers over the user's private folders, offline and read-only.
Start with search_kb; open the lines around a hit with fetch_doc(path, start_line, end_line) (give page for a
PDF). Cite as path:start_line-end_line. Before relying on a policy or decision record, call check_staleness:
a newer version may supersede it. ask returns a verified cite-or-refuse answer; a refusal means the folders do
not support an answer. list_kb_topics shows what the folders hold."""

Query = Annotated[
    str, Field(description="What to look for: words, identifiers or a question.", max_length=2000)
]
TopK = Annotated[int, Field(ge=1, le=50, description="How many chunks to return.")]
FolderArg = Annotated[
    str | None, Field(description="Only search inside this folder (a watched folder or a sub-folder of one).")
]
GlobArg = Annotated[
    str | None,
    Field(
        description='Only files matching this glob: "*.md" matches names; '
        '"docs/*.py" matches paths relative to the watched folder.'
    ),
]
PathArg = Annotated[
    str,
    Field(
        description="A file path inside a watched folder: absolute (as search_kb "
        "returns it) or relative to a watched folder."
    ),
]
LineArg = Annotated[int | None, Field(ge=1, description="1-based line number (inclusive).")]
PageArg = Annotated[int | None, Field(ge=1, description="PDF page; line numbers then count within it.")]
AgeArg = Annotated[int, Field(ge=0, le=36500, description="Older than this many days counts as stale.")]
QuestionArg = Annotated[str, Field(description="A question the folders should answer.", max_length=2000)]


def build_server(kb: KnowledgeBase) -> MCPServer[Any]:
    """The MCP server with its five read-only tools over `kb`."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:
        raise _mcp_unusable() from exc

    server: MCPServer[Any] = MCPServer(
        "citeline", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    read_only = ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )

    def guarded(call: Callable[[], T]) -> T:
        try:
            return call()
        except CiteError as exc:
            raise ToolError(str(exc)) from exc
        except OSError as exc:
            raise ToolError(f"{exc.filename or 'file'}: {exc.strerror or exc}") from exc

    @server.tool(annotations=read_only)
    def search_kb(
        query: Query, k: TopK = 5, folder: FolderArg = None, file_glob: GlobArg = None
    ) -> SearchOut:
        """Search the indexed folders. Returns ranked chunks with path, line range (and PDF page), heading
        or code symbol, a snippet, the chunk text and the ranking scores. Mode is hybrid (BM25 + embeddings,
        fused by RRF, the top 20 reordered by the second stage set in Citeline, MaxSim by default) when
        embeddings exist, else keyword; the result says which."""
        return guarded(lambda: kb.search(query, k, folder, file_glob))

    @server.tool(annotations=read_only)
    def fetch_doc(
        path: PathArg, start_line: LineArg = None, end_line: LineArg = None, page: PageArg = None
    ) -> DocText:
        """Read an indexed file from a watched folder, whole or a line range, as numbered lines (the numbers
        citations use). PDF and DOCX are shown as extracted text, PDFs with page markers. Output is capped at
        200 KB; when truncated, continue from next_start_line (and next_page)."""
        return guarded(lambda: kb.fetch(path, start_line, end_line, page))

    @server.tool(annotations=read_only)
    def list_kb_topics() -> Topics:
        """The watched folders and what they hold: file counts by status, top-level sub-folders, file types,
        and the top headings of Markdown files. Use it to learn what can be asked."""
        return guarded(kb.topics)

    @server.tool(annotations=read_only)
    def check_staleness(path: PathArg, max_age_days: AgeArg = 30) -> Staleness:
        """Is this file current? Its age, when it was indexed, and whether a newer version supersedes it:
        explicit markers ("supersedes", "superseded by", "replaces", Status: superseded), versions (v2,
        version 3) and years in names, "Effective"/"Last updated" dates, DRAFT, and sibling files of the same
        folder whose names share a stem (pto_policy.md vs pto_policy_2023.md)."""
        return guarded(lambda: kb.staleness(path, max_age_days))

    @server.tool(annotations=read_only)
    def ask(question: QuestionArg) -> AnswerOut:
        """Answer from the folders with citations (path, lines, quote) for every sentence, or refuse when the
        evidence does not support an answer (refused=true). Conflicting sources are listed with which is
        current. Slower than search_kb: it runs the answer model."""
        return guarded(lambda: kb.ask(question))

    return server


def _mcp_unusable() -> CiteError:
    """Why the SDK did not import: absent, or a 1.x release (this server uses the 2.x MCPServer API)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp")
    except PackageNotFoundError:
        return MissingDependency("mcp", "mcp")
    if re.match(r"[01]\.", found):
        return CiteError(
            f"mcp {found} is installed; `citeline mcp` needs mcp 2.", "run: pip install -U 'mcp>=2'"
        )
    return MissingDependency("mcp", "mcp")


def serve(
    home: str | os.PathLike[str] | None = None, http_port: int | None = None, idle_release_s: float = 5.0
) -> int:
    """Run the server on stdio, or streamable HTTP on 127.0.0.1:http_port; returns when the client leaves."""
    kb = KnowledgeBase(home, idle_release_s)
    try:
        server = build_server(kb)
        if http_port is None:
            server.run("stdio")
        else:
            if not 0 < http_port < 65536:
                raise CiteError(f"Bad port {http_port}.", "give a port between 1 and 65535")
            server.run("streamable-http", host="127.0.0.1", port=http_port)
    finally:
        kb.close()
    return 0
