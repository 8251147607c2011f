"""Random file operations under a running watcher converge to what a fresh index of the folder holds,
and leave no vector behind a chunk that is gone."""

from __future__ import annotations

import random
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import Engine
from engine.ingest.watcher import watch_forever
from tests.conftest import write

WORDS = "okapi ledger zebra harbour quartz meadow falcon copper tundra lantern".split()


def _text(rng: random.Random) -> str:
    count = rng.randint(1, 30)
    lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(count)]
    return "# Note\n\n" + "\n".join(lines) + "\n"


def random_operations(root: Path, rng: random.Random, count: int) -> None:
    """Create, edit, delete, rename files and move directories, as a user and their tools would."""
    for _ in range(count):
        files = sorted(p for p in root.rglob("*.md") if p.is_file())
        dirs = sorted(p for p in root.rglob("*") if p.is_dir())
        op = rng.choice(["create", "create", "edit", "delete", "rename", "copy", "move_dir"])
        if op == "create" or not files:
            write(root, f"d{rng.randint(0, 3)}/n{rng.randrange(10**6)}.md", _text(rng))
        elif op == "edit":
            rng.choice(files).write_text(_text(rng), encoding="utf-8")
        elif op == "delete":
            rng.choice(files).unlink()
        elif op == "rename":
            src = rng.choice(files)
            src.rename(src.with_name(f"r{rng.randrange(10**6)}.md"))
        elif op == "copy":
            src = rng.choice(files)
            shutil.copyfile(src, src.with_name(f"c{rng.randrange(10**6)}.md"))
        elif op == "move_dir" and dirs:
            src = rng.choice(dirs)
            dest = root / f"m{rng.randrange(10**6)}"
            if not dest.exists():
                src.rename(dest)
        time.sleep(rng.choice([0, 0, 0.01, 0.05]))


def snapshot(engine: Engine) -> dict[str, list[tuple[int, int, str]]]:
    """path -> its chunks (start, end, text), from the catalog."""
    out: dict[str, list[tuple[int, int, str]]] = {}
    rows = engine.catalog._cur().execute(
        "SELECT f.path, c.start_line, c.end_line, c.text FROM chunks c JOIN files f ON f.id = c.file_id "
        "ORDER BY f.path, c.ord"
    )
    for path, start, end, text in rows.fetchall():
        out.setdefault(path, []).append((start, end, text))
    return out


def orphan_vectors(engine: Engine) -> int:
    row = (
        engine.catalog._cur()
        .execute("SELECT count(*) FROM vectors WHERE text_hash NOT IN (SELECT text_hash FROM chunks)")
        .fetchone()
    )
    assert row is not None
    return int(row[0])


@pytest.fixture
def watching(engine: Engine, tmp_path: Path) -> Iterator[tuple[Engine, Path]]:
    root = tmp_path / "kb"
    rng = random.Random(0)
    for n in range(12):
        write(root, f"d{n % 3}/seed{n}.md", _text(rng))
    engine.add_folder(root)
    engine.run(engine.sync())
    stop = threading.Event()
    thread = threading.Thread(target=watch_forever, args=(engine,), kwargs={"stop": stop}, daemon=True)
    thread.start()
    time.sleep(0.3)
    yield engine, root
    stop.set()
    thread.join(timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_random_operations_converge_to_a_rebuild(
    watching: tuple[Engine, Path], tmp_path: Path, seed: int
) -> None:
    engine, root = watching
    random_operations(root, random.Random(seed), 80)
    fresh_home = tmp_path / f"fresh-{seed}"
    deadline = time.monotonic() + 60
    while True:
        time.sleep(1.0)
        fresh = Engine(fresh_home)
        try:
            if not fresh.folders():
                fresh.add_folder(root)
            fresh.run(fresh.sync(embed=False))
            expected = snapshot(fresh)
        finally:
            fresh.close()
        if snapshot(engine) == expected or time.monotonic() > deadline:
            break
    assert snapshot(engine) == expected
    engine.run(engine.embed_pending())
    assert orphan_vectors(engine) == 0
