"""The answer job: evidence first, then verified sentences, then the final Answer (runs on the read pool)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.api import Engine
from engine.events import Answer, AnswerSentence, EvidenceReady

AnswerEvent = EvidenceReady | AnswerSentence | Answer
STREAM_TYPES: tuple[type, ...] = (EvidenceReady, AnswerSentence, Answer)


def answer_events(
    engine: Engine, question: str, generator: str | None, cancelled: Callable[[], bool]
) -> Iterator[object]:
    yield from engine.ask_stream(question, generator=generator, cancelled=cancelled)
