#!/usr/bin/env python3
"""Fetch the Debian Policy Manual this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/prose_debian_policy/fetch.py

It downloads the pinned ``debian-policy`` package (4.6.2.0, Debian 12 "bookworm") from the Debian archive
over HTTPS, checks its SHA-256 against the value below, and extracts the Policy Manual's reStructuredText
sources (``usr/share/doc/debian-policy/policy.html/_sources/*.rst.txt``, the chapters, appendices and the
upgrading checklist) into ``docs/policy/``, each named without the ``.txt`` Sphinx appends (``ch-scope.rst``).
The rendered HTML, EPUB, images and the other policies the package carries are left out. Idempotent, and
``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

SOURCES = ("share", "doc", "debian-policy", "policy.html", "_sources")  # below the package's usr/


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    return rel.parts[:-1] == SOURCES and rel.name.endswith(".rst.txt")


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath("policy", rel.name.removesuffix(".txt"))


SDIST = Sdist(
    "debian-policy",
    "4.6.2.0",
    "ef9d01b625c3b87c3a845c2cd1b66f1a16e9240b2b9e5bee53472a00e8457a39",
    wanted,
    "policy/ch-",
    url="https://deb.debian.org/debian/pool/main/d/debian-policy/debian-policy_4.6.2.0_all.deb",
    place=place,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
