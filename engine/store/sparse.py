"""BM25 as sparse vectors, scored as the Tantivy index scores it, for a store whose server applies the IDF
(Qdrant's `Modifier.IDF`: `ln(1 + (N - n + 0.5) / (n + 0.5))`, Tantivy's formula).

A chunk's fields (body, code, path, heading, folded: `engine.store.lexical.fields`) are cut by Tantivy's own
analysers ("en_stem" or "default", rebuilt from tantivy's parts). A term's dimension is a hash of its
field and text; its value is BM25's term-frequency part `tf (k1+1) / (tf + k1 (1 - b + b dl/avgdl))`, with
the length `dl` quantised by Tantivy's one-byte field norm and `avgdl` the raw mean, as Tantivy has them.

Tantivy's parser turns a query word that its analyser cuts in two or more (`create_agent`,
`GRAPH_RECURSION_LIMIT`) into a phrase. A sparse vector has no positions, so adjacent pairs get their own
dimensions: in code and path (whose text is a list of identifier parts) every adjacent pair, in body and
heading the pairs inside one word (an identifier written whole; prose that happens to put the same words
side by side is not matched as a phrase, a difference from Tantivy). A query's phrase weighs its pairs so
that a two-word phrase counts about the two idfs Tantivy sums.
"""

from __future__ import annotations

import bisect
import itertools
import zlib
from collections import Counter

import tantivy

from engine.store.lexical import BOOSTS, fields, folded_words, keyword_query

K1, B = 1.2, 0.75  # Tantivy's BM25 constants
VERSION = 3  # bump when what a point holds changes (3: paths from the folder down, folded words): rebuilt
PAIRS_ACROSS_WORDS = frozenset({"code", "path"})  # fields whose text is identifier parts, space-separated


def _fieldnorm(code: int) -> int:
    """Tantivy's field-norm byte decoded (fieldnorm/code.rs): exact below 24, then 3-bit mantissa."""
    if code < 24:
        return code
    rest = code - 24
    bits, shift = rest & 7, rest >> 3
    return 24 + (bits if shift == 0 else (bits | 8) << (shift - 1))


FIELD_NORMS = tuple(_fieldnorm(code) for code in range(256))


def quantised(length: int) -> int:
    """The length Tantivy scores with: the largest field norm not above it."""
    return FIELD_NORMS[bisect.bisect_right(FIELD_NORMS, length) - 1]


def analyzers() -> dict[str, tantivy.TextAnalyzer]:
    """The Tantivy index's analysers per field; one set per caller, as an analyser is not shared across
    threads."""

    def build(stem: bool) -> tantivy.TextAnalyzer:
        builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        builder = builder.filter(tantivy.Filter.remove_long(40)).filter(tantivy.Filter.lowercase())
        if stem:
            builder = builder.filter(tantivy.Filter.stemmer("english"))
        return builder.build()

    stemmed, plain = build(True), build(False)
    return {"body": stemmed, "code": plain, "path": plain, "heading": stemmed, "folded": plain}


def term_index(field: str, term: str) -> int:
    """A sparse dimension for a field's term (32 bits, as Qdrant's sparse indices are)."""
    return zlib.crc32(f"{field}\x1f{term}".encode())


def pair_index(field: str, first: str, second: str) -> int:
    return term_index(field + "+", f"{first} {second}")


class Tokens:
    """One field's terms (for tf and length) and its adjacent pairs (for phrases)."""

    __slots__ = ("pairs", "terms")

    def __init__(self, analyzer: tantivy.TextAnalyzer, field: str, text: str) -> None:
        tokens = analyzer.pre_tokenize(text).tokens
        self.terms: list[str] = [t.text for t in tokens]
        across = field in PAIRS_ACROSS_WORDS
        self.pairs: list[tuple[str, str]] = [
            (a.text, b.text)
            for a, b in itertools.pairwise(tokens)
            if b.position == a.position + 1
            and (across or _one_word(text[a.char_offset_to : b.char_offset_from]))
        ]


def _one_word(gap: str) -> bool:
    """Two tokens of one word: only separators between them (`create_agent`, `os.path`), no space."""
    return not any(ch.isspace() for ch in gap)


def tokenise(
    path: str, heading: str, text: str, by_field: dict[str, tantivy.TextAnalyzer]
) -> dict[str, Tokens]:
    return {f: Tokens(by_field[f], f, s) for f, s in fields(path, heading, text).items()}


def doc_weights(tokens: dict[str, Tokens], avgdl: dict[str, float]) -> dict[int, float]:
    """A chunk's sparse vector: BM25's tf part per field term and per adjacent pair."""
    weights: dict[int, float] = {}
    for f, toks in tokens.items():
        norm = K1 * (1 - B + B * quantised(len(toks.terms)) / avgdl[f])
        counted = [(term_index(f, t), n) for t, n in Counter(toks.terms).items()]
        counted += [(pair_index(f, a, b), n) for (a, b), n in Counter(toks.pairs).items()]
        for idx, tf in counted:
            weights[idx] = weights.get(idx, 0.0) + tf * (K1 + 1) / (tf + norm)
    return weights


def query_weights(query: str) -> dict[int, float]:
    """A query's sparse vector: per distinct word (as typed: Tantivy's parser keeps one clause per
    distinct word, so "Graph graph" is two and "graph graph" one) and field, the field's boost on its
    term, or on its pairs when the analyser cuts the word in several (Tantivy's phrase)."""
    words = dict.fromkeys(f"{keyword_query(query)} {folded_words(query)}".replace('"', " ").split())
    weights: dict[int, float] = {}
    for f, analyzer in analyzers().items():
        for word in words:
            terms = analyzer.analyze(word)
            if len(terms) == 1:
                keys = [(term_index(f, terms[0]), BOOSTS[f])]
            else:
                share = BOOSTS[f] * len(terms) / max(1, len(terms) - 1)
                keys = [(pair_index(f, a, b), share) for a, b in itertools.pairwise(terms)]
            for idx, value in keys:
                weights[idx] = weights.get(idx, 0.0) + value
    return weights
