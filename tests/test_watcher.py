"""watchdog keeps the index in sync: edits, atomic saves, deletes, directory moves, bursts."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.api import Engine
from engine.ingest.watcher import FolderWatcher, watch_forever
from tests.conftest import write


@pytest.fixture
def watched(engine: Engine, small_folder: Path) -> Iterator[Engine]:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    stop = threading.Event()
    thread = threading.Thread(target=watch_forever, args=(engine,), kwargs={"stop": stop}, daemon=True)
    thread.start()
    time.sleep(0.3)  # let the observer start
    yield engine
    stop.set()
    thread.join(timeout=10)


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def names(engine: Engine, query: str) -> set[str]:
    return {Path(h.path).name for h in engine.search(query, mode="keyword", k=20).hits}


def test_edit_and_delete_are_seen(watched: Engine, small_folder: Path) -> None:
    write(small_folder, "notes/meeting.txt", "The narwhal budget was approved.\n")
    eventually(lambda: "meeting.txt" in names(watched, "narwhal"))
    assert "meeting.txt" not in names(watched, "quokka")
    (small_folder / "docs/deploy.md").unlink()
    eventually(lambda: not names(watched, "zebracorn"))


def test_atomic_save_and_directory_move(watched: Engine, small_folder: Path) -> None:
    tmp = small_folder / "docs/.pto.md.swp~"
    tmp.write_text("# Paid time off\n\nEmployees accrue 25 days of axolotl leave.\n", encoding="utf-8")
    os.replace(tmp, small_folder / "docs/pto.md")
    eventually(lambda: "pto.md" in names(watched, "axolotl"))
    (small_folder / "docs").rename(small_folder / "handbook")
    eventually(lambda: any("/handbook/" in h.path for h in watched.search("zebracorn", mode="keyword").hits))
    assert not any("/docs/" in h.path for h in watched.search("zebracorn", mode="keyword", k=20).hits)


def test_burst_of_files_is_batched(watched: Engine, small_folder: Path) -> None:
    for i in range(200):
        write(small_folder, f"burst/f{i}.txt", f"burst file number {i} marker{i}x\n")
    eventually(
        lambda: "f199.txt" in names(watched, "marker199x") and "f0.txt" in names(watched, "marker0x"),
        timeout=20,
    )


def test_debounce_merges_bursts(tmp_path: Path) -> None:
    batches: list[set[Path]] = []
    watcher = FolderWatcher([tmp_path], batches.append, debounce=0.3)
    watcher.start()
    try:
        for i in range(20):
            (tmp_path / f"x{i}.txt").write_text("x")
            time.sleep(0.01)
        eventually(lambda: bool(batches))
        time.sleep(0.5)
    finally:
        watcher.stop()
    assert len(batches) <= 2
    assert {tmp_path / f"x{i}.txt" for i in range(20)} <= set().union(*batches)
