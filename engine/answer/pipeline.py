"""ask(): evidence first, then verified sentences, then the final Answer — the one path every generator
takes, so the contract holds for local, Claude and extractive answers alike."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import PurePath
from typing import TYPE_CHECKING

from engine.answer import conflicts, contract, gate
from engine.answer.contract import Embed
from engine.answer.prompts import REFUSAL
from engine.answer.text import content_terms, normalize
from engine.errors import Cancelled
from engine.events import Answer, AnswerSentence, Citation, Conflict, EvidenceReady, Hit
from engine.retrieve.search import hit_from_row

if TYPE_CHECKING:
    from engine.api import Engine

EVIDENCE = 6
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


def conflict_sentence(conflict: Conflict, evidence: list[Hit]) -> AnswerSentence | None:
    cites = []
    for n in conflict.sources:
        hit = evidence[n - 1]
        line = next(
            (ln.strip() for ln in hit.text.splitlines() if len(ln.strip()) >= contract.MIN_QUOTE_CHARS), ""
        )
        span = contract.locate(line, hit) if line else None
        if span is None:
            return None
        cites.append(Citation(n, hit.path, span[0], span[1], hit.page, normalize(line)))
    return AnswerSentence("Sources disagree: " + conflict.summary, tuple(cites))


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
    notes = [s for s in (conflict_sentence(c, evidence) for c in found) if s is not None]
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
