#!/usr/bin/env python3
"""Check the support_desk evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/support_desk/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (s01..s36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 6 answerable rows answered only by data or config files (every gold file is *.json, *.csv,
  *.yaml/*.yml or *.toml) and at least 14 answered only by prose (every gold file is *.md, *.eml or *.html);
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
DOCS = HERE / "docs"
QUESTIONS = HERE / "questions.jsonl"

CATEGORIES = {"what", "when", "who", "how", "why", "where"}
KINDS = {"nonexistent_identifier", "wrong_figure", "swapped", "missing_feature"}
ANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"}
UNANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "kind", "why", "gold_answer"}
MIN_DATA_ONLY = 6
MIN_PROSE_ONLY = 14
MAX_SHARED_RUN = 4

# Patterns (regular expressions, case-insensitive, multi-line) that an unanswerable question's false premise
# relies on and that must match in no file.
ABSENT = {
    "u01": [r"MAC-05\d"],
    "u02": [r"escalation_keywords"],
    "u03": [r"\bE115\b"],
    "u04": [r"P1[^\n]{0,60}\b20 ?min", r"Urgent[^\n]{0,60}\b20 ?min"],
    "u05": [r"50,?000", r"\b50k\b"],
    "u06": [r"99\.99"],
    "u07": [r"(back|return\w*) to Helpbeam", r"from Casefold to Helpbeam"],
    "u08": [r"from 2 to 3 failed", r"3 failed answers instead of 2"],
    "u09": [r"from Solutions Engineering to Tier 2", r"Solutions Engineering (to|->|→) Tier 2"],
    "u10": [r"forum", r"communit", r"moderat"],
    "u11": [r"referr"],
    "u12": [r"\bSMS\b", r"text message", r"\btexting\b", r"\btext us\b"],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [
        ("mail/2025-11-26_helpdesk_move_to_casefold.eml", r"moving from Casefold"),
        ("meetings/2025-11-24.md", r"move from Casefold"),
        ("README.md", r"Helpbeam since"),
    ],
    "u08": [
        ("bot/pip_bot.yaml", r"max_failed_attempts:\s*3"),
        ("slack/support-team/2026-01-14.json", r"after 3 failed answers"),
        ("meetings/2026-01-12.md", r"after \*\*3\*\*"),
        ("meetings/2026-02-02.md", r"keep it at 3"),
    ],
    "u09": [
        ("meetings/2026-01-12.md", r"move from Solutions Engineering"),
        ("escalation/escalation_matrix.csv", r"SSO / SAML setup[^\n]*,Tier 2 \(Jude Hallam\)"),
        ("runbooks/troubleshooting.md", r"new setups[^\n]*go to Tier 2"),
    ],
}

BAD_NAMES = re.compile(
    r"^(secrets\..*|.*\.pem|.*\.key|id_rsa.*|\.env|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"npm-shrinkwrap\.json|bun\.lockb?|poetry\.lock|Pipfile\.lock|Cargo\.lock|Gemfile\.lock|composer\.lock|"
    r"go\.sum|.*\.lock)$"
)
REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|json|csv|toml|eml|html)):(\d+)")
DATA_CODE = re.compile(r"\.(json|csv|ya?ml|toml)$")
PROSE = re.compile(r"\.(md|eml|html)$")


def is_prose(path: str) -> bool:
    return bool(PROSE.search(path)) and not DATA_CODE.search(path)


def tokens(s: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", s.lower())


def longest_shared_run(q: str, texts: list[str]) -> int:
    qt = tokens(q)
    best = 0
    for n in range(1, len(qt) + 1):
        grams = {" ".join(qt[i : i + n]) for i in range(len(qt) - n + 1)}
        if any(" " + g + " " in t for g in grams for t in texts):
            best = n
        else:
            break
    return best


def is_line_passage(passage: str, text: str) -> bool:
    """A whole line without its leading indentation, or a contiguous run of lines (the first one may have
    its indentation left off)."""
    want = passage.split("\n")
    have = text.splitlines()
    for i in range(len(have) - len(want) + 1):
        if have[i].lstrip() != want[0].lstrip() or not have[i].endswith(want[0]):
            continue
        if all(have[i + k] == want[k] for k in range(1, len(want))):
            return True
    return False


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
    answerable = [r for r in rows if re.fullmatch(r"s\d\d", str(r.get("id")))]
    unanswerable = [r for r in rows if re.fullmatch(r"u\d\d", str(r.get("id")))]
    if sorted(r["id"] for r in answerable) != [f"s{i:02d}" for i in range(1, 37)]:
        errors.append("answerable ids must be s01..s36")
    if sorted(r["id"] for r in unanswerable) != [f"u{i:02d}" for i in range(1, 13)]:
        errors.append("unanswerable ids must be u01..u12")

    data_only: list[str] = []
    prose_only: list[str] = []
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
        if gold and all(DATA_CODE.search(g) for g in gold):
            data_only.append(rid)
        if gold and all(is_prose(g) for g in gold):
            prose_only.append(rid)
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
    if len(data_only) < MIN_DATA_ONLY:
        errors.append(f"only {len(data_only)} questions answered by data/config alone (need {MIN_DATA_ONLY})")
    if len(prose_only) < MIN_PROSE_ONLY:
        errors.append(f"only {len(prose_only)} questions answered by prose alone (need {MIN_PROSE_ONLY})")

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
    print(f"answered by data/config alone ({len(data_only)}):", ", ".join(data_only))
    print(f"answered by prose alone ({len(prose_only)}):", ", ".join(prose_only))
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
