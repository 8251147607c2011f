"""The Engine facade: the one door the CLI, the desktop app, the MCP server and tests use.

Front-ends import this module, engine.events, engine.errors and engine.settings, nothing else of the
engine (tests/test_layers.py holds them to it); the types they need are re-exported here. The module is
longer than the house's ~300 lines on purpose: it is the door, and each method is a few lines handing over
to the room behind it (indexer, retrieve, store, staleness, documents, backends, models).

Construction is cheap (no model is loaded); stores open on first use, models load on first need, once,
behind a lock per model. Writes (add/remove/sync) are serialised by one lock: one writer for DuckDB and
Tantivy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import numpy as np
import numpy.typing as npt

from engine import conversation_store as _threads
from engine import staleness as _staleness
from engine.answer import premise
from engine.answer.conflicts import DocFacts, Relation
from engine.answer.contract import lead_and_code, lines_block
from engine.backends.base import Embedder, Generator, Reranker
from engine.backends.embed_cache import Remembered
from engine.backends.registry import embedders, generators, rerankers
from engine.conversation import Searched, Thread, Turn, TurnSaved
from engine.conversation_export import Format as ExportFormat
from engine.documents import DocFormat, DocumentLines, document_lines, read_document
from engine.embed_spool import Spool, embedder_identity, run_worker
from engine.embed_spool import for_owner as spool_for_owner
from engine.errors import CiteError, MissingModel
from engine.events import Answer, Hit, IndexProgress
from engine.indexer import Event, Indexer
from engine.ingest import ocr as _ocr
from engine.ingest import pageview as _pageview
from engine.ingest.extract import readers
from engine.ingest.ocr_phase import OcrCache, OcrPhase, OcrPolicy, ScanText, content_hash
from engine.ingest.pageview import PageSpan, has_pages
from engine.ingest.pdfpages import Rendered
from engine.ingest.scans import NoTextLayer
from engine.ingest.secrets import redact_text
from engine.ingest.tokens import TokenCounter
from engine.ingest.watcher import FolderWatcher, watch_forever
from engine.names import lines, location, page_label, shown
from engine.progress import PhaseRates, time_left
from engine.retrieve.search import Filters, Mode, Searcher, SearchResult
from engine.retrieve.snippets import QueryTerms
from engine.settings import Settings, data_dir, model_cache_dir
from engine.staleness import RelatedVersion, StalenessReport
from engine.store.base import LexicalStore, VectorStore
from engine.store.catalog import Catalog, ChunkRow, FileRow, FolderRow
from engine.store.lexical import LexicalIndex
from engine.store.qdrant import open_stores, parse_backend
from engine.store.vectors import VectorIndex
from engine.text import EMBEDDING_INPUT, embedding_text, fold
from models.locator import Locator, ModelSpec, ModelStatus

# The public types front-ends may name, re-exported from the rooms that define them.
__all__ = [
    "DocFormat",
    "DocumentLines",
    "Embedder",
    "Engine",
    "ExportFormat",
    "FileRow",
    "FolderRow",
    "FolderStatus",
    "FolderWatcher",
    "Generator",
    "LocalModel",
    "Mode",
    "ModelSpec",
    "ModelStatus",
    "PageSpan",
    "PhaseRates",
    "QueryTerms",
    "RelatedVersion",
    "Relation",
    "Rendered",
    "Reranker",
    "SearchMode",
    "SearchPlan",
    "SearchResult",
    "Searched",
    "StalenessReport",
    "Status",
    "Thread",
    "Turn",
    "TurnSaved",
    "document_lines",
    "embedders",
    "generators",
    "has_pages",
    "lead_and_code",
    "lines",
    "lines_block",
    "location",
    "ocr_available",
    "page_label",
    "read_document",
    "redact_text",
    "rerankers",
    "shown",
    "time_left",
]


def ocr_available() -> str | None:
    """None when OCR can run here, else why not (the optional package is missing)."""
    return _ocr.available()


T = TypeVar("T")
SearchMode = Literal["auto", "keyword", "vector", "hybrid"]  # auto: hybrid once vectors exist, else keyword
EMBEDDER = "onnx"  # the embedders registry entry the engine uses

# Bump when extractors or the chunker change what they produce: the next sync re-chunks every file.
# 3: over-long lines cut into word runs; 4: at sentence ends where they can be; 5: PDFs without running
# headers and footers, a numbered title or a footnote's mark ending a sentence; 6: a numbered title whose
# number a dash sets off ("8.1 – Incompatibilities") ending a sentence too, a blank line after a Word
# heading (never quoted with the sentence under it); 7: HTML read as Markdown (headings, fenced <pre>, list
# markers, paragraph breaks) without its site's navigation, search and footer; Sphinx's `page.rst.txt`
# copies read in their own format; 8: a Markdown chunk that opens inside a fenced block opens with the
# block's fence line, and every chunk keeps its line map (a notebook's outputs, HTML's lines); 9 (the same
# session): that fence line counted in the chunk's budget and kept out of its span; 10: a long Markdown
# table's header carried into a chunk that opens among its rows; 11: a cut inside a paragraph moved above
# the comment lines or heading it would end on (chunker._before_leads); 12: that also after the cut is
# fitted to the exact count
CHUNKING_VERSION = 12
EMBED_WINDOW = 256  # MiniLM's maximum sequence length: longer chunk texts are truncated when embedded


def _never() -> bool:
    return False


@dataclass(frozen=True)
class LocalModel:
    """A model the local generator can run, for a model picker: read/write speeds are tokens per second
    measured on this machine's answers (None until it has answered)."""

    status: ModelStatus
    selected: bool
    size_mb: float | None
    read_per_s: float | None
    write_per_s: float | None


@dataclass(frozen=True)
class FolderStatus:
    path: str
    files: int
    indexed: int
    skipped: int
    failed: int
    chunks: int
    synced_at: Any


@dataclass(frozen=True)
class Status:
    home: str
    folders: list[FolderStatus]
    chunks: int
    vectors_done: int
    vectors_total: int
    skipped: list[FileRow] = field(default_factory=list)
    truncated: int = 0  # chunks longer than the embedder's 256-token window
    embed_tokens: int = 0  # tokens the embedder read for the stored vectors
    embed_saved: int = 0  # tokens it was spared: duplicate texts, headers several files share

    @property
    def vectors_fraction(self) -> float:
        return 1.0 if self.vectors_total == 0 else self.vectors_done / self.vectors_total


@dataclass(frozen=True)
class SearchPlan:
    """What a search runs: its mode and its second stage (None: the fused order stands)."""

    mode: Mode
    reranker: Reranker | None


class Engine:
    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        model_cache: Path | None = None,
        snapshot_when_busy: bool = False,
    ) -> None:
        """snapshot_when_busy: for a process that only reads (a search or status from a terminal): when
        another process is writing the index, read a snapshot of it instead of failing as "in use"."""
        self.home = data_dir(home)
        self._snapshot_when_busy = snapshot_when_busy
        self.settings = settings or Settings.load(self.home)
        self.locator = Locator(self.home, model_cache or model_cache_dir(self.home))
        self._write_lock = threading.RLock()
        self._open_lock = threading.Lock()
        self._catalog: Catalog | None = None
        self._lexical: LexicalStore | None = None
        self._vectors: VectorStore | None = None
        self._embedders: dict[str, Embedder] = {}
        self._remembered: dict[str, Remembered] = {}  # the embedder's question-time vectors (embed_cache)
        self._token_counters: dict[str, TokenCounter] = {}
        self._generators: dict[str, Generator] = {}
        self._rerankers: dict[str, Reranker] = {}
        self._loading: dict[tuple[str, str], threading.Lock] = {}  # one lock per model being loaded
        self._loading_guard = threading.Lock()

    # -- lazy parts -----------------------------------------------------------------------------------
    def _open(self) -> tuple[Catalog, LexicalStore, VectorStore]:
        with self._open_lock:
            if self._catalog is None:
                index_dir = self.home / "index"
                index_dir.mkdir(parents=True, exist_ok=True)
                catalog = Catalog(index_dir / "catalog.duckdb", self._snapshot_when_busy)
                try:
                    lexical, vectors = self._stores(index_dir, catalog)
                except BaseException:  # an unreachable server or a missing package: nothing stays open
                    catalog.close()
                    raise
                self._catalog, self._lexical, self._vectors = catalog, lexical, vectors
                if catalog.snapshot is None:  # a reader of a busy index repairs nothing: the writer will
                    with self._write_lock:
                        self._indexer().ensure_lexical_consistent()
        assert self._catalog is not None and self._lexical is not None and self._vectors is not None
        return self._catalog, self._lexical, self._vectors

    def _stores(self, index_dir: Path, catalog: Catalog) -> tuple[LexicalStore, VectorStore]:
        """The keyword and vector stores the `index_backend` setting names (embedded: files beside the
        catalog; Qdrant: collections on a server or in qdrant-client's local mode)."""
        target = parse_backend(self.settings.index_backend)
        if target is None:
            lexical = LexicalIndex(index_dir / "bm25", read_only=catalog.snapshot is not None)
            return lexical, VectorIndex.open(index_dir / "vectors.usearch", catalog)
        s = self.settings
        return open_stores(target, index_dir, catalog, s.qdrant_shards, s.qdrant_replicas)

    @property
    def catalog(self) -> Catalog:
        return self._open()[0]

    def use_settings(self, settings: Settings) -> None:
        """Make `settings` the engine's, dropping the generators they change (the local one when its model,
        threads, source budget or decoding change; Claude when its model does): the next answer builds
        them anew. An answer under way keeps its own generator and finishes on it."""
        old, self.settings = self.settings, settings
        depends = {
            "local": ("local_model", "threads", "local_sources", "local_lookup"),
            "claude": ("claude_model",),
        }
        for name, fields in depends.items():
            if any(getattr(old, f) != getattr(settings, f) for f in fields):
                with self._loading_guard:
                    lock = self._loading.setdefault(("generator", name), threading.Lock())
                with lock:  # not while another thread is building it
                    self._generators.pop(name, None)

    def _once(self, kind: str, name: str, cache: dict[str, T], create: Callable[[], T]) -> T:
        """`cache[name]`, created by `create` the first time; two threads asking at once load it once."""
        found = cache.get(name)
        if found is not None:
            return found
        with self._loading_guard:
            lock = self._loading.setdefault((kind, name), threading.Lock())
        with lock:
            if name not in cache:
                cache[name] = create()
            return cache[name]

    @property
    def _embedder(self) -> Embedder | None:
        """The embedder if it was created (tests check that opening a window creates none)."""
        return self._embedders.get(EMBEDDER)

    def embedder(self) -> Embedder:
        """The embedder (the ONNX one unless the registry entry is replaced); raises MissingModel with the
        fix if its files are absent. Its weights load on first use."""
        return self._once("embedder", EMBEDDER, self._embedders, lambda: embedders.create(EMBEDDER, self))

    def embed_remembered(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """The embedder's vectors for what an answer reads at question time (the question as the check
        reads it, the sentences an answer ranks, the passages it judges), each text read once per session
        (engine/backends/embed_cache.py). Indexing and the search's query vector read the embedder."""

        def remember() -> Remembered:
            return Remembered(self.embedder().embed)

        return self._once("remembered", EMBEDDER, self._remembered, remember)(texts)

    def token_counter(self) -> Callable[[str], int] | None:
        """The embedder's own wordpiece count (no padding, no truncation), or None without the model."""
        if "embedder" not in self._token_counters:
            try:
                tok_path = self.locator.tokenizer_path("embedder")
            except MissingModel:
                return None
            return self._once("tokens", "embedder", self._token_counters, lambda: _counter(tok_path))
        return self._token_counters["embedder"]

    def _chunking_signature(self) -> str:
        tokenizer = "approx" if self.token_counter() is None else "minilm"
        policy = self._ocr_policy()  # OCR turned on, off or installed: what is skipped, and why, changes
        ocr = ":ocr" if policy.ready else "" if policy.enabled else ":ocr-off"
        return f"{CHUNKING_VERSION}:{self.settings.chunk_tokens}:{tokenizer}{ocr}"

    def _ocr_policy(self) -> OcrPolicy:
        unavailable = _ocr.available() if self.settings.ocr else None
        return OcrPolicy(self.settings.ocr, unavailable, self.settings.ocr_max_pages)

    @property
    def ocr_cache(self) -> OcrCache:
        """What OCR read, by content hash, beside the index (deleting the index keeps it)."""
        return OcrCache(self.home / "ocr")

    def _indexer(self) -> Indexer:
        catalog, lexical, vectors = self._catalog, self._lexical, self._vectors
        assert catalog is not None and lexical is not None and vectors is not None
        return Indexer(
            catalog,
            cast(LexicalIndex, lexical),  # Indexer is typed for the embedded stores; any LexicalStore does
            cast(VectorIndex, vectors),
            self.token_counter(),
            self.settings.chunk_tokens,
            int(self.settings.max_file_mb * 1024 * 1024),
            ScanText(self.ocr_cache, self._ocr_policy()),
        )

    # -- folders --------------------------------------------------------------------------------------
    def add_folder(
        self, path: str | os.PathLike[str], include: Iterable[str] = (), exclude: Iterable[str] = ()
    ) -> FolderRow:
        folder = Path(path).expanduser().resolve()
        if not folder.is_dir():
            raise CiteError(f"{folder} is not a folder.", "give the path of a folder to index")
        for other in self.folders():
            if folder != Path(other.path) and Path(other.path) in folder.parents:
                raise CiteError(
                    f"{folder} is inside the watched folder {other.path}.",
                    "it is indexed already; use include/exclude patterns to narrow it",
                )
        with self._write_lock:
            return self.catalog.add_folder(str(folder), list(include), list(exclude))

    def remove_folder(self, path: str | os.PathLike[str]) -> None:
        folder = self.catalog.folder(str(Path(path).expanduser().resolve()))
        if folder is None:
            raise CiteError(f"{path} is not a watched folder.", "see: citeline status")
        with self._write_lock:
            self._indexer().remove_folder(folder)

    def folders(self) -> list[FolderRow]:
        return self.catalog.folders()

    def files(self, folder: str | os.PathLike[str] | None = None) -> list[FileRow]:
        """Indexed, skipped and failed files (with their reasons), of one folder or of all."""
        if folder is None:
            return self.catalog.files()
        row = self.catalog.folder(str(Path(folder).expanduser().resolve()))
        return self.catalog.files(row.id) if row else []

    def folder(self, path: str | os.PathLike[str]) -> FolderRow | None:
        """A watched folder by its path (with its include/exclude patterns), or None."""
        return self.catalog.folder(str(Path(path).expanduser().resolve()))

    def file(self, path: str | os.PathLike[str]) -> FileRow | None:
        """The catalog's row for a file (its status, and the reason when skipped or failed), or None."""
        return self.catalog.file(str(path))

    def headings(self, path: str) -> list[str]:
        """The heading path of each chunk of an indexed file, in order ("" where a chunk has none)."""
        row = self.catalog.file(path)
        return [] if row is None else [c.heading for c in self.catalog.chunks_of_file(row.id)]

    def chunk_count(self) -> int:
        return self.catalog.count_chunks()

    def chunked_otherwise(self) -> bool:
        """Whether the index holds chunks cut by another chunker or other chunk settings than this
        engine's: the next sync re-chunks every file in place, reusing the vectors of texts it knows."""
        self._open()
        return self.catalog.meta("chunking") not in ("", self._chunking_signature())

    def vector_coverage(self) -> tuple[int, int]:
        """(distinct chunk texts with a vector, distinct chunk texts)."""
        missing, total = self.catalog.count_missing_vectors()
        return total - missing, total

    def folder_of(self, path: Path) -> FolderRow | None:
        for folder in self.folders():
            root = Path(folder.path)
            if path == root or root in path.parents:
                return folder
        return None

    # -- indexing -------------------------------------------------------------------------------------
    def sync(
        self,
        paths: Iterable[str | os.PathLike[str]] | None = None,
        embed: bool = True,
        cancelled: Callable[[], bool] = _never,
    ) -> Iterator[Event]:
        """Index every watched folder (or just `paths`): BM25 first, then vectors behind."""
        self._open()
        with self._write_lock:
            indexer = self._indexer()
            indexer.ensure_chunking(self._chunking_signature())
            indexer.ensure_extraction(readers())
            if paths is None:
                for folder in self.folders():
                    yield from indexer.sync_folder(folder, cancelled)
            else:
                yield from self._sync_paths(
                    indexer, [Path(p).expanduser().resolve() for p in paths], cancelled
                )
            if embed:
                yield from self.embed_pending(cancelled)
            yield IndexProgress("done", 1, 1)

    def retry(
        self, paths: Iterable[str | os.PathLike[str]], cancelled: Callable[[], bool] = _never
    ) -> Iterator[Event]:
        """Read these files again though unchanged (failed ones, once a reader is fixed or a lock is gone);
        keyword index only: vectors follow with embed_pending."""
        targets = [Path(p).expanduser().resolve() for p in paths]
        self._open()
        with self._write_lock:
            self.catalog.mark_unread([str(p) for p in targets])
            yield from self.sync(targets, embed=False, cancelled=cancelled)

    def _sync_paths(
        self, indexer: Indexer, paths: list[Path], cancelled: Callable[[], bool]
    ) -> Iterator[Event]:
        groups: dict[int, tuple[FolderRow, list[Path]]] = {}
        for path in paths:
            folder = self.folder_of(path)
            if folder is not None:
                groups.setdefault(folder.id, (folder, []))[1].append(path)
        for folder, members in groups.values():
            if Path(folder.path) in members:  # the whole folder: a full sync, which records its time
                yield from indexer.sync_folder(folder, cancelled)
            else:
                yield from indexer.sync_paths(folder, members, cancelled)

    def embed_pending(self, cancelled: Callable[[], bool] = _never) -> Iterator[IndexProgress]:
        """The background phases after the keyword pass: vectors, then OCR of the files and pages without a
        text layer (each file keyword-searchable once read), then the vectors of what OCR read. Without the
        embedder's model, OCR still runs before MissingModel is raised. Only progress is yielded (the
        files OCR re-indexed are in the catalog)."""
        self._open()
        try:
            embedder = self.embedder()
        except MissingModel:
            yield from _progress(self.ocr_pending(cancelled))
            raise
        yield from self._embed(embedder, cancelled)
        if self._ocr_phase().pending():
            yield from _progress(self.ocr_pending(cancelled))
            yield from self._embed(embedder, cancelled)

    def _embed(self, embedder: Embedder, cancelled: Callable[[], bool]) -> Iterator[IndexProgress]:
        with self._write_lock:
            self._fit_vectors(embedder.dim)
            spool = spool_for_owner(self.spool_dir(), embedder_identity(embedder), str(self.home.resolve()))
            yield from self._indexer().embed_pending(embedder.embed, cancelled, spool)

    def spool_dir(self) -> Path:
        """Where embedding batches are shared with `citeline embed-worker` processes (the `embed_spool`
        setting; by default beside the index)."""
        if self.settings.embed_spool:
            return Path(self.settings.embed_spool).expanduser()
        return self.home / "index" / "embed-spool"

    def embed_worker(
        self,
        stop: Callable[[], bool] = _never,
        idle_exit: float | None = None,
        report: Callable[[str], None] | None = None,
    ) -> int:
        """Serve another process's embedding backlog (`citeline embed-worker`): embed the batches its
        owner puts in the spool until `stop()` or `idle_exit` idle seconds; returns the batches done.
        Opens no index, so it runs beside the app or `citeline watch` that owns it."""
        embedder = self.embedder()
        embedder.embed(["warm up"])  # load the model before announcing this worker
        spool = Spool(self.spool_dir(), embedder_identity(embedder))
        return run_worker(spool, embedder.embed, stop, idle_exit, report)

    def ocr_pending(self, cancelled: Callable[[], bool] = _never) -> Iterator[Event]:
        """OCR every waiting page ("ocr" progress counts pages), re-indexing each file as it is read."""
        self._open()
        with self._write_lock:
            yield from self._ocr_phase().run(cancelled)

    def _ocr_phase(self) -> OcrPhase:
        indexer = self._indexer()
        reader = lambda: _ocr.OcrReader(self.settings.threads)  # noqa: E731
        return OcrPhase(self.catalog, self.ocr_cache, self._ocr_policy(), reader, indexer.refresh)

    def _fit_vectors(self, dim: int) -> None:
        """The stored vectors are as wide as the embedder's and were read from the text as this version
        prepares it (`EMBEDDING_INPUT`); vectors of another model or of older inputs are dropped (and
        recomputed by this embed_pending) instead of failing or skewing every search."""
        catalog = self.catalog
        if catalog.vector_dim() != dim or catalog.meta("embedding_input", "raw") != EMBEDDING_INPUT:
            catalog.reset_vectors(dim)
            catalog.set_meta("embedding_input", EMBEDDING_INPUT)
            with self._open_lock:
                if self._vectors is not None:
                    self._vectors.reset(dim)

    # -- watching -------------------------------------------------------------------------------------
    def watcher(
        self,
        on_changes: Callable[[set[Path]], None],
        roots: Iterable[Path] | None = None,
        polling: bool = False,
    ) -> FolderWatcher:
        """A watcher (not started) over `roots` (default: the watched folders that exist); it hands
        debounced batches of changed paths to `on_changes` on its own thread: give them to the writer."""
        if roots is None:
            roots = [Path(f.path) for f in self.folders() if Path(f.path).is_dir()]
        return FolderWatcher(roots, on_changes, polling=polling)

    def watch(
        self,
        polling: bool = False,
        on_batch: Callable[[Iterator[Event]], None] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        """Keep the index in sync in the foreground until interrupted (or `stop` is set); each batch is a
        sync job handed to `on_batch` to drain, else drained here. The calling thread is the writer."""
        watch_forever(self, polling=polling, on_batch=on_batch, stop=stop)

    def run(self, job: Iterator[Event]) -> list[Event]:
        """Drain a job (tests and scripts)."""
        return list(job)

    # -- search ---------------------------------------------------------------------------------------
    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """A question's vector, read as the stored chunks were (`embedding_text`). Read by the model each
        time, not remembered: a search's latency, which the benchmarks measure, is a new query's."""
        vec: npt.NDArray[np.float32] = self.embedder().embed([embedding_text(text)])[0]
        return vec

    def searcher(self) -> Searcher:
        catalog, lexical, vectors = self._open()
        embed = self.embed_query if len(vectors) else None
        return Searcher(  # typed for the embedded stores; any LexicalStore/VectorStore does
            catalog,
            cast(LexicalIndex, lexical),
            cast(VectorIndex, vectors),
            embed,
            self.settings.candidates,
            self.settings.rrf_k,
        )

    def search(
        self,
        query: str,
        k: int = 10,
        mode: Mode = "hybrid",
        folder: str | None = None,
        extensions: Iterable[str] = (),
        reranker: Reranker | None = None,
    ) -> SearchResult:
        filters = Filters(
            folder=str(Path(folder).expanduser().resolve()) if folder else None,
            extensions=tuple(e.lower().lstrip(".") for e in extensions),
        )
        if mode == "vector" and not len(self._open()[2]):
            raise CiteError(
                "No vectors yet.", "run: citeline sync (embeddings fill in after keyword indexing)"
            )
        return self.searcher().search(query, k, mode, filters, reranker, self.settings.rerank_top)

    def plan_search(
        self, mode: SearchMode = "auto", rerank: str | None = None, answers: bool = False
    ) -> SearchPlan:
        """The one search policy, for the CLI, the desktop, MCP and answer evidence alike.

        Mode "auto" is hybrid once vectors exist, else keyword. `rerank` names a second stage ("none": no
        second stage); left out, the `rerank` setting applies to hybrid searches, and to answer evidence
        only when `rerank_answers` is set, and it is skipped when its model is missing. A named reranker
        whose model is missing raises MissingModel.
        """
        chosen: Mode = ("hybrid" if self.has_vectors() else "keyword") if mode == "auto" else mode
        if rerank is not None:
            return SearchPlan(chosen, None if rerank == "none" else self.reranker(rerank))
        wanted = self.settings.rerank_answers if answers else chosen == "hybrid"
        return SearchPlan(chosen, self.default_reranker() if wanted else None)

    def find(
        self,
        query: str,
        k: int = 10,
        mode: SearchMode = "auto",
        rerank: str | None = None,
        folder: str | None = None,
        extensions: Iterable[str] = (),
    ) -> SearchResult:
        """A search as plan_search decides it, which front-ends call (`search` runs what it is told)."""
        plan = self.plan_search(mode, rerank)
        return self.search(query, k, plan.mode, folder, extensions, plan.reranker)

    def reranker(self, name: str) -> Reranker:
        """A second-stage reranker by name ("maxsim" or "cross-encoder"); loads nothing until first use."""
        return self._once("reranker", name, self._rerankers, lambda: rerankers.create(name, self))

    def default_reranker(self) -> Reranker | None:
        """The `rerank` setting's reranker, or None when it is off or its model is missing (the search
        then stays hybrid, which is what it was before the second stage existed)."""
        if self.settings.rerank == "none":
            return None
        try:
            return self.reranker(self.settings.rerank)
        except MissingModel:
            return None

    def has_vectors(self) -> bool:
        return len(self._open()[2]) > 0

    def resolves(self, reference: str, mentioned_in: str) -> bool:
        """Whether a file path written in a document names a real file: next to that document, under a
        watched folder, or anywhere in the index (so "docs/x.md" in a manifest finds .../docs/x.md)."""
        ref = reference.replace("\\", "/")
        for base in [Path(mentioned_in).parent, *(Path(f.path) for f in self.catalog.folders())]:
            try:
                if (base / ref).is_file():
                    return True
            except (OSError, ValueError):
                continue
        tail = "/".join(part for part in ref.split("/") if part not in ("", ".", ".."))
        return bool(tail) and self.catalog.has_path_ending(tail)

    def doc_freq(self, term: str) -> tuple[int, int]:
        """(chunks holding `term`, all chunks), for IDF weights (gate.DocFreq). `term` is a term as
        text.stem writes it, the index's own analysis, and a stem is looked up as it is: analysed again, it
        can become another word ("releas" -> "relea"), one no chunk holds (LexicalStore.term_freq)."""
        return self._open()[1].term_freq(term)

    # -- answers --------------------------------------------------------------------------------------
    def generator(self, name: str) -> Generator:
        """A registered generator by name ("local", "claude", "extractive" or a third party's), created
        once and kept loaded."""
        return self._once("generator", name, self._generators, lambda: generators.create(name, self))

    def extractive_floor(self) -> float:
        """The relevance the extractive generator asks of a sentence: fitted by `citeline calibrate`
        (calibration.json), else the line as designed. Read here because the generators sit below the
        answer pipeline, whose calibration file it is."""
        from engine.answer.calibration import extractive_floor

        return extractive_floor()

    def extractive_weight(self) -> float:
        """The weight the extractive generator gives the answer check's probability beside its ranking
        among the sentences the check accepts: fitted (calibration.json), else 0."""
        from engine.answer.calibration import extractive_weight

        return extractive_weight()

    def evidence(self, question: str, k: int = 12) -> list[Hit]:
        """Ranked evidence for a question: hybrid (keyword only until vectors exist), reranked only when
        `rerank_answers` is set (plan_search)."""
        plan = self.plan_search(answers=True)
        return self.search(question, k=k, mode=plan.mode, reranker=plan.reranker).hits

    def ask_stream(
        self, question: str, generator: str | None = None, cancelled: Callable[[], bool] = _never
    ) -> Iterator[Any]:
        """Evidence first (EvidenceReady), then verified AnswerSentence events, then the final Answer."""
        from engine.answer.pipeline import ask_stream

        if not question.strip():
            raise CiteError("The question is empty.", "type a question")
        return ask_stream(self, question, generator, cancelled)

    def ask(self, question: str, generator: str | None = None) -> Answer:
        final = None
        for event in self.ask_stream(question, generator):
            if isinstance(event, Answer):
                final = event
        assert final is not None
        return final

    # -- threads (engine/conversation.py, conversation_store.py) ---------------------------------------
    def ask_thread_stream(
        self,
        question: str,
        thread: int | None = None,
        generator: str | None = None,
        cancelled: Callable[[], bool] = _never,
    ) -> Iterator[Any]:
        """A question in a thread (None: a new one, titled by the question): Searched (the standalone
        question searched), then ask_stream's events, then TurnSaved once the turn is stored."""
        from engine.conversation import thread_stream

        if not question.strip():
            raise CiteError("The question is empty.", "type a question")
        if thread is not None:
            _threads.require(self.catalog, thread)
        return thread_stream(self, thread, question, generator, cancelled)

    def ask_in_thread(
        self, question: str, thread: int | None = None, generator: str | None = None
    ) -> tuple[Searched, Answer, Turn]:
        searched: Searched | None = None
        saved: TurnSaved | None = None
        for event in self.ask_thread_stream(question, thread, generator):
            if isinstance(event, Searched):
                searched = event
            elif isinstance(event, TurnSaved):
                saved = event
        assert searched is not None and saved is not None
        return searched, saved.turn.answer, saved.turn

    def threads(self, search: str = "") -> list[Thread]:
        """Threads, the latest continued first; `search` keeps those whose questions hold all its words."""
        return _threads.threads(self.catalog, search)

    def thread(self, thread: int) -> Thread | None:
        return _threads.thread(self.catalog, thread)

    def find_thread(self, name: str) -> Thread | None:
        """A thread by id ("12", "#12") or title (any case, the latest of that title)."""
        return _threads.find_thread(self.catalog, name)

    def new_thread(self, title: str) -> Thread:
        return _threads.require(self.catalog, _threads.create_thread(self.catalog, title))

    def thread_turns(self, thread: int) -> list[Turn]:
        """The thread's turns in order, each with the cited files that changed since it was answered."""
        catalog = self.catalog
        _threads.require(catalog, thread)
        return _threads.with_changes(catalog, _threads.turns(catalog, thread))

    def rename_thread(self, thread: int, title: str) -> Thread:
        return _threads.rename_thread(self.catalog, thread, title)

    def delete_thread(self, thread: int) -> None:
        _threads.require(self.catalog, thread)
        _threads.delete_thread(self.catalog, thread)

    def export_thread(self, thread: int, fmt: ExportFormat = "markdown", turn: int | None = None) -> str:
        """The thread, or only its turn `turn` (the id of a Turn), as Markdown or JSON."""
        from engine.conversation_export import export

        found = self.thread_turns(thread)
        if turn is not None:
            found = [t for t in found if t.id == turn]
            if not found:
                raise CiteError(f"Thread {thread} has no turn {turn}.", "see: citeline threads show")
        return export(_threads.require(self.catalog, thread), found, fmt)

    # -- documents ------------------------------------------------------------------------------------
    def document(self, path: str | os.PathLike[str], max_bytes: int | None = None) -> DocumentLines:
        """A file's lines as citations number them (PDF/DOCX extracted, with what OCR read of its pages
        without a text layer); see engine/documents.py."""
        file = Path(path)
        if not has_pages(file):
            return read_document(file, max_bytes)
        data = file.read_bytes()
        try:
            doc = ScanText(self.ocr_cache, self._ocr_policy()).extract(file, data, content_hash(data))
        except NoTextLayer:  # nothing read yet (or ever): no lines, the page itself still shows
            return DocumentLines(str(file), "pdf", ())
        return DocumentLines(str(file), "pdf", doc.lines)

    def page_span(
        self, path: str | os.PathLike[str], page: int | None, start_line: int, end_line: int, quote: str = ""
    ) -> PageSpan:
        """Where lines start_line..end_line of `page` (a PDF's, or an image's: None) sit on the page, narrowed
        to `quote` when found: the page to show and the boxes to draw."""
        file = Path(path)
        return _pageview.locate(file, file.read_bytes(), self.ocr_cache, page, start_line, end_line, quote)

    def render_page(self, path: str | os.PathLike[str], page: int, width: int) -> Rendered:
        """Page `page` (1-based) of a PDF or an image, drawn `width` pixels wide, as RGB."""
        file = Path(path)
        return _pageview.render(file, file.read_bytes(), page, width)

    def next_chunk(self, chunk_id: int) -> ChunkRow | None:
        """The chunk after this one in its file (a lead-in's list may sit there), or None."""
        return self.catalog.next_chunk(chunk_id)

    def mentions(self, *terms: str, whole: bool = False) -> bool:
        """Whether any indexed file holds one of `terms` (case aside; `whole`: as a whole identifier): in
        its text, a heading or its path."""
        return self.catalog.mentions(*terms, whole=whole)

    def together(self, *words: str, member: str, keyword: bool = False) -> bool:
        """Whether one indexed file holds every one of `words` as a whole word and `member` where code
        defines, assigns or calls it (case and accents aside); `keyword`: where code or a document takes or
        sets it as a keyword (premise.keyword: `flush=True`, `flush: bool`, not `file.flush()`)."""
        pattern = premise.keyword if keyword else premise.member
        return self.catalog.holds_together(words, member, pattern(fold(member)))

    def knows(self, word: str) -> bool:
        """Whether any indexed file holds `word` (a name the user wrote), case and accents aside, or, for a
        long word (premise.TYPO_LENGTH letters), a word one typo from it ("Hatmanis" finds "Hartmanis").
        Term look-ups in the lexical index, whose folded field holds every word that reads otherwise
        without its accents: milliseconds at any size of index, no scan."""
        typos = 1 if len(word) >= premise.TYPO_LENGTH else 0
        lexical = self._open()[1]
        folded = fold(word)
        return lexical.near(word, typos) or (folded != word.lower() and lexical.near(folded, typos))

    def resembles(self, word: str) -> bool:
        """Whether any indexed file holds a word that `word`, one English does not know, may be a slip of
        the keys for: one edit away, the first letter too, from four letters, two from eight ("rocessors"
        for processors, "anouncment" for announcement). Tantivy's fuzzy term query; Qdrant's lexical store
        matches exactly."""
        if len(word) < 4:
            return False
        return self._open()[1].near(fold(word), 2 if len(word) >= 8 else 1, first_letter=True)

    def head_text(self, path: str) -> str:
        """The opening text of an indexed file, which its staleness facts are read from."""
        return _staleness.head_text(self.catalog, path)

    def doc_facts(self, path: str) -> DocFacts:
        """What a file says about its own currency: the one input `ask` and check_staleness judge by."""
        row, file = self.catalog.file(path), Path(path)
        mtime = row.mtime if row else (file.stat().st_mtime if file.exists() else 0.0)
        return _staleness.facts_of(self.catalog, path, row, mtime)

    def staleness(self, path: str | os.PathLike[str], max_age_days: int = 30) -> StalenessReport:
        """Whether an existing file is current: its age, its index state, and newer versions of it."""
        return _staleness.report(self.catalog, Path(path), max_age_days)

    # -- models ---------------------------------------------------------------------------------------
    def models(self, verify: bool = False) -> list[ModelStatus]:
        """Each model role's state (verified, missing, corrupt); `verify` rehashes every file."""
        return self.locator.status(force=verify)

    def local_models(self) -> list[LocalModel]:
        """Every model the local generator can run (the generator roles, imported files included), its
        state, whether it is the one selected, and its speed as measured on this machine's answers."""
        from engine.backends.rates import Rates, rates_path

        out = []
        for status in self.locator.status():
            if not status.role.startswith("generator"):
                continue
            spec = self.locator.spec(status.role)
            file = status.path or self.locator.cache / spec.file
            rates = Rates(rates_path(self.home, file))
            out.append(
                LocalModel(
                    status,
                    status.role == self.settings.local_model,
                    spec.size_mb,
                    rates.read.per_s,
                    rates.write.per_s,
                )
            )
        return out

    def model_specs(self) -> list[ModelSpec]:
        return list(self.locator.specs)

    def model_spec(self, role: str) -> ModelSpec:
        return self.locator.spec(role)

    def fetch_model(self, role: str, progress: Callable[[int, int], None] | None = None) -> Path:
        """Download (or assemble) and verify a role's default model; returns its file.
        `progress(done_bytes, total_bytes)` follows the download, about twice a second."""
        return self.locator.fetch(role, progress)

    def download_model(self, role: str, url: str) -> Path:
        """Download a role's model from a mirror, verified against the manifest's checksum."""
        from models.download import download

        spec = self.locator.spec(role)
        if not spec.sha256:
            raise CiteError(
                f"The {role} role has no published checksum to verify a download against.",
                "import a file you trust instead: citeline models import PATH --role ROLE",
            )
        return download(url, self.locator.cache / spec.file, spec.sha256)

    def import_model(self, path: Path, role: str, tokenizer: Path | None = None) -> ModelStatus:
        """Copy a user's GGUF or ONNX file into the data dir as the model for `role`."""
        return self.locator.import_model(path, role, tokenizer)

    # -- status ---------------------------------------------------------------------------------------
    def status(self) -> Status:
        catalog = self.catalog
        folders = []
        skipped: list[FileRow] = []
        for folder in catalog.folders():
            files = catalog.files(folder.id)
            counts = {s: sum(1 for f in files if f.status == s) for s in ("indexed", "skipped", "failed")}
            folders.append(
                FolderStatus(
                    folder.path,
                    len(files),
                    counts["indexed"],
                    counts["skipped"],
                    counts["failed"],
                    sum(f.chunks for f in files),
                    folder.synced_at,
                )
            )
            skipped.extend(f for f in files if f.status != "indexed")
        missing, total = catalog.count_missing_vectors()
        read, saved = catalog.embed_tokens()
        return Status(
            str(self.home),
            folders,
            catalog.count_chunks(),
            total - missing,
            total,
            skipped,
            catalog.count_truncated(EMBED_WINDOW),
            read,
            saved,
        )

    def close(self) -> None:
        with self._open_lock:
            if self._vectors is not None and self._catalog is not None:
                self._vectors.close()  # saved, so the next start loads it instead of reconciling
            if self._catalog is not None:
                self._catalog.close()
            self._catalog = self._lexical = self._vectors = None


def _progress(events: Iterator[Event]) -> Iterator[IndexProgress]:
    for event in events:
        if isinstance(event, IndexProgress):
            yield event


def _counter(tokenizer: Path) -> TokenCounter:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer))
    tok.no_truncation()
    tok.no_padding()
    return TokenCounter(tok)
