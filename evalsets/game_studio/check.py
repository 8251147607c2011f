#!/usr/bin/env python3
"""Check the game_studio evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/game_studio/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (g01..g36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 14 answerable rows answered only by data, config or code files (every gold file is *.cs, *.json,
  *.csv, *.yaml/*.yml, *.ini or *.cfg) and at least 14 answered only by prose (every gold file is *.md, *.eml
  or *.txt);
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
    "u01": [r"elemental", r"resistan"],
    "u02": [r"motion.?blur"],
    "u03": [r"enrag"],
    "u04": [
        r"MaxLevel\s*=\s*40",
        r"level cap[^\n]{0,30}\b40\b",
        r"cap is (now )?(\*\*)?40",
        r"\blevel 40\b",
        r"\blv\. ?40\b",
    ],
    "u05": [r"(save|format|migrat)\w*[^\n]{0,20}\bv(ersion )?4\b", r"V3ToV4", r"CurrentSaveVersion\s*=\s*4"],
    "u06": [r"2\.5\s*x", r"2\.5f", r"\b250 ?%", r"CritMultiplier\s*=\s*2\.5"],
    "u10": [r"\bco-?op\b", r"multiplayer", r"matchmak", r"online play"],
    "u11": [r"photo.?mode"],
    "u12": [r"cloud", r"cross.?save", r"cross.?progress"],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [
        ("Assets/StreamingAssets/Data/items.json", r'"health_tonic"[^\n]*"price": 40\b'),
        ("design/economy.md", r"\| Health Tonic \| 40\b"),
        ("design/economy.md", r"55[^\n]{0,20}(to|->) 40"),
        ("meetings/2025-05-20.md", r"from 55 to 40"),
        ("patch_notes/1.2.0.md", r"previously 55"),
        ("CHANGELOG.md", r"55 -> 40"),
    ],
    "u08": [
        ("meetings/2025-03-04.md", r"(no|drop\w*|remov\w*)[^\n]{0,20}Linux"),
        ("README.md", r"\| Linux x64 \| dropped"),
        ("ci/build.yml", r"^\s*macos:"),
        ("Assets/Editor/CiBuild.cs", r"BuildMac"),
    ],
    "u09": [
        ("Assets/Scripts/Loot/LootTableLoader.cs", r"PityThreshold\s*=\s*15"),
        ("meetings/2025-05-20.md", r"from 10 (chests )?to 15"),
        ("patch_notes/1.2.0.md", r"previously 10\)"),
        ("CHANGELOG.md", r"10 -> 15"),
    ],
}

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|json|csv|cs|ini|cfg|txt|eml)):(\d+)")
DATA_CODE = re.compile(r"\.(cs|json|csv|ya?ml|ini|cfg)$")
PROSE = re.compile(r"\.(md|eml|txt)$")
FILES = blindset.Files(REF, DATA_CODE, PROSE, min_data_only=14, min_prose_only=14)


if __name__ == "__main__":
    sys.exit(blindset.check(HERE, "g", FILES, ABSENT, ABSENT_IN))
