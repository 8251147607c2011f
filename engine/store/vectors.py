"""Vector top-k through an HNSW graph (usearch) of half-precision copies of the catalog's float vectors,
kept in a file beside the catalog.

Why not the float matrix any more: at 1M chunks brute force scans 1.5 GB per query (~150 ms on 2 cores)
and start-up read every float row out of DuckDB. The graph answers in about a millisecond, holds 768
bytes a vector plus its links, and loads from its own file. fp16 rather than int8: int8 kept recall@10
against exact cosine at 0.975, fp16 at 0.99 (README, "Scale"); exact re-scoring from the catalog was
measured at ~100 ms a query at 1M chunks (a DuckDB join per search), so the graph's own scores are used
(the fusion only needs their ranks).

The catalog stays the source of truth. The file records the catalog generation and a token that the
catalog also holds (meta `vector_index`); any catalog write after a save changes the generation or clears
the token (`Catalog.store_vectors`, `reset_vectors`), so a file that missed changes (a crash, another
version) is recognised and brought in line by difference at the next open, not rebuilt.

`VectorIndex(dim)` without a path is the same graph in memory only (tests, a catalog snapshot).

An index of at most EXACT_BELOW vectors (most personal folders) is searched by comparing every fp16 copy
(usearch's exact search, a few milliseconds): a small graph built by several threads was measured to miss
true neighbours and to differ from one build to the next. Above it, the graph. Either way equal distances
are ordered by chunk id, so the same index answers the same question the same way.

`exact = True` answers by brute force instead, over the catalog's float32 vectors (the graph's fp16 copies
when there is no catalog): the reference the graph's recall and the eval's "within 0.005" are measured
against (engine/eval/vector_exact.py). It loads every float vector, so it is for measuring, not for use.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from usearch.index import Index

from engine.errors import CiteError

if TYPE_CHECKING:
    from engine.store.catalog import Catalog

Ids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]

DTYPE = "f16"
CONNECTIVITY = 16
EXPANSION_ADD = 64
EXPANSION_SEARCH = 128  # candidates visited per query; a larger k widens it to k
# Up to this many vectors every search compares them all (the fp16 copies, ~7 ms at 50,000 on one core):
# exact, and the same from one build to the next. Two builds of one 1,226-vector graph (boltons) answered
# differently: one missed 2 of the exact top 5 for a question, and the evidence gate refused it.
EXACT_BELOW = 50_000
TIES = 8  # extra neighbours fetched so that a tie at the k-th place is broken by chunk id, not by chance
SAVE_EVERY = 50_000  # changes between saves while indexing, bounding what a crash leaves to redo
FORMAT = 1


class VectorIndex:
    def __init__(
        self, dim: int, path: Path | None = None, exact: bool = False, exact_below: int = EXACT_BELOW
    ) -> None:
        self.dim = dim
        self.path = path
        self.exact = exact
        self.exact_below = exact_below  # searched by comparing every fp16 copy up to this many vectors
        self._lock = threading.RLock()
        self._index = _new_index(dim)
        self._changes = 0  # adds and removes since the last save
        self._version = 0  # every add, remove and reset: what the exact search's float matrix reflects
        self._floats: tuple[int, Ids, Matrix] | None = None
        self._catalog: Catalog | None = None

    @classmethod
    def open(cls, path: Path, catalog: Catalog) -> VectorIndex:
        """The index saved at `path`, brought in line with `catalog`: loaded as is when its record matches
        the catalog's, else by adding and removing the difference (everything, when there is no usable
        file). A read-only snapshot of the catalog never writes the file."""
        dim = catalog.vector_dim()
        vectors = cls(dim, None if catalog.snapshot is not None else path)
        vectors._catalog = catalog
        record = _read_record(path)
        loaded = record is not None and record.get("dim") == dim and vectors._load(path)
        if loaded and record is not None and _matches(record, catalog):
            return vectors
        vectors._reconcile(catalog)
        vectors.save()
        return vectors

    def _load(self, path: Path) -> bool:
        try:
            index = Index.restore(str(path), view=False)
        except (OSError, RuntimeError, ValueError):  # a torn or foreign file is rebuilt, not fatal
            return False
        if index is None or index.ndim != self.dim:
            return False
        index.expansion_search = EXPANSION_SEARCH  # type: ignore[misc]  # usearch's setter, mistyped
        self._index = index
        return True

    def _reconcile(self, catalog: Catalog) -> None:
        want = catalog.vector_chunk_ids()
        have = self.ids()
        extra = np.setdiff1d(have, want, assume_unique=True)
        missing = np.setdiff1d(want, have, assume_unique=True)
        self.remove(extra)
        for ids, mat in catalog.iter_vectors(missing):
            self._add(ids, mat)

    def __len__(self) -> int:
        return len(self._index)

    def add(self, ids: Ids, vecs: Matrix) -> None:
        """Insert or replace vectors; while indexing, the file is saved every SAVE_EVERY changes (every
        caller adds after the catalog commit it reflects, so the file saved here is consistent)."""
        if not len(ids):
            return
        self._add(np.asarray(ids, dtype=np.int64), np.asarray(vecs, dtype=np.float32))
        if self._changes >= SAVE_EVERY:
            self._save_quietly()

    def _add(self, ids: Ids, vecs: Matrix) -> None:
        if not len(ids):
            return
        with self._lock:
            present = ids[self._index.contains(ids.astype(np.uint64))] if len(self._index) else ids[:0]
            if len(present):  # the same chunk again (a re-add): replace, never a second copy
                self._index.remove(present.astype(np.uint64))
            self._index.add(ids.astype(np.uint64), vecs.reshape(len(ids), self.dim), threads=0)
            self._changes += len(ids)
            self._version += 1

    def remove(self, ids: list[int] | Ids) -> None:
        keys = np.asarray(ids, dtype=np.uint64).reshape(-1)
        if not len(keys):
            return
        with self._lock:
            if len(self._index):
                self._index.remove(keys)
            self._changes += len(keys)
            self._version += 1

    def ids(self) -> Ids:
        with self._lock:
            if not len(self._index):
                return np.zeros(0, dtype=np.int64)
            return np.sort(np.asarray(self._index.keys, dtype=np.uint64).astype(np.int64))

    def reset(self, dim: int) -> None:
        """Empty the index and make it `dim` wide (the embedder changed; every text is embedded anew)."""
        with self._lock:
            self.dim = dim
            self._index = _new_index(dim)
            self._changes += 1
            self._version += 1

    def search(self, query: Matrix, k: int) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine) for one normalised query vector; the cosine is the fp16 copy's (the
        float32 vector's when `exact`)."""
        with self._lock:
            if not len(self._index) or k <= 0:
                return []
            if self.exact:
                return self._search_exact(query.astype(np.float32).reshape(-1), k)
            vector = query.astype(np.float32).reshape(-1)
            want = min(len(self._index), k + TIES)
            keys, distances = self._nearest(vector, want)
            while want < len(self._index) and len(distances) > k and distances[-1] == distances[k - 1]:
                want = min(len(self._index), want * 2)  # a tie runs past what was fetched: fetch more
                keys, distances = self._nearest(vector, want)
        # nearest first, equal distances (chunks of one text, copied code) by chunk id: the same answer
        # from every build of the index, whatever order its threads inserted them in
        pairs = sorted(zip(keys, distances, strict=True), key=lambda p: (p[1], p[0]))[:k]
        return [(int(key), float(1.0 - d)) for key, d in pairs]

    def _nearest(self, vector: Matrix, want: int) -> tuple[list[int], list[float]]:
        if len(self._index) <= self.exact_below:
            found = self._index.search(vector, want, threads=1, exact=True)
        else:
            self._index.expansion_search = max(EXPANSION_SEARCH, want)  # type: ignore[misc]
            found = self._index.search(vector, want, threads=1)
        return found.keys.tolist(), found.distances.tolist()

    def _search_exact(self, query: Matrix, k: int) -> list[tuple[int, float]]:
        if self._catalog is None:  # no float vectors to read: every fp16 copy, compared one by one
            found = self._index.search(query, k, exact=True)
            return [(int(key), float(1.0 - d)) for key, d in zip(found.keys, found.distances, strict=True)]
        ids, mat = self._float_matrix(self._catalog)
        scores = mat @ query
        top = np.argsort(-scores, kind="stable")[:k]
        return [(int(ids[i]), float(scores[i])) for i in top]

    def _float_matrix(self, catalog: Catalog) -> tuple[Ids, Matrix]:
        """The catalog's float32 vectors of the chunks the graph holds, read again after any change."""
        if self._floats is None or self._floats[0] != self._version:
            ids, mat = catalog.vectors_for_chunks(self.ids().tolist())
            norms = np.linalg.norm(mat, axis=1, keepdims=True)
            unit = (mat / np.where(norms > 0, norms, 1.0)).astype(np.float32)
            self._floats = floats = (self._version, ids, unit)
        else:
            floats = self._floats
        return floats[1], floats[2]

    def save(self) -> None:
        """Write the file (atomically) and its record, then mark the catalog as matching it. No-op for an
        index without a path or without changes."""
        catalog = self._catalog
        if self.path is None or catalog is None or catalog.snapshot is not None:
            return
        with self._lock:
            record = _read_record(self.path)
            if self._changes == 0 and record is not None and _matches(record, catalog):
                return
            token = uuid.uuid4().hex
            catalog.mark_vector_index("")  # a crash below leaves a file that cannot match
            if self._changes or record is None:  # else only chunks without vectors changed: same graph
                tmp = self.path.with_name(self.path.name + ".tmp")
                self._index.save(str(tmp))
                os.replace(tmp, self.path)
            record = {"format": FORMAT, "dim": self.dim, "token": token, "generation": catalog.generation()}
            _write_record(self.path, record)
            catalog.mark_vector_index(token)
            self._changes = 0

    def close(self) -> None:
        """Save what changed (the next open then loads the file without reconciling)."""
        self._save_quietly()

    def _save_quietly(self) -> None:
        """Save, but a file that cannot be written (disk full, read-only folder) costs only a reconcile
        at the next open: the catalog holds every vector, so indexing and closing go on."""
        try:
            self.save()
        except (OSError, RuntimeError, CiteError):
            if self.path is not None:
                self.path.with_name(self.path.name + ".tmp").unlink(missing_ok=True)


def _new_index(dim: int) -> Index:
    return Index(
        ndim=dim,
        metric="cos",
        dtype=DTYPE,
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )


def _record_path(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _read_record(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(_record_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("format") != FORMAT or not path.is_file():
        return None
    return record


def _write_record(path: Path, record: dict[str, Any]) -> None:
    target = _record_path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(tmp, target)


def _matches(record: dict[str, Any], catalog: Catalog) -> bool:
    token = catalog.meta("vector_index")
    return bool(token) and record.get("token") == token and record.get("generation") == catalog.generation()
