"""The engine end to end on real files, real DuckDB, real Tantivy and the real ONNX embedder."""

from __future__ import annotations

import json
import os
import time
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from engine.api import Engine
from engine.errors import Cancelled, CiteError
from engine.events import FileIndexed, FileRemoved, FileSkipped, IndexProgress
from engine.ingest.extract import readers
from engine.retrieve.search import EXACT_HOLDERS, exact_names, file_names_in
from engine.store.lexical import SCHEMA_VERSION
from engine.text import stem
from tests.conftest import TYPESET, printed_cell, typeset_pdf, write
from tests.conftest import notebook as saved


def paths(engine: Engine, query: str, mode: str = "keyword", k: int = 5) -> list[str]:
    return [Path(h.path).name for h in engine.search(query, k=k, mode=mode).hits]  # type: ignore[arg-type]


def test_add_sync_and_keyword_search(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    events = engine.run(engine.sync(embed=False))
    indexed = {Path(e.path).name for e in events if isinstance(e, FileIndexed)}
    assert {"deploy.md", "pto.md", "billing.py", "meeting.txt"} <= indexed
    skipped = {Path(e.path).name: e.reason for e in events if isinstance(e, FileSkipped)}
    assert skipped == {".env": "secret", "logo.bin": "binary"}
    assert paths(engine, "zebracorn")[0] == "deploy.md"
    hit = engine.search("zebracorn", mode="keyword").hits[0]
    lines = (small_folder / "docs/deploy.md").read_text().splitlines()
    assert "zebracorn" in "\n".join(lines[hit.start_line - 1 : hit.end_line])
    assert "**zebracorn**" in hit.snippet


def test_code_identifiers_are_split_and_kept_whole(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    assert paths(engine, "invoice total")[0] == "billing.py"
    assert paths(engine, "computeInvoiceTotal")[0] == "billing.py"
    hit = engine.search("PaymentGateway", mode="keyword").hits[0]
    assert "PaymentGateway" in hit.heading


def test_secrets_are_never_searchable(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    assert engine.search("hunter2 SECRET_TOKEN", mode="keyword").hits == []


def test_edit_delete_and_rename_reach_both_indexes(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    note = small_folder / "notes/meeting.txt"
    note.write_text("Meeting notes, April.\nThe wombat rollout slipped a week.\n", encoding="utf-8")
    os.utime(note, (time.time() + 5, time.time() + 5))
    engine.run(engine.sync())
    for mode in ("keyword", "vector", "hybrid"):
        texts = [h.text for h in engine.search("quokka migration", mode=mode, k=20).hits]  # type: ignore[arg-type]
        assert not any("quokka" in t for t in texts), mode
    assert paths(engine, "wombat rollout")[0] == "meeting.txt"
    (small_folder / "docs/pto.md").rename(small_folder / "docs/leave.md")
    note.unlink()
    events = engine.run(engine.sync())
    assert {Path(e.path).name for e in events if isinstance(e, FileRemoved)} == {"pto.md", "meeting.txt"}
    assert paths(engine, "paid leave per year")[0] == "leave.md"
    for mode in ("keyword", "vector", "hybrid"):
        found = {Path(h.path).name for h in engine.search("wombat rollout", mode=mode, k=20).hits}  # type: ignore[arg-type]
        assert "meeting.txt" not in found and "pto.md" not in found


def test_unchanged_files_are_not_reindexed(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    again = engine.run(engine.sync(embed=False))
    assert not [e for e in again if isinstance(e, FileIndexed)]
    note = small_folder / "notes/meeting.txt"
    os.utime(note, (time.time() + 9, time.time() + 9))  # touched, same bytes: no new chunks
    before = engine.search("quokka", mode="keyword").hits[0].chunk_id
    engine.run(engine.sync(embed=False))
    assert engine.search("quokka", mode="keyword").hits[0].chunk_id == before


def test_a_changed_pdf_reader_rereads_only_the_pdfs(engine: Engine, small_folder: Path) -> None:
    """An index whose PDFs another reader read (pypdf, before PDFium) reads them again on the next sync,
    and only them; and reads them as the page shows them, so a justified line's words are found."""
    (small_folder / "docs/guide.pdf").write_bytes(typeset_pdf(TYPESET))
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    assert paths(engine, "submitted electronically")[0] == "guide.pdf"
    assert not [e for e in engine.run(engine.sync(embed=False)) if isinstance(e, FileIndexed)]
    with engine.catalog.write(chunks_changed=False) as con:
        con.execute("INSERT OR REPLACE INTO meta VALUES ('reader.pdf', 'pypdf')")
    again = engine.run(engine.sync(embed=False))
    assert [Path(e.path).name for e in again if isinstance(e, FileIndexed)] == ["guide.pdf"]
    assert engine.catalog.meta("reader.pdf") == readers()[".pdf"] != "pypdf"
    assert not [e for e in engine.run(engine.sync(embed=False)) if isinstance(e, FileIndexed)]


def test_a_notebooks_printed_results_are_found_and_reread_when_its_reader_changes(
    engine: Engine, small_folder: Path
) -> None:
    """A notebook's saved output is searchable and cited at its own line of the .ipynb; an index whose
    notebooks an older reader read (cells only) reads them again, and only them."""
    notebook = small_folder / "analysis.ipynb"
    notebook.write_text(saved([printed_cell(["print(fit())"], "Wombat elasticity: 0.731")]))
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    hit = engine.search("wombat elasticity", mode="keyword").hits[0]
    assert Path(hit.path).name == "analysis.ipynb" and "0.731" in hit.text
    raw = notebook.read_text().splitlines()
    assert "Wombat elasticity" in "".join(raw[hit.start_line - 1 : hit.end_line])
    with engine.catalog.write(chunks_changed=False) as con:
        con.execute("INSERT OR REPLACE INTO meta VALUES ('reader.ipynb', 'cells-0')")
    again = engine.run(engine.sync(embed=False))
    assert [Path(e.path).name for e in again if isinstance(e, FileIndexed)] == ["analysis.ipynb"]
    assert engine.catalog.meta("reader.ipynb") == readers()[".ipynb"]


def test_vectors_fill_in_behind_and_hybrid_fuses(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    assert engine.status().vectors_fraction == 0.0
    progress = [e for e in engine.embed_pending() if isinstance(e, IndexProgress)]
    assert progress[-1].done == progress[-1].total > 0
    assert engine.status().vectors_fraction == 1.0
    # A paraphrase with no shared keyword is found by the vector list.
    assert paths(engine, "how many vacation days do staff get", mode="vector")[0] == "pto.md"
    hit = engine.search("zebracorn pipeline deploy", mode="hybrid").hits[0]
    assert hit.lexical_rank == 1 and hit.vector_rank is not None
    assert hit.score == pytest.approx(1 / 61 + 1 / (60 + hit.vector_rank))


def test_a_chunk_is_embedded_after_its_place_and_copies_elsewhere_each_so(
    engine: Engine, tmp_path: Path
) -> None:
    """The embedder reads a chunk after its file's path below the folder (text.embedded_chunk), so the
    same paragraph in three files is three inputs; the vector stored is the model's for that input."""
    root = tmp_path / "dups"
    text = "The same paragraph about lighthouse maintenance schedules.\n"
    for i in range(3):
        write(root, f"keepers/copy{i}.txt", text)
    engine.add_folder(root)
    engine.run(engine.sync())
    status = engine.status()
    assert status.chunks == 3 and status.vectors_total == 3
    hit = engine.search("lighthouse maintenance schedules", mode="vector").hits[0]
    (_, stored), *_ = zip(*engine.catalog.vectors_for_chunks([hit.chunk_id]), strict=True)
    name = Path(hit.path).name
    want = engine.embedder().embed([f"keepers/{name}\n{text.strip()}"])[0]
    assert float(np.dot(stored, want)) > 0.999
    plain = engine.embedder().embed([text.strip()])[0]
    assert float(np.dot(stored, plain)) < 0.99  # the place is read, not only the text


def test_bad_input_is_recorded_not_fatal(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "bad"
    write(root, "good.md", "# Fine\n\nThe heron index is healthy.\n")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (root / "latin.txt").write_bytes("Caf\xe9 cr\xe8me br\xfbl\xe9e recipe".encode("latin-1"))
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    status = engine.status()
    failed = {Path(r.path).name: r.error for r in status.skipped}
    assert "broken.pdf" in failed and "parse error" in (failed["broken.pdf"] or "")
    assert paths(engine, "heron") == ["good.md"]
    assert paths(engine, "crème brûlée")[0] == "latin.txt"
    # A failed file is not retried while it is unchanged.
    assert not [e for e in engine.run(engine.sync(embed=False)) if isinstance(e, FileSkipped)]


def test_remove_folder_empties_both_indexes(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    engine.remove_folder(small_folder)
    assert engine.status().chunks == 0
    for mode in ("keyword", "hybrid"):
        assert engine.search("zebracorn", mode=mode).hits == []  # type: ignore[arg-type]


def test_nested_folder_and_missing_folder_are_clear_errors(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    with pytest.raises(CiteError, match="inside the watched folder"):
        engine.add_folder(small_folder / "docs")
    with pytest.raises(CiteError, match="not a folder"):
        engine.add_folder(small_folder / "nope")


def test_lexical_index_rebuilt_after_crash_between_commits(citeline_home: Path, small_folder: Path) -> None:
    first = Engine(citeline_home)
    first.add_folder(small_folder)
    first.run(first.sync(embed=False))
    first.close()
    # Simulate a crash after the catalog commit but before the BM25 state was written.
    state = citeline_home / "index" / "bm25" / "state.json"
    state.write_text(json.dumps({"schema": SCHEMA_VERSION, "generation": -5}), encoding="utf-8")
    second = Engine(citeline_home)
    assert paths(second, "zebracorn")[0] == "deploy.md"
    second.close()


def test_the_folders_above_an_indexed_folder_are_not_searched(citeline_home: Path, tmp_path: Path) -> None:
    """A word in the folders above the indexed one ("/tmp/pytest-101/", "/home/ana/2024/") is in every
    file's path: it matched every file. The folder's own name and what is below it still count."""
    folder = tmp_path / "run-4242" / "garden"
    write(folder, "roses.md", "# Roses\n\nPrune them in March.\n")
    write(folder, "valves/log.md", "# Log\n\nValve PSV-4242 tested.\n")
    engine = Engine(citeline_home)
    engine.add_folder(folder)
    engine.run(engine.sync(embed=False))
    for _ in range(2):  # as indexed, then rebuilt from the catalog
        assert paths(engine, "4242") == ["log.md"]
        assert paths(engine, "run") == []
        assert not engine.mentions("run-4242") and engine.mentions("garden/valves")
        assert not engine.knows("run") and engine.knows("valves")
        assert paths(engine, "valves") == ["log.md"]
        assert sorted(paths(engine, "garden")) == ["log.md", "roses.md"]
        engine.close()
        state = citeline_home / "index" / "bm25" / "state.json"
        state.write_text(json.dumps({"schema": SCHEMA_VERSION, "generation": -5}), encoding="utf-8")
        engine = Engine(citeline_home)
    engine.close()


def test_a_word_is_found_with_or_without_its_accents(engine: Engine, tmp_path: Path) -> None:
    """The folded field: "Sao Paulo" finds "São Paulo", and a name stored decomposed (NFD, which the
    tokenizer splits at its marks) is found as typed, with its accents or without them."""
    root = tmp_path / "trips"
    write(root, "brazil.md", "# Brazil\n\nWe landed in São Paulo at dawn.\n")
    write(root, "letters.md", unicodedata.normalize("NFD", "# Letters\n\nA letter from Müller in Erdély.\n"))
    write(root, "plain.md", "# Plain\n\nNothing to see here.\n")
    # marks no precomposed letter holds: Russian stress, Yoruba tones (the tokenizer cuts the word there)
    write(root, "names.md", "# Names\n\nАлекса́ндр Пу́шкин met Fẹ́mi in Ẹ́kó.\n")
    write(root, "korean.md", "# Korean\n\n서울특별시 안내\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    assert paths(engine, "Sao Paulo")[0] == "brazil.md" and paths(engine, "São")[0] == "brazil.md"
    for query in ("Muller", "Müller", "Erdely", "Erdély"):
        assert paths(engine, query) == ["letters.md"], query
    assert paths(engine, "Mueller") == []
    for query in ("Пушкин", "Пу́шкин", "Femi", "Eko"):
        assert paths(engine, query) == ["names.md"], query
        assert engine.knows(query), query
    assert paths(engine, "서울특별시") == ["korean.md"] and engine.knows("서울특별시")


def test_a_question_term_counts_the_chunks_that_hold_it(engine: Engine, tmp_path: Path) -> None:
    """The IDF weights ask the index how many chunks hold a question's term, a stem as text.stem writes
    it. Snowball does not leave every stem alone ("releas" -> "relea", "pars" -> "par"), so the term is
    looked up as it is, not analysed again: a word every chunk uses must not weigh as one none holds."""
    root = tmp_path / "notes"
    write(root, "a.md", "# Releases\n\nWe release on Fridays and parse the changelog first.\n")
    write(root, "b.md", "# Parsing\n\nThe parser parses each release note.\n")
    write(root, "c.md", "# Other\n\nNothing about that here, and it doesn't parse.\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    # a contraction the analyser splits ("doesn", "t") and text.stem leaves whole is read as it reads it
    for word, held in (("released", 2), ("parsing", 3), ("fridays", 1), ("doesn't", 1), ("zebra", 0)):
        term = stem(word)
        assert engine.doc_freq(term) == (held, 3), (word, term)
    assert stem(stem("release")) != stem("release")  # what made this a bug: the stem, stemmed again


def test_a_file_the_question_names_is_searched(engine: Engine, tmp_path: Path) -> None:
    """A name written as code or as a file name brings that file's best chunks into the results even where
    other files hold more of the question's words; a plain word names no file, and a name four files
    share names none of them."""
    root = tmp_path / "guide"
    graph_words = "The graph recursion limit error: when the graph loops, fix the recursion limit error. "
    for n in range(3):
        write(root, f"loops{n}.md", f"# Loops {n}\n\n{graph_words * 4}\n")
    write(root, "errors/GRAPH_RECURSION_LIMIT.md", "# Too many steps\n\nThe run took too many steps.\n")
    write(root, "errors/about.md", "# About\n\nAn unrelated page.\n")
    write(root, "tests/test_api.py", "def test_ping():\n    assert ping() == 'pong'\n")
    write(root, "memory.md", "# Memory\n\nNotes on remembering.\n")
    for n in range(4):
        write(root, f"part{n}/index.md", f"# Part {n}\n\nSection {n}.\n")
    write(root, "notes.md", "# Notes\n\nThe graph recursion limit error and its fix; memory and the index.\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    question = (
        "What causes the `GRAPH_RECURSION_LIMIT` error in a graph and how do I fix the recursion limit?"
    )
    assert "GRAPH_RECURSION_LIMIT.md" in paths(engine, question, k=3)
    assert "test_api.py" in paths(engine, "what does test_api.py check about the graph error fix", k=3)
    searcher = engine.searcher()
    assert searcher.named("graph recursion limit error and memory") == []  # a plain word
    assert searcher.named("what is in `index.md`") == []  # four files share the name
    assert len(searcher.named("what is in `about.md`")) == 1
    assert file_names_in(
        "Does iterutils.chunked(src, 3) or `Runtime` use test_api.py, e.g. in docs/a_b.md?"
    ) == [
        ("iterutils.chunked", "iterutils", "chunked"),
        ("runtime",),
        ("test_api.py", "test_api"),
        ("e.g",),
        ("a_b.md",),
    ]
    # the most specific form that names a file: test_api.py is not docs/test_api.rst
    write(root, "docs/test_api.rst", "Test API\n========\n\nHow the graph error fix is tested.\n")
    engine.run(engine.sync(embed=False))
    hits = engine.search("what does test_api.py check about the graph error fix", k=10, mode="keyword").hits
    named = {Path(h.path).name: h.named_rank for h in hits if h.named_rank is not None}
    assert named == {"test_api.py": 1}
    assert {Path(h.path).name for h in hits if h.named_rank} == {"test_api.py"}
    assert len(searcher.named("what does `test_api` check")) == 2  # the name without its suffix: both


def test_a_rare_name_the_question_writes_brings_the_chunks_holding_it(engine: Engine, tmp_path: Path) -> None:
    """A student id, a setting or an error code the question writes, held by few chunks, is a list of its
    own in the fusion: the one long chunk holding it once comes first, although other chunks hold the
    question's common words many times (keyword ranking sums every word's weight). A figure with its unit
    is no name, and a name more than EXACT_HOLDERS chunks hold gives no list."""
    root = tmp_path / "module"
    rows = "\n".join(f"s25{n:05d},{40 + n % 50},{'PASS' if n % 7 else 'FAIL'}" for n in range(120))
    write(root, "marks.csv", "student_id,total,result\n" + rows.replace("s2500027,", "s2502027,") + "\n")
    for n in range(8):
        write(
            root,
            f"notes/meeting{n}.md",
            f"# Meeting {n}\n\nThe final mark last year: the pass mark is 40, and a final mark under the "
            f"pass mark last year is a fail. Did they pass? The final mark decides, as last year (cw{n}).\n",
        )
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    question = "what was s2502027's final mark last year and did they pass"
    hits = engine.search(question, k=10, mode="keyword").hits
    assert Path(hits[0].path).name == "marks.csv" and hits[0].exact_rank == 1
    assert [h.exact_rank for h in hits[1:]] == [None] * (len(hits) - 1)
    # ranked by the question's words alone the marks come below every meeting's notes
    lexical = sorted((h for h in hits if h.lexical_rank), key=lambda h: h.lexical_rank or 0)
    assert Path(lexical[0].path).name != "marks.csv"
    assert exact_names(f"{question} in 10MB, 4Gi or the 28th, by query_timeout_s and sendText") == [
        "s2502027",
        "query_timeout_s",
        "sendText",
    ]
    searcher = engine.searcher()
    assert searcher.exact("the final mark of s2599999", []) == []  # held nowhere
    for n in range(EXACT_HOLDERS):
        write(root, f"notes/more{n}.md", f"# More {n}\n\nSee s2502027 in part {n}.\n")
    engine.run(engine.sync(embed=False))
    assert engine.doc_freq("s2502027")[0] > EXACT_HOLDERS
    assert engine.searcher().exact(question, []) == []  # held by too many chunks to be read whole


def test_a_reader_of_a_keyword_index_another_version_wrote_is_told_so(
    engine: Engine, small_folder: Path
) -> None:
    """Only the writer rebuilds an index of another schema; a reader opening it before then gets a clear
    error, not tantivy's 'the schema does not match'."""
    from engine.store.lexical import LexicalIndex

    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    folder = engine.home / "index" / "bm25"
    engine.close()
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    (folder / "state.json").write_text(json.dumps({**state, "schema": SCHEMA_VERSION - 1}), encoding="utf-8")
    with pytest.raises(CiteError, match="another version"):
        LexicalIndex(folder, read_only=True)
    assert LexicalIndex(folder).generation() == -1  # the writer wipes it: rebuilt from the catalog


def test_search_filters(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    only_py = engine.search("invoice OR deploy", mode="keyword", extensions=["py"]).hits
    assert only_py and all(h.path.endswith(".py") for h in only_py)
    docs = engine.search("deploy OR invoice", mode="keyword", folder=str(small_folder / "docs")).hits
    assert docs and all("/docs/" in h.path for h in docs)


def test_user_input_never_raises(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync(embed=False))
    for query in ['"unbalanced', "a:b:c", "(((", "AND OR NOT", "*", "title:[a TO", "", "   ", "ü∂ƒ©"]:
        engine.search(query, mode="keyword")


def test_a_long_line_is_cut_so_no_chunk_is_truncated(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "long"
    write(root, "one-line.txt", " ".join(f"word{i}" for i in range(600)) + "\n")
    write(root, "short.md", "# Short\n\nA short note.\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    status = engine.status()
    assert status.truncated == 0 and status.chunks > 3
    hits = engine.search("word599", k=3, mode="keyword").hits
    assert hits and hits[0].start_line == hits[0].end_line == 1 and "word599" in hits[0].text


def test_schema_migrations_upgrade_an_old_catalog(tmp_path: Path) -> None:
    import duckdb

    from engine.store.catalog import MIGRATIONS, Catalog

    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    con.execute(MIGRATIONS[0])
    con.execute("INSERT INTO meta VALUES ('schema', '1')")
    con.close()
    catalog = Catalog(path)
    assert catalog.meta("schema") == str(len(MIGRATIONS))
    columns = [r[0] for r in catalog._cur().execute("DESCRIBE chunks").fetchall()]
    assert "tokens" in columns
    catalog.close()


def test_each_files_words_follow_its_edits_and_an_older_index_gains_them(tmp_path: Path) -> None:
    """The files' words (catalog.WORDS_OF) prove a name absent without a scan: they must follow every
    edit and deletion, and an index made before them gets them when it is opened."""
    root = tmp_path / "kb"
    write(root, "pkg/retry.py", "MAX_TRIES = 3\n\ndef backoff_delay(attempt):\n    return 2 ** attempt\n")
    write(root, "notes/café.md", "# Notes\n\nThe frobQueue pops the oldest job first.\n")
    home = tmp_path / "home"
    engine = Engine(home)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    assert engine.mentions("backoff_delay", whole=True) and not engine.mentions("backoff", whole=True)
    assert engine.mentions("backoff") and engine.mentions("retry.py") and engine.mentions("cafe", whole=True)
    assert engine.together("frobQueue", member="pops") is False  # "pops" is not defined as a member
    write(root, "pkg/retry.py", "MAX_TRIES = 3\n")
    (root / "notes" / "café.md").unlink()
    engine.run(engine.sync(embed=False))
    assert not engine.mentions("backoff_delay", whole=True) and not engine.mentions("backoff")
    assert engine.mentions("max_tries", whole=True) and not engine.mentions("frobqueue")
    engine.close()

    import duckdb

    con = duckdb.connect(str(home / "index" / "catalog.duckdb"))  # as an index made before the words
    con.execute("DROP TABLE words")
    con.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    con.close()
    engine = Engine(home)
    assert engine.mentions("max_tries", whole=True) and engine.mentions("retry.py")
    assert not engine.mentions("backoff_delay", whole=True)
    engine.close()

    # a Citeline from before the words writes chunks without them and moves only the generation: the
    # next to open the index makes them again, rather than take a name in those chunks as absent
    con = duckdb.connect(str(home / "index" / "catalog.duckdb"))
    con.execute(
        "INSERT INTO files(folder_id, path, status) SELECT id, path || '/old.py', 'indexed' FROM folders"
    )
    con.execute(
        "INSERT INTO chunks(file_id, ord, start_line, end_line, heading, text, text_hash) "
        "SELECT max(id), 0, 1, 1, '', 'def zzq_backoff_marker(): pass', 'h' FROM files"
    )
    con.execute("UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS VARCHAR) WHERE key = 'generation'")
    con.close()
    engine = Engine(home)
    assert engine.catalog.meta("words") == engine.catalog.meta("generation")  # made again on opening
    assert engine.mentions("zzq_backoff_marker", whole=True) and engine.mentions("max_tries", whole=True)
    engine.close()


def test_a_snapshot_whose_words_lag_scans_the_chunks(tmp_path: Path) -> None:
    """A terminal reading a snapshot (another process holds the index) of a catalog that a pre-words
    Citeline wrote to cannot make the words again: it scans the chunks, so a name only those chunks hold is
    found, and a name no chunk holds is still proven absent."""
    import subprocess
    import sys

    import duckdb

    from engine.store.catalog import Catalog

    root = tmp_path / "kb"
    write(root, "pkg/retry.py", "MAX_TRIES = 3\n\ndef backoff_delay(attempt):\n    return 2 ** attempt\n")
    home = tmp_path / "home"
    engine = Engine(home)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    engine.close()
    path = home / "index" / "catalog.duckdb"
    con = duckdb.connect(str(path))  # as a Citeline from before the words writes a chunk
    con.execute(
        "INSERT INTO files(folder_id, path, status) SELECT id, path || '/old.py', 'indexed' FROM folders"
    )
    con.execute(
        "INSERT INTO chunks(file_id, ord, start_line, end_line, heading, text, text_hash) "
        "SELECT max(id), 0, 1, 1, '', 'class ZzqQueue:\n    def zzq_pop(self): pass', 'h' FROM files"
    )
    con.execute("UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS VARCHAR) WHERE key = 'generation'")
    con.execute("CHECKPOINT")
    con.close()
    holder = subprocess.Popen(  # another process holds the catalog for writing
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('holding', "
         "flush=True); sys.stdin.read()", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with pytest.raises(CiteError):
            Catalog(path)
        catalog = Catalog(path, snapshot_when_busy=True)
        try:
            assert catalog.snapshot is not None and catalog.meta("words") != catalog.meta("generation")
            assert catalog.mentions("zzq_pop", whole=True) and catalog.mentions("backoff_delay", whole=True)
            assert not catalog.mentions("zzq_push", whole=True) and not catalog.mentions("frobqueue")
            assert catalog.holds_together(["zzqqueue"], "zzq_pop", r"def zzq_pop\b")
            assert not catalog.holds_together(["zzqqueue"], "backoff_delay", r"def backoff_delay\b")
        finally:
            catalog.close()
    finally:
        try:
            holder.communicate("", timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


def test_stored_vectors_are_as_wide_as_the_embedder(tmp_path: Path) -> None:
    import numpy as np

    from engine.store.catalog import Catalog

    catalog = Catalog(tmp_path / "catalog.duckdb")
    assert catalog.vector_dim() == 384  # migration 1 declares FLOAT[384]: existing indexes read as before
    catalog.store_vectors(["a"], np.ones((1, 384), dtype=np.float32))
    catalog.reset_vectors(8)  # an embedder of another width: its vectors replace the old ones
    catalog.store_vectors(["b"], np.ones((1, 8), dtype=np.float32))
    catalog.close()
    reopened = Catalog(tmp_path / "catalog.duckdb")
    assert reopened.vector_dim() == 8 and reopened.vectors_for_chunks()[1].shape == (0, 8)
    reopened.close()


def test_a_look_up_over_every_chunk_stops_at_its_budget_and_takes_the_thing_as_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.store import catalog as store
    from engine.text import fold

    catalog = store.Catalog(tmp_path / "catalog.duckdb")
    with catalog.write() as con:  # 300k chunks of one file, written as the catalog stores them
        con.execute("INSERT INTO files(folder_id, path, status) VALUES (1, '/kb/big.md', 'indexed')")
        con.execute(
            "INSERT INTO chunks(file_id, ord, start_line, end_line, heading, text, text_hash) "
            "SELECT 1, i, i, i, 'Notes', 'line ' || i || ' of the café notes, nothing else', 'h' || i "
            "FROM range(300000) t(i)"
        )
    catalog.rebuild_words()  # the file's words, as the migration that added them makes them
    # given the time, what is absent is absent and what is there is found
    monkeypatch.setattr(store, "SCAN_BUDGET_S", 60.0)
    assert not catalog.mentions("frobnicator") and catalog.mentions("CAFÉ NOTES")
    assert not catalog.mentions("else, nothing") and catalog.mentions("nothing else")
    assert not catalog.holds_together(["frobqueue"], "pop", r"\.pop\(")
    assert not catalog.holds_together(["notes"], "nothing", r"\.nothing\(")
    assert catalog.holds_together([fold("CAFÉ")], "notes", r"notes")
    # past the budget the scan is stopped at once, and a rule that refuses only on proof gets none
    monkeypatch.setattr(store, "SCAN_BUDGET_S", 0.005)
    started = time.perf_counter()
    assert catalog.mentions("else, nothing")
    assert catalog.holds_together(["notes"], "nothing", r"\.nothing\(")
    assert time.perf_counter() - started < 1.0  # each scan alone reads ~1 s here
    # a word no file holds is absent without a scan: in a budget that the scan alone (~1 s) would pass
    monkeypatch.setattr(store, "SCAN_BUDGET_S", 0.25)
    assert not catalog.mentions("frobnicator") and not catalog.mentions("frob_nicator", whole=True)
    assert not catalog.holds_together(["frobqueue"], "pop", r"\.pop\(")
    assert catalog.mentions("notes", whole=True) and catalog.mentions("ote")  # a word, and within one
    catalog.close()


def _catalog_and_lexical(engine: Engine) -> tuple[int, int]:
    catalog, lexical, _ = engine._open()
    return catalog.count_chunks(), lexical.num_docs()


def test_a_sync_cancelled_between_batches_leaves_both_indexes_in_step(engine: Engine, tmp_path: Path) -> None:
    """Batches are written in a thread while the next is parsed: a cancel must still leave every batch
    either written to the catalog and Tantivy both, or to neither, and the next sync finishes the job."""
    folder = tmp_path / "many"
    for i in range(300):  # several batches of 64 files
        write(folder, f"f{i:03d}.md", f"# Note {i}\n\nword{i} appears here, with some prose around it.\n")
    engine.add_folder(folder)
    indexed = 0

    def cancelled() -> bool:
        return indexed >= 70  # inside the second batch, while the first is being written

    job = engine.sync(embed=False, cancelled=cancelled)
    with pytest.raises(Cancelled):
        for event in job:
            indexed += isinstance(event, (FileIndexed, IndexProgress))
    chunks, docs = _catalog_and_lexical(engine)
    assert 0 < chunks < 300 and chunks == docs
    engine.run(engine.sync(embed=False))
    assert _catalog_and_lexical(engine) == (300, 300)
    assert paths(engine, "word299") == ["f299.md"]


def test_a_write_that_fails_in_the_writing_thread_stops_the_sync(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "many"
    for i in range(200):
        write(folder, f"f{i:03d}.md", f"# Note {i}\n\nword{i}\n")
    engine.add_folder(folder)
    _, lexical, _ = engine._open()
    calls = 0
    real = type(lexical).apply

    def apply(self: object, *args: object, **kwargs: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise OSError(5, "Input/output error")
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(lexical), "apply", apply)
    with pytest.raises(OSError, match="Input/output"):
        engine.run(engine.sync(embed=False))
    assert calls == 2  # nothing was written after the failed batch
