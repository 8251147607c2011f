#!/usr/bin/env python3
"""Fetch the attrs documentation and source this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/mixed_attrs/fetch.py

It downloads the pinned sdist of attrs from PyPI with ``pip download`` (no dependencies, source only), checks
its SHA-256 against the value below, and extracts ``README.md``, ``CHANGELOG.md``, ``LICENSE``, the prose
documentation (every ``docs/*.md`` and ``docs/*.rst``) and the library's source (every ``src/attr/*.py`` and
``src/attrs/*.py``) into ``docs/`` beside this script, keeping the sdist's own relative paths (so
``docs/docs/init.md`` and ``docs/src/attr/_make.py``). The tests, the type stubs (``*.pyi``), the Sphinx
config (``docs/conf.py``), ``docs/_static/``, benchmarks, typing examples and the packaging files are left
out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
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
        return rel.name in ("README.md", "CHANGELOG.md", "LICENSE")
    if len(rel.parts) == 2 and rel.parts[0] == "docs":
        return rel.suffix in (".md", ".rst")
    in_package = len(rel.parts) == 3 and rel.parts[0] == "src" and rel.parts[1] in ("attr", "attrs")
    return in_package and rel.suffix == ".py"


SDIST = Sdist(
    "attrs",
    "26.1.0",
    "d03ceb89cb322a8fd706d4fb91940737b6642aa36998fe130a9bc96c985eff32",
    wanted,
    "src/attr/",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
