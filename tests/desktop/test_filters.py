"""Per-folder include/exclude patterns and the search filters (folder, file type)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.dialogs import PatternsDialog
from desktop.widgets.search import ALL_FOLDERS, parse_types
from tests.conftest import write
from tests.desktop.conftest import index_folder, wait_idle


def _paths(qtbot: QtBot, window: MainWindow, query: str) -> list[str]:
    """Run a keyword search from the box; the result paths once they are listed."""
    with qtbot.waitSignal(window.search.results_shown, timeout=10_000):
        window.search.set_query(query)
    return [window.search.results.item(i).toolTip() for i in range(window.search.results.count())]


def _open_patterns(qtbot: QtBot, window: MainWindow) -> PatternsDialog:
    """Select the first folder and press Ctrl+Shift+P in the folder list."""
    tree = window.folders.tree
    tree.setCurrentItem(tree.topLevelItem(0))
    window.activateWindow()
    tree.setFocus()
    qtbot.waitUntil(tree.hasFocus)
    modifiers = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(tree, Qt.Key.Key_P, modifiers)

    def shown() -> PatternsDialog | None:
        return next((d for d in window.findChildren(PatternsDialog) if d.isVisible()), None)

    qtbot.waitUntil(lambda: shown() is not None)
    dialog = shown()
    assert dialog is not None
    return dialog


def test_exclude_pattern_drops_files(qtbot: QtBot, window: MainWindow, small_folder: Path) -> None:
    index_folder(qtbot, window, small_folder)
    assert _paths(qtbot, window, "quokka")[0].endswith("meeting.txt")

    dialog = _open_patterns(qtbot, window)
    assert (dialog.include.toPlainText(), dialog.exclude.toPlainText()) == ("", "")
    dialog.exclude.setPlainText("*.txt\n")
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    with qtbot.waitSignal(window.indexing.idle, timeout=60_000):
        ok.click()
    wait_idle(qtbot, window)

    assert _paths(qtbot, window, "quokka") == []
    assert _paths(qtbot, window, "zebracorn")[0].endswith("deploy.md")
    dialog = _open_patterns(qtbot, window)  # prefilled from the catalog
    assert dialog.exclude.toPlainText() == "*.txt"
    dialog.reject()


def test_search_filters_by_folder_and_type(
    qtbot: QtBot, window: MainWindow, small_folder: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    write(other, "plan.md", "# Plan\n\nThe zebracorn pipeline gets a second stage.\n")
    write(other, "stage.py", '"""zebracorn stage."""\n\n\ndef zebracorn_stage():\n    return 1\n')
    write(small_folder, "src/pipe.py", '"""The zebracorn pipeline runner."""\n\n\ndef run():\n    return 0\n')
    index_folder(qtbot, window, small_folder)
    index_folder(qtbot, window, other)
    search = window.search
    qtbot.waitUntil(lambda: search.folder_filter.count() == 3)
    qtbot.waitUntil(lambda: search.type_filter.findText("py") >= 0)
    assert search.folder_filter.currentText() == ALL_FOLDERS

    window.focus_search()
    everything = _paths(qtbot, window, "zebracorn")
    assert {Path(p).name for p in everything} >= {"deploy.md", "plan.md", "stage.py", "pipe.py"}

    with qtbot.waitSignal(search.results_shown, timeout=10_000):
        search.folder_filter.setCurrentIndex(search.folder_filter.findData(str(other)))
    names = [Path(search.results.item(i).toolTip()).name for i in range(search.results.count())]
    assert sorted(names) == ["plan.md", "stage.py"]

    with qtbot.waitSignal(search.results_shown, timeout=10_000):
        search.folder_filter.setCurrentIndex(0)
    with qtbot.waitSignal(search.results_shown, timeout=10_000):
        search.type_filter.setCurrentIndex(search.type_filter.findText("py"))
    names = [Path(search.results.item(i).toolTip()).name for i in range(search.results.count())]
    assert sorted(names) == ["pipe.py", "stage.py"]

    # Tab goes from the box through both filters to the results.
    search.box.setFocus()
    for widget in (search.folder_filter, search.type_filter, search.results):
        qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Tab)
        qtbot.waitUntil(lambda w=widget: window.focusWidget() is w)


def test_parse_types() -> None:
    assert parse_types("All types") == []
    assert parse_types(" md, .PY;txt ") == ["md", "py", "txt"]
    assert parse_types("") == []
