"""The answer check's recorded decisions hold: extractive answers over each labelled set that
`citeline calibrate` recorded refuse exactly the questions it recorded (skipped without ../shared/eval).

A change to retrieval, the screening rules, the extractive generator or the answer check that moves a
decision fails here; re-run `citeline calibrate` (README, "Answer check") and look at the figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.answer import calibration
from engine.eval.answers import evaluate_answers
from engine.eval.datasets import load
from engine.eval.runner import open_index

REPO = Path(__file__).resolve().parents[1]
# The labelled sets: ../shared/eval, and the project's own (evalsets/, fetched by their fetch.py).
PLACES = (REPO.parent / "shared" / "eval", REPO / "evalsets")
RECORDED = json.loads(calibration.CALIBRATION.read_text(encoding="utf-8"))["decisions"]


@pytest.mark.eval
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_extractive_decisions_match_the_calibration_record(name: str, tmp_path: Path) -> None:
    path = next((place / name for place in PLACES if (place / name).is_dir()), PLACES[0] / name)
    if not path.is_dir() or (path.parent.name == "evalsets" and not (path / "docs").is_dir()):
        pytest.skip(f"evaluation data not present (or not fetched): {path}")
    dataset = load(path, tmp_path)
    engine, _ = open_index(dataset, tmp_path)
    try:
        report = evaluate_answers(engine, dataset, "extractive")
        coverage = engine.vector_coverage()
    finally:
        engine.close()
    summary = report["answers"]
    moved = set(summary["refused_ids"]) ^ set(RECORDED[name]["refused"])
    # A moved decision names its cause: the reason, what was dropped and cited, and the vectors' state.
    why = [
        {k: row[k] for k in ("id", "refused", "reason", "dropped_why", "cited", "timings")}
        for row in report["answer_rows"]
        if row["id"] in moved
    ]
    assert summary["refused_ids"] == RECORDED[name]["refused"], (coverage, why)
    for key, value in RECORDED[name]["figures"].items():
        # Counts ("5/5") hold exactly; shares may move a little with a fresh index's tie order.
        assert summary[key] == (pytest.approx(value, abs=0.02) if isinstance(value, float) else value), key


RERANKER = REPO / "models" / "reranker"


def test_the_answer_model_joins_the_fit_only_when_given(tmp_path: Path) -> None:
    """Calibrate scores the kept model passages once per model (cached by its bytes) into the
    answer_model column; a fit without a model never reads that column."""
    from engine.answer.answerability import FEATURES, AnswerModel
    from engine.eval.calibrate import Asked, columns, with_answer_model
    from engine.eval.datasets import Dataset, Query

    keeper = "Its first keeper was Ingrid Solberg. [SEP] The lighthouse was built in 1872. [SEP] Karsvik"
    lamp = "The lamp was automated in 1968. [SEP] It was electrified in 1931. [SEP] Karsvik"
    zeros = [[0.0] * len(FEATURES) for _ in range(2)]
    asked = [Asked("q1", True, True, zeros, [True, False], [False, False], [True, True], [keeper, lamp])]
    dataset = Dataset("toy", tmp_path, (Query("q1", "Who was the first keeper?", {}),), "meridian")
    scorer = AnswerModel(RERANKER / "citeline-reranker-l3.onnx", RERANKER / "tokenizer.json")
    cache = tmp_path / "model.json"
    scored = with_answer_model(asked, dataset, scorer, cache)
    column = FEATURES.index("answer_model")
    logits = [v[column] for v in scored[0].values]
    assert logits == pytest.approx(scorer.scores("Who was the first keeper?", [keeper, lamp]))
    assert logits[0] != logits[1] and asked[0].values[0][column] == 0.0  # the record is not changed
    cache.write_text(json.dumps({"q1": [1.5, -2.0]}), encoding="utf-8")  # read back, not re-scored
    assert [v[column] for v in with_answer_model(asked, dataset, scorer, cache)[0].values] == [1.5, -2.0]
    assert column in columns(True, with_model=True) and column not in columns(True)


def test_the_answer_models_out_of_fold_logits_replace_its_own_for_the_pairs_it_trained_on(
    tmp_path: Path,
) -> None:
    """oof.json beside the model (trainer: each pair scored by a model that never read its article)
    stands in for the final model's logit of the same question and passage; other pairs keep theirs."""
    from engine.answer.answerability import FEATURES, AnswerModel
    from engine.eval.calibrate import Asked, passage_key, with_answer_model
    from engine.eval.datasets import Dataset, Query

    trained, other = "Its first keeper was Ingrid Solberg. [SEP] [SEP] Karsvik", "The lamp was automated."
    zeros = [[0.0] * len(FEATURES) for _ in range(2)]
    asked = [
        Asked("q1", True, True, zeros, [True, False], [False, False], [True, True], [trained, other]),
        Asked("q2", True, True, zeros, [True, False], [False, False], [True, True], [trained, other]),
    ]
    dataset = Dataset("toy", tmp_path, (Query("q1", "Who?", {}), Query("q2", "Who?", {})), "squad")
    cache = tmp_path / "model.json"
    cache.write_text(json.dumps({"q1": [4.0, -1.0], "q2": [4.0, -1.0]}), encoding="utf-8")
    # the model file is never opened: the cache holds its logits, oof.json sits beside it
    scorer = AnswerModel(tmp_path / "model.onnx", tmp_path / "tokenizer.json")
    (tmp_path / "oof.json").write_text(
        json.dumps({"q1": {passage_key(trained): 0.5, "unrelated": 9.0}}), encoding="utf-8"
    )
    column = FEATURES.index("answer_model")
    scored = with_answer_model(asked, dataset, scorer, cache)
    assert [v[column] for v in scored[0].values] == [0.5, -1.0]  # q1's trained pair: out of fold
    assert [v[column] for v in scored[1].values] == [4.0, -1.0]  # q2 was not trained on


def _question(qid: str, answerable: bool, relevance: list[float], gold: list[bool]) -> Any:
    from engine.answer.answerability import FEATURES
    from engine.eval.calibrate import Asked

    n = len(relevance)
    return Asked(
        qid,
        answerable,
        True,
        [[0.0] * len(FEATURES) for _ in range(n)],
        gold,
        [False] * n,
        [True] * n,
        [],
        relevance,
        [r - 0.01 * i for i, r in enumerate(relevance)],
    )


def test_a_floor_keeps_the_sentences_reaching_it_and_reproposes_from_them() -> None:
    from engine.eval.calibrate import at_floor

    a = _question("q", True, [0.5, 0.3, 0.2], [False, True, False])
    assert at_floor(a, 0.15).gold == [False, True, False]
    low = at_floor(a, 0.25)
    assert low.relevance == [0.5, 0.3] and low.gold == [False, True]
    assert low.chosen == [True, False]  # 0.29 is more than MARGIN below the best, 0.5
    assert at_floor(a, 0.6).values == [] and at_floor(a, 0.6).chosen == []


def test_the_floor_refuses_weak_answers_as_far_as_every_collection_allows() -> None:
    """The floor is fitted with the check: it rises while it refuses unanswerable questions, until it
    would refuse more than MAX_RISE of some collection's answerable ones (a collection whose answers
    score low, as paraphrased code questions do, holds it down for all)."""
    from engine.eval.calibrate import Asked, Mode, choose_floor, neither

    def mode(parts: dict[str, list[Asked]], vectors: bool = True) -> Mode:
        base = [neither(part)["false_refusals"] for part in parts.values()]
        return Mode(vectors, {}, {name: (part, []) for name, part in parts.items()}, {}, base)

    docs = (
        [_question(f"a{i}", True, [0.5, 0.45], [True, False]) for i in range(40)]
        + [_question(f"u{i}", False, [0.2], [False]) for i in range(10)]
        + [_question(f"v{i}", False, [0.33], [False]) for i in range(10)]
    )
    code = [_question(f"c{i}", True, [0.3 if i < 38 else 0.5], [True]) for i in range(40)]
    alone, _ = choose_floor(mode({"docs": docs}), {"docs"}, False)
    assert alone == 0.35  # the lowest floor refusing all 20: every answer scores 0.5
    both, tried = choose_floor(mode({"docs": docs, "code": code}), {"docs"}, False)
    assert both == 0.225  # above 0.3 the code answers would be refused
    assert all(not row["within_budget"] for row in tried if row["floor"] > 0.3)
    # One floor serves both modes: where keyword-only answers score lower (0.15 here), a floor above
    # them would refuse them there, and no check could be fitted keyword-only; it does not qualify.
    low = [_question(f"k{i}", True, [0.15 if i < 38 else 0.5], [True]) for i in range(40)]
    keyword_only = mode({"docs": docs, "code": low}, False)
    held, tried = choose_floor(mode({"docs": docs, "code": code}), {"docs"}, False, also=[keyword_only])
    assert held <= 0.15 and held < both
    assert all(not row["within_budget_keyword_only"] for row in tried if row["floor"] > 0.15)


def test_a_floor_the_data_cannot_tell_from_the_best_gives_way_to_a_lower_one() -> None:
    """A floor refusing one unanswerable question more than a lower one, of twenty, is within the share's
    standard error: the lower floor is kept (the simplest line the data supports), so a change upstream
    that moves one question does not move the floor and every answer behind it."""
    from engine.eval.calibrate import Asked, Mode, choose_floor, neither

    def mode(parts: dict[str, list[Asked]]) -> Mode:
        base = [neither(part)["false_refusals"] for part in parts.values()]
        return Mode(True, {}, {name: (part, []) for name, part in parts.items()}, {}, base)

    docs = (
        [_question(f"a{i}", True, [0.5, 0.45], [True, False]) for i in range(40)]
        + [_question(f"u{i}", False, [0.1], [False]) for i in range(10)]  # refused from 0.125 up
        + [_question("w", False, [0.2], [False])]  # from 0.225 up
        + [_question(f"v{i}", False, [0.5], [False]) for i in range(9)]  # by no floor the budget allows
    )
    chosen, tried = choose_floor(mode({"docs": docs}), {"docs"}, False)
    share = {row["floor"]: row["unanswerable_refused"] for row in tried if row["within_budget"]}
    assert share[0.1] == 0.0 and share[0.125] == 0.5 and share[0.225] == 0.55  # the best: 11 of 20
    assert chosen == 0.125  # 0.5 is within the best's standard error (0.11); 0 refused is not


def _sentences_with_cosines(lines: list[tuple[int, str, float]]) -> tuple[Any, list[Any]]:
    """An embedder giving each sentence its set cosine with any question (other texts, the question, the
    unit vector), and five evidence passages holding the sentences by source number."""
    import numpy as np

    from engine.events import Hit

    cosine = {text: c for _, text, c in lines}

    def embed(texts: list[str]) -> np.ndarray:
        out = [[1.0, 0.0] if t not in cosine else [cosine[t], (1 - cosine[t] ** 2) ** 0.5] for t in texts]
        return np.asarray(out, dtype=np.float32)

    evidence = [
        Hit(n, f"/kb/f{n}.md", 1, 2, None, "", " ".join(t for m, t, _ in lines if m == n), 1.0 / n)
        for n in range(1, 6)
    ]
    return embed, evidence


def test_a_recorded_question_proposes_at_any_floor_what_the_generator_would() -> None:
    """calibrate asks each question once, at the lowest floor, and replays the others with at_floor: the
    replay must propose what ExtractiveGenerator.generate proposes at that floor."""
    from engine.backends.extractive import ExtractiveGenerator
    from engine.eval.calibrate import FLOORS, Asked, at_floor, kept

    lines = [  # (source, sentence, its cosine with the question)
        (1, "The harbour office opens at seven on weekdays.", 0.30),
        (1, "Ferries to the island leave from pier four.", 0.62),
        (2, "The ferry timetable changes twice a year in spring.", 0.70),
        (3, "Tickets for the ferry are sold at the harbour kiosk.", 0.66),
        (4, "Parking near the terminal is limited on Sundays.", 0.20),
        (5, "Island ferries carry bicycles free of charge.", 0.74),
    ]
    embed, evidence = _sentences_with_cosines(lines)
    question = "What time does the first boat depart?"  # no word shared: relevance is half the cosine
    scored = kept(ExtractiveGenerator(embed).scored(question, evidence))
    record = Asked(
        "q",
        True,
        True,
        [[0.0] for _ in scored],
        [False] * len(scored),
        [False] * len(scored),
        [False] * len(scored),
        [c.text for _, _, c in scored],
        [r for r, _, _ in scored],
        [adj for _, adj, _ in scored],
    )
    seen = set()
    for floor in FLOORS:
        replay = at_floor(record, floor)
        proposed = {text for text, chosen in zip(replay.passages, replay.chosen, strict=True) if chosen}
        generated = ExtractiveGenerator(embed, floor=floor).generate(question, evidence, lambda: False)
        assert proposed == {raw.quote for raw in generated}, floor
        seen.add(frozenset(proposed))
    assert len(seen) >= 3  # the floors tried do change what is proposed


def test_the_checks_probability_weighs_in_the_choice_among_the_sentences_it_accepts() -> None:
    """With a weight, a sentence the check accepts comes within the margin by its adjusted score or by that
    score plus the weight times the check's probability (the check reads the question with the
    sentence), and the best three by the latter are shown: the weight lets in what the check rates
    highly and keeps out what the ranking alone shows only when more than three compete. calibrate fits
    the weight on the fitted parts and replays the same rule. No refusal moves."""
    from engine.answer.answerability import Model
    from engine.backends.extractive import MARGIN, proposed
    from engine.eval.calibrate import Asked, choose_weight, outcomes

    adjusted, probability = [0.80, 0.70, 0.50], [0.2, 0.9, 0.05]
    assert MARGIN < 0.80 - 0.70  # ranked alone, the second is out of the first's margin

    def judged(place: int) -> float | None:
        return probability[place] if probability[place] >= 0.1 else None

    assert proposed(adjusted, judged) == [True, False, False]
    # the check's favourite comes within the margin (0.97 against 0.86); the ranking's first stays
    assert proposed(adjusted, judged, 0.3) == [True, True, False]
    assert proposed(adjusted, lambda place: None, 0.3) == [False, False, False]
    # where more than three compete, the best three by score with the probability are shown
    many, rated = [0.80, 0.79, 0.78, 0.77, 0.60], [0.2, 0.2, 0.2, 0.2, 0.95]
    assert proposed(many, rated.__getitem__) == [True, True, True, False, False]
    assert proposed(many, rated.__getitem__, 0.3) == [True, True, False, False, True]
    # replayed from a record: the check's probability is the one feature, the sentence it rates holds gold
    check = Model(("cover_quote",), (0.0,), (1.0,), (1.0,), 0.0, 0.1)  # probability: sigmoid(cover_quote)
    logits = [-1.386, 2.197, -2.944]  # sigmoid: 0.2, 0.9, 0.05
    record = Asked("q", True, True, [[x] for x in logits], [False, True, False], [True, False, False], [])
    record.relevance, record.adjusted = list(adjusted), list(adjusted)
    assert outcomes([record], check, 0.1)["gold_shown"] == 0.0
    assert outcomes([record], check, 0.1, weight=0.3)["gold_shown"] == 1.0
    weight, tried = choose_weight([[record]], check)
    assert 0.0 < weight <= 0.3 and len(tried) > 2

    # one question of twenty moved is within the share's standard error: no weight, the ranking alone
    def asked(qid: str, gold: list[bool]) -> Asked:
        row = Asked(qid, True, True, [[x] for x in logits], gold, [False] * 3, [True, False, False], [])
        row.relevance, row.adjusted = list(adjusted), list(adjusted)
        return row

    twenty = [asked(f"a{i}", [True, False, False]) for i in range(10)]  # shown at any weight
    twenty += [asked(f"b{i}", [False, False, True]) for i in range(9)]  # at none
    twenty.append(asked("c", [False, True, False]))  # only with a weight
    weight, tried = choose_weight([twenty], check)
    gains = {row["weight"]: row["gold_shown_less_plausible_shown"] for row in tried}
    assert gains[0.0] == 0.5 and max(gains.values()) == 0.55 and weight == 0.0


def test_the_check_judging_the_ranking_is_replayed_as_the_generator_asks_it() -> None:
    """With the answer check as its judge the generator proposes, in rank order, the sentences the check
    accepts (a rejected first sentence gives its place to the next that answers, within the margin of the
    best accepted); calibrate's outcomes must show exactly those, and the judge is asked no further down
    the ranking than that rule reads."""
    from engine.answer.answerability import Model
    from engine.backends.extractive import LOOK, ExtractiveGenerator, proposed
    from engine.eval.calibrate import Asked, at_floor, kept, outcomes

    lines = [  # (source, sentence, its cosine with the question); ranked by cosine less the rank prior
        (1, "Ferries to the island leave from pier four.", 0.80),
        (1, "The ferry timetable changes twice a year in spring.", 0.78),
        (2, "Tickets for the ferry are sold at the harbour kiosk.", 0.74),
        (3, "The first ferry departs at half past six every morning.", 0.70),
        (4, "Island ferries carry bicycles free of charge.", 0.69),
        (5, "Parking near the terminal is limited on Sundays.", 0.40),
        (5, "The harbour office opens at seven on weekdays.", 0.38),
    ]
    embed, evidence = _sentences_with_cosines(lines)
    question = "When does the first boat depart?"
    generator = ExtractiveGenerator(embed, floor=0.0)
    scored = kept(generator.scored(question, evidence))
    ranking = [c.text for _, _, c in scored]
    # the check's probability per sentence: 1 for those it accepts, 0 for the rest
    none = [False] * len(ranking)
    record = Asked("q", True, True, [[0.0] for _ in ranking], none, none, none, ranking)
    record.relevance, record.adjusted = [r for r, _, _ in scored], [a for _, a, _ in scored]
    check = Model(("cover_quote",), (0.0,), (1.0,), (60.0,), -30.0, 0.5)  # accepts where cover_quote is 1
    for accepted in (set(ranking[:1]), set(ranking[1:2]), {ranking[3]}, {ranking[2], ranking[4]}, set()):
        asked_of: list[str] = []

        def judge(
            cand: object, accepted: set[str] = accepted, asked_of: list[str] = asked_of
        ) -> float | None:
            asked_of.append(cand.text)  # type: ignore[attr-defined]
            return 1.0 if cand.text in accepted else None  # type: ignore[attr-defined]

        generated = {raw.quote for raw in generator.generate(question, evidence, lambda: False, judge)}
        replay = at_floor(record, 0.0)
        replay.values = [[1.0 if text in accepted else 0.0] for text in replay.passages]
        replay.gold = [text == ranking[3] for text in replay.passages]
        replay.plausible = [False] * len(replay.passages)
        shown = outcomes([replay], check, 0.5)
        assert shown["false_refusals"] == (0.0 if generated else 1.0), accepted
        places = {place for place, text in enumerate(replay.passages) if text in accepted}
        picked = proposed(replay.adjusted, lambda place, places=places: 1.0 if place in places else None)
        assert {t for t, p in zip(replay.passages, picked, strict=True) if p} == generated, accepted
        assert generated <= accepted
        assert len(asked_of) <= LOOK and asked_of == ranking[: len(asked_of)]  # in rank order, lazily
    # a sentence accepted fourth answers when the three above it do not: the answer is not refused
    fourth = generator.generate(
        question, evidence, lambda: False, lambda c: 1.0 if c.text == ranking[3] else None
    )
    assert [raw.quote for raw in fourth] == [ranking[3]]


def test_the_gates_budget_is_the_largest_whose_line_holds_on_a_set_left_out_of_its_fit() -> None:
    """Three collections of 100 answerable questions whose evidence scores start at 0.30, and a code set
    of 40 whose weakest three score 0.295-0.305. Fitted without the code set, a 3 % (or 2 %) budget puts
    the line at 0.31, which refuses all three of its weak questions, more than 3 % of 40 (or the one
    question 2 % allows); 1 % puts it at 0.30 (one refused) and holds, so 1 % is chosen, and its line
    over all four refuses none of the code set's answerable questions."""
    from engine.eval.calibrate import Screened, choose_gate, choose_gate_budget, gate_transfers

    def part(name: str, answerable: list[float], unanswerable: list[float]) -> list[Screened]:
        rows = [(s, True) for s in answerable] + [(s, False) for s in unanswerable]
        return [Screened(f"{name}{i}", ok, s, s) for i, (s, ok) in enumerate(rows)]

    steady = [0.30 + 0.005 * i for i in range(100)]
    weak = [0.295, 0.300, 0.305] + [0.5] * 37
    parts = {
        "a": part("a", steady, [0.1, 0.2]),
        "b": part("b", steady, [0.1]),
        "c": part("c", steady, []),
        "code": part("code", weak, [0.1, 0.25]),
    }
    assert choose_gate(list(parts.values()), "vectors", 0.03) == 0.30  # every set within 3 % in the fit
    held, left_out = gate_transfers(parts, "vectors", 0.03)
    assert not held and left_out["code"] == "3/40 at 0.31" and left_out["a"] == "0/100 at 0.30"
    assert not gate_transfers(parts, "vectors", 0.02)[0]
    held, left_out = gate_transfers(parts, "vectors", 0.01)
    assert held and left_out["code"] == "1/40 at 0.30"
    budget, tried = choose_gate_budget(parts, "vectors")
    assert budget == 0.01 and [row["holds"] for row in tried.values()] == [True, False, False]
    assert choose_gate(list(parts.values()), "vectors", budget) == 0.29


def test_the_gate_fits_a_line_for_each_kind_of_evidence() -> None:
    """Code and prose evidence score on scales of their own; here code's answerable questions score
    lower. One line for both sits below code's weakest answerable question and lets through the
    unanswerable prose questions scoring above it; a line per kind (the top hit is a program's source,
    or not) refuses those and still none of code's answerable questions."""
    from engine.eval.calibrate import Screened, fit_gate, gated_sets

    def part(name: str, rows: list[tuple[float, bool, bool]]) -> list[Screened]:
        return [Screened(f"{name}{i}", ok, s, s, code=code) for i, (s, ok, code) in enumerate(rows)]

    prose = [(0.40 + 0.005 * i, True, False) for i in range(60)]
    prose += [(0.32 + 0.01 * i, False, False) for i in range(6)]  # 0.32 to 0.37: unanswerable
    code = [(0.28 + 0.005 * i, True, True) for i in range(30)] + [(0.1, False, True), (0.2, False, True)]
    parts = {"a": part("a", prose), "b": part("b", prose), "c": part("c", code), "d": part("d", code)}
    fitted = fit_gate(parts, "vectors")
    assert fitted["all"]["threshold"] == 0.28  # one line: at code's weakest answer
    assert fitted["code"]["threshold"] == 0.28 and fitted["code"]["sets"] == ["c", "d"]
    assert fitted["prose"]["threshold"] == 0.40 and fitted["prose"]["sets"] == ["a", "b"]

    asked = {
        name: ([_question(s.id, s.answerable, [0.5], [True]) for s in rows], [])
        for name, rows in parts.items()
    }
    screens = {name: (rows, []) for name, rows in parts.items()}

    def passed(lines: dict[str, float], answerable: bool) -> int:
        gated = gated_sets(asked, screens, "vectors", lines)
        return sum(a.gate_passed for fit, _ in gated.values() for a in fit if a.answerable == answerable)

    one = {"code": 0.28, "prose": 0.28}
    by_kind = {"code": fitted["code"]["threshold"], "prose": fitted["prose"]["threshold"]}
    assert passed(one, False) == 12 and passed(by_kind, False) == 0  # prose's 0.32-0.37, in a and b
    assert passed(one, True) == passed(by_kind, True) == 180  # every answerable question of all four


def test_a_kind_of_evidence_no_set_answers_takes_the_line_fitted_on_all() -> None:
    from engine.eval.calibrate import Screened, fit_gate

    parts = {
        name: [Screened(f"{name}{i}", True, 0.3 + 0.01 * i, 0.1) for i in range(40)]
        + [Screened(f"{name}x", False, 0.5, 0.1, code=True)]  # code evidence, but no answerable question
        for name in ("a", "b")
    }
    fitted = fit_gate(parts, "vectors")
    assert fitted["code"]["sets"] == [] and fitted["code"]["threshold"] == fitted["all"]["threshold"] == 0.31
    assert fitted["prose"]["threshold"] == 0.31  # 3 %: one of the forty


def test_the_check_may_cost_a_small_set_one_answerable_question_not_two() -> None:
    """MAX_RISE of a set of twelve answerable questions is less than one question: held to it, that set's
    weakest answer holds the floor for every set. It may cost one question (allowance), never two."""
    from engine.eval.calibrate import Asked, Mode, allowance, choose_floor, neither

    def mode(parts: dict[str, list[Asked]]) -> Mode:
        base = [neither(part)["false_refusals"] for part in parts.values()]
        return Mode(True, {}, {name: (part, []) for name, part in parts.items()}, {}, base)

    docs = [_question(f"a{i}", True, [0.5, 0.45], [True, False]) for i in range(40)]
    docs += [_question(f"v{i}", False, [0.33], [False]) for i in range(20)]

    def small(weak: int) -> list[Asked]:
        return [_question(f"s{i}", True, [0.3 if i < weak else 0.5], [True]) for i in range(12)]

    assert allowance(12) > 1 / 12 and allowance(12) < 2 / 12 and allowance(100) == 0.03
    one, _ = choose_floor(mode({"docs": docs, "small": small(1)}), {"docs"}, False)
    assert one == 0.35  # refuses the 20 unanswerable questions at 0.33 and one of the twelve
    two, tried = choose_floor(mode({"docs": docs, "small": small(2)}), {"docs"}, False)
    assert two <= 0.3 and all(not row["within_budget"] for row in tried if row["floor"] > 0.3)


def test_each_set_is_gated_with_its_own_screens_though_their_question_ids_are_alike() -> None:
    """Two sets numbering their questions alike ("c01" in every code set): each question goes through
    the gate with the score of its own set's evidence, not with the other set's."""
    from engine.eval.calibrate import Screened, gated_sets

    weak = _question("c01", True, [0.5], [True])
    strong = _question("c01", True, [0.5], [True])
    asked = {"one": ([weak], []), "two": ([strong], [])}
    screens = {
        "one": ([Screened("c01", True, vectors=0.1, keyword=0.1)], []),
        "two": ([Screened("c01", True, vectors=0.9, keyword=0.9)], []),
    }
    gated = gated_sets(asked, screens, "vectors", {"code": 0.34, "prose": 0.34})
    assert not gated["one"][0][0].gate_passed  # its own evidence is weak
    assert gated["two"][0][0].gate_passed


def test_the_checks_weights_keep_the_sign_their_features_meaning_gives_them() -> None:
    """A labelled set whose quotes answer less often the more of the question's words they hold (as in
    SQuAD, whose unanswerable questions were written from the paragraph) would teach the check to hold a
    quote's coverage against it; the fit keeps that weight at 0, and fits the others as it would
    unconstrained: where no sign binds, the constrained optimum is the unconstrained one."""
    import numpy as np

    from engine.answer.answerability import FEATURES, SIGNS
    from engine.eval.calibrate import Asked, fit, signed_logistic

    rng = np.random.default_rng(7)
    cover, model = FEATURES.index("cover_quote"), FEATURES.index("answer_model")
    questions = []
    for i in range(300):
        answerable = i % 2 == 0
        values, gold = [], []
        for place in range(4):
            row = [float(v) for v in rng.random(len(FEATURES))]
            answers = answerable and place == 0
            row[model] = float(rng.normal(2.0 if answers else -2.0))  # the answer model tells them apart
            row[cover] = float(rng.normal(0.3 if answers else 0.7, 0.1))  # coverage counts against
            values.append(row)
            gold.append(answers)
        questions.append(Asked(f"q{i}", answerable, True, values, gold, [False] * 4, [True] * 4))
    m = fit([questions], with_vectors=True, with_model=True)
    weights = dict(zip(m.names, m.weights, strict=True))
    assert SIGNS["cover_quote"] > 0 and weights["cover_quote"] == 0.0
    assert weights["answer_model"] > 1.0
    assert all(SIGNS[n] * w >= 0 for n, w in weights.items())

    # where the data agree with every sign, the bounds change nothing
    x = rng.normal(size=(400, 2))
    y = (x @ np.array([1.5, -1.0]) + rng.normal(size=400) > 0).astype(np.float64)
    z = np.hstack([np.ones((400, 1)), x])
    free = signed_logistic(z, y, np.ones(400), np.zeros(3))
    signed = signed_logistic(z, y, np.ones(400), np.array([0.0, 1.0, -1.0]))
    assert np.allclose(free, signed, atol=1e-6) and free[1] > 0 > free[2]
    # and where one disagrees, that coefficient sits at its bound and the other keeps its sign
    flipped = signed_logistic(z, y, np.ones(400), np.array([0.0, -1.0, -1.0]))
    assert flipped[1] == 0.0 and flipped[2] < 0


def test_the_check_is_fitted_to_refuse_what_an_unanswerable_question_would_show() -> None:
    """The check refuses a question when none of its judged sentences passes. Where an answerable
    question's other sentences are told from its answer by coverage alone, while a question the folder
    does not answer shows sentences covering it as well as an answer does (as SQuAD's unanswerable
    questions, written from the paragraph), only the answer model tells the two apart. Fitted against
    every non-answering sentence (the fit before session 36) the check leans on coverage and lets the
    tempting sentences through; fitted for the decision (answering sentences against each unanswerable
    question's judged sentences, pooled), it leans on the answer model and refuses more of them at the
    same false refusals."""
    import numpy as np

    from engine.answer.answerability import FEATURES, SIGNS
    from engine.eval.calibrate import Asked, columns, fit, outcomes, signed_logistic, with_threshold

    rng = np.random.default_rng(11)
    cover, model = FEATURES.index("cover_chunk"), FEATURES.index("answer_model")
    questions = []
    for i in range(600):
        answerable = i % 2 == 0
        values = []
        for place in range(4):
            row = [0.0] * len(FEATURES)
            answers = answerable and place == 0
            row[cover] = float(rng.normal(0.8 if answers or not answerable else 0.2, 0.1))
            row[model] = float(rng.normal(1.0 if answers else -0.5 if not answerable else 0.0))
            values.append(row)
        gold = [answerable and place == 0 for place in range(4)]
        questions.append(
            Asked(f"q{i}", answerable, True, values, gold, [False] * 4, [True] * 4, adjusted=[0.0] * 4)
        )
    decided = fit([questions], with_vectors=True, with_model=True)

    # the fit before: logistic regression of answering sentences against every other sentence
    cols = columns(True, True)
    x = np.array([[v[c] for c in cols] for a in questions for v in a.values])
    y = np.array([g for a in questions for g in a.gold], dtype=np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    names = tuple(FEATURES[c] for c in cols)
    w = signed_logistic(z, y, np.ones(len(x)), np.array([0.0, *(SIGNS[n] for n in names)]))
    before = type(decided)(names, tuple(mean), tuple(scale), tuple(w[1:]), float(w[0]), 0.5)

    def refused_at_ten_percent_false_refusals(m: Any) -> float:
        best = 0.0
        for t in np.arange(0.0, 1.0, 0.005):
            f = outcomes(questions, with_threshold(m, float(t)), float(t))
            if f["false_refusals"] <= 0.1:
                best = max(best, f["unanswerable_refused"])
        return best

    weights = dict(zip(decided.names, decided.weights, strict=True))
    old = dict(zip(before.names, before.weights, strict=True))
    assert weights["cover_chunk"] < 0.1 < 1.0 < weights["answer_model"]  # coverage tells nothing here
    assert old["cover_chunk"] > 1.0  # which the fit against every other sentence leaned on
    refused, refused_before = (refused_at_ten_percent_false_refusals(m) for m in (decided, before))
    assert refused > refused_before + 0.1
