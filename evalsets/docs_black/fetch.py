#!/usr/bin/env python3
"""Fetch the black documentation this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/docs_black/fetch.py

It downloads the pinned sdist of black from PyPI with ``pip download`` (no dependencies, source only),
checks its SHA-256 against the value below, and extracts ``README.md``, ``CHANGES.md`` and every
Markdown page under the sdist's ``docs/`` into ``docs/`` beside this script, keeping the sdist's own
relative paths (so ``docs/docs/faq.md``). The Python source, tests, images and the Sphinx config are
left out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)


def wanted(rel: PurePosixPath) -> bool:
    """Which sdist members (path relative to the sdist's top folder) go into docs/."""
    if len(rel.parts) == 1:
        return rel.name in ("README.md", "CHANGES.md")
    return rel.parts[0] == "docs" and rel.suffix == ".md"


SDIST = Sdist(
    "black", "25.1.0", "33496d5cd1222ad73391352b4ae8da15253c5de89b93a80b3e2c8d9a19ec2666", wanted, "docs/"
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
