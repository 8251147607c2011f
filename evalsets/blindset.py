"""The checks shared by the blind sets written by helpers in one layout (course_materials, research_lab,
game_studio, support_desk): each set's check.py gives its id prefix, its file kinds and its premise
patterns and calls `check`. What is checked is listed in each check.py's docstring. Standard library only.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

CATEGORIES = {"what", "when", "who", "how", "why", "where"}
KINDS = {"nonexistent_identifier", "wrong_figure", "swapped", "missing_feature"}
ANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"}
UNANSWERABLE_KEYS = {"id", "question", "gold_sources", "category", "kind", "why", "gold_answer"}
MAX_SHARED_RUN = 4

Absent = dict[str, list[str]]  # a question's id -> patterns its false premise relies on, in no file
AbsentIn = dict[str, list[tuple[str, str]]]  # a question's id -> (file, pattern) that file must not match


@dataclass(frozen=True)
class Files:
    """A set's files: `ref`, a `path:line` reference in an answer; `data_code` and `prose`, a gold file of
    data, config or code and one of prose; how many answerable questions each kind alone must answer."""

    ref: re.Pattern[str]
    data_code: re.Pattern[str]
    prose: re.Pattern[str]
    min_data_only: int
    min_prose_only: int
    data_label: str = "data/config/code"


BAD_NAMES = re.compile(
    r"^(secrets\..*|.*\.pem|.*\.key|id_rsa.*|\.env|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"npm-shrinkwrap\.json|bun\.lockb?|poetry\.lock|Pipfile\.lock|Cargo\.lock|Gemfile\.lock|composer\.lock|"
    r"go\.sum|.*\.lock)$"
)


def is_prose(path: str, files: Files) -> bool:
    return bool(files.prose.search(path)) and not files.data_code.search(path)


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


def check(here: Path, prefix: str, files: Files, absent: Absent, absent_in: AbsentIn) -> int:
    """Check the set in `here` (its docs/ and questions.jsonl): answerable ids `prefix`01..36, the file
    kinds `files`, the premise patterns `absent` (in no file) and `absent_in` (not in the named file).
    Prints the report and each error; returns the exit status."""
    docs, questions = here / "docs", here / "questions.jsonl"
    errors: list[str] = []

    texts: dict[str, str] = {}
    for p in sorted(docs.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(docs).as_posix()
        if BAD_NAMES.match(p.name):
            errors.append(f"file name a scanner would skip: {rel}")
        try:
            texts[rel] = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            errors.append(f"not UTF-8: {rel}")

    rows = []
    for n, line in enumerate(questions.read_text(encoding="utf-8").splitlines(), 1):
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
    answerable = [r for r in rows if re.fullmatch(prefix + r"\d\d", str(r.get("id")))]
    unanswerable = [r for r in rows if re.fullmatch(r"u\d\d", str(r.get("id")))]
    if sorted(r["id"] for r in answerable) != [f"{prefix}{i:02d}" for i in range(1, 37)]:
        errors.append(f"answerable ids must be {prefix}01..{prefix}36")
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
        if gold and all(files.data_code.search(g) for g in gold):
            data_only.append(rid)
        if gold and all(is_prose(g, files) for g in gold):
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
    if len(data_only) < files.min_data_only:
        need = files.min_data_only
        errors.append(f"only {len(data_only)} questions answered by {files.data_label} alone (need {need})")
    if len(prose_only) < files.min_prose_only:
        errors.append(
            f"only {len(prose_only)} questions answered by prose alone (need {files.min_prose_only})"
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
        for term in absent.get(rid, []):
            for rel, text in texts.items():
                if re.search(term, text, re.IGNORECASE | re.MULTILINE):
                    errors.append(f"{rid}: premise term {term!r} occurs in {rel}")
        for rel, term in absent_in.get(rid, []):
            if rel not in texts:
                errors.append(f"{rid}: ABSENT_IN names a missing file {rel}")
            elif re.search(term, texts[rel], re.IGNORECASE | re.MULTILINE):
                errors.append(f"{rid}: swapped premise {term!r} occurs in {rel}")
    for k in KINDS:
        if kinds[k] != 3:
            errors.append(f"expected 3 unanswerable rows of kind {k}, found {kinds[k]}")

    for r in rows:
        for field in ("gold_answer", "why"):
            for path, line in files.ref.findall(r.get(field, "")):
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
    print(f"answered by {files.data_label} alone ({len(data_only)}):", ", ".join(data_only))
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
