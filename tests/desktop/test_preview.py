"""The source preview: a PDF as extracted text with page markers; engine code never pulls in Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.preview import SourceTarget
from tests.test_extract import make_pdf

REPO = Path(__file__).resolve().parents[2]


def test_pdf_opens_at_the_cited_page_and_line(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(
        make_pdf([["Welcome aboard", "Badges at reception"], ["Expenses", "Receipts within 30 days"]])
    )
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.preview.open_target(SourceTarget(str(pdf), 2, 2, page=2, quote="Receipts within 30 days"))
    view = window.preview.view
    block = view.textCursor().block()
    assert block.text() == "Receipts within 30 days"
    assert block.previous().previous().text() == "──── page 2 ────"
    assert window.preview.where.text() == "page 2, line 2"


def test_a_missing_file_is_an_error_in_the_banner(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.preview.open_target(SourceTarget(str(tmp_path / "gone.md"), 3, 3))
    qtbot.waitUntil(window.banner.isVisible)
    assert "Traceback" not in window.banner.text


def test_engine_never_imports_qt() -> None:
    code = (
        "import sys, engine.api, engine.cli, engine.ingest.watcher\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'desktop'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, timeout=120)


def test_the_cited_band_covers_every_cited_line_to_the_right_edge(qtbot: QtBot) -> None:
    from desktop.theme import code_colors
    from desktop.widgets.codeview import CodeView

    view = CodeView()
    qtbot.addWidget(view)
    view.resize(600, 320)
    view.setPlainText("\n".join(f"line {n}" for n in range(20)))
    view.show()
    band = QColor(code_colors().span).name()

    def edge(block: int) -> str:  # the colour at the right edge of a block's line, as painted
        image = view.viewport().grab().toImage()
        line = view.document().findBlockByNumber(block)
        rect = view.blockBoundingGeometry(line).translated(view.contentOffset())
        return image.pixelColor(image.width() - 8, int(rect.center().y())).name()

    for first, last in ((3, 5), (17, 19)):  # inside the text, and ending on the document's last line
        view.show_span(first, last, quote=f"line {first + 1}")
        qtbot.wait(50)
        painted = [edge(n) for n in range(first - 1, min(last + 2, 20))]
        inside = [edge(n) for n in range(first, last + 1)]
        assert inside == [band] * len(inside), painted
        assert edge(first - 1) != band, painted
        if last + 1 < 20:
            assert edge(last + 1) != band, painted
