"""A document as citations see it: its numbered lines, read the way the index numbers them.

PDF, DOCX and notebook files are their extracted lines (a PDF's numbered within each page, a notebook's
cells and outputs at the lines of its JSON that hold them); anything else is the file's own lines,
decoded as the scanner decodes them. The desktop preview and MCP fetch_doc both read documents here, so a
citation's line numbers mean the same thing wherever they are shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.events import Line
from engine.ingest.extract import decode_text, extract, split_lines
from engine.ingest.office import SHEET_SUFFIXES, SLIDE_SUFFIXES

DocFormat = Literal["text", "pdf", "docx", "notebook", "slides", "spreadsheet", "odt", "epub"]
# shown as extracted text (a notebook as its cells and outputs, not its JSON); the rest as its own lines
EXTRACTED: dict[str, DocFormat] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".ipynb": "notebook",
    **dict.fromkeys(SLIDE_SUFFIXES, "slides"),
    **dict.fromkeys(SHEET_SUFFIXES, "spreadsheet"),
    ".odt": "odt",
    ".epub": "epub",
}


@dataclass(frozen=True)
class DocumentLines:
    path: str
    format: DocFormat
    lines: tuple[Line, ...]
    truncated: bool = False  # only the first max_bytes of the file were read


def document_lines(path: Path, data: bytes) -> tuple[DocFormat, list[Line]]:
    """The lines citations point at: a PDF, a DOCX or a notebook as extracted (each line with the line or
    page of the file it was read from), anything else as the file's own lines."""
    suffix = path.suffix.lower()
    if suffix in EXTRACTED:
        return EXTRACTED[suffix], list(extract(path, data).lines)
    return "text", [Line(text, n) for n, text in enumerate(split_lines(decode_text(data)), 1)]


def read_document(path: str | Path, max_bytes: int | None = None) -> DocumentLines:
    """Read and split a file; with `max_bytes`, a text file is cut there and marked truncated (an extracted
    format is handed to its extractor as read). OSError and ExtractError reach the caller."""
    file = Path(path)
    with file.open("rb") as fh:
        data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    truncated = max_bytes is not None and len(data) > max_bytes
    if file.suffix.lower() not in EXTRACTED and max_bytes is not None:
        data = data[:max_bytes]
    fmt, lines = document_lines(file, data)
    return DocumentLines(str(file), fmt, tuple(lines), truncated)
