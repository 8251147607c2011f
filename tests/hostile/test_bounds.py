"""Files built to exhaust memory or time: each is bounded or skipped with its reason, the rest indexed."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from engine.api import Engine
from engine.errors import CiteError
from engine.ingest import extract as extract_module
from engine.mcp_server.files import read_bytes, resolve_inside
from tests.conftest import write
from tests.hostile.cases import big_csv, docx_bomb, one_line


def test_a_docx_bomb_is_refused_from_its_directory_and_the_folder_goes_on(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    docx_bomb(root)
    write(root, "plain.md", "The okapi ledger is plain text.\n")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    rows = {Path(f.path).name: f for f in engine.files()}
    assert rows["plain.md"].status == "indexed"
    assert rows["bomb.docx"].status == "failed" and "zip bomb" in (rows["bomb.docx"].error or "")


def test_an_ordinary_docx_passes_the_zip_check(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for n in range(2000):
        document.add_paragraph(f"Paragraph {n} of an ordinary report about the okapi ledger.")
    path = tmp_path / "report.docx"
    document.save(str(path))
    doc = extract_module.extract(path, path.read_bytes())
    assert len([line for line in doc.lines if line.text]) == 2000


def test_huge_files_are_sampled_to_the_chunk_cap(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.indexer as indexer

    monkeypatch.setattr(indexer, "MAX_CHUNKS_PER_FILE", 50)
    root = tmp_path / "kb"
    root.mkdir()
    big_csv(root)
    one_line(root)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    for row in engine.files():
        assert row.status == "indexed" and row.chunks == 50
        assert "sampled: 50 of" in (row.error or "")
    hits = engine.search("okapi3 row", k=5, mode="keyword").hits
    assert hits and all(h.path.endswith("events.csv") for h in hits[:1])
    rows = [h for h in engine.search("row of the log", k=50, mode="keyword").hits if h.path.endswith(".csv")]
    late = max(h.end_line for h in rows)
    assert late > 10_000  # sampled across the whole table, not only its head


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and symlink loops are POSIX")


@posix_only
def test_reading_a_file_replaced_by_a_fifo_is_an_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "notes.md"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(CiteError, match="not a regular file"):
        read_bytes(fifo)


@posix_only
def test_symlink_loops_and_nul_bytes_are_typed_errors(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    (root / "a").symlink_to(root / "b")
    (root / "b").symlink_to(root / "a")
    with pytest.raises(CiteError, match=r"symlink loop|does not exist|outside"):
        resolve_inside("a", [root])
    with pytest.raises(CiteError, match="NUL"):
        resolve_inside("x\x00y", [root])
