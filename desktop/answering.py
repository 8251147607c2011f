"""The answer job: evidence first, a quoted draft and the model's progress when the model is slow, then
verified sentences, then the final Answer (runs on the read pool)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.api import Engine
from engine.events import Answer, AnswerSentence, Draft, EvidenceReady, GenerationProgress

AnswerEvent = EvidenceReady | Draft | GenerationProgress | AnswerSentence | Answer
STREAM_TYPES: tuple[type, ...] = (EvidenceReady, Draft, GenerationProgress, AnswerSentence, Answer)


def answer_events(
    engine: Engine, question: str, generator: str | None, cancelled: Callable[[], bool]
) -> Iterator[object]:
    yield from engine.ask_stream(question, generator=generator, cancelled=cancelled)
