"""The project's own evaluation sets (evalsets/*): each loads as Citeline's eval reads it, and each
answerable question's gold files and verbatim supporting passages hold where they say (skipped per set
until its fetch.py has brought the third-party corpus into docs/). A PDF's passages are verbatim in one page's
text as Citeline extracts it (PDFium), which is what a citation quotes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.eval.datasets import load
from engine.ingest.extract import extract

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
        for passage in query.passages:
            assert any(passage in text for text in texts), (query.id, passage)


def _texts(path: Path) -> list[str]:
    """A file's text; a PDF's, one text per page, and a notebook's (JSON), its lines as the engine
    extracts them."""
    if path.suffix.lower() not in (".pdf", ".ipynb"):
        return [path.read_text(encoding="utf-8")]
    pages: dict[int, list[str]] = {}
    for line in extract(path, path.read_bytes()).lines:
        pages.setdefault(line.page or 0, []).append(line.text)
    return ["\n".join(lines) for lines in pages.values()]
