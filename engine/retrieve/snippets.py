"""Query terms as the keyword index reads them, their places in a text, and best-window snippets.

A word matches a query term when the keyword index would match them: both go through the analyzer of the
index's stemmed fields (tantivy's "en_stem": split on anything not a letter or digit, tokens of 40 bytes
or more dropped, lower-cased, English Snowball stemmer), so "deploy" marks "Deploys" and "deploying".
The parts of a camelCase identifier count too, as the index's code field splits them
("getUserName" holds "user").
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tantivy

from engine.store.lexical import CAMEL
from engine.text import STOP, index_analyzer

MARK = "**"  # snippets wrap each matched word in it; the text's own ** are dropped first


@dataclass(frozen=True)
class QueryTerms:
    """The content words of a query, stemmed as the keyword index stems them. One per thread (the analyzer
    is not shared across threads)."""

    stems: frozenset[str]
    analyzer: tantivy.TextAnalyzer = field(default_factory=index_analyzer, compare=False, repr=False)

    @classmethod
    def of(cls, query: str) -> QueryTerms:
        analyzer = index_analyzer()
        tokens = analyzer.pre_tokenize(query).tokens
        words = (query[t.char_offset_from : t.char_offset_to].lower() for t in tokens)
        stems = {t.text for t, w in zip(tokens, words, strict=True) if w not in STOP and len(w) > 1}
        return cls(frozenset(stems), analyzer)

    def __bool__(self) -> bool:
        return bool(self.stems)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) character offsets of the words of `text` that match a term, in order."""
        return [(start, end) for start, end, _stem in self.matches(text)]

    def matches(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, the term matched) for each word of `text` that matches a term, in order."""
        if not self.stems:
            return []
        found: list[tuple[int, int, str]] = []
        for token in self.analyzer.pre_tokenize(text).tokens:
            start, end = token.char_offset_from, token.char_offset_to
            if token.text in self.stems:
                found.append((start, end, token.text))
            elif not (word := text[start:end]).islower() and not word.isupper():
                found.extend(self._camel_parts(word, start))
        return found

    def _camel_parts(self, word: str, offset: int) -> list[tuple[int, int, str]]:
        parts = ((m.start(), m.end(), self._stem(m.group(0))) for m in CAMEL.finditer(word))
        return [(offset + s, offset + e, stem) for s, e, stem in parts if stem in self.stems]

    def _stem(self, word: str) -> str:
        stemmed = self.analyzer.analyze(word)
        return stemmed[0] if len(stemmed) == 1 else ""


def snippet(text: str, query: str, width: int = 240) -> str:
    """About `width` characters of `text` centred on its best cluster of query terms (the most distinct
    terms, then the most matches), cut at word boundaries, terms wrapped in ** **, whitespace collapsed."""
    flat = " ".join(text.replace(MARK, "").split())
    matches = QueryTerms.of(query).matches(flat)
    begin, end = _window(flat, matches, width)
    out, at = [], begin
    for start, stop, _stem in matches:
        if begin <= start and stop <= end:
            out += [flat[at:start], MARK, flat[start:stop], MARK]
            at = stop
    out.append(flat[at:end])
    return ("…" if begin > 0 else "") + "".join(out) + ("…" if end < len(flat) else "")


def _window(flat: str, matches: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """[begin, end) of at most `width` characters, centred on the best cluster of matches."""
    if len(flat) <= width:
        return 0, len(flat)
    if not matches:
        return 0, _word_end(flat, width)
    first, last = _best_cluster(matches, width)
    centre = (matches[first][0] + matches[last][1]) // 2
    begin = min(max(0, centre - width // 2), len(flat) - width)
    begin = _word_start(flat, begin) if begin > 0 else 0
    return begin, _word_end(flat, begin + width)


def _best_cluster(matches: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """(first, last) indices of the run of matches that fits in `width` characters with the most distinct
    terms, then the most matches; the earliest such run. One pass with two pointers and a term count, so a
    one-line file with thousands of matches costs linear time, not quadratic."""
    counts: dict[str, int] = {}
    best, best_key, last = (0, 0), (-1, -1), -1
    for first, (start, _end, _term) in enumerate(matches):
        last = max(last, first - 1)  # counts hold the terms of matches[first..last]
        while last + 1 < len(matches) and matches[last + 1][1] - start <= width:
            last += 1
            counts[matches[last][2]] = counts.get(matches[last][2], 0) + 1
        if last < first:  # a single match wider than the window
            key, run = (1, 1), (first, first)
        else:
            key, run = (len(counts), last - first + 1), (first, last)
        if key > best_key:
            best, best_key = run, key
        if last >= first:
            term = matches[first][2]
            counts[term] -= 1
            if not counts[term]:
                del counts[term]
    return best


def _word_start(flat: str, at: int) -> int:
    """`at`, moved forward past a word it would cut (by at most 20 characters)."""
    space = flat.find(" ", at, at + 20)
    return at if flat[at - 1] == " " or space < 0 else space + 1


def _word_end(flat: str, at: int) -> int:
    """`at`, moved back to before a word it would cut (by at most 20 characters)."""
    if at >= len(flat) or flat[at] == " ":
        return min(at, len(flat))
    space = flat.rfind(" ", max(0, at - 20), at)
    return at if space < 0 else space
