"""`citeline bench`: ingest rates, embedding efficiency and hybrid query latency on a synthetic corpus.

- keyword ingest: a synthetic folder of Markdown files (~8 chunks each) goes through the real pipeline
  (scan, extract, chunk, DuckDB, Tantivy); files/s and chunks/s until keyword-searchable;
- embedding: the real vector phase (catalog + ONNX) on a sample of chunks, as a fraction of the
  embedder's standalone throughput on the same texts;
- query latency: hybrid search (real query embedding, BM25, the HNSW vector index, RRF, row fetch) at
  each corpus size. Embedding 100k chunks takes hours on 2 cores, so beyond the embedded sample the
  vector index is filled with synthetic vectors as close to their neighbours as real embeddings are
  (`like_embeddings`): the graph's cost is the same, the ranking is not;
- start-up: a new process opens the index (the vector file saved at close) and runs the first hybrid
  search, then 30 more; its own peak RSS is the app's;
- peak RSS of the benchmark process.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.api import Engine
from engine.eval import metrics
from engine.settings import data_dir, model_cache_dir

WORDS = (
    "index search query vector lexical token chunk folder watcher deploy rollback policy budget invoice "
    "latency cache replica shard migration schema pipeline kafka redis postgres gateway service metric "
    "alert incident review release branch commit merge build test coverage profile memory thread lock"
).split()
QUERIES = [
    "rollback deploy pipeline",
    "redis cache latency",
    "schema migration shard",
    "incident alert review",
    "how do we profile memory use",
    "kafka gateway service metric",
    "release branch merge policy",
]


@dataclass
class BenchReport:
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "notes": self.notes}

    def markdown(self) -> str:
        lines = ["| measure | value |", "|---|---|"]
        lines += [f"| {r['measure']} | {r['value']} |" for r in self.rows]
        return "\n".join(lines + [""] + [f"- {n}" for n in self.notes])

    def add(self, measure: str, value: str) -> None:
        self.rows.append({"measure": measure, "value": value})
        print(f"{measure}: {value}", file=sys.stderr, flush=True)


def write_corpus(root: Path, chunks: int, seed: int = 1) -> int:
    """Markdown files of 8 sections each (~1 chunk per section); returns the number of files."""
    rng = random.Random(seed)
    files = max(1, chunks // 8)
    for i in range(files):
        sections = []
        for s in range(8):
            body = " ".join(rng.choice(WORDS) for _ in range(110))
            sections.append(f"## Section {s} of note {i}\n\n{body} marker{i}x{s}\n")
        path = root / f"d{i % 50:02d}" / f"note{i:06d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Note {i}\n\n" + "\n".join(sections), encoding="utf-8")
    return files


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_keyword(engine: Engine, root: Path, report: BenchReport, label: str) -> int:
    engine.add_folder(root)
    started = time.perf_counter()
    events = list(engine.sync(embed=False))
    seconds = time.perf_counter() - started
    chunks = engine.status().chunks
    files = sum(1 for e in events if type(e).__name__ == "FileIndexed")
    report.add(
        f"keyword ingest {label}",
        f"{files} files, {chunks} chunks in {seconds:.1f} s "
        f"({files / seconds:.0f} files/s, {chunks / seconds:.0f} chunks/s)",
    )
    return chunks


def bench_embedding(engine: Engine, sample: int, report: BenchReport) -> None:
    texts = [t for _, t in engine.catalog.missing_vectors(sample)]
    embedder = engine.embedder()
    embedder.embed(texts[:16])  # warm up (load the session)
    standalone = 0.0
    for _ in range(2):  # best of two: the machine is shared
        started = time.perf_counter()
        embedder.embed(texts)
        standalone = max(standalone, len(texts) / (time.perf_counter() - started))
    engine.catalog.store_vectors([], np.zeros((0, engine.catalog.vector_dim()), dtype=np.float32))
    started = time.perf_counter()
    done = 0
    for event in engine.embed_pending():
        done = event.done
        if done >= len(texts):
            break
    pipeline = len(texts) / (time.perf_counter() - started)
    report.add("embedding standalone (ONNX, 2 threads)", f"{standalone:.1f} chunks/s")
    report.add(
        "embedding in the indexing pipeline",
        f"{pipeline:.1f} chunks/s = {pipeline / standalone:.2f} of standalone",
    )


def bench_queries(engine: Engine, report: BenchReport, label: str, rounds: int = 30) -> None:
    vectors = engine._open()[2]
    have = set(vectors.ids().tolist())
    missing = np.asarray([cid for cid in _all_chunk_ids(engine) if cid not in have], dtype=np.int64)
    started = time.perf_counter()
    for at in range(0, len(missing), 50_000):
        part = missing[at : at + 50_000]
        vectors.add(part, like_embeddings(len(part), engine.catalog.vector_dim(), seed=at))
    if len(missing):
        seconds = time.perf_counter() - started
        report.add(
            f"vector index build {label}",
            f"{len(missing)} vectors in {seconds:.0f} s ({len(missing) / seconds:.0f}/s)",
        )
    engine.search(QUERIES[0], k=10)  # warm up
    times = _hybrid_times(engine, rounds)
    report.add(
        f"hybrid query {label} (p50 / p95)",
        f"{metrics.percentile(times, 50):.1f} / {metrics.percentile(times, 95):.1f} ms "
        f"over {len(vectors)} vectors",
    )


Lookup = tuple[str, Callable[[Engine], bool]]
# What an answer's premise rules look up in the whole index, each absent from the corpus (the last only
# as written: its words are everywhere).
LOOKUPS: tuple[Lookup, ...] = (
    ("a name (Engine.knows)", lambda e: e.knows("Frobnicator")),
    ("a slip of the keys, two edits (Engine.resembles)", lambda e: e.resembles("frobnicatorz")),
    (
        "a code name (Engine.mentions)",
        lambda e: e.mentions("frob_nicator", "frob-nicator", "frobnicator", whole=True),
    ),
    ("a dotted name's parts (Engine.together)", lambda e: e.together("FrobQueue", member="pop")),
    (  # every file's words hold both parts, so the files are scanned: the look-up's slowest case
        "a code name whose parts every file holds, apart (Engine.mentions)",
        lambda e: e.mentions("redis-kafka", whole=True),
    ),
    (
        "a file the question names (Searcher.named)",
        lambda e: bool(e.searcher().named("what is `frob_nicator.py`")),
    ),
)


def bench_lookups(engine: Engine, report: BenchReport, label: str, rounds: int = 5) -> None:
    """The look-ups a question's premise rules make where its search did not return what it names: a name
    in the lexical index's terms (its folded field holds accented words without their marks); a code
    name and a dotted name in the files' words (catalog.WORDS_OF), then by a scan of the files that hold
    them all, within its budget (catalog.SCAN_BUDGET_S)."""
    for name, look in LOOKUPS:
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            look(engine)
            times.append((time.perf_counter() - started) * 1000)
        report.add(
            f"look-up of {name} {label} (p50 / max)",
            f"{metrics.percentile(times, 50):.0f} / {max(times):.0f} ms",
        )


def like_embeddings(n: int, dim: int, seed: int) -> npt.NDArray[np.float32]:
    """Unit vectors on a 20-dimensional subspace, whose neighbours are as close as MiniLM's on real folders
    (best match ~0.75, 10th ~0.6, 10th and 11th ~0.003 apart); uniform random vectors have no near
    neighbours, which no real folder looks like and which no graph index is built for."""
    basis = np.random.default_rng(99).standard_normal((20, dim)).astype(np.float32)
    vecs = np.random.default_rng(seed).standard_normal((n, 20)).astype(np.float32) @ basis
    unit: npt.NDArray[np.float32] = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    return unit


def _hybrid_times(engine: Engine, rounds: int) -> list[float]:
    times = []
    for i in range(rounds):
        started = time.perf_counter()
        engine.search(QUERIES[i % len(QUERIES)], k=10, mode="hybrid")
        times.append((time.perf_counter() - started) * 1000)
    return times


def bench_fresh_start(home: Path, report: BenchReport, label: str) -> None:
    """Start-up to the first hybrid search, then queries, in a new process (the app's own peak RSS, not
    the benchmark's, which built the corpus)."""
    script = "import sys; from engine.eval.bench import fresh_start; fresh_start(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", script, str(home)], capture_output=True, text=True, check=True
    )
    row = json.loads(done.stdout.strip().splitlines()[-1])
    size = sum(f.stat().st_size for f in (home / "index").glob("vectors.usearch*"))
    report.add(
        f"fresh process {label}: open / first hybrid search",
        f"{row['open_s']:.2f} / {row['first_s']:.2f} s (vector file {size / 1e6:.0f} MB)",
    )
    report.add(
        f"fresh process {label}: hybrid p50 / p95, peak RSS",
        f"{row['p50']:.1f} / {row['p95']:.1f} ms, {row['rss_mb']:.0f} MB",
    )


def _own_peak_rss_mb() -> float:
    """This process's high-water RSS since exec (VmHWM): getrusage's maxrss carries the forking parent's
    peak over into the child on Linux, which would report the benchmark's RSS as the app's."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def fresh_start(home: str) -> None:
    started = time.perf_counter()
    engine = Engine(home, model_cache=model_cache_dir(data_dir()))
    engine._open()
    opened = time.perf_counter() - started
    engine.search(QUERIES[0], k=10, mode="hybrid")
    first = time.perf_counter() - started
    times = _hybrid_times(engine, 30)
    row = {
        "open_s": opened,
        "first_s": first,
        "p50": metrics.percentile(times, 50),
        "p95": metrics.percentile(times, 95),
        "rss_mb": _own_peak_rss_mb(),
    }
    engine.close()
    print(json.dumps(row), flush=True)


def _all_chunk_ids(engine: Engine) -> list[int]:
    rows = engine.catalog._cur().execute("SELECT id FROM chunks").fetchall()
    return [int(r[0]) for r in rows]


def bench_1000_files(report: BenchReport, work: Path) -> None:
    root = work / "k1000"
    write_corpus(root, 8 * 1000, seed=3)
    engine = Engine(work / "home1000", model_cache=model_cache_dir(data_dir()))
    engine.add_folder(root)
    started = time.perf_counter()
    list(engine.sync(embed=False))
    seconds = time.perf_counter() - started
    hits = engine.search("marker999x7", mode="keyword").hits
    ok = bool(hits) and hits[0].path.endswith("note000999.md")
    report.add("1,000 files keyword-searchable", f"{seconds:.1f} s (found the last file: {ok})")
    engine.close()


def _until(check: Any, timeout: float = 10.0) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if check():
            return time.perf_counter() - started
        time.sleep(0.02)
    return float("inf")


def bench_watch(report: BenchReport, work: Path) -> None:
    """With `watch` running: a saved edit searchable, a deleted file's phrase gone (seconds)."""
    import threading

    from engine.ingest.watcher import watch_forever

    root = work / "watched"
    write_corpus(root, 8 * 300, seed=5)
    engine = Engine(work / "home-watch", model_cache=model_cache_dir(data_dir()))
    engine.add_folder(root)
    list(engine.sync())
    stop = threading.Event()
    thread = threading.Thread(target=watch_forever, args=(engine,), kwargs={"stop": stop}, daemon=True)
    thread.start()
    time.sleep(0.5)
    edits, deletes = [], []
    for i in range(5):
        target = root / "d01" / f"note{i * 50 + 1:06d}.md"
        target.write_text(f"# Edited\n\nfreshphrase{i}q appears after the save.\n", encoding="utf-8")
        edits.append(
            _until(
                lambda i=i, t=str(target): any(
                    h.path == t for h in engine.search(f"freshphrase{i}q", mode="keyword").hits
                )
            )
        )
        gone = root / "d02" / f"note{i * 50 + 2:06d}.md"
        phrase = f"marker{i * 50 + 2}x3"
        gone.unlink()
        deletes.append(
            _until(
                lambda p=phrase, g=str(gone): all(
                    h.path != g for h in engine.search(p, k=50, mode="hybrid").hits
                )
            )
        )
    stop.set()
    thread.join(timeout=10)
    engine.close()
    report.add(
        "watch: saved edit searchable (p50 / max)",
        f"{metrics.percentile(edits, 50):.2f} / {max(edits):.2f} s",
    )
    report.add(
        "watch: deleted file unfindable (p50 / max)",
        f"{metrics.percentile(deletes, 50):.2f} / {max(deletes):.2f} s",
    )


def run_bench(chunks: list[int] | None = None, embed_sample: int = 256) -> BenchReport:
    report = BenchReport()
    sizes = sorted(chunks or [10_000, 100_000])
    with tempfile.TemporaryDirectory(prefix="citeline-bench-") as tmp:
        work = Path(tmp)
        bench_1000_files(report, work)
        bench_watch(report, work)
        for n, size in enumerate(sizes):
            root = work / f"corpus{size}"
            write_corpus(root, size, seed=10 + n)
            engine = Engine(work / f"home{size}", model_cache=model_cache_dir(data_dir()))
            bench_keyword(engine, root, report, f"{size // 1000}k")
            if n == 0:
                bench_embedding(engine, embed_sample, report)
            bench_queries(engine, report, f"{size // 1000}k chunks")
            bench_lookups(engine, report, f"{size // 1000}k chunks")
            engine.close()  # saves the vector index, fakes included: the fresh process loads it as is
            bench_fresh_start(work / f"home{size}", report, f"{size // 1000}k chunks")
    report.add("peak RSS", f"{peak_rss_mb():.0f} MB")
    report.notes.append(
        "Vectors beyond the embedded sample are synthetic, with real embeddings' neighbour distances."
    )
    return report
