"""The source preview: a PDF as extracted text with page markers; engine code never pulls in Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
