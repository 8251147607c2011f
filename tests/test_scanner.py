"""Scanner: ignore rules, default exclusions, secrets, binary and size checks, symlinks, cancellation, hashes.

Every test builds a real tree under tmp_path; nothing is mocked.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import CiteError
from engine.ingest.scanner import ScanResult, classify, content_hash, is_binary, scan


def write(root: Path, rel: str, data: bytes | str = "text\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def verdicts(root: Path, **options: Any) -> dict[str, str | None]:
    """scan() as {relative posix path: skip_reason}."""
    return {r.path.relative_to(root).as_posix(): r.skip_reason for r in scan(root, **options)}


def symlink(target: Path | str, link: Path) -> None:
    try:
        link.symlink_to(target)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks are not available here")


# ------------------------------------------------------------------------------------------ ignore files


def test_root_and_nested_gitignore(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\nout/\n")
    write(tmp_path, "a.log")
    write(tmp_path, "notes.txt")
    write(tmp_path, "out/report.txt")
    write(tmp_path, "sub/.gitignore", "/local.txt\n!important.log\n")
    write(tmp_path, "sub/local.txt")
    write(tmp_path, "sub/deeper/local.txt")  # "/local.txt" is anchored to sub/, so this one stays
    write(tmp_path, "sub/important.log")  # re-included by the nested file
    write(tmp_path, "sub/noise.log")

    assert verdicts(tmp_path) == {
        ".gitignore": None,
        "notes.txt": None,
        "sub/.gitignore": None,
        "sub/deeper/local.txt": None,
        "sub/important.log": None,
    }


def test_negation_keeps_a_file(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.txt\n!keep.txt\n")
    write(tmp_path, "drop.txt")
    write(tmp_path, "keep.txt")
    write(tmp_path, "deep/keep.txt")

    assert verdicts(tmp_path) == {".gitignore": None, "keep.txt": None, "deep/keep.txt": None}


def test_dot_ignore_applies_and_wins_over_gitignore(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.md\n")
    write(tmp_path, ".ignore", "drafts/\n!README.md\n")
    write(tmp_path, "README.md")
    write(tmp_path, "other.md")
    write(tmp_path, "drafts/idea.txt")

    assert verdicts(tmp_path) == {".gitignore": None, ".ignore": None, "README.md": None}


def test_invalid_ignore_lines_are_dropped_and_the_rest_applies(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "!\n[z-a]\n*.log\n")
    write(tmp_path, "a.log")
    write(tmp_path, "a.txt")

    assert verdicts(tmp_path) == {".gitignore": None, "a.txt": None}


# ----------------------------------------------------------------------------------- include / exclude


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    for rel in ("a.md", "b.txt", "docs/guide.txt", "docs/private/plan.md", "sub/c.md"):
        write(tmp_path, rel)

    got = verdicts(tmp_path, include=["*.md", "docs/"], exclude=["docs/private/"])

    assert got == {
        "a.md": None,
        "b.txt": "excluded",
        "docs/guide.txt": None,
        "docs/private/plan.md": "excluded",  # exclude wins over include
        "sub/c.md": None,
    }


def test_exclude_alone_is_relative_to_root(tmp_path: Path) -> None:
    write(tmp_path, "x.txt")
    write(tmp_path, "sub/x.txt")

    assert verdicts(tmp_path, exclude=["/x.txt"]) == {"x.txt": "excluded", "sub/x.txt": None}


def test_invalid_user_glob_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(CiteError, match="Invalid exclude pattern"):
        list(scan(tmp_path, exclude=["!"]))


# ------------------------------------------------------------------------------------ default exclusions


def test_default_dirs_and_files_are_dropped_silently(tmp_path: Path) -> None:
    for rel in (
        "node_modules/lib/index.js",
        ".git/config",
        "__pycache__/m.cpython-311.pyc",
        "build/out.txt",
        "src/site-packages/pkg.py",
        "myenv/pyvenv.cfg",
        "myenv/lib/mod.py",
        "app.min.js",
        "style.min.css",
        "app.js.map",
        "package-lock.json",
        "sub/Cargo.lock",
        "go.sum",
        ".DS_Store",
    ):
        write(tmp_path, rel)
    write(tmp_path, "src/main.py")

    assert verdicts(tmp_path) == {"src/main.py": None}


def test_pruned_dirs_are_not_walked(tmp_path: Path) -> None:
    for rel in (
        "keep/a.txt",
        "node_modules/x/y.js",
        "ignored/z.txt",
        "venvish/pyvenv.cfg",
        "venvish/lib/m.py",
    ):
        write(tmp_path, rel)
    write(tmp_path, ".gitignore", "ignored/\n")
    opened: list[int] = []

    def cancelled() -> bool:  # asked once per directory about to be opened
        opened.append(1)
        return False

    list(scan(tmp_path, cancelled=cancelled))

    assert len(opened) == 2  # the root and keep/


# ------------------------------------------------------------------------------------ secrets and content


@pytest.mark.parametrize(
    "name",
    [
        ".env",
        ".env.production",
        "server.pem",
        "tls.key",
        "cert.p12",
        "cert.pfx",
        "id_rsa",
        "id_rsa.pub",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "app.keystore",
        "trust.jks",
        "credentials",
        "credentials.json",
        ".netrc",
        ".npmrc",
        ".pypirc",
        "vault.kdbx",
        "secrets.yaml",
        "secrets.yml",
        "secrets.json",
        "service-account-prod.json",
        "SERVER.PEM",
    ],
)
def test_secrets_are_never_indexed(tmp_path: Path, name: str) -> None:
    write(tmp_path, f"deep/{name}", "API_KEY=hunter2\n")

    assert verdicts(tmp_path) == {f"deep/{name}": "secret"}


def test_look_alikes_are_not_secrets(tmp_path: Path) -> None:
    for name in ("environment.md", "keys.txt", "my_credentials_notes.md", "secrets.md"):
        write(tmp_path, name)

    assert set(verdicts(tmp_path).values()) == {None}


def test_binary_detection(tmp_path: Path) -> None:
    write(tmp_path, "nul.dat", b"abc\x00def")
    write(tmp_path, "controls.dat", bytes([1, 2, 3, 4, 5, 6]) * 10 + b"text")
    write(tmp_path, "text.txt", "tabs\tand\r\nnewlines\f\b and ünïcode\n")
    write(tmp_path, "late_nul.txt", b"a" * (8 * 1024) + b"\x00")  # only the first 8 KiB are read
    write(tmp_path, "paper.pdf", b"%PDF-1.7\n\x00\x01\x02binary body")
    write(tmp_path, "letter.docx", b"PK\x03\x04\x00\x00zip body")

    assert verdicts(tmp_path) == {
        "controls.dat": "binary",
        "late_nul.txt": None,
        "letter.docx": None,
        "nul.dat": "binary",
        "paper.pdf": None,
        "text.txt": None,
    }


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"", False),
        (b"plain text\n", False),
        (b"\x00", True),
        (b"\x01\x02\x03" + b"a" * 7, False),  # exactly 30% is still text
        (b"\x01\x02\x03\x04" + b"a" * 6, True),
        (b"\x7f" * 4 + b"a" * 6, True),
        (b"\t\n\r\f\b" * 10, False),
    ],
)
def test_is_binary(head: bytes, expected: bool) -> None:
    assert is_binary(head) is expected


def test_a_minified_script_or_generated_search_index_is_skipped_as_minified(tmp_path: Path) -> None:
    """A bundle, or a documentation site's search index (Sphinx's searchindex.js: one line of data), has
    no sentence to quote: a script or stylesheet whose lines run over 110 characters on average (GitHub
    Linguist's test) is skipped as "minified". Readable code, and long lines in other files, are read."""
    index = 'Search.setIndex({"docnames": ["index", "routing"], "terms": {"rule": [0, 1]}});' * 200
    write(tmp_path, "html/searchindex.js", index)
    write(tmp_path, "static/app.css", "body{margin:0;padding:0}" * 20 + "\n" + "a{color:red}" * 20)
    write(
        tmp_path, "lib/router.js", "// Route a request.\nfunction route(req) {\n  return req.url;\n}\n" * 300
    )
    write(tmp_path, "notes.txt", "word " * 2000)
    assert verdicts(tmp_path) == {
        "html/searchindex.js": "minified",
        "lib/router.js": None,
        "notes.txt": None,
        "static/app.css": "minified",
    }


def test_too_large_and_empty_files(tmp_path: Path) -> None:
    write(tmp_path, "big.txt", "x" * 11)
    write(tmp_path, "limit.txt", "x" * 10)
    write(tmp_path, "empty.txt", b"")

    got = verdicts(tmp_path, max_bytes=10)

    assert got == {"big.txt": "too large", "empty.txt": None, "limit.txt": None}


def test_result_carries_size_and_mtime(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "12345")
    os.utime(path, (1_000_000, 1_234_567))

    (result,) = scan(tmp_path)

    assert result == ScanResult(path=path, size=5, mtime=1_234_567.0, skip_reason=None)
    assert result.path.is_absolute()


def test_unreadable_file_and_dir_do_not_raise(tmp_path: Path) -> None:
    locked = write(tmp_path, "locked.txt")
    locked_dir = tmp_path / "private"
    write(tmp_path, "private/inner.txt")
    write(tmp_path, "ok.txt")
    locked.chmod(0)
    locked_dir.chmod(0)
    try:
        got = verdicts(tmp_path)
        readable = os.access(locked, os.R_OK)
    finally:
        locked_dir.chmod(0o755)
        locked.chmod(0o644)

    assert got["ok.txt"] is None
    if readable:  # root (or an ACL) can read anyway; the walk still must not crash
        assert got["locked.txt"] is None
    else:
        assert got["locked.txt"] == "unreadable: Permission denied"
        assert got["private"] == "unreadable: Permission denied"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_is_skipped_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    write(tmp_path, "a.txt")

    assert verdicts(tmp_path) == {"a.txt": None}


# --------------------------------------------------------------------------------------------- symlinks


def test_symlink_loops_do_not_hang(tmp_path: Path) -> None:
    write(tmp_path, "a/file.txt")
    symlink(tmp_path, tmp_path / "a" / "up")
    symlink(".", tmp_path / "self")

    assert verdicts(tmp_path) == {"a/file.txt": None}


def test_file_symlinks_followed_only_inside_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "real.txt", "hello")
    write(tmp_path, "outside.txt", "private")
    symlink(root / "real.txt", root / "alias.txt")
    symlink(tmp_path / "outside.txt", root / "escape.txt")
    symlink(root / "missing.txt", root / "dangling.txt")

    got = {r.path.name: (r.size, r.skip_reason) for r in scan(root)}

    assert got == {"alias.txt": (5, None), "real.txt": (5, None)}


# ------------------------------------------------------------------------------- order and cancellation


def test_order_is_sorted_by_path_and_stable(tmp_path: Path) -> None:
    for rel in ("b.txt", "a/z.txt", "a.txt", "a/b/c.txt", "A.txt", "a-b.txt"):
        write(tmp_path, rel)

    first = [r.path for r in scan(tmp_path)]

    assert first == sorted(first)
    assert first == [r.path for r in scan(tmp_path)]


def test_cancel_before_start_yields_nothing(tmp_path: Path) -> None:
    write(tmp_path, "a.txt")

    assert list(scan(tmp_path, cancelled=lambda: True)) == []


def test_cancel_mid_walk_stops_with_a_prefix(tmp_path: Path) -> None:
    for rel in ("a/1.txt", "b/2.txt", "c/3.txt", "d/4.txt"):
        write(tmp_path, rel)
    full = list(scan(tmp_path))
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 2  # root and a/ are opened, then the user cancels

    partial = list(scan(tmp_path, cancelled=cancelled))

    assert partial == full[:1]


# ------------------------------------------------------------------------------------ root and classify


def test_missing_root_raises_instead_of_looking_empty(tmp_path: Path) -> None:
    with pytest.raises(CiteError, match="Folder not found"):
        list(scan(tmp_path / "unplugged"))


def test_classify_agrees_with_scan(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "sub/.ignore", "!keep.log\n")
    files: dict[str, str | bytes] = {
        "a.txt": "text",
        "sub/keep.log": "text",
        ".env": "SECRET=1",
        "blob.bin": b"\x00\x01",
        "big.txt": "x" * 100,
        "skip/me.md": "text",
        "empty.txt": b"",
    }
    for rel, data in files.items():
        write(tmp_path, rel, data)
    options: dict[str, Any] = {"exclude": ["skip/"], "max_bytes": 50}

    results = list(scan(tmp_path, **options))

    assert len(results) == len(files) + 2  # plus the two ignore files
    for result in results:
        assert classify(result.path, tmp_path, **options) == result.skip_reason


def test_classify_names_silent_skips(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    cases = {
        "x.log": "ignored",
        "node_modules/m.js": "ignored",
        "v/pyvenv.cfg": "ignored",
        "v/lib/m.py": "ignored",
        "yarn.lock": "ignored",
    }
    for rel in cases:
        write(tmp_path, rel)

    assert {rel: classify(tmp_path / rel, tmp_path) for rel in cases} == cases
    assert classify(tmp_path / "gone.txt", tmp_path) == "unreadable: No such file or directory"
    with pytest.raises(ValueError, match="not inside"):
        classify(tmp_path.parent / "elsewhere.txt", tmp_path)


def test_classify_does_not_enter_linked_dirs(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "real/a.txt")
    symlink(root / "real", root / "link")

    assert classify(root / "real" / "a.txt", root) is None
    assert classify(root / "link" / "a.txt", root) == "ignored"


# ------------------------------------------------------------------------------------------------ hashes


def test_content_hash_is_stable_and_tracks_edits(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", "same")
    b = write(tmp_path, "b.txt", "same")
    before = content_hash(a)

    assert content_hash(a) == before == content_hash(b)
    a.write_text("changed", encoding="utf-8")
    assert content_hash(a) != before


def test_content_hash_streams_big_files(tmp_path: Path) -> None:
    data = os.urandom(1024) * (2 * 1024 + 512)  # 2.5 MiB: several blocks and a partial one
    path = write(tmp_path, "big.bin", data)

    assert content_hash(path) == hashlib.blake2b(data).hexdigest()


# ------------------------------------------------------------------------------------------- property


NAMES = [
    "a",
    "b",
    "node_modules",
    "build",
    ".env",
    "x.txt",
    "y.log",
    "id_rsa",
    "keep.txt",
    "pyvenv.cfg",
    "m.min.js",
]
CONTENTS = [
    b"",
    b"hello\n",
    b"\x00\x01binary",
    b"*.log\n!keep.txt\n",
    b"!\n[z-a]\nb/\n/x.txt\n",
    b"**/a\n!a/x.txt\n",
]
entries = st.lists(
    st.tuples(
        st.lists(st.sampled_from(NAMES), min_size=0, max_size=2),
        st.sampled_from([*NAMES, ".gitignore", ".ignore"]),
        st.sampled_from(CONTENTS),
    ),
    max_size=12,
)


def build_tree(root: Path, spec: list[tuple[list[str], str, bytes]]) -> None:
    """Create what fits; a name already taken by a file (or a directory) is skipped."""
    for dirs, name, data in spec:
        path = root.joinpath(*dirs, name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_dir():
                path.write_bytes(data)
        except (FileExistsError, NotADirectoryError):
            continue


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=entries,
    include=st.sampled_from([(), ("*.txt",), ("a/",)]),
    exclude=st.sampled_from([(), ("b/",), ("*.txt", "!keep.txt")]),
)
def test_random_trees_never_crash(
    spec: list[tuple[list[str], str, bytes]], include: tuple[str, ...], exclude: tuple[str, ...]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build_tree(root, spec)

        results = list(scan(root, include, exclude, max_bytes=64))

        paths = [r.path for r in results]
        assert paths == sorted(set(paths))
        assert results == list(scan(root, include, exclude, max_bytes=64))
        for result in results:
            assert result.path.is_relative_to(root)
            assert classify(result.path, root, include, exclude, max_bytes=64) == result.skip_reason
