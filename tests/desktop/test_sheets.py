"""The F1 sheet and the model table as users see them: nothing to scroll, clipped or repeated."""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QStyle, QTableWidget, QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.dialogs import SHORTCUTS, ShortcutSheet
from desktop.widgets.settings import SettingsDialog


def _no_scrolling(view: QAbstractItemView) -> None:
    assert view.verticalScrollBar().maximum() == 0, "the list scrolls vertically"
    assert view.horizontalScrollBar().maximum() == 0, "the list scrolls sideways"


def test_the_shortcut_sheet_fits_without_scrolling(qtbot: QtBot, window: MainWindow) -> None:
    window.show_shortcuts()
    qtbot.waitUntil(lambda: any(s.isVisible() for s in window.findChildren(ShortcutSheet)))
    sheet = next(s for s in window.findChildren(ShortcutSheet) if s.isVisible())
    table = sheet.findChild(QTableWidget)
    qtbot.waitExposed(sheet)
    _no_scrolling(table)
    assert table.rowCount() == len(SHORTCUTS)
    last = table.visualItemRect(table.item(table.rowCount() - 1, 1))
    assert last.bottom() <= table.viewport().height()
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        for column in range(2):
            text = table.item(row, column).text()
            assert table.columnWidth(column) >= metrics.horizontalAdvance(text), f"{text!r} is clipped"
    screen = window.screen().availableGeometry()
    assert sheet.frameGeometry().height() <= screen.height()


def test_the_model_table_shows_whole_names_and_useful_details(qtbot: QtBot, window: MainWindow) -> None:
    dialog = SettingsDialog(window.engine, window.tasks, window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.pages.setCurrentIndex(1)
    tree = dialog.models.tree
    specs = window.engine.locator.specs
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == len(specs), timeout=30_000)
    qtbot.waitExposed(dialog)
    qtbot.wait(50)  # the rows take their wrapped heights on the next layout pass
    assert tree.horizontalScrollBar().maximum() == 0
    for row in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(row)
        for column in (0, 1, 2):
            _shown_whole(tree, item, column)
        state, details = item.text(2), item.text(3)
        assert details and details != state, f"{item.text(0)}: details repeat the state"
        if state == "verified":
            assert re.search(r"\d+ (MB|GB|KB)", details), details
            assert item.toolTip(3), "the full path is a hover away"


def _shown_whole(tree: QTreeWidget, item: QTreeWidgetItem, column: int) -> None:
    """The cell's text fits its cell, wrapped at spaces where the column is narrower than the text."""
    rect = tree.visualItemRect(item)
    margin = tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1
    width = tree.columnWidth(column) - 2 * margin
    flags = int(Qt.TextFlag.TextWordWrap)
    needed = tree.fontMetrics().boundingRect(QRect(0, 0, width, 10_000), flags, item.text(column))
    assert needed.width() <= width and needed.height() <= rect.height(), f"{item.text(column)!r} is clipped"


def test_the_shortcut_sheet_lists_every_menu_shortcut(window: MainWindow) -> None:
    """A shortcut the menus offer and the F1 sheet leaves out is one a keyboard user never learns (Ctrl+N,
    New conversation, was missing)."""
    listed = {keys for row, _action in SHORTCUTS for keys in row.split(" (")[0].split(" or ")}
    offered = {
        shortcut.toString()
        for action in window.findChildren(QAction)
        for shortcut in action.shortcuts()
        if not shortcut.isEmpty()
    }
    assert offered - listed == set(), f"not on the F1 sheet: {sorted(offered - listed)}"
