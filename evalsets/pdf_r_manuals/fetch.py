#!/usr/bin/env python3
"""Fetch the R manuals (PDF) this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/pdf_r_manuals/fetch.py

It downloads the pinned ``r-doc-pdf`` package (4.2.2.20221110-2, Debian 12 "bookworm"; R 4.2.2) from the
Debian archive over HTTPS, checks its SHA-256 against the value below, and extracts four of R's manuals
from ``usr/share/R/doc/manual/`` into ``docs/``: "An Introduction to R" (``R-intro.pdf``), "R Data
Import/Export" (``R-data.pdf``), "R Installation and Administration" (``R-admin.pdf``) and "R Language
Definition" (``R-lang.pdf``), plus the package's copyright file as ``docs/copyright``. The other manuals
(R-exts, R-ints, R-FAQ, the reference manual) are left out. Idempotent, and ``docs/`` is git-ignored
(evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

MANUAL_DIR = ("share", "R", "doc", "manual")  # below the package's usr/
MANUALS = ("R-intro.pdf", "R-data.pdf", "R-admin.pdf", "R-lang.pdf")
COPYRIGHT = PurePosixPath("share", "doc", "r-doc-pdf", "copyright")


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    return (rel.parts[:-1] == MANUAL_DIR and rel.name in MANUALS) or rel == COPYRIGHT


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(rel.name)  # docs/R-intro.pdf, ..., docs/copyright


SDIST = Sdist(
    "r-doc-pdf",
    "4.2.2.20221110-2",
    "beb104ad5818d261f280a868294645ca31d7c63365f2c9a55aa3ca9aad5aa71d",
    wanted,
    "R-intro.pdf",
    url="https://deb.debian.org/debian/pool/main/r/r-base/r-doc-pdf_4.2.2.20221110-2_all.deb",
    place=place,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
