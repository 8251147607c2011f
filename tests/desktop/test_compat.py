"""The app survives PySide6 6.12.0's lost None references (desktop/compat.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

CALLS = 20_000  # four times None's usual count in a fresh interpreter


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_many_void_qt_calls_after_importing_desktop_do_not_abort() -> None:
    loop = f"o = QObject()\nfor _ in range({CALLS}): o.setObjectName('x')\nprint('alive')\n"
    pinned = run("import desktop\nfrom PySide6.QtCore import QObject\n" + loop)
    assert pinned.returncode == 0 and "alive" in pinned.stdout, pinned.stderr[-500:]
    if sys.version_info < (3, 12):  # the bug is real on this interpreter: without the pin it aborts
        bare = run("from PySide6.QtCore import QObject\n" + loop)
        assert bare.returncode != 0 or "none_dealloc" in bare.stderr
