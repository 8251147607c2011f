"""The cite-or-refuse contract, in code.

A generated sentence is shown only if:
1. it cites at least one source number that was actually supplied;
2. its quote is a verbatim (whitespace-normalised) substring of a cited source's chunk, which is then
   resolved to exact lines (and page);
3. the sentence is supported by what it cites: enough of its content words occur in the cited text, or
   its embedding is close enough to the quote's, and every figure in it, in digits or in number words
   ("the last three parts"), occurs in the cited files' supplied text, headings or names (not merely in
   the question: restating a false premise's figure over a source that says otherwise is the confident
   wrong answer this contract exists to stop); a figure the question states too, within NEAR_LINES of
   the quote;
4. the question's distinctive words it uses occur in what it cites: a sentence that restates the
   question ("To get promoted you need two approving reviews") claims its quote answers it, and that
   claim needs the source to speak of the same thing. Distinctive: in under RARE of the indexed chunks;
   at most TOPIC_GAP of the question's IDF weight may be used by the sentence yet missing from its sources,
   unless the embedding says the sources are about those words all the same (TOPIC_COSINE).
Then the answer check (answerability.py) judges whether the quote, read with the lines around it,
answers the question at all; a verbatim quote that does not is dropped too.
A quote that is not verbatim is not shown: the source line that best supports the sentence is quoted
instead when it clearly does (REPAIR_SUPPORT), else the sentence is dropped.
Unsupported sentences are dropped and reported. If none remains, the answer is exactly REFUSAL.
Instructions inside documents cannot change this: the checks look only at the supplied chunks.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine import english
from engine.answer.gate import DocFreq, idf
from engine.events import AnswerSentence, Citation, Hit, RawSentence
from engine.text import (
    MIN_QUOTE_CHARS,
    Embed,
    content_terms,
    figure_value,
    normalize,
    normalized_with_map,
    question_terms,
    rejoined,
    split_sentences,
    stem,
)

# Support thresholds. A sentence passes if LEXICAL_SUPPORT of its content terms occur in the cited text,
# or if its embedding cosine with the quote is at least SEMANTIC_SUPPORT (MiniLM-L6; paraphrase pairs
# score ~0.6-0.9, topical but unsupported pairs ~0.2-0.5, from hand-checked pairs, not a labelled set).
# Their effect is reported by `citeline eval --answers` (quote verification rate, sentences dropped and why).
LEXICAL_SUPPORT = 0.6
SEMANTIC_SUPPORT = 0.62
EMPHASIS = "*`"
# A non-verbatim quote is replaced by the source line sharing at least this share of the sentence's words.
REPAIR_SUPPORT = 0.5
# Share of the question's IDF weight that a sentence may use while its cited sources lack it (rule 4),
# counting only distinctive words (in under RARE of the chunks). Meridian: a correct paraphrase misses
# common words ("engineers", "per year"); a sentence tying a deploy rule to "promoted" misses a rare one.
TOPIC_GAP = 0.25
RARE = 0.05
# ...unless the cited text is about the missing words anyway: their MiniLM cosine with it is at least
# TOPIC_COSINE. Meridian, recorded local answers: "getting promoted" vs the deploy rules 0.07; words a
# correct answer restated from the question vs its source 0.19-0.28 ("complete disaster recovery" vs
# the backups section 0.21). Four pairs: a rough line, re-check it on your own questions.
TOPIC_COSINE = 0.15
PREFIX = 5  # words sharing their first PREFIX letters count as one (promoted/promotion)
# Words that name the kind of answer a question wants, not its topic ("what is the rollback command?" is
# answered by "run make rollback", which never says "command"): rule 4 does not ask sources for them.
ANSWER_KINDS = frozenset(
    "command process procedure step steps policy rule way method tool system option setting name number "
    "amount time date value type kind reason requirement guideline strategy plan status list".split()
)
# A figure a written sentence repeats from the question must be stated this close to its quote (in lines
# either side of it): elsewhere in the file it is another thing's figure ("If the offset is 3, ...", an
# example six lines on, does not make "the last three parts" the default the question supposes).
NEAR_LINES = 2
NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d])|(?<![\w.])\d+(?:\.\d+)?(?![\w])")


_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")


@dataclass(frozen=True)
class Verdict:
    sentence: AnswerSentence | None
    reason: str  # "" when kept
    repaired: bool = False  # the model's quote was not verbatim; the best supporting source line is cited


def locate(quote: str, hit: Hit) -> tuple[int, int] | None:
    """Lines (start, end) of `hit` where the quote occurs, or None. Whitespace, typographic quotes,
    Markdown emphasis/code marks (* and `) and link syntax (a link reads as its text) are ignored on both
    sides; the rest must match exactly (case-insensitively only as a fallback)."""
    span = _chars(quote, hit)
    if span is None:
        return None
    first, last = span
    rows = range(hit.text.count("\n", 0, first), hit.text.count("\n", 0, last) + 1)
    covered = [hit.line_at(i) for i in rows]
    if len(covered) > 1 and covered[1] != covered[0] + 1 and _FENCE_LINE.match(hit.text.split("\n")[rows[0]]):
        covered = covered[1:]  # the fence a chunk carries from above its cut (the chunker) is no quoted line
    return min(covered), max(covered)  # a notebook's output sits above its code in the file


def _chars(quote: str, hit: Hit) -> tuple[int, int] | None:
    """The first and last character of `hit.text` the quote covers, matched as `locate` says."""
    # a link as written first, then read as its text; then a word hyphenated over a line end read whole
    # on both sides ("appearance" quoting a page's "appear-" / "ance")
    for links, rejoin in ((False, False), (True, False), (True, True)):
        flat, index = normalized_with_map(hit.text, drop=EMPHASIS, links=links, rejoin=rejoin)
        said = rejoined(quote) if rejoin else quote
        needle = " ".join(normalized_with_map(said, drop=EMPHASIS, links=links)[0].split()).strip(" .")
        if len(needle) < MIN_QUOTE_CHARS:
            return None
        pos = flat.find(needle)
        if pos < 0:
            pos = flat.lower().find(needle.lower())
        if pos >= 0:
            return index[pos], index[pos + len(needle) - 1]
    return None


def whole_sentences(quote: str, hit: Hit) -> str:
    """The sentences of `hit` the quote lies in, whole (the quote itself where it is not found): the unit
    the extractive answer quotes, so that a model quoting part of a sentence and the draft quoting all of
    it are judged on the same text."""
    span = _chars(quote, hit)
    if span is None:
        return quote
    covered = [(s, e) for s, e in split_sentences(hit.text) if s <= span[1] and e > span[0]]
    if not covered:
        return quote
    return hit.text[covered[0][0] : covered[-1][1]].strip()


def lexical_support(sentence: str, cited: str) -> float:
    terms = set(content_terms(sentence))
    if not terms:
        return 0.0
    have = set(content_terms(cited))
    return len(terms & have) / len(terms)


def numbers(text: str) -> set[str]:
    """Figures in a text (20, 3.5, 2,000 -> 2000, 5.0 -> 5), for the rule that an answer never invents one."""
    return {figure_value(m.replace(",", "")) for m in NUMBER.findall(text)}


def said_figures(text: str) -> dict[str, str]:
    """The figures a text states, in digits or in number words (english.claimed_figures: "the last three
    parts"), each as a digit string mapped to how the text writes it."""
    return {n: n for n in numbers(text)} | english.claimed_figures(text)


def invented_figures(sentence: str, cited: str, among: Collection[str] | None = None) -> list[str]:
    """The figures `sentence` states (of those `among`, where given) that `cited` states in neither
    digits nor words, as the sentence writes them."""
    stated = said_figures(cited)
    said = said_figures(sentence).items()
    return sorted(w for v, w in said if v not in stated and (among is None or v in among))


def around(citation: Citation, hit: Hit, lines: int = NEAR_LINES) -> str:
    """The cited lines of `hit` with NEAR_LINES either side, and the chunk's heading."""
    text = hit.text.split("\n")
    first = max(hit.index_of(citation.start_line) - lines, 0)
    return f"{hit.heading}\n" + "\n".join(text[first : hit.index_of(citation.end_line) + lines + 1])


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


def cite(n: int, hit: Hit, quote: str) -> Citation | None:
    """A citation of source `n` where `quote` occurs in it verbatim (see locate), else None."""
    span = locate(quote, hit)
    return Citation(n, hit.path, span[0], span[1], hit.page, normalize(quote)) if span else None


def topic_gap(
    sentence: str, question: str, cited: str, doc_freq: DocFreq | None = None
) -> tuple[float, tuple[str, ...]]:
    """IDF-weighted share of the question's content words that `sentence` uses but `cited` lacks, and
    those words."""
    asked = list(dict.fromkeys(question_terms(question)))
    used = set(content_terms(sentence)) - {stem(w) for w in ANSWER_KINDS}
    have = set(content_terms(cited))
    prefixes = {t[:PREFIX] for t in have if len(t) >= PREFIX}
    missing = tuple(
        t
        for t in asked
        if t in used
        and t not in have
        and not (len(t) >= PREFIX and t[:PREFIX] in prefixes)
        and _distinctive(t, doc_freq)
    )
    if not missing:
        return 0.0, ()
    weights = {t: idf(t, doc_freq) for t in asked}
    return sum(weights[t] for t in missing) / (sum(weights.values()) or 1.0), missing


def _distinctive(term: str, doc_freq: DocFreq | None) -> bool:
    if doc_freq is None:
        return True
    df, n = doc_freq(term)
    return n == 0 or df / n < RARE


def _cited_files(evidence: Sequence[Hit], citations: Sequence[Citation]) -> str:
    """Where a figure a sentence states may come from: the cited passages, their headings and file names
    (pto_2024.md, its words apart), and the other supplied passages of the same files. Not the question: a
    figure restated from it ("Why does it wrap at 100 characters?") over a source that says 80 is a false
    premise, cited."""
    paths = {evidence[c.source - 1].path for c in citations}
    names = " ".join(re.sub(r"[_-]", " ", _name(p)) for p in paths)
    return f"{_cited_text([h for h in evidence if h.path in paths])} {names}"


def _near(evidence: Sequence[Hit], citations: Sequence[Citation]) -> str:
    """Where a figure the question states too may come from: the cited lines with NEAR_LINES either side,
    their headings, and what scopes a whole file, its name and its first line where supplied (a title,
    "Roadmap for 2024")."""
    paths = {evidence[c.source - 1].path for c in citations}
    titles = [h.text.split("\n", 1)[0] for h in evidence if h.path in paths and h.start_line == 1]
    names = " ".join(re.sub(r"[_-]", " ", _name(p)) for p in paths)
    return "\n".join([*(around(c, evidence[c.source - 1]) for c in citations), *titles, names])


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _cited_text(hits: Sequence[Hit]) -> str:
    return " ".join(f"{h.heading} {_name(h.path)} {h.text}" for h in hits)


def check(
    raw: RawSentence,
    evidence: Sequence[Hit],
    embed: Embed | None,
    question: str = "",
    doc_freq: DocFreq | None = None,
) -> Verdict:
    supplied = [n for n in raw.sources if 1 <= n <= len(evidence)]
    if not supplied:
        return Verdict(None, f"cites no supplied source ({list(raw.sources)})")
    citations = [c for n in supplied if (c := cite(n, evidence[n - 1], raw.quote)) is not None]
    repaired = False
    if not citations:  # a verbatim quote under the wrong number (small models miscount): cite where it is
        found = (cite(n, hit, raw.quote) for n, hit in enumerate(evidence, start=1) if n not in supplied)
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
        best = cite(n, evidence[n - 1], line) if share >= REPAIR_SUPPORT else None
        if best is None:
            return Verdict(None, "quote not found verbatim in the cited sources")
        citations, repaired = [best], True
    quotes = " ".join(c.quote for c in citations)
    cited_text = " ".join(evidence[c.source - 1].text for c in citations)
    if invented := invented_figures(raw.text, _cited_files(evidence, citations)):
        return Verdict(None, f"figures not in the cited sources: {', '.join(invented)}")
    if echoed := invented_figures(raw.text, _near(evidence, citations), among=said_figures(question)):
        return Verdict(None, f"the question's figures, not near the quote: {', '.join(echoed)}")
    if lexical_support(raw.text, quotes + " " + cited_text) < LEXICAL_SUPPORT and not _close(
        raw.text, quotes, embed
    ):
        return Verdict(None, "sentence not supported by its quote")
    if question:
        cited = _cited_text([evidence[c.source - 1] for c in citations])
        gap, missing = topic_gap(raw.text, question, cited, doc_freq)
        if gap > TOPIC_GAP and not _about(" ".join(missing), cited, embed):
            return Verdict(None, f"the cited source does not speak of: {', '.join(missing)}")
    # lines of code keep the first line's indentation relative to the rest
    text = raw.text.strip("\n").rstrip() if "\n" in raw.text.strip() else raw.text.strip()
    return Verdict(AnswerSentence(text, tuple(citations)), "", repaired)


def _about(words: str, cited: str, embed: Embed | None) -> bool:
    """Whether the cited text is about `words` without using them (backups are about disaster recovery;
    pull-request reviews are not about promotion), by embedding cosine."""
    if embed is None:
        return False
    vecs = embed([words, cited])
    return float(vecs[0] @ vecs[1]) >= TOPIC_COSINE


def _close(sentence: str, quote: str, embed: Embed | None) -> bool:
    if embed is None:
        return False
    vecs = embed([sentence, quote])
    return float(vecs[0] @ vecs[1]) >= SEMANTIC_SUPPORT


def render(sentences: Sequence[AnswerSentence]) -> str:
    """The answer as text with [n] markers after each sentence. A quote of several lines (code, an
    example) is a block of its own, indented four spaces (Markdown's code block), its markers after it."""
    out, block = "", False  # block: what `out` ends with is a code block's markers
    for s in sentences:
        marks = "".join(f"[{n}]" for n in dict.fromkeys(c.source for c in s.citations))
        text = s.text.rstrip()
        if "\n" in text:
            out += ("\n\n" if out else "") + lines_block(text) + f"\n\n{marks}"
            block = True
            continue
        said = f"{text[:-1]} {marks}{text[-1]}" if text.endswith((".", "!", "?")) else f"{text} {marks}"
        out += ("\n\n" if block else " " if out else "") + said
        block = False
    return out


_LEAD = re.compile(r"[A-Z][^\n]*\s\S+\s[^\n]*:")  # a line of prose that introduces what follows


def lead_and_code(text: str) -> tuple[str, str]:
    """A quote of several lines as (its lead-in sentence, the code after it): "To install it, run:" then
    "pip install foo"; ("", text) when its first line is code ("def f(x):", "class A:") or not a lead-in."""
    first, _, rest = text.partition("\n")
    return (first, rest) if rest.strip() and _LEAD.fullmatch(first) else ("", text)


def lines_block(text: str) -> str:
    """A quote of several lines in Markdown: its lead-in as prose (`lead_and_code`), the code as a block."""
    lead, code = lead_and_code(text)
    return f"{lead}\n\n{code_block(code)}" if lead else code_block(code)


def code_block(text: str) -> str:
    """A quote of several lines as a Markdown code block: each line indented four spaces."""
    return "\n".join(f"    {line}" if line.strip() else "" for line in text.split("\n"))
