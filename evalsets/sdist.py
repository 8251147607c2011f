"""Fetch a pinned source archive's files into an evaluation set's ``docs/`` folder (standard library only).

Each set's ``fetch.py`` names the archive (a PyPI sdist, or any tarball by URL, gzip or xz, such as an
npm package's tarball, or a Debian package's ``.deb``, whose ``data.tar`` is read), its SHA-256 and which
members it wants, then calls `fetch`: ``pip download`` (no dependencies, source only) or a plain HTTPS
download into a temporary folder, the SHA-256 checked, the wanted members extracted into ``docs/`` beside
that ``fetch.py`` with the sdist's own relative paths (or where the set's ``place`` puts them; with
``gunzip``, a ``.gz`` member decompressed, as Debian compresses the larger files of a doc package).
Idempotent: a stamp file (``.fetch-stamp.json``) records every extracted file with its SHA-256; if it
matches the pinned sdist and every file is present and unchanged, nothing is done, else ``docs/`` is
rebuilt from scratch. ``docs/`` and the stamp are git-ignored: third-party files are never committed.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class Sdist:
    name: str
    version: str
    sha256: str
    wanted: Callable[[PurePosixPath], bool]  # a member's path below the sdist's top folder -> keep it?
    must_hold: str  # a prefix some extracted path must start with (the expected layout)
    url: str | None = None  # the archive's address when it is not a PyPI sdist (an npm tarball, a .deb)
    # where a wanted member goes below docs/ (default: its own path below the archive's top folder)
    place: Callable[[PurePosixPath], PurePosixPath] | None = None
    gunzip: bool = False  # a wanted member named *.gz is written decompressed, without the suffix
    follow_links: bool = False  # a wanted symbolic link is written as the archive member it points to

    @property
    def file(self) -> str:
        return self.url.rsplit("/", 1)[-1] if self.url else f"{self.name}-{self.version}.tar.gz"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def already_complete(sdist: Sdist, docs: Path, stamp_file: Path) -> bool:
    if not stamp_file.is_file() or not docs.is_dir():
        return False
    try:
        stamp = json.loads(stamp_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if stamp.get("sdist_sha256") != sdist.sha256 or not stamp.get("files"):
        return False
    for rel, digest in stamp["files"].items():
        path = docs / rel
        if not path.is_file() or sha256_file(path) != digest:
            return False
    return True


def download(sdist: Sdist, tmp: Path) -> Path:
    if sdist.url:
        path = tmp / sdist.file
        print("downloading:", sdist.url)
        try:
            with urllib.request.urlopen(sdist.url, timeout=60) as response, path.open("wb") as out:
                shutil.copyfileobj(response, out)
        except (OSError, http.client.HTTPException) as exc:
            raise SystemExit(f"download of {sdist.url} failed: {exc}") from exc
        return path
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        f"{sdist.name}=={sdist.version}",
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
    path = tmp / sdist.file
    if not path.is_file():
        got = sorted(p.name for p in tmp.iterdir())
        raise SystemExit(f"pip download did not produce {sdist.file}; got {got}")
    return path


def deb_data(archive: Path) -> io.BytesIO:
    """The data.tar.* member of a Debian package (an `ar` archive: a global header, then members each
    behind a 60-byte header whose size field is decimal, padded to an even length)."""
    blob = archive.read_bytes()
    if not blob.startswith(b"!<arch>\n"):
        raise SystemExit(f"{archive.name} is not a Debian package (no ar header)")
    at = 8
    while at + 60 <= len(blob):
        header = blob[at : at + 60]
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        if name.startswith("data.tar"):
            return io.BytesIO(blob[at + 60 : at + 60 + size])
        at += 60 + size + (size % 2)
    raise SystemExit(f"{archive.name} holds no data.tar member")


def open_archive(archive: Path) -> tarfile.TarFile:
    if archive.suffix == ".deb":
        return tarfile.open(fileobj=deb_data(archive), mode="r:*")
    return tarfile.open(archive, "r:*")  # gzip, xz (a Debian .orig.tar.xz) or bzip2


def extract(sdist: Sdist, archive: Path, docs: Path) -> dict[str, str]:
    """Write the wanted members into a fresh docs/; return {relative path: sha256}."""
    staging = Path(tempfile.mkdtemp(prefix="docs.", dir=docs.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; docs/ should read like any checkout folder
    files: dict[str, str] = {}
    try:
        with open_archive(archive) as tar:
            for member in tar.getmembers():
                if not (member.isfile() or (sdist.follow_links and member.issym())):
                    continue
                path = PurePosixPath(member.name)
                if path.is_absolute() or ".." in path.parts or len(path.parts) < 2:
                    continue
                rel = PurePosixPath(*path.parts[1:])  # drop the top folder (name-version/, package/)
                if not sdist.wanted(rel):
                    continue
                source = tar.extractfile(member)
                if source is None:
                    continue
                data = source.read()
                if sdist.gunzip and rel.suffix == ".gz":  # Debian compresses larger files under doc/
                    data, rel = gzip.decompress(data), rel.with_suffix("")
                rel = sdist.place(rel) if sdist.place else rel
                target = staging.joinpath(*rel.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files[rel.as_posix()] = hashlib.sha256(data).hexdigest()
        if not any(rel.startswith(sdist.must_hold) for rel in files):
            raise SystemExit(f"{sdist.file} held nothing under {sdist.must_hold}: not the expected layout")
        if docs.exists():
            shutil.rmtree(docs)
        os.replace(staging, docs)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return dict(sorted(files.items()))


def fetch(sdist: Sdist, here: Path) -> int:
    """Bring `here`/docs in line with the pinned sdist (see the module's docstring); 0 when done."""
    docs, stamp_file = here / "docs", here / ".fetch-stamp.json"
    if already_complete(sdist, docs, stamp_file):
        count = len(json.loads(stamp_file.read_text(encoding="utf-8"))["files"])
        print(f"{docs} already holds {sdist.name} {sdist.version} ({count} files, verified); nothing to do.")
        return 0
    with tempfile.TemporaryDirectory(prefix=f"{sdist.name}-sdist.") as tmp:
        archive = download(sdist, Path(tmp))
        actual = sha256_file(archive)
        if actual != sdist.sha256:
            raise SystemExit(f"SHA-256 mismatch for {sdist.file}: expected {sdist.sha256}, got {actual}")
        print(f"verified {sdist.file} sha256 {actual}")
        files = extract(sdist, archive, docs)
    stamp = {"name": sdist.name, "version": sdist.version, "sdist_sha256": sdist.sha256, "files": files}
    stamp_file.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    print(f"extracted {len(files)} files into {docs}")
    return 0
