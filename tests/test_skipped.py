"""Unsupported is not failed: a source tree's odd files are read as text or skipped with their type."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import Engine
from engine.events import FileIndexed, FileSkipped
from engine.ingest import extract as extract_module
from engine.ingest.extract import UnsupportedType, extract, looks_like_text
from tests.conftest import FailsOnce, write


def test_dotfiles_and_unknown_types_that_are_text_are_read_as_text() -> None:
    for name in (".flaskenv", ".editorconfig", "py.typed", "LICENSE", "MANIFEST.in"):
        doc = extract(Path(name), b"FLASK_APP=app.py\nroot = true\n")
        assert [line.text for line in doc.lines] == ["FLASK_APP=app.py", "root = true"], name
    assert extract(Path("py.typed"), b"").lines == ()  # an empty marker file: read, nothing to index


def test_unsupported_types_raise_with_the_type_as_reason() -> None:
    with pytest.raises(UnsupportedType, match=r"^unsupported file type \(\.svg\) "):
        extract(Path("logo.svg"), b'<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    with pytest.raises(UnsupportedType, match=r"unsupported file type \(\.dat\)"):
        extract(Path("blob.dat"), b"caf\xe9 \xff\xfe not utf-8")
    with pytest.raises(UnsupportedType, match=r"unsupported file type \(no extension\)"):
        extract(Path("blob"), b"abc\x00def")


def test_text_sniff_allows_a_character_cut_at_the_end_of_the_head() -> None:
    data = "é".encode() * 5000  # 10,000 bytes: the 8 KiB head ends inside no character, or inside one
    assert looks_like_text(data) and looks_like_text(data[:8193])
    assert not looks_like_text("é".encode()[:1])  # the whole file is that cut character: not UTF-8


def source_tree(root: Path) -> Path:
    write(root, "app.py", "def create_app():\n    return 'the pelican factory'\n")
    write(root, ".gitignore", "*.log\n")
    write(root, ".flaskenv", "# the albatross settings\nFLASK_APP=app.py\n")
    write(root, ".editorconfig", "root = true\n[*]\nindent_style = space\n")
    write(root, "src/pkg/py.typed", "")
    write(root, "docs/logo.svg", '<svg xmlns="http://www.w3.org/2000/svg"><title>x</title></svg>\n')
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    return root


def states(engine: Engine) -> dict[str, tuple[str, str | None]]:
    return {Path(f.path).name: (f.status, f.error) for f in engine.files()}


def test_a_source_tree_has_no_failures_but_real_ones(engine: Engine, tmp_path: Path) -> None:
    engine.add_folder(source_tree(tmp_path / "tree"))
    engine.run(engine.sync(embed=False))
    found = states(engine)
    for name in ("app.py", ".gitignore", ".flaskenv", ".editorconfig", "py.typed"):
        assert found[name] == ("indexed", None), name
    assert found["logo.svg"] == ("skipped", "unsupported file type (.svg)")
    assert found["broken.pdf"][0] == "failed"  # a corrupt file of a supported type still failed
    folder = engine.status().folders[0]
    assert (folder.indexed, folder.skipped, folder.failed) == (5, 1, 1)
    assert [Path(h.path).name for h in engine.search("albatross", mode="keyword").hits] == [".flaskenv"]


def test_an_unchanged_unsupported_file_is_not_read_again(engine: Engine, tmp_path: Path) -> None:
    root = source_tree(tmp_path / "tree")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    again = engine.run(engine.sync(embed=False))
    assert not [e for e in again if isinstance(e, (FileSkipped, FileIndexed))]
    write(root, "docs/logo.svg", "<svg><title>changed</title></svg>\n")
    changed = engine.run(engine.sync(embed=False))
    assert [Path(e.path).name for e in changed if isinstance(e, FileSkipped)] == ["logo.svg"]


def test_files_failed_as_unsupported_before_are_read_again(engine: Engine, tmp_path: Path) -> None:
    root = source_tree(tmp_path / "tree")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    with engine.catalog.write() as con:  # as an index written before this fix recorded them
        con.execute(
            "UPDATE files SET status = 'failed', error = 'parse error: ' || "
            "regexp_extract(path, '[^/]+$') || ': unsupported file type' WHERE path LIKE '%flaskenv'"
        )
    assert states(engine)[".flaskenv"] == ("failed", "parse error: .flaskenv: unsupported file type")
    engine.run(engine.sync(embed=False))
    assert states(engine)[".flaskenv"] == ("indexed", None)


def test_retry_reads_an_unchanged_failed_file_again(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extract_module, "_REGISTRY", dict(extract_module._REGISTRY))
    reader = FailsOnce()
    extract_module.register([".flaky"], reader)
    root = tmp_path / "flaky"
    write(root, "notes.flaky", "the cormorant schedule")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    assert states(engine)["notes.flaky"][0] == "failed"
    engine.run(engine.sync(embed=False))
    assert reader.calls == 1  # unchanged: a plain sync does not read it again
    events = engine.run(engine.retry([root / "notes.flaky"]))
    assert [Path(e.path).name for e in events if isinstance(e, FileIndexed)] == ["notes.flaky"]
    assert states(engine)["notes.flaky"] == ("indexed", None)
    assert [Path(h.path).name for h in engine.search("cormorant", mode="keyword").hits] == ["notes.flaky"]
