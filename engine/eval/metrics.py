"""Retrieval and answer metrics. Pure functions over document keys; no I/O, no numpy.

Conventions shared by the ranking metrics:

- ``ranked`` is a list of document keys, best first. It may repeat a key (several chunks of one file);
  it is reduced with :func:`dedupe` (first occurrence wins) before the cut-off ``k`` is applied, so ranks
  are document ranks.
- ``relevant`` maps document keys to graded relevance. Only grades > 0 count as relevant (BEIR qrels may
  carry 0 for "judged, not relevant").
- A query with no relevant document scores 0.0 on every ranking metric; callers leave such queries out of
  the averages (Meridian's unanswerable questions, for instance).
- ``k`` must be at least 1.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence

NGRAM = 5  # passage_found: word n-gram length for the fuzzy fallback
MIN_NGRAM_SHARE = 0.8  # passage_found: share of the passage's n-grams that must be found
_WORD = re.compile(r"[^\W_]+")  # letters and digits; markdown marks (* _ ` # > | [ ]) split words


def dedupe(keys: Iterable[str]) -> list[str]:
    """Keys in their first-seen order, each once."""
    return list(dict.fromkeys(keys))


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Share of the relevant keys found in the top k: |top_k ∩ R| / |R|."""
    top, gold = _top(ranked, k), _positive(relevant)
    return sum(key in gold for key in top) / len(gold) if gold else 0.0


def hit_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """1.0 if any relevant key is in the top k, else 0.0."""
    gold = _positive(relevant)
    return 1.0 if any(key in gold for key in _top(ranked, k)) else 0.0


def mrr_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """Reciprocal rank of the first relevant key in the top k: 1 / rank, or 0.0 if none is there."""
    gold = _positive(relevant)
    for rank, key in enumerate(_top(ranked, k), start=1):
        if key in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """Normalised discounted cumulative gain at k, with graded gains (the BEIR / pytrec_eval convention).

    DCG@k = sum over ranks i = 1..k of rel_i / log2(i + 1), where rel_i is the grade of the key at rank i
    (0 when not relevant). The gain is the grade itself, not 2^rel - 1. IDCG@k is the DCG@k of the
    relevant grades sorted in decreasing order, and nDCG@k = DCG@k / IDCG@k.
    """
    top, gold = _top(ranked, k), _positive(relevant)
    ideal = _dcg(sorted(gold.values(), reverse=True)[:k])
    return _dcg([gold.get(key, 0) for key in top]) / ideal if ideal else 0.0


def passage_found(passage: str, texts: Sequence[str]) -> bool:
    """Whether a reference passage appears in the given texts (retrieved chunks, say).

    Both sides are reduced to lower-case words (runs of letters and digits), which ignores whitespace,
    case and markdown punctuation (``**bold**``, backticks, ``#``, table pipes, link brackets). The passage
    is found when

    1. its word sequence occurs, whole words, inside one text; or
    2. it has at least ``NGRAM`` words and at least ``MIN_NGRAM_SHARE`` of its distinct word ``NGRAM``-grams
       occur in the texts taken together. This tolerates small edits and a passage split across two chunks.

    A passage without any word is never found.
    """
    words = _words(passage)
    if not words:
        return False
    needle = f" {' '.join(words)} "
    text_words = [_words(text) for text in texts]
    if any(needle in f" {' '.join(tw)} " for tw in text_words):
        return True
    wanted = _ngrams(words)
    if not wanted:
        return False
    seen: set[tuple[str, ...]] = set()
    for tw in text_words:
        seen |= _ngrams(tw) & wanted
    return len(seen) >= MIN_NGRAM_SHARE * len(wanted)


def roc_auc(scores_pos: Sequence[float], scores_neg: Sequence[float]) -> float:
    """Area under the ROC curve by the Mann-Whitney statistic.

    AUC = (number of pairs (p, n) with p > n, plus half the pairs with p == n) / (|pos| * |neg|),
    i.e. the probability that a random positive outscores a random negative. Needs both sides non-empty.
    """
    if not scores_pos or not scores_neg:
        raise ValueError("roc_auc needs at least one positive and one negative score")
    neg = sorted(scores_neg)
    wins = 0.0
    for score in scores_pos:
        below, upto = bisect_left(neg, score), bisect_right(neg, score)
        wins += below + 0.5 * (upto - below)
    return wins / (len(scores_pos) * len(neg))


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0 <= p <= 100) with linear interpolation, as ``numpy.percentile`` does.

    With the values sorted as x_0..x_{n-1}, h = (n - 1) * p / 100 and the result is
    x_floor(h) + (h - floor(h)) * (x_floor(h)+1 - x_floor(h)).
    """
    if not values:
        raise ValueError("percentile of an empty sequence")
    if not 0.0 <= p <= 100.0:
        raise ValueError(f"percentile p must be within [0, 100], got {p}")
    ordered = sorted(values)
    h = (len(ordered) - 1) * p / 100.0
    lo = math.floor(h)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (h - lo) * (ordered[hi] - ordered[lo])


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean (computed with math.fsum); 0.0 for no values."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


def _positive(relevant: Mapping[str, int]) -> dict[str, int]:
    return {key: grade for key, grade in relevant.items() if grade > 0}


def _top(ranked: Sequence[str], k: int) -> list[str]:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    return dedupe(ranked)[:k]


def _dcg(gains: Sequence[int]) -> float:
    # fsum is exactly rounded: a ranking whose grades match the ideal order gives exactly IDCG (nDCG 1.0).
    return math.fsum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _ngrams(words: Sequence[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + NGRAM]) for i in range(len(words) - NGRAM + 1)}
