#!/usr/bin/env python3
"""Fetch the saved HTML documentation site this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/html_werkzeug/fetch.py

It downloads the pinned ``python-werkzeug-doc`` package (2.2.2-3+deb12u1, Debian 12 "bookworm") from the
Debian archive over HTTPS, checks its SHA-256 against the value below, and extracts everything the package
installs under ``usr/share/doc/python-werkzeug-doc/`` into ``docs/``: the Sphinx-built HTML site
(``html/``, with its ``_sources/*.txt`` copies of each page's reStructuredText, its search index, stylesheets
and images) and the example applications (``examples/``), as a user who saved a project's documentation
folder would have it. The package's symbolic links (to Debian's shared jQuery and Sphinx scripts) are left
out, as the archive holds no file for them. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

TOP = ("share", "doc", "python-werkzeug-doc")  # below the package's usr/


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    return rel.parts[: len(TOP)] == TOP and len(rel.parts) > len(TOP)


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(*rel.parts[len(TOP) :])


SDIST = Sdist(
    "python-werkzeug-doc",
    "2.2.2-3+deb12u1",
    "5aeffdfdf257911e3ade253d2b6cc3f98a06df3bec1332efdbc3fbd578530230",
    wanted,
    "html/",
    url="https://deb.debian.org/debian/pool/main/p/python-werkzeug/python-werkzeug-doc_2.2.2-3+deb12u1_all.deb",
    place=place,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
