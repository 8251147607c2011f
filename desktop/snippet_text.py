"""A snippet of a Markdown or plain-text file as a reader would see it rendered: no `## `, `*`, `` ` ``,
`[text](url)`, table rules or list markers, the engine's **match** marks kept. Pure: no Qt.

The engine's snippets are flat (whitespace collapsed, the file's own ** dropped), so the syntax is read
token by token: a lone `#`-run or `>` between spaces is a heading or quote marker, and a lone `*`, `+` or
`-` a list item's (shown as a bullet); emphasis is removed around words only, so `snake_case` and
`__init__.py` stay as they are, and code spans keep their text. Code files keep their syntax: there a `#`
is a comment and `*` a pointer.
"""

from __future__ import annotations

import re
from pathlib import PurePath

MARK = "**"  # the engine's match marks (engine.retrieve.snippets.MARK)
PROSE = frozenset({".md", ".markdown", ".mdx", ".txt", ".text", ""})
BULLET = "•"
CODE_SPAN = re.compile(r"`([^`]+)`")

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"), r"\1"),  # [text](url), ![alt](src)
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),  # <https://...>
    (re.compile(r"(?:^|(?<=[\s…]))(?:```|~~~)\S*(?=\s|$)"), ""),  # code fences
    (re.compile(r"(?:^|(?<=[\s…]))#{1,6}(?=\s|$)"), ""),  # heading markers
    (re.compile(r"(?:^|(?<=[\s…]))>(?=\s)"), ""),  # quote markers
    (re.compile(r"\|?(?:\s*:?-{3,}:?\s*\|)+(?:\s*:?-{3,}:?\s*)?"), " "),  # table rules |---|:--:|
    (re.compile(r"(?:^|(?<=[\s…]))(?:-{3,}|\*{3,}|_{3,})(?=\s|$)"), ""),  # horizontal rules
    (re.compile(r"(?<![\w*])\*([^*\s](?:[^*]*?[^*\s])?)\*(?![\w*])"), r"\1"),  # *em*
    (re.compile(r"(?<!\w)__([^_\s](?:[^_]*?[^_\s])?)__(?!\w|\.\w)"), r"\1"),  # __strong__, not __init__.py
    (re.compile(r"(?<!\w)_([^_\s](?:[^_]*?[^_\s])?)_(?!\w|\.\w)"), r"\1"),  # _em_
    (re.compile(r"(?<![\w*])\*(?=\w)|(?<=\w)\*(?![\w*])"), ""),  # an emphasis * whose pair is cut off
    (re.compile(r"`"), ""),  # a code span cut by the snippet's edge
    (re.compile(r"(?:^|(?<=[\s…]))[*+-](?=\s)"), BULLET),  # list markers
    (re.compile(r"(?:\s*\|)+\s*"), " · "),  # table cells
)


def is_prose(path: str) -> bool:
    return PurePath(path).suffix.lower() in PROSE


def readable(marked: str, path: str = "") -> str:
    """The snippet `marked` (matches in ** **) without Markdown syntax, when `path` is prose; else as is."""
    if not is_prose(path):
        return marked
    parts = marked.split(MARK)
    # the plain runs (even) and the marked words (odd) are cleaned apart, so a match mark is never taken
    # for emphasis; a pair of markers around a marked word is dropped across the runs
    cleaned = [_clean(part) if i % 2 == 0 else part for i, part in enumerate(_unwrap(parts))]
    text = MARK.join(cleaned)
    text = re.sub(r"^\s*(?:·\s*)+|(?:\s*·)+\s*$", "", text)  # a row's outer pipes
    return " ".join(text.split())


def _unwrap(parts: list[str]) -> list[str]:
    """`*` `` ` `` or `_` closing a plain run and opening the next one around a marked word: dropped."""
    out = list(parts)
    for i in range(1, len(out) - 1, 2):
        before, after = out[i - 1], out[i + 1]
        for marker in ("**", "__", "*", "_", "`"):
            if before.endswith(marker) and after.startswith(marker):
                out[i - 1], out[i + 1] = before[: -len(marker)], after[len(marker) :]
                break
    return out


def _clean(text: str) -> str:
    """Code spans keep their text as it is; the syntax around them goes."""
    pieces = CODE_SPAN.split(text)
    for i in range(0, len(pieces), 2):
        for pattern, replacement in _RULES:
            pieces[i] = pattern.sub(replacement, pieces[i])
    return re.sub(r"\s{2,}", " ", "".join(pieces))
