"""Module-level functions the extraction worker runs in tests (it imports them by name)."""

from __future__ import annotations

import time


def hang(seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def balloon(megabytes: int) -> int:
    blocks = [bytearray(1024 * 1024) for _ in range(megabytes)]
    return len(blocks)


def echo(value: str) -> str:
    return value


def fail(message: str) -> None:
    raise ValueError(message)
