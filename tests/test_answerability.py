"""The answer check: a verbatim quote must also answer the question (engine/answer/answerability.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import english
from engine.answer import answerability, calibration
from engine.answer.answerability import (
    FEATURES,
    Checker,
    Model,
    Question,
    features,
    figures,
    names,
    premises,
    stated_figures,
)
from engine.errors import MissingModel
from engine.events import Hit
from engine.text import stem

LIGHTHOUSE = (
    "The lighthouse at Karsvik was built in 1872 by the harbour board. "
    "Its first keeper was Ingrid Solberg, who kept it for thirty years. "
    "The lamp was electrified in 1931 and automated in 1968."
)


def hit(text: str = LIGHTHOUSE, vector_score: float | None = None) -> Hit:
    return Hit(1, "/kb/lighthouse.md", 1, 1, None, "Karsvik lighthouse", text, 0.1, vector_score=vector_score)


def value(q: str, quote: str, name: str, text: str = LIGHTHOUSE) -> float:
    return features(Question.read(q, None), quote, hit(text), 0.5)[FEATURES.index(name)]


def test_a_figure_the_question_asks_about_but_the_chunk_lacks_is_seen() -> None:
    built = "The lighthouse at Karsvik was built in 1872 by the harbour board."
    assert value("What was built at Karsvik in the 9th century?", built, "figure_missing") == 1.0
    assert value("What was built at Karsvik in 1872?", built, "figure_missing") == 0.0


def test_a_question_wanting_a_figure_needs_a_new_one_in_the_quote() -> None:
    keeper = "Its first keeper was Ingrid Solberg, who kept it for thirty years."
    # "thirty" answers "how long"; the 1872 sentence sits beside it, so the window alone is not enough.
    assert value("How long did the first keeper keep the lighthouse?", keeper, "figure_wanted_absent") == 0.0
    text = "Its first keeper was Ingrid Solberg, a fisherman's daughter. The harbour board paid her."
    quote = "Its first keeper was Ingrid Solberg, a fisherman's daughter."
    assert value("How long did the first keeper stay?", quote, "figure_wanted_absent", text) == 1.0


def test_a_when_in_the_past_tense_asks_for_a_time_and_a_when_of_condition_does_not() -> None:
    quote = "Its first keeper was Ingrid Solberg, a fisherman's daughter."
    text = "Its first keeper was Ingrid Solberg, a fisherman's daughter. The harbour board paid her."
    for asks_time in ("When was the lamp electrified?", "When did Solberg become keeper?"):
        assert value(asks_time, quote, "figure_wanted_absent", text) == 1.0
    assert value("Which version added the lamp?", quote, "figure_wanted_absent", text) == 1.0
    for condition in ("When is the lamp lit?", "When should the keeper call the harbour board?"):
        assert value(condition, quote, "figure_wanted_absent", text) == 0.0


def test_a_question_wanting_a_name_needs_one_the_question_does_not_hold() -> None:
    keeper = "Its first keeper was Ingrid Solberg, who kept it for thirty years."
    assert value("Who was the first keeper of the lighthouse?", keeper, "name_wanted_absent") == 0.0
    assert value("Who kept Ingrid Solberg's lighthouse?", keeper, "name_wanted_absent") == 1.0


def test_a_who_question_is_answered_by_a_name_or_a_word_for_a_person() -> None:
    """In a folder of one's own a who-question is answered by a role as often as by a name: "Site foremen
    may take their allocated van home" holds no capitalised name, and the check read it as no answer
    to "Who was allowed to drive a van home?" (0.06). A word naming people by its ending counts; the
    question's own ("Who is the office manager?") and a thing so ending ("the document") do not."""
    policy = "Site foremen may take their allocated van home overnight. All other vans stay in the yard."
    foremen = "Site foremen may take their allocated van home overnight."
    assert (
        value("Who was allowed to drive a van home at night?", foremen, "name_wanted_absent", policy) == 0.0
    )
    manager = "Ask the office manager about the document."
    assert value("Who is the office manager?", manager, "name_wanted_absent", manager) == 1.0
    assert english.persons(["governors", "landscapers", "document", "different", "other"]) == {
        "governors",
        "landscapers",
    }


def test_a_negated_question_over_an_unnegated_quote_is_seen() -> None:
    lamp = "The lamp was electrified in 1931 and automated in 1968."
    assert value("When was the lamp never electrified?", lamp, "negation_unmatched") == 1.0
    assert value("When was the lamp electrified?", lamp, "negation_unmatched") == 0.0
    # only a negation in the asking clause's own words asks for what is not so: not one in a clause
    # within it, an explanation asked for, a yes-or-no question or a condition the user opens on
    for question in (
        "When was the lamp electrified, if it wasn't lit by hand?",
        "What lit the lamp so that ships did not run aground?",
        "Why was the lamp never electrified?",
        "Was the lamp not electrified in 1931?",
        "When I don't light it, what happens to the lamp?",
    ):
        assert value(question, lamp, "negation_unmatched") == 0.0, question
    # a quote that negates answers a question asking for what is not so
    unlit = "The harbour lamp was never electrified."
    assert value("Which lamp was not electrified?", unlit, "negation_unmatched") == 0.0
    assert value("Which lamp wasn't electrified?", lamp, "negation_unmatched") == 1.0
    # typographic apostrophes and capitals read as the others; a clause may open on "and"; "to not" is
    # an infinitive's, within the clause
    for question in ("Which lamp wasn’t electrified?", "And WHICH LAMP WASN'T ELECTRIFIED?"):
        assert value(question, lamp, "negation_unmatched") == 1.0, question
    assert value("Which lamp wasn’t electrified?", "It wasn’t electrified.", "negation_unmatched") == 0.0
    assert value("What is the switch to not light the lamp?", lamp, "negation_unmatched") == 0.0


def test_a_quote_saying_the_opposite_of_what_the_question_asks_is_seen() -> None:
    keeper = "Its first keeper was Ingrid Solberg, who kept it for thirty years."
    # "last" asked, "first" said: the quote is about another keeper than the one asked for
    assert value("Who was the last keeper of the lighthouse?", keeper, "antonym_quoted") == 1.0
    assert value("Who was the first keeper of the lighthouse?", keeper, "antonym_quoted") == 0.0
    # a yes-or-no question is answered by a quote saying the opposite: "No, she was the first"
    assert value("Was Ingrid Solberg its last keeper?", keeper, "antonym_quoted") == 0.0
    # an opposite the question holds as well is the question's own ("the first and the last")
    assert value("Who were the first and the last keepers?", keeper, "antonym_quoted") == 0.0
    # the question's word said in the sentences around the quote: they may say both, nothing is swapped
    both = "Its first keeper was Ingrid Solberg. Its last keeper left in 1968."
    first = "Its first keeper was Ingrid Solberg."
    assert value("Who was the last keeper?", first, "antonym_quoted", both) == 0.0
    # forms of a word count as the word, as the keyword index stems them ("decreased" for "decrease")
    lamp = "The lamp's range increased when it was electrified in 1931."
    assert value("When did the lamp's range decrease?", lamp, "antonym_quoted", lamp) == 1.0
    assert value("When was the lamp's range increased?", lamp, "antonym_quoted", lamp) == 0.0


def test_a_quote_saying_what_the_question_asks_about_as_not_so_is_seen() -> None:
    lamp = "The lamp was electrified in 1931 and automated in 1968."
    # the question denies "electrified"; the quote says it, undenied
    assert value("Which lamp was not electrified in 1931?", lamp, "negation_swapped", lamp) == 1.0
    assert value("Which lamp was electrified in 1931?", lamp, "negation_swapped", lamp) == 0.0
    # a quote that denies it too answers the question as asked
    unlit = "The harbour lamp was never electrified, and the keeper lit it by hand."
    assert value("Which lamp was not electrified?", unlit, "negation_swapped", unlit) == 0.0
    # an explanation asked for takes the negation as given; so does the user's own supposition
    assert value("Why was the lamp not electrified before 1931?", lamp, "negation_swapped", lamp) == 0.0
    assert value("If the lamp was not electrified, who lit it?", lamp, "negation_swapped", lamp) == 0.0
    # a code name is not a negation
    assert value("What does LAMP_NOT_ELECTRIFIED mean?", lamp, "negation_swapped", lamp) == 0.0
    # a yes-or-no question is answered by a quote saying either way
    assert value("Was the lamp never electrified?", lamp, "negation_swapped", lamp) == 0.0
    assert value("It has a lamp; was it not electrified?", lamp, "negation_swapped", lamp) == 0.0
    # a negation denies the word it stands before, not the rest of the clause ("by the harbour board")
    board = "The harbour board paid the keeper."
    asked = "Which lamp was not electrified by the harbour board?"
    assert value(asked, board, "negation_swapped", board) == 0.0


def test_each_pair_of_opposites_is_two_words_apart_once() -> None:
    # a pair whose words stem alike would read a word as its own opposite; a pair given twice (either
    # order) is a slip in the list (forms of one pair, "increase" and "increasing", stem alike: one pair)
    seen: set[frozenset[str]] = set()
    for a, b in english.ANTONYMS:
        assert stem(a) != stem(b), (a, b)
        assert frozenset((a, b)) not in seen, (a, b)
        seen.add(frozenset((a, b)))


def test_a_name_the_chunk_lacks_and_the_rarest_missing_word() -> None:
    built = "The lighthouse at Karsvik was built in 1872 by the harbour board."
    assert value("When did the lighthouse at Karsvik open?", built, "name_missing") == 0.0
    assert value("When did the lighthouse at Brennholm open?", built, "name_missing") == 1.0
    assert value("When was the lighthouse at Karsvik built?", built, "rarest_missing") == 0.0
    assert value("When was the lighthouse at Karsvik painted?", built, "rarest_missing") > 0.0


def test_figures_and_names_read_digits_ordinals_and_capitalised_words() -> None:
    # Number words count what is asked for ("which two modes"), they are not facts to find.
    assert figures("In the 9th century, 2,000 ships and three kings; the 1960s") == {"9", "2000", "1960"}
    # A capitalised word opening a sentence says nothing: every sentence opens with one.
    assert names("Ask the keeper. Ingrid Solberg kept it; she met Olav.") == {"solberg", "olav"}


def test_a_source_states_figures_in_digits_words_and_roman_numerals() -> None:
    text = "In the seventeenth century, World War II; timeout=5.0, 2,000 ships, fifty-two kings, the 1990s."
    assert stated_figures(text) >= {"17", "2", "5", "2000", "52", "50", "1990"}
    assert "1" not in stated_figures("IIII and VX are no numerals")
    # a how-to question's figures are the user's own, not premises
    assert premises("How do I set the timeout to 30 seconds?") == frozenset()
    assert premises("Why is the timeout 30 seconds?") == {"30"}
    # and so is a figure given as an example; "say" as a verb is no example, nor "for instance 2"
    for own in (
        "When reading from partway through (say 50%), how does it skip ahead?",
        "With a big file, say, 10 GB, why is it slow?",
        "Why is the limit low (e.g. 20 MB)?",
    ):
        assert premises(own) == frozenset(), own
    for premise in (
        "Why do the docs, unlike the code, say 30 seconds?",
        "Why does the health check for instance 2 fail?",
    ):
        assert premises(premise), premise
    assert premises("What does the report say 50 percent of users do?") == {"50"}
    # a markup command's arguments are what the user types into it; a figure said of the command is not
    assert premises(r"What does \inteval{7/2} give: does the slash truncate?") == frozenset()
    assert premises(r"What does \frac{1}{2} render as, and \setlength{\parskip}{6pt}?") == frozenset()
    assert premises(r"Why does \extrafloats{500} fail when LaTeX keeps 18 floats?") == {"18"}
    # what the user wants is theirs; a count of any such things, or of a relation's sides, is no figure
    for own in (
        "I want it to give up after five tries or after thirty seconds. How do I express that?",
        "Why does Policy cap the synopsis at 60 characters? I’d like 70 instead.",
        "In what order do the hooks run between two attempts?",
        "Can any two plugins share a hook?",
    ):
        assert premises(own) <= {"60"}, own
    # but a wish that asks about the folder's figure, or a frequency, states it
    assert premises("Why do I need 8 GB of free disk space to build it?") == {"8"}
    assert premises("I'd like to understand why uploads are limited to 50 MB.") == {"50"}
    assert premises("Why does the export job run every two hours?") == {"2"}
    # a "Since …," clause ends at its comma, not at a figure's thousands nor at one in brackets
    assert english.GIVEN_CLAUSE.match("Since Kiran quoted £4,500 for it, how much?").group().endswith("it,")
    assert english.GIVEN_CLAUSE.match("Since plot(x, y) draws points, why?").group().endswith("points,")
    # a compound number word is one figure; a class of figures written with a placeholder states none
    assert premises("Why does it start sixty-four workers?") == {"64"}
    assert premises("Why does the token expire after twenty-four hours?") == {"24"}
    assert premises("Why is the header capped at sixty four bytes?") == {"64"}
    for own in ("Why are 5xx responses retried?", "Does it support the 3.x series?", "Is 1.2.* pinned?"):
        assert premises(own) == frozenset(), own
    assert premises("Why is the C version 2x faster?") == {"2"}
    # a request's embedded question asks about the folder's figures; the request's own object is the user's
    assert premises("Can you tell me why the quorum is five?") == {"5"}
    assert premises("can you pull up what minute 25/214 decided?") == {"25", "214"}
    assert premises("Explain why the timeout is 30 seconds.") == {"30"}
    for own in (
        "Can you show me how to set it to 30?",
        "Tell me what to do when it hits 5 GB.",
        "Can you show me what happens if I set it to 30?",
        "Can you make it skip files when they are over 5 GB?",
        "Give me 3 examples.",
        # the user's own case, which the request asks to have judged
        "Could you tell me what grade a mark of 68 gets?",
        "Can you check whether my 4,200-word essay is within the limit?",
        "Show me what a 404 page looks like.",
    ):
        assert premises(own) == frozenset(), own
    assert premises("Can you tell me why a follow-up costs £40?") == {"40"}


def test_the_model_is_a_logistic_over_standardised_features() -> None:
    m = Model(("cover_quote", "novelty"), (0.5, 0.5), (0.25, 0.5), (2.0, -1.0), 0.5, 0.6)
    values = [0.0] * len(FEATURES)
    values[FEATURES.index("cover_quote")] = 1.0  # z = 0.5 + 2 * (1 - 0.5) / 0.25 - 1 * (0 - 0.5) / 0.5
    assert m.probability(values) == pytest.approx(1 / (1 + 2.718281828**-5.5))
    assert Model.from_dict(m.as_dict()) == m


def test_shipped_calibration_loads_for_both_modes_and_records_its_data() -> None:
    data = json.loads(calibration.CALIBRATION.read_text(encoding="utf-8"))
    sets = {name: v for name, v in data["data"].items() if isinstance(v, dict) and name != "answer_model"}
    assert any(v.get("held_out_articles") for v in sets.values()) and all(v["hash"] for v in sets.values())
    assert set(data["figures"]["vectors"]) == {f"{n} {p}" for n in sets for p in ("fitted", "held out")}
    with_vectors, keyword = answerability.model(True), answerability.model(False)
    assert "cosine_chunk" in with_vectors.names and "cosine_chunk" not in keyword.names
    assert 0.0 < with_vectors.threshold < 1.0 and 0.0 < keyword.threshold < 1.0
    if "answer_model" in with_vectors.names:  # the model it was fitted with ships, checksum and all
        answerability.answer_model.cache_clear()
        assert answerability.answer_model().model_path.name == data["data"]["answer_model"]["file"]


def test_the_checker_scores_an_answering_quote_above_a_false_premise() -> None:
    answering = Checker("When was the lamp at Karsvik electrified?", None, None)
    premise = Checker("When was the lamp at Brennholm electrified in the 9th century?", None, None)
    lamp = "The lamp was electrified in 1931 and automated in 1968."
    good = answering.judge([(lamp, hit())]).probability
    bad = premise.judge([(lamp, hit())]).probability
    assert good > bad
    assert answering.judge([]).probability == 0.0


RERANKER = Path(__file__).resolve().parents[1] / "models" / "reranker"


def test_the_model_passage_puts_the_quote_first_then_its_window_and_heading() -> None:
    keeper = "Its first keeper was Ingrid Solberg, who kept it for thirty years."
    passage = answerability.model_passage(keeper, hit())
    assert passage.startswith(keeper + " [SEP] ")
    assert "built in 1872" in passage and "electrified in 1931" in passage  # the sentences either side
    assert passage.count(keeper) == 1 and passage.endswith("[SEP] Karsvik lighthouse")


def cross_encoder() -> answerability.AnswerModel:
    """Any one-logit ONNX cross-encoder reads like the answer model: the shipped reranker is one."""
    return answerability.AnswerModel(RERANKER / "citeline-reranker-l3.onnx", RERANKER / "tokenizer.json")


def test_the_answer_model_scores_a_padded_batch_as_it_scores_each_pair_alone() -> None:
    scorer = cross_encoder()
    passages = [answerability.model_passage(s, hit()) for s in LIGHTHOUSE.split(". ")] + ["Lamp."]
    together = scorer.scores("Who was the first keeper?", passages)
    alone = [scorer.scores("Who was the first keeper?", [p])[0] for p in passages]
    assert together == pytest.approx(alone, abs=1e-3)
    assert len(set(round(v, 3) for v in together)) == len(passages)  # it reads the passages
    assert scorer.load_ms > 0.0


def test_the_shipped_answer_model_is_the_recipes_int8_quantization_of_the_trained_one(tmp_path: Path) -> None:
    """The check ships the trained model with int8 MatMul weights (`python -m models.train_answerability
    quantize`): made again from the fp16-stored model it scores as the shipped file does, and it tracks
    the fp16 model's logits (what it was trained as) closely."""
    pytest.importorskip("onnx")
    import numpy as np

    from models.train_answerability import TARGET, quantize

    shipped = answerability.answer_model()
    assert shipped.model_path.name == calibration.calibration()["data"]["answer_model"]["file"]
    assert shipped.model_path.name.endswith("-int8.onnx")
    quantize(TARGET / "citeline-answerability-l4.onnx", tmp_path / "made.onnx")
    made = answerability.AnswerModel(tmp_path / "made.onnx", TARGET / "tokenizer.json")
    fp16 = answerability.AnswerModel(TARGET / "citeline-answerability-l4.onnx", TARGET / "tokenizer.json")
    questions = ["Who was the first keeper?", "When was the lamp replaced?", "Why was the tower painted?"]
    pairs = [(q, answerability.model_passage(s, hit())) for q in questions for s in LIGHTHOUSE.split(". ")]
    assert made.score_pairs(pairs) == pytest.approx(shipped.score_pairs(pairs), abs=1e-4)
    assert float(np.corrcoef(shipped.score_pairs(pairs), fp16.score_pairs(pairs))[0, 1]) > 0.97


def test_the_checker_reads_the_answer_model_only_when_the_fitted_check_names_it() -> None:
    keeper = "Its first keeper was Ingrid Solberg, who kept it for thirty years."
    scorer = cross_encoder()
    checker = Checker("Who was the first keeper of the lighthouse?", None, None, scorer=scorer)
    column = FEATURES.index("answer_model")
    names = tuple(n for n in checker.model.names if n != "answer_model")
    checker.model = Model(names, (0.0,) * len(names), (1.0,) * len(names), (0.0,) * len(names), 0.0, 0.5)
    assert checker.values(keeper, hit())[column] == 0.0
    names = (*names, "answer_model")
    checker.model = Model(names, (0.0,) * len(names), (1.0,) * len(names), (0.0,) * len(names), 0.0, 0.5)
    logit = scorer.scores(checker.q.text, [answerability.model_passage(keeper, hit())])[0]
    assert checker.values(keeper, hit())[column] == pytest.approx(logit) != 0.0
    assert checker.values(keeper, hit(), with_model=False)[column] == 0.0


def test_a_fitted_check_that_names_a_missing_model_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    fitted = json.loads(calibration.CALIBRATION.read_text(encoding="utf-8"))
    keyword = fitted["answer_check"]["keyword"]
    if "answer_model" not in keyword["features"]:  # a fit made without the model: name it here
        keyword["features"].append("answer_model")
        for key, value in (("mean", 0.0), ("weights", 0.0), ("scale", 1.0)):
            keyword[key].append(value)
    monkeypatch.setattr(answerability, "calibration", lambda: fitted)
    fitted.setdefault("data", {})["answer_model"] = {"file": "no-such-model.onnx"}
    answerability.answer_model.cache_clear()
    with pytest.raises(MissingModel, match=r"no-such-model\.onnx is missing"):
        Checker("Who was the first keeper?", None, None)
    # the shipped file under a checksum it does not have: weights fitted on another model's logits
    fitted["data"]["answer_model"] = {"file": answerability.MODEL_FILE, "sha256": "0" * 64}
    answerability.answer_model.cache_clear()
    with pytest.raises(MissingModel, match="not the one it was fitted with"):
        Checker("Who was the first keeper?", None, None)
    answerability.answer_model.cache_clear()


def test_a_verified_quote_is_judged_with_the_sentences_around_it_as_the_ranking_judged_it() -> None:
    # a citation keeps its quote normalized (one space for the line break, straight quotes): the check
    # finds it in the passage all the same, and reads the sentences around it, as for the raw sentence
    text = (
        "Intro line here.\nThe ‘snooze’ option delays\nevery alarm by ten minutes. Set it per device.\nEnd."
    )
    raw = "The ‘snooze’ option delays\nevery alarm by ten minutes."
    quote = "The 'snooze' option delays every alarm by ten minutes."
    assert answerability.window(quote, text) == answerability.window(raw, text) != quote
    hit = Hit(1, "/kb/alarms.md", 1, 4, None, "Alarms", text, 0.1)
    context = [answerability.model_passage(q, hit).split(" [SEP] ")[1] for q in (quote, raw)]
    assert context[0] == context[1] == "Intro line here. Set it per device."
