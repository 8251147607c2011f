"""Reciprocal Rank Fusion (Cormack, Clarke & Buettcher, SIGIR 2009).

score(d) = sum over lists L containing d of 1 / (k + rank_L(d)), ranks starting at 1.
k = 60 is the value the paper found robust across TREC runs and the one its authors recommend; a larger
k flattens the head of each list, a smaller k lets the top few ranks dominate. Ties are broken by the best
single rank, then by id, so the order is deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.events import Hit

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


def fuse_ranks(hits: Sequence[Hit], k: int = DEFAULT_K) -> list[int]:
    """Order reranked candidates by RRF over their BM25 rank, dense rank, named-file rank, exact-name rank
    and reranker rank.

    The first four are the ranks the candidates had in the first stage's lists (the named-file list only
    where the query names a file: Searcher.named; the exact-name list only where it writes a rare name:
    Searcher.exact); the last is the order of `rerank_score` among these
    candidates. Returns indexes into `hits`, best first; ties keep the fused order the candidates arrived
    in.
    """
    by_model = sorted(range(len(hits)), key=lambda i: -(hits[i].rerank_score or 0.0))
    model_rank = {i: r for r, i in enumerate(by_model, start=1)}
    scores = [
        (1 / (k + h.lexical_rank) if h.lexical_rank else 0.0)
        + (1 / (k + h.vector_rank) if h.vector_rank else 0.0)
        + (1 / (k + h.named_rank) if h.named_rank else 0.0)
        + (1 / (k + h.exact_rank) if h.exact_rank else 0.0)
        + 1 / (k + model_rank[i])
        for i, h in enumerate(hits)
    ]
    return sorted(range(len(hits)), key=lambda i: (-scores[i], i))
