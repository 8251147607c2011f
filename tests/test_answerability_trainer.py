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


TREATY = "In 1921 the Treaty of Lyon was signed by Norway. [SEP] Sweden did not sign it. [SEP] History"


def _article(other: str) -> list[dict]:
    """Two answerable questions of one article, the first answered by TREATY."""
    return [
        _question("a", True, "When did Norway sign the Treaty of Lyon?", [TREATY, other], [True, False]),
        _question("b", True, "What did Denmark join?", [other], [True]),
    ]


def test_synthetic_swaps_a_name_the_passage_holds_for_one_it_lacks() -> None:
    passage = TREATY
    qs = [*_article("In 1935 Denmark joined the pact. [SEP] [SEP] History")]
    qs.append(_question("u", False, "When did Finland sign?", [passage], [False]))
    made = synthetic(qs, seed=1)
    assert all(label == 0.0 for _, _, label in made)
    by_passage = {p: q for q, p, _ in made}
    changed = by_passage[passage]
    assert changed != qs[0]["question"]
    # the swapped-in name comes from the article and is absent from the passage it is asked of
    swapped = set(changed.split()) - set(qs[0]["question"].split())
    assert swapped and all(w.rstrip("?") not in passage for w in swapped)
    assert not any(q == "When did Finland sign?" for q, _, _ in made)  # unanswerable: nothing made


def test_the_mean_pooled_head_reads_a_padded_pair_as_it_reads_it_alone() -> None:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from models.answerability_trainer import mean_pooled

    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32
    )
    model = mean_pooled(transformers.BertModel(config, add_pooling_layer=False), 16).eval()
    short = [2, 7, 3, 9, 3]
    long = [2, 7, 8, 3, 9, 11, 12, 3]
    ids = torch.tensor([short + [0] * 3, long])
    mask = (ids != 0).long()
    types = torch.tensor([[0, 0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1, 1]])
    with torch.no_grad():
        together = model(ids, mask, types).view(-1)
        alone = model(ids[:1, :5], mask[:1, :5], types[:1, :5]).view(-1)
    assert together.shape == (2,)
    assert together[0].item() == pytest.approx(alone[0].item(), abs=1e-5)  # padding is masked out
    assert together[0].item() != pytest.approx(together[1].item(), abs=1e-4)


def test_synthetic_makes_distinct_swaps_when_asked_for_more() -> None:
    passage = TREATY
    qs = _article("In 1935 Denmark joined the pact under Finland and Iceland. [SEP] [SEP] History")
    one = [q for q, p, _ in synthetic(qs, seed=3) if p == passage]
    two = [q for q, p, _ in synthetic(qs, seed=3, per_question=2) if p == passage]
    assert len(one) == 1 and len(two) == 2
    assert two[0] == one[0]  # the first draw is the one a single negative makes
    assert two[0] != two[1] and all(q != qs[0]["question"] for q in two)


def test_listwise_loss_is_minus_log_the_answers_share_against_no_answer() -> None:
    torch = pytest.importorskip("torch")
    from models.answerability_trainer import listwise_loss

    logits = torch.tensor([2.0, -1.0, 0.5, 3.0, 1.0, -2.0])
    group = torch.tensor([0, 0, 0, 1, 1, 2])
    target = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 0.0])  # question 0 answers twice; 1 and 2 do not

    def direct(values: list[float], gold: list[bool]) -> float:
        total = sum(math.exp(v) for v in values) + 1.0  # the null option's logit is 0
        wanted = sum(math.exp(v) for v, g in zip(values, gold, strict=True) if g) or 1.0
        return -math.log(wanted / total)

    expected = (
        direct([2.0, -1.0, 0.5], [True, False, True])
        + direct([3.0, 1.0], [False, False])
        + direct([-2.0], [False])
    ) / 3
    assert listwise_loss(logits, group, target).item() == pytest.approx(expected, rel=1e-5)
    # large logits stay finite
    big = listwise_loss(logits * 100, group, target)
    assert math.isfinite(big.item())
    # a gold sentence scored higher lowers the loss
    better = logits.clone()
    better[0] += 1.0
    assert listwise_loss(better, group, target) < listwise_loss(logits, group, target)


def test_batches_keep_each_question_whole_and_every_pair_once_an_epoch() -> None:
    import random

    from models.answerability_trainer import batches_of

    rng = random.Random(0)
    lengths = [rng.randint(10, 190) for _ in range(400)]
    groups, at = [], 0
    while at < len(lengths):
        size = min(rng.randint(1, 8), len(lengths) - at)
        groups.append(list(range(at, at + size)))
        at += size
    made = batches_of(lengths, groups, 3, 16, random.Random(1))
    assert all(len(b) <= 16 for b in made)
    assert sorted(i for b in made for i in b) == sorted(list(range(400)) * 3)
    for b in made:  # a question's pairs travel together, in one batch
        for g in groups:
            assert set(g) <= set(b) or not set(g) & set(b)
    singles = batches_of(lengths, [[i] for i in range(400)], 1, 16, random.Random(1))
    assert sorted(len(b) for b in singles) == [16] * 25  # one pair a group: full batches
