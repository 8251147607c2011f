"""The answer job: evidence first, then verified sentences, then the final Answer (runs on the read pool).

`Engine.ask_stream` is being written alongside this window. Until it lands, the job searches and yields
the evidence followed by `EvidenceOnly`, so the window still shows the sources for a question.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.api import Engine
from engine.events import Answer, AnswerSentence, EvidenceReady

EVIDENCE_K = 8


@dataclass(frozen=True)
class EvidenceOnly:
    """Desktop-side marker: this engine cannot answer yet, only the evidence was found."""

    reason: str = "This version of the engine has no answer generator yet; here is the evidence."


AnswerEvent = EvidenceReady | AnswerSentence | Answer | EvidenceOnly
STREAM_TYPES: tuple[type, ...] = (EvidenceReady, AnswerSentence, Answer, EvidenceOnly)


def can_answer(engine: Engine) -> bool:
    return callable(getattr(engine, "ask_stream", None))


def answer_events(
    engine: Engine, question: str, generator: str | None, cancelled: Callable[[], bool]
) -> Iterator[object]:
    ask_stream = getattr(engine, "ask_stream", None)
    if callable(ask_stream):
        yield from ask_stream(question, generator=generator, cancelled=cancelled)
        return
    result = engine.search(question, k=EVIDENCE_K, mode="hybrid")
    yield EvidenceReady(tuple(result.hits))
    yield EvidenceOnly()
