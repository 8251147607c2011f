"""The quoted draft, the model's progress and the stop, as the answer state renders them (no window)."""

from __future__ import annotations

from desktop.answer_format import (
    DRAFT_NOTE,
    FROM_DRAFT_NOTE,
    REFUSAL_TITLE,
    STOPPED_DRAFT_NOTE,
    STOPPED_EMPTY,
    AnswerState,
    progress_text,
    render_html,
    status_text,
    to_markdown,
)
from engine.events import (
    REFUSAL,
    Answer,
    AnswerSentence,
    Citation,
    Draft,
    EvidenceReady,
    GenerationProgress,
    Hit,
)

QUOTE = AnswerSentence(
    "The Team plan costs €12 per seat per month.",
    (Citation(1, "/kb/pricing.md", 4, 4, None, "Team: €12 per seat per month"),),
)
MODEL = AnswerSentence(
    "Team is €12 a seat each month.",
    (Citation(2, "/kb/faq.md", 9, 10, None, "€12 a seat"),),
)


def _hit(path: str, start: int) -> Hit:
    return Hit(1, path, start, start + 1, None, "", "text", 1.0)


def drafted() -> AnswerState:
    state = AnswerState("How much is Team?")
    state.apply(EvidenceReady((_hit("/kb/pricing.md", 4), _hit("/kb/faq.md", 9))))
    state.apply(Draft((QUOTE,)))
    return state


def test_the_draft_shows_at_once_with_its_chips_marked_as_a_draft() -> None:
    state = drafted()
    html = render_html(state)
    assert "The Team plan costs €12" in html and 'href="cite:0:0"' in html
    assert DRAFT_NOTE in html
    assert state.citation(0, 0) == QUOTE.citations[0]  # the chip opens the draft's source
    assert status_text(state) == "Writing the answer…"


def test_the_first_model_sentence_replaces_the_draft() -> None:
    state = drafted()
    state.apply(MODEL)
    html = render_html(state)
    assert "Team is €12 a seat" in html
    assert "The Team plan costs" not in html and DRAFT_NOTE not in html
    assert state.citation(0, 0) == MODEL.citations[0]


def test_an_answer_from_the_draft_says_the_model_verified_nothing() -> None:
    state = drafted()
    state.apply(Answer("How much is Team?", QUOTE.text, False, sentences=(QUOTE,), from_draft=True))
    html = render_html(state)
    assert "The Team plan costs €12" in html and FROM_DRAFT_NOTE in html
    assert status_text(state) == "Answer ready."
    text = to_markdown(state)
    assert "The Team plan costs €12 per seat per month.[1]" in text
    assert f"_{FROM_DRAFT_NOTE}_" in text
    assert '[1] /kb/pricing.md:4 — "Team: €12 per seat per month"' in text


def test_a_refusal_after_a_draft_is_shown_as_a_refusal() -> None:
    state = drafted()
    state.apply(Answer("How much is Team?", REFUSAL, True, reason="the answer check said no"))
    html = render_html(state)
    assert REFUSAL_TITLE in html and "The Team plan costs" not in html and DRAFT_NOTE not in html
    assert status_text(state) == "Not found in your folders."


def test_markdown_copies_the_draft_while_it_is_shown() -> None:
    text = to_markdown(drafted())
    assert "The Team plan costs €12 per seat per month.[1]" in text and f"_{DRAFT_NOTE}_" in text


def test_progress_reads_as_one_line_in_numbers() -> None:
    assert progress_text(GenerationProgress("loading", 0, 0, 0, 256)) == "Loading the model…"
    reading = GenerationProgress("reading", 230, 610, 0, 256, eta_s=8.6)
    assert progress_text(reading) == "Reading the sources: 230 of 610 tokens · about 9 s left"
    assert progress_text(GenerationProgress("writing", 610, 610, 40, 256)) == "Writing: 40 tokens"
    slow = GenerationProgress("writing", 610, 610, 40, 256, eta_s=150)
    assert progress_text(slow) == "Writing: 40 tokens · about 2 min left"
    almost = GenerationProgress("writing", 610, 610, 1, 256, eta_s=0.2)
    assert progress_text(almost).endswith("about 1 s left")


def test_the_status_line_follows_the_latest_progress() -> None:
    state = drafted()
    state.apply(GenerationProgress("reading", 100, 610, 0, 256, eta_s=12.0))
    state.apply(GenerationProgress("writing", 610, 610, 40, 256, eta_s=6.2))
    assert status_text(state) == "Writing: 40 tokens · about 6 s left"
    assert "\n" not in status_text(state)


def test_a_stop_keeps_the_verified_sentences_and_is_never_a_refusal() -> None:
    state = drafted()
    state.apply(MODEL)
    state.cancelled = True
    state.apply(Answer("How much is Team?", REFUSAL, True))  # what a model cut short may still send
    state.apply(AnswerSentence("Late sentence.", ()))
    html = render_html(state)
    assert "Team is €12 a seat" in html and "Late sentence" not in html
    assert REFUSAL_TITLE not in html and REFUSAL not in html
    assert status_text(state) == "Stopped."
    assert "Team is €12 a seat each month.[2]" in to_markdown(state)


def test_a_stop_before_any_model_sentence_keeps_the_draft() -> None:
    state = drafted()
    state.apply(GenerationProgress("reading", 100, 610, 0, 256))
    state.cancelled = True
    html = render_html(state)
    assert "The Team plan costs €12" in html and STOPPED_DRAFT_NOTE in html
    assert status_text(state) == "Stopped."


def test_a_stop_with_nothing_verified_says_so_plainly() -> None:
    state = AnswerState("q")
    state.apply(EvidenceReady((_hit("/kb/a.md", 1),)))
    state.cancelled = True
    html = render_html(state)
    assert STOPPED_EMPTY in html and REFUSAL_TITLE not in html
