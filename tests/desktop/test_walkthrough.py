"""The walkthrough script runs to the end on its own Xvfb and saves every stop (a smaller large folder)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ingest import ocr

REPO = Path(__file__).resolve().parents[2]
STOPS = (
    "01-welcome",
    "02-demo-answered",
    "03-search-results",
    "04-refusal",
    "05-dark-switched",
    "05-dark-theme",
    "06-shortcuts",
    "07-models",
    "08-log",
    "09-800x600",
    "10-large-indexing-800x600",
    "10-large-indexing",
    "11-remove-confirm",
    "11-removed-undo",
    "12-explorer",
    "13-open-in-editor",
    "14-reading-scans",
    "14-pdf-page",
    "15-ocr-image",
    "16-follow-up",
    "17-bad-names",
)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux" or shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_the_walkthrough_saves_every_stop(tmp_path: Path, citeline_home: Path) -> None:
    out = tmp_path / "shots"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    command = [sys.executable, "-m", "desktop.walkthrough", str(out), "--files", "1500"]
    command += ["--data-dir", str(citeline_home)]
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=500)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    saved = sorted(path.stem for path in out.glob("*.png"))
    scans = ("14-reading-scans", "15-ocr-image")  # only where OCR is installed
    assert saved == sorted(s for s in STOPS if ocr.available() is None or s not in scans)
    assert all(path.stat().st_size > 5_000 for path in out.glob("*.png"))
    assert "(800x600)" in next(line for line in result.stdout.splitlines() if "09-800x600" in line)
