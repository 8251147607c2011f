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
