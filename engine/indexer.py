"""The indexing pipeline: scan -> extract -> chunk -> catalog + BM25 first, vectors behind.

Every job is a generator of typed events; each yield is a cancellation point. Only the caller that owns
the engine's writer lock runs these (one writer for DuckDB and Tantivy).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.embed_spool import OWNER, Spool
from engine.errors import Cancelled, CiteError
from engine.events import Chunk, FileIndexed, FileRemoved, FileSkipped, IndexProgress
from engine.ingest import scanner
from engine.ingest.chunker import approx_tokens
from engine.ingest.chunker import chunk as chunk_document
from engine.ingest.extract import UnsupportedType, extract
from engine.ingest.ocr_phase import ScanText
from engine.ingest.scans import NO_TEXT_LAYER, NoTextLayer
from engine.ingest.secrets import note as secrets_note
from engine.ingest.secrets import redact as redact_secrets
from engine.store.base import LexicalRow
from engine.store.catalog import Catalog, FileRow, FileWrite, FolderRow, QueuedText
from engine.store.lexical import LexicalIndex
from engine.store.vectors import VectorIndex
from engine.text import embedded_chunk, embedding_text

log = logging.getLogger(__name__)

Event = IndexProgress | FileIndexed | FileSkipped | FileRemoved
BATCH_FILES = 64
BATCH_CHUNKS = 2000
EMBED_BATCH = 32
EMBED_WINDOW = 256  # texts taken from the queue at once: a search re-orders what follows within ~13 s
HEAD_LINES = 3  # first lines that several files' first chunks must share to be a copied header
HEAD_SAMPLE = 50  # first chunks of a group read to find how long their shared header is
# A shared header shorter than this is embedded with its chunk as before: embedding a chunk in two parts
# moves its vector (cosine 0.84-0.97 to the whole chunk's on LangChain's docs, whose shared leading lines
# are 8-25 token notes and diagram openings), worth it for a licence notice (~100-200 tokens a file
# spared) but not for a line or two.
MIN_HEAD_TOKENS = 64
SPOOL_PATIENCE = 30.0  # seconds a worker may hold a batch before this process has timed one of its own


def text_hash(text: str) -> str:
    """The key a chunk's vector is stored under, made of what the embedder reads (its place and text,
    `chunk_key`): texts that differ only in whitespace share one, since the embedder's tokenizer reads
    them as the same tokens (one model run, the vector copied)."""
    canonical = " ".join(text.split())
    return hashlib.blake2b(canonical.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def chunk_key(text: str, path: str, root: str, heading: str) -> str:
    """The key a chunk's vector is stored under: the hash of what the embedder reads of it, its place and
    its text (text.embedded_chunk). A copy of a passage elsewhere is read, and stored, again."""
    return text_hash(embedded_chunk(text, path, root, heading))


@dataclass
class Parsed:
    """A file ready to be written: its chunks, or the reason it has none."""

    scan: scanner.ScanResult
    digest: str
    chunks: list[Chunk]
    status: str  # indexed | skipped | failed
    error: str | None = None


MAX_CHUNKS_PER_FILE = 4_000  # ~3 MB of text, ~3 min of embedding: one file cannot swamp the index


def _bounded(chunks: list[Chunk]) -> tuple[list[Chunk], str | None]:
    """At most MAX_CHUNKS_PER_FILE chunks, spread evenly over the file (a huge table or log is sampled
    in row/line ranges that cite where they are), with a note saying so; else the chunks unchanged."""
    if len(chunks) <= MAX_CHUNKS_PER_FILE:
        return chunks, None
    step = len(chunks) / MAX_CHUNKS_PER_FILE
    kept = [chunks[int(n * step)] for n in range(MAX_CHUNKS_PER_FILE)]
    return kept, (
        f"sampled: {len(kept):,} of {len(chunks):,} parts indexed, evenly spread "
        "(the file is too large to index whole)"
    )


class Indexer:
    def __init__(
        self,
        catalog: Catalog,
        lexical: LexicalIndex,
        vectors: VectorIndex,
        count_tokens: Callable[[str], int] | None,
        chunk_tokens: int,
        max_bytes: int,
        scans: ScanText | None = None,
    ) -> None:
        self.catalog = catalog
        self.scans = scans  # images and PDF pages without a text layer: what OCR read of them
        self.lexical = lexical
        self.vectors = vectors
        self.count_tokens = count_tokens
        self.chunk_tokens = chunk_tokens
        self.max_bytes = max_bytes

    # -- repair ---------------------------------------------------------------------------------------
    def ensure_lexical_consistent(self) -> bool:
        """Rebuild BM25 from the catalog if a crash left it behind. Returns True if it rebuilt."""
        generation = self.catalog.generation()
        if self.lexical.generation() == generation:
            return False
        if not self.lexical.room_to_rebuild():  # clearing first would leave nothing to search
            log.warning("the keyword index is behind the catalog but the disk is too full to rebuild it")
            return False
        self.lexical.clear()
        rows: list[LexicalRow] = []
        for batch in self.catalog.iter_lexical_rows():
            rows.extend(batch)
        self.lexical.apply(generation, (), rows)
        return True

    def ensure_chunking(self, signature: str) -> bool:
        """Re-chunk everything on the next sync when the extractors/chunker or their settings changed."""
        if self.catalog.meta("chunking") == signature:
            return False
        with self.catalog.write(chunks_changed=False) as con:
            con.execute("UPDATE files SET mtime = -1, hash = ''")
            con.execute("INSERT OR REPLACE INTO meta VALUES ('chunking', ?)", [signature])
        return True

    def ensure_extraction(self, readers: Mapping[str, str]) -> list[str]:
        """Re-read on the next sync the files of each suffix whose reader changed since they were read
        (`extract.READERS`: a PDF read by pypdf, then by PDFium), leaving every other file as it is; the
        suffixes whose files will be read again."""
        changed = [
            suffix for suffix, reader in readers.items() if self.catalog.meta(f"reader{suffix}") != reader
        ]
        if changed:
            with self.catalog.write(chunks_changed=False) as con:
                for suffix in changed:
                    con.execute(
                        "UPDATE files SET mtime = -1, hash = '' WHERE lower(path) LIKE ?", [f"%{suffix}"]
                    )
                    con.execute(
                        "INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"reader{suffix}", readers[suffix]]
                    )
        return changed

    # -- folder sync ----------------------------------------------------------------------------------
    def sync_folder(self, folder: FolderRow, cancelled: Callable[[], bool]) -> Iterator[Event]:
        """Bring one folder's files in line with the disk: index new/changed, drop vanished."""
        root = Path(folder.path)
        yield IndexProgress("scan", 0, 0, folder.path)
        found = list(scanner.scan(root, folder.include, folder.exclude, self.max_bytes, cancelled))
        self._check(cancelled)
        known = {f.path: f for f in self.catalog.files(folder.id)}
        seen = {str(r.path) for r in found}
        gone = [f for p, f in known.items() if p not in seen]
        yield from self._remove(gone)
        todo = [r for r in found if _changed(r, known.get(str(r.path)))]
        yield from self._index(folder, todo, known, cancelled)
        self.catalog.mark_synced(folder.id)
        self.catalog.prune_vectors()  # after the whole pass: the vectors no chunk is keyed to any more

    def sync_paths(
        self, folder: FolderRow, paths: Iterable[Path], cancelled: Callable[[], bool]
    ) -> Iterator[Event]:
        """Re-check specific paths (from the watcher): files, directories, or paths that vanished."""
        root = Path(folder.path)
        known = {f.path: f for f in self.catalog.files(folder.id)}
        results: dict[str, scanner.ScanResult] = {}
        gone: dict[str, FileRow] = {}
        for path in sorted(set(paths)):
            if path.is_dir():
                for r in scanner.scan(root, folder.include, folder.exclude, self.max_bytes, cancelled):
                    if _under(r.path, path):
                        results[str(r.path)] = r
                prefix = str(path)
                gone.update(
                    {
                        p: f
                        for p, f in known.items()
                        if _under(Path(p), path) and p not in results and p.startswith(prefix)
                    }
                )
            elif path.is_file():
                result = _classify(root, path, folder, self.max_bytes)
                if result is None:
                    if str(path) in known:
                        gone[str(path)] = known[str(path)]
                else:
                    results[str(path)] = result
            else:
                gone.update({p: f for p, f in known.items() if p == str(path) or _under(Path(p), path)})
        yield from self._remove(list(gone.values()))
        todo = [r for r in results.values() if _changed(r, known.get(str(r.path)))]
        yield from self._index(folder, todo, known, cancelled)
        if gone or todo:
            self.catalog.prune_vectors()  # a watched change leaves no vector behind its chunk

    def remove_folder(self, folder: FolderRow) -> None:
        file_ids, chunk_ids = self.catalog.remove_folder(folder.id)
        self.lexical.apply(self.catalog.generation(), file_ids, [])
        self.vectors.remove(chunk_ids)
        self.catalog.prune_vectors()

    # -- internals ------------------------------------------------------------------------------------
    def _remove(self, files: list[FileRow]) -> Iterator[Event]:
        if not files:
            return
        with self.catalog.write() as con:
            chunk_ids = self.catalog.delete_files(con, [f.id for f in files])
        self.lexical.apply(self.catalog.generation(), [f.id for f in files], [])
        self.vectors.remove(chunk_ids)
        for f in files:
            yield FileRemoved(f.path)

    def _index(
        self,
        folder: FolderRow,
        todo: list[scanner.ScanResult],
        known: dict[str, FileRow],
        cancelled: Callable[[], bool],
    ) -> Iterator[Event]:
        batch: list[Parsed] = []
        n_chunks = 0
        with _Behind(lambda b: list(self._write(folder, b))) as writer:
            for done, result in enumerate(todo, start=1):
                self._check(cancelled)
                parsed = self._parse(result, known.get(str(result.path)))
                if parsed is None:  # vanished while we looked, or unchanged content
                    continue
                batch.append(parsed)
                n_chunks += len(parsed.chunks)
                if len(batch) >= BATCH_FILES or n_chunks >= BATCH_CHUNKS:
                    yield from writer.submit(batch)
                    batch, n_chunks = [], 0
                if done % 16 == 0 or done == len(todo):
                    yield IndexProgress("lexical", done, len(todo), str(result.path))
            yield from writer.submit(batch)
            yield from writer.wait()

    def _parse(self, result: scanner.ScanResult, old: FileRow | None) -> Parsed | None:
        if result.skip_reason is not None:
            return Parsed(result, "", [], "skipped", result.skip_reason)
        try:
            data = result.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return Parsed(result, "", [], "failed", f"unreadable: {exc.strerror or exc}")
        digest = hashlib.blake2b(data).hexdigest()
        if old is not None and old.hash == digest and old.status == "indexed":
            return Parsed(result, digest, [], "touch")
        try:
            doc = self.scans.extract(result.path, data, digest) if self.scans else extract(result.path, data)
            doc, n_secrets = redact_secrets(doc)  # before anything is stored: never indexed, never shown
            prime = getattr(self.count_tokens, "prime", None)
            if prime is not None:
                prime(line.text for line in doc.lines)
            chunks, sampled = _bounded(chunk_document(doc, self.chunk_tokens, self.count_tokens))
        except (UnsupportedType, NoTextLayer) as exc:  # not broken: skipped, with the reason
            return Parsed(result, digest, [], "skipped", exc.message)
        except CiteError as exc:
            return Parsed(result, digest, [], "failed", f"parse error: {exc.message}")
        except Exception as exc:  # a broken file must never stop the sync; the reason is recorded
            return Parsed(result, digest, [], "failed", f"parse error: {type(exc).__name__}: {exc}")
        scanned = self.scans.note(result.path, digest) if self.scans else None
        notes = [n for n in (scanned, sampled, secrets_note(n_secrets)) if n]
        return Parsed(result, digest, chunks, "indexed", "; ".join(notes) or None)

    def refresh(self, folder: FolderRow, path: Path) -> Iterator[Event]:
        """Read one file again now, unchanged as it is (OCR has just read its pages)."""
        try:
            stat = path.stat()
        except OSError:
            return
        parsed = self._parse(scanner.ScanResult(path, stat.st_size, stat.st_mtime, None), None)
        if parsed is not None:
            yield from self._write(folder, [parsed])

    def _write(self, folder: FolderRow, batch: list[Parsed]) -> Iterator[Event]:
        if not batch:
            return
        writes = [
            FileWrite(
                str(p.scan.path),
                p.scan.size,
                p.scan.mtime,
                p.digest,
                p.status,
                p.error,
                p.chunks,
                [chunk_key(c.text, str(p.scan.path), folder.path, c.heading) for c in p.chunks],
                [self.count_tokens(c.text) if self.count_tokens else None for c in p.chunks],
            )
            for p in batch
            if p.status != "touch"
        ]
        with self.catalog.write() as con:
            for p in batch:
                old = self.catalog.file(str(p.scan.path)) if p.status == "touch" else None
                if old:
                    self.catalog.touch_file(con, old.id, p.scan.size, p.scan.mtime)
            file_ids, chunk_ids, removed_chunks = self.catalog.replace_files(con, folder.id, writes)
        replaced = list(file_ids.values())
        lexical_rows = [
            (cid, file_ids[w.path], w.path, c.heading, c.text, folder.path)
            for w in writes
            for cid, c in zip(chunk_ids[w.path], w.chunks, strict=True)
        ]
        self.lexical.apply(self.catalog.generation(), replaced, lexical_rows)
        self.vectors.remove(removed_chunks)
        # chunks embedded before (an edited file's unchanged ones) are searchable by vector at once
        if lexical_rows:
            known, vecs = self.catalog.vectors_for_chunks([r[0] for r in lexical_rows])
            self.vectors.add(known, vecs)
        for p in batch:
            if p.status == "indexed":
                yield FileIndexed(str(p.scan.path), len(p.chunks))
            elif p.status != "touch":
                yield FileSkipped(str(p.scan.path), p.error or p.status)

    # -- vectors --------------------------------------------------------------------------------------
    def embed_pending(
        self, embed: Callable[[list[str]], object], cancelled: Callable[[], bool], spool: Spool | None = None
    ) -> Iterator[IndexProgress]:
        """Embed every distinct chunk text that has no vector yet, folder by folder in the order they were
        added; each batch is committed as it lands.

        Progress counts one folder's distinct texts (path = the folder): a folder that needs none yields
        nothing, so a finished folder never reads as busy. When no folder needs any, one event with the
        whole index's counts (no path) says so.

        With a `spool` (embed_spool.for_owner) that live `citeline embed-worker` processes serve, each
        window's batches are shared with them; the vectors stored are the same either way.
        """
        embedded = False
        for folder in sorted(self.catalog.folders(), key=lambda f: f.id):
            for event in self._embed(embed, cancelled, folder, spool=spool):
                embedded = True
                yield event
        if not embedded:
            yield from self._embed(embed, cancelled, None, always=True, spool=spool)

    def _embed(
        self,
        embed: Callable[[list[str]], object],
        cancelled: Callable[[], bool],
        folder: FolderRow | None,
        always: bool = False,
        spool: Spool | None = None,
    ) -> Iterator[IndexProgress]:
        """One folder's texts, taken from the catalog's queue (recently searched, then recently modified
        files first) a window at a time, embedded in batches that are each committed as they land: a
        quit or a crash loses at most one batch, and the next run starts with what is still missing."""
        folder_id, path = (folder.id, folder.path) if folder else (None, "")
        missing, total = self.catalog.count_missing_vectors(folder_id)
        if not missing and not always:
            return
        done = total - missing
        rate = Rate(self.catalog, done)
        yield IndexProgress("vectors", done, total, path, rate.eta(done, total))
        heads: Heads | None = None
        try:
            while True:
                self._check(cancelled)
                queue = self.catalog.embed_queue(EMBED_WINDOW, folder_id, self.catalog.recent.items())
                if not queue:
                    break
                if heads is None and any(q.first for q in queue):
                    groups = self.catalog.shared_heads(HEAD_LINES, HEAD_SAMPLE)
                    heads = Heads(groups, self.count_tokens or approx_tokens)
                window_heads = heads or Heads([], self.count_tokens or approx_tokens)
                for n in (
                    self._embed_shared(embed, queue, window_heads, spool, cancelled)
                    if spool is not None and spool.live_workers()
                    else self._embed_here(embed, queue, window_heads, cancelled)
                ):
                    done = min(total, done + n)
                    yield IndexProgress("vectors", done, total, path, rate.eta(done, total))
        except Cancelled:  # kept for the next start (not on GeneratorExit: the catalog may be closed)
            rate.keep(done)
            raise
        rate.keep(done)
        model, saved = self.catalog.embed_tokens()
        log.info("vectors: the embedder read %d tokens and was spared %d (duplicates, headers)", model, saved)

    def _embed_here(
        self,
        embed: Callable[[list[str]], object],
        queue: list[QueuedText],
        heads: Heads,
        cancelled: Callable[[], bool],
    ) -> Iterator[int]:
        """A window's batches embedded in this process; yields each batch's size as it is stored."""
        for batch in _batches(queue):
            self._check(cancelled)
            job = self._prepare(batch, heads)
            self._store(job, _embedded(embed, job), heads)
            yield len(batch)

    def _embed_shared(
        self,
        embed: Callable[[list[str]], object],
        queue: list[QueuedText],
        heads: Heads,
        spool: Spool,
        cancelled: Callable[[], bool],
    ) -> Iterator[int]:
        """A window's batches put in the spool; workers and this process take them until all are stored.
        A batch a worker fails, returns in the wrong shape, or holds far longer than a batch takes here
        (a hung worker) is embedded here; a late result of it is then ignored."""
        prepared = [self._prepare(batch, heads) for batch in _batches(queue)]
        jobs = {spool.publish(job.inputs): job for job in prepared}
        published = time.monotonic()
        mine = SPOOL_PATIENCE  # seconds a batch takes here, once measured
        checked = 0.0
        try:
            while jobs:
                self._check(cancelled)
                for batch, vecs in spool.results():
                    job = jobs.pop(batch, None)
                    if job is None:
                        continue
                    if vecs is None or vecs.shape != (len(job.distinct), self.catalog.vector_dim()):
                        vecs = _embedded(embed, job)
                    self._store(job, vecs, heads)
                    yield len(job.batch)
                if time.monotonic() - checked > 2.0:
                    spool.reclaim()
                    checked = time.monotonic()
                taken = spool.take(OWNER)
                here = taken[0] if taken is not None else None
                if here is None and jobs and time.monotonic() - published > 4 * mine:
                    here = next(iter(jobs))  # held by a worker far too long: done here as well
                if here is None:
                    time.sleep(0.05)  # the workers have the rest
                    continue
                job = jobs.pop(here, None)
                spool.drop_claim(here, OWNER)
                if job is not None:
                    started = time.monotonic()
                    self._store(job, _embedded(embed, job), heads)
                    mine = max(1.0, time.monotonic() - started)
                    published = time.monotonic()  # the workers' batches are judged from here on
                    yield len(job.batch)
        finally:
            spool.withdraw(list(jobs))

    def _prepare(self, batch: list[QueuedText], heads: Heads) -> _Job:
        """What the model must read for a batch: each distinct input once, each chunk's text after its
        place (text.embedded_chunk). A header that several files share is read once (per run) on its
        own, and each first chunk that starts with it later gets the token-weighted mean of the header's
        vector and its remaining lines' vector, read after its place (`_store`)."""
        parts = [
            (head, embedded_chunk(rest, q.path, q.root, q.heading))
            for q in batch
            for head, rest in [heads.split(q.text) if q.first else (None, q.text)]
        ]
        new_headers = [h for h, _ in parts if h is not None and h not in heads.vectors]
        distinct = list(dict.fromkeys([*new_headers, *(rest for _, rest in parts)]))
        inputs = [embedding_text(text) for text in distinct]
        return _Job(batch, parts, list(dict.fromkeys(new_headers)), distinct, inputs)

    def _store(self, job: _Job, vecs: npt.NDArray[np.float32], heads: Heads) -> None:
        """Store a batch's vectors (mixing in shared headers' vectors) and add them to the vector index:
        what the embedder's mean pooling would give the two parts, without reading the header again."""
        count = self.count_tokens or approx_tokens
        row = {text: n for n, text in enumerate(job.distinct)}
        for header in job.new_headers:
            heads.vectors.setdefault(header, (vecs[row[header]], count(header)))
        mat = np.stack([heads.mix(header, vecs[row[rest]], count(rest)) for header, rest in job.parts])
        read = sum(count(text) for text in job.distinct)
        covered = sum((q.tokens or count(q.text)) * q.chunks for q in job.batch)
        hashes = [q.hash for q in job.batch]
        self.catalog.store_vectors(hashes, mat, read, max(0, covered - read))
        ids, mat = self.catalog.vectors_for_chunks_by_hash(hashes)
        self.vectors.add(ids, mat)

    @staticmethod
    def _check(cancelled: Callable[[], bool]) -> None:
        if cancelled():
            raise Cancelled()


UNSUPPORTED = "unsupported file type"
LEGACY_UNSUPPORTED = ": unsupported file type"  # how failed rows read before unsupported meant skipped


@dataclass(frozen=True)
class _Job:
    """One batch of queued texts, and the distinct inputs the model must read for it."""

    batch: list[QueuedText]
    parts: list[tuple[str | None, str]]  # (shared header or None, the rest) per queued text
    new_headers: list[str]  # headers no earlier batch has read
    distinct: list[str]  # new headers, then each distinct rest, as the catalog holds them
    inputs: list[str]  # what the model reads of each: without its heavy markup (text.embedding_text)


def _batches(queue: list[QueuedText]) -> Iterator[list[QueuedText]]:
    for at in range(0, len(queue), EMBED_BATCH):
        yield queue[at : at + EMBED_BATCH]


def _embedded(embed: Callable[[list[str]], object], job: _Job) -> npt.NDArray[np.float32]:
    return np.asarray(embed(job.inputs), dtype=np.float32)


class _Behind:
    """Writes one batch in a thread while the caller parses the next. The catalog's and Tantivy's work is
    native and lets the parsing run beside it (keyword ingest +12 % on 2 cores, README "Scale"). One write
    at a time, in order; a write's events are yielded when the next batch is handed over; a failed
    write raises there. Leaving the block (cancelled, an error) waits for the write under way, so a
    batch is either written whole or not begun."""

    def __init__(self, write: Callable[[list[Parsed]], list[Event]]) -> None:
        self._write = write
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[list[Event]] | None = None

    def __enter__(self) -> _Behind:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pending is not None:
            with suppress(Exception):  # the error that is leaving the block is the one to report
                self._pending.result()
            self._pending = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)

    def submit(self, batch: list[Parsed]) -> Iterator[Event]:
        yield from self.wait()
        if batch:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="citeline-write")
            self._pending = self._pool.submit(self._write, batch)

    def wait(self) -> Iterator[Event]:
        pending, self._pending = self._pending, None
        if pending is not None:
            yield from pending.result()


def _changed(result: scanner.ScanResult, old: FileRow | None) -> bool:
    """Whether a file must be read again. A file the extractors skipped as unsupported or without a text
    layer, like a failed one, is read again only when it changes (OCR re-reads the latter itself); one the
    scanner skipped is read as soon as the scanner lets it."""
    if old is None:
        return True
    if result.skip_reason is not None:
        return old.status != "skipped" or old.error != result.skip_reason
    error = old.error or ""
    if old.status == "failed" and error.endswith(LEGACY_UNSUPPORTED):
        return True
    scanner_skip = old.status == "skipped" and not error.startswith((UNSUPPORTED, NO_TEXT_LAYER))
    return old.size != result.size or old.mtime != result.mtime or scanner_skip


class Rate:
    """Texts embedded per second: measured as the backlog goes, and kept in the catalog so that a backlog
    resumed at the next start has a time left from its first progress event."""

    MIN_TEXTS = 2 * EMBED_BATCH  # fewer than this is too short a run to measure or to keep

    def __init__(self, catalog: Catalog, done: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.catalog = catalog
        self.clock = clock
        self.start, self.first = clock(), done
        try:
            self.kept: float | None = float(catalog.meta("embed_rate")) or None
        except ValueError:
            self.kept = None

    def measured(self, done: int) -> float | None:
        elapsed = self.clock() - self.start
        if done - self.first < self.MIN_TEXTS or elapsed <= 0:
            return None
        return (done - self.first) / elapsed

    def eta(self, done: int, total: int) -> float | None:
        rate = self.measured(done) or self.kept
        return (total - done) / rate if rate and done < total else None

    def keep(self, done: int) -> None:
        rate = self.measured(done)
        if rate is not None and self.catalog.snapshot is None:
            self.catalog.set_meta("embed_rate", f"{rate:.3f}")


class Heads:
    """Headers copied to the top of several files (licence and copyright notices, generated-file
    banners): the longest run of leading lines that all sampled first chunks of a group share."""

    def __init__(self, groups: list[list[str]], count: Callable[[str], int]) -> None:
        self.headers: dict[tuple[str, ...], list[str]] = {}
        self.vectors: dict[str, tuple[npt.NDArray[np.float32], int]] = {}  # header -> vector, tokens
        for texts in groups:
            shared = _common_lines([text.split("\n") for text in texts])
            if len(shared) >= HEAD_LINES and count("\n".join(shared)) >= MIN_HEAD_TOKENS:
                self.headers[tuple(shared[:HEAD_LINES])] = shared

    def split(self, text: str) -> tuple[str | None, str]:
        """(the header its group shares, the rest) of a first chunk; (None, the chunk) when it has no
        such header or nothing but the header (a copy of a whole file: embedded once as it is)."""
        lines = text.split("\n")
        header = self.headers.get(tuple(lines[:HEAD_LINES]))
        if header is None or lines[: len(header)] != header:
            return None, text
        rest = "\n".join(lines[len(header) :])
        return ("\n".join(header), rest) if rest.strip() else (None, text)

    def mix(self, header: str | None, vec: npt.NDArray[np.float32], tokens: int) -> npt.NDArray[np.float32]:
        """The vector of a header and the rest of its chunk (`vec`, `tokens` long), weighted by tokens."""
        if header is None:
            return vec
        head_vec, head_tokens = self.vectors[header]
        mixed = head_tokens * head_vec + tokens * vec
        norm = float(np.linalg.norm(mixed))
        return (mixed / norm if norm > 0 else vec).astype(np.float32)


def _common_lines(texts: list[list[str]]) -> list[str]:
    """The lines every one of these line lists begins with."""
    shared = texts[0] if texts else []
    for lines in texts[1:]:
        n = 0
        while n < min(len(shared), len(lines)) and shared[n] == lines[n]:
            n += 1
        shared = shared[:n]
    return shared


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _classify(root: Path, path: Path, folder: FolderRow, max_bytes: int) -> scanner.ScanResult | None:
    try:
        reason = scanner.classify(path, root, folder.include, folder.exclude, max_bytes)
        stat = path.stat()
    except (OSError, ValueError):
        return None
    if reason == scanner.IGNORED:
        return None
    return scanner.ScanResult(path, stat.st_size, stat.st_mtime, reason)
