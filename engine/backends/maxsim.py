"""Training-free second stage: late interaction (MaxSim) with the same MiniLM encoder as the vectors.

score(q, d) = mean over query tokens of the best cosine against the candidate's token vectors. To stay
fast on 2 cores only a query-focused window of each candidate is encoded (the sentences around the
query's terms, about WINDOW_TOKENS wordpieces), in one batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.answer.packing import best_window
from engine.events import Hit

WINDOW_TOKENS = 96


class MaxSimReranker:
    name = "maxsim"

    def __init__(self, embedder: Any, window_tokens: int = WINDOW_TOKENS) -> None:
        self.embedder = embedder
        self.window_tokens = window_tokens

    def _count(self, text: str) -> int:
        return max(1, len(text) // 4)

    def __call__(self, query: str, hits: list[Hit]) -> list[float]:
        if not hits:
            return []
        windows = [
            best_window(h.heading + "\n" + h.text, query, self._count, self.window_tokens) for h in hits
        ]
        vectors = self.embedder.token_vectors([query, *windows])
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
