"""While scans are read (the OCR phase after the vectors), the folder list and the status line say so, with
a percent and the time left from the measured rate: before, both showed nothing for minutes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.tasks import Job
from engine.ingest import ocr
from tests.desktop.conftest import index_folder

READING = "reading scans"  # the folder's state while its scans are read

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(ocr.available() is not None, reason=f"OCR is not installed here: {ocr.available()}"),
]


def test_reading_scans_shows_in_the_folder_list_and_the_status_line(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    from tests.test_ocr import text_image

    folder = tmp_path / "scans"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nA plain note about the garden.\n", encoding="utf-8")
    for name, line in (("memo.png", "Pump maintenance every 250 hours"), ("log.png", "Valve PSV-101 tested")):
        (folder / name).write_bytes(text_image([line])[0])
    labels: list[str] = []
    lines: list[str] = []
    rows: list[str] = []

    def look(_job: Job | None = None) -> None:
        view = window.indexing.views.get(str(folder.resolve()))
        if view is not None:
            labels.append(view.label)
        lines.append(window.status_line.text())
        item = window.folders.tree.topLevelItem(0)
        if item is not None:
            rows.append(item.text(1))

    window.tasks.progress.connect(look)
    index_folder(qtbot, window, folder, timeout=180_000)
    reading = [label for label in labels if label.startswith(READING)]
    assert reading, labels
    assert any(label.endswith("left") and "%" in label for label in reading), reading
    assert any(row.startswith(f"{READING} ") for row in rows), rows
    said = [line for line in lines if line.startswith("Reading scans in “scans”: ")]
    assert any(" of 2 pages · " in line and line.endswith("left") for line in said), lines
    view = window.indexing.views[str(folder.resolve())]
    assert view.state == "watching" and not view.detail
    hits = window.engine.search("PSV-101", mode="keyword").hits
    assert [Path(h.path).name for h in hits][:1] == ["log.png"]


def test_once_its_scans_are_read_the_folder_counts_them_as_indexed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """The keyword pass skips an image (it has no text yet); OCR then reads it and it is searchable, so
    the folder list must not keep saying '1 (+1 skipped)' (seen in the walkthrough until another folder
    was added)."""
    from tests.test_ocr import text_image

    folder = tmp_path / "scans"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nA plain note about the garden.\n", encoding="utf-8")
    (folder / "log.png").write_bytes(text_image(["Valve PSV-101 tested"])[0])
    index_folder(qtbot, window, folder, timeout=180_000)
    assert [Path(h.path).name for h in window.engine.search("PSV-101", mode="keyword").hits] == ["log.png"]
    view = window.indexing.views[str(folder.resolve())]
    assert (view.indexed, view.skipped) == (2, 0)
    assert window.folders.tree.topLevelItem(0).text(2) == "2"
