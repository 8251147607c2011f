"""Text helpers every layer shares (answers, generators, retrieval): words, a light stemmer, sentences.
The lowest layer of the engine: it imports nothing of it."""

from __future__ import annotations

import bisect
import functools
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

import numpy as np
import numpy.typing as npt
import tantivy

# Words that carry no content of their own: articles, pronouns (and their contractions: "I'm", "we've"),
# auxiliaries and modals, conjunctions and empty adverbs. Never a negation (the answer check reads "not"
# and "no") nor a preposition of time or place ("before", "after", "under" change what is asked), nor a
# word that is also a name once lower-cased ("us" for the US, "may" for May).
STOP = frozenset(
    "a an and are as at be by do does for from how i in is it of on or the to was what when where which who "
    "why will with our we you your can this that also so such than then too very just there these those "
    "its their theirs them they he she his her him hers has have had having been were being am if but "
    "because while into onto my me mine myself ours should would could shall must whether i'm i've i'd "
    "i'll you're you've you'd you'll we're we've we'd we'll they're they've they'd they'll".split()
)
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "\u00a0": " "})
# Where a sentence ends: after its full stop, at a blank line, before a list item, a "#" or "//" line, a line
# opening a block comment ("/**"), a table row or a reST field (a docstring's ":param salt: ...", each a
# statement of its own), and at a title's
# underline (reST, or Markdown's setext "---"), the underline taken as the break: a title written straight
# above its text ("Call time order\n^^^^\nBy default hooks…") is then a title, never quoted, and its text a
# sentence of its own (an underline that opens a chunk, the chunk's heading cut off above it, too); at a
# docstring's quotes or a block comment's close, so the code around it (its def line, the code after it)
# is no part of its sentences; after a footnote's mark that follows a full stop; at a numbered section's
# title (a PDF's), the title taken as the break. Not after an abbreviation that never ends a sentence
# ("(e.g. Jinja2)", "Dr. Hart").
_ABBREVIATIONS = "".join(
    rf"(?<!\b{re.escape(a)})"
    for a in (
        *("e.g.", "i.e.", "cf.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Prof.", "Gen.", "Gov.", "Sen."),
        *("Rev.", "Lt.", "Col.", "Capt.", "Sgt.", "Mt.", "Fig.", "Figs."),
    )
)
# An initial in a name ("William E. Simon", "J. R. R. Tolkien"): one capital and its stop, after a
# capitalised word, another initial or a sentence's end, or opening the text; a break after it is no
# sentence end ("vitamin A. Then" still is: the word before is not capitalised; nor is "I", a numeral
# as often: "World War I. The").
_INITIAL = re.compile(r"(?:^\s*|[\s(\"'][A-Z][\w'-]*\.?\s+|[.!?]\s+)[A-HJ-Z]\.$")
# A numbered section's number and what sets it off from its title ("6.3 ", "8.1 – ", "2.5.1: "): a regular
# expression fragment, for SENTENCE_END and premise (which strips it from a title it reads for figures)
SECTION_NUMBER = r"\d+(?:\.\d+)+\.?[ \t]+(?:[-\u2013\u2014:][ \t]+)?"
# An HTML tag that sets a block apart (a paragraph, a list or its item, a table, a heading, a break), opening
# or closing, as documentation comments write them (Javadoc: "<p>", "</li>", "<br/>")
_BLOCKS = "p|ul|ol|li|dl|dt|dd|pre|blockquote|table|thead|tbody|tr|td|th|h[1-6]|hr|div"
_BLOCK_TAG = rf"</?(?i:{_BLOCKS}|br)\b[^<>\n]*>"
# ...of them, those that set a paragraph apart when alone on a line (not a line break: "<br>" alone on a
# line goes on with the sentence above it)
_PARAGRAPH_TAG = rf"</?(?i:{_BLOCKS})\b[^<>\n]*>"
# ...and a tag of C#'s documentation comments (F#'s, Visual Basic's) around their text ("/// <summary>",
# "/// </summary>", "/// <returns>"), which a line of them alone sets apart as well
DOC_TAG = r"</?(?:summary|remarks|returns|value|para|example|param|typeparam|exception|inheritdoc)\b[^<>\n]*>"
# (an underline and a docstring's quotes are tried first: after "Why?" or "a ValueError." the break takes
# them in)
SENTENCE_END = re.compile(
    r"(?:\A|\n)[ \t]*(?P<rule>[=\-~^*+])(?P=rule){2,}[ \t]*\n"
    r"|\n[ \t]*(?:\"\"\"|''')[ \t]*\n"  # a docstring's closing quotes: what it says ends there
    r"|\n[ \t]*\*/[ \t]*\n"  # ...as at a block comment's close on a line of its own (JSDoc, Javadoc, C)
    r"|\n(?:[ \t]*\*[ \t]*\n)+"  # a block comment's blank line (" *"): its paragraph ends there
    # ...and a line of HTML block tags alone, in a comment (" * <p>") or without its margin (Javadoc's
    # paragraphs and lists: "<p>", "</p>", "<ul>"), or of C#'s documentation tags in its ("/// <summary>"):
    # a paragraph's edge, never part of a sentence
    # (after a blank line too, which ends the sentence before)
    rf"|(?:(?:\n|(?<=\n))[ \t]*(?:\*[ \t]*|///[ \t]*)?(?:(?:{_PARAGRAPH_TAG}|{DOC_TAG})[ \t]*)+)+(?=\n)"
    # ...and before the opening ones of a docstring of several lines, whose def line is no part of its first
    # sentence (a one-line docstring stays in the code it sits in, shown with it)
    r"|\n(?=[ \t]*[rRuUbB]?(?P<quotes>\"\"\"|''')\S(?:(?!(?P=quotes))[^\n])*\n)"
    # a numbered section's title on a line of its own, after a sentence's end or opening the text (a PDF's
    # "6.3 Installing packages", which has no underline and no blank line, or an HTML page's "4.2 – Error
    # handling", its number set off by a dash; capitalised and short, not a wrapped line of prose that opens
    # with a figure, "2.5 million people lost ..."): the break, never quoted
    rf"|(?:\A|(?<=[.!?:])[ \t]*\n)[ \t]*{SECTION_NUMBER}(?![^\n]*[.!?][ \t])"
    r"[A-Z(`'\"][^\n]{0,50}"
    r"(?<![.,;:!?])\n"
    # a comment's close after a sentence's end, at its line's end, on a line of comment (not code's)
    r"|(?<=[.!?])(?P<close>[ \t]*\*/)[ \t]*(?:\n|\Z)"
    # a sentence's end before the next's capital, quote, bracket, comment margin (not a comment's close) or
    # block tag ("...the text. <p>Another..."); a blank line
    rf"|(?<=[.!?]){_ABBREVIATIONS}\s+(?=[A-Z0-9\"'(\[`]|\*(?!/)|{_BLOCK_TAG})|\n{{2,}}"
    r"|(?<=[a-z]{4}[.!?])\d{1,2}\s+(?=[A-Z])"  # a footnote's mark after the full stop: "is available.3 On"
    r"|\n(?=\s*(?:[-*+] |\d+\. |#|//[/!]?\s|/\*|\||:\w[\w .*-]*:(?:\s|$)))"
    # a doc tag opening a line of a block comment written without its " * " margin ("@param name ...",
    # "@return ..."): an item of its own, as under a margin (in code the line is a decorator's, read apart)
    r"|\n(?P<tag>(?=[ \t]*@\w))"
)


def normalize(text: str) -> str:
    """Whitespace collapsed, typographic quotes and dashes unified, NFKC."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).split())


# A Markdown link or image, [text](target "title"): read as its text; never code (handlers[0](record),
# r"[a-z](\d+)")
LINK = re.compile(r"(?<![\w\])\"'`])!?\[([^\]\n]*)\]\([^)\s\\]*(?:\s+\"[^\"\n]*\")?\)")


def link_markup(text: str) -> set[int]:
    """The offsets of Markdown link syntax in `text` (all of `![`, `](target)` but the link's text)."""
    skip: set[int] = set()
    for m in LINK.finditer(text):
        skip.update(range(m.start(), m.start(1)))
        skip.update(range(m.end(1), m.end()))
    return skip


def normalized_with_map(
    text: str, drop: str = "", links: bool = False, rejoin: bool = False
) -> tuple[str, list[int]]:
    """normalize(text) without the characters in `drop` (and, with `links`, Markdown link syntax: a link
    reads as its text; with `rejoin`, a word hyphenated over a line end whole, `rejoined`), and for each
    character the offset in `text` it came from."""
    out: list[str] = []
    index: list[int] = []
    pending_space = False
    skip = link_markup(text) if links else set()
    if rejoin:  # the line break goes, and the hyphen unless it is the word's own
        skip.update(
            offset
            for start, end, own in line_end_hyphens(text)
            for offset in range(start + 1 if own else start, end)
        )
    for offset, ch in enumerate(text):
        ch = unicodedata.normalize("NFKC", ch).translate(_QUOTES)
        if (ch in drop and ch) or offset in skip:
            continue
        if not ch.strip():
            pending_space = bool(out)
            continue
        if pending_space:
            out.append(" ")
            index.append(offset)
            pending_space = False
        for c in ch:
            out.append(c)
            index.append(offset)
    return "".join(out), index


def words(text: str) -> list[str]:
    """Lower-case words; a possessive 's is dropped ("company's" -> "company")."""
    found = re.findall(r"[A-Za-z0-9]+(?:['’][a-z]+)?", text)
    return [re.sub(r"['’]s$", "", w.lower()) for w in found]


# The keyword index's analyser (engine/store/lexical.py, "en_stem": Snowball's English stemmer): a term the
# engine weighs by its document frequency is then the term the index counted, and "file" and "files", or
# "update" and "updates", are one term (a suffix stripper of its own made "files" "fil", which the index
# has never seen, so it weighed as the rarest word of the collection).
_LOCAL = threading.local()


def index_analyzer() -> tantivy.TextAnalyzer:
    """tantivy's built-in "en_stem" (engine/store/lexical.py's body and heading fields), rebuilt: the
    built-in one is not reachable from Python. Cheap (about a microsecond); use one per thread."""
    steps = (tantivy.Filter.remove_long(40), tantivy.Filter.lowercase(), tantivy.Filter.stemmer("english"))
    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    for step in steps:
        builder = builder.filter(step)
    return builder.build()


def _stemmer() -> tantivy.TextAnalyzer:
    found: tantivy.TextAnalyzer | None = getattr(_LOCAL, "stemmer", None)
    if found is None:
        found = _LOCAL.stemmer = index_analyzer()
    return found


# English irregular verb forms, which no suffix rule reaches, read as their verb: a question in the passive
# ("How long are snapshots kept?") meets the sentence that answers it in the active ("keeps 14 days of
# snapshots"). A closed grammatical class; forms that are as often another word are left out ("left",
# "found", "lead", "saw", "felt", "ground", "bound", "lay", "fell", "rose", "wound", "spring", "tore").
_IRREGULAR = {
    form: verb
    for row in (
        "arise arose arisen|awake awoke awoken|become became|begin began begun|bend bent|"
        "bite bitten|blow blew blown|break broke broken|bring brought|build built|buy bought|"
        "catch caught|choose chose chosen|come came|creep crept|deal dealt|dig dug|draw drew drawn|"
        "drink drank drunk|drive drove driven|eat ate eaten|feed fed|fight fought|flee fled|fly flew flown|"
        "forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|"
        "get got gotten|give gave given|go went gone|grow grew grown|hang hung|hear heard|hide hid hidden|"
        "hold held|keep kept|know knew known|lend lent|lose lost|make made|mean meant|meet met|pay paid|"
        "ride rode ridden|ring rang rung|rise risen|run ran|say said|see seen|seek sought|sell sold|"
        "send sent|shake shook shaken|shine shone|shoot shot|show shown|shrink shrank shrunk|sing sang sung|"
        "sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken|spend spent|spin spun|"
        "stand stood|steal stole stolen|stick stuck|strike struck|swear swore sworn|sweep swept|"
        "swim swam swum|swing swung|take took taken|teach taught|tell told|think thought|throw threw thrown|"
        "understand understood|wake woke woken|wear wore worn|win won|withdraw withdrew withdrawn|"
        "write wrote written|overcome overcame|override overrode overridden|rewrite rewrote rewritten|"
        "undo undid undone|rebuild rebuilt|rerun reran|overwrite overwrote overwritten|uphold upheld|"
        "mislead misled|withhold withheld|undertake undertook undertaken|foresee foresaw foreseen"
    ).split("|")
    for verb, *forms in [row.split()]
    for form in forms
}


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A lower-case word as the keyword index stems it (Snowball English: "files" -> "file", "getting" ->
    "get", "studies" -> "studi"), an irregular verb form as its verb's ("kept" -> "keep")."""
    found = _stemmer().analyze(_IRREGULAR.get(word, word))
    return found[0] if len(found) == 1 else word


def content_terms(text: str) -> list[str]:
    return [stem(w) for w in words(text) if w not in STOP and len(w) > 1]


# The word after "how" that makes a question ask for an amount, a duration, a frequency or a size: the
# question's form, not its content. Sources write the answer ("14 days", "every night"), almost never the
# word ("long", "often"), so counted as a term it is one every source lacks.
_QUESTION_FORM = re.compile(
    r"\bhow\s+(many|much|long|old|often|far|large|big|small|tall|high|fast|soon|early|late|frequently)\b",
    re.IGNORECASE,
)


def question_terms(question: str) -> list[str]:
    """A question's content terms: content_terms less the word of its form ("how long", "how many")."""
    return content_terms(_QUESTION_FORM.sub("how", question))


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of sentences/lines in text, blank ones dropped."""
    spans: list[tuple[int, int]] = []
    start = 0
    inside: Callable[[int], bool] | None = None  # block_comments(text), read once and only where needed
    for match in SENTENCE_END.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()]
        if "\n" not in match.group() and _INITIAL.search(" " + before):
            continue
        line = text.rfind("\n", 0, match.start()) + 1
        if match.group("close") and not (_BLOCK_OPENS.match(text, line) or STAR_LINE.match(text, line)):
            continue  # "x = 1;  /* set. */": the comment annotates the code, a line with it
        if match.group("tag") is not None:
            inside = inside or block_comments(text)
            if not inside(match.start()):
                continue
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    out: list[tuple[int, int]] = []
    for s, e in (part for span in spans for part in _comment_ends(text, *span)):
        if not text[s:e].strip():
            continue
        if out and _continues_comment(text, out[-1], s):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


# A comment line: "# " (Python, shell, YAML, TOML), "// " (JavaScript, TypeScript, Go, Rust, C, Java),
# a doc comment's "/// " or "//! " too (Rust, C#, Swift, Dart), or "-- " (SQL, Lua, Haskell)
COMMENT_LINE = re.compile(r"[ \t]*(?:#|//[/!]?|--) ")
# A line of a block comment's text, its " * " margin (JSDoc, Javadoc, Doxygen, C: "/**" ... " * text" ...
# " */"), or the "** " some C code writes (Lua, SQLite); a margin alone is the comment's blank line. A
# comment line only inside a block comment: elsewhere "* " opens a list item.
STAR_LINE = re.compile(r"[ \t]*\*\*?[ \t]+(?=\S)")
_BLOCK_OPENS = re.compile(r"^[ \t]*/\*", re.MULTILINE)
# What opens a list item's text: "- ", "* ", "+ ", "1. ", "2) " (LIST_ITEM)
_ITEM_OPENS = r"(?:[-*+]|\d+[.)])\s+\S"
# What a comment line's text opens with when it is an item of its own, never the rest of the sentence above
# it: a list item, a doc tag ("@param {Number} code", "@return"), a reST field
_ITEM = re.compile(rf"{_ITEM_OPENS}|@\w|:\w[\w .*-]*:(?:\s|$)")


def in_block_comment(text: str, at: int) -> bool:
    """Whether offset `at` of `text` lies inside a block comment: after a line opening one ("/**", "/*")
    and before its close; in a passage cut inside one (no opener, no close above), when the next
    delimiter below closes one."""
    closed = text.rfind("*/", 0, at)
    if _BLOCK_OPENS.search(text, closed + 2 if closed >= 0 else 0, at):
        return True  # opened after the last close
    if closed >= 0:
        return False
    close = text.find("*/", at)
    following = _BLOCK_OPENS.search(text, at)
    return close >= 0 and (following is None or close < following.start())


def block_comments(text: str) -> Callable[[int], bool]:
    """in_block_comment over one text, its comment marks found once: whether an offset lies inside a block
    comment, each asked in O(log n) (split_sentences asks it of every line opening with "@", a decorator's
    in Python, a rule's in CSS)."""
    closes = [m.start() for m in re.finditer(r"\*/", text)]
    opens = [(m.start(), m.end()) for m in _BLOCK_OPENS.finditer(text)]
    starts = [a for a, _ in opens]

    def inside(at: int) -> bool:
        before = bisect.bisect_right(closes, at - 2)  # the last close ending at or before `at`
        closed = closes[before - 1] if before else -1
        j = bisect.bisect_left(starts, closed + 2 if closed >= 0 else 0)
        if j < len(opens) and opens[j][1] <= at:
            return True  # opened after the last close
        if closed >= 0:
            return False
        k = bisect.bisect_left(closes, at)
        following = bisect.bisect_left(starts, at)
        return k < len(closes) and (following == len(starts) or closes[k] < starts[following])

    return inside


def comment_mark(text: str, at: int) -> re.Match[str] | None:
    """The comment mark of the line opening at offset `at` ("# ", "// ", a block comment's " * "), or
    None when the line is no comment."""
    mark = COMMENT_LINE.match(text, at)
    if mark is None and (star := STAR_LINE.match(text, at)) is not None and in_block_comment(text, at):
        return star
    return mark


_COMMENT_THEN_CODE = re.compile(  # (a sentence's end may close a C# documentation tag: ".</summary>")
    rf"^[ \t]*(?:#|//[/!]?|--) [^\n]*[.!?][\"'’”)]*(?:{DOC_TAG})?[ \t]*\n(?=[ \t]*(?!#|//|--)\S)",
    re.MULTILINE,
)


def _comment_ends(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The span cut after each comment line ending a sentence that a line of something else follows: a
    comment's sentence ends there, so the code under it is no part of it ("# ...to work around this." /
    "os.utime(...)"); a comment that says no sentence ('# password is "write-only"') stays with the
    line it annotates."""
    if text.find("\n", start, end) < 0:
        return [(start, end)]  # a cut ends a comment line, and none ends inside a span of one line
    out = []
    line = text.rfind("\n", 0, start) + 1  # a span opening inside its first line ("state. Returns ...")
    for m in _COMMENT_THEN_CODE.finditer(text, line, end):
        if start < m.end() < end:
            out.append((start, m.end() - 1))  # the line break between is in neither
            start = m.end()
    return [*out, (start, end)]


def _continues_comment(text: str, previous: tuple[int, int], start: int) -> bool:
    """Whether the line at `start` goes on with the comment sentence before it: both are comment
    lines, one right after the other, and the first ends without a full stop ("# Strip the header when
    redirected" / "# away from the origin."; "# ...can fail. Set the modified" / "# time to be...": a
    sentence that opens after another on its comment line is a comment sentence too)."""
    before = text[previous[0] : previous[1]]
    first = text.rfind("\n", 0, previous[0]) + 1  # the start of its first line
    mark = comment_mark(text, start)
    return (
        mark is not None
        and not _ITEM.match(text, mark.end())
        and comment_mark(text, first) is not None
        and not before.rstrip().rstrip("\"'’”)").endswith((".", "!", "?", ":"))  # 'is "done."' ends one
        and text[previous[1] : start].strip(" \t") == "\n"
    )


# A sentence opening with one of these points back at the sentence before it ("This can be used to
# override…", "It returns…"): shown alone, its subject is lost. A demonstrative counts only before a verb
# or modal ("This is why…"), not before a noun ("This function returns…"), which names its own subject.
ANAPHORA = re.compile(
    r"^\W*(?:(?:it|they|he|she|such)\b(?!\s*[-:])"
    r"|(?:this|these|that|those)\s+(?:is|are|was|were|can|cannot|will|would|may|might|must|should|could|"
    r"has|have|had|does|do|did|also|only|means|lets|allows|makes|ensures|requires|works|way|includes)\b)",
    re.IGNORECASE,
)
LIST_ITEM = re.compile(rf"^\s*{_ITEM_OPENS}")
LIST_ITEMS = 8  # a lead-in sentence ("...in this order:") is quoted with at most this many items
LIST_CHARS = 800


LETTER = re.compile(r"[^\W\d_]")  # a letter of any script: a span without one says nothing


def lead_in(text: str, start: int, sentence: str) -> bool:
    """Whether the sentence at `start` introduces what follows: it ends with a colon, or it is not itself
    a list item and ends without a full stop ("The supported types are"). A span closing a code block
    (its last line a fence: a comment and the code under it) introduces nothing."""
    end = sentence.rstrip()
    if end.endswith(":"):
        return True
    if not LETTER.search(end):  # a comment's opening mark ("/**") or a bracket says nothing to introduce
        return False
    if _OPEN_FENCE.fullmatch(end[end.rfind("\n") + 1 :]):
        return False  # a bare fence ends the span: the block it closes (an opening one names its language)
    line = text[text.rfind("\n", 0, start) + 1 : start + len(sentence)]  # from its line's start
    return not end.endswith((".", "!", "?", ";", ",")) and not LIST_ITEM.match(line)


def list_after(text: str, end: int) -> tuple[int, list[list[str]]]:
    """The list that follows a lead-in ending at `end`: the offset where its last item ends, and each
    item's lines; (end, []) when no list follows. Items may span indented lines and be separated by blank
    lines; the list ends at the first other line, or at LIST_ITEMS items or LIST_CHARS characters."""
    pos = text.find("\n", end)
    if pos < 0:
        return end, []
    items: list[list[str]] = []
    last, offset = end, pos + 1
    for line in text[offset:].split("\n"):
        line_end = offset + len(line)
        if LIST_ITEM.match(line):
            if len(items) == LIST_ITEMS or line_end - end > LIST_CHARS:
                break
            items.append([line])
            last = line_end
        elif line.strip() and items and line[:1].isspace():
            items[-1].append(line)
            last = line_end
        elif line.strip():
            break
        offset = line_end + 1
    return last, items


_OPEN_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")
_CONTAINER = re.compile(r"[ \t]*:{3,}[\w+-]*[ \t]*")  # a Docusaurus/MDX tab or admonition line (":::python")
BLOCK_LINES = 12  # a lead-in sentence ("Install it with:") is quoted with at most this many lines of code


def block_after(text: str, end: int) -> int:
    """Where the code block that follows a lead-in ending at `end` ends (its closing fence, or its
    BLOCK_LINES-th line, or LIST_CHARS characters on), or `end` when no code block follows: a fenced block
    (``` or ~~~), or an indented one, past blank lines and tab or admonition markers (":::python")."""
    pos = text.find("\n", end)
    if pos < 0:
        return end
    lines = text[pos + 1 :].split("\n")
    offset, i = pos + 1, 0
    while i < len(lines) and (not lines[i].strip() or _CONTAINER.fullmatch(lines[i])):
        offset += len(lines[i]) + 1
        i += 1
    if i == len(lines):
        return end
    fence = _OPEN_FENCE.match(lines[i])
    if fence is None and not lines[i].startswith(("    ", "\t")):
        return end
    last, taken = end, 0
    for j, line in enumerate(lines[i:]):
        line_end = offset + len(line)
        if fence is None and line.strip() and not line.startswith(("    ", "\t")):
            break
        if taken == BLOCK_LINES or line_end - end > LIST_CHARS:
            break
        if line.strip():
            last, taken = line_end, taken + (fence is None or j > 0)
        if fence is not None and j > 0 and line.strip().startswith(fence.group(1)):
            break  # the closing fence
        offset = line_end + 1
    return last


Embed = Callable[[list[str]], npt.NDArray[np.float32]]


# A number written with dots: a version (1.5.0, v2.3) or a decimal. Its parts are too short to be words
# ("1", "5"), so without this a question's "1.5.0" would match nothing.
_DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?![\d.]\d)")


def dotted(text: str) -> set[str]:
    """The dotted numbers a text writes, trailing zero parts dropped (1.5.0 and 1.5 are one)."""
    out = set()
    for m in _DOTTED.findall(text):
        parts = m.split(".")
        while len(parts) > 2 and parts[-1].strip("0") == "":
            parts.pop()
        out.add(".".join(parts))
    return out


def relevance(
    question: str, texts: Sequence[str], embed: Embed | None, titles: Sequence[str] = ()
) -> list[float]:
    """How well each text answers the question: 0.5 x cosine (when vectors exist) + 0.5 x the share of
    the question's content words (and dotted numbers: versions) it holds. The extractive generator ranks
    sentences with it too. `titles`: the titles each text sits under ("" for none); a text under titles
    scores the mean of its own score and its score read after them ("Tomás's leaving do: venue: the
    Anchor"), so a title's words count half. Measured over 16 sets (session 51), read after its titles
    alone a sentence took its section's topic for its own: every line under a title that names the
    question's words rose with it, above the line elsewhere that answers."""
    terms = set(question_terms(question)) | dotted(question)

    def share(text: str) -> float:
        return len(terms & (set(content_terms(text)) | dotted(text))) / (len(terms) or 1)

    read = [f"{t}: {x}" if t else x for x, t in zip(texts, titles, strict=True)] if titles else list(texts)
    overlap = [(share(x) + share(r)) / 2 if r != x else share(x) for x, r in zip(texts, read, strict=True)]
    if embed is None or not texts:
        return overlap
    titled = [r for x, r in zip(texts, read, strict=True) if r != x]
    vecs = embed([question, *texts, *titled])
    own, after = vecs[1 : len(texts) + 1] @ vecs[0], iter(vecs[len(texts) + 1 :] @ vecs[0])
    cosine = [
        (float(c) + float(next(after))) / 2 if r != x else float(c)
        for c, x, r in zip(own, texts, read, strict=True)
    ]
    return [0.5 * c + 0.5 * o for c, o in zip(cosine, overlap, strict=True)]


def apart(score: float, line: float) -> tuple[str, str]:
    """A score and the line it is compared with, written with as many decimals (two to four) as it takes
    to tell them apart: "0.079, below the line 0.080", not "0.08, below the line 0.08"."""
    digits = 2
    while digits < 4 and f"{score:.{digits}f}" == f"{line:.{digits}f}":
        digits += 1
    return f"{score:.{digits}f}", f"{line:.{digits}f}"


def fold(text: str) -> str:
    """Lower case, accents dropped ("Céleron" -> "celeron"): how a name the user typed is compared."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def figure_value(number: str) -> str:
    """One spelling per figure: 5.0 and 5.00 -> 5, 2.50 -> 2.5, 09 -> 9, 09:30 -> 9:30, 0:45 as it is
    (thousands separators already removed)."""
    whole, dot, part = number.partition(".")
    whole = re.sub(r"^0+(?=\d)", "", whole) or "0"
    return (f"{whole}.{part}".rstrip("0").rstrip(".") or "0") if dot else whole


# What a passage says, without the markup around it: what the embedder reads of a chunk. Measured on a
# reST page (marshmallow's "Handling Unknown Fields"): the question's cosine with the raw chunk was 0.40,
# below 50 other chunks, and 0.67 with its roles and targets taken out, above all of them.
_ROLE_TEXT = re.compile(r"(?:\{[\w:.+-]+\}|(?<![\w:]):[\w:.+-]+:)`~?([^`<\n]*?)\s*(?:<[^`>\n]*>)?`")
_REST_LINK = re.compile(r"`([^`<\n]*?\S)\s*<[^`>\n]+>`_{1,2}")  # `text <target>`_ -> text
_URL = re.compile(r"<?https?://[^\s)>\]]+>?")
# HTML tags and MDX components, on one line: an HTML element's name (<br>, <a href="...">, </td>), or a
# capitalised component with string props only (<Card title="Setup">, </Card>). Never a generic type or a
# comparison in code (List<String>, <T>, x<y>z), an XML key (<timeout>), a JSX element with {expressions},
# #include <stdio.h> or a placeholder (<folder>).
_HTML = (
    "a|abbr|b|blockquote|br|caption|cite|code|dd|del|details|div|dl|dt|em|figcaption|figure|h[1-6]|hr|i|"
    "img|ins|kbd|li|mark|ol|p|pre|q|s|samp|small|span|strong|sub|summary|sup|table|tbody|td|tfoot|th|"
    "thead|tr|tt|u|ul|var|video|audio|source|iframe|picture|center|font"
)
_PROPS = r"""(?:\s+[\w:.-]+(?:=(?:"[^"\n]*"|'[^'\n]*'|[\w.-]+))?)*\s*/?"""
_COMPONENT = r"[A-Z][A-Za-z0-9]+(?:\.[A-Z][A-Za-z0-9]+)*"
_TAG = re.compile(
    rf"</(?:(?i:{_HTML})|{_COMPONENT})\s*>"  # a closing tag, wherever it stands
    rf"|(?<![\w<])<(?:(?i:{_HTML})\b[^<>\n]*|{_COMPONENT}{_PROPS})>"
)
_RULE = re.compile(r"(?m)^[ \t]*([=\-~^\"'`#*+:.])\1{2,}[ \t]*$")  # reST underlines, Markdown rules
_DIRECTIVE = re.compile(r"(?m)^[ \t]*\.\. [\w:-]+::")  # ".. code-block::", ".. note::": the name only


# The shortest quote the citation contract places in its passage (a shorter one matches too much): the
# contract reads it, and so does what proposes quotes for it (a configuration's settings)
MIN_QUOTE_CHARS = 8

# Which preparation the stored vectors were read from: an index whose vectors were embedded from other
# input (the raw chunk text, before this; the text without its place, before "placed-3") embeds them
# again (Engine._fit_vectors).
EMBEDDING_INPUT = "placed-3"


# A word hyphenated over a line end, as a typeset page (a PDF) breaks it: "appear-" / "ance". Letters on
# both sides, the next line's in lower case ("MN-" / "RAS" is a name's own hyphen or an acronym).
_HYPHENATED = re.compile(r"(?<![^\W\d_])([^\W\d_]{2,})(-[ \t]*\n[ \t]*)(?=([^\W\d_A-Z][^\W\d_]+))")


def _own_hyphen(first: str, rest: str) -> bool:
    """Whether a line-end hyphen is the word's own ("theorem-" / "like"), not the typesetter's: the halves
    are English words and the whole is none ("formatting", "appearance" are; "theoremlike" is not)."""
    from engine.english import MAX_RARITY, rarity  # the word list loads on first use

    joined = (first + rest).lower()
    return (
        rarity(joined) >= MAX_RARITY
        and rarity(first.lower()) < MAX_RARITY
        and rarity(rest.lower()) < MAX_RARITY
    )


def line_end_hyphens(text: str) -> list[tuple[int, int, bool]]:
    """Each hyphen at a line's end inside a word: (its offset, the offset where the word goes on, whether
    the hyphen is the word's own, `_own_hyphen`)."""
    return [(m.start(2), m.end(2), _own_hyphen(m.group(1), m.group(3))) for m in _HYPHENATED.finditer(text)]


def rejoined(text: str) -> str:
    """`text` with each word hyphenated over a line end made whole again, as a reader reads it:
    "appear-\nance" -> "appearance", "theorem-\nlike" -> "theorem-like"; the line break is gone."""
    breaks = line_end_hyphens(text)
    if not breaks:
        return text
    parts: list[str] = []
    at = 0
    for start, end, own in breaks:
        parts += [text[at:start], "-" if own else ""]
        at = end
    return "".join([*parts, text[at:]])


def hyphenated_words(text: str) -> list[str]:
    """The words `text` hyphenated over a line end, run together ("appearance", "subfigure"): what a
    keyword index adds to the halves it finds, so the whole word finds the passage."""
    return [m.group(1) + m.group(3) for m in _HYPHENATED.finditer(text)]


CONTEXT_CHARS = 160  # the most of a chunk's place (embedded_chunk) the embedder reads before it


def embedded_chunk(text: str, path: str, root: str, heading: str) -> str:
    """A chunk as the embedder reads it: its place first, the file's path below its folder and the
    heading it sits under ("helm/api/values-prod.yaml", "docs/guide.md > Install > Upgrading"), then its
    text. A passage seldom names what it is about: a configuration's values name neither the service nor
    the environment its path does, a section's third paragraph not its title, a method's body not its
    module. The keyword index reads the path and heading as fields of their own; the vector, read by
    a model that knows "tsconfig" is TypeScript and "prod" production, reads them with the words. Over
    the labelled sets' questions (vector search alone, file MRR@10) the place raised the mean from 0.77
    to 0.82 (README "Where a chunk sits, embedded with it")."""
    relative = PurePosixPath(path.replace("\\", "/"))
    under = PurePosixPath(root.replace("\\", "/"))
    if relative.is_relative_to(under):
        relative = relative.relative_to(under)
    place = " > ".join(part for part in (str(relative), heading.strip()) if part)[:CONTEXT_CHARS]
    place = place.encode("utf-8", "surrogatepass").decode("utf-8", "replace")  # a name not in UTF-8
    return f"{place}\n{text}" if place else text


def embedding_text(text: str) -> str:
    """A chunk as the embedder reads it: reST roles, Markdown and reST links by their text, URLs, HTML
    and MDX tags, underlines and directive markers taken out, a word hyphenated over a line end whole; the
    words, the code, and the marks the model reads as meaning kept (code ticks, heading marks and
    emphasis: taking them out too lowered the question "What is the rollback command?" against "##
    Rollback ... run `make rollback`" from 0.41 to 0.34, and the hybrid nDCG@10 of Meridian, LangChain and
    boltons by 0.2-1.3 points)."""
    text = _ROLE_TEXT.sub(r"\1", rejoined(text))
    text = _REST_LINK.sub(r"\1", LINK.sub(r"\1", text))
    words = _DIRECTIVE.sub(" ", _RULE.sub(" ", _TAG.sub(" ", _URL.sub(" ", text))))
    return " ".join(words.split()) or text  # nothing but markup: read as it is
