"""The answer as the window holds it, and its two renderings: HTML for the view, Markdown for the clipboard.

Pure functions over engine events (no Qt), so they are tested without a window.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from engine.events import Answer, AnswerSentence, Citation, Conflict, EvidenceReady, Hit

REFUSAL_TITLE = "Your folders do not contain the answer."
CHIP = (
    '<a href="cite:{s}:{c}" style="text-decoration:none">'
    '<span style="background-color:#dbeafe; color:#1e3a8a; font-weight:600;">&nbsp;{n}&nbsp;</span></a>'
)


@dataclass
class AnswerState:
    question: str
    evidence: tuple[Hit, ...] = ()
    sentences: list[AnswerSentence] = field(default_factory=list)
    final: Answer | None = None
    error: tuple[str, str] | None = None
    cancelled: bool = False

    @property
    def done(self) -> bool:
        return self.final is not None or self.error is not None or self.cancelled

    def apply(self, event: object) -> None:
        if isinstance(event, EvidenceReady):
            self.evidence = event.hits
        elif isinstance(event, AnswerSentence):
            self.sentences.append(event)
        elif isinstance(event, Answer):
            self.final = event
            self.sentences = list(event.sentences)
            self.evidence = event.evidence or self.evidence

    def citation(self, sentence: int, index: int) -> Citation | None:
        try:
            return self.sentences[sentence].citations[index]
        except IndexError:
            return None


def location(path: str, start: int, end: int, page: int | None = None) -> str:
    lines = f"{start}" if end <= start else f"{start}-{end}"
    return f"{path}:{lines}" + (f" (page {page})" if page else "")


def status_text(state: AnswerState) -> str:
    if state.error is not None:
        return state.error[0]
    if state.cancelled:
        return "Stopped."
    if state.final is not None:
        return "Not found in your folders." if state.final.refused else "Answer ready."
    return "Writing the answer…" if state.evidence else "Searching your folders…"


# -- HTML ---------------------------------------------------------------------------------------------
def render_html(state: AnswerState) -> str:
    parts: list[str] = []
    if state.final is not None and state.final.refused:
        parts.append(_refusal_html(state.final))
    else:
        parts.append("<p>" + " ".join(_sentence_html(i, s) for i, s in enumerate(state.sentences)) + "</p>")
    if state.final is not None:
        noted = _has_conflict_note(state)
        parts.extend(_conflict_html(c, noted) for c in state.final.conflicts)
    return "".join(parts)


def _has_conflict_note(state: AnswerState) -> bool:
    """The answer already says which sources disagree (with both statements quoted): say only which
    one is current, not the summary again."""
    return any(s.is_conflict_note for s in state.sentences)


def _sentence_html(index: int, sentence: AnswerSentence) -> str:
    chips = "".join(CHIP.format(s=index, c=c, n=cite.source) for c, cite in enumerate(sentence.citations))
    return html.escape(sentence.text) + (" " + chips if chips else "")


def _refusal_html(answer: Answer) -> str:
    reason = f"<br><span>{html.escape(answer.reason)}</span>" if answer.reason else ""
    return (
        f"<p><b>{REFUSAL_TITLE}</b><br>{html.escape(answer.text)}{reason}</p>"
        "<p>The closest evidence is listed below.</p>"
    )


def _conflict_html(conflict: Conflict, noted: bool = False) -> str:
    if noted:
        return f"<p>Current: <b>[{conflict.current}]</b> — {html.escape(conflict.reason)}</p>"
    sources = ", ".join(f"[{n}]" for n in conflict.sources)
    summary = f" {html.escape(conflict.summary)}" if conflict.summary else ""
    return (
        f"<p><b>Sources disagree</b> ({sources}).{summary} "
        f"Current: <b>[{conflict.current}]</b> — {html.escape(conflict.reason)}</p>"
    )


def evidence_label(number: int, hit: Hit) -> str:
    where = location(Path(hit.path).name, hit.start_line, hit.end_line, hit.page)
    text = " ".join((hit.snippet or hit.text).replace("**", "").split())
    heading = f"{hit.heading} — " if hit.heading else ""
    return f"[{number}] {where}  {heading}{text[:160]}"


# -- Markdown -----------------------------------------------------------------------------------------
def to_markdown(state: AnswerState) -> str:
    lines = [f"**Question:** {state.question}", ""]
    if state.final is not None and state.final.refused:
        lines += [state.final.text, "", "Closest evidence:"]
        lines += [
            f"- [{n}] {location(h.path, h.start_line, h.end_line, h.page)}"
            for n, h in enumerate(state.evidence, 1)
        ]
        return "\n".join(lines) + "\n"
    body = " ".join(s.text + "".join(f"[{c.source}]" for c in s.citations) for s in state.sentences)
    lines += [body or "(no answer)", ""]
    noted = _has_conflict_note(state)
    for conflict in state.final.conflicts if state.final else ():
        said = "" if noted else f"Sources disagree ({', '.join(f'[{n}]' for n in conflict.sources)}); "
        lines += [f"> {said}current: [{conflict.current}] — {conflict.reason}", ""]
    lines += ["Sources:", *_markdown_sources(state)]
    return "\n".join(lines) + "\n"


def _markdown_sources(state: AnswerState) -> list[str]:
    seen: dict[tuple[int, str, int, int, int | None], str] = {}
    for sentence in state.sentences:
        for c in sentence.citations:
            key = (c.source, c.path, c.start_line, c.end_line, c.page)
            quote = f' — "{c.quote}"' if c.quote else ""
            seen.setdefault(key, f"[{c.source}] {location(c.path, c.start_line, c.end_line, c.page)}{quote}")
    if not seen:  # evidence only: list what was found
        return [
            f"[{n}] {location(h.path, h.start_line, h.end_line, h.page)}"
            for n, h in enumerate(state.evidence, 1)
        ]
    return [seen[k] for k in sorted(seen)]
