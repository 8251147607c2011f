"""Emacs Org and AsciiDoc, read as the Markdown they amount to, line for line.

Each line stays at its own number (a citation's line is the file's, and the preview shows the file as it
is); what changes is how a line is read:
- a heading becomes a Markdown title of its level (Org's "** Garden", AsciiDoc's "== Install"), so the
  lines under it carry it, as a Markdown file's do;
- a source or example block becomes a fenced one (Org's "#+BEGIN_SRC sh" ... "#+END_SRC", AsciiDoc's
  "[source,python]" over "----" ... "----");
- what says nothing a reader reads is a blank line: Org's comment lines ("# ...", which Markdown would take
  for a title) and its other "#+KEYWORD:" lines, AsciiDoc's comments, attribute entries, block attribute
  lines ("[NOTE]"), anchors and the delimiters of quote, sidebar, example and table blocks;
- a list's item reads as Markdown's ("** nested": "  - nested");
- a link reads as its text (Org's "[[https://...][the docs]]", AsciiDoc's "https://...[the docs]").
The title is Org's "#+TITLE:" or AsciiDoc's "= Title", else the first heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.events import Document, Line
from engine.ingest.office import describe

ORG_SUFFIXES = (".org",)
ASCIIDOC_SUFFIXES = (".adoc", ".asciidoc")  # not .asc: a PGP signature's, more often
MARKUP_READER = "markup-2"  # a change to what these readers read gets a new name (extract.readers)

_ORG_HEADLINE = re.compile(r"^(\*+)[ \t]+(.*?)[ \t]*$")
_ORG_KEYWORD = re.compile(r"^[ \t]*#\+(\w+)(?:\[[^\]]*\])?:[ \t]*(.*)$", re.IGNORECASE)
_ORG_BEGIN = re.compile(r"^[ \t]*#\+begin_(\w+)[ \t]*(\S*)", re.IGNORECASE)
_ORG_END = re.compile(r"^[ \t]*#\+end_(\w+)", re.IGNORECASE)
_ORG_COMMENT = re.compile(r"^[ \t]*#(?:[ \t]|$)")
_ORG_LINK = re.compile(r"\[\[([^\]]+)\](?:\[([^\]]+)\])?\]")
_ORG_LITERAL = frozenset({"src", "example", "export"})  # read as a program's or a printout's lines
_ORG_DRAWER = re.compile(r"^[ \t]*:([\w-]+\+?):[ \t]*(.*)$")  # ":PROPERTIES:", ":NOTE: ...", ":END:"
_ORG_IDS = frozenset({"ID", "CUSTOM_ID"})

_ADOC_TITLE = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*$")
_ADOC_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|_{4,}|\*{4,}|={4,}|\+{4,}|\|={3,}|/{4,})[ \t]*$")
_ADOC_LITERAL = re.compile(r"^(-{4,}|\.{4,})$")  # listing and literal blocks: fenced
_ADOC_ATTRIBUTE = re.compile(r"^:!?[\w-]+!?:(?:[ \t].*)?$")  # ":toc: left"
_ADOC_BLOCK_ATTRIBUTES = re.compile(r"^\[[^\]]*\][ \t]*$")  # "[source,python]", "[NOTE]", "[[anchor]]"
_ADOC_SOURCE = re.compile(r"^\[(?:source|listing)?,?[ \t]*([\w+#-]*)")
_ADOC_DIRECTIVE = re.compile(r"^(?:include|ifdef|ifndef|ifeval|endif)::")
_ADOC_ITEM = re.compile(r"^[ \t]*(\*{1,5}|\.{1,5}|-)[ \t]+(?=\S)")  # "* a", "** nested", ". first"
_ADOC_LINK = re.compile(r"\b(?:link:)?((?:https?|ftp|mailto):[^\s\[]+|link:[^\s\[]+)\[([^\]]*)\]")


def _first_title(lines: list[Line]) -> str:
    return next((line.text.lstrip("# ") for line in lines if line.text.startswith("#")), "")


@dataclass(frozen=True)
class OrgExtractor:
    """An Emacs Org file, read as Markdown line for line (module doc)."""

    kind: str = "org"

    def extract(self, path: Path, data: bytes) -> Document:
        from engine.ingest.extract import decode_text, split_lines

        out: list[Line] = []
        title = ""
        block = ""  # the literal block being read ("src", "example"), "" outside one
        for number, text in enumerate(split_lines(decode_text(data)), 1):
            if block:
                end = _ORG_END.match(text)
                if end and end.group(1).lower() == block:
                    out.append(Line("```", number))
                    block = ""
                else:
                    out.append(Line(text, number))
                continue
            if begin := _ORG_BEGIN.match(text):  # a quote's, verse's or centred block's lines read as any
                kind = begin.group(1).lower()  # other's (a program may sit inside one): its marks are blank
                block = kind if kind in _ORG_LITERAL else ""
                language = begin.group(2) if kind == "src" else ""
                out.append(Line(f"```{language}" if block else "", number))
                continue
            if _ORG_END.match(text):
                out.append(Line("", number))
                continue
            if headline := _ORG_HEADLINE.match(text):
                level = min(len(headline.group(1)), 6)
                out.append(Line(f"{'#' * level} {_ORG_LINK.sub(_link, headline.group(2))}", number))
                continue
            if keyword := _ORG_KEYWORD.match(text):
                if keyword.group(1).lower() == "title" and not title:
                    title = keyword.group(2).strip()
                out.append(Line("", number))
                continue
            if _ORG_COMMENT.match(text):
                out.append(Line("", number))
                continue
            if drawer := _ORG_DRAWER.match(text):  # a property's value reads as "NOTE: ...", a drawer's
                key, value = drawer.group(1), drawer.group(2).strip()  # marks and ids as nothing
                shown = (
                    ""
                    if not value or key.upper() in _ORG_IDS
                    else f"{text[: drawer.start(1) - 1]}{key}: {value}"
                )
                out.append(Line(shown, number))
                continue
            out.append(Line(_ORG_LINK.sub(_link, text), number))
        return Document(tuple(out), kind="markdown", title=title or _first_title(out))


def _link(m: re.Match[str]) -> str:
    target, text = m.group(1), m.group(2)
    return text or target.removeprefix("file:")


@dataclass(frozen=True)
class AsciidocExtractor:
    """An AsciiDoc file, read as Markdown line for line (module doc)."""

    kind: str = "asciidoc"

    def extract(self, path: Path, data: bytes) -> Document:
        from engine.ingest.extract import decode_text, split_lines

        out: list[Line] = []
        title = ""
        fence = ""  # the literal block's delimiter being read, "" outside one
        comment = False
        language = ""
        opened = False  # inside a table
        headed = False  # the attributes over the next table name its first row the header
        table: list[str] | None = None  # a headed table's columns ([] until its first row)
        for number, text in enumerate(split_lines(decode_text(data)), 1):
            stripped = text.rstrip()
            if comment:
                comment = stripped != "////"
                out.append(Line("", number))
                continue
            if fence:
                if stripped == fence:
                    fence = ""
                    out.append(Line("```", number))
                else:
                    out.append(Line(text, number))
                continue
            if stripped == "////":
                comment = True
                out.append(Line("", number))
                continue
            if _ADOC_LITERAL.match(stripped):
                fence = stripped
                out.append(Line(f"```{language}", number))
                language = ""
                continue
            if stripped.startswith("|==="):  # a table opens or closes
                opened = not opened
                table = ([] if headed else None) if opened else None
                headed = False
                out.append(Line("", number))
                continue
            if opened and stripped.startswith("|"):
                cells = [cell.strip() for cell in stripped[1:].split("|")]
                if table is not None and not table:  # the header row: the columns' names
                    table.extend(cells)
                    out.append(Line("; ".join(cells), number))
                elif table:  # a row under the header, as a CSV file's reads ("City=Berlin; ...")
                    out.append(Line(describe(table, cells), number))
                else:
                    out.append(Line("| " + " | ".join(cells) + " |", number))
                continue
            if _ADOC_DELIMITER.match(stripped) or _ADOC_ATTRIBUTE.match(stripped):
                out.append(Line("", number))
                continue
            if _ADOC_BLOCK_ATTRIBUTES.match(stripped):
                source = _ADOC_SOURCE.match(stripped)
                language = source.group(1) if source and stripped.startswith(("[source", "[listing")) else ""
                headed = "header" in stripped  # options="header", %header
                out.append(Line("", number))
                continue
            if stripped.startswith("//") or _ADOC_DIRECTIVE.match(stripped):
                out.append(Line("", number))
                continue
            if heading := _ADOC_TITLE.match(stripped):
                level = len(heading.group(1))
                if level == 1 and not title:
                    title = heading.group(2)
                out.append(Line(f"{'#' * level} {heading.group(2)}", number))
                continue
            if item := _ADOC_ITEM.match(text):  # a list's item, nested by its marks, as Markdown writes one
                depth = len(item.group(1)) - 1 if item.group(1) != "-" else 0
                text = f"{'  ' * depth}- {text[item.end() :]}"
            out.append(Line(_ADOC_LINK.sub(lambda m: m.group(2) or m.group(1), text), number))
        return Document(tuple(out), kind="markdown", title=title or _first_title(out))
