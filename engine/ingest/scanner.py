"""Walk a folder and decide, for every file, whether it is indexed or why it is skipped.

Each file meets these rules in order; the first that applies decides:

1. Silently dropped (never yielded by `scan`, `classify` says "ignored"): anything under a default-excluded
   directory (`DEFAULT_EXCLUDED_DIRS`, or one holding a `pyvenv.cfg`), anything a `.gitignore` or `.ignore`
   matches (gitignore semantics, nested files relative to their own directory, deeper files winning),
   default-excluded names (`DEFAULT_EXCLUDED_FILES`), symlinks resolving outside the root, and anything that
   is not a regular file. Directory symlinks are never followed, so link loops cannot hang the walk.
2. "excluded": a user `exclude` glob matches, or `include` is non-empty and none of its globs match.
3. "secret": the name looks like credentials or a private key (`SECRET_NAMES`). Never read.
4. "too large": bigger than `max_bytes`. Never read.
5. "unreadable: <reason>" when stat or open fails; "binary" when the first 8 KiB look binary; "minified" when
   a script or stylesheet's first 8 KiB run over MINIFIED_LINE characters a line on average (GitHub
   Linguist's test: a bundle, or generated data such as a documentation site's search index).

Files that vanish mid-walk are dropped; nothing on the way raises. Only a missing or unreadable *root* raises
`CiteError`, so that a sync never mistakes an unplugged drive for a folder whose files were all deleted.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fnmatch import translate
from pathlib import Path

import pathspec

from engine.errors import CiteError
from engine.ingest.legacy import DOC_SUFFIXES
from engine.ingest.office import OFFICE_SUFFIXES, SHEET_SUFFIXES, SLIDE_SUFFIXES
from engine.ingest.rtf import RTF_SUFFIXES
from engine.ingest.scans import image_suffixes

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
HEAD_BYTES = 8 * 1024
HASH_BLOCK_BYTES = 1024 * 1024
BINARY_CONTROL_RATIO = 0.3
MINIFIED_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".css"})  # shipped minified, or generated on one line
MINIFIED_LINE = 110  # characters a line on average (GitHub Linguist's `minified_files?`)

IGNORED = "ignored"  # returned by classify() only: scan() does not yield these, to keep status lists short
EXCLUDED = "excluded"
SECRET = "secret"
TOO_LARGE = "too large"
BINARY = "binary"
MINIFIED = "minified"
UNREADABLE = "unreadable"

IGNORE_FILES = (".gitignore", ".ignore")  # in one directory, .ignore is read last and so wins
VENV_MARKER = "pyvenv.cfg"
# Binary files that extractors read: documents, and images (read by OCR).
DOCUMENT_SUFFIXES = frozenset(
    {".pdf", ".docx", *DOC_SUFFIXES, *SLIDE_SUFFIXES, *SHEET_SUFFIXES, *OFFICE_SUFFIXES, *RTF_SUFFIXES}
    | set(image_suffixes())
)

DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", "env", ".tox", ".mypy_cache",
        ".pytest_cache", ".ruff_cache", "build", "dist", "target", ".next", ".cache", ".idea", ".gradle",
        "site-packages",
    }
)  # fmt: skip
DEFAULT_EXCLUDED_FILES = (
    "*.min.js", "*.min.css", "*.map", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock",
    "Cargo.lock", "uv.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock", "go.sum", ".DS_Store",
)  # fmt: skip
SECRET_NAMES = (
    ".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
    "*.keystore", "*.jks", "credentials", "credentials.json", ".netrc", ".npmrc", ".pypirc", "*.kdbx",
    "secrets.yaml", "secrets.yml", "secrets.json", "service-account*.json",
)  # fmt: skip


def _name_matcher(globs: Sequence[str]) -> re.Pattern[str]:
    """One case-insensitive regex for a list of file-name globs (a name, never a path)."""
    return re.compile("|".join(translate(glob) for glob in globs), re.IGNORECASE)


_DEFAULT_FILE_RE = _name_matcher(DEFAULT_EXCLUDED_FILES)
_SECRET_RE = _name_matcher(SECRET_NAMES)
# Control bytes that plain text does not contain; \t \n \r \f \b are allowed.
_CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r\f\b") + b"\x7f"


@dataclass(frozen=True)
class ScanResult:
    """One file's verdict. skip_reason None means index it."""

    path: Path  # absolute
    size: int
    mtime: float
    skip_reason: str | None


# ---------------------------------------------------------------------------------------------- public API


def scan(
    root: Path,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[ScanResult]:
    """Walk root depth-first in path order, yielding a verdict per file (see the module docstring).

    cancelled() is asked before each directory is opened; when it says True the walk stops quietly.
    A directory that cannot be listed is yielded as a result of its own, with an "unreadable: ..." reason.
    """
    policy = _Policy.create(root, include, exclude, max_bytes)
    stop = cancelled or _never
    if stop():
        return
    stack = [_root_frame(policy)]
    while stack:
        frame = stack[-1]
        entry = next(frame.entries, None)
        if entry is None:
            stack.pop()
            continue
        rel = f"{frame.rel}/{entry.name}" if frame.rel else entry.name
        if not _is_real_dir(entry):
            result = _scan_file(policy, frame.rules, entry, rel)
            if result is not None:
                yield result
        elif not _prunes(frame.rules, entry.path, rel):
            if stop():
                return
            opened = _open_dir(entry.path, rel, frame.rules)
            if isinstance(opened, _Frame):
                stack.append(opened)
            elif opened is not None:
                yield opened


def classify(
    path: Path,
    root: Path,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> str | None:
    """The verdict `scan` would give path, without walking the tree (for the watcher's single files).

    Applies the ignore files found between root and path. Returns "ignored" where scan would yield nothing,
    and "unreadable: ..." for a path that does not exist. Raises ValueError if path is not under root.
    """
    policy = _Policy.create(root, include, exclude, max_bytes)
    target = os.path.abspath(path)
    rel = _relative(policy.root, target)
    rules = _rules_above(policy.root, rel)
    if rules is None:
        return IGNORED
    if os.path.isdir(target) and not os.path.islink(target):
        return _dir_reason(rules, target, rel)
    try:
        return _decide_file(policy, rules, target, rel, os.path.islink(target)).skip_reason
    except FileNotFoundError as exc:
        return _unreadable(exc)


def is_binary(head: bytes) -> bool:
    """True if these leading bytes hold a NUL, or over 30% control bytes other than \\t \\n \\r \\f \\b."""
    if not head:
        return False
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 text with a byte-order mark
        return False
    if b"\x00" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls / len(head) > BINARY_CONTROL_RATIO


def is_minified(head: bytes) -> bool:
    """True if these leading bytes of a script or stylesheet run over MINIFIED_LINE characters a line on
    average (the last line left out where the read may have cut it, unless it is the only one)."""
    lines = head.split(b"\n")
    if len(head) == HEAD_BYTES and len(lines) > 1:
        lines = lines[:-1]
    return sum(map(len, lines)) / len(lines) > MINIFIED_LINE


def content_hash(path: Path) -> str:
    """blake2b hex digest of the file's bytes, read in 1 MiB blocks so big files never sit in memory."""
    digest = hashlib.blake2b()
    with open(path, "rb") as handle:
        while block := handle.read(HASH_BLOCK_BYTES):
            digest.update(block)
    return digest.hexdigest()


# ----------------------------------------------------------------------------------------- ignore files


@dataclass(frozen=True)
class _Layer:
    base: str  # directory holding the ignore files, relative to root ("" for root itself)
    spec: pathspec.GitIgnoreSpec


@dataclass(frozen=True)
class _IgnoreRules:
    """The ignore files in effect for one directory, outermost first."""

    layers: tuple[_Layer, ...] = ()

    def descend(self, directory: str, rel: str) -> _IgnoreRules:
        """Rules for directory (at rel under root): these plus its own .gitignore/.ignore, if any."""
        spec = _compile(_read_ignore_lines(directory))
        return self if spec is None else _IgnoreRules((*self.layers, _Layer(rel, spec)))

    def ignores(self, rel: str, is_dir: bool) -> bool:
        """Git's rule: the deepest ignore file with a matching pattern decides, its last match winning."""
        for layer in reversed(self.layers):
            local = rel[len(layer.base) + 1 :] if layer.base else rel
            verdict = layer.spec.check_file(local + "/" if is_dir else local).include
            if verdict is not None:
                return verdict
        return False


def _read_ignore_lines(directory: str) -> list[str]:
    lines: list[str] = []
    for name in IGNORE_FILES:
        try:
            with open(os.path.join(directory, name), "rb") as handle:
                lines += handle.read().decode("utf-8", errors="replace").splitlines()
        except OSError:
            continue  # absent (the usual case), a directory, or unreadable: no rules from it
    return lines


def _compile(lines: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    """Compile an ignore file, dropping lines pathspec rejects (Git ignores them too). None if no rules."""
    valid = [line for line in lines if _is_valid_pattern(line)]
    spec = pathspec.GitIgnoreSpec.from_lines(valid)
    return spec if any(p.include is not None for p in spec.patterns) else None


def _is_valid_pattern(line: str) -> bool:
    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):
        return False
    return True


def _user_spec(globs: Sequence[str], what: str) -> pathspec.GitIgnoreSpec | None:
    """Compile the user's include or exclude globs; a bad one is a settings error the user must fix."""
    bad = [glob for glob in globs if not _is_valid_pattern(glob)]
    if bad:
        raise CiteError(f"Invalid {what} pattern: {bad[0]!r}.", "use gitignore-style globs such as '*.md'")
    return pathspec.GitIgnoreSpec.from_lines(globs) if globs else None


# ------------------------------------------------------------------------------------------ the walk


@dataclass(frozen=True)
class _Policy:
    """The user's choices for one folder, compiled once per scan."""

    root: str  # absolute, not resolved: reported paths keep the spelling the user chose
    real_root: Path  # resolved, to tell where symlinks point
    include: pathspec.GitIgnoreSpec | None
    exclude: pathspec.GitIgnoreSpec | None
    max_bytes: int

    @classmethod
    def create(cls, root: Path, include: Sequence[str], exclude: Sequence[str], max_bytes: int) -> _Policy:
        absolute = os.path.abspath(root)
        include_spec = _user_spec(include, "include")
        exclude_spec = _user_spec(exclude, "exclude")
        return cls(absolute, Path(absolute).resolve(), include_spec, exclude_spec, max_bytes)


@dataclass
class _Frame:
    """A directory being walked: its remaining entries, in name order, and the rules in force inside it."""

    rel: str
    rules: _IgnoreRules
    entries: Iterator[os.DirEntry[str]]


def _never() -> bool:
    return False


def _root_frame(policy: _Policy) -> _Frame:
    """The root must be listable: a silent empty walk would read as 'every file was deleted'."""
    hint = "reconnect the drive or remove the folder from Citeline"
    if not os.path.isdir(policy.root):
        raise CiteError(f"Folder not found: {policy.root}", hint)
    try:
        entries = _list_dir(policy.root)
    except OSError as exc:
        raise CiteError(f"Cannot read folder {policy.root}: {exc.strerror or exc}", hint) from exc
    return _Frame("", _IgnoreRules().descend(policy.root, ""), iter(entries))


def _list_dir(path: str) -> list[os.DirEntry[str]]:
    with os.scandir(path) as listing:
        return sorted(listing, key=lambda entry: entry.name)


def _open_dir(path: str, rel: str, rules: _IgnoreRules) -> _Frame | ScanResult | None:
    """A frame for the directory; a result saying why it cannot be listed; None if it vanished."""
    try:
        entries = _list_dir(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _skipped(path, _unreadable(exc))
    return _Frame(rel, rules.descend(path, rel), iter(entries))


def _is_real_dir(entry: os.DirEntry[str]) -> bool:
    """A directory that is not a symlink (links to directories are never followed)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _prunes(rules: _IgnoreRules, path: str, rel: str) -> bool:
    """Whether a directory is skipped with everything under it. Cheapest checks first."""
    name = rel.rsplit("/", 1)[-1]
    return (
        name in DEFAULT_EXCLUDED_DIRS
        or rules.ignores(rel, is_dir=True)
        or os.path.exists(os.path.join(path, VENV_MARKER))
    )


# ----------------------------------------------------------------------------------- per-file decision


def _scan_file(policy: _Policy, rules: _IgnoreRules, entry: os.DirEntry[str], rel: str) -> ScanResult | None:
    """What scan yields for a directory entry that is not a directory: None when silent or vanished."""
    try:
        result = _decide_file(policy, rules, entry.path, rel, entry.is_symlink())
    except FileNotFoundError:
        return None
    return None if result.skip_reason == IGNORED else result


def _decide_file(policy: _Policy, rules: _IgnoreRules, path: str, rel: str, is_link: bool) -> ScanResult:
    """The verdict for one file, read only when no name rule skips it. FileNotFoundError: it vanished."""
    name = rel.rsplit("/", 1)[-1]
    if rules.ignores(rel, is_dir=False) or _DEFAULT_FILE_RE.match(name):
        return _skipped(path, IGNORED)
    if is_link and not _points_inside(policy, path):
        return _skipped(path, IGNORED)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        return _skipped(path, _unreadable(exc))
    if not stat.S_ISREG(info.st_mode):
        return _skipped(path, IGNORED)  # FIFOs, sockets, devices: opening a FIFO would block the walk
    reason = _name_reason(policy, rel, name) or _content_reason(path, info.st_size, policy.max_bytes)
    if is_link and reason is None:  # a link is read as what it points to: docs/x.md -> ../.env is a secret
        target = os.path.basename(os.path.realpath(path))
        reason = SECRET if _SECRET_RE.match(target) else IGNORED if _DEFAULT_FILE_RE.match(target) else None
    return ScanResult(Path(path), info.st_size, info.st_mtime, reason)


def _name_reason(policy: _Policy, rel: str, name: str) -> str | None:
    if policy.exclude is not None and policy.exclude.match_file(rel):
        return EXCLUDED
    if policy.include is not None and not policy.include.match_file(rel):
        return EXCLUDED
    return SECRET if _SECRET_RE.match(name) else None


def _content_reason(path: str, size: int, max_bytes: int) -> str | None:
    """Size first (no read), then the first 8 KiB. Lets FileNotFoundError through: the file vanished."""
    if size > max_bytes:
        return TOO_LARGE
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except FileNotFoundError:
        raise
    except OSError as exc:
        return _unreadable(exc)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in DOCUMENT_SUFFIXES:
        return None
    if is_binary(head):
        return BINARY
    return MINIFIED if suffix in MINIFIED_SUFFIXES and is_minified(head) else None


def _points_inside(policy: _Policy, path: str) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(policy.real_root)


def _skipped(path: str, reason: str) -> ScanResult:
    return ScanResult(Path(path), 0, 0.0, reason)


def _unreadable(exc: OSError) -> str:
    return f"{UNREADABLE}: {exc.strerror or exc}"


# ------------------------------------------------------------------------------------ classify helpers


def _relative(root: str, target: str) -> str:
    """target relative to root with '/' separators; ValueError if it is root itself or outside it."""
    rel = os.path.relpath(target, root)
    parts = rel.split(os.sep)
    if rel == os.curdir or parts[0] == os.pardir:
        raise ValueError(f"{target} is not inside {root}")
    return "/".join(parts)


def _rules_above(root: str, rel: str) -> _IgnoreRules | None:
    """Rules in force in rel's parent directory, built as scan would; None if scan never gets there."""
    rules = _IgnoreRules().descend(root, "")
    path, walked = root, ""
    for part in rel.split("/")[:-1]:
        path = os.path.join(path, part)
        walked = f"{walked}/{part}" if walked else part
        if os.path.islink(path) or _prunes(rules, path, walked):
            return None
        rules = rules.descend(path, walked)
    return rules


def _dir_reason(rules: _IgnoreRules, path: str, rel: str) -> str | None:
    """A directory is not indexed; scan only reports it when it cannot be listed."""
    if _prunes(rules, path, rel):
        return IGNORED
    try:
        _list_dir(path)
    except OSError as exc:
        return _unreadable(exc)
    return IGNORED
