#!/usr/bin/env python3
"""Fetch the structlog documentation this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/docs_structlog/fetch.py

It downloads the pinned sdist of structlog from PyPI with ``pip download`` (no dependencies, source only),
checks its SHA-256 against the value below, and extracts ``README.md``, ``CHANGELOG.md`` and every
Markdown / reStructuredText page directly under the sdist's ``docs/`` into ``docs/`` beside this script,
keeping the sdist's own relative paths (so ``docs/docs/getting-started.md``). The Python source, tests,
images, ``docs/_static/``, the Sphinx config and the ``.github/`` files are left out. Idempotent, and
``docs/`` is git-ignored (evalsets/sdist.py).
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
        return rel.name in ("README.md", "CHANGELOG.md")
    return len(rel.parts) == 2 and rel.parts[0] == "docs" and rel.suffix in (".md", ".rst")


SDIST = Sdist(
    "structlog", "26.1.0", "f63a716cbd1b1291cf7661de7794b455acfa4c43c5bcf1630e6ad5ddc1adb3b7", wanted, "docs/"
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
