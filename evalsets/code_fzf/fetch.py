#!/usr/bin/env python3
"""Fetch the fzf source and documentation this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_fzf/fetch.py

It downloads the pinned upstream tarball of fzf 0.38.0 (a command-line fuzzy finder written in Go) from the
Debian archive over HTTPS (``fzf_0.38.0.orig.tar.gz``, the upstream release as Debian 12 "bookworm"
packages it), checks its SHA-256 against the value below, and extracts the prose documentation
(``README.md``, ``ADVANCED.md``, ``CHANGELOG.md``) and the program's Go source (``main.go`` and every
``src/**/*.go`` that is not a test) into ``docs/``, keeping the tarball's relative paths. Tests
(``*_test.go``), the man pages, the shell and Vim integrations, the installer and the build and CI files
are left out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)


def wanted(rel: PurePosixPath) -> bool:
    """Which tarball members (path below its top folder, fzf-0.38.0/) go into docs/."""
    if len(rel.parts) == 1:
        return rel.name in ("README.md", "ADVANCED.md", "CHANGELOG.md", "LICENSE", "main.go")
    return rel.parts[0] == "src" and rel.suffix == ".go" and not rel.name.endswith("_test.go")


SDIST = Sdist(
    "fzf",
    "0.38.0",
    "75ad1bdb2ba40d5b4da083883e65a2887d66bd2d4dbfa29424cb3f09c37efaa7",
    wanted,
    "src/",
    url="https://deb.debian.org/debian/pool/main/f/fzf/fzf_0.38.0.orig.tar.gz",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
