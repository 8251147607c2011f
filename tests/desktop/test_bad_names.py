"""File names that are not valid UTF-8 (lone surrogates in Python) or that hold a newline or a control
character: Qt silently drops a lone surrogate, so the window showed 'badname.md', a file that does not exist.
Every place a path is shown escapes it (engine.api.shown), and the real path is what is opened."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.explorer import PATH_ROLE, IndexExplorer
from desktop.widgets.preview import SourceTarget
from desktop.widgets.search import HIT_ROLE
from engine.api import shown
from tests.desktop.conftest import index_folder, wait_idle
from tests.hostile.cases import bad_names

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")

ESCAPED = ("bad\\xffname.md", "new\\nline.md", "tab\\tand\\x01ctl.txt", "\\xe9t\\xe9-latin1.md")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = tmp_path / "names"
    root.mkdir()
    bad_names(root)
    return root


def test_bad_file_names_are_shown_escaped_and_opened_by_their_real_path(
    qtbot: QtBot, window: MainWindow, hostile: Path
) -> None:
    window.engine.settings = window.engine.settings.model_copy(update={"generator": "extractive"})
    index_folder(qtbot, window, hostile)
    search = window.search
    search.set_query("okapi ledger")
    qtbot.waitUntil(lambda: search.results.count() == 4, timeout=20_000)
    texts = [search.results.item(i).text() for i in range(4)]
    for name in ESCAPED:
        assert any(t.startswith(name + ":") for t in texts), (name, texts)
    assert not any("badname" in t for t in texts)
    bad = next(i for i in range(4) if texts[i].startswith("bad\\xffname.md"))
    hit = search.results.item(bad).data(HIT_ROLE)
    assert hit.path.endswith("bad\udcffname.md")  # the real name, kept whole
    assert search.results.item(bad).toolTip() == shown(hit.path)
    with qtbot.waitSignal(window.preview.shown, timeout=20_000):
        window.preview.open_target(SourceTarget(hit.path, 1, 1))
    assert window.preview.title.text().replace("\u200b", "") == "bad\\xffname.md"
    assert "okapi ledger lists" in window.preview.view.toPlainText()  # read from the real file
    with qtbot.waitSignal(window.answer.answered, timeout=60_000):
        window.ask("What does the okapi ledger list?")
    labels = [window.answer.evidence.item(i).text() for i in range(window.answer.evidence.count())]
    assert labels and all("badname" not in label and "\n" not in label for label in labels), labels
    assert any("bad\\xffname.md:1" in label for label in labels), labels
    wait_idle(qtbot, window)


def test_the_explorer_shows_bad_names_escaped_and_keeps_the_real_paths(
    qtbot: QtBot, window: MainWindow, hostile: Path
) -> None:
    index_folder(qtbot, window, hostile)
    explorer = IndexExplorer(window.engine, window.tasks, window)
    qtbot.addWidget(explorer)
    explorer.load()
    qtbot.waitUntil(lambda: explorer.tree.topLevelItemCount() == 4, timeout=20_000)
    items = [explorer.tree.topLevelItem(i) for i in range(4)]
    assert sorted(i.text(0) for i in items) == sorted(ESCAPED)
    real = {str(i.data(0, PATH_ROLE)) for i in items}
    assert real == {str(p) for p in hostile.iterdir()}
    wait_idle(qtbot, window)
