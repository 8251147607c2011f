"""A real X drag and drop (XDND) between two processes under Xvfb: a drag source offering a uri-list as a file
manager does (tests/desktop/xdnd_source.py), the real window as the target (tests/desktop/xdnd_target.py),
the pointer driven with xdotool through the X server's XTEST extension.

Needs Xvfb and xdotool (apt-get install xvfb xdotool); skipped without them. No window manager is needed:
XDND is a protocol between the two clients.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from desktop.walkthrough import xvfb

REPO = Path(__file__).resolve().parents[2]
SOURCE_AT = (1000, 100)  # the drag source's window, 160x160 (xdnd_source.SIZE)
TARGET_AT = (400, 300)  # inside the window (0, 0, 800x600)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="XDND is the X11 drag and drop protocol"),
    pytest.mark.skipif(
        shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
        reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)",
    ),
]


class Lines:
    """A child process's stdout, read on a thread, so the test can wait for a line with a timeout."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.reader.start()

    def close(self) -> None:
        """After the process has ended: the reader has met the end of the stream."""
        self.reader.join(10)
        self.stream.close()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, prefix: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no {prefix!r} line in {timeout} s; saw: {self.seen}")


@pytest.fixture
def display() -> Iterator[str]:
    """A fresh Xvfb server (desktop.walkthrough.xvfb)."""
    with xvfb(1280, 800) as found:
        assert found, "Xvfb did not start"
        yield found


def _start(module: str, args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], Lines]:
    process = subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    return process, Lines(process.stdout)


def _drag(env: dict[str, str], start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press on the source, move across to the target in steps (XDND sends a position per motion), release."""

    def xdotool(*args: object) -> None:
        subprocess.run(["xdotool", *map(str, args)], env=env, check=True, timeout=10)

    xdotool("mousemove", *start)
    time.sleep(0.3)
    xdotool("mousedown", 1)
    time.sleep(0.3)
    for step in range(1, 9):
        x = start[0] + (end[0] - start[0]) * step // 8
        y = start[1] + (end[1] - start[1]) * step // 8
        xdotool("mousemove", x, y)
        time.sleep(0.15)
    time.sleep(0.3)
    xdotool("mouseup", 1)


def _notes(tmp_path: Path) -> tuple[Path, Path]:
    """A folder whose name needs percent-encoding, and a lone file elsewhere with a non-ASCII name."""
    folder = tmp_path / "My Notes"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "deploy.md").write_text(
        "# Deploy\n\nThe zebracorn pipeline ships.\n", encoding="utf-8"
    )
    (folder / "todo.txt").write_text("Renew the pangolin licence.\n", encoding="utf-8")
    lone = tmp_path / "loose" / "café plan.md"
    lone.parent.mkdir()
    lone.write_text("# Plan\n\nThe ocelot review is on Thursday.\n", encoding="utf-8")
    return folder, lone


@pytest.mark.parametrize(
    ("eol", "host"),
    [("\r\n", ""), ("\n", "localhost")],
    ids=["crlf", "lf-localhost"],  # as Files, Dolphin and Thunar send it; as older senders write the host
)
def test_a_real_xdnd_drop_of_a_folder_and_a_file_indexes_both(
    display: str, tmp_path: Path, citeline_home: Path, eol: str, host: str
) -> None:
    folder, lone = _notes(tmp_path)
    uris = [uri.replace("file://", f"file://{host}", 1) for uri in (folder.as_uri(), lone.as_uri())]
    uri_list = f"# from a file manager{eol}{uris[0]}{eol}{uris[1]}{eol}"
    assert "%20" in uri_list and "%C3%A9" in uri_list
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", CITELINE_HOME=str(citeline_home))
    target, target_out = _start("tests.desktop.xdnd_target", [str(citeline_home)], env)
    source, source_out = _start(
        "tests.desktop.xdnd_source", [*map(str, SOURCE_AT), uri_list.encode().hex()], env
    )
    try:
        target_out.wait_for("ready", 60)
        source_out.wait_for("ready", 30)
        _drag(env, (SOURCE_AT[0] + 80, SOURCE_AT[1] + 80), TARGET_AT)
        assert source_out.wait_for("dropped", 15) == "dropped CopyAction"
        counts = json.loads(target_out.wait_for("indexed", 90).removeprefix("indexed "))
    finally:
        for process, out in ((source, source_out), (target, target_out)):
            process.terminate()
            process.wait(15)
            out.close()
    assert counts == {str(folder): 2, str(lone.parent): 1}
    log = (citeline_home / "logs" / "citeline.log").read_text(encoding="utf-8")
    assert f"dropped: {folder}, {lone}" in log
