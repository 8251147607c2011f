#!/usr/bin/env python3
"""Fetch the LaTeX sources this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/latex_base_docs/fetch.py

It downloads the pinned ``texlive-latex-base-doc`` package (2022.20230122-3, Debian 12 "bookworm"; source
``texlive-base``) from the Debian archive over HTTPS, checks its SHA-256 against the value below, and
extracts the LaTeX sources of the LaTeX Project's own documentation, flat into ``docs/``: the 36 issues
of *LaTeX News* (``ltnews01.tex`` ... ``ltnews36.tex``) and the guides of ``latex/base`` (``usrguide``,
``usrguide-historic``, ``clsguide``, ``fntguide``, ``encguide``, ``cfgguide``, ``modguide``, ``cyrguide``,
``ltx3info``), with the user guides of ``amsmath`` (``amsldoc.tex``), ``graphics`` (``grfguide.tex``) and
``hyperref`` (``hyperref-doc.tex``). Debian gzips the larger ones: they are written decompressed as
``.tex``. The package's copyright file goes to ``docs/copyright``. The PDFs, the drivers that only
``\\input`` other files and everything else are left out. Idempotent, and ``docs/`` is git-ignored
(evalsets/sdist.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

DOC = PurePosixPath("share", "doc", "texlive-doc", "latex")  # below the package's usr/
COPYRIGHT = PurePosixPath("share", "doc", "texlive-latex-base-doc", "copyright")
BASE = re.compile(r"(?:ltnews\d\d|(?:usr|cls|fnt|enc|cfg|mod|cyr)guide|usrguide-historic|ltx3info)\.tex")
GUIDES = {
    DOC / "amsmath" / "amsldoc.tex",
    DOC / "graphics" / "grfguide.tex",
    DOC / "hyperref" / "hyperref-doc.tex",
}


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    if rel == COPYRIGHT:
        return True
    plain = rel.with_suffix("") if rel.suffix == ".gz" else rel
    return (plain.parent == DOC / "base" and bool(BASE.fullmatch(plain.name))) or plain in GUIDES


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(rel.name)  # docs/ltnews01.tex, ..., docs/copyright


SDIST = Sdist(
    "texlive-latex-base-doc",
    "2022.20230122-3",
    "122dbbe00bd22f872b1837eb86bd76fbac6ec84dd4f5f0c76cc9c18484485848",
    wanted,
    "usrguide.tex",
    url="https://deb.debian.org/debian/pool/main/t/texlive-base/texlive-latex-base-doc_2022.20230122-3_all.deb",
    place=place,
    gunzip=True,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
