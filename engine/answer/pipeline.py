"""ask(): evidence first, then verified sentences, then the final Answer — the one path every generator
takes, so the contract holds for local, Claude and extractive answers alike."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import PurePath
from typing import TYPE_CHECKING

from engine.answer import conflicts, contract, gate
from engine.answer.contract import Embed
from engine.answer.prompts import REFUSAL
from engine.answer.text import content_terms, normalize, split_sentences
from engine.errors import Cancelled
from engine.events import CONFLICT_NOTE, Answer, AnswerSentence, Citation, Conflict, EvidenceReady, Hit
from engine.retrieve.search import hit_from_row

if TYPE_CHECKING:
    from engine.api import Engine

EVIDENCE = 6
SAME_POINT = 0.3  # share of a quote's content words another version must share to speak to the point
Event = EvidenceReady | AnswerSentence | Answer


def _never() -> bool:
    return False


class Clock:
    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.marks: dict[str, float] = {}

    def mark(self, name: str) -> None:
        self.marks.setdefault(name, round((time.perf_counter() - self.start) * 1000, 1))


def siblings(engine: Engine, question: str, hits: list[Hit]) -> list[Hit]:
    """Other versions of the evidence files (same folder, same family), best chunk each, so that a
    conflict between versions is always seen, whichever version retrieval ranked first."""
    have = {h.path for h in hits}
    catalog = engine.catalog
    terms = set(content_terms(question))
    extra: list[Hit] = []
    for path in list(dict.fromkeys(h.path for h in hits[:EVIDENCE])):
        folder = str(PurePath(path).parent)
        for row in catalog.files_in_dir(folder):
            if row.path in have or row.status != "indexed" or not conflicts.same_family(path, row.path):
                continue
            chunks = catalog.chunks_of_file(row.id)
            if not chunks:
                continue
            best = max(chunks, key=lambda c: len(terms & set(content_terms(c.text + " " + c.heading))))
            extra.append(hit_from_row(best, 0.0, question, None, None))
            have.add(row.path)
    return extra


def head_reader(engine: Engine) -> Callable[[str], str]:
    def head(path: str) -> str:
        row = engine.catalog.file(path)
        if row is None:
            return ""
        return "\n".join(c.text for c in engine.catalog.chunks_of_file(row.id)[:3])

    return head


def _figures(text: str) -> list[str]:
    return re.findall(r"\d+(?:[.,]\d+)*", text)


def disagreement(quote: str, text: str) -> str | None:
    """The statement in `text` on the same point as `quote` that says something else, or None.

    The same point: the sentence or line of `text` sharing the most of the quote's content words (at
    least SAME_POINT of them, numbers aside). It says something else unless it is the same statement
    (equal after normalising) or carries the same figures in nearly the same words.
    """
    want = {t for t in content_terms(quote) if not t.isdigit()}
    if not want:
        return None
    best, overlap = "", 0.0
    for start, end in split_sentences(text):
        sentence = text[start:end]
        share = len(want & set(content_terms(sentence))) / len(want)
        if share > overlap:
            best, overlap = sentence, share
    if overlap < SAME_POINT or normalize(best) == normalize(quote):
        return None
    if _figures(best) == _figures(quote) and overlap >= 0.8:
        return None
    return best.strip()


def _statement_citation(statement: str, evidence: list[Hit], path: str) -> Citation | None:
    """A citation of `path` for a conflict note: the disagreeing statement where an evidence chunk of that
    file holds it verbatim, else the first line of the file's first evidence chunk."""
    hits = [(n, h) for n, h in enumerate(evidence, start=1) if h.path == path]
    for n, hit in hits:
        span = contract.locate(statement, hit) if statement else None
        if span is not None:
            return Citation(n, hit.path, span[0], span[1], hit.page, normalize(statement))
    n, hit = hits[0]
    for line in hit.text.splitlines():
        span = contract.locate(line.strip(), hit) if len(line.strip()) >= contract.MIN_QUOTE_CHARS else None
        if span is not None:
            return Citation(n, hit.path, span[0], span[1], hit.page, normalize(line.strip()))
    return None


def conflict_note(
    conflict: Conflict, kept: list[AnswerSentence], evidence: list[Hit], full_text: Callable[[str], str]
) -> AnswerSentence | None:
    """A note for a conflict only where the answer cites one of its versions and the other version says
    something else on the cited point; it quotes both statements."""
    paths = [evidence[n - 1].path for n in conflict.sources]
    for citation in (c for s in kept for c in s.citations if c.path in paths):
        other = next(p for p in paths if p != citation.path)
        chunks = "\n\n".join(h.text for h in evidence if h.path == other)
        statement = disagreement(citation.quote, chunks) or disagreement(citation.quote, full_text(other))
        if statement is None:
            continue
        quoted = _statement_citation(statement, evidence, other)
        if quoted is None:
            return None
        cites = sorted((citation, quoted), key=lambda c: paths.index(c.path))
        return AnswerSentence(CONFLICT_NOTE + conflict.summary, tuple(cites))
    return None


def full_text_reader(engine: Engine) -> Callable[[str], str]:
    def read(path: str) -> str:
        row = engine.catalog.file(path)
        return "" if row is None else "\n\n".join(c.text for c in engine.catalog.chunks_of_file(row.id))

    return read


def ask_stream(
    engine: Engine, question: str, generator: str | None = None, cancelled: Callable[[], bool] = _never
) -> Iterator[Event]:
    clock = Clock()
    name = generator or engine.settings.generator
    hits = engine.evidence(question)
    hits = hits + siblings(engine, question, hits)
    evidence = hits[:EVIDENCE] + [h for h in hits[EVIDENCE:] if h.score == 0.0]
    clock.mark("evidence")
    yield EvidenceReady(tuple(evidence))
    decision = gate.decide(question, hits, engine.doc_freq)
    if not decision.passed:
        clock.mark("total")
        yield Answer(
            question,
            REFUSAL,
            True,
            decision.reason,
            evidence=tuple(evidence),
            generator=name,
            timings_ms=clock.marks,
        )
        return
    found = conflicts.detect(evidence, head_reader(engine))
    backend = engine.generator(name)
    embed: Embed | None = engine.embedder().embed if engine.has_vectors() else None
    kept: list[AnswerSentence] = []
    dropped: list[str] = []
    repaired = 0
    for raw in backend.generate(question, evidence, cancelled):
        if cancelled():
            raise Cancelled()
        clock.mark("first_sentence")
        verdict = contract.check(raw, evidence, embed)
        if verdict.sentence is None:
            dropped.append(f"{raw.text} ({verdict.reason})")
            continue
        kept.append(verdict.sentence)
        repaired += verdict.repaired
        yield verdict.sentence
    if not kept and dropped and name != "extractive" and engine.settings.quote_fallback:
        # The model answered but nothing it wrote could be verified: quote the sources instead.
        for raw in engine.generator("extractive").generate(question, evidence, cancelled):
            verdict = contract.check(raw, evidence, embed)
            if verdict.sentence is not None:
                kept.append(verdict.sentence)
                yield verdict.sentence
        if kept:
            name = f"{name}, quoted by extractive"
    clock.mark("total")
    if not kept:
        yield Answer(
            question,
            REFUSAL,
            True,
            "no generated sentence was supported by the sources",
            evidence=tuple(evidence),
            dropped=tuple(dropped),
            generator=name,
            timings_ms=clock.marks,
        )
        return
    noted = [(c, conflict_note(c, kept, evidence, full_text_reader(engine))) for c in found]
    notes = [note for _, note in noted if note is not None]
    found = [c for c, note in noted if note is not None]
    yield from notes
    sentences = tuple(notes + kept)
    yield Answer(
        question,
        contract.render(sentences),
        False,
        "",
        sentences,
        tuple(evidence),
        tuple(found),
        tuple(dropped),
        name,
        clock.marks,
        repaired,
    )
