"""Word 97-2003 documents (engine/ingest/legacy.py), read from a real one: tests/files/travel-policy.doc,
which LibreOffice wrote ("MS Word 97") from a Word file pandoc made of a short Markdown policy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.api import Engine
from engine.documents import read_document
from engine.errors import ExtractError
from engine.ingest.extract import extract, readers
from engine.ingest.legacy import DOC_READER, DOC_SUFFIXES
from engine.ingest.scanner import DOCUMENT_SUFFIXES
from tests.conftest import write

FIXTURE = Path(__file__).parent / "files" / "travel-policy.doc"
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


def test_word_97_files_are_documents_an_index_rereads_when_the_reader_changes() -> None:
    assert set(DOC_SUFFIXES) <= DOCUMENT_SUFFIXES
    assert all(readers()[suffix] == DOC_READER for suffix in DOC_SUFFIXES)


def test_an_answer_from_a_word_97_document_cites_the_row_the_preview_shows(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    shutil.copy(FIXTURE, root / "travel-policy.doc")
    for n, tool in enumerate(["laptop", "vpn", "editor", "printer", "badge", "calendar"]):
        write(root, f"notes/setup_{n}.md", f"# Setting up the {tool}\n\nSet up the {tool} on day one.\n")
    engine.add_folder(root)
    engine.run(engine.sync())
    answer = engine.ask("How many days ahead must flights be booked?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.start_line) == ("travel-policy.doc", 2)
    doc = read_document(cited.path)
    assert doc.format == "doc"
    assert [line.text for line in doc.lines if line.line == 2 and line.text] == [EXPECTED[1][1]]
