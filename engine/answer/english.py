"""The English words the answer check reads. One module, so that another language is one more module.

Each set is a closed grammatical class (question words, negations, ordinal suffixes), not vocabulary of
any collection: they say what kind of answer a question wants and whether it is negated.
"""

from __future__ import annotations

import re

# A question holding one of these wants a figure, a date or an amount in its answer. A bare "when" does
# not: in technical text it asks for a condition ("when should I retry?") as often as for a date.
WANTS_FIGURE = re.compile(
    r"\b(how (many|much|long|old|often|far|large|big|tall|high|fast)|what (year|percentage|percent|"
    r"number|amount|date|age|proportion|size)|in (what|which) (year|decade|century|month))\b",
    re.IGNORECASE,
)
# ...one of these, a person's or an organisation's name. Not "where": in a folder of code and notes it
# asks for a file, a setting or a section as often as for a place.
WANTS_NAME = re.compile(r"\b(who|whom|whose)\b", re.IGNORECASE)
NEGATIONS = frozenset("not no never none nothing nobody neither nor without cannot n't".split())
# Figures are written in digits (with an ordinal or decade ending). Number words are left out: in a
# question they count what is asked for ("which two modes", "what three fields"), not a fact to find.
FIGURE = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th|s)?\b", re.IGNORECASE)


def negated(words: list[str]) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in words)
