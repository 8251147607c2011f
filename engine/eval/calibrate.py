"""`citeline calibrate`: fit the answer check on labelled data and write engine/answer/calibration.json.

Data. Every labelled set given, each split once into a part the fit sees and a part it never sees:
- a SQuAD 2.0-style set (questions with `answers`, unanswerable ones with the tempting
  `plausible_answers` span) by article (datasets.heldout_articles: 3 articles held out);
- any other set (Meridian, LangChain: questions with gold files or supporting passages) by question,
  half and half by the SHA-256 of the question id.
Each question is asked the way the product asks it: evidence retrieved from the whole folder, the
screening rules, then the extractive generator's ranked sentences. A sentence is a positive when the
question is answerable and the sentence holds a gold answer span (SQuAD), overlaps a supporting passage
(LangChain) or comes from a gold file (sets with files only); every other sentence is a negative, the
sentences of unanswerable questions and their distractor spans among them.

Fit. L2-regularised logistic regression (projected Newton, standardised features; each weight within the sign
its feature's meaning gives it, answerability.SIGNS), each set weighing the same whatever its size, once with
every feature and once without the embedding features for keyword-only answers. Two lines refuse after the
gate: the extractive generator's relevance floor (a sentence below it is never proposed) and the check's
threshold. They are fitted together, on a grid of floors, each with its own fitted check: the pair refusing
the most unanswerable questions (each set's fitted part weighing the same) among those adding at most MAX_RISE
(or one question, where that is less: allowance) to the false refusals of any set's fitted part, against the
same questions answered with neither (the lowest floor, no check). The lines exist to refuse what the folders
do not answer, and what they may cost on questions they do answer is capped per kind of collection, so that no
one collection's style (SQuAD's questions were written by reading the paragraph, docs and code questions
paraphrase) sets the line for the others."""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.answer import calibration, gate, premise, rules
from engine.answer.answerability import (
    FEATURES,
    MODEL_FEATURES,
    SIGNS,
    VECTOR_FEATURES,
    AnswerModel,
    Checker,
    Model,
    model_passage,
)
from engine.answer.pipeline import gather
from engine.api import Engine
from engine.backends.embed_cache import Remembered
from engine.backends.extractive import LOOK, ExtractiveGenerator, proposed
from engine.eval.answers import holds, quote_overlaps
from engine.eval.datasets import Dataset, Query, heldout_articles

GATE_BUDGETS = (0.01, 0.02, 0.03)  # answerable questions the gate may refuse in a set's fitted part, tried
GATE_BUDGET = GATE_BUDGETS[-1]  # the default of choose_gate
RULE_BUDGET = 0.01  # answerable questions the rules after the gate together may refuse, per part (or 1)
MAX_RISE = 0.03  # false refusals the floor and the check may add on any set's fitted part (or 1: allowance)
L2 = 1.0
TRAIN_CANDIDATES = LOOK  # ranked sentences per question recorded: those the check may judge
FLOORS = tuple(round(0.025 * i, 3) for i in range(17))  # the extractive floors tried: 0 (none) to 0.40

Progress = Callable[[str], None]


@dataclass
class Asked:
    """One question as the pipeline saw it: whether the gate let it through, and its ranked sentences."""

    id: str
    answerable: bool
    gate_passed: bool
    values: list[list[float]]  # FEATURES of each ranked sentence
    gold: list[bool]  # the sentence holds a gold answer span
    plausible: list[bool]  # the sentence holds the distractor span
    chosen: list[bool]  # the extractive generator would propose it
    passages: list[str] = field(default_factory=list)  # what the answer model reads of each sentence
    relevance: list[float] = field(default_factory=list)  # the generator's score, which its floor reads
    adjusted: list[float] = field(default_factory=list)  # the score less the source's rank prior
    # of the question's given figures, those each sentence's shown text states, and those it states
    # another figure of the same kind for (premise.figure_support: what ContradictedFigure reads)
    support: list[list[list[str]]] = field(default_factory=list)


@dataclass
class Screened:
    """One question before any model: every screening rule's features (engine/answer/rules.py), the
    evidence gate's score with vectors and keyword-only, the kind of its evidence (gate.kind: the top hit
    is a program's source), and whether another screening rule (missing document) refuses it at its
    fitted line (set by fit_rules)."""

    id: str
    answerable: bool
    vectors: float
    keyword: float
    other: bool = False
    code: bool = False
    rules: dict[str, dict[str, float]] = field(default_factory=dict)


def screen_all(engine: Engine, dataset: Dataset, progress: Progress | None = None) -> list[Screened]:
    out: list[Screened] = []
    for i, q in enumerate(dataset.queries):
        hits, evidence = gather(engine, q.text)
        feats = rules.features(rules.context(engine, q.text, hits, evidence))
        gate_feats = feats.pop(rules.Gate.name)
        vectors, keyword, code = gate_feats["vectors"], gate_feats["keyword"], bool(gate_feats["code"])
        out.append(Screened(q.id, q.answerable, vectors, keyword, code=code, rules=feats))
        if progress is not None and i % 500 == 0:
            progress(f"{dataset.name}: screened {i}/{len(dataset.queries)}")
    return out


def above(key: str) -> Callable[[dict[str, float], dict[str, float | None]], bool]:
    """A screening rule that fires where its feature `key` is above its line (no line: never)."""

    def fires(feats: dict[str, float], lines: dict[str, float | None]) -> bool:
        line = lines.get(key)
        return line is not None and feats.get(key, 0.0) > line

    return fires


AFTER_GATE = (
    rules.MissingDocument,
    rules.UnsupportedFigure,
    rules.UnknownIdentifier,
    rules.UnknownName,
    rules.UnknownTopic,
    rules.ReversedDirection,
    rules.OppositeStated,
)  # in RULES' order
FIRES: dict[str, Callable[[dict[str, float], dict[str, float | None]], bool]] = {
    r.name: above(r.key) for r in AFTER_GATE
}


def _midpoints(values: Sequence[float]) -> list[float]:
    """Lines between consecutive distinct values, and one past each end."""
    v = sorted(set(values))
    if not v:
        return []
    return [v[0] - 0.5] + [round((a + b) / 2, 4) for a, b in itertools.pairwise(v)] + [v[-1] + 0.5]


def rule_allowance(answerable: int) -> float:
    """The answerable questions of a part the rules may refuse: RULE_BUDGET of them, or one where that is
    less than one, as the check's allowance and the gate's transfer test allow. Held to 1 % of a part of
    eleven, a rule that refused any one answerable question of the smallest set was switched off for every
    collection (2026-12-03: the contradiction rule, for one of structlog's, while it caught 12 of SQuAD's
    fitted unanswerable questions)."""
    return max(RULE_BUDGET * answerable, 1.0)


# each rule's line as designed, before any data (rules.py)
PRIORS: dict[str, dict[str, float]] = {r.name: {r.key: r.LINE} for r in AFTER_GATE}


def fit_rule(
    name: str, parts: Sequence[Sequence[Screened]], spent: Sequence[int] | None = None
) -> dict[str, float | None]:
    """The lines of one screening rule after the gate: its designed line (PRIORS) where that keeps every
    fitted part within its allowance of answerable questions (with `spent`, what the rules before it
    refuse there: the budget is shared), else the nearest stricter line that does; among those, the one
    refusing the most unanswerable questions of the fitted parts, and no fewer than the answerable ones it
    refuses (else the rule costs more than it earns and never fires). Every rule fires above its lines,
    so data only ever makes a rule stricter than designed. `parts`: the questions no earlier rule refuses."""
    fires = FIRES[name]
    prior = PRIORS[name]
    keys = tuple(prior)
    rows = [[(s.answerable, s.rules.get(name, {})) for s in part] for part in parts]
    spent = list(spent or [0] * len(rows))
    grids = []
    for k in keys:
        values = [*_midpoints([f[k] for part in rows for _, f in part if k in f]), prior[k]]
        grids.append(sorted({v for v in values if v >= prior[k]}))
    best: tuple[int, float, dict[str, float | None]] | None = None
    for combo in itertools.product(*grids):
        lines: dict[str, float | None] = dict(zip(keys, combo, strict=True))
        cost = [sum(a and fires(f, lines) for a, f in part) for part in rows]
        budget = [
            rule_allowance(sum(a for a, _ in part) + done) for part, done in zip(rows, spent, strict=True)
        ]
        if any(c + done > b for c, done, b in zip(cost, spent, budget, strict=True)):
            continue
        caught = sum(not a and fires(f, lines) for part in rows for a, f in part)
        if caught < sum(cost):
            continue
        reach = -sum(combo)  # ties: the line closest to the design
        if best is None or (caught, reach) > (best[0], best[1]):
            best = (caught, reach, lines)
    return best[2] if best is not None else dict.fromkeys(keys)


def rule_figures(
    screens: dict[str, tuple[list[Screened], list[Screened]]],
    fitted_lines: dict[str, dict[str, float | None]],
) -> dict[str, Any]:
    """What each screening rule refuses at its fitted line, per set and part: answerable (a cost) and
    unanswerable (what it earns)."""
    out: dict[str, Any] = {}
    for name, lines in fitted_lines.items():
        out[name] = {}
        for set_name, parts in screens.items():
            for part_name, part in zip(("fitted", "held out"), parts, strict=True):
                ans = [s for s in part if s.answerable]
                una = [s for s in part if not s.answerable]
                fired = [s for s in part if FIRES[name](s.rules.get(name, {}), lines)]
                out[name][f"{set_name} {part_name}"] = {
                    "answerable_refused": f"{sum(s.answerable for s in fired)}/{len(ans)}",
                    "unanswerable_refused": f"{sum(not s.answerable for s in fired)}/{len(una)}",
                }
    return out


def screened_out(s: Screened, lines: Mapping[str, dict[str, float | None]]) -> bool:
    """Whether a screening rule after the gate refuses the question at `lines` (each rule's, as fitted)."""
    return any(fires(s.rules.get(name, {}), lines[name]) for name, fires in FIRES.items())


def fit_rules(screens: dict[str, tuple[list[Screened], list[Screened]]]) -> dict[str, Any]:
    """Fit the screening rules after the gate on every set's fitted part, in their order, sharing one
    budget (each rule is fitted on the questions the rules before it let through), mark each question they
    refuse (Screened.other), and report their figures."""
    fitted_parts = [list(parts[0]) for parts in screens.values()]
    spent = [0] * len(fitted_parts)
    lines: dict[str, dict[str, float | None]] = {}
    for name in FIRES:
        lines[name] = fit_rule(name, fitted_parts, spent)
        refused = [[FIRES[name](s.rules.get(name, {}), lines[name]) for s in part] for part in fitted_parts]
        spent = [
            n + sum(s.answerable and r for s, r in zip(part, hit, strict=True))
            for n, part, hit in zip(spent, fitted_parts, refused, strict=True)
        ]
        fitted_parts = [
            [s for s, r in zip(part, hit, strict=True) if not r]
            for part, hit in zip(fitted_parts, refused, strict=True)
        ]
    for parts in screens.values():
        for part in parts:
            for s in part:
                s.other = screened_out(s, lines)
    return {"lines": lines, "figures": rule_figures(screens, lines)}


def choose_gate(parts: Sequence[Sequence[Screened]], key: str, budget: float = GATE_BUDGET) -> float:
    """The highest gate line refusing at most `budget` of the answerable questions of every part."""
    best = 0.0
    for t in np.arange(0.0, 0.8, 0.01):
        shares = [
            sum(getattr(s, key) < t for s in part if s.answerable) / max(1, sum(s.answerable for s in part))
            for part in parts
        ]
        if max(shares) <= budget + 1e-9:
            best = float(t)
    return round(best, 2)


def gate_transfers(
    parts: Mapping[str, Sequence[Screened]], key: str, budget: float
) -> tuple[bool, dict[str, str]]:
    """Whether a gate line fitted at `budget` holds on a collection it was not fitted on: each set's
    fitted part left out in turn, the line fitted on the others, the left-out part's answerable questions
    it refuses (at most the budget, or one question where the budget of that part is less than one).
    With each left-out part's line and count, for the record."""
    held = True
    record: dict[str, str] = {}
    for name, part in parts.items():
        answerable = sum(s.answerable for s in part)
        others = [p for other, p in parts.items() if other != name]
        if not answerable or not others:
            continue
        line = choose_gate(others, key, budget)
        refused = sum(getattr(s, key) < line for s in part if s.answerable)
        record[name] = f"{refused}/{answerable} at {line:.2f}"
        held = held and refused <= max(budget * answerable, 1.0) + 1e-9
    return held, record


def choose_gate_budget(parts: Mapping[str, Sequence[Screened]], key: str) -> tuple[float, dict[str, Any]]:
    """The largest of GATE_BUDGETS whose line holds on every labelled set left out of its fit
    (gate_transfers): a line at the edge of each set's budget sits where one more collection's answerable
    questions begin, and a collection it has not seen refuses more than the budget (2026-11-28: at 3 %
    the line fitted without the code set, 0.41, refused 4 of its 40). The smallest where none holds.
    With what each budget gave, for the record."""
    tried: dict[str, Any] = {}
    chosen = GATE_BUDGETS[0]
    for budget in GATE_BUDGETS:
        held, record = gate_transfers(parts, key, budget)
        tried[f"{budget:.2f}"] = {"holds": held, "left_out": record}
        if held:
            chosen = budget
    return chosen, tried


def evidence_kind(s: Screened) -> str:
    return gate.KINDS[0] if s.code else gate.KINDS[1]


def of_kind(parts: Mapping[str, Sequence[Screened]], kind: str) -> dict[str, list[Screened]]:
    """Each part's questions whose evidence is of `kind`, the parts with no answerable one left out."""
    mine = {name: [s for s in part if evidence_kind(s) == kind] for name, part in parts.items()}
    return {name: part for name, part in mine.items() if any(s.answerable for s in part)}


def fit_gate(parts: Mapping[str, Sequence[Screened]], key: str) -> dict[str, Any]:
    """The gate's line for each kind of evidence (gate.kind), each fitted on the questions of that kind
    as the one line was on all (choose_gate_budget, choose_gate): the kinds score on scales of their own
    (gate.py), and one line, held down by the kind whose answerable questions score lower, let the other
    kind's unanswerable questions through. A kind no fitted part has answerable questions of takes the
    line fitted on all ("all", recorded beside the two)."""
    budget, tried = choose_gate_budget(parts, key)
    pooled = {"threshold": choose_gate(list(parts.values()), key, budget), "budget": budget}
    out: dict[str, Any] = {"all": pooled | {"budgets_tried": tried}}
    for kind in gate.KINDS:
        mine = of_kind(parts, kind)
        if not mine:
            out[kind] = pooled | {"sets": []}
            continue
        budget, tried = choose_gate_budget(mine, key)
        line = choose_gate(list(mine.values()), key, budget)
        out[kind] = {"threshold": line, "budget": budget, "sets": sorted(mine), "budgets_tried": tried}
    return out


def through_gate(
    asked: Sequence[Asked], screens: dict[str, Screened], key: str, lines: Mapping[str, float]
) -> list[Asked]:
    """The questions as asked, with `gate_passed` as the fitted gate lines (one per kind of evidence) and
    the other rules decide."""
    return [
        replace(
            a,
            gate_passed=getattr(s := screens[a.id], key) >= lines[evidence_kind(s)] and not s.other,
        )
        for a in asked
    ]


def gated_sets(
    asked: Mapping[str, tuple[list[Asked], list[Asked]]],
    screens: Mapping[str, tuple[list[Screened], list[Screened]]],
    key: str,
    lines: Mapping[str, float],
) -> dict[str, tuple[list[Asked], list[Asked]]]:
    """Each set's parts through the gate at its `lines` (one per kind of evidence), every question read with
    its own set's screen: sets may number their questions alike ("c01" in every code set), never share their
    evidence. (Looked up across sets, the last set's screen stood for each shared id: harmless while no two
    fitted sets shared one, wrong once two code sets were fitted together.)"""
    out: dict[str, tuple[list[Asked], list[Asked]]] = {}
    for name, (fitted, held) in asked.items():
        mine = {s.id: s for part in screens[name] for s in part}
        out[name] = (through_gate(fitted, mine, key, lines), through_gate(held, mine, key, lines))
    return out


def ask_all(engine: Engine, dataset: Dataset, progress: Progress | None = None) -> list[Asked]:
    """Each question asked as the product asks it; the answer model's feature is left at 0 here and
    scored from `passages` by with_answer_model, so a new model needs no new asking."""
    # each text embedded once per run: a set's questions share their evidence (SQuAD asks five to ten
    # questions of each paragraph), so asking it re-embedded the same sentences many times
    shared = Remembered(engine.embedder().embed, capacity=None)
    embed = shared if engine.has_vectors() else None
    extractive = ExtractiveGenerator(shared)
    root = dataset.corpus_dir.resolve()
    out: list[Asked] = []
    for i, q in enumerate(dataset.queries):
        _, evidence = gather(engine, q.text)
        ranked = kept(extractive.scored(q.text, evidence))
        checker = Checker(q.text, engine.doc_freq, embed)
        asked = Asked(q.id, q.answerable, True, [], [], [], [])  # gate_passed: through_gate sets it
        for score, adjusted, cand in ranked:
            hit = evidence[cand.source - 1]
            asked.values.append(checker.values(cand.text, hit, with_model=False))
            asked.passages.append(model_passage(cand.text, hit))
            asked.gold.append(q.answerable and answers(q, cand.text, hit.path, root))
            asked.plausible.append(any(holds(a, cand.text) for a in q.plausible))
            asked.relevance.append(score)
            asked.adjusted.append(adjusted)
            stated, other = premise.figure_support(q.text, premise.shown_text(cand.text, hit))
            asked.support.append([sorted(stated), sorted(other)])
        asked.chosen = proposed(asked.adjusted)
        out.append(asked)
        if progress is not None and i % 100 == 0:
            progress(f"{dataset.name}: {i}/{len(dataset.queries)} questions")
    return out


def kept(scored: Sequence[tuple[float, float, Any]]) -> list[tuple[float, float, Any]]:
    """What a question's record keeps of the generator's scored sentences (best first): at every floor
    tried, the first TRAIN_CANDIDATES reaching it, so that at_floor sees at any of them what the
    generator would."""
    keep: set[int] = set()
    for floor in FLOORS:
        keep.update([i for i, row in enumerate(scored) if row[0] >= floor][:TRAIN_CANDIDATES])
    return [row for i, row in enumerate(scored) if i in keep]


def at_floor(a: Asked, floor: float) -> Asked:
    """The question as the generator sees it with relevance floor `floor`: the ranked sentences reaching
    it (the first TRAIN_CANDIDATES), and which it would propose (ExtractiveGenerator.generate)."""
    if len(a.relevance) != len(a.values):
        raise ValueError(f"{a.id}: recorded without relevance; ask the set again (delete its asked-*.json)")
    keep = [i for i, r in enumerate(a.relevance) if r >= floor][:TRAIN_CANDIDATES]

    def pick(values: list[Any]) -> list[Any]:
        return [values[i] for i in keep]

    return replace(
        a,
        values=pick(a.values),
        gold=pick(a.gold),
        plausible=pick(a.plausible),
        passages=pick(a.passages) if a.passages else [],
        chosen=proposed(pick(a.adjusted)),
        relevance=pick(a.relevance),
        adjusted=pick(a.adjusted),
        support=pick(a.support) if a.support else [],
    )


def answers(q: Query, quote: str, path: str, root: Path) -> bool:
    """Whether a sentence answers q by the set's own labels: a gold span, else a supporting passage,
    else a gold file."""
    if q.answers:
        return any(holds(a, quote) for a in q.answers)
    if q.passages:
        return quote_overlaps(quote, q.passages)
    return Path(path).resolve().relative_to(root).as_posix() in q.relevant


def fitted_part(dataset: Dataset, q: Query) -> bool:
    """Whether the fit may see q: SQuAD by article (split train), other sets by question id, half each."""
    if dataset.kind == "squad":
        return q.group not in heldout_articles({x.group for x in dataset.queries})
    return int(hashlib.sha256(q.id.encode("utf-8")).hexdigest(), 16) % 2 == 0


def columns(with_vectors: bool, with_model: bool = False) -> list[int]:
    return [
        i
        for i, n in enumerate(FEATURES)
        if (with_vectors or n not in VECTOR_FEATURES) and (with_model or n not in MODEL_FEATURES)
    ]


def fit(parts: Sequence[Sequence[Asked]], with_vectors: bool, with_model: bool = False) -> Model:
    """Logistic regression fitted for the decision the check makes, each part weighing the same, each
    weight within its feature's sign (SIGNS; threshold set later).

    A question is answered when any of the sentences the check judges passes, refused when none does
    (extractive.proposed), so the fit counts two things per question: an answerable question's sentence
    holding the answer should pass (one positive per answering sentence), and no sentence of a question
    the folder does not answer should pass (one negative per such question, over its judged sentences
    pooled: the probability that any of them passes, by log-sum-exp, so its most tempting sentence
    weighs most). An answerable question's other sentences are not counted: they decide no refusal,
    and counted as negatives (as until session 36) they taught the check to tell an answer from an
    off-topic sentence, which coverage and the cosine already do, rather than from a tempting one."""
    cols = columns(with_vectors, with_model)
    rows: list[list[float]] = []
    labels: list[float] = []
    groups: list[int] = []
    weights: list[float] = []
    for part in parts:
        items = [(a, [i]) for a in part if a.answerable for i, g in enumerate(a.gold) if g]
        items += [(a, list(range(min(LOOK, len(a.values))))) for a in part if not a.answerable and a.values]
        for a, places in items:
            for i in places:
                rows.append([a.values[i][c] for c in cols])
                labels.append(1.0 if a.answerable else 0.0)
                groups.append(len(weights))
            weights.append(1.0 / len(items))
    names = tuple(FEATURES[c] for c in cols)
    if not labels or min(labels) == max(labels):  # one kind only (a floor kept no unanswerable sentence):
        # nothing to tell apart, and no finite fit; a check of 0.5 everywhere, whose threshold passes all
        return Model(names, (0.0,) * len(cols), (1.0,) * len(cols), (0.0,) * len(cols), 0.0, 0.5)
    x = np.array(rows, dtype=np.float64)
    weight = np.array(weights)
    weight /= weight.mean()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    signs = np.array([0.0, *(SIGNS[n] for n in names)])  # the bias is free
    w = signed_logistic(z, np.array(labels), weight, signs, np.array(groups))
    return Model(names, tuple(mean), tuple(scale), tuple(w[1:]), float(w[0]), 0.5)


def signed_logistic(
    z: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    weight: npt.NDArray[np.float64],
    signs: npt.NDArray[np.float64],
    groups: npt.NDArray[np.int64] | None = None,
    l2: float = L2,
) -> npt.NDArray[np.float64]:
    """Weighted, ridge-penalised logistic regression (column 0 the unpenalised bias) whose coefficient j
    keeps the sign signs[j] (+1: at least 0, -1: at most 0, 0: free): projected Newton.

    `groups` (one per row, default each row its own) pools rows: a group is one item, `weight[g]` its
    weight, whose probability of being positive is that of any of its rows, log(1 + sum(exp(z_i)))
    as its negative's loss (log-sum-exp, the smooth maximum); a positive group is a single row, with
    the usual loss. Ungrouped, this is plain logistic regression. A coefficient at its bound that the
    gradient pushes further out stays there; the others take a Newton step, cut back to the bounds,
    halved until the loss falls. The loss is convex and the bounds a box, so it ends at the constrained
    optimum (where no constraint binds, the unconstrained one)."""
    group = np.arange(len(z)) if groups is None else np.asarray(groups)
    count = int(group.max()) + 1 if len(group) else 0
    if np.any(np.bincount(group, minlength=count)[group[y > 0]] > 1):
        raise ValueError("a positive group is a single row")
    ridge = np.full(z.shape[1], l2)
    ridge[0] = 0.0
    row_weight = weight[group]

    def pooled(w: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each group's log(1 + sum(exp(z_i))) and each row's share pi_i of it (its gradient in z_i)."""
        s = z @ w
        top = np.zeros(count)
        np.maximum.at(top, group, s)  # at least 0: the "1" term
        e = np.exp(s - top[group])
        total = np.exp(-top) + np.bincount(group, weights=e, minlength=count)
        return top + np.log(total), e / total[group]

    def loss(w: npt.NDArray[np.float64]) -> float:
        lse, _ = pooled(w)
        return float(np.sum(weight * lse) - np.sum(row_weight * y * (z @ w)) + 0.5 * np.sum(ridge * w * w))

    def project(w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.where(signs > 0, np.maximum(w, 0.0), np.where(signs < 0, np.minimum(w, 0.0), w))

    w = np.zeros(z.shape[1])
    current = loss(w)
    for _ in range(200):
        _, pi = pooled(w)
        grad = z.T @ ((pi - y) * row_weight) + ridge * w
        shares = np.zeros((count, z.shape[1]))
        np.add.at(shares, group, pi[:, None] * z)  # each group's sum of pi_i x_i
        hess = (z * (pi * row_weight)[:, None]).T @ z - (shares * weight[:, None]).T @ shares + np.diag(ridge)
        held = (signs != 0) & (w == 0.0) & (signs * grad > 0)  # at the bound, pushed beyond it
        free = ~held
        step = np.zeros_like(w)
        step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        target = project(w - step)
        t = 1.0
        while True:
            trial = w + t * (target - w)  # the box is convex: every point between is within it
            value = loss(trial)
            if value <= current + 1e-12 or t < 1e-6:
                break
            t /= 2
        moved = float(np.abs(trial - w).max())
        w, current = trial, value
        if moved < 1e-9:
            break
    return w


Probabilities = dict[str, list[float]]


def probabilities(asked: Sequence[Asked], m: Model) -> Probabilities:
    """The check's probability for each ranked sentence the generator may ask it of (0 for the others,
    and for every sentence of a question the gate refuses)."""
    return {
        a.id: [m.probability(v) if a.gate_passed and i < LOOK else 0.0 for i, v in enumerate(a.values)]
        for a in asked
    }


def shown(a: Asked, probs: Probabilities, threshold: float, weight: float) -> list[int]:
    """The places of the sentences the generator shows for `a` (none where the gate refuses it)."""
    if not a.gate_passed:
        return []
    mine = probs[a.id]
    picked = proposed(a.adjusted, lambda place: mine[place] if mine[place] >= threshold else None, weight)
    return [i for i, keep in enumerate(picked) if keep]


def contradicted(a: Asked, places: Sequence[int]) -> bool:
    """Whether ContradictedFigure fires on the sentences at `places` (premise.contradicted, replayed from
    what ask_all recorded of each)."""
    if not a.support or not places:
        return False
    stated = {f for i in places for f in a.support[i][0]}
    return any(set(a.support[i][1]) - stated for i in places)


def outcomes(
    asked: Sequence[Asked],
    m: Model | None,
    threshold: float,
    probs: Probabilities | None = None,
    weight: float = 0.0,
    contradiction: bool = False,
) -> dict[str, Any]:
    """The shown answer per question, as the pipeline decides it: the gate, then the sentences the
    generator proposes when the check judges them (extractive.proposed: the best ranked that reach the
    threshold, scored with `weight` times their probability); refused when none does, or (with
    `contradiction`: the rule's fitted line fires) when what they show says otherwise of a figure the
    question takes as given. `probs`: probabilities(asked, m) when already computed."""
    unans = [a for a in asked if not a.answerable]
    ans = [a for a in asked if a.answerable]
    if probs is None:
        assert m is not None, "outcomes needs the model or its probabilities"
        probs = probabilities(asked, m)

    shows = {a.id: shown(a, probs, threshold, weight) for a in asked}
    if contradiction:
        shows = {a.id: [] if contradicted(a, shows[a.id]) else shows[a.id] for a in asked}
    return {
        "questions": len(asked),
        "unanswerable_refused": _share(sum(not shows[a.id] for a in unans), len(unans)),
        "false_refusals": _share(sum(not shows[a.id] for a in ans), len(ans)),
        "plausible_shown": _share(sum(any(a.plausible[i] for i in shows[a.id]) for a in unans), len(unans)),
        "gold_shown": _share(sum(any(a.gold[i] for i in shows[a.id]) for a in ans), len(ans)),
    }


def _share(n: int, d: int) -> float:
    return round(n / d, 3) if d else 0.0


def allowance(answerable: int, max_rise: float = MAX_RISE) -> float:
    """The false refusals the floor and the check may add to a part of `answerable` answerable questions:
    `max_rise`, or one question where `max_rise` of the part is less than one. Without it, a set of a dozen
    answerable questions allows none, and the smallest set's every question holds the line for all
    (2026-12-03: fitted with two 36-question code sets, the check's line fell from 0.30 to 0.05). The one
    question is counted on shares rounded to three decimals (outcomes), so with their rounding."""
    if answerable and max_rise * answerable < 1:
        return 1 / answerable + 0.001
    return max_rise


def answerable_in(part: Sequence[Asked]) -> int:
    return sum(1 for a in part if a.answerable)


def choose_threshold(
    parts: Sequence[Sequence[Asked]], m: Model, base: Sequence[float], max_rise: float = MAX_RISE
) -> float | None:
    """The highest threshold adding to every part's `base` (its false refusals with neither floor nor
    check) at most its allowance of false refusals (`max_rise`, or one question: allowance); None when
    even no check (threshold 0) adds more."""
    probs = [probabilities(part, m) for part in parts]
    allowed = [allowance(answerable_in(part), max_rise) for part in parts]
    best: float | None = None
    for t in np.arange(0.0, 0.9, 0.01):
        rise = [
            outcomes(part, m, float(t), p)["false_refusals"] - b
            for part, p, b in zip(parts, probs, base, strict=True)
        ]
        if all(r <= a + 1e-9 for r, a in zip(rise, allowed, strict=True)):
            best = round(float(t), 2)
    return best


def auc(asked: Sequence[Asked], m: Model) -> float:
    """ROC AUC of the model's probability, gold-holding sentences against the rest."""
    pos = [m.probability(v) for a in asked for v, g in zip(a.values, a.gold, strict=True) if g]
    neg = [m.probability(v) for a in asked for v, g in zip(a.values, a.gold, strict=True) if not g]
    from engine.eval import metrics

    return round(metrics.roc_auc(pos, neg), 3) if pos and neg else 0.0


def with_threshold(m: Model, threshold: float) -> Model:
    return Model(m.names, m.mean, m.scale, m.weights, m.bias, threshold)


def data_hash(path: Path) -> str:
    """Every file of a labelled set, names and bytes."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(file.relative_to(path).as_posix().encode("utf-8"))
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


SCREENING = (
    "engine.answer.answerability",
    "engine.english",
    "engine.text",
    "engine.answer.gate",
    "engine.answer.missing",
    "engine.answer.premise",
    "engine.answer.rules",
    "engine.answer.pipeline",
    "engine.store.lexical",  # Engine.knows: a name looked up in the whole index
    "engine.store.catalog",  # Engine.mentions and Engine.together: a figure, a code or dotted name
)
FEATURE_CODE = (
    "engine.answer.answerability",
    "engine.english",
    "engine.backends.extractive",
    "engine.eval.calibrate",  # ask_all and what it keeps
    "engine.answer.pipeline",  # gather: the evidence the sentences come from
    "engine.answer.premise",  # figure_support, recorded for each sentence
    "engine.text",
    "engine.ingest.chunker",  # the passages themselves (the eval index is rebuilt when it changes)
    "engine.store.lexical",  # the keyword half of the ranking that picks the evidence
    "engine.retrieve.search",  # the fused ranking
)


def code_hash(modules: Sequence[str] = FEATURE_CODE) -> str:
    """What recorded questions depend on besides the data: the code that computed them."""
    import importlib

    digest = hashlib.sha256()
    for name in modules:
        digest.update(Path(str(importlib.import_module(name).__file__)).read_bytes())
    return digest.hexdigest()[:16]


def asked_cached(path: Path, ask: Callable[[], list[Asked]]) -> list[Asked]:
    """The questions as asked, from `path` when it was written for this code and data, else asked anew."""
    if path.is_file():
        return load_asked(path)
    asked = ask()
    dump(asked, path)
    return asked


def calibrate(
    sets: Sequence[Path],
    out: Path = calibration.CALIBRATION,
    progress: Progress | None = None,
    answer_model: Path | None = None,
    questions_only: Sequence[Path] = (),
) -> dict[str, Any]:
    """Ask every set's questions (kept in its eval work dir, keyed by data and code), fit on the fitted
    parts, score both parts, write the calibration file, then record each non-SQuAD set's extractive
    decisions with it. `answer_model`: an answerability cross-encoder (ONNX, tokenizer.json beside it)
    whose logit joins the check's features; the engine reads it from models/answerability/, so give the
    file shipped there (its sha256 is recorded). Without it the check is lexical and embedding only.
    `questions_only`: more labelled sets that fit what judges a question (the gate's lines, the screening
    rules, the check's budget: what any collection may lose) but not what judges a sentence (the check's
    weights), whatever they label. Measured (2026-12-03): taught the check's weights, the documentation
    sets' supporting passages lowered what it gives code's answers until no line above 0.06 kept every
    set within budget."""
    started = time.perf_counter()
    scorer = (
        None if answer_model is None else AnswerModel(answer_model, answer_model.with_name("tokenizer.json"))
    )
    asked: dict[str, tuple[list[Asked], list[Asked]]] = {}
    screens: dict[str, tuple[list[Screened], list[Screened]]] = {}
    spans: set[str] = set()  # sets that label the answer below the file (a span, a passage)
    data: dict[str, Any] = {"code": code_hash()}
    judged = {Path(p).resolve() for p in questions_only}
    for path in [*sets, *questions_only]:
        dataset, rows, screened = asked_for(path, progress, scorer)
        seen = {q.id for q in dataset.queries if fitted_part(dataset, q)}
        asked[dataset.name] = ([a for a in rows if a.id in seen], [a for a in rows if a.id not in seen])
        if Path(path).resolve() not in judged and any(q.answers or q.passages for q in dataset.queries):
            spans.add(dataset.name)
        screens[dataset.name] = (
            [s for s in screened if s.id in seen],
            [s for s in screened if s.id not in seen],
        )
        data[dataset.name] = {"hash": data_hash(path), "fitted": len(seen), "held_out": len(rows) - len(seen)}
        if Path(path).resolve() in judged:
            data[dataset.name]["questions_only"] = True
        if dataset.kind == "squad":
            data[dataset.name]["held_out_articles"] = sorted(
                heldout_articles({q.group for q in dataset.queries})
            )
    result = fit_and_score(asked, screens, spans, with_model=scorer is not None)
    if answer_model is not None:
        data["answer_model"] = {"file": answer_model.name, "sha256": file_sha256(answer_model)}
    result["data"] = data
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    calibration.calibration.cache_clear()
    result["decisions"] = {p.name: decisions(p) for p in [*sets, *questions_only] if not _is_squad(p)}
    result["seconds"] = round(time.perf_counter() - started, 1)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def load_set(path: Path) -> tuple[Dataset, Path]:
    from engine.eval.datasets import load
    from engine.eval.runner import default_work_dir

    work = default_work_dir(path)
    work.mkdir(parents=True, exist_ok=True)
    return load(path, work, split="all") if _is_squad(path) else load(path, work), work


def _is_squad(path: Path) -> bool:
    return (path / "passages.jsonl").is_file() and (path / "questions.jsonl").is_file()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def passage_key(passage: str) -> str:
    """How the answer model's oof.json names a proposed passage (its position may differ between two
    askings)."""
    return hashlib.sha256(passage.encode("utf-8")).hexdigest()[:16]


def with_answer_model(asked: list[Asked], dataset: Dataset, scorer: AnswerModel, path: Path) -> list[Asked]:
    """The questions as asked with the answer model's logit in its feature column (kept in `path`,
    keyed by the model's bytes: a few minutes for the SQuAD set). Where the model's oof.json (beside it)
    holds a pair, that score is used: it comes from a model trained without the pair's article, so the
    check's weights are not fitted on what the model learnt by heart."""
    if path.is_file():
        scores: dict[str, list[float]] = json.loads(path.read_text(encoding="utf-8"))
    else:
        text = {q.id: q.text for q in dataset.queries}
        flat = scorer.score_pairs([(text[a.id], p) for a in asked for p in a.passages])
        scores, at = {}, 0
        for a in asked:
            scores[a.id], at = flat[at : at + len(a.passages)], at + len(a.passages)
        path.write_text(json.dumps(scores), encoding="utf-8")
    oof_file = scorer.model_path.with_name("oof.json")
    oof: dict[str, dict[str, float]] = (
        json.loads(oof_file.read_text(encoding="utf-8")) if oof_file.is_file() else {}
    )
    column = FEATURES.index(MODEL_FEATURES[0])
    out = []
    for a in asked:
        held = oof.get(a.id, {})
        mine = [held.get(passage_key(p), s) for p, s in zip(a.passages, scores[a.id], strict=True)]
        values = [[*v[:column], s, *v[column + 1 :]] for v, s in zip(a.values, mine, strict=True)]
        out.append(replace(a, values=values))
    return out


def asked_for(
    path: Path, progress: Progress | None, scorer: AnswerModel | None = None
) -> tuple[Dataset, list[Asked], list[Screened]]:
    from engine.eval.runner import open_index

    dataset, work = load_set(path)

    def with_engine(run: Callable[[Engine], list[Any]]) -> Callable[[], list[Any]]:
        def go() -> list[Any]:
            engine, _ = open_index(dataset, work)
            try:
                return run(engine)
            finally:
                engine.close()

        return go

    key = f"{data_hash(path)}-{code_hash()}"
    asked = asked_cached(work / f"asked-{key}.json", with_engine(lambda e: ask_all(e, dataset, progress)))
    if scorer is not None:
        model_key = file_sha256(scorer.model_path)[:16]
        asked = with_answer_model(asked, dataset, scorer, work / f"model-{key}-{model_key}.json")
    screened_file = work / f"screened-{key}-{code_hash(SCREENING)}.json"
    if screened_file.is_file():
        screened = [Screened(**row) for row in json.loads(screened_file.read_text(encoding="utf-8"))]
    else:
        screened = with_engine(lambda e: screen_all(e, dataset, progress))()
        screened_file.write_text(json.dumps([s.__dict__ for s in screened]), encoding="utf-8")
    return dataset, asked, screened


# What is recorded of each other labelled set: enough to see a drift, small enough to read in a diff.
RECORDED = (
    "abstention",
    "false_refusals",
    "citation_precision",
    "cites_gold",
    "quotes_overlap_supporting_passage",
    "conflicts_flagged_both_cited",
    "evidence_holds_passage",
    "gold_shown",
    "plausible_shown",
)


def decisions(path: Path) -> dict[str, Any]:
    """Extractive answers over a labelled set with the fitted check, through the real pipeline: the
    figures and which questions are refused (tests/test_calibration.py fails when these drift)."""
    from engine.eval.answers import evaluate_answers
    from engine.eval.runner import open_index

    dataset, work = load_set(path)
    engine, _ = open_index(dataset, work)
    try:
        summary = evaluate_answers(engine, dataset, "extractive")["answers"]
    finally:
        engine.close()
    return {"figures": {k: summary[k] for k in RECORDED if k in summary}, "refused": summary["refused_ids"]}


def fit_and_score(
    asked: dict[str, tuple[list[Asked], list[Asked]]],
    screens: dict[str, tuple[list[Screened], list[Screened]]],
    spans: set[str],
    with_model: bool = False,
) -> dict[str, Any]:
    """The gate's lines, then the extractive floor and both answer-check models (with and without the
    embedding) behind them, their thresholds, and their figures per set and part beside the same
    questions without the check, and with neither floor nor check.

    The gate judges a question's evidence, and every set says which questions its folder answers: its
    lines are fitted on every set. The check's weights judge a sentence, so they learn from the sets that
    say which sentence answers (`spans`: a gold span or a supporting passage), not from those that only
    name a gold file (any sentence of it would count). The floor and the threshold refuse together: they
    are chosen as a pair (choose_floor) and held to MAX_RISE (allowance) on every set. The floor reads the
    generator's relevance, which uses the embedder whether or not the folders' vectors are there, so it is
    fitted once, with vectors, and the keyword-only check is fitted behind the same floor."""
    screening = fit_rules(screens)
    result: dict[str, Any] = {
        "gate": {},
        "rules": screening["lines"],
        "rule_figures": screening["figures"],
        "extractive": {},
        "answer_check": {},
        "budget": {},
        "figures": {},
    }
    modes: dict[str, Mode] = {}
    fitted_parts = {name: fitted for name, (fitted, _) in screens.items()}
    for key, vectors in (("vectors", True), ("keyword", False)):
        result["gate"][key] = fit_gate(fitted_parts, key)
        lines = {kind: result["gate"][key][kind]["threshold"] for kind in gate.KINDS}
        gated = gated_sets(asked, screens, key, lines)
        bare = {name: (neither(fitted), neither(held)) for name, (fitted, held) in gated.items()}
        modes[key] = Mode(
            vectors, lines, gated, bare, [fitted["false_refusals"] for fitted, _ in bare.values()]
        )
    floor, tried = choose_floor(modes["vectors"], spans, with_model, also=[modes["keyword"]])
    result["extractive"] = {"floor": floor, "tried": tried}
    for key, mode in modes.items():
        vectors, gated, bare, base = mode.vectors, mode.gated, mode.bare, mode.base
        checked = check_at(gated, spans, vectors, with_model, floor, base)
        m, viewed = checked.model, checked.viewed
        if "weight" not in result["extractive"]:  # fitted once, with vectors, as the floor
            weight, weighed = choose_weight([viewed[name][0] for name in viewed if name in spans], m)
            result["extractive"] |= {"weight": weight, "weights_tried": weighed}
        weight = result["extractive"]["weight"]
        if key == "vectors":  # fitted once, with vectors, as the floor; used keyword-only too
            kept, caught = fit_contradiction(viewed, m, weight)
            result["rules"][rules.ContradictedFigure.name] = {rules.ContradictedFigure.key: kept}
            result["rule_figures"][rules.ContradictedFigure.name] = caught
        on = result["rules"][rules.ContradictedFigure.name][rules.ContradictedFigure.key] is not None
        result["answer_check"][key] = m.as_dict()
        # the keyword-only check sits behind the floor fitted with vectors: whether that pair keeps the
        # budget too is recorded, not assumed
        result["budget"][key] = {
            "max_rise": MAX_RISE,
            "rise": round(checked.rise, 3),
            "within": checked.within,
        }
        result["figures"][key] = {
            f"{name} {part_name}": outcomes(view, m, m.threshold, weight=weight, contradiction=on)
            | {"without_contradiction": outcomes(view, m, m.threshold, weight=weight)}
            | {"without_check": outcomes(view, m, 0.0, weight=weight)}
            | {"without_floor_or_check": unfloored}
            | {"auc": auc(view, m)}
            for name in gated
            for part_name, view, unfloored in zip(
                ("fitted", "held out"), viewed[name], bare[name], strict=True
            )
        }
    return result


def fit_contradiction(
    viewed: dict[str, tuple[list[Asked], list[Asked]]], m: Model, weight: float
) -> tuple[float | None, dict[str, Any]]:
    """ContradictedFigure's line (its designed LINE, or None: it never fires) and what it refuses of the
    answers the fitted check lets through, per set and part. As the screening rules before the model
    (fit_rule), it is kept where it refuses at most its allowance of every set's fitted answerable
    questions and no fewer unanswerable ones than answerable. It judges
    a question, as they do, so every set counts, not only those labelling the answering sentence."""
    fired: dict[str, Any] = {}
    cost, caught, within = 0, 0, True
    for name, parts in viewed.items():
        for part_name, part in zip(("fitted", "held out"), parts, strict=True):
            probs = probabilities(part, m)
            fires = [a for a in part if contradicted(a, shown(a, probs, m.threshold, weight))]
            ans, una = sum(a.answerable for a in part), sum(not a.answerable for a in part)
            n_ans, n_una = sum(a.answerable for a in fires), sum(not a.answerable for a in fires)
            fired[f"{name} {part_name}"] = {
                "answerable_refused": f"{n_ans}/{ans}",
                "unanswerable_refused": f"{n_una}/{una}",
            }
            if part_name == "fitted":
                cost, caught = cost + n_ans, caught + n_una
                within = within and n_ans <= rule_allowance(ans)
    keep = within and caught >= cost
    return (rules.ContradictedFigure.LINE if keep else None), fired


@dataclass
class Checked:
    """The check fitted behind one floor: the model with its threshold, every part as the generator sees
    it at that floor, their figures at the threshold (fitted parts), the false refusals the pair adds to
    each fitted part and what each may add (allowance)."""

    model: Model
    viewed: dict[str, tuple[list[Asked], list[Asked]]]
    figures: list[dict[str, Any]]
    rises: list[float]
    allowed: list[float]

    @property
    def rise(self) -> float:
        return max(self.rises)

    @property
    def within(self) -> bool:
        return all(r <= a + 1e-9 for r, a in zip(self.rises, self.allowed, strict=True))


def check_at(
    gated: dict[str, tuple[list[Asked], list[Asked]]],
    spans: set[str],
    vectors: bool,
    with_model: bool,
    floor: float,
    base: Sequence[float],
) -> Checked:
    """The check fitted behind relevance floor `floor`, its threshold the highest adding at most MAX_RISE
    (allowance) false refusals to `base`, each set's fitted part answered with neither (0 when none does)."""
    viewed = {
        name: ([at_floor(a, floor) for a in parts[0]], [at_floor(a, floor) for a in parts[1]])
        for name, parts in gated.items()
    }
    fitted = [part for part, _ in viewed.values()]
    m = fit([viewed[name][0] for name in viewed if name in spans], vectors, with_model)
    threshold = choose_threshold(fitted, m, base)
    m = with_threshold(m, 0.0 if threshold is None else threshold)
    figures = [outcomes(part, m, m.threshold) for part in fitted]
    rises = [f["false_refusals"] - b for f, b in zip(figures, base, strict=True)]
    return Checked(m, viewed, figures, rises, [allowance(answerable_in(part)) for part in fitted])


WEIGHTS = tuple(round(w, 2) for w in np.arange(0.0, 0.41, 0.05))  # of the check's probability (proposed)


def binomial_variance(share: float, n: int) -> float:
    """The variance of a share of n questions (0 where there are none)."""
    return share * (1 - share) / n if n else 0.0


def lowest_within_one_error(scored: Sequence[tuple[float, float, float]]) -> float | None:
    """Of (setting, score, the score's standard error), the lowest setting whose score is within one
    standard error of the best's: the one-standard-error rule, which takes the simplest setting the data
    cannot tell from the best (a score flat across settings otherwise picks one by a hair, and any change
    upstream picks another). None for none."""
    if not scored:
        return None
    _, best, error = max(scored, key=lambda s: (s[1], -s[0]))
    return min(setting for setting, score, _ in scored if score >= best - error - 1e-9)


def choose_weight(viewed: Sequence[Sequence[Asked]], m: Model) -> tuple[float, list[dict[str, Any]]]:
    """The weight of the check's probability in the generator's choice among the sentences it accepts
    (extractive.proposed): of WEIGHTS, by the answering sentences shown less the distractors shown,
    summed over `viewed` (the fitted parts of the sets that label the answering sentence), the lowest
    within one standard error of the best (lowest_within_one_error; the error, the binomial one of that
    sum). It moves no refusal (the check accepts what it accepts; the weight only orders those). With
    each weight's figures, for the record."""
    probs = [probabilities(part, m) for part in viewed]
    counts = [
        (sum(1 for a in part if a.answerable), sum(1 for a in part if not a.answerable)) for part in viewed
    ]
    tried: list[dict[str, Any]] = []
    scored: list[tuple[float, float, float]] = []
    for weight in WEIGHTS:
        figures = [outcomes(part, m, m.threshold, p, weight) for part, p in zip(viewed, probs, strict=True)]
        gain = round(sum(f["gold_shown"] - f["plausible_shown"] for f in figures), 3)
        error = float(
            np.sqrt(
                sum(
                    binomial_variance(f["gold_shown"], n_ans)
                    + binomial_variance(f["plausible_shown"], n_unans)
                    for f, (n_ans, n_unans) in zip(figures, counts, strict=True)
                )
            )
        )
        tried.append(
            {"weight": weight, "gold_shown_less_plausible_shown": gain, "standard_error": round(error, 3)}
        )
        scored.append((weight, gain, error))
    chosen = lowest_within_one_error(scored)
    return (0.0 if chosen is None else chosen), tried


@dataclass
class Mode:
    """One way answers are made (with vectors, or keyword-only while they are pending): its gate line,
    every set's parts through that gate, their figures with neither floor nor check, and the false
    refusals of the fitted parts there (what the budget is counted against)."""

    vectors: bool
    lines: dict[str, float]  # the gate's, per kind of evidence
    gated: dict[str, tuple[list[Asked], list[Asked]]]
    bare: dict[str, tuple[dict[str, Any], dict[str, Any]]]
    base: list[float]


def choose_floor(
    mode: Mode, spans: set[str], with_model: bool, also: Sequence[Mode] = ()
) -> tuple[float, list[dict[str, Any]]]:
    """The extractive floor: of FLOORS, each with its own fitted check and threshold, among those whose
    pair keeps every fitted part within MAX_RISE (allowance) of no floor and no check (`mode.base`), the
    lowest that refuses as many unanswerable questions as the best within one standard error (the share
    refused is the mean over the fitted parts that have any; its standard error, the binomial one of that
    mean). The fitted share is flat across most floors, so the floor that scores best moved by a hair with any
    change upstream (0 to 0.275 between refits, and with it which sentences the answers show); the
    one-standard- error rule takes the simplest line the data cannot tell from the best: the lowest floor,
    which leaves the refusing to the check. The floor is one for every mode (the generator's relevance reads
    the embedder whether or not the folders' vectors are there), so a floor qualifies only where the check
    fitted behind it in each mode of `also` (keyword-only) keeps the budget too: one that alone refuses past
    it there would leave keyword-only answers with no check at all. With what each floor tried gives, for the
    record."""
    qualified: list[tuple[float, float, float]] = []  # (floor, share refused, its standard error)
    tried: list[dict[str, Any]] = []
    for floor in FLOORS:
        checked = check_at(mode.gated, spans, mode.vectors, with_model, floor, mode.base)
        others = all(check_at(m.gated, spans, m.vectors, with_model, floor, m.base).within for m in also)
        shares = [  # (share refused, unanswerable questions) of each fitted part that has any
            (f["unanswerable_refused"], n)
            for f, (part, _) in zip(checked.figures, checked.viewed.values(), strict=True)
            if (n := sum(1 for a in part if not a.answerable))
        ]
        refused = float(np.mean([p for p, _ in shares] or [0.0]))
        error = (
            float(np.sqrt(sum(binomial_variance(p, n) for p, n in shares)) / len(shares)) if shares else 0.0
        )
        false = float(np.mean([f["false_refusals"] for f in checked.figures]))
        tried.append(
            {
                "floor": floor,
                "threshold": checked.model.threshold,
                "within_budget": checked.within,
                "within_budget_keyword_only": others,
                "unanswerable_refused": round(refused, 3),
                "standard_error": round(error, 3),
                "false_refusals": round(false, 3),
            }
        )
        if checked.within and others:
            qualified.append((floor, refused, error))
    chosen = lowest_within_one_error(qualified)
    return (FLOORS[0] if chosen is None else chosen), tried


def neither(asked: Sequence[Asked]) -> dict[str, Any]:
    """outcomes() with neither floor nor check: what the budget is counted against."""
    return unchecked([at_floor(a, FLOORS[0]) for a in asked])


def unchecked(asked: Sequence[Asked]) -> dict[str, Any]:
    """outcomes() with no check: every proposed sentence shown."""
    return outcomes(asked, None, 0.0, {a.id: [0.0] * len(a.values) for a in asked})


def dump(asked: Sequence[Asked], path: Path) -> None:
    path.write_text(json.dumps([a.__dict__ for a in asked]), encoding="utf-8")


def load_asked(path: Path) -> list[Asked]:
    return [Asked(**row) for row in json.loads(path.read_text(encoding="utf-8"))]
