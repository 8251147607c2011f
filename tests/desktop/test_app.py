"""The entry point: early checks, one instance per data dir, a log file, the window without a model."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop.app import early_problem, parse_args
from desktop.logs import log_path
from desktop.single import server_name

REPO = Path(__file__).resolve().parents[2]


def test_server_names_differ_per_data_dir(tmp_path: Path) -> None:
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")


def test_headless_linux_is_reported_before_qt_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert "No display" in (early_problem() or "")


def test_qt_arguments_pass_through() -> None:
    args, rest = parse_args(["--data-dir", "/x", "-platform", "offscreen"])
    assert args.data_dir == "/x" and rest == ["-platform", "offscreen"]


def _wait_for(path: Path, text: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = path.read_text(encoding="utf-8") if path.exists() else ""
        if text in content:
            return content
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not in {path} after {timeout} s")


@pytest.mark.slow
def test_real_launch_logs_and_stays_single(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "CITELINE_HOME": str(home)}
    cmd = [sys.executable, "-m", "desktop.app"]
    console = tmp_path / "console.txt"
    with console.open("wb") as out:
        first = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        log = _wait_for(log_path(home), "startup: window shown")
        assert "Traceback" not in log
        second = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, timeout=60, check=False)
        assert second.returncode == 0
        _wait_for(log_path(home), "asked this window to come forward")
        assert first.poll() is None  # the first window is still open
    finally:
        first.terminate()
        first.wait(timeout=20)
    assert "Traceback" not in console.read_text(encoding="utf-8", errors="replace")
