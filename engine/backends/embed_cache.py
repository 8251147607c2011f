"""Vectors remembered across questions: each text the embedder reads at question time is read once.

An answer embeds the question and every sentence it may quote (`text.relevance`), and the questions a
user asks of one folder keep reaching the same passages: over LangChain's 102 questions a third of the
sentences ranked had been ranked for an earlier question, over Meridian's 40 more than half. What the
model made of a text depends on the text alone, so the vector is kept, keyed by the exact text, in a
least-recently-used table of at most TEXTS entries (384 float32 each: ~30 MB). Indexing does not go
through it: the stored chunk vectors are in the catalog, and filling the table with them would push out
the sentences that recur.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import numpy.typing as npt

from engine.text import Embed

Vector = npt.NDArray[np.float32]

TEXTS = 20_000


class Remembered:
    """`embed` with each text's vector kept (at most `capacity` texts, the least recently used dropped
    first; None: no limit). Thread-safe: the table is locked, the model is not (two threads missing the
    same text both embed it, and one keeps it)."""

    def __init__(self, embed: Embed, capacity: int | None = TEXTS) -> None:
        self._embed = embed
        self.capacity = capacity
        self._seen: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0  # texts given that the model did not read (kept, or repeated in one call)
        self.misses = 0  # texts the model read

    def __len__(self) -> int:
        return len(self._seen)

    def __call__(self, texts: list[str]) -> Vector:
        if not texts:
            return self._embed([])
        have: dict[str, Vector] = {}
        with self._lock:
            for text in dict.fromkeys(texts):
                if (vec := self._seen.get(text)) is not None:
                    self._seen.move_to_end(text)
                    have[text] = vec
        todo = [t for t in dict.fromkeys(texts) if t not in have]
        if todo:
            # each row on its own, so that dropping a text frees its vector, not only its batch's last
            have.update(zip(todo, (row.copy() for row in self._embed(todo)), strict=True))
        with self._lock:
            self.hits += len(texts) - len(todo)
            self.misses += len(todo)
            for text in todo:
                self._seen[text] = have[text]
            while self.capacity is not None and len(self._seen) > self.capacity:
                self._seen.popitem(last=False)
        return np.stack([have[t] for t in texts])
