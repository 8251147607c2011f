"""Evaluation set loaders: the real sets in ../shared/eval (skipped when absent) and synthetic folders."""

from __future__ import annotations

import gzip
import json
import logging
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import CiteError
from engine.eval.datasets import Dataset, DatasetError, beir_doc_key, heldout_articles, load
from engine.eval.metrics import passage_found

EVAL = Path(__file__).resolve().parents[1].parent / "shared" / "eval"


def _real(name: str) -> Path:
    path = EVAL / name
    if not path.is_dir():
        pytest.skip(f"evaluation data not present: {path}")
    return path


def _assert_gold_files_exist(data: Dataset) -> None:
    for query in data.queries:
        for key in query.relevant:
            assert (data.corpus_dir / key).is_file(), (query.id, key)


# ------------------------------------------------------------------------------------------- Meridian


@pytest.fixture(scope="module")
def meridian(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return load(_real("meridian_simpleragsearch"), tmp_path_factory.mktemp("meridian"))


@pytest.mark.eval
def test_meridian_counts_and_categories(meridian: Dataset) -> None:
    assert meridian.kind == "meridian"
    assert meridian.corpus_dir.name == "knowledge_base"
    assert len(meridian.queries) == 40
    assert [q.id for q in meridian.queries] == [f"q{i:02d}" for i in range(1, 41)]
    counts = Counter(q.category for q in meridian.queries)
    assert counts == {"factual": 19, "procedural": 6, "contradictory": 5, "multi-doc": 5, "unanswerable": 5}
    assert all(q.text and q.answer for q in meridian.queries)


@pytest.mark.eval
def test_meridian_unanswerable_and_contradictory_items(meridian: Dataset) -> None:
    by_id = {q.id: q for q in meridian.queries}
    unanswerable = [q.id for q in meridian.queries if not q.answerable]
    assert unanswerable == ["q31", "q32", "q33", "q34", "q35"]
    assert all(by_id[qid].category == "unanswerable" and not by_id[qid].relevant for qid in unanswerable)
    assert sum(bool(q.relevant) for q in meridian.queries) == 35
    contradictory = [q for q in meridian.queries if q.category == "contradictory"]
    assert [q.id for q in contradictory] == ["q21", "q22", "q23", "q24", "q25"]
    assert all(len(q.relevant) >= 2 for q in contradictory)
    assert set(by_id["q21"].relevant) == {"docs/policies/pto_policy.md", "docs/policies/pto_policy_2023.md"}


@pytest.mark.eval
def test_meridian_gold_keys_are_files(meridian: Dataset) -> None:
    _assert_gold_files_exist(meridian)
    # SOURCE.md says 34 files (9 policies); the folder really holds 35 (10 in docs/policies).
    assert sum(1 for p in meridian.corpus_dir.rglob("*") if p.is_file()) == 35


# ------------------------------------------------------------------------------------------ LangChain


@pytest.fixture(scope="module")
def langchain(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return load(_real("langchain_langgraph_docs"), tmp_path_factory.mktemp("langchain"))


@pytest.mark.eval
def test_langchain_counts(langchain: Dataset) -> None:
    assert langchain.kind == "langchain"
    assert langchain.corpus_dir.name == "corpus"
    assert len(langchain.queries) == 102
    assert langchain.queries[0].id == "q001" and langchain.queries[-1].id == "q102"
    assert all(q.answerable and q.answer and q.passages for q in langchain.queries)
    assert Counter(len(q.relevant) for q in langchain.queries) == {1: 66, 2: 36}
    assert len({key for q in langchain.queries for key in q.relevant}) == 85
    assert Counter(q.category for q in langchain.queries) == {
        "factual": 18,
        "conceptual": 18,
        "procedural": 18,
        "comparative": 17,
        "multi_hop": 16,
        "edge_case": 15,
    }


@pytest.mark.eval
def test_langchain_gold_keys_are_files_and_passages_are_in_them(langchain: Dataset) -> None:
    _assert_gold_files_exist(langchain)
    for query in langchain.queries:
        texts = [(langchain.corpus_dir / key).read_text(encoding="utf-8") for key in query.relevant]
        assert all(passage_found(passage, texts) for passage in query.passages), query.id


# -------------------------------------------------------------------------------------------- SciFact


@pytest.fixture(scope="module")
def scifact_work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scifact")


@pytest.fixture(scope="module")
def scifact(scifact_work: Path) -> Dataset:
    return load(_real("beir_scifact"), scifact_work)


@pytest.mark.eval
def test_scifact_test_split(scifact: Dataset, scifact_work: Path) -> None:
    assert scifact.kind == "beir"
    assert scifact.corpus_dir == scifact_work / "corpus"
    assert len(scifact.queries) == 300
    assert sum(len(q.relevant) for q in scifact.queries) == 339
    assert all(set(q.relevant.values()) == {1} for q in scifact.queries)
    assert scifact.queries[0].id == "1"
    assert scifact.queries[0].text == "0-dimensional biomaterials show inductive properties."
    _assert_gold_files_exist(scifact)


@pytest.mark.eval
def test_scifact_corpus_files(scifact: Dataset) -> None:
    files = list(scifact.corpus_dir.iterdir())
    assert len(files) == 5183
    title, blank, text = (scifact.corpus_dir / "4983.txt").read_text(encoding="utf-8").split("\n", 2)
    assert title.startswith("Microstructural development of human newborn cerebral white matter")
    assert blank == ""
    assert text.startswith("Alterations of the architecture of cerebral white matter")


@pytest.mark.eval
def test_scifact_limit_and_reuse(scifact: Dataset, scifact_work: Path) -> None:
    probe = scifact.corpus_dir / "4983.txt"
    before = probe.stat().st_mtime_ns
    limited = load(_real("beir_scifact"), scifact_work, limit=10)
    assert limited.queries == scifact.queries[:10]
    assert probe.stat().st_mtime_ns == before  # the corpus was not written again


@pytest.mark.eval
def test_scifact_train_split(scifact: Dataset, scifact_work: Path) -> None:
    train = load(_real("beir_scifact"), scifact_work, split="train")
    assert len(train.queries) == 809
    assert sum(len(q.relevant) for q in train.queries) == 919


# ---------------------------------------------------------------------------------- synthetic BEIR


def _write_beir(folder: Path, corpus: list[dict[str, str]], qrels: str, gz: bool = False) -> None:
    (folder / "qrels").mkdir(parents=True)
    lines = "".join(json.dumps(doc) + "\n" for doc in corpus)
    if gz:
        with gzip.open(folder / "corpus.jsonl.gz", "wt", encoding="utf-8") as handle:
            handle.write(lines)
    else:
        (folder / "corpus.jsonl").write_text(lines, encoding="utf-8")
    queries = [
        {"_id": "q1", "text": "first?"},
        {"_id": "q2", "text": "second?"},
        {"_id": "q3", "text": "third?"},
    ]
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    (folder / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq3\td1\t1\n", encoding="utf-8")


CORPUS = [
    {"_id": "d1", "title": "Alpha", "text": "alpha text"},
    {"_id": "d2", "title": "", "text": "untitled text"},
    {"_id": "a/b:c", "title": "Odd id", "text": "odd"},
]
QRELS = "query-id\tcorpus-id\tscore\nq2\td2\t2\nq2\ta/b:c\t1\nq1\td1\t1\nq1\td2\t0\nq1\tgone\t1\n"


def test_synthetic_beir_nested_and_gzipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _write_beir(tmp_path / "data" / "mini", CORPUS, QRELS, gz=True)
    with caplog.at_level(logging.WARNING, logger="engine.eval.datasets"):
        data = load(tmp_path / "data", tmp_path / "work")
    assert "dropped 1 qrels pairs" in caplog.text  # "gone" is not in the corpus
    assert (data.name, data.kind, data.corpus_dir) == ("data", "beir", tmp_path / "work" / "corpus")
    assert [q.id for q in data.queries] == ["q2", "q1"]  # qrels order; q3 has no qrels in "test"
    assert data.queries[0].relevant == {"d2.txt": 2, "a%2Fb%3Ac.txt": 1}
    assert data.queries[1].relevant == {"d1.txt": 1}  # grade 0 is not relevant
    assert data.queries[0].text == "second?"
    assert sorted(p.name for p in data.corpus_dir.iterdir()) == ["a%2Fb%3Ac.txt", "d1.txt", "d2.txt"]
    assert (data.corpus_dir / "d1.txt").read_text(encoding="utf-8") == "Alpha\n\nalpha text\n"
    assert (data.corpus_dir / "d2.txt").read_text(encoding="utf-8") == "untitled text\n"
    _assert_gold_files_exist(data)


def test_synthetic_beir_split_and_limit(tmp_path: Path) -> None:
    _write_beir(tmp_path / "mini", CORPUS, QRELS)
    assert [q.id for q in load(tmp_path / "mini", tmp_path / "w", split="dev").queries] == ["q3"]
    assert [q.id for q in load(tmp_path / "mini", tmp_path / "w", limit=1).queries] == ["q2"]
    assert load(tmp_path / "mini", tmp_path / "w", limit=0).queries == ()
    with pytest.raises(DatasetError, match="no qrels for split 'train'") as err:
        load(tmp_path / "mini", tmp_path / "w", split="train")
    assert "dev" in err.value.hint and "test" in err.value.hint


def test_beir_corpus_rewritten_when_source_changes(tmp_path: Path) -> None:
    source = tmp_path / "mini"
    _write_beir(source, CORPUS, QRELS)
    load(source, tmp_path / "w")
    (tmp_path / "w" / "corpus" / "stray.txt").write_text("left over", encoding="utf-8")
    changed = [{"_id": "d1", "title": "Alpha 2", "text": "new"}, *CORPUS[1:]]
    (source / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in changed), encoding="utf-8")
    data = load(source, tmp_path / "w")
    assert (data.corpus_dir / "d1.txt").read_text(encoding="utf-8") == "Alpha 2\n\nnew\n"
    assert not (data.corpus_dir / "stray.txt").exists()


def test_beir_doc_key_escapes_only_unsafe_ids() -> None:
    assert beir_doc_key("31715818") == "31715818.txt"
    assert beir_doc_key("test-env_a.b~c") == "test-env_a.b~c.txt"
    assert beir_doc_key("a/b\\c:d") == "a%2Fb%5Cc%3Ad.txt"


def test_beir_query_missing_from_queries_file(tmp_path: Path) -> None:
    _write_beir(tmp_path / "mini", CORPUS, "query-id\tcorpus-id\tscore\nq9\td1\t1\n")
    with pytest.raises(DatasetError, match=r"not in .*queries\.jsonl: q9"):
        load(tmp_path / "mini", tmp_path / "w")


def test_several_beir_sets_are_ambiguous(tmp_path: Path) -> None:
    _write_beir(tmp_path / "one", CORPUS, QRELS)
    _write_beir(tmp_path / "two", CORPUS, QRELS)
    with pytest.raises(DatasetError, match="several BEIR sets"):
        load(tmp_path, tmp_path / "w")


# ------------------------------------------------------------------------ synthetic folder-based sets


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"content of {name}\n", encoding="utf-8")


def _write_questions(root: Path, records: list[dict[str, object]]) -> None:
    (root / "eval").mkdir(parents=True)
    text = "".join(json.dumps(rec) + "\n" for rec in records)
    (root / "eval" / "questions.jsonl").write_text(text, encoding="utf-8")


def _question(qid: str, sources: list[str], category: str = "factual") -> dict[str, object]:
    return {
        "id": qid,
        "question": f"{qid}?",
        "gold_answer": "yes",
        "gold_sources": sources,
        "category": category,
    }


def test_meridian_layout_resolves_partial_and_bare_names(tmp_path: Path) -> None:
    _touch(tmp_path / "knowledge_base", "docs/policies/pto.md", "code/README_api.md", "meetings/sync.txt")
    _write_questions(
        tmp_path,
        [
            _question("q1", ["docs/policies/pto.md", "README_api.md"]),
            _question("q2", ["policies/pto.md", "knowledge_base/meetings/sync.txt", "Meetings/SYNC.txt"]),
            _question("q3", [], "unanswerable"),
        ],
    )
    data = load(tmp_path, tmp_path / "w")
    assert (data.kind, data.corpus_dir) == ("meridian", tmp_path / "knowledge_base")
    q1, q2, q3 = data.queries
    assert q1.relevant == {"docs/policies/pto.md": 1, "code/README_api.md": 1}
    assert q2.relevant == {"docs/policies/pto.md": 1, "meetings/sync.txt": 1}
    assert (q1.answerable, q3.answerable, q3.category, q3.relevant) == (True, False, "unanswerable", {})
    assert not (tmp_path / "w").exists()  # folder-based sets are indexed in place
    assert q1.passages == ()


def test_meridian_layout_reads_supporting_passages(tmp_path: Path) -> None:
    _touch(tmp_path / "knowledge_base", "docs/pto.md")
    record = _question("q1", ["docs/pto.md"]) | {"supporting_passages": ["25 days a year", "accrued monthly"]}
    _write_questions(tmp_path, [record, _question("q2", [], "unanswerable")])
    q1, q2 = load(tmp_path, tmp_path / "w").queries
    assert (q1.passages, q2.passages) == (("25 days a year", "accrued monthly"), ())


def test_unresolved_gold_sources_are_listed(tmp_path: Path) -> None:
    _touch(tmp_path / "knowledge_base", "a/README.md", "b/README.md", "x.md")
    _write_questions(tmp_path, [_question("q1", ["x.md", "missing.md", "README.md", "ghost/x.md"])])
    with pytest.raises(DatasetError) as err:
        load(tmp_path, tmp_path / "w")
    assert isinstance(err.value, ValueError) and isinstance(err.value, CiteError)
    assert "2 gold source(s)" in str(err.value)
    assert "README.md, missing.md" in str(err.value)  # README.md is ambiguous; ghost/x.md resolves to x.md


def test_langchain_layout(tmp_path: Path) -> None:
    _touch(tmp_path / "corpus", "langgraph/overview.mdx", "concepts/memory.mdx")
    pairs = [
        {
            "question": "What is memory?",
            "answer": "State kept across turns.",
            "source_files": ["concepts/memory.mdx", "langgraph/overview.mdx"],
            "supporting_passages": ["content of concepts/memory.mdx"],
            "question_type": "multi_hop",
        }
    ]
    golden = {"metadata": {"total_pairs": 1}, "qa_pairs": pairs}
    (tmp_path / "golden_dataset.json").write_text(json.dumps(golden), encoding="utf-8")
    data = load(tmp_path, tmp_path / "w", limit=5)
    assert (data.kind, data.corpus_dir, len(data.queries)) == ("langchain", tmp_path / "corpus", 1)
    query = data.queries[0]
    assert (query.id, query.category, query.answer) == ("q001", "multi_hop", "State kept across turns.")
    assert query.relevant == {"concepts/memory.mdx": 1, "langgraph/overview.mdx": 1}
    assert query.passages == ("content of concepts/memory.mdx",)


def test_unknown_layout(tmp_path: Path) -> None:
    _touch(tmp_path, "notes.md")
    with pytest.raises(DatasetError, match="no evaluation set"):
        load(tmp_path, tmp_path / "w")
    with pytest.raises(DatasetError, match="not a folder"):
        load(tmp_path / "notes.md", tmp_path / "w")
    with pytest.raises(ValueError, match="limit"):
        load(tmp_path, tmp_path / "w", limit=-1)


# ---------------------------------------------------------------------------------------------- SQuAD


def _squad(folder: Path) -> Path:
    passages = [
        {"_id": f"{title}#p{n}", "title": title, "text": f"{title} paragraph {n} says {n * 7}."}
        for title in ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")
        for n in range(2)
    ]
    questions = [
        {
            "id": f"{p['_id']}-{kind}",
            "question": f"What does {p['title']} paragraph {p['_id'][-1]} say? ",
            "is_impossible": kind == "no",
            "answers": [] if kind == "no" else [p["text"].split()[-1].rstrip(".")],
            "plausible_answers": ["says"] if kind == "no" else [],
            "article_title": p["title"],
            "paragraph_id": p["_id"],
        }
        for p in passages
        for kind in ("yes", "no")
    ]
    folder.mkdir()
    (folder / "passages.jsonl").write_text("\n".join(json.dumps(p) for p in passages), encoding="utf-8")
    (folder / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in questions), encoding="utf-8")
    return folder


def test_squad_articles_become_files_and_splits_do_not_overlap(tmp_path: Path) -> None:
    source = _squad(tmp_path / "squad")
    train = load(source, tmp_path / "work", split="train")
    test = load(source, tmp_path / "work", split="test")
    every = load(source, tmp_path / "work", split="all")
    assert train.kind == test.kind == "squad"
    assert {q.group for q in test.queries} == heldout_articles(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"])
    assert len({q.group for q in test.queries}) == 3
    assert not {q.group for q in train.queries} & {q.group for q in test.queries}
    assert len(train.queries) + len(test.queries) == len(every.queries) == 20
    alpha = (every.corpus_dir / "Alpha.md").read_text(encoding="utf-8")
    assert alpha == "# Alpha\n\nAlpha paragraph 0 says 0.\n\nAlpha paragraph 1 says 7.\n"
    q = next(q for q in every.queries if q.id == "Alpha#p1-yes")
    assert q.answerable and q.answers == ("7",) and q.passages == ("Alpha paragraph 1 says 7.",)
    assert q.relevant == {"Alpha.md": 1} and q.text.endswith("say?")
    impossible = next(q for q in every.queries if q.id == "Alpha#p1-no")
    assert not impossible.answerable and impossible.plausible == ("says",) and not impossible.passages


def test_squad_unknown_split_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no split 'dev'"):
        load(_squad(tmp_path / "squad"), tmp_path / "work", split="dev")


@pytest.mark.eval
def test_real_squad_split_holds_three_articles_out(tmp_path: Path) -> None:
    path = EVAL.parent / "train" / "squad2_10_articles"
    if not path.is_dir():
        pytest.skip(f"training data not present: {path}")
    test = load(path, tmp_path, split="test")
    train = load(path, tmp_path, split="train")
    assert len({q.group for q in test.queries}) == 3 and len({q.group for q in train.queries}) == 7
    assert len(test.queries) + len(train.queries) == 3765
    assert len(list(test.corpus_dir.glob("*.md"))) == 10


def test_an_eval_index_chunked_by_another_chunker_is_built_afresh(tmp_path: Path) -> None:
    from engine.eval.runner import open_index

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "okapi.md").write_text("# Okapis\n\nThe okapi grazes at dawn.\n", encoding="utf-8")
    dataset = Dataset("tiny", corpus, (), "meridian")
    engine, _ = open_index(dataset, tmp_path / "work")
    try:
        assert not engine.chunked_otherwise() and engine.search("okapi grazes", k=1).hits
        with engine.catalog.write(chunks_changed=False) as con:
            con.execute("INSERT OR REPLACE INTO meta VALUES ('chunking', '1:200:approx')")
        assert engine.chunked_otherwise()
    finally:
        engine.close()
    marker = tmp_path / "work" / "home" / "left-by-the-old-index"
    marker.write_text("", encoding="utf-8")
    engine, _ = open_index(dataset, tmp_path / "work")
    try:
        # a new home, indexed from nothing: the old one's files are gone, the corpus is found again
        assert not marker.exists() and not engine.chunked_otherwise()
        assert [Path(h.path).name for h in engine.search("okapi grazes", k=1).hits] == ["okapi.md"]
    finally:
        engine.close()
