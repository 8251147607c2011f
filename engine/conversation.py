"""Conversations: a question asked in a thread is searched as a standalone question.

A follow-up ("and how many can they carry over?") is searched on its own words plus the key words of the
turn before (its standalone question, which carries the earlier turns' words, and the headings its answer
cited), and the chunks of the files the thread already cited are considered first when the follow-up is
about them. A question that starts a new topic is searched on its own words only, so the old topic does
not pull its files back in.

Follow-up or new topic is decided from three signals, none tied to any collection:

- an unresolved referent: a third-person pronoun or a demonstrative (closed grammatical classes, listed
  below), or an elliptical opening ("and …", "what about …");
- whether the thread's cited files speak to the question's own words about as well as the best chunk of
  the whole index does (IDF-weighted coverage of its content words, the measure the evidence gate uses):
  a question those files answer as well as anything else is about them.

- whether the question's own words find an answer at all: its best chunks score below the evidence
  gate's line (the same score and the same fitted line the gate refuses by) only when something it needs
  is missing from it, which in a thread is the subject of the turns before.

None of the three: a new topic. The rewrite is deterministic and offline (no model call): a 1.5B local model
writes ~10 tokens a second here, so a condensed question from it would cost seconds before any search.
The cite-or-refuse contract is unchanged: the standalone question goes through the same pipeline, and a
follow-up is refused like any other question.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engine.answer import gate
from engine.answer.gate import COVERAGE_WEIGHT, DocFreq, idf
from engine.events import Answer, Hit
from engine.retrieve.fusion import rrf
from engine.text import STOP, content_terms, question_terms, stem, words

if TYPE_CHECKING:
    from engine.api import Engine

# Closed classes of English: pronouns and demonstratives that point back to something said before. "that"
# is left out (as often a relative pronoun, "the rule that applies", as a pointer), as is "there".
REFERENTS = frozenset(
    "it its itself they them their theirs themselves he him his she her hers this these those such".split()
)
# Openings that continue the previous question: a conjunction, or "what/how about".
ELLIPTICAL = re.compile(r"^\s*(?:and|also|but|so|or|plus|then|what about|how about)\b", re.IGNORECASE)
CONTEXT_WORDS = 4  # key words carried over from the turn before: enough for its subject, not its wording
COVERAGE_SLACK = 0.1  # the thread's files are "about" the question within this much of the best coverage
PROBE = 5  # chunks of the question alone whose coverage stands for "the best the index has"
DEPTH = 50  # hits searched for a follow-up, among which the thread's files are looked for
PREFERRED_PER_FILE = 2  # chunks per cited file moved forward
EVIDENCE_K = 12  # as Engine.evidence


@dataclass(frozen=True)
class Searched:
    """First event of an answer in a thread: what was searched and why.

    standalone is the question as searched (the question itself for a new topic); about lists the files
    the thread cited whose chunks were considered first."""

    thread_id: int
    question: str
    standalone: str
    follow_up: bool
    about: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Turn:
    """One question of a thread and its answer, as stored. changed: cited files that changed (or went)
    since the answer was given, filled when the thread is opened."""

    id: int
    thread_id: int
    ord: int
    question: str
    searched: str
    follow_up: bool
    answer: Answer
    asked_at: datetime
    changed: tuple[str, ...] = ()

    @property
    def cited_paths(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.path for s in self.answer.sentences for c in s.citations))

    @property
    def cited_headings(self) -> tuple[str, ...]:
        evidence = self.answer.evidence
        sources = dict.fromkeys(c.source for s in self.answer.sentences for c in s.citations)
        return tuple(evidence[n - 1].heading for n in sources if 0 < n <= len(evidence))


@dataclass(frozen=True)
class Thread:
    """A conversation: its title (the first question, until renamed), when it began and last moved on."""

    id: int
    title: str
    created_at: datetime
    updated_at: datetime
    turns: int = 0


@dataclass(frozen=True)
class TurnSaved:
    """Last event of an answer in a thread: the turn as stored."""

    turn: Turn


# ------------------------------------------------------------------------------------------ the rewrite


def has_referent(question: str) -> bool:
    """The question points back: a pronoun or demonstrative, or an elliptical opening."""
    return bool(ELLIPTICAL.match(question)) or any(w in REFERENTS for w in words(question))


def key_words(text: str, skip: set[str] | None = None) -> list[str]:
    """The content words of `text` as written (not stemmed), each stem once, in order; stems in `skip`
    and the pointing words (REFERENTS) left out. Mutates nothing."""
    seen = set(skip or ())
    out: list[str] = []
    for word in words(text):
        term = stem(word)
        if word in STOP or word in REFERENTS or len(word) < 2 or term in seen:
            continue
        seen.add(term)
        out.append(word)
    return out


def cited_text(turn: Turn) -> str:
    """What the turn's answer cited: the cited evidence chunks with their headings and file names."""
    evidence = turn.answer.evidence
    sources = dict.fromkeys(c.source for s in turn.answer.sentences for c in s.citations)
    return " ".join(chunk_text(evidence[n - 1]) for n in sources if 0 < n <= len(evidence))


def standalone(question: str, previous: Turn, doc_freq: DocFreq | None = None) -> str:
    """The question with the previous turn's key words after it, in parentheses.

    Candidates: the words of the previous standalone question (which carries the turns before it), then
    of the headings its answer cited. Those its cited sources contain name what it was about ("graph
    recursion limit", "PTO"); its other words are phrasing ("legitimately", "indicates") and are carried
    only when nothing was cited (a refusal). Of these, the CONTEXT_WORDS rarest in the index (IDF) are
    kept, in their order: common ones ("get", "days") would pull the search towards the old answer."""
    own = set(question_terms(question))
    carried = key_words(previous.searched, own)
    heads = " ".join(h.rsplit(">", 1)[-1] for h in previous.cited_headings)
    carried += key_words(heads, own | {stem(w) for w in carried})
    cited = set(content_terms(cited_text(previous)))
    if cited:
        carried = [w for w in carried if stem(w) in cited]
    rarest = set(sorted(carried, key=lambda w: -idf(stem(w), doc_freq))[:CONTEXT_WORDS])
    kept = [w for w in carried if w in rarest]
    return f"{question.strip()} ({' '.join(kept)})" if kept else question.strip()


CONDENSE_SYSTEM = (
    "Rewrite the user's follow-up question so that it can be understood without the conversation: "
    "replace its pronouns and fill in what it leaves out from the previous question and answer. Keep "
    "its meaning and its own words. Reply with the rewritten question only, on one line."
)
CONDENSE_TOKENS = 48
CONDENSE_ANSWER_WORDS = 60


def condense(question: str, previous: Turn, chat: Callable[[list[dict[str, str]], int], str]) -> str:
    """The local model's standalone version of a follow-up (`chat(messages, max_tokens)`), from the
    previous turn's question and the start of its answer; the question itself when it writes nothing."""
    said = " ".join(s.text for s in previous.answer.sentences).split()[:CONDENSE_ANSWER_WORDS]
    user = (
        f"Previous question: {previous.searched or previous.question}\n"
        f"Previous answer: {' '.join(said) or '(none)'}\n"
        f"Follow-up question: {question.strip()}"
    )
    reply = chat(
        [{"role": "system", "content": CONDENSE_SYSTEM}, {"role": "user", "content": user}], CONDENSE_TOKENS
    )
    line = next((x.strip() for x in reply.splitlines() if x.strip()), "")
    return line.removeprefix("Rewritten question:").strip() or question.strip()


def coverage(terms: Sequence[str], texts: Sequence[str], doc_freq: DocFreq | None) -> float:
    """IDF-weighted share of `terms` the best single text holds (0 without terms or texts)."""
    weights = {t: idf(t, doc_freq) for t in dict.fromkeys(terms)}
    total = sum(weights.values())
    if not total or not texts:
        return 0.0
    best = 0.0
    for text in texts:
        have = set(content_terms(text))
        best = max(best, sum(w for t, w in weights.items() if t in have) / total)
    return best


def chunk_text(hit: Hit) -> str:
    return f"{hit.text} {hit.heading} {hit.path.rsplit('/', 1)[-1]}"


@dataclass(frozen=True)
class Passages:
    """Chunks a question is compared with: their texts, and their unit vectors where the index has them
    (None in a keyword-only index), in the same order."""

    texts: list[str]
    vectors: npt.NDArray[np.float32] | None = None


@dataclass(frozen=True)
class Decision:
    follow_up: bool
    about_thread: bool
    reason: str


def match(
    terms: Sequence[str], qvec: npt.NDArray[np.float32] | None, passages: Passages, doc_freq: DocFreq | None
) -> float:
    """How well the best of `passages` speaks to the question, scored as the evidence gate scores it:
    COVERAGE_WEIGHT x its IDF-weighted word coverage + the rest x its best cosine (when vectors exist)."""
    lexical = coverage(terms, passages.texts, doc_freq)
    if qvec is None or passages.vectors is None or not len(passages.vectors):
        return lexical
    dense = float(np.max(passages.vectors @ qvec))
    return COVERAGE_WEIGHT * lexical + (1 - COVERAGE_WEIGHT) * dense


def decide(
    question: str,
    alone: Sequence[Hit],
    thread: Passages,
    doc_freq: DocFreq | None,
    qvec: npt.NDArray[np.float32] | None = None,
    line: float = gate.THRESHOLD,
) -> Decision:
    """Follow-up or new topic (see the module's docstring), and whether it is about the thread's files.

    alone: the question's own top hits; thread: the chunks of the files the thread cited; qvec: the
    question's embedding (None without vectors); line: the evidence gate's threshold, below which the
    question's own words would not find an answer (gate.threshold)."""
    terms = question_terms(question)
    top = list(alone[:PROBE])
    vectors = [h.vector_score for h in top]
    best_dense = max((v for v in vectors if v is not None), default=None)
    index = Passages([chunk_text(h) for h in top])
    best = coverage(terms, index.texts, doc_freq)
    if qvec is not None and best_dense is not None and thread.vectors is not None:
        best = COVERAGE_WEIGHT * best + (1 - COVERAGE_WEIGHT) * best_dense
    mine = match(terms, qvec if best_dense is not None else None, thread, doc_freq) if thread.texts else 0.0
    # They answer it about as well as anything in the index, and well enough to pass the evidence gate:
    # two near-zero scores (an off-topic question) are not "about as well".
    about = mine >= line and mine >= best - COVERAGE_SLACK
    figures = f"the thread's files match it {mine:.2f}, the best of the index {best:.2f}"
    if has_referent(question):
        return Decision(True, about, f"it points back to the thread; {figures}")
    if about:
        return Decision(True, True, f"it is about the files the thread cited: {figures}")
    if best < line and coverage(terms, thread.texts, doc_freq) > 0:
        # Its own words find too little on their own, and the thread's files hold some of them: the
        # subject it leaves out is the thread's. Where those files hold none of its words ("What is the
        # airspeed of a swallow?" after a question on laptop restores), it is a new question that the
        # folders may not answer, and carrying the old topic's words in would only find the old answer.
        return Decision(
            True, False, f"its own words find too little (below the evidence gate's {line:.2f}); {figures}"
        )
    return Decision(False, False, f"a new topic: {figures}")


def prefer(hits: Sequence[Hit], paths: Sequence[str], k: int) -> list[Hit]:
    """The hits with the best PREFERRED_PER_FILE chunks of each of `paths` moved forward: reciprocal rank
    fusion of the ranked list with the list of those chunks (a chunk of both gains a second vote)."""
    wanted = set(paths)
    taken: dict[str, int] = {}
    favoured: list[int] = []
    for hit in hits:
        if hit.path in wanted and taken.get(hit.path, 0) < PREFERRED_PER_FILE:
            taken[hit.path] = taken.get(hit.path, 0) + 1
            favoured.append(hit.chunk_id)
    if not favoured:
        return list(hits[:k])
    by_id = {h.chunk_id: h for h in hits}
    order = rrf([[h.chunk_id for h in hits], favoured])
    return [by_id[cid] for cid, _ in order[:k]]


# ------------------------------------------------------------------------------------------- searching


@dataclass(frozen=True)
class Plan:
    """How a question of a thread is searched: the Searched event and the evidence hits it gives."""

    searched: Searched
    hits: list[Hit]


Search = Callable[[str, int], list[Hit]]


def plan(
    thread_id: int,
    question: str,
    previous: Sequence[Turn],
    search: Search,
    thread_chunks: Callable[[Sequence[str]], Passages],
    doc_freq: DocFreq | None,
    k: int = EVIDENCE_K,
    embed: Callable[[str], npt.NDArray[np.float32]] | None = None,
) -> Plan:
    """The standalone question and its evidence. `search(text, k)` ranks hits as answers' evidence does;
    `thread_chunks(paths)` gives the chunks of cited files; `embed` the question's vector (None: none)."""
    question = question.strip()
    last = previous[-1] if previous else None
    if last is None:
        first = Searched(thread_id, question, question, False, (), "the thread's first question")
        return Plan(first, search(question, k))
    cited = thread_files(previous)
    alone = search(question, max(k, PROBE))
    thread = thread_chunks(cited) if cited else Passages([])
    qvec = embed(question) if embed is not None and thread.vectors is not None else None
    line = gate.threshold(qvec is not None, gate.kind(alone))
    decision = decide(question, alone, thread, doc_freq, qvec, line)
    if not decision.follow_up:
        return Plan(Searched(thread_id, question, question, False, (), decision.reason), alone[:k])
    text = standalone(question, last, doc_freq)
    about = tuple(cited) if decision.about_thread else ()
    hits = search(text, max(k, DEPTH))
    hits = prefer(hits, about, k) if about else hits[:k]
    return Plan(Searched(thread_id, question, text, True, about, decision.reason), hits)


def thread_files(previous: Sequence[Turn]) -> list[str]:
    """The files the thread's latest answer cited, looking back past refusals to where its topic began."""
    for turn in reversed(previous):
        if turn.cited_paths:
            return list(turn.cited_paths)
        if not turn.follow_up:
            break
    return []


def engine_search(engine: Engine) -> Search:
    """Search as answers' evidence is searched (Engine.plan_search(answers=True))."""

    def run(text: str, k: int) -> list[Hit]:
        chosen = engine.plan_search(answers=True)
        return engine.search(text, k=k, mode=chosen.mode, reranker=chosen.reranker).hits

    return run


def engine_chunks(engine: Engine) -> Callable[[Sequence[str]], Passages]:
    """The chunks of the given files, with their vectors when every one has one."""

    def read(paths: Sequence[str]) -> Passages:
        texts: list[str] = []
        ids: list[int] = []
        for path in paths:
            row = engine.catalog.file(path)
            for c in engine.catalog.chunks_of_file(row.id) if row is not None else []:
                texts.append(f"{c.text} {c.heading} {path.rsplit('/', 1)[-1]}")
                ids.append(c.id)
        if not ids or not engine.has_vectors():
            return Passages(texts)
        found, vectors = engine.catalog.vectors_for_chunks(ids)
        return Passages(texts, vectors if len(found) == len(ids) else None)

    return read


def engine_embed(engine: Engine) -> Callable[[str], npt.NDArray[np.float32]] | None:
    if not engine.has_vectors():
        return None
    return engine.embed_query


def thread_stream(
    engine: Engine,
    thread_id: int | None,
    question: str,
    generator: str | None,
    cancelled: Callable[[], bool],
) -> Iterator[object]:
    """Searched, then the answer's events (engine.answer.pipeline), then TurnSaved once it is stored.

    A new thread (thread_id None) is created first, titled by the question; if the answer does not end
    (stopped, failed), a thread left without turns is deleted again."""
    from engine import conversation_store as store
    from engine.answer.pipeline import ask_stream

    catalog = engine.catalog
    created = thread_id is None
    tid = store.create_thread(catalog, title_of(question)) if thread_id is None else thread_id
    previous = store.turns(catalog, tid)
    saved = False
    try:
        planned = plan(
            tid,
            question,
            previous,
            engine_search(engine),
            engine_chunks(engine),
            engine.doc_freq,
            embed=engine_embed(engine),
        )
        yield planned.searched
        final: Answer | None = None
        asked = answered_as(planned.searched)
        for event in ask_stream(engine, asked, generator, cancelled, planned.hits):
            if isinstance(event, Answer):
                final = replace(event, question=question.strip())
                event = final
            yield event
        if final is not None:
            turn = store.add_turn(catalog, tid, planned.searched, final)
            saved = True
            yield TurnSaved(turn)
    finally:
        if created and not saved and not store.turns(catalog, tid):
            store.delete_thread(catalog, tid)


TITLE_CHARS = 80


def answered_as(searched: Searched) -> str:
    """The question the answer is judged against: the standalone one, as the peers' condensed question is.
    Judged on its own words, "and how many can they carry over?" is answered as well by any sentence about
    carrying anything over that the evidence holds; the carried words say whose carry-over it asks about."""
    return searched.standalone


def title_of(question: str) -> str:
    """A thread's title: its first question on one line, cut at a word near TITLE_CHARS."""
    text = " ".join(question.split())
    if len(text) <= TITLE_CHARS:
        return text
    cut = text[:TITLE_CHARS].rsplit(" ", 1)[0]
    return cut + "…"
