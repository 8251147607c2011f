#!/usr/bin/env python3
"""Fetch the executed statsmodels example notebooks this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/notebooks_statsmodels/fetch.py

It downloads the pinned ``python-statsmodels-doc`` package (0.13.5+dfsg-7, Debian 12 "bookworm"; source
``statsmodels``) from the Debian archive over HTTPS, checks its SHA-256 against the value below, and
extracts the example notebooks as the documentation build executed them, with their outputs (printed
results, tables, warnings and plots), from ``usr/share/doc/python-statsmodels-doc/html/examples/
notebooks/generated/``, flat into ``docs/``. Debian gzips the larger ones: they are written decompressed
as ``.ipynb``. The 21 the build could not execute are links to the plain copies, written as those copies.
The package's copyright file goes to ``docs/copyright``. The unexecuted copies, the HTML pages and
everything else are left out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

DOC = PurePosixPath("share", "doc", "python-statsmodels-doc")  # below the package's usr/
NOTEBOOKS = DOC / "html" / "examples" / "notebooks" / "generated"


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    if rel == DOC / "copyright":
        return True
    return rel.parent == NOTEBOOKS and rel.name.endswith((".ipynb", ".ipynb.gz"))


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(rel.name)  # docs/ols.ipynb, ..., docs/copyright


SDIST = Sdist(
    "python-statsmodels-doc",
    "0.13.5+dfsg-7",
    "4167a3e13347343b9f0a6677fc804ecad80dd735d17bc051829610f6f1bc2afb",
    wanted,
    "ols.ipynb",
    url="https://deb.debian.org/debian/pool/main/s/statsmodels/python-statsmodels-doc_0.13.5+dfsg-7_all.deb",
    place=place,
    gunzip=True,
    follow_links=True,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
