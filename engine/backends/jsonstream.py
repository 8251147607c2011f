"""Pull complete sentence objects out of a JSON answer while it is still being generated."""

from __future__ import annotations

import json
from typing import Any


class SentenceStream:
    """Feed text deltas; get back each complete object of the "sentences" array once it closes."""

    def __init__(self) -> None:
        self.buffer = ""
        self._pos = 0
        self._depth = 0
        self._in_string = False
        self._escape = False
        self._array_at: int | None = None
        self._object_start: int | None = None

    def feed(self, delta: str) -> list[dict[str, Any]]:
        self.buffer += delta
        found: list[dict[str, Any]] = []
        while self._pos < len(self.buffer):
            obj = self._step(self.buffer[self._pos])
            self._pos += 1
            if obj is not None:
                found.append(obj)
        return found

    def _step(self, ch: str) -> dict[str, Any] | None:
        if self._in_string:
            if self._escape:
                self._escape = False
            elif ch == "\\":
                self._escape = True
            elif ch == '"':
                self._in_string = False
            return None
        if ch == '"':
            self._in_string = True
        elif ch == "[" and self._array_at is None and '"sentences"' in self.buffer[: self._pos]:
            self._array_at = self._depth
            self._depth += 1
        elif ch in "[{":
            if ch == "{" and self._array_at is not None and self._depth == self._array_at + 1:
                self._object_start = self._pos
            self._depth += 1
        elif ch in "]}":
            self._depth -= 1
            if ch == "}" and self._object_start is not None and self._depth == (self._array_at or 0) + 1:
                start, self._object_start = self._object_start, None
                try:
                    value = json.loads(self.buffer[start : self._pos + 1])
                except ValueError:
                    return None
                return value if isinstance(value, dict) else None
        return None

    def final(self) -> dict[str, Any] | None:
        try:
            value = json.loads(self.buffer)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
