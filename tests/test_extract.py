"""Extractors on real files written to tmp_path: every Line must point at the source line it came from."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import Engine
from engine.backends.extractive import candidates, plain, titles
from engine.errors import ExtractError, MissingDependency
from engine.eval.ocrset import assemble_pdf, lines_pdf
from engine.events import Document, Hit, Line
from engine.ingest import extract as extract_module
from engine.ingest.chunker import chunk
from engine.ingest.extract import (
    TextExtractor,
    decode_text,
    extract,
    extractor_for,
    register,
)
from engine.ingest.pdfpages import text_boxes
from tests.conftest import TYPESET, notebook, printed_cell, typeset_pdf


def read(path: Path) -> Document:
    return extract(path, path.read_bytes())


def source_line(path: Path, number: int, encoding: str = "utf-8") -> str:
    """Line `number` (1-based) of the file as an editor shows it."""
    return path.read_text(encoding=encoding).splitlines()[number - 1]


def texts(doc: Document) -> list[str]:
    return [line.text for line in doc.lines]


# ------------------------------------------------------------------------------------------ registry


def test_extractor_lookup_by_suffix_name_and_prefix() -> None:
    assert extractor_for(Path("a/b/Script.PY")) is extractor_for(Path("x.py"))
    assert extractor_for(Path("Makefile")) is not None
    assert extractor_for(Path("makefile")) is extractor_for(Path("Makefile"))
    assert extractor_for(Path("Dockerfile.dev")) is extractor_for(Path("Dockerfile"))
    assert extractor_for(Path("archive.7z")) is None  # (images are read by OCR: tests/test_ocr.py)
    assert extractor_for(Path("README")) is None


def test_unsupported_file_raises_extract_error() -> None:
    with pytest.raises(ExtractError, match="unsupported file type"):
        extract(Path("archive.7z"), b"7z\xbc\xaf\x27\x1c\x00")


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registrations made by a test vanish after it."""
    monkeypatch.setattr(extract_module, "_REGISTRY", dict(extract_module._REGISTRY))


@pytest.mark.usefixtures("scratch_registry")
def test_register_a_third_party_extractor() -> None:
    class Shouting:
        def extract(self, path: Path, data: bytes) -> Document:
            return Document((Line(data.decode().upper(), 1),), kind="text")

    register([".shout"], Shouting())
    assert texts(extract(Path("a.SHOUT"), b"hi")) == ["HI"]
    with pytest.raises(ValueError):
        register(["."], Shouting())


def test_kinds_of_text_and_code(tmp_path: Path) -> None:
    cases = {"a.py": "python", "a.ts": "code", "Makefile": "code", "a.txt": "text", "a.rst": "rst"}
    for name, kind in cases.items():
        path = tmp_path / name
        path.write_text("one\ntwo\n")
        doc = read(path)
        assert (doc.kind, doc.lines) == (kind, (Line("one", 1), Line("two", 2)))


# ---------------------------------------------------------------------------------------- encodings


def test_decode_text_handles_boms_and_legacy_encodings() -> None:
    assert decode_text("\ufeffhé".encode()) == "hé"
    assert decode_text("hé wörld".encode("utf-16")) == "hé wörld"
    assert decode_text(b"\xfe\xff" + "hé wörld".encode("utf-16-be")) == "hé wörld"
    assert decode_text("hé wörld".encode("utf-32")) == "hé wörld"
    french = "Le café était très réputé à Montréal; déjà célèbre, élégant et raffiné."
    assert decode_text(french.encode("latin-1")) == french


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=300))
def test_decode_text_never_raises(data: bytes) -> None:
    assert isinstance(decode_text(data), str)


def test_latin1_and_utf16_files_keep_line_numbers(tmp_path: Path) -> None:
    latin = tmp_path / "notes.txt"
    latin.write_bytes("première ligne\r\ndeuxième ligne, très française\r\n\r\nquatrième".encode("latin-1"))
    doc = read(latin)
    assert doc.lines[1] == Line("deuxième ligne, très française", 2)
    assert doc.lines[3] == Line("quatrième", 4)
    wide = tmp_path / "wide.log"
    wide.write_bytes("alpha\nbeta\rgamma\n".encode("utf-16"))
    assert read(wide).lines == (Line("alpha", 1), Line("beta", 2), Line("gamma", 3))


# ----------------------------------------------------------------------------------------- markdown


def test_markdown_front_matter_gives_title_and_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text('---\ntitle: "Setup guide"\ntags: [a]\n---\n# Install\n\nRun it.\n')
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Setup guide")
    assert doc.lines[0] == Line("# Install", 5)
    assert all(source_line(path, line.line) == line.text for line in doc.lines)


def test_mdx_drops_import_and_export_blocks(tmp_path: Path) -> None:
    path = tmp_path / "page.mdx"
    path.write_text(
        "import {Chart} from './chart'\nexport const meta = {\n  a: 1,\n}\n\n# Title\n\n"
        "```js\nimport x from 'y'\n```\n<Chart />\n"
    )
    doc = read(path)
    assert texts(doc)[:2] == ["", "# Title"]
    assert "import x from 'y'" in texts(doc)
    assert not any(text.startswith(("import {", "export")) for text in texts(doc))
    assert doc.title == "Title"


# --------------------------------------------------------------------------------------------- html


def test_html_keeps_visible_text_with_source_lines(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<!doctype html>\n<html><head>\n<title>My  page</title>\n<style>p { color: red }</style>\n"
        "<script>var hidden = 1;</script>\n</head>\n<body>\n<h1>Welcome</h1>\n"
        "<p>First <b>bold</b> words\ncontinue here &amp; there</p>\n"
        "<script>\nalert('no')\n</script>\n<ul><li>one</li><li>two</li></ul>\n</body></html>\n"
    )
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "My page")
    assert texts(doc) == ["# Welcome", "", "First bold words", "continue here & there", "", "- one", "- two"]
    for line in doc.lines:
        if line.text:
            raw = source_line(path, line.line)
            assert line.text.split()[-1] in raw
    assert not any("hidden" in text or "alert" in text or "color" in text for text in texts(doc))


def test_a_page_is_dated_by_its_meta_tags_under_its_first_heading(tmp_path: Path, engine: Engine) -> None:
    """A help centre's export states its date in <meta> (last-updated; Dublin Core, Open Graph and
    schema.org names too): read as a "Last updated:" line at the tag's line, under the page's heading,
    so the page is dated as a Markdown file saying so is; a publication date where no change date is
    given; a date that is no ISO date, or an export's own timestamp, is not the page's."""
    path = tmp_path / "kb" / "billing.html"
    path.parent.mkdir()
    path.write_text(
        '<html><head>\n<meta name="exported" content="2025-08-14T10:02:11Z">\n'
        '<meta name="last-updated" content="2025-05-27">\n<title>Billing</title></head>\n'
        "<body><h1>Plans and billing</h1>\n<p>Refunds within 14 days.</p></body></html>\n"
    )
    doc = read(path)
    assert texts(doc) == [
        "# Plans and billing",
        "",
        "Last updated: 2025-05-27",
        "",
        "Refunds within 14 days.",
    ]
    assert source_line(path, doc.lines[2].line) == '<meta name="last-updated" content="2025-05-27">'
    published = tmp_path / "post.html"
    published.write_text(
        '<meta property="article:published_time" content="2024-01-02T10:00:00Z">\n<meta name="date" '
        'content="2023-01-01">\n<p>Text.</p>'
    )
    assert texts(read(published)) == ["Published: 2024-01-02", "", "Text."]
    undated = tmp_path / "undated.html"
    undated.write_text(
        '<meta name="date" content="May 2024"><meta name="exported" content="2025-08-14">\n<p>Text.</p>'
    )
    assert texts(read(undated)) == ["Text."]
    card = tmp_path / "card.html"  # a related article's date, down the body, is not the page's
    card.write_text(
        '<h1>Page</h1><p>Text.</p><div itemscope><meta itemprop="datePublished" content="2014-03-01"></div>'
    )
    assert texts(read(card)) == ["# Page", "", "Text."]
    # indexed, the page is dated as its tag says
    engine.add_folder(path.parent)
    engine.run(engine.sync())
    assert engine.doc_facts(str(path)).effective == date(2025, 5, 27)


def test_a_saved_documentation_page_is_read_without_its_furniture_and_with_its_sections(
    tmp_path: Path,
) -> None:
    """A generated page (Sphinx's layout here) repeats its site's navigation, search box and footer around
    its text and marks each heading with a permalink: the page's own text is what is read, its headings as
    Markdown's (an API entry's anchored signature one level below its section's), so its chunks carry
    their section titles, and its code stays one fenced block."""
    path = tmp_path / "routing.html"
    path.write_text(
        "<html><head><title>URL Routing</title></head><body>\n"
        '<div class="related" role="navigation"><h3>Navigation</h3>\n<ul><li><a href="x.html">next</a> |</li>'
        "</ul></div>\n"
        '<div class="body" role="main">\n<section>\n'
        '<h1>URL Routing<a class="headerlink" href="#routing" title="Permalink">\u00b6</a></h1>\n'
        "<p>Rules are matched in order.</p>\n"
        '<section>\n<h2>Quickstart<a class="headerlink" href="#q">\u00b6</a></h2>\n'
        "<pre># a comment, not a heading\nurl_map = Map([\n    Rule('/')])\n</pre>\n"
        '<dl><dt id="bind">bind(server_name)<a class="headerlink" href="#bind">\u00b6</a></dt>\n'
        "<dd><p>Return a new adapter.</p></dd></dl>\n"
        "<ol><li>first step</li><li>second step</li></ol>\n"
        "<p>Kept <span hidden>not shown</span>text.</p>\n"
        "</section></section></div>\n"
        '<div role="search"><h3>Quick search</h3><form><input type="text"/></form></div>\n'
        "<footer>&copy; Copyright Pallets.</footer>\n"
        "</body></html>\n",
        encoding="utf-8",
    )
    doc = read(path)
    shown = [text for text in texts(doc) if text]
    assert shown == [
        "# URL Routing",
        "Rules are matched in order.",
        "## Quickstart",
        "```",
        "# a comment, not a heading",
        "url_map = Map([",
        "    Rule('/')])",
        "```",
        "### bind(server_name)",
        "Return a new adapter.",
        "1. first step",
        "2. second step",
        "Kept text.",
    ]
    assert source_line(
        path, next(line.line for line in doc.lines if line.text == "### bind(server_name)")
    ).startswith("<dl>")
    chunks = chunk(doc, max_tokens=24)
    assert {c.heading for c in chunks if "Map([" in c.text} == {"URL Routing > Quickstart"}


def test_a_heading_keeps_a_hash_of_its_own_and_a_stray_pre_close_fences_nothing(tmp_path: Path) -> None:
    path = tmp_path / "csharp.html"
    path.write_text("<h2>Using C#</h2>\n<p>Intro.</p></pre>\n<p>More.</p>", encoding="utf-8")
    assert [text for text in texts(read(path)) if text] == ["## Using C#", "Intro.", "More."]


def test_a_page_whose_furniture_never_closes_loses_no_text(tmp_path: Path) -> None:
    path = tmp_path / "broken.html"
    path.write_text(
        "<body><p>Intro.</p><nav><p>Everything after an unclosed nav.</p>\n<p>More.</p>", encoding="utf-8"
    )
    assert [text for text in texts(read(path)) if text] == [
        "Intro.",
        "Everything after an unclosed nav.",
        "More.",
    ]


def test_a_sphinx_source_copy_is_read_in_its_own_format(tmp_path: Path) -> None:
    """Sphinx publishes each page's source beside it as `_sources/page.rst.txt`: its titles are sections."""
    path = tmp_path / "_sources" / "routing.rst.txt"
    path.parent.mkdir()
    path.write_text("URL Routing\n===========\n\nRules are matched in order.\n", encoding="utf-8")
    assert read(path).kind == "rst"
    assert [c.heading for c in chunk(read(path))] == ["URL Routing"]
    assert extractor_for(Path("notes.2024.txt")) == extractor_for(Path("notes.txt"))


# ---------------------------------------------------------------------------------------------- pdf


make_pdf = lines_pdf  # the tests' name for it


def _encrypted(data: bytes, user: str, owner: str) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user, owner, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


PAGES = [["Quarterly report", "Revenue grew (a lot)"], ["Second page", "Costs", "Outlook"]]


def test_pdf_lines_carry_page_and_line(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(make_pdf(PAGES))
    doc = read(path)
    assert doc.kind == "pdf"
    assert doc.lines == (
        Line("Quarterly report", 1, 1),
        Line("Revenue grew (a lot)", 2, 1),
        Line("Second page", 1, 2),
        Line("Costs", 2, 2),
        Line("Outlook", 3, 2),
    )


def test_a_typeset_pdf_reads_as_its_page_shows(tmp_path: Path) -> None:
    path = tmp_path / "guide.pdf"
    path.write_bytes(typeset_pdf(TYPESET))
    assert texts(read(path)) == [
        "Papers must be submitted electronically.",
        "Copy the style file to approximate the final appear-",  # the page's own line break
        "ance of the journal; see Wikibooks1, a free textbook.",  # the mark sits on its line
        "Option Effect",
    ]
    assert [line.line for line in read(path).lines] == [1, 2, 3, 4]
    # a quote that runs over the hyphenated line end and the footnote mark is found on the page
    data = path.read_bytes()
    over = text_boxes(data, 1, "the final appear- ance of the journal; see Wikibooks1, a free")
    assert len(over) >= 2 and all(
        0 <= left < right <= 1 and 0 <= top < bottom <= 1 for left, top, right, bottom in over
    )
    assert {round(box[1], 2) for box in over} == {
        round(box[1], 2)
        for box in text_boxes(data, 1, "the final appear-") + text_boxes(data, 1, "ance of the")
    }
    assert text_boxes(data, 1, "submitted electronically") and not text_boxes(data, 1, "submitted by post")
    # a quote that writes the word whole (a model's) is found on both its lines too
    assert (
        len(text_boxes(data, 1, "the final appearance of the journal"))
        == len(text_boxes(data, 1, "the final appear- ance of the journal"))
        >= 2
    )


def test_a_pdf_is_read_without_pdfium_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without PDFium (a bare install), pypdf reads the text layer: the lines are there, a justified
    line's words run together (what PDFium is for)."""

    def missing(data: bytes, name: str = "") -> None:
        raise MissingDependency("pypdfium2", "ocr")

    monkeypatch.setenv("CITELINE_SANDBOX", "0")  # read in this process, where the patch is
    monkeypatch.setattr(extract_module.pdfpages, "marked_lines", missing)
    assert extract_module.readers()[".pdf"] == extract_module.PDF_READER  # PDFium itself is installed
    path = tmp_path / "report.pdf"
    path.write_bytes(make_pdf(PAGES))
    assert texts(read(path)) == [
        "Quarterly report",
        "Revenue grew (a lot)",
        "Second page",
        "Costs",
        "Outlook",
    ]
    path.write_bytes(typeset_pdf(TYPESET))
    assert texts(read(path))[:2] == [
        "Papersmustbesubmittedelectronically.",
        "Copy the style file to approximate the final appear-",
    ]


def test_a_sideways_pdf_page_keeps_its_lines(tmp_path: Path) -> None:
    """Lines set turned a quarter (a sideways table) sit side by side: each is still a line of its own."""
    path = tmp_path / "table.pdf"
    path.write_bytes(
        typeset_pdf(
            b"BT /F1 10 Tf 12 TL 0 1 -1 0 300 100 Tm (Run 11 took 12.5 s) Tj T* (Run 12 took 24 s) Tj ET"
        )
    )
    assert texts(read(path)) == ["Run 11 took 12.5 s", "Run 12 took 24 s"]


def titled_pdf(pages: list[bytes]) -> bytes:
    """Pages drawn by their streams with /F1 Times-Roman (the text) and /F2 Helvetica-Bold (titles)."""
    kids = " ".join(f"{4 + 2 * n} 0 R" for n in range(len(pages))).encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
    ]
    for n, stream in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
            b"/F2 %d 0 R >> >> /Contents %d 0 R >>" % (4 + 2 * len(pages), 5 + 2 * n)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    return assemble_pdf(objects)


def test_a_pdfs_titles_are_marked_and_its_chunks_carry_them(tmp_path: Path) -> None:
    """A PDF's titles, set bold or larger, are lines of their own level (a numbered one as deep as its
    number); its chunks carry the titles open over a page break, and no sentence is read with its title."""
    first = (
        b"BT /F2 14 Tf 16 TL 72 740 Td (Using the paper class) Tj ET "
        b"BT /F2 10 Tf 12 TL 72 700 Td (1. Introduction) Tj "
        b"/F1 10 Tf T* (The class sets papers in two columns for the journal.) Tj "
        b"T* (It needs no options for a first draft of the paper.) Tj "
        b"/F2 10 Tf T* (2. Installing) Tj "
        b"/F1 10 Tf T* (Copy the class file next to your paper before you start.) Tj ET"
    )
    second = (
        b"BT /F1 10 Tf 12 TL 72 720 Td (It also works from a system folder that TeX searches.) Tj "
        b"/F2 10 Tf T* (2.1 Options) Tj "
        b"/F1 10 Tf T* (The draft option marks every overfull line in the margin.) Tj ET"
    )
    path = tmp_path / "guide.pdf"
    path.write_bytes(titled_pdf([first, second]))
    doc = read(path)
    assert [(line.text, line.level) for line in doc.lines if line.level] == [
        ("Using the paper class", 1),
        ("1. Introduction", 1),
        ("2. Installing", 1),
        ("2.1 Options", 2),
    ]
    assert Line("It also works from a system folder that TeX searches.", 1, 2) in doc.lines  # as before
    chunks = chunk(doc, max_tokens=40)
    heads = {c.text.split("\n")[0]: c.heading for c in chunks}
    assert heads["It also works from a system folder that TeX searches."] == "2. Installing"
    assert heads["2.1 Options"] == "2. Installing > 2.1 Options"
    assert heads["1. Introduction"] == "1. Introduction"
    hits = [
        Hit(n, str(path), c.start_line, c.end_line, c.page, c.heading, c.text, 0.0)
        for n, c in enumerate(chunks)
    ]
    said = [c.text for c in candidates(hits)]
    assert "Copy the class file next to your paper before you start." in said
    assert not any("Installing" in text or "Options" in text or "paper class" in text for text in said)
    # without PDFium's marks (pypdf), the same text with no titles
    pypdf = extract_module._pypdf_lines(path, extract_module._open_pdf(path, path.read_bytes()))[0]
    assert not any(line.level for line in pypdf)


def test_pdf_running_headers_and_footers_are_dropped_and_lines_keep_their_numbers(tmp_path: Path) -> None:
    # a manual's pages: a chapter's running header with the page number, a footer, text, and code whose
    # closing brace ends three pages (no header: it says nothing)
    pages = [["7", "2 Installing", "Packages may be installed from source."]]
    pages += [
        [f"Chapter 2: Installing {n}", f"What page {word} says.", "if (x) {", "}", f"Page {n} of 9"]
        for n, word in enumerate("one two three four five six seven eight".split(), 8)
    ]
    path = tmp_path / "manual.pdf"
    path.write_bytes(make_pdf(pages))
    doc = read(path)
    texts = [line.text for line in doc.lines]
    assert not any(t.startswith(("Chapter 2:", "Page ")) for t in texts)
    assert texts[:3] == ["7", "2 Installing", "Packages may be installed from source."]  # once: its own
    assert texts.count("}") == 8 and texts.count("if (x) {") == 8
    assert Line("What page two says.", 2, 3) in doc.lines  # the page's own line numbers
    assert Line("}", 4, 3) in doc.lines
    # a short document's header counts on two pages; one page's first line is never a header
    two = [["Acme memo", "Budget is fine."], ["Acme memo", "Costs rose."]]
    assert [line.text for line in read_pdf(tmp_path, two).lines] == [
        "Budget is fine.",
        "Costs rose.",
    ]
    one = read_pdf(tmp_path, [["Acme memo", "Budget is fine."]])
    assert [line.text for line in one.lines] == ["Acme memo", "Budget is fine."]
    # a record per page: a figure at the edge that does not move with the page is the record's own
    invoices = [
        [f"Invoice {n}{n}7", f"Customer {n}", "Item: widget", f"Total: {n * 37} EUR"] for n in range(1, 8)
    ]
    kept = [line.text for line in read_pdf(tmp_path, invoices).lines]
    assert "Total: 74 EUR" in kept and "Invoice 227" in kept
    # a page that would be all furniture keeps its lines (a certificate printed twice)
    twice = read_pdf(tmp_path, [["Certificate of completion", "Ann Lee"]] * 2)
    assert [line.text for line in twice.lines] == ["Certificate of completion", "Ann Lee"] * 2


def read_pdf(tmp_path: Path, pages: list[list[str]]) -> Document:
    path = tmp_path / "doc.pdf"
    path.write_bytes(make_pdf(pages))
    return read(path)


@pytest.mark.parametrize(
    "data",
    [b"not a pdf at all", b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog", make_pdf(PAGES)[:150], b""],
    ids=["garbage", "header-only", "truncated", "empty"],
)
def test_corrupt_pdf_raises_extract_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match=r"broken\.pdf is (corrupt|encrypted)|no extractable text"):
        read(path)


def test_password_protected_pdf_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "secret.pdf"
    path.write_bytes(_encrypted(make_pdf(PAGES), "secret", "owner"))
    with pytest.raises(ExtractError, match=r"secret\.pdf is encrypted"):
        read(path)


def test_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    path = tmp_path / "restricted.pdf"
    path.write_bytes(_encrypted(make_pdf(PAGES), "", "owner"))
    assert texts(read(path))[0] == "Quarterly report"


def test_pdf_without_text_says_so(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[]]))
    with pytest.raises(ExtractError, match="no extractable text"):
        read(path)


# --------------------------------------------------------------------------------------------- docx


def test_docx_paragraphs_headings_and_tables(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "Handbook"
    document.add_heading("Onboarding", level=1)  # line 1
    document.add_paragraph("Welcome aboard")  # 2: no full stop, still no part of the next sentence
    document.add_paragraph("")  # empty: no line
    document.add_paragraph("Bring your ID", style="List Bullet")  # 3: its style numbers it
    document.add_paragraph("Sign the forms", style="List Bullet")  # 4
    document.add_heading("Laptop", level=2)  # 5
    table = document.add_table(rows=2, cols=3)  # rows are lines 6 and 7
    for cell, text in zip(table.rows[0].cells, ["Item", "Owner", "Due"], strict=True):
        cell.text = text
    merged = table.cell(1, 0).merge(table.cell(1, 1))
    merged.text = "Badge"
    table.cell(1, 2).text = "Friday"
    document.add_paragraph("Ask IT.")  # 8
    path = tmp_path / "handbook.docx"
    document.save(str(path))
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Handbook")
    assert doc.lines == (
        Line("# Onboarding", 1),
        Line("", 1),  # a title ends where its line does
        Line("Welcome aboard", 2),
        Line("", 2),
        Line("- Bring your ID", 3),
        Line("- Sign the forms", 4),
        Line("", 4),
        Line("## Laptop", 5),
        Line("", 5),
        Line("| Item | Owner | Due |", 6),
        Line("| Badge | Friday |", 7),
        Line("", 7),
        Line("Ask IT.", 8),
    )


def test_a_docx_tables_header_row_is_read_as_its_columns_names_where_word_marks_one(tmp_path: Path) -> None:
    """Word marks a table's first row as its columns' names in three ways: a table style that sets a header
    row apart with its "Header Row" on, the row repeating atop each page, or every word of it bold. Such a
    row is followed by Markdown's separator, so each row below is read under its columns; a table whose
    first row Word shows like the rest (a label column in bold beside plain values, the plain "Table Grid")
    is not, and neither is a row with an unnamed column."""
    import docx
    from docx.oxml import OxmlElement

    document = docx.Document()

    def table(rows: list[tuple[str, str]], style: str | None = None, bold: str = "") -> Any:
        made = document.add_table(rows=len(rows), cols=2, style=style)
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                run = made.cell(r, c).paragraphs[0].add_run(value)
                run.bold = (bold == "row" and r == 0) or (bold == "column" and c == 0)
        document.add_paragraph("Between the tables.")
        return made

    table([("Stage", "Timing"), ("Construction", "12 January")], style="Light List Accent 1")
    table([("Stage", "Fee"), ("Survey", "£3,200")], bold="row")
    repeated = table([("Van", "Driver"), ("Van 2", "Tom Reed")])
    repeated.rows[0]._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    table([("Client", "Kestrel Homes"), ("Site", "Brimscombe Mill")], bold="column")
    table([("Client", "Kestrel Homes"), ("Site", "Brimscombe Mill")], style="Table Grid")
    table([("Stage", ""), ("Survey", "£3,200")], bold="row")
    path = tmp_path / "proposal.docx"
    document.save(str(path))
    said = [line.text for line in read(path).lines if line.text.startswith("|")]
    assert said == [
        "| Stage | Timing |",
        "| --- | --- |",
        "| Construction | 12 January |",
        "| Stage | Fee |",
        "| --- | --- |",
        "| Survey | £3,200 |",
        "| Van | Driver |",
        "| --- | --- |",
        "| Van 2 | Tom Reed |",
        "| Client | Kestrel Homes |",
        "| Site | Brimscombe Mill |",
        "| Client | Kestrel Homes |",
        "| Site | Brimscombe Mill |",
        "| Stage |  |",
        "| Survey | £3,200 |",
    ]
    # the separator shares its header's line, and a row is quoted under its columns' names
    doc = read(path)
    at = next(i for i, line in enumerate(doc.lines) if line.text == "| Stage | Timing |")
    assert doc.lines[at + 1] == Line("| --- | --- |", doc.lines[at].line)
    text = "\n".join(line.text for line in doc.lines)
    hit = Hit(1, str(path), 1, len(doc.lines), None, "", text, 1.0)
    shown = [c.display for c in candidates([hit]) if "Construction" in c.display or "Tom Reed" in c.display]
    assert shown == ["Stage: Construction; Timing: 12 January", "Van: Van 2; Driver: Tom Reed"]


def test_a_tables_header_row_is_no_sentence_its_rows_are_quoted_under_it() -> None:
    """A Markdown table's first row, over its separator, names the columns: it answers nothing alone (as a
    sheet's row of names does not), and each row below is quoted under those names."""
    text = (
        "| Quarter | Turnover | Gross margin | Jobs completed |\n| --- | --- | --- | --- |\n"
        "| Q2 2025 | £412,000 | 34% | 6 |\n| Q1 2025 | £338,000 | 31% | 4 |\n"
    )
    said = [c.display for c in candidates([Hit(1, "/kb/update.md", 1, 4, None, "", text, 1.0)])]
    assert said == [
        "Quarter: Q2 2025; Turnover: £412,000; Gross margin: 34%; Jobs completed: 6",
        "Quarter: Q1 2025; Turnover: £338,000; Gross margin: 31%; Jobs completed: 4",
    ]


def declare_fonts(path: Path, fonts: str) -> None:
    """Add font declarations to a .docx's font table, as Word writes one for each font the text uses."""
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["word/fontTable.xml"] = parts["word/fontTable.xml"].replace(
        b"</w:fonts>", fonts.encode() + b"</w:fonts>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_a_docx_paragraph_in_a_fixed_pitch_font_is_a_program_fenced_as_it_is(tmp_path: Path) -> None:
    """Word declares each font's pitch in its font table: paragraphs set in a fixed-pitch one (here by
    their runs' font) are a program's lines, one fenced block; a run in another font is prose."""
    import docx

    document = docx.Document()
    document.add_paragraph("To start the server, run:")
    for text in ("def serve():", "    start(port=45484)"):
        document.add_paragraph().add_run(text).font.name = "Courier New"
    mixed = document.add_paragraph()
    mixed.add_run("Call ")
    mixed.add_run("serve()").font.name = "Courier New"
    mixed.add_run(" once.")
    path = tmp_path / "server.docx"
    document.save(str(path))
    declare_fonts(path, '<w:font w:name="Courier New"><w:pitch w:val="fixed"/></w:font>')
    assert [(line.line, line.text) for line in read(path).lines if line.text] == [
        (1, "To start the server, run:"),
        (2, "```"),
        (2, "def serve():"),
        (3, "    start(port=45484)"),
        (3, "```"),
        (4, "Call serve() once."),
    ]


def test_a_docx_paragraph_in_a_monospaced_face_is_code_whatever_its_font_table_says(tmp_path: Path) -> None:
    """pandoc's Word files declare Courier New variable-pitch and set code in Consolas, which the font
    table leaves out: a face PANOSE classifies monospaced, or one named as a monospaced face, is code."""
    import docx

    document = docx.Document()
    document.add_paragraph("Run:")
    document.add_paragraph().add_run("make release").font.name = "Consolas"
    document.add_paragraph().add_run("make clean").font.name = "Courier New"
    prose = "Set in Georgia, a face of letters of their own widths."
    document.add_paragraph().add_run(prose).font.name = "Georgia"
    path = tmp_path / "release.docx"
    document.save(str(path))
    declare_fonts(
        path,
        '<w:font w:name="Courier New"><w:panose1 w:val="02070309020205020404"/><w:pitch w:val="variable"/>'
        '</w:font><w:font w:name="Georgia"><w:panose1 w:val="02040502050405020303"/>'
        '<w:pitch w:val="variable"/></w:font>',
    )
    assert [line.text for line in read(path).lines if line.text] == [
        "Run:",
        "```",
        "make release",
        "make clean",
        "```",
        "Set in Georgia, a face of letters of their own widths.",
    ]


def test_a_docx_headings_title_is_never_quoted_with_the_sentence_under_it(tmp_path: Path) -> None:
    import docx

    from engine.backends.extractive import candidates
    from engine.ingest.chunker import chunk

    document = docx.Document()
    document.add_heading("Leave policy", level=1)
    document.add_paragraph("Staff get 25 days of paid leave each year.")
    document.add_paragraph("Unused days carry over.")
    path = tmp_path / "policy.docx"
    document.save(str(path))
    (made,) = chunk(read(path))
    hit = Hit(1, str(path), made.start_line, made.end_line, None, made.heading, made.text, 1.0)
    assert [c.display for c in candidates([hit])] == [
        "Staff get 25 days of paid leave each year.",
        "Unused days carry over.",
    ]


def test_a_docx_title_paragraph_is_a_title(tmp_path: Path) -> None:
    """A paragraph in Word's "Title" style ("The Old Rectory – garden proposal") was read as text and
    quoted as an answer; it is the document's title, as a heading is a section's."""
    import docx

    from engine.backends.extractive import candidates
    from engine.ingest.chunker import chunk

    document = docx.Document()
    document.add_heading("The Old Rectory, Painswick – garden proposal", level=0)  # the "Title" style
    document.add_paragraph("Prepared for Dr Olivia Marsh on 22 September 2025.")
    document.add_heading("Your brief", level=1)
    document.add_paragraph("You asked for a garden that needs little watering.")
    path = tmp_path / "proposal.docx"
    document.save(str(path))
    doc = read(path)
    assert [line.text for line in doc.lines if line.text.startswith("#")] == [
        "# The Old Rectory, Painswick – garden proposal",
        "# Your brief",
    ]
    hits = [Hit(1, str(path), c.start_line, c.end_line, None, c.heading, c.text, 1.0) for c in chunk(doc)]
    assert [c.display for c in candidates(hits)] == [
        "Prepared for Dr Olivia Marsh on 22 September 2025.",
        "You asked for a garden that needs little watering.",
    ]


def test_docx_without_headings_is_text(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Just prose.")
    path = tmp_path / "plain.docx"
    document.save(str(path))
    assert read(path).kind == "text"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04 not really a zip", "corrupt or not a Word document"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "is encrypted"),
    ],
)
def test_unreadable_docx_raises_extract_error(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "bad.docx"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match=message):
        read(path)


# --------------------------------------------------------------------------------------------- json

SLACK: list[dict[str, object]] = [
    {"type": "message", "user": "U1", "text": "Deploy is done", "ts": "1700000000.000100"},
    {
        "type": "message",
        "user": "U2",
        "user_profile": {"real_name": "Ada Lovelace"},
        "text": "Great,\nthanks!",
        "ts": "1700000060.000200",
    },
    {"type": "message", "subtype": "channel_join", "user_name": "bob", "text": "", "ts": "1700000120.0"},
    {"type": "message", "user_name": "bob", "text": "late reply", "ts": "1700003600.0"},
]


def test_slack_export_becomes_chat_lines_at_each_message(tmp_path: Path) -> None:
    path = tmp_path / "2023-11-14.json"
    path.write_text(json.dumps(SLACK, indent=4))
    doc = read(path)
    assert doc.kind == "chat"
    assert texts(doc) == [
        "U1 (2023-11-14 22:13 UTC): Deploy is done",
        "Ada Lovelace (2023-11-14 22:14 UTC): Great, thanks!",
        "bob (2023-11-14 23:13 UTC): late reply",
    ]
    raw = path.read_text().splitlines()
    for line, message in zip(doc.lines, [SLACK[0], SLACK[1], SLACK[3]], strict=True):
        assert raw[line.line - 1].strip() == "{"
        body = raw[line.line : line.line + 8]
        assert any(str(message["ts"]) in row for row in body)


def test_compact_slack_export_maps_each_message_to_its_line(tmp_path: Path) -> None:
    path = tmp_path / "day.json"
    path.write_text("[\n" + ",\n".join(json.dumps(message) for message in SLACK) + "\n]\n")
    assert [line.line for line in read(path).lines] == [2, 3, 5]


def test_other_json_maps_lines_to_themselves(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{\n  "name": "citeline",\n  "ts": 1\n}\n')
    doc = read(path)
    assert doc.kind == "code"
    assert doc.lines[1] == Line('  "name": "citeline",', 2)


def test_broken_json_still_reads_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[{"ts": "1", "text": "x"},\n')
    assert read(path).kind == "code"


# ---------------------------------------------------------------------------------------------- csv


def test_csv_rows_describe_themselves_and_map_to_their_line(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text(
        'name,city,note\nAda,London,"first\nprogrammer"\n\nAlan,,\nGrace,Arlington,admiral,extra\n'
    )
    doc = read(path)
    assert doc.kind == "table"
    assert doc.lines == (
        Line("name; city; note", 1),
        Line("name=Ada; city=London; note=first programmer", 2),
        Line("name=Alan", 5),
        Line("name=Grace; city=Arlington; note=admiral; column 4=extra", 6),
    )
    for line in doc.lines[1:]:
        assert line.text.split(";")[0].split("=")[1] in source_line(path, line.line)


def test_tsv_and_semicolon_csv(tmp_path: Path) -> None:
    tsv = tmp_path / "a.tsv"
    tsv.write_text("k\tv\nx\t1, 2\n")
    assert texts(read(tsv))[1] == "k=x; v=1, 2"
    semi = tmp_path / "b.csv"
    semi.write_text("k;v\nx;1\ny;2\n")
    assert texts(read(semi))[2] == "k=y; v=2"


# ----------------------------------------------------------------------------------------- notebook


def test_notebook_cells_map_to_their_json_lines(tmp_path: Path) -> None:
    cells: list[dict[str, object]] = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Analysis\n", "\n", "Load the data."]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["import pandas\n"]}],
            "source": ["# comment, not a heading\n", "import pandas"],
        },
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [], "source": []},
        {"cell_type": "markdown", "metadata": {}, "source": "## Results\nAll good."},
    ]
    path = tmp_path / "analysis.ipynb"
    path.write_text(notebook(cells))
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Analysis")
    assert texts(doc) == [
        "# Analysis",
        "",
        "Load the data.",
        "```python",
        "# comment, not a heading",
        "import pandas",
        "```",
        "```output",
        "import pandas",
        "```",
        "## Results",
        "All good.",
    ]
    raw = path.read_text().splitlines()
    for line in doc.lines:
        if line.text and not line.text.startswith("```"):
            assert json.dumps(line.text, ensure_ascii=False)[1:-1] in raw[line.line - 1]
    fence_open, code_line, fence_close = doc.lines[3], doc.lines[5], doc.lines[6]
    assert raw[fence_open.line - 1].strip() == "{"
    assert fence_open.line < code_line.line < fence_close.line
    assert raw[fence_close.line - 1].strip().startswith("}")
    printed = doc.lines[8]  # the output is cited at the line of its own JSON string, not the source's
    assert printed.line != code_line.line and '"import pandas\\n"' in raw[printed.line - 1]


def test_notebook_outputs_read_as_printed(tmp_path: Path) -> None:
    """A code cell's saved outputs are read, fenced as ``output``: what it printed, a result's plain
    text, an error's name and message (its colour codes dropped). A picture's text is only its name
    ("<Figure ...>") and is left out; a printed run of backticks gets a longer fence."""
    outputs: list[dict[str, object]] = [
        {"name": "stdout", "output_type": "stream", "text": ["R-squared: 0.933\n", "AIC: 299.0\n"]},
        {"name": "stderr", "output_type": "stream", "text": "ConvergenceWarning: did not converge\n"},
        {
            "output_type": "execute_result",
            "execution_count": 3,
            "metadata": {},
            "data": {"text/plain": ["   a  b\n", "0  1  2"], "text/html": ["<table></table>"]},
        },
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure size 640x480 with 1 Axes>"]},
        },
        {"name": "stdout", "output_type": "stream", "text": ["```\n"]},
        {
            "output_type": "error",
            "ename": "ValueError",
            "evalue": "\u001b[31mshapes do not align\u001b[0m",
            "traceback": ["\u001b[0;31m---------\u001b[0m", "ValueError: shapes do not align"],
        },
    ]
    cell = {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": outputs, "source": "fit()"}
    path = tmp_path / "fit.ipynb"
    path.write_text(notebook([cell]))
    doc = read(path)
    assert texts(doc) == [
        "```python",
        "fit()",
        "```",
        *("```output", "R-squared: 0.933", "AIC: 299.0", "```"),
        *("```output", "ConvergenceWarning: did not converge", "```"),
        *("```output", "   a  b", "0  1  2", "```"),
        *("````output", "```", "````"),
        *("```output", "ValueError: shapes do not align", "```"),
    ]
    raw = path.read_text().splitlines()
    assert "0.933" in raw[doc.lines[4].line - 1] and "299.0" in raw[doc.lines[5].line - 1]
    assert "shapes do not align" in raw[doc.lines[-2].line - 1]


def test_a_notebook_is_shown_as_its_cells_at_the_lines_citations_name(tmp_path: Path) -> None:
    """The preview and MCP fetch_doc read a notebook as its cells and outputs, not its JSON, each line at
    the line of the .ipynb that holds it: the line a citation names."""
    from engine.documents import read_document

    cell = printed_cell(["print(res.rsquared)"], "R-squared: 0.933")
    path = tmp_path / "fit.ipynb"
    path.write_text(notebook([{"cell_type": "markdown", "metadata": {}, "source": ["# Fit"]}, cell]))
    doc = read_document(path)
    assert doc.format == "notebook"
    shown = {line.text: line.line for line in doc.lines}
    assert "R-squared: 0.933" in shown and "print(res.rsquared)" in shown and '"cell_type"' not in str(shown)
    raw = path.read_text().splitlines()
    assert "0.933" in raw[shown["R-squared: 0.933"] - 1]


def test_notebook_that_is_not_json_raises(tmp_path: Path) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text('{"cells": [')
    with pytest.raises(ExtractError, match="not a valid notebook"):
        read(path)


# ----------------------------------------------------------------------------------------- robustness


@pytest.mark.parametrize("name", ["a.txt", "a.md", "a.html", "a.json", "a.csv", "a.py", "a.rst", "a.mdx"])
def test_text_formats_survive_binary_garbage(name: str) -> None:
    garbage = bytes(range(256)) * 4 + b"\n\x00\xff\xfe"
    doc = extract(Path(name), garbage)
    assert all("\n" not in line.text and line.line >= 1 for line in doc.lines)


@pytest.mark.usefixtures("scratch_registry")
def test_an_extractor_crash_becomes_extract_error() -> None:
    class Broken:
        def extract(self, path: Path, data: bytes) -> Document:
            raise KeyError("boom")

    register([".broken"], Broken())
    with pytest.raises(ExtractError, match=r"x\.broken could not be read \(KeyError"):
        extract(Path("x.broken"), b"")
    assert isinstance(TextExtractor().extract(Path("x"), b""), Document)


LATEX = r"""% Copyright 2020 Someone; licence header
\documentclass[11pt]{article}
\usepackage{hyperref}
\newcommand\pkg[1]{\texttt{#1}}
\title{Notes on \LaTeX{} Hooks}
\begin{document}
\maketitle
\section{Why hooks}\label{sec:why}
Packages patched commands; % a draft remark
this broke when two did it (see Section~\ref{sec:why}).
%\section{Dropped draft}
The \emph{new} \pkg{lthooks} code, ``added in 2020'', fixes it.\footnote{Since the June release.}
\iffalse
\section{Hidden} \ifx\a\b never \fi
\fi
\subsection*{How to add one}
\begin{itemize}
  \item Use \verb|\AddToHook| with a label.
  \item[Order] Rules set the order; 50\% of users never need them.
\end{itemize}
\begin{verbatim}
\AddToHook{begindocument}{\foo}  % not a comment here
\end{verbatim}
\begin{tabular}{|l|r|}
hook & runs \\
\texttt{env/foo/begin} & before $x^2$ \\
\end{tabular}
\end{document}
Nothing after the end is read.
"""


def test_latex_is_read_as_the_text_it_typesets_at_its_source_lines(tmp_path: Path) -> None:
    """A .tex file is read as Markdown: its body only, comments and `\\iffalse` blocks out, sections as
    headings, lists as items, verbatim as fenced code, a command's text kept and its markup dropped, and
    every line at the source line it comes from (so a quote's citation marks the line that holds it)."""
    path = tmp_path / "hooks.tex"
    path.write_text(LATEX)
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Notes on LaTeX Hooks")
    assert texts(doc) == [
        "## Why hooks",
        "",
        "Packages patched commands;",
        "this broke when two did it (see Section ).",
        "The new lthooks code, “added in 2020”, fixes it. (Since the June release.)",
        "",
        "### How to add one",
        "",
        "- Use `\\AddToHook` with a label.",
        "- Order: Rules set the order; 50% of users never need them.",
        "",
        "```",
        "\\AddToHook{begindocument}{\\foo}  % not a comment here",
        "```",
        "",
        "hook | runs",
        "env/foo/begin | before $x^2$",
    ]
    for line in doc.lines:
        words = [w for w in line.text.replace("`", " ").split() if w.isalpha() and len(w) > 3]
        if words:
            assert words[-1] in source_line(path, line.line), (line.line, line.text)
    assert {line.line for line in doc.lines if line.text.startswith("## Why")} == {8}
    assert not any("draft" in text or "Hidden" in text or "Copyright" in text for text in texts(doc))


def test_latex_chapter_without_a_preamble_is_read_whole(tmp_path: Path) -> None:
    """A chapter file a main document reads with \\input has no \\begin{document}: all of it is text, and
    its title is its first heading."""
    path = tmp_path / "intro.tex"
    path.write_text("\\chapter{Introduction}\n\nWe measure \\textbf{three} things:\\\\ speed and cost.\n")
    doc = read(path)
    assert (doc.title, texts(doc)) == (
        "Introduction",
        ["# Introduction", "", "We measure three things:", "speed and cost."],
    )
    assert [line.line for line in doc.lines] == [1, 1, 3, 3]


def test_latex_sections_become_chunk_titles_and_the_reader_is_versioned(tmp_path: Path) -> None:
    path = tmp_path / "hooks.tex"
    path.write_text(LATEX)
    chunks = chunk(read(path))
    assert chunks[0].heading == "Why hooks" and "### How to add one" in chunks[0].text
    assert extract_module.readers()[".tex"] == "latex-1"


def test_latex_tables_bibliographies_and_titles_read_as_text(tmp_path: Path) -> None:
    """A short verb in a table's cell is code (the table's rules are its column spec's), a bibliography's
    entry is an item without its citation key, a title's footnote is left out of the title, and a code
    span ending in a braced group is shown whole (not read as a MyST role)."""
    path = tmp_path / "fonts.tex"
    path.write_text(
        "\\section{Sizes\\footnote{In points.}}\n"
        "\\begin{tabular}{|l|l|}\n|<8-14>| & a range \\\\\n\\end{tabular}\n"
        "Add \\verb|\\extrafloats{500}| to the preamble.\n"
        "\\begin{thebibliography}{9}\n\\bibitem{knuth} D. Knuth, \\emph{The TeXbook}.\n"
        "\\end{thebibliography}\n"
    )
    doc = read(path)
    assert [t for t in texts(doc) if t] == [
        "## Sizes",
        "`<8-14>` | a range",
        "Add `\\extrafloats{500}` to the preamble.",
        "- D. Knuth, The TeXbook.",
    ]
    assert [line.line for line in doc.lines if line.text] == [1, 3, 5, 7]
    line = next(text for text in texts(doc) if "preamble" in text)
    (quote,) = candidates([Hit(1, str(path), 5, 5, None, "", line, 1.0)])
    assert plain(quote.text) == "Add \\extrafloats{500} to the preamble."
    assert plain("the 4{sup}`th` of May") == "the 4th of May"  # a MyST role after a figure is still one


def test_latex_slides_read_with_their_titles(tmp_path: Path) -> None:
    """A beamer slide's title, given to its frame or by \\frametitle, is a heading below its section."""
    path = tmp_path / "talk.tex"
    path.write_text(
        "\\documentclass{beamer}\n\\title{Caching}\n\\begin{document}\n\\section{Design}\n"
        "\\begin{frame}<1->[fragile]{Why an LRU}\nEvictions are rare.\n\\end{frame}\n"
        "\\begin{frame}\n\\frametitle{Costs}\n\\begin{itemize}\n\\item<2-> Reads are $O(1)$.\n"
        "\\end{itemize}\n\\end{frame}\n\\end{document}\n"
    )
    doc = read(path)
    assert doc.title == "Caching"
    assert [(line.line, line.text) for line in doc.lines if line.text] == [
        (4, "## Design"),
        (5, "### Why an LRU"),
        (6, "Evictions are rare."),
        (9, "### Costs"),
        (11, "- Reads are $O(1)$."),
    ]


def test_latex_nested_past_the_stack_is_read_as_written(tmp_path: Path) -> None:
    """Braces nested (or left open) thousands deep are no document anyone typesets, but such a file still
    loses nothing: it is read as plain text, every line at its own line."""
    path = tmp_path / "deep.tex"
    path.write_text("\\section{Deep}\n" + "{" * 3000 + "core" + "}" * 3000 + "\nlast line\n")
    doc = read(path)
    assert doc.kind == "text"
    assert [(line.line, line.text) for line in doc.lines][-1] == (3, "last line")
    assert "core" in doc.lines[1].text


LATEX_ODD = r"""\documentclass{article}
\newcommand\cs[1]{\texttt{#1}}
\begin{document}
Use -- as ``we said'' -- a dash.
This line keeps its number.
See \url{http://example.org/a%20b} and \href{http://x.org}{the site}, as in \cite{knuth84,
lamport94}.
\iffalse
\ifthenelse{\boolean{draft}}{A}{B}
\fi
After the draft. \iffalse hidden \fi Kept words. \iffalse old \else new \fi text.
It costs $5 a month, not $x^2$ dollars.
\[ a = b
   + c \]
\hyphenpenalty=10000 \def\x#1{#1} \cs{NewCommandCopy}\cs{arg}
\begin{comment}
not typeset
\end{comment}
\begin{lstlisting}[language=Python]
print(1)
\end{lstlisting}
\end{document}
"""


def test_latex_odd_but_plausible_input_keeps_its_lines_and_words(tmp_path: Path) -> None:
    """Typeset quotes and dashes do not move the lines after them; a % in an address is no comment; an
    \\iffalse block ends at its own \\fi (a macro named \\if... with braced arguments opens none) and its
    \\else branch is text; a $ that nothing closes is the character and math is kept at its lines; TeX
    assignments, definitions and a comment environment are no text; a listing's options are no code."""
    path = tmp_path / "odd.tex"
    path.write_text(LATEX_ODD)
    doc = read(path)
    assert [(line.line, line.text) for line in doc.lines if line.text] == [
        (4, "Use – as “we said” – a dash."),
        (5, "This line keeps its number."),
        (6, "See http://example.org/a%20b and the site, as in [knuth84, lamport94]."),
        (11, "After the draft. Kept words. new text."),
        (12, "It costs $5 a month, not $x^2$ dollars."),
        (13, "\\[ a = b"),
        (14, "+ c \\]"),
        (15, "NewCommandCopy arg"),
        (19, "```"),
        (20, "print(1)"),
        (21, "```"),
    ]


def test_latex_sentences_sit_under_their_section_titles(tmp_path: Path) -> None:
    """A LaTeX section is a title, as a Markdown heading is: never quoted, and the sentence under it ranked
    with it (a subsection inside a chunk, which the chunk's heading path does not hold, too)."""
    path = tmp_path / "results.tex"
    path.write_text("\\section{Results of the run}\nThe run took five seconds on the laptop.\n")
    text = "\n".join(texts(read(path)))
    hit = Hit(1, str(path), 1, 2, None, "", text, 1.0)
    assert [c.text for c in candidates([hit])] == ["The run took five seconds on the laptop."]
    assert titles(hit, text.index("The run")) == "Results of the run"
