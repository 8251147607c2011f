"""PDF pages through PDFium (pypdfium2, BSD/Apache): which pages lack a text layer, a page as an image, and
where a piece of a page's text layer sits.

PDFium is not thread-safe, and the writer thread (OCR) and the read pool (previews) both use it: every
call here holds one process-wide lock from opening the document to closing it. Work done with what it
returns (OCR of a rendered page) happens outside the lock.
"""

from __future__ import annotations

import ctypes
import logging
import math
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import ExtractError, MissingDependency
from engine.ingest.pages import Box
from engine.text import normalize, normalized_with_map, rejoined

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

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


# PDFium's marks for a hyphen at a line's end where it joins the word to the next line's start ("appear-" /
# "ance"): the line is broken there again and the hyphen kept, as the page shows it
_SOFT_HYPHENS = frozenset({0xFFFE, 0x0002})
_MERGE_OVERLAP = 0.5  # a run whose height shares this much with the line before it sits on that line
_TURNED = 0.1  # radians: a character turned further is set sideways
_SPACE_GAP = 0.2  # a gap wider than this share of the font size between two runs on a line is a space
# (TeX stretches and shrinks its spaces, never below about a quarter of an em)


def text_lines(data: bytes, name: str = "the PDF") -> tuple[list[list[str]], int]:
    """Each page's lines as `marked_lines` reads them, without their marks."""
    pages, failed = marked_lines(data, name)
    return [[line.text for line in page] for page in pages], failed


def marked_lines(data: bytes, name: str = "the PDF") -> tuple[list[list[PdfLine]], int]:
    """Each page's text layer as lines (a list per page, in page order), and how many pages could not be
    read (those are logged and left empty).

    PDFium places the spaces a typesetter left out of the text (TeX justifies a line by moving words, not
    by writing spaces: other readers run such a line's words together), writes a ligature as its letters
    ("fi", not "\ufb01") and breaks lines where the page does. Two things are put back as a reader sees
    them: a word hyphenated across a line end stays broken there, the hyphen kept (PDFium joins the two
    lines), and a run that sits on the line before it (a footnote mark, a superscript, a table's next
    cell on the same row) joins that line, with a space where a gap separates them."""
    pages: list[list[PdfLine]] = []
    failed = 0
    with _document(data, name) as doc:
        for index in range(len(doc)):
            try:
                page = doc[index]
                textpage = page.get_textpage()
            except Exception as exc:  # one damaged page should not hide the rest of the document
                log.warning("%s: page %d unreadable: %s", name, index + 1, exc)
                pages.append([])
                failed += 1
                continue
            try:
                pages.append(_page_lines(textpage))
            finally:
                textpage.close()
                page.close()
    return pages, failed


_Band = tuple[float, float, float, float]  # bottom, top, left, right
NOT_ON_PAGE = -1  # a character a line holds that the page does not: a space between joined runs


@dataclass
class _Run:
    """A line of the page as PDFium breaks it: its characters, each with its PDFium index, and its band."""

    chars: list[str]
    indices: list[int]
    band: _Band | None
    size: float = 0.0  # the font size of its first character, in points
    upright: bool = True  # its first character is not turned (a sideways table's lines are never joined)
    bold: bool = False  # its first and last characters are set bold
    largest: float = 0.0  # its largest font size

    @property
    def text(self) -> str:
        return "".join(self.chars)


def _page_lines(textpage: Any) -> list[PdfLine]:
    return [PdfLine(run.text, run.largest, run.bold) for run in _page_runs(textpage, marks=True) if run.chars]


@dataclass(frozen=True)
class PdfLine:
    """A line of a page's text layer, with what marks a title: its largest font size, and whether it is set
    bold from its first character to its last."""

    text: str
    size: float = 0.0
    bold: bool = False


# A font whose name says it is bold: "TeXGyreTermes-Bold", "CMBX10" (Computer Modern bold extended),
# "Arial,Bold", "Helvetica-Bold", "NimbusSans-Bold", "SourceSansPro-Semibold"
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|^(?:[A-Z]{6}\+)?(?:cm|lm|ec)bx", re.IGNORECASE)
BOLD_WEIGHT = 600


def _bold(textpage: Any, index: int) -> bool:
    import pypdfium2.raw as pdfium_c

    if pdfium_c.FPDFText_GetFontWeight(textpage.raw, index) >= BOLD_WEIGHT:
        return True
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, buffer, len(buffer), ctypes.byref(flags))
    return bool(_BOLD_NAME.search(buffer.value.decode("latin-1", "replace")))


def _page_runs(textpage: Any, marks: bool = False) -> list[_Run]:
    """The page's lines as runs; with `marks`, each with what marks a title (its fonts' weight and size)."""
    import pypdfium2.raw as pdfium_c

    count = textpage.count_chars()
    runs: list[_Run] = []
    chars: list[str] = []
    indices: list[int] = []
    boxes: list[_Band] = []
    high = 0  # a UTF-16 high surrogate waiting for its low half (PDFium counts each half as a character)

    def close() -> None:
        while chars and chars[-1].isspace():
            chars.pop()
            indices.pop()
        band = None
        if boxes:
            band = (
                min(b[0] for b in boxes),
                max(b[1] for b in boxes),
                min(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
        shown = [i for c, i in zip(chars, indices, strict=True) if not c.isspace()]
        first = shown[0] if shown else None
        size = float(pdfium_c.FPDFText_GetFontSize(textpage.raw, first)) if first is not None else 0.0
        angle = float(pdfium_c.FPDFText_GetCharAngle(textpage.raw, first)) if first is not None else 0.0
        upright = min(angle, 2 * math.pi - angle) < _TURNED if angle >= 0 else True  # -1: not known
        bold, largest = False, size
        if marks and shown:  # what marks a title: only the extractor reads it, not the page view
            bold = _bold(textpage, shown[0]) and _bold(textpage, shown[-1])
            largest = max(float(pdfium_c.FPDFText_GetFontSize(textpage.raw, i)) for i in shown)
        runs.append(_Run(list(chars), list(indices), band, size, upright, bold, largest))
        chars.clear()
        indices.clear()
        boxes.clear()

    index = 0
    while index < count:
        code = pdfium_c.FPDFText_GetUnicode(textpage.raw, index)
        if code in (0x0D, 0x0A):
            close()
            if (
                code == 0x0D
                and index + 1 < count
                and pdfium_c.FPDFText_GetUnicode(textpage.raw, index + 1) == 0x0A
            ):
                index += 1
        elif code in _SOFT_HYPHENS:
            chars.append("-")
            indices.append(index)
            close()
        elif 0xD800 <= code < 0xDC00:
            high = code
        else:
            if 0xDC00 <= code < 0xE000:
                code = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00) if high else 0xFFFD
            high = 0
            if code >= 0x20 or code == 0x09:
                chars.append(chr(code))
                indices.append(index)
                if not chr(code).isspace():
                    left, bottom, right, top = textpage.get_charbox(index)
                    boxes.append((bottom, top, left, right))
        index += 1
    if chars:
        close()
    return _joined(runs)


def _joined(runs: list[_Run]) -> list[_Run]:
    """Runs that sit on the line before them (their heights overlap, and they start where it ends or to
    its right) joined to it; the others are lines of their own."""
    lines: list[_Run] = []
    for run in runs:
        last = lines[-1] if lines else None
        if (
            run.band is not None
            and last is not None
            and last.band is not None
            and run.upright
            and last.upright
        ):
            bottom, top, left, right = last.band
            overlap = min(top, run.band[1]) - max(bottom, run.band[0])
            height = min(top - bottom, run.band[1] - run.band[0])
            if height > 0 and overlap > _MERGE_OVERLAP * height and run.band[2] >= right - 1:
                while run.chars and run.chars[0].isspace():
                    del run.chars[0], run.indices[0]
                if run.band[2] - right > _SPACE_GAP * (run.size or top - bottom):
                    last.chars.append(" ")
                    last.indices.append(NOT_ON_PAGE)
                last.chars += run.chars
                last.indices += run.indices
                last.bold = last.bold and run.bold
                last.largest = max(last.largest, run.largest)
                last.band = (min(bottom, run.band[0]), max(top, run.band[1]), left, max(right, run.band[3]))
                continue
        lines.append(run)
    return lines


# A page's titles: a line set larger than the text (TITLE_SIZE times its most common size), or bold from its
# first character to its last at the text's size (a caption's smaller bold counts from BOLD_SIZE), of at
# most TITLE_WORDS words, not ending as a sentence or a clause does
TITLE_SIZE = 1.2
BOLD_SIZE = 0.85
TITLE_WORDS = 12
_NUMBERED = re.compile(
    r"((?:\d{1,3}|[A-Z]|[IVX]{1,5})(?:\.\d{1,3})*)\.?\s+\S"
)  # "3. ", "3.1 ", "A.2 ", "VII.2. "
_ENDS_CLAUSE = (".", ",", ";", ":", "?", "!")


def title_levels(pages: list[list[PdfLine]]) -> list[list[int]]:
    """Each line's title level, 0 for text: a numbered title ("3.1 Subsections") is as deep as its number,
    another set larger than the text is 1, another set bold one below the last numbered title (a caption,
    "ABSTRACT")."""
    sizes: dict[float, int] = {}
    for page in pages:
        for line in page:
            key = round(line.size * 2) / 2
            sizes[key] = sizes.get(key, 0) + len(line.text)
    body = max(sizes, key=lambda size: sizes[size]) if sizes else 0.0
    depth = 0
    levels: list[list[int]] = []
    for page in pages:
        marks: list[int] = []
        for line in page:
            level = 0
            text = line.text.strip()
            large = body > 0 and line.size >= TITLE_SIZE * body
            bold = line.bold and body > 0 and line.size >= BOLD_SIZE * body
            if (large or bold) and _title_like(text):
                numbered = _NUMBERED.match(text)
                if numbered:
                    level = depth = numbered.group(1).count(".") + 1
                else:
                    level = 1 if large else depth + 1
            marks.append(level)
        levels.append(marks)
    return levels


def _title_like(text: str) -> bool:
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 2 and len(text.split()) <= TITLE_WORDS and not text.endswith(_ENDS_CLAUSE)


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
    """The boxes of `words`' first occurrence in the page's lines as `text_lines` reads them (joined by a
    line break), both read as `engine.text.normalize` reads text (NFKC, typographic quotes and dashes
    plain, runs of spaces as one), case aside where that keeps every character: a quote that crosses a
    hyphenated line end or a footnote mark is found as it was quoted."""
    page: list[str] = []
    where: list[int] = []  # the PDFium index of each character of `page`
    for run in _page_runs(textpage):
        page += run.chars
        where += run.indices
        page.append("\n")
        where.append(NOT_ON_PAGE)
    span = _find("".join(page), words, rejoin=False) or _find("".join(page), words, rejoin=True)
    if span is None:
        return []
    first, last = span
    covered = [index for index in where[first : last + 1] if index != NOT_ON_PAGE]
    boxes: list[Box] = []
    for start, count in _spans(covered):
        for rect in range(textpage.count_rects(start, count)):
            left, bottom, right, top = textpage.get_rect(rect)
            boxes.append((left / width, 1 - top / height, right / width, 1 - bottom / height))
    return boxes


def _find(page: str, words: str, rejoin: bool) -> tuple[int, int] | None:
    """The first and last offset in `page` of `words`' first occurrence, both read as `normalize` reads
    text, case aside where that keeps every character; with `rejoin`, a word hyphenated over a line end
    read whole on both sides (a quote that writes "appearance" of a page's "appear-" / "ance")."""
    flat, offsets = normalized_with_map(page, rejoin=rejoin)
    wanted = normalize(rejoined(words) if rejoin else words)
    if not wanted:
        return None
    if len(flat.lower()) == len(flat) and len(wanted.lower()) == len(wanted):
        flat, wanted = flat.lower(), wanted.lower()
    found = flat.find(wanted)
    if found < 0:
        return None
    return offsets[found], offsets[found + len(wanted) - 1]


def _spans(indices: list[int]) -> Iterator[tuple[int, int]]:
    """Runs of consecutive PDFium indices as (start, count)."""
    start = previous = None
    for index in sorted(set(indices)):
        if previous is not None and index == previous + 1:
            previous = index
            continue
        if start is not None and previous is not None:
            yield start, previous - start + 1
        start = previous = index
    if start is not None and previous is not None:
        yield start, previous - start + 1
