"""Word 97-2003 documents (.doc, .dot): the binary format Word wrote before .docx, read from its compound
file (olefile) by the piece table that orders its text (the [MS-DOC] specification, section 2.4.1).

A citation cites a line among the document's paragraphs, list items and table rows, as a Word file's
(`office.Writer`): a paragraph in a built-in heading style ("heading 1" to "heading 9", whatever the
style is called in the document's language) or with an outline level becomes a Markdown title, a
paragraph of a numbered or bulleted list an item at its level, a table's row "| a | b |", a paragraph
whose every character is drawn in a fixed-pitch font (its run's, its character style's or its paragraph
style's; the font table's pitch, PANOSE or a monospaced face) a program's lines, fenced. A field's
result is read and its code left out ("the expenses page", not HYPERLINK "..."); pictures, drawn
objects, headers, footers and comments are left out; footnotes, endnotes and text boxes follow the text.
An encrypted document, and one older than Word 97, is refused with the reason.
"""

from __future__ import annotations

import array
import bisect
import io
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ExtractError, MissingDependency
from engine.events import Document, Line
from engine.ingest.office import (
    LEGACY_SHEET_SUFFIXES,
    LEGACY_SLIDE_SUFFIXES,
    MAX_COLUMNS,
    MAX_NESTING,
    Styles,
    Writer,
    described,
    monospaced,
)

DOC_READER = "doc-3"  # a change to what these readers read gets a new name (extract.readers); 3: emoji
LEGACY_READER = "ole-3"  # the workbooks' and decks' (3: as office-3 reads a sheet)
DOC_SUFFIXES = (".doc", ".dot")
_WORD97 = 0xA5EC  # the FIB's wIdent
_FKP = 512  # a formatted disk page's size
_MAX_PIECES = 1_000_000

# Paragraph properties (sprms) read: the list a paragraph is in, its level there, its outline level, and
# whether it is in a table and ends a table's row
_ILFO, _ILVL, _OUTLINE, _IN_TABLE, _ROW_END = 0x460B, 0x260A, 0x2640, 0x2416, 0x2417
_PARA_SPRMS = frozenset({_ILFO, _ILVL, _OUTLINE, _IN_TABLE, _ROW_END})
_FONT, _CHAR_STYLE = 0x4A4F, 0x4A30  # a run's font (for ASCII text) and its character style
_FONT_SPRMS = frozenset({_FONT, _CHAR_STYLE})
_SIZES = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}  # a sprm's operand size by its spra (6: given)
# Characters that mark a place rather than text: a picture, a drawn object, a note's or comment's mark,
# a separator line, an optional hyphen
_DROPPED = {chr(c) for c in (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x1F)}
_SHOWN = {"\x0b": "\n", "\x1e": "-", "\xa0": " ", "\t": "\t"}


def open_ole(path: Path, data: bytes, what: str, program: str) -> Any:
    """The compound file (olefile); an encrypted document (an encrypted .docx, .xlsx or .pptx is one too,
    its package inside) refused as such, a broken one as corrupt."""
    try:
        import olefile
    except ImportError as exc:  # pragma: no cover - a dependency of the engine
        raise MissingDependency("olefile is not installed", "pip install olefile") from exc
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
        encrypted = ole.exists("EncryptedPackage") or ole.exists("EncryptedSummary")
    except (OSError, ValueError, IndexError, struct.error, TypeError) as exc:  # olefile's own errors too
        raise ExtractError(
            f"{path.name} is corrupt or not {what} ({exc})", f"re-save it in {program}"
        ) from exc
    if encrypted:
        raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
    return ole


def read_stream(ole: Any, name: str, path: Path, what: str, program: str) -> bytes:
    """A stream of the compound file, whole; a missing or broken one refused as corrupt."""
    try:
        return bytes(ole.openstream(name).read())
    except (OSError, ValueError, IndexError, struct.error, TypeError) as exc:  # olefile's own errors too
        raise ExtractError(
            f"{path.name} is corrupt or not {what} ({exc})", f"re-save it in {program}"
        ) from exc


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
        ole = open_ole(path, data, "a Word document", "Word")
        self.word = read_stream(ole, "WordDocument", path, "a Word document", "Word")
        if len(self.word) < 0x200 or _unpack("<H", self.word, 0) != _WORD97:
            raise ExtractError(
                f"{path.name} is older than Word 97 (Word 6 or 95) and not read",
                "open it in Word or LibreOffice and save it as .docx",
            )
        flags = _unpack("<H", self.word, 0x0A)
        if flags & 0x0100 or flags & 0x8000:
            raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
        table = "1Table" if flags & 0x0200 else "0Table"
        self.table = read_stream(ole, table, path, "a Word document", "Word")
        # no title is read from the summary stream: olefile's property reader loops for minutes over a
        # corrupt one's counts (a fuzzed fixture took 30 s and more)
        csw = _unpack("<H", self.word, 0x20)
        self.lw = 0x22 + csw * 2 + 2  # FibRgLw97
        self.fclcb = self.lw + _unpack("<H", self.word, self.lw - 2) * 4 + 2  # FibRgFcLcb97
        self.pieces = sorted(self._pieces(), key=lambda piece: piece.cp)
        self.starts = [piece.cp for piece in self.pieces]
        self.paras = self._paragraphs()
        self.headings, self.fonts = self._styles()
        self.fixed = self._fixed_fonts()
        self.runs = self._runs()

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
        count = (len(plc) - 4) // 12  # positions (count + 1) come first, then the descriptors
        pieces = []
        for i in range(min(count, _MAX_PIECES)):
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
            # one character per UTF-16 code unit, a pair's halves apart, so a character's place is its
            # position (an emoji is two); `_joined` makes the pairs characters again as text is written
            out.append(_units(raw) if piece.wide else raw.decode("cp1252", "replace"))
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
        starts: list[int] = []
        ends: list[int] = []
        props: list[_Para] = []
        for fkp, start, end, offset in self._formatted_runs(13, 13):
            starts.append(start)
            ends.append(end)
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

    def _styles(self) -> tuple[dict[int, int], dict[int, int]]:
        """From the style sheet: each paragraph style that is a built-in heading (its style identifier
        1-9) with its level, and each style's font (its own, else the one of the style it is based on)."""
        fc, lcb = self._fc_lcb(1)
        stsh = self.table[fc : fc + lcb]
        if len(stsh) < 6:
            return {}, {}
        info = _unpack("<H", stsh, 0)
        count, base_size = _unpack("<H", stsh, 2), _unpack("<H", stsh, 4)
        at = 2 + info
        headings: dict[int, int] = {}
        own: dict[int, int] = {}  # a style's own font
        based: dict[int, int] = {}  # the style it is based on
        for istd in range(min(count, 4096)):
            if at + 2 > len(stsh):
                break
            size = _unpack("<H", stsh, at)
            std = stsh[at + 2 : at + 2 + size]
            at += 2 + size
            if len(std) < 10:
                continue
            sti, kind = _unpack("<H", std, 0) & 0x0FFF, _unpack("<H", std, 2) & 0x000F
            base, upx = _unpack("<H", std, 2) >> 4, _unpack("<H", std, 4) & 0x000F
            if 1 <= sti <= 9:
                headings[istd] = sti
            if base != 0x0FFF:
                based[istd] = base
            name_at = base_size
            if name_at + 2 > len(std):
                continue
            pos = name_at + 2 + 2 * _unpack("<H", std, name_at) + 2  # past the name and its terminator
            for n in range(upx):  # a paragraph style: its paragraph's properties, then its characters'
                if pos + 2 > len(std):
                    break
                length = _unpack("<H", std, pos)
                body = std[pos + 2 : pos + 2 + length]
                pos += 2 + length + (length & 1)
                if (kind == 1 and n == 1) or (kind == 2 and n == 0):
                    font = dict(_sprms(body, 0, _FONT_SPRMS)).get(_FONT)
                    if font is not None:
                        own[istd] = font
        fonts: dict[int, int] = {}
        for istd in range(count):
            at_style, seen = istd, 0
            while at_style not in own and at_style in based and seen < 16:
                at_style, seen = based[at_style], seen + 1
            if at_style in own:
                fonts[istd] = own[at_style]
        return headings, fonts

    def _fixed_fonts(self) -> frozenset[int]:
        """The fonts of the font table drawn fixed-pitch: declared so, by their PANOSE, or by their name."""
        fc, lcb = self._fc_lcb(15)
        table = self.table[fc : fc + lcb]
        if len(table) < 4:
            return frozenset()
        at, fixed = 4, set()
        for index in range(min(_unpack("<H", table, 0), 4096)):
            if at >= len(table):
                break
            ffn = table[at + 1 : at + 1 + table[at]]
            at += 1 + table[at]
            if len(ffn) < 40:
                continue
            name = ffn[39:].decode("utf-16-le", "replace").split("\x00", 1)[0]
            if ffn[0] & 0x03 == 1 or (ffn[9] == 9 and ffn[6] == 2) or monospaced(name):
                fixed.add(index)
        return frozenset(fixed)

    def _formatted_runs(self, index: int, entry: int) -> Iterator[tuple[bytes, int, int, int]]:
        """The runs of the formatted disk pages a PlcBte lists (`index` in the FIB: 13 the paragraphs',
        12 the characters'), each with its page, where it starts and ends (bytes of the WordDocument
        stream) and the offset of its properties in the page (0: none); `entry` is the size of a run's
        entry after the page's positions (13 for a paragraph's BxPap, 1 for a character's)."""
        fc, lcb = self._fc_lcb(index)
        plc = self.table[fc : fc + lcb]
        count = max(0, (len(plc) - 4) // 8)
        for i in range(count):
            page = _unpack("<I", plc, 4 * (count + 1) + 4 * i) & 0x3FFFFF
            fkp = self.word[page * _FKP : (page + 1) * _FKP]
            if len(fkp) < _FKP:
                continue
            runs = fkp[_FKP - 1]
            if 4 * (runs + 1) + entry * runs > _FKP - 1:  # more runs than a page holds: a broken page
                continue
            for r in range(runs):
                start, end = _unpack("<I", fkp, 4 * r), _unpack("<I", fkp, 4 * r + 4)
                yield fkp, start, end, fkp[4 * (runs + 1) + entry * r] * 2

    def _runs(self) -> tuple[list[int], list[int], list[dict[int, int]]]:
        """Each run of character formatting (bytes of the WordDocument stream) and its font and character
        style, from the formatted disk pages the PlcBteChpx lists."""
        found: list[tuple[int, int, dict[int, int]]] = []
        for fkp, start, end, offset in self._formatted_runs(12, 1):
            chpx = fkp[offset + 1 : offset + 1 + fkp[offset]] if offset else b""
            found.append((start, end, dict(_sprms(chpx, 0, _FONT_SPRMS))))
        found.sort(key=lambda run: run[0])
        return [r[0] for r in found], [r[1] for r in found], [r[2] for r in found]

    def fixed_at(self, cp: int) -> bool:
        """Whether the character at `cp` is drawn in a fixed-pitch font: its run's own font, else its
        character style's, else its paragraph style's."""
        if not self.fixed:
            return False
        fc = self.fc_of(cp)
        starts, ends, props = self.runs
        i = bisect.bisect_right(starts, fc) - 1 if fc is not None else -1
        run = props[i] if i >= 0 and fc is not None and fc < ends[i] else {}
        font = run.get(_FONT)
        if font is None and _CHAR_STYLE in run:
            font = self.fonts.get(run[_CHAR_STYLE])
        if font is None:
            font = self.fonts.get(self.para_at(cp).istd)
        return font in self.fixed


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


def _sprms(grpprl: bytes, at: int, wanted: frozenset[int] | None = None) -> Iterator[tuple[int, int]]:
    """The `wanted` sprms of a property list (the paragraph's, by default) and their operands (a
    variable-length one ends the reading)."""
    wanted = _PARA_SPRMS if wanted is None else wanted
    while at + 2 <= len(grpprl):
        sprm = _unpack("<H", grpprl, at)
        size = _SIZES.get(sprm >> 13)
        if size is None:  # variable length: its size byte, skipped
            if at + 2 >= len(grpprl) or sprm in (0xC615, 0xD608):  # tab changes, table definitions
                return
            at += 3 + grpprl[at + 2]
            continue
        if sprm in wanted and at + 2 + size <= len(grpprl):
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
        return writer.document("")


def _write(doc: _Doc, start: int, end: int, writer: Writer) -> None:
    """The paragraphs of the characters from `start` to `end`: a paragraph ends at a paragraph mark (or
    a page or section break), a table's cell at a cell mark, its row at a row's end mark; a cell may hold
    several paragraphs."""
    text = doc.text(start, end)
    fields: list[bool] = []  # open fields: whether each shows its result yet (past its separator)
    unit: list[str] = []
    fixed: bool | None = (
        None  # whether every visible character of the unit is drawn fixed-pitch (None: none yet)
    )
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
            raw, code = _joined("".join(unit)), bool(fixed)
            said, unit, fixed = " ".join(raw.split()), [], None
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
                _paragraph(raw if code else said, para, doc, writer, code)
        elif char not in _DROPPED:
            unit.append(_SHOWN.get(char, char) if char < " " or char == "\xa0" else char)
            if not char.isspace() and fixed is not False:
                fixed = doc.fixed_at(start + offset)
    if cells or cell:
        writer.row([*cells, " ".join(cell)] if cell else cells)
    if unit:
        _paragraph(_joined("".join(unit)), doc.para_at(end - 1), doc, writer, bool(fixed))


def _units(raw: bytes) -> str:
    """UTF-16LE text one character per code unit (a surrogate pair's halves stay two characters)."""
    units = array.array("H")
    units.frombytes(raw[: len(raw) // 2 * 2])
    if sys.byteorder == "big":
        units.byteswap()
    return "".join(map(chr, units))


def _joined(text: str) -> str:
    """Text whose UTF-16 surrogate pairs are one character again (a lone half becomes U+FFFD)."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _paragraph(text: str, para: _Para, doc: _Doc, writer: Writer, code: bool = False) -> None:
    """One paragraph: a title, a list's item, a program's lines (every character it shows drawn in a
    fixed-pitch font: its line breaks kept), or text."""
    level = doc.headings.get(para.istd) or (para.outline + 1 if para.outline < 9 else 0)
    if not text.strip():
        return
    if code and not level:
        writer.code(text.replace("\t", "    ").rstrip("\n"))
    elif level:
        writer.block(text, level)
    elif para.ilfo:
        writer.item(text, para.ilvl)
    else:
        writer.block(text)


# ------------------------------------------------------------------------------------------ workbooks

XLS_SUFFIXES = LEGACY_SHEET_SUFFIXES
_BOF, _EOF, _SHEET, _SST, _CONTINUE, _FORMAT, _XF, _DATEMODE, _FILEPASS = (
    0x0809, 0x000A, 0x0085, 0x00FC, 0x003C, 0x041E, 0x00E0, 0x0022, 0x002F,
)  # fmt: skip
_LABELSST, _LABEL, _NUMBER, _RK, _MULRK, _FORMULA, _STRING, _BOOLERR = (
    0x00FD, 0x0204, 0x0203, 0x027E, 0x00BD, 0x0006, 0x0207, 0x0205,
)  # fmt: skip
_MAX_ROWS = 1_048_576
_FORMULA_PARTS = frozenset({0x04BC, 0x0221, 0x0236})  # SHRFMLA, ARRAY, TABLE: a formula's, no cell's


def _records(stream: bytes, at: int = 0) -> Iterator[tuple[int, int, bytes]]:
    """A BIFF stream's records from `at`: (offset, type, data)."""
    end = len(stream)
    while at + 4 <= end:
        kind, size = struct.unpack_from("<HH", stream, at)
        yield at, kind, stream[at + 4 : at + 4 + size]
        at += 4 + size


def _rk(value: int) -> float:
    """An RK number: a 30-bit integer or the top 30 bits of a double, divided by 100 where flagged."""
    if value & 0x02:
        number = float(value >> 2 if value < 0x80000000 else (value >> 2) - (1 << 30))
    else:
        number = struct.unpack("<d", struct.pack("<Q", (value & 0xFFFFFFFC) << 32))[0]
    return number / 100 if value & 0x01 else number


def _xl_string(data: bytes, at: int, wide_count: bool) -> tuple[str, int]:
    """An XLUnicodeString (a 16-bit count, `wide_count`) or ShortXLUnicodeString (an 8-bit one) at `at`,
    and where it ends: its flags say whether its characters are 16-bit or compressed to 8."""
    count = _unpack("<H", data, at) if wide_count else data[at]
    at += 2 if wide_count else 1
    flags = data[at] if at < len(data) else 0
    at += 1
    width = 2 if flags & 0x01 else 1
    raw = data[at : at + count * width]
    return (raw.decode("utf-16-le", "replace") if width == 2 else raw.decode("latin-1")), at + count * width


class _Pieces:
    """The SST record and the CONTINUE records after it, read as one run of bytes, except that a string's
    characters carried on into the next record start there with a flags byte of their own."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces, self.piece, self.at = pieces, 0, 0

    def _next(self) -> bytes:
        while self.at >= len(self.pieces[self.piece]):
            self.piece, self.at = self.piece + 1, 0
            if self.piece >= len(self.pieces):
                raise ExtractError("the workbook's shared strings are cut short", "re-save it in Excel")
        return self.pieces[self.piece]

    def take(self, size: int) -> bytes:
        got = b""
        while len(got) < size:
            data = self._next()
            part = data[self.at : self.at + size - len(got)]
            got += part
            self.at += len(part)
        return got

    def chars(self, count: int, wide: bool) -> str:
        out: list[str] = []
        while count:
            if self.at >= len(self.pieces[self.piece]):  # carried on: a new flags byte first
                self._next()
                wide = bool(self.take(1)[0] & 0x01)
            width = 2 if wide else 1
            fit = max(1, min(count, (len(self.pieces[self.piece]) - self.at) // width))
            raw = self.take(fit * width)
            out.append(raw.decode("utf-16-le", "replace") if wide else raw.decode("latin-1"))
            count -= fit
        return "".join(out)


def _shared_strings(pieces: list[bytes]) -> list[str]:
    """The SST's strings (rich-text runs and extended data after each skipped, across records too); what
    a cut record leaves out is left out."""
    out: list[str] = []
    if not pieces or len(pieces[0]) < 8:
        return out
    unique = _unpack("<I", pieces[0], 4)
    read = _Pieces(pieces)
    read.at = 8
    try:
        for _ in range(min(unique, 10_000_000)):
            count, flags = struct.unpack("<HB", read.take(3))
            runs = struct.unpack("<H", read.take(2))[0] if flags & 0x08 else 0
            extra = struct.unpack("<I", read.take(4))[0] if flags & 0x04 else 0
            out.append(read.chars(count, bool(flags & 0x01)))
            read.take(4 * runs + extra)
    except ExtractError:
        pass
    return out


@dataclass(frozen=True)
class XlsExtractor:
    """An Excel 97-2003 workbook (BIFF8): each sheet a page, in the workbook's order, each row with a value
    a line at its row number, read as an .xlsx sheet's rows are (`office.described`): values as the cell
    shows them where that is plain (a date as a date, a percentage with its sign), a formula's as last
    calculated. Charts and macro sheets are not read; an encrypted workbook, and one older than Excel 97,
    is refused with the reason."""

    kind: str = "xls"

    def extract(self, path: Path, data: bytes) -> Document:
        ole = open_ole(path, data, "an Excel workbook", "Excel")
        if not ole.exists("Workbook"):
            old = ole.exists("Book")
            what = "older than Excel 97 (Excel 5 or 95)" if old else "not an Excel workbook"
            raise ExtractError(
                f"{path.name} is {what}", "open it in Excel or LibreOffice and save it as .xlsx"
            )
        stream = read_stream(ole, "Workbook", path, "an Excel workbook", "Excel")
        sheets: list[tuple[int, str]] = []
        formats: dict[int, str] = {}
        xfs: list[int] = []
        sst: list[bytes] = []
        date1904 = False
        records = _records(stream)
        for _, kind, body in records:
            if kind == _FILEPASS:
                raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
            if kind == _SHEET and len(body) >= 8 and body[5] == 0:  # a worksheet (not a chart or macros)
                sheets.append((_unpack("<I", body, 0), _xl_string(body, 6, False)[0]))
            elif kind == _FORMAT and len(body) >= 5:
                formats[_unpack("<H", body, 0)] = _xl_string(body, 2, True)[0]
            elif kind == _XF and len(body) >= 4:
                xfs.append(_unpack("<H", body, 2))
            elif kind == _DATEMODE and len(body) >= 2:
                date1904 = bool(_unpack("<H", body, 0))
            elif kind == _SST:
                sst = [body]
            elif kind == _CONTINUE and sst and len(sst) < 100_000:
                sst.append(body)
            elif kind == _EOF:
                break
        strings = _shared_strings(sst)
        styles = Styles(formats, xfs, date1904)
        lines: list[Line] = []
        for number, (offset, _) in enumerate(sheets, 1):
            rows = _xls_rows(stream, offset, strings, styles)
            lines.extend(
                Line(text, row, number, level) for row, text, level in described(iter(sorted(rows.items())))
            )
        return Document(tuple(lines), kind="table", page_names=tuple(name for _, name in sheets))


def _xls_rows(stream: bytes, at: int, strings: list[str], styles: Styles) -> dict[int, list[str]]:
    """A sheet's rows from its substream at `at`: row number (1-based) -> the cells' shown values."""
    rows: dict[int, list[str]] = {}

    def put(row: int, col: int, value: str) -> None:
        if row < _MAX_ROWS and col < MAX_COLUMNS and value:
            cells = rows.setdefault(row + 1, [])
            cells.extend([""] * (col + 1 - len(cells)))
            cells[col] = value

    def shown(value: float, xf: int) -> str:
        return styles.show(repr(value), xf)

    formula: tuple[int, int] | None = None
    for n, (_, kind, body) in enumerate(_records(stream, at)):
        if n == 0 and kind != _BOF:
            break
        if kind == _EOF:
            break
        if kind == _STRING and formula is not None:  # the text a formula before it gave
            put(*formula, _xl_string(body, 0, True)[0])
        if len(body) < 6 or kind in _FORMULA_PARTS:  # a shared formula's record sits before its STRING
            continue
        row, col, xf = struct.unpack_from("<HHH", body, 0)  # every cell record opens so
        formula = None
        if kind == _LABELSST and len(body) >= 10:
            index = _unpack("<I", body, 6)
            put(row, col, strings[index] if index < len(strings) else "")
        elif kind == _LABEL and len(body) >= 9:
            put(row, col, _xl_string(body, 6, True)[0])
        elif kind == _NUMBER and len(body) >= 14:
            put(row, col, shown(struct.unpack_from("<d", body, 6)[0], xf))
        elif kind == _RK and len(body) >= 10:
            put(row, col, shown(_rk(_unpack("<I", body, 6)), xf))
        elif kind == _MULRK:
            for i in range((len(body) - 6) // 6):
                put(row, col + i, shown(_rk(_unpack("<I", body, 6 + 6 * i)), _unpack("<H", body, 4 + 6 * i)))
        elif kind == _BOOLERR and len(body) >= 8 and not body[7]:  # a boolean, not an error
            put(row, col, "TRUE" if body[6] else "FALSE")
        elif kind == _FORMULA and len(body) >= 14:
            if body[12:14] != b"\xff\xff":  # its last value, a number
                put(row, col, shown(struct.unpack_from("<d", body, 6)[0], xf))
            elif body[6] == 0:  # a string, in the STRING record after it
                formula = (row, col)
            elif body[6] == 1:
                put(row, col, "TRUE" if body[8] else "FALSE")
    return rows


# ------------------------------------------------------------------------------------------ slide decks

PPT_SUFFIXES = LEGACY_SLIDE_SUFFIXES
_DOCUMENT, _SLWT, _SLIDE_PERSIST, _SLIDE, _NOTES, _NOTES_ATOM = 0x03E8, 0x0FF0, 0x03F3, 0x03EE, 0x03F0, 0x03F1
_TEXT_HEADER, _TEXT_CHARS, _TEXT_BYTES, _USER_EDIT, _PERSIST_DIR = 0x0F9F, 0x0FA0, 0x0FA8, 0x0FF5, 0x1772
_TITLES = (0, 6)  # a title's and a centred title's text
_BULLETED = (1, 7, 8)  # a body's, half a body's and a quarter's: bulleted by default
_NOTES_TEXT = 2
_MAX_EDITS = 1000


def _ppt_records(stream: bytes, at: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
    """The records from `at` to `end`: (offset, version, instance, type, length of the body)."""
    end = min(end, len(stream))
    while at + 8 <= end:
        head, kind, size = struct.unpack_from("<HHI", stream, at)
        yield at, head & 0xF, head >> 4, kind, size
        at += 8 + size


def _texts(stream: bytes, at: int, end: int, depth: int = 0) -> Iterator[tuple[int, str]]:
    """Each text atom under the container from `at` to `end`, with the text type its header atom gave."""
    kind_of = 4
    for offset, version, _, kind, size in _ppt_records(stream, at, end):
        body = stream[offset + 8 : offset + 8 + size]
        if kind == _TEXT_HEADER and size >= 4:
            kind_of = _unpack("<I", body, 0)
        elif kind == _TEXT_CHARS:
            yield kind_of, body.decode("utf-16-le", "replace")
        elif kind == _TEXT_BYTES:
            yield kind_of, body.decode("latin-1")
        elif version == 0xF and depth < MAX_NESTING:
            yield from _texts(stream, offset + 8, offset + 8 + size, depth + 1)


def _persist_offsets(current: bytes, stream: bytes) -> dict[int, int]:
    """Each persist object's offset in the stream, from the last edit back (a later edit's wins); the
    last edit's place is in the Current User stream (`current`)."""
    at = _unpack("<I", current, 16)  # CurrentUserAtom.offsetToCurrentEdit
    offsets: dict[int, int] = {}
    for _ in range(_MAX_EDITS):
        if at <= 0 or at + 8 + 20 > len(stream) or _unpack("<H", stream, at + 2) != _USER_EDIT:
            break
        last, directory = _unpack("<I", stream, at + 8 + 8), _unpack("<I", stream, at + 8 + 12)
        if directory + 8 <= len(stream) and _unpack("<H", stream, directory + 2) == _PERSIST_DIR:
            size = _unpack("<I", stream, directory + 4)
            pos, end = directory + 8, min(len(stream), directory + 8 + size)
            while pos + 4 <= end:
                entry = _unpack("<I", stream, pos)
                first, count = entry & 0xFFFFF, entry >> 20
                for i in range(count):
                    if pos + 8 + 4 * i <= end:
                        offsets.setdefault(first + i, _unpack("<I", stream, pos + 4 + 4 * i))
                pos += 4 + 4 * count
        if last == 0 or last == at:
            break
        at = last
    return offsets


@dataclass(frozen=True)
class PptExtractor:
    """A PowerPoint 97-2003 deck: each slide a page, in the deck's order (its slide list, through the
    persist directory), read as a .pptx slide is: its title as a Markdown title, its body's paragraphs as
    items, its other text boxes as text, its speaker notes under a heading of their own. Masters and
    slide-number fields are left out; an encrypted deck is refused with the reason."""

    kind: str = "ppt"

    def extract(self, path: Path, data: bytes) -> Document:
        ole = open_ole(path, data, "a PowerPoint deck", "PowerPoint")
        stream = read_stream(ole, "PowerPoint Document", path, "a PowerPoint deck", "PowerPoint")
        current = read_stream(ole, "Current User", path, "a PowerPoint deck", "PowerPoint")
        offsets = _persist_offsets(current, stream)
        document = next(
            (o for o, _, _, kind, _ in _ppt_records(stream, 0, len(stream)) if kind == _DOCUMENT), None
        )
        if document is None and offsets:
            document = next(iter(offsets.values()))
        slides: list[tuple[int, int, list[tuple[int, str]]]] = []  # id, drawing's persist id, outline's texts
        if document is not None and document + 8 <= len(stream):
            size = _unpack("<I", stream, document + 4)
            for offset, _, instance, kind, length in _ppt_records(stream, document + 8, document + 8 + size):
                if kind != _SLWT or instance != 0:  # the slides' list (1: the masters', 2: the notes')
                    continue
                for at, _, _, inner, inner_size in _ppt_records(stream, offset + 8, offset + 8 + length):
                    if inner == _SLIDE_PERSIST and inner_size >= 16:
                        slides.append((_unpack("<I", stream, at + 20), _unpack("<I", stream, at + 8), []))
                    elif slides:
                        slides[-1][2].extend(_texts(stream, at, at + 8 + inner_size, 1))
        notes: dict[int, list[str]] = {}
        for offset, _, _, kind, size in _ppt_records(stream, 0, len(stream)):
            if kind == _NOTES:
                found = [t for t in _texts(stream, offset + 8, offset + 8 + size) if t[0] == _NOTES_TEXT]
                atom = next(
                    (
                        o
                        for o, _, _, k, _ in _ppt_records(stream, offset + 8, offset + 8 + size)
                        if k == _NOTES_ATOM
                    ),
                    None,
                )
                if atom is not None and found:
                    notes[_unpack("<I", stream, atom + 8)] = [text for _, text in found]
        writer = Writer()
        for number, (slide_id, ref, texts) in enumerate(slides, 1):
            writer.new_page(number)
            drawing = offsets.get(ref)  # the slide's own shapes: text boxes, and placeholders' text too
            if (
                drawing is not None
                and drawing + 8 <= len(stream)
                and _unpack("<H", stream, drawing + 2) == _SLIDE
            ):
                end = drawing + 8 + _unpack("<I", stream, drawing + 4)
                texts = [*texts, *_texts(stream, drawing + 8, end)]
            for kind, text in texts:
                _slide_text(kind, text, writer)
            writer.notes([" ".join(text.split()) for text in notes.get(slide_id, []) if text.strip()])
        return writer.document("", kind="markdown")


def _slide_text(kind: int, text: str, writer: Writer) -> None:
    paragraphs = [p.replace("\x0b", " ") for p in text.split("\r")]
    if kind in _TITLES:
        writer.block(" ".join(paragraphs), level=1)
        return
    for paragraph in paragraphs:
        if paragraph.strip() in ("", "*"):  # "*": a slide number's, a date's or a footer's field
            continue
        if kind in _BULLETED:
            writer.item(paragraph)
        elif kind != _NOTES_TEXT:
            writer.block(paragraph)
