#!/usr/bin/env python3
"""Check the course_materials evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/course_materials/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (c01..c36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 14 answerable rows answered only by data, config or code files (every gold file is *.csv,
  *.yaml/*.yml, *.toml, *.py, *.sql, *.R, *.bib or requirements.txt) and at least 14 answered only by prose
  (every gold file is *.md, *.tex, *.eml or a *.txt other than requirements.txt);
- unanswerable rows: category 'unanswerable', kind one of the four kinds (3 rows each), empty gold_sources,
  no supporting_passages, the premise patterns listed in ABSENT match in no file and those in ABSENT_IN match
  nowhere in the named file (case-insensitive);
- every `path:line` reference in gold_answer / why names an existing file and a line inside it;
- no question shares a run of five or more words with the corpus (lower-cased alphanumeric tokens);
- every file in docs/ is UTF-8 text, and none has a name a secrets scanner would skip (secrets.*, *.pem,
  *.key, id_rsa, .env, lock files such as package-lock.json, pnpm-lock.yaml, yarn.lock).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import blindset  # noqa: E402  (evalsets/blindset.py, the checks the blind sets share)

# Patterns (regular expressions, case-insensitive, multi-line) that an unanswerable question's false premise
# relies on and that must match in no file.
ABSENT = {
    "u01": [r"grace_period", r"grace period"],
    "u02": [r"\breserv"],
    "u03": [r"similarity_threshold", r"threshold", r"\[plagiarism\]"],
    "u04": [r"\b70 ?%", r"exam[^\n]*\b70\b"],
    "u05": [r"\b30 ?s(ec(ond)?s?)?\b", r"query_timeout_s\s*=\s*30"],
    "u06": [r"\b8th\b", r"eighth"],
    "u10": [r"\bpeer"],
    "u11": [r"\brecordings?\b", r"lecture capture", r"panopto", r"echo ?360"],
    "u12": [r"bonus", r"early submission", r"submitting early", r"submitted early"],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [
        ("mail/2026-01-08_room_change.eml", r"(move|moved|moving) (back )?(in)?to Kelvin"),
        ("meetings/2026-01-14.md", r"(move|moved|moving) (back )?(in)?to Kelvin"),
        ("mail/2026-01-08_room_change.eml", r"from Brindley"),
    ],
    "u08": [
        ("CHANGELOG.md", r"10 ?s to 5 ?s"),
        ("CHANGELOG.md", r"from 10 to 5"),
        ("meetings/2025-09-10.md", r"from 10 to 5"),
        ("autograder/config.toml", r"query_timeout_s\s*=\s*5\b"),
    ],
    "u09": [
        ("exams/exam_2026.tex", r"multiple.choice"),
        ("exams/exam_2026.tex", r"\bMCQ"),
    ],
}

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|toml|py|sql|R|bib|csv|tex|txt|eml)):(\d+)")
DATA_CODE = re.compile(r"(\.(csv|ya?ml|toml|py|sql|R|bib)|(^|/)requirements\.txt)$")
PROSE = re.compile(r"\.(md|tex|eml|txt)$")
FILES = blindset.Files(REF, DATA_CODE, PROSE, min_data_only=14, min_prose_only=14)


if __name__ == "__main__":
    sys.exit(blindset.check(HERE, "c", FILES, ABSENT, ABSENT_IN))
