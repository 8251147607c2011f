"""Per-format readers: file bytes in, a Document of lines mapped back to the source out.

Extractors sit behind the Extractor protocol in a small registry. A key that starts with a dot matches the
lowercase suffix (".py"), a key ending in ".*" matches a name prefix ("dockerfile.*" for "Dockerfile.dev"),
any other key a whole file name ("makefile"); lookup ignores case. The built-ins register the same way a
plug-in would. Every Line keeps the 1-based line of the source file it came from (for a PDF: the page, and
the line within that page's extracted text), so a citation can point at the exact place.
"""

from __future__ import annotations

import bisect
import codecs
import csv
import io
import json
import logging
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import charset_normalizer

from engine.errors import ExtractError, MissingDependency
from engine.events import Document, Line
from engine.ingest import pdfpages, sandbox
from engine.ingest.latex import LATEX_READER, latex_lines
from engine.ingest.legacy import (
    DOC_READER,
    DOC_SUFFIXES,
    LEGACY_READER,
    PPT_SUFFIXES,
    XLS_SUFFIXES,
    DocExtractor,
    PptExtractor,
    XlsExtractor,
)
from engine.ingest.mail import MAIL_READER, MAIL_SUFFIXES, MAILBOX_NAMES, MailExtractor
from engine.ingest.markup import (
    ASCIIDOC_SUFFIXES,
    MARKUP_READER,
    ORG_SUFFIXES,
    AsciidocExtractor,
    OrgExtractor,
)
from engine.ingest.office import (
    EXCEL_SUFFIXES,
    MAX_NESTING,
    OFFICE_READER,
    OFFICE_SUFFIXES,
    POWERPOINT_SUFFIXES,
    SHEET_SUFFIXES,
    EpubExtractor,
    OdfExtractor,
    PptxExtractor,
    Writer,
    XlsxExtractor,
    described,
    heading_level,
    monospaced,
    names_columns,
)
from engine.ingest.rtf import RTF_READER, RTF_SUFFIXES, RtfExtractor
from engine.ingest.scans import WAITING, ImageExtractor, NoTextLayer, image_suffixes

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from pypdf import PdfReader

log = logging.getLogger(__name__)


class Extractor(Protocol):
    """Reads one file format. Raises ExtractError for corrupt, encrypted or unsupported input."""

    def extract(self, path: Path, data: bytes) -> Document: ...


_REGISTRY: dict[str, Extractor] = {}


def register(extensions: Iterable[str], extractor: Extractor) -> None:
    """Route files to `extractor` by ".suffix", by whole name ("Makefile") or by "name.*" prefix."""
    for key in extensions:
        if key.strip(".*") == "":
            raise ValueError(f"not a usable extension or file name: {key!r}")
        _REGISTRY[key.lower()] = extractor


def extractor_for(path: Path) -> Extractor | None:
    """The extractor for `path`: whole name first, then suffix, then a "name.*" prefix; None if unknown.
    A text copy of a text format keeps its format: Sphinx publishes each page's source beside the page as
    `_sources/page.rst.txt` (or `.md.txt`), read as reStructuredText (Markdown) rather than plain text."""
    name = path.name.lower()
    found = _REGISTRY.get(name) or _REGISTRY.get(path.suffix.lower())
    if found is None and "." in name:
        found = _REGISTRY.get(name.split(".", 1)[0] + ".*")
    if path.suffix.lower() == ".txt":
        inner = _REGISTRY.get(Path(path.stem).suffix.lower())
        if isinstance(inner, (TextExtractor, MarkdownExtractor)):
            return inner
    return found


class UnsupportedType(ExtractError):
    """No reader for this kind of file: the indexer records it as skipped, not failed."""


# Text formats whose text is drawing or layout code rather than something to read or cite.
NOT_READ_AS_TEXT = frozenset({".svg", ".svgz", ".eps", ".ps", ".ai"})
SNIFF_BYTES = 8 * 1024


def looks_like_text(data: bytes) -> bool:
    """True if the first 8 KiB hold no NUL and are valid UTF-8 (a character cut at the end is allowed)."""
    head = data[:SNIFF_BYTES]
    if b"\x00" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=len(data) <= SNIFF_BYTES)
    except UnicodeDecodeError:
        return False
    return True


def _type_of(path: Path) -> str:
    return path.suffix.lower() or "no extension"


def extract(path: Path, data: bytes) -> Document:
    """Read `data` (the bytes of `path`) into a Document; ExtractError says why when it cannot.

    A file no reader claims (".flaskenv", "py.typed", "LICENSE") is read as plain text when its bytes
    look like UTF-8 text and its type is not in NOT_READ_AS_TEXT; otherwise UnsupportedType is raised.
    """
    extractor = extractor_for(path)
    if extractor is None and path.suffix.lower() not in NOT_READ_AS_TEXT and looks_like_text(data):
        extractor = _PLAIN_TEXT
    if extractor is None:
        raise UnsupportedType(
            f"unsupported file type ({_type_of(path)})",
            "Citeline reads text, code, Markdown, HTML, LaTeX, PDF, Word (.docx, .doc), PowerPoint, Excel, "
            "OpenDocument, EPUB, RTF, e-mail, JSON, CSV, notebooks and images",
        )
    if (path.suffix.lower() in SANDBOXED or path.name.lower() in MAILBOX_NAMES) and sandbox.enabled():
        document: Document = sandbox.shared().run(extract_here, path, data, what=path.name)
        return document
    return extract_here(path, data, extractor)


# Formats parsed by third-party code that can loop or balloon on a crafted file: read in the killable
# worker of engine/ingest/sandbox.py, with a time and memory limit.
SANDBOXED = frozenset(
    {".pdf", ".docx", *DOC_SUFFIXES, *XLS_SUFFIXES, *PPT_SUFFIXES, *OFFICE_SUFFIXES, *RTF_SUFFIXES}
    | set(MAIL_SUFFIXES)
)


def extract_here(path: Path, data: bytes, extractor: Extractor | None = None) -> Document:
    """extract() in this process (the sandbox worker runs this)."""
    extractor = extractor or extractor_for(path) or _PLAIN_TEXT
    try:
        return extractor.extract(path, data)
    except ExtractError:
        raise
    except Exception as exc:  # a reader choking on malformed input must not stop an indexing run
        raise ExtractError(
            f"{path.name} could not be read ({type(exc).__name__}: {exc})", "the file may be corrupt"
        ) from exc


# ---------------------------------------------------------------------------------------------- text

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16: its BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NEWLINE = re.compile(r"\r\n|\r|\n")


def decode_text(data: bytes) -> str:
    """Bytes to text: by BOM, then strict UTF-8, then charset-normalizer's best guess, then latin-1."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    guess = _guess_encoding(data)
    if guess is not None:
        try:
            return data.decode(guess, errors="replace")  # the guess may rest on a sample of the bytes
        except LookupError:
            pass
    return data.decode("latin-1")


# On short text charset-normalizer often ranks a Baltic or Central European code page first for French or
# Spanish; the Western code page wins when it reads the bytes as cleanly and looks as much like a language.
_WESTERN = ("cp1252", "latin_1", "iso8859_15")
_CHAOS_MARGIN = 0.1


def _guess_encoding(data: bytes) -> str | None:
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        return None
    for match in matches:
        close = match.chaos <= best.chaos + _CHAOS_MARGIN and match.coherence >= best.coherence
        if match.encoding in _WESTERN and close:
            return match.encoding
    return best.encoding


def split_lines(text: str) -> list[str]:
    """Split on \\r\\n, \\r or \\n (what editors count as lines); a final newline adds no empty line."""
    parts = _NEWLINE.split(text)
    if parts[-1] == "":
        parts.pop()
    return parts


def _numbered(texts: Iterable[str]) -> tuple[Line, ...]:
    return tuple(Line(text, number) for number, text in enumerate(texts, 1))


def _line_starts(text: str) -> list[int]:
    """Offsets at which each line of `text` begins, for mapping an offset back to a 1-based line."""
    return [0, *(match.end() for match in _NEWLINE.finditer(text))]


def _line_at(starts: Sequence[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


@dataclass(frozen=True)
class TextExtractor:
    """Plain text and source code: every line maps to itself."""

    kind: str = "text"

    def extract(self, path: Path, data: bytes) -> Document:
        return Document(_numbered(split_lines(decode_text(data))), kind=self.kind)


_PLAIN_TEXT = TextExtractor("text")


# ------------------------------------------------------------------------------------------ markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX_TITLE = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FRONT_MATTER_END = {"---": ("---", "..."), "+++": ("+++",)}
_TITLE_FIELD = re.compile(r"^title\s*[:=]\s*(.*?)\s*$", re.IGNORECASE)
_ESM = re.compile(r"^(?:import|export)\b")


def _outside_fences(lines: Iterable[Line]) -> Iterator[tuple[Line, bool]]:
    """Pair each line with True when it lies outside fenced code (fence lines themselves count as inside)."""
    fence = ""
    for line in lines:
        marker = _FENCE.match(line.text)
        if not fence and marker:
            fence = marker.group(1)
            yield line, False
        elif fence and marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
            fence = ""
            yield line, False
        else:
            yield line, not fence


def _first_heading(lines: Iterable[Line]) -> str:
    for line, outside in _outside_fences(lines):
        match = _ATX_TITLE.match(line.text) if outside else None
        if match:
            return match.group(1)
    return ""


def _strip_front_matter(lines: list[Line]) -> tuple[str, list[Line]]:
    """Drop YAML (---) or TOML (+++) front matter; return its title field, if any, and the rest."""
    closers = _FRONT_MATTER_END.get(lines[0].text.rstrip()) if lines else None
    if closers is None:
        return "", lines
    for index in range(1, len(lines)):
        if lines[index].text.rstrip() in closers:
            titles = (_TITLE_FIELD.match(line.text) for line in lines[1:index])
            title = next((match.group(1).strip("\"'") for match in titles if match), "")
            return title, lines[index + 1 :]
    return "", lines


def _drop_esm(lines: list[Line]) -> list[Line]:
    """MDX: an import/export line starts an ESM block that runs to the next blank line; drop it."""
    kept: list[Line] = []
    in_esm = False
    for line, outside in _outside_fences(lines):
        in_esm = (in_esm and bool(line.text.strip())) or (outside and bool(_ESM.match(line.text)))
        if not in_esm:
            kept.append(line)
    return kept


@dataclass(frozen=True)
class MarkdownExtractor:
    """Markdown and MDX: lines map to themselves, minus front matter (its title is kept) and MDX ESM."""

    mdx: bool = False

    def extract(self, path: Path, data: bytes) -> Document:
        title, lines = _strip_front_matter(list(_numbered(split_lines(decode_text(data)))))
        if self.mdx:
            lines = _drop_esm(lines)
        return Document(tuple(lines), kind="markdown", title=title or _first_heading(lines))


# --------------------------------------------------------------------------------------------- latex

LATEX_SUFFIXES = (".tex", ".latex", ".ltx")


class LatexExtractor:
    """LaTeX: the text it typesets, as Markdown (sections as headings, verbatim as fenced code), each Line
    at the source line it comes from (engine/ingest/latex.py); title from \\title or the first heading."""

    def extract(self, path: Path, data: bytes) -> Document:
        text = "\n".join(split_lines(decode_text(data)))
        try:
            title, lines = latex_lines(text)
        except RecursionError:  # braces nested past Python's stack (or thousands left open): read as written
            log.warning("%s: LaTeX nested too deep to read as typeset; read as plain text", path)
            return Document(_numbered(text.split("\n")), kind="text")
        return Document(tuple(lines), kind="markdown", title=title or _first_heading(lines))


# ---------------------------------------------------------------------------------------------- html


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_HIDDEN = frozenset({"script", "style", "template", "noscript"})
_BLOCKS = frozenset(
    _words(
        "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 h4 h5 "
        "h6 header hr li main nav ol p pre section table tbody thead tfoot tr ul body html"
    )
)
_SPACE = re.compile(r"\s+")
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
# A page's furniture, which every page of a site repeats around its own text: the landmarks a browser
# announces as navigation, search, the site's banner and its page footer (WAI-ARIA roles, and the
# elements that carry them implicitly: <nav>, and a <footer> outside any article or section), and what
# it does not show at all (the `hidden` attribute, aria-hidden).
_FURNITURE_ROLES = frozenset({"navigation", "search", "banner", "contentinfo"})
_SECTIONING = frozenset({"article", "aside", "main", "section"})
# Blocks that stand apart as Markdown's paragraphs do: a blank line before and after each.
_PARAGRAPHS = frozenset(_words("blockquote dl figure h1 h2 h3 h4 h5 h6 hr ol p table ul"))
# Elements that hold no content: a `hidden` one has nothing to leave out, and no end tag to stop at.
_VOID = frozenset(_words("area base br col embed hr img input link meta param source track wbr"))
# A heading's or a definition's permalink (Sphinx, MkDocs and many generators: <a class="headerlink">¶</a>)
_PERMALINK_CLASSES = frozenset({"headerlink", "anchorlink", "anchor-link", "anchorjs-link"})
_PERMALINK_MARKS = " \u00b6\u00a7\U0001f517"  # pilcrow, section sign, link symbol (not "#": "C#")


# A page's own date, as its <meta> tags state it (a help centre's or a CMS's export, Dublin Core, Open Graph,
# schema.org): when it was last changed, else when it was published. Read as a line of its text, "Last
# updated: 2025-05-27", at the tag's line, so a page is dated as a Markdown file stating it is.
_UPDATED_META = frozenset(
    _words(
        "last-updated last_updated lastupdated last-modified last_modified lastmod modified revised "
        "dcterms.modified dc.date.modified article:modified_time og:updated_time datemodified"
    )
)
_PUBLISHED_META = frozenset(
    _words(
        "date dc.date dcterms.date dcterms.created dc.date.created dcterms.issued dc.date.issued "
        "article:published_time datepublished datecreated pubdate publish-date publish_date published"
    )
)
_META_DATE = re.compile(r"\s*((?:19|20)\d{2}-\d{2}-\d{2})(?![\d-])")


def _meta_date(content: str) -> str:
    """The ISO date a <meta> tag's content opens with ("2025-08-14T10:02:11Z": 2025-08-14), else "" (none,
    or one that is no day: 2025-13-45)."""
    found = _META_DATE.match(content)
    try:
        return date.fromisoformat(found.group(1)).isoformat() if found else ""
    except ValueError:
        return ""


class _VisibleText(HTMLParser):
    """Collect the text a browser would show, one Line per source line (and per block element), as
    Markdown's structure: a heading as `#` marks of its level (so a page's sections carry their titles
    like a Markdown file's), and so an anchored term of a definition list (<dt id=...>: an API reference's
    signature, a glossary's term, which a page links to as it does to a heading) one level below the
    heading it sits under per list it is nested in; a list item with its marker; preformatted text
    between ``` fences. A page's furniture (navigation, search, its banner and footer, hidden elements,
    headings' permalink marks) is left out; should such an element never close, what it held is kept, so
    a broken page loses no text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[Line] = []
        self.title = ""
        self._hidden = 0
        self._in_head = False
        self._in_title = False
        self._titled = False
        self._pre = 0
        self._heading = 0  # the level of the heading being read, 0 outside one
        self._level = 0  # the level of the last heading
        self._terms = 0  # open definition lists (<dl>): an anchored term is a heading that many below it
        self._sections = 0
        self._skip_tag = ""  # the furniture element being skipped, and how deep in it (same tag nested)
        self._skip = 0
        self._kept: tuple[int, str, int] = (0, "", 0)  # lines, buffer and its line before it
        self._lists: list[int] = []  # open lists: 0 for <ul>, else the next item's number in an <ol>
        self._item = ""  # the open list item's Markdown marker, until its first line is written
        self._buffer = ""
        self._buffer_line = 0
        self.dated: dict[str, Line] = {}  # "updated" or "published": the page's own date, as a line

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "meta":
            self._meta(attributes)
        if self._skip:
            self._skip += tag == self._skip_tag
        elif self._furniture(tag, attributes):
            if tag in _BLOCKS:
                self.flush()
            self._skip_tag, self._skip = tag, 1
            self._kept = (len(self.lines), self._buffer, self._buffer_line)
            return
        self._toggle(tag, opening=True)
        if tag == "dl":
            self._terms += 1
        elif tag == "dt" and attributes.get("id") and not self._pre:  # an anchored term titles its entry
            self._heading = min(6, self._level + self._terms)
        elif tag in ("ul", "ol"):
            start = attributes.get("start") or "1"
            self._lists.append(int(start) if tag == "ol" and start.isdigit() else 0)
        elif tag == "li":
            number = self._lists[-1] if self._lists else 0
            if number:
                self._lists[-1] += 1
            self._item = "  " * max(0, len(self._lists) - 1) + (f"{number}. " if number else "- ")

    def handle_endtag(self, tag: str) -> None:
        if self._skip and tag == self._skip_tag:
            self._skip -= 1
            if not self._skip:  # the furniture closed: what it held is dropped
                kept, self._buffer, self._buffer_line = self._kept
                del self.lines[kept:]
                return
        self._toggle(tag, opening=False)
        if tag == "dl":
            self._terms = max(0, self._terms - 1)
        elif tag == "dt":
            self._heading = 0
        elif tag in ("ul", "ol") and self._lists:
            self._lists.pop()

    def _meta(self, attrs: dict[str, str | None]) -> None:
        """Keep the first date a <meta> tag gives the page (`_UPDATED_META`, `_PUBLISHED_META`), in its
        head or before its text: a tag further down the body dates something else (a related article's
        card), and a date that is none (2025-13-45) dates nothing."""
        if self.lines and not self._in_head:
            return
        key = (attrs.get("name") or attrs.get("property") or attrs.get("itemprop") or "").strip().lower()
        kind = "updated" if key in _UPDATED_META else "published" if key in _PUBLISHED_META else ""
        day = _meta_date(attrs.get("content") or "")
        if day and kind and kind not in self.dated:
            said = "Last updated" if kind == "updated" else "Published"
            self.dated[kind] = Line(f"{said}: {day}", self.getpos()[0])

    def _furniture(self, tag: str, attrs: dict[str, str | None]) -> bool:
        if tag in _HEADINGS or tag in _VOID or self._pre:
            return False
        role = (attrs.get("role") or "").strip().lower()
        classes = set((attrs.get("class") or "").lower().split())
        return (
            tag == "nav"
            or role in _FURNITURE_ROLES
            or "hidden" in attrs
            or (attrs.get("aria-hidden") or "").lower() == "true"
            or (tag == "footer" and not self._sections)
            or (tag == "a" and bool(classes & _PERMALINK_CLASSES))
        )

    def _toggle(self, tag: str, opening: bool) -> None:
        step = 1 if opening else -1
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden + step)
        elif tag == "head" or (tag == "body" and opening):
            self._in_head = tag == "head" and opening
        elif tag == "title":
            self._in_title = opening and not self._titled
            self._titled = self._titled or not opening
        elif tag in _SECTIONING:
            self._sections = max(0, self._sections + step)
        elif tag == "pre":
            self._pre_fence(step)
            return
        elif tag in ("td", "th") and opening:
            self._buffer += " "
        if tag in _BLOCKS:
            self.flush()
        if tag in _PARAGRAPHS:
            self._blank()
        if tag in _HEADINGS and not self._pre:
            self._heading = _HEADINGS[tag] if opening else 0
            self._level = _HEADINGS[tag]

    def _blank(self) -> None:
        """A blank line between paragraphs, as Markdown has (never two, never first)."""
        if self.lines and self.lines[-1].text and not self._pre:
            self.lines.append(Line("", self.getpos()[0]))

    def _pre_fence(self, step: int) -> None:
        """Preformatted text between ``` lines at the outermost <pre> and </pre> (a Markdown code block):
        a comment's `#` in it is no heading, and it is shown as code."""
        self.flush()
        shown, was = not (self._hidden or self._in_head), self._pre
        if shown and step > 0 and not was:
            self._blank()
            self.lines.append(Line("```", self.getpos()[0]))
        self._pre = max(0, was + step)
        if shown and step < 0 and was == 1:  # the outermost closes (a stray </pre> closes nothing)
            self.lines.append(Line("```", self.getpos()[0]))
            self._blank()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = " ".join(f"{self.title} {data}".split())
        elif not (self._hidden or self._in_head):
            first_line = self.getpos()[0]
            for offset, piece in enumerate(split_lines(data + "\n")):
                if offset:
                    self.flush()
                self._append(piece, first_line + offset)

    def _append(self, piece: str, line: int) -> None:
        if not self._buffer.strip():
            self._buffer_line = line
        self._buffer += piece if self._pre else _SPACE.sub(" ", piece)

    def flush(self) -> None:
        text = self._buffer.rstrip() if self._pre else " ".join(self._buffer.split())
        if self._heading and not self._pre:
            text = text.rstrip(_PERMALINK_MARKS)
            text = f"{'#' * self._heading} {text}" if text else ""
        if text.strip():
            if self._item and not self._pre:
                text, self._item = self._item + text, ""
            self.lines.append(Line(text, self._buffer_line))
        self._buffer = ""

    def close(self) -> None:
        super().close()
        self.flush()
        if self._pre:  # a <pre> left open: its fence closes at the end
            self.lines.append(Line("```", self.lines[-1].line if self.lines else 1))
        while self.lines and not self.lines[-1].text:
            self.lines.pop()
        dated = self.dated.get("updated") or self.dated.get("published")
        if dated is not None and self.lines:  # under the page's first heading, where a document says it
            gap = Line("", dated.line)
            if not self.lines[0].text.startswith("#"):
                self.lines[0:0] = [dated, gap]
            elif len(self.lines) > 1 and not self.lines[1].text:
                self.lines[2:2] = [dated, gap]
            else:
                self.lines[1:1] = [gap, dated, gap][: len(self.lines) + 1]  # no blank line last


@dataclass(frozen=True)
class HtmlExtractor:
    """HTML: visible text only, each Line at the source line its text starts on, as Markdown (headings
    marked by level, preformatted text fenced: _VisibleText); title from <title>."""

    def extract(self, path: Path, data: bytes) -> Document:
        parser = _VisibleText()
        parser.feed("\n".join(split_lines(decode_text(data))))
        parser.close()
        return Document(tuple(parser.lines), kind="markdown", title=parser.title)


# ----------------------------------------------------------------------------------------------- pdf


@dataclass(frozen=True)
class PdfExtractor:
    """PDF via pypdf: Line(text, line within the page's extracted text, page number)."""

    def extract(self, path: Path, data: bytes) -> Document:
        with warnings.catch_warnings():  # pypdf warns freely on damaged files; the outcome is what matters
            warnings.simplefilter("ignore")
            reader = _open_pdf(path, data)
            lines, failed = _pdf_lines(path, data, reader)
            lines = without_furniture(lines)
            title = _pdf_title(reader)
        if not any(line.text.strip() for line in lines):
            if failed:
                raise ExtractError(
                    f"{path.name} is corrupt: no page could be read", "re-save or re-export it"
                )
            raise NoTextLayer(f"{WAITING} ({path.name} has no extractable text)", "")
        return Document(tuple(lines), kind="pdf", title=title)


def _open_pdf(path: Path, data: bytes) -> PdfReader:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
    except Exception as exc:
        raise ExtractError(f"{path.name} is corrupt or not a PDF", "re-save or re-export it") from exc
    if encrypted and not _unlock(reader):
        raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
    return reader


def _unlock(reader: PdfReader) -> bool:
    """Open a PDF that is encrypted with an empty user password (only its permissions are restricted)."""
    from pypdf import PasswordType

    try:
        return reader.decrypt("") != PasswordType.NOT_DECRYPTED
    except Exception:  # AES without a crypto library, an unknown security handler: treat as locked
        return False


def readers() -> dict[str, str]:
    """Which reader reads each suffix whose reader can change under an index (an install with or without
    PDFium, a newer reader): an index re-reads a suffix's files when its reader changed
    (`Indexer.ensure_extraction`)."""
    try:
        pdfpages._pdfium()
        pdf = PDF_READER
    except MissingDependency:
        pdf = "pypdf"
    return {
        ".pdf": pdf,
        **dict.fromkeys((".html", ".htm", ".xhtml"), HTML_READER),
        ".ipynb": NOTEBOOK_READER,
        **dict.fromkeys(LATEX_SUFFIXES, LATEX_READER),
        **dict.fromkeys(OFFICE_SUFFIXES, OFFICE_READER),
        ".docx": DOCX_READER,
        **dict.fromkeys(RTF_SUFFIXES, RTF_READER),
        **dict.fromkeys(DOC_SUFFIXES, DOC_READER),
        **dict.fromkeys([*ORG_SUFFIXES, *ASCIIDOC_SUFFIXES], MARKUP_READER),
        **dict.fromkeys([*XLS_SUFFIXES, *PPT_SUFFIXES], LEGACY_READER),
        **dict.fromkeys([*MAIL_SUFFIXES, *MAILBOX_NAMES], MAIL_READER),
        **dict.fromkeys((".csv", ".tsv", ".tab"), TABLE_READER),
    }


# DocxExtractor: 2 lists, tables and code as Markdown's, lines among those with text; 3 monospaced faces code
DOCX_READER = "docx-5"  # 4: the "Title" style a title; 5: a table's header row names its columns
TABLE_READER = "rows-2"  # CsvExtractor: 2, a title row above the columns' names (office.described)
NOTEBOOK_READER = "outputs-1"  # NotebookExtractor: cells, and since session 58 their saved outputs


HTML_READER = "meta-date-1"  # _VisibleText: 1, the page's own date from its <meta> tags
PDF_READER = "pdfium-2"  # pdfpages.marked_lines (2: titles marked); a change to what it reads gets a new name


def _pdf_lines(path: Path, data: bytes, reader: PdfReader) -> tuple[list[Line], int]:
    """Every page's lines, and how many pages could not be read (those are logged and skipped): through
    PDFium where it is installed (`pdfpages.marked_lines`: the spaces a typesetter left out, ligatures as
    letters; its titles marked with their level, `pdfpages.title_levels`), else, or where PDFium cannot
    open the file, through pypdf (no titles)."""
    try:
        pages, failed = pdfpages.marked_lines(data, path.name)
    except (MissingDependency, ExtractError) as exc:
        log.info("%s: read with pypdf (%s)", path, exc)
    else:
        levels = pdfpages.title_levels(pages)
        return [
            Line(line.text, index, number, level)
            for number, (page, marks) in enumerate(zip(pages, levels, strict=True), 1)
            for index, (line, level) in enumerate(zip(page, marks, strict=True), 1)
        ], failed
    return _pypdf_lines(path, reader)


def _pypdf_lines(path: Path, reader: PdfReader) -> tuple[list[Line], int]:
    lines: list[Line] = []
    failed = 0
    for number, page in enumerate(reader.pages, 1):
        try:
            texts = split_lines(page.extract_text())
        except Exception as exc:  # one damaged page should not hide the rest of the document
            log.warning("%s: page %d unreadable: %s", path, number, exc)
            failed += 1
            continue
        lines.extend(Line(text, index, number) for index, text in enumerate(texts, 1))
    return lines, failed


# A running header or footer's lines: at most this many at a page's top or bottom, each recurring at the
# same place on at least FURNITURE_PAGES pages, as it is or with a number that moves with the page
# ("Chapter 6: Add-on packages 25", "Chapter 6: Add-on packages 26", "Page 3 of 40", a bare page number)
FURNITURE_DEPTH = 2
FURNITURE_PAGES = 3


def without_furniture(lines: Sequence[Line]) -> list[Line]:
    """A paginated document's lines less its running headers and footers: a line at a page's edge (one of
    its first or last FURNITURE_DEPTH lines with text, only such lines above or below it) that recurs at
    that place on FURNITURE_PAGES pages or more (two in a document of fewer than six), either as it is
    ("CONFIDENTIAL", "© 2024 Acme") or with a number that moves with the page ("Chapter 6: Add-on packages
    25" on page 30, "... 26" on page 31; "Page 3 of 40"; a bare page number), and holds a word or a figure
    (a code block's "}" ending three pages is no header). A figure that moves otherwise is a record's
    ("Total: 37 EUR", "Total: 74 EUR"): kept. A page whose every line would go keeps them (a certificate
    printed twice). Those lines repeat the title, chapter and page number, not what the page says: read as
    text they run into the page's first sentence ("Chapter 6: Add-on packages 25 Packages may be
    distributed ..."). The lines kept keep their numbers, so citations still point at the page's lines."""
    pages: dict[int, list[Line]] = {}
    for line in lines:
        if line.text.strip():
            pages.setdefault(line.page or 0, []).append(line)
    if len(pages) < 2:
        return list(lines)
    needed = FURNITURE_PAGES if len(pages) >= 6 else 2
    sides = {page: [list(_edges(text, top, page)) for top in (True, False)] for page, text in pages.items()}
    counts: dict[tuple[int, str], int] = {}
    for edges in sides.values():
        for place, _, keys in (edge for side in edges for edge in side):
            for key in keys:
                counts[place, key] = counts.get((place, key), 0) + 1
    dropped: set[int] = set()
    for page, edges in sides.items():
        gone: set[int] = set()
        for side in edges:
            for place, line, keys in side:
                if not keys or max(counts.get((place, key), 0) for key in keys) < needed:
                    break  # furniture only where all between it and the edge is furniture too
                gone.add(id(line))
        if len(gone) < len(pages[page]):
            dropped |= gone
    return [line for line in lines if id(line) not in dropped]


def _edges(texted: Sequence[Line], top: bool, page: int) -> Iterator[tuple[int, Line, set[str]]]:
    """A page's first (`top`) or last FURNITURE_DEPTH lines with text, from the edge inwards, by place
    (0, 1 from the top; -1, -2 from the bottom; a line of a short page may be both), with their keys."""
    side = texted[:FURNITURE_DEPTH] if top else texted[::-1][:FURNITURE_DEPTH]
    for depth, line in enumerate(side):
        yield (depth if top else -1 - depth), line, _furniture_keys(line.text, page)


_WORDY = re.compile(r"[^\W_]")  # a header says something: a word or a number, not code's closing "}"
_NUMBER = re.compile(r"\d+")


def _furniture_keys(text: str, page: int) -> set[str]:
    """What a line at a page's edge is the same as on another page: its text, and its text with a number
    that moves with the page read as the page's offset ("Chapter 6: Add-on packages {-5}")."""
    said = " ".join(text.split()).lower()
    if not _WORDY.search(said):
        return set()
    keys = {said}
    for m in _NUMBER.finditer(said):
        keys.add(f"{said[: m.start()]}{{{int(m.group()) - page}}}{said[m.end() :]}")
    return keys


def _pdf_title(reader: PdfReader) -> str:
    try:
        metadata = reader.metadata
        return str(metadata.title or "") if metadata else ""
    except Exception:  # metadata is optional; a broken info dictionary must not lose the text
        return ""


# ---------------------------------------------------------------------------------------------- docx

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # password-protected .docx and legacy .doc files


@dataclass(frozen=True)
class DocxExtractor:
    """Word: each paragraph and table row a line, numbered among the document's paragraphs and rows that
    hold text, read as the other office formats are (engine/ingest/office.py: `Writer`).

    A paragraph styled "Heading N" becomes a Markdown title ("## Laptop"), and the Document is then of
    kind "markdown" so the chunker can follow the outline; a numbered or bulleted paragraph a list's item
    ("- Badge"), nested by its level; a table's row "| Item | Owner |" (a cell a vertical merge covers
    empty); a paragraph set in a font the document declares fixed-pitch a program's lines, fenced with its
    neighbours. A blank line follows each paragraph and list, as Markdown writes one: a title or a
    paragraph ends where its line does (without it, the sentence splitter read "# Leave policy" and the
    first sentence under it as one sentence, and quoted the title with it). The text is read from the XML:
    tracked insertions, content controls, fields' results and smart tags are text; deleted and moved-away
    text, a text box's and an older program's copy (mc:Fallback) are not. Each style is resolved once.
    """

    def extract(self, path: Path, data: bytes) -> Document:
        if data.startswith(_OLE_MAGIC) and b"W\x00o\x00r\x00d\x00D\x00o\x00c" in data:
            return DocExtractor().extract(path, data)  # a Word 97-2003 document named .docx
        document = _open_docx(path, data)
        styles = _DocxStyles(document, _fixed_pitch_fonts(data))
        writer = Writer()
        _docx_body(document.element.body, styles, writer, 0)
        return writer.document(document.core_properties.title or "")


# Zip-based formats (docx; xlsx, pptx, epub, odt alike) are parsed as XML trees that take ~10-20 times
# the XML's size in memory, so what the archive inflates to is capped before any parser sees it.
ZIP_MAX_XML_BYTES = 40 * 1024 * 1024  # all XML parts together, inflated
ZIP_MAX_RATIO = 100  # inflated/compressed for one part of 1 MB or more (real Office XML: ~5-30)
_ZIP_RATIO_FLOOR = 1024 * 1024


def check_zip(path: Path, data: bytes) -> None:
    """Refuse an archive that would inflate past the caps (a zip bomb), from its directory alone: nothing
    is decompressed. A directory that lies about sizes gains nothing: zipfile stops each member at its
    declared size, so the parser then sees a truncated part and the file fails as corrupt."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # not a readable archive: the format's own parser says what is wrong with it
    xml = [m for m in members if m.filename.lower().endswith((".xml", ".rels", ".xhtml", ".html", ".opf"))]
    total = sum(m.file_size for m in xml)
    if total > ZIP_MAX_XML_BYTES:
        raise ExtractError(
            f"{path.name} inflates to {total / 1e6:,.0f} MB of XML (the cap is "
            f"{ZIP_MAX_XML_BYTES / 1e6:,.0f} MB); skipped as a possible zip bomb",
            "split the document, or export it to PDF or text to index it",
        )
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size >= _ZIP_RATIO_FLOOR and ratio > ZIP_MAX_RATIO:
            raise ExtractError(
                f"{path.name}: {member.filename} inflates {ratio:,.0f}:1 (the cap is {ZIP_MAX_RATIO}:1); "
                "skipped as a possible zip bomb",
                "re-save the document; if it is genuine, export it to PDF or text to index it",
            )


def _open_docx(path: Path, data: bytes) -> DocxDocument:
    import docx

    if data.startswith(_OLE_MAGIC):
        raise ExtractError(f"{path.name} is encrypted", "save an unprotected copy to index it")
    check_zip(path, data)
    try:
        return docx.Document(io.BytesIO(data))
    except Exception as exc:
        raise ExtractError(f"{path.name} is corrupt or not a Word document", "re-save it in Word") from exc


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
# What a paragraph holds that is no text of it: deleted and moved-away text, a text box's paragraphs (read
# as no part of the sentence around them), an older program's copy of a drawing, field codes
_DOCX_SKIPPED = frozenset(
    {f"{_W}del", f"{_W}moveFrom", f"{_W}txbxContent", _MC_FALLBACK, f"{_W}instrText", f"{_W}delText"}
)


@dataclass(frozen=True)
class _DocxStyle:
    heading: int  # "Heading N": N, else 0
    depth: int | None  # the list level its numbering gives, None without numbering
    font: str | None  # its font, or the one it inherits


class _DocxStyles:
    """Every paragraph and character style of a document, each resolved once through the styles it is
    based on (python-docx looks a paragraph's style up anew each time: ~2 ms, a minute for 30,000
    paragraphs)."""

    def __init__(self, document: DocxDocument, fixed: frozenset[str]) -> None:
        from docx.enum.style import WD_STYLE_TYPE

        self.fixed = fixed
        self.styles: dict[str, _DocxStyle] = {}
        self.fonts: dict[str, str | None] = {}
        self.bolds: dict[str, bool | None] = {}  # a paragraph or character style's bold, None unsaid
        self.header_rows: set[str] = set()  # the table styles that set a header row apart
        for style in document.styles:
            if style.type == WD_STYLE_TYPE.TABLE:
                kinds = (c.get(f"{_W}type") for s in _chain(style) for c in s.element.iter(f"{_W}tblStylePr"))
                if "firstRow" in kinds:
                    self.header_rows.add(style.style_id)
            if style.type not in (WD_STYLE_TYPE.PARAGRAPH, WD_STYLE_TYPE.CHARACTER):
                continue  # a table's or a numbering's style
            chain = list(_chain(style))
            font = next((s.font.name for s in chain if s.font.name), None)
            self.bolds[style.style_id] = next((s.font.bold for s in chain if s.font.bold is not None), None)
            if style.type == WD_STYLE_TYPE.CHARACTER:
                self.fonts[style.style_id] = font
            if style.type != WD_STYLE_TYPE.PARAGRAPH:
                continue
            level = heading_level(style.name or "")
            depth = next((d for s in chain if (d := _numbering(s.element.pPr)) is not None), None)
            self.styles[style.style_id] = _DocxStyle(level, depth, font)
        default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self.default_id = default.style_id if default is not None else None
        self.default = self.styles.get(self.default_id or "")

    def of(self, paragraph: Any) -> _DocxStyle:
        return self.styles.get(self._named(paragraph)) or self.default or _DocxStyle(0, None, None)

    def _named(self, paragraph: Any) -> str:
        properties = paragraph.pPr
        return properties.pStyle.val if properties is not None and properties.pStyle is not None else ""

    def bold(self, paragraph: Any, run: Any) -> bool:
        """Whether a run is set in bold: by its own properties, its character style, or its paragraph's
        style (or the default paragraph style's)."""
        properties = run.find(f"{_W}rPr")
        if properties is not None:
            if (flag := properties.find(f"{_W}b")) is not None:
                return _on(flag)
            style = properties.find(f"{_W}rStyle")
            if style is not None and (said := self.bolds.get(style.get(f"{_W}val") or "")) is not None:
                return said
        named = self._named(paragraph) or (self.default_id or "")
        return bool(self.bolds.get(named))


def _chain(style: Any) -> Iterator[Any]:
    """A style and each style it is based on."""
    for _ in range(16):  # never a loop
        if style is None:
            return
        yield style
        style = style.base_style


def _numbering(properties: Any) -> int | None:
    """The list level a paragraph's (or a style's) numbering gives, -1 where it takes numbering off, None
    where it says nothing."""
    numbering = properties.numPr if properties is not None else None
    if numbering is None:
        return None
    if numbering.numId is not None and numbering.numId.val == 0:
        return -1
    return numbering.ilvl.val if numbering.ilvl is not None else 0


def _docx_body(parent: Any, styles: _DocxStyles, writer: Writer, nest: int) -> None:
    """A body's (or a content control's) paragraphs and tables, in order."""
    for node in parent if nest <= MAX_NESTING else ():
        if node.tag == f"{_W}p":
            _docx_paragraph(node, styles, writer)
        elif node.tag == f"{_W}tbl":
            rows = list(node.iterchildren(f"{_W}tr"))
            for index, row in enumerate(rows):
                cells = [_docx_cell(cell) for cell in row.iterchildren(f"{_W}tc")]
                header = index == 0 and len(rows) > 1 and _docx_header(node, row, cells, styles)
                writer.row(cells, header=header)
            writer.end_table()
        elif node.tag == f"{_W}sdt":  # a content control: its content is the document's text
            for content in node.iterchildren(f"{_W}sdtContent"):
                _docx_body(content, styles, writer, nest + 1)


def _docx_header(table: Any, row: Any, cells: Sequence[str], styles: _DocxStyles) -> bool:
    """Whether a table's first row names its columns, as Word marks one: it repeats atop each page
    (`tblHeader`), or the table's style sets a header row apart and the table has it on (`tblLook`'s
    firstRow, "Header Row" in Word's table design), or its every word is bold; and it names each column
    (`office.names_columns`)."""
    if not names_columns(cells):
        return False
    properties = row.find(f"{_W}trPr")
    repeated = properties.find(f"{_W}tblHeader") if properties is not None else None
    if repeated is not None and _on(repeated):
        return True
    look = table.find(f"{_W}tblPr/{_W}tblLook")
    style = table.find(f"{_W}tblPr/{_W}tblStyle")
    if look is not None and style is not None and style.get(f"{_W}val") in styles.header_rows:
        first = look.get(f"{_W}firstRow")
        if _on_value(first) if first is not None else _hex(look.get(f"{_W}val")) & 0x0020:
            return True
    runs = [
        (paragraph, run)
        for cell in row.iterchildren(f"{_W}tc")
        for paragraph in cell.iter(f"{_W}p")
        for run, text in _docx_runs(paragraph)
        if text.strip()
    ]
    return bool(runs) and all(styles.bold(paragraph, run) for paragraph, run in runs)


def _hex(value: str | None) -> int:
    """A hexadecimal flag word as Word writes one ("04A0"); 0 where it is none."""
    try:
        return int(value or "0", 16)
    except ValueError:
        return 0


def _on(flag: Any) -> bool:
    """A Word on/off property (<w:b/>, <w:tblHeader w:val="false"/>): on unless its value says off."""
    value = flag.get(f"{_W}val")
    return value is None or _on_value(value)


def _on_value(value: str) -> bool:
    return value.lower() not in ("0", "false", "off", "none")


def _docx_paragraph(paragraph: Any, styles: _DocxStyles, writer: Writer) -> None:
    style = styles.of(paragraph)
    own = _numbering(paragraph.pPr)
    depth = style.depth if own is None else own
    runs = _docx_runs(paragraph)
    text = "".join(said for _, said in runs)
    if style.heading and text.strip():
        writer.block(text, level=style.heading)
    elif _docx_fixed(runs, styles, style):
        writer.code(text)
    elif depth is not None and depth >= 0:
        writer.item(text, depth)
    else:
        writer.block(text)


def _docx_runs(paragraph: Any) -> list[tuple[Any, str]]:
    """A paragraph's text, run by run: (the run, its text); a tab as a tab, a line break as a new line."""
    runs: list[tuple[Any, str]] = []
    stack = [iter(paragraph)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        if node.tag in _DOCX_SKIPPED:
            continue
        if node.tag == f"{_W}r":
            said = []
            for part in node.iter(f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr", f"{_W}noBreakHyphen"):
                if _within_skipped(part, node):
                    continue  # inside a text box or a fallback drawing within the run
                tag = part.tag
                said.append(part.text or "" if tag == f"{_W}t" else "\t" if tag == f"{_W}tab" else "-"
                            if tag == f"{_W}noBreakHyphen" else "\n")  # fmt: skip
            runs.append((node, "".join(said)))
        elif len(stack) < MAX_NESTING:
            stack.append(iter(node))
    return runs


def _within_skipped(part: Any, run: Any) -> bool:
    node = part.getparent()
    while node is not None and node is not run:
        if node.tag in _DOCX_SKIPPED:
            return True
        node = node.getparent()
    return False


def _fixed_pitch_fonts(data: bytes) -> frozenset[str]:
    """The fonts the document's font table declares fixed-pitch (Courier New, Consolas, as Word writes), by
    their pitch or their PANOSE classification."""
    from xml.etree import ElementTree

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            table = ElementTree.fromstring(archive.read("word/fontTable.xml"))
    except (KeyError, zipfile.BadZipFile, ElementTree.ParseError):
        return frozenset()
    return frozenset(
        font.get(f"{_W}name", "")
        for font in table.iter(f"{_W}font")
        if ((pitch := font.find(f"{_W}pitch")) is not None and pitch.get(f"{_W}val") == "fixed")
        or ((panose := font.find(f"{_W}panose1")) is not None and _panose_monospaced(panose.get(f"{_W}val")))
    )


def _panose_monospaced(panose: str | None) -> bool:
    """Whether a PANOSE classification (ten bytes in hex) says a Latin text face is monospaced: its family
    byte 2, its proportion byte 9 (Courier New's "02070309...", though pandoc declares it variable)."""
    code = panose or ""
    return len(code) >= 8 and code[:2] == "02" and code[6:8] == "09"


def _docx_fixed(runs: list[tuple[Any, str]], styles: _DocxStyles, style: _DocxStyle) -> bool:
    """Whether a paragraph is set in a fixed-pitch font (the font table's, or a `monospaced` face): each
    of its runs with text, by the run's own font, its character style's or the paragraph style's."""
    shown = [run for run, said in runs if said.strip()]
    fonts = [_run_font(run, styles, style) for run in shown]
    return bool(shown) and all(font in styles.fixed or monospaced(font) for font in fonts)


def _run_font(run: Any, styles: _DocxStyles, style: _DocxStyle) -> str | None:
    properties = run.rPr
    if properties is not None:
        if properties.rFonts is not None and properties.rFonts.ascii:
            return str(properties.rFonts.ascii)
        if properties.rStyle is not None and styles.fonts.get(properties.rStyle.val):
            return styles.fonts[properties.rStyle.val]
    return style.font


def _docx_cell(cell: Any) -> str:
    """A table cell's text (a nested table's too); empty where a vertical merge covers it."""
    properties = cell.tcPr
    merge = properties.find(f"{_W}vMerge") if properties is not None else None
    if merge is not None and merge.get(f"{_W}val", "continue") == "continue":
        return ""
    return " ".join("".join(said for _, said in _docx_runs(p)) for p in cell.iter(f"{_W}p"))


# ---------------------------------------------------------------------------------------------- json

_DECODER = json.JSONDecoder()
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _skip_space(text: str, offset: int) -> int:
    match = _JSON_SPACE.match(text, offset)
    return match.end() if match else offset


def _members(text: str, offset: int) -> Iterator[tuple[str, int, int, Any]]:
    """Walk the JSON array or object at `offset`: (key or "", value start, value end, value) per member.

    Offsets are exact, which is how Slack messages and notebook source lines find their source line.
    Raises ValueError (json.JSONDecodeError) on malformed input.
    """
    opener = text[offset : offset + 1]
    if opener not in ("[", "{"):
        raise ValueError(f"expected a JSON array or object at offset {offset}")
    closer = "]" if opener == "[" else "}"
    offset = _skip_space(text, offset + 1)
    while text[offset : offset + 1] != closer:
        key = ""
        if opener == "{":
            key, offset = _DECODER.raw_decode(text, offset)
            offset = _skip_space(text, _expect(text, _skip_space(text, offset), ":"))
        value, end = _DECODER.raw_decode(text, offset)
        yield str(key), offset, end, value
        offset = _skip_space(text, end)
        if text[offset : offset + 1] != closer:
            offset = _skip_space(text, _expect(text, offset, ","))


def _expect(text: str, offset: int, char: str) -> int:
    if text[offset : offset + 1] != char:
        raise ValueError(f"expected {char!r} at offset {offset}")
    return offset + 1


def _slack_time(message: dict[str, Any]) -> str | None:
    try:
        moment = datetime.fromtimestamp(float(message["ts"]), tz=timezone.utc)
    except (KeyError, TypeError, ValueError, OverflowError, OSError):
        return None
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _slack_author(message: dict[str, Any]) -> str:
    profile = message.get("user_profile")
    names = [profile.get("real_name"), profile.get("display_name")] if isinstance(profile, dict) else []
    names += [message.get("user_name"), message.get("user")]
    return next((str(name) for name in names if name), "unknown")


def _is_slack(values: Sequence[Any]) -> bool:
    """A Slack export day file: a non-empty list of message objects, each with a usable "ts"."""
    messages = [value for value in values if isinstance(value, dict)]
    return (
        bool(values)
        and len(messages) == len(values)
        and all(_slack_time(message) for message in messages)
        and any("text" in message for message in messages)
    )


def _slack_lines(text: str) -> list[Line] | None:
    try:
        members = list(_members(text, _skip_space(text, 0)))
    except (ValueError, RecursionError):
        return None
    if not _is_slack([value for _, _, _, value in members]):
        return None
    starts = _line_starts(text)
    lines: list[Line] = []
    for _, offset, _, message in members:
        body = " ".join(str(message.get("text") or "").split())
        if body:
            lines.append(
                Line(f"{_slack_author(message)} ({_slack_time(message)}): {body}", _line_at(starts, offset))
            )
    return lines


@dataclass(frozen=True)
class JsonExtractor:
    """A Slack export becomes one "author (time): text" Line per message at the line its object starts;
    any other JSON maps line to line as code."""

    def extract(self, path: Path, data: bytes) -> Document:
        text = decode_text(data)
        messages = _slack_lines(text)
        if messages is not None:
            return Document(tuple(messages), kind="chat")
        return Document(_numbered(split_lines(text)), kind="code")


# ----------------------------------------------------------------------------------------------- csv

# Read as tables, a row a line ("name=value; ..."): CSV and TSV files, and the sheets of a workbook
TABLE_SUFFIXES = frozenset({".csv", ".tsv", ".tab", *SHEET_SUFFIXES})

_CSV_DELIMITERS = ",;\t|"


@dataclass(frozen=True)
class CsvExtractor:
    """CSV/TSV: one Line per row at the source line the row starts on; data rows read "col=value; ..."."""

    delimiter: str = ""  # empty: sniff among , ; tab |

    def extract(self, path: Path, data: bytes) -> Document:
        text = decode_text(data).replace("\x00", "")
        try:
            return Document(tuple(_csv_lines(text, self.delimiter or _sniff(text))), kind="table")
        except csv.Error as exc:
            raise ExtractError(
                f"{path.name} is not a readable CSV file ({exc})", "check its quoting"
            ) from exc


def _sniff(text: str) -> str:
    try:
        return csv.Sniffer().sniff(text[:20_000], delimiters=_CSV_DELIMITERS).delimiter
    except csv.Error:
        return ","


def _csv_lines(text: str, delimiter: str) -> Iterator[Line]:
    """Rows as Lines, read as a sheet's are (`office.described`), each at the line its row starts on."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)

    def rows() -> Iterator[tuple[int, list[str]]]:
        row_end = 0
        for row in reader:  # the reader's line_num tells where each row (maybe spanning lines) ended
            row_start, row_end = row_end + 1, reader.line_num
            yield row_start, row

    return (Line(said, number, level=level) for number, said, level in described(rows(), limit=None))


# ------------------------------------------------------------------------------------------ notebook


@dataclass(frozen=True)
class NotebookExtractor:
    """Jupyter (nbformat 4): markdown cells as they are, code cells inside ``` fences; kind "markdown".

    Each source line maps to the line of the .ipynb file holding its JSON string; an opening fence maps to
    the line where its cell object starts, a closing fence to the line where it ends.
    """

    def extract(self, path: Path, data: bytes) -> Document:
        text = decode_text(data)
        try:
            top = {
                key: (start, end, value) for key, start, end, value in _members(text, _skip_space(text, 0))
            }
        except (ValueError, RecursionError) as exc:
            raise ExtractError(
                f"{path.name} is not a valid notebook (bad JSON)", "re-save it in Jupyter"
            ) from exc
        if "cells" not in top:
            raise ExtractError(
                f"{path.name}: unsupported notebook format", "re-save it with Jupyter 4 or later"
            )
        language = _notebook_language(top.get("metadata", (0, 0, {}))[2])
        starts = _line_starts(text)
        lines = [
            line
            for _, start, end, cell in _members(text, top["cells"][0])
            for line in _cell_lines(text, starts, start, end, cell, language)
        ]
        return Document(tuple(lines), kind="markdown", title=_first_heading(lines))


def _notebook_language(metadata: Any) -> str:
    if not isinstance(metadata, dict):
        return "python"
    for section, key in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(section)
        if isinstance(value, dict) and isinstance(value.get(key), str):
            return str(value[key])
    return "python"


def _cell_lines(text: str, starts: list[int], start: int, end: int, cell: Any, language: str) -> list[Line]:
    if not isinstance(cell, dict):
        return []
    source = list(_source_lines(text, starts, start))
    if cell.get("cell_type") != "code":
        return source
    if not any(line.text.strip() for line in source):
        return []
    opening, closing = _line_at(starts, start), _line_at(starts, end - 1)
    return [
        Line(f"```{language}", opening),
        *source,
        Line("```", closing),
        *_output_lines(text, starts, start),
    ]


# A terminal's colour and cursor codes, as a traceback or a progress bar prints them into an output
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
OUTPUT_LINES = 2000  # of one output: a loop printing without end is read this far


def _output_lines(text: str, starts: list[int], cell_start: int) -> list[Line]:
    """A code cell's saved outputs, each a fenced ``output`` block: what it printed (both streams), the
    plain text of a result or display (not a picture's, which only names the figure: "<Figure size ...>"),
    and an error's "name: value". Each line at the line of the JSON string that holds it."""
    lines: list[Line] = []
    for key, offset, _, value in _members(text, cell_start):
        if key != "outputs" or not isinstance(value, list):
            continue
        for _, start, end, output in _members(text, offset):
            if isinstance(output, dict) and (body := _output_body(text, starts, start, output)):
                body = body[:OUTPUT_LINES]
                ticks = "`" * max(
                    3, 1 + max(len(run) for line in body for run in _TICKS.findall(line.text) or [""])
                )
                lines += [
                    Line(f"{ticks}output", _line_at(starts, start)),
                    *body,
                    Line(ticks, _line_at(starts, end - 1)),
                ]
    return lines


_TICKS = re.compile(r"`{3,}")


def _output_body(text: str, starts: list[int], start: int, output: dict[str, Any]) -> list[Line]:
    kind = output.get("output_type")
    if kind == "stream":
        field, where = "text", start
    elif kind in ("execute_result", "display_data"):
        data = output.get("data")
        if not isinstance(data, dict) or any(str(mime).startswith("image/") for mime in data):
            return []
        field = "text/plain"
        where = next((offset for key, offset, _, _ in _members(text, start) if key == "data"), -1)
        if where < 0:
            return []
    elif kind == "error":
        said = f"{output.get('ename', '')}: {output.get('evalue', '')}".strip(": ")
        at = next((offset for key, offset, _, _ in _members(text, start) if key == "evalue"), start)
        return [Line(_ANSI.sub("", said), _line_at(starts, at))] if said else []
    else:
        return []
    body = [
        Line(_ANSI.sub("", line.text).rstrip("\r"), line.line)
        for key, offset, _, value in _members(text, where)
        if key == field
        for line in _text_lines(text, starts, offset, value)
    ]
    while body and not body[-1].text.strip():
        body.pop()
    return body if any(line.text.strip() for line in body) else []


def _source_lines(text: str, starts: list[int], cell_start: int) -> Iterator[Line]:
    """The cell's source lines, each at the line of the JSON string that holds it."""
    for key, offset, _, value in _members(text, cell_start):
        if key == "source":
            yield from _text_lines(text, starts, offset, value)


def _text_lines(text: str, starts: list[int], offset: int, value: Any) -> Iterator[Line]:
    """A notebook's multiline text (a cell's source, a printed stream) at `offset`: a list of strings, each
    at the line of the JSON string that holds it, or one string (nbformat allows it), all on its line."""
    if isinstance(value, str):
        yield from (Line(piece, _line_at(starts, offset)) for piece in split_lines(value))
        return
    for _, item_offset, _, item in _members(text, offset):
        line = _line_at(starts, item_offset)
        yield from (Line(piece, line) for piece in split_lines(str(item)))


# ------------------------------------------------------------------------------------------ built-ins

_PROSE = (".txt", ".text", ".log")
_CODE = _words(
    ".js .mjs .cjs .jsx .ts .mts .cts .tsx .java .kt .kts .go .rs .c .h .cc .cpp .cxx .hpp .hh .cs "
    ".rb .php .swift .scala .sh .bash .zsh .fish .ps1 .bat .sql .r .lua .pl .pm .toml .yaml .yml "
    ".ini .cfg .conf .properties .xml .css .scss .sass .less .vue .svelte .jsonl .ndjson .proto "
    ".graphql .tf .gradle .cmake .dart .ex .exs .erl .hs .ml .jl .m .zig .nim .groovy .clj"
)
_BUILD_FILES = _words(
    "makefile gnumakefile makefile.* dockerfile dockerfile.* containerfile jenkinsfile vagrantfile "
    "gemfile rakefile procfile justfile cmakelists.txt build.bazel workspace"
)
# Of the code suffixes, those that set, store or style rather than program: a line of them states a
# setting or a record, not what a program does (is_source).
_SETTINGS = frozenset(
    _words(".toml .yaml .yml .ini .cfg .conf .properties .xml .css .scss .sass .less .jsonl .ndjson")
)


def is_source(path: str) -> bool:
    """Whether `path` is a program's source: Python, or another language's code (the "code" readers), not
    a setting, a data file or a stylesheet read the same way, nor a build file."""
    found = extractor_for(Path(path))
    kind = getattr(found, "kind", "") if found is not None else ""
    suffix = Path(path).suffix.lower()
    return kind == "python" or (kind == "code" and suffix in _CODE and suffix not in _SETTINGS)


def _register_builtins() -> None:
    register(_PROSE, TextExtractor("text"))
    register((".py", ".pyi", ".pyw"), TextExtractor("python"))
    register([*_CODE, *_BUILD_FILES], TextExtractor("code"))
    register((".rst", ".rest"), TextExtractor("rst"))
    register((".md", ".markdown"), MarkdownExtractor())
    register(LATEX_SUFFIXES, LatexExtractor())
    register((".mdx",), MarkdownExtractor(mdx=True))
    register((".html", ".htm", ".xhtml"), HtmlExtractor())
    register((".pdf",), PdfExtractor())
    register(image_suffixes(), ImageExtractor())  # its pixels are read by OCR (engine/ingest/ocr_phase.py)
    register((".docx",), DocxExtractor())
    register(DOC_SUFFIXES, DocExtractor())
    register(XLS_SUFFIXES, XlsExtractor())
    register(PPT_SUFFIXES, PptExtractor())
    register(POWERPOINT_SUFFIXES, PptxExtractor())
    register(EXCEL_SUFFIXES, XlsxExtractor())
    register((".odt", ".ods", ".odp"), OdfExtractor())
    register((".epub",), EpubExtractor())
    register(RTF_SUFFIXES, RtfExtractor())
    register(ORG_SUFFIXES, OrgExtractor())
    register(ASCIIDOC_SUFFIXES, AsciidocExtractor())
    register([*MAIL_SUFFIXES, *MAILBOX_NAMES], MailExtractor())
    register((".json",), JsonExtractor())
    register((".csv",), CsvExtractor())
    register((".tsv", ".tab"), CsvExtractor("\t"))
    register((".ipynb",), NotebookExtractor())


_register_builtins()
