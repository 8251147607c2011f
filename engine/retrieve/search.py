"""The hybrid pipeline: BM25 top-N and vector top-N fused by RRF, optional second stage, hits with trace."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.events import Hit
from engine.retrieve.fusion import fuse_ranks, rrf
from engine.retrieve.snippets import snippet
from engine.store.catalog import Catalog, ChunkRow
from engine.store.lexical import LexicalIndex
from engine.store.vectors import VectorIndex

Mode = Literal["keyword", "vector", "hybrid"]
Reranker = Callable[[str, list[Hit]], list[float]]

# A name written as code or as a file in the query: in backticks, or a word with an inner "_", ".", "/"
# or a lower-case letter before a capital (snake_case, dotted.name, path/to, camelCase).
_WRITTEN = re.compile(r"`([^`\n]{1,200})`|(?<![\w./\\-])([\w][\w./\\-]*[\w])", re.UNICODE)
_NAME_LIKE = re.compile(r"[^\W_]_+[^\W_]|[^\W\d]\.[^\W\d]|[^\W_][/\\][^\W_]|[a-z][A-Z]")
NAMED_FILES = 4  # files a query may name that are searched as a list of their own
NAMED_CHUNKS = 2  # each named file's chunks in that list
NAME_SHARED_BY = 3  # a name more files share names none of them ("index", "__init__", "utils")
# A name the query writes exactly (exact_names) that at most this many chunks hold is a list of its own:
# every chunk holding it can then reach the evidence, which takes six passages.
EXACT_HOLDERS = 6
EXACT_NAMES = 16  # the names of a long query looked up (a pasted stack trace writes hundreds)
_TOKEN = re.compile(r"\w+")


def file_names_in(query: str) -> list[tuple[str, ...]]:
    """What the query may call a file by, lower case, in order: for each name it writes as code or as a
    file name (`MODEL_AUTHENTICATION`, `config.yaml`, test_api.py, docs/intro.md, iterutils.chunked), its
    last path part, then the dotted parts of four letters or more ("iterutils" of iterutils.chunked, the
    module that defines it), most specific first. Plain words name no file: a folder of notes holds
    "memory.md" and "Memory" is a word."""
    names: list[tuple[str, ...]] = []
    for match in _WRITTEN.finditer(query):
        token = match.group(1) or match.group(2)
        if match.group(2) and not _NAME_LIKE.search(token):
            continue
        token = re.split(r"[/\\]", token.strip().strip("()[]{}<>@$:;,'\"").rstrip("."))[-1].lower()
        token = re.sub(r"\(.*$", "", token)  # `chunked(src, size)`: the name
        if not token or token.isdigit():
            continue
        parts = [p for p in token.split(".") if len(p) >= 4 and not p.isdigit()] if "." in token else []
        forms = tuple(dict.fromkeys((token, *parts)))
        if forms not in names:
            names.append(forms)
    return names


def exact_names(query: str) -> list[str]:
    """The names the query writes as only a name is written, in order, once each (case aside): a word
    that starts with a letter and holds a digit (s2502027, IC4, run3, x86_64), or joins words with "_"
    or a capital (query_timeout_s, sendText). A figure with its unit (10MB, 4Gi, 28th) starts with its
    digit and is no name; a word of letters alone may be English."""
    names: dict[str, str] = {}
    for token in _TOKEN.findall(query):
        if (
            token[0].isalpha()
            and (any(c.isdigit() for c in token) or _NAME_LIKE.search(token))
            and token.lower() not in names
        ):
            names[token.lower()] = token
    return list(names.values())


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Filters:
    folder: str | None = None
    extensions: tuple[str, ...] = ()

    def allows(self, path: str) -> bool:
        if self.folder and not (path == self.folder or path.startswith(self.folder.rstrip("/\\") + "/")):
            return False
        return not self.extensions or PurePath(path).suffix.lower().lstrip(".") in self.extensions

    @property
    def active(self) -> bool:
        return bool(self.folder or self.extensions)


class Searcher:
    def __init__(
        self,
        catalog: Catalog,
        lexical: LexicalIndex,
        vectors: VectorIndex,
        embed_query: Callable[[str], npt.NDArray[np.float32]] | None,
        candidates: int,
        rrf_k: int,
    ) -> None:
        self.catalog = catalog
        self.lexical = lexical
        self.vectors = vectors
        self.embed_query = embed_query
        self.candidates = candidates
        self.rrf_k = rrf_k

    def search(
        self,
        query: str,
        k: int = 10,
        mode: Mode = "hybrid",
        filters: Filters | None = None,
        reranker: Reranker | None = None,
        rerank_top: int = 20,
    ) -> SearchResult:
        filters = filters or Filters()
        timings: dict[str, float] = {}
        widen = 4 if filters.active else 1
        n = max(self.candidates, k) * widen
        lexical: list[tuple[int, float]] = []
        dense: list[tuple[int, float]] = []
        if mode in ("keyword", "hybrid"):
            t = time.perf_counter()
            # equal scores in chunk order: the embedded and the Qdrant store order a tie each their own way
            lexical = sorted(self.lexical.search(query, n), key=lambda cs: (-round(cs[1], 4), cs[0]))
            timings["bm25"] = _ms(t)
        if mode in ("vector", "hybrid") and self.embed_query is not None and len(self.vectors):
            t = time.perf_counter()
            qvec = self.embed_query(query)
            timings["embed_query"] = _ms(t)
            t = time.perf_counter()
            dense = self.vectors.search(qvec, n)
            timings["vector"] = _ms(t)
        named: list[int] = []  # chunks of the files the query names
        if mode in ("keyword", "hybrid"):
            t = time.perf_counter()
            named = self.named(query)
            timings["named"] = _ms(t)
        exact: list[int] = []  # chunks holding a rare name the query writes
        if mode in ("keyword", "hybrid"):
            t = time.perf_counter()
            exact = self.exact(query, lexical)
            timings["exact"] = _ms(t)
        t = time.perf_counter()
        fused = rrf([[i for i, _ in lexical], [i for i, _ in dense], named, exact], self.rrf_k)
        timings["fuse"] = _ms(t)
        hits = self._hits(
            query, fused, lexical, dense, named, exact, filters, max(k, rerank_top if reranker else k)
        )
        if reranker is not None and hits:
            t = time.perf_counter()
            head = hits[:rerank_top]
            scores = reranker(query, head)
            head = [replace(h, rerank_score=s) for h, s in zip(head, scores, strict=True)]
            if getattr(reranker, "fuse", False):  # the model's order is a third list, fused by RRF
                order = fuse_ranks(head, self.rrf_k)
                head = [head[i] for i in order]
            else:
                head.sort(key=lambda h: -(h.rerank_score or 0.0))
            hits = head + hits[rerank_top:]
            timings["rerank"] = _ms(t)
        return SearchResult(query, mode, hits[:k], timings)

    def named(self, query: str) -> list[int]:
        """The best chunks of each file the query names (`file_names_in`), a third list for the fusion: a
        question that says which file it is about ("What causes `GRAPH_RECURSION_LIMIT`?" of a folder
        holding GRAPH_RECURSION_LIMIT.mdx, "what does test_api.py check") reaches that file's text even
        where other chunks hold more of its words."""
        names = file_names_in(query)
        if not names:
            return []
        found = self.catalog.files_named(
            list(dict.fromkeys(n for forms in names for n in forms)), NAME_SHARED_BY
        )
        # the most specific form that names a file: `exceptions.py` is not docs/exceptions.rst
        chosen = (next((found[n] for n in forms if n in found), []) for forms in names)
        files = list(dict.fromkeys(f for ids in chosen for f in ids))[:NAMED_FILES]
        per_file = [self.lexical.search_file(query, f, NAMED_CHUNKS) for f in files]
        per_file.sort(key=lambda chunks: -max((s for _, s in chunks), default=0.0))  # best match first
        return [
            cid
            for rank in range(NAMED_CHUNKS)
            for chunks in per_file
            if rank < len(chunks)
            for cid, _ in chunks[rank : rank + 1]
        ]

    def exact(self, query: str, lexical: Sequence[tuple[int, float]]) -> list[int]:
        """The chunks holding each name the query writes exactly (`exact_names`) that at most
        EXACT_HOLDERS chunks hold, a fourth list for the fusion, the rarest name's first. A student id, a
        setting or an error code the user types is what they ask about, and keyword ranking sums every
        word's weight: a long chunk holding the id once ranked eighth, under chunks holding the question's
        common words many times ("what was s2502027's final mark": the marks export under the grader).
        Each name's holders in the keyword ranking's order of the whole query, then its own. Not a name
        that names a file, whose best chunks `named` lists (a file's own examples write its name most)."""
        order = {cid: r for r, (cid, _) in enumerate(lexical)}
        lists: list[tuple[int, list[int]]] = []
        names = exact_names(query)[:EXACT_NAMES]
        files = self.catalog.files_named([n.lower() for n in names], NAME_SHARED_BY) if names else {}
        for name in names:
            if name.lower() in files:
                continue  # a file's name: that file's best chunks are a list already (`named`)
            held = self.lexical.doc_freq(name)[0]
            if not 0 < held <= EXACT_HOLDERS:
                continue
            found = [cid for cid, _ in self.lexical.search(name, EXACT_HOLDERS * 4)]
            rows = self.catalog.chunk_rows(found)
            written = re.compile(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", re.IGNORECASE)
            holders = [cid for cid in found if cid in rows and written.search(rows[cid].text)]
            holders.sort(key=lambda cid: order.get(cid, len(order)))  # stable: its own order after
            if holders:
                lists.append((held, holders[:EXACT_HOLDERS]))
        lists.sort(key=lambda pair: pair[0])
        return list(
            dict.fromkeys(
                cid for rank in range(EXACT_HOLDERS) for _, ids in lists for cid in ids[rank : rank + 1]
            )
        )

    def _hits(
        self,
        query: str,
        fused: list[tuple[int, float]],
        lexical: Sequence[tuple[int, float]],
        dense: Sequence[tuple[int, float]],
        named: Sequence[int],
        exact: Sequence[int],
        filters: Filters,
        k: int,
    ) -> list[Hit]:
        named_rank = {cid: r for r, cid in reversed(list(enumerate(named, start=1)))}
        exact_rank = {cid: r for r, cid in enumerate(exact, start=1)}
        lex_rank = {cid: (r, s) for r, (cid, s) in enumerate(lexical, start=1)}
        vec_rank = {cid: (r, s) for r, (cid, s) in enumerate(dense, start=1)}
        rows = self.catalog.chunk_rows([cid for cid, _ in fused[: k * 8 if filters.active else k]])
        hits: list[Hit] = []
        for cid, score in fused:
            row = rows.get(cid)
            if row is None or not filters.allows(row.path):
                continue
            hit = hit_from_row(row, score, query, lex_rank.get(cid), vec_rank.get(cid))
            hit = replace(hit, named_rank=named_rank[cid]) if cid in named_rank else hit
            hits.append(replace(hit, exact_rank=exact_rank[cid]) if cid in exact_rank else hit)
            if len(hits) >= k:
                break
        return hits


def hit_from_row(
    row: ChunkRow, score: float, query: str, lex: tuple[int, float] | None, vec: tuple[int, float] | None
) -> Hit:
    return Hit(
        chunk_id=row.id,
        path=row.path,
        start_line=row.start_line,
        end_line=row.end_line,
        page=row.page,
        heading=row.heading,
        text=row.text,
        score=score,
        snippet=snippet(row.text, query),
        lexical_rank=lex[0] if lex else None,
        lexical_score=lex[1] if lex else None,
        vector_rank=vec[0] if vec else None,
        vector_score=vec[1] if vec else None,
        mtime=row.mtime,
        lines=row.lines,
    )


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
