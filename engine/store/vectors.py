"""Brute-force cosine top-k over a float32 matrix held in RAM (~20 ms at 100k x 384 on 2 cores).

The width is the stored vectors' (Catalog.vector_dim), which is the embedder's.

Rows are appended and tombstoned; the matrix is compacted lazily. `VectorIndex` is the seam where an
ANN index (HNSW, IVF) can replace brute force beyond ~1M chunks: same add/remove/search contract.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

Ids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]


class VectorIndex:
    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._lock = threading.Lock()
        self._ids: Ids = np.zeros(0, dtype=np.int64)
        self._mat: Matrix = np.zeros((0, dim), dtype=np.float32)
        self._pending: list[tuple[Ids, Matrix]] = []
        self._dead: set[int] = set()

    def __len__(self) -> int:
        self._compact()
        return len(self._ids)

    def add(self, ids: Ids, vecs: Matrix) -> None:
        if len(ids):
            with self._lock:
                self._pending.append((ids.astype(np.int64), vecs.astype(np.float32)))

    def remove(self, ids: list[int] | Ids) -> None:
        with self._lock:
            self._dead.update(int(i) for i in ids)

    def ids(self) -> Ids:
        self._compact()
        return self._ids

    def _compact(self) -> None:
        with self._lock:
            if not self._pending and not self._dead:
                return
            ids = np.concatenate([self._ids, *[p[0] for p in self._pending]])
            mat = np.concatenate([self._mat, *[p[1] for p in self._pending]])
            if self._dead:
                keep = ~np.isin(ids, np.fromiter(self._dead, dtype=np.int64))
                ids, mat = ids[keep], mat[keep]
            self._ids, self._mat = ids, np.ascontiguousarray(mat)
            self._pending, self._dead = [], set()

    def search(self, query: Matrix, k: int) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine) for one normalised query vector."""
        self._compact()
        ids, mat = self._ids, self._mat
        if not len(ids):
            return []
        scores = mat @ query.astype(np.float32).reshape(-1)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in top]
