#!/usr/bin/env python3
"""Fetch the jsoup source this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_jsoup/fetch.py

It downloads the pinned upstream tarball of jsoup 1.15.3 (a Java HTML parser) from the Debian archive over
HTTPS (``jsoup_1.15.3.orig.tar.xz``, the upstream release as Debian 12 "bookworm" packages it), checks its
SHA-256 against the value below, and extracts the project's prose (``README.md``, ``CHANGES``, ``LICENSE``)
and its Java source, the library and its tests (every ``src/**/*.java``), into ``docs/``, keeping the
tarball's relative paths. The tests' data files (``src/test/resources``: saved web pages, fuzzing inputs,
byte-order-mark samples), the Maven build (``pom.xml``) and the CI files are left out.
Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)


def wanted(rel: PurePosixPath) -> bool:
    """Which tarball members (path below its top folder, jsoup-jsoup-1.15.3/) go into docs/."""
    if len(rel.parts) == 1:
        return rel.name in ("README.md", "CHANGES", "LICENSE")
    return rel.parts[0] == "src" and rel.suffix == ".java"


SDIST = Sdist(
    "jsoup",
    "1.15.3",
    "052511f0be47511f9b2a17d44fc1eccc4b5373e77cc5a3221e34b6af437e1e2e",
    wanted,
    "src/",
    url="https://deb.debian.org/debian/pool/main/j/jsoup/jsoup_1.15.3.orig.tar.xz",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
