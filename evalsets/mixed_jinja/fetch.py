#!/usr/bin/env python3
"""Fetch the Jinja documentation and source this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/mixed_jinja/fetch.py

It downloads the pinned sdist of Jinja2 from PyPI with ``pip download`` (no dependencies, source only),
checks its SHA-256 against the value below, and extracts ``README.md``, ``LICENSE.txt``, the prose
documentation (every ``docs/*.rst``), the two example extensions the extensions page pulls in with
``literalinclude`` (every ``.py`` file under ``docs/examples/``) and the library's source (every
``src/jinja2/*.py``) into ``docs/`` beside this script, keeping the sdist's own relative paths (so
``docs/docs/templates.rst``, ``docs/docs/examples/cache_extension.py`` and
``docs/src/jinja2/environment.py``).
The tests (``tests/``), the Sphinx config and build files (``docs/conf.py``, ``docs/Makefile``,
``docs/make.bat``), ``docs/_static/``, ``py.typed``, ``requirements/`` and the packaging files
(``pyproject.toml``, ``tox.ini``, ``PKG-INFO``) are left out. The sdist holds no ``CHANGES.rst``: the
changelog page ``docs/changes.rst`` is only an ``include`` stub. Idempotent, and ``docs/`` is git-ignored
(evalsets/sdist.py).
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
        return rel.name in ("README.md", "LICENSE.txt")
    if len(rel.parts) == 2 and rel.parts[0] == "docs":
        return rel.suffix == ".rst"
    if len(rel.parts) == 3 and rel.parts[:2] == ("docs", "examples"):
        return rel.suffix == ".py"
    in_package = len(rel.parts) == 3 and rel.parts[:2] == ("src", "jinja2")
    return in_package and rel.suffix == ".py"


SDIST = Sdist(
    "jinja2",
    "3.1.6",
    "0137fb05990d35f1275a587e9aee6d56da821fc83491a0fb838183be43f66d6d",
    wanted,
    "src/jinja2/",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
