"""The local generator: a GGUF chat model in llama-cpp-python, its output constrained to the JSON schema.

The model loads lazily on first use, behind a lock, with n_threads set explicitly (llama.cpp's default
is 1 here). The system prompt is the same for every question, so llama.cpp's prefix cache reuses its KV
state between questions: only the sources and the question are read again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from engine.backends.jsonstream import SentenceStream
from engine.backends.packing import Packed, pack
from engine.backends.prompts import SCHEMA, SYSTEM, user_message
from engine.errors import MissingDependency
from engine.events import Hit, RawSentence

ANSWER_TOKENS = 320
PROMPT_SLACK = 64
# Prompt reading runs at 40-80 tokens/s on 2 cores: the sources get at most this many tokens.
SOURCE_BUDGET = 520
WINDOW_TOKENS = 90


def raw_sentence(obj: dict[str, Any], packed: Packed | None = None) -> RawSentence | None:
    """A schema object -> RawSentence; window numbers expand to the evidence numbers merged into them."""
    try:
        sources = [int(s) for s in obj.get("sources", [])]
        text, quote = str(obj["text"]), str(obj.get("quote", ""))
    except (KeyError, TypeError, ValueError):
        return None
    if packed is not None:
        sources = [m for s in sources for m in packed.aliases.get(s, ())]  # unknown window: no source
    return RawSentence(text, tuple(dict.fromkeys(sources)), quote)


class LlamaGenerator:
    name = "local"

    def __init__(
        self, model: Path, threads: int, n_ctx: int = 4096, answer_tokens: int = ANSWER_TOKENS
    ) -> None:
        self.model_path = model
        self.threads = threads
        self.n_ctx = n_ctx
        self.answer_tokens = answer_tokens
        self._lock = threading.Lock()
        self._llm: Any = None
        self.last_packed: Packed | None = None

    def llm(self) -> Any:
        with self._lock:
            if self._llm is None:
                try:
                    from llama_cpp import Llama
                except ImportError as exc:
                    raise MissingDependency("llama-cpp-python", "local") from exc
                self._llm = Llama(
                    model_path=str(self.model_path),
                    n_ctx=self.n_ctx,
                    n_threads=self.threads,
                    n_threads_batch=self.threads,
                    n_batch=512,
                    verbose=False,
                )
        return self._llm

    def count_tokens(self, text: str) -> int:
        return len(self.llm().tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def generate(
        self, question: str, evidence: Sequence[Hit], cancelled: Callable[[], bool]
    ) -> Iterator[RawSentence]:
        llm = self.llm()
        fixed = self.count_tokens(SYSTEM) + self.count_tokens(question) + PROMPT_SLACK
        budget = min(SOURCE_BUDGET, self.n_ctx - self.answer_tokens - fixed)
        packed = pack(question, evidence, self.count_tokens, budget, window_tokens=WINDOW_TOKENS)
        self.last_packed = packed
        messages = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": user_message(question, packed.windows)},
        ]
        stream = SentenceStream()
        chunks = llm.create_chat_completion(
            messages=messages,
            response_format={"type": "json_object", "schema": SCHEMA},
            stream=True,
            max_tokens=self.answer_tokens,
            temperature=0.0,
            seed=0,
        )
        for chunk in chunks:
            if cancelled():
                chunks.close()
                return
            delta = chunk["choices"][0].get("delta", {}).get("content") or ""
            for obj in stream.feed(delta):
                sentence = raw_sentence(obj, packed)
                if sentence is not None:
                    yield sentence
