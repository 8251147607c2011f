"""Open in editor with no application to open the file (issue 18 item 4): the preview's and the answer view's
button say so with a hint and offer Copy path:line and Show in folder, which work or say they could not.

Offscreen, Qt has no desktop services at all; under Xvfb (the xcb platform, no xdg-open installed) it finds
no launcher. Both make QDesktopServices.openUrl return False; the Xvfb test runs this file's tests there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.widgets.editor import EditorFallback
from desktop.widgets.preview import SourceTarget
from engine.events import EvidenceReady, Hit
from tests.conftest import write

REPO = Path(__file__).resolve().parents[2]
# What Qt logs when nothing opens a file: offscreen (no services), xcb (no launcher found)
NO_HANDLER = ("This plugin does not support QPlatformServices::openDocument()", "Launch of ")
EXPECTED_PLATFORM = os.environ.get("CITELINE_TEST_PLATFORM", "offscreen")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write(tmp_path / "proj" / "pkg", "__init__.py", '"""The package."""\n\nVALUE = 1\n\nOTHER = 2\n')


def _expected_warnings(qt_messages: list[str]) -> None:
    """Drop the warnings Qt logs for a file nothing opens (they are the path under test), and only those."""
    seen = [m for m in qt_messages if any(k in m for k in NO_HANDLER)]
    assert seen, "Qt did not report the missing handler"
    for message in seen:
        qt_messages.remove(message)


def _fallback(qtbot: QtBot, window: MainWindow) -> EditorFallback:
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(EditorFallback)))
    return next(d for d in window.findChildren(EditorFallback) if d.isVisible())


def _check_fallback(dialog: EditorFallback, path: Path, line: int) -> None:
    assert dialog.message.text() == f"Could not open {path.name} in an editor."
    assert "No application on this computer is set to open .py files" in dialog.hint.text()
    assert dialog.copy_button.text() == "Copy path:line" and dialog.folder_button.text() == "Show in folder"
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == f"{path}:{line}"
    assert dialog.status.text() == "Copied to the clipboard."
    dialog.folder_button.click()  # no file manager either, in this environment
    assert dialog.status.text().startswith(f"Could not open the folder {path.parent} either")


def test_the_preview_says_why_and_offers_the_path_and_the_folder(
    qtbot: QtBot, window: MainWindow, source: Path, qt_messages: list[str]
) -> None:
    assert QGuiApplication.platformName() == EXPECTED_PLATFORM
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.preview.open_target(SourceTarget(str(source), 3, 3))
    assert window.preview.open_button.isEnabled()
    window.preview.open_button.click()
    _check_fallback(_fallback(qtbot, window), source, 3)
    _expected_warnings(qt_messages)


def test_the_answer_view_says_why_and_offers_the_path_and_the_folder(
    qtbot: QtBot, window: MainWindow, source: Path, qt_messages: list[str]
) -> None:
    hit = Hit(1, str(source), 5, 5, None, "", "OTHER = 2", 1.0, snippet="OTHER = 2")
    window.answer.begin("What is OTHER?")
    window.answer.apply([EvidenceReady((hit,))])
    assert window.answer.editor_button.isEnabled()
    window.answer.editor_button.click()
    _check_fallback(_fallback(qtbot, window), source, 5)
    _expected_warnings(qt_messages)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="Xvfb is a Linux test")
def test_the_same_under_xvfb_with_no_handler(tmp_path: Path) -> None:
    """The tests above in a real X server (xcb), where Qt looks for a launcher and finds none."""
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed (bootstrap.py test installs it where apt-get can)")
    if shutil.which("xdg-open") is not None:
        pytest.skip("xdg-open is installed: a handler may exist here")
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "CITELINE_TEST_PLATFORM": "xcb"}
    command = [sys.executable, "-m", "pytest", str(Path(__file__)), "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", *command, "-k", "not xvfb"],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "2 passed" in result.stdout
