"""Snippets and query terms: words are matched as the keyword index matches them, the window is centred on
the best cluster of matches and cut at word boundaries."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from engine.api import Engine, QueryTerms
from engine.retrieve.snippets import snippet
from engine.text import content_terms, question_terms
from tests.conftest import write


def marked(text: str) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", text)


def words_at(text: str, query: str) -> list[str]:
    return [text[s:e] for s, e in QueryTerms.of(query).spans(text)]


def test_word_forms_match_as_the_index_stems_them() -> None:
    text = "Deploys run nightly; deploying by hand is rare. The deployment studies an article of art."
    assert words_at(text, "deploy") == ["Deploys", "deploying", "deployment"]
    assert words_at(text, "study") == ["studies"]  # the stem of both is "studi"
    assert words_at(text, "art") == ["art"]  # not "article": a stem is not a prefix


def test_the_answer_checks_read_words_as_the_index_stems_them() -> None:
    """content_terms (the gate, the answer check, the generator's ranking) stem as the index does, so a
    term's document frequency is the index's count of it: "files" was "fil" to a suffix stripper of its
    own, a word no chunk holds, weighed as the rarest of the collection."""
    assert content_terms("files file updates updated") == ["file", "file", "updat", "updat"]
    for word in ("files", "configurations", "memories"):
        (term,) = content_terms(word)
        assert words_at(f"One {word} here.", term) == [word]  # the snippets' index terms agree
    # an irregular verb form is its verb: a passive question meets the active sentence that answers it
    assert content_terms("kept written took") == content_terms("keeps writes take")
    assert content_terms("left found") == ["left", "found"]  # as often another word: left as it is


def test_the_word_of_a_questions_form_is_not_one_of_its_terms() -> None:
    assert question_terms("How long are snapshots kept?") == ["snapshot", "keep"]
    assert question_terms("How many days of PTO do I get?") == content_terms("days of PTO do I get")
    assert question_terms("How often does the job run?") == ["job", "run"]
    # the same word elsewhere in a question is a term
    assert question_terms("Why is the long poll slow?") == ["long", "poll", "slow"]


def test_stop_words_and_single_letters_are_not_marked() -> None:
    assert words_at("the plan is a plan for x", "what is the plan for x") == ["plan", "plan"]
    assert not QueryTerms.of("what is the")


def test_camel_case_parts_match_as_the_code_field_splits_them() -> None:
    text = "def getUserName(): return HTTPServer(users)"
    assert words_at(text, "user server") == ["User", "Server", "users"]


def test_the_snippet_is_centred_on_the_match_and_cut_at_words() -> None:
    before = " ".join(f"alpha{n}" for n in range(80))
    after = " ".join(f"omega{n}" for n in range(80))
    out = snippet(f"{before} the rollback window closes at five {after}", "rollback", width=120)
    assert marked(out) == ["rollback"]
    assert out.startswith("…alpha") and out.endswith("…")
    middle = out.index("**rollback**") + len("**rollback**") // 2
    assert abs(middle - len(out) / 2) < 20  # centred, not cut before the word
    inner = out.strip("…").split(" ")
    assert re.fullmatch(r"alpha\d+", inner[0]) and re.fullmatch(r"omega\d+", inner[-1])  # whole words


def test_the_window_with_the_most_distinct_terms_wins() -> None:
    filler = " ".join(f"w{n}" for n in range(100))
    text = f"rollback rollback rollback {filler} the rollback is on friday {filler}"
    out = snippet(text, "rollback friday", width=80)
    assert marked(out) == ["rollback", "friday"]


def test_short_texts_are_whole_and_the_texts_own_marks_are_dropped() -> None:
    assert snippet("a **bold** Deploy <b>", "deploy") == "a bold **Deploy** <b>"
    assert snippet("nothing here", "deploy") == "nothing here"


def test_the_keyword_index_and_the_snippet_agree(engine: Engine, tmp_path: Path) -> None:
    write(tmp_path / "kb", "notes.md", "# Notes\n\nThe team studies deployments every week.\n")
    engine.add_folder(tmp_path / "kb")
    engine.run(engine.sync(embed=False))
    hit = engine.search("study deploy", mode="keyword").hits[0]
    assert marked(hit.snippet) == ["studies", "deployments"]


def _reference_best(matches: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """The quadratic definition: for each first match, the run that fits with it; the best by (distinct
    terms, matches), the earliest on ties."""
    best, key = (0, 0), (-1, -1)
    for first, (start, _end, _term) in enumerate(matches):
        run = [i for i in range(first, len(matches)) if matches[i][1] - start <= width] or [first]
        run = run[: next((n for n, i in enumerate(run) if i != first + n), len(run))]
        k = (len({matches[i][2] for i in run}), len(run))
        if k > key:
            best, key = (run[0], run[-1]), k
    return best


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(1, 25), st.sampled_from("abc")), max_size=40),
    st.integers(5, 80),
)
def test_best_cluster_matches_the_quadratic_definition(steps: list[tuple[int, int, str]], width: int) -> None:
    from engine.retrieve.snippets import _best_cluster

    matches, at = [], 0
    for gap, length, term in steps:
        at += gap
        matches.append((at, at + length, term))
        at += length
    if matches:
        assert _best_cluster(matches, width) == _reference_best(matches, width)
