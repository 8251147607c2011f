"""Break opportunities inside long tokens, for labels that word-wrap.

Qt wraps a label only between words, so a path, a URL or a model file name in a message is one word as
wide as itself: the label is cut, or widens the window to fit it (the missing-model message made the
window 1,400 px wide). A zero-width space after the separators of a long token lets it wrap there, and
one every LONG characters where a token has none (a hash). Pure: no Qt.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
LONG = 24  # characters: a token this long may break
SEPARATORS = re.compile(r"([/\\_.\-:,;=&?)+])(?=[^\s\u200b])")
UNBROKEN = re.compile(rf"[^\s\u200b]{{{LONG},}}")


def breakable(text: str) -> str:
    """`text` with a zero-width space after each separator of a token LONG characters or longer, and
    within any stretch of one still that long; short words are left as they are."""
    return re.sub(rf"[^\s]{{{LONG},}}", _break_token, text)


def _break_token(match: re.Match[str]) -> str:
    token = SEPARATORS.sub(r"\1" + ZWSP, match.group(0))
    return UNBROKEN.sub(lambda m: ZWSP.join(_pieces(m.group(0))), token)


def _pieces(run: str) -> list[str]:
    return [run[i : i + LONG // 2] for i in range(0, len(run), LONG // 2)]


def unbroken(text: str) -> str:
    """`text` without the break opportunities (for the clipboard, a log, a comparison)."""
    return text.replace(ZWSP, "")
