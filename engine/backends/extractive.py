"""The extractive generator: no LLM. Quotes the evidence sentences that best answer the question.

Always available, the fastest path, and the fallback when no generative model is present. Every
sentence it proposes is its own quote, so it passes the contract's verbatim check by construction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import numpy as np
import numpy.typing as npt

from engine.backends.settings import (
    CONFIG_COMMENT,
    CONFIG_SUFFIXES,
    JSON_SUFFIXES,
    YAML_SUFFIXES,
    Setting,
    context,
    literal_blocks,
    literals,
    settings,
    structure,
)
from engine.backends.settings import shown as setting_shown
from engine.english import ASKS_MECHANISM, FIGURE, MONTHS, UNITS, WANTS_FIGURE, sides
from engine.events import Hit, RawSentence
from engine.ingest.extract import TABLE_SUFFIXES, extractor_for, is_source
from engine.ingest.mail import MAIL_SUFFIXES, MAILBOX_SUFFIXES, is_mailbox
from engine.ingest.markup import ASCIIDOC_SUFFIXES, ORG_SUFFIXES
from engine.ingest.office import BOOK_SUFFIXES, SHEET_SUFFIXES, SLIDE_SUFFIXES
from engine.names import about_tests, is_test
from engine.retrieve.search import file_names_in
from engine.text import (
    ANAPHORA,
    COMMENT_LINE,
    DOC_TAG,
    LETTER,
    LINK,
    LIST_ITEM,
    STAR_LINE,
    block_after,
    content_terms,
    lead_in,
    list_after,
    normalize,
    rejoined,
    relevance,
    split_sentences,
    words,
)

MAX_SENTENCES = 3
# The ranked sentences a judge (the answer check) may read, best first: when the best ones do not answer,
# the next that does is proposed in their place (proposed), up to this far down the ranking
LOOK = 6
# The source sentences the judge reads for a backing (code_backing) of a question about how, why or where
# a program does something (english.ASKS_MECHANISM), at most, however far down the ranking they sit:
# prose outranks code in words, so the code behind a page often ranks below LOOK
BACKING_LOOK = 3
# The relevance a sentence needs to be proposed at all, as designed: `citeline calibrate` fits the line
# the engine gives the generator (Engine.extractive_floor, calibration.json "extractive").
MIN_SCORE = 0.35
MARGIN = 0.08  # keep sentences scoring within this of the best one
SAME = 0.8  # a sentence sharing this much of its words with one before it says the same: proposed once
ANTECEDENT_CHARS = 400  # a sentence and the one before it that names its subject, quoted together, at most
RANK_PRIOR = 0.02  # a sentence loses this much per place its source sits below the top evidence
# ...and this much more when its source is a test module, unless the question is about tests: a test
# exercises what the documentation and the code say, so its sentence is quoted only when it scores this
# much above theirs, or when they have none that answers
TEST_PRIOR = 0.1
# ...and this much when the question names files (Searcher.named: `formatting.py`, GRAPH_RECURSION_LIMIT)
# and its source is none of them, while one of them is in the evidence: the reader said where to look, so
# another file's sentence is quoted only when it scores this much above theirs, or they have none
OTHER_FILE_PRIOR = 0.1
# Text addressed to an assistant rather than a reader: quoted as an answer it would pass the injection on.
_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget) (all |any )?(the )?(previous|prior|above|earlier) (instructions|prompts?)\b"
    r"|\b(you are|act as) (an? )?(ai|assistant|language model|chatbot)\b|\bcite source \d+\b",
    re.IGNORECASE,
)
# not a doctest's >>>; a docstring's opening quotes; a block comment's opening mark (a rule of "="s
# with it) and margin ("/*", "** ")
_MARKUP = re.compile(
    r"^\s*(?:#+\s+|//+\s+|--\s+|/\*+[=*-]*\s+(?:\*\*?\s+)?|\*\*\s+|[-*+]\s+|\d+[.)]\s+|>(?!>)\s*|\|\s*"
    r"|[rRuUbB]?(?:\"\"\"|''')\s*)"
)


# Section titles, in the kinds of file that write them (in code a "#" line is a comment and a closing
# docstring quote no underline): a Markdown "#" line outside a code fence, a line over a reST underline
# at least as long as it, the line the chunk's heading names. A title names a topic and answers nothing,
# so it is never quoted.
_ATX = re.compile(r"[ \t]{0,3}#{1,6}[ \t]+\S")
_UNDERLINE = re.compile(r"[ \t]*([=\-~^\"'`#*+:.])\1{2,}[ \t]*")
# a passage of JSON opens on a bracket, a key or a comment
_JSON_TEXT = re.compile(r'\s*(?:[{}\[\],\s]*$|[{\[]\s*["{\[\d-]|"(?:[^"\\]|\\.)*"\s*:|//|/\*)', re.MULTILINE)
# a tool's settings file named for it (.prettierrc, .npmrc, .babelrc); not a shell's or an editor's script
_RC_FILE = re.compile(r"\.(?!(?:bash|zsh|ksh|csh|tcsh|mksh|vim|gvim|ex|input|screen|xinit)rc$)\w+rc")
_TITLED = frozenset(
    ".md .markdown .mdx .rst .rest .txt .text .html .htm .xhtml .docx .doc .odt .rtf .ipynb .pdf".split()
    + ".tex .latex .ltx".split()  # LaTeX, read as Markdown (engine/ingest/latex.py)
    + [*SLIDE_SUFFIXES, *BOOK_SUFFIXES]  # slides' and e-books' titles (engine/ingest/office.py)
    + [*SHEET_SUFFIXES]  # a sheet's name, its rows' heading
    + [*MAIL_SUFFIXES]  # a message's subject (engine/ingest/mail.py)
    + [*ORG_SUFFIXES, *ASCIIDOC_SUFFIXES]  # Org's and AsciiDoc's headings, read as Markdown's
)


def suffix(hit: Hit) -> str:
    """The passage's file's extension, lower case (".md"); an mbox's for Apple Mail's exported mailbox,
    a file named "mbox"."""
    path = PurePosixPath(hit.path.replace("\\", "/"))
    return path.suffix.lower() or (MAILBOX_SUFFIXES[0] if is_mailbox(path) else "")


def configuration(hit: Hit) -> list[Setting]:
    """A configuration passage's settings, read as its format writes them (engine/backends/settings.py);
    none in a file of another kind. A JSON file's where the passage is JSON's own text (a chat export
    saved as JSON is read as its messages); a tool's rc file (`.prettierrc`, `.npmrc`), in JSON, YAML or
    INI, as any configuration; a program's source, the entries of its constants' literal mappings and
    lists (settings.literals)."""
    kind = suffix(hit)
    if kind in JSON_SUFFIXES:
        return settings(hit.text, sections=False) if _JSON_TEXT.match(hit.text) else []
    name = PurePosixPath(hit.path.replace("\\", "/")).name
    if kind in CONFIG_SUFFIXES or (not kind and _RC_FILE.fullmatch(name)):
        return settings(hit.text, sections=kind not in YAML_SUFFIXES)
    return literals(hit.text) if is_source(hit.path) else []


def _in_fence(text: str, at: int) -> bool:
    """Whether offset `at` of `text` sits inside a ``` or ~~~ code fence."""
    return (text.count("```", 0, at) + text.count("~~~", 0, at)) % 2 == 1


def _underlines(line: str, title: str) -> bool:
    return bool(_UNDERLINE.fullmatch(line)) and len(line.strip()) >= len(title.strip())


def past_titles(hit: Hit, start: int, end: int) -> int:
    """Where the sentence at hit.text[start:end] starts once the title lines it opens with are left out: a
    PDF's titles are lines of their own, in no markup, which the sentence splitter reads into the sentence
    after them ("3. SECTION HEADINGS AND CAPTIONS ASME requires ..."). A title line is a line, whole,
    that the chunk's heading path holds (a title set over two lines is one title there). `end` where the
    sentence is titles alone."""
    names = [name.strip().lower() for name in hit.heading.split(" > ") if name.strip()]
    while names:
        first = hit.text.rfind("\n", 0, start) + 1
        last = hit.text.find("\n", start)
        line = hit.text[first : len(hit.text) if last < 0 else last].strip().lower()
        if len(line) < 2 or not any(line in name for name in names):
            break
        if last < 0 or last >= end:
            return end
        start = last + 1
    return start


def title(hit: Hit, start: int, end: int) -> bool:
    """Whether the sentence at hit.text[start:end] is a section title (see above)."""
    raw = hit.text[start:end].strip()
    titled = suffix(hit) in _TITLED
    if titled and _in_fence(hit.text, start):
        return False  # inside a code fence
    lines = raw.split("\n")
    if titled and len(lines) == 2:
        return _underlines(lines[1], lines[0])  # a reST title and its underline, one span
    if not raw or len(lines) > 1:
        return False
    if raw.strip("# ") in (hit.heading.strip(), hit.heading.rsplit(" > ", 1)[-1].strip()):
        return True  # the heading, or its last title (a sheet's title row under the sheet's name)
    if not titled:
        return False
    eol = hit.text.find("\n", end)
    following = hit.text[eol + 1 :].split("\n", 1)[0] if eol >= 0 else ""
    return _underlines(following, raw) or bool(_ATX.match(raw))


@dataclass(frozen=True)
class Candidate:
    source: int
    text: str  # verbatim from the source: the quote
    order: int
    display: str = ""  # what the answer shows (table rows get their column names)
    focus: str = ""  # what is scored, when not the display: a lead-in is ranked by its own sentence
    under: str = ""  # the titles it sits under (`titles`), which it is ranked with

    @property
    def said(self) -> str:
        """What the answer shows of it."""
        return shown(self.display or plain(self.text))


# a one-line docstring's closing quotes, a block comment's close
_DOCSTRING_END = re.compile(r"\s*(?:\"\"\"|'''|\*+/)$")


def clean(sentence: str) -> str:
    """Drop leading Markdown markup; the result stays a substring of the source."""
    return _DOCSTRING_END.sub("", _MARKUP.sub("", sentence).strip().strip("|").strip())


# MyST {class}`X`, reST :func:`X`; a role's `~pkg.mod.Name` (or `~pkg.Name()`) is shown as its last part
# (`~mask` alone is code), an intersphinx target's `python:argument` as its term
_ROLE = re.compile(  # a role opens its own word or follows a figure (4{sup}`th`): not a code span's closing
    # group (`\extrafloats{500}`)
    r"(?:(?<![A-Za-z_\\}])\{[\w:.+-]+\}|(?<![\w:]):[\w:.+-]+:)`(?:~(?:\w+\.)*(?=\w+(?:\(\))?`)|[a-z][\w-]*:(?=[\w.-]+`))?"
)


# a code fence and its language tag, a MyST directive fence (```{doctest}, :::{note}) and a reST
# directive marker (".. seealso::")
_FENCE = re.compile(r"(?:```+|~~~+|:::+)(?:\{[\w:.+-]+\}|[\w+-]*)|(?m:^[ \t]*\.\. [\w:-]+::)")
# Emphasis: **x**, *x* and __a phrase__; never a Python dunder (__init__), a glob (*.md) or C's pointer up
# to a comment ("*next;  /* the next node */")
_EMPHASIS = re.compile(
    r"(?<![\w*(=,{])\*\*(?=[^\s*])((?:(?!\*\*).)+?)(?<=[^\s*])\*\*(?![\w*])"  # not **kwargs, f(a, **b)
    r"|(?<![\w*/])\*(?=[^\s*/])(.+?)(?<=[^\s*/])\*(?![\w*/])"  # not a comment's "/*" or "*/"
    r"|(?<!\w)__(?=[^\W_][^_]*\s)(.+?)(?<=\S)__(?!\w)"
)
_TARGET = re.compile(r"`([^`<\n]*?[^\s`<])\s+<[^`>\n]+>`_*")  # reST `text <target>`, not `Vec<u8>`
_LITERAL = re.compile(r"(?<=\S)::(?=\s|$)")  # reST "Example::" introducing a literal block
# a line of words (four or more, no code punctuation but a figure's point: "10.12"): what a comment
# sentence's first line looks like
_PROSE_LINE = re.compile(
    r"[ \t]*(?:(?:#|//[/!]?|--|\*)[ \t]*)?[A-Za-z][\w'’-]*(?:,?[ \t]+(?:\d+(?:\.\d+)+|[\w'’-]+)){3,}[ \t]*"
)


# a line of words, however few, with a sentence's punctuation ("Parse the header. It must")
_WORDS_LINE = re.compile(
    r"[ \t]*[A-Za-z][\w'’-]*[.,;:!?]?(?:[ \t]+(?:\d+(?:\.\d+)+|[\w'’-]+)[.,;:!?]?)*[ \t]*"
)


def _join_comments(text: str, sentence: bool = False) -> str:
    """A comment line ("# ", "// ", a block comment's " * ") continuing a line of words (a comment sentence
    over two lines) joins it, its mark dropped; so does one under a first line of words however short, a
    comment sentence opening after another on its line ("...can fail. Set the modified" / "# time to
    be..."); a comment after a line of code stays a comment. In a `sentence` (split_sentences' span, where a
    " * " line is one only inside a block comment, joined to the line above by what it says) every " * "
    line joins the one above, and so does a comment line under one of words (split_sentences read them as
    one sentence: "...so that enough" / "// empty sub-expressions will"), or under the sentence's first
    line, opening inside a comment line; one under commented-out code ("# x = 1" / "# y = 2") stays a
    line of its own."""
    out: list[str] = []
    for line in text.split("\n"):
        star = STAR_LINE.match(line)
        mark = COMMENT_LINE.match(line) or star
        first = len(out) == 1 and _WORDS_LINE.fullmatch(out[0]) and not _CODE_LINE.match(out[0])
        opening = len(out) == 1 and not _CODE_LINE.match(out[0])  # the sentence's first line, no code
        said = sentence and out and (opening or _comment_words(out[-1]))
        if mark and out and ((sentence and star) or said or first or _PROSE_LINE.fullmatch(out[-1])):
            out[-1] += " " + line[mark.end() :]
        else:
            out.append(line)
    return "\n".join(out)


def _comment_words(line: str) -> bool:
    """Whether `line` is a comment line whose text is no code."""
    mark = COMMENT_LINE.match(line) or STAR_LINE.match(line)
    return mark is not None and _CODE_LINE.match(line, mark.end()) is None


# A line of code: a prompt, a definition, an import, a statement, an assignment, a line opening or
# closing a bracket or a block
_CODE_LINE = re.compile(
    r"\s*(?:>>>|\.\.\.\s|(?:async )?def |class |import |from \S+ import |return\b|raise |yield\b|@\w"
    r"|(?:if|elif|else|for|while|with|try|except|finally)\b.*:\s*$"
    r"|[\w.\[\]'\"]+\s*[-+*/|&]?=[^=]|.*[({\[]\s*$|[)}\]])"
)


# A reST directive whose indented body is code (".. code-block:: python"), or a paragraph ending in "::"
_LITERAL_OPENER = re.compile(
    r"[ \t]*\.\. (?:code-block|code|sourcecode|doctest|testcode|testsetup|testoutput|ipython"
    r"|jupyter-execute)::.*|(?![ \t]*\.\. ).*\S::[ \t]*|[ \t]*::[ \t]*"
)


def in_literal_block(text: str, at: int) -> bool:
    """Whether the line holding offset `at` of `text` is in a reST literal block: indented below a line
    that opens one (a code directive, or a paragraph ending in "::"), past blank lines and the block's
    other lines (indented, if less deep than this one: a class around its method)."""
    start = text.rfind("\n", 0, at) + 1
    line = text[start : text.find("\n", at) if "\n" in text[at:] else len(text)]
    depth = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
    if not depth:
        return False
    for before in reversed(text[: max(0, start - 1)].split("\n")):
        if not before.strip():
            continue
        indent = len(before.expandtabs(4)) - len(before.expandtabs(4).lstrip())
        if indent < depth:
            if _LITERAL_OPENER.fullmatch(before):
                return True
            if not indent:
                return False
            depth = indent  # a less indented line of the same block (a class around its body)
    return False


def opens_indented(text: str, at: int) -> bool:
    """Whether every line of `text` up to the one holding offset `at` is indented (blank lines aside):
    the passage was cut inside an indented block, whose opener lies before it."""
    upto = text[: text.find("\n", at) if "\n" in text[at:] else len(text)]
    return all(line[:1] in " \t" for line in upto.split("\n") if line.strip())


# A statement of a language with semicolons and braces (C, JavaScript, Java, Rust): a line ending with ";",
# "{" or "}" (a comment after it aside), or a preprocessor directive; not a comment's line
_STATEMENT = re.compile(
    r"(?![ \t]*(?:/[/*]|\*|#[ \t]))[^\n]*[;{}][ \t]*(?:/\*[^\n]*\*/|//[^\n]*)?[ \t]*"
    r"|[ \t]*#[ \t]*(?:define|include|if|ifdef|ifndef|elif|else|endif|undef)\b[^\n]*"
)


def is_code(hit: Hit, quote: str) -> bool:
    """Whether a quote of several lines is code or an example, shown with its lines: a doctest, a fenced
    block, a reST literal block (or, in a document, an indented block the passage opens inside, when a
    line of it reads as code: the block's opener sits in the passage before), or two lines of code in a
    source file."""
    lines = [line for line in quote.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    if "```" in quote or any(line.lstrip().startswith(">>>") for line in lines):
        return True
    at = hit.text.find(quote)
    if at >= 0 and in_literal_block(hit.text, at):
        return True
    document = suffix(hit) in _TITLED
    if document and at >= 0 and opens_indented(hit.text, at) and any(_CODE_LINE.match(x) for x in lines):
        return True
    found = extractor_for(Path(hit.path))
    in_code = found is not None and getattr(found, "kind", "") in ("python", "code")
    return in_code and sum(bool(_CODE_LINE.match(line) or _STATEMENT.fullmatch(line)) for line in lines) >= 2


def plain_lines(text: str, indent: int = 0) -> str:
    """Display text of code: as `plain`, but each line kept, its indentation less the block's (the first
    line starts `indent` columns in), blank lines and fence markers dropped."""
    text = _join_comments(_FENCE.sub(" ", _ROLE.sub("`", text)))
    lines = [line.rstrip() for line in text.split("\n")]
    if lines:
        lines[0] = " " * indent + lines[0].lstrip()
    lines = [line.expandtabs(4) for line in lines if line.strip()]
    cut = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    return "\n".join(line[cut:] for line in lines)


# A role naming an issue or a pull request by its number (:issue:`375`, :pr:`299`): a reference, no words
_NUMBER_ROLE = re.compile(r"[ \t]*(?:\{[\w:.+-]+\}|(?<![\w:]):[\w:.+-]+:)`#?\d+`")


# A reST field opening a docstring's line (Sphinx's info fields): a parameter's said as its name
# (":param salt:" as "salt:"), any other as its words (":raises ValueError:", ":returns:")
_FIELD = re.compile(r"^(\s*):(\w+)(?:\s+(?:[\w.\[\], |]+\s+)?(\*{0,2}\w+))?:(?=\s|$)")
_NAMES_ONE = frozenset("param parameter arg argument key keyword type var ivar cvar vartype".split())


def _field(m: re.Match[str]) -> str:
    field, name = m.group(2), m.group(3)
    return f"{m.group(1)}{name if name and field in _NAMES_ONE else ' '.join(filter(None, (field, name)))}:"


# C#'s documentation comments (F#'s and Visual Basic's too) write their text inside XML tags: a reference
# (<see cref="T:Game.MaxSlots"/>, <paramref name="slot"/>) is shown as its name, a parameter's or an
# exception's text after its name ("slot: The save slot"), and the tags around the rest (<summary>,
# <remarks>, <returns>, <para>) as nothing
_XML_DOC_REF = re.compile(
    r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="(?:[A-Z]:)?([^"\n]*)"\s*/>'
)
_XML_DOC_NAMED = re.compile(r'<(?:param|typeparam|exception)\s+(?:name|cref)="(?:[A-Z]:)?([^"\n]*)"\s*>')
_XML_DOC_TAG = re.compile(DOC_TAG)  # the tags that also set a comment's paragraph apart (text.py)


def xml_doc(text: str) -> str:
    """Text with C#'s documentation tags read as they say (see above)."""
    if "<" not in text:
        return text
    text = _XML_DOC_NAMED.sub(r"\1: ", _XML_DOC_REF.sub(r"\1", text))
    return _XML_DOC_TAG.sub(" ", text)


def plain(text: str) -> str:
    """Display text: Markdown emphasis, code fences and ticks, MyST/reST roles and link targets removed
    (a role's `~pkg.Name` as Name; a Markdown link is shown as its text only when said, `shown`); a
    reST field as its name (":param salt: Extra key" as "salt: Extra key"); a comment sentence's lines
    joined, a C# documentation comment's tags read (`xml_doc`); a table row's cells joined with
    semicolons (a | elsewhere is code: `bytes | None`); line breaks and indentation as single spaces; a
    word hyphenated over a line end whole (`rejoined`)."""
    text = _FIELD.sub(_field, rejoined(text))
    text = _ROLE.sub("`", _NUMBER_ROLE.sub("", text))
    text = xml_doc(_join_comments(_FENCE.sub(" ", _TARGET.sub(r"\1", text)), sentence=True))
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2) or m.group(3) or "", text).replace("`", "")
    text = _LITERAL.sub(":", text)
    if text.lstrip().startswith("|"):
        text = re.sub(r"\s*\|\s*", "; ", text).strip("; ")
    return " ".join(text.split())


def shown(display: str) -> str:
    """What the reader sees of a display text: a Markdown link as its text. (Sentences are ranked on the
    display text with its link targets, as the fitted lines were.)"""
    return LINK.sub(r"\1", display)


# A line that only imports or names its module: Python's import and from-import, JavaScript's import and
# require, Go's import, Rust's use, C's #include, Java's import (static, of a whole package) and the
# package a Java, Kotlin, Scala or Go file declares, C#'s using (a `>>>` prompt before it counts)
_IMPORT = re.compile(
    r"\s*(?:>>>\s*)?(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*\s*;?"
    r"|(?:import(?:\s+static)?|package)\s+[\w.]+(?:\.\*)?\s*;?|using\s+(?:static\s+)?[\w.]+\s*;"
    r"|from\s+[\w.]+\s+import\s+[^=()]*?(?:\([^=)]*\)?)?"
    r"|import\s+[^=;]*?\s+from\s+['\"][^'\"]+['\"]\s*;?|import\s+['\"][^'\"]+['\"]\s*;?"
    r"|(?:const|let|var)\s+[\w{},\s]+=\s*require\(['\"][^'\"]+['\"]\)\s*;?"
    r"|use\s+[\w:{}, *]+;|#\s*include\s*[<\"][^>\"]+[>\"])\s*$"
)
_ENDS = tuple(".!?:;)\"'`*")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# A table's separator row or a rule: dashes, with pipes, colons and spaces, and no word after them; a line
# opening with "-- " and words is an SQL, Lua or Haskell comment, a sentence
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}(?![^\n]*[^\W_])")


def table_header(text: str, offset: int) -> list[str]:
    """Column names of the Markdown table a row at `offset` belongs to (empty if it is not in one)."""
    lines = text[:offset].splitlines()
    for i in range(len(lines) - 1, 0, -1):
        if _SEPARATOR.match(lines[i]) and lines[i - 1].strip().startswith("|"):
            return [c.strip() for c in lines[i - 1].strip().strip("|").split("|")]
        if not lines[i].strip().startswith("|"):
            return []
    return []


def row_display(row: str, header: list[str]) -> str:
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if not header or len(header) != len(cells):
        return plain(row)
    pairs = zip(header, cells, strict=True)  # a column without a name (over the rows' names): its cells alone
    return "; ".join(f"{plain(h)}: {plain(c)}" if plain(h) else plain(c) for h, c in pairs if c)


def proposed(
    adjusted: Sequence[float],
    answers: Callable[[int], float | None] | None = None,
    weight: float = 0.0,
) -> list[bool]:
    """Of sentences ranked best first by adjusted score, those the generator proposes: the first
    MAX_SENTENCES within MARGIN of the best. With a judge (`answers(place)`: the answer check's
    probability that the sentence at that place answers the question, None where it judges it does
    not), of the first LOOK those it accepts: a sentence ranked first that does not answer gives its
    place to the next that does, rather than leaving the answer refused while an answering sentence
    sits one place below the line. Of those, the ones within MARGIN of the best accepted, by adjusted
    score or by their score with `weight` times the check's probability added (the check reads the
    question with the sentence, which the ranking's words and cosine do not; `citeline calibrate` fits
    the weight, the extractive "weight" of calibration.json, 0 as designed), the best MAX_SENTENCES by
    that score. The weight can let in a sentence the check rates highly; it never keeps out one the
    ranking alone would show, unless more than MAX_SENTENCES compete. The judge is asked in rank
    order, only as far as this rule reads (ExtractiveGenerator.generate asks the answer check;
    calibrate.outcomes replays it from recorded probabilities)."""
    if answers is None:
        return [place < MAX_SENTENCES and adj >= adjusted[0] - MARGIN for place, adj in enumerate(adjusted)]
    scored: dict[int, float] = {}  # accepted place -> its score with the check's probability
    first: float | None = None  # the best accepted adjusted score (the first accepted: ranked by it)
    best: float | None = None  # the best accepted score with the probability
    for place, adj in enumerate(adjusted[:LOOK]):
        if first is not None and best is not None and adj < first - MARGIN and adj + weight < best - MARGIN:
            break  # no sentence from here on comes within MARGIN either way (a probability is at most 1)
        if not weight and len(scored) >= MAX_SENTENCES:
            break  # ranked by adjusted score alone, the first accepted are the best
        probability = answers(place)
        if probability is not None:
            scored[place] = adj + weight * probability
            first = adj if first is None else first
            best = scored[place] if best is None else max(best, scored[place])
    if first is None or best is None:
        return [False] * len(adjusted)
    window = [p for p, score in scored.items() if adjusted[p] >= first - MARGIN or score >= best - MARGIN]
    keep = sorted(window, key=lambda p: (-scored[p], p))[:MAX_SENTENCES]
    return [place in keep for place in range(len(adjusted))]


def antecedent(hit: Hit, previous: tuple[int, int], start: int, end: int) -> int | None:
    """Where the sentence before the one at `start` begins, when it can be quoted with it: in the same
    paragraph (no blank line between, nor a comment's blank line: "//"), not a title, not a lead-in, not a
    new list item (a sentence that continues an item, on its line or the next, is quoted with the item's
    first: "- Positional arguments are interpolated using %." then "That might look dated, but it's much
    faster..."), and the two short enough together."""
    p_start, p_end = previous
    before = hit.text[p_start:p_end]
    if _BLANK_LINE.search(hit.text, p_end, start) or end - p_start > ANTECEDENT_CHARS:
        return None
    if not LETTER.search(before):  # a comment's blank line ("//", "#"): its paragraph ends there
        return None
    if title(hit, p_start, p_end) or lead_in(hit.text, p_start, before) or _SEPARATOR.match(before):
        return None
    line = hit.text.rfind("\n", 0, start) + 1
    if not hit.text[line:start].strip() and LIST_ITEM.match(hit.text[line:end]):
        return None  # list items each say their own thing: an item, nested too, stands alone
    return p_start


def figure_title(raw: str, asked: frozenset[str]) -> str:
    """A title's line, without its Markdown markup, when it states a figure besides those `asked` (the
    question's own) and, if the question names any, one of them too: "pluggy 1.5.0 (2024-04-19)" asked
    about 1.5.0, "## v2.3 - March 4, 2021" asked when a feature came. A release's date and version are
    often written nowhere else. Empty for a title without digits, one that only repeats the question's
    figure ("Version 2.1.2"), or one about another ("Version 1.0.0", asked about 2.1.2)."""
    line = clean(raw.strip().split("\n", 1)[0])
    stated = set(FIGURE.findall(_past_section_number(line)))
    return line if stated - asked and (stated & asked or not asked) and len(words(line)) >= 2 else ""


# the number a title opens with ("3 Holidays", "2.1 Office and studio"): one or two levels of a numbered
# outline before a capitalised word (a release's "1.5.0 (2024-04-19)" has three, or no word after it)
_NUMBERED = re.compile(r"^\d{1,2}(?:\.\d{1,2})?\.?[ \t]+(?=[A-Z][a-z])")


def _past_section_number(line: str) -> str:
    """A title without the section's number it opens with, which is no figure of its topic; a quantity
    stays ("30 Days Return Policy": a unit follows it, english.UNITS)."""
    numbered = _NUMBERED.match(line)
    if numbered is None or line[numbered.end() :].split(" ", 1)[0].lower() in UNITS:
        return line
    return line[numbered.end() :]


# A release's title: a version, at most three words before it ("Version 2.2.0", "pluggy 1.4.0", "What's
# new in 3.12", "[1.0.0]"), and after it nothing but a date, a parenthesis or a separator ("(2024-01-24)",
# "- March 4, 2021", "(YANKED)"). "Python 3.8 support" is a topic, not a release.
_MONTH = "|".join(f"{m[:3]}(?:{m[3:]})?" for m in MONTHS)  # "March", "Mar"
_VERSION = r"\[?v?\d+(?:\.\d+)+(?:[-.+]?[A-Za-z]+\d*)*\]?"
_DAY = r"\d{1,4}(?:[-/.]\d{1,2}){0,2}(?:st|nd|rd|th)?"  # 2024-01-24, 4th, 2021
_AFTER = rf"(?:\([^()\n]{{0,40}}\)|{_DAY}|(?i:{_MONTH})\.?|[-–—:,/])"
_RELEASE = re.compile(rf"(?:[\w'’.-]+\s+){{0,3}}({_VERSION})(?:\s*{_AFTER})*\s*")


def release(hit: Hit) -> tuple[str, str]:
    """The release a chunk's text sits under, as its title says it and its version: the innermost part
    of the chunk's heading path that is a release's title (pluggy's "Changelog > pluggy 1.4.0
    (2024-01-24) > Features": "pluggy 1.4.0 (2024-01-24)", "1.4.0"), or ("", "")."""
    for part in reversed(hit.heading.split(" > ")):
        said = shown(plain(part))
        if m := _RELEASE.fullmatch(said):
            return said, m.group(1).strip("[]").lstrip("v")
    return "", ""


def in_release(display: str, hit: Hit) -> str:
    """A changelog entry said with its release ("Version 2.2.0: Drop support for Python 3.7."): the
    entry alone does not say which release made the change, and a question often names the wrong one.
    Unchanged where it is not under a release or names the version itself."""
    said, version = release(hit)
    if not said or version in display:
        return display
    return f"{said}: {display}"


def titles(hit: Hit, start: int) -> str:
    """The titles the sentence at hit.text[start:] sits under, in a titled document: the chunk's heading
    path, then the last title line above it in the chunk (a Markdown heading of level L keeps the first
    L-1 parts of the path, a reST title the first). A note's lines rarely repeat its title ("# Tomás's
    leaving do" over "venue: the Anchor, back room"): read without it, a question's words only match the
    lines that mention them in passing. Empty in other files, whose heading path is a code symbol."""
    if suffix(hit) not in _TITLED:
        return ""
    parts = [p.strip() for p in hit.heading.split(" > ") if p.strip()]
    lines = hit.text[: hit.text.rfind("\n", 0, start) + 1].split("\n")[:-1]  # the lines above its own
    fenced = _in_fence(hit.text, start)
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        fence = "```" in line or "~~~" in line
        if fenced or fence:
            fenced = fenced != fence
            continue
        if _ATX.match(line):
            level = len(line.strip()) - len(line.strip().lstrip("#"))
            return plain(" ".join([*parts[: level - 1], line.strip().lstrip("#").strip()]))
        if (
            i + 1 < len(lines)
            and line.strip()
            and _underlines(lines[i + 1], line)
            and not _UNDERLINE.fullmatch(line)
        ):
            return plain(" ".join([*parts[:1], line.strip()]))
    return plain(" ".join(parts))


def candidates(evidence: Sequence[Hit], asked: frozenset[str] | None = None) -> list[Candidate]:
    """Every sentence of the evidence that may be quoted, in order. `asked`: the figures of a question
    that asks for one, which a title stating another may then answer (see figure_title)."""
    out: list[Candidate] = []
    # every passage the pipeline gives as evidence: the window lists each, so each may be quoted
    for n, hit in enumerate(evidence, start=1):
        spans = records(hit.text) if suffix(hit) in TABLE_SUFFIXES else []
        spans = spans or printed_apart(hit.text, split_sentences(hit.text))  # (a row cut into pieces: prose)
        configured = {(s.start, s.end): s for s in configuration(hit)}
        if configured:  # a configuration's settings each a quote, with the comment above each; its other
            quotes = list(configured)
            blocks = [(a, z) for a, z, _ in literal_blocks(hit.text)] if is_source(hit.path) else []
            kept = (  # sentences, or a program's statements without the literals its entries replace (and
                [  # the comments in those that no entry's quote holds)
                    *outside(hit.text, spans, blocks),
                    *(c for a, z in blocks for c in comments(hit.text, a, z) if not _within(c, quotes)),
                ]
                if blocks
                else apart(hit.text, spans, configured.values())
            )
            spans = sorted(set([*kept, *quotes]))
        paged = suffix(hit) == ".pdf"
        for i, (start, end) in enumerate(spans):
            if (setting := configured.get((start, end))) is not None:
                said = setting_shown(setting, hit.text)
                out.append(Candidate(n, hit.text[start:end], len(out), said, "", context(setting, hit)))
                continue
            if paged and hit.heading and (start := past_titles(hit, start, end)) >= end:
                continue  # titles alone
            raw = hit.text[start:end]
            if paged and len(spans) > 1 and cut_off(raw, i == 0, i + 1 == len(spans)):
                continue
            if title(hit, start, end):  # a title names a topic and answers nothing: not quoted, unless
                if asked is not None and (dated := figure_title(raw, asked)):  # it states what is asked
                    out.append(Candidate(n, dated, len(out), plain(dated)))
                continue
            whole = i + 1 < len(spans) or raw.rstrip().endswith(_ENDS)  # not cut off by the chunk's end
            printed = output_at(hit.text, start) is not None  # a line a program printed: on its own
            if (
                i
                and not printed
                and whole
                and ANAPHORA.match(raw)
                and (before := antecedent(hit, spans[i - 1], start, end)) is not None
                and not (paged and cut_off(hit.text[before : spans[i - 1][1]], i == 1, False))
            ):
                start, raw = before, hit.text[before:end]  # quoted with the sentence naming its subject
            # a lead-in ("...in this order:") is quoted with the list after it, its answer
            leads = not printed and lead_in(hit.text, start, raw)
            last, lines = list_after(hit.text, end) if leads else (end, [])
            block = ""  # ...and one ending in a colon with the code after it ("To install it, run:"), or
            # any lead-in with a fenced block after it ("Examples of valid integer constants are" + block)
            if (
                not lines
                and not printed
                and (raw.rstrip().endswith(":") or (leads and _FENCE_NEXT.match(hit.text, end)))
                and not _CODE_LINE.match(raw)  # "def f(x):" opens its body, no lead-in
                and (last := block_after(hit.text, end)) > end
            ):
                block = hit.text[end:last]
            text = clean(hit.text[start:last])
            header = table_header(hit.text, start) if raw.strip().startswith("|") else []
            says = row_display(raw, header) if header else text  # a row says its cells under their columns
            # a printed label and its figure say what they need to, and so does any short line stating a
            # figure of its subject ("Churn fell to 3%", a slide's bullet): the figure is the answer
            few = (8, 2) if printed or FIGURE.search(says) else (20, 3)
            if len(says) < few[0] or len(content_terms(says)) < few[1] or _SEPARATOR.match(raw):
                continue
            if raw.strip().startswith("|") and _SEPARATOR_NEXT.match(hit.text, end):
                continue  # a table's header row: its columns' names, which its rows are quoted under
            if clean(raw).rstrip("*_ ").endswith("?"):  # a question in the source is not an answer
                continue
            if _INSTRUCTION.search(text):
                continue
            if all(_IMPORT.match(line) for line in text.split("\n") if line.strip()):
                continue  # an import names a module and says nothing of what it does
            under = titles(hit, start)  # what it is ranked with besides its own words
            if printed and (call := printed_by(hit.text, start)):  # also with the code that printed it
                under = f"{under} {call}".strip()
            if lines:
                lead = plain(clean(raw))
                items = [plain(clean(" ".join(item))).rstrip(",;") for item in lines]
                said = " ".join(i if i.endswith((".", "!", "?")) else f"{i};" for i in items[:-1])
                display = " ".join(f"{lead} {said} {items[-1]}".split())
                out.append(Candidate(n, text, len(out), in_release(display, hit), lead, under))
                continue
            if block:  # shown with its lines, ranked on the lead-in and the code's words
                lead = plain(clean(hit.text[start:end]))
                display = f"{lead}\n{plain_lines(block)}"
                focus = f"{lead} {plain(block)}"
                out.append(Candidate(n, text, len(out), in_release(display, hit), focus, under))
                continue
            if header:
                display = says
            elif is_code(hit, code := hit.text[start:last].strip()):  # shown with its lines; ranked as
                text = code  # one line of words, as before; its first "#" is a comment, kept
                at = hit.text.find(text, start)
                prefix = hit.text[hit.text.rfind("\n", 0, at) + 1 : at]  # the first line's indentation
                display = plain_lines(text, len(prefix.expandtabs(4)) if prefix.isspace() else 0)
                out.append(Candidate(n, text, len(out), display, plain(text), under))
                continue
            else:
                display = plain(raw if raw.lstrip().startswith("|") else text)
                if len(content_terms(display)) < few[1]:  # markup that says nothing (".. code-block::")
                    continue
            dated = in_release(display, hit)  # ranked as before, and on a version the question names
            focus = f"{display} {release(hit)[1]}" if dated != display else ""
            out.append(Candidate(n, text, len(out), dated, focus, under))
    return distinct(out)


# A notebook cell's saved output, as the extractor fences it: "```output" ... "```" (a longer fence where
# the output prints backticks)
_OUTPUT_BLOCK = re.compile(r"^(`{3,})output[ \t]*\n(.*?)(?:^\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)


def records(text: str) -> list[tuple[int, int]]:
    """A table's passage read row by row: each row ("Item=Rent; Amount=1200") a sentence of its own,
    whole, and so is each line of text among them (a note, a sheet's title: `title` keeps the title out);
    the header (the column names, no value) names what the rows hold and answers nothing, so it is not
    quoted, as a title is not. A row's cells hold no full stop, so the sentence splitter read a table's
    rows as one sentence: asked when the rent is due, the answer quoted every row."""
    spans: list[tuple[int, int]] = []
    lines = text.split("\n")
    if not any("=" in line for line in lines):
        return spans  # no rows: prose, read by its sentences
    at = 0
    for i, line in enumerate(lines):
        if line.strip() and not _names_columns(line, lines[i + 1 :]):
            spans.append((at + len(line) - len(line.lstrip()), at + len(line.rstrip())))
        at += len(line) + 1
    return spans


def _names_columns(line: str, after: list[str]) -> bool:
    """Whether a table's line is its header: no value of its own, and the columns of the next row named."""
    if "=" in line:
        return False
    names = set(line.strip().split("; "))
    row = next((later for later in after if "=" in later), "")
    return bool(row) and all(
        cell.split("=", 1)[0] in names for cell in row.strip().split("; ") if "=" in cell
    )


def apart(text: str, spans: list[tuple[int, int]], quoted: Collection[Setting]) -> list[tuple[int, int]]:
    """Of a configuration's sentence spans, what is no setting's: a span that meets none whole (a folded
    scalar's prose, a comment apart), else the runs of comment lines it holds that no setting quotes."""
    taken = [(s.start, s.end) for s in quoted]
    out = []
    for start, end in spans:
        if not any(a < end and start < z for a, z in taken):
            while (eol := text.find("\n", start, end)) >= 0 and structure(text[start:eol]):
                start = eol + 1 + len(text[eol + 1 : end]) - len(text[eol + 1 : end].lstrip())
            out.append((start, end))  # its keys ("description: >", a document's "---") left out
        else:
            out += [c for c in comments(text, start, end) if not _within(c, taken)]
    return out


def _within(span: tuple[int, int], quotes: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] < z for a, z in quotes)


def outside(text: str, spans: list[tuple[int, int]], blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of `spans` outside `blocks` that hold a word, each trimmed of the space around it."""
    out = []
    for span in spans:
        pieces = [span]
        for lo, hi in blocks:
            pieces = [p for a, z in pieces for p in ((a, min(z, lo)), (max(a, hi), z)) if p[1] > p[0]]
        for a, z in pieces:
            piece = text[a:z]
            if re.search(r"\w", piece):
                out.append((a + len(piece) - len(piece.lstrip()), a + len(piece.rstrip())))
    return out


def comments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The runs of comment lines a configuration's sentence span holds (a setting's line is a quote of
    its own: `settings`)."""
    out: list[tuple[int, int]] = []
    lo = hi = -1
    at = text.rfind("\n", 0, start) + 1
    while at < end:
        eol = text.find("\n", at)
        eol = len(text) if eol < 0 or eol > end else eol
        if CONFIG_COMMENT.match(text, at):
            lo, hi = (max(at, start) if lo < 0 else lo), eol
        elif lo >= 0:
            out.append((lo, hi))
            lo = -1
        at = eol + 1
    if lo >= 0:
        out.append((lo, min(hi, end)))
    return [(lo + len(text[lo:hi]) - len(text[lo:hi].lstrip()), hi) for lo, hi in out if text[lo:hi].strip()]


def printed_apart(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentence spans with what a program printed read line by line: a notebook's output block is no
    prose whose sentences run over its lines, nor part of the code above it. Each of its lines is a span
    of its own, whole ("Dep. Variable: y   R-squared: 0.978" is one printed row, not two sentences); every
    other span is cut at a block's edges."""
    blocks = list(_OUTPUT_BLOCK.finditer(text))
    if not blocks:
        return spans
    edges = sorted({at for m in blocks for at in (m.start(), m.end())})
    out: list[tuple[int, int]] = []
    for start, end in spans:
        inner = [at for at in edges if start < at < end]
        for lo, hi in zip([start, *inner], [*inner, end], strict=True):
            if any(m.start() <= lo and hi <= m.end() for m in blocks):
                continue  # within a block: its lines, below
            lo = lo + len(text[lo:hi]) - len(text[lo:hi].lstrip())
            hi = lo + len(text[lo:hi].rstrip())
            if any(not line.strip().startswith("```") for line in text[lo:hi].split("\n") if line.strip()):
                out.append((lo, hi))  # not a fence alone
    for m in blocks:
        at = m.start(2)
        for line in m.group(2).split("\n"):
            if line.strip():
                lo = at + len(line) - len(line.lstrip())  # the line's indentation kept out
                out.append((lo, at + len(line.rstrip())))
            at += len(line) + 1
    return sorted(out)


_OPENER = re.compile(r"[ \t]*`{3,}([\w+-]+)[ \t]*")
CALL_CHARS = 300  # of the code that printed an output, the end is read: the call that printed it


def output_at(text: str, at: int) -> re.Match[str] | None:
    """The output block whose text offset `at` of `text` lies in, if any."""
    return next((m for m in _OUTPUT_BLOCK.finditer(text) if m.start(2) <= at < m.end(2)), None)


def printed_by(text: str, at: int) -> str:
    """The code that printed the output block offset `at` sits in (its last CALL_CHARS characters, as
    display text), where the chunk holds that code cell above the block, with only the cell's other
    outputs between; else ""."""
    block = output_at(text, at)
    if block is None:
        return ""
    lines = text[: block.start()].split("\n")
    i = len(lines) - 1
    while i >= 0:
        if not lines[i].strip():
            i -= 1
            continue
        if not lines[i].strip().startswith("```") or _OPENER.fullmatch(lines[i]):
            return ""  # prose, or an opener with nothing closed under it
        j = i - 1  # a closing fence: its opener
        while j >= 0 and not _OPENER.fullmatch(lines[j]):
            j -= 1
        if j < 0:
            return ""
        opener = _OPENER.fullmatch(lines[j])
        if opener is not None and opener.group(1) != "output":
            return plain("\n".join(lines[j + 1 : i])[-CALL_CHARS:])
        i = j - 1  # another output of the same cell
    return ""


# the next line is a table's separator
_SEPARATOR_NEXT = re.compile(r"[ \t]*\n[ \t]*\|?[ \t]*:?-{2,}(?![^\n]*[^\W_])")
_FENCE_NEXT = re.compile(r"[ \t]*\n(?:[ \t]*\n)*[ \t]*(?:`{3,}|~{3,})")  # the next line written is a fence


# How a sentence that goes on past the passage's end ends: a lower-case word, a comma, an opening bracket
# or a hyphen (not a figure, a unit or a bullet's last word: "Costs fell 5%")
_GOES_ON = re.compile(r"(?:\b[a-z]+|[,(\[-])\s*$")


def cut_off(raw: str, first: bool, last: bool) -> bool:
    """Whether a sentence of a PDF's passage is a piece of one that the passage's edge cut: a PDF's lines
    are its page's layout, with no blank line between paragraphs, so a passage opens or closes inside a
    sentence as often as not. The first opening with a lower-case word began before it ("writing them in
    blocks and thereby reducing memory usage."); the last ending on a word or a comma goes on after it
    ("for an alternative (and in many ways"). A piece says only part of what its sentence says: not
    quoted, where the passage holds another sentence (a slide's or a datasheet's lines have no stops)."""
    text = raw.strip()
    opens = text.split(maxsplit=1)[0] if text else ""
    if first and opens.isalpha() and opens.islower():  # not "iOS 17 adds ...", "eBay's ...", "--flag"
        return True
    return last and _GOES_ON.search(text) is not None


def distinct(found: list[Candidate]) -> list[Candidate]:
    """The candidates less those that repeat one before them (a docstring copied onto a wrapper, a
    sentence in two files): the same figures, and the share of words they have in common (Jaccard) at
    least SAME. Two versions of a price list differ in a figure: both stay, for the conflict check."""
    kept: list[Candidate] = []
    seen: list[tuple[str, str, list[str], set[str], int]] = []  # quote, normalized, figures, terms, source
    for cand in found:
        said = cand.display or cand.text
        figures, terms, whole = _FIGURE.findall(said), set(content_terms(said)), normalize(cand.text)
        piece = next(  # ...and where one before it is the start of this one, cut by its passage's end
            (j for j, (_, part, *_, at) in enumerate(seen) if at != cand.source and _piece(part, whole)),
            None,
        )
        if piece is not None:  # the whole sentence takes its place
            seen[piece] = (cand.text, whole, figures, terms, cand.source)
            kept[piece] = replace(cand, order=kept[piece].order)
            continue
        if any(
            # a sentence quoted again with the one before it is not a repeat: it says more
            (
                figures == f
                and len(terms & t) >= SAME * len(terms | t)
                and not _says_more(cand.text, quote, whole, part)
            )
            # nor is the part of another file's quote (two copies of a page, one chunk cut shorter):
            # within one passage a list item stays, which its lead-in quotes with the list
            or (source != cand.source and whole in part)
            for quote, part, f, t, source in seen
        ):
            continue
        seen.append((cand.text, whole, figures, terms, cand.source))
        kept.append(cand)
    return kept


def _says_more(text: str, quote: str, whole: str, part: str) -> bool:
    """Whether `text` holds `quote` and more (`whole` and `part`: the two normalized)."""
    return quote in text and len(whole) > len(part)


def _piece(part: str, whole: str) -> bool:
    """Whether `part` is the opening of the sentence `whole` (both normalized) up to a word it goes on
    from (a passage's end cut it: "...and is much faster than"), which the next passage, repeating the cut
    line, holds."""
    return len(whole) > len(part) and whole.startswith(part) and _GOES_ON.search(part) is not None


class ExtractiveGenerator:
    name = "extractive"

    def __init__(
        self,
        embed: Callable[[list[str]], npt.NDArray[np.float32]] | None,
        floor: float = MIN_SCORE,
        weight: float = 0.0,
    ) -> None:
        self.embed = embed
        self.floor = floor  # the relevance a sentence needs to be proposed
        self.weight = weight  # of the answer check's probability beside the relevance (proposed)

    def scores(self, question: str, found: list[Candidate]) -> list[float]:
        texts = [c.focus or c.display or c.text for c in found]
        return relevance(question, texts, self.embed, [c.under for c in found])

    def scored(self, question: str, evidence: Sequence[Hit]) -> list[tuple[float, float, Candidate]]:
        """Every candidate sentence as (relevance, relevance less its source's rank prior, sentence),
        best first by the second."""
        asked = frozenset(FIGURE.findall(question)) if WANTS_FIGURE.search(question) else None
        found = candidates(evidence, asked)
        if not found:
            return []
        scores = self.scores(question, found)
        tests = test_sources(question, evidence)
        named = {h.path for h in evidence if h.named_rank is not None}
        others = {n for n, h in enumerate(evidence, 1) if named and h.path not in named}
        return sorted(
            (
                (
                    s,
                    s
                    - RANK_PRIOR * (c.source - 1)
                    - (TEST_PRIOR if c.source in tests else 0.0)
                    - (OTHER_FILE_PRIOR if c.source in others else 0.0),
                    c,
                )
                for s, c in zip(scores, found, strict=True)
            ),
            key=lambda p: -p[1],
        )

    def ranked(
        self, question: str, evidence: Sequence[Hit], floor: float | None = None
    ) -> list[tuple[float, Candidate]]:
        """Sentences that answer well enough (relevance at least `floor`, by default the generator's),
        best first, with a prior for their source's rank."""
        line = self.floor if floor is None else floor
        return [(adj, c) for s, adj, c in self.scored(question, evidence) if s >= line]

    def side_groups(
        self, question: str, ranked: Sequence[Candidate], evidence: Sequence[Hit]
    ) -> list[set[str]]:
        """For a question comparing two things (english.sides), the file of the ranked sentence that best
        answers each side read alone, one group per side; none where both sides' best is one file, or
        the question compares nothing."""
        parts = sides(question)
        if parts is None or not ranked:
            return []
        best = [
            evidence[ranked[int(np.argmax(self.scores(part, list(ranked))))].source - 1].path
            for part in parts
        ]
        return [{path} for path in best] if best[0] != best[1] else []

    def generate(
        self,
        question: str,
        evidence: Sequence[Hit],
        cancelled: Callable[[], bool],
        judge: Callable[[Candidate], float | None] | None = None,
    ) -> Iterator[RawSentence]:
        """The proposed sentences (`proposed`), in source order. `judge`: the pipeline's answer check,
        the probability that a sentence answers the question, None where it judges it does not. Asked
        in rank order, only as far as `proposed` reads."""
        ranked = [] if cancelled() else self.ranked(question, evidence)
        answers = (
            None if judge is None else once(lambda place: None if cancelled() else judge(ranked[place][1]))
        )
        keep = proposed([adj for adj, _ in ranked], answers, self.weight)
        chosen = [c for (_, c), k in zip(ranked, keep, strict=True) if k]
        order = [c for _, c in ranked]  # the sentences alone, best first
        backing = code_backing(
            order,
            chosen,
            evidence,
            answers,
            test_sources(question, evidence),
            deep=bool(ASKS_MECHANISM.search(question)),
        )
        covering = cover(
            named_groups(question, evidence) or self.side_groups(question, order, evidence),
            order,
            [*chosen, *([backing] if backing else [])],
            evidence,
            answers,
        )
        # a list item chosen with the lead-in that quotes its list is said once
        chosen = [
            c
            for c in chosen
            if not any(
                o.source == c.source and len(c.text) < len(o.text) and c.text in o.text for o in chosen
            )
        ]
        for cand in sorted(chosen, key=lambda c: (c.source, c.order)):
            yield RawSentence(cand.said, (cand.source,), cand.text)
        if backing is not None:  # after the answer, which leads
            yield RawSentence(backing.said, (backing.source,), backing.text)
        for cand in covering:
            yield RawSentence(cand.said, (cand.source,), cand.text)


def named_groups(question: str, evidence: Sequence[Hit]) -> list[set[str]]:
    """The files of the evidence each name the question gives a file by (Searcher.named, file_names_in)
    calls, one group per name that calls any; none where fewer than two names do. A name two files share is
    one group: quoted from either, it is answered."""
    named = {h.path for h in evidence if h.named_rank is not None}
    groups = [
        files for forms in file_names_in(question) if (files := {p for p in named if _file_called(p, forms)})
    ]
    return groups if len(groups) >= 2 else []


def cover(
    groups: Sequence[set[str]],
    ranked: Sequence[Candidate],
    chosen: Sequence[Candidate],
    evidence: Sequence[Hit],
    answers: Callable[[int], float | None] | None,
) -> list[Candidate]:
    """Where the question asks of two or more things and the answer quotes the files of some of them
    only, for each other, its files' best ranked sentence the answer check accepts, of their first
    BACKING_LOOK: the reader asked about each, and the rank prior, which orders the evidence's passages,
    otherwise lets the one ranked first answer for all. `groups`: each thing's files, the files the
    question names ("How is `GRAPH_RECURSION_LIMIT` different from `INVALID_GRAPH_NODE_RETURN_VALUE`?",
    named_groups), else, for a question comparing two things, the file that best answers each
    (ExtractiveGenerator.side_groups: "Compared with the tool-calling frontend pattern, how does the
    graph-execution pattern stream?"). Not when the answer quotes none of them (it found its answer
    elsewhere), and no judge, no cover: the check vouches for the sentence."""
    quoted = {evidence[c.source - 1].path for c in chosen}
    if answers is None or len(groups) < 2 or not any(files & quoted for files in groups):
        return []
    added: list[Candidate] = []
    for files in groups:
        if files & quoted:
            continue
        judged = 0
        for place, cand in enumerate(ranked):
            if evidence[cand.source - 1].path not in files:
                continue
            if answers(place) is not None:
                added.append(cand)
                quoted.add(evidence[cand.source - 1].path)
                break
            judged += 1
            if judged >= BACKING_LOOK:
                break
    return added


def _file_called(path: str, forms: Sequence[str]) -> bool:
    """Whether the file at `path` is one a question's name calls (its forms: file_names_in), by its
    name or its name without the last suffix, as Catalog.files_named matches them."""
    name = PurePosixPath(path.replace("\\", "/")).name.lower()
    return name in forms or name.rsplit(".", 1)[0] in forms


def test_sources(question: str, evidence: Sequence[Hit]) -> set[int]:
    """The evidence's test modules (their 1-based numbers), none when the question is about tests."""
    return set() if about_tests(question) else {n for n, h in enumerate(evidence, 1) if is_test(h.path)}


def once(answers: Callable[[int], float | None]) -> Callable[[int], float | None]:
    """`answers`, asked once per place: `proposed` and `code_backing` read the same judgements."""
    said: dict[int, float | None] = {}

    def asked(place: int) -> float | None:
        if place not in said:
            said[place] = answers(place)
        return said[place]

    return asked


def code_backing(
    ranked: Sequence[Candidate],
    chosen: Sequence[Candidate],
    evidence: Sequence[Hit],
    answers: Callable[[int], float | None] | None,
    tests: Collection[int] = (),
    deep: bool = False,
) -> Candidate | None:
    """Where the evidence holds a program's source and the answer quotes only documentation, the
    sentence of the source that backs it: the first of the ranked sentences the judge reads (LOOK) that
    comes from a source file (extract.is_source) and that the answer check accepts. Documentation says
    what a program is meant to do and its code what it does; a question about how or where a program
    does something is answered by the code, and prose describing the same feature reads closer to a
    question in words than a docstring or a line does, so on its own the page is quoted and the code
    never is. Not from a test module (`tests`: test_sources), which exercises the code rather than being
    it. No judge, no backing: the check is what vouches for the sentence. `deep` (the question asks how,
    why or where a program does something: english.ASKS_MECHANISM): the first source sentence the check
    accepts of the first BACKING_LOOK anywhere in the ranking, where the code often sits below LOOK
    (measured 2026-12-04 on the click set's fitted half: 3 of its 7 answers citing no gold file gained
    the implementation this way)."""
    if answers is None or not chosen or any(is_source(evidence[c.source - 1].path) for c in chosen):
        return None
    judged = 0
    for place, cand in enumerate(ranked if deep else ranked[:LOOK]):
        if cand.source in tests or not is_source(evidence[cand.source - 1].path):
            continue
        if answers(place) is not None:
            return cand
        judged += 1
        if deep and judged >= BACKING_LOOK:
            break
    return None
