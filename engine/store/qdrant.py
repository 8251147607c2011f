"""The vector and keyword stores on Qdrant (`index_backend = "qdrant://host:6333"`): a team index on a
cluster, behind the same facade as the embedded stores (engine/store/base.py).

Two collections per catalog, `<prefix>_dense` (cosine vectors) and `<prefix>_bm25` (sparse vectors with
Qdrant's IDF modifier), so a new embedder resets the vectors without touching the keyword index, and the
engine fuses the two ranked lists by its own RRF exactly as with the embedded stores. Point ids are the
catalog's chunk ids; the payload names the chunk's file, folder and type so a search can filter on the
server. Lines and quotes still come from the local DuckDB catalog: the collections are derived data,
named by a prefix kept in a small state file beside the catalog (one catalog, one pair of collections).

Sparse vectors are BM25 as Tantivy scores it (engine/store/sparse.py: Tantivy's analysers, field norms
and phrase pairs; the IDF is Qdrant's, with Tantivy's formula), so keyword hits match the embedded index's.

qdrant-client is optional (`pip install 'citeline[qdrant]'`); its local mode (":memory:" or
"qdrant-local:PATH", the same API in process, brute force) serves the tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from engine.errors import CiteError, MissingDependency
from engine.names import within
from engine.store import sparse
from engine.store.base import Ids, LexicalRow, Matrix
from engine.store.lexical import BOOSTS

if TYPE_CHECKING:
    from qdrant_client import QdrantClient
    from qdrant_client import models as qm

    from engine.store.catalog import Catalog

T = TypeVar("T")
DENSE = "dense"
SPARSE = "bm25"
BATCH = 256  # points per upsert
STATE_FORMAT = 1
MEMORY = ":memory:"


# -- the setting -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """Where the collections live: a server URL, or a local-mode folder (or ":memory:")."""

    url: str | None = None
    path: str | None = None

    def __str__(self) -> str:
        return self.url or f"qdrant-local:{self.path}"


def parse_backend(value: str) -> Target | None:
    """The `index_backend` setting: None for the embedded stores, else the Qdrant target. Raises
    ValueError (the settings' validation message) for anything else."""
    if value == "embedded":
        return None
    for scheme, http in (("qdrant://", "http://"), ("qdrants://", "https://")):
        if value.startswith(scheme) and value[len(scheme) :].strip("/"):
            return Target(url=http + value[len(scheme) :].rstrip("/"))
    if value == MEMORY:
        return Target(path=MEMORY)
    if value.startswith("qdrant-local:") and value[len("qdrant-local:") :]:
        return Target(path=value[len("qdrant-local:") :])
    raise ValueError(
        f"unknown index backend {value!r}: use 'embedded', 'qdrant://host:6333', 'qdrants://host:6333', "
        "'qdrant-local:PATH' or ':memory:'"
    )


# -- the connection ----------------------------------------------------------------------------------
class QdrantConnection:
    """One client shared by both stores, the collection names, and the state file that records what the
    collections reflect (the catalog generation of the keyword points, the vector token). The local mode
    is not thread-safe, so there every call holds one lock; a server client is."""

    def __init__(
        self,
        target: Target,
        state_path: Path | None,
        shards: int = 1,
        replicas: int = 1,
        writable: bool = True,
    ) -> None:
        self.target = target
        self.shards, self.replicas, self.writable = shards, replicas, writable
        self.local = target.url is None
        self._lock = threading.RLock()
        self._present: set[str] = set()  # collections known to exist: a search asks the server nothing more
        self._state_path = None if target.path == MEMORY else state_path
        self.state = self._read_state()
        self.client = _connect(target)
        prefix = str(self.state["collection"])
        self.dense, self.sparse = f"{prefix}_{DENSE}", f"{prefix}_{SPARSE}"

    def _read_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {}
        if self._state_path is not None:
            with contextlib.suppress(OSError, ValueError):
                state = json.loads(self._state_path.read_text(encoding="utf-8"))
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            state = {}
        if state.get("target") != str(self.target):  # another cluster: what was recorded is not there
            state = {"collection": state.get("collection") or f"citeline_{uuid.uuid4().hex[:12]}"}
        state.update(format=STATE_FORMAT, target=str(self.target))
        return state

    def write_state(self) -> None:
        if self._state_path is None or not self.writable:
            return
        tmp = self._state_path.with_name(self._state_path.name + ".tmp")
        tmp.write_text(json.dumps(self.state), encoding="utf-8")
        os.replace(tmp, self._state_path)

    def call(self, fn: Callable[[QdrantClient], T]) -> T:
        """Run one client call; a server that fails or cannot be reached is a CiteError with the fix."""
        from qdrant_client.http.exceptions import ApiException

        with self._lock if self.local else contextlib.nullcontext():
            try:
                return fn(self.client)
            except (ApiException, OSError) as exc:
                raise CiteError(
                    f"The Qdrant index at {self.target} failed: {exc}",
                    "check that the server runs (docs/scale.md), or set index_backend to embedded",
                ) from exc

    def ensure(self, name: str, create: Callable[[QdrantClient], object]) -> bool:
        """Create the collection if it is missing; True when it was created."""
        if self.exists(name):
            return False
        self.call(create)
        self._present.add(name)
        return True

    def exists(self, name: str) -> bool:
        if name not in self._present and self.call(lambda c: c.collection_exists(name)):
            self._present.add(name)
        return name in self._present

    def drop(self, name: str) -> None:
        self._present.discard(name)
        if self.call(lambda c: c.collection_exists(name)):
            self.call(lambda c: c.delete_collection(name))

    def keyword_indexes(self, name: str, fields: Iterable[tuple[str, str]]) -> None:
        """Payload indexes for the filters (a server only: the local mode warns that it has none)."""
        if self.local:
            return
        for key, kind in fields:
            self.call(lambda c, k=key, t=kind: c.create_payload_index(name, k, t))  # type: ignore[misc]

    def close(self) -> None:
        with self._lock:
            self.client.close()


def _connect(target: Target) -> QdrantClient:
    try:
        from qdrant_client import QdrantClient
    except ImportError as exc:
        raise MissingDependency("qdrant-client", "qdrant") from exc
    if target.url is not None:
        client = QdrantClient(
            url=target.url,
            api_key=os.environ.get("QDRANT_API_KEY") or None,
            timeout=30,
            check_compatibility=False,  # its thread only warns; the probe below is what must succeed
        )
        try:
            client.get_collections()
        except Exception as exc:  # any failure to reach it: refused, DNS, TLS, auth
            client.close()
            raise CiteError(
                f"Cannot reach the Qdrant server at {target.url}: {exc}",
                "start it (docs/scale.md), check QDRANT_API_KEY, or set index_backend to embedded",
            ) from exc
        return client
    if target.path != MEMORY:
        Path(str(target.path)).expanduser().mkdir(parents=True, exist_ok=True)
    try:
        return QdrantClient(location=MEMORY) if target.path == MEMORY else QdrantClient(path=target.path)
    except RuntimeError as exc:  # the folder is held by another process's client
        raise CiteError(
            f"The local Qdrant index at {target.path} is open in another process.",
            "close the other Citeline process, or use a Qdrant server (qdrant://host:6333) to share one",
        ) from exc


def _models() -> Any:
    from qdrant_client import models

    return models


def _payload(path: str, file_id: int, folders: Sequence[str]) -> dict[str, Any]:
    """What a search may filter on: the file, its watched folder and its type (as engine Filters read
    them: the suffix, lower-case, without the dot)."""
    folder = max(
        (f for f in folders if path == f or path.startswith(f.rstrip("/\\") + "/")), key=len, default=""
    )
    return {"file_id": file_id, "folder": folder, "type": PurePath(path).suffix.lower().lstrip(".")}


def _filter(folder: str | None, types: Sequence[str]) -> qm.Filter | None:
    m = _models()
    must = []
    if folder:
        must.append(m.FieldCondition(key="folder", match=m.MatchValue(value=folder)))
    if types:
        must.append(
            m.FieldCondition(key="type", match=m.MatchAny(any=[t.lower().lstrip(".") for t in types]))
        )
    return m.Filter(must=must) if must else None


def _batches(items: Sequence[T], size: int = BATCH) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# -- vectors -----------------------------------------------------------------------------------------
class QdrantVectors:
    """Dense vectors in `<prefix>_dense`. Every write waits for the server, so nothing is left to save but
    the record that the collection matches the catalog (as VectorIndex records its file)."""

    def __init__(self, conn: QdrantConnection, catalog: Catalog, dim: int) -> None:
        self.conn, self.catalog, self.dim = conn, catalog, dim
        self._changes = 0

    @classmethod
    def open(cls, conn: QdrantConnection, catalog: Catalog) -> QdrantVectors:
        """The collection brought in line with the catalog: as is when its record matches, else by adding
        and removing the difference. A read-only snapshot writes nothing (the writer keeps it in line)."""
        vectors = cls(conn, catalog, catalog.vector_dim())
        if catalog.snapshot is not None or not conn.writable:
            return vectors
        record = conn.state.get("vectors") or {}
        if vectors._size() not in (None, vectors.dim):
            vectors.reset(vectors.dim)
        created = vectors._ensure()
        token = catalog.meta("vector_index")
        if (
            created
            or not token
            or record.get("token") != token
            or record.get("generation") != catalog.generation()
        ):
            vectors._reconcile()
            vectors._changes += 1
        vectors.save()
        return vectors

    def _size(self) -> int | None:
        if not self.conn.exists(self.conn.dense):
            return None
        params = self.conn.call(lambda c: c.get_collection(self.conn.dense)).config.params.vectors
        return int(params[DENSE].size) if isinstance(params, dict) and DENSE in params else -1

    def _ensure(self) -> bool:
        m = _models()
        created = self.conn.ensure(
            self.conn.dense,
            lambda c: c.create_collection(
                self.conn.dense,
                vectors_config={DENSE: m.VectorParams(size=self.dim, distance=m.Distance.COSINE)},
                shard_number=self.conn.shards,
                replication_factor=self.conn.replicas,
            ),
        )
        if created:
            self.conn.keyword_indexes(self.conn.dense, (("folder", "keyword"), ("type", "keyword")))
        return created

    def _reconcile(self) -> None:
        want = self.catalog.vector_chunk_ids()
        have = self.ids()
        self.remove(np.setdiff1d(have, want, assume_unique=True))
        for ids, mat in self.catalog.iter_vectors(np.setdiff1d(want, have, assume_unique=True)):
            self.add(ids, mat)

    def __len__(self) -> int:
        if not self.conn.exists(self.conn.dense):
            return 0
        return int(self.conn.call(lambda c: c.count(self.conn.dense, exact=self.conn.local)).count)

    def add(self, ids: Ids, vecs: Matrix) -> None:
        """Upsert (a re-added chunk replaces its point), with the payload read from the catalog."""
        if not len(ids):
            return
        m = _models()
        self._ensure()
        keys = [int(i) for i in np.asarray(ids, dtype=np.int64).reshape(-1)]
        mat = np.asarray(vecs, dtype=np.float32).reshape(len(keys), self.dim)
        rows = self.catalog.chunk_rows(keys)
        folders = [f.path for f in self.catalog.folders()]
        points = [
            m.PointStruct(
                id=key,
                vector={DENSE: mat[n].tolist()},
                payload=_payload(rows[key].path, rows[key].file_id, folders) if key in rows else {},
            )
            for n, key in enumerate(keys)
        ]
        for part in _batches(points):
            self.conn.call(lambda c, p=part: c.upsert(self.conn.dense, list(p), wait=True))  # type: ignore[misc]
        self._changes += len(keys)

    def remove(self, ids: list[int] | Ids) -> None:
        keys = [int(i) for i in np.asarray(ids, dtype=np.int64).reshape(-1)]
        if not keys or not self.conn.exists(self.conn.dense):
            return
        m = _models()
        for part in _batches(keys, 4096):
            selector = m.PointIdsList(points=list(part))
            self.conn.call(lambda c, s=selector: c.delete(self.conn.dense, s, wait=True))  # type: ignore[misc]
        self._changes += len(keys)

    def ids(self) -> Ids:
        if not self.conn.exists(self.conn.dense):
            return np.zeros(0, dtype=np.int64)
        found: list[int] = []
        offset: Any = None
        while True:
            points, offset = self.conn.call(
                lambda c, o=offset: c.scroll(  # type: ignore[misc]
                    self.conn.dense, limit=10_000, offset=o, with_payload=False, with_vectors=False
                )
            )
            found.extend(int(p.id) for p in points)
            if offset is None:
                return np.sort(np.asarray(found, dtype=np.int64))

    def reset(self, dim: int) -> None:
        self.dim = dim
        self.conn.drop(self.conn.dense)
        self._ensure()
        self._changes += 1

    def search(
        self, query: Matrix, k: int, folder: str | None = None, types: Sequence[str] = ()
    ) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine); `folder` and `types` filter on the server (payload)."""
        if k <= 0 or not self.conn.exists(self.conn.dense):
            return []
        vec = np.asarray(query, dtype=np.float32).reshape(-1).tolist()
        flt = _filter(folder, types)
        found = self.conn.call(
            lambda c: c.query_points(
                self.conn.dense, query=vec, using=DENSE, limit=k, query_filter=flt, with_payload=False
            )
        )
        return [(int(p.id), float(p.score)) for p in found.points]

    def save(self) -> None:
        """Mark the catalog as matching the collection (as VectorIndex.save does for its file)."""
        if self.catalog.snapshot is not None or not self.conn.writable:
            return
        record = self.conn.state.get("vectors") or {}
        token = self.catalog.meta("vector_index")
        same = (
            token and record.get("token") == token and record.get("generation") == self.catalog.generation()
        )
        if not self._changes and same:
            return
        token = uuid.uuid4().hex
        self.catalog.mark_vector_index("")
        self.conn.state["vectors"] = {
            "dim": self.dim,
            "token": token,
            "generation": self.catalog.generation(),
        }
        self.conn.write_state()
        self.catalog.mark_vector_index(token)
        self._changes = 0

    def close(self) -> None:
        """Record the match, then close the client both stores share (the facade closes vectors last)."""
        try:
            with contextlib.suppress(OSError, CiteError):
                self.save()
        finally:
            self.conn.close()


# -- keywords ----------------------------------------------------------------------------------------
class QdrantLexical:
    """Sparse BM25 in `<prefix>_bm25`, with the body's and heading's stems in the payload (`terms`) so
    doc_freq is a count on the server."""

    def __init__(self, conn: QdrantConnection, catalog: Catalog, read_only: bool = False) -> None:
        self.conn, self.catalog, self.read_only = conn, catalog, read_only
        self._lock = threading.Lock()

    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.conn.state.setdefault("lexical", {})
        return state

    def _ensure(self) -> None:
        m = _models()
        created = self.conn.ensure(
            self.conn.sparse,
            lambda c: c.create_collection(
                self.conn.sparse,
                vectors_config={},
                sparse_vectors_config={SPARSE: m.SparseVectorParams(modifier=m.Modifier.IDF)},
                shard_number=self.conn.shards,
                replication_factor=self.conn.replicas,
            ),
        )
        if created:
            fields = (
                ("file_id", "integer"),
                ("folder", "keyword"),
                ("type", "keyword"),
                ("terms", "keyword"),
                ("folded", "keyword"),
            )
            self.conn.keyword_indexes(self.conn.sparse, fields)

    def generation(self) -> int:
        state = self._state()
        if state.get("encoding") != sparse.VERSION or not self.conn.exists(self.conn.sparse):
            return -1  # lost, never built or encoded otherwise: rebuild from the catalog
        return int(state.get("generation", -1))

    def apply(self, generation: int, remove_files: Iterable[int], add: Sequence[LexicalRow]) -> None:
        m = _models()
        with self._lock:
            self._ensure()
            files = [int(f) for f in remove_files]
            for part in _batches(files, 1024):
                cond = m.FieldCondition(key="file_id", match=m.MatchAny(any=list(part)))
                selector = m.FilterSelector(filter=m.Filter(must=[cond]))
                self.conn.call(lambda c, s=selector: c.delete(self.conn.sparse, s, wait=True))  # type: ignore[misc]
            points = self._points(add)
            for chunk in _batches(points):
                self.conn.call(lambda c, p=chunk: c.upsert(self.conn.sparse, list(p), wait=True))  # type: ignore[misc]
            self._state().update(generation=generation, encoding=sparse.VERSION)
            self.conn.write_state()

    def _points(self, rows: Sequence[LexicalRow]) -> list[qm.PointStruct]:
        """Sparse BM25 points; the running token counts (avgdl per field) take this batch in first."""
        m = _models()
        by_field = sparse.analyzers()
        tokenised = [(row, sparse.tokenise(within(row[2], row[5]), row[3], row[4], by_field)) for row in rows]
        state = self._state()
        tokens = state.setdefault("tokens", {})
        state["docs"] = int(state.get("docs", 0)) + len(rows)
        for _row, fields in tokenised:
            for f, toks in fields.items():
                tokens[f] = int(tokens.get(f, 0)) + len(toks.terms)
        avgdl = {f: max(1.0, tokens.get(f, 0) / max(1, state["docs"])) for f in BOOSTS}
        points = []
        for (chunk_id, file_id, path, _heading, _text, folder), fields in tokenised:
            weights = sparse.doc_weights(fields, avgdl)
            payload = _payload(path, file_id, [folder])  # the row names its watched folder
            payload["terms"] = sorted(set(fields["body"].terms) | set(fields["heading"].terms))
            payload["folded"] = sorted(set(fields["folded"].terms))
            vector = m.SparseVector(indices=list(weights), values=list(weights.values()))
            points.append(m.PointStruct(id=chunk_id, vector={SPARSE: vector}, payload=payload))
        return points

    def room_to_rebuild(self) -> bool:
        return True  # the server's disk, not this machine's

    def clear(self) -> None:
        with self._lock:
            self.conn.drop(self.conn.sparse)
            self.conn.state["lexical"] = {}
            self._ensure()

    def num_docs(self) -> int:
        if not self.conn.exists(self.conn.sparse):
            return 0
        return int(self.conn.call(lambda c: c.count(self.conn.sparse, exact=True)).count)

    def doc_freq(self, word: str) -> tuple[int, int]:
        stems = sorted(set(sparse.analyzers()["body"].analyze(word)))
        total = self.num_docs()
        if not stems or not total:
            return 0, total
        m = _models()
        flt = m.Filter(must=[m.FieldCondition(key="terms", match=m.MatchAny(any=stems))])
        found = self.conn.call(lambda c: c.count(self.conn.sparse, count_filter=flt, exact=True))
        return int(found.count), total

    def term_freq(self, term: str) -> tuple[int, int]:
        if not term.isalnum():  # a word the analyser splits ("doesn't"): as doc_freq reads it
            return self.doc_freq(term)
        total = self.num_docs()
        if not total:
            return 0, total
        m = _models()
        flt = m.Filter(must=[m.FieldCondition(key="terms", match=m.MatchAny(any=[term]))])
        found = self.conn.call(lambda c: c.count(self.conn.sparse, count_filter=flt, exact=True))
        return int(found.count), total

    def near(self, word: str, typos: int, first_letter: bool = False) -> bool:
        """Whether any chunk's body or heading holds `word`'s stems, or its folded words hold `word`
        (Engine.knows asks again without the marks): exactly, whatever `typos` (the payload holds
        terms, not an automaton to search them by edits)."""
        if self.doc_freq(word)[0] > 0:
            return True
        words = sorted(set(sparse.analyzers()["folded"].analyze(word)))
        if not words or not self.conn.exists(self.conn.sparse):
            return False
        m = _models()
        flt = m.Filter(must=[m.FieldCondition(key="folded", match=m.MatchAny(any=words))])
        return bool(self.conn.call(lambda c: c.count(self.conn.sparse, count_filter=flt, exact=True)).count)

    def search(
        self, query: str, limit: int, folder: str | None = None, types: Sequence[str] = ()
    ) -> list[tuple[int, float]]:
        """BM25-style top-`limit` (chunk id, score); `folder` and `types` filter on the server."""
        if limit <= 0 or not self.conn.exists(self.conn.sparse):
            return []
        return self._query(query, limit, _filter(folder, types))

    def _query(self, query: str, limit: int, flt: qm.Filter | None) -> list[tuple[int, float]]:
        weights = sparse.query_weights(query)
        if not weights:
            return []
        m = _models()
        vector = m.SparseVector(indices=list(weights), values=list(weights.values()))
        found = self.conn.call(
            lambda c: c.query_points(
                self.conn.sparse,
                query=vector,
                using=SPARSE,
                limit=limit,
                query_filter=flt,
                with_payload=False,
            )
        )
        return [(int(p.id), float(p.score)) for p in found.points]

    def search_file(self, query: str, file_id: int, limit: int) -> list[tuple[int, float]]:
        """The file's `limit` chunks that match `query` best, or its first chunks where none matches."""
        if limit <= 0 or not self.conn.exists(self.conn.sparse):
            return []
        m = _models()
        flt = m.Filter(must=[m.FieldCondition(key="file_id", match=m.MatchValue(value=int(file_id)))])
        found = self._query(query, limit, flt)
        if len(found) < limit:  # chunks no word matches, in their order (chunk ids rise through a file)
            have = {cid for cid, _ in found}
            rest = self.conn.call(
                lambda c: c.scroll(self.conn.sparse, scroll_filter=flt, limit=64, with_payload=False)
            )[0]
            found += sorted((int(p.id), 0.0) for p in rest if int(p.id) not in have)
        return found[:limit]


def open_stores(
    target: Target, index_dir: Path, catalog: Catalog, shards: int, replicas: int
) -> tuple[QdrantLexical, QdrantVectors]:
    """Both stores on one connection, the vectors reconciled with the catalog."""
    writable = catalog.snapshot is None
    conn = QdrantConnection(target, index_dir / "qdrant.json", shards, replicas, writable)
    try:
        return QdrantLexical(conn, catalog, read_only=not writable), QdrantVectors.open(conn, catalog)
    except BaseException:
        conn.close()
        raise
