"""The chunker: structure-aware splitting, checked by examples and by Hypothesis invariants."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.answer import contract
from engine.events import Chunk, Document, Hit, Line, decode_lines, encode_lines
from engine.ingest import chunker as chunker_module
from engine.ingest.chunker import approx_tokens, chunk
from engine.ingest.extract import extract

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def doc_of(text: str, kind: str = "text") -> Document:
    return Document(tuple(Line(line, number) for number, line in enumerate(text.split("\n"), 1)), kind=kind)


def check_invariants(doc: Document, chunks: list[Chunk], limit: int, count: Callable[[str], int]) -> None:
    """(a) coverage, (b) exact text map-back, (d) order, (e) budget, and no blank chunk."""
    for piece in chunks:
        assert piece.start_line <= piece.end_line
        assert piece.text.strip(), "a chunk is entirely blank"
        numbers = decode_lines(piece.lines) or range(piece.start_line, piece.end_line + 1)
        text_of = {line.line: line.text for line in doc.lines if line.page == piece.page}
        lines = [text_of[n] for n in numbers]  # the lines its line map names (one run when it has none)
        if not piece.lines and piece.start_line == piece.end_line and piece.text != lines[0]:  # a piece of
            # an over-long line
            assert piece.text in lines[0] and (count(piece.text) <= limit or len(piece.text) <= 16)
        else:
            assert piece.text == "\n".join(lines)
            assert count(piece.text) <= limit or piece.start_line == piece.end_line
    for line in doc.lines:  # the pieces of a line hold all of it but the spaces they were cut at
        pieces = [p.text for p in chunks if p.page == line.page and p.start_line == p.end_line == line.line]
        if len(pieces) > 1:
            assert "".join(pieces).replace(" ", "") == line.text.replace(" ", "")
    keys = [(piece.page or 0, piece.start_line) for piece in chunks]
    assert keys == sorted(keys)
    for line in doc.lines:
        if line.text.strip():
            assert any(
                piece.page == line.page and piece.start_line <= line.line <= piece.end_line
                for piece in chunks
            ), f"line {line} is in no chunk"


# ------------------------------------------------------------------------------------------ properties

WORDS = st.sampled_from(
    [
        "alpha",
        "beta",
        "Install",
        "the",
        "quick",
        "internationalisation",
        "x",
        "(",
        ")",
        ":",
        "=",
        "42",
        "é",
        "日本",
    ]
)
MARKUP = st.sampled_from(
    [
        "```",
        "```python",
        "~~~",
        "---",
        "=====",
        "# Title",
        "## Sub section",
        "### Deep",
        "def f(x):",
        "class A:",
        "    return x",
        "@decorator",
        "# comment",
        "func main() {",
        "}",
        "fn run() -> u8 {",
        "export const x = 1",
        "\t",
        "   ",
    ]
)
LINE = st.one_of(
    st.just(""),
    MARKUP,
    st.lists(WORDS, min_size=1, max_size=12).map(" ".join),
    st.lists(WORDS, min_size=40, max_size=90).map(" ".join),
    st.text(st.characters(exclude_characters="\r\n", exclude_categories=["Cs"]), max_size=30),
)
KINDS = st.sampled_from(["text", "markdown", "rst", "code", "python", "chat", "table", "unknown"])
COUNTERS: list[Callable[[str], int]] = [approx_tokens, lambda text: len(text) // 4 + 1]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(LINE, max_size=60),
    kind=KINDS,
    limit=st.integers(min_value=3, max_value=80),
    overlap=st.integers(min_value=0, max_value=3),
    counter=st.sampled_from(COUNTERS),
)
def test_invariants_for_line_documents(
    lines: list[str], kind: str, limit: int, overlap: int, counter: Callable[[str], int]
) -> None:
    doc = Document(tuple(Line(text, number) for number, text in enumerate(lines, 1)), kind=kind)
    chunks = chunk(doc, max_tokens=limit, count_tokens=counter, overlap_lines=overlap)
    check_invariants(doc, chunks, limit, counter)
    assert chunks == chunk(doc, max_tokens=limit, count_tokens=counter, overlap_lines=overlap)  # (c)


PAGE = st.lists(st.one_of(st.just(""), st.lists(WORDS, min_size=1, max_size=15).map(" ".join)), max_size=15)


@settings(max_examples=100, deadline=None)
@given(pages=st.lists(PAGE, max_size=5), limit=st.integers(min_value=3, max_value=60))
def test_invariants_for_paged_documents(pages: list[list[str]], limit: int) -> None:
    doc = Document(
        tuple(
            Line(text, number, page)
            for page, texts in enumerate(pages, 1)
            for number, text in enumerate(texts, 1)
        ),
        kind="pdf",
    )
    chunks = chunk(doc, max_tokens=limit)
    check_invariants(doc, chunks, limit, approx_tokens)
    assert {piece.page for piece in chunks} <= set(range(1, len(pages) + 1))


SNIPPETS = st.sampled_from(
    [
        "import os\nimport sys",
        "CONSTANT = 1  # a module constant",
        "# leading comment\n# more\ndef helper(a, b):\n    '''Add.'''\n    return a + b",
        "@property\n@other(1)\ndef decorated(self):\n    return 1",
        "async def fetch():\n    await thing()\n\n    return None",
        "class Small:\n    x = 1\n\n    def m(self):\n        return self.x",
        "class Big(Base):\n    '''Doc.'''\n\n"
        + "\n\n".join(
            f"    def method_{n}(self, value):\n        return value * {n} + {n}" for n in range(12)
        )
        + "\n\n    class Inner:\n        pass",
        "if __name__ == '__main__':\n    main()",
        "",
        "x = [\n    1,\n    2,\n]",
    ]
)


@settings(max_examples=100, deadline=None)
@given(snippets=st.lists(SNIPPETS, max_size=10), limit=st.integers(min_value=5, max_value=120))
def test_invariants_for_python(snippets: list[str], limit: int) -> None:
    doc = doc_of("\n\n".join(snippets), kind="python")
    chunks = chunk(doc, max_tokens=limit)
    check_invariants(doc, chunks, limit, approx_tokens)


def test_invariants_on_real_source_files() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        doc = extract(path, path.read_bytes())
        for limit in (40, 200):
            check_invariants(doc, chunk(doc, max_tokens=limit), limit, approx_tokens)


# ------------------------------------------------------------------------------------------ markdown


def test_markdown_heading_paths_and_fences() -> None:
    doc = doc_of(
        "# Install\n\nPick your system.\n\n## Linux\n\n```sh\n# not a heading\napt install citeline\n```\n\n"
        "## macOS\n\nbrew install citeline\n\n# Usage\n\nRun it.",
        kind="markdown",
    )
    chunks = chunk(doc, max_tokens=25)
    assert [(piece.heading, piece.start_line) for piece in chunks] == [
        ("Install", 1),
        ("Install > Linux", 5),
        ("Install > macOS", 12),
        ("Usage", 16),
    ]
    assert chunks[1].text.startswith("## Linux\n")  # the heading path is not injected into the text


def test_small_sibling_sections_merge_under_their_common_parent() -> None:
    doc = doc_of(
        "# Install\n## Linux\napt install x\n## macOS\nbrew install x\n# Usage\nrun", kind="markdown"
    )
    chunks = chunk(doc, max_tokens=200)
    assert [(piece.heading, piece.start_line, piece.end_line) for piece in chunks] == [
        ("Install", 1, 5),
        ("Usage", 6, 7),
    ]


def test_lone_heading_travels_with_the_next_section() -> None:
    doc = doc_of("Intro text here.\n\n# Part\n\n## Chapter\n\nBody of the chapter.", kind="markdown")
    chunks = chunk(doc, max_tokens=15)
    assert [(piece.heading, piece.text) for piece in chunks] == [
        ("", "Intro text here."),
        ("Part > Chapter", "# Part\n\n## Chapter\n\nBody of the chapter."),
    ]


def test_rst_titles_give_headings() -> None:
    doc = doc_of(
        "=====\nGuide\n=====\n\nIntro words here.\n\nInstall\n-------\n\nSteps one two three.\n\n"
        "Linux\n~~~~~\n\napt install it now.",
        kind="rst",
    )
    chunks = chunk(doc, max_tokens=15)
    assert [piece.heading for piece in chunks] == ["Guide", "Guide > Install", "Guide > Install > Linux"]
    assert chunks[0].start_line == 1


# -------------------------------------------------------------------------------------------- python

PYTHON = '''"""Module doc."""

import os

# How many retries.
RETRIES = 3


# Fetch with retries.
@cached
@traced(level=2)
def fetch(url):
    return os.environ.get(url)


class Engine:
    """The facade."""

    limit = 10

    def search(self, query):
        words = query.split()
        hits = [word for word in words if word]
        return hits[: self.limit]

    # Ask with citations.
    def ask(self, question):
        answer = self.search(question)
        return " ".join(answer)


if __name__ == "__main__":
    fetch("x")
'''


def test_python_splits_at_definitions_with_decorators_and_comments() -> None:
    doc = doc_of(PYTHON, kind="python")
    chunks = chunk(doc, max_tokens=45)
    assert [piece.heading for piece in chunks] == ["", "fetch", "Engine", "Engine.search", "Engine.ask", ""]
    by_heading = {piece.heading: piece for piece in chunks}
    assert chunks[0].text.endswith("# How many retries.\nRETRIES = 3")
    assert by_heading["fetch"].text.startswith("# Fetch with retries.\n@cached\n@traced(level=2)\ndef fetch")
    assert by_heading["Engine"].text == 'class Engine:\n    """The facade."""\n\n    limit = 10'
    assert by_heading["Engine.search"].text.startswith("    def search")
    assert by_heading["Engine.ask"].text.startswith("    # Ask with citations.\n    def ask")
    assert chunks[-1].text == 'if __name__ == "__main__":\n    fetch("x")'
    check_invariants(doc, chunks, 45, approx_tokens)


def test_loose_module_code_travels_with_the_next_definition() -> None:
    chunks = chunk(doc_of(PYTHON, kind="python"), max_tokens=60)
    assert chunks[0].heading == "fetch"
    assert chunks[0].text.startswith('"""Module doc."""')


def test_class_that_fits_stays_whole() -> None:
    chunks = chunk(doc_of(PYTHON, kind="python"), max_tokens=200)
    assert "Engine" in [piece.heading for piece in chunks]
    assert not any(piece.heading.startswith("Engine.") for piece in chunks)


def test_python_that_does_not_parse_falls_back_to_the_heuristic() -> None:
    doc = doc_of("def broken(:\n    pass\n\ndef fine():\n    return '\\d'\n", kind="python")
    chunks = chunk(doc, max_tokens=12)
    assert [piece.heading for piece in chunks] == ["broken", "fine"]


def test_invalid_escape_in_python_does_not_warn() -> None:
    doc = doc_of("def f():\n    return '\\d'\n", kind="python")  # a SyntaxWarning would fail the test run
    assert [piece.heading for piece in chunk(doc)] == ["f"]


# ---------------------------------------------------------------------------------------------- code

GO = """package main

import "fmt"

// Server answers requests.
type Server struct {
\tname string
}

// Handle serves one request.
func (s *Server) Handle(w Writer, r *Request) {
\tfmt.Println(s.name)
\tfmt.Println(r.URL)
}

func main() {
\ts := &Server{name: "x"}
\ts.Handle(nil, nil)
}
"""


def test_code_heuristic_splits_at_declarations() -> None:
    chunks = chunk(doc_of(GO, kind="code"), max_tokens=60)
    assert [piece.heading for piece in chunks] == ["Server", "Handle", "main"]
    assert chunks[0].text.startswith("package main")  # loose code travels with the declaration after it
    assert chunks[1].text.startswith("// Handle serves one request.")


# ------------------------------------------------------------------------------------- prose, pages


def test_long_paragraph_is_cut_at_lines_with_overlap() -> None:
    lines = [f"sentence number {n} says something" for n in range(1, 21)]
    chunks = chunk(doc_of("\n".join(lines)), max_tokens=30, overlap_lines=1)
    assert len(chunks) > 2
    for first, second in pairwise(chunks):
        assert second.start_line == first.end_line  # one line repeated
    assert (
        chunk(doc_of("\n".join(lines)), max_tokens=30, overlap_lines=0)[1].start_line
        == chunks[0].end_line + 1
    )


def test_prose_prefers_paragraph_breaks_without_overlap() -> None:
    paragraph = "word " * 20
    text = "\n".join([paragraph, paragraph, "", paragraph, paragraph, "", paragraph])
    chunks = chunk(doc_of(text), max_tokens=50)
    assert [(piece.start_line, piece.end_line) for piece in chunks] == [(1, 2), (4, 5), (7, 7)]


def test_a_cut_inside_a_paragraph_moves_above_the_comment_it_would_end_on() -> None:
    """A comment is about the line below it: a window that would end on comment lines ends above them,
    and the next window opens with the comment and what it is about (a tsconfig's setting and why)."""
    settings = [f'    "option{n}": {n},' for n in range(1, 13)]
    comment = ["    // off here only: the grid indexes arrays", "    // everywhere"]
    lines = [*settings[:5], *comment, *settings[5:]]
    chunks = chunk(Document(tuple(Line(t, n) for n, t in enumerate(lines, 1)), kind="code"), max_tokens=70)
    ends = [lines[piece.end_line - 1] for piece in chunks]
    assert not any(end.lstrip().startswith("//") for end in ends[:-1]), ends
    commented = next(piece for piece in chunks if "// everywhere" in piece.text)
    assert '"option6": 6' in commented.text and "// off here only" in commented.text


def test_last_two_windows_are_balanced() -> None:
    lines = [f"line {n} alpha beta" for n in range(1, 13)]
    chunks = chunk(doc_of("\n".join(lines)), max_tokens=40, overlap_lines=0)
    sizes = [piece.end_line - piece.start_line + 1 for piece in chunks]
    assert sum(sizes) == 12
    assert min(sizes) >= 4


def test_a_line_longer_than_the_budget_is_cut_into_chunks_of_whole_words_cited_as_that_line() -> None:
    long_line = "token " * 100
    chunks = chunk(doc_of(f"short one\n{long_line}\nshort two"), max_tokens=20)
    assert chunks[0].text == "short one" and chunks[-1].text == "short two"
    middle = chunks[1:-1]
    assert len(middle) > 3 and all(c.start_line == c.end_line == 2 for c in middle)
    assert all(approx_tokens(c.text) <= 20 and c.text.split(" ")[0] == "token" for c in middle)
    assert " ".join(c.text for c in middle).strip() == long_line.strip()


def test_a_paragraph_on_one_line_is_cut_between_its_sentences() -> None:
    sentences = [f"Sentence {n} says that the {n}th okapi grazes near the river at dawn." for n in range(30)]
    line = " ".join(sentences)
    chunks = chunk(doc_of(f"# Okapis\n\n{line}\n"), max_tokens=60)
    pieces = [c.text for c in chunks if c.start_line == 3]
    assert len(pieces) > 3 and all(approx_tokens(p) <= 60 for p in pieces)
    assert all(p.endswith(".") and p.startswith("Sentence") for p in pieces)
    assert " ".join(pieces) == line


def test_a_megabyte_line_becomes_bounded_chunks() -> None:
    line = "".join(f'{{"id":{n},"name":"okapi"}},' for n in range(40_000))  # minified: no spaces at all
    chunks = chunk(doc_of(line), max_tokens=200)
    assert max(len(c.text) for c in chunks) <= 200 * 4 and "".join(c.text for c in chunks) == line


def test_pdf_chunks_never_span_pages() -> None:
    doc = Document(
        (Line("page one text", 1, 1), Line("more", 2, 1), Line("page two text", 1, 2)),
        kind="pdf",
    )
    chunks = chunk(doc, max_tokens=200)
    assert [(piece.page, piece.text) for piece in chunks] == [
        (1, "page one text\nmore"),
        (2, "page two text"),
    ]


def test_tables_group_rows_without_overlap() -> None:
    rows = [Line("a; b", 1), *(Line(f"a={n}; b={n * 2}", n + 1) for n in range(1, 30))]
    chunks = chunk(Document(tuple(rows), kind="table"), max_tokens=40)
    assert len(chunks) > 1
    assert all(second.start_line == first.end_line + 1 for first, second in pairwise(chunks))


def test_blank_documents_have_no_chunks() -> None:
    assert chunk(doc_of("\n   \n\t\n")) == []
    assert chunk(Document(())) == []


def test_approx_tokens_counts_words_punctuation_and_digits() -> None:
    assert approx_tokens("") == 0
    assert approx_tokens("hello, world!") == 4
    assert approx_tokens("getUserName") == 3
    assert approx_tokens("1234567") == 3
    assert approx_tokens("日本語") == 3


def test_token_counter_keeps_counting_when_its_cache_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    from tokenizers import Tokenizer

    from engine.ingest import tokens
    from tests.conftest import MODEL_CACHE

    tok = Tokenizer.from_file(str(MODEL_CACHE / "minilm-l6-v2.tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    monkeypatch.setattr(tokens, "CACHE_LIMIT", 3)
    count = tokens.TokenCounter(tok)
    assert count("alpha\nbeta\n") == 2
    assert count("alpha\nunbelievable gamma") == 1 + len(
        tok.encode("unbelievable gamma", add_special_tokens=False).ids
    )
    assert len(count._cache) <= 3


def test_a_chunk_of_lines_that_do_not_follow_one_another_carries_its_line_map() -> None:
    """A document read into other lines than it is written in (HTML, a notebook whose outputs sit above
    its code in the file) gives each chunk the line of every text line; a chunk of consecutive lines,
    none. A hit answers which file line its n-th text line came from, and which text line a file line is."""
    doc = Document(
        (
            Line("# Fit", 7),
            Line("```python", 10),
            Line("fit()", 23),
            Line("```", 25),
            Line("R-squared of the fit: 0.93", 19),
        ),
        kind="markdown",
    )
    (only,) = chunk(doc, max_tokens=200)
    assert (only.start_line, only.end_line, only.lines) == (7, 25, "7,10,23,25,19")
    assert decode_lines(only.lines) == (7, 10, 23, 25, 19)
    assert encode_lines([3, 4, 5, 9, 10, 2]) == "3-5,9-10,2" and decode_lines("3-5,9-10,2") == (
        3,
        4,
        5,
        9,
        10,
        2,
    )
    plain = chunk(
        Document((Line("alpha beta gamma", 4), Line("delta epsilon zeta", 5)), kind="text"), max_tokens=200
    )[0]
    assert plain.lines == ""
    hit = Hit(1, "fit.ipynb", 7, 25, None, "", only.text, 1.0, lines=only.lines)
    assert [hit.line_at(i) for i in range(5)] == [7, 10, 23, 25, 19]
    assert (hit.index_of(23), hit.index_of(19), hit.index_of(11), hit.index_of(99)) == (2, 4, 2, 5)
    assert contract.locate("R-squared of the fit: 0.93", hit) == (19, 19)
    assert contract.locate("fit() ``` R-squared of the fit", hit) == (19, 25)
    flat = Hit(2, "notes.txt", 4, 5, None, "", plain.text, 1.0)
    assert (flat.line_at(1), flat.index_of(5), contract.locate("delta epsilon zeta", flat)) == (5, 1, (5, 5))


def test_a_chunk_that_opens_inside_a_fenced_block_opens_with_its_fence() -> None:
    """A block longer than a chunk (a long example, a notebook's printed table) is cut; the chunk after the
    cut opens with the block's fence line, cited at its own line, so the rest reads as the block it is
    (its closing fence no longer reads as an opening one, and the prose after it as code)."""
    rows = [f"x{i:02d}   {i * 1.5:8.3f}   {i * 0.01:6.3f}" for i in range(40)]
    lines = ["# Fit", "", "The fit printed:", "```output", *rows, "```", "", "The slope is small."]
    doc = Document(tuple(Line(text, n) for n, text in enumerate(lines, 1)), kind="markdown")
    chunks = chunk(doc, max_tokens=60)
    assert len(chunks) > 2
    inside = [piece for piece in chunks[1:] if piece.text.startswith("```output\n")]
    assert len(inside) >= 2
    assert all(piece in inside or piece.text.startswith("The slope") for piece in chunks[1:])
    for piece in inside:  # each opens inside the block: with its fence, cited at its own line (4)
        assert piece.text.split("\n", 1)[0] == "```output", piece.text[:40]
        assert decode_lines(piece.lines)[0] == 4 and piece.start_line > 4
        assert piece.text.count("```") in (1, 2) and approx_tokens(piece.text) <= 60
    closing = next(piece for piece in chunks if piece.text.endswith("```") or "```\n\n" in piece.text)
    assert closing.text.startswith("```output")  # the closing fence closes what the chunk opened
    assert chunks[0].lines == ""  # lines 1.. one after another
    code = Document(
        (Line("```python", 1), Line("x = 1", 2), Line("```", 3), Line("Done here.", 4)), "markdown"
    )
    assert [c.text for c in chunk(code, max_tokens=200)] == ["```python\nx = 1\n```\nDone here."]


def test_a_carried_fence_right_above_the_chunk_is_cited_where_it_stands() -> None:
    """A chunk that opens on the line right under its block's fence carries that fence with no gap: its
    line map stays empty, so its span starts at the fence, and every line is cited where it stands."""
    page = chunker_module._Page.of(
        [Line("```python", 7), Line("x = 1", 8), Line("y = 2", 9), Line("```", 10)],
        chunker_module._Budget(approx_tokens, 200, 1),
    )
    made = chunker_module._to_chunk(page, 1, 3, "", carried=(0,))
    assert (made.text.split("\n")[0], made.lines, made.start_line, made.end_line) == ("```python", "", 7, 10)
    hit = Hit(1, "a.md", made.start_line, made.end_line, None, "", made.text, 1.0, lines=made.lines)
    assert contract.locate("x = 1 y = 2", hit) == (8, 9)


def test_a_chunk_opening_among_a_long_tables_rows_carries_its_header_and_separator() -> None:
    """A long Markdown table is cut between chunks; one opening among its rows read "| 2025-11-17 | Elliot
    Saarinen | Tomasz Reyes |" with nothing to say which column is the primary. It now opens with the
    table's header and separator lines (in its text and line map, not its span), so each row is read and
    quoted under its columns' names."""
    rows = [f"| 2025-{month:02d}-{day:02d} | Person {n} | Backup {n} | note {n} |" for n, (month, day) in
            enumerate([(m, d) for m in (10, 11, 12) for d in (6, 13, 20, 27)], 1)]  # fmt: skip
    lines = [Line("# Rota", 1), Line("", 2), Line("| week of | primary | secondary | notes |", 3)]
    lines += [Line("|---|---|---|---|", 4), *(Line(row, n) for n, row in enumerate(rows, 5))]
    lines += [Line("", 17), Line("Swaps are fine.", 18)]
    chunks = chunk(Document(tuple(lines), "markdown"), max_tokens=80)
    later = [c for c in chunks if c.start_line > 5 and c.text.startswith("| week of")]
    assert later, [c.text[:40] for c in chunks]
    for piece in later:
        assert piece.text.split("\n")[1] == "|---|---|---|---|"
        assert decode_lines(piece.lines)[:2] == (3, 4) and piece.start_line > 5
    hit = Hit(1, "rota.md", later[0].start_line, later[0].end_line, None, "", later[0].text, 1.0,
              lines=later[0].lines)  # fmt: skip
    first_row = later[0].text.split("\n")[2]
    assert contract.locate(first_row.strip("| ").split(" |")[0], hit) == (later[0].start_line,) * 2
