"""A sync killed with SIGKILL at random points, then restarted, ends equal to a fresh index."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.api import Engine
from tests.conftest import write

SCRIPT = """
import sys
from engine.api import Engine
engine = Engine(sys.argv[1])
if not engine.folders():
    engine.add_folder(sys.argv[2])
print("ready", flush=True)
for _ in engine.sync():
    pass
print("done", flush=True)
"""


def make_corpus(root: Path, files: int) -> None:
    rng = random.Random(7)
    words = "alpha beta gamma delta harbor lantern copper meadow violet orbit saddle falcon".split()
    for i in range(files):
        paras = [
            "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(4)) for _ in range(3)
        ]
        write(root, f"d{i % 5}/file{i}.md", f"# File {i}\n\nunique{i}token\n\n" + "\n\n".join(paras) + "\n")


def snapshot(engine: Engine) -> tuple[list[tuple[str, int, int, str]], int, int, list[str]]:
    catalog = engine.catalog
    rows = sorted(
        (r.path, r.start_line, r.end_line, r.text)
        for f in catalog.files()
        for r in catalog.chunks_of_file(f.id)
    )
    lexical = engine._open()[1].num_docs()
    vectors = len(engine._open()[2])
    top = [Path(h.path).name for h in engine.search("unique7token", k=3, mode="keyword").hits]
    return rows, lexical, vectors, top


@pytest.mark.slow
def test_sigkill_then_resync_equals_fresh(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    make_corpus(root, 40)
    home = tmp_path / "killed"
    rng = random.Random(11)
    for attempt in range(4):
        proc = subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(home), str(root)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 1.5) * (attempt + 1))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        if attempt == 1:  # the folder changes between crashes too
            (root / "d1/file1.md").unlink()
            write(root, "d2/new.md", "# New\n\nunique7token appears here as well.\n")
    resumed = Engine(home)
    resumed.run(resumed.sync())
    fresh = Engine(tmp_path / "fresh")
    fresh.add_folder(root)
    fresh.run(fresh.sync())
    got, want = snapshot(resumed), snapshot(fresh)
    resumed.close()
    fresh.close()
    assert got[0] == want[0]
    assert got[1] == want[1] == len(want[0])
    assert got[2] == want[2] == len(want[0])
    assert got[3] == want[3]
