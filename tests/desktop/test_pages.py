"""The page view: a PDF citation opens on its page with the quoted span boxed and in view; pages turn, the
page zooms, and Text swaps the page for the extracted text; an OCR'd image shows its boxed line too."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.pages import BOX_EDGE
from desktop.widgets.preview import SourcePreview, SourceTarget
from engine.eval.ocrset import PageSpec, TextRun, text_pdf
from engine.ingest import ocr
from tests.desktop.conftest import wait_idle


def handbook(tmp_path: Path) -> Path:
    pages = [
        PageSpec([TextRun(f"Chapter {n}: general notes", 72, 90, "Helvetica", 14)], "", "") for n in (1, 2, 3)
    ]
    pages[1].runs.append(TextRun("Receipts are kept for seven years by finance", 72, 600, "Times-Roman", 12))
    path = tmp_path / "handbook.pdf"
    path.write_bytes(text_pdf(pages))
    return path


def shown(widget: QWidget) -> bool:
    """Not hidden by the preview (the window may show its welcome page over the whole preview)."""
    return not widget.isHidden()


def edge_pixels(window: MainWindow) -> int:
    """How many pixels of the drawn page carry the span's frame colour."""
    image = window.preview.pages.image.pixmap().toImage()
    edge = QColor(BOX_EDGE).rgb()
    step = 2
    return sum(
        1
        for y in range(0, image.height(), step)
        for x in range(0, image.width(), step)
        if image.pixel(x, y) == edge
    )


def test_a_pdf_citation_opens_on_its_page_boxed_and_turns_zooms_and_shows_text(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    pdf = handbook(tmp_path)
    preview, pages = window.preview, window.preview.pages
    with qtbot.waitSignal(pages.shown, timeout=20_000) as drawn:
        preview.open_target(SourceTarget(str(pdf), 2, 2, page=2, quote="kept for seven years"))
    span = drawn.args[0]
    assert span.page == 2 and span.pages == 3 and len(span.boxes) == 1
    x0, y0, x1, y1 = span.boxes[0]
    assert 0.1 < x0 < x1 < 0.9 and 0.7 < y0 < y1 < 0.8  # the run sits 600 of 792 points down
    assert pages.label.text() == "page 2 of 3" and shown(pages.area) and not shown(preview.view)
    assert edge_pixels(window) > 20
    bar = pages.area.verticalScrollBar()
    assert bar.maximum() == 0 or bar.value() > 0  # scrolled down to the span, low on the page
    width = pages.image.pixmap().width()
    with qtbot.waitSignal(pages.shown, timeout=20_000):
        pages.zoom_by(2.0)
    assert pages.image.pixmap().width() > 1.5 * width
    with qtbot.waitSignal(pages.shown, timeout=20_000):
        pages.turn(1)
    assert pages.label.text() == "page 3 of 3" and not pages.next.isEnabled()
    assert edge_pixels(window) == 0  # the span is on page 2 only
    qtbot.waitUntil(lambda: "Receipts" in preview.view.toPlainText(), timeout=20_000)
    pages.text.click()
    assert shown(preview.view) and not shown(pages.area) and shown(pages)
    pages.text.click()
    assert shown(pages.area) and not shown(preview.view)


def test_a_text_file_shows_no_page_bar(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nplain text\n", encoding="utf-8")
    with qtbot.waitSignal(window.preview.shown, timeout=20_000):
        window.preview.open_target(SourceTarget(str(note), 3, 3))
    assert not shown(window.preview.pages) and shown(window.preview.view)


@pytest.mark.skipif(ocr.available() is not None, reason=f"OCR is not installed here: {ocr.available()}")
def test_an_ocr_image_citation_is_boxed_on_the_image(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    from tests.test_ocr import SECOND, text_image

    folder = tmp_path / "scans"
    folder.mkdir()
    data, truth = text_image(["Pump maintenance every 250 hours", SECOND])
    (folder / "memo.png").write_bytes(data)
    engine = window.engine
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    list(engine.ocr_pending())
    hit = engine.search("PSV-101", mode="keyword").hits[0]
    with qtbot.waitSignal(window.preview.pages.shown, timeout=30_000) as drawn:
        window.preview.open_target(SourceTarget(hit.path, hit.start_line, hit.end_line, hit.page, SECOND))
    span = drawn.args[0]
    assert span.ocr and len(span.boxes) == 1
    assert abs(span.boxes[0][1] - truth[1][1]) < 0.05  # the second line, not the first
    assert edge_pixels(window) > 20
    qtbot.waitUntil(lambda: SECOND in window.preview.view.toPlainText(), timeout=20_000)


def test_the_page_view_is_given_its_engine_and_works_outside_the_main_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A preview in a window of its own (a detached one, a dialog) draws pages as well: the engine is
    passed in, not looked up on the main window."""
    preview = SourcePreview(window.engine, window.tasks)
    qtbot.addWidget(preview)
    preview.resize(600, 700)
    preview.show()
    qtbot.waitExposed(preview)
    assert preview.window() is preview and preview.pages.engine is window.engine
    with qtbot.waitSignal(preview.pages.shown, timeout=20_000) as drawn:
        preview.open_target(SourceTarget(str(handbook(tmp_path)), 2, 2, page=2, quote="kept for seven years"))
    assert drawn.args[0] is not None and drawn.args[0].page == 2
    assert shown(preview.pages.area) and preview.pages.label.text() == "page 2 of 3"
    wait_idle(qtbot, window)


def test_the_box_tints_the_paper_and_leaves_the_cited_words_as_dark_as_they_are_printed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """The tint was painted over the page at 43% opacity: the black letters of the cited span turned a
    grey-brown (110, 93, 52) in the walkthrough, the one passage the user came to read was the faintest
    text on the page. The paper takes the tint; the ink keeps its darkness."""
    pdf = handbook(tmp_path)
    pages = window.preview.pages
    with qtbot.waitSignal(pages.shown, timeout=20_000) as drawn:
        window.preview.open_target(SourceTarget(str(pdf), 2, 2, page=2, quote="kept for seven years"))
    shown_image = pages.image.pixmap().toImage()
    raw = window.engine.render_page(str(pdf), 2, shown_image.width())
    printed = QImage(raw.rgb, raw.width, raw.height, raw.width * 3, QImage.Format.Format_RGB888)
    rect = pages._rect(drawn.args[0].boxes[0], raw).toRect().adjusted(4, 4, -4, -4)  # inside the frame

    def darkest(image: QImage) -> int:
        return min(
            QColor(image.pixel(x, y)).lightness()
            for y in range(rect.top(), rect.bottom())
            for x in range(rect.left(), rect.right())
        )

    def paper(image: QImage) -> QColor:
        return QColor(image.pixel(rect.left() + 1, rect.top() + 1))

    assert darkest(printed) < 60  # the letters are there, and dark
    assert darkest(shown_image) <= darkest(printed) + 8
    assert paper(shown_image) != paper(printed)  # and the span is still marked
