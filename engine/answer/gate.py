"""The evidence gate: refuse before any model is called when the retrieved evidence is too weak.

The score combines what a question needs from its evidence:
- coverage: the share of the question's content terms, weighted by rarity in the index (IDF), that the
  best single evidence chunk contains (a question about "Redis failover" is not answered by a chunk
  about Postgres failover, however similar the two read);
- dense: the best cosine between the question and an evidence chunk (MiniLM), which carries paraphrases.
score = COVERAGE_WEIGHT * coverage + (1 - COVERAGE_WEIGHT) * dense, refused below THRESHOLD.

The threshold is fitted from labelled data by `citeline calibrate` (engine/eval/calibrate.py) and read
from calibration.json, one for answers with vectors and one for keyword-only answers (where the dense
half is 0), and within each one per kind of evidence (`kind`: the top hit is a program's source, or
prose): the highest line that refuses at most the gate's budget of the answerable questions of any
labelled set's fitted part, the budget the largest that still holds on each set left out of the fit
(calibrate.choose_gate_budget). The two kinds score on scales of their own: the dense half reads a
sentence embedder trained on English prose, and the coverage half a code name's pieces. With one line,
whichever kind's answerable questions score lower held it down for both, and the other kind's unanswerable
questions passed; one line per kind refuses each kind's weak evidence by its own answerable questions
(fitted 2026-12-03 on ten labelled sets: code 0.30, prose 0.25, one line 0.25; on the three sets of
prose and boltons alone one line sat at 0.34, refusing 8 of express's 36 answerable questions).
THRESHOLD is the line used before any calibration exists. `citeline eval DATASET --calibrate-gate`
prints every question's features, the kind of its evidence, and their ROC AUC."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import english
from engine.answer.calibration import calibration, mode
from engine.events import Hit
from engine.ingest.extract import is_source
from engine.text import apart, content_terms, question_terms, stem, words

COVERAGE_WEIGHT = 0.5
THRESHOLD = 0.38
TOP = 5


KINDS = ("code", "prose")


def kind(hits: Sequence[Hit]) -> str:
    """The kind of evidence a question found: "code" where its top hit is a program's source
    (extract.is_source), else "prose" (documentation, notes, settings, pages)."""
    return KINDS[0] if hits and is_source(hits[0].path) else KINDS[1]


def threshold(with_vectors: bool, evidence: str = KINDS[1]) -> float:
    """The fitted line for this mode and kind of evidence (calibration.json), the mode's one line where
    none was fitted per kind, THRESHOLD where none was fitted at all."""
    fitted = calibration().get("gate", {}).get(mode(with_vectors), {})
    return float(fitted.get(evidence, fitted).get("threshold", THRESHOLD))


DocFreq = Callable[[str], tuple[int, int]]  # term -> (documents containing it, total documents)


@dataclass(frozen=True)
class GateDecision:
    passed: bool
    score: float
    coverage: float
    dense: float
    missing: tuple[str, ...]
    reason: str


def idf(term: str, doc_freq: DocFreq | None) -> float:
    if doc_freq is None:
        return 1.0
    df, n = doc_freq(term)
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def coverage(question: str, hits: Sequence[Hit], doc_freq: DocFreq | None) -> tuple[float, tuple[str, ...]]:
    """IDF-weighted share of question terms found in the best single chunk of the top hits."""
    terms = list(dict.fromkeys(question_terms(question)))
    if not terms or not hits:
        return 0.0, tuple(terms)
    weights = {t: idf(t, doc_freq) for t in terms}
    total = sum(weights.values()) or 1.0
    best, best_missing = 0.0, tuple(terms)
    for hit in hits[:TOP]:
        have = set(content_terms(hit.text + " " + hit.heading + " " + hit.path.rsplit("/", 1)[-1]))
        got = sum(w for t, w in weights.items() if t in have)
        if got / total > best:
            best, best_missing = got / total, tuple(t for t in terms if t not in have)
    return best, best_missing


_CODE_WORD = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*(?:_[A-Za-z0-9]|[a-z0-9][A-Z]|\.[A-Za-z_])[\w.]*")


def as_asked(question: str) -> dict[str, str]:
    """Each content term of the question -> the word as the question wrote it ("airspe" -> "airspeed"); a
    part of a code name -> the whole name ("backoff" -> "zzq_backoff_marker", "frobwidget" -> "frobWidget"):
    a refusal lists the name the user typed, not its pieces."""
    said: dict[str, str] = {}
    for name in _CODE_WORD.findall(question):
        name = name.rstrip(".")  # a sentence's full stop, not the name's
        for part in words(name):  # the terms the question's words make of it
            said.setdefault(stem(part), name)
    for w in words(question):
        said.setdefault(stem(w), w)
    return said


def topical(term: str, written: str, doc_freq: DocFreq | None) -> float:
    """How much a word the evidence lacks says what the question is about: rare in the folders (the
    term's IDF) and in English (english.rarity of the word as the question wrote it). "tick" or "JSONP"
    comes before "sometimes" or "away", which a source file never writes either. It orders the words a
    refusal names; the gate's score does not read it."""
    return idf(term, doc_freq) * english.rarity(written.lower())


def decide(
    question: str,
    hits: Sequence[Hit],
    doc_freq: DocFreq | None = None,
    threshold: float = THRESHOLD,
    weight: float = COVERAGE_WEIGHT,
) -> GateDecision:
    if not hits:
        return GateDecision(False, 0.0, 0.0, 0.0, (), "no evidence found")
    cov, missing = coverage(question, hits, doc_freq)
    dense = max((h.vector_score or 0.0) for h in hits[:TOP])
    score = weight * cov + (1 - weight) * dense
    if score < threshold:
        why = "the sources found say too little about the question"
        said = as_asked(question)
        if missing:  # the rarest words first, in the folders and in English: what the question is about
            written = {t: said.get(t) or t for t in missing}
            ranked = sorted(missing, key=lambda t: -topical(t, written[t], doc_freq))
            rarest = list(dict.fromkeys(written[t] for t in ranked))
            why += f"; not in them: {', '.join(rarest[:5])}"
        said_score, said_line = apart(score, threshold)
        why += f"; evidence score {said_score}, below the line {said_line}"
        return GateDecision(False, score, cov, dense, missing, why)
    return GateDecision(True, score, cov, dense, missing, "")
