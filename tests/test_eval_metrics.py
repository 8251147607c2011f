"""Metrics: hand-computed cases, edge cases and Hypothesis properties."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.eval.metrics import (
    MIN_NGRAM_SHARE,
    NGRAM,
    dedupe,
    hit_at_k,
    mean,
    mrr_at_k,
    ndcg_at_k,
    passage_found,
    percentile,
    recall_at_k,
    roc_auc,
)

Metric = Callable[[Sequence[str], Mapping[str, int], int], float]
REL = {"a": 1, "b": 1, "c": 1}

# ------------------------------------------------------------------------------------ hand-computed


def test_dedupe_keeps_first_occurrence_order() -> None:
    assert dedupe(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]
    assert dedupe([]) == []


def test_recall_counts_share_of_relevant_in_top_k() -> None:
    ranked = ["x", "a", "y", "b", "c"]
    assert recall_at_k(ranked, REL, 1) == 0.0
    assert recall_at_k(ranked, REL, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, REL, 4) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, REL, 5) == 1.0


def test_recall_dedupes_before_cutting() -> None:
    # Three chunks of "x" take one rank, so "a" and "b" are ranks 2 and 3.
    assert recall_at_k(["x", "x", "x", "a", "b"], {"a": 1, "b": 1}, 3) == 1.0


def test_hit_is_one_when_any_relevant_in_top_k() -> None:
    assert hit_at_k(["x", "y", "a"], REL, 2) == 0.0
    assert hit_at_k(["x", "y", "a"], REL, 3) == 1.0


def test_mrr_is_reciprocal_rank_of_first_relevant() -> None:
    assert mrr_at_k(["a", "x"], REL) == 1.0
    assert mrr_at_k(["x", "y", "b", "a"], REL) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "x", "b"], REL) == 0.5  # duplicates collapse: "b" is rank 2
    assert mrr_at_k(["x", "y", "b"], REL, k=2) == 0.0


def test_ndcg_graded_exact_value_by_hand() -> None:
    # relevant a=2, b=1; ranking [b, x, a].
    # DCG  = 1/log2(2) + 0/log2(3) + 2/log2(4) = 1 + 0 + 1       = 2
    # IDCG = 2/log2(2) + 1/log2(3)             = 2 + ln2/ln3     = 2.6309297535714575
    # nDCG = 2 / 2.6309297535714575                              = 0.7601806...
    relevant = {"a": 2, "b": 1}
    assert ndcg_at_k(["b", "x", "a"], relevant, k=3) == pytest.approx(2 / (2 + math.log(2) / math.log(3)))
    assert ndcg_at_k(["b", "x", "a"], relevant, k=3) == pytest.approx(0.76018, abs=1e-5)
    # With gain 2^rel - 1 it would be (1 + 3/2) / (3 + 1/log2 3) = 0.6885: the BEIR convention is gain = rel.


def test_ndcg_binary_single_relevant_at_rank_three() -> None:
    # DCG = 1/log2(4) = 1/2, IDCG = 1.
    assert ndcg_at_k(["x", "y", "a"], {"a": 1}) == 0.5


def test_ndcg_ideal_is_cut_at_k() -> None:
    # Three relevant docs but k=1: the ideal holds only the best grade, so a perfect first hit scores 1.
    assert ndcg_at_k(["a"], {"a": 3, "b": 3, "c": 3}, k=1) == 1.0


def test_ndcg_ignores_zero_grades() -> None:
    assert ndcg_at_k(["z", "a"], {"z": 0, "a": 1}) == pytest.approx(1 / math.log2(3))


# ----------------------------------------------------------------------------------------- edge cases


@pytest.mark.parametrize("metric", [recall_at_k, hit_at_k, mrr_at_k, ndcg_at_k])
def test_empty_relevant_scores_zero(metric: Metric) -> None:
    assert metric(["a", "b"], {}, 5) == 0.0
    assert metric(["a", "b"], {"a": 0}, 5) == 0.0


@pytest.mark.parametrize("metric", [recall_at_k, hit_at_k, mrr_at_k, ndcg_at_k])
def test_k_larger_than_list_and_empty_ranking(metric: Metric) -> None:
    assert metric(["a"], {"a": 1}, 100) == 1.0
    assert metric([], {"a": 1}, 10) == 0.0


@pytest.mark.parametrize("metric", [recall_at_k, hit_at_k, mrr_at_k, ndcg_at_k])
def test_k_below_one_is_an_error(metric: Metric) -> None:
    with pytest.raises(ValueError, match="k must be"):
        metric(["a"], {"a": 1}, 0)


def test_duplicates_do_not_inflate_recall_or_ndcg() -> None:
    assert recall_at_k(["a", "a", "a"], {"a": 1, "b": 1}, 3) == 0.5
    assert ndcg_at_k(["a", "a"], {"a": 1}, k=2) == 1.0


def test_roc_auc_hand_computed_with_ties() -> None:
    # pairs: (3 vs 1) win, (3 vs 2) win, (2 vs 1) win, (2 vs 2) tie = 3.5 of 4
    assert roc_auc([3.0, 2.0], [1.0, 2.0]) == 0.875
    assert roc_auc([1.0], [2.0]) == 0.0
    assert roc_auc([1.0, 1.0], [1.0]) == 0.5


def test_roc_auc_needs_both_sides() -> None:
    with pytest.raises(ValueError):
        roc_auc([], [1.0])
    with pytest.raises(ValueError):
        roc_auc([1.0], [])


def test_percentile_interpolates_linearly() -> None:
    values = [40.0, 10.0, 30.0, 20.0]  # sorted 10, 20, 30, 40; h = 3p/100
    assert percentile(values, 0) == 10.0
    assert percentile(values, 100) == 40.0
    assert percentile(values, 50) == 25.0  # h = 1.5 -> 20 + 0.5 * 10
    assert percentile(values, 90) == pytest.approx(37.0)  # h = 2.7 -> 30 + 0.7 * 10
    assert percentile([7.0], 95) == 7.0


def test_percentile_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_mean() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 2.0, 4.0]) == pytest.approx(7 / 3)
    assert mean(x / 10 for x in range(1, 4)) == pytest.approx(0.2)


# ------------------------------------------------------------------------------------- passage_found


def test_passage_found_ignores_case_whitespace_and_markdown() -> None:
    chunk = "The `results` field uses a **reducer**\n(`operator.add` in Python) to collect outputs."
    passage = "the results field uses a reducer (operator.add in python)"
    assert passage_found(passage, ["unrelated", chunk])
    assert not passage_found(passage, ["unrelated"])


def test_passage_found_needs_whole_words() -> None:
    assert not passage_found("cat", ["concatenate"])
    assert passage_found("cat", ["a cat sat"])


def test_passage_found_fuzzy_share_of_ngrams() -> None:
    assert (NGRAM, MIN_NGRAM_SHARE) == (5, 0.8)
    words = [f"w{i}" for i in range(30)]  # 26 distinct 5-grams
    passage = " ".join(words)
    one_edit = " ".join([*words[:29], "changed"])  # loses 1 of 26 five-grams: 25/26 >= 0.8
    assert passage_found(passage, [one_edit])
    split = [" ".join(words[:15]), " ".join(words[15:])]  # across two chunks: 22 of 26 five-grams
    assert passage_found(passage, split)
    half = " ".join(words[:15])  # 11 of 26
    assert not passage_found(passage, [half])


def test_short_or_empty_passages_need_exact_words() -> None:
    assert not passage_found("one two three", ["one two four"])
    assert not passage_found("** `` **", ["anything"])


# ------------------------------------------------------------------------------------------ properties

keys = st.sampled_from([f"d{i}" for i in range(12)])
rankings = st.lists(keys, max_size=20)
relevance = st.dictionaries(keys, st.integers(min_value=0, max_value=3), max_size=8)
ks = st.integers(min_value=1, max_value=25)


@given(rankings, relevance, ks)
def test_metrics_lie_in_unit_interval(ranked: list[str], relevant: dict[str, int], k: int) -> None:
    for metric in (recall_at_k, hit_at_k, mrr_at_k, ndcg_at_k):
        assert 0.0 <= metric(ranked, relevant, k) <= 1.0


@given(rankings, relevance, ks)
def test_recall_and_hit_are_monotone_in_k(ranked: list[str], relevant: dict[str, int], k: int) -> None:
    assert recall_at_k(ranked, relevant, k) <= recall_at_k(ranked, relevant, k + 1)
    assert hit_at_k(ranked, relevant, k) <= hit_at_k(ranked, relevant, k + 1)


@given(relevance, ks, st.lists(keys, max_size=5))
def test_ndcg_is_one_for_the_ideal_ranking(relevant: dict[str, int], k: int, tail: list[str]) -> None:
    ideal = sorted((key for key, grade in relevant.items() if grade > 0), key=lambda key: -relevant[key])
    if ideal:
        assert ndcg_at_k([*ideal, *tail], relevant, k) == 1.0
        assert recall_at_k(ideal, relevant, max(k, len(ideal))) == 1.0


@given(rankings, relevance, ks)
def test_duplicates_never_change_scores(ranked: list[str], relevant: dict[str, int], k: int) -> None:
    doubled = [key for key in ranked for _ in range(2)]
    for metric in (recall_at_k, hit_at_k, mrr_at_k, ndcg_at_k):
        assert metric(doubled, relevant, k) == metric(ranked, relevant, k)


scores = st.lists(st.integers(min_value=-5, max_value=5).map(float), min_size=1, max_size=15)


@given(scores, scores)
def test_roc_auc_matches_pairwise_definition(pos: list[float], neg: list[float]) -> None:
    pairs = [(p > n) + 0.5 * (p == n) for p in pos for n in neg]
    assert roc_auc(pos, neg) == pytest.approx(sum(pairs) / len(pairs))


floats = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(floats, min_size=1, max_size=30), st.floats(min_value=0, max_value=100))
def test_percentile_matches_numpy(values: list[float], p: float) -> None:
    expected = float(np.percentile(values, p))
    assert percentile(values, p) == pytest.approx(expected, rel=1e-9, abs=1e-6)


@given(st.lists(st.text(max_size=12), max_size=6), st.integers(min_value=0, max_value=5))
def test_passage_from_a_text_is_found_in_it(texts: list[str], pick: int) -> None:
    if texts:
        text = texts[pick % len(texts)]
        words = text.split()
        if any(ch.isalnum() for ch in text):
            assert passage_found(" ".join(words), texts)


def test_answer_scoring_counts_a_conflict_notes_other_version_only_in_the_overall_precision(
    tmp_path: Path,
) -> None:
    from engine.eval.answers import score_answer, summarise
    from engine.eval.datasets import Query
    from engine.events import CONFLICT_NOTE, Answer, AnswerSentence, Citation

    new, old = tmp_path / "pto.md", tmp_path / "pto_2023.md"
    cite_new, cite_old = (
        Citation(1, str(new), 3, 3, None, "25 days"),
        Citation(2, str(old), 4, 4, None, "22 days"),
    )
    note = AnswerSentence(CONFLICT_NOTE + "pto.md is current.", (cite_new, cite_old))
    said = AnswerSentence("Seniors get 25 days.", (cite_new,))
    answer = Answer("How many days?", "…", False, "", (note, said))
    query = Query("q1", "How many days?", {"pto.md": 1})
    row = score_answer(query, answer, tmp_path)
    assert row["citation_precision"] == 0.5 and row["citation_precision_answer"] == 1.0
    summary = summarise([row])
    assert (
        summary["citation_precision"] == 0.5 and summary["citation_precision_without_conflict_notes"] == 1.0
    )


def test_answers_are_reported_per_kind_of_question_where_the_set_names_one(tmp_path: Path) -> None:
    """A set's `kind` (blind sets: absent topic, false premise) is read from its questions.jsonl and the
    refusals and citations are counted per kind, so a run shows "false premises refused 0/2" at once."""
    import json

    from engine.eval.answers import score_answer, summarise
    from engine.eval.datasets import load
    from engine.events import Answer, AnswerSentence, Citation

    folder = tmp_path / "set"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text("Retries default to three.\n", encoding="utf-8")
    rows = [
        {
            "id": "a1",
            "question": "How many retries?",
            "category": "what",
            "kind": "answerable",
            "gold_sources": ["guide.md"],
        },
        {
            "id": "u1",
            "question": "How do I export to XML?",
            "category": "unanswerable",
            "kind": "absent",
            "gold_sources": [],
        },
        {
            "id": "u2",
            "question": "Why are there five retries?",
            "category": "unanswerable",
            "kind": "false_premise",
            "gold_sources": [],
        },
        {
            "id": "u3",
            "question": "Why is the default ten?",
            "category": "unanswerable",
            "kind": "false_premise",
            "gold_sources": [],
        },
    ]
    (folder / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    dataset = load(folder, tmp_path / "work")
    assert [q.kind for q in dataset.queries] == ["answerable", "absent", "false_premise", "false_premise"]

    guide = str(dataset.corpus_dir / "guide.md")
    said = AnswerSentence(
        "Retries default to three.", (Citation(1, guide, 1, 1, None, "Retries default to three."),)
    )
    answered = Answer("q", "Retries default to three.", False, "", (said,))
    refused = Answer("q", "", True, "the sources found say too little", ())
    replies = {"a1": answered, "u1": refused, "u2": answered, "u3": refused}
    scored = [score_answer(q, replies[q.id], dataset.corpus_dir) for q in dataset.queries]
    assert summarise(scored)["by_kind"] == {
        "answerable what": "refused 0/1, a gold file cited 1/1",
        "unanswerable absent": "refused 1/1",
        "unanswerable false_premise": "refused 1/2",
    }
    # a set that says no more than answerable or not (SQuAD) gets no breakdown
    plain = [dict(r, kind="", category="answerable" if r["answerable"] else "unanswerable") for r in scored]
    assert "by_kind" not in summarise(plain)


def test_a_citation_is_at_its_lines_only_where_those_lines_hold_its_quote(tmp_path: Path) -> None:
    """`citeline eval` reports the share of citations whose lines hold their quote, read as the index
    reads the file (an HTML page's text, not its tags): the figure that showed HTML and notebook citations
    counted from a chunk's first line."""
    from engine.eval.answers import at_its_lines
    from engine.events import Citation

    page = tmp_path / "backups.html"
    page.write_text("<html><body>\n<div>\n<p>\nThe job runs <b>nightly</b>.\n</p>\n</div>\n</body></html>\n")
    quote = "The job runs nightly."
    assert at_its_lines(Citation(1, str(page), 4, 4, None, quote))
    assert not at_its_lines(Citation(1, str(page), 2, 3, None, quote))
    assert not at_its_lines(Citation(1, str(tmp_path / "gone.md"), 1, 1, None, quote))
    # a <pre> opens its code fence on its code's first line: the fence is markup apart from the code
    example = tmp_path / "routing.html"
    example.write_text('<p>It accepts integers:</p>\n<pre>Rule("/page/&lt;int:page&gt;")\n</pre>\n')
    shown = 'It accepts integers: ``` Rule("/page/<int:page>") ```'
    assert at_its_lines(Citation(1, str(example), 1, 2, None, shown))
