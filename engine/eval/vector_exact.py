"""The HNSW vector index against exact search on an eval set: `python -m engine.eval.vector_exact SET...`.

Issue 22 asks that compressing the vectors (fp16 copies in a usearch graph) leaves retrieval as it was at
the same k. This scores the same index twice, once through the graph and once by brute force over the
catalog's float32 vectors (`VectorIndex.exact`), with `citeline eval`'s own metrics, and reports how many
of exact search's top 10 chunks the graph returns for the set's queries (recall@10 against exact).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import CiteError
from engine.eval.datasets import load
from engine.eval.runner import default_work_dir, evaluate_mode, open_index, searcher_for
from engine.store.vectors import VectorIndex

TOP = 10


def compare(path: Path, modes: Sequence[str], work_dir: Path | None = None) -> dict[str, Any]:
    """Scores of each mode through the graph and exactly, and the graph's recall@10 against exact."""
    work = work_dir or default_work_dir(path)
    work.mkdir(parents=True, exist_ok=True)
    dataset = load(path, work)
    engine, _ = open_index(dataset, work)
    try:
        vectors = engine.searcher().vectors
        if not isinstance(vectors, VectorIndex):
            raise CiteError("Exact search is measured for the embedded vector index only.", "")
        vectors.exact_below = 0  # through the graph, whatever the index's size
        out: dict[str, Any] = {"dataset": dataset.name, "chunks": len(vectors), "modes": {}}
        for exact in (False, True):
            vectors.exact = exact
            for mode in modes:
                report = evaluate_mode(engine, dataset, mode, searcher_for(engine, mode))
                out["modes"].setdefault(mode, {})["exact" if exact else "hnsw"] = report.scores
        out["recall@10_vs_exact"] = _recall(engine, [q.text for q in dataset.queries if q.relevant], vectors)
        return out
    finally:
        engine.close()


def _recall(engine: Any, queries: Sequence[str], vectors: VectorIndex) -> float:
    """Share of exact search's top-10 chunk ids that the graph's top 10 holds, over all queries."""
    found = wanted = 0
    for text in queries:
        query = engine.embed_query(text)
        vectors.exact = True
        exact = {cid for cid, _ in vectors.search(query, TOP)}
        vectors.exact = False
        graph = {cid for cid, _ in vectors.search(query, TOP)}
        found += len(exact & graph)
        wanted += len(exact)
    return found / wanted if wanted else 1.0


def markdown(result: dict[str, Any]) -> str:
    lines = [
        f"## {result['dataset']}: {result['chunks']} vectors; "
        f"HNSW recall@10 vs exact {result['recall@10_vs_exact']:.4f}",
        "",
        "| mode | metric | HNSW (fp16) | exact (float32) | difference |",
        "|---|---|---|---|---|",
    ]
    for mode, runs in result["modes"].items():
        for name in ("ndcg@10", "recall@10", "passages@10", "mrr@10"):
            if name in runs["hnsw"]:
                graph, exact = runs["hnsw"][name], runs["exact"][name]
                lines.append(f"| {mode} | {name} | {graph:.4f} | {exact:.4f} | {graph - exact:+.4f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.eval.vector_exact", description=__doc__)
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--modes", nargs="+", default=["vector", "hybrid"])
    parser.add_argument("--work-dir", type=Path, help="where the set's eval index is (one set only)")
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    if args.work_dir and len(args.sets) > 1:
        parser.error("--work-dir takes one set at a time")
    results = []
    for path in args.sets:
        results.append(compare(path, args.modes, args.work_dir))
        print(markdown(results[-1]) + "\n", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
