"""A full disk: a clear error with the space to free, read commands keep working, nothing is lost.

Needs a small tmpfs (mount, as root on Linux); skipped where one cannot be mounted."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import Engine
from engine.errors import DiskFull
from tests.conftest import write

WORDS = "okapi ledger zebra harbour quartz meadow falcon copper tundra lantern".split()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if not sys.platform.startswith("linux"):
        pytest.skip("tmpfs is Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3M", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def corpus(root: Path) -> None:
    rng = random.Random(1)
    for n in range(300):
        rows = (" ".join(f"{rng.choice(WORDS)}{rng.randrange(999)}" for _ in range(12)) for _ in range(60))
        write(root, f"n{n}.md", "# Note\n\n" + "\n".join(rows) + "\n")


def test_a_full_disk_is_a_clear_error_and_a_later_sync_recovers_everything(
    small_disk: Path, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    corpus(root)
    home = small_disk / "home"
    engine = Engine(home)
    engine.add_folder(root)
    with pytest.raises(DiskFull) as caught:
        engine.run(engine.sync(embed=False))
    assert "disk holding the index is full" in caught.value.message and "free at least" in caught.value.hint
    engine.close()
    reader = Engine(home)  # read commands still work on the full disk
    assert reader.status().folders and reader.search("okapi1", k=3, mode="keyword") is not None
    reader.close()
    subprocess.run(["mount", "-o", "remount,size=64M", str(small_disk)], check=True)
    engine = Engine(home)
    engine.run(engine.sync(embed=False))
    files = engine.files()
    assert len(files) == 300 and all(f.status == "indexed" for f in files)
    line = " ".join((root / "n7.md").read_text().splitlines()[3].split()[:6])  # six random words: one file
    assert engine.search(line, k=1, mode="keyword").hits[0].path.endswith("n7.md")
    engine.close()
