#!/usr/bin/env python3
"""Fetch the LaTeX author guides (PDF) this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/pdf_journal_guides/fetch.py

It downloads the pinned ``texlive-publishers-doc`` package (2022.20230122-4, Debian 12 "bookworm"; source
``texlive-extra``) from the Debian archive over HTTPS, checks its SHA-256 against the value below, and
extracts six PDFs from ``usr/share/doc/texlive-doc/latex/`` flat into ``docs/``: the MNRAS guide for authors
(``mnras/mnras_guide.pdf``), the ASME conference paper template (``asmeconf/asmeconf-template.pdf``), the
REVTeX 4.2 APS author guide (``revtex/aps/apsguide4-2.pdf``), the IEEEtran ``testflow`` documentation
(``ieeetran/testflow_doc.pdf``), the acmart user guide (``acmart/acmguide.pdf``) and the elsarticle
documentation (``elsarticle/elsdoc.pdf``), plus the package's copyright file as ``docs/copyright``. The
package's other documents are left out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)

DOC_DIR = PurePosixPath("share", "doc", "texlive-doc", "latex")  # below the package's usr/
GUIDES = (
    DOC_DIR / "mnras" / "mnras_guide.pdf",
    DOC_DIR / "asmeconf" / "asmeconf-template.pdf",
    DOC_DIR / "revtex" / "aps" / "apsguide4-2.pdf",
    DOC_DIR / "ieeetran" / "testflow_doc.pdf",
    DOC_DIR / "acmart" / "acmguide.pdf",
    DOC_DIR / "elsarticle" / "elsdoc.pdf",
)
COPYRIGHT = PurePosixPath("share", "doc", "texlive-publishers-doc", "copyright")


def wanted(rel: PurePosixPath) -> bool:
    """Which package members (path below its top folder, usr/) go into docs/."""
    return rel in GUIDES or rel == COPYRIGHT


def place(rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(rel.name)  # docs/mnras_guide.pdf, ..., docs/copyright


SDIST = Sdist(
    "texlive-publishers-doc",
    "2022.20230122-4",
    "9b632913d4b0d0871bef41c414fc7ce1167e3bacb55b140901df0c95df1c5765",
    wanted,
    "mnras_guide.pdf",
    url="https://deb.debian.org/debian/pool/main/t/texlive-extra/texlive-publishers-doc_2022.20230122-4_all.deb",
    place=place,
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
