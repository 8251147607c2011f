"""The answer check: does a verified quote answer the question, not only come from the sources?

A quote can be verbatim and still not answer: the question's premise may be false ("What treaty was
signed in the 9th century?" over a text that says 911), it may ask about another entity than the one the
quote names, or be negated. The check reads the question, the quote, the lines it sits on and the chunk
around it, and turns them into a few features:

- coverage of the question's words (IDF-weighted) in the quote, in the lines around it, in the chunk;
- the rarest question word the chunk lacks (a false premise usually adds one), a question figure it
  lacks, a capitalised question name it lacks;
- the kind of answer asked for (a figure, a name) and whether the quote brings one the question does not
  already hold; a question asking for what is not so ("What type of law does not make states follow
  it?": asks_negated) over a quote that negates nothing; a quote that says, undenied, what the question
  asks about as not so ("not strictly contained" asked, "strictly contained" said); a quote that says the
  opposite of a question word its sentences lack ("father" for "son", "after" for "before":
  english.ANTONYMS); how much the quote adds to the question;
- the MiniLM cosine of the question with the quote's chunk (left out in keyword-only mode; the cosine with
  the quote itself was a feature until its fitted weight measured 0.06 of a standard deviation and the
  held-out AUC the same without it, 2026-11-27: it cost an embedding per judged sentence);
- optionally, the logit of a small cross-encoder that reads the question and the quote in its window
  together (`answer_model`, models/answerability/; AnswerModel below). It is used only when the fitted
  check names it: `citeline calibrate` fits it in only when given the model, and keeps it only where it
  measured better (README, "Answer check").

A logistic model over them gives the probability that the quote answers. Its weights (each within the
sign its feature's meaning gives it, SIGNS) and the threshold a sentence must reach are fitted by
`citeline calibrate` on labelled data (SQuAD 2.0 training articles, LangChain's supporting passages: each
quote holding the answer against each unanswerable question's judged quotes, pooled, so the tempting
`plausible_answers` sentence weighs most; calibrate.fit) and loaded from `calibration.json` beside this
file. Nothing here names a collection, a question or a file.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine import english
from engine.answer.calibration import calibration, mode
from engine.answer.gate import DocFreq, idf
from engine.errors import MissingModel
from engine.events import Hit
from engine.ingest.extract import TABLE_SUFFIXES
from engine.text import (
    STOP,
    Embed,
    content_terms,
    embedding_text,
    figure_value,
    normalize,
    normalized_with_map,
    question_terms,
    split_sentences,
    stem,
    words,
)
from models.locator import sha256_file

PREFIX = 5  # words sharing their first PREFIX letters count as one (promoted/promotion)
FEATURES = (
    "cover_quote",
    "cover_window",
    "cover_chunk",
    "rarest_missing",
    "figure_missing",
    "name_missing",
    "figure_wanted_absent",
    "name_wanted_absent",
    "negation_unmatched",
    "negation_swapped",
    "antonym_quoted",
    "novelty",
    "cosine_chunk",
    "answer_model",
)
# The direction each feature's meaning gives its weight: +1, more of it can only make a quote likelier to
# answer (coverage, the cosine, the answer model); -1, only less likely (something the question holds that
# the quote's context lacks, an answer kind asked for and absent, an unmatched negation); 0, either way
# (novelty: an answer adds to the question, a quote adding only other things is off the point).
# `citeline calibrate` fits the weights within these signs: SQuAD's unanswerable questions were written by
# people reading the paragraph, so there its words in a quote count against it and its missing words for
# it, which an unconstrained fit learnt (cover_quote -0.17, cover_window -0.59, rarest_missing +0.16) and
# which holds on no folder a user writes questions about.
SIGNS = {
    "cover_quote": 1,
    "cover_window": 1,
    "cover_chunk": 1,
    "rarest_missing": -1,
    "figure_missing": -1,
    "name_missing": -1,
    "figure_wanted_absent": -1,
    "name_wanted_absent": -1,
    "negation_unmatched": -1,
    "negation_swapped": -1,
    "antonym_quoted": -1,
    "novelty": 0,
    "cosine_chunk": 1,
    "answer_model": 1,
}
VECTOR_FEATURES = ("cosine_chunk",)
MODEL_FEATURES = ("answer_model",)  # from AnswerModel: fitted in only when calibrate is given a model
MODEL_TOKENS = 192  # question + quote + its window, in wordpieces (the cut falls on the window's end)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*")


@dataclass
class Question:
    """What the check needs of a question, computed once per answer."""

    text: str
    weights: dict[str, float]
    figures: frozenset[str]
    names: frozenset[str]
    wants_figure: bool
    wants_name: bool
    negated: bool  # it asks for what is not so (asks_negated)
    top_idf: float
    stems: frozenset[str]  # every word, function words too ("before", "most"), as the index stems it
    denied: frozenset[str]  # what the question asks about as not so (denied_terms)
    polar: bool  # it asks yes or no
    vectors: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)

    @classmethod
    def read(cls, text: str, doc_freq: DocFreq | None) -> Question:
        terms = list(dict.fromkeys(question_terms(text)))
        n = doc_freq("")[1] if doc_freq is not None else 0
        return cls(
            text,
            {t: idf(t, doc_freq) for t in terms},
            premises(text),
            names(text),
            bool(english.WANTS_FIGURE.search(text)),
            bool(english.WANTS_NAME.search(text)),
            asks_negated(text),
            math.log(1 + (n + 0.5) / 0.5) if n else 1.0,
            stems(text),
            denied_terms(text),
            polar(text),
        )

    def cosines(self, texts: Sequence[str], embed: Embed | None) -> list[float]:
        """The question's cosine with each text (each text embedded once per answer)."""
        if embed is None:
            return [0.0 for _ in texts]
        todo = list(dict.fromkeys(t for t in [self.text, *texts] if t not in self.vectors))
        if todo:
            self.vectors.update(zip(todo, embed(todo), strict=True))
        q = self.vectors[self.text]
        return [float(self.vectors[t] @ q) for t in texts]


def spelled(figure: str) -> str:
    """A figure as written (a match of english.FIGURE), in its one spelling (1990s -> 1990, 17th -> 17,
    5.0 -> 5, 1,000 -> 1000)."""
    return figure_value(figure.lower().rstrip("stndrh").replace(",", ""))


def figures(text: str) -> frozenset[str]:
    """The figures a text writes in digits, one spelling each (`spelled`)."""
    text = unicodedata.normalize("NFKC", text)  # full-width digits are digits
    return frozenset(spelled(m) for m in english.FIGURE.findall(text))


def stated_figures(text: str) -> frozenset[str]:
    """The figures a text states, in digits, in number words or in Roman numerals ("seventeenth", "II"):
    what a question's figures are looked for in. A clock time or a duration, one figure, also states its
    leading part and each of its numbers ("11:45:30" states 11:45, 11, 45 and 30; a log line's time, a
    port mapping "22:22", a slice "items[10:20]"); not another time it holds ("1:45" in "11:45")."""
    return figures(text) | english.written_figures(text) | clock_parts(text)


def clock_parts(text: str) -> frozenset[str]:
    """What the clock times and durations of `text` state besides themselves: each one's leading part and
    each of its numbers (stated_figures)."""
    return frozenset(
        figure_value(part)
        for m in _CLOCK.finditer(unicodedata.normalize("NFKC", text))
        for part in (m.group().rsplit(":", 1)[0], *m.group().split(":"))
    )


_CLOCK = re.compile(r"(?<![\d:])\d{1,2}(?::[0-5]\d){1,2}(?![\d:])")


def premises(question: str) -> frozenset[str]:
    """The figures a question takes as given, in digits or in number words (english.worded_figures: "keep
    ten copies", not "which two modes"): those of each clause (english.clauses) that does not ask how
    to do something, request something or suppose something, whose figures are the user's own
    (english.OWN_FIGURES; of a request, those of the question it embeds are premises: english.stated_part,
    "Can you tell me why it keeps 5 copies?"), nor those of an example it gives (english.without_examples:
    "e.g. how does 1.0~rc1 compare with 1.0?") or a markup command's arguments (english.without_arguments:
    "\\inteval{7/2}"). A clause of its own that states a figure as a fact is a premise even where
    another asks how ("It fails with 415 by default; how do I change that status?")."""
    clauses = english.clauses(question)
    stated = [english.without_arguments(english.without_examples(english.stated_part(c))) for c in clauses]
    return frozenset[str]().union(*(figures(c) | set(english.worded_figures(c)) for c in stated))


def names(text: str) -> frozenset[str]:
    """Capitalised words not opening a sentence (a crude, language-light name finder), as stems."""
    return frozenset(t for m in _NAME.findall(text) for t in content_terms(m))


def stems(text: str) -> frozenset[str]:
    """Every word of the text, function words too, as the keyword index stems it."""
    return frozenset(stem(w) for w in words(text))


@functools.cache
def opposites() -> dict[str, frozenset[str]]:
    """english.ANTONYMS as stems: each stem to the stems of its opposites."""
    found: dict[str, set[str]] = {}
    for a, b in english.ANTONYMS:
        sa, sb = stem(a), stem(b)
        if sa != sb:
            found.setdefault(sa, set()).add(sb)
            found.setdefault(sb, set()).add(sa)
    return {k: frozenset(v) for k, v in found.items()}


def antonym_quoted(q: Question, quote: str, around: str) -> bool:
    """Whether the quote says the opposite of a word of the question that its sentences (`around`) never
    say: the question asks about a "son" where the quote names a "father", "before" where it says
    "after" (english.ANTONYMS). An opposite the question holds too ("the first and the last") counts not."""
    if q.polar:  # "Does it run before the hook?" is answered by "it runs after the hook"
        return False
    here, said = stems(around), stems(quote)
    return any(b in said and b not in q.stems for a in q.stems - here for b in opposites().get(a, ()))


_TOKEN = re.compile(r"[A-Za-z0-9_]+(?:['’][a-z]+)?|[.,;:!?()\"]")
_EXPLAINS = re.compile(r"\b(why|how)\b", re.IGNORECASE)


def negation_scope(text: str) -> tuple[set[str], set[str]]:
    """(the content words a verbal negation denies, those said outside any), as stems: the first word
    that is not a function word within english.NEGATION_SCOPE words after "not", "never", "cannot" or a
    "-n't", before a comma or a stop, is denied ("is not used in practice": "use"; "practic" is said). A
    code name with an underscore is neither ("MODEL_NOT_FOUND")."""
    denied: set[str] = set()
    said: set[str] = set()
    left = 0
    for token in _TOKEN.findall(text):
        word = token.lower()
        if not (word[0].isalnum() or word[0] == "_"):
            left = 0
        elif word in english.VERBAL_NEGATIONS or word.endswith("n't"):
            left = english.NEGATION_SCOPE
        elif "_" in word or word in STOP or len(word) < 2:
            left = max(0, left - 1)
        else:
            (denied if left else said).add(stem(re.sub(r"['’]s$", "", word)))
            left = 0
    return denied, said


def denied_terms(question: str) -> frozenset[str]:
    """What a question asks about as not so ("What is not strictly contained in EXPTIME?": "strict",
    "contain"): the words its negations deny, in each clause that neither asks why or how (an explanation
    asked for takes the negation as given: "Why doesn't it retry?") nor is the user's own supposition or
    request (english.OWN_FIGURES: "If I don't configure it, ...") nor asks yes or no ("Does it never retry?":
    "It retries" answers it)."""
    found: set[str] = set()
    for clause in english.clauses(question):
        if not (
            _EXPLAINS.search(clause) or english.OWN_FIGURES.search(clause) or english.POLAR.search(clause)
        ):
            found |= negation_scope(clause)[0]
    return frozenset(found)


def asks_negated(question: str) -> bool:
    """Whether the question asks for what is not so: a clause asking for a thing (english.ASKS_THING) with
    a negation in its own words, before a comma or a word opening another clause (english.SUBORDINATORS):
    "What type of law does not make member states follow it?"; not "What does it use if I don't pass
    one?", nor "Why doesn't it retry?" (an explanation takes the negation as given), nor a clause the user
    opens on their own doing ("When I don't say ..., how does it work?": a condition, OWN_FIGURES's "if")."""
    for clause in english.clauses(normalize(question).lower()):
        tokens = _TOKEN.findall(clause)
        while tokens and tokens[0] in english.OPENERS:
            tokens = tokens[1:]
        if not english.ASKS_THING.search(" ".join(tokens[:2])) or set(tokens[1:2]) & english.SPEAKERS:
            continue
        own = []
        for word in tokens[1:]:
            if word in english.SUBORDINATORS or not (word[0].isalnum() or word[0] == "_"):
                break
            own.append(word)
        if any(w in english.VERBAL_NEGATIONS or w.endswith("n't") for w in own):
            return True
    return False


def polar(question: str) -> bool:
    """Whether the question asks yes or no (english.POLAR, in its last clause: "It runs at 3; does it
    never retry?"): a quote saying either way answers it."""
    asked = english.clauses(question)
    return bool(asked) and bool(english.POLAR.search(asked[-1]))


def negation_swapped(q: Question, quote: str) -> bool:
    """Whether the quote says, undenied, what the question asks about as not so: "What is not strictly
    contained in EXPTIME?" over "P is strictly contained in EXPTIME" (a negation put into a question the
    quote answers, SQuAD 2.0's "negation" kind of unanswerable question)."""
    if not q.denied:
        return False
    denied, said = negation_scope(quote)
    return bool(q.denied & (said - denied))


def _present(term: str, have: set[str], prefixes: set[str]) -> bool:
    return term in have or (len(term) >= PREFIX and term[:PREFIX] in prefixes)


def _cover(q: Question, have: set[str]) -> float:
    prefixes = {t[:PREFIX] for t in have if len(t) >= PREFIX}
    total = sum(q.weights.values()) or 1.0
    return sum(w for t, w in q.weights.items() if _present(t, have, prefixes)) / total


def located(wanted: str, text: str) -> tuple[int, int] | None:
    """The offsets of `wanted` in `text`, found as written or else normalized (whitespace collapsed,
    typographic quotes straightened), or None. A citation's quote is normalized (`contract.cite`):
    looked for only as written, a verified quote running over a line break was not found, and the check
    read it without the sentences around it, where the generator's ranking and `citeline calibrate` had
    read the same sentence with them (a sentence of R's manual: 0.61 as ranked, 0.10 as verified)."""
    if (at := text.find(wanted)) >= 0:
        return at, at + len(wanted)
    flat, index = normalized_with_map(text)
    if (want := normalize(wanted)) and (at := flat.find(want)) >= 0:
        return index[at], index[at + len(want) - 1] + 1
    return None


def window(quote: str, text: str) -> str:
    """The quote's sentence in `text` with the sentences either side of it (the quote alone if absent)."""
    spans = split_sentences(text)
    found = located(quote[: max(20, len(quote) // 2)], text)
    at = found[0] if found else -1
    for i, (start, end) in enumerate(spans):
        if start <= at < end:
            lo, hi = spans[max(0, i - 1)][0], spans[min(len(spans) - 1, i + 1)][1]
            return text[lo:hi]
    return quote


def row_of_table(quote: str, hit: Hit) -> bool:
    """Whether the quote is one row of a table's passage ("Supplier=HireQuip; Phone=01632 960702", a
    CSV file's or a sheet's: `office.described`). A table's chunk packs rows that have nothing to do with
    each other, so its cosine with a question is diluted by the rows beside the one that answers: the
    check reads the row's own, with the titles it sits under (the sheet's name, its title row), where that
    is higher."""
    from engine.backends.extractive import suffix  # the generator's own reading of a passage's file

    return suffix(hit) in TABLE_SUFFIXES and "=" in quote and "\n" not in quote.strip()


def own_passage(quote: str, hit: Hit) -> str:
    """What a quote that is a passage of its own is read as, where it is one ("" elsewhere): a table's
    row with the titles it sits under (`row_of_table`; a Markdown table's, or a document's, under its
    columns' names too: "week of: 2025-11-17; primary: Elliot Saarinen"), a configuration's setting with
    what it sits under, its file's place, its keys and their comments (`settings.context`: "helm api
    values prod resources limits" over "memory: 1536Mi"). Like a table's rows, a configuration's
    settings share a chunk with settings about other things, which dilute its cosine."""
    from engine.backends.extractive import configuration, row_display, table_header
    from engine.backends.settings import quoted

    if row_of_table(quote, hit):
        return f"{hit.heading}\n{quote}"
    said = quote.strip()
    at = hit.text.find(said) if said and "\n" not in said else -1
    eol = hit.text.find("\n", at)
    line = hit.text[hit.text.rfind("\n", 0, at) + 1 : eol if eol >= 0 else len(hit.text)]
    if at >= 0 and line.strip().startswith("|") and (header := table_header(hit.text, at)):
        return f"{hit.heading}\n{row_display(line, header)}"  # a Markdown table's row, under its columns
    setting = quoted(quote, hit, configuration(hit))
    return f"{setting[0]}\n{quote}" if setting else ""


def chunk_text(hit: Hit) -> str:
    return f"{hit.heading} {hit.path.replace(chr(92), '/').rsplit('/', 1)[-1]} {hit.text}"


def model_passage(quote: str, hit: Hit) -> str:
    """What the answer model reads beside the question: the quote first (the sentence it judges), then
    the sentences around it and the chunk's heading (where a name or a date the quote leaves implicit
    usually sits)."""
    around = window(quote, hit.text)
    found = located(quote, around)
    context = f"{around[: found[0]]} {around[found[1] :]}" if found else around
    return " ".join(f"{quote} [SEP] {context} [SEP] {hit.heading or ''}".split())


def features(
    q: Question, quote: str, hit: Hit, cosine_chunk: float, answer_model: float = 0.0
) -> list[float]:
    """The FEATURES of one quote from `hit` as an answer to `q` (`answer_model`: AnswerModel's logit,
    0 where the fitted check does not use it)."""
    around = window(quote, hit.text)
    context = chunk_text(hit)
    quote_terms, context_terms = set(content_terms(quote)), set(content_terms(context))
    prefixes = {t[:PREFIX] for t in context_terms if len(t) >= PREFIX}
    missing = [w for t, w in q.weights.items() if not _present(t, context_terms, prefixes)]
    quote_figures, quote_names = figures(around), names(quote)
    # a who-question's answer: a name, or, in a sentence that names no one, a word for a person by what
    # they do ("Site foremen may take their van home"; not "keeper" beside the question's own name)
    roles = frozenset(stem(w) for w in english.persons(words(quote))) if not quote_names else frozenset()
    return [
        _cover(q, quote_terms),
        _cover(q, set(content_terms(around))),
        _cover(q, context_terms),
        max(missing, default=0.0) / q.top_idf,
        1.0 if q.figures - stated_figures(context) else 0.0,
        len(q.names - context_terms) / len(q.names) if q.names else 0.0,
        1.0 if q.wants_figure and not quote_figures - q.figures else 0.0,
        1.0 if q.wants_name and not (quote_names | roles) - q.names - set(q.weights) else 0.0,
        1.0 if q.negated and not english.negated(words(quote)) else 0.0,
        1.0 if negation_swapped(q, quote) else 0.0,
        1.0 if antonym_quoted(q, quote, around) else 0.0,
        len(quote_terms - set(q.weights)) / len(quote_terms) if quote_terms else 0.0,
        cosine_chunk,
        answer_model,
    ]


class AnswerModel:
    """A cross-encoder with one logit: does the second segment (model_passage) answer the question?
    ONNX Runtime and `tokenizers` only; the session opens on first use, behind a lock."""

    def __init__(self, model: Path, tokenizer: Path, threads: int = 2) -> None:
        self.model_path, self.tokenizer_path, self.threads = model, tokenizer, threads
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: set[str] = set()
        self.load_ms = 0.0

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                from engine.backends.ort import open_session

                started = time.perf_counter()
                session, tok = open_session(self.model_path, self.tokenizer_path, self.threads)
                tok.enable_truncation(MODEL_TOKENS, strategy="only_second")
                tok.no_padding()
                self._inputs = {i.name for i in session.get_inputs()}
                self._session, self._tokenizer = session, tok
                self.load_ms = (time.perf_counter() - started) * 1000
        return self._session, self._tokenizer

    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        """The logit of each passage answering the question."""
        return self.score_pairs([(question, p) for p in passages])

    def score_pairs(self, pairs: Sequence[tuple[str, str]], batch: int = 32) -> list[float]:
        """The logit of each (question, passage) pair, in batches of similar length (padded, masked)."""
        from engine.backends.ort import score_pairs

        session, tok = self._load()
        return score_pairs(session, tok, self._inputs, pairs, batch)


MODEL_DIR = "answerability"
MODEL_FILE = "citeline-answerability-l4-int8.onnx"  # where the calibration names none


@functools.cache
def answer_model() -> AnswerModel:
    """The answer model under models/answerability/ that the calibration was fitted with (its file and
    sha256 are recorded there), one per process, opened on first score. Cached here because the pipeline
    builds a Checker per answer and hands it no engine-held model. Raises MissingModel when the file is
    absent or is not the one fitted (weights fitted on another model's logits would judge wrongly)."""
    recorded = calibration().get("data", {}).get("answer_model", {})
    folder = Path(str(resources.files("models").joinpath(MODEL_DIR)))
    model, tokenizer = folder / recorded.get("file", MODEL_FILE), folder / "tokenizer.json"
    fix = "reinstall Citeline, or re-run `citeline calibrate` without --answer-model"
    if not (model.is_file() and tokenizer.is_file()):
        raise MissingModel(f"The answer check's model models/{MODEL_DIR}/{model.name} is missing.", fix)
    if "sha256" in recorded and sha256_file(model) != recorded["sha256"]:
        raise MissingModel(
            f"The answer check's model models/{MODEL_DIR}/{model.name} is not the one it was fitted with.",
            fix,
        )
    return AnswerModel(model, tokenizer)


@dataclass(frozen=True)
class Model:
    """A logistic model over standardised FEATURES and the probability a quote must reach."""

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, values: Sequence[float]) -> float:
        x = [
            (values[FEATURES.index(n)] - m) / s
            for n, m, s in zip(self.names, self.mean, self.scale, strict=True)
        ]
        z = self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Model:
        return cls(
            tuple(data["features"]),
            tuple(data["mean"]),
            tuple(data["scale"]),
            tuple(data["weights"]),
            float(data["bias"]),
            float(data["threshold"]),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.names),
            "mean": [round(v, 6) for v in self.mean],
            "scale": [round(v, 6) for v in self.scale],
            "weights": [round(v, 6) for v in self.weights],
            "bias": round(self.bias, 6),
            "threshold": round(self.threshold, 4),
        }


def model(with_vectors: bool) -> Model:
    """The fitted answer check: with the embedding features, or for keyword-only answers without them."""
    return Model.from_dict(calibration()["answer_check"][mode(with_vectors)])


@dataclass(frozen=True)
class Judgement:
    probability: float
    threshold: float

    @property
    def answers(self) -> bool:
        return self.probability >= self.threshold


class Checker:
    """Judges quotes as answers to one question; built once per answer."""

    def __init__(
        self,
        question: str,
        doc_freq: DocFreq | None,
        embed: Embed | None,
        scorer: AnswerModel | None = None,
    ) -> None:
        started = time.perf_counter()
        self.q = Question.read(question, doc_freq)
        self.embed = embed
        self.model = model(embed is not None)
        self.scorer = scorer
        if scorer is None and set(MODEL_FEATURES) & set(self.model.names):
            self.scorer = answer_model()
        self.spent_ms = (time.perf_counter() - started) * 1000  # what the check cost this answer
        self._judged: dict[tuple[str, str, int, int], float] = {}  # a quote judged once per answer

    def model_score(self, quote: str, hit: Hit) -> float:
        """AnswerModel's logit for the quote, or 0 where the fitted check does not read it."""
        if self.scorer is None or not set(MODEL_FEATURES) & set(self.model.names):
            return 0.0
        return self.scorer.scores(self.q.text, [model_passage(quote, hit)])[0]

    def values(self, quote: str, hit: Hit, with_model: bool = True) -> list[float]:
        known = hit.vector_score is not None  # the chunk's cosine from retrieval, when it has one
        # a chunk found by keywords alone is read as retrieval reads chunks (without markup), so both
        # kinds of evidence give the chunk cosine on one scale
        if self.embed is None:
            cos_chunk = 0.0
        elif known:
            cos_chunk = float(hit.vector_score or 0.0)
        else:
            cos_chunk = self.q.cosines([embedding_text(hit.text)], self.embed)[0]
        if self.embed is not None and (own := own_passage(quote, hit)):  # a row is a passage of its own
            row = self.q.cosines([embedding_text(own)], self.embed)[0]
            cos_chunk = max(cos_chunk, row)
        scored = self.model_score(quote, hit) if with_model else 0.0
        return features(self.q, quote, hit, cos_chunk, scored)

    def probability(self, quote: str, hit: Hit) -> float:
        """The probability that the quote, from `hit`, answers the question (each quote scored once)."""
        key = (" ".join(quote.split()), hit.path, hit.start_line, hit.end_line)  # whitespace aside
        if key not in self._judged:
            self._judged[key] = self.model.probability(self.values(quote, hit))
        return self._judged[key]

    def judge(self, quotes: Sequence[tuple[str, Hit]]) -> Judgement:
        """The best of a sentence's quotes (a sentence answers if any of what it cites does)."""
        started = time.perf_counter()
        best = max((self.probability(quote, hit) for quote, hit in quotes), default=0.0)
        self.spent_ms += (time.perf_counter() - started) * 1000
        return Judgement(best, self.model.threshold)
