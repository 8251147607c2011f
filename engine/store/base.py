"""What the indexer, the searcher and the facade ask of a vector store and of a keyword store.

Two implementations of each: the embedded ones beside the catalog (usearch `VectorIndex`, Tantivy
`LexicalIndex`) and the Qdrant ones (engine/store/qdrant.py) for a team index on a cluster. Either way
the catalog stays the source of truth: stores hold chunk ids and ranking data, never the lines or quotes a
citation shows, so the citation contract does not depend on which backend ranked the hits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from engine.store.lexical import LexicalIndex
    from engine.store.vectors import VectorIndex

Ids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]
LexicalRow = tuple[int, int, str, str, str, str]  # chunk id, file id, path, heading, text, its watched folder


class VectorStore(Protocol):
    dim: int

    def __len__(self) -> int: ...

    def add(self, ids: Ids, vecs: Matrix) -> None:
        """Insert or replace the vectors of these chunk ids."""

    def remove(self, ids: list[int] | Ids) -> None: ...

    def ids(self) -> Ids:
        """Every chunk id held, sorted."""
        ...

    def reset(self, dim: int) -> None:
        """Empty the store and make it `dim` wide (the embedder changed)."""

    def search(self, query: Matrix, k: int) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine) for one normalised query vector."""
        ...

    def save(self) -> None:
        """Record that the store matches the catalog as it is now (the next open skips reconciling)."""

    def close(self) -> None: ...


class LexicalStore(Protocol):
    read_only: bool

    def generation(self) -> int:
        """The catalog generation the store last committed (-1: unknown, rebuild)."""
        ...

    def apply(self, generation: int, remove_files: Iterable[int], add: Sequence[LexicalRow]) -> None:
        """Delete every chunk of remove_files, add these rows, commit, record `generation`."""

    def room_to_rebuild(self) -> bool: ...

    def clear(self) -> None: ...

    def num_docs(self) -> int: ...

    def doc_freq(self, word: str) -> tuple[int, int]:
        """(chunks whose body or heading holds this word, all chunks), for IDF weights."""
        ...

    def term_freq(self, term: str) -> tuple[int, int]:
        """(chunks whose body or heading holds this term as the index stored it, all chunks): `term` is
        already analysed (text.stem's output) and is not analysed again."""
        ...

    def near(self, word: str, typos: int, first_letter: bool = False) -> bool:
        """Whether any chunk's body, heading or path holds a word within `typos` edits of `word` (as the
        field's analyser reads both: case aside, stemmed); an edit may change the first letter only where
        `first_letter`."""
        ...

    def search(self, query: str, limit: int) -> list[tuple[int, float]]:
        """BM25-style top-`limit` (chunk id, score) for any user text; never raises on syntax."""
        ...

    def search_file(self, query: str, file_id: int, limit: int) -> list[tuple[int, float]]:
        """The file's `limit` chunks that match `query` best (BM25-style), or its first chunks where none
        matches: as (chunk id, score)."""
        ...


if TYPE_CHECKING:  # mypy holds the embedded stores to the protocols

    def _embedded(vectors: VectorIndex, lexical: LexicalIndex) -> tuple[VectorStore, LexicalStore]:
        return vectors, lexical
