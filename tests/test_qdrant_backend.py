"""The Qdrant stores behind the facade, in qdrant-client's local mode (the same API in process): a real
folder indexed through the real Engine gives the same hits and citations as the embedded stores, edits
and deletions reach the collections, keyword-only and hybrid both work, and a wrong setting, a missing
package or an unreachable server is a clear error."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from engine.api import Engine, Mode
from engine.errors import CiteError, MissingDependency
from engine.events import Answer
from engine.settings import Settings
from engine.text import stem
from tests.conftest import REPO

pytest.importorskip("qdrant_client")

from engine.store import sparse
from engine.store.qdrant import QdrantLexical, QdrantVectors, parse_backend

pytestmark = pytest.mark.models

QUERIES = (
    "how do I restore a single file",
    "what does a seat cost in 2025",
    "nightly snapshot window firmware",
    "enrolment codes expired",
    "install the agent on a new laptop",
    "retention days",
    "orbitkeep restore --at",
)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The demo folder shown on first run (docs, notes, code), copied so a test may edit it."""
    return Path(shutil.copytree(REPO / "assets" / "demo", tmp_path / "demo"))


def open_engine(home: Path, backend: str) -> Engine:
    return Engine(home, Settings(index_backend=backend, rerank="none", generator="extractive"))


@pytest.fixture
def pair(tmp_path: Path, demo: Path) -> Iterator[tuple[Engine, Engine]]:
    """The demo folder indexed twice: embedded stores, and Qdrant local mode in a folder."""
    engines = (
        open_engine(tmp_path / "embedded", "embedded"),
        open_engine(tmp_path / "qdrant", f"qdrant-local:{tmp_path / 'qdrant-data'}"),
    )
    for engine in engines:
        engine.add_folder(demo)
        engine.run(engine.sync())
    yield engines
    for engine in engines:
        engine.close()


def located(engine: Engine, query: str, mode: Mode) -> list[tuple[str, int, int]]:
    hits = engine.search(query, k=8, mode=mode).hits
    return [(h.path, h.start_line, h.end_line) for h in hits]


def cited(answer: Answer) -> list[list[tuple[str, int, int, str]]]:
    return [[(c.path, c.start_line, c.end_line, c.quote) for c in s.citations] for s in answer.sentences]


def stores(engine: Engine) -> tuple[QdrantLexical, QdrantVectors]:
    _catalog, lexical, vectors = engine._open()
    assert isinstance(lexical, QdrantLexical) and isinstance(vectors, QdrantVectors)
    return lexical, vectors


def test_same_hits_and_citations_as_the_embedded_stores(pair: tuple[Engine, Engine]) -> None:
    embedded, qdrant = pair
    for query in QUERIES:
        for mode in ("keyword", "vector", "hybrid"):
            assert located(qdrant, query, mode) == located(embedded, query, mode), (query, mode)
    for question in ("How long does a whole-laptop restore take?", "When does the offsite sync start?"):
        want, got = embedded.ask(question), qdrant.ask(question)
        assert not want.refused
        assert cited(got) == cited(want)
        assert got.text == want.text


def test_keyword_statistics_match_tantivy(pair: tuple[Engine, Engine]) -> None:
    """The sparse vectors carry BM25 as Tantivy scores it: same document frequencies (the answer gate's
    IDF weights) and scores within a few percent (Tantivy quantises lengths; avgdl here is a running
    mean)."""
    embedded, qdrant = pair
    for word in ("restore", "restores", "laptop", "firmware", "zzzunknown"):
        term = stem(word)  # the engine counts a question's terms, stems as text.stem writes them
        assert qdrant.doc_freq(term) == embedded.doc_freq(term), word
        assert (embedded.doc_freq(term)[0] > 0) == (word != "zzzunknown"), word
    for query in QUERIES:
        want = embedded.search(query, k=5, mode="keyword").hits
        got = qdrant.search(query, k=5, mode="keyword").hits
        for a, b in zip(want, got, strict=True):
            assert a.lexical_score == pytest.approx(b.lexical_score, rel=0.1), query


def test_edits_and_deletions_reach_the_collections(pair: tuple[Engine, Engine], demo: Path) -> None:
    _embedded, qdrant = pair
    notes = demo / "notes" / "2025-03-support-sync.txt"
    notes.write_text("Support sync, April.\nThe wombat escalation was closed.\n", encoding="utf-8")
    os.utime(notes, (time.time() + 5, time.time() + 5))
    (demo / "docs" / "pricing-2023.md").unlink()
    qdrant.run(qdrant.sync())
    catalog = qdrant.catalog
    lexical, vectors = stores(qdrant)
    assert lexical.num_docs() == catalog.count_chunks()
    assert vectors.ids().tolist() == catalog.vector_chunk_ids().tolist()
    for mode in ("keyword", "vector", "hybrid"):
        found = qdrant.search("enrolment codes expired offsite", k=20, mode=mode).hits
        assert not any("enrolment" in h.text for h in found), mode
        assert not any(h.path.endswith("pricing-2023.md") for h in found), mode
    assert Path(qdrant.search("wombat escalation", mode="keyword").hits[0].path) == notes
    qdrant.remove_folder(demo)
    assert lexical.num_docs() == 0 and len(vectors) == 0


def test_both_stores_read_a_path_from_its_folder_down_and_words_without_their_accents(
    pair: tuple[Engine, Engine], demo: Path
) -> None:
    """The folders above the indexed one are in no store's path terms (every file under /tmp/pytest-of-…
    matched "pytest"), and the folded words are in both: "Muller" finds a "Müller" stored decomposed."""
    note = demo / "notes" / "visitors.md"
    note.write_text(unicodedata.normalize("NFD", "# Visitors\n\nDr. Müller came from São Paulo.\n"), "utf-8")
    for engine in pair:
        engine.run(engine.sync())
        assert engine.search("pytest", mode="keyword").hits == []
        for query in ("Muller", "Müller", "Sao Paulo"):
            hits = engine.search(query, mode="keyword").hits
            assert [Path(h.path).name for h in hits][:1] == ["visitors.md"], query
        assert all(engine.knows(w) for w in ("Muller", "Müller", "Sao", "Paulo")), engine
        assert not engine.knows("Mahler") and not engine.knows("Pytest")
    embedded, qdrant = pair
    assert located(qdrant, "Muller", "keyword") == located(embedded, "Muller", "keyword")


def test_both_stores_search_a_file_the_question_names(pair: tuple[Engine, Engine]) -> None:
    """The third list (files named in the question): the same chunks from both keyword stores, ordered by
    the question's words, and a file's first chunks when none of them is in it."""
    embedded, qdrant = pair
    for query in ("what does `schedule.py` run at night", "what is in `CHANGELOG.md`", "`config.py` zzzqqq"):
        named = embedded.searcher().named(query)
        assert named, query
        assert qdrant.searcher().named(query) == named, query
        assert located(qdrant, query, "keyword") == located(embedded, query, "keyword"), query


def test_keyword_only_then_hybrid(tmp_path: Path, demo: Path) -> None:
    engine = open_engine(tmp_path / "home", ":memory:")
    engine.add_folder(demo)
    engine.run(engine.sync(embed=False))
    assert not engine.has_vectors()
    hits = engine.find("restore a single file", mode="auto").hits
    assert hits[0].path.endswith("restore.md") and all(h.vector_rank is None for h in hits)
    list(engine.embed_pending())
    assert engine.has_vectors()
    hit = engine.find("how do I get a deleted document back", mode="auto").hits[0]
    assert hit.path.endswith("restore.md") and hit.vector_rank is not None
    engine.close()


def test_payload_filters_by_folder_and_type(pair: tuple[Engine, Engine], demo: Path) -> None:
    _embedded, qdrant = pair
    lexical, vectors = stores(qdrant)
    rows = qdrant.catalog.chunk_rows([cid for cid, _ in lexical.search("restore orbitkeep", 50)])
    assert {Path(r.path).suffix for r in rows.values()} >= {".md", ".py"}
    only_py = lexical.search("restore orbitkeep", 50, types=["py"])
    assert only_py and all(rows[cid].path.endswith(".py") for cid, _ in only_py)
    assert lexical.search("restore orbitkeep", 50, folder=str(demo / "docs")) == []  # not a watched folder
    assert len(lexical.search("restore orbitkeep", 50, folder=str(demo))) == len(rows)
    query = qdrant.embedder().embed(["restoring a file"])[0]
    md = vectors.search(query, 10, types=[".MD"])
    assert md and all(qdrant.catalog.chunk_rows([cid])[cid].path.endswith(".md") for cid, _ in md)


def test_reopen_keeps_the_collections_and_repairs_a_lost_commit(tmp_path: Path, demo: Path) -> None:
    backend = f"qdrant-local:{tmp_path / 'q'}"
    first = open_engine(tmp_path / "home", backend)
    first.add_folder(demo)
    first.run(first.sync())
    ids = stores(first)[1].ids()
    first.close()
    second = open_engine(tmp_path / "home", backend)
    assert np.array_equal(stores(second)[1].ids(), ids)
    before = located(second, "enrolment codes expired", "keyword")
    assert before
    second.close()
    state_path = tmp_path / "home" / "index" / "qdrant.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    state["lexical"]["generation"] = -5  # a crash after the catalog commit, before the points' record
    state_path.write_text(json.dumps(state), encoding="utf-8")
    third = open_engine(tmp_path / "home", backend)
    assert located(third, "enrolment codes expired", "keyword") == before
    assert stores(third)[0].generation() == third.catalog.generation()
    third.close()


def test_settings_name_a_backend() -> None:
    assert parse_backend("embedded") is None
    assert parse_backend("qdrant://db.example:6333") is not None
    assert str(parse_backend("qdrant://db.example:6333")) == "http://db.example:6333"
    assert str(parse_backend("qdrants://db.example:6333/")) == "https://db.example:6333"
    assert str(parse_backend(":memory:")) == "qdrant-local::memory:"
    for bad in ("qdrant", "qdrant://", "qdrant-local:", "postgres://x", ""):
        with pytest.raises(ValidationError, match="unknown index backend"):
            Settings(index_backend=bad)


def test_missing_package_and_unreachable_server_are_clear_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = open_engine(tmp_path / "a", "qdrant://127.0.0.1:9")  # nothing listens on the discard port
    with pytest.raises(CiteError, match="Cannot reach the Qdrant server"):
        engine.status()
    engine.close()
    monkeypatch.setitem(sys.modules, "qdrant_client", None)
    engine = open_engine(tmp_path / "b", ":memory:")
    with pytest.raises(MissingDependency, match="qdrant-client"):
        engine.status()
    engine.close()


def test_sparse_bm25_follows_tantivy_lengths_and_phrases() -> None:
    """Field norms as Tantivy quantises them (exact to 40, then coarser), and a snake_case word is a
    phrase: its pairs, never its loose words, so a chunk that only has the words apart does not match."""
    assert [sparse.quantised(n) for n in (0, 40, 41, 42, 100, 10_000)] == [0, 40, 40, 42, 96, 9_240]
    by_field = sparse.analyzers()
    together = sparse.tokenise("/k/a.py", "", "call create_agent(model)", by_field)
    apart = sparse.tokenise("/k/b.md", "", "create the agent", by_field)
    assert ("creat", "agent") in together["body"].pairs and not apart["body"].pairs
    avgdl = dict.fromkeys(sparse.BOOSTS, 3.0)
    query = sparse.query_weights("create_agent")

    def score(doc: dict[int, float]) -> float:
        return sum(v * doc.get(i, 0.0) for i, v in query.items())

    assert score(sparse.doc_weights(together, avgdl)) > 0 == score(sparse.doc_weights(apart, avgdl))
    assert sparse.query_weights("Graph graph") != sparse.query_weights("graph graph")
    assert sparse.query_weights("graph graph") == sparse.query_weights("graph")
