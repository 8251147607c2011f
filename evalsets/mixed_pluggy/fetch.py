#!/usr/bin/env python3
"""Fetch the pluggy documentation and source this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/mixed_pluggy/fetch.py

It downloads the pinned sdist of pluggy from PyPI with ``pip download`` (no dependencies, source only), checks
its SHA-256 against the value below, and extracts ``README.rst``, ``CHANGELOG.rst``, ``LICENSE``, the prose
documentation (every ``docs/*.rst``), the example code the main page pulls in with ``literalinclude`` (every
``.py`` file under ``docs/examples/``) and the library's source (every ``src/pluggy/*.py``) into ``docs/``
beside this script, keeping the sdist's own relative paths (so ``docs/docs/index.rst``,
``docs/docs/examples/toy-example.py`` and ``docs/src/pluggy/_manager.py``). The tests (``testing/``), the
Sphinx config (``docs/conf.py``), ``docs/_static/``, ``docs/requirements.txt``, ``py.typed``, the
``pluggy.egg-info`` metadata, ``changelog/``, ``downstream/``, ``scripts/`` and the packaging, CI and
contributor files are left out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
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
        return rel.name in ("README.rst", "CHANGELOG.rst", "LICENSE")
    if len(rel.parts) == 2 and rel.parts[0] == "docs":
        return rel.suffix == ".rst"
    if len(rel.parts) >= 3 and rel.parts[:2] == ("docs", "examples"):
        return rel.suffix == ".py"
    in_package = len(rel.parts) == 3 and rel.parts[:2] == ("src", "pluggy")
    return in_package and rel.suffix == ".py"


SDIST = Sdist(
    "pluggy",
    "1.7.0",
    "d1eaa46ebb595891b860ab086b4d09c8588af65ebd4361b8e8f4bb8920b90ba8",
    wanted,
    "src/pluggy/",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
