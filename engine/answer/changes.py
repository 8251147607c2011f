"""Reported changes: a source saying that something moved from X to Y disagrees with a source that still
states X. Versions of one document are conflicts.py's business; this is the other common case, a chat
message, meeting note or changelog announcing a change that a reference document does not yet reflect
("we're switching from Datadog to Grafana Cloud" against "Monitoring: Datadog").

Only explicit change statements count: a change verb (switch, migrate, move, replace, transition, ...)
followed by "from X to Y", where the answer's quote names X (every content word of it) and none of Y's.
A figure's change is read as premise.directions reads one ("goes from 7 to 10 days", "raised to 30 from
14", "30 days (previously 14)"), with a change verb (english.CHANGED) where the words alone could state a
range; the answer's quote states the old figure as counting what the change's figures count (a unit or a
label, premise.figure_kinds: not "20 multiple-choice questions" for "10 submissions (was 20)"), not the new
one, and shares a word with what changed (the words of the change's clause, less its figures, verbs and
function words: "pending auto-solve").
The report is judged current unless it is dated before the document it contradicts: its date is the
first date on its line or the few lines above it (a chat export's timestamp), else its file's stated date
or the date in its name. Other sources that name Y beside X or beside a change word ("the Grafana Cloud
migration timeline") are cited with it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from engine import english
from engine.answer import conflicts, contract, premise
from engine.events import Citation, Hit
from engine.ingest.extract import is_source
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
    thing: frozenset[str] = frozenset()  # a figure's change (old and new are figures): what changed
    kinds: frozenset[str] = frozenset()  # what the figures count or number (premise.figure_kinds)


@dataclass(frozen=True)
class Reported:
    """A change that contradicts a cited quote: the quote, the change, and other sources naming it."""

    cited: Citation
    change_citation: Citation
    also: tuple[Citation, ...]
    reason: str
    change: Change


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


def sentences(text: str) -> Iterator[tuple[int, str]]:
    """(line index, sentence) for each sentence of a text: line by line where it is a JSON export
    (line_sentences), else as split_sentences reads it, a sentence wrapped over lines whole."""
    if any(_JSON_KEY.match(line) for line in text.splitlines()):
        yield from line_sentences(text)
        return
    for start, end in split_sentences(text):
        yield text.count("\n", 0, start), text[start:end].strip()


def changes_in(hit: Hit, head: str) -> list[Change]:
    """The change statements in one evidence chunk, dated where the text or the file says when."""
    out: list[Change] = []
    lines = hit.text.splitlines()

    def when(row: int) -> date | None:
        return _line_date("\n".join(lines[max(0, row - DATE_LOOKBACK) : row + 1])) or doc_date(hit.path, head)

    for row, sentence in line_sentences(hit.text):
        for match in CHANGE.finditer(sentence):
            old = tuple(content_terms(match.group("old")))
            new = [t for t in content_terms(match.group("new")) if t not in _NOT_THING][:1]  # "the new CI"
            if not old or len(old) > OLD_WORDS or not new or any(t.isdigit() for t in (*old, *new)):
                continue
            if _unnamed(match.group("new")):
                continue  # "moving a file from one package to another": no thing is named
            shown = (match.group("old").strip(), _name_words(match.group("new")))
            out.append(Change(hit.path, normalize(sentence), old, new[0], shown, when(row)))
    for row, sentence in sentences(hit.text):
        for old_value, new_value, shown, thing, kinds in figure_changes(sentence):
            statement = normalize(sentence)
            out.append(Change(hit.path, statement, (old_value,), new_value, shown, when(row), thing, kinds))
    return out


def _unnamed(side: str) -> bool:
    """Whether a change's new side opens, in its first word with content, with a word that places or
    counts rather than names (english.NOT_LABELS: "another", "some", "each"): no name of what it
    changed to."""
    first = next((w for w in side.split() if content_terms(w) and w.lower() not in _NOT_THING), "")
    return first.lower().strip(".,;:") in english.NOT_LABELS


_CLAUSE_EDGE = re.compile(r"[.;!?()\[\]|,\n]")
_NOT_THING = frozenset("previously formerly now new old".split())  # words of a change, not of what changed


def figure_changes(
    sentence: str,
) -> Iterator[tuple[str, str, tuple[str, str], frozenset[str], frozenset[str]]]:
    """The figure changes a sentence states: (old, new, both as written, what changed, what the figures
    count or number: premise.figure_kinds), each a direction of premise.directions between two figures
    in a clause holding a change verb (english.CHANGED) or the formerly-marker itself ("30 days
    (previously 14)")."""
    text = premise.plain(sentence)
    for d in premise.directions(text):
        old, new = _first_figure(d.old), _first_figure(d.new)
        if not old or not new or old == new:
            continue
        begin = d.start  # a formerly-marker's clause may start inside a word: the span starts after it
        while 0 < begin < d.end and text[begin - 1].isalnum() and text[begin].isalnum():
            begin += 1
        start = max((m.end() for m in _CLAUSE_EDGE.finditer(text, 0, begin)), default=0)
        end = next((m.start() for m in _CLAUSE_EDGE.finditer(text, d.end)), len(text))
        span = text[begin : d.end]
        clause = text[start:begin] + " " + text[d.end : end]
        if not (english.CHANGED.search(clause) or english.FORMERLY.search(span)):
            continue
        stated = premise.figure_kinds(span)
        kinds = frozenset(stated.get(old, set()) | stated.get(new, set()))
        words = [
            w
            for w in re.findall(r"[^\W\d_]+", clause + " " + _outside(span, d))
            if w.lower() not in english.NOT_LABELS | _NOT_THING
            and w.lower() not in english.UNITS
            and w.lower() not in english.NUMBER_WORDS
            and not english.CHANGED.fullmatch(w)
        ]
        thing = frozenset(content_terms(" ".join(words)))
        first, *rest = d.new.split()
        named = [w for w in rest[:1] if w.lower() not in english.NOT_LABELS and content_terms(w)]
        if not rest and (unit := _unit_after(first, span, kinds)):
            named = [unit]  # "files can be up to 10 MB (up from 2 MB)": the new side is the figure alone
        shown = (d.old.split()[0], first + "".join(w if w == "%" else " " + w for w in named))
        if thing:
            yield old, new, shown, thing, kinds


def _first_figure(side: str) -> str:
    """The first figure a side writes in digits ("120 in 1.7.0" -> "120"), else ""."""
    return next(iter(premise.figure_units(side)), "")


def _outside(span: str, d: premise.Direction) -> str:
    """The words of a direction's span other than its two sides (a formerly-marker's clause)."""
    for side in (d.old, d.new):
        span = re.sub(rf"(?<![\w.,]){re.escape(side)}(?![\w])", " ", span, count=1)
    return span


def _unit_after(figure: str, span: str, kinds: frozenset[str]) -> str:
    """The word after `figure` in `span` where it is the unit the change's figures count in, else ""."""
    units = {k.split(":", 1)[1] for k in kinds if k.startswith("unit:")}
    for m in re.finditer(rf"(?<![\w.,]){re.escape(figure)}[ \t\u00a0]*([^\W\d_]+|%)", span):
        if m.group(1) == "%" or set(content_terms(m.group(1))) & units:
            return m.group(1)
    return ""


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


def contradicts(change: Change, quote: str, path: str = "") -> bool:
    """The quote names what changed (every word of X) and not what it changed to; for a figure's change,
    it states the old figure as counting what the change's figures count (premise.counts_alike: a unit
    or a label where both write one) and not the new one,
    shares a word with what changed, and is not from a program's source (`path`), whose constant is a
    default or a fallback more often than the fact."""
    have = set(content_terms(quote))
    if change.thing:
        said = premise.figure_kinds(quote)
        if change.new in said or (path and is_source(path)):
            return False
        return _states_figure(change, change.old[0], said, have, quote)
    return set(change.old) <= have and change.new not in have


def _states_figure(change: Change, figure: str, said: dict[str, set[str]], have: set[str], text: str) -> bool:
    """Whether `text` (its figures `said`, premise.figure_kinds, and its words `have`) states one of a
    figure change's figures as counting what the change's figures count, beside a word of what changed."""
    return (
        figure in said
        and bool(change.thing & have)
        and premise.counts_alike(figure, {figure: set(change.kinds)}, said, text)
    )


def _stated(read: Sequence[tuple[Hit, list[Change]]]) -> dict[str, set[tuple[tuple[str, ...], str]]]:
    """The changes each retrieved file states, as (old, new): its change statements (`read`, each chunk's
    changes_in), and a figure's change also without a verb ("cap from 30 to 35", as premise.directions
    reads it)."""
    out: dict[str, set[tuple[tuple[str, ...], str]]] = {}
    for hit, found in read:
        pairs = out.setdefault(hit.path, set())
        pairs.update((ch.old, ch.new) for ch in found)
        pairs.update(((_first_figure(d.old),), _first_figure(d.new)) for d in premise.directions(hit.text))
    return out


def _behind(change: Change, stated: date | None, states: set[tuple[tuple[str, ...], str]]) -> bool:
    """Whether a document dated `stated`, stating the changes `states` (_stated), may be behind a change:
    not dated on or after the day it was reported, and not stating the same change itself anywhere it
    was retrieved."""
    if stated is not None and change.when is not None and change.when <= stated:
        return False
    return (change.old, change.new) not in states


def find(
    cited: Sequence[Citation], evidence: Sequence[Hit], head: Callable[[str], str], question: str = ""
) -> Reported | None:
    """The first change in the evidence that a cited quote still contradicts, from another file that may
    be behind it (`_behind`). `head` gives a file's opening text (its stated date, whether it is a draft).
    A draft's or a superseded document's changes are proposals or history, not changes. Where the answer
    quotes the change itself, the line of another file that still states the old fact, the one sharing
    most words with `question`, where the change is on the question's point (shares a word of it)."""
    head = functools.cache(head)  # each file's opening text read once
    read = [(hit, changes_in(hit, head(hit.path))) for hit in evidence]  # each chunk's changes read once
    found = [
        (n, hit, ch)
        for n, (hit, stated_here) in enumerate(read, 1)
        if not conflicts.stale(conflicts.text_facts(hit.path, 0.0, head(hit.path)))
        for ch in stated_here
    ]
    states = _stated(read)
    for citation in cited:
        stated = doc_date(citation.path, head(citation.path))
        for n, hit, change in found:
            if hit.path == citation.path or not contradicts(change, citation.quote, citation.path):
                continue
            if not _behind(change, stated, states.get(citation.path, set())):
                continue  # the document was written after the change was announced, or states it
            reported = contract.cite(n, hit, change.statement)
            if reported is None:
                continue
            also = _mentions(change, evidence, {citation.path, hit.path})
            return Reported(citation, reported, also, _reason(citation, change, stated), change)
    return _still_stated(cited, evidence, head, found, states, set(question_terms(question)))


def _still_stated(
    cited: Sequence[Citation],
    evidence: Sequence[Hit],
    head: Callable[[str], str],
    found: Sequence[tuple[int, Hit, Change]],
    states: dict[str, set[tuple[tuple[str, ...], str]]],
    asked: set[str],
) -> Reported | None:
    """Where the answer quotes the change itself ("we're switching from Datadog to Grafana"): the first
    line of another file that may be behind it (`_behind`) and still states what changed (its quote
    contradicts the change as a cited one would), the one sharing most of the question's words `asked`.
    Only a change on the question's point counts, one the answer quotes or sharing a word with the
    question (a figure's change, a word of what changed): a file quoted for one thing may report changes
    to others."""
    quoted = {c.path for c in cited}
    for n, hit, change in found:
        if hit.path not in quoted or (reported := contract.cite(n, hit, change.statement)) is None:
            continue
        on_point = change.thing or set(content_terms(change.statement))
        if not _quoted(reported, cited) and not asked & on_point:
            continue
        stating: list[tuple[int, Citation, date | None, str]] = []
        for m, other in enumerate(evidence, 1):
            stated = doc_date(other.path, head(other.path))
            if other.path == hit.path or not _behind(change, stated, states[other.path]):
                continue
            for _, sentence in sentences(other.text):
                if not contradicts(change, sentence, other.path):
                    continue
                if (old := contract.cite(m, other, sentence)) is not None:
                    stating.append((len(asked & set(content_terms(sentence))), old, stated, other.path))
        if stating:
            _, old, stated, path = max(stating, key=lambda s: s[0])  # the first of the best
            also = _mentions(change, evidence, {path, hit.path})
            return Reported(old, reported, also, _reason(old, change, stated), change)
    return None


def states_new(change: Change, sentence: str) -> bool:
    """Whether `sentence` states what `change` changed to: for a figure's change, the new figure as
    counting what the change's figures count and a word of what changed; for a name's, the new name."""
    sentence = premise.plain(sentence)
    have = set(content_terms(sentence))
    if change.thing:
        return _states_figure(change, change.new, premise.figure_kinds(sentence), have, sentence)
    return change.new in have


def current_statements(reported: Reported, evidence: Sequence[Hit]) -> list[tuple[str, Citation]]:
    """The sentences of the reporting file's retrieved chunks that state what the change changed to
    (`states_new`), each with its citation, the change statement first: what the current source says.
    Never from a chunk addressed to an AI model (`Hit.instructions`), which no answer quotes alone."""
    if evidence[reported.change_citation.source - 1].instructions:
        return []
    out = [(reported.change.statement, reported.change_citation)]
    seen = {(reported.change_citation.start_line, " ".join(reported.change.statement.split()))}
    for n, hit in enumerate(evidence, 1):
        if hit.path != reported.change_citation.path or hit.instructions:
            continue
        for _, sentence in sentences(hit.text):
            if (
                not states_new(reported.change, sentence)
                or (citation := contract.cite(n, hit, sentence)) is None
            ):
                continue
            key = (citation.start_line, " ".join(sentence.split()))
            if key not in seen:
                seen.add(key)
                out.append((sentence, citation))
    return out


def _quoted(line: Citation, cited: Sequence[Citation]) -> bool:
    """Whether a cited quote covers a line of `line`'s: the answer quotes it."""
    return any(
        c.path == line.path and c.start_line <= line.end_line and line.start_line <= c.end_line for c in cited
    )


def _mentions(change: Change, evidence: Sequence[Hit], skip: set[str]) -> tuple[Citation, ...]:
    """Lines of other sources that name the new thing beside the old one or beside a change word (a new
    figure also beside a word of what changed)."""
    out: list[Citation] = []
    seen = set(skip)
    for n, hit in enumerate(evidence, 1):
        if hit.path in seen:
            continue
        for _, sentence in sentences(hit.text):
            terms = set(content_terms(sentence))
            if change.new not in terms or (change.thing and not change.thing & terms):
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
