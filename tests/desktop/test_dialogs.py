"""Settings (persisted), the keyring guard, the model manager, the shortcut sheet, the log viewer."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop import secrets
from desktop.logs import log_path, setup_logging
from desktop.mainwindow import MainWindow
from desktop.widgets.dialogs import LogViewer, ShortcutSheet
from desktop.widgets.settings import SettingsDialog
from engine.errors import MissingDependency


def test_settings_are_saved_to_the_data_dir(qtbot: QtBot, window: MainWindow) -> None:
    dialog = SettingsDialog(window.engine, window.tasks, window)
    qtbot.addWidget(dialog)
    dialog.generator.setCurrentIndex(dialog.generator.findData("extractive"))
    dialog.threads.setValue(3)
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    assert dialog.rerank.currentData() == "maxsim-rrf" and not dialog.rerank_answers.isChecked()
    dialog.rerank.setCurrentIndex(dialog.rerank.findData("maxsim"))
    dialog.rerank_answers.setChecked(True)
    with qtbot.waitSignal(dialog.saved):
        dialog.save()
    saved = json.loads((window.engine.home / "settings.json").read_text(encoding="utf-8"))
    assert (saved["generator"], saved["threads"], saved["theme"]) == ("extractive", 3, "dark")
    assert saved["rerank"] == "maxsim" and saved["rerank_answers"] is True
    window.apply_settings(dialog.chosen())
    assert window.engine.settings.generator == "extractive" and window.engine.settings.rerank == "maxsim"
    assert QApplication.palette().color(QApplication.palette().ColorRole.Window).lightness() < 80
    assert str(window.engine.home) in [label.text() for label in dialog.findChildren(type(dialog.error))]


def test_model_manager_lists_roles(qtbot: QtBot, window: MainWindow) -> None:
    dialog = SettingsDialog(window.engine, window.tasks, window)
    qtbot.addWidget(dialog)
    tree = dialog.models.tree
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == len(window.engine.locator.specs), timeout=30_000)
    roles = {
        tree.topLevelItem(i).text(0): tree.topLevelItem(i).text(2) for i in range(tree.topLevelItemCount())
    }
    assert roles["embedder"] == "verified"


def test_model_import_errors_are_shown(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    dialog = SettingsDialog(window.engine, window.tasks, window)
    qtbot.addWidget(dialog)
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"NOPE" * 10)
    with qtbot.waitSignal(window.tasks.finished, check_params_cb=lambda job: job.name == "importing a model"):
        dialog.models.import_model(fake, "generator")
    # A status check that finishes after the import (the dialog starts one as it opens) keeps the error.
    with qtbot.waitSignal(window.tasks.finished, check_params_cb=lambda job: job.name == "checking models"):
        dialog.models.refresh()
    assert "not a GGUF file" in dialog.models.note.text()
    assert "choose a .gguf model file" in dialog.models.note.text()


def test_keyring_is_optional(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = __import__("importlib").import_module

    def no_keyring(name: str, *args: object) -> object:
        if name == "keyring":
            raise ImportError("hidden by the test")
        return real_import(name, *args)

    monkeypatch.setattr(secrets.importlib, "import_module", no_keyring)
    assert not secrets.keyring_available()
    with pytest.raises(MissingDependency) as caught:
        secrets.store_key("sk-ant-test")
    assert "citeline[claude]" in caught.value.hint


def test_missing_keyring_is_explained_in_the_dialog(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "keyring_available", lambda: False)
    dialog = SettingsDialog(window.engine, window.tasks, window)
    qtbot.addWidget(dialog)
    assert not dialog.key.isEnabled()
    assert "citeline[claude]" in dialog.key_note.text()


def test_f1_and_ctrl_slash_open_the_shortcut_sheet(qtbot: QtBot, window: MainWindow) -> None:
    for key, modifier in (
        (Qt.Key.Key_F1, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier),
    ):
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        window.focus_search()
        qtbot.keyClick(window.search.box, key, modifier)
        qtbot.waitUntil(lambda: bool(_open_sheets(window)))
        _open_sheets(window)[0].close()
        qtbot.waitUntil(lambda: not _open_sheets(window))


def _open_sheets(window: MainWindow) -> list[ShortcutSheet]:
    return [sheet for sheet in window.findChildren(ShortcutSheet) if sheet.isVisible()]


def test_log_viewer_shows_the_log(qtbot: QtBot, window: MainWindow) -> None:
    setup_logging(window.engine.home)
    logging.getLogger("citeline.test").warning("a line for the viewer")
    viewer = LogViewer(log_path(window.engine.home), window.tasks, window)
    qtbot.addWidget(viewer)
    qtbot.waitUntil(lambda: "a line for the viewer" in viewer.text.toPlainText())
    _drop_file_handlers(log_path(window.engine.home))


def _drop_file_handlers(path: Path) -> None:
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "baseFilename", None) == str(path):
            root.removeHandler(handler)
            handler.close()


def test_key_is_stored_where_the_claude_backend_reads_it() -> None:
    from engine.backends import claude

    assert (secrets.SERVICE, secrets.ACCOUNT) == (claude.KEYRING_SERVICE, claude.KEYRING_USER)
