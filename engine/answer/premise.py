"""False premises a question states and the folders do not support: what the question takes as given,
checked before any model reads it.

- A figure ("Why is the default timeout 30 seconds?"): nothing retrieved states it, in digits, number
  words or Roman numerals. A question asking how to do something, requesting something or supposing
  something is exempt: its figures are the user's own ("How do I set the timeout to 30 seconds?").
- A code identifier ("How do I configure the max_retries_backoff option?"): a name written as code
  (snake_case, camelCase, letters then digits as in pbkdf2 or sha256, a call `name(`, or in backticks)
  that no indexed file holds, in any of its spellings (max_retries_backoff, max-retries-backoff,
  maxRetriesBackoff; sha256, sha-256). Unlike a figure, an
  identifier is not the user's to choose, so a how-to question is not exempt; and unlike a figure it is
  looked for in the whole index, not only in what was retrieved: a name is exact, so its absence there is
  certain, while its absence from the top passages is not.
- A name ("How does the client negotiate QUIC?", "Who led Celeron's expedition?"): a word written with a
  capital, not opening a sentence, that no indexed file holds, case and accents aside, and for a word
  of five letters or more not even one typo away (Engine.knows: "Hatmanis" finds "Hartmanis"). A
  question about a thing the folders never mention cannot be answered from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine import english
from engine.answer.answerability import chunk_text, figures, premises, stated_figures
from engine.events import Hit
from engine.text import fold

Mentions = Callable[..., bool]  # (spelling, ...) -> does any indexed file hold one of them?
Knows = Callable[[str], bool]  # does any indexed file hold this word (or, when long, one typo from it)?

_IDENT = re.compile(
    r"(?<![\w-])(?:"
    r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"  # snake_case, UPPER_SNAKE
    r"|__[A-Za-z]\w*__|_[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?!_)"  # __dunder__, _private; not _emphasis_
    r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"  # camelCase
    r"|[A-Za-z]{2,}\d+[A-Za-z0-9]*"  # letters then digits: pbkdf2, sha256, IPv6, base64
    r")(?![\w-])"
)
_ALNUM = re.compile(r"[A-Za-z]+\d+[A-Za-z0-9]*")
_CALL = re.compile(r"(?<![\w.])(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w{2,})\(")  # written as a call: name(
_TICKED = re.compile(r"`([^`\n]+)`")
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
    if not premises(question):
        return []
    texts = [chunk_text(h) for h in hits]
    have = frozenset[str]().union(*(stated_figures(t) for t in texts))
    out: dict[str, str] = {}  # each figure once, said as the question first writes it
    for m in re.finditer(rf"({english.FIGURE.pattern})(?:\s+([A-Za-z%]+))?", question, re.IGNORECASE):
        figure, unit = m.group(1), m.group(2) or ""
        joins = unit.lower() in english.CONNECTIVES or unit.lower().endswith("ly")  # "through", "only"
        value = next(iter(figures(figure)), "")
        said = figure if joins else m.group()  # "30 seconds", but "3.9", not "3.9 through"
        if not value or value in have or value in out:
            continue
        if _VERSION.fullmatch(figure) and (figure.count(".") > 1 or not unit or joins):
            said = figure  # a release has no unit: "3.24.0", not "3.24.0 drop"
            release = re.compile(rf"(?<![\d.]){re.escape(figure)}(?:\.\d+)*(?![\d])")
            finer = [f"{figure}.{d}" for d in range(10)]  # "3.23.0"... "3.23.9" (and 3.23.10 by its 3.23.1)
            if any(release.search(t) for t in texts) or (mentions is not None and mentions(*finer)):
                continue
        out[value] = said
    return list(out.values())


_VERSION = re.compile(r"\d+(?:\.\d+)+")


def identifiers(question: str) -> list[str]:
    """The names a question writes as code, in order, once each."""
    found = [m.group() for m in _IDENT.finditer(question)]
    found += [m.group(1) for m in _CALL.finditer(question)]
    found += [w for m in _TICKED.finditer(question) for w in _WORD.findall(m.group(1))]
    return list(dict.fromkeys(found))


def spellings(name: str) -> list[str]:
    """One name as code spells it: snake, kebab, words and run together (maxRetries, max_retries,
    max-retries, "max retries", maxretries), lower case."""
    parts = [p for p in re.split(r"[_\-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", name) if p]
    if _ALNUM.fullmatch(name):  # letters then digits: sha256 is also written sha-256, utf8 utf-8
        parts = re.split(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", name)
    forms = [sep.join(parts).lower() for sep in ("_", "-", " ", "")] if len(parts) > 1 else [name.lower()]
    if len(name) > 3 and name.endswith("s") and name[-2:-1].isalpha():
        forms += [f[:-1] for f in forms]  # a plural: "vCPUs" is "vCPU" counted
    return list(dict.fromkeys(forms))


def unknown_identifiers(question: str, hits: Sequence[Hit], mentions: Mentions) -> list[str]:
    """The code names of the question that no hit and no indexed file holds, in any spelling."""
    names = identifiers(question)
    if not names:
        return []
    text = "\n".join(chunk_text(h) for h in hits).lower()
    forms = {n: spellings(n) for n in names}
    unseen = {n: f for n, f in forms.items() if not any(s in text for s in f)}
    if len(unseen) > 1 and not mentions(*(s for spelt in unseen.values() for s in spelt)):
        return list(unseen)  # one scan of the index for all of them: none is there
    return [name for name, spelt in unseen.items() if not mentions(*spelt)]


_TOKEN = re.compile(r"[^\W_][\w'’]*(?:-[\w'’]+)*")
_SKIP = frozenset(" \t\"'“‘(*[-•–—")  # what may stand between a sentence's start and its first word
_OPENS = frozenset(".!?:\n…¿¡)")  # what a sentence's first word follows (")": a list's "1) What…")


def _before(text: str, at: int) -> str:
    """The character before `at` that is not a space, a quote, a bracket or a bullet ("" at the start)."""
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
        for part in whole.split("-"):
            word = re.sub(r"['’]\w*$", "", part).rstrip("'’")
            if (
                len(word) > 1
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
    not one letter, a Roman numeral, a figure's unit ("64 KB"), a calendar or clock word
    (english.NOT_NAMES), nor what the identifier check reads (code names, backticked words)."""
    return list(dict.fromkeys(name for name, _ in _names(question)))


def _one_typo(a: str, b: str) -> bool:
    """Whether a and b are at most one edit apart (an insertion, a deletion, a substitution or two
    neighbours swapped)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
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


def _written(word: str, text: str, mentions: Mentions) -> bool:
    """Whether a compound or CamelCase word is written in `text` (folded) or any indexed file in one of its
    spellings: Wi-Fi as wifi, wi-fi or wi fi; RetryPolicy as retry policy or retry_policy."""
    forms = spellings(word)
    return any(re.search(rf"(?<![^\W_]){re.escape(fold(f))}(?![^\W_])", text) for f in forms) or mentions(
        *forms
    )


def unknown_names(question: str, hits: Sequence[Hit], knows: Knows, mentions: Mentions) -> list[str]:
    """The names of the question (`proper_names`) that the retrieved passages do not name (`in_passages`)
    and `knows` does not find in the index either. A hyphenated or CamelCase name is first looked for
    whole, in its spellings (`_written`)."""
    found = _names(question)
    if not found:
        return []
    text = fold("\n".join(chunk_text(h) for h in hits))
    words = re.findall(r"[^\W_]+", text)
    out: list[str] = []
    for name, whole in found:
        if name in out or (whole != name and _written(whole, text, mentions)):
            continue
        if len(spellings(name)) > 1 and _written(name, text, mentions):
            continue
        if not in_passages(name, words) and not knows(name):
            out.append(name)
    return out
