"""File names that are not text: how they are stored and how they are shown.

On POSIX a file name is bytes. Python hands a name that is not valid UTF-8 to us with each bad byte as a
lone surrogate (U+DC80..U+DCFF, PEP 383), and such a string cannot be written to DuckDB, Tantivy, a
UTF-8 terminal or a JSON-RPC reply. A name may also hold a newline or other control characters that
break one-line output.

- `stored` / `unstored`: a lossless, concatenation-preserving escape for the catalog. Each surrogate
  becomes ESCAPE followed by a private-use character that carries its byte, and ESCAPE itself is doubled,
  so "folder/" + name escapes to escape("folder/") + escape(name) and prefix queries still hold. Names
  without surrogates and without ESCAPE (every name a user will ever see) are stored unchanged.
- `within`: a path from its indexed folder's own name down, as the keyword index holds it.
- `shown`: what a person reads: bad bytes as \\xNN, control characters as \\n, \\t or \\xNN. One line,
  always printable, never used to open the file.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath

from engine.ingest.mail import MAILBOX_NAMES, MAILBOX_SUFFIXES
from engine.ingest.office import BOOK_SUFFIXES, SHEET_SUFFIXES, SLIDE_SUFFIXES

ESCAPE = "\U0010ff7f"  # a private-use code point; a name that holds it is stored with it doubled
_BYTE_BASE = 0x10FF00  # ESCAPE + chr(_BYTE_BASE + byte) stands for the surrogate of that byte
_TO_STORE = re.compile("[\udc80-\udcff\U0010ff7f]")
_FROM_STORE = re.compile("\U0010ff7f(.)", re.DOTALL)
_UNSHOWABLE = re.compile("[\udc80-\udcff\x00-\x1f\x7f]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _store_one(match: re.Match[str]) -> str:
    char = match.group()
    if char == ESCAPE:
        return ESCAPE + ESCAPE
    return ESCAPE + chr(_BYTE_BASE + ord(char) - 0xDC00)


def _unstore_one(match: re.Match[str]) -> str:
    char = match.group(1)
    if char == ESCAPE:
        return ESCAPE
    return chr(0xDC00 + ord(char) - _BYTE_BASE)


def stored(name: str) -> str:
    """The catalog's form of a path: valid Unicode, and `unstored` gives the path back exactly."""
    return _TO_STORE.sub(_store_one, name) if _TO_STORE.search(name) else name


def unstored(value: str) -> str:
    return _FROM_STORE.sub(_unstore_one, value) if ESCAPE in value else value


def _show_one(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code - 0xDC00 if code >= 0xDC00 else code:02x}"


def shown(name: str) -> str:
    """A path as a person reads it on one line: printable, bad bytes and control characters escaped."""
    return _UNSHOWABLE.sub(_show_one, name) if _UNSHOWABLE.search(name) else name


def lines(start: int, end: int) -> str:
    """A cited span of lines as editors read it: "12" for one line, "12-14" for more."""
    return f"{start}" if end <= start else f"{start}-{end}"


# What a document's `Line.page` counts where it is no page: a deck's slides, a workbook's sheets, the
# chapters (the reading order's files) of an e-book (engine/ingest/office.py)
_PAGE_WORDS = {
    **dict.fromkeys(SLIDE_SUFFIXES, "slide"),
    **dict.fromkeys(SHEET_SUFFIXES, "sheet"),
    **dict.fromkeys(BOOK_SUFFIXES, "chapter"),
    **dict.fromkeys([*MAILBOX_SUFFIXES, *MAILBOX_NAMES], "message"),  # a mailbox's (engine/ingest/mail.py)
}


def page_label(path: str, page: int) -> str:
    """A page as a person names it: "page 3" of a PDF, "slide 3" of a deck, "sheet 2" of a workbook."""
    file = PurePath(path.replace("\\", "/"))
    word = _PAGE_WORDS.get(file.suffix.lower()) or _PAGE_WORDS.get(file.name.lower(), "page")
    return f"{word} {page}"


def location(path: str, start: int, end: int, page: int | None = None) -> str:
    """Where a passage is, for a person: path:12 or path:12-14, with its page in a PDF (its slide in a
    deck, its sheet in a workbook)."""
    return f"{shown(path)}:{lines(start, end)}" + (f" ({page_label(path, page)})" if page else "")


# A test module: under a tests/ folder, or named as test runners find them (test_x.py, x_test.go,
# x.spec.ts, conftest.py; JUnit's, NUnit's and PHPUnit's XTest.java, XTests.cs, XIT.java, a Kotlin, Scala
# or Groovy XSpec, not Java's or C#'s, where a Spec is often a model: KeySpec, PodSpec; RSpec's x_spec.rb)
_TEST_DIR = frozenset({"test", "tests", "testing", "__tests__"})
_TEST_FILE = re.compile(
    r"^(?:test_.+|.+_test|conftest)\.py$|_test\.go$|\.(?:test|spec)\.[cm]?[jt]sx?$|_(?:test|spec)\.rb$", re.I
)
_TEST_CLASS = re.compile(
    r"[a-z0-9](?:(?:Tests?|IT)\.(?:java|kt|kts|scala|groovy|cs|fs|vb|php|swift)|Spec\.(?:kt|kts|scala|groovy))$"
)
# ...or under a build tool's test source root, however deep its packages go (Maven's and Gradle's
# src/test/java/org/example/..., src/androidTest/kotlin/...)
_TEST_ROOT = re.compile(r"(?:^|/)src/(?:test|tests|[a-z]+Test)/(?:java|kotlin|scala|groovy|resources)/")
_ABOUT_TESTS = re.compile(r"\b(?:tests?|testing|tested|pytest|unittest|fixtures?|mock(?:s|ing|ed)?)\b", re.I)


def is_test(path: str) -> bool:
    """Whether a file is a test module (a tests/ folder among the three nearest it, a build tool's test
    source root above it, or a test's name)."""
    slashed = path.replace("\\", "/")
    parts = PurePath(slashed).parts  # the folders nearest the file: not where it is kept
    return (
        bool(_TEST_DIR.intersection(p.lower() for p in parts[-4:-1]))
        or bool(_TEST_FILE.search(parts[-1]) or _TEST_CLASS.search(parts[-1]))
        or bool(_TEST_ROOT.search(slashed))
    )


def about_tests(question: str) -> bool:
    """Whether a question asks about tests (the whole words test, pytest, fixture, mock...)."""
    return bool(_ABOUT_TESTS.search(question))


def within(path: str, folder: str) -> str:
    """`path` from its indexed folder's own name down: what the keyword index holds of a path. The folders
    above it are the same for every file in it, so they tell its files apart no better than nothing, and a
    word in them ("/tmp/run-101/notes", "/home/ana/2024/") would match every file of the folder."""
    top = os.path.dirname(folder.rstrip("/\\"))
    if top and path.startswith(top) and path[len(top) : len(top) + 1] in ("/", "\\", ""):
        return path[len(top) :].lstrip("/\\") or path
    if top and top[-1] in "/\\" and path.startswith(top):  # the folder sits at a root: "/notes", "C:\\notes"
        return path[len(top) :] or path
    return path
