"""LaTeX sources read as the text they typeset, each line at the source line it comes from.

A .tex file is markup around prose: read as plain text, its answers quoted `\\emph{\\LaTeX{}} News`, its
comments (licence headers, switched-off drafts) counted as its words and its preamble's macro definitions
as its sentences, and no section was a title. `latex_lines` reads it as Markdown the chunker already
knows:

- the body only (between `\\begin{document}` and `\\end{document}`, where the file has them; a chapter
  file read by `\\input` has neither and is read whole); the preamble gives the title (`\\title{...}`);
- comments dropped (`%` to the end of its line, not `\\%`), and `\\iffalse ... \\fi` blocks;
- sectioning commands as headings (`\\section{X}` is `## X`), list items as `- ` items (a description
  item's label first: `- label: ...`), a table's rows one per line with cells apart (` | `);
- verbatim environments (verbatim, lstlisting, minted...) as fenced code, `\\verb|x|` and a short verb
  (`|\\cmd|`, as `\\MakeShortVerb` and the LaTeX Project's guides write it) as code spans;
- a command's braced arguments kept as text (`\\emph{x}`, `\\pkg{x}`, a macro the document defines),
  except where they are no text (`\\label`, `\\vspace`, `\\includegraphics`, definitions); a reference
  dropped, a citation kept as its key (`[knuth84]`), a logo as its name (`\\LaTeX` is LaTeX), `~` a
  space, quotes and dashes as typeset;
- math kept as written.

Lines stay the source's lines (a paragraph hard-wrapped over four lines is read as four), so a quote's
lines are the lines of the file that hold it; lines dropped (comments, the preamble) leave gaps the line
map records (Chunk.lines).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from engine.events import Line

LATEX_READER = "latex-1"  # a change to what latex_lines reads gets a new name (extract.readers)

_FRAME_LEVEL = 3  # a beamer slide's title: below its \\section (2)
_OVERLAY = re.compile(r"<[^>\n]*>")  # right after its command: \item<2->
_SECTIONS = {
    "part": 1,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}
_VERBATIM = frozenset(
    "verbatim verbatim* Verbatim Verbatim* BVerbatim LVerbatim lstlisting minted alltt "
    "comment filecontents filecontents* macrocode macrocode*".split()
)
_HIDDEN_ENVS = frozenset({"comment", "filecontents", "filecontents*"})  # no typeset text
_MATH_ENVS = frozenset(
    "equation equation* align align* alignat alignat* gather gather* multline multline* flalign flalign* "
    "eqnarray eqnarray* displaymath math".split()
)
# environments that sit inside a paragraph: no paragraph break around them
_INLINE_ENVS = frozenset({"math", "small", "footnotesize", "scriptsize", "large", "bfseries", "itshape"})
_LISTS = frozenset("itemize enumerate description list compactitem compactenum asparaitem".split())
_TABLES = frozenset("tabular tabular* tabularx longtable array supertabular xltabular tabu".split())
# an environment's braced arguments that are no text, by their count (a table's: its columns, 1)
_ENV_SETTINGS = {
    **dict.fromkeys("tabular* tabularx xltabular list wrapfigure wraptable".split(), 2),
    **dict.fromkeys(
        "thebibliography minipage multicols multicols* lrbox spacing otherlanguage otherlanguage*".split(), 1
    ),
}
# arguments that are no text: each command's count of braced arguments to drop
_DROPPED = {
    **dict.fromkeys(
        "label index glossary vspace vspace* hspace hspace* vskip hskip includegraphics input include "
        "includeonly bibliography bibliographystyle pagestyle thispagestyle pagenumbering usepackage "
        "RequirePackage documentclass hypersetup nocite markright enlargethispage linespread fontsize "
        "selectfont color pagecolor definecolor geometry graphicspath captionsetup "
        "ref eqref pageref autoref cref Cref vref nameref".split(),
        1,
    ),
    **dict.fromkeys("setlength addtolength setcounter addtocounter markboth settowidth".split(), 2),
    "addcontentsline": 3,
}
_DEFINITIONS = frozenset(
    "newcommand renewcommand providecommand DeclareRobustCommand newenvironment renewenvironment "
    "NewDocumentCommand RenewDocumentCommand ProvideDocumentCommand DeclareDocumentCommand "
    "NewDocumentEnvironment RenewDocumentEnvironment DeclareOption def gdef edef xdef let newlength "
    "newcounter newif DeclareMathOperator newtheorem".split()
)
_CITES = frozenset("cite citep citet parencite textcite autocite footcite citeauthor citeyear".split())
_SYMBOLS = {
    "ldots": "…",
    "dots": "…",
    "textellipsis": "…",
    "textbackslash": "\\",
    "textbar": "|",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textless": "<",
    "textgreater": ">",
    "textendash": "–",
    "textemdash": "—",
    "textquoteleft": "‘",
    "textquoteright": "’",
    "textquotedblleft": "“",
    "textquotedblright": "”",
    "S": "§",
    "P": "¶",
    "copyright": "©",
    "textregistered": "®",
    "texttrademark": "™",
    "LaTeXe": "LaTeX2e",
    "AmS": "AMS",
    "AMS": "AMS",
    "eTeX": "e-TeX",
    "slash": "/",
    "par": "\n\n",
    "newline": "\n",
    "linebreak": "\n",
}
_ESCAPES = {
    "%": "%",
    "&": "&",
    "_": "_",
    "#": "#",
    "$": "$",
    "{": "{",
    "}": "}",
    " ": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    **dict.fromkeys(("!", "/", "-", "@", "'", "`", '"', "^", "~"), ""),  # spacing, accents: no letter
}
_TYPOGRAPHY = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("`", "'"), ("~", " "))
_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%.*")
_BEGIN = re.compile(r"\\begin\s*\{([^}]*)\}")
_DOCUMENT_START = re.compile(r"^\s*\\begin\s*\{document\}")  # on its own line: not \verb|\begin{document}|
_DOCUMENT_END = re.compile(r"^\s*\\end\s*\{document\}")
_VERB_SPAN = re.compile(r"\\verb\*?([^A-Za-z\s*]).*?\1|\|[^|\n]*\|")
_URL_SPAN = re.compile(r"\\(?:url|href|path|nolinkurl)\s*\{[^{}\n]*\}")
_OPTION_CHARS = 500  # an [option] longer than this is no option but a bracket the text opens
_NEXT_ARGUMENT = re.compile(r"\{|\\[A-Za-z]")
_BLOCK_OPTIONS = re.compile(
    r"\s*(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?"
)  # lstlisting's [language=C], minted's {c}
_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*\{")
_NAME = re.compile(r"[A-Za-z@]+\*?")
_CONDITIONAL = re.compile(r"\\(?:if[a-z@]*(?![A-Za-z@])(?!\s*\{)|else(?![A-Za-z@])|fi(?![A-Za-z@]))")
_TOKEN = re.compile(r"\\[A-Za-z@]+|[^\s{}\\]")
_ASSIGNMENT = re.compile(r"\s*=\s*[^\s\\{}]*")
_SHORT_VERB = re.compile(r"\|([^|\n]*[^|\s][^|\n]*)\|")


def latex_lines(text: str) -> tuple[str, list[Line]]:
    """The document's \\title ("" where it gives none) and its lines as Markdown (module doc), each at its
    1-based source line."""
    raw = text.split("\n")
    lines = _without_comments(raw)
    starts = [i for i, (t, _) in enumerate(lines) if _DOCUMENT_START.search(t)]
    title = ""
    if starts:
        preamble = lines[: starts[0]]
        title = _title(preamble)
        first = lines[starts[0]]
        after = _DOCUMENT_START.split(first[0], maxsplit=1)[1]
        lines = [(after, first[1]), *lines[starts[0] + 1 :]]
    out = _Renderer()
    for block, verbatim in _blocks(lines):
        if verbatim:
            out.fenced(block)
        else:
            out.render(block)
    return title, out.lines()


def _without_comments(raw: Sequence[str]) -> list[tuple[str, int]]:
    """The lines, each with its 1-based number, their comments cut (not inside a verbatim environment);
    a line that was only a comment is dropped (in LaTeX it does not end a paragraph), as are
    `\\iffalse ... \\fi` blocks and everything after `\\end{document}`."""
    out: list[tuple[str, int]] = []
    verbatim: str | None = None
    skipping = 0
    for number, line in enumerate(raw, 1):
        if verbatim is not None:
            out.append((line, number))
            if f"\\end{{{verbatim}}}" in line:
                verbatim = None
            continue
        comment = _COMMENT.search(_masked(line, urls=True))
        cut = line if comment is None else line[: comment.start()] + comment.group(1)
        stripped = cut.strip()
        if skipping or "\\iffalse" in cut:  # what \iffalse ... \fi holds is not typeset
            cut, skipping = _unskipped(cut, skipping)
            stripped = cut.strip()
            if not stripped:
                continue
        if _DOCUMENT_END.search(cut):
            out.append((_DOCUMENT_END.split(cut, maxsplit=1)[0], number))
            break
        if cut != line and not stripped:
            continue  # a comment line
        out.append((cut, number))
        for name in _BEGIN.findall(_masked(cut)):
            if name in _VERBATIM and f"\\end{{{name}}}" not in cut.split(f"\\begin{{{name}}}", 1)[1]:
                verbatim = name
    return out


def _unskipped(text: str, depth: int) -> tuple[str, int]:
    """What a line keeps of its text outside `\\iffalse ... \\fi` (its `\\else` branch is typeset), and the
    depth of conditionals still open in a skipped block after it (0: not skipping). A conditional is a TeX
    one (`\\ifx`, `\\ifnum`, a `\\newif`'s `\\ifdraft`), not a macro taking braced arguments
    (`\\ifthenelse{...}`, `\\iftoggle{...}`), which no `\\fi` closes."""
    kept: list[str] = []
    at = 0
    for token in _CONDITIONAL.finditer(text):
        word = token.group()
        if depth == 0:
            if word == "\\iffalse":
                kept.append(text[at : token.start()])
                depth = 1
            continue
        if word == "\\fi":
            depth -= 1
        elif word == "\\else":
            depth = 0 if depth == 1 else depth
        else:
            depth += 1
        if depth == 0:
            at = token.end()
    if depth == 0:
        kept.append(text[at:])
    return "".join(kept), depth


def _masked(text: str, urls: bool = False) -> str:
    """`text` with its verb spans (`\\verb|...|`, a short verb `|...|`) blanked, offsets kept: what an
    environment's \\begin is looked for in; with `urls`, an address's too (`\\url{a%20b}`), where a
    comment is looked for (a % there is no comment's)."""
    text = _VERB_SPAN.sub(lambda m: " " * len(m.group()), text)
    return _URL_SPAN.sub(lambda m: " " * len(m.group()), text) if urls else text


def _title(preamble: Sequence[tuple[str, int]]) -> str:
    text = "\n".join(t for t, _ in preamble)
    match = _TITLE.search(text)
    if not match:
        return ""
    end = _group_end(text, match.end() - 1)
    inner = _Renderer()
    inner.render([(text[match.end() : end], 1)])
    return " ".join(" ".join(line.text for line in inner.lines()).split())


def _blocks(lines: Sequence[tuple[str, int]]) -> Iterator[tuple[list[tuple[str, int]], bool]]:
    """Runs of lines to render, and verbatim environments (their lines as written, the \\begin and \\end
    lines first and last), in order. A verbatim environment opens at a line's \\begin and is read
    from the next line (text after the \\begin on its own line is its first line, rare)."""
    prose: list[tuple[str, int]] = []
    i = 0
    while i < len(lines):
        text, number = lines[i]
        match = next((m for m in _BEGIN.finditer(_masked(text)) if m.group(1) in _VERBATIM), None)
        if match is None:
            prose.append((text, number))
            i += 1
            continue
        name = match.group(1)
        before, after = text[: match.start()], text[match.end() :]
        if options := _BLOCK_OPTIONS.match(after):
            after = after[options.end() :]
        end = f"\\end{{{name}}}"
        if before.strip():
            prose.append((before, number))
        if prose:
            yield prose, False
            prose = []
        body: list[tuple[str, int]] = [("", number)]
        rest = after
        j = i
        while end not in rest:
            if j > i or rest.strip():
                body.append((rest, lines[j][1]))
            j += 1
            if j >= len(lines):
                rest = end
                break
            rest = lines[j][0]
        inside, _, tail = rest.partition(end)
        if inside.strip():
            body.append((inside, lines[j][1] if j < len(lines) else number))
        body.append(("", lines[j][1] if j < len(lines) else number))
        if name not in _HIDDEN_ENVS:
            yield body, True
        if tail.strip():
            prose.append((tail, lines[j][1]))
        i = j + 1
    if prose:
        yield prose, False


def _group_end(text: str, open_at: int) -> int:
    """The offset of the brace closing the group opened at `open_at` (len(text) if it never closes)."""
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


class _Renderer:
    """Reads runs of LaTeX lines into output lines, each at the source line of its first character."""

    def __init__(self) -> None:
        self._out: list[tuple[str, int, bool]] = []  # (piece, source line, whether kept as written)
        self._heading = False  # reading a section's title

    def lines(self) -> list[Line]:
        result: list[Line] = []
        text, line, raw = "", 0, False
        for piece, number, written in [*self._out, ("\n", 0, False)]:
            for part in re.split(r"(\n)", piece):
                if part == "\n":
                    cleaned = text.rstrip() if raw else " ".join(text.split())
                    if cleaned or (result and result[-1].text):
                        result.append(Line(cleaned, line or number))
                    text, line, raw = "", 0, False
                elif part:
                    if not line and part.strip():
                        line = number
                    text += part
                    raw = raw or written
        while result and not result[-1].text:
            result.pop()
        return result

    def _at_line_start(self) -> bool:
        """Whether nothing but spaces was written since the last line's end."""
        for piece, _, _ in reversed(self._out):
            before, newline, _ = piece.rpartition("\n")
            if piece[len(before) + len(newline) :].strip():
                return False
            if newline:
                return True
        return True

    def _emit(self, piece: str, line: int, written: bool = False) -> None:
        self._out.append((piece, line, written))

    def fenced(self, body: Sequence[tuple[str, int]]) -> None:
        opener, closer = body[0][1], body[-1][1]
        self._emit("\n\n", opener)
        self._emit("```\n", opener)
        for text, number in body[1:-1]:
            self._emit(text.rstrip(), number, True)
            self._emit("\n", number)
        self._emit("```\n\n", closer)

    def render(self, block: Sequence[tuple[str, int]]) -> None:
        text = "\n".join(t for t, _ in block)
        numbers = [n for _, n in block]
        starts = [0]
        for t, _ in block[:-1]:
            starts.append(starts[-1] + len(t) + 1)
        self._text, self._numbers, self._starts = text, numbers, starts
        self._envs: list[str] = []
        self._span(0, len(text))

    def _line(self, offset: int) -> int:
        return self._numbers[bisect.bisect_right(self._starts, offset) - 1]

    def _plain(self, piece: str, at: int, typeset: bool = True) -> None:
        """Text at offset `at`, each line at its own source line (found before its quotes and dashes are
        typeset); as written where not `typeset` (math is kept as its source)."""
        table = typeset and bool(self._envs) and self._envs[-1] in _TABLES
        for part in re.split(r"(\n)", piece):
            if part:
                line = self._line(at)
                at += len(part)
                if typeset:
                    for old, new in _TYPOGRAPHY:
                        part = part.replace(old, new)
                self._emit(part.replace("&", " | ") if table else part, line)

    def _span(self, start: int, end: int) -> None:
        text = self._text
        i = start
        plain = start
        while i < end:
            c = text[i]
            if c not in "\\{}$|":
                i += 1
                continue
            if i > plain:
                self._plain(text[plain:i], plain)
            if c == "\\":
                i = self._command(i, end)
            elif c == "{":
                close = min(_group_end(text, i), end)
                self._span(i + 1, close)
                i = close + 1
                if _NEXT_ARGUMENT.match(text, i, end):  # \cs{a}\arg{b}, {a}{b}: two words, not "ab"
                    self._emit(" ", self._line(i))
            elif c == "}":
                i += 1
            elif c == "$":
                i = self._math(i, end)
            else:  # "|": a short verb where it closes on its line, else the character
                # (in a table too: its rules are its column spec's, which is no text)
                match = _SHORT_VERB.match(text, i, end)
                if match and not (self._envs and self._envs[-1] in _MATH_ENVS):
                    self._emit(f"`{match.group(1).strip()}`", self._line(i))
                    i = match.end()
                else:
                    self._emit("|", self._line(i))
                    i += 1
            plain = i
        if end > plain:
            self._plain(text[plain:end], plain)

    def _math(self, i: int, end: int) -> int:
        """Math between `$` (or `$$`) kept as written, each line at its own; a `$` that no `$` closes
        within its paragraph ("costs $5") is the character."""
        text = self._text
        opener = "$$" if text.startswith("$$", i) else "$"
        stop = text.find("\n\n", i, end)
        stop = end if stop < 0 else stop
        j = i + len(opener)
        while j < stop:
            if text[j] == "\\":
                j += 2
                continue
            if text.startswith(opener, j):
                self._plain(text[i : j + len(opener)], i, typeset=False)
                return j + len(opener)
            j += 1
        self._emit(opener, self._line(i))
        return i + len(opener)

    def _skip_space(self, i: int, end: int) -> int:
        text = self._text
        while i < end and text[i] in " \t":
            i += 1
        return i

    def _optional(self, i: int, end: int) -> tuple[str | None, int]:
        """An optional [argument] at i (after spaces): its text and the offset after it."""
        text = self._text
        j = self._skip_space(i, end)
        if j < end and text[j] == "[":
            stop = text.find("\n\n", j, min(end, j + _OPTION_CHARS))  # an option within its paragraph
            stop = min(end, j + _OPTION_CHARS) if stop < 0 else stop
            depth, braces, k = 0, 0, j
            while k < stop:
                c = text[k]
                if c == "\\":
                    k += 1
                elif c in "{}":
                    braces += 1 if c == "{" else -1
                elif c == "[" and not braces:
                    depth += 1
                elif c == "]" and not braces:
                    depth -= 1
                    if depth == 0:
                        return text[j + 1 : k], k + 1
                k += 1
        return None, i

    def _group(self, i: int, end: int) -> tuple[int, int] | None:
        """A braced argument at i (after spaces, one line break at most): (its inside's start, its
        closing brace)."""
        text = self._text
        j = self._skip_space(i, end)
        if j < end and text[j] == "\n":
            j = self._skip_space(j + 1, end)
        if j < end and text[j] == "{":
            return j + 1, min(_group_end(text, j), end)
        return None

    def _command(self, i: int, end: int) -> int:
        text = self._text
        here = self._line(i)
        match = _NAME.match(text, i + 1, end)
        if match is None:  # a control symbol: \\, \%, \&, \ ...
            symbol = text[i + 1 : i + 2]
            if symbol == "\\":  # a forced line break: a line's end where the source's line goes on
                after = self._optional(i + 2 + (text[i + 2 : i + 3] == "*"), end)[1]
                if not text.startswith("\n", self._skip_space(after, end)):
                    self._emit("\n", here)
                return after
            if symbol == "[" or symbol == "(":  # display or inline math: \[ ... \], \( ... \)
                closing = "\\]" if symbol == "[" else "\\)"
                stop = text.find(closing, i + 2, end)
                stop = end if stop < 0 else stop + 2
                self._plain(text[i:stop], i, typeset=False)
                return stop
            self._emit(_ESCAPES.get(symbol, symbol), here)
            return i + 2
        name = match.group()
        after = match.end()
        if name in ("begin", "end"):
            return self._environment(name, after, end, here)
        if name.rstrip("*") in _SECTIONS:
            after = self._optional(after, end)[1]
            group = self._group(after, end)
            if group is None:
                return after
            return self._title_line(group, _SECTIONS[name.rstrip("*")], here)
        if name == "frametitle":  # a slide's title (beamer)
            group = self._group(self._optional(after, end)[1], end)
            return after if group is None else self._title_line(group, _FRAME_LEVEL, here)
        if name in ("verb", "verb*"):
            if after < end:
                delimiter = text[after]
                stop = text.find(delimiter, after + 1, end)
                if stop > 0 and "\n" not in text[after + 1 : stop]:
                    self._emit(f"`{text[after + 1 : stop]}`", here)
                    return stop + 1
            return after
        if name in ("item", "bibitem"):  # a list's item; a bibliography's entry, its citation key no text
            label, after = self._optional(self._past_overlay(after, end), end)
            if name == "bibitem" and (key := self._group(after, end)) is not None:
                after = key[1] + 1
            self._emit("- " if self._at_line_start() else "\n- ", here)
            if label:
                self._span_text(label, here)
                self._emit(": " if name == "item" else " ", here)
            return after
        if name in _CITES:
            after = self._optional(after, end)[1]
            after = self._optional(after, end)[1]
            group = self._group(after, end)
            if group is None:
                return after
            self._emit(f"[{' '.join(text[group[0] : group[1]].split())}]", here)
            return group[1] + 1
        if name in ("href",):
            link = self._group(after, end)
            if link is None:
                return after
            second = self._group(link[1] + 1, end)
            if second is None:
                return link[1] + 1
            self._span(*second)
            return second[1] + 1
        if name in ("url", "path", "nolinkurl"):
            group = self._group(after, end)
            if group is None:
                return after
            self._emit(text[group[0] : group[1]], here)
            return group[1] + 1
        if name in ("footnote", "footnotetext"):
            after = self._optional(after, end)[1]
            group = self._group(after, end)
            if group is None:
                return after
            if self._heading:  # a title's footnote is no part of the title
                return group[1] + 1
            self._emit(" (", here)
            self._span(*group)
            self._emit(")", self._line(group[1]))
            return group[1] + 1
        if name.rstrip("*") in _DROPPED:
            for _count in range(_DROPPED[name.rstrip("*")]):
                after = self._optional(after, end)[1]
                if (group := self._group(after, end)) is not None:
                    after = group[1] + 1
                elif (token := _TOKEN.match(text, self._skip_space(after, end), end)) is not None:
                    after = token.end()  # an argument written as one token: \setlength\parskip{...}
                else:
                    break
            return after
        if (assigned := _ASSIGNMENT.match(text, after, end)) is not None:
            return assigned.end()  # a TeX assignment (\hyphenpenalty=10000, \parindent=0pt): no text
        if name in _DEFINITIONS:
            return self._definition(after, end)
        if name in _SYMBOLS:
            self._emit(_SYMBOLS[name], here)
            return self._skip_empty_group(after, end)
        if name.endswith(("TeX", "TeXe")) or name in ("LaTeX", "TeX", "BibTeX"):
            self._emit(name if not name.endswith("TeXe") else name[:-1] + "2e", here)
            return self._skip_empty_group(after, end)
        # any other command is dropped and its braced arguments read as text, which _span does as it reads
        # a group (\emph{x}, \pkg{x}, a macro the document defines); an [option] right after its name is
        # no text
        if text.startswith("[", after):
            after = self._optional(after, end)[1]
        return after

    def _past_overlay(self, i: int, end: int) -> int:
        """The offset after a beamer overlay specification (<2->) at i, if any."""
        match = _OVERLAY.match(self._text, i, end)
        return match.end() if match else i

    def _title_line(self, group: tuple[int, int], level: int, here: int) -> int:
        """A title read from its braced argument onto a heading line of its own; the offset after it."""
        self._emit("\n\n" + "#" * level + " ", here)
        first = len(self._out)
        self._heading = True
        self._span(*group)
        self._heading = False
        self._out[first:] = [(p.replace("\n", " "), n, w) for p, n, w in self._out[first:]]  # one line
        self._emit("\n\n", here)
        return group[1] + 1

    def _span_text(self, piece: str, here: int) -> None:
        """Text read out of an optional argument (an item's label), rendered with its markup read."""
        saved = self._text, self._numbers, self._starts
        self._text, self._numbers, self._starts = piece, [here], [0]
        self._span(0, len(piece))
        self._text, self._numbers, self._starts = saved

    def _skip_empty_group(self, i: int, end: int) -> int:
        """After a logo or symbol: `{}` that only ends its name (\\LaTeX{} News)."""
        if self._text.startswith("{}", i):
            return i + 2
        return i

    def _definition(self, i: int, end: int) -> int:
        """Skips a definition's parts: a command name or braced name, then its [options] and braced
        bodies, up to a line's end after the last."""
        text = self._text
        j = self._skip_space(i, end)
        if j < end and text[j] == "*":
            j += 1
        j = self._skip_space(j, end)
        if j < end and text[j] == "\\":
            name = _NAME.match(text, j + 1, end)
            j = name.end() if name else j + 2
        elif (group := self._group(j, end)) is not None:
            j = group[1] + 1
        while True:
            k = self._skip_space(j, end)
            # parameter text of \def (#1#2) up to its body
            while k < end and text[k] == "#" and k + 1 < end:
                k = self._skip_space(k + 2, end)
            option, after = self._optional(k, end)
            if option is not None:
                j = after
                continue
            group = self._group(k, end)
            if group is None:
                return j
            j = group[1] + 1

    def _environment(self, name: str, after: int, end: int, here: int) -> int:
        group = self._group(after, end)
        if group is None:
            return after
        env = self._text[group[0] : group[1]].strip()
        after = group[1] + 1
        if name == "begin":
            self._envs.append(env)
            if env in _TABLES or env in _ENV_SETTINGS:  # its settings (columns, a width) are no text
                after = self._optional(after, end)[1]
                for _count in range(_ENV_SETTINGS.get(env, 1)):
                    if (spec := self._group(after, end)) is not None:
                        after = spec[1] + 1
            elif env == "frame":  # a slide: <overlays>, [options], then its {title} where given
                after = self._optional(self._past_overlay(after, end), end)[1]
                title = self._past_overlay(after, end)
                if self._text.startswith("{", title) and (group := self._group(title, end)) is not None:
                    return self._title_line(group, _FRAME_LEVEL, here)
            elif env in _MATH_ENVS:
                close = self._text.find(f"\\end{{{env}}}", after, end)
                stop = end if close < 0 else close
                self._emit("\n", here)
                self._plain(self._text[after:stop], after, typeset=False)
                self._emit("\n", self._line(stop))
                return stop
            else:
                after = self._optional(after, end)[1]
            if env not in _INLINE_ENVS:
                self._emit("\n\n", here)
            return after
        if self._envs and self._envs[-1] == env:
            self._envs.pop()
        if env not in _INLINE_ENVS:
            self._emit("\n\n", here)
        return after
