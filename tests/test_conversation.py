"""Conversations (issue 19): follow-ups searched as standalone questions, threads kept in the catalog,
exports, the CLI's --thread and `threads`, and the follow-up set's loader."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import duckdb
import pytest

from engine import conversation
from engine import conversation_store as store
from engine.api import Engine, Searched
from engine.cli import main
from engine.conversation import Passages, Turn, decide, has_referent, prefer, standalone, title_of
from engine.errors import Cancelled, CiteError
from engine.eval.followups import read_conversations, run_followups, set_names
from engine.events import Answer, AnswerSentence, Citation, Hit
from engine.store.catalog import MIGRATIONS, Catalog
from tests.conftest import REPO, SHARED_EVAL, write

PTO = (
    "# Paid time off\n\nSenior engineers accrue 25 days of paid leave per year.\n\n"
    "## Carryover\n\nUnused PTO days carry over into the next year, up to a limit of 5 days.\n"
)
TRAVEL = (
    "# Travel\n\nHow many bags can a traveller carry over the weight limit on a flight?\n"
    "Each traveller may carry over 2 bags above the limit, for a fee.\n"
)
DEPLOY = (
    "# Deploying\n\nWe deploy every Tuesday.\n\n## Rollback\n\nTo roll back a deploy, run make rollback.\n"
)


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    write(root, "hr/pto.md", PTO)
    write(root, "travel/bags.md", TRAVEL)
    write(root, "eng/deploy.md", DEPLOY)
    return root


@pytest.fixture
def indexed(engine: Engine, kb: Path) -> Engine:
    engine.add_folder(kb)
    engine.run(engine.sync())
    return engine


def ask(engine: Engine, question: str, thread: int | None = None) -> tuple[Searched, Answer, Turn]:
    return engine.ask_in_thread(question, thread, generator="extractive")


# ------------------------------------------------------------------------------------ pure functions


def hit(n: int, path: str, text: str = "", heading: str = "") -> Hit:
    return Hit(n, path, 1, 2, None, heading, text, 1.0 / n)


def turn_of(question: str, searched: str, cited: list[Hit]) -> Turn:
    sentences = tuple(
        AnswerSentence(h.text, (Citation(n, h.path, 1, 2, None, h.text),)) for n, h in enumerate(cited, 1)
    )
    answer = Answer(question, "…", False, sentences=sentences, evidence=tuple(cited))
    return Turn(1, 1, 1, question, searched, False, answer, datetime(2025, 1, 1))


def test_pointing_words_and_elliptical_openings_refer_back() -> None:
    assert has_referent("and how many can they carry over?")
    assert has_referent("What about contractors?")
    assert has_referent("Why was it paused?")
    assert not has_referent("What is the rule that applies to contractors?")  # a relative "that"
    assert not has_referent("How do I roll back a deploy?")


def test_the_standalone_question_carries_the_subject_its_sources_name_not_its_phrasing() -> None:
    first = "What typically causes GRAPH_RECURSION_LIMIT and how should you respond legitimately?"
    cited = [hit(1, "/d/GRAPH_RECURSION_LIMIT.mdx", "Raise the recursion limit in the config.", "Fix")]
    text = standalone("How do I raise it for one run?", turn_of(first, first, cited))
    carried = text.removeprefix("How do I raise it for one run? (").rstrip(")").split()
    assert "recursion" in carried and "legitimately" not in carried and "respond" not in carried
    assert "raise" not in carried  # the question's own words are not repeated


def test_a_refused_turn_carries_its_rarest_words() -> None:
    first = "How many PTO days do senior engineers get?"
    text = standalone("And managers?", turn_of(first, first, []))
    assert text.startswith("And managers? (") and "pto" in text.lower()


def test_a_question_the_thread_files_answer_as_well_as_the_index_is_a_follow_up() -> None:
    alone = [hit(1, "/kb/bags.md", "carry over two bags")]
    thread = Passages(["Unused PTO days carry over, up to 5 days."])
    assert decide("Can unused days carry over?", alone, thread, None).about_thread
    other = Passages(["We deploy every Tuesday."])
    judged = decide("How many bags can a traveller carry over the weight limit?", alone, other, None)
    assert not judged.follow_up and "new topic" in judged.reason


def test_a_question_whose_own_words_find_too_little_is_a_follow_up_when_the_thread_holds_some() -> None:
    alone = [hit(1, "/kb/bags.md", "travellers pay a fee")]
    thread = Passages(["Customers on the enterprise plan pay the data retention fee."])
    judged = decide("Can a customer be exempted?", alone, thread, None)
    assert judged.follow_up


def test_an_off_topic_question_is_not_made_a_follow_up_of_the_thread() -> None:
    """Carrying the old topic into a question the folders cannot answer would answer it from the old
    topic's files (seen: "What is the airspeed of an unladen swallow?" after a laptop-restore question
    was answered with restore passages); alone, the evidence gate refuses it."""
    alone = [hit(1, "/kb/pricing.md", "Team plan, up to 50 seats")]
    thread = Passages(["A typical laptop restore over the office network takes about 40 minutes."])
    judged = decide("What is the airspeed of an unladen swallow?", alone, thread, None)
    assert not judged.follow_up


def test_the_thread_files_best_chunks_move_forward_and_the_rest_keep_their_order() -> None:
    hits = [hit(1, "/a"), hit(2, "/b"), hit(3, "/c"), hit(4, "/pto"), hit(5, "/pto"), hit(6, "/pto")]
    ranked = [h.chunk_id for h in prefer(hits, ["/pto"], 6)]
    assert ranked[:2] == [4, 5]  # two chunks of the cited file at most
    assert ranked[2:] == [1, 2, 3, 6]


def test_a_long_first_question_is_cut_at_a_word_for_the_title() -> None:
    title = title_of("why " * 40)
    assert title.endswith("…") and len(title) <= conversation.TITLE_CHARS + 1 and "  " not in title


# ---------------------------------------------------------------------------------------- with models


@pytest.mark.models
@pytest.mark.slow
def test_a_follow_up_finds_the_thread_s_evidence_that_its_own_words_miss(indexed: Engine, kb: Path) -> None:
    pto = str((kb / "hr/pto.md").resolve())
    first, answer, saved = ask(indexed, "How many PTO days do senior engineers get?")
    assert not answer.refused and not first.follow_up
    alone = indexed.evidence("and how many can they carry over?")
    assert alone[0].path != pto  # its own words find the bags
    searched, answer, turn = ask(indexed, "and how many can they carry over?", saved.thread_id)
    assert searched.follow_up and searched.standalone != searched.question
    assert answer.evidence[0].path == pto and not answer.refused
    assert any("5 days" in s.text and s.citations[0].path == pto for s in answer.sentences)
    assert answer.question == "and how many can they carry over?" and turn.searched == searched.standalone


@pytest.mark.models
@pytest.mark.slow
def test_a_new_topic_in_a_thread_is_searched_on_its_own_words(indexed: Engine, kb: Path) -> None:
    _, _, saved = ask(indexed, "How many PTO days do senior engineers get?")
    searched, answer, _ = ask(indexed, "How do we roll back a deploy?", saved.thread_id)
    assert not searched.follow_up and searched.standalone == "How do we roll back a deploy?"
    assert searched.about == () and answer.evidence[0].path == str((kb / "eng/deploy.md").resolve())


@pytest.mark.models
@pytest.mark.slow
def test_threads_survive_a_restart_are_searched_renamed_and_deleted(
    indexed: Engine, citeline_home: Path
) -> None:
    _, first, saved = ask(indexed, "How many PTO days do senior engineers get?")
    _, second, _ = ask(indexed, "and how many can they carry over?", saved.thread_id)
    ask(indexed, "How do we roll back a deploy?")
    indexed.close()
    again = Engine(citeline_home)
    try:
        listed = again.threads()
        assert [t.turns for t in listed] == [1, 2]  # the latest continued first
        assert listed[1].title == "How many PTO days do senior engineers get?"
        turns = again.thread_turns(saved.thread_id)
        assert [t.answer for t in turns] == [first, second]  # stored as given, evidence and all
        assert [t.id for t in again.threads("CARRY over")] == [saved.thread_id]
        assert again.threads("carry deploy") == []
        assert again.rename_thread(saved.thread_id, "  Leave   ").title == "Leave"
        assert again.find_thread("leave") == again.find_thread(f"#{saved.thread_id}")
        with pytest.raises(CiteError):
            again.rename_thread(saved.thread_id, " ")
        again.delete_thread(saved.thread_id)
        assert [t.turns for t in again.threads()] == [1]
        with pytest.raises(CiteError, match="no thread"):
            again.thread_turns(saved.thread_id)
    finally:
        again.close()


@pytest.mark.models
@pytest.mark.slow
def test_an_old_citation_whose_file_changed_since_is_marked(indexed: Engine, kb: Path) -> None:
    pto = kb / "hr/pto.md"
    _, _, saved = ask(indexed, "How many PTO days do senior engineers get?")
    _, _, other = ask(indexed, "How do we roll back a deploy?")
    assert indexed.thread_turns(saved.thread_id)[0].changed == ()
    pto.write_text(PTO.replace("25 days", "27 days"), encoding="utf-8")
    assert indexed.thread_turns(saved.thread_id)[0].changed == (str(pto.resolve()),)  # not yet re-read
    indexed.run(indexed.sync())
    assert indexed.thread_turns(saved.thread_id)[0].changed == (str(pto.resolve()),)  # re-read: other text
    assert indexed.thread_turns(other.thread_id)[0].changed == ()
    (kb / "eng/deploy.md").unlink()
    assert indexed.thread_turns(other.thread_id)[0].changed == (str((kb / "eng/deploy.md").resolve()),)


@pytest.mark.models
@pytest.mark.slow
def test_a_thread_exports_to_markdown_with_places_and_quotes_and_to_json(indexed: Engine, kb: Path) -> None:
    _, answer, saved = ask(indexed, "How many PTO days do senior engineers get?")
    ask(indexed, "and how many can they carry over?", saved.thread_id)
    text = indexed.export_thread(saved.thread_id, "markdown")
    cite = answer.sentences[0].citations[0]
    assert text.startswith("# How many PTO days do senior engineers get?")
    assert f"`{cite.path}:{cite.start_line}" in text and f"  > {cite.quote}" in text
    assert "_searched: and how many can they carry over? (" in text
    data = json.loads(indexed.export_thread(saved.thread_id, "json"))
    assert [t["question"] for t in data["turns"]][1] == "and how many can they carry over?"
    assert data["turns"][0]["answer"]["sentences"][0]["citations"][0]["path"] == cite.path
    one = indexed.export_thread(saved.thread_id, "markdown", turn=saved.id)
    assert "carry" not in one and "## How many PTO days" in one


@pytest.mark.models
@pytest.mark.slow
def test_a_stopped_first_answer_leaves_no_empty_thread(indexed: Engine) -> None:
    stream: Iterator[object] = indexed.ask_thread_stream("How do we roll back a deploy?", None, "extractive")
    assert isinstance(next(stream), Searched)
    assert [t.turns for t in indexed.threads()] == [0]  # the thread exists while it is answered
    with pytest.raises(Cancelled):
        for _ in indexed.ask_thread_stream("How do we roll back?", None, "extractive", lambda: True):
            pass
    list(stream)
    assert [t.turns for t in indexed.threads()] == [1]


@pytest.mark.models
@pytest.mark.slow
def test_the_cli_asks_in_a_named_thread_and_lists_shows_and_exports_it(
    indexed: Engine, citeline_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    indexed.close()
    base = ["--data-dir", str(citeline_home)]
    extractive = ["--generator", "extractive"]
    assert (
        main([*base, "ask", "How many PTO days do senior engineers get?", "--thread", "Leave", *extractive])
        == 0
    )
    assert "(thread #1 'Leave', turn 1)" in capsys.readouterr().err
    main([*base, "ask", "and how many can they carry over?", "--thread", "leave", *extractive])
    assert "searched: and how many can they carry over? (" in capsys.readouterr().err
    assert main([*base, "threads"]) == 0
    assert " 2 turns  Leave" in capsys.readouterr().out
    main([*base, "threads", "--search", "roll back"])
    assert capsys.readouterr().out == "no threads with 'roll back'\n"
    main([*base, "threads", "export", "1", "--format", "json", "-o", str(tmp_path / "t.json")])
    assert json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["thread"]["title"] == "Leave"
    assert main([*base, "threads", "show", "nope"]) == 1
    assert "no thread 'nope'" in capsys.readouterr().err


# -------------------------------------------------------------------------------------- the follow-up set


def test_the_follow_up_set_skips_where_the_shared_sets_are_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = REPO / "evalsets" / "followups"
    assert run_followups(folder, shared=tmp_path / "nowhere", work_dir=tmp_path) is None
    monkeypatch.setenv("CITELINE_SHARED_EVAL", str(tmp_path / "nowhere"))
    assert main(["eval", str(folder), "--work-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("skipped: the labelled sets it asks about are not in ")


@pytest.mark.skipif(not SHARED_EVAL.is_dir(), reason="needs ../shared/eval")
def test_every_follow_up_names_files_of_its_set_and_every_shared_id_exists(tmp_path: Path) -> None:
    from engine.eval.datasets import load

    folder = REPO / "evalsets" / "followups"
    sets = {name: load(SHARED_EVAL / name, tmp_path / name) for name in set_names(folder)}
    conversations = read_conversations(folder, sets)
    assert len(conversations) >= 30 and len({c.id for c in conversations}) == len(conversations)
    for conv in conversations:
        assert len(conv.turns) >= 2 and not conv.turns[0].new_topic
        for turn in conv.turns:
            assert turn.gold and all((sets[conv.set_name].corpus_dir / g).is_file() for g in turn.gold)
            assert bool(turn.ask) != bool(turn.standalone)  # a shared question, or one written with its twin
    assert {c.part for c in conversations} == {"tune", "heldout"}


def test_a_catalog_of_the_previous_schema_gains_the_thread_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    for sql in MIGRATIONS[:2]:
        con.execute(sql)
    con.execute("INSERT INTO meta VALUES ('schema', '2')")
    con.close()
    catalog = Catalog(path)
    try:
        assert catalog.meta("schema") == str(len(MIGRATIONS))
        assert store.threads(catalog) == [] and store.create_thread(catalog, "a\nb") == 1
        assert store.find_thread(catalog, "A B") == store.thread(catalog, 1)
    finally:
        catalog.close()


def test_an_off_topic_question_is_not_about_the_thread_because_both_scores_are_near_zero() -> None:
    """The thread's files matching it "about as well as the index" means nothing when neither matches it
    at all: after a pricing question, the airspeed of a swallow is not a follow-up about pricing."""
    import numpy as np

    alone = [replace(hit(1, "/kb/restore.md", "A whole laptop restore takes 40 minutes."), vector_score=0.08)]
    qvec = np.array([1.0, 0.0], dtype=np.float32)
    thread = Passages(["Plan: Team; up to 50 seats; 6 euros per seat."], np.array([[0.07, 0.99]], np.float32))
    judged = decide("What is the airspeed of an unladen swallow?", alone, thread, None, qvec)
    assert not judged.follow_up and not judged.about_thread
