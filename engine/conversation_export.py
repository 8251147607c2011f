"""A thread, or one answer of it, as Markdown (file:line citations with their quotes) or JSON.

Markdown is for people (pasted into notes, a ticket, a mail): each answer with its [n] markers, then the
cited places as path:lines and the quoted words, a refusal with the closest evidence, a changed source
flagged. JSON is for tools: the whole stored answer of every turn, as `citeline ask --json` gives it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from engine.conversation import Thread, Turn
from engine.conversation_store import answer_to_dict
from engine.events import Citation, Hit
from engine.names import page_label

Format = Literal["markdown", "json"]
CHANGED = "source changed since this answer"


def export(thread: Thread, turns: Sequence[Turn], fmt: Format) -> str:
    if fmt == "json":
        return to_json(thread, turns)
    return to_markdown(thread, turns)


def to_json(thread: Thread, turns: Sequence[Turn]) -> str:
    data: dict[str, Any] = {
        "thread": {
            "id": thread.id,
            "title": thread.title,
            "created_at": thread.created_at.isoformat(),
            "updated_at": thread.updated_at.isoformat(),
        },
        "turns": [
            {
                "id": t.id,
                "question": t.question,
                "searched": t.searched,
                "follow_up": t.follow_up,
                "asked_at": t.asked_at.isoformat(),
                "changed_sources": list(t.changed),
                "answer": answer_to_dict(t.answer),
            }
            for t in turns
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"


def to_markdown(thread: Thread, turns: Sequence[Turn]) -> str:
    lines = [f"# {thread.title}", "", f"_Citeline thread, {thread.created_at:%Y-%m-%d %H:%M}_", ""]
    for turn in turns:
        lines += turn_markdown(turn, len(turns) > 1)
    return "\n".join(lines).rstrip() + "\n"


def turn_markdown(turn: Turn, numbered: bool = False) -> list[str]:
    head = f"## {turn.ord}. {turn.question}" if numbered else f"## {turn.question}"
    lines = [head, ""]
    if turn.searched != turn.question:
        lines += [f"_searched: {turn.searched}_", ""]
    answer = turn.answer
    if answer.refused:
        lines += [answer.text, ""]
        if answer.reason:
            lines += [f"_{answer.reason}_", ""]
        if answer.evidence:
            lines += ["Closest evidence:", ""]
            lines += [f"- [{n}] {_where(h)}" for n, h in enumerate(answer.evidence, 1)]
            lines.append("")
        return lines
    lines += [answer.text, ""]
    for conflict in answer.conflicts:
        lines += [f"> Sources disagree; current: [{conflict.current}] — {conflict.reason}", ""]
    lines += ["Sources:", ""]
    for citation in _citations(turn):
        flag = f" ({CHANGED})" if citation.path in turn.changed else ""
        quote = " ".join(citation.quote.split())
        lines.append(f"- [{citation.source}] `{_place(citation)}`{flag}")
        if quote:
            lines.append(f"  > {quote}")
    lines.append("")
    return lines


def _citations(turn: Turn) -> list[Citation]:
    seen: dict[tuple[int, str, int, int, int | None], Citation] = {}
    for sentence in turn.answer.sentences:
        for c in sentence.citations:
            seen.setdefault((c.source, c.path, c.start_line, c.end_line, c.page), c)
    return [seen[k] for k in sorted(seen)]


def _lines(start: int, end: int) -> str:
    return f"{start}" if end <= start else f"{start}-{end}"


def _place(c: Citation) -> str:
    return f"{c.path}:{_lines(c.start_line, c.end_line)}" + _on_page(c.path, c.page)


def _where(h: Hit) -> str:
    return f"`{h.path}:{_lines(h.start_line, h.end_line)}`" + _on_page(h.path, h.page)


def _on_page(path: str, page: int | None) -> str:
    return f" ({page_label(path, page)})" if page else ""
