#!/usr/bin/env python3
"""Fetch the commander package this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/docs_commander/fetch.py

It downloads the pinned npm tarball of commander from the npm registry, checks its SHA-256 against the
value below, and extracts ``Readme.md``, ``package.json``, ``LICENSE``, the library's source
(``lib/*.js``) and its type declarations (``typings/index.d.ts``) into ``docs/`` beside this script,
keeping the tarball's own relative paths below ``package/`` (so ``docs/lib/command.js``). The thin entry
points (``index.js``, ``esm.mjs``, ``typings/esm.d.mts``) and ``package-support.json`` are left out.
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
        return rel.name in ("Readme.md", "package.json", "LICENSE")
    return (rel.parts[0] == "lib" and rel.suffix == ".js") or rel.as_posix() == "typings/index.d.ts"


SDIST = Sdist(
    "commander",
    "14.0.3",
    "5849703c500e0f324eb01340d8bda1f9ec48fc37bb7be9712eb0dd52aad92f6c",
    wanted,
    "lib/",
    url="https://registry.npmjs.org/commander/-/commander-14.0.3.tgz",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
