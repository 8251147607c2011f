#!/usr/bin/env python3
"""Check a documentation set's questions.jsonl against its fetched docs/ (run its fetch.py first): 40 rows,
unique ids, each answerable question's gold files present and its supporting passages verbatim in them,
unanswerable rows without sources or passages. For the sets whose every row names its `kind`
(docs_structlog, docs_marshmallow; tests/test_evalsets.py checks every set's passages). Standard library
only.

    python3 evalsets/validate.py evalsets/docs_marshmallow
"""

import json
import sys
from collections import Counter
from pathlib import Path

if len(sys.argv) != 2:
    raise SystemExit("usage: python3 evalsets/validate.py SET_FOLDER")
HERE = Path(sys.argv[1]).resolve()
DOCS = HERE / "docs"
KEYS = {"id", "question", "category", "kind", "gold_sources", "gold_answer"}
errors = []
rows = []
for n, line in enumerate((HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines(), 1):
    try:
        rows.append(json.loads(line))
    except ValueError as exc:
        errors.append(f"line {n}: {exc}")
ids = [r["id"] for r in rows]
if len(rows) != 40 or len(set(ids)) != 40:
    errors.append(f"{len(rows)} rows, {len(set(ids))} unique ids")
for r in rows:
    missing = KEYS - r.keys()
    if missing:
        errors.append(f"{r.get('id')}: missing {missing}")
        continue
    if r["kind"] == "answerable":
        if r["category"] not in ("how", "why", "where", "what") or not r["gold_sources"]:
            errors.append(f"{r['id']}: bad category/sources")
        texts = []
        for src in r["gold_sources"]:
            p = DOCS / src
            if not p.is_file():
                errors.append(f"{r['id']}: gold source {src} missing")
            else:
                texts.append(p.read_text(encoding="utf-8"))
        sp = r.get("supporting_passages") or []
        if not 1 <= len(sp) <= 2:
            errors.append(f"{r['id']}: {len(sp)} passages")
        for passage in sp:
            if not any(passage in t for t in texts):
                errors.append(f"{r['id']}: passage not verbatim: {passage[:60]!r}")
    else:
        if (
            r["kind"] not in ("absent", "false_premise")
            or r["category"] != "unanswerable"
            or r["gold_sources"]
        ):
            errors.append(f"{r['id']}: bad unanswerable row")
        if "supporting_passages" in r:
            errors.append(f"{r['id']}: unanswerable with passages")
print(
    Counter(r.get("kind") for r in rows),
    Counter(r.get("category") for r in rows if r.get("kind") == "answerable"),
)
print("answerable gold files:", len({s for r in rows for s in r["gold_sources"]}))
print("\n".join(errors) or "OK")
sys.exit(1 if errors else 0)
