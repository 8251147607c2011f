"""`citeline calibrate SET --tradeoff`: the shipped check swept over thresholds (engine/eval/tradeoff.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.answer import calibration
from engine.answer.answerability import FEATURES, Model
from engine.eval.calibrate import Asked
from engine.eval.tradeoff import report, separation, shipped_sweep, sweep, table

MERIDIAN = Path(__file__).resolve().parents[2] / "shared" / "eval" / "meridian_simpleragsearch"


def _asked(qid: str, answerable: bool, cosine: float) -> Asked:
    """One question with one ranked sentence whose cosine alone the toy check reads; it holds the gold
    span when the question is answerable, the distractor's when not."""
    values = [0.0] * len(FEATURES)
    values[FEATURES.index("cosine_chunk")] = cosine
    return Asked(qid, answerable, True, [values], [answerable], [not answerable], [True], [], [0.5], [0.5])


# a toy check reading the cosine alone (probability = sigmoid(cosine)), and four questions it gives 0.88 and
# 0.50 (answerable) and 0.27 and 0.73 (not)
CHECK = Model(("cosine_chunk",), (0.0,), (1.0,), (1.0,), 0.0, 0.5)
PART = [_asked("a1", True, 2.0), _asked("a2", True, 0.0), _asked("u1", False, -1.0), _asked("u2", False, 1.0)]


def test_the_sweep_refuses_more_of_each_part_as_the_threshold_rises() -> None:
    m, part = CHECK, PART
    rows = sweep([("fitted", part), ("held out", part[:1] + part[2:3])], m, (0.0, 0.3, 0.6, 0.8))
    assert [(r["part"], r["threshold"]) for r in rows[:4]] == [("fitted", t) for t in (0.0, 0.3, 0.6, 0.8)]
    fitted = [
        (r["unanswerable_refused"], r["false_refusals"], r["plausible_shown"], r["gold_shown"])
        for r in rows[:4]
    ]
    assert fitted == [(0.0, 0.0, 1.0, 1.0), (0.5, 0.0, 0.5, 1.0), (0.5, 0.5, 0.5, 0.5), (1.0, 0.5, 0.0, 0.5)]
    held = [(r["unanswerable_refused"], r["false_refusals"]) for r in rows[4:]]
    assert held == [(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)]
    # a question the gate refused is refused at every threshold, whatever its sentence scores
    gated = sweep([("p", [replace(part[0], gate_passed=False)])], m, (0.0,))
    assert gated[0]["false_refusals"] == 1.0
    assert "| fitted | 0.30 (shipped) | 50.0 % | 0.0 % | 50.0 % | 100.0 % |" in table(rows, 0.3).splitlines()


def test_separation_bounds_what_any_threshold_can_do() -> None:
    m, part = CHECK, PART
    # a third answerable question whose gold sentence the generator ranks second, behind one that scores 3
    second = _asked("a3", True, 3.0)
    late = replace(second, values=second.values * 2, gold=[False, True], plausible=[False, False])
    seen = separation([*part, late], m)
    # best probabilities: answerable 0.88, 0.50, 0.95 against 0.27 and 0.73: 5 of 6 pairs in order
    assert seen["question_auc"] == round(5 / 6, 3)
    assert seen["gold_in_first_1"] == round(2 / 3, 3) and seen["gold_in_first_3"] == 1.0
    # a question the gate refused is not the check's to separate
    assert separation([*part, replace(late, gate_passed=False)], m)["question_auc"] == 0.75


@pytest.mark.eval
def test_the_shipped_sweep_asks_a_set_afresh_and_meets_the_calibration_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked afresh (an empty cache), Meridian through the shipped gate, rules, floor and check gives, at
    the shipped threshold, the figures calibrate recorded for both its parts."""
    if not MERIDIAN.is_dir():
        pytest.skip(f"evaluation data not present: {MERIDIAN}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shipped = calibration.calibration()["answer_check"]["vectors"]["threshold"]
    rows, parts = shipped_sweep(MERIDIAN, thresholds=(0.0,))
    recorded = json.loads(calibration.CALIBRATION.read_text(encoding="utf-8"))["figures"]["vectors"]
    for part in ("fitted", "held out"):
        row = next(r for r in rows if r["part"] == part and r["threshold"] == shipped)
        expected = recorded[f"{MERIDIAN.name} {part}"]
        for key in ("questions", "unanswerable_refused", "false_refusals", "gold_shown"):
            assert row[key] == expected[key], (part, key)
        bare = next(r for r in rows if r["part"] == part and r["threshold"] == 0.0)
        assert bare["false_refusals"] <= row["false_refusals"]
    assert any(Path(tmp_path).rglob("asked-*.json"))  # asked here, not read from the user's cache
    text = report([MERIDIAN]).splitlines()  # as the CLI prints it, from the questions just cached
    assert sum("(shipped)" in line for line in text) == 2 and text[-1].startswith("- held out: question_auc")
    assert set(parts) == {"fitted", "held out"} and all(0 < p["gold_in_first_6"] <= 1 for p in parts.values())
