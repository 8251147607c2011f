"""Download one model file over HTTP(S): resumable, verified by sha256, moved into place atomically.

The bytes go to `<dest>.partial`; a later call sends `Range: bytes=<size of the partial>-` and appends.
A server that ignores the range (200 instead of 206) is read again from the start. Only a file whose
sha256 matches is renamed to `dest`; a mismatch deletes the partial, so the next try starts clean.
Standard library only: the frozen app carries no HTTP client beyond urllib.
"""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from http.client import HTTPException, HTTPResponse
from pathlib import Path
from urllib.parse import urlsplit

from engine.errors import CiteError

BLOCK = 1 << 20
Progress = Callable[[int, int | None], None]  # (bytes on disk, total bytes or None when unknown)
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


def download(
    url: str, dest: Path, sha256: str, progress: Progress | None = None, timeout: float = 30.0
) -> Path:
    """Fetch url into dest unless dest already has this sha256; resume a partial file left by a failure."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise CiteError(
            f"Cannot download from {url!r}: only http and https URLs are supported.",
            "to use a file you already have, run: citeline models import PATH --role ROLE",
        )
    want = sha256.lower()
    if dest.is_file() and _sha256(dest) == want:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    _fetch(url, partial, progress, timeout)
    actual = _sha256(partial)
    if actual != want:
        partial.unlink(missing_ok=True)
        raise CiteError(
            f"The file downloaded from {url} has sha256 {actual[:12]}…, expected {want[:12]}…; "
            "it was deleted.",
            "the server sent a different file: check the URL, or import a file you trust with "
            "`citeline models import`",
        )
    os.replace(partial, dest)
    return dest


def _fetch(url: str, partial: Path, progress: Progress | None, timeout: float) -> None:
    offset = partial.stat().st_size if partial.is_file() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "citeline", "Accept-Encoding": "identity"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            start, total = _start_and_total(response, offset)
            _stream(response, partial, start, total, progress)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and offset:  # the partial already holds the whole file: the hash decides
            return
        raise CiteError(
            f"The server answered {exc.code} {exc.reason} for {url}.",
            "check the URL; nothing was changed on disk",
        ) from exc
    except (urllib.error.URLError, HTTPException, OSError) as exc:
        have = partial.stat().st_size if partial.is_file() else 0
        reason = getattr(exc, "reason", None) or exc
        raise CiteError(
            f"The download from {url} stopped after {have:,} bytes: {reason}.",
            f"run the same command again to resume from {partial}",
        ) from exc


def _start_and_total(response: HTTPResponse, offset: int) -> tuple[int, int | None]:
    """Where the body starts in the file and the file's full size, from a 200 or 206 answer."""
    length = response.headers.get("Content-Length")
    if response.status != 206:
        return 0, int(length) if length else None  # no range support: start again from byte 0
    match = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
    if not match or int(match.group(1)) != offset:
        raise CiteError(
            f"The server resumed at the wrong place ({response.headers.get('Content-Range')!r}).",
            "delete the .partial file and run the command again",
        )
    size = match.group(3)
    return offset, int(size) if size != "*" else None


def _stream(
    response: HTTPResponse, partial: Path, start: int, total: int | None, progress: Progress | None
) -> None:
    with partial.open("r+b" if start else "wb") as out:
        out.seek(start)
        out.truncate()
        done = start
        while block := response.read(BLOCK):
            out.write(block)
            done += len(block)
            if progress:
                progress(done, total)
    if total is not None and done < total:
        raise OSError(f"connection closed at {done:,} of {total:,} bytes")


def _sha256(path: Path) -> str:
    from models.locator import sha256_file

    return sha256_file(path)
