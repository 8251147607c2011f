"""Versions of one document, and which of them is current. The one home of these rules: the answer pipeline
flags conflicting evidence with them, the MCP tool check_staleness reports a file's standing with them.

Two files are versions of one document when they are the same kind of file (prose, or the same suffix)
in the same folder (folders naming only a version or a year, 2023/ or archive/, aside), and their names,
without versions, years, dates and noise words ("draft", "final", ...), are the same (leave.md,
leave_2023.md), or start with the same numbered identifier (adr_003_database_migration.md,
adr_003_v2_database_strategy.md). No list of pairs is kept anywhere. Which one is current is decided by
the first of these tiers that has a say:

1. markers: "supersedes/replaces X" or "superseded by X", where X names the other file (its name, its name
   words with its year, or its numbered identifier when its version is lower); a draft's claims do not count;
2. status: a draft, or a Status line saying superseded/deprecated/obsolete/archived/retired, is not current;
3. signals: a higher version (v2, version 3.1), a later year in the name, a later stated date (Effective,
   Last updated, Date);
4. the file modification time, which only hints.

Within a tier, reasons pointing both ways leave the relation unclear.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath
from typing import Literal

from engine import english
from engine.events import Conflict, Hit

MARKER_SCAN_LINES = 400  # lines of a document searched for status, supersedes and date markers

Relation = Literal["newer", "older", "possibly newer", "possibly older", "unclear"]
Basis = Literal["marker", "status", "signal", "file time", "none"]

_NOISE = frozenset(
    "draft final old new latest copy updated current archive archived rev revised version".split()
)
_STALE = frozenset({"superseded", "deprecated", "obsolete", "archived", "retired"})
_VERSION = re.compile(r"(?<![a-z0-9])(?:v|version[\s_-]*)(\d+(?:\.\d+)*)(?![a-z0-9])", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_DRAFT = re.compile(r"(?<![a-z0-9])draft(?![a-z0-9])", re.IGNORECASE)
_STATUS = re.compile(r"^\W*status\W*[:\-]\W*(\w+)", re.IGNORECASE)
_SUPERSEDED_BY = re.compile(r"\bsuperseded\s+by\b\W*(.*)", re.IGNORECASE)  # not "replaced by": prose
_SUPERSEDES = re.compile(r"\b(?:supersedes|replaces)\b\W*(.*)", re.IGNORECASE)
_DATE_LINE = re.compile(  # a labelled date, at the start of a line or of a field or sentence in it ("Version
    # 2 · Effective 1 December 2025", "Owner: Dominic. Updated 5 January 2026"), not inside a sentence
    r"^(?:[^\n]*?(?:[·•|]|[.;](?=\s)))?[\s>*_#|-]*(?:(?:[a-z]+\s+){0,2}?(?:effective|last[\s_-]+(?:updated|revised|modified)|updated|revised)"
    r"|date|published|posted|issued|publication[\s_-]+date)\b(.*)",
    re.IGNORECASE,
)
_MONTHS = {m[:3]: i for i, m in enumerate(english.MONTHS, 1)}
_DATE_FORMS = (  # (pattern, group order as (year, month, day)); month may be a name
    (re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?"), (1, 2, 3)),
    (re.compile(r"([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})", re.IGNORECASE), (3, 1, 2)),
    (re.compile(r"(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})", re.IGNORECASE), (3, 2, 1)),
    (re.compile(r"([a-z]{3,9})\.?\s+(\d{4})", re.IGNORECASE), (2, 1, 0)),
)


# ------------------------------------------------------------------------------------------- names


def parse_date(text: str) -> date | None:
    """The first date in `text`: 2023-01-15, 2023-01, January 15, 2023, 15 Jan 2023 or Jan 2023."""
    for pattern, (y, m, d) in _DATE_FORMS:
        for match in pattern.finditer(text):
            month_text = match.group(m)
            month = int(month_text) if month_text.isdigit() else _MONTHS.get(month_text[:3].lower(), 0)
            try:
                return date(int(match.group(y)), month, int(match.group(d) or 1) if d else 1)
            except ValueError:
                continue
    return None


def tokens(text: str) -> tuple[str, ...]:
    """Lower-case alphanumeric runs, numbers without leading zeros ("ADR-003" -> ("adr", "3"))."""
    return tuple(str(int(t)) if t.isdigit() else t for t in re.findall(r"[a-z0-9]+", text.lower()))


def name_key(stem: str) -> tuple[str, ...]:
    """What names of versions of one document share: tokens without versions, years, dates and noise words."""
    return tuple(
        t
        for t in tokens(_VERSION.sub(" ", stem.lower()))
        if t not in _NOISE and not (t.isdigit() and (_YEAR.fullmatch(t) or len(t) >= 6))
    )


def name_ident(stem: str) -> tuple[str, ...] | None:
    """A numbered identifier at the start of a name ("adr_003_x" -> ("adr", "3")), else None."""
    parts = tokens(_VERSION.sub(" ", stem.lower()))
    for index, part in enumerate(parts[:3]):
        if part.isdigit():
            return parts[: index + 1] if index and not _YEAR.fullmatch(part) else None
    return None


# Prose formats: a document may be kept as Markdown and as a PDF export. Any other kind of file (source
# code, data, configuration) is a version only of a file of its own suffix: testing.py documents nothing
# that testing.md says differently.
_PROSE = frozenset(
    ".md .markdown .mdx .txt .text .rst .rest .adoc .asciidoc .org .tex .html .htm .xhtml .pdf .docx .doc "
    ".odt .pptx .pptm .ppsx .odp .epub "
    ".rtf".split()
)


def _kind(path: PurePath) -> str:
    suffix = path.suffix.lower()
    return "prose" if suffix in _PROSE else suffix


def _folder_key(path: PurePath) -> tuple[tuple[str, ...], ...]:
    """A file's folders without the ones naming only a version, a year or a noise word (2023/, v2/,
    archive/): versions of one document sit in one folder or in such siblings."""
    return tuple(key for part in path.parent.parts if (key := name_key(part)))


def same_family(a: str | PurePath, b: str | PurePath) -> bool:
    """Whether two different files look like versions of one document: the same kind of file in the same
    folder (up to version folders), with the same name key or numbered id. Two README.md files in two
    folders, or a module and the page documenting it, are not versions of each other."""
    pa, pb = PurePath(a), PurePath(b)
    if pa == pb or _kind(pa) != _kind(pb) or _folder_key(pa) != _folder_key(pb):
        return False
    key, ident = name_key(pa.stem), name_ident(pa.stem)
    return (bool(key) and key == name_key(pb.stem)) or (ident is not None and ident == name_ident(pb.stem))


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(tuple(haystack[i : i + n]) == tuple(needle) for i in range(len(haystack) - n + 1))


# ------------------------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class DocFacts:
    """What a document says about its own currency: from its name, title and explicit marker lines."""

    path: PurePath
    mtime: float
    ident: tuple[str, ...] | None
    version: tuple[int, ...] | None
    year: int | None
    draft: bool
    effective: date | None
    status: str = ""
    supersedes: tuple[str, ...] = ()
    superseded_by: tuple[str, ...] = ()

    @property
    def rank(self) -> tuple[int, ...]:
        return self.version or (1,)

    @property
    def marked_superseded(self) -> bool:
        return self.status in _STALE or bool(self.superseded_by)

    def mentioned_in(self, reference: str, by_ident: bool) -> bool:
        """Whether `reference` names this file: its whole name, its name words with its year (or its stated
        date's), or, when `by_ident`, its numbered identifier."""
        ref = tokens(reference)
        year = self.year or (self.effective.year if self.effective else None)
        return (
            _contains(ref, tokens(self.path.stem))
            or (year is not None and str(year) in ref and _contains(ref, name_key(self.path.stem)))
            or (by_ident and self.ident is not None and _contains(ref, self.ident))
        )


@dataclass
class _Markers:
    supersedes: list[str]
    superseded_by: list[str]
    effective: date | None = None
    status: str = ""

    def read(self, line: str) -> None:
        by = _SUPERSEDED_BY.search(line)
        if by and not by.group(1).lower().startswith("this"):  # "X was superseded by this policy"
            self.superseded_by.append(by.group(1).strip(" *_.") or line.strip())
        elif sup := _SUPERSEDES.search(line):
            self.supersedes.append(sup.group(1).strip(" *_."))
        if self.effective is None and (when := _DATE_LINE.search(line)):
            self.effective = parse_date(when.group(1))
        if not self.status and (state := _STATUS.match(line)):
            self.status = state.group(1).lower()


def doc_facts(path: PurePath, mtime: float, title: str = "", lines: Iterable[str] = ()) -> DocFacts:
    """Facts from the file name, the title and the first MARKER_SCAN_LINES lines of text."""
    named = f"{path.stem} {title}"
    version = _VERSION.search(named)
    year = _YEAR.search(path.stem)
    marks = _Markers([], [])
    for number, line in enumerate(lines):
        if number >= MARKER_SCAN_LINES:
            break
        marks.read(line)
    return DocFacts(
        path=path,
        mtime=mtime,
        ident=name_ident(path.stem),
        version=tuple(int(p) for p in version.group(1).split(".")) if version else None,
        year=int(year.group(1)) if year else None,
        draft=bool(_DRAFT.search(named)) or marks.status == "draft",
        effective=marks.effective,
        status=marks.status,
        supersedes=tuple(marks.supersedes),
        superseded_by=tuple(marks.superseded_by),
    )


def text_facts(path: str, mtime: float, text: str) -> DocFacts:
    """DocFacts from the head of a file's text; a Markdown heading on its first line is its title."""
    lines = text.splitlines()
    first = next((line.strip() for line in lines if line.strip()), "")
    title = first.lstrip("#").strip() if first.startswith("#") else ""
    return doc_facts(PurePath(path), mtime, title, lines)


# ------------------------------------------------------------------------------------------ judging


def _markers(a: DocFacts, b: DocFacts) -> list[str]:
    """Explicit markers saying `a` replaces `b`. An identifier alone ("ADR-003") counts only for a higher
    version, as every version of a numbered record shares it; a draft's own claims are only proposals."""
    by_ident = a.rank > b.rank
    claims = () if a.draft else a.supersedes
    out = [f"{a.path.name} says it supersedes {ref!r}" for ref in claims if b.mentioned_in(ref, by_ident)]
    out += [
        f"{b.path.name} says it is superseded by {ref!r}"
        for ref in b.superseded_by
        if a.mentioned_in(ref, by_ident)
    ]
    return out


def stale(facts: DocFacts) -> str:
    """Why a document is not current by its own say (a draft, marked superseded and the like), else ""."""
    if facts.draft:
        return "a draft"
    return f"marked {facts.status}" if facts.status in _STALE else ""


def _status(a: DocFacts, b: DocFacts) -> list[str]:
    """`b` is a draft or marked superseded (or the like), `a` is not."""
    why = stale(b)
    return [f"{b.path.name} is {why}, {a.path.name} is not"] if why and not stale(a) else []


def _signals(a: DocFacts, b: DocFacts) -> list[str]:
    """Signals from names and stated dates that `a` is the later version of `b`."""
    out: list[str] = []
    if (a.version or b.version) and a.rank > b.rank:
        out.append(f"{a.path.name} is version {_dotted(a.rank)}, {b.path.name} version {_dotted(b.rank)}")
    if a.year and b.year and a.year > b.year:
        out.append(f"{a.path.name} names the year {a.year}, {b.path.name} {b.year}")
    if a.effective and b.effective and a.effective > b.effective:
        out.append(f"{a.path.name} is dated {a.effective}, {b.path.name} {b.effective}")
    return out


def _dotted(version: Sequence[int]) -> str:
    return ".".join(map(str, version))


_TIERS: tuple[tuple[Basis, Callable[[DocFacts, DocFacts], list[str]]], ...] = (
    ("marker", _markers),
    ("status", _status),
    ("signal", _signals),
)


@dataclass(frozen=True)
class Judgement:
    """How one version stands against another: "newer" means the other one is current."""

    relation: Relation
    reasons: tuple[str, ...]
    basis: Basis


def compare(this: DocFacts, other: DocFacts) -> Judgement:
    """How `other` relates to `this`: the first tier with a say decides (see the module docstring)."""
    for basis, rule in _TIERS:
        newer, older = rule(other, this), rule(this, other)
        if newer or older:
            relation: Relation = "unclear" if newer and older else "newer" if newer else "older"
            return Judgement(relation, tuple(newer + older), basis)
    if other.mtime == this.mtime:
        return Judgement("unclear", (), "none")
    later = other.mtime > this.mtime
    reason = (
        f"{other.path.name} was modified {'later' if later else 'earlier'}; "
        "no marker, version or date says which is current"
    )
    return Judgement("possibly newer" if later else "possibly older", (reason,), "file time")


def current(a: DocFacts, b: DocFacts) -> tuple[DocFacts, DocFacts, str]:
    """(the current one, the other, why). Where the reasons point both ways, the later file time decides."""
    judged = compare(a, b)
    why = "; ".join(judged.reasons)
    if judged.relation in ("newer", "possibly newer"):
        return b, a, why
    if judged.relation in ("older", "possibly older"):
        return a, b, why
    why = f"{why} (these disagree; the later file time decides)" if why else "nothing says which is current"
    return (b, a, why) if b.mtime > a.mtime else (a, b, why)


def superseded_by(facts: DocFacts, judged: Iterable[tuple[DocFacts, Judgement]]) -> list[str]:
    """What replaces `facts`: the versions judged newer (a draft is not replaced by the version in force: it
    is not in force yet), then its own "superseded by" references that name none of them."""
    newer = [
        str(other.path)
        for other, judgement in judged
        if judgement.relation == "newer" and not (facts.draft and judgement.basis == "status")
    ]
    unresolved = [
        ref
        for ref in facts.superseded_by
        if not any(_contains(tokens(ref), tokens(PurePath(p).stem)) for p in newer)
    ]
    return newer + unresolved


# ----------------------------------------------------------------------------------------- evidence


def detect(evidence: Sequence[Hit], head: Callable[[str], str]) -> list[Conflict]:
    """Conflicts among the evidence files; source numbers are 1-based positions in `evidence`."""
    first: dict[str, int] = {}
    for n, hit in enumerate(evidence, start=1):
        first.setdefault(hit.path, n)
    mtimes = {hit.path: hit.mtime for hit in evidence}
    paths = list(first)
    pairs = [(a, b) for i, a in enumerate(paths) for b in paths[i + 1 :] if same_family(a, b)]
    needed = dict.fromkeys(p for pair in pairs for p in pair)
    facts = {p: text_facts(p, mtimes[p], head(p)) for p in needed}
    return [_conflict(a, b, facts, first) for a, b in pairs]


def _conflict(a: str, b: str, facts: Mapping[str, DocFacts], first: Mapping[str, int]) -> Conflict:
    cur, old, why = current(facts[a], facts[b])
    cur_path, old_path = (a, b) if cur is facts[a] else (b, a)
    summary = f"{cur.path.name} and {old.path.name} disagree; {cur.path.name} is current: {why}."
    return Conflict((first[cur_path], first[old_path]), first[cur_path], why, summary)
