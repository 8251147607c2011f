"""Logging for the desktop app: one rotating file under <data dir>/logs; tracebacks go there only."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path
from types import TracebackType

LOG_NAME = "citeline.log"
FORMAT = "%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s"


def log_path(home: Path) -> Path:
    return home / "logs" / LOG_NAME


def setup_logging(home: Path, level: int = logging.INFO) -> Path:
    """Send the root logger to <home>/logs/citeline.log (1 MB x 3). Idempotent per path."""
    path = log_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for handler in root.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path:
            return path
    # a path with bytes that are not UTF-8 (lone surrogates) is written escaped, not lost with the line
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=1 << 20, backupCount=3, encoding="utf-8", errors="backslashreplace"
    )
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    root.setLevel(level)
    return path


def install_excepthook() -> None:
    """Uncaught exceptions (in slots, mostly) are logged with their traceback, never printed at the user."""

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        logging.getLogger("citeline.uncaught").error("uncaught exception", exc_info=(kind, value, tb))

    sys.excepthook = hook


def tail(path: Path, limit: int = 256 * 1024) -> str:
    """The last `limit` bytes of the log, for the log viewer."""
    if not path.is_file():
        return ""
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - limit))
        return fh.read().decode("utf-8", "replace")
