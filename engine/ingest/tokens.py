"""Embedder-token counting for the chunker, fast enough for bulk indexing.

BERT wordpiece pre-tokenises on whitespace, so the count of a multi-line text is the sum of its lines'
counts. Lines are counted once, in batches (the Rust tokenizer parallelises encode_batch), and cached.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CACHE_LIMIT = 200_000


class TokenCounter:
    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._cache: dict[str, int] = {}

    def prime(self, lines: Iterable[str]) -> None:
        """Count every not-yet-seen line in one batch."""
        todo = list({line for line in lines if line not in self._cache})
        if not todo:
            return
        if len(self._cache) + len(todo) > CACHE_LIMIT:
            self._cache.clear()
        for line, enc in zip(todo, self.tokenizer.encode_batch(todo, add_special_tokens=False), strict=True):
            self._cache[line] = len(enc.ids)

    def __call__(self, text: str) -> int:
        lines = text.split("\n")
        self.prime(lines)
        return sum(self._cache[line] for line in lines)
