#!/usr/bin/env python3
"""Fetch the marshmallow documentation this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/docs_marshmallow/fetch.py

It downloads the pinned sdist of marshmallow from PyPI with ``pip download`` (no dependencies, source only),
checks its SHA-256 against the value below, and extracts ``README.rst``, ``CHANGELOG.rst`` and every
reStructuredText / Markdown page under the sdist's ``docs/`` (including ``docs/examples/`` and
``docs/extending/``) into ``docs/`` beside this script, keeping the sdist's own relative paths (so
``docs/docs/quickstart.rst``). The Python source, tests, images, ``docs/_static/``, the Sphinx config
(``conf.py``), ``dashing.json`` and the other top-level files (``AUTHORS.rst``, ``SECURITY.md``, ...) are
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
        return rel.name in ("README.rst", "CHANGELOG.rst")
    return rel.parts[0] == "docs" and "_static" not in rel.parts and rel.suffix in (".md", ".rst")


SDIST = Sdist(
    "marshmallow",
    "4.4.0",
    "9e6ffa8511012ca89732324c1c253efd7b4d35632dcbdf80aa793fe01804af3e",
    wanted,
    "docs/",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
