"""What a drop on the window carries, as local paths.

File managers (Files, Dolphin, Thunar, Finder, Explorer) send text/uri-list: file:// URIs, percent-encoded,
one a line, CRLF-separated, lines starting with # are comments (RFC 2483). Some senders (terminals, editors)
send text/plain instead, with URIs or bare absolute paths. A folder is added and indexed; a file is indexed
on its own (its folder is added with an include rule for just that file), see desktop/indexing.py.
"""

from __future__ import annotations

import socket
from pathlib import Path

from PySide6.QtCore import QMimeData, QUrl

URI_LIST = "text/uri-list"
LOCAL_HOSTS = ("", "localhost")  # plus this machine's own name (RFC 8089 allows file://HOST/path)


def dropped_paths(mime: QMimeData) -> list[Path]:
    """The local paths in a drop, in order, without repeats; [] when it carries none (text, web links)."""
    if mime.hasFormat(URI_LIST):
        lines = _lines(bytes(mime.data(URI_LIST).data()).decode("utf-8", "replace"))
        found = [_from_line(line) for line in lines]
    elif mime.hasText():
        found = _from_text(mime.text())
    else:
        return []
    out: list[Path] = []
    for path in found:
        if path is not None and path not in out:
            out.append(path)
    return out


def _lines(text: str) -> list[str]:
    """Non-empty lines that are not comments, with CR, LF or CRLF endings, trailing one or not."""
    stripped = (line.strip() for line in text.splitlines())
    return [line for line in stripped if line and not line.startswith("#")]


def _from_text(text: str) -> list[Path | None]:
    """Plain text counts only when every line is a path or a file URI: prose is not a drop of files."""
    found = [_from_line(line) for line in _lines(text)]
    return found if found and all(path is not None for path in found) else []


def _from_line(line: str) -> Path | None:
    if line[:5].lower() == "file:":
        return _from_uri(line)
    if "://" in line:
        return None  # a web link, not a file
    path = Path(line).expanduser()
    return path if path.is_absolute() else None


def _from_uri(uri: str) -> Path | None:
    url = QUrl(uri)  # decodes %20 and UTF-8 escapes
    if not url.isValid():
        return None
    if url.host().lower() not in (*LOCAL_HOSTS, socket.gethostname().lower()):
        return None  # another machine's file: not reachable as a path here
    url.setHost("")
    local = url.toLocalFile()
    return Path(local) if local else None
