"""PDF pages through PDFium (pypdfium2, BSD/Apache): which pages lack a text layer, a page as an image, and
where a piece of a page's text layer sits.

PDFium is not thread-safe, and the writer thread (OCR) and the read pool (previews) both use it: every
call here holds one process-wide lock from opening the document to closing it. Work done with what it
returns (OCR of a rendered page) happens outside the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import ExtractError, MissingDependency
from engine.ingest.pages import Box

if TYPE_CHECKING:
    from PIL.Image import Image

PDFIUM_LOCK = threading.Lock()
MIN_TEXT_CHARS = 16  # a page with fewer visible characters in its text layer is read by OCR
OCR_DPI = 200
MAX_RENDER_PIXELS = 12_000_000  # a page rendered for OCR or display never takes more (a poster-sized page
# is drawn at a lower resolution instead)


@dataclass(frozen=True)
class Rendered:
    """A page drawn as RGB pixels, rows top to bottom."""

    width: int
    height: int
    rgb: bytes


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:
        raise MissingDependency("pypdfium2", "ocr") from exc
    return pypdfium2


@contextmanager
def _document(data: bytes, name: str) -> Iterator[Any]:
    pdfium = _pdfium()
    with PDFIUM_LOCK:
        try:
            doc = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise ExtractError(f"{name} is corrupt, encrypted or not a PDF ({exc})", "re-save it") from exc
        try:
            yield doc
        finally:
            doc.close()


def page_count(data: bytes, name: str = "the PDF") -> int:
    with _document(data, name) as doc:
        return len(doc)


def page_width(data: bytes, number: int) -> float:
    """Page `number`'s width in points (1/72 inch)."""
    with _document(data, "the PDF") as doc:
        if not 1 <= number <= len(doc):
            raise ExtractError(f"page {number} is not in the PDF ({len(doc)} pages)", "")
        page = doc[number - 1]
        width = float(page.get_width())
        page.close()
        return width


def pages_without_text(data: bytes, name: str = "the PDF") -> tuple[list[int], int]:
    """(1-based pages whose text layer has fewer than MIN_TEXT_CHARS visible characters, page count)."""
    needed: list[int] = []
    with _document(data, name) as doc:
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            visible = sum(1 for char in textpage.get_text_range() if not char.isspace())
            textpage.close()
            page.close()
            if visible < MIN_TEXT_CHARS:
                needed.append(index + 1)
        return needed, len(doc)


def _scale(page: Any, dpi: float, max_pixels: int) -> float:
    width, height = page.get_size()
    scale = dpi / 72
    pixels = width * scale * height * scale
    if pixels > max_pixels:
        scale *= (max_pixels / pixels) ** 0.5
    return float(scale)


def render(data: bytes, number: int, dpi: float = OCR_DPI, max_pixels: int = MAX_RENDER_PIXELS) -> Image:
    """Page `number` (1-based) as an RGB image at `dpi`, or smaller if that would pass `max_pixels`."""
    with _document(data, "the PDF") as doc:
        if not 1 <= number <= len(doc):
            raise ExtractError(f"page {number} is not in the PDF ({len(doc)} pages)", "")
        page = doc[number - 1]
        bitmap = page.render(scale=_scale(page, dpi, max_pixels), rev_byteorder=True)
        image: Image = bitmap.to_pil().convert("RGB")
        bitmap.close()
        page.close()
        return image


def render_rgb(data: bytes, number: int, dpi: float, max_pixels: int = MAX_RENDER_PIXELS) -> Rendered:
    image = render(data, number, dpi, max_pixels)
    return Rendered(image.width, image.height, image.tobytes())


def text_boxes(data: bytes, number: int, needle: str) -> list[Box]:
    """Where `needle` first occurs in page `number`'s text layer: one box per run of text it covers (PDFium
    joins the characters of a line into one rectangle); empty when it does not occur."""
    words = " ".join(needle.split())
    if not words:
        return []
    with _document(data, "the PDF") as doc:
        if not 1 <= number <= len(doc):
            return []
        page = doc[number - 1]
        width, height = page.get_size()
        textpage = page.get_textpage()
        try:
            return _occurrence(textpage, words, width, height)
        finally:
            textpage.close()
            page.close()


def _occurrence(textpage: Any, words: str, width: float, height: float) -> list[Box]:
    searcher = textpage.search(words, match_case=False)
    try:
        found = searcher.get_next()
    finally:
        searcher.close()
    if found is None:
        return []
    start, count = found
    boxes: list[Box] = []
    for index in range(textpage.count_rects(start, count)):
        left, bottom, right, top = textpage.get_rect(index)
        boxes.append((left / width, 1 - top / height, right / width, 1 - bottom / height))
    return boxes
