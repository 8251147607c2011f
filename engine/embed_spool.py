"""Embedding work shared with other processes: `citeline embed-worker`.

One process owns an index (the app, `citeline sync` or `watch`); only it writes the catalog (DuckDB has
one writing process). Embedding is the slow part of a large backlog (~20-40 chunks/s a process on 2
cores) and the only part that needs no index, so the owner hands batches of texts out through a spool
folder, and any number of worker processes, on this machine or on others that mount the folder, embed
them and hand the vectors back. The owner embeds batches too, so a backlog never waits on a worker; with
no live worker nothing goes through the spool at all.

Layout; every hand-over is an atomic rename, so two processes never take one batch:

    workers/<worker>.json           a worker's heartbeat (its embedder, batches done), refreshed every
                                    HEARTBEAT seconds
    pending/<emb>-<owner>-<batch>.json   texts to embed; <emb> names the embedder they must be
                                         embedded with, <owner> the index that asked (several may share
                                         a spool: each takes back and clears only its own batches)
    claimed/<emb>-<owner>-<batch>~<worker>.json
    done/<emb>-<owner>-<batch>.npy       the vectors, float32, one row per text
    failed/<emb>-<owner>-<batch>.json    a worker could not embed them (the owner does)

A claim whose worker has not been heard from for STALE seconds goes back to pending; one a worker has
held much longer than a batch takes is embedded by the owner as well (a hung worker never stalls it;
the late result is ignored). The owner clears its own batches whenever it starts embedding: the catalog
records which texts have vectors, so nothing in the spool has to outlive the owner. Heartbeats are
judged by file times, so the machines' clocks must agree to well within STALE (NTP).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

HEARTBEAT = 5.0  # seconds between a worker's heartbeats
STALE = 30.0  # a worker not heard from for this long is gone; its claims go back to pending
OWNER = "owner"
DIRS = ("workers", "pending", "claimed", "done", "failed")

Matrix = npt.NDArray[np.float32]

log = logging.getLogger(__name__)


def embedder_identity(embedder: object) -> str:
    """What must match for a worker's vectors to stand in for the owner's: the model file (name and size)
    and the vector width."""
    model = getattr(embedder, "model_path", None)
    size = Path(model).stat().st_size if model is not None and Path(model).exists() else 0
    name = Path(model).name if model is not None else "-"
    return f"{type(embedder).__name__}:{name}:{size}:{getattr(embedder, 'dim', 0)}"


def for_owner(root: Path, embedder: str, owner: str) -> Spool | None:
    """The spool an index's owner shares its backlog through, its own batches left by an earlier run
    cleared (what still lacks a vector is asked for again); None when the folder is unusable (unmounted,
    read-only): embedding then goes on without workers, never stops."""
    try:
        spool = Spool(root, embedder, owner)
        spool.clear()
    except OSError as exc:
        log.warning("embedding spool %s is unusable (%s); embedding without workers", root, exc)
        return None
    return spool


@dataclass(frozen=True)
class Worker:
    id: str
    embedder: str
    batches: int
    host: str
    seen: float  # the heartbeat's time (its file's mtime)


class Spool:
    def __init__(
        self, root: Path, embedder: str, owner: str = "", clock: Callable[[], float] = time.time
    ) -> None:
        """`owner`: what names this index among those sharing the spool (workers pass none)."""
        self.root = root
        self.embedder = embedder
        self.tag = hashlib.blake2b(embedder.encode(), digest_size=4).hexdigest()
        self.owner = hashlib.blake2b(owner.encode(), digest_size=4).hexdigest() if owner else ""
        self.clock = clock
        for name in DIRS:
            (root / name).mkdir(parents=True, exist_ok=True)

    @property
    def mine(self) -> str:
        """The name prefix of this owner's batches (every batch of this embedder for a worker)."""
        return f"{self.tag}-{self.owner}-" if self.owner else f"{self.tag}-"

    # -- the owner ------------------------------------------------------------------------------------
    def live_workers(self) -> list[Worker]:
        """Workers heard from within STALE seconds that embed with this spool's embedder."""
        return [w for w in self._workers() if w.embedder == self.embedder and self._alive(w)]

    def clear(self) -> None:
        """Remove this owner's batches, wherever they are (left by an earlier run of it)."""
        for name in DIRS[1:]:
            for path in (self.root / name).glob(f"{self.mine}*"):
                with contextlib.suppress(OSError):
                    path.unlink()

    def publish(self, texts: list[str]) -> str:
        batch = f"{self.mine}{time.time_ns():x}-{uuid.uuid4().hex[:6]}"
        body = json.dumps({"embedder": self.embedder, "texts": texts})
        _write_atomic(self.root / "pending" / f"{batch}.json", body.encode("utf-8"))
        return batch

    def results(self) -> list[tuple[str, Matrix | None]]:
        """Batches the workers finished (their vectors) or gave up on (None), taken out of the spool."""
        out: list[tuple[str, Matrix | None]] = []
        for path in sorted((self.root / "done").glob(f"{self.mine}*.npy")):
            try:
                vecs = np.load(path, allow_pickle=False).astype(np.float32, copy=False)
            except (OSError, ValueError):
                vecs = None  # torn or unreadable: the owner embeds the batch itself
            with contextlib.suppress(OSError):
                path.unlink()
            out.append((path.stem, vecs))
        for path in sorted((self.root / "failed").glob(f"{self.mine}*.json")):
            with contextlib.suppress(OSError):
                path.unlink()
            out.append((path.stem, None))
        return out

    def reclaim(self) -> int:
        """Put this owner's batches claimed by workers that stopped answering back in pending, and drop
        heartbeats long dead; returns how many batches went back."""
        workers = self._workers()
        alive = {w.id for w in workers if self._alive(w)}
        for w in workers:
            if self.clock() - w.seen > 10 * STALE:  # killed without leaving
                with contextlib.suppress(OSError):
                    (self.root / "workers" / f"{w.id}.json").unlink()
        back = 0
        for path in (self.root / "claimed").glob(f"{self.mine}*.json"):
            batch, _, worker = path.stem.partition("~")
            if worker == OWNER or worker in alive:
                continue
            with contextlib.suppress(OSError):
                os.replace(path, self.root / "pending" / f"{batch}.json")
                back += 1
        return back

    def withdraw(self, batches: list[str]) -> None:
        """Take back batches nobody has claimed (the owner stopped)."""
        for batch in batches:
            with contextlib.suppress(OSError):
                (self.root / "pending" / f"{batch}.json").unlink()

    # -- anyone who embeds ----------------------------------------------------------------------------
    def take(self, worker: str) -> tuple[str, list[str]] | None:
        """Claim the oldest pending batch (an owner: of its own; a worker: of its embedder): (batch, texts),
        or None when there is none."""
        for path in sorted((self.root / "pending").glob(f"{self.mine}*.json")):
            claim = self.root / "claimed" / f"{path.stem}~{worker}.json"
            try:
                os.replace(path, claim)  # atomic: of two takers, one finds the file gone
            except OSError:  # gone (taken), or held open by another process (Windows)
                continue
            try:
                body = json.loads(claim.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                claim.unlink(missing_ok=True)
                self._note_failed(path.stem, "the batch file could not be read")
                continue
            if body.get("embedder") != self.embedder:  # another model's batch with a colliding tag
                with contextlib.suppress(OSError):
                    os.replace(claim, path)
                continue
            return path.stem, [str(t) for t in body["texts"]]
        return None

    def finish(self, batch: str, worker: str, vecs: Matrix) -> None:
        _write_atomic(self.root / "done" / f"{batch}.npy", _npy(np.asarray(vecs, dtype=np.float32)))
        self.drop_claim(batch, worker)

    def fail(self, batch: str, worker: str, reason: str) -> None:
        self._note_failed(batch, reason)
        self.drop_claim(batch, worker)

    def drop_claim(self, batch: str, worker: str) -> None:
        with contextlib.suppress(OSError):
            (self.root / "claimed" / f"{batch}~{worker}.json").unlink()

    def _note_failed(self, batch: str, reason: str) -> None:
        _write_atomic(self.root / "failed" / f"{batch}.json", json.dumps({"reason": reason}).encode())

    # -- workers' heartbeats --------------------------------------------------------------------------
    def heartbeat(self, worker: str, batches: int) -> None:
        body = {"embedder": self.embedder, "batches": batches, "host": socket.gethostname()}
        _write_atomic(self.root / "workers" / f"{worker}.json", json.dumps(body).encode("utf-8"))

    def leave(self, worker: str) -> None:
        with contextlib.suppress(OSError):
            (self.root / "workers" / f"{worker}.json").unlink()
        for claim in (self.root / "claimed").glob(f"*~{worker}.json"):  # unfinished: back to pending
            with contextlib.suppress(OSError):
                os.replace(claim, self.root / "pending" / f"{claim.stem.partition('~')[0]}.json")

    def _workers(self) -> list[Worker]:
        out = []
        for path in (self.root / "workers").glob("*.json"):
            try:
                seen = path.stat().st_mtime
                body = json.loads(path.read_text(encoding="utf-8"))
                embedder, batches, host = str(body["embedder"]), int(body["batches"]), str(body["host"])
                out.append(Worker(path.stem, embedder, batches, host, seen))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return out

    def _alive(self, worker: Worker) -> bool:
        return self.clock() - worker.seen < STALE


def run_worker(
    spool: Spool,
    embed: Callable[[list[str]], object],
    stop: Callable[[], bool],
    idle_exit: float | None = None,
    report: Callable[[str], None] | None = None,
) -> int:
    """Take and embed batches until `stop()` (or `idle_exit` seconds without a batch); returns the number
    of batches embedded. The heartbeat runs in its own thread, so a long batch never reads as a dead
    worker; leaving puts anything still claimed back in pending."""
    worker = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    done = 0
    quit_beating = threading.Event()

    def beat() -> None:
        while not quit_beating.wait(HEARTBEAT):
            with contextlib.suppress(OSError):
                spool.heartbeat(worker, done)

    spool.heartbeat(worker, done)  # an unwritable spool fails here, at the start, with its reason
    beating = threading.Thread(target=beat, name="citeline-heartbeat", daemon=True)
    beating.start()
    idle_since = time.monotonic()
    try:
        while not stop():
            taken = spool.take(worker)
            if taken is None:
                if idle_exit is not None and time.monotonic() - idle_since > idle_exit:
                    break
                time.sleep(0.2)
                continue
            batch, texts = taken
            started = time.monotonic()
            try:
                vecs = np.asarray(embed(texts), dtype=np.float32)
            except Exception as exc:  # the owner embeds it instead; the reason is reported
                with contextlib.suppress(OSError):
                    spool.fail(batch, worker, f"{type(exc).__name__}: {exc}")
                if report:
                    report(f"batch {batch}: failed ({type(exc).__name__}: {exc})")
                continue
            try:
                spool.finish(batch, worker, vecs)
            except OSError as exc:  # the owner gave the batch up, or the spool is unreachable a moment
                if report:
                    report(f"batch {batch}: not handed back ({exc})")
                continue
            done += 1
            with contextlib.suppress(OSError):
                spool.heartbeat(worker, done)
            idle_since = time.monotonic()
            if report:
                report(f"batch {batch}: {len(texts)} texts in {time.monotonic() - started:.1f} s")
    finally:
        quit_beating.set()
        beating.join()  # so no heartbeat lands after leaving
        spool.leave(worker)
    return done


def _npy(vecs: Matrix) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, vecs, allow_pickle=False)
    return buf.getvalue()


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:6]}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
