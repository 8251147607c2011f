"""Reading order, span boxes and the page cache format (pure: no OCR engine needed)."""

from __future__ import annotations

from engine.eval.ocr_bench import cer, levenshtein, overlap
from engine.ingest.pages import Fragment, PageText, TextLine, reading_order, span_boxes


def frag(text: str, x0: float, y0: float, x1: float, y1: float) -> Fragment:
    return Fragment(text, (x0, y0, x1, y1))


def texts(lines: list[TextLine]) -> list[str]:
    return [line.text for line in lines]


def two_column_page(title_width: float) -> list[Fragment]:
    """A title, then eight lines in each of two columns, given right column first, in scrambled order."""
    out = [frag("Title", 0.1, 0.05, 0.1 + title_width, 0.08)]
    for row in range(8):
        y = 0.12 + row * 0.03
        out.append(frag(f"right {row}", 0.53, y, 0.9, y + 0.02))
        out.append(frag(f"left {row}", 0.1, y, 0.46, y + 0.02))
    return out[::-1]


def test_two_columns_read_down_the_left_column_then_the_right() -> None:
    for title_width in (0.2, 0.45, 0.8):  # a short title, one that crosses the gutter, a full-width one
        lines = texts(reading_order(two_column_page(title_width)))
        assert lines == ["Title", *(f"left {r}" for r in range(8)), *(f"right {r}" for r in range(8))]


def test_a_full_width_line_between_two_column_bands_cuts_the_page() -> None:
    page = two_column_page(0.2)
    page.append(frag("Full width rule of text", 0.1, 0.40, 0.9, 0.42))
    for row in range(4):
        y = 0.45 + row * 0.03
        page += [
            frag(f"lower left {row}", 0.1, y, 0.46, y + 0.02),
            frag(f"lower right {row}", 0.53, y, 0.9, y + 0.02),
        ]
    lines = texts(reading_order(page))
    cut = lines.index("Full width rule of text")
    assert lines[cut - 1] == "right 7" and lines[cut + 1] == "lower left 0" and lines[-1] == "lower right 3"


def test_table_rows_stay_rows_and_a_paragraph_stays_one_column() -> None:
    cells = [
        frag(text, x, 0.1 + row * 0.03, x + 0.08, 0.12 + row * 0.03)
        for row in range(6)
        for text, x in ((f"item{row}", 0.1), (f"P-{row}", 0.4), (f"{row * 7}", 0.6), (f"{row}.50", 0.8))
    ]
    assert texts(reading_order(cells[::-1]))[:2] == ["item0 P-0 0 0.50", "item1 P-1 7 1.50"]
    paragraph = [
        frag(f"line {n} of a paragraph", 0.1, 0.1 + n * 0.03, 0.85, 0.12 + n * 0.03) for n in range(9)
    ]
    paragraph.append(frag("short last line", 0.1, 0.4, 0.3, 0.42))
    assert texts(reading_order(paragraph[::-1])) == [f.text for f in paragraph]


def test_layout_boxes_order_a_skewed_page_as_if_straight() -> None:
    """On a turned page the lines' boxes overlap their neighbours' heights; their straightened boxes do
    not, and the lines keep their own (turned) boxes for drawing."""
    drawn = [frag(f"line {n}", 0.1, 0.10 + n * 0.02, 0.9, 0.16 + n * 0.02) for n in range(5)]
    straight = [(0.1, 0.12 + n * 0.02, 0.9, 0.13 + n * 0.02) for n in range(5)]
    assert len(reading_order(drawn)) < 5  # without the straightened boxes, lines merge into rows
    lines = reading_order(drawn, straight)
    assert texts(lines) == [f"line {n}" for n in range(5)]
    assert lines[0].box == drawn[0].box


def test_span_boxes_cut_a_fragment_to_the_quote_and_span_lines() -> None:
    lines = [
        TextLine((frag("abcd efgh", 0.0, 0.0, 0.9, 0.1),)),
        TextLine((frag("ijkl", 0.0, 0.2, 0.4, 0.3),)),
    ]
    (box,) = span_boxes(lines, "EFGH")
    assert abs(box[0] - 0.5) < 1e-9 and abs(box[2] - 0.9) < 1e-9 and box[1] == 0.0
    assert len(span_boxes(lines, "efgh   ijkl")) == 2
    assert span_boxes(lines, "not there") == [lines[0].box, lines[1].box]
    assert span_boxes(lines) == [lines[0].box, lines[1].box]


def test_page_text_survives_its_json_form() -> None:
    page = PageText(3, 1700, 2200, tuple(reading_order(two_column_page(0.3))))
    again = PageText.from_json(page.to_json())
    assert again.page == 3 and texts(list(again.lines)) == texts(list(page.lines))
    assert all(
        abs(a - b) < 1e-4
        for x, y in zip(again.lines, page.lines, strict=True)
        for a, b in zip(x.box, y.box, strict=True)
    )


def test_benchmark_measures() -> None:
    def slow(a: str, b: str) -> int:
        previous = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            current = [i]
            for j, cb in enumerate(b, 1):
                current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
            previous = current
        return previous[-1]

    pairs = [("kitten", "sitting"), ("", "abc"), ("flaw", "lawn"), ("a b c " * 40, "a c b " * 41)]
    assert all(levenshtein(a, b) == slow(a, b) for a, b in pairs)
    assert cer("The  cat\nsat", "The cat sat") == 0.0
    assert overlap([(0.1, 0.1, 0.3, 0.2)], [(0.1, 0.1, 0.3, 0.2)])[0] > 0.99
    iou, covered = overlap([(0.1, 0.1, 0.5, 0.2)], [(0.1, 0.1, 0.3, 0.2)])
    assert 0.45 < iou < 0.55 and covered > 0.99
