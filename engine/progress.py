"""Rates and ETAs of long jobs, and a terminal progress line that shows them.

PhaseRates measures each phase's rate from the progress events of this run (files per second for the
keyword index, chunk texts per second for vectors, any later phase alike) and turns it into seconds left.
The CLI's ProgressLine and the desktop's folder list both read it; before a rate is measured they show
the event's own estimate where it has one (the vector backlog's, from the rate its last run measured).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine.events import IndexProgress


@dataclass
class _Segment:
    """One run of a phase over one folder: where it started and how far it is."""

    start: float
    first: int
    total: int
    last: int


class PhaseRates:
    """Items per second of each phase, measured during this run.

    A segment is one stretch of a phase over the same total (a folder's keyword pass or its vectors): it
    starts anew when the phase's total changes or its count goes back. Within a segment the rate is the
    items done since its first event over the time since; a phase keeps its last rate when the next folder's
    segment starts, until that segment has measured its own.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._segments: dict[str, _Segment] = {}
        self._rates: dict[str, float] = {}

    def update(self, event: IndexProgress, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        seg = self._segments.get(event.phase)
        if seg is None or event.total != seg.total or event.done < seg.last:
            self._segments[event.phase] = _Segment(now, event.done, event.total, event.done)
            return
        seg.last = event.done
        if now > seg.start and event.done > seg.first:
            self._rates[event.phase] = (event.done - seg.first) / (now - seg.start)

    def rate(self, phase: str) -> float | None:
        """Items per second of `phase`, or None before two events of it have shown progress."""
        return self._rates.get(phase)

    def eta(self, event: IndexProgress) -> float | None:
        """Seconds left of this event's phase at the rate measured in this run, else the event's own
        estimate (a resumed vector backlog knows its rate from the last run); None while neither is known
        (and when nothing is left)."""
        rate = self._rates.get(event.phase)
        if event.done >= event.total:
            return None
        if rate is None or rate <= 0:
            return event.eta_s
        return (event.total - event.done) / rate


def time_left(seconds: float) -> str:
    """Seconds left as people say it: "8 s left", "3 min left", "1 h 5 min left"."""
    whole = round(seconds)
    if whole < 60:
        return f"{max(whole, 1)} s left"
    minutes = (whole + 30) // 60
    if minutes < 60:
        return f"{minutes} min left"
    return f"{minutes // 60} h {minutes % 60} min left"


class ProgressLine:
    def __init__(self, stream: TextIO | None = None, interval: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self._last = 0.0
        self._phase = ""
        self.rates = PhaseRates()
        self.enabled = self.stream.isatty()

    def update(self, event: IndexProgress) -> None:
        now = time.monotonic()
        self.rates.update(event, now)
        if event.phase != self._phase:
            self._finish_line()
            self._phase = event.phase
        if not self.enabled or (now - self._last < self.interval and event.done < event.total):
            return
        self._last = now
        self.stream.write("\r" + self.render(event) + "\x1b[K")
        self.stream.flush()

    def render(self, event: IndexProgress) -> str:
        if event.total <= 0:
            return f"{event.phase}…"
        frac = min(1.0, event.done / event.total)
        bar = "#" * int(frac * 24)
        rate, eta = self.rates.rate(event.phase), self.rates.eta(event)
        speed = f"{rate:6.1f}/s" if rate is not None else "    –/s"
        left = f"ETA {_clock(eta)}" if eta is not None else "ETA –"
        return f"{event.phase:8} [{bar:<24}] {event.done}/{event.total} {frac:4.0%}  {speed}  {left}"

    def _finish_line(self) -> None:
        if self.enabled and self._phase:
            self.stream.write("\n")

    def close(self) -> None:
        self._finish_line()
        self._phase = ""


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"
