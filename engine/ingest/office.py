"""Slides, spreadsheets, OpenDocument text and e-books: PowerPoint (.pptx), Excel (.xlsx), OpenDocument
(.odt, .ods, .odp) and EPUB (.epub), read from their zipped XML with the standard library.

Each is cited where a person finds the text again:
- a slide deck: the slide (`Line.page`) and the line among the slide's lines of text (its title first
  where it has one, then its text boxes, tables and speaker notes in the order the slide holds them);
- a spreadsheet: the sheet (`Line.page`, in the workbook's order) and the row's own number, as the
  program shows it; each row reads "column=value; ..." under its sheet's first row, as a CSV file's do;
- an OpenDocument text: the line among its paragraphs, headings and table rows, as a Word file's;
- an e-book: the chapter (`Line.page`, the reading order's HTML files) and the line of that file, its
  text read as an HTML page's (`extract.HtmlExtractor`).

A title becomes a Markdown heading ("# Results"), so a passage carries the slide or section it sits in,
and paragraphs are set apart by a blank line, so a bullet without a full stop ends where it ends. The
archive's sizes are checked before anything is inflated (`extract.check_zip`), and the XML is parsed by
expat, which refuses entity expansion bombs and never fetches an external entity.
"""

from __future__ import annotations

import io
import logging
import math
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from engine.errors import ExtractError
from engine.events import Document, Line

log = logging.getLogger(__name__)

# a change to what these readers read gets a new name (extract.readers); 2: monospaced faces are code
OFFICE_READER = "office-4"  # 3: a sheet's title row, numbers as formats show them; 4: header rows
POWERPOINT_SUFFIXES = (".pptx", ".pptm", ".ppsx")  # a deck, one with macros, a slide show
EXCEL_SUFFIXES = (".xlsx", ".xlsm")  # a workbook, one with macros
LEGACY_SLIDE_SUFFIXES = (".ppt", ".pps", ".pot")  # PowerPoint 97-2003 (engine/ingest/legacy.py)
LEGACY_SHEET_SUFFIXES = (".xls", ".xlt")  # Excel 97-2003 (engine/ingest/legacy.py)
SLIDE_SUFFIXES = (*POWERPOINT_SUFFIXES, ".odp", *LEGACY_SLIDE_SUFFIXES)
SHEET_SUFFIXES = (*EXCEL_SUFFIXES, ".ods", *LEGACY_SHEET_SUFFIXES)
BOOK_SUFFIXES = (".epub",)
# the zipped ones, read here
OFFICE_SUFFIXES = (*POWERPOINT_SUFFIXES, ".odp", *EXCEL_SUFFIXES, ".ods", ".odt", *BOOK_SUFFIXES)

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted Office file, or a legacy .ppt/.xls
MAX_COLUMNS = 1000  # a row's cells read at most this far right (a stray value in column XFD ends there)
MAX_REPEATS = 1000  # an OpenDocument row or cell written once for N alike, read at most this many times
# What a document may read to, in characters: a few kilobytes of XML can say "this 100 KB string in each
# of a thousand cells" or "a hundred million spaces"; such a file is refused, not read into gigabytes
MAX_TEXT = 32_000_000
MAX_SPACES = 1000  # an OpenDocument run of spaces (text:s c="N"), at most
MAX_NESTING = 64  # groups in groups, lists in lists: deeper ones are not read (no document nests so deep)

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_PRES = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
_OPF = "{http://www.idpf.org/2007/opf}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"

_NAMES = {
    **dict.fromkeys(POWERPOINT_SUFFIXES, "PowerPoint presentation"),
    **dict.fromkeys(EXCEL_SUFFIXES, "Excel workbook"),
    ".odt": "OpenDocument text",
    ".ods": "OpenDocument spreadsheet",
    ".odp": "OpenDocument presentation",
    ".epub": "EPUB book",
}
_SAVE_AS = {
    **dict.fromkeys(POWERPOINT_SUFFIXES, "PowerPoint"),
    **dict.fromkeys(EXCEL_SUFFIXES, "Excel"),
    ".epub": "its e-book program",
}


# Faces drawn fixed-pitch whatever a font table declares (pandoc's Word files declare Courier New
# variable; TextEdit writes Menlo as a font of no family): a paragraph in one is a program's text
_MONOSPACED = re.compile(
    r"courier|mono|consolas|menlo|monaco|console|inconsolata|typewriter|fixedsys|\bcode\b", re.IGNORECASE
)


def monospaced(face: str | None) -> bool:
    """Whether a font face (its name as a document gives it) is one whose letters are all as wide."""
    return bool(face) and bool(_MONOSPACED.search(face or ""))


# A word processor's built-in heading style, by name ("Heading 2", "heading 2"): a title of its level
HEADING_STYLE = re.compile(r"^\s*heading\s*(\d)\s*$", re.IGNORECASE)


def heading_level(style: str) -> int:
    """The title level a paragraph style's name gives: "Heading 2" 2, the document's "Title" 1, else 0."""
    if level := HEADING_STYLE.match(style):
        return int(level.group(1))
    return 1 if style.strip().lower() == "title" else 0


# ------------------------------------------------------------------------------------------- archive


class _Archive:
    """The zip, and its XML parts parsed; a part that is missing reads as None."""

    def __init__(self, path: Path, data: bytes) -> None:
        from engine.ingest.extract import check_zip

        self.path = path
        suffix = path.suffix.lower()
        what = _NAMES.get(suffix, "document")
        if data.startswith(_OLE_MAGIC):
            legacy = {**dict.fromkeys(POWERPOINT_SUFFIXES, " or a legacy .ppt file"),
                      **dict.fromkeys(EXCEL_SUFFIXES, " or a legacy .xls file")}.get(suffix, "")  # fmt: skip
            raise ExtractError(
                f"{path.name} is encrypted{legacy}",
                f"save an unprotected copy as {suffix} to index it",
            )
        check_zip(path, data)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, ValueError, OSError) as exc:
            raise ExtractError(
                f"{path.name} is corrupt or not {_a(what)}",
                f"re-save it in {_SAVE_AS.get(suffix, 'the program that made it')}",
            ) from exc
        self.names = {info.filename for info in self.zip.infolist()}
        self.inflated = 0  # bytes of the parts read so far, inflated
        self._targets: dict[str, dict[str, str]] = {}  # a part's relationships, read once

    def read(self, name: str) -> bytes:
        """A part's bytes, counted against the cap on what a document may inflate to (`extract.check_zip`
        weighs the parts named as XML before anything is read; a reader opens what the package names, a
        chapter "ch1.htm" or a slide "slide3.dat" too)."""
        from engine.ingest.extract import ZIP_MAX_XML_BYTES

        self.inflated += self.zip.getinfo(name).file_size
        if self.inflated > ZIP_MAX_XML_BYTES:
            raise ExtractError(
                f"{self.path.name} inflates to more than {ZIP_MAX_XML_BYTES / 1e6:,.0f} MB of text; "
                "skipped as a possible zip bomb",
                "split the document, or export it to PDF or text to index it",
            )
        try:
            return self.zip.read(name)
        except (zipfile.BadZipFile, zlib.error, RuntimeError, OSError) as exc:  # a bad CRC, a bad stream,
            raise ExtractError(  # a password on the member
                f"{self.path.name} is corrupt ({name}: {exc})", "re-save it in the program that made it"
            ) from exc

    def xml(self, name: str) -> ET.Element | None:
        if name not in self.names:
            return None
        try:
            return ET.fromstring(self.read(name))
        except ET.ParseError as exc:
            raise ExtractError(
                f"{self.path.name} is corrupt ({name}: {exc})", "re-save it in the program that made it"
            ) from exc

    def stream(self, name: str, tag: str) -> Iterator[ET.Element]:
        """Each `tag` element of a part as its end is parsed; the caller clears it once read."""
        data = self.read(name)  # counted, and a broken member refused before any row is read
        try:
            for _, element in ET.iterparse(io.BytesIO(data), events=("end",)):
                if element.tag == tag:
                    yield element
        except ET.ParseError as exc:
            raise ExtractError(
                f"{self.path.name} is corrupt ({name}: {exc})", "re-save it in the program that made it"
            ) from exc

    def required(self, name: str) -> ET.Element:
        root = self.xml(name)
        if root is None:
            raise ExtractError(
                f"{self.path.name} is corrupt or not {_a(_NAMES.get(self.path.suffix.lower(), 'document'))} "
                f"(it has no {name})",
                "re-save it in the program that made it",
            )
        return root

    def targets(self, part: str) -> dict[str, str]:
        """A part's relationships: id -> the target's name in the archive (read once: a slide's are asked
        for its notes and for its layout)."""
        if part not in self._targets:
            folder, name = posixpath.split(part)
            rels = self.xml(posixpath.join(folder, "_rels", name + ".rels"))
            self._targets[part] = {
                rel.get("Id", ""): _resolve(folder, rel.get("Target", ""))
                for rel in (rels.iter(f"{_PKG}Relationship") if rels is not None else ())
                if rel.get("TargetMode") != "External"
            }
        return self._targets[part]


def _a(what: str) -> str:
    return f"{'an' if what[0] in 'AEIOU' else 'a'} {what}"


def _resolve(folder: str, target: str) -> str:
    target = unquote(target)
    joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
    return posixpath.normpath(joined)


def _core_title(archive: _Archive) -> str:
    core = archive.xml("docProps/core.xml")
    found = core.find(f"{_DC}title") if core is not None else None
    return " ".join((found.text or "").split()) if found is not None else ""


class TooMuchText(ExtractError):
    def __init__(self) -> None:
        super().__init__(
            f"reads to more than {MAX_TEXT // 1_000_000} million characters of text (a few kilobytes of XML "
            "can repeat one text millions of times); skipped as a possible bomb",
            "split the document, or export it to PDF or text to index it",
        )


class Writer:
    """A document's lines as they are read: each with its line number (the next one of its page) and page;
    a title as a Markdown heading, a list's items as Markdown's ("- item", nested by two spaces), a
    blank line after each block and list, and lines set in a fixed-pitch font (a program's text) one
    fenced block, as they are."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.page: int | None = None
        self.ordinal = 0
        self.titled = False
        self.fenced = False
        self.listed = False
        self.size = 0

    def _add(self, text: str) -> None:
        self.size += len(text)
        if self.size > MAX_TEXT:
            raise TooMuchText()
        self.lines.append(Line(text, self.ordinal, self.page))

    def new_page(self, page: int) -> None:
        self.end_code()
        self.end_list()
        self.page, self.ordinal = page, 0

    def item(self, text: str, depth: int = 0, marker: str = "-") -> None:
        """A list's item: the next item is no part of its sentence, and a lead-in ("...the following
        codes:") is quoted with the list after it, as in Markdown; `marker` is its number where the
        document writes one ("2.")."""
        text = " ".join(text.split())
        if not text:
            return
        self.end_code()
        self.ordinal += 1
        self._add(f"{'  ' * min(depth, 8)}{marker} {text}")
        self.listed = True

    def end_list(self) -> None:
        if self.listed:
            self.lines.append(Line("", self.ordinal, self.page))
            self.listed = False

    def code(self, text: str) -> None:
        self.end_list()
        self.ordinal += 1
        if not self.fenced:
            self.lines.append(Line("```", self.ordinal, self.page))
            self.fenced = True
        for piece in text.split("\n"):  # a line break within the paragraph: a line of the program
            self._add(piece.rstrip())

    def end_code(self) -> None:
        if self.fenced:
            while self.lines[-1].text == "":  # trailing empty lines of the program: no part of it
                self.lines.pop()
            self.lines.append(Line("```", self.lines[-1].line, self.page))
            self.lines.append(Line("", self.lines[-1].line, self.page))
            self.fenced = False

    def block(self, text: str, level: int = 0) -> None:
        text = " ".join(text.split())
        if not text:
            return
        self.end_code()
        self.end_list()
        self.ordinal += 1
        if level:
            text = f"{'#' * min(level, 6)} {text}"
            self.titled = True
        self._add(text)
        self.lines.append(Line("", self.ordinal, self.page))

    def plain(self, lines: Sequence[str]) -> None:
        """Lines of plain text (an e-mail's) as they are, each its own line, a blank one between
        paragraphs and after the last."""
        self.end_code()
        self.end_list()
        for text in lines:
            if text.strip():
                self.ordinal += 1
                self._add(text.rstrip())
            elif self.lines and self.lines[-1].text:
                self.lines.append(Line("", self.ordinal, self.page))
        if self.lines and self.lines[-1].text:
            self.lines.append(Line("", self.ordinal, self.page))

    def row(self, cells: Sequence[str], header: bool = False) -> None:
        """A table's row, Markdown's way ("| a | b |"): the next row is no part of its sentence. A `header`
        row (the format marks it as the table's column names) is followed by Markdown's separator
        ("| --- | --- |", on the header's line), so each row below is read and quoted under its columns'
        names ("Stage: Construction; Timing: 12 January – 24 April 2026"), as a Markdown table's are."""
        texts = [" ".join(cell.split()).replace("|", "\\|") for cell in cells]
        if any(texts):
            self.end_code()
            self.end_list()
            self.ordinal += 1
            self._add("| " + " | ".join(texts) + " |")
            if header:
                self._add("| " + " | ".join("---" for _ in texts) + " |")

    def notes(self, texts: Sequence[str]) -> None:
        """A slide's speaker notes, under a heading of their own."""
        if texts:
            self.block("Speaker notes", level=2)
            for text in texts:
                self.block(text)

    def end_table(self) -> None:
        if self.lines and self.lines[-1].text:
            self.lines.append(Line("", self.ordinal, self.page))

    def document(self, title: str, kind: str = "") -> Document:
        self.end_code()
        self.end_list()
        while self.lines and not self.lines[-1].text:
            self.lines.pop()
        if not kind:
            kind = "markdown" if self.titled else "text"
        return Document(tuple(self.lines), kind=kind, title=title)


# ------------------------------------------------------------------------------------------- slides


@dataclass(frozen=True)
class PptxExtractor:
    """PowerPoint: each slide a page, in the deck's order (hidden slides too); its title, text boxes, tables
    and speaker notes, each paragraph a line. Slide numbers, dates and footers set by placeholders are the
    deck's furniture, not what a slide says: left out."""

    def extract(self, path: Path, data: bytes) -> Document:
        if data.startswith(_OLE_MAGIC):  # a 97-2003 deck under this name, or an encrypted one
            from engine.ingest.legacy import PptExtractor

            return PptExtractor().extract(path, data)
        archive = _Archive(path, data)
        deck = archive.required("ppt/presentation.xml")
        targets = archive.targets("ppt/presentation.xml")
        writer = Writer()
        first_title = ""
        seen: set[str] = set()
        layouts: dict[str, frozenset[str]] = {}  # a layout's unbulleted placeholders: many slides share one
        listed = deck.find(f"{_P}sldIdLst")
        for number, slide_id in enumerate(listed if listed is not None else [], 1):
            part = targets.get(slide_id.get(f"{_R}id", ""), "")
            if part in seen:  # a part listed twice is read once
                continue
            seen.add(part)
            slide = archive.xml(part) if part else None
            if slide is None:
                continue
            writer.new_page(number)
            tree = slide.find(f"{_P}cSld/{_P}spTree")
            if tree is not None:
                title = _pptx_shapes(tree, writer, unbulleted=_unbulleted(archive, part, layouts))
                first_title = first_title or title
            try:
                related = archive.targets(part).values()
                notes = next((t for t in related if posixpath.basename(t).startswith("notesSlide")), "")
                notes_tree = archive.xml(notes) if notes else None
            except ExtractError as exc:  # broken notes lose the notes, not the deck
                log.info("%s: slide %d's notes unreadable: %s", path, number, exc)
                notes_tree = None
            _pptx_notes(notes_tree, writer)
        return writer.document(_core_title(archive) or first_title, kind="markdown")


_FURNITURE = frozenset({"sldNum", "dt", "ftr", "hdr", "sldImg"})
_TITLES = frozenset({"title", "ctrTitle"})


def _placeholder(shape: ET.Element) -> str | None:
    """A shape's placeholder type ("title", "body", "sldNum"; "obj" when it has none), or None."""
    for holder in shape.iter(f"{_P}ph"):
        return holder.get("type", "obj")
    return None


_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"


def _pptx_shapes(
    tree: ET.Element, writer: Writer, nest: int = 0, unbulleted: frozenset[str] = frozenset()
) -> str:
    """Write a shape tree's text; the slide's title, where a title placeholder holds one. `unbulleted`: the
    placeholders (by index) whose layout takes the master's bullets off."""
    title = ""
    for shape in tree if nest <= MAX_NESTING else ():
        tag = shape.tag
        if tag == f"{_P}grpSp":
            title = _pptx_shapes(shape, writer, nest + 1, unbulleted) or title
        elif tag == f"{_MC}AlternateContent":  # a newer shape (its Choice) beside an older program's copy
            choice = shape.find(f"{_MC}Choice")
            chosen = choice if choice is not None else shape.find(f"{_MC}Fallback")
            if chosen is not None:
                title = _pptx_shapes(chosen, writer, nest + 1, unbulleted) or title
        elif tag == f"{_P}sp":
            kind = _placeholder(shape)
            if kind in _FURNITURE:
                continue
            body = shape.find(f"{_P}txBody")
            if body is None:
                continue
            paragraphs = list(body.iter(f"{_A}p"))
            if kind in _TITLES:
                said = " ".join(" ".join(_drawing_text(p) for p in paragraphs).split())
                writer.block(said, level=1)
                title = title or said
                continue
            for paragraph in paragraphs:
                properties = paragraph.find(f"{_A}pPr")
                level = _int(properties.get("lvl")) if properties is not None else 0
                if _bulleted(properties, kind in _BULLETED and _index(shape) not in unbulleted):
                    writer.item(_drawing_text(paragraph), level)
                else:
                    writer.block(_drawing_text(paragraph))
        elif tag == f"{_P}graphicFrame":
            for table in shape.iter(f"{_A}tbl"):
                properties = table.find(f"{_A}tblPr")  # "Header Row" in PowerPoint's table design
                marked = properties is not None and properties.get("firstRow") in ("1", "true")
                rows = list(table.iter(f"{_A}tr"))
                for index, row in enumerate(rows):
                    cells = [cell for cell in row.iter(f"{_A}tc") if not _merged_away(cell)]
                    texts = [" ".join(_drawing_text(p) for p in cell.iter(f"{_A}p")) for cell in cells]
                    writer.row(texts, header=marked and index == 0 and len(rows) > 1 and names_columns(texts))
                writer.end_table()
    return title


def _index(shape: ET.Element) -> str:
    """A placeholder's index, by which a slide's placeholder finds its layout's ("" for none)."""
    holder = next(shape.iter(f"{_P}ph"), None)
    return holder.get("idx", "") if holder is not None else ""


def _unbulleted(archive: _Archive, slide: str, layouts: dict[str, frozenset[str]]) -> frozenset[str]:
    """The placeholders of a slide's layout whose list style takes the bullets off (a Section Header's or a
    Comparison's text, a caption): their paragraphs are text, not items. `layouts`: those read already."""
    layout = next((t for t in archive.targets(slide).values() if "slideLayout" in posixpath.basename(t)), "")
    if layout not in layouts:
        try:
            tree = archive.xml(layout) if layout else None
        except ExtractError:  # a broken layout: the master's bullets, as PowerPoint would fall back to
            tree = None
        layouts[layout] = frozenset(
            _index(shape)
            for shape in (tree.iter(f"{_P}sp") if tree is not None else ())
            if shape.find(f"{_P}txBody/{_A}lstStyle/{_A}lvl1pPr/{_A}buNone") is not None
        )
    return layouts[layout]


def _merged_away(cell: ET.Element) -> bool:
    """A table cell that a merge covers (its text, if any, is not shown)."""
    return cell.get("hMerge") in ("1", "true") or cell.get("vMerge") in ("1", "true")


# Placeholders whose paragraphs the slide masters set with bullets: a content placeholder (no type) and a
# body one. A text box's paragraphs have none unless they say so.
_BULLETED = frozenset({"obj", "body"})


def _bulleted(properties: ET.Element | None, by_default: bool) -> bool:
    """Whether a DrawingML paragraph shows a bullet or a number: its own say (a:buNone; a:buChar,
    a:buAutoNum), else its placeholder's default."""
    if properties is not None:
        if properties.find(f"{_A}buNone") is not None:
            return False
        if properties.find(f"{_A}buChar") is not None or properties.find(f"{_A}buAutoNum") is not None:
            return True
    return by_default


def _pptx_notes(notes: ET.Element | None, writer: Writer) -> None:
    """The speaker notes' text (the notes page's body placeholder), under a heading of its own."""
    if notes is None:
        return
    texts = [
        text
        for shape in notes.iter(f"{_P}sp")
        if _placeholder(shape) == "body"
        for text in (_drawing_text(p) for p in shape.iter(f"{_A}p"))
        if text.strip()
    ]
    writer.notes(texts)


def _drawing_text(paragraph: ET.Element) -> str:
    """A DrawingML paragraph's text: its runs and fields, a line break as a space."""
    parts: list[str] = []
    for node in paragraph:
        if node.tag in (f"{_A}r", f"{_A}fld"):
            found = node.find(f"{_A}t")
            parts.append(found.text or "" if found is not None else "")
        elif node.tag == f"{_A}br":
            parts.append(" ")
    return "".join(parts)


# ------------------------------------------------------------------------------------- spreadsheets


@dataclass(frozen=True)
class XlsxExtractor:
    """Excel: each sheet a page, in the workbook's order; each row with a value a line at its row number,
    its values as the cell shows them where that is plain (a date as a date, a percentage with its sign,
    TRUE/FALSE), a formula's as last calculated. The sheet's first row with a value names the columns."""

    def extract(self, path: Path, data: bytes) -> Document:
        if data.startswith(_OLE_MAGIC):  # a 97-2003 workbook under this name, or an encrypted one
            from engine.ingest.legacy import XlsExtractor

            return XlsExtractor().extract(path, data)
        archive = _Archive(path, data)
        book = archive.required("xl/workbook.xml")
        targets = archive.targets("xl/workbook.xml")
        strings = _shared_strings(archive.xml("xl/sharedStrings.xml"))
        styles = Styles.of(archive.xml("xl/styles.xml"), _date1904(book))
        lines: list[Line] = []
        found = book.find(f"{_S}sheets")
        sheets = list(found if found is not None else [])
        read: set[str] = set()
        for number, sheet in enumerate(sheets, 1):
            part = targets.get(sheet.get(f"{_R}id", ""), "")
            if part not in archive.names or part in read:  # a part listed twice is read once
                continue
            read.add(part)
            rows = _xlsx_rows(archive, part, strings, styles)
            lines.extend(Line(text, row, number, level) for row, text, level in described(rows))
        names = tuple(" ".join(sheet.get("name", "").split()) for sheet in sheets)
        return Document(tuple(lines), kind="table", title=_core_title(archive), page_names=names)


def names_columns(cells: Sequence[str]) -> bool:
    """Whether a row the format marks as a table's header can name its columns: two or more, each named
    (the first may be blank, over a column of row names)."""
    return len(cells) >= 2 and all(cell.strip() for cell in cells[1:])


def described(
    rows: Iterator[tuple[int, list[str]]], limit: int | None = MAX_TEXT
) -> Iterator[tuple[int, str, int]]:
    """A table's rows as lines (a CSV file's, a sheet's), each (row number, text, title level): its first
    row with two or more values names the columns ("name; price"), each row after it reads "name=Tea;
    price=3". A row with one value above that names no columns: the first such row is the table's title
    (level 1, a sheet's "Rate card 2025 (excluding VAT)" over its rows), any other a line of text; unless
    its value stands right of the table's first column, where it names that column (pandas' ",count" over
    "London,5"). A table of one column is named by its first value where that reads as a name ("Owner"
    over "Dana"); a column of sentences (a sheet of notes) is text, line by line. A sheet's text is bounded
    by `limit` (its cells may repeat one string); a CSV file's is what the file holds (None)."""
    header: list[str] | None = None
    above: list[tuple[int, list[str]]] = []  # the rows of one value before any of two: a title, or text
    size = 0
    cap = float("inf") if limit is None else limit

    def one_column(final: bool) -> Iterator[tuple[int, str, int]]:
        """The rows of one value kept back: a column under its name, or (a sheet's notes) text, where
        `final` (the table is done) or they read as no column (a table may follow them still)."""
        nonlocal header
        first = above[0][1]
        column = _first(first)
        if _NAME.fullmatch(first[column]) and all(_first(cells) == column for _, cells in above):
            header = [*(f"column {index}" for index in range(1, column + 1)), first[column]]
            yield above[0][0], first[column], 0
            yield from ((row, describe(header, cells), 0) for row, cells in above[1:])
        else:
            header = [] if final else None
            yield from ((row, cells[_first(cells)], 0) for row, cells in above)
        above.clear()

    for number, cells in rows:
        if size + sum(len(cell) for cell in cells) > cap:  # before a row of huge cells is joined
            raise TooMuchText()
        cells = [" ".join(cell.split()) for cell in cells]
        values = [cell for cell in cells if cell]
        if not values:
            continue
        if header is None and len(values) == 1:
            size += len(values[0])
            if size > cap:
                raise TooMuchText()
            above.append((number, cells))
            if len(above) > _ABOVE:  # too many for a title: a column of its own, or text
                yield from one_column(final=False)
            continue
        if header is None:
            named = above.pop() if above and _first(above[-1][1]) > _first(cells) else None
            titled = [(row, cells[_first(cells)]) for row, cells in above]
            yield from ((row, text, 0 if i else 1) for i, (row, text) in enumerate(titled))
            above.clear()
            if named is not None:  # the columns' names, the first column's unnamed
                names = [name or f"column {index}" for index, name in enumerate(named[1], 1)]
                header = names + [f"column {index}" for index in range(len(names) + 1, len(cells) + 1)]
                yield named[0], "; ".join(names), 0
                said = describe(header, cells)
            else:
                header = [name or f"column {index}" for index, name in enumerate(cells, 1)]
                said = "; ".join(header)
        elif not header:  # a column of text, and now a row of more
            said = "; ".join(values)
        else:
            said = describe(header, cells)
        size += len(said)
        if size > cap:
            raise TooMuchText()
        yield number, said, 0
    if above:
        yield from one_column(final=True)


def _first(cells: Sequence[str]) -> int:
    """The column of a row's first value."""
    return next(i for i, cell in enumerate(cells) if cell)


_ABOVE = 20  # rows of one value kept back to see whether a table follows them (its title), at most
_NAME = re.compile(r"[^\W\d][^.!?]{0,40}", re.UNICODE)  # a column's name: short, no sentence, no figure first


def describe(header: Sequence[str], cells: Sequence[str]) -> str:
    """ "name=value; ..." for the non-empty cells; cells beyond the header get "column N"."""
    names = [*header, *(f"column {index}" for index in range(len(header) + 1, len(cells) + 1))]
    return "; ".join(f"{name}={cell}" for name, cell in zip(names, cells, strict=False) if cell)


def _date1904(book: ET.Element) -> bool:
    properties = book.find(f"{_S}workbookPr")
    return properties is not None and properties.get("date1904", "0").lower() in ("1", "true")


def _shared_strings(root: ET.Element | None) -> list[str]:
    if root is None:
        return []
    return [_rich_text(item) for item in root.iter(f"{_S}si")]


def _rich_text(item: ET.Element) -> str:
    """A string item's text: its own, or its runs' (not the phonetic guide of East Asian text), with the
    characters XML cannot hold written back ("_x000D_" is a carriage return, "_x005F_" an underscore)."""
    direct = item.find(f"{_S}t")
    if direct is not None:
        return _unescaped(direct.text or "")
    return _unescaped("".join((run.findtext(f"{_S}t") or "") for run in item.findall(f"{_S}r")))


_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _unescaped(text: str) -> str:
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


# Number formats built into Excel that show a date or a time (ECMA-376 18.8.30), and a format code's parts
# that are not its date letters: a quoted string, an escaped character, a colour or a condition in brackets
_DATE_FORMATS = frozenset({14, 15, 16, 17, 22, *range(27, 37), *range(50, 59)})
_TIME_FORMATS = frozenset({18, 19, 20, 21, 45, 46, 47})
_LITERALS = re.compile(r'"[^"]*"|\\.|_.|\*.|\[(?![hms]+\])[^\]]*\]')
_DATE_LETTERS = re.compile(r"[dy]", re.IGNORECASE)
_TIME_LETTERS = re.compile(r"[hms]", re.IGNORECASE)


class Styles:
    """What each cell style shows a number as: a date (or time), a percentage, or the number; from the
    workbook's number formats (`codes`, by id) and each cell style's format id (`formats`, by style)."""

    def __init__(self, codes: dict[int, str], formats: list[int], date1904: bool) -> None:
        self.epoch = datetime(1904, 1, 1) if date1904 else datetime(1899, 12, 30)
        self.formats = formats
        self.kinds = {id_: _format_kind(id_, code) for id_, code in codes.items()}
        self.shapes = {id_: _shape(code) for id_, code in {**_BUILT_IN, **codes}.items()}

    @classmethod
    def of(cls, root: ET.Element | None, date1904: bool) -> Styles:
        """An .xlsx workbook's, from its styles part (none: every number as a number)."""
        codes: dict[int, str] = {}
        formats: list[int] = []
        if root is not None:
            for fmt in root.iter(f"{_S}numFmt"):
                codes[_int(fmt.get("numFmtId"))] = fmt.get("formatCode", "")
            xfs = root.find(f"{_S}cellXfs")
            formats = [_int(xf.get("numFmtId")) for xf in (xfs if xfs is not None else [])]
        return cls(codes, formats, date1904)

    def show(self, value: str, style: int) -> str:
        try:
            number = float(value)
        except ValueError:
            return value
        if not math.isfinite(number):
            return value
        fmt = self.formats[style] if 0 <= style < len(self.formats) else 0
        kind = self.kinds.get(fmt) or _format_kind(fmt, "")
        if kind in ("date", "time") and 0 <= number < 2958466:  # before 10000-01-01
            return _date(self.epoch, number, kind == "time")
        shape = self.shapes.get(fmt)
        if shape is not None:
            return shape.show(number)
        if kind == "%":
            return _number(number * 100) + "%"
        return _number(number)


# Excel's built-in number formats that are not dates (ECMA-376 18.8.30). Those of a currency (5-8, 41-44)
# show the locale's symbol, which the workbook does not hold: they are shown without one
_BUILT_IN = {
    1: "0",
    2: "0.00",
    3: "#,##0",
    4: "#,##0.00",
    **dict.fromkeys((5, 6), "#,##0;-#,##0"),
    **dict.fromkeys((7, 8), "#,##0.00;-#,##0.00"),
    9: "0%",
    10: "0.00%",
    **dict.fromkeys((37, 38, 41, 42), "#,##0;(#,##0)"),
    **dict.fromkeys((39, 40, 43, 44), "#,##0.00;(#,##0.00)"),
}
_PLACEHOLDERS = frozenset("0#?")


@dataclass(frozen=True)
class _Part:
    """One section of a number format: the text before and after the number, and how the number is
    written (its least integer digits, its decimals at least and at most, thousands grouped, scaled down by
    thousands, times 100 for a percentage); `general` where it is written as Excel's General writes it."""

    before: str
    after: str
    digits: int = 0
    least: int = 0
    most: int = 0
    grouped: bool = False
    scale: int = 0
    percent: bool = False
    general: bool = False
    number: bool = True

    def show(self, value: float) -> str:
        if not self.number:
            return f"{self.before}{self.after}".strip()
        value = value * (100 if self.percent else 1) / 1000**self.scale
        if self.general:
            return f"{self.before}{_number(value)}{self.after}".strip()
        try:
            exact = Decimal(repr(value)).quantize(Decimal(1).scaleb(-self.most), ROUND_HALF_UP)
        except InvalidOperation:  # too large to write to that many places
            return f"{self.before}{_number(value)}{self.after}".strip()
        whole, _, fraction = f"{exact:f}".partition(".")
        fraction = fraction.rstrip("0").ljust(self.least, "0") if len(fraction) > self.least else fraction
        whole = f"{int(whole):,}" if self.grouped else whole
        whole = whole.zfill(self.digits) if whole != "0" or self.digits else ""
        return f"{self.before}{whole}{'.' + fraction if fraction else ''}{self.after}".strip()


@dataclass(frozen=True)
class _Shape:
    """A number format: a number shown as the cell shows it ("£1,250.00", "(380)", "-3.9%"), by its
    positive, negative and zero sections (a negative number with no section of its own gets a minus)."""

    positive: _Part
    negative: _Part | None = None
    zero: _Part | None = None

    def show(self, number: float) -> str:
        if number < 0 and self.negative is not None:
            shown = self.negative.show(-number)
            signed = any(sign in self.negative.before + self.negative.after for sign in "-(")
            return shown if signed else f"-{shown}"  # a loss shown in red alone: in text, its minus
        if number == 0 and self.zero is not None:
            return self.zero.show(0.0)
        shown = self.positive.show(abs(number))
        return f"-{shown}" if number < 0 and shown.strip("0.,%") else shown


def _shape(code: str) -> _Shape | None:
    """A number format code read for how it writes a number; None where it writes none or where this
    cannot say how (a condition, a fraction, a scientific or a text format, two numbers in one section):
    such a cell's number is shown as General would."""
    sections = _sections(code)
    parts = [_part(section) for section in sections[:3]]
    if not parts or any(part is None for part in parts):
        return None
    positive, *rest = [part for part in parts if part is not None]
    if not positive.number or (positive.general and not positive.before and not positive.after):
        return None  # no number (a date, a text), or General itself
    return _Shape(positive, rest[0] if rest else None, rest[1] if len(rest) > 1 else None)


def _sections(code: str) -> list[str]:
    out, current, quoted, bracket, escaped = [], "", False, False, False
    for char in code:
        if escaped:
            escaped = False
        elif char == "\\" and not quoted:
            escaped = True
        elif char == '"' and not bracket:
            quoted = not quoted
        elif char in "[]" and not quoted:
            bracket = char == "["
        elif char == ";" and not quoted and not bracket:
            out.append(current)
            current = ""
            continue
        current += char
    return [*out, current]


def _part(section: str) -> _Part | None:
    before: list[str] = []
    after: list[str] = []
    number = ""
    percent = general = False
    i = 0
    while i < len(section):
        char = section[i]
        text = ""
        if char == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            text, i = section[i + 1 : end], end + 1
        elif char == "\\":
            text, i = section[i + 1 : i + 2], i + 2
        elif char in "_*":  # room for a character, a fill: no text of their own
            i += 2
            continue
        elif char == "[":
            end = section.find("]", i)
            inner = section[i + 1 : end] if end > 0 else ""
            i = len(section) if end < 0 else end + 1
            if inner.startswith("$"):  # a currency and its locale ("[$£-809]")
                text = inner[1:].split("-", 1)[0]
            elif not re.fullmatch(r"[A-Za-z]+\d*", inner):  # a condition ("[>100]"), elapsed time
                return None
        elif section[i : i + 7].lower() == "general":
            if number or general:
                return None
            general, i = True, i + 7
            continue
        elif char in _PLACEHOLDERS or (number and char in ",."):
            if after or general:
                return None  # a second number in one section (a phone number's, a fraction's)
            number += char
            i += 1
            continue
        elif char in "Ee/@" or char.isalpha():
            return None  # scientific, a fraction, text, a date's or a time's letters
        else:
            text, i = char, i + 1
            percent = percent or char == "%"
        (after if number or general else before).append(text)
    if not number:
        return _Part("".join(before), "".join(after), general=general, number=general)
    whole, _, fraction = number.partition(".")
    scale = len(whole) - len(whole.rstrip(",")) + len(fraction) - len(fraction.rstrip(","))
    whole, fraction = whole.rstrip(","), fraction.replace(",", "")
    return _Part(
        "".join(before),
        "".join(after),
        digits=whole.count("0"),
        least=fraction.count("0"),
        most=sum(c in _PLACEHOLDERS for c in fraction),
        grouped="," in whole,
        scale=scale,
        percent=percent,
    )


def _format_kind(id_: int, code: str) -> str:
    plain = re.sub("general", "", _LITERALS.sub("", code.split(";", 1)[0]), flags=re.IGNORECASE)
    if not re.search(r"[0#?]", plain):  # no digit placeholder: a date's or a time's letters
        if _DATE_LETTERS.search(plain):
            return "date"
        if _TIME_LETTERS.search(plain):
            return "time"
    if "%" in plain:
        return "%"
    if id_ in _DATE_FORMATS or id_ in _TIME_FORMATS:
        return "date" if id_ in _DATE_FORMATS else "time"
    return ""  # a built-in percentage (9, 10) is a _BUILT_IN shape


def _date(epoch: datetime, serial: float, clock: bool = False) -> str:
    """A date serial as the date (and time of day, where it has one) it stands for, ISO 8601; with `clock`
    (a format of hours and minutes alone) only its time of day."""
    whole = int(serial)
    seconds = round((serial - whole) * 86400)
    if seconds == 86400:
        whole, seconds = whole + 1, 0
    if clock:
        shown = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}"
        return shown + (f":{seconds % 60:02d}" if seconds % 60 else "")
    if epoch.year == 1899 and whole < 60:
        whole += 1  # Excel counts 1900-02-29, which never was: its dates before March 1900 are a day on
    moment = epoch + timedelta(days=whole, seconds=seconds)
    if not seconds:
        return moment.date().isoformat()
    return moment.strftime("%Y-%m-%d %H:%M") + (f":{moment.second:02d}" if moment.second else "")


def _number(number: float) -> str:
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.12g}"


def _int(text: str | None) -> int:
    try:
        return int(text or 0)
    except ValueError:
        return 0


_CELL_REF = re.compile(r"([A-Z]{1,3})(\d+)")


def _column(ref: str) -> int:
    """A cell reference's column, 0-based ("C7" -> 2); -1 if it names none."""
    match = _CELL_REF.match(ref or "")
    if not match:
        return -1
    index = 0
    for letter in match.group(1):
        index = index * 26 + ord(letter) - 64
    return index - 1


def _xlsx_rows(
    archive: _Archive, part: str, strings: Sequence[str], styles: Styles
) -> Iterator[tuple[int, list[str]]]:
    """A sheet's rows, streamed: each row's cells are read and let go (a sheet's tree whole takes ~20
    times its XML in memory)."""
    number = 0
    for row in archive.stream(part, f"{_S}row"):
        given = _int(row.get("r"))
        number = given if given > number else number + 1
        cells: list[str] = []
        for cell in row.iter(f"{_S}c"):
            column = _column(cell.get("r", ""))
            column = len(cells) if column < 0 else column
            if column >= MAX_COLUMNS:
                break
            cells.extend([""] * (column - len(cells)))
            if column == len(cells):
                cells.append(_xlsx_value(cell, strings, styles))
            elif not cells[column]:  # written out of order
                cells[column] = _xlsx_value(cell, strings, styles)
        row.clear()
        yield number, cells


def _xlsx_value(cell: ET.Element, strings: Sequence[str], styles: Styles) -> str:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        item = cell.find(f"{_S}is")
        return _rich_text(item) if item is not None else ""
    value = cell.findtext(f"{_S}v")
    if value is None:
        return ""
    if kind == "s":
        index = _int(value)
        return strings[index] if 0 <= index < len(strings) else ""
    if kind == "b":
        return "TRUE" if value.strip() == "1" else "FALSE"
    if kind == "d":  # an ISO 8601 date, a time of day only where it has one
        return value.replace("T00:00:00", "").replace("T", " ").rstrip("Z")
    if kind in ("str", "e"):
        return _unescaped(value)
    return styles.show(value, _int(cell.get("s")))


# -------------------------------------------------------------------------------------- OpenDocument


@dataclass(frozen=True)
class OdfExtractor:
    """OpenDocument: a text (.odt) read as a Word file is, each paragraph, heading and table row a line;
    a spreadsheet (.ods) as an Excel workbook; a presentation (.odp) as a PowerPoint deck."""

    def extract(self, path: Path, data: bytes) -> Document:
        archive = _Archive(path, data)
        content = archive.required("content.xml")
        body = content.find(f"{_OFFICE}body")
        meta = archive.xml("meta.xml")
        found = next(meta.iter(f"{_DC}title"), None) if meta is not None else None
        title = " ".join((found.text or "").split()) if found is not None else ""
        writer = Writer()
        part = next(iter(body), None) if body is not None else None
        if part is None:
            return writer.document(title)
        if part.tag == f"{_OFFICE}spreadsheet":
            tables = [table for table in part if table.tag == f"{_TABLE}table"]
            lines = [
                Line(text, row, number, level)
                for number, table in enumerate(tables, 1)
                for row, text, level in described(_ods_rows(table))
            ]
            names = tuple(" ".join(table.get(f"{_TABLE}name", "").split()) for table in tables)
            return Document(tuple(lines), kind="table", title=title, page_names=names)
        if part.tag == f"{_OFFICE}presentation":
            titles = []
            for number, page in enumerate(part.iter(f"{_DRAW}page"), 1):
                writer.new_page(number)
                titles.append(_odp_page(page, writer))
            return writer.document(title or next(filter(None, titles), ""), kind="markdown")
        _odf_blocks(part, writer, _fixed_pitch(content, archive.xml("styles.xml")))
        return writer.document(title)


# What holds paragraphs without being one: a list's items, sections. A table of contents or an index is
# left out: its lines repeat the headings with page numbers ("Introduction 3")
_ODF_CONTAINERS = frozenset(f"{_TEXT}{name}" for name in ("list-item", "list-header", "section"))


def _odf_blocks(
    parent: ET.Element, writer: Writer, fixed: frozenset[str] = frozenset(), depth: int = -1, nest: int = 0
) -> None:
    """An OpenDocument text's paragraphs, headings, list items and tables, in order; a paragraph of a
    `fixed` (fixed-pitch) style is a program's line, one in a list (`depth` 0 and more) an item. The text
    boxes a paragraph anchors (a frame's text, a figure's caption) follow it, blocks of their own."""
    if nest > MAX_NESTING:
        return
    for node in parent:
        tag = node.tag
        if tag == f"{_TEXT}h":
            writer.block(_odf_text(node), level=_int(node.get(f"{_TEXT}outline-level")) or 1)
        elif tag == f"{_TEXT}p" and node.get(f"{_TEXT}style-name") in fixed:
            writer.code(_odf_text(node))
        elif tag == f"{_TEXT}p" and depth >= 0:
            writer.item(_odf_text(node), depth)
        elif tag in (f"{_TEXT}p", f"{_TEXT}numbered-paragraph"):
            writer.block(_odf_text(node))
        elif tag == f"{_TEXT}list":
            _odf_blocks(node, writer, fixed, depth + 1, nest + 1)
        elif tag == f"{_TABLE}table":
            _odf_table(node, writer)
        elif tag in _ODF_CONTAINERS:
            _odf_blocks(node, writer, fixed, depth, nest + 1)
        if tag in (f"{_TEXT}p", f"{_TEXT}h"):
            for box in node.iter(f"{_DRAW}text-box"):
                _odf_blocks(box, writer, fixed, -1, nest + 1)


_ROW_GROUPS = frozenset(f"{_TABLE}{name}" for name in ("table-header-rows", "table-rows", "table-row-group"))


def _odf_table(table: ET.Element, writer: Writer) -> None:
    """A text's or a slide's table, row by row; its first row its columns' names where the table marks it a
    header row (`table:table-header-rows`, "Repeat heading" in LibreOffice)."""
    heading = table.find(f"{_TABLE}table-header-rows")
    named = heading.find(f"{_TABLE}table-row") if heading is not None else None
    rows = list(_table_rows(table))
    for index, row in enumerate(rows):
        cells = [_cell_text(cell) for cell in row if cell.tag == f"{_TABLE}table-cell"]
        header = index == 0 and row is named and len(rows) > 1 and names_columns(cells)
        writer.row(cells, header=header)
    writer.end_table()


def _table_rows(table: ET.Element) -> Iterator[ET.Element]:
    """A table's own rows, in order (in their groups), not those of a table nested in a cell."""
    stack = [iter(table)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif node.tag == f"{_TABLE}table-row":
            yield node
        elif node.tag in _ROW_GROUPS and len(stack) < MAX_NESTING:
            stack.append(iter(node))


_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_SVG = "{urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0}"


def _fixed_pitch(content: ET.Element, styles: ET.Element | None) -> frozenset[str]:
    """The paragraph styles set in a fixed-pitch font (a font face declared `font-pitch="fixed"`, as a
    word processor declares Courier or Liberation Mono, or a `monospaced` face), by their own font or the
    style they inherit."""
    parts = [content, *([styles] if styles is not None else [])]
    fixed_fonts = {
        face.get(f"{_STYLE}name")
        for part in parts
        for face in part.iter(f"{_STYLE}font-face")
        if face.get(f"{_STYLE}font-pitch") == "fixed"
        or monospaced(face.get(f"{_SVG}font-family", "").strip("'\"") or face.get(f"{_STYLE}name"))
    }
    parent: dict[str, str] = {}
    font: dict[str, str] = {}
    for part in parts:
        for style in part.iter(f"{_STYLE}style"):
            name = style.get(f"{_STYLE}name", "")
            parent[name] = style.get(f"{_STYLE}parent-style-name", "")
            properties = style.find(f"{_STYLE}text-properties")
            if properties is not None and properties.get(f"{_STYLE}font-name"):
                font[name] = properties.get(f"{_STYLE}font-name", "")

    def is_fixed(name: str) -> bool:
        for _ in range(32):  # a chain of parents, never a loop
            if name in font:
                return font[name] in fixed_fonts
            if not parent.get(name):
                return False
            name = parent[name]
        return False

    return frozenset(name for name in parent if is_fixed(name))


_SKIPPED = frozenset({f"{_TEXT}note", f"{_OFFICE}annotation", f"{_DRAW}frame", f"{_TEXT}bookmark-ref"})


def _odf_text(node: ET.Element) -> str:
    """A paragraph's text: its spans, links and fields; text:s as its spaces (MAX_SPACES at most), a tab or
    line break as one. A footnote's or comment's body and a frame's paragraphs are no part of the sentence
    around them. Walked without recursion: spans nest as deep as a file likes."""
    parts: list[str] = [node.text or ""]
    stack = [(node, iter(node))]
    while stack:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                parts.append(parent.tail or "")
            continue
        tag = child.tag
        if tag == f"{_TEXT}s":
            parts.append(" " * min(max(1, _int(child.get(f"{_TEXT}c"))), MAX_SPACES))
        elif tag in (f"{_TEXT}tab", f"{_TEXT}line-break"):
            parts.append(" ")
        elif tag not in _SKIPPED:
            parts.append(child.text or "")
            stack.append((child, iter(child)))
            continue
        parts.append(child.tail or "")
    return "".join(parts)


def _cell_text(cell: ET.Element) -> str:
    """A cell's paragraphs (a nested table's too), not the comment pinned to it."""
    texts: list[str] = []
    for child in cell:
        if child.tag == f"{_OFFICE}annotation":
            continue
        if child.tag in (f"{_TEXT}p", f"{_TEXT}h"):
            texts.append(_odf_text(child))
        else:
            texts.extend(_odf_text(p) for p in child.iter(f"{_TEXT}p"))
    return " ".join(texts)


def _ods_rows(table: ET.Element) -> Iterator[tuple[int, list[str]]]:
    """A sheet's rows, numbered as the program numbers them: a row written once for N alike (N empty rows
    at the end of a sheet: often a million) counts N."""
    number = 0
    for row in _table_rows(table):
        repeats = max(1, _int(row.get(f"{_TABLE}number-rows-repeated")))
        cells: list[str] = []
        empty = 0  # empty cells not yet written: only a value after them does
        for cell in row:
            if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                continue
            text = _cell_text(cell) if cell.tag == f"{_TABLE}table-cell" else ""  # a covered cell: hidden
            wide = max(1, _int(cell.get(f"{_TABLE}number-columns-repeated")))
            if not text.strip():
                empty += wide
                continue
            if len(cells) + empty >= MAX_COLUMNS:
                break
            cells.extend([""] * empty)
            empty = 0
            cells.extend([text] * min(wide, MAX_COLUMNS - len(cells)))
        if cells:
            for index in range(min(repeats, MAX_REPEATS)):
                yield number + index + 1, cells
        number += repeats


def _odp_page(page: ET.Element, writer: Writer) -> str:
    """A presentation page's frames in order (its title first where it has one); the title."""
    title = ""
    notes: ET.Element | None = None
    for node in page:
        if node.tag == f"{_PRES}notes":
            notes = node
            continue
        title = _odp_frames(node, writer) or title
    if notes is not None:
        writer.notes([text for text in map(_odf_text, notes.iter(f"{_TEXT}p")) if text.strip()])
    return title


_ODP_FURNITURE = frozenset({"page-number", "footer", "header", "date-time", "page"})


def _odp_frames(node: ET.Element, writer: Writer, nest: int = 0) -> str:
    title = ""
    if node.tag == f"{_DRAW}g":
        for child in node if nest < MAX_NESTING else ():
            title = _odp_frames(child, writer, nest + 1) or title
        return title
    kind = node.get(f"{_PRES}class", "")
    if kind in _ODP_FURNITURE:
        return ""
    tables = list(node.iter(f"{_TABLE}table"))
    for table in tables:
        _odf_table(table, writer)
    if tables:
        return ""
    if kind == "title":
        said = " ".join(" ".join(_odf_text(p) for p in node.iter(f"{_TEXT}p")).split())
        writer.block(said, level=1)
        return said
    boxes = list(node.iter(f"{_DRAW}text-box"))
    for box in boxes or [node]:  # a drawn shape (a rectangle, a custom shape) holds its paragraphs itself
        _odf_blocks(box, writer)
    return ""


# -------------------------------------------------------------------------------------------- e-books


@dataclass(frozen=True)
class EpubExtractor:
    """EPUB 2 and 3: the reading order's (the spine's) HTML files, each a page, read as HTML pages are and
    cited at their own lines. A book whose text is encrypted (DRM) is refused, not read as noise."""

    def extract(self, path: Path, data: bytes) -> Document:
        from engine.ingest.extract import HtmlExtractor

        archive = _Archive(path, data)
        container = archive.required("META-INF/container.xml")
        rootfile = next(container.iter(f"{_CONTAINER}rootfile"), None)
        opf_path = posixpath.normpath(unquote(rootfile.get("full-path", ""))) if rootfile is not None else ""
        opf = archive.required(opf_path)
        encrypted = _encrypted(archive)
        folder = posixpath.dirname(opf_path)
        items = {
            item.get("id", ""): (_resolve(folder, item.get("href", "")), item.get("media-type", ""))
            for item in opf.iter(f"{_OPF}item")
        }
        lines: list[Line] = []
        page = 0
        read: set[str] = set()
        reader = HtmlExtractor()
        for ref in opf.iter(f"{_OPF}itemref"):
            part, media = items.get(ref.get("idref", ""), ("", ""))
            if "html" not in media or part not in archive.names or part in read:
                continue  # a chapter the spine lists twice is read once
            read.add(part)
            if part in encrypted:
                raise ExtractError(f"{path.name} is DRM-protected", "index a copy without DRM")
            page += 1
            chapter = reader.extract(Path(part), archive.read(part))
            lines.extend(Line(line.text, line.line, page, line.level) for line in chapter.lines)
            if lines and lines[-1].text:
                lines.append(Line("", lines[-1].line, page))
        title = next((" ".join((t.text or "").split()) for t in opf.iter(f"{_DC}title")), "")
        while lines and not lines[-1].text:
            lines.pop()
        return Document(tuple(lines), kind="markdown", title=title)


def _encrypted(archive: _Archive) -> set[str]:
    """The parts META-INF/encryption.xml says are encrypted (font obfuscation names fonts, not text)."""
    root = archive.xml("META-INF/encryption.xml")
    if root is None:
        return set()
    refs = root.iter("{http://www.w3.org/2001/04/xmlenc#}CipherReference")
    return {posixpath.normpath(unquote(ref.get("URI", ""))) for ref in refs}
