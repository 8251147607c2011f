"""Query-term highlighting and best-window snippets for hits."""

from __future__ import annotations

import re

from engine.text import STOP


def query_terms(query: str) -> list[str]:
    """Lower-cased content words of a query (with a crude stem: trailing s/es/ing/ed dropped)."""
    words = [w.lower() for w in re.findall(r"\w+", query)]
    return [w for w in words if w not in STOP and len(w) > 1]


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def term_pattern(terms: list[str]) -> re.Pattern[str] | None:
    stems = sorted({_stem(t) for t in terms}, key=len, reverse=True)
    if not stems:
        return None
    return re.compile(r"\b(" + "|".join(re.escape(s) for s in stems) + r")\w*", re.IGNORECASE)


def snippet(text: str, query: str, width: int = 240) -> str:
    """The window of `text` with the most query terms, terms wrapped in ** **, whitespace collapsed."""
    flat = " ".join(text.replace("**", "").split())
    pattern = term_pattern(query_terms(query))
    if pattern is None:
        return flat[:width]
    starts = [m.start() for m in pattern.finditer(flat)]
    if not starts:
        return flat[:width]
    best = max(starts, key=lambda s: sum(1 for t in starts if s <= t < s + width))
    begin = max(0, best - width // 4)
    window = flat[begin : begin + width]
    prefix = "…" if begin > 0 else ""
    suffix = "…" if begin + width < len(flat) else ""
    return prefix + pattern.sub(lambda m: f"**{m.group(0)}**", window) + suffix
