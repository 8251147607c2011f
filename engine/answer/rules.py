"""The screening rules, in one ordered list that `ask` and `citeline calibrate` both run.

A rule reads one question's Context, built once per question (`context`): the question, its ranked hits
and evidence, the index's document frequencies, and cached readers of a file's titles and of whether a
referenced file resolves. Rules never call back into the Engine. Each rule gives its features (what
calibration records and fits) and, at its fitted line, a refusal reason or None:

- Gate (before the model): the evidence is too weak for its kind, code or prose (engine/answer/gate.py);
- MissingDocument (before): the question is about a file the evidence lists but the folders lack
  (engine/answer/missing.py);
- UnsupportedFigure (before): the question takes a figure as given ("Why is the default timeout 30
  seconds?") that nothing retrieved states, in digits, words or Roman numerals: a false premise, so no
  quote can answer it. A question asking how to do something, requesting or supposing something is
  exempt: its figures are the user's own;
- UnknownIdentifier (before): the question names code ("the max_retries_backoff option") that no
  indexed file holds in any spelling, or passes a keyword (`flush=False`) that no indexed file takes or
  sets as one (`file.flush()` is a method, not a keyword);
- UnknownName (before): the question names a thing with a capital ("How does it negotiate QUIC?") that
  no indexed file holds, accents aside, nor a word one typo from it (engine/answer/premise.py, all
  three);
- UnknownTopic (before): the question asks about a thing in a word that no indexed file holds and that
  general English rarely uses ("How do I run it behind nginx?"; a common word the files lack, such as
  "forgot", is the user's paraphrase) (premise.unknown_topics);
- ReversedDirection (before): the question takes a change or a move as given, from A to B ("Why was the
  limit cut from 10 s to 5 s?"), that what was retrieved states the other way round ("raise the limit from
  5 to 10 seconds") and never as asked (premise.reversed_direction); or a change by its sense alone, or
  two things set side by side that the sources pair the other way round ("Why are request objects
  mutable while response objects are immutable?"). The refusal quotes the source;
- OppositeStated (before): a retrieved sentence says the opposite of a word of the question ("before"
  for its "after", english.ANTONYMS) and holds more of the question's other words than any sentence
  saying it as asked (premise.opposite_stated). The refusal quotes the sentence;
- ContradictedFigure (after): what the answer shows says otherwise of a figure the question takes as
  given ("Who developed the theory in 1974?" over "In 1967, Blum developed the theory"): none of its
  quotes, with the lines around them and their heading, states the figure, and one states another of
  the same kind (premise.contradicted). The refusal quotes what the source says instead.

(An UntitledTopic rule, refusing a question that asks for a policy or process no evidence title names,
was deleted on calibration: at its designed line it refused 9 answerable questions across the sets for
10 unanswerable ones, and at every line that refused no answerable question of the fitted parts it
caught nothing.)

The per-sentence checks (the verbatim quote of engine/answer/contract.py, the answer check of
engine/answer/answerability.py) and the after-answer conflict notes run in the pipeline; their fitted
lines come from the same calibration file.

Every line is read from calibration.json (`rules` for the rules after the gate, `gate` for the gate),
fitted by `citeline calibrate`: the gate's line refuses at most its budget of any labelled set's
answerable questions (fitted part); the later rules, in order, share one budget: each keeps its designed
line (`LINE`) where they together refuse at most 1 % of any fitted part's answerable questions and it
catches at least as many unanswerable ones as it costs, else the nearest stricter line that does. The
README reports what each rule refuses per set and part; the constants are the lines used only where no
calibration exists.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from engine.answer import gate, missing, premise
from engine.answer.calibration import calibration
from engine.events import Citation, Hit

if TYPE_CHECKING:
    from engine.api import Engine

Stage = Literal["before", "sentence", "after"]
Features = dict[str, float]


@dataclass
class Context:
    """What the rules read about one question, built once (`context`)."""

    question: str
    hits: list[Hit]  # ranked hits and the evidence files' sibling versions: what the gate reads
    evidence: list[Hit]  # what the generator is given and the answer shows
    doc_freq: gate.DocFreq
    has_vectors: bool
    resolves: missing.Exists
    mentions: premise.Mentions  # does any indexed file hold one of these spellings?
    knows: premise.Knows  # does any indexed file hold this word, or one typo from it?
    together: premise.Together  # does one indexed file hold these words and define this member?
    resembles: premise.Knows = lambda word: False  # does a file hold a word this non-word may mistype?
    shown: list[tuple[Citation, Hit]] = field(
        default_factory=list
    )  # the answer's citations: after-rules read
    cache: dict[str, object] = field(default_factory=dict)  # a rule's work shared by features and decide

    def once(self, key: str, compute: Callable[[], object]) -> object:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]


# What one question's look-ups over the whole index may take together (each scan of the catalog also stops
# at catalog.SCAN_BUDGET_S): on a large index every scan runs to its budget, and a question naming several
# things would pay it for each.
LOOKUPS_PER_QUESTION_S = 0.5


class Lookups:
    """One question's look-ups over the whole index, timed together: once they have taken
    LOOKUPS_PER_QUESTION_S, each further one is taken as held without being made, as a scan stopped at
    its budget is (a premise rule refuses only on proof)."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def bound(self, look: Callable[..., bool]) -> Callable[..., bool]:
        def bounded(*args: str, **kwargs: object) -> bool:
            if self.seconds >= LOOKUPS_PER_QUESTION_S:
                return True
            started = time.perf_counter()
            try:
                return look(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return functools.cache(bounded)


def context(engine: Engine, question: str, hits: list[Hit], evidence: list[Hit]) -> Context:
    lookups = Lookups()
    return Context(
        question,
        hits,
        evidence,
        engine.doc_freq,
        engine.has_vectors(),
        functools.cache(engine.resolves),
        lookups.bound(engine.mentions),
        lookups.bound(engine.knows),
        lookups.bound(engine.together),
        lookups.bound(engine.resembles),
    )


class Rule(Protocol):
    name: str
    stage: Stage

    def features(self, ctx: Context) -> Features: ...

    def decide(self, ctx: Context) -> str | None:
        """The refusal reason at the rule's fitted line, or None."""
        ...


def fitted(rule: str, defaults: dict[str, float]) -> dict[str, float | None]:
    """A rule's fitted lines from calibration.json, `defaults` where none was fitted; None where the fit
    found the rule earns nothing (it never fires)."""
    found = calibration().get("rules", {}).get(rule)
    return dict(defaults) if found is None else dict(found)


class Gate:
    name = "gate"
    stage: Stage = "before"

    def _decision(self, ctx: Context) -> gate.GateDecision:
        found = ctx.once("gate", lambda: gate.decide(ctx.question, ctx.hits, ctx.doc_freq, threshold=-1.0))
        assert isinstance(found, gate.GateDecision)
        return found

    def features(self, ctx: Context) -> Features:
        d = self._decision(ctx)
        # keyword-only answers have no dense half: their score is the weighted coverage alone; each kind
        # of evidence has its own line (gate.kind)
        code = float(gate.kind(ctx.hits) == "code")
        return {"vectors": d.score, "keyword": gate.COVERAGE_WEIGHT * d.coverage, "code": code}

    def decide(self, ctx: Context) -> str | None:
        line = gate.threshold(ctx.has_vectors, gate.kind(ctx.hits))
        decision = gate.decide(ctx.question, ctx.hits, ctx.doc_freq, line)
        return None if decision.passed else decision.reason


class MissingDocument:
    name, key = "missing_document", "share"
    LINE = missing.NAME_SHARE
    stage: Stage = "before"

    def _found(self, ctx: Context) -> missing.MissingDocument | None:
        found = ctx.once(
            "missing",
            lambda: missing.find(ctx.question, ctx.evidence, ctx.resolves, ctx.doc_freq, min_share=0.0),
        )
        return found if isinstance(found, missing.MissingDocument) else None

    def features(self, ctx: Context) -> Features:
        found = self._found(ctx)
        return {"share": found.share if found else 0.0}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        if line is None:
            return None
        found = missing.find(ctx.question, ctx.evidence, ctx.resolves, ctx.doc_freq, min_share=line)
        return found.reason if found else None


class Premise:
    """A premise check (engine/answer/premise.py): the question takes something as given that the folders
    do not hold. It counts such premises and fires above its line (as designed, on one)."""

    name = ""
    key = ""  # its one feature: how many premises it found
    stage: Stage = "before"
    LINE = 0.5

    def find(self, ctx: Context) -> list[str]:
        raise NotImplementedError

    def reason(self, found: list[str]) -> str:
        raise NotImplementedError

    def _found(self, ctx: Context) -> list[str]:
        found = ctx.once(self.name, lambda: self.find(ctx))
        assert isinstance(found, list)
        return found

    def features(self, ctx: Context) -> Features:
        return {self.key: float(len(self._found(ctx)))}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        found = self._found(ctx)
        return None if line is None or len(found) <= line else self.reason(found)


class UnsupportedFigure(Premise):
    name, key = "unsupported_figure", "unsupported"

    def find(self, ctx: Context) -> list[str]:
        return premise.unsupported_figures(ctx.question, ctx.hits, ctx.mentions)

    def reason(self, found: list[str]) -> str:
        said, them = ", ".join(f'"{f}"' for f in found), "it" if len(found) == 1 else "them"
        return f"the question takes {said} as given, but no source found states {them}"


class UnknownIdentifier(Premise):
    name, key = "unknown_identifier", "unknown"

    def find(self, ctx: Context) -> list[str]:
        return premise.unknown_identifiers(ctx.question, ctx.hits, ctx.mentions, ctx.together)

    def reason(self, found: list[str]) -> str:
        names = [name for name in found if not name.endswith("=")]
        passed = [name for name in found if name.endswith("=")]
        said = [f"the question names {', '.join(names)}, which no indexed file contains"] if names else []
        if passed:
            which = "a keyword" if len(passed) == 1 else "keywords"
            said.append(f"the question passes {', '.join(passed)}, {which} no indexed file takes or sets")
        return "; ".join(said)


class UnknownName(Premise):
    name, key = "unknown_name", "unknown"

    def find(self, ctx: Context) -> list[str]:
        return premise.unknown_names(ctx.question, ctx.hits, ctx.knows, ctx.mentions)

    def reason(self, found: list[str]) -> str:
        return f"the question names {', '.join(found)}, which no indexed file mentions"


class UnknownTopic:
    """A question about a thing no indexed file mentions, written in a word general English rarely uses
    ("How do I run it behind nginx?", "Is there a terraform module?"): premise.unknown_topics. Its feature
    is the rarest such word's rarity (english.rarity: 6 is once per million words of English, 9 a word
    English does not know); it fires above its line (as designed, LINE: rarer than once per million
    words). A common word absent from the folders (a paraphrase, "forgot") stays below it."""

    name, key = "unknown_topic", "rarity"
    stage: Stage = "before"
    LINE = 6.0

    def _found(self, ctx: Context) -> list[tuple[str, float]]:
        found = ctx.once(
            self.name,
            lambda: premise.unknown_topics(
                ctx.question, ctx.hits, ctx.doc_freq, ctx.knows, ctx.mentions, ctx.resembles
            ),
        )
        assert isinstance(found, list)
        return found

    def features(self, ctx: Context) -> Features:
        found = self._found(ctx)
        return {self.key: found[0][1] if found else 0.0}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        rare = [word for word, rarity in self._found(ctx) if line is not None and rarity > line]
        if not rare:
            return None
        return f"the question asks about {', '.join(rare)}, which no indexed file mentions"


def _where(path: str, line: int) -> str:
    """A source's file name and line, as a refusal cites it ("wrappers.md:68")."""
    return f"{path.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"


def _quoted(sentence: str, path: str, line: int) -> str:
    """A source's sentence as a refusal quotes it, without its list mark or heading marks, and where it
    stands: '"The response object is mutable" (wrappers.md:68)'."""
    return f'"{premise.LIST_MARK.sub("", sentence).lstrip("#").strip()}" ({_where(path, line)})'


class ReversedDirection:
    """A change or a move the question takes as given, from A to B ("Why was the limit cut from 10 s to 5
    s?"), that what was retrieved states the other way round, from B to A, and never as asked
    (premise.reversed_direction); a change by its sense alone (premise.reversed_sense); two things set
    side by side that a source pairs the other way round (premise.crossed_pairing). Its feature is 1
    where it finds one; it fires above its line (as designed, 0.5), fitted by `citeline calibrate` with
    the other premise rules. The refusal quotes what the source says."""

    name, key = "reversed_direction", "reversed"
    stage: Stage = "before"
    LINE = 0.5

    def _found(self, ctx: Context) -> premise.Reversed | None:
        found = ctx.once(self.name, lambda: premise.reversed_direction(ctx.question, ctx.hits))
        return found if isinstance(found, premise.Reversed) else None

    def features(self, ctx: Context) -> Features:
        return {self.key: 1.0 if self._found(ctx) else 0.0}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        found = self._found(ctx)
        if found is None or line is None or line >= 1.0:
            return None
        quoted = _quoted(found.sentence, found.hit.path, found.line)
        if found.pairing:
            first, second = found.pairing
            return (
                f'the question has "{first}" and "{second}", but the source pairs them the other way round: '
                f"{quoted}"
            )
        if not (going := found.sense):
            old, new = premise.side_named(found.asked.old), premise.side_named(found.asked.new)
            going = f'from "{old}" to "{new}"'
        return f"the question has it going {going}, but the source says the other way round: {quoted}"


class OppositeStated:
    """A word of the question whose opposite (english.ANTONYMS) a retrieved sentence says, holding more of
    the question's other words than any sentence saying the word as asked (premise.opposite_stated): "What
    do T cells recognize before antigens have been processed?" over "T cells recognize a target only after
    antigens have been processed". Its feature is that margin, a share of the IDF weight of the question's
    other words (0 where no sentence says an opposite); it fires above its line (as designed, 0.5: the
    sentence saying the opposite holds half of the question more than any saying it as asked), fitted by
    `citeline calibrate` with the other premise rules. The refusal quotes the sentence."""

    name, key = "opposite_stated", "margin"
    stage: Stage = "before"
    LINE = 0.5

    def _found(self, ctx: Context) -> premise.Opposed | None:
        found = ctx.once(
            self.name,
            lambda: premise.opposite_stated(ctx.question, ctx.hits, lambda t: gate.idf(t, ctx.doc_freq)),
        )
        return found if isinstance(found, premise.Opposed) else None

    def features(self, ctx: Context) -> Features:
        found = self._found(ctx)
        return {self.key: found.margin if found else 0.0}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        found = self._found(ctx)
        if found is None or line is None or found.margin <= line:
            return None
        quoted = _quoted(found.sentence, found.hit.path, found.line)
        return f'the question says "{found.asked}", but the source says "{found.said}": {quoted}'


class ContradictedFigure:
    """A figure the question takes as given that the answer's quotes say otherwise of (premise.contradicted);
    it fires above its line (as designed, on one), fitted by `citeline calibrate` on the answers the check
    lets through (calibrate.fit_contradiction)."""

    name, key = "contradicted_figure", "contradicted"
    stage: Stage = "after"
    LINE = 0.5

    def _found(self, ctx: Context) -> tuple[str, int] | None:
        shown = tuple((c.quote, c.source) for c, _ in ctx.shown)
        found = ctx.once(
            f"{self.name}:{shown}",  # after-rules are asked again as an answer streams: one per shown set
            lambda: premise.contradicted(
                ctx.question, [premise.shown_text(c.quote, h) for c, h in ctx.shown]
            ),
        )
        return found if isinstance(found, tuple) else None

    def features(self, ctx: Context) -> Features:
        return {self.key: 1.0 if self._found(ctx) else 0.0}

    def decide(self, ctx: Context) -> str | None:
        line = fitted(self.name, {self.key: self.LINE})[self.key]
        found = self._found(ctx)
        if found is None or line is None or line >= 1.0:
            return None
        from engine.backends.extractive import in_release, plain, shown  # the quote as an answer shows it

        said, i = found
        citation, hit = ctx.shown[i]
        where = _where(citation.path, citation.start_line)
        says = in_release(shown(plain(citation.quote)), hit)
        title = shown(plain(premise.section_title(citation.quote, hit.text)))
        if any(c.isdigit() for c in title) and title not in says:  # the release or year it sits under
            where += f', under "{title}"'
        return (
            f'the question takes "{said}" as given, but the source the answer quotes says otherwise: '
            f'"{says}" ({where})'
        )


RULES: Sequence[Rule] = (
    Gate(),
    MissingDocument(),
    UnsupportedFigure(),
    UnknownIdentifier(),
    UnknownName(),
    UnknownTopic(),
    ReversedDirection(),
    OppositeStated(),
    ContradictedFigure(),
)


def screen(ctx: Context, rules: Sequence[Rule] = RULES) -> tuple[str, str] | None:
    """The first before-the-model rule that refuses: (its name, the reason), or None."""
    for rule in rules:
        if rule.stage == "before" and (reason := rule.decide(ctx)):
            return rule.name, reason
    return None


def after(
    ctx: Context, shown: list[tuple[Citation, Hit]], rules: Sequence[Rule] = RULES
) -> tuple[str, str] | None:
    """The first after-the-answer rule that refuses what the answer shows (its citations and the hits
    they cite): (its name, the reason), or None."""
    ctx.shown = shown
    for rule in rules:
        if rule.stage == "after" and (reason := rule.decide(ctx)):
            return rule.name, reason
    return None


def features(ctx: Context, rules: Sequence[Rule] = RULES) -> dict[str, Features]:
    """Every before-the-model rule's features for one question (what calibration records)."""
    return {rule.name: rule.features(ctx) for rule in rules if rule.stage == "before"}
