"""Paths as the window shows them, and as it hands them to other programs.

A file name that is not valid UTF-8 reaches Python with lone surrogates ('bad\\udcffname.md'); Qt silently
drops those, so the window showed 'badname.md', a name that does not exist, and a newline in a name broke
a one-line label in two. Every path shown goes through engine.api.shown ('bad\\xffname.md', 'new\\nline.md'),
while the real path is kept in the item's data and is what is opened.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath
from urllib.parse import quote

from PySide6.QtCore import QByteArray, QUrl

from engine.api import shown

__all__ = ["file_name", "file_url", "keep", "shown"]


def file_name(path: str) -> str:
    """The last part of `path` (the path itself for a root), as shown."""
    return shown(PurePath(path).name or path)


def file_url(path: str) -> QUrl:
    """A file:// URL of `path` built from its bytes: QUrl.fromLocalFile would drop a lone surrogate and
    point at another (or no) file."""
    return QUrl.fromEncoded(QByteArray(b"file://" + quote(os.fsencode(path)).encode("ascii")))


def keep(path: str) -> Path:
    """A path to store in an item's data: Qt turns a str into a QString (a lone surrogate is lost, and the
    path read back names another file); a Path stays the Python object. Read it back with str()."""
    return Path(path)
