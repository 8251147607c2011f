"""File names that are not text: not valid UTF-8, or holding newlines and control characters."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.api import Engine
from engine.names import ESCAPE, shown, stored, unstored
from tests.conftest import REPO, write
from tests.hostile.cases import bad_names

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")


@given(st.one_of(st.binary(), st.text()).map(lambda v: os.fsdecode(v) if isinstance(v, bytes) else v))
def test_stored_names_round_trip_and_are_valid_unicode(name: str) -> None:
    """Any name the OS can give (arbitrary bytes, decoded as Python decodes file names) or any text."""
    value = stored(name)
    value.encode("utf-8")  # no lone surrogate survives
    assert unstored(value) == name


@given(st.text(), st.text())
def test_storing_keeps_prefixes(head: str, tail: str) -> None:
    assert stored(head + tail) == stored(head) + stored(tail)


def test_shown_is_one_printable_line() -> None:
    assert shown("a/bad\udcffname.md") == "a/bad\\xffname.md"
    assert shown("new\nline\t\x01.md") == "new\\nline\\t\\x01.md"
    assert shown("plain/ünïcode.md") == "plain/ünïcode.md"
    assert stored("x" + ESCAPE) == "x" + ESCAPE + ESCAPE


@posix_only
def test_a_folder_with_bad_names_indexes_every_file(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    made = bad_names(root)
    write(root, "good.md", "The okapi ledger is kept in the good file.\n")
    engine.add_folder(root)
    engine.run(engine.sync())
    rows = {f.path: f for f in engine.files()}
    assert {str(p) for p in made} <= set(rows) and all(rows[str(p)].status == "indexed" for p in made)
    hits = engine.search("okapi ledger", k=10).hits
    assert {str(p) for p in made} <= {h.path for h in hits}
    for hit in hits:
        assert Path(hit.path).exists()  # the path given back opens the real file
    os.remove(made[0])
    engine.run(engine.sync())
    assert str(made[0]) not in {f.path for f in engine.files()}
    assert engine.file(made[1]) is not None


@posix_only
def test_the_cli_prints_bad_names_escaped_on_one_line(citeline_home: Path, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    bad_names(root)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}

    def cli(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "engine.cli", "--data-dir", str(citeline_home), *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    cli("add", str(root))
    out = cli("search", "okapi ledger")
    assert "bad\\xffname.md" in out and "new\\nline.md" in out and "tab\\tand\\x01ctl.txt" in out
    listed = [line for line in out.splitlines() if line[:3].strip().rstrip(".").isdigit()]
    assert len(listed) == 4  # one line per hit: no name broke a line
    assert "indexed 4" in cli("status")
