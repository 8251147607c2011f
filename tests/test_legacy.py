"""Office 97-2003 files (engine/ingest/legacy.py), read from real ones LibreOffice wrote: a Word document
(tests/files/travel-policy.doc, from a Word file pandoc made of a short Markdown policy), an Excel workbook
(budget.xls, from an .xlsx openpyxl made: dates, percentages, a formula, 500 notes whose shared strings run
across CONTINUE records) and a PowerPoint deck (review.ppt, from a .pptx python-pptx made; its thumbnail
blanked)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.api import Engine, page_label
from engine.documents import read_document
from engine.errors import ExtractError
from engine.ingest.extract import extract, readers
from engine.ingest.legacy import DOC_READER, DOC_SUFFIXES, LEGACY_READER, PPT_SUFFIXES, XLS_SUFFIXES
from engine.ingest.scanner import DOCUMENT_SUFFIXES
from tests.conftest import index_with_notes

FILES = Path(__file__).parent / "files"
FIXTURE = FILES / "travel-policy.doc"
EXPECTED = [
    (1, "# Travel policy"),
    (
        2,
        "Book flights through the portal at least 14 days ahead. "
        "Economy class applies to flights under 6 hours.",
    ),
    (3, "## Expenses"),
    (4, "- Keep every receipt"),
    (5, "  - Photos are fine"),
    (6, "- Submit within 30 days"),
    (7, "| City | Daily rate |"),
    (8, "| Berlin | 180 EUR |"),
    (9, "| Lisbon | 150 EUR |"),
    (10, "See the expenses page for rates. Café “quotes” – dashes."),  # a link field's result, not its code
    (11, "### Approvals"),
    (12, "Your manager approves trips over £2,000."),
    (13, "Finance also signs off above £5,000."),  # the footnote, after the text
]


def numbered(path: Path) -> list[tuple[int, str]]:
    return [(line.line, line.text) for line in extract(path, path.read_bytes()).lines if line.text]


def test_a_word_97_document_reads_its_titles_lists_table_fields_and_footnotes(tmp_path: Path) -> None:
    assert numbered(FIXTURE) == EXPECTED
    renamed = tmp_path / "policy.docx"  # a .doc saved under a .docx name reads as what it is
    shutil.copy(FIXTURE, renamed)
    assert numbered(renamed) == EXPECTED


def test_a_word_97_paragraph_in_a_monospaced_face_is_a_program_fenced_as_it_is() -> None:
    """code-notes.doc (LibreOffice, from pandoc's Word file of a Markdown note with a code block): the
    code's runs take their font, Consolas, from character styles based on "Verbatim Char", which the font
    table declares variable-pitch; the paragraph is the program's lines, its line break and indentation
    kept, and a word of code inside a sentence leaves the sentence prose."""
    lines = [text for _, text in numbered(FILES / "code-notes.doc")]
    assert lines[lines.index("```") : lines.index("```") + 4] == ["```", "def f(x):", "    return x", "```"]
    assert "Some text with code and café “quotes”." in lines


def _word_stream_offset(data: bytes) -> int:
    import io

    import olefile

    ole = olefile.OleFileIO(io.BytesIO(data))
    entry = ole.direntries[ole._find(["WordDocument"])]
    assert entry.size >= 4096  # in the main stream's sectors, not the mini stream
    return int((entry.isectStart + 1) * ole.sectorsize)


@pytest.mark.parametrize(
    ("at", "value", "message"),
    [
        (0x0A, lambda b: b | 0x01, "is encrypted"),  # fEncrypted (bit 8 of the flags' little-endian word)
        (0x00, lambda b: 0x00, "older than Word 97"),  # not Word 97's identifier
    ],
)
def test_an_encrypted_or_older_document_is_refused_with_the_reason(
    tmp_path: Path, at: int, value: object, message: str
) -> None:
    data = bytearray(FIXTURE.read_bytes())
    where = _word_stream_offset(bytes(data)) + at + (1 if at == 0x0A else 0)
    data[where] = value(data[where])  # type: ignore[operator]
    path = tmp_path / "changed.doc"
    path.write_bytes(bytes(data))
    with pytest.raises(ExtractError, match=message):
        extract(path, path.read_bytes())


def test_a_cut_or_garbled_document_is_refused_not_a_crash(tmp_path: Path) -> None:
    data = FIXTURE.read_bytes()
    for name, broken in (("cut.doc", data[: len(data) // 3]), ("noise.doc", data[:512] + b"\xff" * 4096)):
        path = tmp_path / name
        path.write_bytes(broken)
        with pytest.raises(ExtractError):
            extract(path, path.read_bytes())


def test_97_2003_files_are_documents_an_index_rereads_when_their_reader_changes() -> None:
    assert {*DOC_SUFFIXES, *XLS_SUFFIXES, *PPT_SUFFIXES} <= DOCUMENT_SUFFIXES
    assert all(readers()[suffix] == DOC_READER for suffix in DOC_SUFFIXES)
    assert all(readers()[suffix] == LEGACY_READER for suffix in (*XLS_SUFFIXES, *PPT_SUFFIXES))


def test_an_answer_from_a_word_97_document_cites_the_row_the_preview_shows(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    shutil.copy(FIXTURE, root / "travel-policy.doc")
    index_with_notes(engine, root)
    answer = engine.ask("How many days ahead must flights be booked?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.start_line) == ("travel-policy.doc", 2)
    doc = read_document(cited.path)
    assert doc.format == "doc"
    assert [line.text for line in doc.lines if line.line == 2 and line.text] == [EXPECTED[1][1]]


def test_an_excel_97_workbook_reads_sheet_by_sheet_as_an_xlsx_does(tmp_path: Path) -> None:
    path = FILES / "budget.xls"
    doc = extract(path, path.read_bytes())
    assert doc.kind == "table" and doc.page_names == ("2025", "Contacts", "Notes")
    first = [(line.line, line.text) for line in doc.lines if line.page == 1]
    assert first == [
        (1, "Item; Amount; Due; Share; Paid"),
        (2, "Item=Rent; Amount=1200; Due=2025-01-31; Share=45%; Paid=TRUE"),  # a date, a percentage, a bool
        (3, "Item=Broadband; Amount=36.4; Due=2025-02-14; Share=5.0%; Paid=FALSE"),  # dd/mm/yyyy, 0.0%
        (4, "Item=Café “Brûlé”; Amount=12.5"),
        (6, "Item=Total; Amount=1236.4"),  # a formula, as last calculated
    ]
    notes = [line.text for line in doc.lines if line.page == 3][1:]
    words = ["Ωμέγα" if i % 3 == 0 else "plain" for i in range(1, 501)]
    assert notes == [
        f"Note=Note {i}: " + " ".join([words[i - 1]] * (1 + i % 7)) + " end" for i in range(1, 501)
    ]
    renamed = tmp_path / "budget.xlsx"  # a 97-2003 workbook saved under the newer name reads as what it is
    shutil.copy(path, renamed)
    assert extract(renamed, renamed.read_bytes()).lines == doc.lines


def test_a_powerpoint_97_deck_reads_slide_by_slide_with_its_notes(tmp_path: Path) -> None:
    path = FILES / "review.ppt"
    doc = extract(path, path.read_bytes())
    slides = {}
    for line in doc.lines:
        if line.text:
            slides.setdefault(line.page, []).append(line.text)
    assert slides == {
        1: ["# Quarterly review", "Acme, third quarter"],
        2: [
            "# Results",
            "Revenue grew 12% to 4.1 million euros",
            "Churn fell to 3%",
            "## Speaker notes",
            "Mention the Berlin office opening.",
        ],
        3: ["# Headcount", "Team", "People", "Sales", "14", "Support", "9", "Hiring paused"],
    }
    assert page_label(str(path), 2) == "slide 2"
    renamed = tmp_path / "review.pptx"
    shutil.copy(path, renamed)
    assert extract(renamed, renamed.read_bytes()).lines == doc.lines


@pytest.mark.parametrize("name", ["budget.xls", "review.ppt", "budget.xlsx", "review.pptx"])
def test_a_cut_workbook_or_deck_is_refused_not_a_crash(tmp_path: Path, name: str) -> None:
    source = FILES / (Path(name).stem + (".xls" if "budget" in name else ".ppt"))
    path = tmp_path / name
    path.write_bytes(source.read_bytes()[:1536])
    with pytest.raises(ExtractError, match="corrupt"):
        extract(path, path.read_bytes())


def test_an_answer_from_an_excel_97_workbook_cites_the_sheets_row(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    shutil.copy(FILES / "budget.xls", root / "budget.xls")
    index_with_notes(engine, root)
    answer = engine.ask("When is the rent due?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.page, cited.start_line) == ("budget.xls", 1, 2)
    assert "2025-01-31" in answer.text
    assert read_document(cited.path).format == "spreadsheet"


@pytest.mark.parametrize("name", ["travel-policy.doc", "budget.xls", "review.ppt"])
def test_a_damaged_compound_file_is_read_or_refused_never_hung_on(tmp_path: Path, name: str) -> None:
    """150 seeded damages of each fixture (bytes changed, the file cut): each is read or refused with an
    ExtractError within seconds. A damaged summary stream once held the .doc reader for minutes (olefile's
    property reader looping over a corrupt count): the title is no longer read from it."""
    import contextlib
    import random
    import time

    data = (FILES / name).read_bytes()
    rnd = random.Random(61)
    path = tmp_path / name
    for _ in range(150):
        damaged = bytearray(data)
        for _ in range(rnd.choice([1, 4, 16, 64])):
            damaged[rnd.randrange(len(damaged))] = rnd.randrange(256)
        if rnd.random() < 0.2:
            damaged = damaged[: rnd.randrange(len(damaged))]
        started = time.perf_counter()
        with contextlib.suppress(ExtractError):
            extract(path, bytes(damaged))
        assert time.perf_counter() - started < 5


def test_characters_beyond_the_basic_plane_keep_every_later_paragraphs_formatting() -> None:
    """emoji.doc: four emoji (two UTF-16 units each) before a heading and a table. Read one character for
    two units, every later paragraph's formatting was looked up four places early: the heading read as
    text and the table's second row lost a cell."""
    assert [text for _, text in numbered(FILES / "emoji.doc")] == [
        "# Title H",
        "Emoji 😀😀😀😀 here.",
        "x",
        "## Sub",
        "Body after sub.",
        "- Item 1",
        "- Item 2",
        "| a | b |",
        "| c | d |",
        "After table",
    ]


def test_a_filled_down_formulas_text_is_read_in_every_row() -> None:
    """formulas.xls: a text formula filled down is written once as a shared formula, whose record stands
    between the first cell's FORMULA and the STRING holding its result; that first result was dropped."""
    path = FILES / "formulas.xls"
    rows = [line.text for line in extract(path, path.read_bytes()).lines]
    assert rows[:3] == [
        "id; name; label",
        "id=2; name=item 2; label=item 2 (ours)",
        "id=3; name=item 3; label=item 3 (ours)",
    ]
