"""A terminal progress line for long jobs: counts, rate and ETA, redrawn at most ~10 times a second."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from engine.events import IndexProgress


class ProgressLine:
    def __init__(self, stream: TextIO | None = None, interval: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self._last = 0.0
        self._phase = ""
        self._phase_start = time.monotonic()
        self._phase_first = 0
        self.enabled = self.stream.isatty()

    def update(self, event: IndexProgress) -> None:
        now = time.monotonic()
        if event.phase != self._phase:
            self._finish_line()
            self._phase, self._phase_start, self._phase_first = event.phase, now, event.done
        if not self.enabled or (now - self._last < self.interval and event.done < event.total):
            return
        self._last = now
        self.stream.write("\r" + self.render(event, now) + "\x1b[K")
        self.stream.flush()

    def render(self, event: IndexProgress, now: float) -> str:
        if event.total <= 0:
            return f"{event.phase}…"
        frac = min(1.0, event.done / event.total)
        bar = "#" * int(frac * 24)
        elapsed = now - self._phase_start
        rate = (event.done - self._phase_first) / elapsed if elapsed > 0 else 0.0
        eta = (event.total - event.done) / rate if rate > 0 else 0.0
        return (
            f"{event.phase:8} [{bar:<24}] {event.done}/{event.total} {frac:4.0%}"
            f"  {rate:6.1f}/s  ETA {_clock(eta)}"
        )

    def _finish_line(self) -> None:
        if self.enabled and self._phase:
            self.stream.write("\n")

    def close(self) -> None:
        self._finish_line()
        self._phase = ""


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"
