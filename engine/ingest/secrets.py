"""Secret-shaped strings inside ordinary files, redacted before anything is indexed.

A credential pasted into a README or a config file would otherwise sit in the index and come back in
snippets, answers, `--json` evidence and MCP results, and with the Claude backend leave the machine. The
shapes are the issuers' published formats (AWS access key ids, PEM private-key blocks, GitHub, Slack,
Stripe, Google, OpenAI/Anthropic keys, JWTs) plus a value assigned to a credential-named key. Each is
replaced in place by a marker that names its kind, so lines keep their numbers and a search for the
surrounding words still finds the line; the file's own bytes are never changed. Redaction happens once,
at extraction (engine/indexer.py), and again when a document is served to an MCP client.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from engine.events import Document, Line

MARK = "[redacted {kind}]"

_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AWS key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b")),
    ("GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("Stripe key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("API key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}\b")),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (
        "credential",  # aws_secret_access_key = wJalr..., "password": "hunter2hunter2"
        re.compile(
            r"(?i)(?<![A-Za-z0-9])(?:aws_secret_access_key|secret_access_key|client_secret|api_secret|"
            r"private_key|access_token|auth_token|password|passwd|api_key|apikey|secret_key)"
            r"""(["']?\s*[:=]\s*["']?)"""
            # the value: 8+ characters with a digit, or 16+; not an expression or a template ($, {, ( )
            r"""((?=[^\s"',;]*[0-9])[^\s"',;(${]{8,}|[^\s"',;(${]{16,})(?=[\s"',;]|$)"""
        ),
    ),
)
_PEM_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")


def _keep_name(mark: str) -> Callable[[re.Match[str]], str]:
    """A replacement that keeps the key and its separator and replaces only the value."""

    def keep(match: re.Match[str]) -> str:
        return match.group(0)[: match.start(2) - match.start(0)] + mark

    return keep


def redact_text(text: str) -> tuple[str, int]:
    """`text` with every secret-shaped string replaced by its marker, and how many were replaced."""
    total = 0
    for kind, shape in _SHAPES:
        mark = MARK.format(kind=kind)
        if kind == "credential":
            text, n = shape.subn(_keep_name(mark), text)
        else:
            text, n = shape.subn(mark, text)
        total += n
    return text, total


def _lines(lines: tuple[Line, ...]) -> Iterator[tuple[Line, int]]:
    inside = False
    for line in lines:
        if inside or _PEM_BEGIN.search(line.text):
            ends = _PEM_END.search(line.text)
            begins = not inside
            inside = ends is None
            if begins or ends is not None or line.text.strip():
                yield replace(line, text=MARK.format(kind="private key")), 1 if begins else 0
            continue
        text, n = redact_text(line.text)
        yield (replace(line, text=text) if n else line), n


# A literal that every match of a shape contains: the issuers' prefixes, and for a credential-named key
# one of the names it lists (compared case-folded, as the shape's (?i) compares them).
_LITERALS = (
    *("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"),
    *("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    *("xox", "_live_", "_test_", "AIza", "sk-", "eyJ", "PRIVATE KEY"),
)
_NAMES = (
    *("aws_secret_access_key", "secret_access_key", "client_secret", "api_secret", "private_key"),
    *("access_token", "auth_token", "password", "passwd", "api_key", "apikey", "secret_key"),
)


def might_hold_secret(text: str) -> bool:
    """Whether any shape matches anywhere in `text` (lines joined by newlines). Every match within a line
    is also a match in the joined text (a newline is a word boundary, a separator and white space), so
    a document for which this is False has nothing to redact. Most documents hold none of the shapes'
    literals and are passed over in a few substring searches, instead of eight regular-expression
    substitutions and a copy per line."""
    if not any(literal in text for literal in _LITERALS):
        folded = text.casefold()
        if not any(name in folded for name in _NAMES):
            return False
    return _PEM_BEGIN.search(text) is not None or any(shape.search(text) for _, shape in _SHAPES)


def redact(doc: Document) -> tuple[Document, int]:
    """The document with secrets replaced line by line (a PEM block: every line of it), and the count."""
    if not might_hold_secret("\n".join(line.text for line in doc.lines)):
        return doc, 0
    out, total = [], 0
    for line, n in _lines(doc.lines):
        out.append(line)
        total += n
    return (replace(doc, lines=tuple(out)), total) if total else (doc, 0)


def note(count: int) -> str | None:
    return f"{count} secret-shaped string{'s' if count != 1 else ''} redacted" if count else None
