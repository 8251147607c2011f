"""The answer model's trainer: its measures and its synthetic false premises (no training here)."""

from __future__ import annotations

import math

import pytest

from models.answerability_trainer import figures, roc_auc, synthetic


def test_roc_auc_counts_ties_as_half() -> None:
    assert roc_auc([3.0, 2.0], [1.0, 0.0]) == 1.0
    assert roc_auc([0.0], [1.0]) == 0.0
    assert roc_auc([1.0], [1.0]) == 0.5
    assert roc_auc([2.0, 1.0], [1.0, 0.0]) == pytest.approx(0.875)
    assert math.isnan(roc_auc([], [1.0]))


def _question(qid: str, answerable: bool, question: str, passages: list[str], gold: list[bool]) -> dict:
    return {
        "id": qid,
        "article": "A",
        "answerable": answerable,
        "question": question,
        "passages": passages,
        "keys": [str(i) for i in range(len(passages))],
        "gold": gold,
        "plausible": [not answerable and i == 0 for i in range(len(passages))],
    }


def test_figures_reads_sentences_and_questions() -> None:
    qs = [
        _question("a", True, "q", ["p1", "p2"], [True, False]),
        _question("u", False, "q", ["p3", "p4"], [False, False]),
    ]
    got = figures(qs, [0.9, 0.1, 0.2, 0.3])  # the gold sentence above everything else
    assert got["auc_gold_vs_rest"] == 1.0
    assert got["auc_gold_vs_plausible"] == 1.0  # p3 is the unanswerable question's distractor
    assert got["auc_question"] == 1.0  # 0.9 against the unanswerable question's best, 0.3
    flipped = figures(qs, [0.1, 0.9, 0.95, 0.3])
    assert flipped["auc_question"] == 0.0


def test_synthetic_swaps_a_name_the_passage_holds_for_one_it_lacks() -> None:
    passage = "In 1921 the Treaty of Lyon was signed by Norway. [SEP] Sweden did not sign it. [SEP] History"
    other = "In 1935 Denmark joined the pact. [SEP] [SEP] History"
    qs = [
        _question("a", True, "When did Norway sign the Treaty of Lyon?", [passage, other], [True, False]),
        _question("b", True, "What did Denmark join?", [other], [True]),
        _question("u", False, "When did Finland sign?", [passage], [False]),
    ]
    made = synthetic(qs, seed=1)
    assert all(label == 0.0 for _, _, label in made)
    by_passage = {p: q for q, p, _ in made}
    changed = by_passage[passage]
    assert changed != qs[0]["question"]
    # the swapped-in name comes from the article and is absent from the passage it is asked of
    swapped = set(changed.split()) - set(qs[0]["question"].split())
    assert swapped and all(w.rstrip("?") not in passage for w in swapped)
    assert not any(q == "When did Finland sign?" for q, _, _ in made)  # unanswerable: nothing made
