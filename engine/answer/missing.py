"""Questions about a document that the folders only mention.

A manifest row, an index page or a link can name a file that was never added, or was deleted: "How do I
set up the Redis failover runbook?" finds `docs/engineering/runbook_redis_failover.md` listed in a
manifest, and no such file. Quoting the listing would answer a question about a document with its
catalogue entry. So before any model runs, the file references in the evidence are resolved (next to
the file that mentions them, then anywhere in the index); when one resolves to nothing and its name is
what the question asks about, the answer is the refusal, and the reason names the missing file and where
it is listed.

"What the question asks about": the words of the file's name carry more than NAME_SHARE (half) of the
question's IDF weight, and more of it than the name of any indexed file in the evidence (a question about
the "Redis failover runbook" is not about `runbook_postgres_failover.md`, which carries less of it).
Measured by `citeline eval DATASET --calibrate-gate` (each question's "missing_share"): on Meridian the
best unresolved reference carries 0.61 of q34's weight and 0.36 of q35's (both unanswerable), nothing
else; on the LangChain set (102 answerable questions, 27 file references in their evidence) at most 0.05.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath

from engine.answer.gate import DocFreq, idf
from engine.answer.text import content_terms
from engine.events import Hit

NAME_SHARE = 0.5
EXTENSIONS = "md|markdown|mdx|txt|rst|adoc|org|pdf|docx?|html?|csv|tsv|json|ya?ml|toml|ipynb|py|ts|js|go|rs"
REFERENCE = re.compile(
    rf"(?<![\w/.:@-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:{EXTENSIONS}))(?![\w/-])", re.IGNORECASE
)

Exists = Callable[[str, str], bool]  # (reference, path of the file that mentions it) -> resolves?


@dataclass(frozen=True)
class MissingDocument:
    reference: str  # as written, e.g. docs/engineering/runbook_redis_failover.md
    listed_in: str  # an indexed file that mentions it (the first in evidence order)
    line: int
    share: float  # of the question's IDF weight carried by the reference's file name

    @property
    def reason(self) -> str:
        return (
            f"the question is about {self.reference}, which {PurePath(self.listed_in).name}:{self.line} "
            "mentions but which is not in the indexed folders"
        )


def name_terms(path: str) -> set[str]:
    stem = PurePosixPath(path.replace("\\", "/")).stem
    return set(content_terms(re.sub(r"([a-z])([A-Z])", r"\1 \2", stem)))


def references(hit: Hit) -> list[tuple[str, int]]:
    """(reference, line number) for each file path written in a hit's text."""
    found = []
    for offset, line in enumerate(hit.text.split("\n")):
        for match in REFERENCE.finditer(line):
            if "://" not in line[max(0, match.start() - 12) : match.start()]:
                found.append((match.group(1), hit.start_line + offset))
    return found


def find(
    question: str,
    hits: Sequence[Hit],
    exists: Exists,
    doc_freq: DocFreq | None,
    min_share: float = NAME_SHARE,
) -> MissingDocument | None:
    """The missing document the question asks about, if the evidence mentions one."""
    terms = set(content_terms(question))
    if not terms:
        return None
    weights = {t: idf(t, doc_freq) for t in terms}
    total = sum(weights.values()) or 1.0

    def share(path: str) -> float:
        return sum(weights[t] for t in name_terms(path) & terms) / total

    indexed = max((share(h.path) for h in hits), default=0.0)
    best: MissingDocument | None = None
    seen: set[str] = set()
    for hit in hits:
        for ref, line in references(hit):
            if ref in seen:
                continue
            seen.add(ref)
            s = share(ref)
            if s <= min_share or s <= indexed or (best is not None and s <= best.share):
                continue
            if not exists(ref, hit.path):
                best = MissingDocument(ref, hit.path, line, round(s, 3))
    return best
