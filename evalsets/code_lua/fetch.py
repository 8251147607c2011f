#!/usr/bin/env python3
"""Fetch the Lua 5.4 source and reference manual this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_lua/fetch.py

It downloads the pinned upstream tarball of Lua 5.4.4 (the reference interpreter, written in C) from the
Debian archive over HTTPS (``lua5.4_5.4.4.orig.tar.gz``, the upstream release as Debian 12 "bookworm"
packages it), checks its SHA-256 against the value below, and extracts the C sources and headers
(``src/*.c``, ``src/*.h``) and two pages of the documentation (``doc/manual.html``, the reference manual, and
``doc/readme.html``, which ends with the MIT license text) into ``docs/``, keeping the tarball's relative
paths. The Makefiles, ``src/lua.hpp``, the man pages, the other HTML page, the CSS and the images are left
out. Idempotent, and ``docs/`` is git-ignored (evalsets/sdist.py).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sdist import Sdist, fetch  # noqa: E402  (evalsets/sdist.py, beside this set's folder)


def wanted(rel: PurePosixPath) -> bool:
    """Which tarball members (path below its top folder, lua-5.4.4/) go into docs/."""
    if len(rel.parts) != 2:
        return False
    if rel.parts[0] == "doc":
        return rel.name in ("manual.html", "readme.html")
    return rel.parts[0] == "src" and rel.suffix in (".c", ".h")


SDIST = Sdist(
    "lua5.4",
    "5.4.4",
    "164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61",
    wanted,
    "src/",
    url="https://deb.debian.org/debian/pool/main/l/lua5.4/lua5.4_5.4.4.orig.tar.gz",
)

if __name__ == "__main__":
    raise SystemExit(fetch(SDIST, HERE))
