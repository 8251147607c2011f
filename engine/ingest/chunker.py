"""Split a Document into Chunks along its structure, within a token budget.

Three steps, the same for every kind of document:

1. Pages: chunks never span pages (only PDFs have them), so each run of lines on one page is handled alone.
2. Sections: the lines of a page are cut into sections that carry a heading path: Markdown and notebook
   headings, reStructuredText titles, Python definitions (via `ast`), code declarations (a heuristic).
   A "bare" section (a heading with nothing under it, loose code between definitions) is prepended to
   the next one when both fit the budget together; then neighbours that fit together and share a path
   prefix merge under that prefix (two subsections of "Install", two methods of one class).
3. Packing: each section is cut greedily into chunks of whole lines, preferring to end at a paragraph
   (a blank line) when that keeps the chunk at least half full; the last two chunks of a section are
   balanced. Where a cut falls inside a paragraph the next chunk repeats the last `overlap_lines` lines
   of the previous one (not for tables, whose rows describe themselves).

A chunk's text is always the exact text of its lines joined with "\\n"; the heading path goes to
Chunk.heading, never into the text. One line is added to a Markdown chunk that opens inside a fenced block
(a long example, a notebook's printed table): the block's opening fence line, so that what the chunk holds
reads as code or output, as in the file, and not its closing fence as an opening one. It is cited at its
own line (the chunk's line map, `Chunk.lines`).

A single line longer than the budget (minified code, a log or dump without newlines) becomes chunks of
its own, each a run of whole words of that line within the budget, all cited as that line: a chunk's size
is bounded whatever the file, so search, snippets and embedding never handle a megabyte of text at once.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, groupby

from engine.events import Chunk, Document, Line, encode_lines
from engine.text import split_sentences

TokenCounter = Callable[[str], int]

# End a chunk at a paragraph break only if that leaves it at least this full (share of the budget).
_MIN_FILL = 0.5
_LEAD = re.compile(r"[ \t]*(?:#|//|--|/\*)")  # a comment's line, or a Markdown heading: about what follows
_SEPARATORS = {"python": ".", "code": "."}  # heading path separator; " > " for everything else

# Rough MiniLM (uncased WordPiece) pieces: CJK characters one each, camelCase parts, digit runs, punctuation.
_PIECES = re.compile(
    r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[^\W\d_]+|\d+|\S"
)


def approx_tokens(text: str) -> int:
    """Cheap estimate of MiniLM WordPiece tokens (without [CLS]/[SEP]); errs on the high side.

    A word (or camelCase part) counts one token per 5 letters begun, a digit run one per 3 digits, each
    punctuation mark and CJK character one. Against all-MiniLM-L6-v2's tokenizer on 15-line windows the
    ratio estimate/real has a median of about 1.06 for Python, 1.1 for Markdown, 1.3 for licence prose,
    and a 5th percentile of 0.95 for Python: chunks of 200 estimated tokens stay inside a 256 window.
    """
    total = 0
    for piece in _PIECES.findall(text):
        total += 1 + (len(piece) - 1) // (3 if piece[0].isdigit() else 5)
    return total


def chunk(
    doc: Document,
    max_tokens: int = 200,
    count_tokens: TokenCounter | None = None,
    overlap_lines: int = 1,
) -> list[Chunk]:
    """Cut `doc` into chunks of at most `max_tokens` (by `count_tokens`, default approx_tokens).

    count_tokens must count content tokens only (no [CLS]/[SEP], no padding): the greedy step sums
    per-line counts, so a per-call overhead makes chunks smaller than they need be. Every chunk is then
    checked with one exact count of its text.
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    budget = _Budget(count_tokens or approx_tokens, max_tokens, 0 if doc.kind == "table" else overlap_lines)
    separator = _SEPARATORS.get(doc.kind, " > ")
    chunks: list[Chunk] = []
    titles: list[tuple[int, str]] = []  # the titles open across a PDF's pages (level, title)
    for _, group in groupby(doc.lines, key=lambda line: line.page):
        page = _Page.of(list(group), budget)
        pdf = doc.kind == "pdf"
        sections = _titled_sections(page, titles) if pdf else _sections(doc.kind, page, budget)
        named = _page_name(doc, page)
        if named:  # a workbook's sheet: its rows sit under its name, as a section's under its title
            sections = [replace(section, path=(named, *section.path)) for section in sections]
        opened = _open_fences(page.lines, budget) if doc.kind == "markdown" else {}
        if doc.kind in ("markdown", "text"):  # a table's rows, under its columns' names
            opened = {**_open_tables(page.lines, budget, opened), **opened}
        for section in _merge(sections, page, budget, join=not pdf):
            for lo, hi in _pack(page, section, budget, opened):
                made = _to_chunk(page, lo, hi, separator.join(section.path), opened.get(lo, ()))
                if made.lines and lo in opened and budget.count(made.text) > budget.limit:
                    made = _to_chunk(page, lo, hi, made.heading)  # no room for the fence after all
                if lo == hi and (len(made.text) > _long(budget) or budget.count(made.text) > budget.limit):
                    made = _to_chunk(page, lo, hi, made.heading)  # one line, cut into pieces of its own
                    chunks.extend(_split_line(made, budget))
                else:
                    chunks.append(made)
    return chunks


# ---------------------------------------------------------------------------------------- plumbing


@dataclass(frozen=True)
class _Budget:
    count: TokenCounter
    limit: int
    overlap: int


@dataclass(frozen=True)
class _Page:
    """The lines of one page, with blank flags and running token estimates (per-line counts summed)."""

    lines: Sequence[Line]
    blank: tuple[bool, ...]
    running: tuple[int, ...]

    @classmethod
    def of(cls, lines: Sequence[Line], budget: _Budget) -> _Page:
        blank = tuple(not line.text.strip() for line in lines)
        long = _long(budget)
        weights = (
            0 if empty else budget.limit + 1 if len(line.text) > long else budget.count(line.text)
            for line, empty in zip(lines, blank, strict=True)
        )  # a long line is not counted (a tokenizer over megabytes): it is over the budget, so alone
        return cls(lines, blank, (0, *accumulate(weights)))

    def estimate(self, lo: int, hi: int) -> int:
        return self.running[hi + 1] - self.running[lo]

    def text(self, lo: int, hi: int) -> str:
        return "\n".join(line.text for line in self.lines[lo : hi + 1])

    def first_text(self, lo: int, hi: int) -> int | None:
        return next((index for index in range(lo, hi + 1) if not self.blank[index]), None)

    def last_text(self, lo: int, hi: int) -> int | None:
        return next((index for index in range(hi, lo - 1, -1) if not self.blank[index]), None)

    def fits(self, lo: int, hi: int, budget: _Budget) -> bool:
        """Whether lines lo..hi (trimmed of blank ends) fit, by the running estimate and an exact count."""
        first, last = self.first_text(lo, hi), self.last_text(lo, hi)
        if first is None or last is None:
            return True
        return (
            self.estimate(first, last) <= budget.limit
            and budget.count(self.text(first, last)) <= budget.limit
        )


@dataclass(frozen=True)
class _Section:
    """Lines lo..hi (indices into a page) under one heading path.

    bare: only a heading, or loose module-level code; it is prepended to the next section when they fit.
    """

    lo: int
    hi: int
    path: tuple[str, ...] = ()
    bare: bool = False


def _long(budget: _Budget) -> int:
    """Characters beyond which a line is over any budget without counting (a token is at most ~8 here)."""
    return budget.limit * 8


def _split_line(whole: Chunk, budget: _Budget) -> Iterator[Chunk]:
    """One over-long line as chunks of consecutive whole words, each within the budget (a word longer
    than a piece is cut). Pieces start about 4 characters per token and shrink until the count fits.
    A piece ends at the last sentence end in its second half where there is one (a paragraph written
    on one line, as Markdown and extracted PDF text often are, is cut between its sentences, so none is
    split across two chunks), else at the last space."""
    text, at = whole.text, 0
    while at < len(text):
        size = max(16, budget.limit * 4)
        while True:
            end = min(len(text), at + size)
            if end < len(text):
                stop = _last_sentence_end(text, at + size // 2, end)
                space = text.rfind(" ", at + size // 2, end)
                end = stop if stop is not None else space if space > at else end
            piece = text[at:end]
            if size <= 16 or budget.count(piece) <= budget.limit:
                break
            size = size * 3 // 4
        if piece.strip():
            yield Chunk(piece, whole.start_line, whole.end_line, whole.page, whole.heading)
        at = end
        while at < len(text) and text[at] == " ":
            at += 1


def _last_sentence_end(text: str, lo: int, hi: int) -> int | None:
    """Where the last sentence that ends within text[lo:hi] ends (engine.text's sentence ends), if any."""
    ends = [e for _, e in split_sentences(text[lo:hi] + " X")[:-1]]
    return lo + ends[-1] if ends else None


def _to_chunk(page: _Page, lo: int, hi: int, heading: str, carried: tuple[int, ...] = ()) -> Chunk:
    """Lines lo..hi as a chunk; `carried`: the lines line lo reads under, put first (in its text and line
    map, not its span): the opening fence line of the block it sits in (or closes), a table's header and
    separator lines."""
    lines = [*(page.lines[index] for index in carried), *page.lines[lo : hi + 1]]
    numbers = [line.line for line in lines]
    text = "\n".join(line.text for line in lines)
    mapped = encode_lines(numbers)  # empty where the lines it carries are right above its own
    own = numbers[len(carried) :] if mapped else numbers  # its span: not the lines it carries
    return Chunk(text, min(own), max(own), page.lines[lo].page, heading, mapped)


def _open_tables(
    lines: Sequence[Line], budget: _Budget, fenced: Mapping[int, tuple[int, ...]]
) -> dict[int, tuple[int, ...]]:
    """For each row of a Markdown table after its first, the indices of its header and separator lines
    (a "|" line, then "|---|---|"), so a chunk that opens among a long table's rows reads them under their
    columns' names, as the chunk holding the header does ("Week of: 2025-11-17; Primary: Elliot Saarinen",
    not "2025-11-17; Elliot Saarinen"). None where the two would take half the budget."""
    out: dict[int, tuple[int, ...]] = {}
    carried: tuple[int, ...] = ()
    for index, line in enumerate(lines):
        text = line.text.strip()
        if not text.startswith("|") or index in fenced:
            carried = ()
        elif (
            index >= 1
            and _TABLE_SEPARATOR.match(text)
            and lines[index - 1].text.strip().startswith("|")
            and index - 1 not in fenced
        ):
            header = (index - 1, index)
            size = budget.count(lines[index - 1].text) + budget.count(line.text)
            carried = header if 2 * size <= budget.limit else ()
        elif carried:
            out[index] = carried
    return out


def _open_fences(lines: Sequence[Line], budget: _Budget) -> dict[int, tuple[int, ...]]:
    """For each line inside a fenced block after its opening line, up to its closing fence, the index of
    the opening line (Markdown: a fence closes on the same character, at least as long, with nothing
    after it). None where the opening line would take half the budget (a chunk holds it besides)."""
    out: dict[int, tuple[int, ...]] = {}
    opener: int | None = None
    for index, line in enumerate(lines):
        marker = _FENCE.match(line.text)
        if opener is None:
            opener = index if marker and 2 * budget.count(line.text) <= budget.limit else None
            continue
        out[index] = (opener,)
        fence = _FENCE.match(lines[opener].text)
        if marker and fence and not line.text.strip().strip(marker.group(1)[0]):
            same = marker.group(1)[0] == fence.group(1)[0] and len(marker.group(1)) >= len(fence.group(1))
            opener = None if same else opener
    return out


def _page_name(doc: Document, page: _Page) -> str:
    number = page.lines[0].page if page.lines else None
    return doc.page_names[number - 1] if number and 0 < number <= len(doc.page_names) else ""


def _sections(kind: str, page: _Page, budget: _Budget) -> list[_Section]:
    if not page.lines:
        return []
    if kind == "markdown":
        return _from_heads(page, _markdown_heads(page.lines))
    if kind == "rst":
        return _from_heads(page, _rst_heads(page.lines))
    if kind == "python":
        return _python_sections(page, budget)
    if kind == "code":
        return _code_sections(page)
    if kind == "table":  # a sheet's title row over its rows (office.described), a sheet's own
        return _titled_sections(page, [])
    return [_Section(0, len(page.lines) - 1)]


def _common(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    size = 0
    while size < min(len(first), len(second)) and first[size] == second[size]:
        size += 1
    return first[:size]


def _merge(sections: list[_Section], page: _Page, budget: _Budget, join: bool = True) -> list[_Section]:
    """Drop empty sections; (`join`) join bare ones to their successor, then neighbours sharing a path
    prefix. A PDF's sections are not joined: its titles are marked in no line's text, so a title inside a
    chunk, not its heading, would be read into the sentence after it."""
    merged: list[_Section] = []
    sections = [section for section in sections if page.first_text(section.lo, section.hi) is not None]
    if not join:
        return sections
    for section in _attach_bare(sections, page, budget):
        if merged:
            previous = merged[-1]
            shared = _common(previous.path, section.path)
            if shared and page.fits(previous.lo, section.hi, budget):
                merged[-1] = _Section(previous.lo, section.hi, shared)
                continue
        merged.append(section)
    return merged


def _attach_bare(sections: list[_Section], page: _Page, budget: _Budget) -> Iterator[_Section]:
    """Prepend each bare section (a lone heading, loose code between definitions) to the next one."""
    pending: _Section | None = None
    for section in sections:
        if pending is not None and page.fits(pending.lo, section.hi, budget):
            section = _Section(pending.lo, section.hi, section.path, section.bare)
        elif pending is not None:
            yield pending
        pending = None
        if section.bare:
            pending = section
        else:
            yield section
    if pending is not None:
        yield pending


# ----------------------------------------------------------------------------------------- packing


def _pack(
    page: _Page, section: _Section, budget: _Budget, opened: Mapping[int, tuple[int, ...]] = {}
) -> Iterator[tuple[int, int]]:
    """Greedy windows lo..hi over a section, each starting and ending on a non-blank line. A window that
    opens inside a fenced block or a table (`opened`: the lines it carries) leaves room for those."""
    start = page.first_text(section.lo, section.hi)
    fresh = start  # the first line no window has covered yet
    while start is not None and fresh is not None:
        room = budget
        if carried := opened.get(start, ()):
            used = sum(budget.count(page.lines[index].text) for index in carried)
            room = replace(budget, limit=budget.limit - used)
        end = _window_end(page, start, section.hi, room, fresh)
        yield start, end
        start = _next_start(page, start, end, section.hi, budget)
        fresh = page.first_text(end + 1, section.hi)


def _window_end(page: _Page, start: int, hi: int, budget: _Budget, fresh: int) -> int:
    """The last line of the window opening at `start` (reaching at least `fresh`).

    As full as the budget allows, pulled back to a paragraph end when that keeps it half full. When the
    rest of the section needs just two windows, the cut must leave a rest that fits, and without a
    paragraph end to cut at the two are made even (no scrap of a last chunk).
    """
    last = page.last_text(start, hi) or start
    total = page.estimate(start, last)
    if total <= budget.limit or last == start:
        return _shrink(page, start, last, budget)
    full = _greedy_end(page, start, last, budget.limit)
    balanced = total <= 2 * budget.limit
    floor = max(_MIN_FILL * budget.limit, total - budget.limit if balanced else 0)
    end = _paragraph_end(page, start, full, floor)
    if end is not None:
        return _shrink(page, start, max(end, fresh), budget)
    end = _greedy_end(page, start, last, (total + 1) // 2) if balanced else full
    end = _shrink(page, start, max(end, fresh), budget)
    # half full, as a paragraph end may leave it: the rest may then take one window more than balanced
    return max(_before_leads(page, start, end, _MIN_FILL * budget.limit), fresh)


def _before_leads(page: _Page, start: int, end: int, floor: float) -> int:
    """A cut inside a paragraph moved up above the comment lines or heading it ends on, where the line
    after them is neither (what they introduce), if the window keeps `floor` tokens: a comment is about
    the setting or code below it, a heading about its text, and cut from them they are read apart."""
    if end + 1 >= len(page.lines) or page.blank[end + 1] or _LEAD.match(page.lines[end + 1].text):
        return end
    first = end
    while first > start and not page.blank[first] and _LEAD.match(page.lines[first].text):
        first -= 1
    if first == end or page.blank[first] or page.estimate(start, first) < floor:
        return end
    return first


def _greedy_end(page: _Page, start: int, last: int, target: float) -> int:
    end = start
    for index in range(start + 1, last + 1):
        if page.estimate(start, index) > target:
            break
        end = end if page.blank[index] else index
    return end


def _paragraph_end(page: _Page, start: int, end: int, floor: float) -> int | None:
    """The last paragraph end in start..end, if the window up to it holds `floor` tokens."""
    for index in range(end, start - 1, -1):
        if page.blank[index + 1] and not page.blank[index]:
            return index if page.estimate(start, index) >= floor else None
    return None


def _shrink(page: _Page, start: int, end: int, budget: _Budget) -> int:
    """Drop lines from the end until the exact count fits (the estimate is a sum of per-line counts)."""
    while end > start and budget.count(page.text(start, end)) > budget.limit:
        end = page.last_text(start, end - 1) or start
    return end


def _next_start(page: _Page, start: int, end: int, hi: int, budget: _Budget) -> int | None:
    """Where the next window starts: after the gap, or `overlap` lines back when the cut split a paragraph."""
    following = page.first_text(end + 1, hi)
    if following is None or following != end + 1 or budget.overlap <= 0:
        return following
    back = page.first_text(max(start + 1, end + 1 - budget.overlap), end)
    if back is None or not page.fits(back, following, budget):
        return following
    return back


# -------------------------------------------------------------------------------- headed documents

_TABLE_SEPARATOR = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")  # |---|:--:|
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")

_Head = tuple[int, tuple[str, ...], int]  # (index of first line, heading path, lines the heading spans)


def _from_heads(page: _Page, heads: Sequence[_Head]) -> list[_Section]:
    """Sections from heading positions: a preamble (if any), then one section per heading."""
    bounds = [index for index, _, _ in heads] + [len(page.lines)]
    sections = [_Section(0, bounds[0] - 1)] if bounds[0] > 0 else []
    for (index, path, span), end in zip(heads, bounds[1:], strict=True):
        bare = page.first_text(index + span, end - 1) is None
        sections.append(_Section(index, end - 1, path, bare))
    return sections


def _nest(stack: list[tuple[int, str]], level: int, title: str) -> tuple[str, ...]:
    """Push a heading of `level` onto the open-headings stack and return the new path."""
    while stack and stack[-1][0] >= level:
        stack.pop()
    stack.append((level, title))
    return tuple(name for _, name in stack)


# a title that opens with its number ("2. Installing", "2.1 Options", "A.1 Proofs", "IV. Results") starts
# a title of its own, never the second line of the one above
_NUMBERED_TITLE = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.\d{1,3}(?:\.\d{1,3})*\.?|[IVX]{1,5}\.)\s")


def _titled_sections(page: _Page, titles: list[tuple[int, str]]) -> list[_Section]:
    """A PDF page's sections, by the titles its extractor marked (`Line.level`), under the titles still
    open from the pages before (`titles`, updated in place): a section that goes on over a page break keeps
    its path. Title lines one after another at one level are one title (a title set over two lines), unless
    the later one opens with its number."""
    heads: list[_Head] = []
    carried = tuple(name for _, name in titles)
    for index, line in enumerate(page.lines):
        if not line.level:
            continue
        title = line.text.strip()
        if (
            heads
            and heads[-1][0] + heads[-1][2] == index
            and titles
            and titles[-1][0] == line.level
            and not _NUMBERED_TITLE.match(title)
        ):
            first, _, span = heads[-1]
            titles[-1] = (line.level, f"{titles[-1][1]} {title}")
            heads[-1] = (first, tuple(name for _, name in titles), span + 1)
            continue
        heads.append((index, _nest(titles, line.level, title), 1))
    if not heads:
        return [_Section(0, len(page.lines) - 1, carried)] if page.lines else []
    sections = _from_heads(page, heads)
    if heads[0][0] > 0:  # the page opens inside the section the page before left open
        sections[0] = _Section(sections[0].lo, sections[0].hi, carried)
    return sections


def _markdown_heads(lines: Sequence[Line]) -> list[_Head]:
    heads: list[_Head] = []
    stack: list[tuple[int, str]] = []
    fence = ""
    for index, line in enumerate(lines):
        marker = _FENCE.match(line.text)
        if marker and (not fence or (marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence))):
            fence = "" if fence else marker.group(1)
            continue
        match = None if fence else _ATX.match(line.text)
        if match:
            heads.append((index, _nest(stack, len(match.group(1)), match.group(2).strip()), 1))
    return heads


def _rst_heads(lines: Sequence[Line]) -> list[_Head]:
    """reStructuredText titles; levels follow the order in which adornment styles first appear."""
    heads: list[_Head] = []
    styles: list[tuple[str, bool]] = []
    stack: list[tuple[int, str]] = []
    for start, style, title, span in _rst_titles(lines):
        if style not in styles:
            styles.append(style)
        heads.append((start, _nest(stack, styles.index(style), title), span))
    return heads


def _rst_titles(lines: Sequence[Line]) -> Iterator[tuple[int, tuple[str, bool], str, int]]:
    """(first line, (adornment char, has overline), title, lines spanned) for each section title."""
    index = 1
    while index < len(lines):
        under = _ADORNMENT.match(lines[index].text)
        title = lines[index - 1].text
        if under and title.strip() and not _ADORNMENT.match(title):
            over = index >= 2 and lines[index - 2].text.strip() == lines[index].text.strip()
            start = index - 2 if over else index - 1
            if (start == 0 or not lines[start - 1].text.strip()) and (over or not title[0].isspace()):
                yield start, (under.group(1), over), title.strip(), index - start + 1
                index += 2
                continue
        index += 1


# ---------------------------------------------------------------------------------------------- python

_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _python_sections(page: _Page, budget: _Budget) -> list[_Section]:
    """Top-level definitions (classes too big for one chunk split into members), and the code between."""
    tree = _parse_python("\n".join(line.text for line in page.lines))
    if tree is None:
        return _code_sections(page)
    return _partition(page, tree.body, 0, len(page.lines) - 1, (), budget)


def _parse_python(source: str) -> ast.Module | None:
    with warnings.catch_warnings():  # e.g. SyntaxWarning for an invalid escape sequence
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError):
            return None


def _partition(
    page: _Page, body: Sequence[ast.stmt], lo: int, hi: int, path: tuple[str, ...], budget: _Budget
) -> list[_Section]:
    """Cut lines lo..hi into definition sections and the in-between code (which keeps `path`)."""
    sections: list[_Section] = []
    cursor = lo
    for node in body:
        if not isinstance(node, _Definition):
            continue
        start = _leading_comments(page, _first_line(node) - 1, cursor)
        end = min(hi, max(start, (node.end_lineno or node.lineno) - 1))
        if start > cursor:  # loose module-level code travels with the definition after it
            sections.append(_Section(cursor, start - 1, path, bare=not path))
        if isinstance(node, ast.ClassDef) and not page.fits(start, end, budget):
            sections.extend(_partition(page, node.body, start, end, (*path, node.name), budget))
        else:
            sections.append(_Section(start, end, (*path, node.name)))
        cursor = end + 1
    if cursor <= hi:
        sections.append(_Section(cursor, hi, path))
    return sections


def _first_line(node: _Definition) -> int:
    return min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])


def _leading_comments(page: _Page, index: int, floor: int) -> int:
    """Move `index` up over the comment lines directly above it, not above `floor`."""
    while index - 1 >= floor and page.lines[index - 1].text.lstrip().startswith("#"):
        index -= 1
    return index


# ------------------------------------------------------------------------------------- other code

_MODIFIERS = (
    r"(?:export|default|pub(?:\([\w ]+\))?|async|static|abstract|final|unsafe|extern|inline|data|sealed|"
    r"open|override|partial)\s+"
)
_KEYWORDS = (
    r"func|fn|def|class|function|public|private|protected|internal|impl|struct|interface|type|const|enum|"
    r"trait|module|namespace|object|record|sub|proc|mod|union|export|CREATE|create"
)
_DECLARATION = re.compile(rf"^(?:{_MODIFIERS})*(?:{_KEYWORDS})\b")
_COMMENT_LEADS = ("//", "/*", "*", "#", "--", "@", ";", "<!--")
_CLOSERS = frozenset({"}", "};", "end", ")", "]"})
_PREAMBLE = re.compile(r"^\s*(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?")  # a Go receiver, generic parameters
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_CALLED = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


def _code_sections(page: _Page) -> list[_Section]:
    """Declarations at column 0 (with the comments and annotations above them) open sections."""
    starts: list[tuple[int, str]] = []
    for index, line in enumerate(page.lines):
        match = _DECLARATION.match(line.text)
        if match:
            start = _leading_annotations(page, index, starts[-1][0] + 1 if starts else 0)
            if start == 0 or page.blank[start - 1] or page.lines[start - 1].text.rstrip() in _CLOSERS:
                starts.append((start, _symbol(line.text[match.end() :])))
    bounds = [start for start, _ in starts] + [len(page.lines)]
    sections = [_Section(0, bounds[0] - 1, bare=True)] if bounds[0] > 0 else []
    for (start, name), end in zip(starts, bounds[1:], strict=True):
        sections.append(_Section(start, end - 1, (name,) if name else ()))
    return sections


def _leading_annotations(page: _Page, index: int, floor: int) -> int:
    while index - 1 >= floor and page.lines[index - 1].text.lstrip().startswith(_COMMENT_LEADS):
        index -= 1
    return index


def _symbol(rest: str) -> str:
    """The declared name in what follows the keywords: the called name of a signature, else the first word."""
    preamble = _PREAMBLE.match(rest)
    rest = rest[preamble.end() :] if preamble else rest
    called = _CALLED.search(rest)
    if called and "=" not in rest[: called.start()]:
        return called.group(1)
    first = _IDENTIFIER.search(rest)
    return first.group(0) if first else ""
