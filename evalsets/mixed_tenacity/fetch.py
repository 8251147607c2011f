#!/usr/bin/env python3
"""Fetch the tenacity documentation and source this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/mixed_tenacity/fetch.py

It downloads the pinned sdist of tenacity from PyPI with ``pip download`` (no dependencies, source only),
checks its SHA-256 against the value below, and extracts ``LICENSE``, the prose documentation (every
``doc/source/*.rst``), the release notes (every ``releasenotes/notes/*.yaml``: the reno notes that
``doc/source/changelog.rst`` renders, tenacity's only changelog) and the library's source (every ``.py``
file in ``tenacity/`` and ``tenacity/asyncio/``) into ``docs/`` beside this script, keeping the sdist's own
relative paths (so ``docs/doc/source/index.rst``,
``docs/releasenotes/notes/add-stop-before-delay-a775f88ac872c923.yaml`` and ``docs/tenacity/wait.py``).
The sdist's ``README.rst`` is a symbolic link to ``doc/source/index.rst``, so it is left out (the page itself
is kept). Also left out: the tests (``tests/``), the Sphinx config (``doc/source/conf.py``),
``tenacity/py.typed``, ``reno.yaml``, ``PKG-INFO`` and the packaging, CI and editor files. Idempotent, and
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
        return rel.name == "LICENSE"  # README.rst is a symbolic link to doc/source/index.rst
    if len(rel.parts) == 3 and rel.parts[:2] == ("doc", "source"):
        return rel.suffix == ".rst"
    if len(rel.parts) == 3 and rel.parts[:2] == ("releasenotes", "notes"):
        return rel.suffix == ".yaml"
    in_package = 2 <= len(rel.parts) <= 3 and rel.parts[0] == "tenacity"
    return in_package and rel.suffix == ".py"


SDIST = Sdist(
    "tenacity",
    "9.2.1",
    "a606b5c808d0cded4a359d5b9932d867ff2a6a6b64d37350260fd01bbdf83839",
    wanted,
    "tenacity/",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
