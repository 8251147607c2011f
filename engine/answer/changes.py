"""Reported changes: a source saying that something moved from X to Y disagrees with a source that still
states X. Versions of one document are conflicts.py's business; this is the other common case, a chat
message, meeting note or changelog announcing a change that a reference document does not yet reflect
("we're switching from Datadog to Grafana Cloud" against "Monitoring: Datadog").

Only explicit change statements count: a change verb (switch, migrate, move, replace, transition, ...)
followed by "from X to Y", where the answer's quote names X (every content word of it) and none of Y's.
The report is judged current unless it is dated before the document it contradicts: its date is the
first date on its line or the few lines above it (a chat export's timestamp), else its file's stated date
or the date in its name. Other sources that name Y beside X or beside a change word ("the Grafana Cloud
migration timeline") are cited with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from engine.answer import conflicts, contract
from engine.events import Citation, Hit
from engine.text import content_terms, normalize, question_terms, split_sentences

CHANGE = re.compile(
    r"\b(?:switch\w*|migrat\w*|mov(?:e|es|ed|ing)|transition\w*|replac\w*|chang(?:e|es|ed|ing)|"
    r"upgrad\w*|port(?:ed|ing)|convert\w*)\b[^.;\n]{0,40}?\bfrom\s+(?P<old>[^.;,()\n]{2,40}?)\s+"
    r"to\s+(?P<new>[^.;,()\n]{2,60})",
    re.IGNORECASE,
)
CHANGE_WORD = re.compile(r"\b(?:switch\w*|migrat\w*|transition\w*|cutover|replac\w*)\b", re.IGNORECASE)
OLD_WORDS = 3  # "from X to Y": X of at most this many content words (a name, not a clause)
NEW_SHOWN = 3  # words of Y shown in the note
DATE_LOOKBACK = 4  # lines above a change statement searched for its date (chat exports: the timestamp)
MAX_ALSO = 2  # other sources cited as mentioning the change


@dataclass(frozen=True)
class Change:
    """A statement in `path` that something moved from `old` to `new`."""

    path: str
    statement: str
    old: tuple[str, ...]  # content words of X
    new: str  # the first content word of Y, which names it
    shown: tuple[str, str]  # X and the start of Y as written
    when: date | None


@dataclass(frozen=True)
class Reported:
    """A change that contradicts a cited quote: the quote, the change, and other sources naming it."""

    cited: Citation
    change_citation: Citation
    also: tuple[Citation, ...]
    reason: str


def _name_date(path: str) -> date | None:
    stem = PurePath(path).stem.replace("_", "-")
    match = re.search(r"(?:19|20)\d{2}-\d{1,2}-\d{1,2}", stem)
    return conflicts.parse_date(match.group(0)) if match else None


def doc_date(path: str, head: str) -> date | None:
    """A document's own date: its stated (effective/updated) date, else a full date in its name."""
    return conflicts.text_facts(path, 0.0, head).effective or _name_date(path)


_JSON_KEY = re.compile(r'^\s*"[\w .-]+"\s*:\s*"')


def line_sentences(text: str) -> Iterator[tuple[int, str]]:
    """(line index, sentence) for each sentence of each line; a JSON key before a string is left out, so
    a chat export's message reads as its text."""
    for row, line in enumerate(text.splitlines()):
        line = _JSON_KEY.sub("", line).rstrip().removesuffix(",").removesuffix('"')
        for start, end in split_sentences(line):
            yield row, line[start:end].strip()


def changes_in(hit: Hit, head: str) -> list[Change]:
    """The change statements in one evidence chunk, dated where the text or the file says when."""
    out: list[Change] = []
    lines = hit.text.splitlines()
    for row, sentence in line_sentences(hit.text):
        for match in CHANGE.finditer(sentence):
            old = tuple(content_terms(match.group("old")))
            new = content_terms(match.group("new"))[:1]
            if not old or len(old) > OLD_WORDS or not new or any(t.isdigit() for t in (*old, *new)):
                continue
            nearby = "\n".join(lines[max(0, row - DATE_LOOKBACK) : row + 1])
            when = _line_date(nearby) or doc_date(hit.path, head)
            shown = (match.group("old").strip(), _name_words(match.group("new")))
            out.append(Change(hit.path, normalize(sentence), old, new[0], shown, when))
    return out


def _name_words(text: str) -> str:
    """How Y is named: its leading capitalised words ("Grafana Cloud for metrics" -> "Grafana Cloud"),
    else its first NEW_SHOWN words."""
    words = text.split()
    named = []
    for word in words:
        if not word[:1].isupper():
            break
        named.append(word)
    return " ".join(named or words[:NEW_SHOWN])


def _line_date(text: str) -> date | None:
    match = re.findall(r"(?:19|20)\d{2}-\d{2}-\d{2}", text)
    return conflicts.parse_date(match[-1]) if match else None


def contradicts(change: Change, quote: str) -> bool:
    """The quote names what changed (every word of X) and not what it changed to."""
    have = set(content_terms(quote))
    return set(change.old) <= have and change.new not in have


def find(
    cited: Sequence[Citation], evidence: Sequence[Hit], head: Callable[[str], str], question: str = ""
) -> Reported | None:
    """The first change in the evidence that a cited quote still contradicts, from another file and not
    dated before the cited document. `head` gives a file's opening text (its stated date). Where the
    answer quotes the change itself, the line of another file that still states the old fact, the one
    sharing most words with `question`."""
    found = [(n, hit, ch) for n, hit in enumerate(evidence, 1) for ch in changes_in(hit, head(hit.path))]
    for citation in cited:
        stated = doc_date(citation.path, head(citation.path))
        for n, hit, change in found:
            if hit.path == citation.path or not contradicts(change, citation.quote):
                continue
            if stated is not None and change.when is not None and change.when < stated:
                continue  # the document was written after the change was announced
            reported = contract.cite(n, hit, change.statement)
            if reported is None:
                continue
            also = _mentions(change, evidence, {citation.path, hit.path})
            return Reported(citation, reported, also, _reason(citation, change, stated))
    return _still_stated(cited, evidence, head, found, set(question_terms(question)))


def _still_stated(
    cited: Sequence[Citation],
    evidence: Sequence[Hit],
    head: Callable[[str], str],
    found: Sequence[tuple[int, Hit, Change]],
    asked: set[str],
) -> Reported | None:
    """Where the answer quotes the change itself ("we're switching from Datadog to Grafana"): the first
    line of another file, not dated after the change, that still states what changed (its quote
    contradicts the change as a cited one would), the one sharing most of the question's words `asked`."""
    quoted = {c.path for c in cited}
    for n, hit, change in found:
        if hit.path not in quoted or (reported := contract.cite(n, hit, change.statement)) is None:
            continue
        stating: list[tuple[int, Citation, date | None, str]] = []
        for m, other in enumerate(evidence, 1):
            stated = doc_date(other.path, head(other.path))
            if other.path == hit.path or (stated and change.when and change.when < stated):
                continue
            for _, sentence in line_sentences(other.text):
                if contradicts(change, sentence) and (old := contract.cite(m, other, sentence)) is not None:
                    stating.append((len(asked & set(content_terms(sentence))), old, stated, other.path))
        if stating:
            _, old, stated, path = max(stating, key=lambda s: s[0])  # the first of the best
            also = _mentions(change, evidence, {path, hit.path})
            return Reported(old, reported, also, _reason(old, change, stated))
    return None


def _mentions(change: Change, evidence: Sequence[Hit], skip: set[str]) -> tuple[Citation, ...]:
    """Lines of other sources that name the new thing beside the old one or beside a change word."""
    out: list[Citation] = []
    seen = set(skip)
    for n, hit in enumerate(evidence, 1):
        if hit.path in seen:
            continue
        for _, sentence in line_sentences(hit.text):
            terms = set(content_terms(sentence))
            if change.new not in terms:
                continue
            if not (set(change.old) <= terms or CHANGE_WORD.search(sentence)):
                continue
            if (mention := contract.cite(n, hit, sentence)) is not None:
                out.append(mention)
                seen.add(hit.path)
                break
        if len(out) >= MAX_ALSO:
            break
    return tuple(out)


def _reason(cited: Citation, change: Change, stated: date | None) -> str:
    name, other = _name(change.path), _name(cited.path)
    what = f"{name} reports a change from {change.shown[0]} to {change.shown[1]}"
    if change.when is None:
        dated = f", {other} is dated {stated.isoformat()}" if stated else ""
        return f"{what}; the report is not dated{dated}, so check which holds"
    when = f"{what} on {change.when.isoformat()}"
    return (
        f"{when}, after {other} was dated {stated.isoformat()}" if stated else f"{when}; {other} has no date"
    )


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]
