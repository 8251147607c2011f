"""Rich formats are parsed in a worker that is killed past its time or memory limit; the app goes on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.api import Engine
from engine.errors import ExtractError
from engine.ingest.sandbox import Sandbox
from tests.conftest import write
from tests.hostile import misbehaving
from tests.test_extract import make_pdf


def test_a_worker_past_its_time_limit_is_killed_and_the_next_call_gets_a_fresh_one() -> None:
    box = Sandbox(time_limit_s=2)
    try:
        with pytest.raises(ExtractError, match="longer than 2 s"):
            box.run(misbehaving.hang, 60, what="slow.pdf")
        assert box.run(misbehaving.echo, "after") == "after"
        with pytest.raises(ValueError, match="broken"):
            box.run(misbehaving.fail, "broken")  # the reader's own error comes back as itself
    finally:
        box.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the memory ceiling is RLIMIT_AS (Linux)")
def test_a_worker_past_its_memory_limit_fails_that_file_only() -> None:
    box = Sandbox(time_limit_s=60, memory_limit=600 * 1024**2)
    try:
        with pytest.raises(ExtractError, match="memory"):
            box.run(misbehaving.balloon, 2000, what="bomb.docx")
        assert box.run(misbehaving.balloon, 50) == 50
    finally:
        box.close()


def test_pdfs_are_read_through_the_worker_and_indexed(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    (root / "manual.pdf").write_bytes(make_pdf([["Okapi maintenance", "Oil the okapi gears monthly."]]))
    write(root, "notes.md", "The okapi ledger.\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    hits = engine.search("okapi gears", k=3, mode="keyword").hits
    assert hits and hits[0].path.endswith("manual.pdf") and hits[0].page == 1
    from engine.ingest import sandbox

    assert sandbox.shared()._process is not None  # it was read in the worker


def test_errors_cross_from_the_worker_as_themselves() -> None:
    import pickle

    from engine.errors import MissingDependency

    error = pickle.loads(pickle.dumps(MissingDependency("rapidocr", "ocr")))
    assert isinstance(error, MissingDependency) and error.package == "rapidocr" and "ocr" in error.hint
