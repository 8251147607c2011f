"""The cite-or-refuse contract, in code.

A generated sentence is shown only if:
1. it cites at least one source number that was actually supplied;
2. its quote is a verbatim (whitespace-normalised) substring of a cited source's chunk, which is then
   resolved to exact lines (and page);
3. the sentence is supported by what it cites: enough of its content words occur in the cited text, or
   its embedding is close enough to the quote's, and every figure in it occurs in the cited text.
A quote that is not verbatim is not shown: the source line that best supports the sentence is quoted
instead when it clearly does (REPAIR_SUPPORT), else the sentence is dropped.
Unsupported sentences are dropped and reported. If none remains, the answer is exactly REFUSAL.
Instructions inside documents cannot change this: the checks look only at the supplied chunks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.answer.text import content_terms, normalize, normalized_with_map
from engine.events import AnswerSentence, Citation, Hit

# Support thresholds. A sentence passes if LEXICAL_SUPPORT of its content terms occur in the cited text,
# or if its embedding cosine with the quote is at least SEMANTIC_SUPPORT (MiniLM-L6; paraphrase pairs
# score ~0.6-0.9, topical but unsupported pairs ~0.2-0.5). Measured by tests/test_contract.py's pairs and
# reported by `citeline eval --answers` (quote verification and support rates).
LEXICAL_SUPPORT = 0.6
SEMANTIC_SUPPORT = 0.62
MIN_QUOTE_CHARS = 8
EMPHASIS = "*`"
# A non-verbatim quote is replaced by the source line sharing at least this share of the sentence's words.
REPAIR_SUPPORT = 0.5
NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d])|(?<![\w.])\d+(?:\.\d+)?(?![\w])")

Embed = Callable[[list[str]], npt.NDArray[np.float32]]


@dataclass(frozen=True)
class RawSentence:
    """A sentence as a generator proposed it, before any check."""

    text: str
    sources: tuple[int, ...]
    quote: str


@dataclass(frozen=True)
class Verdict:
    sentence: AnswerSentence | None
    reason: str  # "" when kept
    repaired: bool = False  # the model's quote was not verbatim; the best supporting source line is cited


def locate(quote: str, hit: Hit) -> tuple[int, int] | None:
    """Lines (start, end) of `hit` where the quote occurs, or None. Whitespace, typographic quotes and
    Markdown emphasis/code marks (* and `) are ignored on both sides; the rest must match exactly
    (case-insensitively only as a fallback)."""
    flat, index = normalized_with_map(hit.text, drop=EMPHASIS)
    needle = "".join(c for c in normalize(quote) if c not in EMPHASIS).strip(" .")
    if len(needle) < MIN_QUOTE_CHARS:
        return None
    pos = flat.find(needle)
    if pos < 0:
        pos = flat.lower().find(needle.lower())
    if pos < 0:
        return None
    first = index[pos]
    last = index[pos + len(needle) - 1]
    start = hit.start_line + hit.text.count("\n", 0, first)
    end = hit.start_line + hit.text.count("\n", 0, last)
    return start, end


def lexical_support(sentence: str, cited: str) -> float:
    terms = set(content_terms(sentence))
    if not terms:
        return 0.0
    have = set(content_terms(cited))
    return len(terms & have) / len(terms)


def numbers(text: str) -> set[str]:
    """Figures in a text (20, 3.5, 2,000 -> 2000), for the rule that an answer never invents one."""
    return {m.replace(",", "") for m in NUMBER.findall(text)}


def best_span(sentence: str, hit: Hit) -> tuple[str, float]:
    """The line of `hit` that shares the most content words with `sentence`, and that share."""
    terms = set(content_terms(sentence))
    best, share = "", 0.0
    for line in hit.text.splitlines():
        text = line.strip()
        if len(text) < MIN_QUOTE_CHARS or not terms:
            continue
        got = len(terms & set(content_terms(text))) / len(terms)
        if got > share:
            best, share = text, got
    return best, share


def _cite(n: int, hit: Hit, quote: str) -> Citation | None:
    span = locate(quote, hit)
    return Citation(n, hit.path, span[0], span[1], hit.page, normalize(quote)) if span else None


def check(raw: RawSentence, evidence: Sequence[Hit], embed: Embed | None) -> Verdict:
    supplied = [n for n in raw.sources if 1 <= n <= len(evidence)]
    if not supplied:
        return Verdict(None, f"cites no supplied source ({list(raw.sources)})")
    citations = [c for n in supplied if (c := _cite(n, evidence[n - 1], raw.quote)) is not None]
    repaired = False
    if not citations:  # a verbatim quote under the wrong number (small models miscount): cite where it is
        found = (_cite(n, hit, raw.quote) for n, hit in enumerate(evidence, start=1) if n not in supplied)
        citations = [c for c in found if c is not None][:1]
        repaired = bool(citations)
    if not citations:
        # The model's quote is not verbatim. Its sentence may still be right: quote the source line
        # that best supports it instead (verbatim by construction), if one clearly does.
        figures = numbers(raw.text)
        spans = [(best_span(raw.text, evidence[n - 1]), n) for n in supplied]
        # Prefer a source that holds every figure of the sentence, then the line sharing most words.
        (line, share), n = max(
            spans, key=lambda item: (figures <= numbers(evidence[item[1] - 1].text), item[0][1])
        )
        cite = _cite(n, evidence[n - 1], line) if share >= REPAIR_SUPPORT else None
        if cite is None:
            return Verdict(None, "quote not found verbatim in the cited sources")
        citations, repaired = [cite], True
    quotes = " ".join(c.quote for c in citations)
    cited_text = " ".join(evidence[c.source - 1].text for c in citations)
    invented = numbers(raw.text) - numbers(cited_text)
    if invented:
        return Verdict(None, f"figures not in the cited sources: {', '.join(sorted(invented))}")
    if lexical_support(raw.text, quotes + " " + cited_text) < LEXICAL_SUPPORT and not _close(
        raw.text, quotes, embed
    ):
        return Verdict(None, "sentence not supported by its quote")
    return Verdict(AnswerSentence(raw.text.strip(), tuple(citations)), "", repaired)


def _close(sentence: str, quote: str, embed: Embed | None) -> bool:
    if embed is None:
        return False
    vecs = embed([sentence, quote])
    return float(vecs[0] @ vecs[1]) >= SEMANTIC_SUPPORT


def render(sentences: Sequence[AnswerSentence]) -> str:
    """The answer as text with [n] markers after each sentence."""
    parts = []
    for s in sentences:
        marks = "".join(f"[{n}]" for n in dict.fromkeys(c.source for c in s.citations))
        text = s.text.rstrip()
        if text.endswith((".", "!", "?")):
            parts.append(f"{text[:-1]} {marks}{text[-1]}")
        else:
            parts.append(f"{text} {marks}")
    return " ".join(parts)
