#!/usr/bin/env python3
"""An evaluation set's Markdown files in another document format: the same questions over the same text,
to measure what a reader keeps of it.

    python3 evalsets/formats.py evalsets/docs_black odt /tmp/black_odt   # or docx epub pptx rtf org asciidoc
    .venv/bin/citeline eval /tmp/black_odt --modes hybrid --answers

Each ``.md`` file under the set's ``docs/`` is converted by pandoc (Debian's ``pandoc`` package; the
only thing this needs beyond the standard library) into OUT/docs/ under the same name with the new
suffix; every other file is copied as it is, and so is a Markdown file pandoc cannot convert (one that
links an image on the web: nothing is fetched). OUT/questions.jsonl is the set's, its ``gold_sources``
renamed to match. The set's own folder is never written to.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

FORMATS = ("odt", "docx", "epub", "pptx", "rtf", "org", "asciidoc")
SUFFIXES = {"asciidoc": "adoc"}  # a format's files' suffix, where it is not the format's name


def convert(source: Path, fmt: str, out: Path) -> dict[str, str]:
    """Write the converted set to `out` (replacing it); the gold names renamed, old to new."""
    if fmt not in FORMATS:
        raise SystemExit(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    if shutil.which("pandoc") is None:
        raise SystemExit("pandoc is not installed (Debian: apt-get install pandoc)")
    docs = source / "docs"
    if not (docs.is_dir() and (source / "questions.jsonl").is_file()):
        raise SystemExit(f"{source} has no docs/ and questions.jsonl: fetch the set first")
    if out.exists():
        shutil.rmtree(out)
    renamed: dict[str, str] = {}
    for path in sorted(p for p in docs.rglob("*") if p.is_file()):
        rel = path.relative_to(docs)
        target = out / "docs" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() not in (".md", ".markdown"):
            shutil.copy2(path, target)
            continue
        target = target.with_suffix("." + SUFFIXES.get(fmt, fmt))
        command = ["pandoc", "-f", "markdown", "-t", fmt, "-o", str(target), str(path)]
        command += ["--resource-path", str(path.parent)]
        if fmt == "epub":  # a book needs a title: its file's name
            command += ["--metadata", f"title={path.stem}"]
        if fmt in ("rtf", "asciidoc", "org"):  # a whole document (its title too), not a fragment
            command += ["--standalone"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        if done.returncode:
            print(f"kept as Markdown: {rel} ({done.stderr.strip().splitlines()[-1][:160]})", file=sys.stderr)
            target.unlink(missing_ok=True)
            shutil.copy2(path, out / "docs" / rel)
            continue
        renamed[rel.as_posix()] = target.relative_to(out / "docs").as_posix()
    with (source / "questions.jsonl").open(encoding="utf-8") as given:
        records = [json.loads(line) for line in given if line.strip()]
    with (out / "questions.jsonl").open("w", encoding="utf-8") as written:
        for record in records:
            record["gold_sources"] = [renamed.get(gold, gold) for gold in record.get("gold_sources", [])]
            written.write(json.dumps(record, ensure_ascii=False) + "\n")
    return renamed


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    renamed = convert(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]))
    print(f"{len(renamed)} Markdown files converted to {sys.argv[2]} in {sys.argv[3]}")


if __name__ == "__main__":
    main()
