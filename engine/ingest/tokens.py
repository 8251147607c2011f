"""Embedder-token counting for the chunker, fast enough for bulk indexing.

BERT wordpiece pre-tokenises on whitespace, so the count of a multi-line text is the sum of its lines'
counts. Lines are counted once, in batches (the Rust tokenizer parallelises encode_batch), and cached.
The batches skip the character offsets (encode_batch_fast): only the count is wanted, and offsets cost
a fifth of the tokenizer's time. One counter serves the indexer's writer thread and the searches'
reranker windows, so the cache is only ever replaced whole, never cleared under a reader.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CACHE_LIMIT = 200_000
BATCH_LINES = 2_048  # lines per encode_batch: its Encodings (ids, offsets, masks) are freed per batch
PRIME_MAX_CHARS = 4_096  # longer lines are not counted ahead: the chunker cuts them and counts the pieces


class TokenCounter:
    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._cache: dict[str, int] = {}

    def prime(self, lines: Iterable[str]) -> dict[str, int]:
        """Count every not-yet-seen line in one batch; returns the cache that holds them all."""
        cache = self._cache
        wanted = set(lines)
        todo = [line for line in wanted if line not in cache and len(line) <= PRIME_MAX_CHARS]
        if not todo:
            return cache
        if len(cache) + len(todo) > CACHE_LIMIT:  # start afresh, keeping this call's counted lines
            cache = self._cache = {line: cache[line] for line in wanted if line in cache}
        for at in range(0, len(todo), BATCH_LINES):
            batch = todo[at : at + BATCH_LINES]
            encodings = self.tokenizer.encode_batch_fast(batch, add_special_tokens=False)
            for line, enc in zip(batch, encodings, strict=True):
                cache[line] = len(enc.ids)
        return cache

    def __call__(self, text: str) -> int:
        lines = text.split("\n")
        cache = self.prime(lines)
        return sum(cache[line] if line in cache else self._one(line) for line in lines)

    def _one(self, line: str) -> int:
        """A line too long to keep in the cache, counted alone (the chunker avoids asking for these)."""
        return len(self.tokenizer.encode(line, add_special_tokens=False).ids)
