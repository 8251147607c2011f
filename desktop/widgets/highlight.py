"""A small regex highlighter for the source preview: Markdown, Python and C-like code, and the words of a
query, matched as the keyword index matches them (engine.api.QueryTerms)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from desktop.theme import CodeColors, code_colors
from engine.api import QueryTerms

PY_KEYWORDS = (
    "and as assert async await break class continue def del elif else except finally for from global if "
    "import in is lambda nonlocal not or pass raise return try while with yield None True False self"
)
C_KEYWORDS = (
    "break case catch class const continue default do else enum export extends false finally fn for func "
    "function if impl import interface let match mut new null package private protected public pub return "
    "static struct switch this throw true try type var void while"
)
MARKDOWN = frozenset({".md", ".markdown", ".mdx", ".rst"})
PYTHON = frozenset({".py", ".pyi", ".pyw"})
HASH_COMMENT = frozenset({".py", ".pyi", ".sh", ".bash", ".zsh", ".rb", ".toml", ".yaml", ".yml", ".r"})
CODE = (
    frozenset(
        {
            ".js",
            ".jsx",
            ".ts",
            ".tsx",
            ".c",
            ".h",
            ".cc",
            ".cpp",
            ".hpp",
            ".cs",
            ".java",
            ".kt",
            ".go",
            ".rs",
            ".swift",
            ".php",
            ".scala",
            ".dart",
            ".m",
            ".sql",
            ".css",
            ".scss",
            ".json",
            ".lua",
        }
    )
    | HASH_COMMENT
)
TERM_COLOR = QColor(56, 139, 253, 80)  # translucent blue: apart from the cited span's amber, on both themes
FENCE = re.compile(r"^ {0,3}(```|~~~)")
IN_FENCE = 1


def kind_for(suffix: str) -> str:
    suffix = suffix.lower()
    if suffix in MARKDOWN:
        return "markdown"
    if suffix in PYTHON:
        return "python"
    return "code" if suffix in CODE else "text"


def _fmt(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    fmt: QTextCharFormat


def _keywords(words: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words.split()) + r")\b")


def rules_for(kind: str, suffix: str = "", colors: CodeColors | None = None) -> list[Rule]:
    """The rules of one file kind in the theme's code colours (desktop.theme.code_colors: each at least
    4.5:1 on the preview's background and on the cited span)."""
    c = colors or code_colors()
    keyword, string, comment = _fmt(c.keyword, bold=True), _fmt(c.string), _fmt(c.comment, italic=True)
    number = _fmt(c.number)
    if kind == "markdown":
        return [
            Rule(re.compile(r"^ {0,3}#{1,6}\s.*$"), _fmt(c.heading, bold=True)),
            Rule(re.compile(r"\*\*[^*]+\*\*|__[^_]+__"), _fmt(c.emphasis, bold=True)),
            Rule(re.compile(r"`[^`]+`"), string),
            Rule(re.compile(r"\[[^\]]*\]\([^)]*\)"), _fmt(c.heading)),
            Rule(re.compile(r"^\s*(?:[-*+]|\d+\.)\s"), keyword),
            Rule(re.compile(r"^\s*>.*$"), comment),
        ]
    if kind not in ("python", "code"):
        return []
    words = PY_KEYWORDS if kind == "python" else C_KEYWORDS
    comments = r"#.*$" if suffix in HASH_COMMENT or kind == "python" else r"//.*$|/\*.*?\*/"
    return [
        Rule(_keywords(words), keyword),
        Rule(re.compile(r"\b\d+(?:\.\d+)?\b"), number),
        Rule(re.compile(r"\"[^\"\n]*\"|'[^'\n]*'"), string),
        Rule(re.compile(comments), comment),
    ]


class Highlighter(QSyntaxHighlighter):
    """Applies the rules for one file kind, then marks the query's words in bold on a tint; Markdown fenced
    code is shown in the code colour."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.kind = "text"
        self.suffix = ""
        self.terms: QueryTerms | None = None
        self._rules: list[Rule] = []
        self._fence = _fmt("#0a7d38")

    def set_kind(self, kind: str, suffix: str = "", terms: QueryTerms | None = None) -> None:
        """The file kind's rules and the query words to mark (None: none); highlights the document again."""
        self.kind, self.suffix = kind, suffix
        self.terms = terms if terms else None
        self.recolour()

    def recolour(self) -> None:
        """The rules again in the theme's colours now (after a theme switch), and the document redrawn."""
        self._rules = rules_for(self.kind, self.suffix)
        self._fence = _fmt(code_colors().string)
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        if not (self.kind == "markdown" and self._markdown_fence(text)):
            for rule in self._rules:
                for match in rule.pattern.finditer(text):
                    self.setFormat(match.start(), match.end() - match.start(), rule.fmt)
        if self.terms is not None:
            self._mark_terms(text)

    def _mark_terms(self, text: str) -> None:
        assert self.terms is not None
        units = utf16_offsets(text)
        for start, end in self.terms.spans(text):
            first, last = (units[start], units[end]) if units else (start, end)
            fmt = QTextCharFormat(self.format(first))
            fmt.setFontWeight(QFont.Weight.Bold)
            fmt.setBackground(TERM_COLOR)
            self.setFormat(first, last - first, fmt)

    def _markdown_fence(self, text: str) -> bool:
        inside = self.previousBlockState() == IN_FENCE
        is_fence = bool(FENCE.match(text))
        self.setCurrentBlockState(IN_FENCE if inside != is_fence else 0)
        if inside or is_fence:
            self.setFormat(0, len(text), self._fence)
            return True
        return False


def utf16_offsets(text: str) -> list[int] | None:
    """Qt counts a character beyond the BMP (an emoji) as two: the Qt offset of each character offset of
    `text`, one past the end included; None when they are the same."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return None
    offsets = [0]
    for ch in text:
        offsets.append(offsets[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return offsets
