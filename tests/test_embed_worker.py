"""`citeline embed-worker` (issue 22, item 3): the owner of an index shares its embedding backlog through
a spool folder with worker processes. A real worker process with the real embedder; the spool's hand-over
rules checked with plain files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine.api import Engine
from engine.embed_spool import OWNER, STALE, Spool, embedder_identity, for_owner
from engine.indexer import chunk_key
from engine.text import embedded_chunk, embedding_text
from tests.conftest import REPO, write


def test_a_batch_is_taken_once_and_its_vectors_come_back(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", "model-a")
    batch = spool.publish(["one", "two"])
    assert spool.take("w1") == (batch, ["one", "two"])
    assert spool.take("w2") is None  # claimed already
    spool.finish(batch, "w1", np.ones((2, 3), dtype=np.float32))
    [(got, vecs)] = spool.results()
    assert got == batch and vecs is not None and vecs.shape == (2, 3)
    assert spool.results() == []  # taken out of the spool
    assert not list((tmp_path / "spool" / "claimed").iterdir())


def test_another_models_batches_and_workers_are_left_alone(tmp_path: Path) -> None:
    mine, theirs = Spool(tmp_path / "spool", "model-a"), Spool(tmp_path / "spool", "model-b")
    theirs.publish(["text"])
    theirs.heartbeat("w-b", 0)
    assert mine.take("w-a") is None
    assert mine.live_workers() == []
    mine.heartbeat("w-a", 0)
    assert [w.id for w in mine.live_workers()] == ["w-a"]


def test_a_silent_workers_claim_goes_back_to_pending(tmp_path: Path) -> None:
    now = [1_000_000.0]
    spool = Spool(tmp_path / "spool", "model-a", clock=lambda: now[0])
    batch = spool.publish(["text"])
    spool.heartbeat("w1", 0)
    os.utime(tmp_path / "spool" / "workers" / "w1.json", (now[0], now[0]))
    assert spool.take("w1") is not None
    assert spool.reclaim() == 0  # still heard from
    now[0] += STALE + 1
    assert spool.reclaim() == 1
    assert spool.take(OWNER) == (batch, ["text"])


def test_owners_sharing_a_spool_take_back_and_clear_only_their_own_batches(tmp_path: Path) -> None:
    a, b = Spool(tmp_path / "spool", "model", owner="/a"), Spool(tmp_path / "spool", "model", owner="/b")
    worker = Spool(tmp_path / "spool", "model")
    mine, theirs = a.publish(["a"]), b.publish(["b"])
    b.clear()
    assert b.take(OWNER) is None  # its own batch cleared, a's left alone
    assert worker.take("w1") == (mine, ["a"])
    worker.finish(mine, "w1", np.zeros((1, 2), dtype=np.float32))
    assert b.results() == []
    assert [batch for batch, _ in a.results()] == [mine]
    assert theirs != mine


def test_a_hung_workers_batch_is_embedded_by_the_owner(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that claims batches and never hands them back (its heartbeat still beating) must not
    stall the owner: past its patience the owner embeds those batches itself."""
    from engine import indexer

    monkeypatch.setattr(indexer, "SPOOL_PATIENCE", 0.5)
    monkeypatch.setattr(indexer, "EMBED_BATCH", 8)
    folder = tmp_path / "notes"
    for i in range(12):
        write(folder, f"n{i:02d}.md", f"# Note {i}\n\nSome words about topic number {i}.\n")
    engine.add_folder(folder)
    engine.run(engine.sync(embed=False))
    embedder = engine.embedder()
    hung = Spool(engine.spool_dir(), embedder_identity(embedder))
    stop = threading.Event()

    def claim_and_hold() -> None:
        while not stop.is_set():
            hung.heartbeat("w-hung", 0)
            hung.take("w-hung")
            time.sleep(0.01)

    holder = threading.Thread(target=claim_and_hold, daemon=True)
    holder.start()
    try:
        while not hung.live_workers():
            time.sleep(0.01)
        owner = threading.Thread(target=lambda: engine.run(engine.embed_pending()), daemon=True)
        owner.start()
        owner.join(timeout=120)
        assert not owner.is_alive(), "the owner waited on the hung worker"
    finally:
        stop.set()
        holder.join()
    assert engine.catalog.count_missing_vectors() == (0, 12)
    assert list((engine.spool_dir() / "claimed").glob("*~w-hung.json"))  # the worker did hold them


def test_an_unusable_spool_folder_means_no_workers(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    assert for_owner(tmp_path / "a-file" / "spool", "model", "/index") is None
    spool = for_owner(tmp_path / "spool", "model", "/index")
    assert spool is not None and spool.live_workers() == []


def test_a_failed_batch_is_reported_to_the_owner(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", "model-a")
    batch = spool.publish(["text"])
    assert spool.take("w1") is not None
    spool.fail(batch, "w1", "RuntimeError: out of memory")
    assert spool.results() == [(batch, None)]


def _worker(home: Path, idle_exit: float) -> subprocess.Popen[str]:
    env = {**os.environ, "CITELINE_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "-v", "embed-worker", "--idle-exit", str(idle_exit)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.mark.slow
def test_a_worker_process_embeds_part_of_the_backlog(
    citeline_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine import indexer
    from engine.backends.onnx_embed import OnnxEmbedder

    # Eight batches, and this process takes a little longer over each than the worker's poll interval,
    # so the worker (a separate process) gets some of them however busy the machine is.
    monkeypatch.setattr(indexer, "EMBED_BATCH", 8)
    real_embed = OnnxEmbedder.embed

    def slower(self: OnnxEmbedder, texts: list[str]) -> object:
        time.sleep(0.5)
        return real_embed(self, texts)

    monkeypatch.setattr(OnnxEmbedder, "embed", slower)
    folder = tmp_path / "notes"
    for i in range(60):
        topic = ["harbor tides", "copper wiring", "violet meadows", "orbit mechanics"][i % 4]
        text = f"# Note {i} on {topic}\n\nThe note {i} explains {topic} in detail {i}.\n"
        write(folder, f"n{i:02d}.md", text)
    engine = Engine(citeline_home)
    try:
        engine.add_folder(folder)
        engine.run(engine.sync(embed=False))
        worker = _worker(citeline_home, idle_exit=8)
        workers = engine.spool_dir() / "workers"
        deadline = time.monotonic() + 120
        while not (workers.is_dir() and any(workers.glob("*.json"))):
            assert worker.poll() is None, worker.communicate()[0]
            assert time.monotonic() < deadline, "the worker never announced itself"
            time.sleep(0.1)
        heartbeat = json.loads(next(workers.glob("*.json")).read_text(encoding="utf-8"))
        engine.run(engine.embed_pending())
        out, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0, out
        done = [line for line in out.splitlines() if "texts in" in line]
        assert done, out  # the worker embedded at least one batch
        assert not any(workers.glob("*.json"))  # it left
        catalog = engine.catalog
        assert catalog.count_missing_vectors() == (0, 60)
        # the worker's vectors are the ones this process would have computed
        root = catalog.folders()[0].path
        chunks = [(f.path, r) for f in catalog.files() for r in catalog.chunks_of_file(f.id)]
        keys = [chunk_key(r.text, path, root, r.heading) for path, r in chunks]
        ids, stored = catalog.vectors_for_chunks_by_hash(keys)
        assert len(ids) == 60
        mine = engine.embedder().embed(
            [embedding_text(embedded_chunk(r.text, path, root, r.heading)) for path, r in chunks]
        )
        by_text = {r.text: v for (_, r), v in zip(chunks, mine, strict=True)}
        rows = catalog.chunk_rows(ids.tolist())
        for chunk_id, vec in zip(ids.tolist(), stored, strict=True):
            assert float(np.dot(vec, by_text[rows[chunk_id].text])) > 0.999
        hits = engine.search("copper wiring", k=3, mode="vector").hits
        assert "copper wiring" in hits[0].text
        assert heartbeat["embedder"].startswith("OnnxEmbedder:")
    finally:
        engine.close()
