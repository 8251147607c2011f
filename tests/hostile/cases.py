"""Hostile folders, generated: every case from the hostile-input campaign as a function that builds it.

Small sizes by default (CI); CITELINE_HOSTILE_FULL=1 builds the sizes the campaign used (a 3 MB one-line
JSON, a 16 MB CSV, a 19 MB one-line file, a 200 MB-inflating DOCX). tests/hostile/ runs them against the
engine; `python -m tests.hostile.bench` reports time and peak memory per case.
"""

from __future__ import annotations

import os
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

FULL = os.environ.get("CITELINE_HOSTILE_FULL") == "1"


def size(small: int, full: int) -> int:
    return full if FULL else small


def bad_names(root: Path) -> list[Path]:
    """File names that are not valid UTF-8, or hold a newline or a tab (POSIX only)."""
    base = os.fsencode(root)
    made = []
    for name in (b"bad\xffname.md", b"new\nline.md", b"tab\tand\x01ctl.txt", b"\xe9t\xe9-latin1.md"):
        path = os.path.join(base, name)
        with open(path, "wb") as handle:
            handle.write(b"The okapi ledger lists " + name.replace(b"\n", b" ") + b" as its source.\n")
        made.append(Path(os.fsdecode(path)))
    return made


def minified_json(root: Path) -> Path:
    """One line of JSON where a searched word matches thousands of times."""
    rng = random.Random(7)
    items = []
    while sum(len(i) for i in items) < size(100_000, 3_000_000):
        items.append(f'{{"id":{len(items)},"name":"okapi {rng.randrange(10**6)}","tags":["okapi","zebra"]}}')
    path = root / "bundle.min.json"
    path.write_text("[" + ",".join(items) + "]", encoding="utf-8")
    return path


def big_csv(root: Path) -> Path:
    """A table far larger than a chunk: many short rows."""
    path = root / "events.csv"
    rows = size(20_000, 400_000)
    with path.open("w", encoding="utf-8") as handle:
        handle.write("id,when,kind,amount,note\n")
        for n in range(rows):
            handle.write(f"{n},2026-01-{n % 28 + 1:02d},okapi{n % 7},{n * 3 % 1000},row {n} of the log\n")
    return path


def one_line(root: Path) -> Path:
    """A single line of plain text bigger than any chunk (a log or dump without newlines)."""
    path = root / "dump.txt"
    words = ("okapi", "ledger", "zebra", "harbour", "quartz", "meadow")
    rng = random.Random(3)
    target = size(400_000, 19_000_000)
    parts, total = [], 0
    while total < target:
        word = rng.choice(words)
        parts.append(word)
        total += len(word) + 1
    path.write_text(" ".join(parts), encoding="utf-8")
    return path


def docx_bomb(root: Path) -> Path:
    """A valid DOCX whose document.xml inflates far beyond the file's size (highly repetitive XML)."""
    import io

    import docx

    seed = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("okapi")
    document.save(seed)
    path = root / "bomb.docx"
    inflated = size(30_000_000, 200_000_000)
    para = b"<w:p><w:r><w:t>okapi okapi okapi okapi</w:t></w:r></w:p>"
    with zipfile.ZipFile(seed) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for item in source.infolist():
            if item.filename != "word/document.xml":
                z.writestr(item, source.read(item))
                continue
            original = source.read(item)
            head, tail = original.split(b"<w:body>", 1)
            with z.open("word/document.xml", "w", force_zip64=True) as member:
                member.write(head + b"<w:body>")
                block = para * 10_000
                for _ in range(inflated // len(block)):
                    member.write(block)
                member.write(tail)
    return path


CASES: dict[str, Callable[[Path], object]] = {
    "bad_names": bad_names,
    "minified_json": minified_json,
    "big_csv": big_csv,
    "one_line": one_line,
    "docx_bomb": docx_bomb,
}
