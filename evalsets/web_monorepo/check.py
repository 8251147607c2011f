#!/usr/bin/env python3
"""Check the web_monorepo evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/web_monorepo/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (c01..c36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 12 answerable rows answered only by JSON config files (every gold file is *.json or .prettierrc)
  and at least 8 answered only by TypeScript code (every gold file is *.ts or *.tsx);
- unanswerable rows: category 'unanswerable', kind one of the four kinds (3 rows each), empty gold_sources,
  no supporting_passages, the premise patterns listed in ABSENT match in no file and those in ABSENT_IN match
  nowhere in the named file (case-insensitive);
- every `path:line` reference in gold_answer / why names an existing file and a line inside it;
- no question shares a run of five or more words with the corpus (lower-cased alphanumeric tokens);
- every file in docs/ is UTF-8 text, and none has a name a secrets scanner would skip (secrets.*, *.pem,
  *.key, id_rsa, .env, lock files such as package-lock.json, pnpm-lock.yaml, yarn.lock).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from blindset import is_line_passage, longest_shared_run, tokens  # noqa: E402  (evalsets/blindset.py: the helpers the sets' checks share)

DOCS = HERE / "docs"
QUESTIONS = HERE / "questions.jsonl"

CATEGORIES = {"what", "when", "who", "how", "why", "where"}
KINDS = {"nonexistent_identifier", "wrong_figure", "swapped", "missing_feature"}
ANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"}
UNANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "kind", "why", "gold_answer"}
MIN_JSON_ONLY = 12
MIN_CODE_ONLY = 8
MAX_SHARED_RUN = 4

# Patterns (regular expressions, case-insensitive, multi-line) that an unanswerable question's false premise
# relies on and that must match in no file.
ABSENT = {
    "u01": [r"analytics"],
    "u02": [r"preview"],
    "u03": [r"coupon", r"promo", r"discount", r"voucher"],
    "u04": [r"\b19\.\d+\.\d+", r"react@?\s*19\b"],
    "u05": [r"\b300\b"],
    "u06": [r"\b48\b", r"48 ?h"],
    "u08": [r"access token[^\n]*(30 days|a month)", r"refresh token[^\n]*15 ?min"],
    "u10": [r"JWT_SECRET=(?!change-me)", r"PRIVATE KEY"],
    "u11": [r"dark", r"color-?scheme", r"theme"],
    "u12": [
        r"2fa",
        r"two[- ]?factor",
        r"\bmfa\b",
        r"totp",
        r"\botp\b",
        r"authenticator",
        r"one-time (code|password)",
    ],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [("apps/web/vitest.config.ts", r"threshold")],
    "u08": [
        ("apps/api/src/auth/tokens.ts", r"ACCESS_TOKEN_TTL\w*\s*=\s*30\b"),
        ("apps/api/src/auth/tokens.ts", r"REFRESH_TOKEN_TTL\w*\s*=\s*15\b"),
    ],
    "u09": [
        ("apps/api/package.json", r"3100"),
        ("apps/api/src/config.ts", r"3100"),
        ("apps/web/package.json", r"4000"),
    ],
}

BAD_NAMES = re.compile(
    r"^(secrets\..*|.*\.pem|.*\.key|id_rsa.*|\.env|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"npm-shrinkwrap\.json|bun\.lockb?|poetry\.lock|Pipfile\.lock|Cargo\.lock|Gemfile\.lock|composer\.lock|"
    r"go\.sum|.*\.lock)$"
)
REF = re.compile(
    r"((?:[\w.-]+/)*(?:[\w.-]+\.(?:md|ya?ml|json|tsx?|js|prisma|sql|example)|"
    r"\.prettierrc|\.nvmrc|CODEOWNERS|Dockerfile)):(\d+)"
)
JSON_CONFIG = re.compile(r"(\.json|(^|/)\.prettierrc)$")
TS_CODE = re.compile(r"\.tsx?$")


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

    json_only: list[str] = []
    code_only: list[str] = []
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
        if gold and all(JSON_CONFIG.search(g) for g in gold):
            json_only.append(rid)
        if gold and all(TS_CODE.search(g) for g in gold):
            code_only.append(rid)
        passages = r.get("supporting_passages") or []
        if not 1 <= len(passages) <= 2:
            errors.append(f"{rid}: expected 1-2 supporting passages, found {len(passages)}")
        for passage in passages:
            if not passage.strip():
                errors.append(f"{rid}: blank passage")
            elif not any(passage in texts.get(g, "") for g in gold):
                errors.append(f"{rid}: passage not verbatim in {gold}: {passage!r}")
            elif not any(is_line_passage(passage, texts.get(g, "")) for g in gold):
                errors.append(f"{rid}: passage is not a whole line / run of lines: {passage!r}")
    if len(json_only) < MIN_JSON_ONLY:
        errors.append(f"only {len(json_only)} questions answered by JSON config alone (need {MIN_JSON_ONLY})")
    if len(code_only) < MIN_CODE_ONLY:
        errors.append(
            f"only {len(code_only)} questions answered by TypeScript code alone (need {MIN_CODE_ONLY})"
        )

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
        for rel, term in ABSENT_IN.get(rid, []):
            if rel not in texts:
                errors.append(f"{rid}: ABSENT_IN names a missing file {rel}")
            elif re.search(term, texts[rel], re.IGNORECASE | re.MULTILINE):
                errors.append(f"{rid}: swapped premise {term!r} occurs in {rel}")
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

    corpus = [" " + " ".join(tokens(t)) + " " for t in texts.values()]
    runs = {r["id"]: longest_shared_run(r.get("question", ""), corpus) for r in rows}
    for rid, n in runs.items():
        if n > MAX_SHARED_RUN:
            errors.append(f"{rid}: question shares a run of {n} words with the corpus")

    # report (not errors)
    print("categories:", dict(Counter(r.get("category") for r in answerable)))
    print("kinds:", dict(kinds))
    print(f"answered by JSON config alone ({len(json_only)}):", ", ".join(json_only))
    print(f"answered by TypeScript code alone ({len(code_only)}):", ", ".join(code_only))
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
    print(f"{len(texts)} files, {sum(len(t.splitlines()) for t in texts.values())} lines")

    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
