"""Conflicting sources: versions of one document that disagree, and which of them is current.

Two evidence files are versions of one document when their names (or titles), with version, date and
draft markers removed, share most of their words (Jaccard >= FAMILY_JACCARD), e.g. pto_policy.md and
pto_policy_2023.md, adr_003_database_migration.md and adr_003_v2_database_strategy.md. No list of pairs
is kept anywhere. Which version is current is decided by explicit markers first, in this order:
draft or superseded status, an explicit "replaces/supersedes" statement, a version number, a stated
date (Effective/Last updated/Date), a year in the name; the file's modification time decides last.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from engine.events import Conflict, Hit

FAMILY_JACCARD = 0.5
MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(),
        start=1,
    )
}
_VERSIONISH = re.compile(r"^(v\d+|version|draft|final|old|new|latest|copy|\d{4}|\d{8}|\d{4}q\d|q\d)$")
_DATE_LINE = re.compile(
    r"(effective(?: date)?|last updated|updated|date|published|revised)\W{0,6}\s*([^\n]{3,40})", re.I
)
_REPLACES = re.compile(r"\b(replaces|supersedes|supersede|replacing|superseding)\b", re.I)
_STALE_STATUS = re.compile(r"status\W{0,6}\s*(superseded|deprecated|obsolete|archived|retired)", re.I)
_DRAFT = re.compile(r"\bdraft\b", re.I)
_VERSION = re.compile(r"(?:\bv|\bversion\s*)(\d+)(?:\.(\d+))?\b", re.I)


def name_words(path: str, title: str = "") -> set[str]:
    stem = PurePath(path).stem
    parts = re.split(r"[\W_]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", stem + " " + title).lower())
    return {p for p in parts if p and not _VERSIONISH.match(p)}


def same_family(a: str, b: str, title_a: str = "", title_b: str = "") -> bool:
    if a == b:
        return False
    wa, wb = name_words(a), name_words(b)
    if not wa or not wb:
        return False
    return len(wa & wb) / len(wa | wb) >= FAMILY_JACCARD


def parse_date(text: str) -> date | None:
    text = text.lower()
    iso = re.search(r"(\d{4})-(\d{2})(?:-(\d{2}))?", text)
    if iso:
        return _safe_date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3) or 1))
    named = re.search(r"([a-z]+)\s+(?:(\d{1,2}),?\s+)?(\d{4})", text)
    if named and named.group(1) in MONTHS:
        return _safe_date(int(named.group(3)), MONTHS[named.group(1)], int(named.group(2) or 1))
    year = re.search(r"\b(19|20)\d{2}\b", text)
    return _safe_date(int(year.group(0)), 1, 1) if year else None


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


@dataclass(frozen=True)
class Currency:
    """Evidence about how current one file is; compared field by field in order."""

    path: str
    not_stale: int  # 0 if draft/superseded, else 1
    replaces: int
    version: tuple[int, int]
    stated: date | None
    name_year: int
    mtime: float
    notes: tuple[str, ...]


def currency(path: str, head: str, mtime: float) -> Currency:
    name = PurePath(path).name
    notes: list[str] = []
    stale = bool(_DRAFT.search(name) or _DRAFT.search(head[:300]) or _STALE_STATUS.search(head))
    if stale:
        notes.append("marked draft or superseded")
    replaces = 1 if _REPLACES.search(head) else 0
    if replaces:
        notes.append("states that it replaces an earlier version")
    version = _VERSION.search(name) or _VERSION.search(head[:200])
    ver = (int(version.group(1)), int(version.group(2) or 0)) if version else (1, 0)
    stated = None
    for match in _DATE_LINE.finditer(head[:1500]):
        stated = max(filter(None, [stated, parse_date(match.group(2))]), default=None)
    if stated:
        notes.append(f"dated {stated.isoformat()}")
    year = re.search(r"(19|20)\d{2}", name)
    return Currency(
        path, 0 if stale else 1, replaces, ver, stated, int(year.group(0)) if year else 0, mtime, tuple(notes)
    )


def order_key(c: Currency) -> tuple[object, ...]:
    return (c.not_stale, c.replaces, c.version, c.stated or date.min, c.name_year, c.mtime)


def explain(current: Currency, other: Currency) -> str:
    for label, a, b in (
        ("the other is a draft or superseded", current.not_stale, other.not_stale),
        ("it states that it replaces the earlier version", current.replaces, other.replaces),
        ("its version number is higher", current.version, other.version),
        ("its stated date is later", current.stated or date.min, other.stated or date.min),
        ("the year in its name is later", current.name_year, other.name_year),
    ):
        if a != b:
            return label
    return "it was modified more recently"


def detect(evidence: Sequence[Hit], head: Callable[[str], str]) -> list[Conflict]:
    """Conflicts among the evidence files; source numbers are 1-based positions in `evidence`."""
    first: dict[str, int] = {}
    for n, hit in enumerate(evidence, start=1):
        first.setdefault(hit.path, n)
    paths = list(first)
    seen: set[frozenset[str]] = set()
    conflicts = []
    for i, a in enumerate(paths):
        for b in paths[i + 1 :]:
            if frozenset((a, b)) in seen or not same_family(a, b):
                continue
            seen.add(frozenset((a, b)))
            mt = {h.path: h.mtime for h in evidence}
            ca, cb = currency(a, head(a), mt[a]), currency(b, head(b), mt[b])
            cur, old = (ca, cb) if order_key(ca) >= order_key(cb) else (cb, ca)
            reason = explain(cur, old)
            summary = (
                f"{PurePath(cur.path).name} and {PurePath(old.path).name} disagree; "
                f"{PurePath(cur.path).name} is current because {reason}."
            )
            conflicts.append(Conflict((first[cur.path], first[old.path]), first[cur.path], reason, summary))
    return conflicts
