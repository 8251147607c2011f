"""The vector index: HNSW recall against exact cosine, replace/remove, and its file kept in line with the
catalog across a close, a SIGKILL, a stale or corrupt file and a read-only snapshot (real DuckDB, real
usearch files in tmp dirs, the real embedder)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from engine.api import Engine
from engine.store.catalog import Catalog
from engine.store.vectors import VectorIndex
from engine.text import EMBEDDING_INPUT, embedded_chunk, embedding_text, hyphenated_words
from tests.conftest import REPO, write


def embeddings(n: int, dim: int = 384, seed: int = 0) -> npt.NDArray[np.float32]:
    """Unit vectors on a 20-dimensional subspace: like MiniLM's on real folders, the best match has a
    cosine of ~0.75, the 10th ~0.6, and the 10th and 11th differ by ~0.003 (uniform random vectors in
    384 dimensions have no near neighbours at all; tight clusters have only ties)."""
    basis = np.random.default_rng(99).standard_normal((20, dim)).astype(np.float32)
    vecs = np.random.default_rng(seed).standard_normal((n, 20)).astype(np.float32) @ basis
    unit: npt.NDArray[np.float32] = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    return unit


def test_top_10_matches_exact_cosine() -> None:
    vecs = embeddings(5000)
    ids = np.arange(10, 10 + len(vecs), dtype=np.int64) * 7
    index = VectorIndex(384, exact_below=0)  # through the graph, as above EXACT_BELOW vectors
    index.add(ids, vecs)
    queries = embeddings(100, seed=1)
    found = 0
    for q in queries:
        exact = set(ids[np.argsort(-(vecs @ q))[:10]].tolist())
        hits = index.search(q, 10)
        assert len(hits) == 10
        found += len(exact & {cid for cid, _ in hits})
    assert found / 1000 >= 0.98
    cid, score = index.search(vecs[123], 1)[0]
    assert cid == ids[123] and score == pytest.approx(1.0, abs=0.02)


def test_exact_search_is_brute_force_over_the_catalogs_floats(engine: Engine, small_folder: Path) -> None:
    """The reference the graph is measured against: every float32 vector compared, the matrix read again
    once the index changes."""
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    vectors = engine._open()[2]
    assert isinstance(vectors, VectorIndex)
    query = engine.embedder().embed(["who records the ships in the evening"])[0]
    vectors.exact = True
    ids, mat = engine.catalog.vectors_for_chunks()
    scores = mat @ query / np.linalg.norm(mat, axis=1)
    want = ids[np.argsort(-scores)[:3]].tolist()
    assert [cid for cid, _ in vectors.search(query, 3)] == want
    assert vectors.search(query, 1)[0][1] == pytest.approx(float(scores.max()), abs=1e-5)
    write(small_folder, "notes/new.md", "# Lighthouse\n\nThe lighthouse keeper logs every ship at dusk.\n")
    engine.run(engine.sync())
    hit = engine.search("who records the ships in the evening", mode="vector", k=1).hits[0]
    assert hit.path.endswith("new.md")
    in_memory = VectorIndex(384, exact=True)
    in_memory.add(ids, mat)
    assert [cid for cid, _ in in_memory.search(query, 3)] == want


def test_remove_and_re_add_replace_never_duplicate() -> None:
    vecs = embeddings(300)
    ids = np.arange(1, 301, dtype=np.int64)
    index = VectorIndex(384)
    index.add(ids, vecs)
    index.remove([5, 6])
    assert len(index) == 298
    assert all(cid not in (5, 6) for cid, _ in index.search(vecs[4], 20))
    index.add(np.array([7], dtype=np.int64), vecs[200:201])  # chunk 7 now holds another text's vector
    assert len(index) == 298 and index.ids().tolist().count(7) == 1
    assert index.search(vecs[200], 2)[0][0] in (7, 201)
    assert index.search(vecs[6], 1)[0][0] != 7
    index.reset(8)
    assert len(index) == 0 and index.search(np.ones(8, dtype=np.float32) / 8**0.5, 5) == []


def test_file_is_loaded_as_saved_and_reconciled_after_changes(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    before = engine.search("zebracorn pipeline", mode="vector", k=3).hits
    engine.close()
    path = engine.home / "index" / "vectors.usearch"
    record = json.loads((path.parent / "vectors.usearch.json").read_text())
    catalog = Catalog(path.parent / "catalog.duckdb")
    assert record["token"] == catalog.meta("vector_index") and record["generation"] == catalog.generation()
    want = catalog.vector_chunk_ids()
    catalog.close()
    reopened = Engine(engine.home)
    assert reopened._open()[2].ids().tolist() == want.tolist()
    after = reopened.search("zebracorn pipeline", mode="vector", k=3).hits
    assert [h.chunk_id for h in after] == [h.chunk_id for h in before]
    reopened.close()


KILLED = """
import sys
from engine.api import Engine
engine = Engine(sys.argv[1])
for _ in engine.sync():
    pass
print("synced", flush=True)
sys.stdin.read()
"""


def _child(script: str, home: Path) -> subprocess.Popen[str]:
    """`script` in another Python process over the data dir `home`, talking on its stdin and stdout."""
    return subprocess.Popen(
        [sys.executable, "-c", script, str(home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


@pytest.mark.slow
def test_a_sigkill_after_embedding_loses_no_vector(engine: Engine, small_folder: Path) -> None:
    """The file saved before the kill lacks the new file's vectors and still holds the deleted file's: the
    next open sees the catalog moved on and adds and removes the difference."""
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    engine.close()
    write(small_folder, "notes/new.md", "# Lighthouse\n\nThe lighthouse keeper logs every ship at dusk.\n")
    (small_folder / "docs" / "pto.md").unlink()
    proc = _child(KILLED, engine.home)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "synced"
    proc.kill()
    proc.communicate()  # reaps it and closes the pipes
    reopened = Engine(engine.home)
    ids = reopened._open()[2].ids()
    assert ids.tolist() == reopened.catalog.vector_chunk_ids().tolist()
    hit = reopened.search("who records the ships in the evening", mode="vector", k=1).hits[0]
    assert hit.path.endswith("new.md")
    assert all(not h.path.endswith("pto.md") for h in reopened.search("paid leave", mode="vector").hits)
    reopened.close()


def test_a_corrupt_or_foreign_file_is_rebuilt_from_the_catalog(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    engine.close()
    path = engine.home / "index" / "vectors.usearch"
    path.write_bytes(b"not an index" * 10)
    reopened = Engine(engine.home)
    assert len(reopened._open()[2]) == len(reopened.catalog.vector_chunk_ids()) > 0
    assert reopened.search("zebracorn", mode="vector", k=1).hits[0].path.endswith("deploy.md")
    reopened.close()
    other = VectorIndex(16)  # another embedder's width, saved where this index lives
    other.add(np.array([1], dtype=np.int64), np.full((1, 16), 0.25, dtype=np.float32))
    other._index.save(str(path))
    again = Engine(engine.home)
    assert len(again._open()[2]) == len(again.catalog.vector_chunk_ids())
    again.close()


HOLD = (
    "import sys\nfrom engine.api import Engine\n"
    "engine = Engine(sys.argv[1])\nengine.catalog\n"  # opens the index for writing and keeps it
    "print('holding', flush=True)\nsys.stdin.read()\n"
)


@pytest.mark.slow
def test_a_snapshot_reader_never_writes_the_file(engine: Engine, small_folder: Path) -> None:
    """A terminal search while another process indexes reads a snapshot: it brings the vectors in line in
    memory and leaves the writer's file alone."""
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    engine.close()
    writer = _child(HOLD, engine.home)
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "holding"
        path = engine.home / "index" / "vectors.usearch"
        record = path.parent / "vectors.usearch.json"
        record.write_text(json.dumps({**json.loads(record.read_text()), "token": "from another run"}))
        saved = path.stat().st_mtime_ns, record.read_text()
        reader = Engine(engine.home, snapshot_when_busy=True)
        assert reader.catalog.snapshot is not None
        assert reader.search("zebracorn", mode="vector", k=1).hits[0].path.endswith("deploy.md")
        reader.close()
        assert (path.stat().st_mtime_ns, record.read_text()) == saved
    finally:
        writer.communicate("")


def test_the_embedder_reads_a_chunks_words_not_its_markup() -> None:
    rst = (
        "Handling Unknown Fields\n=======================\n\n"
        "By default, :meth:`load <marshmallow.Schema.load>` raises a :exc:`~marshmallow.ValidationError`. "
        "See `the docs <https://example.org/x>`_ and [the guide](guide.md).\n\n"
        '.. code-block:: python\n\n<Card title="Setup">**Install** it</Card>\n'
    )
    assert embedding_text(rst) == (
        "Handling Unknown Fields By default, load raises a marshmallow.ValidationError. See the docs and "
        "the guide. python **Install** it"
    )
    assert (
        embedding_text("## Rollback\n\nRun `make rollback` <b>now</b>.")
        == "## Rollback Run `make rollback` now ."
    )
    # a typeset page's word hyphenated over a line end is read whole; a name's own hyphen is kept
    page = "to approximate the final appear-\nance of the journal (MN-\nRAS), see page 3-\n4"
    assert (
        embedding_text(page) == "to approximate the final appearance of the journal (MN- RAS), see page 3- 4"
    )


def test_a_word_hyphenated_over_a_line_end_is_found_whole(tmp_path: Path) -> None:
    from engine.store.lexical import LexicalIndex

    index = LexicalIndex(tmp_path / "lex")
    page = "install it using your distri-\nbution's package manager, or download it"
    index.apply(
        1, (), [(7, 1, str(tmp_path / "kb" / "guide.pdf"), "Introduction", page, str(tmp_path / "kb"))]
    )
    assert [cid for cid, _ in index.search("distribution", 5)] == [7]
    assert [cid for cid, _ in index.search("distri", 5)] == [7]  # the halves are still words
    assert hyphenated_words(page + "\nMN-\nRAS, 3-\n4, a-\nb") == ["distribution"]


def test_a_question_s_function_words_do_not_outweigh_its_rare_word(tmp_path: Path) -> None:
    """A long chunk full of "how", "do", "we", "which" and "with" does not outrank the one that holds
    the question's rare word; a quoted phrase keeps its function words, and a query of function words
    alone is still asked."""
    from engine.store.lexical import LexicalIndex, keyword_query

    index = LexicalIndex(tmp_path / "lex")
    root = str(tmp_path / "kb")
    chatter = (
        "How do we know which plants to water with the can, and how do we do it? We do what we can with "
        "which ever can is there, and we do it how we did it before, with the can we had. "
    ) * 3
    index.apply(
        1,
        (),
        [
            (1, 1, f"{root}/notes.md", "Watering", chatter, root),
            (2, 1, f"{root}/analysis.toml", "", "[bootstrap]\nn_boot = 5000\nseed = 20250121\n" * 4, root),
            (3, 1, f"{root}/end.md", "", "It was the end of the line for the old pump.", root),
        ],
    )
    assert index.search("how many bootstrap resamples do we draw, and with which seed?", 3)[0][0] == 2
    assert keyword_query('how do we reach "the end of the line"?') == 'reach "the end of the line"'
    assert keyword_query("how do we") == "how do we"
    assert (
        keyword_query("Is the IT team in the Human-in-the-Loop docs?")
        == "IT team Human in the Loop humanintheloop docs"
    )
    assert [cid for cid, _ in index.search("how do we", 3)][:1] == [1]


@pytest.mark.parametrize(
    "code",
    [
        "def first(xs: List<String>) -> bool:\n    return x<y and y>z",
        "Use `List<String>` or `std::vector<int>`; run `citeline ask <folder> <question>`",
        "<timeout>30</timeout>\n<maxRetries>5</maxRetries>",
        "return <UserProfile user={user} onSave={save} />;",
        "public static <T> void f(); template <typename T> #include <stdio.h>",
        "while i <n:\n    total += i\n    if total > limit:",
    ],
)
def test_the_embedder_reads_code_whole(code: str) -> None:
    """Generics, comparisons, XML keys, JSX with expressions, includes and placeholders are no markup."""
    assert embedding_text(code) == " ".join(code.split())


def test_vectors_embedded_from_older_input_are_read_again(engine: Engine, small_folder: Path) -> None:
    """An index whose vectors were read from the raw chunk text (before `embedding_text`) embeds every
    chunk again at the next sync, so that questions and chunks are read the same way."""
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    catalog = engine.catalog
    assert catalog.meta("embedding_input") == EMBEDDING_INPUT
    hashes = [str(r[0]) for r in catalog._cur().execute("SELECT DISTINCT text_hash FROM chunks").fetchall()]
    catalog.reset_vectors(384)  # an older version's index: every vector read from other input
    catalog.store_vectors(hashes, np.zeros((len(hashes), 384), dtype=np.float32))
    catalog.set_meta("embedding_input", "raw")
    engine.run(engine.sync())
    assert catalog.meta("embedding_input") == EMBEDDING_INPUT
    text, chash, path, heading = (
        catalog._cur()
        .execute(
            "SELECT c.text, c.text_hash, f.path, c.heading FROM chunks c JOIN files f ON f.id = c.file_id "
            "WHERE c.text LIKE '%#%' ORDER BY c.id LIMIT 1"
        )
        .fetchone()
    )
    stored = catalog._cur().execute("SELECT vec FROM vectors WHERE text_hash = ?", [chash]).fetchone()[0]
    read = embedded_chunk(text, path, catalog.folders()[0].path, heading)
    want = engine.embedder().embed([embedding_text(read)])[0]
    assert np.allclose(np.asarray(stored, dtype=np.float32), want, atol=1e-4)


def test_a_small_index_is_searched_exactly_and_ties_go_by_chunk_id() -> None:
    """Up to EXACT_BELOW vectors every one is compared; chunks holding one text (equal vectors) come in
    chunk-id order, whatever order the build inserted them in."""
    vecs = embeddings(3000, seed=3)
    ids = np.arange(1, 3001, dtype=np.int64)
    queries = embeddings(30, seed=4)
    for order in (ids, ids[::-1].copy()):
        index = VectorIndex(384)
        index.add(order, vecs[order - 1])
        for q in queries:
            want = ids[np.argsort(-(vecs @ q), kind="stable")[:10]].tolist()
            assert [cid for cid, _ in index.search(q, 10)] == want
    twins = VectorIndex(384)
    twin = np.repeat(vecs[:1], 5, axis=0)
    twins.add(np.array([50, 9, 31, 2, 77], dtype=np.int64), twin)
    twins.add(ids[100:400], vecs[100:400])
    assert [cid for cid, _ in twins.search(vecs[0], 3)] == [2, 9, 31]
    many = [VectorIndex(384), VectorIndex(384)]  # more equal vectors than a search fetches at first
    for index, keys in zip(many, (np.arange(1000, 1030), np.arange(1029, 999, -1)), strict=True):
        index.add(keys.astype(np.int64), np.repeat(vecs[:1], 30, axis=0))
        index.add(ids[100:400], vecs[100:400])
    assert [cid for cid, _ in many[0].search(vecs[0], 3)] == [cid for cid, _ in many[1].search(vecs[0], 3)]
    assert [cid for cid, _ in many[1].search(vecs[0], 3)] == [1000, 1001, 1002]
