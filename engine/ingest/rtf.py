"""Rich Text Format (.rtf), what TextEdit, WordPad and Word save, read with the standard library.

A citation cites a line among the document's paragraphs, headings, list items and table rows, as a Word
file's (`office.Writer`): a heading (an outline level, or a "heading N" style) becomes a Markdown title, a
list's paragraph ("\\ls", a "\\listtext" bullet, or a bullet or number before a tab on a hanging indent)
an item, a table's row "| a | b |", and a paragraph set in a fixed-pitch font (the font table's "modern"
family or fixed pitch, or a monospaced face) a fenced program's line. Footnotes and text boxes follow
the paragraph that anchors them, blocks of their own. What a reader never sees is left out: pictures and
embedded objects, headers and footers, comments, hidden and deleted text, field instructions, the font,
colour and style tables (read for what they say of the text), and the bullets a list draws.

The text is decoded as the file says: "\\uN" as Unicode (its fallback characters skipped), "\\'hh" and
8-bit bytes in the font's or the document's code page. The parser is one pass over the bytes with a
stack of group states; groups nested deeper than MAX_DEPTH are read in the deepest state, and what
the document reads to is capped by `office.MAX_TEXT`.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.errors import ExtractError
from engine.events import Document
from engine.ingest.office import Writer, heading_level, monospaced, names_columns

# a change to what this reader reads gets a new name (extract.readers); 2: a "Title" paragraph is a title
RTF_READER = "rtf-3"  # 3: a header row (\trhdr) names its columns
RTF_SUFFIXES = (".rtf",)
MAX_DEPTH = 1000  # groups nested deeper are read in the state of the deepest (no document nests so deep)

_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # a control word, its parameter, the space that ends it
    rb"|\\'([0-9a-fA-F]{2})"  # a byte in the code page
    rb"|\\([^a-zA-Z'])"  # a control symbol: \\ \{ \} \~ \- \_ \* and a backslash before a line break
    rb"|([{}])"
    rb"|[\r\n]+"  # line breaks of the file: no part of the text
    rb"|([^\\{}\r\n]+)",
    re.DOTALL,
)

# Destinations whose text is no part of what a reader sees (their groups are skipped whole); any
# other destination marked ignorable ("{\*\name ...}") that this reader does not know is skipped too
_SKIPPED = frozenset(
    "colortbl pict nonshppict object objdata objclass objname objalias objsect objtime header headerl "
    "headerr headerf footer footerl footerr footerf listtable listoverridetable revtbl rsidtbl generator "
    "filetbl fldinst annotation atnid atnauthor atndate atnref atnicn atrfstart atrfend xe tc tcn template "
    "comment userprops docvar themedata colorschememapping latentstyles datastore xmlnstbl mmathPr "
    "pgdsctbl shpinst sp sn sv pnseclvl pntxta pntxtb bkmkstart bkmkend protusertbl blipuid "
    "author operator subject keywords doccomm company category manager hlinkbase creatim revtim printim "
    "buptim version vern edmins nofpages nofwords nofchars nofcharsws id ftnsep ftnsepc ftncn aftnsep "
    "aftnsepc aftncn fchars lchars passwordhash wgrffmtfilter mhtmltag htmltag".split()
)
_ASIDES = frozenset({"footnote", "shptxt"})  # their own paragraphs, after the one that anchors them
_MARKERS = frozenset({"listtext", "pntext"})  # the bullet or number a list draws: it marks an item

_CHARACTERS = {
    "bullet": "\u2022", "endash": "\u2013", "emdash": "\u2014", "lquote": "\u2018", "rquote": "\u2019",
    "ldblquote": "\u201c", "rdblquote": "\u201d", "tab": "\t", "line": "\n", "emspace": " ",
    "enspace": " ", "qmspace": " ", "zwj": "", "zwnj": "", "zwbo": "", "zwnbo": "", "ltrmark": "",
    "rtlmark": "", "chftn": "", "page": " ", "column": " ", "sect": " ",
}  # fmt: skip
_SYMBOLS = {b"~": "\u00a0", b"-": "", b"_": "-", b"\\": "\\", b"{": "{", b"}": "}", b":": ""}

# A font's character set (\fcharsetN) as the code page its bytes are written in
_CHARSETS = {
    0: "cp1252", 77: "mac_roman", 128: "cp932", 129: "cp949", 130: "johab", 134: "gbk", 136: "big5",
    161: "cp1253", 162: "cp1254", 163: "cp1258", 177: "cp1255", 178: "cp1256", 186: "cp1257",
    204: "cp1251", 222: "cp874", 238: "cp1250", 254: "cp437",
}  # fmt: skip
# A bullet or a number a list's paragraph writes itself before a tab ("•\titem", "2.\tsecond")
_BULLETS = "\u2022\u00b7\u25aa\u25e6\u2023\u25cb\u25a0\u25a1\u2013\u2014*-"
_DRAWN_MARKER = re.compile(rf"^[ \t]*([{_BULLETS}]|\w{{1,3}}[.)])\t")


@dataclass
class _Font:
    codec: str = ""
    fixed: bool = False
    name: str = ""


@dataclass
class _Paragraph:
    """A paragraph as it is read: its text runs with whether each is set in a fixed-pitch font, and the
    bullet or number its list draws."""

    runs: list[tuple[str, bool]] = field(default_factory=list)
    marker: list[str] = field(default_factory=list)
    aside: bool = False

    def text(self) -> str:
        return "".join(text for text, _ in self.runs)

    def take(self) -> _Paragraph:
        """What was read so far, the paragraph emptied in place: the groups that share it see it ended."""
        taken = _Paragraph(list(self.runs), list(self.marker), self.aside)
        self.runs.clear()
        self.marker.clear()
        return taken

    def fixed(self) -> bool:
        """Whether every visible character is set in a fixed-pitch font (inline code is not a program)."""
        seen = [fixed for text, fixed in self.runs if text.strip()]
        return bool(seen) and all(seen)


@dataclass
class _State:
    """What a group sets: where its text goes, the character's font and visibility, the paragraph's
    properties (a group restores them all as it closes)."""

    dest: str = "body"  # body, skip, title, fonttbl, stylesheet, marker
    font: int = -1
    hidden: bool = False
    uc: int = 1  # characters after a \uN that stand in for it in readers without Unicode
    para: _Paragraph = field(default_factory=_Paragraph)
    intbl: bool = False
    listed: bool = False  # \ls: the paragraph is a list's item
    level: int = -1  # \ilvl: its depth in the list
    outline: int = -1  # \outlinelevel: a heading's level, 0 the highest
    style: int = 0
    indent: int = 0  # \li, in twips
    hanging: bool = False  # \fi below 0: the first line starts left of the rest


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.writer = Writer()
        self.codec = "cp1252"
        self.default_font = -1
        self.fonts: dict[int, _Font] = {}
        self.font: _Font | None = None  # the font table's entry being read
        self.styles: dict[int, int] = {}  # paragraph style -> heading level (1 the highest)
        self.style: tuple[int, int, list[str]] | None = None  # the style being read: number, outline, name
        self.title: list[str] = []
        self.asides: list[_Paragraph] = []
        self.cells: list[str] = []
        self.cell: list[str] = []
        self.rows = False
        self.heading = False  # the row being read is marked a header row
        self.pending = bytearray()  # \'hh bytes not yet decoded (a double-byte character spans two)
        self.skip = 0  # fallback characters still to skip after a \uN
        self.high = 0  # a \uN high surrogate waiting for its low half

    # -- text ----------------------------------------------------------------------------------------
    def _codec(self, state: _State) -> str:
        font = self.fonts.get(state.font)
        return (font.codec if font and font.codec else "") or self.codec

    def _fixed(self, state: _State) -> bool:
        font = self.fonts.get(state.font)
        return bool(font and font.fixed)

    def emit(self, state: _State, text: str) -> None:
        if self.skip and text:
            cut = min(self.skip, len(text))
            text, self.skip = text[cut:], self.skip - cut
        if not text or state.hidden:
            return
        if state.dest == "body":
            state.para.runs.append((text, self._fixed(state)))
        elif state.dest == "marker":
            state.para.marker.append(text)
        elif state.dest == "title":
            self.title.append(text)
        elif state.dest == "fonttbl" and self.font is not None:
            self._font_name(text)
        elif state.dest == "stylesheet" and self.style is not None:
            self._style_name(text)

    def flush_bytes(self, state: _State) -> None:
        if self.pending:
            data, self.pending = bytes(self.pending), bytearray()
            for byte in range(len(data)):  # fallback characters count byte by byte
                if not self.skip:
                    self.emit(state, data[byte:].decode(self._codec(state), errors="replace"))
                    return
                self.skip -= 1

    def unicode(self, state: _State, value: int) -> None:
        value %= 65536  # a negative parameter is the code's 16 bits read signed
        if 0xD800 <= value < 0xDC00:
            self.high = value
        else:
            if 0xDC00 <= value < 0xE000 and self.high:
                value = 0x10000 + ((self.high - 0xD800) << 10) + (value - 0xDC00)
            self.high = 0
            if not 0xD800 <= value < 0xE000:
                self.emit(state, chr(value))
        self.skip = state.uc

    # -- the tables that say what the text is -----------------------------------------------------------
    def _font_name(self, text: str) -> None:
        assert self.font is not None
        name, end, _ = text.partition(";")
        self.font.name += name
        if end:
            self.font.fixed = self.font.fixed or monospaced(self.font.name)
            self.font = None

    def _style_name(self, text: str) -> None:
        assert self.style is not None
        number, outline, name = self.style
        piece, end, _ = text.partition(";")
        name.append(piece)
        if end:
            level = outline + 1 if outline >= 0 else heading_level("".join(name))
            if level:
                self.styles[number] = level
            self.style = None

    # -- paragraphs ----------------------------------------------------------------------------------
    def end_paragraph(self, state: _State) -> None:
        para = state.para.take()
        if para.aside:
            self.asides.append(para)
            return
        text = para.text()
        if state.intbl:
            if text.strip():
                self.cell.append(text)
            return
        self.end_table()
        self.write(para, state)
        self.write_asides()

    def write_asides(self) -> None:
        """The footnotes and text boxes read since the last paragraph, blocks of their own after it."""
        for aside in self.asides:
            self.writer.block(aside.text())
        self.asides.clear()

    def write(self, para: _Paragraph, state: _State) -> None:
        text = para.text()
        if not text.strip():
            return
        level = state.outline + 1 if 0 <= state.outline < 9 else self.styles.get(state.style, 0)
        marker = "".join(para.marker).strip()
        drawn = _DRAWN_MARKER.match(text) if state.hanging and not marker else None
        if level:
            self.writer.block(text, level)
        elif state.listed or marker or drawn:
            if drawn:
                marker, text = drawn.group(1), text[drawn.end() :]
            depth = state.level if state.level >= 0 else max(0, round(state.indent / 360) - 1)
            number = re.fullmatch(r"\w{1,3}[.)]", marker)
            self.writer.item(text, depth, marker if number else "-")
        elif para.fixed():
            self.writer.code(text.replace("\t", "    "))
        else:
            self.writer.block(text)

    def end_cell(self, state: _State) -> None:
        if (text := state.para.take().text()).strip():
            self.cell.append(text)
        self.cells.append(" ".join(self.cell))
        self.cell = []

    def end_row(self) -> None:
        if self.cell:
            self.cells.append(" ".join(self.cell))
        if self.cells:  # a table's first row, marked to repeat atop each page (\trhdr): its columns' names
            self.writer.row(self.cells, header=self.heading and not self.rows and names_columns(self.cells))
            self.rows = True
        self.cells, self.cell, self.heading = [], [], False

    def end_table(self) -> None:
        if self.cells or self.cell:
            self.end_row()
        if self.rows:
            self.writer.end_table()
            self.rows = False

    # -- the pass ------------------------------------------------------------------------------------
    def read(self) -> None:
        data, state = self.data, _State()
        stack: list[_State] = []
        deeper = 0  # groups opened past MAX_DEPTH, read in the deepest state
        ignorable = False
        pos, end = 0, len(data)
        while pos < end:
            m = _TOKEN.match(data, pos)
            if m is None:  # a backslash at the very end
                break
            pos = m.end()
            word, hexbyte = m.group(1), m.group(3)
            if hexbyte is not None:
                if state.dest != "skip":
                    self.pending.append(int(hexbyte, 16))
                continue
            self.flush_bytes(state)
            if word is not None:
                name = word.decode("ascii")
                arg = m.group(2)
                value = int(arg) if arg is not None else None
                if name == "bin":  # binary data: its bytes are skipped, unread
                    pos += max(0, value or 0)
                    continue
                if ignorable:
                    ignorable = False
                    if name not in _ASIDES and name not in _MARKERS and name not in ("title", "fldrslt"):
                        state.dest = "skip"
                        continue
                self.control(state, name, value)
                continue
            symbol, brace, text = m.group(4), m.group(5), m.group(6)
            if brace == b"{":
                if len(stack) < MAX_DEPTH:
                    stack.append(state)
                    state = replace(state)
                else:
                    deeper += 1
            elif brace == b"}":
                ignorable = False
                if deeper:
                    deeper -= 1
                elif stack:
                    closed, state = state, stack.pop()
                    if closed.para is not state.para and closed.para.aside and closed.para.text().strip():
                        self.asides.append(closed.para.take())  # a footnote's last paragraph, never ended
                    self.skip = 0
            elif symbol is not None:
                if symbol == b"*":
                    ignorable = True
                elif symbol in (b"\n", b"\r"):
                    if state.dest == "body":
                        self.end_paragraph(state)
                elif state.dest != "skip":
                    self.emit(state, _SYMBOLS.get(symbol, ""))
            elif text is not None and state.dest != "skip":
                self.emit(state, text.decode(self._codec(state), errors="replace"))
        self.flush_bytes(state)
        if state.para.text().strip() and not state.para.aside:
            self.end_paragraph(state)
        self.end_table()
        self.write_asides()

    def control(self, state: _State, name: str, value: int | None) -> None:
        """A control word's effect on the group's state, or the text it stands for."""
        if state.dest == "skip":
            if name == "shptxt":  # a text box's text, inside the shape's skipped properties
                state.dest, state.para = "body", _Paragraph(aside=True)
            return
        if name in _SKIPPED:
            state.dest = "skip"
        elif name in _ASIDES:
            state.dest, state.para = "body", _Paragraph(aside=True)
        elif name in _MARKERS:
            state.dest = "marker"
        elif name == "info":
            state.dest = "info"
        elif name == "title" and state.dest == "info":
            state.dest = "title"
        elif state.dest == "info":  # the rest of the document's properties
            pass
        elif name == "fonttbl":
            state.dest = "fonttbl"
        elif name == "stylesheet":
            state.dest = "stylesheet"
        elif state.dest == "fonttbl":
            self._font_control(name, value)
        elif state.dest == "stylesheet":
            self._style_control(name, value)
        elif name in ("par", "sect") and state.dest == "body":
            self.end_paragraph(state)
        elif name in ("cell", "nestcell") and state.dest == "body":
            if name == "cell":
                self.end_cell(state)
            else:
                self.cell.append(state.para.take().text())
        elif name == "row" and state.dest == "body":
            self.end_row()
        elif name == "trhdr" and state.dest == "body":
            self.heading = True
        elif name in _CHARACTERS:
            self.emit(state, _CHARACTERS[name])
        elif name == "u" and value is not None:
            self.unicode(state, value)
        else:
            self._property(state, name, value)

    def _font_control(self, name: str, value: int | None) -> None:
        if name == "f" and value is not None:
            self.font = self.fonts.setdefault(value, _Font())
        elif self.font is None:
            return
        elif name == "fmodern" or (name == "fprq" and value == 1):
            self.font.fixed = True
        elif name == "fcharset" and value is not None and value in _CHARSETS:
            self.font.codec = _CHARSETS[value]
        elif name == "cpg" and value:
            self.font.codec = _codec(value, self.font.codec)

    def _style_control(self, name: str, value: int | None) -> None:
        if name == "s" and value is not None:
            self.style = (value, -1, [])
        elif name in ("cs", "ds", "ts", "tsrowd"):
            self.style = None
        elif name == "outlinelevel" and value is not None and self.style is not None:
            self.style = (self.style[0], value, self.style[2])

    def _property(self, state: _State, name: str, value: int | None) -> None:
        if name == "ansicpg" and value:
            self.codec = _codec(value, self.codec)
        elif name in ("mac", "pc", "pca"):
            self.codec = {"mac": "mac_roman", "pc": "cp437", "pca": "cp850"}[name]
        elif name == "deff" and value is not None:
            self.default_font = value
            state.font = value if state.font < 0 else state.font
        elif name == "f" and value is not None:
            state.font = value
        elif name == "plain":
            state.font, state.hidden = self.default_font, False
        elif name in ("v", "deleted"):
            state.hidden = value != 0
        elif name == "uc" and value is not None:
            state.uc = max(0, min(value, 16))
        elif name == "pard":
            state.intbl, state.listed, state.level, state.outline = False, False, -1, -1
            state.style, state.indent, state.hanging = 0, 0, False
        elif name == "intbl":
            state.intbl = value != 0
        elif name == "ls" and value:
            state.listed = True
        elif name == "ilvl" and value is not None:
            state.level = value
        elif name == "outlinelevel" and value is not None:
            state.outline = value
        elif name == "s" and value is not None:
            state.style = value
        elif name == "li" and value is not None:
            state.indent = value
        elif name == "fi" and value is not None:
            state.hanging = value < 0


def _codec(page: int, fallback: str) -> str:
    """A code page's codec ("cp1252"), or `fallback` where Python knows no such code page."""
    try:
        return codecs.lookup(f"cp{page}").name
    except LookupError:
        return fallback


@dataclass(frozen=True)
class RtfExtractor:
    """A Rich Text Format document, as its paragraphs, titles, lists, tables and programs (module doc)."""

    kind: str = "rtf"

    def extract(self, path: Path, data: bytes) -> Document:
        if not data[:64].lstrip().startswith(b"{\\rtf"):
            raise ExtractError(
                f"{path.name} is not Rich Text Format (it does not start with {{\\rtf)",
                "re-save it as .rtf, or give it the extension of what it is",
            )
        reader = _Reader(data)
        reader.read()
        return reader.writer.document(" ".join("".join(reader.title).split()))
