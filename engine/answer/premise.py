"""False premises a question states and the folders do not support: what the question takes as given,
checked before any model reads it.

- A figure ("Why is the default timeout 30 seconds?"): nothing retrieved states it, in digits, number
  words or Roman numerals. A question asking how to do something, requesting something or supposing
  something is exempt: its figures are the user's own ("How do I set the timeout to 30 seconds?").
- A code identifier ("How do I configure the max_retries_backoff option?"): a name written as code
  (snake_case, camelCase, a call `name(`, or in backticks) that no indexed file holds, in any of its
  spellings (max_retries_backoff, max-retries-backoff, maxRetriesBackoff). Unlike a figure, an
  identifier is not the user's to choose, so a how-to question is not exempt; and unlike a figure it is
  looked for in the whole index, not only in what was retrieved: a name is exact, so its absence there is
  certain, while its absence from the top passages is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.answer import english
from engine.answer.answerability import chunk_text, figures, premises, stated_figures
from engine.events import Hit

Mentions = Callable[..., bool]  # (spelling, ...) -> does any indexed file hold one of them?

_IDENT = re.compile(
    r"(?<![\w-])(?:"
    r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"  # snake_case, UPPER_SNAKE
    r"|__[A-Za-z]\w*__|_[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?!_)"  # __dunder__, _private; not _emphasis_
    r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"  # camelCase
    r")(?![\w-])"
)
_CALL = re.compile(r"(?<![\w.])(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w{2,})\(")  # written as a call: name(
_TICKED = re.compile(r"`([^`\n]+)`")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


def unsupported_figures(question: str, hits: Sequence[Hit]) -> list[str]:
    """The figures a question takes as given (`premises`) that no hit states (its text, heading or file
    name), each with the word after it ("30 seconds")."""
    if not premises(question):
        return []
    have = frozenset[str]().union(*(stated_figures(chunk_text(h)) for h in hits))
    out: dict[str, str] = {}  # each figure once, said as the question first writes it
    for m in re.finditer(rf"({english.FIGURE.pattern})(?:\s+([A-Za-z%]+))?", question, re.IGNORECASE):
        figure, unit = m.group(1), m.group(2) or ""
        joins = unit.lower() in english.CONNECTIVES or unit.lower().endswith("ly")  # "through", "only"
        value = next(iter(figures(figure)), "")
        said = figure if joins else m.group()  # "30 seconds", but "3.9", not "3.9 through"
        if value and value not in have:
            out.setdefault(value, said)
    return list(out.values())


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
