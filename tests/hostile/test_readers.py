"""One process writes the index; others read it (a snapshot) instead of failing as "in use"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import Engine
from engine.errors import CiteError
from tests.conftest import REPO, write

HOLD = (
    "import sys, time\n"
    "from engine.api import Engine\n"
    "engine = Engine(sys.argv[1])\n"
    "engine.catalog\n"  # opens the index for writing and keeps it
    "print('holding', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.mark.slow
def test_a_reader_searches_while_another_process_holds_the_index(citeline_home: Path, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    write(root, "notes/okapi.md", "# Okapi\n\nThe okapi ledger is audited every March.\n")
    engine = Engine(citeline_home)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    engine.close()
    writer = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(citeline_home)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "holding"
        with pytest.raises(CiteError, match="in use"):
            _ = Engine(citeline_home).catalog  # a writer is refused, as before
        reader = Engine(citeline_home, snapshot_when_busy=True)
        try:
            hits = reader.search("okapi ledger", k=3, mode="keyword").hits
            assert hits and hits[0].path.endswith("okapi.md")
            assert reader.status().folders[0].indexed == 1
            with pytest.raises(CiteError, match="can only read"):
                reader.add_folder(tmp_path)
            snapshot = reader.catalog.snapshot
            assert snapshot is not None and snapshot.exists()
        finally:
            reader.close()
        assert not snapshot.exists()  # the copy is removed with the reader
        cli = subprocess.run(
            [sys.executable, "-m", "engine.cli", "--data-dir", str(citeline_home), "search", "okapi"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert cli.returncode == 0 and "okapi.md" in cli.stdout, cli.stderr[-1000:]
    finally:
        writer.communicate(timeout=30)  # closes its stdin (it exits) and stdout
