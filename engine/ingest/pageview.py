"""A citation on its page: which page of a PDF or image to show, drawn how large, and the boxes of the
cited span on it.

A page read by OCR has its lines' boxes in the OCR cache (the cited lines are numbered as OCR numbered
them). A page with a text layer is searched with PDFium: the quote first, else the cited lines one by one
(the extracted lines of pypdf and PDFium's text differ in line breaks, never in words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.errors import CiteError
from engine.ingest import pdfpages, scans
from engine.ingest.extract import extract
from engine.ingest.ocr_phase import OcrCache, content_hash
from engine.ingest.pages import Box, span_boxes
from engine.ingest.pdfpages import MAX_RENDER_PIXELS, Rendered

MAX_SEARCHED_LINES = 40  # a long cited span is boxed by its first lines' worth of searches at most
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class PageSpan:
    """Where a citation sits: its page (1-based), the document's page count, the boxes (fractions of the
    page, origin top left) and whether the page's text came from OCR."""

    page: int
    pages: int
    boxes: tuple[Box, ...]
    ocr: bool = False


def has_pages(path: str | Path) -> bool:
    """Whether a file is shown as pages: a PDF or an image this installation can open."""
    return Path(path).suffix.lower() == ".pdf" or scans.is_image(path)


def page_count(path: Path, data: bytes) -> int:
    if scans.is_image(path):
        with scans.open_image(path, data) as image:
            return int(getattr(image, "n_frames", 1))
    return pdfpages.page_count(data, path.name)


def render(path: Path, data: bytes, page: int, width: int) -> Rendered:
    """Page `page` drawn `width` pixels wide (never more than MAX_RENDER_PIXELS)."""
    if scans.is_image(path):
        return _render_image(path, data, page, width)
    return _render_pdf(path, data, page, width)


def _render_pdf(path: Path, data: bytes, page: int, width: int) -> Rendered:
    points = pdfpages.page_width(data, page)
    return pdfpages.render_rgb(data, page, 72 * width / max(points, 1.0))


def _render_image(path: Path, data: bytes, page: int, width: int) -> Rendered:
    from PIL import Image as PILImage

    with scans.open_image(path, data) as image:
        frame = scans.decode(image, page - 1)
    height = max(1, round(frame.height * width / max(frame.width, 1)))
    if width * height > MAX_RENDER_PIXELS:
        scale = (MAX_RENDER_PIXELS / (width * height)) ** 0.5
        width, height = max(1, int(width * scale)), max(1, int(height * scale))
    shown = frame.resize((max(1, width), height), PILImage.Resampling.LANCZOS)
    return Rendered(shown.width, shown.height, shown.tobytes())


def locate(
    path: Path, data: bytes, cache: OcrCache, page: int | None, start_line: int, end_line: int, quote: str
) -> PageSpan:
    """The page and boxes of lines start_line..end_line of `page` (None: an image's only page), narrowed to
    `quote` when it is found there."""
    number = page or 1
    pages = page_count(path, data)
    if not 1 <= number <= pages:
        raise CiteError(f"{path.name} has no page {number} (it has {pages}).", "the file may have changed")
    read = cache.pages(content_hash(data)).get(number)
    if read is not None:
        lines = read.lines[max(0, start_line - 1) : max(start_line, end_line)]
        return PageSpan(number, pages, tuple(span_boxes(lines, quote)), ocr=True)
    if scans.is_image(path):
        return PageSpan(number, pages, ())
    return PageSpan(number, pages, tuple(_text_layer_boxes(path, data, number, start_line, end_line, quote)))


def _text_layer_boxes(
    path: Path, data: bytes, page: int, start_line: int, end_line: int, quote: str
) -> list[Box]:
    if quote.strip():
        found = pdfpages.text_boxes(data, page, quote)
        if found:
            return found
    try:
        lines = [line.text for line in extract(path, data).lines if line.page == page]
    except CiteError:
        return []
    cited = lines[max(0, start_line - 1) : max(start_line, end_line)]
    wanted = _SPACE.sub(" ", quote).strip().lower()
    if wanted:  # the quote runs over line breaks: box the cited lines that hold part of it
        cited = [text for text in cited if _overlaps(text, wanted)] or cited
    boxes: list[Box] = []
    for text in cited[:MAX_SEARCHED_LINES]:
        boxes.extend(pdfpages.text_boxes(data, page, text))
    return boxes


def _overlaps(line: str, quote: str, reach: int = 16) -> bool:
    """Whether a line holds part of the quote: all of it, or the quote, or where the quote starts or ends
    (a quote that crosses a line break ends one line and starts the next)."""
    text = _SPACE.sub(" ", line).strip().lower()
    if not text:
        return False
    return text in quote or quote in text or quote[:reach] in text or quote[-reach:] in text
