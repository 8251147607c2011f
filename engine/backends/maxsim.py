"""Training-free second stage: late interaction (MaxSim) with the same MiniLM encoder as the vectors.

score(q, d) = mean over query tokens of the best cosine against the candidate's token vectors. To stay
fast on 2 cores only a query-focused window of each candidate is encoded: the sentences around the
query's terms, at most WINDOW_TOKENS wordpieces counted with the encoder's own tokenizer (a
characters/4 estimate let code and tables run to 140+ and cost a third more time), in small
length-sorted batches so that little is padding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.backends.packing import best_window
from engine.events import Hit

WINDOW_TOKENS = 96
BATCH = 8


class MaxSimReranker:
    name = "maxsim"

    def __init__(
        self, embedder: Any, count: Callable[[str], int] | None = None, window_tokens: int = WINDOW_TOKENS
    ) -> None:
        self.embedder = embedder
        self.window_tokens = window_tokens
        self._count = count or (lambda text: max(1, len(text) // 4))

    def windows(self, query: str, hits: list[Hit]) -> list[str]:
        """The query-focused window of each hit that gets encoded (heading first)."""
        return [best_window(h.heading + "\n" + h.text, query, self._count, self.window_tokens) for h in hits]

    def __call__(self, query: str, hits: list[Hit]) -> list[float]:
        if not hits:
            return []
        windows = self.windows(query, hits)
        vectors = self.embedder.token_vectors([query, *windows], batch_size=BATCH)
        q = vectors[0][1:-1] if len(vectors[0]) > 2 else vectors[0]  # drop [CLS] and [SEP]
        scores = []
        for doc in vectors[1:]:
            d = doc[1:-1] if len(doc) > 2 else doc
            scores.append(float(np.max(q @ d.T, axis=1).mean()))
        return scores


class MaxSimFusion(MaxSimReranker):
    """MaxSim as a third ranked list: RRF(BM25, dense, MaxSim) over the fused candidates (k = 60).

    The search does the fusion (see engine.retrieve.fusion.fuse_ranks); each hit keeps its raw MaxSim
    score as `rerank_score`.
    """

    name = "maxsim-rrf"
    fuse = True
