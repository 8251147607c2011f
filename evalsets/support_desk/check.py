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

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import blindset  # noqa: E402  (evalsets/blindset.py, the checks the blind sets share)

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

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|json|csv|toml|eml|html)):(\d+)")
DATA_CODE = re.compile(r"\.(json|csv|ya?ml|toml)$")
PROSE = re.compile(r"\.(md|eml|html)$")
FILES = blindset.Files(REF, DATA_CODE, PROSE, min_data_only=6, min_prose_only=14, data_label="data/config")


if __name__ == "__main__":
    sys.exit(blindset.check(HERE, "s", FILES, ABSENT, ABSENT_IN))
