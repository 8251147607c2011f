#!/usr/bin/env python3
"""Fetch the boltons source tree this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_boltons/fetch.py

It downloads the pinned sdist from PyPI with ``pip download`` (no dependencies, source only), checks its
SHA-256 against the value below, and extracts only the package source (``boltons/*.py``), the Sphinx
pages (``docs/*.rst``), ``README.md`` and ``LICENSE`` into ``docs/`` beside this script, keeping the
sdist's own relative paths (so ``docs/boltons/cacheutils.py``, ``docs/docs/architecture.rst``).
Tests, the changelog, build files and the Sphinx config are left out. Idempotent, and ``docs/`` is
git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

NAME = "boltons"


def wanted(rel: PurePosixPath) -> bool:
    """Which sdist members (path relative to the sdist's top folder) go into docs/."""
    parts = rel.parts
    if len(parts) == 1:
        return parts[0] in ("README.md", "LICENSE")
    if len(parts) == 2 and parts[0] == NAME:
        return parts[1].endswith(".py")
    if len(parts) == 2 and parts[0] == "docs":
        return parts[1].endswith(".rst")
    return False


SDIST = Sdist(
    NAME, "25.0.0", "e110fbdc30b7b9868cb604e3f71d4722dd8f4dcb4a5ddd06028ba8f1ab0b5ace", wanted, f"{NAME}/"
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
