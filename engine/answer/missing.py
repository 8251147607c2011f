"""Questions about a document that the folders only list.

A manifest row, an index page or a link can name a file that was never added, or was deleted: "How do I
run the tape restore checklist?" finds `ops/tape_restore_checklist.md` listed in a manifest, and no such
file. Quoting the listing would answer a question about a document with its
catalogue entry. So before any model runs, the files the evidence *lists* are resolved (next to the file
that lists them, under a watched folder, anywhere in the index); when one resolves to nothing and its
name is what the question asks about, the answer is the refusal, and the reason names the missing file
and where it is listed.

Listed, not merely mentioned: the reference is a link target, a keyed field ("file_path=…", "path: …"),
a table or CSV cell, or a list item that is little more than the reference. A sentence of prose that
names a file ("Services are defined in docker-compose.yml; run docker compose up -d.") can answer a
question about that file itself, so it never counts.

"What the question asks about": the words of the file's name carry more than NAME_SHARE (half) of the
question's IDF weight (a question's word counts where the name has it, or, as written, begins a word of
the name or is begun by one of WORD_PREFIX letters or more: "guidelines" is about
`api_versioning_guide.md`, "configuration" about `config_reference.md`, which the stemmer keeps apart as
"guidelin"/"guid" and "configur"/"config"; "author" is not about `auth_setup.md`, nor "status" about
`stats.md`), and more of it than the name of any indexed file in the evidence (a question about the
"Redis failover runbook" is not about `runbook_postgres_failover.md`, which carries less of it).
Measured by `citeline eval DATASET --calibrate-gate` (each question's "missing_share"); the figures per
labelled set are in the README ("Refusal rules").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath

from engine.answer.gate import DocFreq, idf
from engine.events import Hit
from engine.names import page_label
from engine.text import content_terms, question_terms, stem, words

NAME_SHARE = 0.5
WORD_PREFIX = 5  # the shorter of two words one of which begins the other, for them to count as one
EXTENSIONS = "md|markdown|mdx|txt|rst|adoc|pdf|docx?|odt|html?|csv|tsv|xlsx?|json|ya?ml|toml|ipynb|py"
REFERENCE = re.compile(
    rf"(?<![\w/\\.:@-])((?:[\w.-]+[/\\])*[\w-][\w.-]*\.(?:{EXTENSIONS}))(?![\w/\\-])", re.IGNORECASE
)
LINK_TARGET = re.compile(r"\]\(\s*<?$")  # the text before the reference ends a Markdown link's "]("
KEYED = re.compile(r"[\w-]+[\"']?\s*[=:]\s*[\"']?$")  # "file_path=", "path: ", '"path": "'
LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s+")
ITEM_WORDS = 6  # a list item that lists a file says little besides it: "- setup.md: the install guide"

Exists = Callable[[str, str], bool]  # (reference, path of the file that lists it) -> resolves?


@dataclass(frozen=True)
class MissingDocument:
    reference: str  # as written, e.g. ops/tape_restore_checklist.md
    listed_in: str  # an indexed file that lists it (the first in evidence order)
    line: int
    page: int | None
    share: float  # of the question's IDF weight carried by the reference's file name

    @property
    def reason(self) -> str:
        name = PurePath(self.listed_in).name
        where = f"{name}:{self.line}" + (f" ({page_label(name, self.page)})" if self.page else "")
        return f"the question is about {self.reference}, which {where} lists but the indexed folders lack"


def split_camel(text: str) -> str:
    """ "runbookRedisFailover" -> "runbook Redis Failover", so that each word is a term."""
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", text)


def name_words(path: str) -> str:
    """A file's name without folder or extension, camelCase split ("a/runbookRedis.md": "runbook Redis")."""
    return split_camel(PurePosixPath(path.replace("\\", "/")).stem)


def name_terms(path: str) -> set[str]:
    return set(content_terms(name_words(path)))


def named(written: set[str], name: set[str]) -> bool:
    """Whether a question's term, as the question writes it (`written`: its words with that stem), is a
    word of a file's name (`name`: the name's words, lower case), or begins one or is begun by one of
    WORD_PREFIX letters at least: "guidelines" and "guide", "configuration" and "config"; not "author"
    and "auth", "database" and "data"."""
    return any(
        w == n or (min(len(w), len(n)) >= WORD_PREFIX and (w.startswith(n) or n.startswith(w)))
        for w in written
        for n in name
    )


def listed(line: str, start: int, end: int, path: str) -> bool:
    """Whether the reference at line[start:end] is listed (see the module docstring), not prose."""
    before = line[:start]
    token = before[max(before.rfind(" "), before.rfind("("), before.rfind("<")) + 1 :]
    if "://" in token or token.lower().startswith("www."):
        return False  # part of a URL
    if LINK_TARGET.search(before) or KEYED.search(before):
        return True
    if line.count("|") >= 2 or path.lower().endswith((".csv", ".tsv")):
        return True
    item = LIST_ITEM.match(line)
    return item is not None and len(words(before[item.end() :] + " " + line[end:])) <= ITEM_WORDS


def references(hit: Hit) -> list[tuple[str, int]]:
    """(reference, line number) for each file the hit's text lists."""
    found = []
    for offset, line in enumerate(hit.text.split("\n")):
        for match in REFERENCE.finditer(line):
            if listed(line, match.start(1), match.end(1), hit.path):
                found.append((match.group(1), hit.line_at(offset)))
    return found


def find(
    question: str,
    hits: Sequence[Hit],
    exists: Exists,
    doc_freq: DocFreq | None,
    min_share: float = NAME_SHARE,
) -> MissingDocument | None:
    """The missing document the question asks about, if the evidence lists one."""
    terms = set(question_terms(question))
    if not terms:
        return None
    weights = {t: idf(t, doc_freq) for t in terms}
    total = sum(weights.values()) or 1.0
    written: dict[str, set[str]] = {}
    for word in words(question):
        written.setdefault(stem(word), set()).add(word)

    def share(path: str) -> float:
        stems, name = name_terms(path), set(words(name_words(path)))
        return sum(w for t, w in weights.items() if t in stems or named(written.get(t, set()), name)) / total

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
                best = MissingDocument(ref, hit.path, line, hit.page, round(s, 3))
    return best
