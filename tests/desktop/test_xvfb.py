"""The real app in a real X window (Xvfb): drop a folder, ask, answer, screenshot kept as an artifact."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="Xvfb is a Linux test")
def test_real_window_under_xvfb(tmp_path: Path) -> None:
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed (bootstrap.py test installs it where apt-get can)")
    folder = tmp_path / "dropped"
    shutil.copytree(REPO / "assets" / "demo", folder)
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "xvfb-window.png"
    out.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["CITELINE_HOME"] = str(tmp_path / "home")
    result = subprocess.run(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1440x900x24",
            sys.executable,
            "-m",
            "desktop.screenshot",
            str(out),
            "--drop",
            str(folder),
            "--data-dir",
            str(tmp_path / "home"),
        ],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "saved" in result.stdout
    assert out.stat().st_size > 20_000  # a real rendered window, not an empty image
