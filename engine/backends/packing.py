"""Context packing: the most relevant window of each source, counted with the generator's own tokenizer.

Prompt reading runs at 40-80 tokens/s on 2 cores, so the model reads windows (the sentences around the
question's terms), not whole chunks. Adjacent chunks of one file merge into one window. Sources that do
not fit the budget are dropped and reported; the packed prompt never overflows the context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.backends.prompts import SourceWindow
from engine.events import Hit
from engine.text import content_terms, question_terms, split_sentences

WINDOW_TOKENS = 110


@dataclass(frozen=True)
class Packed:
    windows: tuple[SourceWindow, ...]
    aliases: dict[int, tuple[int, ...]]  # window number (1..n as the model sees them) -> evidence numbers
    dropped: tuple[int, ...]
    tokens: int


def best_window(text: str, question: str, count: Callable[[str], int], limit: int) -> str:
    """The run of consecutive sentences with the most question terms that fits `limit` tokens."""
    spans = split_sentences(text)
    if not spans or count(text) <= limit:
        return text
    terms = set(question_terms(question))
    gains = [len(terms & set(content_terms(text[s:e]))) for s, e in spans]
    sizes = [count(text[s:e]) for s, e in spans]
    best, best_gain = (0, 0), -1
    for i in range(len(spans)):
        total, gain, j = 0, 0, i
        while j < len(spans) and total + sizes[j] <= limit:
            total += sizes[j]
            gain += gains[j]
            j += 1
        if j > i and gain > best_gain:
            best, best_gain = (i, j - 1), gain
    first, last = best
    if best_gain < 0:  # the first sentence alone is too long: keep as much of its head as fits
        head = text[spans[0][0] : spans[0][1]][: limit * 4]
        while len(head) > 1 and count(head) > limit:
            head = head[: len(head) * 4 // 5]
        return head
    return text[spans[first][0] : spans[last][1]]


def merge_adjacent(evidence: Sequence[Hit]) -> list[tuple[int, list[int]]]:
    """Group evidence numbers whose chunks touch in the same file; keeps the first number's rank."""
    groups: list[tuple[int, list[int]]] = []
    for n, hit in enumerate(evidence, start=1):
        for _, members in groups:
            head = evidence[members[0] - 1]
            if (
                head.path == hit.path
                and head.page == hit.page
                and any(
                    abs(evidence[m - 1].end_line + 1 - hit.start_line) <= 1
                    or abs(hit.end_line + 1 - evidence[m - 1].start_line) <= 1
                    for m in members
                )
            ):
                members.append(n)
                break
        else:
            groups.append((n, [n]))
    return groups


def pack(
    question: str,
    evidence: Sequence[Hit],
    count: Callable[[str], int],
    budget: int,
    window_tokens: int = WINDOW_TOKENS,
) -> Packed:
    windows: list[SourceWindow] = []
    aliases: dict[int, tuple[int, ...]] = {}
    dropped: list[int] = []
    used = 0
    for _first, members in merge_adjacent(evidence):
        hits = sorted((evidence[m - 1] for m in members), key=lambda h: h.start_line)
        text = "\n".join(h.text for h in hits)
        window = best_window(text, question, count, window_tokens * len(members))
        cost = count(window) + 12
        if used + cost > budget:
            dropped.extend(members)
            continue
        used += cost
        number = len(windows) + 1  # the model sees windows numbered 1..n without gaps
        windows.append(SourceWindow(number, hits[0].path, hits[0].start_line, hits[-1].end_line, window))
        aliases[number] = tuple(members)
    return Packed(tuple(windows), aliases, tuple(dropped), used)
