"""A document as citations see it: its numbered lines, read the way the index numbers them.

PDF, DOCX and notebook files are their extracted lines (a PDF's numbered within each page, a notebook's
cells and outputs at the lines of its JSON that hold them); anything else is the file's own lines,
decoded as the scanner decodes them. The desktop preview and MCP fetch_doc both read documents here, so a
citation's line numbers mean the same thing wherever they are shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from engine.events import Line
from engine.ingest.extract import decode_text, extract, split_lines
from engine.ingest.legacy import DOC_SUFFIXES
from engine.ingest.mail import MAIL_SUFFIXES, MAILBOX_NAMES
from engine.ingest.office import SHEET_SUFFIXES, SLIDE_SUFFIXES

DocFormat = Literal[
    "text", "pdf", "docx", "notebook", "slides", "spreadsheet", "odt", "epub", "rtf", "email", "doc"
]
# shown as extracted text (a notebook as its cells and outputs, not its JSON); the rest as its own lines
EXTRACTED: dict[str, DocFormat] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".ipynb": "notebook",
    **dict.fromkeys(SLIDE_SUFFIXES, "slides"),
    **dict.fromkeys(SHEET_SUFFIXES, "spreadsheet"),
    ".odt": "odt",
    ".epub": "epub",
    ".rtf": "rtf",
    **dict.fromkeys(DOC_SUFFIXES, "doc"),
    **dict.fromkeys([*MAIL_SUFFIXES, *MAILBOX_NAMES], "email"),
}


def _format(path: Path) -> DocFormat | None:
    """How `path` is shown where it is extracted: by its suffix, or its name (Apple Mail's "mbox")."""
    return EXTRACTED.get(path.suffix.lower()) or EXTRACTED.get(path.name.lower())


@dataclass(frozen=True)
class DocumentLines:
    path: str
    format: DocFormat
    lines: tuple[Line, ...]
    truncated: bool = False  # only the first max_bytes of the file were read
    page_names: tuple[str, ...] = ()  # what each page is called, page 1 first (a workbook's sheets)


def document_lines(path: Path, data: bytes) -> tuple[DocFormat, list[Line]]:
    """The lines citations point at: a PDF, a DOCX or a notebook as extracted (each line with the line or
    page of the file it was read from), anything else as the file's own lines."""
    read = _document(path, data)
    return read.format, list(read.lines)


def _document(path: Path, data: bytes) -> DocumentLines:
    if shown := _format(path):
        doc = extract(path, data)
        return DocumentLines(str(path), shown, doc.lines, page_names=doc.page_names)
    return DocumentLines(
        str(path), "text", tuple(Line(text, n) for n, text in enumerate(split_lines(decode_text(data)), 1))
    )


def read_document(path: str | Path, max_bytes: int | None = None) -> DocumentLines:
    """Read and split a file; with `max_bytes`, a text file is cut there and marked truncated. An extracted
    format is read whole: cut, a zipped document or a PDF would read as corrupt (a slide deck with its
    pictures passes 4 MB easily), and its extractor bounds what it inflates and parses. OSError and
    ExtractError reach the caller."""
    file = Path(path)
    cap = None if _format(file) else max_bytes
    with file.open("rb") as fh:
        data = fh.read() if cap is None else fh.read(cap + 1)
    truncated = cap is not None and len(data) > cap
    return replace(_document(file, data[:cap] if truncated else data), truncated=truncated)
