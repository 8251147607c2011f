#!/usr/bin/env python3
"""Check the infra_ops evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/infra_ops/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (c01..c36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files;
- unanswerable rows: category 'unanswerable', kind one of the four kinds (3 rows each), empty gold_sources,
  no supporting_passages, and the premise patterns listed in ABSENT match in no file (case-insensitive);
- every `path:line` reference in gold_answer / why names an existing file and a line inside it;
- every file in docs/ is UTF-8 text, and none has a name a secrets scanner would skip (secrets.*, *.pem,
  *.key, id_rsa, .env, lock files).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from blindset import longest_shared_run, tokens  # noqa: E402  (evalsets/blindset.py: the helpers the sets' checks share)

DOCS = HERE / "docs"
QUESTIONS = HERE / "questions.jsonl"

CATEGORIES = {"what", "when", "who", "how", "why", "where"}
KINDS = {"nonexistent_identifier", "wrong_figure", "swapped", "missing_feature"}
ANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"}
UNANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "kind", "why", "gold_answer"}

# Patterns (regular expressions, case-insensitive) that an unanswerable question's false premise relies on and
# that must match in no file.
ABSENT = {
    "u01": [r"audit[-_ ]logs?"],
    "u02": [r"notification"],
    "u03": [r"invoice[-_]sync"],
    "u04": [r"\b4Gi\b", r"\b4096Mi\b"],
    "u05": [r"\b100 ?m\b", r"\b100 ?mb\b"],
    "u06": [r"\b21:00\b", r"\b9 ?pm\b", r"^\s*0 21 "],
    "u10": [r"password\s*=\s*\"", r"master_password"],
    "u11": [r"£", r"\$ ?\d{2,}", r"\bUSD\b", r"per month", r"\bcosts? (us )?about\b"],
    "u12": [r"\bSLA\b", r"\buptime\b", r"99\.9"],
}

BAD_NAMES = re.compile(
    r"^(secrets\..*|.*\.pem|.*\.key|id_rsa.*|\.env|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"poetry\.lock|Pipfile\.lock|Cargo\.lock|Gemfile\.lock|composer\.lock|go\.sum|.*\.lock)$"
)
REF = re.compile(
    r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|tf|tfvars|hcl|toml|conf|sh|ini|crontab|example)|"
    r"(?:[\w.-]+/)*(?:Makefile|Dockerfile|nginx)):(\d+)"
)


def main() -> int:
    errors: list[str] = []

    texts: dict[str, str] = {}
    for p in sorted(DOCS.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(DOCS).as_posix()
        if BAD_NAMES.match(p.name):
            errors.append(f"file name a scanner would skip: {rel}")
        try:
            texts[rel] = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            errors.append(f"not UTF-8: {rel}")

    rows = []
    for n, line in enumerate(QUESTIONS.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                errors.append(f"questions.jsonl line {n}: bad JSON ({e})")
    if len(rows) != 48:
        errors.append(f"expected 48 rows, found {len(rows)}")
    ids = [r.get("id") for r in rows]
    for i, n in Counter(ids).items():
        if n > 1:
            errors.append(f"duplicate id {i}")
    answerable = [r for r in rows if re.fullmatch(r"c\d\d", str(r.get("id")))]
    unanswerable = [r for r in rows if re.fullmatch(r"u\d\d", str(r.get("id")))]
    if sorted(r["id"] for r in answerable) != [f"c{i:02d}" for i in range(1, 37)]:
        errors.append("answerable ids must be c01..c36")
    if sorted(r["id"] for r in unanswerable) != [f"u{i:02d}" for i in range(1, 13)]:
        errors.append("unanswerable ids must be u01..u12")

    for r in answerable:
        rid = r["id"]
        if set(r) != ANSWERABLE_KEYS:
            errors.append(f"{rid}: keys {sorted(r)} != {sorted(ANSWERABLE_KEYS)}")
        for k in ANSWERABLE_KEYS:
            if r.get(k) in ("", [], None):
                errors.append(f"{rid}: empty field {k}")
        if r.get("category") not in CATEGORIES:
            errors.append(f"{rid}: bad category {r.get('category')!r}")
        gold = r.get("gold_sources") or []
        if len(set(gold)) != len(gold):
            errors.append(f"{rid}: duplicate gold source")
        for g in gold:
            if g not in texts:
                errors.append(f"{rid}: gold file does not exist: {g}")
        passages = r.get("supporting_passages") or []
        if not 1 <= len(passages) <= 2:
            errors.append(f"{rid}: expected 1-2 supporting passages, found {len(passages)}")
        for passage in passages:
            if not passage.strip():
                errors.append(f"{rid}: blank passage")
            elif not any(passage in texts.get(g, "") for g in gold):
                errors.append(f"{rid}: passage not verbatim in {gold}: {passage!r}")

    kinds = Counter()
    for r in unanswerable:
        rid = r["id"]
        if set(r) != UNANSWERABLE_KEYS:
            errors.append(f"{rid}: keys {sorted(r)} != {sorted(UNANSWERABLE_KEYS)}")
        for k in ("question", "kind", "why", "gold_answer"):
            if not r.get(k):
                errors.append(f"{rid}: empty field {k}")
        if r.get("gold_sources") != []:
            errors.append(f"{rid}: unanswerable row must have empty gold_sources")
        if r.get("category") != "unanswerable":
            errors.append(f"{rid}: category must be 'unanswerable'")
        if r.get("kind") not in KINDS:
            errors.append(f"{rid}: bad kind {r.get('kind')!r}")
        kinds[r.get("kind")] += 1
        for term in ABSENT.get(rid, []):
            for rel, text in texts.items():
                if re.search(term, text, re.IGNORECASE | re.MULTILINE):
                    errors.append(f"{rid}: premise term {term!r} occurs in {rel}")
    for k in KINDS:
        if kinds[k] != 3:
            errors.append(f"expected 3 unanswerable rows of kind {k}, found {kinds[k]}")

    for r in rows:
        for field in ("gold_answer", "why"):
            for path, line in REF.findall(r.get(field, "")):
                if path not in texts:
                    errors.append(f"{r.get('id')}: {field} cites missing file {path}")
                elif not 1 <= int(line) <= len(texts[path].splitlines()):
                    errors.append(f"{r.get('id')}: {field} cites {path}:{line}, past the end of the file")

    # report (not errors)
    corpus = [" " + " ".join(tokens(t)) + " " for t in texts.values()]
    runs = {r["id"]: longest_shared_run(r.get("question", ""), corpus) for r in rows}
    print("categories:", dict(Counter(r.get("category") for r in answerable)))
    print("kinds:", dict(kinds))
    print(
        "first gold file:",
        dict(
            Counter(
                Path(r["gold_sources"][0]).suffix or Path(r["gold_sources"][0]).name
                for r in answerable
                if r.get("gold_sources")
            )
        ),
    )
    print(
        "longest run of words shared by a question and the corpus:",
        dict(sorted(Counter(runs.values()).items())),
    )
    long_runs = [f"{i}({n})" for i, n in runs.items() if n >= 5]
    if long_runs:
        print("questions sharing 5+ consecutive words with the corpus:", ", ".join(long_runs))
    print(f"{len(texts)} files, {sum(len(t.splitlines()) for t in texts.values())} lines")

    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
