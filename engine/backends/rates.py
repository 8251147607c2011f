"""A local model's speed on this machine, measured from the answers it gives: prompt tokens read per
second and answer tokens written per second, kept in the data folder (one file per model) so that the
first answer after a restart already has an ETA and Settings can show each model's speed.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

WEIGHT = 0.3  # weight of the newest answer in the running average: rates follow the machine's load
MIN_TOKENS = 8  # a run this short says little about a rate


@dataclass
class Rate:
    per_s: float | None = None
    samples: int = 0

    def add(self, tokens: int, seconds: float) -> None:
        if tokens < MIN_TOKENS or seconds <= 0:
            return
        rate = tokens / seconds
        self.per_s = rate if self.per_s is None else (1 - WEIGHT) * self.per_s + WEIGHT * rate
        self.samples += 1


class Rates:
    """Measured read and write rates of one model; `path` None keeps them in memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.read = Rate()
        self.write = Rate()
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text("utf-8"))
                self.read = Rate(data["read_per_s"], int(data["read_samples"]))
                self.write = Rate(data["write_per_s"], int(data["write_samples"]))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("ignoring unreadable model rates %s: %s", path, exc)

    def add(self, read_tokens: int, read_s: float, written: int, write_s: float) -> None:
        self.read.add(read_tokens, read_s)
        self.write.add(written, write_s)
        self.save()

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "read_per_s": None if self.read.per_s is None else round(self.read.per_s, 2),
            "read_samples": self.read.samples,
            "write_per_s": None if self.write.per_s is None else round(self.write.per_s, 2),
            "write_samples": self.write.samples,
        }

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.as_dict()), "utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:  # a full disk loses a speed figure, never an answer
            log.warning("could not save model rates %s: %s", self.path, exc)


def rates_path(home: Path, model: Path) -> Path:
    return home / "model-rates" / f"{model.name}.json"
