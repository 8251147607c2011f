"""Slides, spreadsheets, OpenDocument and EPUB files (engine/ingest/office.py), made by the libraries that
write them for real programs (python-pptx, openpyxl, XlsxWriter, odfpy) or, for EPUB, zipped by hand as
the standard lays it out: what each line reads, where it is cited, and how a broken file is refused."""

from __future__ import annotations

import copy
import datetime
import zipfile
from pathlib import Path

import pytest

from engine.api import Engine, page_label
from engine.documents import DocumentLines, document_lines, read_document
from engine.errors import ExtractError
from engine.events import Document
from engine.ingest.extract import extract, readers
from engine.ingest.office import OFFICE_READER, OFFICE_SUFFIXES
from engine.ingest.scanner import DOCUMENT_SUFFIXES
from tests.conftest import index_with_notes, write


def read(path: Path) -> Document:
    return extract(path, path.read_bytes())


def texts(doc: Document) -> list[tuple[int | None, int, str]]:
    return [(line.page, line.line, line.text) for line in doc.lines if line.text]


# ------------------------------------------------------------------------------------------- slides


def make_deck(path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[0])
    first.shapes.title.text = "Quarterly review"
    first.placeholders[1].text = "Acme, third quarter"
    second = deck.slides.add_slide(deck.slide_layouts[1])
    second.shapes.title.text = "Results"
    body = second.placeholders[1].text_frame
    body.text = "Revenue grew 12% to 4.1 million euros"
    bullet = body.add_paragraph()
    bullet.text, bullet.level = "Churn fell to 3%", 1
    second.notes_slide.notes_text_frame.text = "Mention the Berlin office opening."
    third = deck.slides.add_slide(deck.slide_layouts[5])
    third.shapes.title.text = "Headcount"
    table = third.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(4), Inches(2)).table
    for r, (team, people) in enumerate([("Team", "People"), ("Sales", "14"), ("Support", "9")]):
        table.cell(r, 0).text, table.cell(r, 1).text = team, people
    group = third.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(5), Inches(3), Inches(1)).text_frame.text = "Hiring paused"
    deck.core_properties.title = "Q3 review"
    deck.save(str(path))


def test_a_deck_reads_slide_by_slide_title_text_tables_and_notes(tmp_path: Path) -> None:
    path = tmp_path / "review.pptx"
    make_deck(path)
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Q3 review")
    assert texts(doc) == [
        (1, 1, "# Quarterly review"),
        (1, 2, "Acme, third quarter"),
        (2, 1, "# Results"),
        (2, 2, "- Revenue grew 12% to 4.1 million euros"),  # the content placeholder's bullets
        (2, 3, "  - Churn fell to 3%"),  # a level down
        (2, 4, "## Speaker notes"),
        (2, 5, "Mention the Berlin office opening."),
        (3, 1, "# Headcount"),
        (3, 2, "| Team | People |"),
        (3, 2, "| --- | --- |"),  # PowerPoint's table design has its "Header Row" on: the columns' names
        (3, 3, "| Sales | 14 |"),
        (3, 4, "| Support | 9 |"),
        (3, 5, "Hiring paused"),  # a text box inside a group
    ]
    # paragraphs are apart: the subtitle, a text box's paragraph, is a block of its own
    first = [line.text for line in doc.lines if line.page == 1]
    assert first[first.index("Acme, third quarter") + 1] == ""


def test_a_slides_number_date_and_footer_are_left_out_and_hidden_slides_read(tmp_path: Path) -> None:
    """Placeholders the master fills on every slide (number, date, footer) are furniture; a hidden slide is
    still the user's text."""
    from pptx import Presentation

    path = tmp_path / "deck.pptx"
    make_deck(path)
    deck = Presentation(str(path))
    slide = deck.slides[1]
    tree = slide.shapes._spTree
    footer = tree.xpath("./p:sp")[-1]
    for kind in ("sldNum", "ftr", "dt"):
        clone = copy.deepcopy(footer)
        clone.xpath(".//p:ph")[0].set("type", kind)
        clone.xpath(".//a:t")[0].text = f"furniture {kind}"
        tree.append(clone)
    deck.slides[2]._element.set("show", "0")
    deck.save(str(path))
    doc = read(path)
    assert not any("furniture" in line.text for line in doc.lines)
    assert (3, 1, "# Headcount") in texts(doc)


def test_a_slide_is_cited_as_a_slide_in_an_answer_and_in_the_preview(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    (root / "decks").mkdir(parents=True)
    make_deck(root / "decks" / "review.pptx")
    for n, tool in enumerate(["laptop", "vpn", "editor", "printer", "badge", "calendar"]):
        write(root, f"notes/setup_{n}.md", f"# Setting up the {tool}\n\nSet up the {tool} on day one.\n")
    engine.add_folder(root)
    engine.run(engine.sync())
    answer = engine.ask("How much did revenue grow?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.page, cited.start_line) == ("review.pptx", 2, 2)
    assert "4.1 million euros" in answer.text
    assert page_label(cited.path, 2) == "slide 2"
    doc = engine.document(cited.path)
    assert doc.format == "slides"
    assert [line.text for line in doc.lines if (line.page, line.line) == (2, 2) and line.text] == [
        "- Revenue grew 12% to 4.1 million euros"
    ]


# ------------------------------------------------------------------------------------- spreadsheets


def test_a_workbook_reads_sheet_by_sheet_each_row_at_its_own_number(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    budget = book.active
    budget.title = "Budget"
    budget.append(["Item", "Amount", "Due", "Share", "Paid"])
    budget.append(["Rent", 1200, datetime.date(2026, 1, 31), 0.25, True])
    budget.append(["Travel", 350.5, datetime.datetime(2026, 2, 14, 9, 30), 0.075, False])
    budget["D2"].number_format = "0%"
    budget["D3"].number_format = "0.0%"
    budget["A7"] = "Approved by Dana"  # rows 4-6 empty: row 7 is still row 7
    notes = book.create_sheet("Notes")
    notes["B2"] = "Owner"
    notes["B3"] = "Dana"
    path = tmp_path / "budget.xlsx"
    book.save(str(path))
    doc = read(path)
    assert doc.kind == "table"
    assert texts(doc) == [
        (1, 1, "Item; Amount; Due; Share; Paid"),
        (1, 2, "Item=Rent; Amount=1200; Due=2026-01-31; Share=25%; Paid=TRUE"),
        (1, 3, "Item=Travel; Amount=350.5; Due=2026-02-14 09:30; Share=7.5%; Paid=FALSE"),
        (1, 7, "Item=Approved by Dana"),
        (2, 2, "Owner"),  # a column's first value names it where it reads as a name
        (2, 3, "Owner=Dana"),
    ]
    assert page_label(str(path), 2) == "sheet 2"


def test_a_sheets_title_row_is_its_title_and_its_numbers_read_as_their_formats_show_them(
    engine: Engine, tmp_path: Path
) -> None:
    """A sheet opening with a title row ("Rate card 2025 (excluding VAT)" above the columns' names) had
    the title taken for the first column's name, every row reading "Rate card 2025 ...=Senior designer;
    column 2=68"; its money read as bare numbers (68 for £68.00, -3.87755102041% for -3.9%), and a sheet of
    notes had its first sentence for a column's name. The title is the rows' title, the columns are named
    by the first row of two values, numbers read as their formats show them, and a column of sentences is
    text, line by line."""
    import openpyxl

    book = openpyxl.Workbook()
    rates = book.active
    rates.title = "Day rates"
    rates["A1"] = "Rate card 2025 (excluding VAT)"
    rates.append([])
    rates.append(["Role", "Hourly rate", "Day rate", "Change"])
    rates.append(["Senior designer", 68, 520, 0.0387755])
    rates.append(["Landscaper", 34, 1260.5, -0.02])
    for row in rates.iter_rows(min_row=4, max_row=5):
        row[1].number_format = row[2].number_format = '"£"#,##0.00'
        row[3].number_format = "0.0%"
    rates["C5"].number_format = "#,##0.00;(#,##0.00)"
    rates["B5"] = -34
    rates["B5"].number_format = '_-"£"* #,##0.00_-;\\-"£"* #,##0.00_-;_-"£"* "-"??_-;_-@_-'
    notes = book.create_sheet("Notes")
    notes["A1"] = "Rates apply to work carried out from 1 January 2025."
    notes["A2"] = "A day rate covers 8 hours on site or in the studio."
    path = tmp_path / "kb" / "Rate card 2025.xlsx"
    path.parent.mkdir()
    book.save(str(path))
    doc = read(path)
    assert texts(doc) == [
        (1, 1, "Rate card 2025 (excluding VAT)"),
        (1, 3, "Role; Hourly rate; Day rate; Change"),
        (1, 4, "Role=Senior designer; Hourly rate=£68.00; Day rate=£520.00; Change=3.9%"),
        (1, 5, "Role=Landscaper; Hourly rate=-£34.00; Day rate=1,260.50; Change=-2.0%"),
        (2, 1, "Rates apply to work carried out from 1 January 2025."),
        (2, 2, "A day rate covers 8 hours on site or in the studio."),
    ]
    assert [line.level for line in doc.lines] == [1, 0, 0, 0, 0, 0]
    index_with_notes(engine, tmp_path / "kb")
    answer = engine.ask("What is the day rate for a senior designer?", "extractive")
    assert not answer.refused, answer.reason
    assert answer.text.startswith("Role=Senior designer; Hourly rate=£68.00; Day rate=£520.00")
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.page, cited.start_line) == ("Rate card 2025.xlsx", 1, 4)
    hits = engine.evidence("What does a day rate cover?")
    assert any(hit.heading == "Day rates > Rate card 2025 (excluding VAT)" for hit in hits)
    answer = engine.ask("How many hours does a day rate cover?", "extractive")
    assert not answer.refused, answer.reason
    assert answer.text.startswith("A day rate covers 8 hours on site or in the studio [1].")


def test_a_number_reads_as_its_format_shows_it_and_keeps_its_sign() -> None:
    from engine.ingest.office import Styles, _shape

    cases = [
        ('"£"#,##0.00', 1250.5, "£1,250.50"),
        ("[$€-407]#,##0.00", 1234.5, "€1,234.50"),
        ("0.0%", -0.0387755, "-3.9%"),
        ("#,##0;(#,##0)", -380, "(380)"),
        ("#,##0.00;[Red]#,##0.00", -1234.5, "-1,234.50"),  # red alone: in text, a minus
        ('_-"£"* #,##0.00_-;\\-"£"* #,##0.00_-;_-"£"* "-"??_-;_-@_-', 0, "£-"),
        ('#,##0.0,,"m"', 4_100_000, "4.1m"),
        ("0.##", 1.5, "1.5"),
    ]
    for code, value, shown in cases:
        shape = _shape(code)
        assert shape is not None and shape.show(value) == shown, code
    for code in ("General", "0.00E+00", "[>100]0;0", "# ?/?", "000-00-0000", "mm/dd/yy", "@", ""):
        assert _shape(code) is None, code  # shown as General would show it
    styles = Styles({}, [3, 9], False)
    assert [styles.show(v, 0) for v in ("12500", "nan", "-inf", "text")] == ["12,500", "nan", "-inf", "text"]
    assert styles.show("0.25", 1) == "25%"


def test_a_header_row_that_leaves_the_first_column_unnamed_names_the_columns(tmp_path: Path) -> None:
    """pandas writes a Series with its index unnamed: ",count" over "London,5". One value in a row above
    the table is its title only where it stands in the table's first column or left of it."""
    path = tmp_path / "counts.csv"
    path.write_text(",count\nLondon,5\nParis,3\n")
    assert [line.text for line in read(path).lines] == [
        "column 1; count",
        "column 1=London; count=5",
        "column 1=Paris; count=3",
    ]
    listed = tmp_path / "names.csv"
    listed.write_text("Name,\nAlice,\nBob,\n")  # a one-column table exported with a trailing comma
    assert [line.text for line in read(listed).lines] == ["Name", "Name=Alice", "Name=Bob"]


def test_a_csv_files_title_row_is_no_columns_name(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("Sales invoices to 30 September 2025\nInvoice,Client,Amount\nINV-1,Ashdown,1200\n")
    doc = read(path)
    assert [(line.line, line.text, line.level) for line in doc.lines] == [
        (1, "Sales invoices to 30 September 2025", 1),
        (2, "Invoice; Client; Amount", 0),
        (3, "Invoice=INV-1; Client=Ashdown; Amount=1200", 0),
    ]


def test_a_formula_reads_as_its_last_value_and_rich_text_as_its_text(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "sums.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Sums")
    bold = book.add_format({"bold": True})
    sheet.write_row(0, 0, ["Region", "Total"])
    sheet.write_rich_string(1, 0, bold, "North", " and east")
    sheet.write_formula(1, 1, "=SUM(C2:D2)", None, 42)
    sheet.write_datetime(2, 1, datetime.datetime(1900, 2, 28), book.add_format({"num_format": "yyyy-mm-dd"}))
    sheet.write_number(3, 1, 0.5, book.add_format({"num_format": "h:mm"}))
    book.close()
    assert texts(read(path)) == [
        (1, 1, "Region; Total"),
        (1, 2, "Region=North and east; Total=42"),
        (1, 3, "Total=1900-02-28"),  # Excel's 1900 leap-year bug does not move dates before March
        (1, 4, "Total=12:00"),
    ]


# -------------------------------------------------------------------------------------- OpenDocument


def test_an_opendocument_text_reads_as_a_word_file_does(tmp_path: Path) -> None:
    from odf import dc
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableRow
    from odf.text import H, List, ListItem, Note, NoteBody, NoteCitation, P, S

    doc = OpenDocumentText()
    doc.meta.addElement(dc.Title(text="Field guide"))
    doc.text.addElement(H(outlinelevel=2, text="Birds"))
    paragraph = P(text="The robin sings at dawn.")
    paragraph.addElement(S(c=2))
    paragraph.addText("It nests in hedges.")
    note = Note(noteclass="footnote")
    note.addElement(NoteCitation(text="1"))
    body = NoteBody()
    body.addElement(P(text="Seen in 2024."))
    note.addElement(body)
    paragraph.addElement(note)
    doc.text.addElement(paragraph)
    items = List()
    for bird in ("Wren", "Jay"):
        item = ListItem()
        item.addElement(P(text=bird))
        items.addElement(item)
    doc.text.addElement(items)
    table = Table(name="Eggs")
    for row_cells in (("Bird", "Eggs"), ("Robin", "4")):
        row = TableRow()
        for value in row_cells:
            cell = TableCell()
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.text.addElement(table)
    path = tmp_path / "guide.odt"
    doc.save(str(path))
    read_back = read(path)
    assert (read_back.kind, read_back.title) == ("markdown", "Field guide")
    assert texts(read_back) == [
        (None, 1, "## Birds"),
        (None, 2, "The robin sings at dawn. It nests in hedges."),
        (None, 3, "- Wren"),
        (None, 4, "- Jay"),
        (None, 5, "| Bird | Eggs |"),
        (None, 6, "| Robin | 4 |"),
    ]  # the footnote's body is no part of the sentence it marks
    assert document_lines(path, path.read_bytes())[0] == "odt"


def test_an_opendocument_tables_header_rows_name_its_columns(tmp_path: Path) -> None:
    """A table whose first row sits in its header rows (LibreOffice's "Repeat heading"): the columns'
    names, followed by Markdown's separator, so each row is read under them."""
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableHeaderRows, TableRow
    from odf.text import P

    doc = OpenDocumentText()
    table = Table(name="Eggs")
    heading = TableHeaderRows()
    table.addElement(heading)
    for row_cells, parent in ((("Bird", "Eggs"), heading), (("Robin", "4"), table), (("Wren", "6"), table)):
        row = TableRow()
        for value in row_cells:
            cell = TableCell()
            cell.addElement(P(text=value))
            row.addElement(cell)
        parent.addElement(row)
    doc.text.addElement(table)
    path = tmp_path / "eggs.odt"
    doc.save(str(path))
    assert texts(read(path)) == [
        (None, 1, "| Bird | Eggs |"),
        (None, 1, "| --- | --- |"),
        (None, 2, "| Robin | 4 |"),
        (None, 3, "| Wren | 6 |"),
    ]


@pytest.mark.parametrize(
    "face",
    [{"fontfamily": "Liberation Sans", "fontpitch": "fixed"}, {"fontfamily": "'DejaVu Sans Mono'"}],
    ids=["declared fixed-pitch", "a monospaced face, its pitch not declared"],
)
def test_an_opendocument_texts_fixed_pitch_paragraphs_are_one_program_fenced_as_it_is(
    tmp_path: Path, face: dict[str, str]
) -> None:
    """A paragraph style set in a font declared fixed-pitch, or a monospaced face (here by the style it
    inherits), is a program's text: its lines one fenced block, their indentation kept; the lead-in
    before it is prose."""
    from odf.opendocument import OpenDocumentText
    from odf.style import FontFace, Style, TextProperties
    from odf.text import P, S

    doc = OpenDocumentText()
    doc.fontfacedecls.addElement(FontFace(name="Body", **face))
    code = Style(name="Code", family="paragraph")
    code.addElement(TextProperties(fontname="Body"))
    doc.styles.addElement(code)
    line = Style(name="P1", family="paragraph", parentstylename=code)
    doc.automaticstyles.addElement(line)
    doc.text.addElement(P(text="To start the server, run:"))
    doc.text.addElement(P(stylename=line, text="def serve():"))
    body = P(stylename=line)
    body.addElement(S(c=4))
    body.addText("start(port=45484)")
    doc.text.addElement(body)
    doc.text.addElement(P(text="It listens on port 45484."))
    path = tmp_path / "server.odt"
    doc.save(str(path))
    assert texts(read(path)) == [
        (None, 1, "To start the server, run:"),
        (None, 2, "```"),
        (None, 2, "def serve():"),
        (None, 3, "    start(port=45484)"),
        (None, 3, "```"),
        (None, 4, "It listens on port 45484."),
    ]


def test_an_opendocument_spreadsheet_counts_rows_written_once_for_many(tmp_path: Path) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    def cell(value: str = "", columns: int = 1) -> TableCell:
        made = TableCell(numbercolumnsrepeated=columns) if columns > 1 else TableCell()
        if value:
            made.addElement(P(text=value))
        return made

    book = OpenDocumentSpreadsheet()
    table = Table(name="Stock")
    for values in (("Fruit", "Count"), ("Apple", "7")):
        row = TableRow()
        for value in values:
            row.addElement(cell(value))
        table.addElement(row)
    gap = TableRow(numberrowsrepeated=3)
    gap.addElement(cell())
    table.addElement(gap)
    late = TableRow()
    late.addElement(cell("", columns=1))
    late.addElement(cell("3"))
    table.addElement(late)
    tail = TableRow(numberrowsrepeated=1048000)  # what a spreadsheet program writes below the data
    tail.addElement(cell("", columns=1024))
    table.addElement(tail)
    book.spreadsheet.addElement(table)
    path = tmp_path / "stock.ods"
    book.save(str(path))
    assert texts(read(path)) == [(1, 1, "Fruit; Count"), (1, 2, "Fruit=Apple; Count=7"), (1, 6, "Count=3")]


def test_an_opendocument_presentation_reads_as_a_deck(tmp_path: Path) -> None:
    from odf.draw import Frame, Page, TextBox
    from odf.namespaces import PRESENTATIONNS
    from odf.opendocument import OpenDocumentPresentation
    from odf.presentation import Notes
    from odf.style import MasterPage, PageLayout
    from odf.text import P

    deck = OpenDocumentPresentation()
    layout = PageLayout(name="PL")
    deck.automaticstyles.addElement(layout)
    master = MasterPage(name="M", pagelayoutname=layout)
    deck.masterstyles.addElement(master)

    def frame(kind: str, *lines: str) -> Frame:
        made = Frame(width="20cm", height="3cm", x="1cm", y="1cm")
        made.setAttrNS(PRESENTATIONNS, "class", kind)
        box = TextBox()
        for line in lines:
            box.addElement(P(text=line))
        made.addElement(box)
        return made

    page = Page(masterpagename=master)
    page.addElement(frame("title", "Launch plan"))
    page.addElement(frame("outline", "Ship in May", "Beta in March"))
    page.addElement(frame("page-number", "1"))
    notes = Notes()
    notes.addElement(frame("notes", "Ask finance first."))
    page.addElement(notes)
    deck.presentation.addElement(page)
    path = tmp_path / "plan.odp"
    deck.save(str(path))
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Launch plan")
    assert texts(doc) == [
        (1, 1, "# Launch plan"),
        (1, 2, "Ship in May"),
        (1, 3, "Beta in March"),
        (1, 4, "## Speaker notes"),
        (1, 5, "Ask finance first."),
    ]


# ------------------------------------------------------------------------------------------ e-books


def make_epub(path: Path, chapters: list[str], encrypted: tuple[str, ...] = ()) -> None:
    """An EPUB 3 as the standard lays it out: its package file in a folder, chapter names with spaces
    (escaped in the manifest), and a spine whose order is not the manifest's."""
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:'
            'container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
            'media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        items = "".join(
            f'<item id="c{i}" href="text/ch%20{i}.xhtml" media-type="application/xhtml+xml"/>'
            for i in range(len(chapters))
        )
        spine = "".join(f'<itemref idref="c{i}"/>' for i in reversed(range(len(chapters))))
        book.writestr(
            "OEBPS/content.opf",
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour Tales</dc:title>'
            f"</metadata><manifest>{items}</manifest><spine>{spine}</spine></package>",
        )
        for i, body in enumerate(chapters):
            book.writestr(
                f"OEBPS/text/ch {i}.xhtml",
                '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
                f"<head><title>Chapter {i}</title></head>\n<body>\n{body}\n</body></html>",
            )
        if encrypted:
            refs = "".join(
                f'<enc:EncryptedData><enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData>'
                "</enc:EncryptedData>"
                for uri in encrypted
            )
            book.writestr(
                "META-INF/encryption.xml",
                '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                f'xmlns:enc="http://www.w3.org/2001/04/xmlenc#">{refs}</encryption>',
            )


def test_an_epub_reads_its_chapters_in_reading_order_each_at_its_own_lines(tmp_path: Path) -> None:
    path = tmp_path / "tales.epub"
    make_epub(
        path,
        [
            "<h1>The harbour</h1>\n<p>The ferry leaves at seven.</p>\n<p>It returns at noon.</p>",
            "<h1>The lighthouse</h1>\n<p>The keeper lights the lamp at dusk.</p>",
        ],
    )
    doc = read(path)
    assert (doc.kind, doc.title) == ("markdown", "Harbour Tales")
    assert texts(doc) == [
        (1, 4, "# The lighthouse"),  # the spine's first chapter, at line 4 of its XHTML file
        (1, 5, "The keeper lights the lamp at dusk."),
        (2, 4, "# The harbour"),
        (2, 5, "The ferry leaves at seven."),
        (2, 6, "It returns at noon."),
    ]
    assert page_label(str(path), 2) == "chapter 2"


def test_an_epub_with_encrypted_text_is_refused_as_drm_protected(tmp_path: Path) -> None:
    path = tmp_path / "locked.epub"
    make_epub(path, ["<p>Secret.</p>"], encrypted=("OEBPS/text/ch%200.xhtml",))
    with pytest.raises(ExtractError, match="DRM-protected"):
        read(path)


# ---------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("suffix", OFFICE_SUFFIXES)
def test_a_broken_file_of_each_kind_is_refused_with_a_reason(tmp_path: Path, suffix: str) -> None:
    corrupt = tmp_path / f"corrupt{suffix}"
    corrupt.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ExtractError, match=r"corrupt or not an? "):
        read(corrupt)
    empty_zip = tmp_path / f"empty{suffix}"
    with zipfile.ZipFile(empty_zip, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(ExtractError, match="it has no "):
        read(empty_zip)


def test_an_encrypted_office_file_is_named_as_such_and_a_broken_compound_file_as_corrupt(
    tmp_path: Path,
) -> None:
    """An encrypted .pptx (or .xlsx, .docx) is a compound file holding the encrypted package, as a
    97-2003 file is one: it is read as one (engine/ingest/legacy.py), which names the encryption."""
    path = tmp_path / "old.pptx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100)
    with pytest.raises(ExtractError, match=r"old\.pptx is corrupt or not a PowerPoint deck"):
        read(path)
    data = bytearray((Path(__file__).parent / "files" / "review.ppt").read_bytes())
    entry = data.find("Pictures".encode("utf-16-le") + b"\x00\x00")  # a stream's directory entry: renamed
    name = "EncryptedPackage".encode("utf-16-le") + b"\x00\x00"
    data[entry : entry + len(name)] = name
    data[entry + 64 : entry + 66] = len(name).to_bytes(2, "little")
    for suffix in (".pptx", ".ppt"):
        path = tmp_path / f"locked{suffix}"
        path.write_bytes(bytes(data))
        with pytest.raises(ExtractError, match=r"is encrypted"):
            read(path)


def test_entity_expansion_in_a_parts_xml_is_refused_not_expanded(tmp_path: Path) -> None:
    """A billion laughs in a slide: expat refuses the expansion, so the file is reported, never inflated."""
    path = tmp_path / "laughs.pptx"
    make_deck(path)
    entities = "".join(
        f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10 if i else "lol"}">' for i in range(10)
    )
    bomb = f'<?xml version="1.0"?><!DOCTYPE p:sld [{entities}]><p:sld>&l9;</p:sld>'.encode()
    with zipfile.ZipFile(path) as original:
        parts = {name: original.read(name) for name in original.namelist()}
    parts["ppt/slides/slide1.xml"] = bomb
    with zipfile.ZipFile(path, "w") as rebuilt:
        for name, data in parts.items():
            rebuilt.writestr(name, data)
    with pytest.raises(ExtractError, match="corrupt"):
        read(path)


def test_office_files_are_documents_the_scanner_reads_and_an_index_rereads_when_the_reader_changes() -> None:
    assert set(OFFICE_SUFFIXES) <= DOCUMENT_SUFFIXES
    assert all(readers()[suffix] == OFFICE_READER for suffix in OFFICE_SUFFIXES)


def test_the_preview_marks_a_decks_slides_not_pages(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from desktop.widgets.preview import load_source

    path = tmp_path / "review.pptx"
    make_deck(path)
    shown = load_source(str(path)).text.splitlines()
    assert shown[0] == "──── slide 1 ────" and "──── slide 3 ────" in shown


def test_a_slide_show_and_macro_enabled_files_read_as_their_plain_kinds(tmp_path: Path) -> None:
    """.ppsx (a slide show) and .pptm/.xlsm (macros beside the content) hold the same parts."""
    import openpyxl

    deck = tmp_path / "review.pptx"
    make_deck(deck)
    book = openpyxl.Workbook()
    book.active.append(["Item", "Amount"])
    book.active.append(["Rent", 1200])
    book.save(str(tmp_path / "budget.xlsx"))
    for plain, other in (
        ("review.pptx", "review.ppsx"),
        ("review.pptx", "review.pptm"),
        ("budget.xlsx", "budget.xlsm"),
    ):
        (tmp_path / other).write_bytes((tmp_path / plain).read_bytes())
        assert texts(read(tmp_path / other)) == texts(read(tmp_path / plain)) != []
        assert (tmp_path / other).suffix in DOCUMENT_SUFFIXES


def make_budget(path: Path) -> None:
    """A workbook of one sheet a year, whose rows look alike but for their figures."""
    import openpyxl

    book = openpyxl.Workbook()
    for n, (year, rent, travel) in enumerate((("2024", 1100, 300), ("2025", 1250, 420))):
        sheet = book.active if n == 0 else book.create_sheet()
        sheet.title = year
        for row in (["Item", "Amount"], ["Rent", rent], ["Travel", travel]):
            sheet.append(row)
    book.save(str(path))


def test_a_sheets_name_is_its_rows_heading_and_the_previews_mark(tmp_path: Path) -> None:
    from engine.ingest.chunker import chunk

    path = tmp_path / "budget.xlsx"
    make_budget(path)
    doc = read(path)
    assert doc.page_names == ("2024", "2025")
    assert [(made.page, made.heading) for made in chunk(doc)] == [(1, "2024"), (2, "2025")]
    assert engine_document(path).page_names == ("2024", "2025")
    pytest.importorskip("PySide6")
    from desktop.widgets.preview import load_source

    assert "──── sheet 2 · 2025 ────" in load_source(str(path)).text.splitlines()


def engine_document(path: Path) -> DocumentLines:
    """The document as the preview reads it, at most 4 MB of a text file."""
    return read_document(path, 4 * 1024 * 1024)


def test_a_question_naming_a_sheet_is_answered_from_that_sheets_row(engine: Engine, tmp_path: Path) -> None:
    """Two sheets' "Rent" rows read alike; the sheet's name (its rows' heading) tells them apart."""
    root = tmp_path / "kb"
    root.mkdir()
    make_budget(root / "budget.xlsx")
    for n, tool in enumerate(["laptop", "vpn", "editor", "printer", "badge", "calendar"]):
        write(root, f"notes/setup_{n}.md", f"# Setting up the {tool}\n\nSet up the {tool} on day one.\n")
    engine.add_folder(root)
    engine.run(engine.sync())
    for question, page, said in (
        ("What was the rent in 2025?", 2, "Item=Rent; Amount=1250"),
        ("How much did travel cost in 2024?", 1, "Item=Travel; Amount=300"),
    ):
        answer = engine.ask(question, "extractive")
        assert not answer.refused, answer.reason
        cited = answer.sentences[0].citations[0]
        assert (cited.page, answer.text.split(" [")[0]) == (page, said), question


def test_a_deck_larger_than_the_previews_cap_is_read_whole_not_cut(tmp_path: Path) -> None:
    """The preview reads at most 4 MB of a text file; a zipped document cut there reads as corrupt (a
    deck's pictures pass 4 MB easily), so an extracted format is read whole."""
    import os

    path = tmp_path / "review.pptx"
    make_deck(path)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_STORED) as deck:
        deck.writestr("ppt/media/photo.bin", os.urandom(5 * 1024 * 1024))  # incompressible, as a photo is
    read_back = engine_document(path)
    assert not read_back.truncated
    assert "- Revenue grew 12% to 4.1 million euros" in [line.text for line in read_back.lines]


# ------------------------------------------------------------- bounds and the text a reader must not lose


def test_a_run_of_a_hundred_million_spaces_is_a_few_spaces_not_gigabytes(tmp_path: Path) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.text import P, S

    doc = OpenDocumentText()
    paragraph = P(text="Before")
    for _ in range(30):
        paragraph.addElement(S(c=100_000_000))
    paragraph.addText("after.")
    doc.text.addElement(paragraph)
    path = tmp_path / "spaces.odt"
    doc.save(str(path))
    assert texts(read(path)) == [(None, 1, "Before after.")]


def test_one_text_repeated_into_gigabytes_is_refused_and_a_part_listed_twice_read_once(
    tmp_path: Path,
) -> None:
    """A 100 KB shared string in a thousand cells of a few rows reads to hundreds of megabytes: refused
    as a bomb. A slide listed twice in the deck's slide list is read once."""
    import xlsxwriter

    path = tmp_path / "bomb.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet().write_string(0, 0, "okapi " * 5_000)  # 30 KB, stored once among the shared strings
    book.close()
    with zipfile.ZipFile(path) as original:
        parts = {name: original.read(name) for name in original.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    cell = sheet[sheet.index("<c ") : sheet.index("</c>") + len("</c>")]
    rows = (
        "".join(
            f'<row r="{r}">'
            + "".join(cell.replace('r="A1"', f'r="{chr(65 + c)}{r}"') for c in range(26))
            + "</row>"
            for r in range(1, 21)
        )
        * 3
    )  # 1,560 cells naming it, 26 a row: 47 million characters from 60 KB of XML
    start, end = sheet.index("<sheetData>"), sheet.index("</sheetData>")
    parts["xl/worksheets/sheet1.xml"] = (sheet[: start + len("<sheetData>")] + rows + sheet[end:]).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as rebuilt:
        for name, data in parts.items():
            rebuilt.writestr(name, data)
    with pytest.raises(ExtractError, match="possible bomb"):
        read(path)

    deck = tmp_path / "twice.pptx"
    make_deck(deck)
    with zipfile.ZipFile(deck) as original:
        parts = {name: original.read(name) for name in original.namelist()}
    listing = parts["ppt/presentation.xml"].decode()
    first = listing[listing.index("<p:sldId ") : listing.index("/>", listing.index("<p:sldId ")) + 2]
    parts["ppt/presentation.xml"] = listing.replace(first, first * 200).encode()
    with zipfile.ZipFile(deck, "w", zipfile.ZIP_DEFLATED) as rebuilt:
        for name, data in parts.items():
            rebuilt.writestr(name, data)
    assert sum(text == "# Quarterly review" for _, _, text in texts(read(deck))) == 1


def test_a_part_named_as_no_xml_still_counts_against_the_inflation_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chapter named "ch1.htm" (or a slide "slide3.dat") is no .xml by name: the zip check before the
    read does not weigh it, so each part a reader opens is counted as it is read."""
    import engine.ingest.extract as extract_module

    path = tmp_path / "book.epub"
    make_epub(path, ["<p>" + "The ferry leaves at seven. " * 200 + "</p>"] * 3)
    with zipfile.ZipFile(path) as original:
        parts = {
            name.replace(".xhtml", ".htm"): data
            for name, data in ((n, original.read(n)) for n in original.namelist())
        }
    parts["OEBPS/content.opf"] = parts["OEBPS/content.opf"].replace(b".xhtml", b".htm")
    with zipfile.ZipFile(path, "w") as rebuilt:
        for name, data in parts.items():
            rebuilt.writestr(name, data)
    assert len(texts(extract_module.extract_here(path, path.read_bytes()))) == 3
    monkeypatch.setattr(extract_module, "ZIP_MAX_XML_BYTES", 12_000)
    with pytest.raises(ExtractError, match="possible zip bomb"):
        extract_module.extract_here(path, path.read_bytes())


def test_a_word_files_insertions_content_controls_and_merged_cells_read_as_word_shows_them(
    tmp_path: Path,
) -> None:
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    body = document.element.body
    for xml in (
        f'<w:p {w}><w:r><w:t xml:space="preserve">Kept </w:t></w:r><w:ins w:id="1" w:author="A">'
        '<w:r><w:t xml:space="preserve">inserted </w:t></w:r></w:ins><w:del w:id="2" w:author="A"><w:r>'
        "<w:delText>deleted </w:delText></w:r></w:del><w:r><w:t>tail.</w:t></w:r></w:p>",
        f"<w:sdt {w}><w:sdtContent><w:p><w:r><w:t>Text in a content control.</w:t></w:r></w:p>"
        "</w:sdtContent></w:sdt>",
        f'<w:tbl {w}><w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Tall</w:t></w:r>'
        "</w:p></w:tc><w:tc><w:p><w:r><w:t>one</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/>"
        "</w:tcPr><w:p/></w:tc><w:tc><w:p><w:r><w:t>two</w:t></w:r></w:p></w:tc></w:tr></w:tbl>",
    ):
        body.insert(len(body) - 1, parse_xml(xml))
    path = tmp_path / "tracked.docx"
    document.save(str(path))
    assert [text for _, _, text in texts(read(path))] == [
        "Kept inserted tail.",
        "Text in a content control.",
        "| Tall | one |",
        "|  | two |",  # the merge's covered cell: empty, not "Tall" again
    ]


def test_a_sheets_comment_covered_cells_and_sub_tables_stay_out_of_its_rows(tmp_path: Path) -> None:
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import CoveredTableCell, Table, TableCell, TableRow
    from odf.text import P

    book = OpenDocumentSpreadsheet()
    table = Table(name="Tea")
    header = TableRow()
    for name in ("Name", "Price"):
        cell = TableCell()
        cell.addElement(P(text=name))
        header.addElement(cell)
    table.addElement(header)
    row = TableRow()
    named = TableCell()
    note = Annotation()
    note.addElement(P(text="Reviewer: check this"))
    named.addElement(note)
    named.addElement(P(text="Sencha"))
    row.addElement(named)
    hidden = CoveredTableCell()
    hidden.addElement(P(text="hidden under a merge"))
    row.addElement(hidden)
    table.addElement(row)
    book.spreadsheet.addElement(table)
    path = tmp_path / "tea.ods"
    book.save(str(path))
    doc = read(path)
    assert texts(doc) == [(1, 1, "Name; Price"), (1, 2, "Name=Sencha")]
    assert doc.page_names == ("Tea",)


def test_a_slides_newer_shapes_are_read_and_merged_cells_not_twice(tmp_path: Path) -> None:
    """A shape inside mc:AlternateContent (PowerPoint's newer shapes, an older program's copy beside them)
    is read from its Choice; a table cell a merge covers is not."""
    path = tmp_path / "deck.pptx"
    make_deck(path)
    with zipfile.ZipFile(path) as original:
        parts = {name: original.read(name) for name in original.namelist()}
    slide = parts["ppt/slides/slide3.xml"].decode()
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    box = slide[
        slide.index("<p:sp>", slide.index("<p:grpSp>")) : slide.index("</p:sp>", slide.index("<p:grpSp>")) + 7
    ]
    newer = box.replace("Hiring paused", "Hiring resumes in May")
    slide = slide.replace(
        "</p:spTree>",
        f'<mc:AlternateContent xmlns:mc="{mc}"><mc:Choice Requires="p14">{newer}</mc:Choice>'
        "<mc:Fallback><p:pic/></mc:Fallback></mc:AlternateContent></p:spTree>",
    )
    covered = slide.rindex("<a:tc>", 0, slide.index("Sales"))
    slide = slide[:covered] + '<a:tc hMerge="1">' + slide[covered + len("<a:tc>") :]
    parts["ppt/slides/slide3.xml"] = slide.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as rebuilt:
        for name, data in parts.items():
            rebuilt.writestr(name, data)
    third = [text for page, _, text in texts(read(path)) if page == 3]
    assert "Hiring resumes in May" in third and "| 14 |" in third


def test_a_layout_that_takes_the_bullets_off_makes_its_placeholders_text_not_items(tmp_path: Path) -> None:
    """The master sets a body placeholder's paragraphs with bullets; a Section Header's layout (or a
    Comparison's headings, a caption) takes them off in its own list style, as PowerPoint shows it."""
    from pptx import Presentation

    deck = Presentation()
    section = deck.slides.add_slide(deck.slide_layouts[2])  # Section Header
    section.shapes.title.text = "Part two"
    section.placeholders[1].text = "Where we go next"
    content = deck.slides.add_slide(deck.slide_layouts[1])  # Title and Content: bullets
    content.shapes.title.text = "Plan"
    content.placeholders[1].text = "Hire two engineers"
    path = tmp_path / "sections.pptx"
    deck.save(str(path))
    assert texts(read(path)) == [
        (1, 1, "# Part two"),
        (1, 2, "Where we go next"),
        (2, 1, "# Plan"),
        (2, 2, "- Hire two engineers"),
    ]
