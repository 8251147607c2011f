"""The answer as the window holds it, and its two renderings: HTML for the view, Markdown for the clipboard.

Pure functions over engine events (no Qt), so they are tested without a window.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from desktop.snippet_text import readable
from engine.api import lead_and_code, lines_block, location
from engine.events import (
    Answer,
    AnswerSentence,
    Citation,
    Conflict,
    Draft,
    EvidenceReady,
    GenerationProgress,
    Hit,
)

REFUSAL_TITLE = "Your folders do not contain the answer."
ADDRESSED = "addressed to an AI model: not used as an answer on its own"  # Hit.instructions (injection)
ADDRESSED_MARK = "⚠ "
DRAFT_NOTE = "Draft — quoted from your sources while the model writes."
FROM_DRAFT_NOTE = "The model found nothing it could verify, so these are quotes from your sources."
STOPPED_DRAFT_NOTE = "Stopped before the model wrote a verified sentence; these are quotes from your sources."
UNFINISHED_DRAFT_NOTE = "The model did not finish; these are quotes from your sources."
STOPPED_EMPTY = "Stopped before any sentence was verified."
MUTED = '<p style="color:#6b7280"><i>{}</i></p>'
CHIP = (
    '<a href="cite:{s}:{c}" style="text-decoration:none">'
    '<span style="background-color:#dbeafe; color:#1e3a8a; font-weight:600;">&nbsp;{n}&nbsp;</span></a>'
)


@dataclass
class AnswerState:
    """One answer as it streams in. Once stopped it takes no more events: what is shown stays shown."""

    question: str
    evidence: tuple[Hit, ...] = ()
    draft: tuple[AnswerSentence, ...] = ()
    sentences: list[AnswerSentence] = field(default_factory=list)
    progress: GenerationProgress | None = None
    final: Answer | None = None
    error: tuple[str, str] | None = None
    cancelled: bool = False

    @property
    def done(self) -> bool:
        return self.final is not None or self.error is not None or self.cancelled

    @property
    def refused(self) -> bool:
        return self.final is not None and self.final.refused

    @property
    def shown(self) -> list[AnswerSentence]:
        """The sentences on screen: the model's once it has verified one, else the draft's."""
        if self.refused:
            return []
        return self.sentences or list(self.draft)

    @property
    def showing_draft(self) -> bool:
        """The shown sentences are the draft's quotes, not the model's own verified sentences."""
        if self.final is not None and self.final.from_draft:
            return True
        return not self.refused and not self.sentences and bool(self.draft)

    def apply(self, event: object) -> None:
        if self.cancelled:  # a stop keeps the answer as it was when the user pressed it
            return
        if isinstance(event, EvidenceReady):
            self.evidence = event.hits
        elif isinstance(event, Draft):
            self.draft = event.sentences
        elif isinstance(event, GenerationProgress):
            self.progress = event
        elif isinstance(event, AnswerSentence):
            self.sentences.append(event)
        elif isinstance(event, Answer):
            self._finish(event)

    def _finish(self, answer: Answer) -> None:
        self.final = answer
        self.sentences = list(answer.sentences)
        self.evidence = answer.evidence or self.evidence

    def citation(self, sentence: int, index: int) -> Citation | None:
        """The chip `cite:sentence:index`, counted over the shown sentences (draft or model)."""
        try:
            return self.shown[sentence].citations[index]
        except IndexError:
            return None


def status_text(state: AnswerState) -> str:
    """One line: where the answer stands."""
    if state.error is not None:
        return state.error[0]
    if state.cancelled:
        return "Stopped."
    if state.final is not None:
        return "Not found in your folders." if state.final.refused else "Answer ready."
    if state.progress is not None:
        return progress_text(state.progress)
    return "Writing the answer…" if state.evidence else "Searching your folders…"


def progress_text(progress: GenerationProgress) -> str:
    """The model's phase in numbers the user can check, and the time left once a rate is measured."""
    if progress.phase == "loading":
        text = "Loading the model…"
    elif progress.phase == "reading":
        text = f"Reading the sources: {progress.read} of {progress.prompt} tokens"
    else:
        text = f"Writing: {progress.written} tokens"
    left = time_left(progress.eta_s)
    return f"{text} · {left}" if left else text


def time_left(seconds: float | None) -> str:
    if seconds is None or seconds < 0:
        return ""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s left"
    return f"about {round(seconds / 60)} min left"


# -- HTML ---------------------------------------------------------------------------------------------
def render_html(state: AnswerState) -> str:
    note = draft_note(state)
    parts = [MUTED.format(html.escape(note))] if note else []  # first: read before the quotes it explains
    if state.refused:
        assert state.final is not None
        parts.append(_refusal_html(state.final))
    elif state.shown:
        parts.append(_sentences_html(state.shown))
    if state.final is not None:
        noted = _has_conflict_note(state)
        parts.extend(_conflict_html(c, noted) for c in state.final.conflicts)
    return "".join(parts)


def draft_note(state: AnswerState) -> str:
    """Why the shown sentences are quotes (the draft), or that a stop came before any; else nothing."""
    if state.showing_draft:
        if state.final is not None:
            return FROM_DRAFT_NOTE
        if state.cancelled:
            return STOPPED_DRAFT_NOTE
        return UNFINISHED_DRAFT_NOTE if state.error else DRAFT_NOTE
    if state.cancelled and not state.shown and not state.refused:
        return STOPPED_EMPTY
    return ""


def _sentences_html(sentences: list[AnswerSentence]) -> str:
    return "<p>" + " ".join(_sentence_html(i, s) for i, s in enumerate(sentences)) + "</p>"


def _has_conflict_note(state: AnswerState) -> bool:
    """The answer already says which sources disagree (with both statements quoted): say only which
    one is current, not the summary again."""
    return any(s.is_conflict_note for s in state.shown)


def _sentence_html(index: int, sentence: AnswerSentence) -> str:
    chips = "".join(CHIP.format(s=index, c=c, n=cite.source) for c, cite in enumerate(sentence.citations))
    if "\n" in sentence.text:  # a quote of several lines (code, an example) keeps them
        lead, code = lead_and_code(sentence.text)  # "To install it, run:" is prose above its code
        lead = f"{html.escape(lead)}<br>" if lead else ""
        return f"{lead}<pre>{html.escape(code)}</pre>{chips}<br>"  # its markers, then the next sentence
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
    text = " ".join(readable(hit.snippet or hit.text, hit.path).replace("**", "").split())
    heading = f"{hit.heading} — " if hit.heading else ""
    mark = f"{ADDRESSED_MARK}{ADDRESSED} · " if hit.instructions else ""
    return f"[{number}] {where}  {mark}{heading}{text[:160]}"


# -- Markdown -----------------------------------------------------------------------------------------
def to_markdown(state: AnswerState) -> str:
    """What the view shows, as Markdown: the refusal with its evidence, or the shown sentences."""
    lines = [f"**Question:** {state.question}", ""]
    if state.refused:
        assert state.final is not None
        lines += [state.final.text, "", "Closest evidence:"]
        lines += [
            f"- [{n}] {location(h.path, h.start_line, h.end_line, h.page)}"
            for n, h in enumerate(state.evidence, 1)
        ]
        return "\n".join(lines) + "\n"
    note = draft_note(state)
    if note:
        lines += [f"_{note}_", ""]
    body = " ".join(
        f"\n\n{lines_block(s.text)}\n\n{marks}\n\n" if "\n" in s.text else s.text + marks
        for s in state.shown
        for marks in ["".join(f"[{c.source}]" for c in s.citations)]
    )
    body = re.sub(r"\n\n (?! {3})", "\n\n", re.sub(r" +\n", "\n", body)).strip("\n")
    lines += [body or "(no answer)", ""]
    noted = _has_conflict_note(state)
    for conflict in state.final.conflicts if state.final else ():
        said = "" if noted else f"Sources disagree ({', '.join(f'[{n}]' for n in conflict.sources)}); "
        lines += [f"> {said}current: [{conflict.current}] — {conflict.reason}", ""]
    lines += ["Sources:", *_markdown_sources(state)]
    return "\n".join(lines) + "\n"


def _markdown_sources(state: AnswerState) -> list[str]:
    seen: dict[tuple[int, str, int, int, int | None], str] = {}
    for sentence in state.shown:
        for c in sentence.citations:
            key = (c.source, c.path, c.start_line, c.end_line, c.page)
            quote = f' — "{c.quote}"' if c.quote else ""
            seen.setdefault(key, f"[{c.source}] {location(c.path, c.start_line, c.end_line, c.page)}{quote}")
    if not seen:  # evidence only: list what was found
        return [
            f"[{n}] {location(h.path, h.start_line, h.end_line, h.page)}"
            for n, h in enumerate(state.evidence, 1)
        ]
    cited = {k[0] for k in seen}
    read = [  # the evidence no sentence cites: listed after, so every number in the answer is accounted for
        f"  [{n}] {location(h.path, h.start_line, h.end_line, h.page)}"
        for n, h in enumerate(state.evidence, 1)
        if n not in cited
    ]
    return [seen[k] for k in sorted(seen)] + (["Also read, not cited:", *read] if read else [])
