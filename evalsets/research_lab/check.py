#!/usr/bin/env python3
"""Check the research_lab evaluation set: questions.jsonl is well formed, every gold file exists and every
supporting passage occurs verbatim in one of its gold files. Standard library only:

    python3 evalsets/research_lab/check.py

Checks (each failure is one ERROR line; exit status 1 if there are any):

- 48 rows with unique ids: 36 answerable (c01..c36) and 12 unanswerable (u01..u12), each with exactly the keys
  of its kind;
- answerable rows: category in what/when/who/how/why/where, 1-2 supporting passages, every gold source is a
  file under docs/, every passage is an exact substring of the raw text of at least one of its gold files and
  is a whole line without its leading indentation, or a contiguous run of lines;
- at least 14 answerable rows answered only by data, config or code files (every gold file is *.csv,
  *.yaml/*.yml, *.toml, *.py, *.R, *.bib or requirements.txt) and at least 12 answered only by prose (every
  gold file is *.md, *.tex, *.eml or a *.txt other than requirements.txt);
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
    "u01": [r"leaf_area", r"leaf area", r"normali[sz]e_by"],
    "u02": [r"vpd", r"vapou?r pressure"],
    "u03": [r"density", r"stomatal.?counts?\b", r"nail.?varnish"],
    "u04": [r"\b20 plants", r"plants_per_group:\s*20\b", r"\bn\s*=\s*20\b"],
    "u05": [r"OUTLIER_MAD_K\s*=\s*4", r"\b4(\.0)?\s*(scaled\s*)?MADs?\b"],
    "u06": [r"\b200\b"],
    "u08": [
        r"from LC-MS to (the )?ELISA",
        r"switch(ed)? (back )?to (the )?ELISA",
        r"ELISA (from|after) run 3",
    ],
    "u10": [r"gas[- ]exchange", r"\bIRGA\b", r"\bA[/-]Ci\b"],
    "u11": [r"rna-?seq", r"transcriptom", r"sequencing", r"\bDESeq"],
    "u12": [r"thermal", r"infra-?red", r"thermograph", r"\bFLIR\b"],
}
# Swapped premises: the swapped value must not appear in the file that holds the real one.
ABSENT_IN = {
    "u07": [
        ("protocols/drought_stress_v2.md", r"control[^\n]*\b30 ?%"),
        ("protocols/drought_stress_v2.md", r"drought[^\n]*\b80 ?%"),
        ("config/run3.yaml", r"fc_fraction_control:\s*0\.3"),
        ("config/run3.yaml", r"fc_fraction_drought:\s*0\.8"),
    ],
    "u09": [
        ("config/run1.yaml", r"GC-5"),
        ("config/run3.yaml", r"chamber:\s*GC-3"),
    ],
}

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.(?:md|ya?ml|toml|py|R|bib|csv|tex|txt|eml)):(\d+)")
DATA_CODE = re.compile(r"(\.(csv|ya?ml|toml|py|R|bib)|(^|/)requirements\.txt)$")
PROSE = re.compile(r"\.(md|tex|eml|txt)$")
FILES = blindset.Files(REF, DATA_CODE, PROSE, min_data_only=14, min_prose_only=12)


if __name__ == "__main__":
    sys.exit(blindset.check(HERE, "c", FILES, ABSENT, ABSENT_IN))
