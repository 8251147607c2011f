#!/usr/bin/env python3
"""Fetch the express source tree this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_express/fetch.py

It downloads the pinned npm tarball of express from the npm registry, checks its SHA-256 against the
value below, and extracts ``Readme.md``, ``LICENSE``, ``package.json``, the changelog ``History.md`` and
the library's source (every ``lib/**/*.js``) into ``docs/`` beside this script, keeping the tarball's own
relative paths below ``package/`` (so ``docs/lib/router/index.js``). The thin entry point ``index.js``
(a one-line re-export of ``lib/express.js``) is left out.
Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)


def wanted(rel: PurePosixPath) -> bool:
    """Which tarball members (path relative to its ``package/`` folder) go into docs/."""
    if len(rel.parts) == 1:
        return rel.name in ("Readme.md", "LICENSE", "package.json", "History.md")
    return rel.parts[0] == "lib" and rel.suffix == ".js"


SDIST = Sdist(
    "express",
    "4.21.2",
    "fc43a91e7dc7affb53c6ad7123a4f35485ed3c45226ae7a3847b7738e783e008",
    wanted,
    "lib/",
    url="https://registry.npmjs.org/express/-/express-4.21.2.tgz",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
