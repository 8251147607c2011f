#!/usr/bin/env python3
"""Fetch the Rust source and guides of the ``regex`` crate this set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_regex/fetch.py

It downloads the pinned Debian 12 "bookworm" package ``librust-regex-dev`` 1.7.1-1 from the Debian archive
over HTTPS and checks its SHA-256 against the value below. That package ships the crate exactly as published
on crates.io (regex 1.7.1, packaged by debcargo with no patches; its ``.cargo-checksum.json`` names the
crate's own SHA-256) under ``usr/share/cargo/registry/regex-1.7.1/``. From there it extracts the Rust source
of the library (``src/*.rs``, ``src/literal/*.rs``), the six small example programs (``examples/*.rs``) and
the five Markdown documents (``README.md``, ``HACKING.md``, ``PERFORMANCE.md``, ``UNICODE.md``,
``CHANGELOG.md``) into ``docs/``, keeping their paths below the crate's folder (``docs/src/dfa.rs``,
``docs/HACKING.md``, ...). Left out: the integration tests (``tests/``), the AT&T test data
(``src/testdata/``), the example input and output data, ``Cargo.toml``, ``rustfmt.toml``, the ``test``
script, ``.gitignore``, the cargo metadata files and the two license texts. Idempotent, and ``docs/`` is
git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

CRATE = ("share", "cargo", "registry", "regex-1.7.1")  # below the package's usr/
DOCS = ("README.md", "HACKING.md", "PERFORMANCE.md", "UNICODE.md", "CHANGELOG.md")


def inside(rel: PurePosixPath) -> PurePosixPath | None:
    """A package member's path below the crate's folder, or None when it lies elsewhere."""
    if rel.parts[: len(CRATE)] != CRATE or len(rel.parts) <= len(CRATE):
        return None
    return PurePosixPath(*rel.parts[len(CRATE) :])


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    own = inside(rel)
    if own is None:
        return False
    if len(own.parts) == 1:
        return own.name in DOCS
    if own.suffix != ".rs":
        return False
    return own.parent.as_posix() in ("src", "src/literal", "examples")


def place(rel: PurePosixPath) -> PurePosixPath:
    own = inside(rel)
    assert own is not None
    return own


SDIST = Sdist(
    "librust-regex-dev",
    "1.7.1-1",
    "9b8c87bb5aa87c0095f4cc36ed829c80e815c2f71337325bd6e25f8de1fba7f7",
    wanted,
    "src/",
    url="https://deb.debian.org/debian/pool/main/r/rust-regex/librust-regex-dev_1.7.1-1_amd64.deb",
    place=place,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
