"""`citeline eval`: index an evaluation set once, then score retrieval modes side by side in one run."""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from engine.api import Engine
from engine.eval import metrics
from engine.eval.datasets import Dataset, Query, load
from engine.events import Hit
from engine.settings import Settings, data_dir, model_cache_dir

CHUNK_DEPTH = 100  # chunk hits fetched per query, deduplicated to files for file-level metrics
Progress = Callable[[str], None]


@dataclass
class ModeReport:
    mode: str
    scores: dict[str, float] = field(default_factory=dict)
    latency_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    per_query: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Report:
    dataset: str
    kind: str
    queries: int
    index_seconds: float
    chunks: int
    modes: list[ModeReport]
    extra: dict[str, Any] = field(default_factory=dict)
    answer_rows: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "kind": self.kind,
            "queries": self.queries,
            "index_seconds": self.index_seconds,
            "chunks": self.chunks,
            "extra": self.extra,
            "modes": [m.__dict__ for m in self.modes],
            "answer_rows": self.answer_rows,
        }

    def markdown(self) -> str:
        names = sorted({k for m in self.modes for k in m.scores})
        lines = [
            f"## {self.dataset} ({self.kind}): {self.queries} queries, {self.chunks} chunks, "
            f"indexed in {self.index_seconds:.1f} s",
            "",
            "| mode | " + " | ".join(names) + " | p50 ms | p95 ms |",
            "|---|" + "---|" * (len(names) + 2),
        ]
        for m in self.modes:
            total = m.latency_ms.get("total", {})
            lines.append(
                f"| {m.mode} | "
                + " | ".join(f"{m.scores[n]:.3f}" if n in m.scores else "–" for n in names)
                + f" | {total.get('p50', 0):.1f} | {total.get('p95', 0):.1f} |"
            )
        lines.append("")
        lines.append(
            "Per-stage latency p50/p95 (ms): "
            + "; ".join(
                f"{m.mode}: "
                + ", ".join(f"{s} {v['p50']:.1f}/{v['p95']:.1f}" for s, v in m.latency_ms.items())
                for m in self.modes
            )
        )
        for key, value in self.extra.items():
            if isinstance(value, dict):
                lines.append(f"- {key}:")
                for k, v in value.items():
                    if k == "questions":
                        continue
                    if isinstance(v, dict):  # a breakdown (answers.by_kind): one line per entry
                        lines.append(f"  - {k}:")
                        lines.extend(f"    - {k2}: {v2}" for k2, v2 in v.items())
                    else:
                        lines.append(f"  - {k}: {v}")
            else:
                lines.append(f"- {key}: {value}")
        return "\n".join(lines)


def default_work_dir(dataset_path: Path) -> Path:
    tag = hashlib.sha256(str(dataset_path.resolve()).encode()).hexdigest()[:10]
    return (
        Path(platformdirs.user_cache_dir("citeline", appauthor=False)) / "eval" / f"{dataset_path.name}-{tag}"
    )


def open_index(
    dataset: Dataset,
    work_dir: Path,
    progress: Progress | None = None,
    overrides: dict[str, str] | None = None,
) -> tuple[Engine, float]:
    """An engine whose data dir lives in work_dir, synced with the corpus (incremental on repeat runs).
    Overrides apply from construction on: `index_backend` picks the stores the index opens with."""
    settings = Settings.load(data_dir(work_dir / "home"))
    if overrides:
        settings = settings.model_validate({**settings.model_dump(), **overrides})
    engine = Engine(work_dir / "home", settings=settings, model_cache=model_cache_dir(data_dir()))
    if engine.chunked_otherwise():
        # Indexed afresh, as a new user's folder would be. Re-chunked in place, the chunks get other ids
        # and keep the vectors of texts embedded before, in other batches; that moved a decision sitting
        # on a fitted line (LangChain's q020, 2026-11-28: refused there, answered on a fresh index), and
        # calibrate records what a fresh index decides (tests/test_calibration.py builds one).
        engine.close()
        shutil.rmtree(work_dir / "home")
        engine = Engine(work_dir / "home", settings=settings, model_cache=model_cache_dir(data_dir()))
    root = dataset.corpus_dir.resolve()
    if engine.catalog.folder(str(root)) is None:
        for other in engine.folders():
            engine.remove_folder(other.path)
        engine.add_folder(root)
    started = time.perf_counter()
    for event in engine.sync():
        if progress is not None:
            progress(type(event).__name__)
    return engine, time.perf_counter() - started


def file_keys(hits: Sequence[Hit], root: Path) -> list[str]:
    return metrics.dedupe(Path(h.path).resolve().relative_to(root).as_posix() for h in hits)


def score_query(query: Query, hits: Sequence[Hit], root: Path, kind: str) -> dict[str, float]:
    ranked = file_keys(hits, root)
    row = {
        "recall@5": metrics.recall_at_k(ranked, query.relevant, 5),
        "recall@10": metrics.recall_at_k(ranked, query.relevant, 10),
        "mrr@10": metrics.mrr_at_k(ranked, query.relevant, 10),
        "ndcg@10": metrics.ndcg_at_k(ranked, query.relevant, 10),
    }
    if query.passages:
        texts = [h.text for h in hits[:10]]
        row["passages@10"] = metrics.mean(
            1.0 if metrics.passage_found(p, texts) else 0.0 for p in query.passages
        )
    del kind
    return row


def evaluate_mode(engine: Engine, dataset: Dataset, mode: str, search: Callable[[str], Any]) -> ModeReport:
    root = dataset.corpus_dir.resolve()
    report = ModeReport(mode)
    stage_times: dict[str, list[float]] = {}
    rows: list[dict[str, float]] = []
    best: dict[bool, list[float]] = {True: [], False: []}  # answerable -> best rerank score per query
    for query in dataset.queries:
        if not query.relevant:
            if not query.answerable and "+" in mode:
                best[False].append(_best_rerank(search(query.text).hits))
            continue
        started = time.perf_counter()
        result = search(query.text)
        if "+" in mode:
            best[True].append(_best_rerank(result.hits))
        total = (time.perf_counter() - started) * 1000
        for stage, ms in {**result.timings_ms, "total": total}.items():
            stage_times.setdefault(stage, []).append(ms)
        row = score_query(query, result.hits, root, dataset.kind)
        rows.append(row)
        report.per_query.append({"id": query.id, **row, "top": file_keys(result.hits, root)[:5]})
    report.scores = {name: metrics.mean(r[name] for r in rows) for name in (rows[0] if rows else {})}
    if best[True] and best[False]:  # do the reranker's scores tell answerable from unanswerable?
        report.scores["unanswerable_auc"] = metrics.roc_auc(best[True], best[False])
    report.latency_ms = {
        s: {"p50": metrics.percentile(v, 50), "p95": metrics.percentile(v, 95)}
        for s, v in stage_times.items()
    }
    del engine
    return report


def _best_rerank(hits: Sequence[Hit]) -> float:
    return max((h.rerank_score for h in hits if h.rerank_score is not None), default=float("-inf"))


def searcher_for(engine: Engine, mode: str) -> Callable[[str], Any]:
    """A mode is "keyword", "vector", "hybrid", or "hybrid+<reranker>"."""
    base, _, rerank = mode.partition("+")
    reranker = engine.reranker(rerank) if rerank else None
    return lambda text: engine.search(text, k=CHUNK_DEPTH, mode=base, reranker=reranker)  # type: ignore[arg-type]


def run_eval(
    path: Path,
    modes: Sequence[str] = ("keyword", "vector", "hybrid"),
    k: int = 10,
    limit: int | None = None,
    work_dir: Path | None = None,
    answers: bool = False,
    generator: str = "extractive",
    split: str = "test",
    calibrate: bool = False,
    progress: Progress | None = None,
    overrides: dict[str, str] | None = None,
) -> Report:
    work = work_dir or default_work_dir(path)
    work.mkdir(parents=True, exist_ok=True)
    dataset = load(path, work, split=split, limit=limit)
    engine, seconds = open_index(dataset, work, progress, overrides)  # overrides: this run only, never saved
    try:
        mode_reports = [evaluate_mode(engine, dataset, m, searcher_for(engine, m)) for m in modes]
        report = Report(
            dataset.name, dataset.kind, len(dataset.queries), seconds, engine.status().chunks, mode_reports
        )
        read, spared = engine.catalog.embed_tokens()
        if read or spared:  # an index embedded before the counts were kept has none
            report.extra["embedding tokens"] = (
                f"{read:,} read by the model, {spared:,} spared (duplicates, shared headers)"
            )
        if calibrate:
            from engine.eval.answers import calibrate_gate

            report.extra["gate_calibration"] = calibrate_gate(engine, dataset)
        if answers:
            from engine.eval.answers import evaluate_answers

            result = evaluate_answers(engine, dataset, generator)
            report.extra["answers"] = result["answers"]
            report.answer_rows = result["answer_rows"]
        del k
        return report
    finally:
        engine.close()
