"""Search results as users see them (issue 18 item 3): the path relative to its folder, a snippet around the
match with the query's words in bold (markup in files shown as text), the words marked in the preview too;
and the type filter that reads "All types" at 800x600."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics, QTextBlock, QTextCursor, QTextDocument
from PySide6.QtWidgets import QListWidgetItem
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.highlight import TERM_COLOR
from desktop.widgets.results import SNIPPET_ROLE, elide_title, plain, snippet_document
from tests.conftest import write
from tests.desktop.conftest import index_folder

FILLER = " ".join(f"word{n}" for n in range(60))


@pytest.fixture
def packages(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, "alpha/__init__.py", '"""Alpha: the zebracorn loader."""\n')
    write(root, "beta/__init__.py", '"""Beta: the zebracorn writer."""\n')
    body = f"{FILLER} The release deploys <b>zebracorn</b> & friends nightly. {FILLER}"
    write(root, "docs/release.md", f"# Release\n\n{body}\n\nOther text.\n\nWe deploy by hand on Fridays.\n")
    return root


def _search(qtbot: QtBot, window: MainWindow, query: str) -> list[QListWidgetItem]:
    with qtbot.waitSignal(window.search.results_shown, timeout=10_000):
        window.search.set_query(query)
    return [window.search.results.item(i) for i in range(window.search.results.count())]


def _shown_document(window: MainWindow, item: QListWidgetItem) -> QTextDocument:
    """The snippet as the row draws it (the delegate's document at the row's width)."""
    results = window.search.results
    return snippet_document(item.data(SNIPPET_ROLE), results.font(), results.viewport().width() - 8)


def _bold_words(doc: QTextDocument) -> list[str]:
    words: list[str] = []
    cursor, current = QTextCursor(doc), ""
    for position in range(1, doc.characterCount()):
        cursor.setPosition(position)
        char = doc.characterAt(position - 1)
        if cursor.charFormat().fontWeight() >= QFont.Weight.Bold and char.strip():
            current += char
        elif current:
            words, current = [*words, current], ""
    return words + ([current] if current else [])


def test_each_result_shows_its_path_within_the_folder(
    qtbot: QtBot, window: MainWindow, packages: Path
) -> None:
    index_folder(qtbot, window, packages)
    items = _search(qtbot, window, "zebracorn loader writer")
    titles = {item.text().split("\n")[0] for item in items}
    assert {"alpha/__init__.py:1", "beta/__init__.py:1"} <= titles  # not two alike "__init__.py:1"
    assert {item.toolTip() for item in items} >= {str(packages / "alpha/__init__.py")}


def test_the_snippet_shows_the_match_in_bold_and_markup_as_text(
    qtbot: QtBot, window: MainWindow, packages: Path
) -> None:
    index_folder(qtbot, window, packages)
    items = _search(qtbot, window, "deploy")
    item = next(i for i in items if "deploys" in i.text())
    doc = _shown_document(window, item)
    text = doc.toPlainText()
    assert "deploys <b>zebracorn</b> & friends" in text  # the word is shown, the markup is text
    assert "deploys" in _bold_words(doc) and "zebracorn" not in _bold_words(doc)
    assert doc.firstBlock().layout().lineCount() <= 3


def test_a_long_snippet_keeps_the_lines_around_its_first_match() -> None:
    marked = " ".join(f"lead{n}" for n in range(40)) + " the **rollback** window " + FILLER
    font = QFont()
    doc = snippet_document(marked, font, 240)
    text = doc.toPlainText()
    assert doc.firstBlock().layout().lineCount() <= 3
    assert "rollback" in _bold_words(doc)
    assert text.startswith("…") and text.endswith("…")
    assert "lead0 " not in text  # the lines before the match gave way


def test_a_long_title_gives_way_before_the_file_name() -> None:
    metrics = QFontMetrics(QFont())
    title = "very/deeply/nested/folders/of/the/project/__init__.py:12-40"
    width = metrics.horizontalAdvance("__init__.py:12-40") + metrics.horizontalAdvance("…/nested") + 2
    shown = elide_title(title, metrics, width)
    assert shown.endswith("/__init__.py:12-40") and shown.startswith("…")
    assert metrics.horizontalAdvance(shown) <= width


def test_opening_a_result_marks_the_words_in_the_preview(
    qtbot: QtBot, window: MainWindow, packages: Path
) -> None:
    index_folder(qtbot, window, packages)
    items = _search(qtbot, window, "deploy")
    item = next(i for i in items if "deploys" in i.text())
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.search.results.itemActivated.emit(item)
    view = window.preview.view
    marked = {
        block.text()[r.start : r.start + r.length]
        for block in _blocks(view.document())
        for r in block.layout().formats()
        if r.format.background().color() == TERM_COLOR and r.format.fontWeight() >= QFont.Weight.Bold
    }
    assert marked == {"deploys", "deploy"}  # in the hit and beyond it
    tinted = [s.cursor.selectedText() for s in view.extraSelections() if s.format.background() == TERM_COLOR]
    assert "deploys" in tinted  # drawn over the cited span's tint too
    assert "deploys" in view.textCursor().block().text()  # scrolled to the word


def _blocks(doc: QTextDocument) -> list[QTextBlock]:
    block, out = doc.firstBlock(), []
    while block.isValid():
        out.append(block)
        block = block.next()
    return out


def test_the_type_filter_reads_all_types_at_800_by_600(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    combo, edit = window.search.type_filter, window.search.type_filter.lineEdit()
    shown = edit.text() or edit.placeholderText()
    assert shown == "All types"
    room = edit.width() - edit.textMargins().left() - edit.textMargins().right() - 4  # QLineEdit's margin
    assert edit.fontMetrics().horizontalAdvance(shown) <= room, f"{shown!r} is cut in {edit.width()} px"
    combo.setCurrentIndex(combo.findText("All types"))
    combo.textActivated.emit("All types")
    assert window.search.filters() == (None, [])


def test_a_markdown_snippet_reads_as_text_with_the_match_in_bold(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """No `## `, `**`, `[text](url)`, table rules or list markers in a Markdown file's snippet; a code
    file's snippet keeps its syntax (its `#` is a comment)."""
    root = tmp_path / "wiki"
    write(
        root,
        "guide.md",
        "## Restoring a laptop\n\n"
        "- Open the [restore guide](https://example.com/restore) first\n"
        "* Choose **Restore everything** and keep `__init__.py` files\n\n"
        "| Step | Time |\n|------|------|\n| Kestrel restore | 40 min |\n\n"
        "### Kestrel box\n\n> The _kestrel_ box keeps snake_case_names.\n",
    )
    write(root, "tool.py", "# kestrel helper: restore from the box\nx = 1\n")
    index_folder(qtbot, window, root)
    items = _search(qtbot, window, "kestrel")
    guide = next(i for i in items if i.toolTip().endswith("guide.md"))
    text = plain(guide.data(SNIPPET_ROLE))  # all of it (a row shows the lines around the match)
    for syntax in ("##", "**", "](", "[restore", "|---", "- Open", "* Choose", "> The", "`", "_kestrel_"):
        assert syntax not in text, f"{syntax!r} in {text!r}"
    for words in ("restore guide first", "Choose Restore everything", "__init__.py", "Kestrel box The"):
        assert words in text, f"{words!r} not in {text!r}"
    assert "snake_case_names" in text
    assert "kestrel" in [w.lower() for w in _bold_words(_shown_document(window, guide))]
    assert "Kestrel restore · 40 min" in text
    tool = next(i for i in items if i.toolTip().endswith("tool.py"))
    assert _shown_document(window, tool).toPlainText().startswith("# kestrel helper")
