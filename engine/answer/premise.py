"""False premises a question states and the folders do not support: what the question takes as given,
checked before any model reads it.

- A figure ("Why is the default timeout 30 seconds?"): nothing retrieved states it, in digits, number
  words or Roman numerals. A question asking how to do something, requesting something or supposing
  something is exempt: its figures are the user's own ("How do I set the timeout to 30 seconds?").
- A code identifier ("How do I configure the max_retries_backoff option?"): a name written as code
  (snake_case, camelCase, letters then digits as in pbkdf2 or sha256, a key of capitals and a number as
  in INC-204, a call `name(`, or in backticks) that no indexed file holds, in any of its spellings
  (max_retries_backoff, max-retries-backoff, maxRetriesBackoff; sha256, sha-256). Unlike a figure, an
  identifier is not the user's to choose, so a how-to question is not exempt; and unlike a figure it is
  looked for in the whole index, not only in what was retrieved: a name is exact, so its absence there is
  certain, while its absence from the top passages is not. A keyword the question passes (`flush=False`,
  `@hookimpl(priority=...)`) is such a name, and must also be held as one (`flush=`, `flush: bool`,
  `def f(a, flush)`, `"flush"`), not only as a method (`file.flush()`): a call takes only the keywords
  its sources take.
- A name ("How does the client negotiate QUIC?", "Who led Celeron's expedition?"): a word written with a
  capital, not opening a sentence, that no indexed file holds, case and accents aside, and for a word
  of five letters or more not even one typo away (Engine.knows: "Hatmanis" finds "Hartmanis"). A
  question about a thing the folders never mention cannot be answered from them.

- A change or a move ("Why was the limit cut from 10 s to 5 s?"): what was retrieved states it the other
  way round ("raise the limit from 5 to 10 seconds") and never as asked (`reversed_direction`); so for a
  change asked by its sense alone ("Why did we bring the charges down?", `reversed_sense`) and for two
  things set side by side, each with what the question says of it ("Why are request objects mutable
  while response objects are immutable?"), which a source pairs the other way round ("The response
  object is mutable") more strongly than any states them as asked (`crossed_pairing`).

One more is checked after the answer, against what it shows (`contradicted`):

- A figure the answer says otherwise ("Who developed the theory in 1974?" answered "In 1967, Blum
  developed the theory"; "Why was 3.7 dropped in 2.1.0?" answered "2.2.0: Drop support for Python 3.7"):
  the sentences shown, with the lines around them and their heading, never state the question's figure,
  and one of them (itself, its heading or its title: not a neighbour, which may speak of another thing)
  states another of the same kind (counting the same unit, a release, a year). The figure is stated
  somewhere in the folders, so the check before the model lets it through; the sentence that answers is
  the one that says the premise is false.
- A default the answer gives otherwise ("res.redirect sends a permanent 301 by default" answered "status
  defaulting to 302"; "turns warnings on by default" answered "default is warnings off"): a figure, a
  switch's state or a flag the question gives as a default (`default_claims`), which nothing shown gives
  as one, while a quote gives another default of the same kind for the same thing (`default_support`). An
  example elsewhere in the answer that writes the question's value ("res.redirect(301, url)") does not
  state it as the default.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine import english
from engine.answer.answerability import (
    chunk_text,
    clock_parts,
    figures,
    opposites,
    polar,
    premises,
    spelled,
    stated_figures,
    window,
)
from engine.events import Hit
from engine.text import (
    SECTION_NUMBER,
    STOP,
    content_terms,
    fold,
    question_terms,
    split_sentences,
    stem,
)
from engine.text import words as words_of

Mentions = Callable[..., bool]  # (spelling, ...) -> does any indexed file hold one of them?
Together = Callable[..., bool]  # (word, ..., member) -> one file holds the words and defines the member?
Knows = Callable[[str], bool]  # does any indexed file hold this word (or, when long, one typo from it)?

_IDENT = re.compile(
    r"(?<![\w-])(?:"
    r"--[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*"  # a command line's long option: --check, --indent-size
    r"|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"  # snake_case, UPPER_SNAKE
    r"|__[A-Za-z]\w*__|_[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?!_)"  # __dunder__, _private; not _emphasis_
    r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"  # camelCase
    r"|[A-Za-z]{2,}\d+[A-Za-z0-9]*"  # letters then digits: pbkdf2, sha256, IPv6, base64
    r"|[A-Z]{2,}-\d+[A-Za-z0-9]*"  # a key of capitals and a number: a ticket, an incident, a macro (INC-204)
    r")(?![\w-])"
)
_ALNUM = re.compile(r"[A-Za-z]+\d+[A-Za-z0-9]*")
_CALL = re.compile(r"(?<![\w.])(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w{2,})\(")  # written as a call: name(
_TICKED = re.compile(r"`([^`\n]+)`")
# A keyword the question passes, `name=value` as code writes it, lower case and unspaced ("pass
# strict_undefined=True", "@hookimpl(priority=...)"): not an option's (--algo=v3, -sPAPERSIZE=a4), a URL
# query's (?a=1&copy=2), a path's, an attribute's (obj.mode=1), a comparison (==, =>), an assignment or a
# formula written spaced ("alpha = 0.05", "status = 'active'"), a variable of the environment or of a
# configuration (NODE_ENV=production, StrictHostKeyChecking=no: held where they are named); a pattern's
# placeholder value ("key=value") names no keyword.
_KEYWORD = re.compile(r"(?<![\w.\-?&/$@])([a-z_][A-Za-z0-9_]*)=(?![=>~]|(?:values?|val)\b)")
_SET_BY = re.compile(r"(?:^|\s)(?:-{1,2}[\w-]+|export|set|env)\s+$")  # "-o name=", "export name="
# a TeX or LaTeX command, written with its backslash (\ionstage, \newdefinition) after a space, a bracket
# or a quote; not a path's part (C:\Users, %APPDATA%\Citeline) nor an escape (\n, \d)
_COMMAND = re.compile(r"(?<![^\s(\[{`\"'“‘])\\[A-Za-z]{2,}")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


def unsupported_figures(question: str, hits: Sequence[Hit], mentions: Mentions | None = None) -> list[str]:
    """The figures a question takes as given (`premises`) that no hit states (its text, heading or file
    name), each with the word after it ("30 seconds").

    A version ("3.23", "2.0.1": a figure with two dots, or with one and no unit after it) is stated by any
    release under it ("3.23.1" states "3.23"), in what was retrieved or anywhere in the index
    (`mentions`): a question qualified by its release series ("In marshmallow 3.23, ...") asks about what
    the changelog's releases say exists, whatever the passages it retrieves are about. The version itself,
    written as the question writes it, must be stated by what was retrieved, as any figure ("only tested
    on Python 3.9 through 3.12" is not supported by a 3.9 said somewhere else)."""
    if not (given := premises(question)):
        return []
    texts = [chunk_text(h) for h in hits]
    have = frozenset[str]().union(*(stated_figures(t) for t in texts))
    asked = figure_units(question)
    units = figure_units("\n".join(texts))  # the unit of each figure the hits write in digits
    in_words = frozenset[str]().union(*(english.written_figures(t) for t in texts))  # no unit read there
    out: dict[str, str] = {}  # each figure once, said as the question first writes it
    for m in _SAID.finditer(question):
        figure, said = m.group(1), _said(m)
        value = next(iter(figures(figure)), "")
        if value not in given or value in out:  # not the user's own ("set it to 60")
            continue
        if value in have and (
            value in in_words or not _other_units(asked.get(value, set()), units.get(value, set()))
        ):
            continue  # stated: without a unit, or with the question's (not "32-bit" for "32 MB")
        if _VERSION.fullmatch(figure) and (figure.count(".") > 1 or said == figure):
            release = re.compile(rf"(?<![\d.]){re.escape(figure)}(?:\.\d+)*(?![\d])")
            finer = [f"{figure}.{d}" for d in range(10)]  # "3.23.0"... "3.23.9" (and 3.23.10 by its 3.23.1)
            if any(release.search(t) for t in texts) or (mentions is not None and mentions(*finer)):
                continue
        out[value] = said
    worded = english.worded_figures(question)  # a figure in words ("keep ten copies"), said as written
    for m in _SAID_WORD.finditer(question):
        value = english.claimed_value(m.group(1))
        if worded.get(value) == m.group(1) and value in given and value not in have and value not in out:
            unit = (m.group(2) or "").lower()
            names = bool(content_terms(unit)) and unit not in english.CONNECTIVES and not unit.endswith("ly")
            out[value] = f"{m.group(1)} {m.group(2)}" if names else m.group(1)
    return list(out.values())


_UNIT_AFTER = re.compile(r"[ \t\u00a0-]?([A-Za-zμ%]+)")  # NFKC writes the micro sign as μ


def figure_units(text: str) -> dict[str, set[str | None]]:
    """Each figure `text` writes in digits, with the unit of each time it is written (english.UNITS: the
    word after it, or written on, "64KB"), None where no unit follows ("64 entries", "timeout = 30")."""
    out: dict[str, set[str | None]] = {}
    text = unicodedata.normalize("NFKC", text)
    for m in english.FIGURE.finditer(text):
        value = spelled(m.group())
        after = _UNIT_AFTER.match(text, m.end())
        out.setdefault(value, set()).add(english.UNITS.get(after.group(1).lower()) if after else None)
    return out


def _other_units(asked: set[str | None], said: set[str | None]) -> bool:
    """Whether a figure the question writes with a unit (`asked`) is written in the text only with other
    units (`said`): never where the text writes it once without one, or not in digits."""
    want = asked - {None}
    return bool(want) and bool(said) and None not in said and not want & said


_VERSION = re.compile(r"\d+(?:\.\d+)+")
_SAID = re.compile(
    rf"({english.FIGURE.pattern})(?:\s+([A-Za-z%]+))?", re.IGNORECASE
)  # a figure, the word after


# a word (a compound number word as one: "sixty-four"), the word after (not consumed)
_SAID_WORD = re.compile(rf"\b({english.NUMBER_OR_WORD.pattern})\b(?=(?:\s+([A-Za-z%]+))?)", re.IGNORECASE)


def _said(m: re.Match[str]) -> str:
    """A figure of a question (a match of _SAID) as the question says it: with the word after it where
    that names what it counts ("30 seconds"), not where it joins it to the next ("3.9 through", "3.12
    only"); a release has no unit ("3.24.0", not "3.24.0 drop")."""
    figure, unit = m.group(1), (m.group(2) or "").lower()
    if not unit or unit in english.CONNECTIVES or unit.endswith("ly") or not content_terms(unit):
        return figure
    return figure if _VERSION.fullmatch(figure) and figure.count(".") > 1 else m.group()


_FIGURE_OR_WORD = re.compile(rf"(?<![\w.])({english.FIGURE.pattern})(?!\w|\.\d)|[^\W\d_]+|%", re.IGNORECASE)
_YEAR = re.compile(r"1\d{3}|20\d{2}")
_CURRENCY = frozenset("$€£¥")
_MONTH_WORDS = frozenset(english.MONTHS) | {m[:3] for m in english.MONTHS}
_COUNT_WORDS = {w: v for w, v in english.NUMBER_WORDS.items() if w not in _MONTH_WORDS}
_BETWEEN = " \u00a0`*"  # what may stand between a figure and its unit or label: a space, code ticks, emphasis


def figure_kinds(text: str) -> dict[str, set[str]]:
    """Each figure `text` states, in digits or in number words (not a month's), with what kind of
    figure it is: "unit:" and the stem of the word after it, which names what it counts ("12 weeks",
    "21st century", "64 KB", "75 %"), or of the currency before it ("$38,000"); without either, "label:"
    and the stem of the noun right before it, which names what it numbers ("exit code 2", "port 8080",
    "level 3"; not a preposition or a hedge: "in 1974", "under 100"); "release" for a version
    (two dots, "2.1.0", or one and no unit, "3.7"); "year" for four digits from 1000 to 2099 ("in 1974",
    "1974 elections"). Code ticks or emphasis around a word keep it the figure's ("exactly one ``yield``")."""
    text = unicodedata.normalize("NFKC", text)
    tokens = list(_FIGURE_OR_WORD.finditer(text))
    out: dict[str, set[str]] = {}
    for i, m in enumerate(tokens):
        raw = m.group(1)
        value = next(iter(figures(raw)), None) if raw else _COUNT_WORDS.get(m.group().lower())
        if value is None:
            continue
        kinds = out.setdefault(value, set())
        after = tokens[i + 1].group() if i + 1 < len(tokens) else ""
        near = i + 1 < len(tokens) and not text[m.end() : tokens[i + 1].start()].strip(_BETWEEN + "-")
        if near and after and not after[0].isdigit():
            unit = "%" if after == "%" or after.lower() == "percent" else next(iter(content_terms(after)), "")
            if unit and after.lower() not in english.CONNECTIVES and not after.lower().endswith("ly"):
                kinds.add(f"unit:{unit}")
        if raw and m.start() > 0 and text[m.start() - 1] in _CURRENCY:
            kinds.add(f"unit:{text[m.start() - 1]}")
        if raw and (raw.count(".") > 1 or (not kinds and raw.count(".") == 1 and "," not in raw)):
            kinds.add("release")
        if raw and _YEAR.fullmatch(raw):
            kinds.add("year")
        if raw and i > 0 and not _counted(kinds) and not tokens[i - 1].group(1):  # the noun before it
            label = tokens[i - 1].group()
            stems = content_terms(label) if not text[tokens[i - 1].end() : m.start()].strip(_BETWEEN) else []
            if stems and label.lower() not in english.NOT_LABELS:
                kinds.add(f"label:{stems[0]}")
    return out


def _counted(kinds: set[str]) -> set[str]:
    return {k for k in kinds if k.startswith("unit:")}


def _described(kinds: set[str]) -> set[str]:
    """What a figure is said to count or number: the stems of its units and labels ("12 weeks": week;
    "exit code 2": code)."""
    return {k.split(":", 1)[1] for k in kinds if k.startswith(("unit:", "label:"))}


def counts_alike(figure: str, asked: dict[str, set[str]], said: dict[str, set[str]], text: str) -> bool:
    """Whether `text`, which holds `figure`, states it as the question does: unless both say what it counts
    or numbers (a unit after it, a label before it) and they differ, and what the question says is not one
    of the two words either side of it in the text either (a modifier may stand between: "5 business days"
    states "5 days"; "01:30 local time" does not state "30 minutes", nor "two variations" "exit code 2")."""
    want, have = _described(asked.get(figure, set())), _described(said.get(figure, set()))
    if not want or not have or want & have:
        return True
    tokens = list(_FIGURE_OR_WORD.finditer(unicodedata.normalize("NFKC", text)))
    for i, m in enumerate(tokens):
        raw = m.group(1)
        value = next(iter(figures(raw)), None) if raw else _COUNT_WORDS.get(m.group().lower())
        if value == figure:
            near = [t.group() for t in tokens[max(0, i - 2) : i + 3] if t is not m and not t.group(1)]
            if want & {stem for word in near for stem in content_terms(word)}:
                return True
    return False


# A title inside a chunk: a Markdown heading, or a reST title over its underline
_TITLE = re.compile(r"^#{1,6}[ \t]+(\S[^\n]*)$|^(\w[^\n]*)\n[=~^*+-]{3,}[ \t]*$", re.MULTILINE)


def section_title(quote: str, text: str) -> str:
    """The title of the section `quote` sits under inside `text` (the last title before it), or "": a
    small file is one chunk, so its heading path stops above its sections."""
    at = text.find(quote)
    found = [m.group(1) or m.group(2) for m in _TITLE.finditer(text, 0, max(0, at))]
    return found[-1] if found else ""


# A section's number opening a title, on a line or in a heading path ("8.1 – Incompatibilities", "## 8.1 –
# Incompatibilities", "Manual > 6.3 Installing packages", a PDF's "4. TABLES AND FIGURES"): it numbers the
# section, and says nothing of a release or a count. Not a release's own title ("2.0.0 (2024-05-01)",
# "24.1.0"), which no word follows, nor a count without its full stop ("3 Reasons to upgrade").
_SECTION_NUMBER = re.compile(
    rf"(?:^|(?<= > ))[ \t]*(?:#{{1,6}}[ \t]+)?"
    rf"(?:{SECTION_NUMBER}(?=[A-Z][a-z])|\d{{1,2}}\.[ \t]+(?=[A-Z][A-Za-z]))",
    re.MULTILINE,
)


class Shown(NamedTuple):
    """What an answer shows of a quote, for `contradicted`: `around`, the quote's sentence with those either
    side, and `said`, the quote alone. Each comes with the chunk's heading and the title the quote sits
    under inside the chunk (where a release or a year the quote leaves implicit usually sits), without the
    number a section's title opens with."""

    around: str
    said: str


def shown_text(quote: str, hit: Hit) -> Shown:
    """What an answer shows of a quote (`Shown`). A neighbouring sentence may state the question's figure,
    so the quote's window counts for it; only what the quote itself, its heading or its title says counts
    against it: a neighbour's figure may be another thing's (an example's version, the next item's)."""
    titles = (hit.heading, section_title(quote, hit.text))
    around, said = (
        ". ".join(_SECTION_NUMBER.sub("", part) for part in (x, *titles))
        for x in (window(quote, hit.text), quote)
    )
    return Shown(around, said)


# A figure said as already there: after a definite article or a possessive ("the 12 weeks of leave")
_PRESUPPOSED = re.compile(
    rf"\b(?:the|its|their|your|our|his|her|these|those)\s+\$?\s*({english.FIGURE.pattern})", re.IGNORECASE
)


def given_figures(question: str) -> frozenset[str]:
    """The figures a question takes as given: `premises`, and, where its figures are the user's own (a
    how-to question, a supposition), those it says as already there, after a definite article or a
    possessive ("How do I apply for the 12 weeks of paid leave?"; not "How do I set it to 30 seconds?")."""
    said = english.without_examples(question)
    return premises(question) | {f for m in _PRESUPPOSED.finditer(said) for f in figures(m.group(1))}


DEFAULT_REACH = 6  # words between "default" and the value it gives ("defaults to 88 characters per line")
BEFORE_REACH = 4  # words between a value and "by default" after it ("-v (lowercase) and --version by …")
NEGATION_REACH = 3  # words before a value or its "default" a negation may stand ("why doesn't the timeout")
_DEFAULT_TOKEN = re.compile(
    rf"(?P<flag>(?<![\w-])--?[A-Za-z][\w-]*)|(?P<figure>{english.FIGURE.pattern})"
    r"|(?P<word>[A-Za-z_][\w.'’]*\w(?:/\d+(?:\.\d+)*(?![\w.]))?|[A-Za-z])"  # HTTP/2 is one name
)
# where what a text says of one default ends: a sentence or a paragraph; in it a semicolon or a table's
# cell (what else it writes there may be another setting's value: `Default.values`); and a contrast
_DEFAULT_SENTENCE = re.compile(r"[.!?](?=\s|$)|\n[ \t]*\n")
_DEFAULT_SAID = re.compile(r";|\|")
_DEFAULT_PART = re.compile(r"(?=\b(?:while|whereas|but|although|though|unlike)\b)")
_SWITCH_ENDS = frozenset(".,;:)!?*/")  # what may follow "on" or "off" as a state, not a preposition


class Default(NamedTuple):
    """A value a text gives as the default (`defaults`): a figure, a switch's state or a command-line flag."""

    kind: str  # "figure", "switch" or "flag"
    value: str  # the figure's one spelling, the switch's polarity ("+", "-"), the flag as written
    phrase: str  # as the text says it, from the value to "default" ("301 by default", "defaults to 500")
    others: frozenset[tuple[str, str]]  # the part's other defaults ("--version" beside "-V")
    described: frozenset[str]  # of a figure: what it counts or numbers (_described: "characters")
    units: frozenset[str]  # of a figure: the units it counts in ("characters"), not a label before it
    values: frozenset[tuple[str, str]]  # every value written up to a semicolon or a cell, a default or not
    words: tuple[tuple[str, str, str], ...]  # each content word of its part, with those either side of it

    @property
    def terms(self) -> frozenset[str]:
        """The other content words of its part: what it is the default of."""
        return frozenset(term for term, _, _ in self.words)


def _value(part: str, tokens: Sequence[re.Match[str]], i: int, kinds: dict[str, set[str]]) -> tuple[str, str]:
    """The value token `i` writes, as (kind, value), or ("", "") where it writes none: a flag; a figure
    (not a release, nor a year without a unit: when, not what holds; not a name's number, HTTP/2); a
    switch's state (english.SWITCHES; "on" and "off" only where what follows could not be what they are
    on, english.STATE_FOLLOWERS: "warnings on by default", "is on and encryption off", "the default is
    warnings off */"; not "runs on node", "listens on 8080")."""
    t = tokens[i]
    if t["flag"]:
        return "flag", t["flag"]
    if t["figure"]:
        value = spelled(t["figure"])
        kind = kinds.get(value, set())
        return ("", "") if "release" in kind or ("year" in kind and not _counted(kind)) else ("figure", value)
    word = t["word"].lower()
    if word not in english.SWITCHES:
        return "", ""
    if word in english.SWITCH_PREPOSITIONS:
        rest = part[t.end() :].lstrip(" \t")
        after = re.match(r"[A-Za-z]+", rest)
        if (
            rest
            and rest[0] not in _SWITCH_ENDS
            and not (after and after.group().lower() in english.STATE_FOLLOWERS)
        ):
            return "", ""  # on what follows: a word, a figure, code ("binds on `::`")
    return "switch", english.SWITCHES[word]


def _tokens_written(text: str) -> tuple[list[re.Match[str]], dict[str, set[str]], dict[int, tuple[str, str]]]:
    """A text's tokens, its figures' kinds, and the value each token writes (`_value`), by token."""
    tokens = list(_DEFAULT_TOKEN.finditer(text))
    kinds = figure_kinds(text)
    return tokens, kinds, {i: v for i in range(len(tokens)) if (v := _value(text, tokens, i, kinds))[0]}


def _negates(words: Sequence[str]) -> bool:
    return english.negated(list(words)) or bool(english.CEASES & set(words))


def _terms(token: re.Match[str]) -> list[str]:
    word = token["word"] or ""
    return [word.lower()] if "/" in word else content_terms(word)


def defaults(text: str) -> list[Default]:
    """The values `text` gives as defaults (`_value`: a figure, a switch's state, a flag) within reach of
    "default" in one part of a sentence (`_gives`), not in a name holding the word (FZF_DEFAULT_OPTS). A
    negation near it ("is not enabled by default", "isn't on by default", "stop defaulting to") turns a
    switch's state over and takes a figure or a flag back."""
    out: list[Default] = []
    for sentence in _DEFAULT_SENTENCE.split(unicodedata.normalize("NFKC", text)):
        for said in _DEFAULT_SAID.split(sentence):  # "…defaults to 88, but the project sets it to 100"
            read = [(part, *_tokens_written(part)) for part in _DEFAULT_PART.split(said)]
            values = frozenset(v for *_, written in read for v in written.values())
            for part, tokens, kinds, written in read:
                out += _part_defaults(part, tokens, kinds, written, values)
    return out


def _part_defaults(
    part: str,
    tokens: Sequence[re.Match[str]],
    kinds: dict[str, set[str]],
    written: dict[int, tuple[str, str]],
    values: frozenset[tuple[str, str]],
) -> list[Default]:
    """The defaults one part gives (`defaults`), from its tokens, figure kinds and values (_tokens_written)
    and `values`, all that is written up to its semicolon or cell."""
    marks = [i for i, t in enumerate(tokens) if t["word"] and english.DEFAULT_WORD.fullmatch(t["word"])]
    found: list[tuple[int, int, int, str, str]] = []  # (token, its "default", where its phrase starts, …)
    for i, (kind, value) in written.items():
        givers = [k for k in marks if _gives(part, tokens, i, k)]
        if i in marks or not givers:
            continue
        mark = min(givers, key=lambda k: abs(k - i))
        start = max(0, min(i, mark) - NEGATION_REACH)
        words = [(t["word"] or "").lower() for t in tokens[start : max(i, mark) + 1]]
        if not _negates(words):
            found.append((i, mark, min(i, mark), kind, value))
        elif kind == "switch":  # "isn't telemetry enabled by default": disabled
            at = next(j for j in range(start, max(i, mark) + 1) if _negates([words[j - start]]))
            found.append((i, mark, min(at, i, mark), kind, "-" if value == "+" else "+"))
    if not found:
        return []
    counts = {
        u for _, _, _, kind, value in found if kind == "figure" for u in _described(kinds.get(value, set()))
    }
    used = set(written) | set(marks)
    stems = [_terms(t) if t["word"] and i not in used else [] for i, t in enumerate(tokens)]
    flat = [(term, i) for i, terms in enumerate(stems) for term in terms if term not in counts]
    neighbours = tuple(
        (
            term,
            flat[n - 1][0] if n and flat[n - 1][1] == i - 1 else "",
            flat[n + 1][0] if n + 1 < len(flat) and flat[n + 1][1] == i + 1 else "",
        )
        for n, (term, i) in enumerate(flat)
    )
    out = []
    for i, mark, start, kind, value in found:
        end = max(i, mark)
        if kind == "switch" and start == i and i > 0:
            start -= 1  # what is on or off: "warnings on by default"
        unit = end + 1 if kind == "figure" and end == i and end + 1 < len(tokens) else None
        joined = unit is not None and not part[tokens[end].end() : tokens[unit].start()].strip(" -")
        if unit and joined and tokens[unit]["word"] and _counted(kinds.get(value, set())):
            end = unit  # what it counts: "default to a 100-character"
        kind_of = kinds.get(value, set()) if kind == "figure" else set()
        out.append(
            Default(
                kind,
                value,
                part[tokens[start].start() : tokens[end].end()],
                frozenset((k, v) for _, _, _, k, v in found if (k, v) != (kind, value)),
                frozenset(_described(kind_of)),
                frozenset(k.split(":", 1)[1] for k in _counted(kind_of)),
                values,
                neighbours,
            )
        )
    return out


def _gives(part: str, tokens: Sequence[re.Match[str]], i: int, mark: int) -> bool:
    """Whether the value at token `i` is what "default" at token `mark` gives: after it, within
    DEFAULT_REACH words, not past a bracket, a modal verb or "from" ("defaults to 88 characters"; not
    "off by default (you can switch it on)", "the default from 5 to 10" gives 10 only); before it, next to
    it in a bracket ("`RAISE` (default)"), or within BEFORE_REACH words of "by default" or of "is the
    default" (english.BECOMES: "-v (lowercase) and --version by default", "1% chosen as the default"), not
    as what a default is of ("--history-size default to 500", "2.0 raised the default")."""
    if i > mark:
        between = [(t["word"] or "").lower() for t in tokens[mark + 1 : i]]
        old = (tokens[i - 1]["word"] or "").lower() == "from"
        bracket = "(" in part[tokens[mark].end() : tokens[i].start()]
        return i - mark <= DEFAULT_REACH and not old and not bracket and not english.MODALS & set(between)
    before = [(t["word"] or "").lower() for t in tokens[max(0, mark - 2) : mark]]
    bracketed = mark - i == 1 and "(" in part[tokens[i].end() : tokens[mark].start()]
    by = before[-1:] == ["by"]
    the = len(before) == 2 and before[1] == "the" and before[0] in english.BECOMES
    return bracketed or ((by or the) and mark - i <= BEFORE_REACH + 1)


@functools.lru_cache(maxsize=256)
def default_claims(question: str) -> tuple[Default, ...]:
    """The defaults a question takes as given (`defaults` of its premises): of each clause that neither asks
    how to do something, requests or supposes something (english.OWN_FIGURES; of a request, the question
    it embeds is read: english.stated_part), nor asks whether it is so
    ("Is that on by default?", "Telemetry is on by default?": a clause asking with no "why", "how"...) or
    which things are ("Which rules are on by default?", "What does it send by default, 301?"), nor speaks
    of the user's own setup ("I gave --port a default value"); a clause opening "Since …," states a premise
    up to its comma whatever the rest asks ("Since Request.max_form_parts defaults to 500, how do I raise
    it?"). Read once per question: `figure_support` asks for every sentence shown, `_as_written` again."""
    out: list[Default] = []
    for clause in english.clauses(english.without_examples(question)):
        parts = []
        if given := english.GIVEN_CLAUSE.match(clause):
            parts.append(clause[: given.end()])
            clause = clause[given.end() :]
        clause = english.stated_part(clause) or clause  # a request's embedded question, if it asks one
        asks = clause.rstrip().endswith("?") and not english.ASKS_WHY.search(clause)  # "Telemetry is on?"
        if not (
            asks
            or english.OWN_FIGURES.search(clause)
            or english.ASKS_WHETHER.match(clause)
            or english.ASKS_WHICH.match(clause)
        ):
            parts.append(clause)
        out += [d for part in parts if not english.FIRST_PERSON.search(part) for d in defaults(part)]
    return tuple(out)


def _same_thing(claim: Default, said: Default) -> bool:
    """Whether two defaults are of one thing: another default in common ("--version" beside "-v" and
    "-V"), or a word in common that neither names as another of its kind by a different word next to it
    ("cache" in "the memory cache" and "the disk cache", "max" in "max line length" and "max doc length"
    are two things; "warnings" in "turns warnings on" and "default is warnings off" one)."""
    if claim.others & said.others:
        return True
    mine = {term: (before, after) for term, before, after in claim.words}
    for term, before, after in said.words:
        if term not in mine:
            continue
        theirs = zip((before, after), mine[term], strict=True)
        if not any(a and b and a != b and a not in claim.terms for a, b in theirs):
            return True
    return False


def default_key(d: Default) -> str:
    """How `figure_support` names a default the question takes as given (apart from its figures)."""
    return f"default:{d.kind}:{d.value}"


def default_support(
    claims: Sequence[Default], around: str, quoted: str
) -> tuple[frozenset[str], frozenset[str]]:
    """Of the defaults a question takes as given (`default_claims`): those `around` also gives as defaults,
    and those the quote gives another default of the same kind for, in a clause about the same thing (a
    content word or another of its defaults in common: "-V and --version" against "-v and --version"; a
    figure counting what the question's counts, where both say), one the question does not give as a
    default ("defaulting to 302" against "sends a permanent 301 by default"). Named by `default_key`."""
    if not claims:
        return frozenset(), frozenset()
    given = defaults(around)
    said = given if quoted == around else defaults(quoted)
    have = {(d.kind, d.value) for d in given}
    claimed = {(c.kind, c.value) for c in claims}
    stated, other = set(), set()
    for c in claims:
        if (c.kind, c.value) in have:
            stated.add(default_key(c))
            continue
        for d in said:
            if c.units or d.units:  # both count in a unit, the same one ("30 seconds" is no count of workers)
                alike = bool(c.units & d.units)
            else:
                alike = not (c.described and d.described) or bool(c.described & d.described)
            # a part writing the claim's value may give it to another of its settings ("The default timeout
            # is 5 seconds for connect and 30 seconds for read"): it says nothing against the claim
            apart = c.kind == "switch" or (c.kind, c.value) not in d.values  # a state's "not" turns it over
            if (
                d.kind == c.kind
                and (d.kind, d.value) not in claimed
                and alike
                and apart
                and _same_thing(c, d)
            ):
                other.add(default_key(c))
    return frozenset(stated), frozenset(other)


def figure_support(question: str, shown: Shown | str) -> tuple[frozenset[str], frozenset[str]]:
    """Of the figures a question takes as given (`given_figures`): those what is shown states (around the
    quote: `Shown`), and those it does not state while the quote states another figure of the same kind, one
    the question does not name ("3.7" in "Why was 3.7 dropped in 2.1.0?" says nothing against 2.1.0): what
    `contradicted` reads of one quote. A text alone is both around and said."""
    given = given_figures(question)
    text, quoted = (shown, shown) if isinstance(shown, str) else shown
    by_default = default_support(default_claims(question), text, quoted)
    if not given:
        return by_default
    asked, said = figure_kinds(question), figure_kinds(text)
    # the numbers of a time the text writes, which count nothing ("01:30" states no 30 minutes)
    parts = clock_parts(text) - figures(text)
    stated = frozenset(
        f
        for f in given & stated_figures(text)
        if counts_alike(f, asked, said, text) and not (f in parts and _counted(asked.get(f, set())))
    )
    against = said if quoted == text else figure_kinds(quoted)
    other = {
        f
        for f in given - stated
        if asked.get(f) and any(g not in given and asked[f] & kinds for g, kinds in against.items())
    }
    return stated | by_default[0], frozenset(other) | by_default[1]


def contradicted(question: str, texts: Sequence[Shown | str]) -> tuple[str, int] | None:
    """A figure the question takes as given that none of `texts` (what the answer shows: `shown_text` of
    each quote) states while one of them states another figure of the same kind: the figure as the
    question writes it and the index of that text; None when the answer says nothing against the
    question's figures."""
    support = [figure_support(question, t) for t in texts]
    stated = frozenset[str]().union(*(s for s, _ in support))
    for i, (_, other) in enumerate(support):
        if left := other - stated:
            return _as_written(question, left), i
    return None


def _as_written(question: str, values: frozenset[str]) -> str:
    """The first of `values` as the question says it (`_said`), with the noun before it where that is
    what it numbers and nothing after it counts ("code 2", not "2"); a default (`default_key`) as the
    question says it ("301 by default")."""
    claims = {default_key(c): c.phrase for c in default_claims(question)}
    if not (values - claims.keys()):
        return next(claims[v] for v in sorted(values))
    values = values - claims.keys()
    kinds = figure_kinds(question)
    for m in _SAID.finditer(question):
        if not (value := figures(m.group(1)) & values):
            continue
        said, kind = _said(m), kinds.get(next(iter(value)), set())
        labelled = not _counted(kind) and any(k.startswith("label:") for k in kind)
        before = re.search(r"([^\W\d_][\w-]*)[ \u00a0]+$", question[: m.start()])
        return f"{before.group(1)} {said}" if labelled and said == m.group(1) and before else said
    worded = {v: w for v, w in english.worded_figures(question).items() if v in values}
    return next(iter(worded.values())) if worded else next(iter(values))


class Direction(NamedTuple):
    """A change or a move a text states, old side then new (`directions`), with where it is written."""

    old: str
    new: str
    start: int
    end: int
    # stated with "from", "to" or an arrow (not a choice, a return, a habit or a marker)
    explicit: bool = True


_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)_|_(?!\w)|[*`]")  # Markdown's bold, italics and code ticks


def plain(text: str) -> str:
    """A text without Markdown's emphasis and code ticks ("from Tier 2 to **Solutions Engineering**"
    reads as "from Tier 2 to Solutions Engineering"); a name's underscores stay."""
    return _EMPHASIS.sub("", text)


def directions(text: str) -> list[Direction]:
    """The changes and moves a text states with their direction (english.FROM_TO, TO_FROM, BACK_AFTER,
    ARROW, FORMERLY, INSTEAD and USED_NOW): "from 40 to 55 gold" is 40 -> 55 gold, "55 gold (previously
    40)" is 40 -> 55, the new side there the figure before the marker (the words before it where the old
    side has none), as "after 2 failed answers instead of 3" is 3 -> 2; "used to ... 2 ... now ... 3" is
    2 -> 3.
    Read on the text as `plain` gives it, where the offsets count."""
    text = plain(text)
    found: list[Direction] = []

    def free(start: int, end: int) -> bool:  # "to move from A to B" is one move, not also "to move from A"
        return all(end <= d.start or start >= d.end for d in found)

    for pattern in (english.FROM_TO, english.TO_FROM, english.BACK_AFTER, english.ARROW):
        for m in pattern.finditer(text):
            if free(m.start(), m.end()):
                explicit = pattern is not english.BACK_AFTER
                found.append(Direction(m.group("old"), m.group("new"), m.start(), m.end(), explicit))
    for pattern in (english.FORMERLY, english.INSTEAD):
        for m in pattern.finditer(text):
            clause = re.split(r"[.;:!?\n]\s|[|]", text[max(0, m.start() - 80) : m.start()])[-1]
            if figures(m.group("old")):
                said = list(english.FIGURE.finditer(clause))
                new = said[-1].group() if said else ""
            else:
                new = " ".join(clause.split()[-3:])
            if new and free(m.start(), m.end()):
                found.append(Direction(m.group("old"), new, m.start() - len(clause), m.end(), False))
    for m in english.USED_NOW.finditer(text):
        before, after = (next(english.FIGURE.finditer(m.group(side)), None) for side in ("old", "new"))
        if before and after and free(m.start(), m.end()):
            found.append(Direction(before.group(), after.group(), m.start(), m.end(), False))
    return found


def moves_to(text: str, stated: Sequence[Direction] | None = None) -> list[Direction]:
    """The moves a text states with their destination only (english.MOVED_TO: "lectures move to Brindley
    B.0.14"), each a Direction with no old side, where `directions` reads none (`stated`: what it read of
    this text, where the caller has it). Not an instruction, the verb opening its clause ("To see old
    builds, switch to the archive view"), nor a move supposed or asked how to make (english.OWN_CHANGE:
    "if Friday is a holiday the meeting moves to Monday")."""
    text = plain(text)
    if english.OWN_CHANGE.search(text):
        return []
    stated = directions(text) if stated is None else stated
    return [
        Direction("", m.group("new"), m.start(), m.end(), False)
        for m in english.MOVED_TO.finditer(text)
        if all(m.end() <= d.start or m.start() >= d.end for d in stated)
        and re.split(r"[.;:!?,(\n]", text[: m.start()])[-1].strip(" \t-*+•")
    ]


LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")  # a list item's marker, not part of what it says


def side_named(side: str) -> str:
    """A side of a direction as it names its thing, without what the question adds after it (english's
    sides take up to four words): "tier 2 in january" -> "tier 2", "the ELISA kit" stays."""
    first, *rest = side.split()
    kept = [first]
    for word in rest:
        if word.lower() in english.NOT_LABELS:
            break
        kept.append(word)
    return " ".join(kept)


def _alike(a: str, b: str) -> bool:
    """Whether two sides name the same thing: the same figure where both write one, else a content word
    in common ("Brindley" is "Brindley B.0.14")."""
    fa, fb = figures(a), figures(b)
    if fa and fb:
        return bool(fa & fb)
    return bool(set(content_terms(a)) & set(content_terms(b)))


# where a sentence's statements of change part: a semicolon, not one ending a setting before its comment
# ("keepalive_timeout 30;  # was 65" is one statement)
_PARTS = re.compile(r";(?![ \t]*(?:#|//))\s")


class Reversed(NamedTuple):
    """A direction the question states (`asked`) that a source states the other way round: the sentence
    saying so and the hit it is in, with the sentence's line."""

    asked: Direction
    sentence: str
    hit: Hit
    line: int
    sense: str = ""  # of a change the question states by its sense alone (`reversed_sense`): "down", "up"
    pairing: tuple[str, ...] = ()  # the two clauses of a pairing the question states (`crossed_pairing`)


def _thing(words: str) -> set[str]:
    """What a question's change is of: its words outside the change's two sides, less its verbs of change
    (english.CHANGED, MOVED_TO: "why did we switch" names no thing a sentence may share)."""
    return set(question_terms(english.MOVED_TO.sub(" ", english.CHANGED.sub(" ", words))))


def reversed_direction(question: str, hits: Sequence[Hit]) -> Reversed | None:
    """A change or a move the question takes as given, from A to B ("Why did the price drop from 55 to
    40?", "Why did we move out of Kelvin into Brindley?"), that a retrieved sentence states the other way
    round, from B to A, or as a move to A alone (`moves_to`), about the same thing (the sentence holds a
    word the question says outside its two sides and its verb of change, or, where both sides are names,
    states both with "from", "to" or an arrow), while no
    retrieved sentence states it as asked (for a move to A alone: none at all): a premise reversed. A
    clause asking how to make a change, asking leave to or supposing one is the user's own
    (english.OWN_CHANGE)."""
    asked = [
        (d, _thing(clause[: d.start] + clause[d.end :]))  # the direction, what it is of
        for clause in map(plain, english.clauses(question))
        if not english.OWN_CHANGE.search(clause)
        for d in directions(clause)
        if not _alike(d.old, d.new)
    ]
    if not asked:
        return reversed_sense(question, hits) or crossed_pairing(question, hits)
    said: list[tuple[int, bool, bool, Reversed]] = []  # (words of the thing shared, as asked?, both sides?)
    for hit in hits:
        for start, end in split_sentences(hit.text):
            sentence = hit.text[start:end]
            for part in _PARTS.split(sentence):  # a changelog's line lists changes apart
                flat = " ".join(part.split())  # a side wrapped over a line end is read whole
                stated = directions(flat)
                stated += moves_to(flat, stated)
                terms = set(content_terms(part)) if stated else set()
                for d, thing in asked:
                    shared = len(thing & terms)
                    named = not (figures(d.old) or figures(d.new))  # a move between two named things
                    for s in stated:
                        if not shared and not (named and s.explicit):
                            continue  # figures, a choice or a destination say nothing without the thing
                        if s.old:
                            as_asked = _alike(s.old, d.old) and _alike(s.new, d.new)
                            other_way = _alike(s.old, d.new) and _alike(s.new, d.old)
                            other_way = other_way and not _alike(s.old, d.old) and not _alike(s.new, d.new)
                        else:  # a move to where the question has it come from
                            as_asked = _alike(s.new, d.new)
                            other_way = _alike(s.new, d.old) and not as_asked
                        if as_asked or other_way:
                            line = hit.start_line + hit.text.count("\n", 0, start + sentence.find(part))
                            shown = " ".join(plain(part).split())
                            said.append((shared, as_asked, bool(s.old), Reversed(d, shown, hit, line)))
    if not said:
        return None
    # what the sources say of this change: the statements sharing the most of the words it is of (a
    # changelog's "LATE_PENALTY_PER_DAY 10 -> 5" says nothing of a time limit cut from 10 s to 5 s)
    most = max(shared for shared, _, _, _ in said)
    closest = [(as_asked, both, found) for shared, as_asked, both, found in said if shared == most]
    if any(as_asked for as_asked, _, _ in closest):
        return None
    if stated_whole := [found for _, both, found in closest if both]:
        return stated_whole[0]
    # only moves stated with their destination (the place moved to may have been left again since): none
    # may state the move as asked, however few of its words it shares
    return None if any(as_asked for _, as_asked, _, _ in said) else closest[0][2]


def reversed_sense(question: str, hits: Sequence[Hit]) -> Reversed | None:
    """A change the question takes as given by its sense alone, down or up, with no sides (english.WENT_DOWN,
    WENT_UP: "Why did we bring the hall charges down in January?"), where every retrieved statement of a
    change in figures about the same thing (sharing a word the question says outside its verbs, and with
    its paragraph and heading most of them: "standard £25 (was £22)" in the minute "Hall hire charges"),
    of those sharing the most, goes the other way, and no
    retrieved sentence about it says it went as asked, in figures or in words ("the charges were cut"). A
    clause asking how to make a change, asking leave to or supposing one (english.OWN_CHANGE), or asking
    whether it happened (english.POLAR: "Did the fees go up?"), denying it or speaking of an error raised
    (`_NOT_SO`), is no premise; a request's embedded question is read as asked outright
    (english.embedded_question)."""
    asked: list[tuple[int, set[str]]] = []  # (the sense, -1 down or 1 up; what it is of)
    for written in map(plain, english.clauses(question)):
        clause = english.embedded_question(written) or written  # "Can you tell me why it went up?"
        if english.OWN_CHANGE.search(clause) or english.POLAR.search(clause) or _NOT_SO.search(clause):
            continue
        down, up = english.WENT_DOWN.search(clause), english.WENT_UP.search(clause)
        if bool(down) != bool(up):
            thing = _thing(english.WENT_DOWN.sub(_ends, english.WENT_UP.sub(_ends, clause)))
            thing = {t for t in thing - _DID if not t[:1].isdigit()}  # "in 2011" says when, not of what
            asked += [(-1 if down else 1, thing)] if thing else []
    if not asked:
        return None
    for sense, thing in asked:
        worded, half = (english.WENT_DOWN if sense < 0 else english.WENT_UP), len(thing) / 2
        said: list[tuple[int, bool, Reversed]] = []  # (words of the thing shared, as asked?, the statement)
        for hit in hits:
            blocks = [(m.start(), set(content_terms(m.group()))) for m in _BLOCK.finditer(hit.text)]
            for start, end in split_sentences(hit.text):
                sentence = hit.text[start:end]
                # what the sentence's paragraph, under its heading, says the change is of ("Main hall,
                # per hour: £25 (was £22)" under "25/104 Hall hire charges. RESOLVED ...:")
                block = next((terms for at, terms in reversed(blocks) if at <= start), set())
                about = len(thing & (block | set(content_terms(hit.heading))))
                for part in _PARTS.split(sentence):
                    flat = " ".join(plain(part).split())
                    if not (own := len(thing & set(content_terms(flat)))):
                        continue
                    line = hit.start_line + hit.text.count("\n", 0, start + sentence.find(part))
                    found = Reversed(_NO_DIRECTION, flat, hit, line, "down" if sense < 0 else "up")
                    senses = {_sense(d, flat) for d in _changes(flat)} - {0}
                    # said in words, a change is of what its own sentence names ("reduce the hall's deficit"
                    # is no change of the hall's charges); in figures, a list item's is of its paragraph's;
                    # either way, of most of what the question's change is of
                    if worded.search(flat) and own > half:
                        said.append((about, True, found))
                    elif senses and about > half:
                        said.append((about, sense in senses, found))
        if not said or any(as_asked for _, as_asked, _ in said):
            continue
        most = max(shared for shared, _, _ in said)
        return next(found for shared, _, found in said if shared == most)
    return None


class Pairing(NamedTuple):
    """Two things a question sets side by side, each with what it says of it (`pairings`): the clauses as
    written, each one's terms that name its thing (`things`) and that say what of it (`said`), and whether
    it denies what it says (`denied`: "Why does the async client retry while the sync client doesn't?"
    says of the sync client what it says of the async one, denied)."""

    clauses: tuple[str, str]
    things: tuple[frozenset[str], frozenset[str]]
    said: tuple[frozenset[str], frozenset[str]]
    denied: tuple[bool, bool] = (False, False)


def pairings(question: str) -> list[Pairing]:
    """The pairings a question takes as given: two clauses set against each other (english.CONTRAST:
    "Why are request objects mutable while response objects are immutable?"), or in a clause stating what
    the rest takes as given ("Since A is P but B is Q, how do I ...?"), whose terms align on the first
    one they share: those before it in each clause name its thing ("request", "response"), those after
    it say what of it ("mutable", "immutable"); where they share none, each clause's first term names its
    thing ("Why is memcached persistent whereas Redis is ephemeral?"). A second clause that says nothing
    but a denial ("..., but the api tests don't") denies what the first says. A clause that asks how to do
    something or whether it is so, supposes it, or tells of the user's own (english.FIRST_PERSON) states
    no pairing, nor do two whose either asks (english.ASKS: "Maududi was trained as a lawyer, but chose
    what profession?"); nor does one whose thing takes more than a few words."""
    found: list[Pairing] = []
    for written in map(plain, english.clauses(question)):
        clause = english.embedded_question(written) or written
        if given := english.GIVEN_CLAUSE.match(clause):
            clause = clause[: given.end() - 1]
        elif english.OWN_CHANGE.search(clause) or english.POLAR.search(clause):
            continue
        parts = english.CONTRAST.split(clause)
        if len(parts) != 2 or english.SUPPOSES.search(clause) or english.FIRST_PERSON.search(clause):
            continue
        first = english.QUESTION_OPENING.sub("", re.split(r",\s", parts[0])[-1]).strip()
        second = re.split(r",\s", parts[1])[0].strip(" ?.!")
        if english.ASKS.search(first) or english.ASKS.search(second):
            continue  # a clause that asks states nothing ("What cells are at their lowest while ...?")
        terms = _pair_terms(first, question_terms), _pair_terms(second, question_terms)
        denied = english.negated(words_of(first)), english.negated(words_of(second))
        shared = set(terms[0]) & set(terms[1])
        things, said = [], []
        for side in terms:
            at = next((i for i, t in enumerate(side) if t in shared), 1 if len(side) > 1 else 0)
            things.append(frozenset(side[:at]) - shared)
            said.append(frozenset(t for t in side[at:] if not _says_nothing(t)) - shared)
        if said[0] and not said[1] and denied[1] and not denied[0]:  # "..., but B doesn't"
            said[1] = said[0]
        elif any(denied):
            continue  # what "A is not P while B is Q" says of A is no pairing a source states
        if not shared and not (english.OWN_SUBJECT.match(second) or english.AUXILIARY.search(second)):
            continue  # "Why does the client retry but fail after three tries?": one subject, two verbs
        if all(0 < len(t) <= _THING_WORDS for t in things) and all(said):
            found.append(Pairing((first, second), (things[0], things[1]), (said[0], said[1]), denied))
    return found


_NO_DIRECTION = Direction("", "", 0, 0)  # what a pairing crossed or a change by its sense alone states


def _says_nothing(term: str) -> bool:
    """Whether a word says nothing of a pairing's thing by itself: a negation ("..., but the api tests
    don't"), a modal ("may be built")."""
    return english.negated([term]) or term in english.MODALS


_THING_WORDS = 3  # the most words a pairing's thing takes ("the default stat reloader": default, stat)


def _pair_terms(text: str, read: Callable[[str], list[str]] = content_terms) -> list[str]:
    """A text's terms as a pairing reads them, in their order: its figures whole ("0.45", not "45"; "2,000"
    as 2000)."""
    found: list[str] = []
    for token in text.split():
        found += [t for t in read(token) if not t.isdigit()] + sorted(figures(token))
    return found


def _share(terms: set[str], of: frozenset[str]) -> float:
    return len(terms & of) / len(of)


def _denies(part: str, said: frozenset[str]) -> bool:
    """Whether `part` denies what it says: a negation within english.NEGATION_SCOPE words before one of
    its words in `said` ("A Pool is not thread-safe", "hook wrappers can not return results"; not "...,
    so you don't need a wrapper" after them)."""
    found = words_of(part)
    return any(
        english.negated(found[max(0, at - english.NEGATION_SCOPE) : at])
        for at, w in enumerate(found)
        if stem(w) in said
    )


def crossed_pairing(question: str, hits: Sequence[Hit]) -> Reversed | None:
    """A pairing the question takes as given (`pairings`: "request objects are mutable but response
    objects are immutable") that a retrieved passage states crossed, one thing with what the question
    says of the other ("The response object is mutable"), or, where one side denies what the other says,
    a thing with what it says of it the other way ("A Pool is thread-safe" to "Why is a Cursor thread-safe
    whereas a Pool isn't?"), more strongly than any retrieved passage states it as asked. A passage's
    statements part at a sentence's end and at a contrast (english.CONTRAST_PART: "while", "whereas",
    "but", "unlike", a semicolon); one is about a thing where it names at least half of its words and none
    of the other's. To cross,
    it must hold more than half of what the question says of the other side and less than half of what it
    says of its own (a statement denying it crosses nothing: "Old-style wrappers can not return results");
    to state the pairing as asked, half is enough: what refuses needs more than what lets an answer
    through. Of those, the statement holding the most of what the question says decides, crossed or as
    asked (a passing "two threads reading from the same cursor" does not outweigh "A `Pool` is
    thread-safe"). A figure counts whole ("0.45", "2,000"), and a word derived from the other thing's name
    names it ("larger" of "large")."""
    for pairing in pairings(question):
        crossed: list[tuple[float, int, Reversed]] = []
        as_asked = 0.0  # the most of its own side's words a statement of the pairing as asked holds
        alike = pairing.said[0] == pairing.said[1]  # one side denies what the other says
        for hit in hits:
            for start, end in split_sentences(hit.text):
                sentence = hit.text[start:end]
                for written in english.CONTRAST_PART.split(sentence):
                    part = english.SET_AGAINST.sub(" ", written)
                    terms = set(_pair_terms(part))
                    # a word derived from another names it too ("larger proteins", "Redis is faster")
                    named = terms | {stem(b) for w in words_of(part) for b in english.bases(w)}
                    for mine, other in ((0, 1), (1, 0)):
                        thing, not_thing = pairing.things[mine], pairing.things[other]
                        if _share(terms, thing) < 0.5 or named & not_thing:
                            continue
                        own, others = _share(named, pairing.said[mine]), _share(terms, pairing.said[other])
                        if alike:
                            differs = _denies(part, pairing.said[mine]) != pairing.denied[mine]
                            own, others = (0.0, own) if differs else (own, 0.0)
                        elif _denies(part, pairing.said[mine] | pairing.said[other]):
                            continue  # "The request object is not mutable" states neither pairing
                        if own > others and own >= 0.5:
                            as_asked = max(as_asked, own)
                        elif others > 0.5 and own < 0.5:
                            line = hit.start_line + hit.text.count("\n", 0, start + sentence.find(written))
                            shown = " ".join(plain(written).split())
                            found = Reversed(_NO_DIRECTION, shown, hit, line, pairing=pairing.clauses)
                            crossed.append((others, len(terms & (thing | pairing.said[other])), found))
        if crossed and max(crossed, key=lambda c: c[0])[0] > as_asked:
            return max(crossed, key=lambda c: c[:2])[2]
    return None


class Opposed(NamedTuple):
    """A word the question writes (`asked`) whose opposite a retrieved sentence says (`said`), and by how
    much more of the weight of the question's other words that sentence holds than any sentence saying the
    word as asked (`margin`, 0 to 1)."""

    asked: str
    said: str
    margin: float
    sentence: str
    hit: Hit
    line: int


@functools.lru_cache(maxsize=1 << 16)
def _family(word: str) -> frozenset[str]:
    """A word's stem and the stems of the words it may be derived from (english.bases): "heavier",
    "heaviest" and "heavy" share "heavy"."""
    return frozenset({stem(word)} | {stem(b) for b in english.bases(word)})


def _sentences(hits: Sequence[Hit]) -> list[tuple[str, list[str], set[str], Hit, int]]:
    """Each sentence of the hits with its words' stems, in order, the stems of its words' families
    (`_family`), and its first line."""
    found = []
    for hit in hits:
        for start, end in split_sentences(hit.text):
            sentence = hit.text[start:end]
            lead = len(sentence) - len(sentence.lstrip())
            line = hit.start_line + hit.text.count("\n", 0, start + lead)
            written = words_of(sentence)
            families: set[str] = set().union(*map(_family, written))
            found.append((sentence.strip(), [stem(w) for w in written], families, hit, line))
    return found


def _converse(
    sentence: str,
    said: list[str],
    others: frozenset[str],
    before: set[str],
    after: set[str],
    rest: dict[str, float],
) -> bool:
    """Whether a sentence says the opposite of the question's word with the things on either side of it the
    other way round ("B after A" for "A before B"): more of the weight of the words the question writes
    before its word stands after the opposite, and of those after it before. An opposite opening the
    sentence takes its clause up to the first comma after it ("After A, B": B after A)."""
    at = next(j for j, w in enumerate(said) if w in others)
    left, right = set(said[:at]), set(said[at + 1 :])
    if at == 0 and "," in sentence:
        opening = len(words_of(sentence.split(",", 1)[0]))
        left, right = set(said[opening:]), set(said[1:opening])
    aligned = sum(rest[t] for t in before & left) + sum(rest[t] for t in after & right)
    swapped = sum(rest[t] for t in before & right) + sum(rest[t] for t in after & left)
    return swapped > aligned


def opposite_stated(question: str, hits: Sequence[Hit], weigh: Callable[[str], float]) -> Opposed | None:
    """A word of the question whose opposite (english.ANTONYMS, as `opposites` stems them) a retrieved
    sentence says of the same things, where that sentence holds more of the question's other words than
    any retrieved sentence saying it as asked: "What do T cells recognize before antigens have been
    processed?" over "T cells recognize a target only after antigens have been processed"; "Why do
    converters run after the validators?" over "Converters are run before validators". SQuAD 2.0's
    writers made a fifth of its unanswerable questions so ("antonym", Rajpurkar et al., 2018), and a false
    premise about a program swaps a behaviour the same way.

    The question's other words are weighed by `weigh` (their IDF). A sentence, crossing or as asked, must
    hold some of the words on each side of the question's word that has any, else it speaks of other
    things ("leaves sit in the dark before the reading": "leaves ... dark adapted after the porometer
    session" is about another reading; "Why are retries enabled by default?": "Signing is enabled by
    default" says nothing of retries). Where it holds them the other way round, its opposite with them
    swapped says what the question says ("the reading comes after the leaves sit in the dark",
    `_converse`), and it counts as asked. A sentence holds the word
    in any of its degrees ("the heaviest pieces" for "heavier", `_family`); one holding the word and its
    opposite says neither; one denying the word it holds ("not after") is not read. Not read: a
    question asking yes or no (either way answers it), a word the question denies or holds with its
    opposite ("the first and the last")."""
    if polar(question):
        return None
    written = words_of(question)
    asked = [stem(w) for w in written]
    held = set(asked)
    weights = {t: weigh(t) for t in dict.fromkeys(question_terms(question))}
    table = opposites()
    sentences: list[tuple[str, list[str], set[str], Hit, int]] | None = None
    best: Opposed | None = None
    for i, word in enumerate(asked):
        others = table.get(word, frozenset())
        if not others or others & held or word in asked[:i]:
            continue
        if english.negated(written[max(0, i - english.NEGATION_SCOPE) : i]):
            continue
        rest = {t: w for t, w in weights.items() if t != word and t not in others}
        total = sum(rest.values())
        if total <= 0:
            continue
        before, after = set(asked[:i]) & set(rest), set(asked[i + 1 :]) & set(rest)
        if sentences is None:
            sentences = _sentences(hits)
        as_asked, crossing = 0.0, None
        own = _family(written[i])
        for sentence, said_words, families, hit, line in sentences:
            said = set(said_words)
            holds = bool(own & families)  # "the heaviest pieces" says "heavier"
            if holds == bool(others & said):
                continue
            if (before and not before & said) or (after and not after & said):
                continue  # of other things
            share = sum(w for t, w in rest.items() if t in said) / total
            if holds:
                if not _denies(sentence, own):
                    as_asked = max(as_asked, share)
                continue
            if _denies(sentence, others):
                continue
            if before and after and _converse(sentence, said_words, others, before, after, rest):
                as_asked = max(as_asked, share)  # "B after A" for "A before B": the same thing said
            elif crossing is None or share > crossing[0]:
                crossing = (share, sentence, hit, line)
        if crossing is None or crossing[0] <= as_asked:
            continue
        share, sentence, hit, line = crossing
        if best is None or share - as_asked > best.margin:
            opposite = next(w for w in words_of(sentence) if stem(w) in others)
            shown = " ".join(plain(sentence).split())
            best = Opposed(written[i], opposite, share - as_asked, shown, hit, line)
    return best


# a clause denying a change ("Why hasn't the rent gone up?") or about an error raised ("where do errors
# raised by my validator end up?"), which states no change of an amount
_NOT_SO = re.compile(r"\b(?:not|never|no)\b|n[’']t\b|\w*(?:error|exception|warning)s?\b", re.IGNORECASE)
_BLOCK = re.compile(r"\S(?:.|\n(?![ \t]*\n))*")  # a paragraph: lines up to a blank one
_DID = frozenset({"did"})  # the auxiliary a "why did ..." question writes, no word of what changed


def _ends(m: re.Match[str]) -> str:
    """A verb of sense as `reversed_sense` reads what it is of: its first and last words blanked, the words
    between kept ("bring the hall charges down": "the hall charges")."""
    words = m.group().split()
    return " ".join(words[1:-1]) if len(words) > 2 else " "


def _changes(text: str) -> list[Direction]:
    """The directions of `text` that state a change over time: a marker of the old value ("£25 (was £22)",
    an arrow, "instead of", "used to ... now"), or "from A to B" with a verb of change (english.CHANGED:
    not a range, "open from 9 to 5")."""
    changed = bool(english.CHANGED.search(text))
    return [d for d in directions(text) if changed or not re.match(r"(?i)(?:from|to|out)\b", text[d.start :])]


def _sense(d: Direction, text: str) -> int:
    """Which way a change in figures goes, read on each side's first figure: 1 up, -1 down, 0 where a side
    holds none, a date (a month beside the figure: "30 June (was 15 July)" is earlier, not less), where
    the two count in other units ("10 days (was 3 weeks)": each figure's unit as `text` writes it,
    `figure_units`) or where they may be versions as well as decimals and the two readings differ ("3.10
    (was 3.9)": a version is up, a decimal down; "£2.50 (was £2.75)" is down either way)."""
    found = []
    for side in (d.old, d.new):
        figure = next(english.FIGURE.finditer(side), None)  # the first: "22.00 until 2025-12-31" is 22
        if figure is None or figure.group().count(".") > 1:
            return 0
        # a date: a month beside the figure ("30 June", "June 30"), not one the side runs on to ("60
        # minutes in September")
        beside = re.findall(r"[a-z]+", side[: figure.start()].lower())[-1:]
        beside += re.findall(r"[a-z]+", side[figure.end() :].lower())[:1]
        if set(beside) & set(english.MONTHS):
            return 0
        found.append(figure.group().replace(",", ""))
    old, new = found
    if "." in old and "." in new and len(old.split(".")[1]) != len(new.split(".")[1]):
        return 0
    units = figure_units(text)
    said = [units.get(spelled(f), set()) - {None} for f in found]
    if said[0] and said[1] and not said[0] & said[1]:
        return 0
    try:
        values = [float(spelled(f)) for f in found]
    except ValueError:
        return 0
    return (values[1] > values[0]) - (values[1] < values[0])


# A file name or a bare extension: setup.cfg, pyproject.toml, .pre-commit-config.yaml, .pyx (an extension
# of 2-5 lower-case letters or digits, not a version, "e.g." or a sentence's full stop); not a member called
# or decorated (`post.save()`, `@app.route(...)`: a method, `_CALL`'s)
_FILE = re.compile(r"(?<![\w./@-])\.?(?:[A-Za-z][\w-]*(?:\.[\w-]+)*)?\.[a-z][a-z0-9]{1,4}(?![\w(-]|\.\w)")


def _file_names(question: str) -> list[str]:
    """`_FILE`'s matches, less two words run together over a missing space ("ok.so", "vs.them": a
    function word on either side of a dot)."""
    found = []
    for m in _FILE.finditer(question):
        parts = m.group().lstrip(".").lower().split(".")
        if not any(part in STOP for part in parts):
            found.append(m.group())
    return found


def identifiers(question: str) -> list[str]:
    """The names a question writes as code, in order, once each: a file name or extension first."""
    found = _file_names(question)
    found += [m.group() for m in _IDENT.finditer(question)]
    found += [m.group() for m in _COMMAND.finditer(question)]
    found += [m.group(1) for m in _CALL.finditer(question)]
    found += [w for m in _TICKED.finditer(question) for w in _WORD.findall(m.group(1))]
    found += keywords(question)
    return list(dict.fromkeys(found))


def keywords(question: str) -> list[str]:
    """The keywords a question passes or sets, `name=value` (`_KEYWORD`), in order, once each; not within a
    markup command's arguments (english.without_arguments: "\\includegraphics[height=1in]{a}" is the
    user's input)."""
    text = english.without_arguments(question)
    found = (m for m in _KEYWORD.finditer(text) if not _SET_BY.search(text, 0, m.start()))
    return list(dict.fromkeys(m.group(1) for m in found if len(m.group(1)) > 1))


def spellings(name: str) -> list[str]:
    """One name as code spells it: snake, kebab, words and run together (maxRetries, max_retries,
    max-retries, "max retries", maxretries), lower case."""
    parts = [p for p in re.split(r"[_\-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", name) if p]
    if _ALNUM.fullmatch(name):  # letters then digits: sha256 is also written sha-256, utf8 utf-8
        parts = re.split(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", name)
    forms = [sep.join(parts).lower() for sep in ("_", "-", " ", "")] if len(parts) > 1 else [name.lower()]
    if "." in name.strip("."):  # a file or a dotted name: node.js is also written nodejs or node js
        forms += [f.replace(".", sep) for f in forms for sep in ("", " ")]
    if len(name) > 3 and name.endswith("s") and name[-2:-1].isalpha():
        forms += [f[:-1] for f in forms]  # a plural: "vCPUs" is "vCPU" counted
    return list(dict.fromkeys(forms))


def unknown_identifiers(
    question: str, hits: Sequence[Hit], mentions: Mentions, together: Together | None = None
) -> list[str]:
    """The code names of the question that no hit and no indexed file holds, in any spelling code writes
    it, as a whole identifier (`.mandatoryOption()` is not held by prose saying "mandatory option" nor by
    `_checkForMissingMandatoryOptions`); a file name or an extension anywhere in the text. A dotted
    name (`PriorityQueue.pop`, `os.path.join`) is an attribute read as often as a file name: code defines
    the class and its method apart, so one held nowhere as written is still known where one file holds
    each part before the last as a word and the last as a member it defines, assigns or calls
    (`_held_apart`). Not a name in an example the question gives ("e.g. as file.bak") nor a placeholder
    ("libfoo1"): the user's own (english.without_examples, english.placeholder)."""
    names = [n for n in identifiers(english.without_examples(question)) if not english.placeholder(n)]
    if not names:
        return []
    text = "\n".join(chunk_text(h) for h in hits).lower()
    files = set(_file_names(question))
    unseen: dict[bool, dict[str, list[str]]] = {True: {}, False: {}}  # by: is it a code name?
    for name in names:
        code = name not in files
        forms = code_spellings(name) if code else spellings(name)
        if not any(_holds(text, form, code) for form in forms):
            unseen[code][name] = forms
    missing: list[str] = []
    for code, group in unseen.items():
        if len(group) > 1 and not mentions(*(s for spelt in group.values() for s in spelt), whole=code):
            missing += group  # one scan of the index for all of them: none is there
        else:
            missing += [name for name, spelt in group.items() if not mentions(*spelt, whole=code)]
    unknown = [name for name in names if name in missing and not _held_apart(name, hits, together)]
    passed = [k for k in keywords(english.without_examples(question)) if k in names and k not in unknown]
    return unknown + [f"{k}=" for k in passed if not english.placeholder(k) and not _takes(k, text, together)]


def keyword(name: str) -> str:
    """A regular expression (Python's and RE2's alike) for `name` where code or a document takes or sets it
    as a keyword: a parameter with its default or type (`flush=True`, `flush: bool`) or bare in a list
    (`def f(a, flush):`), a keyword passed (`f(flush=x)`), a setting (`flush = yes`, `flush: true`,
    `FLAGS += x`), a docstring's or a list's field (`:param flush:`, `flush (bool): ...`, `**flush**:`,
    `flush (bool) – ...`) or a key as a string (`kwargs.pop("flush")`); a name of words joined in
    backticks too (`` `chunk_size` ``, a table's cell: one word there, or words run together, may as well
    name a method or a class, ``StrictUndefined``); not a method called (`file.flush()`, `def
    flush(self):`) nor read (`f.flush`)."""
    word = re.escape(name.lower())
    before = r"(^|[^a-z0-9_\-])[`*]*"
    quotes = "'\"`" if re.search(r"[a-z0-9][_-][a-z0-9]", name.lower()) else "'\""
    return (
        rf"({before}{word}[`*]*\??\s*(=([^=]|$)|:([^:]|$)|\+=)"
        rf"|{before}{word}[`*]*\s+\([^)\n]*\)\s*(:|=|[-–—]\s)"
        rf"|[(,]\s*\*{{0,2}}{word}\s*[,)]"
        rf"|[{quotes}]{word}[{quotes}])"
    )


def _takes(name: str, text: str, together: Together | None) -> bool:
    """Whether a hit's lower-case `text` or, else, some indexed file takes or sets `name` as a keyword
    (`keyword`), in any spelling code writes it: a name held only otherwise (`file.flush()`, a method) is
    no keyword a call can be passed. True where the index cannot be asked."""
    forms = [form for form in code_spellings(name) if len(form) <= MEMBER_LENGTH]
    if any(re.search(keyword(form), text, re.MULTILINE) for form in forms):
        return True
    return together is None or any(together(member=form, keyword=True) for form in forms)


def code_spellings(name: str) -> list[str]:
    """A code name's spellings as code writes it, and the name as written (`_private` keeps its
    underscore): `spellings` less "max retries", since prose that says the words does not hold the name,
    but for letters then digits, a format or a version that prose writes apart ("Python 3", "sha 256")."""
    if _COMMAND.fullmatch(name):  # a command is held where its name is, with or without its backslash
        return [name[1:].lower()]
    spelt = spellings(name)
    kept = spelt if _ALNUM.fullmatch(name) else [form for form in spelt if " " not in form]
    return list(dict.fromkeys([name.lower(), *kept]))


def _holds(text: str, form: str, whole: bool) -> bool:
    """Whether lower-case `text` holds `form`; `whole`: as a whole identifier, not inside a longer one
    ("_checkformissingmandatoryoptions" does not hold mandatoryoption)."""
    if not whole:
        return form in text
    return form in text and re.search(rf"(?<![a-z0-9_]){re.escape(form)}(?![a-z0-9_])", text) is not None


MEMBER_LENGTH = 100  # a longer part names nothing (and would cost a scan for nothing)


def member(name: str) -> str:
    """A regular expression (Python's and RE2's alike) for `name` used as a member where code defines,
    assigns or calls it (`def pop(`, `pop: function`, `mode = ...`, `mode?: string`, `.pop(`,
    `self.mode = `), not as a file's extension in prose ("pyproject.toml (", "in setup.cfg:")."""
    word = re.escape(name.lower())
    return rf"(\.{word}(\(|\s*=)|(^|[^A-Za-z0-9_.]){word}\??\s*[(=:])"


def _held_apart(name: str, hits: Sequence[Hit], together: Together | None) -> bool:
    """Whether one file, among the hits or else in the index, holds each part of a dotted name as a word
    (case aside) and its last part as a member (`member`): `PriorityQueue.pop` where one file says
    PriorityQueue and `def pop(`; not `Stats.mode` where the file defining Stats never says mode, nor
    `black.toml` where "black" and "pyproject.toml" do not make toml a member. A name with a leading dot
    (an extension, `.pyx`) is a file's and is not taken apart."""
    parts = name.split(".")
    if len(parts) < 2 or not all(parts) or max(map(len, parts)) > MEMBER_LENGTH:
        return False
    words = [re.compile(rf"(?<![\w]){re.escape(p)}(?![\w])", re.IGNORECASE) for p in parts[:-1]]
    defined = re.compile(member(parts[-1]), re.IGNORECASE | re.MULTILINE)
    files: dict[str, list[str]] = {}
    for hit in hits:
        files.setdefault(hit.path, []).append(chunk_text(hit))
    for text in ("\n".join(v) for v in files.values()):
        if all(w.search(text) for w in words) and defined.search(text):
            return True
    return together is not None and together(*parts[:-1], member=parts[-1])


_TOKEN = re.compile(r"[^\W_][\w'’]*(?:-[\w'’]+)*")
_SKIP = frozenset(" \t\"'“‘(*[-•–—")  # what may stand between a sentence's start and its first word
_OPENS = frozenset(".!?:\n…¿¡)")  # what a sentence's first word follows (")": a list's "1) What…")


def _before(text: str, at: int) -> str:
    """The character before `at` that is not a space, a quote, a bracket or a bullet ("" at the start). A
    dotted name's dot, right after a word and right before this one, ends no sentence: it reads as a
    character inside a name, "_" ("werkzeug.middleware.cors.CORSMiddleware")."""
    if at >= 2 and text[at - 1] == "." and (text[at - 2].isalnum() or text[at - 2] in "_)"):
        return "_"
    i = at - 1
    while i >= 0 and text[i] in _SKIP:
        i -= 1
    return text[i] if i >= 0 else ""


def _names(question: str) -> list[tuple[str, str]]:
    """(name, the word it was written in): see proper_names; a hyphenated word's parts keep the whole."""
    code = set(identifiers(question))
    masked = _TICKED.sub(lambda m: " " * len(m.group()), question)
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(masked):
        before = _before(masked, m.start())
        if not before or before in _OPENS or m.group() in code or before.isdigit():
            continue  # a sentence's first word, code, a figure's unit ("64 KB")
        whole = re.sub(r"['’]\w*$", "", m.group()).rstrip("'’")
        parts = whole.split("-")
        for i, part in enumerate(parts):
            word = re.sub(r"['’]\w*$", "", part).rstrip("'’")
            if (
                len(word) > 1
                and not (i and parts[i - 1].lower() in english.EXCLUDING)  # "non-Latin": excluded
                and any(c.isupper() for c in word)
                and not english.ROMAN.fullmatch(word)
                and word.lower() not in english.NOT_NAMES
                and not word.isdigit()
            ):
                out.append((word, whole))
    return out


def proper_names(question: str) -> list[str]:
    """The words a question writes with a capital (or in capitals), not opening a sentence, in order, once
    each: each part of a hyphenated word apart ("NQ-complete" -> NQ), a possessive or contraction dropped;
    not a word a prefix excludes ("non-Latin"), not one letter, a Roman numeral, a figure's unit
    ("64 KB"), a calendar or clock word (english.NOT_NAMES), nor what the identifier check reads (code
    names, backticked words)."""
    return list(dict.fromkeys(name for name, _ in _names(question)))


def _one_typo(a: str, b: str) -> bool:
    """Whether a and b are at most one edit apart (an insertion, a deletion, a substitution or two
    neighbours swapped) that keeps the first letter, as the index's look-up does (lexical.one_edit)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1 or a[:1] != b[:1]:
        return False
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (
        a[i + 1 :] == b[i + 1 :]
        or a[i:] == b[i + 1 :]
        or a[i + 1 :] == b[i:]
        or (a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :])
    )


def _abbreviates(short: str, word: str) -> bool:
    """Whether `short` is written from `word`'s letters, in order, from its first ("sept", "jr", "gi" for
    september, junior, gastrointestinal)."""
    if len(word) <= len(short) or word[0] != short[0]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in short[1:])


def _spelt_out(short: str, words: Sequence[str]) -> bool:
    """Whether `short` is the initials of consecutive words, joining words skipped: "ww" for world war,
    "ny" for new york."""
    content = [w for w in words if w not in english.CONNECTIVES]
    n = len(short)
    return any("".join(w[0] for w in content[i : i + n]) == short for i in range(len(content) - n + 1))


TYPO_LENGTH = 5  # a name this long may be one typo from how a file spells it (as Engine.knows reads it)


def in_passages(name: str, words: Sequence[str]) -> bool:
    """Whether the retrieved passages' words (folded) name `name`: as a word, one typo from a word (five
    letters or more), or, written short, as the initials of words they spell out or (not an acronym of
    three capitals or more) an abbreviation of one word ("Sept", "Jr", "GI")."""
    folded, vocabulary = fold(name), set(words)
    if folded in vocabulary:
        return True
    if len(folded) >= TYPO_LENGTH:
        return any(_one_typo(folded, w) for w in vocabulary)
    if name.isupper() and len(name) > 2:  # an acronym ("QUIC" is not quick): initials only
        return _spelt_out(folded, words)
    return any(_abbreviates(folded, w) for w in vocabulary) or _spelt_out(folded, words)


def _written(word: str, text: str, mentions: Mentions, whole: bool = False) -> bool:
    """Whether a compound or CamelCase word is written in `text` (folded) or any indexed file in one of its
    spellings: Wi-Fi as wifi, wi-fi or wi fi; RetryPolicy as retry policy or retry_policy; a hyphen as a
    dash (Cobham–Edmonds); DerSimonian-Laird as written. `whole`: in the index too as whole words only
    ("seven day" is not in "seven days")."""
    forms = list(dict.fromkeys([word.lower(), *spellings(word)]))
    forms += [f.replace("-", dash) for f in forms if "-" in f for dash in _DASHES]
    return any(re.search(rf"(?<![^\W_]){re.escape(fold(f))}(?![^\W_])", text) for f in forms) or mentions(
        *forms, whole=whole
    )


_DASHES = "\u2013\u2014\u2011"  # an en dash, an em dash, a non-breaking hyphen: how prose joins a compound
_HYPHEN = f"[-{_DASHES}]"
# One name of capitalised words, each of three letters or more, hyphenated ("Build-Depends-Test", "Six-Day",
# "Cobham–Edmonds"; not "Wi-Fi", "WW-II" or "NQ-complete", whose short parts may abbreviate words the
# folders spell out)
_ONE_NAME = re.compile(rf"[A-Z][^\W\d_]{{2,}}(?:{_HYPHEN}[A-Z][^\W\d_]{{2,}})+")


def _named_otherwise(whole: str, text: str) -> bool:
    """Whether `text` (as written) names another hyphenated name of capitalised words (`_ONE_NAME`) sharing
    a word with `whole`: "Six-Day" for "Seven-Day", "Build-Depends" for "Build-Depends-Test",
    "Cobham–Edmonds" for "Cobham-Edward"; not the same name with a typo in a word of it (`_one_typo`)."""
    parts = fold(whole).split("-")
    for m in _ONE_NAME.finditer(text):
        other = re.split(_HYPHEN, fold(m.group()))
        same = len(other) == len(parts) and all(
            a == b or (min(len(a), len(b)) >= TYPO_LENGTH and _one_typo(a, b))
            for a, b in zip(parts, other, strict=True)
        )
        if not same and set(parts) & set(other):
            return True
    return False


def unknown_names(question: str, hits: Sequence[Hit], knows: Knows, mentions: Mentions) -> list[str]:
    """The names of the question (`proper_names`) that the retrieved passages do not name (`in_passages`)
    and `knows` does not find in the index either. A hyphenated or CamelCase name is first looked for
    whole, in its spellings (`_written`). A hyphenated name of capitalised words (`_ONE_NAME`) is one name:
    unknown where no spelling of it is written, though each word is held apart, while a passage names
    another such name sharing a word with it (`_named_otherwise`: "Seven-Day War" over "Six-Day War",
    "Build-Depends-Test" over Build-Depends and Build-Depends-Indep); a pair the user joins of names the
    folders hold apart ("the Paris-Berlin train" over "from Paris to Berlin") is read word by word. Not a
    name in an example the question gives nor a placeholder (as unknown_identifiers)."""
    found = [(n, w) for n, w in _names(english.without_examples(question)) if not english.placeholder(w)]
    if not found:
        return []
    written = "\n".join(chunk_text(h) for h in hits)
    text = fold(written)
    words = re.findall(r"[^\W_]+", text)
    out: list[str] = []
    for name, whole in found:
        if name in out or whole in out:
            continue
        if (
            _ONE_NAME.fullmatch(whole)
            and _named_otherwise(whole, written)
            and not _written(whole, text, mentions, True)
        ):
            out.append(whole)
            continue
        if whole != name and _written(whole, text, mentions):
            continue
        if len(spellings(name)) > 1 and _written(name, text, mentions):
            continue
        if not in_passages(name, words) and not knows(name):
            out.append(name)
    return out


# A word written in code, a path, an option, a dotted or backticked name: the identifier and file checks
# read those; what is left are the question's words as prose.
_NOT_PROSE = re.compile(r"`[^`\n]*`|\S*[\w)][./\\:@][\w(]\S*|\S*_\S*|(?<!\w)--?\w[\w-]*")
_PROSE_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_APOSTROPHE = re.compile("['’]")  # a contraction left after the possessive is dropped: a function word


def _prose_words(question: str) -> list[str]:
    """The question's words as prose, lower case, possessives dropped, once each: not the words of code
    names, paths, options or backticked text (identifiers reads those), not function words."""
    masked = _NOT_PROSE.sub(" ", question)
    masked = _IDENT.sub(" ", masked)  # camelCase, letters then digits
    found = (re.sub(r"['’]s$", "", m.group().lower()) for m in _PROSE_WORD.finditer(masked))
    return list(dict.fromkeys(w for w in found if len(w) > 2 and w not in STOP and not _APOSTROPHE.search(w)))


def _shortens(word: str, vocabulary: set[str]) -> bool:
    """Whether `word` (its plural aside) is how a word of the passages begins: "config" for configuration,
    "repo" for repository, "env" for environment; a user's short form of what the files spell out."""
    base = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return any(len(v) > len(base) and v.startswith(base) for v in vocabulary)


def _built_of_held(word: str, held: Callable[[str], bool], written: Callable[[str], bool]) -> bool:
    """Whether `word` is an English prefix and a word the folders hold ("re" + "indexing", "un" +
    "handled"), or a word they write as it stands here and a word they hold ("half" + "way"): a derived
    or compound form of what they say. (`held`: some form of the word, its stem; `written`: the word
    itself, so that a stem's stray letters make no compound: "boole" + "ans" is no "booleans".)"""
    for cut in range(2, len(word) - 2):
        head, tail = word[:cut], word[cut:]
        prefixed = head in english.PREFIXES and len(tail) > 3
        if (prefixed or len(head) > 2) and held(tail) and (prefixed or written(head)):
            return True
        if prefixed and held(head + stem(tail)):  # an irregular verb prefixed: "overspent" of overspend
            return True
    return False


def _names_written(word: str, text: str) -> bool:
    """Whether `word` names a character (english.CHARACTER_NAMES: "ampersand") that `text` writes."""
    character = english.CHARACTER_NAMES.get(word)
    return character is not None and character in text


def unknown_topics(
    question: str,
    hits: Sequence[Hit],
    doc_freq: Callable[[str], tuple[int, int]],
    knows: Knows,
    mentions: Mentions,
    resembles: Knows = lambda word: False,
) -> list[tuple[str, float]]:
    """The question's prose words that no indexed file holds, with how rare each is in English
    (english.rarity), rarest first. Absent means: no chunk holds the word's stem (the index's own count,
    so no inflection of it either), no file holds the word (case and accents aside) and no retrieved
    passage has a word it begins ("config" for configuration). A word of five letters or more one typo
    from a held word counts as held (Engine.knows: "recieve", "definately"; the typo never touches the
    first letter, so "cython" is not "python"); a word English does not know is a typo where a held word
    is a slip of the keys from it (`resembles`: "rocessors" for processors). A word built of held
    words, an English prefix and a word or two words ("reindexing", "unhandled", "halfway"), is held, and
    so is one English derives from a held word by a suffix (english.bases: "priciest", "roofer"). A number
    written as a word ("seventieth") is no topic, nor is a character's name ("ampersand") where a passage
    writes the character. A
    common English word absent from the folders is usually a paraphrase ("forgot", "weird"); a rare one
    is usually what the question is about ("nginx", "terraform"). A word of an example the question gives,
    or a placeholder, is the user's own (as unknown_identifiers)."""
    terms = set(question_terms(question))
    text = "\n".join(chunk_text(h) for h in hits)
    vocabulary = set(re.findall(r"[^\W\d_]+", fold(text)))

    def held(word: str) -> bool:
        return doc_freq(stem(word))[0] > 0

    out: list[tuple[str, float]] = []
    for word in _prose_words(english.without_examples(question)):
        if english.placeholder(word):
            continue
        term = stem(word)
        if term not in terms or doc_freq(term)[0] > 0 or _shortens(word, vocabulary):
            continue
        if _built_of_held(word, held, mentions) or any(held(base) for base in english.bases(word)):
            continue
        if word in english.NUMBER_WORDS or _names_written(word, text):
            continue
        if knows(word):
            continue
        rarity = english.rarity(word)  # the English list loads on the first word it is asked of
        if rarity < english.MAX_RARITY or not resembles(word):
            out.append((word, rarity))
    return sorted(out, key=lambda found: -found[1])
