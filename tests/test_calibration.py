"""The answer check's recorded decisions hold: extractive answers over each labelled set that
`citeline calibrate` recorded refuse exactly the questions it recorded (skipped without ../shared/eval).

A change to retrieval, the screening rules, the extractive generator or the answer check that moves a
decision fails here; re-run `citeline calibrate` (README, "Answer check") and look at the figures."""

from __future__ import annotations

import json
from pathlib import Path

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
        summary = evaluate_answers(engine, dataset, "extractive")["answers"]
    finally:
        engine.close()
    assert summary["refused_ids"] == RECORDED[name]["refused"]
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
