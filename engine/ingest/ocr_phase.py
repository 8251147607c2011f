"""OCR as a background phase of indexing, its cache, and how OCR'd pages join a file's text.

The keyword pass reads every text layer at once; files (or PDF pages) with none wait. After the vectors,
this phase reads the waiting pages with OCR, smallest files first, one page at a time (each page is a
cancellation point and a progress event, so the phase has a rate and an ETA), and re-indexes each file as
soon as its pages are read: it becomes keyword-searchable then, and its vectors follow.

What OCR read is cached by the file's content hash, one JSON file per page under <data dir>/ocr/<hash>/,
and a done.json once the file is finished. A re-index, a rename, a copy, a rebuilt index or a changed
chunker never reads a page twice. The cache sits beside the index rather than in it, so deleting the index
to rebuild it does not throw away hours of OCR.

Bounds: at most `max_pages` pages of a file are read, and at most `file_seconds` are spent on one file;
what was cut, and why, is recorded (the file's row and the log). Images larger than scans.MAX_PIXELS are
never decoded (engine/ingest/scans.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import Cancelled, CiteError
from engine.events import Document, FileIndexed, FileRemoved, FileSkipped, IndexProgress, Line
from engine.ingest import pdfpages, scans
from engine.ingest.extract import extract
from engine.ingest.ocr import OcrReader
from engine.ingest.pages import PageText
from engine.ingest.scans import NO_TEXT_LAYER, WAITING, NoTextLayer
from engine.store.catalog import Catalog, FileRow, FolderRow

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OcrPolicy:
    """Whether OCR runs, and its bounds. `unavailable` says why it cannot run here (None: it can)."""

    enabled: bool = True
    unavailable: str | None = None
    max_pages: int = 200
    file_seconds: float = 600.0

    @property
    def ready(self) -> bool:
        return self.enabled and self.unavailable is None

    def why_not(self) -> str:
        if not self.enabled:
            return f"{NO_TEXT_LAYER}: OCR is off (setting `ocr`)"
        return f"{NO_TEXT_LAYER}: {self.unavailable}"


@dataclass(frozen=True)
class Finished:
    """A file's OCR is over: the pages read, how many it has, and what was cut or went wrong (None: all)."""

    pages: tuple[int, ...]
    total: int
    note: str | None = None


class OcrCache:
    """What OCR read, by content hash: <root>/<hash>/page-0001.json per page, done.json when finished."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _dir(self, digest: str) -> Path:
        return self.root / digest

    def pages(self, digest: str) -> dict[int, PageText]:
        folder = self._dir(digest)
        if not digest or not folder.is_dir():
            return {}
        found: dict[int, PageText] = {}
        for file in sorted(folder.glob("page-*.json")):
            try:
                page = PageText.from_json(file.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError) as exc:  # a torn write: read that page again
                log.warning("OCR cache: %s unreadable (%s)", file, exc)
                continue
            found[page.page] = page
        return found

    def save_page(self, digest: str, page: PageText) -> None:
        _write_atomic(self._dir(digest) / f"page-{page.page:04d}.json", page.to_json())

    def finished(self, digest: str) -> Finished | None:
        try:
            raw = json.loads((self._dir(digest) / "done.json").read_text(encoding="utf-8"))
            return Finished(tuple(int(p) for p in raw["pages"]), int(raw["total"]), raw.get("note"))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def finish(self, digest: str, done: Finished) -> None:
        raw = {"pages": list(done.pages), "total": done.total, "note": done.note}
        _write_atomic(self._dir(digest) / "done.json", json.dumps(raw))


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def content_hash(data: bytes) -> str:
    """The hash the catalog keeps for a file's content (Indexer._parse computes the same)."""
    return hashlib.blake2b(data).hexdigest()


# ------------------------------------------------------------------------------------- text of a file


class ScanText:
    """Extraction for the keyword pass: a file's text layer, with the pages OCR has read for this content
    in place of the pages that had none. A file left with no text raises NoTextLayer, whose message is why
    (waiting for OCR, OCR off, OCR not installed, or what OCR recorded)."""

    def __init__(self, cache: OcrCache, policy: OcrPolicy) -> None:
        self.cache = cache
        self.policy = policy

    def extract(self, path: Path, data: bytes, digest: str) -> Document:
        if not scans.may_need_ocr(path):
            return extract(path, data)
        waiting = WAITING
        try:
            doc = extract(path, data)
        except NoTextLayer as exc:
            if not exc.message.startswith(WAITING):  # too large, a bomb: OCR will not read it either
                raise
            waiting = exc.message
            doc = Document((), kind="pdf" if path.suffix.lower() == ".pdf" else "text")
        doc = with_pages(doc, self.cache.pages(digest), scans.is_image(path))
        if not doc.lines:
            raise NoTextLayer(self._reason(digest, waiting), "")
        return doc

    def _reason(self, digest: str, waiting: str) -> str:
        done = self.cache.finished(digest)
        if done is not None:
            return f"{NO_TEXT_LAYER}: {done.note or 'OCR found no text'}"
        return waiting if self.policy.ready else self.policy.why_not()

    def note(self, path: Path, digest: str) -> str | None:
        """What OCR recorded for this content when it read only part of it (pages cut, time limit). A file
        OCR never reads has no record to look for (the lookup was a failed open per file)."""
        done = self.cache.finished(digest) if digest and scans.may_need_ocr(path) else None
        return done.note if done is not None else None


def with_pages(doc: Document, pages: dict[int, PageText], image: bool) -> Document:
    """`doc` with OCR'd pages in place of those pages' text-layer lines (each line numbered within its
    page); a one-page image's lines carry no page."""
    if not pages:
        return doc
    single = image and set(pages) == {1}
    lines = [line for line in doc.lines if (line.page or 1) not in pages]
    for page in pages.values():
        number = None if single else page.page
        lines.extend(Line(text.text, index, number) for index, text in enumerate(page.lines, 1))
    lines.sort(key=lambda line: line.page or 0)
    return Document(tuple(lines), kind=doc.kind, title=doc.title)


# ------------------------------------------------------------------------------------------- the phase


@dataclass(frozen=True)
class _Job:
    """One file to read: its row and folder, the pages to read now, its page count, and what is cut or
    wrong before reading starts (None: nothing)."""

    row: FileRow
    folder: FolderRow
    pages: tuple[int, ...]
    total: int
    note: str | None = None


Event = IndexProgress | FileIndexed | FileSkipped | FileRemoved
Refresh = Callable[[FolderRow, Path], Iterator[Event]]


class OcrPhase:
    """Reads the waiting pages of every folder, re-indexing each file once its pages are read."""

    def __init__(
        self,
        catalog: Catalog,
        cache: OcrCache,
        policy: OcrPolicy,
        reader: Callable[[], OcrReader],
        refresh: Refresh,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.catalog = catalog
        self.cache = cache
        self.policy = policy
        self.reader = reader
        self.refresh = refresh
        self.clock = clock
        self._reader: OcrReader | None = None

    def run(self, cancelled: Callable[[], bool]) -> Iterator[Event]:
        """Progress ("ocr": pages read of pages to read, per folder) and each re-indexed file's event."""
        if not self.policy.ready:
            return
        for folder in sorted(self.catalog.folders(), key=lambda f: f.id):
            jobs = list(self._plan(folder, cancelled))
            total = sum(len(job.pages) for job in jobs)
            done = 0
            if total:
                yield IndexProgress("ocr", done, total, folder.path)
            for job in jobs:
                for event in self._read(job, cancelled):
                    if event is None:
                        done += 1
                        yield IndexProgress("ocr", done, total, folder.path)
                    else:
                        yield event

    def pending(self) -> int:
        """Files waiting for OCR (a PDF not yet checked for pages without text counts)."""
        if not self.policy.ready:
            return 0
        return sum(1 for folder in self.catalog.folders() for _ in self._candidates(folder))

    def _candidates(self, folder: FolderRow) -> Iterator[FileRow]:
        for row in self.catalog.files(folder.id):
            if not row.hash or not scans.may_need_ocr(row.path):
                continue
            waiting = row.status == "skipped" and (row.error or "").startswith(WAITING)
            checkable = row.status == "indexed" and row.path.lower().endswith(".pdf")
            if (waiting or checkable) and self.cache.finished(row.hash) is None:
                yield row

    def _plan(self, folder: FolderRow, cancelled: Callable[[], bool]) -> Iterator[_Job]:
        """The folder's files that need OCR, smallest first, with the pages each needs; a PDF whose every
        page has text is recorded as finished here, so it is never opened for this again."""
        rows = sorted(self._candidates(folder), key=lambda r: (r.size, r.path))
        for row in rows:
            if cancelled():
                raise Cancelled()
            job = self._job(row, folder)
            if job is not None:
                yield job

    def _job(self, row: FileRow, folder: FolderRow) -> _Job | None:
        data = _read(Path(row.path), row.hash)
        if data is None:
            return None  # gone or changed since the keyword pass: the next sync reads it anew
        try:
            needed, total = _needed_pages(Path(row.path), data)
        except CiteError as exc:
            return _Job(row, folder, (), 0, f"OCR could not open it: {exc.message}")
        if not needed:
            self.cache.finish(row.hash, Finished((), total))
            return None
        limit = self.policy.max_pages
        note = None
        if len(needed) > limit:
            note = f"OCR read {limit} of the {len(needed)} pages without text (setting `ocr_max_pages`)"
        cached = set(self.cache.pages(row.hash))
        return _Job(row, folder, tuple(p for p in needed[:limit] if p not in cached), total, note)

    def _read(self, job: _Job, cancelled: Callable[[], bool]) -> Iterator[Event | None]:
        """Yields None per page read, then the re-indexed file's events."""
        path, digest = Path(job.row.path), job.row.hash
        data = _read(path, digest)
        if data is None:
            return
        started = self.clock()
        note = job.note
        for number in job.pages:
            if cancelled():
                raise Cancelled()
            if self.clock() - started > self.policy.file_seconds:
                note = _time_note(job, number, self.policy.file_seconds)
                break
            try:
                self.cache.save_page(digest, self._ocr(path, data, number))
            except CiteError as exc:
                note = f"OCR could not read page {number}: {exc.message}"
                break
            yield None
        if note:
            log.warning("%s: %s", path, note)
        self.cache.finish(digest, Finished(tuple(sorted(self.cache.pages(digest))), job.total, note))
        yield from self.refresh(job.folder, path)

    def _ocr(self, path: Path, data: bytes, number: int) -> PageText:
        if self._reader is None:
            self._reader = self.reader()
        try:
            return self._reader.read(_page_image(path, data, number), number)
        except CiteError:
            raise
        except Exception as exc:  # a page that cannot be decoded or read must not stop the phase
            raise CiteError(f"{type(exc).__name__}: {exc}") from exc


def _read(path: Path, digest: str) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data if content_hash(data) == digest else None


def _needed_pages(path: Path, data: bytes) -> tuple[list[int], int]:
    if scans.is_image(path):
        with scans.open_image(path, data) as image:
            frames = int(getattr(image, "n_frames", 1))
        return list(range(1, frames + 1)), frames
    return pdfpages.pages_without_text(data, path.name)


def _page_image(path: Path, data: bytes, number: int) -> Image:
    if scans.is_image(path):
        with scans.open_image(path, data) as image:
            return scans.decode(image, number - 1)
    return pdfpages.render(data, number)


def _time_note(job: _Job, number: int, seconds: float) -> str:
    return (
        f"OCR stopped at page {number} of {job.total}: it had taken more than {seconds / 60:.0f} min "
        "for this file"
    )
