"""Backend Protocols. Anything with these methods plugs in through engine.backends.registry."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engine.events import GenerationProgress, Hit, RawSentence


class Embedder(Protocol):
    @property
    def dim(self) -> int:
        """The width of one embedding (the model says; the stored vectors follow it)."""
        ...

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]: ...


class Reranker(Protocol):
    def __call__(self, query: str, hits: list[Hit]) -> list[float]: ...


class Generator(Protocol):
    name: str

    def generate(
        self, question: str, evidence: Sequence[Hit], cancelled: Callable[[], bool]
    ) -> Iterator[RawSentence | GenerationProgress]: ...
