#!/usr/bin/env python3
"""Fetch the click source tree this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_click/fetch.py

It downloads the pinned sdist from PyPI with ``pip download`` (no dependencies, source only), checks its
SHA-256 against the value below, and extracts only the package source (``src/click/*.py``), the Sphinx
pages (``docs/*.rst``), ``README.md`` and ``LICENSE.txt`` into ``docs/`` beside this script, keeping the
sdist's own relative paths (so ``docs/src/click/core.py``, ``docs/docs/options.rst``).
Tests, the changelog (``CHANGES.rst``), build files, requirements and the Sphinx config are left out.
Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

NAME = "click"


def wanted(rel: PurePosixPath) -> bool:
    """Which sdist members (path relative to the sdist's top folder) go into docs/."""
    parts = rel.parts
    if len(parts) == 1:
        return parts[0] in ("README.md", "LICENSE.txt")
    if len(parts) == 3 and parts[:2] == ("src", NAME):
        return parts[2].endswith(".py")
    if len(parts) == 2 and parts[0] == "docs":
        return parts[1].endswith(".rst")
    return False


SDIST = Sdist(
    NAME, "8.1.8", "ed53c9d8990d83c2a27deae68e4ee337473f6330c040a31d4225c9574d16096a", wanted, f"src/{NAME}/"
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
