"""What the shipped answer check trades on a labelled set (`citeline calibrate SET --tradeoff`).

calibrate picks one threshold: the highest that keeps every set within its budget of false refusals.
This sweeps it instead, at the shipped weights, gate lines, floor and contradiction rule, and prints each
part of the set (the part the fit saw, the part it did not) at each threshold: the unanswerable questions
refused, the answerable ones refused, and on SQuAD-style sets the distractor and gold spans shown. A
target no threshold reaches on the held-out part is beyond what the check's features tell apart, whatever
line is fitted; a curve that reaches it says the budget, not the features, holds it back.

It reads the questions as calibrate asked them (cached in the set's eval work dir by data and code), so a
sweep after a refit costs seconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.answer import calibration, gate, rules
from engine.answer.answerability import Model, answer_model
from engine.backends.extractive import LOOK
from engine.eval import metrics
from engine.eval.calibrate import (
    Asked,
    Progress,
    asked_for,
    at_floor,
    fitted_part,
    outcomes,
    screened_out,
    through_gate,
)

THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def sweep(
    parts: Iterable[tuple[str, Sequence[Asked]]],
    m: Model,
    thresholds: Sequence[float] = THRESHOLDS,
    weight: float = 0.0,
    contradiction: bool = False,
) -> list[dict[str, Any]]:
    """One row per part and threshold: outcomes() of the part with the check at that threshold (the
    questions already through the gate and the floor)."""
    rows = []
    for name, part in parts:
        for t in thresholds:
            rows.append(
                {"part": name, "threshold": t}
                | outcomes(part, m, t, weight=weight, contradiction=contradiction)
            )
    return rows


def separation(part: Sequence[Asked], m: Model) -> dict[str, Any]:
    """What bounds any threshold on a part: how often the check's best probability among a question's
    ranked sentences puts an answerable question above an unanswerable one (ROC AUC, question level), and
    of the answerable questions the gate lets through, how often a gold-holding sentence is the
    generator's first, among its first three, or among all it ranks (the ceiling of "gold shown")."""
    passed = [a for a in part if a.gate_passed and a.values]
    best = {a.id: max(m.probability(v) for v in a.values[:LOOK]) for a in passed}
    answerable = [a for a in passed if a.answerable]
    pos = [best[a.id] for a in answerable]
    neg = [best[a.id] for a in passed if not a.answerable]
    out: dict[str, Any] = {"question_auc": round(metrics.roc_auc(pos, neg), 3) if pos and neg else None}
    for k in (1, 3, LOOK):
        hit = sum(any(a.gold[:k]) for a in answerable)
        out[f"gold_in_first_{k}"] = round(hit / len(answerable), 3) if answerable else None
    return out


def shipped_sweep(
    path: Path,
    with_vectors: bool = True,
    thresholds: Sequence[float] = THRESHOLDS,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """sweep() of the set at `path` with everything but the check's threshold as calibration.json has
    it: the gate's lines, the screening rules after it, the floor, the weight and the contradiction rule.
    The shipped threshold is added to `thresholds`, so its row is always there. With it, each part's
    separation()."""
    fitted = calibration.calibration()
    key = calibration.mode(with_vectors)
    m = Model.from_dict(fitted["answer_check"][key])
    lines = {kind: float(fitted["gate"][key][kind]["threshold"]) for kind in gate.KINDS}
    rule = fitted["rules"].get(rules.ContradictedFigure.name, {})
    scorer = answer_model() if "answer_model" in m.names else None
    dataset, asked, screened = asked_for(path, progress, scorer)
    screens = {s.id: replace(s, other=screened_out(s, fitted["rules"])) for s in screened}
    floor = calibration.extractive_floor()
    seen = {q.id for q in dataset.queries if fitted_part(dataset, q)}
    viewed = [at_floor(a, floor) for a in through_gate(asked, screens, key, lines)]
    split = (
        ("fitted", [a for a in viewed if a.id in seen]),
        ("held out", [a for a in viewed if a.id not in seen]),
    )
    parts = [(name, part) for name, part in split if part]
    rows = sweep(
        parts,
        m,
        sorted({*thresholds, m.threshold}),
        calibration.extractive_weight(),
        rule.get(rules.ContradictedFigure.key) is not None,
    )
    return rows, {name: separation(part, m) for name, part in parts}


def table(rows: Sequence[dict[str, Any]], shipped: float) -> str:
    """The sweep as a markdown table, the shipped threshold's rows marked."""
    keys = ["unanswerable_refused", "false_refusals", "plausible_shown", "gold_shown"]
    out = ["| part | threshold | " + " | ".join(keys) + " |", "|---|---|" + "---|" * len(keys)]
    for row in rows:
        mark = " (shipped)" if row["threshold"] == shipped else ""
        out.append(
            f"| {row['part']} | {row['threshold']:.2f}{mark} | "
            + " | ".join(f"{100 * row[k]:.1f} %" for k in keys)
            + " |"
        )
    return "\n".join(out)


def report(paths: Sequence[Path], progress: Progress | None = None) -> str:
    """The sweep of each set as `citeline calibrate SET... --tradeoff` prints it: its table, then each
    part's separation()."""
    shipped = Model.from_dict(calibration.calibration()["answer_check"]["vectors"]).threshold
    out = []
    for path in paths:
        rows, parts = shipped_sweep(path, progress=progress)
        out.append(f"## {path.name}: the shipped answer check (with vectors) at each threshold\n")
        out.append(table(rows, shipped) + "\n")
        out += [
            f"- {part}: " + "  ".join(f"{k} {v}" for k, v in seen.items()) for part, seen in parts.items()
        ]
        out.append("")
    return "\n".join(out)
