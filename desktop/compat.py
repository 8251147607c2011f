"""Work-arounds for the Qt binding this app pins (PySide6-Essentials 6.12.0).

pin_none: on CPython before 3.12, each call of a PySide6 6.12.0 method that returns nothing drops one
reference to None that it never took (measured: 1,000 calls of QObject.setObjectName take None's count
from 5,083 to 4,083). Once the count reaches zero the interpreter aborts ("none_dealloc"), so a window
that repaints, relabels and moves text cursors for a few minutes dies. From 3.12 None is immortal and the
bug is harmless; before that, None gets a count no session can use up. It runs when `desktop` is imported,
before any Qt call. True and False get the same: a session that indexed two folders and quit aborted at
exit with "bool_dealloc", so some call drops those too (which one was not found).
"""

from __future__ import annotations

import sys

NONE_RESERVE = 1 << 40  # references: at a million void calls a second, 35 years


def pin_none() -> None:
    if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
        import ctypes

        for singleton in (None, True, False):
            ctypes.c_ssize_t.from_address(id(singleton)).value += NONE_RESERVE


class GuiThreadCollector:
    """Python's cyclic garbage collector runs in whichever thread happens to allocate when a threshold is
    crossed. When that is a worker thread (indexing, a PDF import, the model) and the garbage holds a Qt
    object, Qt destroys a widget off the GUI thread and the process segfaults (seen: "Garbage-collecting"
    in a worker importing pypdf while a preview from an earlier window waited for collection). So
    automatic collection is switched off and the same generational policy runs from a timer on the GUI
    thread: every `interval_ms` it collects the oldest generation whose count is over its threshold. The
    pattern pyqtgraph ships as its GarbageCollector."""

    def __init__(self, interval_ms: int = 1000) -> None:
        import gc

        from PySide6.QtCore import QTimer

        self._gc = gc
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> int:
        """Collect as automatic collection would have; returns the generation collected, or -1."""
        counts = self._gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                self._gc.collect(generation)
                return generation
        return -1

    def stop(self) -> None:
        """Back to automatic collection, after a last full collection on this (the GUI) thread."""
        self.timer.stop()
        self._gc.collect()
        self._gc.enable()
