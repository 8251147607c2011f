"""Files for the MCP tools: which paths a client may name (inside the watched folders, symlinks and ".."
resolved first), glob filters, and a document's numbered lines cut to what one answer may carry."""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path, PurePath

from engine.api import FileRow, FolderRow, document_lines, redact_text, shown
from engine.errors import CiteError
from engine.events import Line
from engine.mcp_server.schemas import DocText

MAX_FETCH_BYTES = 200_000  # one fetch_doc answer; a model's context is the scarce resource


# ---------------------------------------------------------------------------------------------- paths


def resolve_inside(raw: str, roots: Sequence[Path]) -> Path:
    """`raw` (absolute, or relative to a watched folder) resolved, symlinks and ".." included, and checked to
    lie inside one of `roots`. The containment check comes first, so nothing is said about outside files."""
    if not raw.strip():
        raise CiteError("No path given.", "pass a path from search_kb or list_kb_topics")
    if not roots:
        raise CiteError("No folder is watched yet.", "add one with: citeline add FOLDER")
    if "\x00" in raw:
        raise CiteError("The path contains a NUL character.", "pass a path from search_kb or list_kb_topics")
    given = Path(raw).expanduser()
    candidates = [given] if given.is_absolute() else [root / given for root in roots]
    try:
        resolved = [c.resolve() for c in candidates]
    except RuntimeError as exc:  # Python 3.11 reports a symlink loop this way (3.13: OSError ELOOP)
        raise CiteError(f"{raw} is a symlink loop.", "Citeline cannot read it") from exc
    except OSError as exc:
        raise CiteError(f"{raw} cannot be resolved: {exc.strerror or exc}", "check the path") from exc
    inside = [p for p in resolved if any(_within(p, r) for r in roots)]
    if not inside:
        raise CiteError(
            f"{raw} is outside the watched folders.",
            "only files inside these can be read: " + ", ".join(str(r) for r in roots),
        )
    found = next((p for p in inside if _exists(p)), None)
    if found is None:
        raise CiteError(
            f"{raw} does not exist.", "list files with list_kb_topics or find them with search_kb"
        )
    return found


def folder_inside(raw: str, roots: Sequence[Path]) -> Path:
    path = resolve_inside(raw, roots)
    if not path.is_dir():
        raise CiteError(f"{raw} is not a folder.", "give a watched folder or a sub-folder of one")
    return path


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def unshown(raw: str, paths: Iterable[str]) -> str:
    """The real path of `raw` when a client passes a name as results show it (engine.names.shown: bad
    bytes as \\xNN, a newline as \\n): the indexed path that shows as `raw`, else `raw` unchanged."""
    if "\\" not in raw or _exists(Path(raw)):
        return raw
    return next((p for p in paths if p != raw and shown(p) == raw), raw)


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def roots_of(folders: Iterable[FolderRow]) -> list[Path]:
    return [Path(f.path).resolve() for f in folders]


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds")


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or a CiteError. Opened without blocking and checked to be a regular file on the
    open descriptor, so a file replaced by a FIFO or a device since it was indexed cannot hang the
    server (reading a FIFO waits for a writer forever)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise CiteError(
            f"{shown(str(path))} could not be read: {exc.strerror or exc}", "check the file's permissions"
        ) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CiteError(
                f"{shown(str(path))} is not a regular file (a FIFO, socket or device).",
                "Citeline reads only regular files; run: citeline sync",
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError as exc:
        raise CiteError(
            f"{shown(str(path))} could not be read: {exc.strerror or exc}", "check the file's permissions"
        ) from exc
    finally:
        os.close(fd)


def require_indexed(row: FileRow | None, path: Path) -> FileRow:
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


def glob_match(pattern: str, path: Path, roots: Sequence[Path]) -> bool:
    """A pattern with no "/" matches the file name ("*.md"); one with "/" the path relative to its watched
    folder, where "*" also crosses "/" ("docs/*.md" matches docs/a/b.md)."""
    pattern = pattern.strip().replace("\\", "/")
    if "/" not in pattern:
        return fnmatch.fnmatch(path.name.lower(), pattern.lower())
    root = next((r for r in roots if _within(path, r)), None)
    rel = PurePath(os.path.relpath(path, root)).as_posix() if root else path.as_posix()
    return fnmatch.fnmatch(rel.lower(), pattern.lower().lstrip("/"))


# ------------------------------------------------------------------------------------------ documents


def select_lines(lines: Sequence[Line], start: int | None, end: int | None, page: int | None) -> list[Line]:
    """Lines start..end (inclusive, 1-based); for a PDF, within `page` (all pages when no page is given)."""
    ranged = start is not None or end is not None
    if any(line.page is not None for line in lines):
        if page is None and ranged:
            raise CiteError(
                "Line numbers in a PDF count within a page (a deck's within a slide, a workbook's within a "
                "sheet).",
                "give page together with start_line",
            )
        if page is None:
            return list(lines)
        pages = max(line.page or 0 for line in lines)
        lines = [line for line in lines if line.page == page]
        if not lines:
            raise CiteError(f"There is no page {page} with text.", f"the document has {pages} pages")
    elif page is not None:
        raise CiteError(
            "page applies to PDFs, slide decks, workbooks and e-books only.", "leave page out for this file"
        )
    if not lines or not ranged:
        return list(lines)
    lo, hi = start or 1, end or lines[-1].line
    if lo > lines[-1].line:
        raise CiteError(f"start_line {lo} is past the end ({lines[-1].line} lines).", "give a smaller one")
    if hi < lo:
        raise CiteError(f"Bad line range {lo}-{hi}.", "give start_line <= end_line")
    return [line for line in lines if lo <= line.line <= hi]


def render_lines(
    lines: Sequence[Line], cap: int = MAX_FETCH_BYTES, start_char: int = 0
) -> tuple[str, int, bool, int | None]:
    """Numbered text of `lines` up to `cap` UTF-8 bytes: (text, lines shown in full, cut, next_char).
    The cut falls between lines, except that a first line longer than the cap is shown in pieces: then no
    line is shown in full and `next_char` is where the next piece of that line starts. `start_char` starts
    the first line part-way (a piece after the first)."""
    out: list[str] = []
    size, page = 0, None
    for count, line in enumerate(lines):
        text = line.text[start_char:] if count == 0 else line.text
        piece = f"{line.line}\t{text}\n"
        if line.page is not None and line.page != page:
            piece, page = f"--- page {line.page} ---\n{piece}", line.page
        size += len(piece.encode("utf-8"))
        if size > cap:
            if not out:
                head = piece.encode("utf-8")[:cap].decode("utf-8", "ignore")
                taken = len(head) - (len(piece) - 1 - len(text))  # characters of `text` in the piece
                return head, 0, True, (start_char if count == 0 else 0) + max(taken, 1)
            return "".join(out), count, True, None
        out.append(piece)
    return "".join(out), len(lines), False, None


def doc_text(
    path: Path,
    data: bytes,
    start: int | None,
    end: int | None,
    page: int | None,
    cap: int = MAX_FETCH_BYTES,
    start_char: int = 0,
) -> DocText:
    fmt, lines = document_lines(path, data)
    lines = [replace(line, text=redact_text(line.text)[0]) for line in lines]  # as the index holds them
    chosen = select_lines(lines, start, end, page)
    text, full, cut, next_char = render_lines(chosen, cap, start_char)
    rest = chosen[full] if full < len(chosen) else None
    pages = max((line.page or 0 for line in lines), default=0) or None
    return DocText(
        path=shown(str(path)),
        format=fmt,
        total_lines=len(lines) if pages else max((line.line for line in lines), default=0),
        pages=pages,
        start_line=chosen[0].line if chosen else None,
        end_line=chosen[full - 1].line if full else (chosen[0].line if next_char else None),
        truncated=cut,
        next_start_line=rest.line if rest else None,
        next_page=rest.page if rest else None,
        next_start_char=next_char,
        text=text,
    )
