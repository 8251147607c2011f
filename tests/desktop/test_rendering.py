"""Pure parts: answer HTML and Markdown, PDF line mapping, highlighting rules, folder state labels."""

from __future__ import annotations

from pathlib import Path

from desktop.answer_format import AnswerState, render_html, status_text, to_markdown
from desktop.indexing import FolderView, _escape_glob, _under
from desktop.widgets.highlight import kind_for, rules_for
from desktop.widgets.preview import LoadedSource, SourceTarget, block_span, gutter_labels, load_source
from engine.events import Answer, AnswerSentence, Citation, EvidenceReady, Hit


def _hit(path: str = "/kb/a.md", start: int = 3) -> Hit:
    return Hit(1, path, start, start + 2, None, "A", "text", 1.0, "**text**")


def test_sentences_carry_links_per_citation() -> None:
    state = AnswerState("q")
    cite = Citation(2, "/kb/a.md", 3, 4, None, "quote <b>")
    state.apply(EvidenceReady((_hit(), _hit())))
    state.apply(AnswerSentence("Fish & chips.", (cite, cite)))
    html = render_html(state)
    assert "Fish &amp; chips." in html
    assert 'href="cite:0:0"' in html and 'href="cite:0:1"' in html
    assert status_text(state) == "Writing the answer…"


def test_markdown_of_a_refusal_lists_the_closest_evidence() -> None:
    state = AnswerState("q")
    state.apply(Answer("q", "Not found in the provided documents.", True, evidence=(_hit(),)))
    text = to_markdown(state)
    assert "Not found in the provided documents." in text
    assert "- [1] /kb/a.md:3-5" in text


def test_markdown_of_an_answer_lists_the_evidence_it_read_after_what_it_cites() -> None:
    state = AnswerState("q")
    state.apply(EvidenceReady((_hit(), _hit("/kb/b.md", 7), _hit("/kb/c.md", 9))))
    state.apply(
        Answer(
            "q",
            "Fish.",
            False,
            sentences=(AnswerSentence("Fish.", (Citation(2, "/kb/b.md", 7, 7, None, "Fish"),)),),
        )
    )
    text = to_markdown(state)
    sources = text.split("Sources:\n", 1)[1]
    assert sources.startswith('[2] /kb/b.md:7 — "Fish"'), sources
    assert "Also read, not cited:\n  [1] /kb/a.md:3-5\n  [3] /kb/c.md:9-11" in sources


def test_a_quote_of_several_lines_shows_as_preformatted_and_copies_as_a_code_block() -> None:
    state = AnswerState("q")
    state.apply(EvidenceReady((_hit(),)))
    code = AnswerSentence(">>> deque([1])\ndeque([1])", (Citation(1, "/kb/a.md", 3, 4, None, "q"),))
    said = AnswerSentence("Deques are unbounded.", (Citation(1, "/kb/a.md", 2, 2, None, "q"),))
    state.apply(Answer("q", "", False, sentences=(said, code, said)))
    assert "<pre>&gt;&gt;&gt; deque([1])\ndeque([1])</pre>" in render_html(state)
    body = to_markdown(state).split("\n\n", 1)[1].split("Sources:", 1)[0]
    assert body == (
        "Deques are unbounded.[1]\n\n    >>> deque([1])\n    deque([1])\n\n[1]\n\n"
        "Deques are unbounded.[1]\n\n"
    ), body


def test_a_lead_in_quoted_with_its_code_shows_as_prose_above_the_block() -> None:
    """ "To install it, run the following command:" with the command: the sentence reads as prose, the
    command as code (in the window, in the copied Markdown and in the engine's rendered text); a quote
    whose first line is code ("def f(x):") stays one block."""
    from engine.answer.contract import render

    state = AnswerState("q")
    state.apply(EvidenceReady((_hit(),)))
    lead = AnswerSentence(
        "To install it, run the following command:\npip install foo",
        (Citation(1, "/kb/a.md", 2, 4, None, "q"),),
    )
    code = AnswerSentence("def f(x):\n    return x", (Citation(1, "/kb/a.md", 6, 7, None, "q"),))
    state.apply(Answer("q", "", False, sentences=(lead, code)))
    assert "To install it, run the following command:<br><pre>pip install foo</pre>" in render_html(state)
    assert "<pre>def f(x):\n    return x</pre>" in render_html(state)
    state = AnswerState("q")
    state.apply(EvidenceReady((_hit(),)))
    state.apply(Answer("q", "", False, sentences=(lead,)))
    body = to_markdown(state).split("\n\n", 1)[1].split("Sources:", 1)[0]
    assert body == "To install it, run the following command:\n\n    pip install foo\n\n[1]\n\n", body
    assert render([lead, code]) == (
        "To install it, run the following command:\n\n    pip install foo\n\n[1]\n\n"
        "    def f(x):\n        return x\n\n[1]"
    )


def test_pdf_citations_map_through_page_markers() -> None:
    index = {(1, 1): 1, (1, 2): 2, (2, 1): 4, (2, 2): 5, (2, 3): 6}
    source = LoadedSource("/kb/x.pdf", "", "text", ".pdf", index)
    assert block_span(source, SourceTarget("/kb/x.pdf", 2, 3, page=2)) == (5, 6)
    assert block_span(source, SourceTarget("/kb/x.pdf", 9, 9, page=2)) == (3, 3)  # unknown line: the marker
    assert SourceTarget("/kb/x.pdf", 2, 3, page=2).where == "page 2, lines 2–3"


def test_an_extracted_documents_gutter_numbers_the_lines_citations_name(tmp_path: Path) -> None:
    """A message's extracted text is shown with a blank line after each header and paragraph: the gutter
    numbers each line as a citation does ("lines 5-6"), not the shown rows (which would read 9-10)."""
    path = tmp_path / "note.eml"
    path.write_bytes(
        b"From: ann@example.net\r\nSubject: Keys\r\nDate: Tue, 04 Mar 2025 09:12:00 +0000\r\n\r\n"
        b"Hi,\r\n\r\nSpare keys are with Frank.\r\nHe is at number 12.\r\n"
    )
    source = load_source(str(path))
    labels = gutter_labels(source)
    assert labels is not None
    rows = source.text.split("\n")
    shown = {rows[block]: label for block, label in labels.items()}
    assert shown["Spare keys are with Frank."] == "5" and shown["He is at number 12."] == "6"
    assert all(rows[block].strip() for block in labels)  # a blank row shows no number
    assert block_span(source, SourceTarget(str(path), 5, 6)) == (
        rows.index("Spare keys are with Frank."),
        rows.index("He is at number 12."),
    )
    assert gutter_labels(LoadedSource("/kb/x.md", "", "markdown", ".md", None)) is None


def test_text_preview_keeps_the_files_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one\r\ntwo\rthree\nfour\xe2\x80\xa9five\n")
    source = load_source(str(path))
    assert source.text.split("\n") == ["one", "two", "three", "four five"]


def test_highlighting_rules_by_kind() -> None:
    assert kind_for(".MD") == "markdown" and kind_for(".py") == "python" and kind_for(".go") == "code"
    assert kind_for(".txt") == "text" and rules_for("text") == []
    python = rules_for("python")
    assert any(rule.pattern.search("def f():") for rule in python)


def test_folder_labels_and_paths() -> None:
    assert FolderView("/kb", state="vectors", percent=40).label == "vectors 40%"
    assert FolderView("/kb", state="watching").label == "watching"
    assert _under("/kb/a/b.md", "/kb") and not _under("/kbx/a.md", "/kb")
    assert _escape_glob("a[1]*.md") == "a\\[1\\]\\*.md"
