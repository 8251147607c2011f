"""Rich Text Format (engine/ingest/rtf.py): what TextEdit, WordPad, Word and pandoc write, read as a Word
file's paragraphs, titles, lists, tables and programs; what a reader never sees left out."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from engine.api import Engine
from engine.documents import read_document
from engine.errors import ExtractError
from engine.events import Document
from engine.ingest.extract import extract, readers
from engine.ingest.rtf import RTF_READER, RTF_SUFFIXES
from engine.ingest.scanner import DOCUMENT_SUFFIXES
from tests.conftest import index_with_notes


def read(path: Path, rtf: str | bytes) -> Document:
    path.write_bytes(rtf.encode("ascii") if isinstance(rtf, str) else rtf)
    return extract(path, path.read_bytes())


def texts(doc: Document) -> list[str]:
    return [line.text for line in doc.lines if line.text]


# As Word writes it: a style sheet naming the headings, lists by \ls with the bullet in \listtext,
# a fixed-pitch font, a table, a field, a header, a picture, hidden text and a comment
WORD = r"""{\rtf1\ansi\ansicpg1252\deff0\deflang1033
{\fonttbl{\f0\froman\fcharset0\fprq2{\*\panose 02020603050405020304}Times New Roman;}
{\f1\fmodern\fcharset0\fprq1{\*\panose 02070309020205020404}Courier New;}{\f2\fnil\fcharset2 Symbol;}
{\f3\fswiss\fcharset204\fprq2 Arial Cyr;}}
{\colortbl;\red0\green0\blue0;}
{\stylesheet{\ql \widctlpar\f0\fs24 \snext0 Normal;}{\s1\ql \keepn\widctlpar\outlinelevel0\b\f0\fs32
\sbasedon0 \snext0 heading 1;}{\s2\ql \keepn\widctlpar\b\f0\fs28 \sbasedon0 \snext0 heading 2;}
{\*\cs10 \additive Default Paragraph Font;}}
{\info{\title Travel policy}{\author Dana}{\operator Dana}{\creatim\yr2024\mo3\dy1}}
{\header \pard\plain \f0 Company confidential\par}
\pard\plain \s1\ql\outlinelevel0\b\f0\fs32 Booking trips\par
\pard\plain \f0\fs24 Book flights through the portal at least 14 days ahead.{\v secret note}
 Economy class applies to flights under 6 hours.{\*\annotation {\pard\plain A comment nobody reads\par}}\par
\pard\plain \s2\ql\b\f0\fs28 Expenses\par
{\listtext\pard\plain \f2 \'b7\tab}\pard\plain \fi-360\li720\ls1\ilvl0\f0 Keep every receipt\par
{\listtext\pard\plain \f2 \'b7\tab}\pard\plain \fi-360\li1440\ls1\ilvl1\f0 Photos are fine\par
{\listtext\pard\plain \f0 2.\tab}\pard\plain \fi-360\li720\ls2\ilvl0\f0 Submit within 30 days\par
\pard\plain \f1\fs20 claim --trip 42\line claim --submit\par
\pard\plain \f0 See {\field{\*\fldinst {HYPERLINK "https://intranet/expenses"}}{\fldrslt {the expenses page}}}
 for rates.{\*\shppict{\pict\pngblip\picw10\pich10 89504e470d0a1a0a0000000d49484452}}\par
\trowd\cellx3000\cellx6000
\pard\intbl\f0 City\cell Daily rate\cell\row
\trowd\cellx3000\cellx6000
\pard\intbl\f0 Berlin\cell 180 EUR\cell\row
\pard\plain \f3 \'cf\'f0\'e8\'e2\'e5\'f2 {\f0 caf\'e9}\par
}"""


def test_a_word_rtf_reads_its_titles_lists_program_table_and_text_as_word_shows_them(tmp_path: Path) -> None:
    doc = read(tmp_path / "policy.rtf", WORD)
    assert doc.title == "Travel policy"
    assert texts(doc) == [
        "# Booking trips",
        "Book flights through the portal at least 14 days ahead. "
        "Economy class applies to flights under 6 hours.",
        "## Expenses",
        "- Keep every receipt",
        "  - Photos are fine",
        "2. Submit within 30 days",
        "```",
        "claim --trip 42",
        "claim --submit",
        "```",
        "See the expenses page for rates.",
        "| City | Daily rate |",
        "| Berlin | 180 EUR |",
        "Привет café",  # \'hh in the font's code page (Cyrillic), then in the document's
    ]
    # each paragraph, item, row and program its own line, counted among the lines with text
    numbered = {line.text: line.line for line in doc.lines if line.text}
    assert numbered["# Booking trips"] == 1 and numbered["| Berlin | 180 EUR |"] == 10
    assert numbered["claim --trip 42"] == numbered["claim --submit"] == 7


def test_an_rtf_tables_header_row_names_its_columns_as_word_marks_it(tmp_path: Path) -> None:
    """Word writes \\trhdr in the definition of a row set to repeat atop each page: the table's header. Its
    first row is then followed by Markdown's separator, and the rows below read under its names; a table
    without the mark (WORD's above) is read row by row as it was."""
    marked = WORD.replace("\\trowd\\cellx3000", "\\trowd\\trhdr\\cellx3000", 1)
    said = [text for text in texts(read(tmp_path / "policy.rtf", marked)) if text.startswith("|")]
    assert said == ["| City | Daily rate |", "| --- | --- |", "| Berlin | 180 EUR |"]
    unmarked = [text for text in texts(read(tmp_path / "plain.rtf", WORD)) if text.startswith("|")]
    assert unmarked == ["| City | Daily rate |", "| Berlin | 180 EUR |"]


# As TextEdit writes it: a font table without groups, Menlo declared \fnil, a backslash before each
# line break ending a paragraph, and Unicode bullets with no fallback (\uc0)
TEXTEDIT = (
    "{\\rtf1\\ansi\\ansicpg1252\\cocoartf2639\n"
    "\\cocoatextscaling0\\cocoaplatform0{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;\\f1\\fnil\\fcharset0 "
    "Menlo-Regular;}\n"
    "{\\colortbl;\\red255\\green255\\blue255;}\n"
    "{\\*\\expandedcolortbl;;}\n"
    "{\\*\\listtable{\\list\\listtemplateid1\\listhybrid{\\listlevel\\levelnfc23{\\*\\levelmarker \\{disc\\}}"
    "{\\leveltext\\leveltemplateid1\\'01\\uc0\\u8226 ;}{\\levelnumbers;}}{\\listname ;}\\listid1}}\n"
    "\\paperw11900\\paperh16840\\margl1440\\margr1440\\vieww11520\\viewh8400\\viewkind0\n"
    "\\pard\\tx566\\pardirnatural\\partightenfactor0\n\n"
    "\\f0\\fs24 \\cf0 Groceries for Saturday\\\n"
    "\\pard\\tx220\\tx720\\li720\\fi-720\\pardirnatural\\partightenfactor0\\ls1\\ilvl0\\cf0 "
    "{\\listtext\t\\uc0\\u8226 \t}Oat milk\\\n"
    "{\\listtext\t\\uc0\\u8226 \t}Caf\\'e9 beans \\uc0\\u8212  the dark roast\\\n"
    "\\pard\\tx566\\pardirnatural\\partightenfactor0\n"
    "\\f1 \\cf0 ls -la ~/shopping\\\n"
    "\\f0 Ask Sam about the \\uc0\\u-10179 \\u-8704  emoji list.}"
)


def test_a_textedit_rtf_reads_its_paragraphs_bullets_and_monospaced_lines(tmp_path: Path) -> None:
    doc = read(tmp_path / "groceries.rtf", TEXTEDIT)
    assert texts(doc) == [
        "Groceries for Saturday",
        "- Oat milk",
        "- Café beans — the dark roast",
        "```",
        "ls -la ~/shopping",
        "```",
        "Ask Sam about the 😀 emoji list.",
    ]


# As pandoc writes it: headings by outline level, bullets and numbers drawn before a tab on a hanging
# indent, a footnote inside its paragraph
PANDOC = r"""{\rtf1\ansi\deff0{\fonttbl{\f0 \fswiss Helvetica;}{\f1 \fmodern Courier;}}
{\pard \ql \f0 \sa180 \li0 \fi0 \outlinelevel0 \b \fs36 Install\par}
{\pard \ql \f0 \sa180 \li0 \fi0 Run {\f1 pip install tool} then restart{\super\chftn}{\*\footnote
\chftn\~\plain\pard {\pard \ql \f0 \sa180 \li0 \fi0 Only on Windows.\par}
}.\par}
{\pard \ql \f0 \sa0 \li360 \fi-360 \bullet \tx360\tab fast\par}
{\pard \ql \f0 \sa0 \li720 \fi-360 \endash \tx360\tab very fast\par}
{\pard \ql \f0 \sa0 \li360 \fi-360 1.\tx360\tab first\par}
{\pard \ql \f0 \sa0 \li0 \fi0 \bullet  not an item: no hanging indent\par}
{
\trowd \trgaph120
\clbrdrb\brdrs\cellx4320\clbrdrb\brdrs\cellx8640
\trkeep\intbl
{
{{\pard\intbl \ql \f0 \sa0 \li0 \fi0 Key\par}
\cell}
{{\pard\intbl \ql \f0 \sa0 \li0 \fi0 Value\par}
\cell}
}
\intbl\row}
{\pard \ql \f0 \sa180 \li0 \fi0 After the table.\par}
}"""


def test_a_pandoc_rtf_reads_drawn_bullets_as_items_and_a_footnote_after_its_paragraph(tmp_path: Path) -> None:
    doc = read(tmp_path / "install.rtf", PANDOC)
    assert texts(doc) == [
        "# Install",
        "Run pip install tool then restart.",
        "Only on Windows.",
        "- fast",
        "  - very fast",
        "1. first",
        "• not an item: no hanging indent",
        "| Key | Value |",  # each cell once, though its paragraph ends inside a group of its own
        "After the table.",
    ]


def test_binary_data_and_code_pages_of_double_byte_fonts_are_read_as_written(tmp_path: Path) -> None:
    rtf = (
        b"{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0\\fnil\\fcharset128 MS Mincho;}}"
        b"\\pard\\f0 \\'82\\'a0\\'82\\'a2 and {\\*\\blipuid 00}{\\pict\\bin6 \x00}{\\}x} done\\par}"
    )
    assert texts(read(tmp_path / "jp.rtf", rtf)) == ["あい and done"]


def test_a_file_that_is_not_rtf_is_refused_and_a_hostile_one_read_in_bounded_time(tmp_path: Path) -> None:
    with pytest.raises(ExtractError, match="not Rich Text Format"):
        read(tmp_path / "fake.rtf", "just some text")
    # groups nested far deeper than any document, braces never closed, a backslash at the very end,
    # a \bin longer than the file: read, not a crash or a hang
    hostile = "{\\rtf1\\ansi " + "{" * 200_000 + "deep text\\par" + "{\\b more" * 1000 + "\\bin99999999 x\\"
    started = time.perf_counter()
    doc = read(tmp_path / "hostile.rtf", hostile)
    assert time.perf_counter() - started < 10
    assert texts(doc) == ["deep text", "more" * 1000]  # what the unclosed groups hold, read to the end
    # a \uN's fallback is skipped as \ucN says; a huge count skips at most 16 characters, not the rest
    doc = read(tmp_path / "uc.rtf", "{\\rtf1\\uc2 a\\u8364 EU and the rest\\par}")
    assert texts(doc) == ["a€ and the rest"]
    doc = read(tmp_path / "huge.rtf", "{\\rtf1\\uc999999 a\\u8364 0123456789abcdef and the rest\\par}")
    assert texts(doc) == ["a€ and the rest"]


def test_rtf_files_are_documents_the_scanner_reads_and_an_index_rereads_when_the_reader_changes() -> None:
    assert set(RTF_SUFFIXES) <= DOCUMENT_SUFFIXES
    assert all(readers()[suffix] == RTF_READER for suffix in RTF_SUFFIXES)


def test_an_rtf_answer_cites_the_paragraph_the_preview_shows_there(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    (root / "policy.rtf").write_text(WORD, encoding="ascii")
    index_with_notes(engine, root)
    answer = engine.ask("How many days ahead must flights be booked?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.start_line) == ("policy.rtf", 2)
    assert "14 days ahead" in answer.text
    doc = read_document(cited.path)
    assert doc.format == "rtf"
    shown = [line.text for line in doc.lines if line.line == 2 and line.text]
    assert shown and "at least 14 days ahead" in shown[0]


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc (Debian) writes the RTF of this test")
def test_what_pandoc_writes_from_markdown_reads_back_as_that_markdown(tmp_path: Path) -> None:
    source = tmp_path / "notes.md"
    source.write_text(
        "# Plan\n\nShip on *Friday*, “if” tests pass.\n\n- one\n- two\n\n```\nmake release\n```\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n",
        encoding="utf-8",
    )
    target = tmp_path / "notes.rtf"
    subprocess.run(["pandoc", "-s", str(source), "-o", str(target)], check=True, timeout=60)
    assert texts(extract(target, target.read_bytes())) == [
        "# Plan",
        "Ship on Friday, “if” tests pass.",
        "- one",
        "- two",
        "```",
        "make release",
        "```",
        "| a | b |",
        "| 1 | 2 |",
    ]
