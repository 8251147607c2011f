"""The Engine facade: the one door the CLI, the desktop app, the MCP server and tests use.

Construction is cheap (no model is loaded); stores open on first use, models load on first need.
Writes (add/remove/sync) are serialised by one lock: one writer for DuckDB and Tantivy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import CiteError, MissingModel
from engine.events import Answer, Hit, IndexProgress
from engine.indexer import Event, Indexer
from engine.ingest.tokens import TokenCounter
from engine.retrieve.search import Filters, Mode, Reranker, Searcher, SearchResult
from engine.settings import Settings, data_dir, model_cache_dir
from engine.store.catalog import Catalog, FileRow, FolderRow
from engine.store.lexical import LexicalIndex
from engine.store.vectors import VectorIndex
from models.locator import Locator

# Bump when extractors or the chunker change what they produce: the next sync re-chunks every file.
CHUNKING_VERSION = 2
EMBED_WINDOW = 256  # MiniLM's maximum sequence length: longer chunk texts are truncated when embedded


def _never() -> bool:
    return False


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

    @property
    def vectors_fraction(self) -> float:
        return 1.0 if self.vectors_total == 0 else self.vectors_done / self.vectors_total


class Engine:
    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        model_cache: Path | None = None,
    ) -> None:
        self.home = data_dir(home)
        self.settings = settings or Settings.load(self.home)
        self.locator = Locator(self.home, model_cache or model_cache_dir(self.home))
        self._write_lock = threading.RLock()
        self._open_lock = threading.Lock()
        self._catalog: Catalog | None = None
        self._lexical: LexicalIndex | None = None
        self._vectors: VectorIndex | None = None
        self._embedder: Any = None
        self._token_counter: TokenCounter | None = None
        self._generators: dict[str, Any] = {}
        self._rerankers: dict[str, Any] = {}

    # -- lazy parts -----------------------------------------------------------------------------------
    def _open(self) -> tuple[Catalog, LexicalIndex, VectorIndex]:
        with self._open_lock:
            if self._catalog is None:
                index_dir = self.home / "index"
                index_dir.mkdir(parents=True, exist_ok=True)
                catalog = Catalog(index_dir / "catalog.duckdb")
                lexical = LexicalIndex(index_dir / "bm25")
                vectors = VectorIndex(catalog.vector_dim())
                ids, mat = catalog.vectors_for_chunks()
                vectors.add(ids, mat)
                self._catalog, self._lexical, self._vectors = catalog, lexical, vectors
                with self._write_lock:
                    self._indexer().ensure_lexical_consistent()
        assert self._catalog is not None and self._lexical is not None and self._vectors is not None
        return self._catalog, self._lexical, self._vectors

    @property
    def catalog(self) -> Catalog:
        return self._open()[0]

    def embedder(self) -> Any:
        """The ONNX embedder (loaded on first use); raises MissingModel with the fix if absent."""
        if self._embedder is None:
            from engine.backends.onnx_embed import OnnxEmbedder

            self._embedder = OnnxEmbedder(
                self.locator.path("embedder"),
                self.locator.tokenizer_path("embedder"),
                threads=self.settings.threads,
            )
        return self._embedder

    def token_counter(self) -> Callable[[str], int] | None:
        """The embedder's own wordpiece count (no padding, no truncation), or None without the model."""
        if self._token_counter is None:
            try:
                tok_path = self.locator.tokenizer_path("embedder")
            except MissingModel:
                return None
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(str(tok_path))
            tok.no_truncation()
            tok.no_padding()
            self._token_counter = TokenCounter(tok)
        return self._token_counter

    def _chunking_signature(self) -> str:
        tokenizer = "approx" if self.token_counter() is None else "minilm"
        return f"{CHUNKING_VERSION}:{self.settings.chunk_tokens}:{tokenizer}"

    def _indexer(self) -> Indexer:
        catalog, lexical, vectors = self._catalog, self._lexical, self._vectors
        assert catalog is not None and lexical is not None and vectors is not None
        return Indexer(
            catalog,
            lexical,
            vectors,
            self.token_counter(),
            self.settings.chunk_tokens,
            int(self.settings.max_file_mb * 1024 * 1024),
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
        self._open()
        embedder = self.embedder()
        with self._write_lock:
            self._fit_vectors(embedder.dim)
            yield from self._indexer().embed_pending(embedder.embed, cancelled)

    def _fit_vectors(self, dim: int) -> None:
        """The stored vectors are as wide as the embedder's; vectors of another model are dropped (and
        recomputed by this embed_pending) instead of failing every search."""
        catalog = self.catalog
        if catalog.vector_dim() != dim:
            catalog.reset_vectors(dim)
            with self._open_lock:
                self._vectors = VectorIndex(dim)

    def run(self, job: Iterator[Event]) -> list[Event]:
        """Drain a job (tests and scripts)."""
        return list(job)

    # -- search ---------------------------------------------------------------------------------------
    def _embed_query(self, text: str) -> npt.NDArray[np.float32]:
        vec: npt.NDArray[np.float32] = self.embedder().embed([text])[0]
        return vec

    def searcher(self) -> Searcher:
        catalog, lexical, vectors = self._open()
        embed = self._embed_query if len(vectors) else None
        return Searcher(catalog, lexical, vectors, embed, self.settings.candidates, self.settings.rrf_k)

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

    def reranker(self, name: str) -> Reranker:
        """A second-stage reranker by name ("maxsim" or "cross-encoder"); loads nothing until first use."""
        from engine.backends.registry import rerankers

        if name not in self._rerankers:
            self._rerankers[name] = rerankers.create(name, self)
        reranker: Reranker = self._rerankers[name]
        return reranker

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

    def doc_freq(self, word: str) -> tuple[int, int]:
        return self._open()[1].doc_freq(word)

    # -- answers --------------------------------------------------------------------------------------
    def generator(self, name: str) -> Any:
        """A generator by name ("local", "claude", "extractive"), created once and kept loaded."""
        from engine.backends.registry import generators

        if name not in self._generators:
            self._generators[name] = generators.create(name, self)
        return self._generators[name]

    def evidence(self, question: str, k: int = 12) -> list[Hit]:
        """Ranked evidence for a question: hybrid (keyword only until vectors exist), reranked only when
        `rerank_answers` is set."""
        mode: Mode = "hybrid" if self.has_vectors() else "keyword"
        reranker = self.default_reranker() if self.settings.rerank_answers else None
        return self.search(question, k=k, mode=mode, reranker=reranker).hits

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
        return Status(
            str(self.home),
            folders,
            catalog.count_chunks(),
            total - missing,
            total,
            skipped,
            catalog.count_truncated(EMBED_WINDOW),
        )

    def close(self) -> None:
        with self._open_lock:
            if self._catalog is not None:
                self._catalog.close()
            self._catalog = self._lexical = self._vectors = None
