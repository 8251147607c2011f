#!/usr/bin/env python3
"""Check the town_council evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/town_council/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (s01..s36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 6 answerable rows answered only by data or config files (every gold file is *.csv, *.json,
  *.yaml/*.yml or *.toml) and at least 14 answered only by prose (every gold file is *.md, *.txt, *.eml or
  *.html);
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
    "u01": [r"25/214", r"\b25/2\d\d\b"],
    "u02": [r"\bCG-?3\b"],
    "u03": [r"^420,", r"cost cent(re|er) 420", r"\bcc ?420\b", r"\"cost_centre\": ?\"?420"],
    "u04": [
        r"quorum[^\n]{0,60}\b(5|five)\b",
        r"\b(5|five) (councillors|members)[^\n]{0,40}quor",
        r"\bfive councillors\b",
    ],
    "u05": [r"£48\b", r"\b48\.00\b", r"\b48 (a|per) (year|plot)"],
    "u06": [r"\b(2|two) minutes\b", r"\b2 ?min\b"],
    "u07": [
        r"Kowalczyk[^\n]{0,80}(resign|stood down|step\w* down|hand\w* over)",
        r"Aldridge[^\n]{0,40}(took over|took the chair|succeed|replac)",
        r"from (Cllr )?(Nina )?Kowalczyk to (Cllr )?(Tom )?Aldridge",
    ],
    "u08": [
        r"(reduc|lower|cut)\w*[^\n]{0,40}\b(hire|hall) (charge|rate|price)s?",
        r"\b(hire|hall) (charge|rate|price)s?[^\n]{0,40}\b(reduc|lower|cut|fell|went down)",
    ],
    "u09": [
        r"\bresidents[^\n]{0,40}(double|twice)[^\n]{0,40}non-residents",
        r"non-residents?[^\n]{0,40}\bhalf\b",
        r"residents? pay (double|twice)",
    ],
    "u10": [r"\bpitch(es)?\b", r"sports? (ground|field) hire"],
    "u11": [r"live-? ?stream", r"\bstream(ed|ing)?\b", r"\bzoom\b", r"webcast", r"watch[^\n]{0,30}online"],
    "u12": [r"\bstalls?\b", r"market trader", r"street trading", r"\bmarket (day|licen)"],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [
        ("minutes/planning/2025-10-07.md", r"RESOLVED that Cllr (Tom )?Aldridge is chair"),
        ("minutes/planning/2025-10-07.md", r"Kowalczyk[^\n]{0,60}(accepted a post|resign)"),
        ("minutes/full_council/2025-10-16.md", r"Cllr Kowalczyk had written"),
        ("minutes/full_council/2025-10-16.md", r"elected Cllr Aldridge"),
    ],
    "u08": [
        ("minutes/full_council/2025-11-20.md", r"standard £22 \(was £25\)"),
        ("minutes/full_council/2025-11-20.md", r"community rate £15 \(was £16\)"),
        ("website/hall_booking.yaml", r"standard: 22\.00\s*#"),
        ("website/hall_booking.yaml", r"was 25\.00"),
    ],
    "u09": [
        ("amenities/cemetery_fees.txt", r"half the resident"),
        ("amenities/cemetery_fees.txt", r"full grave is £325"),
        ("minutes/full_council/2026-01-15.md", r"half the (non-)?resident"),
    ],
}

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|txt|eml|html|csv|json|ya?ml|toml)):(\d+)")
DATA_CODE = re.compile(r"\.(csv|json|ya?ml|toml)$")
PROSE = re.compile(r"\.(md|txt|eml|html)$")
FILES = blindset.Files(REF, DATA_CODE, PROSE, min_data_only=6, min_prose_only=14, data_label="data/config")


if __name__ == "__main__":
    sys.exit(blindset.check(HERE, "s", FILES, ABSENT, ABSENT_IN))
