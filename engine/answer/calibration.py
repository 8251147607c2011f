"""The fitted lines the answer pipeline reads: calibration.json beside this file, written by
`citeline calibrate` (engine/eval/calibrate.py) from labelled data; see the README, "Answer check"."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

CALIBRATION = Path(__file__).with_name("calibration.json")


@cache
def calibration() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    return data


def mode(with_vectors: bool) -> str:
    """The key of a fitted line: answers with vectors, or keyword-only while vectors are pending."""
    return "vectors" if with_vectors else "keyword"


def extractive_floor() -> float:
    """The relevance the extractive generator asks of a sentence: fitted, else the line as designed."""
    from engine.backends.extractive import MIN_SCORE

    return float(calibration().get("extractive", {}).get("floor", MIN_SCORE))


def extractive_weight() -> float:
    """The weight of the answer check's probability in the extractive generator's choice among the
    sentences the check accepts (extractive.proposed): fitted, else 0 (the ranking alone)."""
    return float(calibration().get("extractive", {}).get("weight", 0.0))
