"""The project's own evaluation sets (evalsets/*): each loads as Citeline's eval reads it, and each
answerable question's gold files and verbatim supporting passages hold where they say (skipped per set
until its fetch.py has brought the third-party corpus into docs/). A PDF's passages are verbatim in one page's
text as Citeline extracts it (PDFium), which is what a citation quotes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.eval.datasets import load
from engine.ingest.extract import extract
from engine.ingest.mail import MAIL_SUFFIXES, is_mailbox
from engine.ingest.office import OFFICE_SUFFIXES

SETS = sorted(p.parent for p in (Path(__file__).resolve().parents[1] / "evalsets").glob("*/questions.jsonl"))


@pytest.mark.parametrize("folder", SETS, ids=[p.name for p in SETS])
def test_evalset_loads_and_its_passages_are_in_its_gold_files(folder: Path, tmp_path: Path) -> None:
    if not (folder / "docs").is_dir():
        pytest.skip(f"{folder.name}'s corpus is not fetched: python3 {folder / 'fetch.py'}")
    data = load(folder, tmp_path)
    ids = [q.id for q in data.queries]
    assert len(ids) == len(set(ids)) >= 40
    answerable = [q for q in data.queries if q.answerable]
    assert answerable and len(answerable) < len(data.queries)  # both kinds, as the targets need
    for query in data.queries:
        assert bool(query.relevant) == query.answerable, query.id
        texts = [text for key in query.relevant for text in _texts(data.corpus_dir / key)]
        mail = any(is_mailbox(key) or Path(key).suffix.lower() in MAIL_SUFFIXES for key in query.relevant)
        office = any(Path(key).suffix.lower() in _OFFICE for key in query.relevant)
        for passage in query.passages:
            said = " ".join(passage.split()) if mail else passage
            if office:  # a row's cells as a spreadsheet shows them, a date as the sheet or ISO 8601 writes it
                said = " ".join(passage.replace("; ", " ").split())
                assert any(s in text for text in texts for s in (said, _iso_dates(said))), (query.id, passage)
                continue
            flat = " ".join(said.split())  # a PDF's line breaks within a sentence
            assert any(said in text or flat in " ".join(text.split()) for text in texts), (query.id, passage)


# Office files (evalsets/office_practice): a passage is a paragraph's words, a slide's bullet, or a table's
# row as its cells read one after another ("Senior designer £68.00 £520.00"), which Citeline's lines hold
# as "Role=Senior designer; Hourly rate=£68.00; ..." or "| Senior designer | £68.00 |"
_OFFICE = frozenset((*OFFICE_SUFFIXES, ".docx", ".doc", ".xls", ".ppt"))
_RECORD_KEY = re.compile(r"(?:^|(?<=; ))[^=;\n]*=", re.MULTILINE)
_DAY_FIRST = re.compile(r"\b(\d{2})/(\d{2})/(\d{4})\b")


def _iso_dates(text: str) -> str:
    return _DAY_FIRST.sub(r"\3-\2-\1", text)


def _cells(text: str) -> str:
    text = _RECORD_KEY.sub(" ", text).replace("; ", " ").replace("|", " ")
    return " ".join(text.split())


def _texts(path: Path) -> list[str]:
    """A file's text; a PDF's, one text per page, and a notebook's (JSON), its lines as the engine
    extracts them; a mail's, one text per message, as a mail program shows it (decoded), its blank lines
    and runs of spaces as one space (a passage copied from a message reads across them)."""
    mail = is_mailbox(path) or path.suffix.lower() in MAIL_SUFFIXES
    office = path.suffix.lower() in _OFFICE
    if path.suffix.lower() not in (".pdf", ".ipynb") and not mail and not office:
        return [path.read_text(encoding="utf-8")]
    pages: dict[int, list[str]] = {}
    for line in extract(path, path.read_bytes()).lines:
        pages.setdefault(line.page or 0, []).append(line.text.lstrip("#- ") if office else line.text)
    texts = ["\n".join(lines) for lines in pages.values()]
    if office:
        return [_cells(text) for text in texts]
    return [" ".join(text.split()) for text in texts] if mail else texts


def test_a_set_converted_to_another_format_names_its_gold_files_anew(
    tmp_path: Path,
) -> None:
    """evalsets/formats.py: the Markdown files become (here) OpenDocument files under their own names, the
    rest is copied, and each gold source names the converted file, so the converted set loads and its
    gold files read back with the text they had."""
    import json
    import shutil
    import sys

    if shutil.which("pandoc") is None:
        pytest.skip("pandoc is not installed (Debian: apt-get install pandoc)")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "evalsets"))
    from formats import convert

    source = tmp_path / "set"
    (source / "docs" / "guide").mkdir(parents=True)
    (source / "docs" / "guide" / "ferry.md").write_text("# Ferry\n\nThe ferry leaves at seven.\n")
    (source / "docs" / "notes.txt").write_text("The pier is closed on Mondays.\n")
    records = [
        {"id": f"q{n}", "question": f"When does the ferry leave? ({n})", "gold_sources": ["guide/ferry.md"]}
        for n in range(3)
    ] + [{"id": "u1", "question": "Who built the pier?", "category": "unanswerable", "gold_sources": []}]
    (source / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "odt"
    assert convert(source, "odt", out) == {"guide/ferry.md": "guide/ferry.odt"}
    assert (out / "docs" / "notes.txt").read_text() == "The pier is closed on Mondays.\n"
    data = load(out, tmp_path / "work")
    assert [sorted(q.relevant) for q in data.queries if q.answerable] == [["guide/ferry.odt"]] * 3
    ferry = extract(out / "docs" / "guide" / "ferry.odt", (out / "docs" / "guide" / "ferry.odt").read_bytes())
    assert [line.text for line in ferry.lines if line.text] == ["# Ferry", "The ferry leaves at seven."]
    out = tmp_path / "adoc"  # a format whose files take another suffix than its name
    assert convert(source, "asciidoc", out) == {"guide/ferry.md": "guide/ferry.adoc"}
    adoc = out / "docs" / "guide" / "ferry.adoc"
    ferry = extract(adoc, adoc.read_bytes())
    # AsciiDoc's "== Ferry" is a section under the document's title ("= Title", here none), as "##" is
    assert [line.text for line in ferry.lines if line.text] == ["## Ferry", "The ferry leaves at seven."]
