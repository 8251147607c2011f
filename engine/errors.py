"""One exception root. Every error carries a message for the user and a hint that names the fix."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path
from typing import Any


class CiteError(Exception):
    """Root of every error Citeline shows to a user. The UI and CLI print message and hint, never a trace."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole, whatever a subclass's __init__ takes: errors cross from the extraction worker
        (engine/ingest/sandbox.py) as themselves."""
        return (_rebuild, (type(self), self.message, dict(self.__dict__)))


def _rebuild(cls: type[CiteError], message: str, state: dict[str, Any]) -> CiteError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class Cancelled(CiteError):
    """A long job was cancelled by the user."""

    def __init__(self, message: str = "Cancelled.") -> None:
        super().__init__(message)


class MissingModel(CiteError):
    """A model file is absent or fails its checksum."""


class MissingDependency(CiteError):
    """An optional Python package is not installed."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"The optional package '{package}' is not installed.",
            f"install it with: pip install 'citeline[{extra}]'",
        )
        self.package = package
        self.extra = extra


class ExtractError(CiteError):
    """A file could not be read as text (corrupt, encrypted, unsupported)."""


class DiskFull(CiteError):
    """The disk holding the index has no room: the write was rolled back, nothing committed is lost."""


DISK_HEADROOM = 100 * 1024 * 1024  # what to ask a user to free beyond the index's own growth


def disk_full(exc: BaseException, where: str | os.PathLike[str]) -> DiskFull | None:
    """A DiskFull for `exc` when it is (or wraps) "no space left on device", else None. DuckDB and
    Tantivy report it as their own exception types with the OS message inside, so the text is read too."""
    errno_ = getattr(exc, "errno", None)
    text = str(exc)
    if errno_ != errno.ENOSPC and "No space left on device" not in text and "ENOSPC" not in text:
        return None
    folder = Path(where)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = 0
    files = Path(where).rglob("*") if Path(where).is_dir() else iter(())
    index = sum(p.stat().st_size for p in files if p.is_file())
    need = max(DISK_HEADROOM, index // 5)
    return DiskFull(
        f"The disk holding the index is full ({free / 1e6:,.0f} MB free at {folder}); the last change was "
        "not saved, and nothing saved before it is lost.",
        f"free at least {need / 1e6:,.0f} MB there, then run: citeline sync (or use another data "
        "directory with --data-dir)",
    )
