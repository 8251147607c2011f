"""Word 97-2003 documents (.doc, .dot): the binary format Word wrote before .docx, read from its compound
file (olefile) by the piece table that orders its text (the [MS-DOC] specification, section 2.4.1).

A citation cites a line among the document's paragraphs, list items and table rows, as a Word file's
(`office.Writer`): a paragraph in a built-in heading style ("heading 1" to "heading 9", whatever the
style is called in the document's language) or with an outline level becomes a Markdown title, a
paragraph of a numbered or bulleted list an item at its level, a table's row "| a | b |". A field's
result is read and its code left out ("the expenses page", not HYPERLINK "..."); pictures, drawn
objects, headers, footers and comments are left out; footnotes, endnotes and text boxes follow the text.
An encrypted document, and one older than Word 97, is refused with the reason.
"""

from __future__ import annotations

import bisect
import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import ExtractError, MissingDependency
from engine.events import Document
from engine.ingest.office import Writer

DOC_READER = "doc-1"  # a change to what this reader reads gets a new name (extract.readers)
DOC_SUFFIXES = (".doc", ".dot")
_WORD97 = 0xA5EC  # the FIB's wIdent
_FKP = 512  # a formatted disk page's size
_MAX_PIECES = 1_000_000

# Paragraph properties (sprms) read: the list a paragraph is in, its level there, its outline level, and
# whether it is in a table and ends a table's row
_ILFO, _ILVL, _OUTLINE, _IN_TABLE, _ROW_END = 0x460B, 0x260A, 0x2640, 0x2416, 0x2417
_SIZES = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}  # a sprm's operand size by its spra (6: given)
# Characters that mark a place rather than text: a picture, a drawn object, a note's or comment's mark,
# a separator line, an optional hyphen
_DROPPED = {chr(c) for c in (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x1F)}
_SHOWN = {"\x0b": "\n", "\x1e": "-", "\xa0": " ", "\t": "\t"}


def _unpack(fmt: str, data: bytes, at: int) -> int:
    try:
        return int(struct.unpack_from(fmt, data, at)[0])
    except struct.error as exc:
        raise ExtractError("the document's tables are cut short", "re-save it in Word") from exc


@dataclass(frozen=True)
class _Piece:
    cp: int  # the first character position
    end: int
    fc: int  # its first byte in the WordDocument stream
    wide: bool  # UTF-16 (else one byte a character, in code page 1252)


@dataclass(frozen=True)
class _Para:
    istd: int = 0
    ilfo: int = 0
    ilvl: int = 0
    outline: int = 9
    in_table: bool = False
    row_end: bool = False


class _Doc:
    def __init__(self, path: Path, data: bytes) -> None:
        try:
            import olefile
        except ImportError as exc:  # pragma: no cover - a dependency of the engine
            raise MissingDependency("olefile is not installed", "pip install olefile") from exc
        try:
            ole = olefile.OleFileIO(io.BytesIO(data))
            self.word = ole.openstream("WordDocument").read()
        except (OSError, ValueError, IndexError, struct.error, TypeError) as exc:  # olefile's own errors too
            raise ExtractError(
                f"{path.name} is corrupt or not a Word document ({exc})", "re-save it in Word"
            ) from exc
        if len(self.word) < 0x200 or _unpack("<H", self.word, 0) != _WORD97:
            raise ExtractError(
                f"{path.name} is older than Word 97 (Word 6 or 95) and not read",
                "open it in Word or LibreOffice and save it as .docx",
            )
        flags = _unpack("<H", self.word, 0x0A)
        if flags & 0x0100 or flags & 0x8000:
            raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
        table = "1Table" if flags & 0x0200 else "0Table"
        try:
            self.table = ole.openstream(table).read()
        except OSError as exc:
            raise ExtractError(f"{path.name} is corrupt (no {table} stream)", "re-save it in Word") from exc
        try:
            self.title = str(ole.get_metadata().title or b"", "cp1252", "replace").strip("\x00 ")
        except Exception:  # a broken summary: no title, the text still reads
            self.title = ""
        csw = _unpack("<H", self.word, 0x20)
        self.lw = 0x22 + csw * 2 + 2  # FibRgLw97
        self.fclcb = self.lw + _unpack("<H", self.word, self.lw - 2) * 4 + 2  # FibRgFcLcb97
        self.pieces = sorted(self._pieces(), key=lambda piece: piece.cp)
        self.starts = [piece.cp for piece in self.pieces]
        self.paras = self._paragraphs()
        self.headings = self._heading_styles()

    def _fc_lcb(self, index: int) -> tuple[int, int]:
        at = self.fclcb + index * 8
        return _unpack("<I", self.word, at), _unpack("<I", self.word, at + 4)

    def counts(self) -> list[int]:
        """The character counts of the main text, footnotes, headers, macros, comments, endnotes, text
        boxes and header text boxes, in the order their text follows in the document."""
        return [_unpack("<i", self.word, self.lw + 12 + 4 * i) for i in range(8)]

    def _pieces(self) -> list[_Piece]:
        fc, lcb = self._fc_lcb(33)  # the Clx
        clx = self.table[fc : fc + lcb]
        at = 0
        while at < len(clx) and clx[at] == 0x01:  # property modifiers: skipped
            at += 3 + _unpack("<H", clx, at + 1)
        if at >= len(clx) or clx[at] != 0x02:
            raise ExtractError("the document has no piece table", "re-save it in Word")
        size = _unpack("<I", clx, at + 1)
        plc = clx[at + 5 : at + 5 + size]
        count = min((len(plc) - 4) // 12, _MAX_PIECES)
        pieces = []
        for i in range(count):
            start, end = _unpack("<I", plc, 4 * i), _unpack("<I", plc, 4 * i + 4)
            raw = _unpack("<I", plc, 4 * (count + 1) + 8 * i + 2)
            compressed = bool(raw & 0x40000000)
            offset = (raw & 0x3FFFFFFF) // 2 if compressed else raw & 0x3FFFFFFF
            if end > start:
                pieces.append(_Piece(start, end, offset, not compressed))
        return pieces

    def text(self, start: int, end: int) -> str:
        """The characters from position `start` to `end`, piece by piece."""
        out = []
        for piece in self.pieces:
            lo, hi = max(start, piece.cp), min(end, piece.end)
            if lo >= hi:
                continue
            width = 2 if piece.wide else 1
            at = piece.fc + (lo - piece.cp) * width
            raw = self.word[at : at + (hi - lo) * width]
            out.append(raw.decode("utf-16-le", "replace") if piece.wide else raw.decode("cp1252", "replace"))
        return "".join(out)

    def fc_of(self, cp: int) -> int | None:
        i = bisect.bisect_right(self.starts, cp) - 1
        piece = self.pieces[i] if i >= 0 else None
        if piece is None or not piece.cp <= cp < piece.end:
            return None
        return piece.fc + (cp - piece.cp) * (2 if piece.wide else 1)

    def _paragraphs(self) -> tuple[list[int], list[int], list[_Para]]:
        """Each run of paragraph formatting: where it starts and ends (bytes of the WordDocument stream)
        and what it says, from the formatted disk pages the PlcBtePapx lists."""
        fc, lcb = self._fc_lcb(13)
        plc = self.table[fc : fc + lcb]
        count = max(0, (len(plc) - 4) // 8)
        starts: list[int] = []
        ends: list[int] = []
        props: list[_Para] = []
        for i in range(count):
            page = _unpack("<I", plc, 4 * (count + 1) + 4 * i) & 0x3FFFFF
            fkp = self.word[page * _FKP : (page + 1) * _FKP]
            if len(fkp) < _FKP:
                continue
            runs = fkp[_FKP - 1]
            if 4 * (runs + 1) + 13 * runs > _FKP - 1:  # more runs than a page holds: a broken page
                continue
            for r in range(runs):
                offset = fkp[4 * (runs + 1) + 13 * r] * 2
                starts.append(_unpack("<I", fkp, 4 * r))
                ends.append(_unpack("<I", fkp, 4 * r + 4))
                props.append(_papx(fkp, offset) if offset else _Para())
        order = sorted(range(len(starts)), key=starts.__getitem__)
        return [starts[i] for i in order], [ends[i] for i in order], [props[i] for i in order]

    def para_at(self, cp: int) -> _Para:
        fc = self.fc_of(cp)
        starts, ends, props = self.paras
        if fc is None:
            return _Para()
        i = bisect.bisect_right(starts, fc) - 1
        return props[i] if i >= 0 and fc < ends[i] else _Para()

    def _heading_styles(self) -> dict[int, int]:
        """Each paragraph style that is a built-in heading (its style identifier 1-9), with its level."""
        fc, lcb = self._fc_lcb(1)
        stsh = self.table[fc : fc + lcb]
        if len(stsh) < 6:
            return {}
        info = _unpack("<H", stsh, 0)
        styles = _unpack("<H", stsh, 2)
        at, out = 2 + info, {}
        for istd in range(styles):
            if at + 2 > len(stsh):
                break
            size = _unpack("<H", stsh, at)
            if size >= 2:
                sti = _unpack("<H", stsh, at + 2) & 0x0FFF
                if 1 <= sti <= 9:
                    out[istd] = sti
            at += 2 + size
        return out


def _papx(fkp: bytes, offset: int) -> _Para:
    """A paragraph's style and the properties read (_ILFO...) from its PapxInFkp."""
    if offset + 2 > len(fkp):
        return _Para()
    size = fkp[offset]  # in words, less the byte it is counted in; 0: the next byte counts it
    start, stop = (offset + 1, offset + 2 * size) if size else (offset + 2, offset + 2 + 2 * fkp[offset + 1])
    grpprl = fkp[start:stop]
    if len(grpprl) < 2:
        return _Para()
    found = dict(_sprms(grpprl, 2))
    return _Para(
        istd=_unpack("<H", grpprl, 0),
        ilfo=found.get(_ILFO, 0),
        ilvl=found.get(_ILVL, 0),
        outline=found.get(_OUTLINE, 9),
        in_table=bool(found.get(_IN_TABLE, 0)),
        row_end=bool(found.get(_ROW_END, 0)),
    )


def _sprms(grpprl: bytes, at: int) -> Iterator[tuple[int, int]]:
    """The read sprms of a property list and their operands (a variable-length one ends the reading)."""
    while at + 2 <= len(grpprl):
        sprm = _unpack("<H", grpprl, at)
        size = _SIZES.get(sprm >> 13)
        if size is None:  # variable length: its size byte, skipped
            if at + 2 >= len(grpprl) or sprm in (0xC615, 0xD608):  # tab changes, table definitions
                return
            at += 3 + grpprl[at + 2]
            continue
        if sprm in (_ILFO, _ILVL, _OUTLINE, _IN_TABLE, _ROW_END) and at + 2 + size <= len(grpprl):
            value = int.from_bytes(grpprl[at + 2 : at + 2 + size], "little", signed=sprm == _ILFO)
            yield sprm, value
        at += 2 + size


@dataclass(frozen=True)
class DocExtractor:
    """A Word 97-2003 document, as its paragraphs, titles, lists and tables (module doc)."""

    kind: str = "doc"

    def extract(self, path: Path, data: bytes) -> Document:
        doc = _Doc(path, data)
        writer = Writer()
        counts = doc.counts()
        bounds = [0]
        for count in counts:
            bounds.append(bounds[-1] + max(0, count))
        # the main text, then footnotes, endnotes and text boxes (not headers, macros or comments)
        for part in (0, 1, 5, 6):
            _write(doc, bounds[part], bounds[part + 1], writer)
        writer.end_table()
        return writer.document(doc.title)


def _write(doc: _Doc, start: int, end: int, writer: Writer) -> None:
    """The paragraphs of the characters from `start` to `end`: a paragraph ends at a paragraph mark (or
    a page or section break), a table's cell at a cell mark, its row at a row's end mark; a cell may hold
    several paragraphs."""
    text = doc.text(start, end)
    fields: list[bool] = []  # open fields: whether each shows its result yet (past its separator)
    unit: list[str] = []
    cell: list[str] = []
    cells: list[str] = []
    rows = False  # a table was written since the last paragraph
    for offset, char in enumerate(text):
        if char == "\x13":
            fields.append(False)
        elif char == "\x14" and fields:
            fields[-1] = True
        elif char == "\x15" and fields:
            fields.pop()
        elif not all(fields):
            continue
        elif char in ("\r", "\x07", "\x0c"):
            para = doc.para_at(start + offset)
            said, unit = " ".join("".join(unit).split()), []
            if char == "\x07" and (para.row_end or (not said and not cell and cells and not para.in_table)):
                writer.row(cells)
                cells, rows = [], True
            elif char == "\x07":
                cells.append(" ".join([*cell, said]).strip())
                cell = []
            elif para.in_table:
                cell.append(said)
            else:
                if cells or cell:
                    writer.row([*cells, " ".join(cell)] if cell else cells)
                    cells, cell, rows = [], [], True
                if rows:
                    writer.end_table()
                    rows = False
                _paragraph(said, para, doc, writer)
        elif char not in _DROPPED:
            unit.append(_SHOWN.get(char, char) if char < " " or char == "\xa0" else char)
    if cells or cell:
        writer.row([*cells, " ".join(cell)] if cell else cells)
    if unit:
        _paragraph("".join(unit), doc.para_at(end - 1), doc, writer)


def _paragraph(text: str, para: _Para, doc: _Doc, writer: Writer) -> None:
    level = doc.headings.get(para.istd) or (para.outline + 1 if para.outline < 9 else 0)
    if not text.strip():
        return
    if level:
        writer.block(text, level)
    elif para.ilfo:
        writer.item(text, para.ilvl)
    else:
        writer.block(text)
