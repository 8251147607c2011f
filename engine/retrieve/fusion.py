"""Reciprocal Rank Fusion (Cormack, Clarke & Buettcher, SIGIR 2009).

score(d) = sum over lists L containing d of 1 / (k + rank_L(d)), ranks starting at 1.
k = 60 is the value the paper found robust across TREC runs and the one its authors recommend; a larger
k flattens the head of each list, a smaller k lets the top few ranks dominate. Ties are broken by the best
single rank, then by id, so the order is deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

DEFAULT_K = 60
T = TypeVar("T", bound=Hashable)


def rrf(lists: Sequence[Sequence[T]], k: int = DEFAULT_K) -> list[tuple[T, float]]:
    """Fuse ranked lists of ids (best first) into one list of (id, fused score), best first."""
    if k < 1:
        raise ValueError("RRF k must be >= 1")
    scores: dict[T, float] = {}
    best: dict[T, int] = {}
    for ranked in lists:
        seen: set[T] = set()
        for rank, item in enumerate(ranked, start=1):
            if item in seen:  # a list that repeats an id counts it once, at its best rank
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], str(kv[0])))
