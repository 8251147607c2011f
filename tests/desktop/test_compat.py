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


class Cycle:
    """Garbage only the cyclic collector can free; records the thread that freed it."""

    def __init__(self, freed_on: list[str]) -> None:
        from PySide6.QtCore import QObject

        self.me = self
        self.qt = QObject()
        self.freed_on = freed_on

    def __del__(self) -> None:
        import threading

        self.freed_on.append(threading.current_thread().name)


def test_cyclic_garbage_holding_qt_objects_is_collected_on_the_gui_thread_only(qapp: object) -> None:
    import threading

    from desktop.compat import GuiThreadCollector

    collector = GuiThreadCollector()  # the autouse fixture already made one; a second is harmless
    freed_on: list[str] = []
    Cycle(freed_on)

    def allocate() -> None:  # far past every threshold: automatic collection would have run here
        kept: list[list[int]] = [[] for _ in range(200_000)]
        assert kept

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join()
    assert freed_on == []
    while collector.check() != -1:
        pass
    import gc

    gc.collect()
    assert freed_on == [threading.current_thread().name]
    collector.timer.stop()
