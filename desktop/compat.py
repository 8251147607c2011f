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
