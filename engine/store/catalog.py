"""DuckDB catalog: folders, files (with status and error), chunks and embedding vectors.

The catalog is the source of truth. Every write bumps `generation`; the lexical index records the
generation it reflects, so a crash between the two commits is detected and repaired at the next open.
Schema changes are numbered migrations applied in order.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from engine.errors import CiteError, disk_full
from engine.events import Chunk
from engine.names import stored, unstored
from engine.store.base import LexicalRow
from engine.store.recent import RecentFiles
from engine.text import fold

FILE_COLS = "id, folder_id, path, size, mtime, hash, status, error, chunks"
# Directories of code copied in from other projects, by the names package managers and GitHub's linguist
# give them (node_modules is not indexed at all): embedded after the folder's own files.
VENDORED = r"(^|[\\/])(vendors?|third[-_]?party|3rdparty|bower_components)[\\/]"
# DuckDB's cache otherwise grows to 80 % of RAM: ingesting 1M chunks took the process from 380 to 824 MB
# (1,158 MB peak); with this limit it stayed within 380-600 MB at the same speed (README "Scale"). What
# a query needs beyond it spills to a temporary file beside the catalog.
MEMORY_LIMIT = "256MB"
# The longest a look-up over every chunk's text may take (a release, a code or dotted name a question writes,
# looked for where its search did not return it; a name is a term look-up in the lexical index). On 2 cores
# one reads 0.2 s (a substring) or 0.8-1.4 s (a dotted name's parts in one file) per 100k chunks, so a
# large folder would hold an answer for seconds; past the budget the look-up is stopped and the thing
# taken as held: a premise rule refuses only on proof.
SCAN_BUDGET_S = 0.25
log = logging.getLogger(__name__)
CHUNK_COLS = "c.id, c.file_id, f.path, c.start_line, c.end_line, c.page, c.heading, c.text, f.mtime, c.lines"

# A chunk (c), its file (f) and the length of what is above the file's folder (d.cut), so that a file's
# path is read from its folder's own name down (_PATH_WITHIN), as `engine.names.within` cuts it: a word in
# the folders above an indexed folder is in every one of its files' paths.
_FILE_AND_FOLDER = (
    "chunks c JOIN files f ON f.id = c.file_id LEFT JOIN (SELECT id, "
    "length(path) - length(regexp_extract(path, '[^/\\\\]*$')) AS cut FROM folders) d ON d.id = f.folder_id"
)
_PATH_WITHIN = "substr(f.path, coalesce(d.cut, 0) + 1)"
# A file's words: the runs of letters, digits and "_" (RE2's [:alnum:] is ASCII) in its chunks' text and
# headings and its path within its folder, lower case, and where dropping accents changes the text, in
# that form too. A whole word a chunk holds is one of its file's words, and a run of those characters
# that a chunk holds lies within one: a look-up over every chunk (mentions, holds_together) proves such a
# thing absent from the words alone, and scans only the files whose words hold all of what it looks for.
# Only files with chunks have words. `rows`: (file_id, x), x the lower-case text to read words from.
WORD = re.compile(r"[0-9a-z_]+")
WORDS_OF = (
    "INSERT INTO words SELECT DISTINCT file_id, unnest(regexp_extract_all(t, '[[:alnum:]_]+')) FROM ("
    "SELECT file_id, CASE WHEN strip_accents(x) = x THEN x ELSE x || ' ' || strip_accents(x) END AS t "
    "FROM ({rows}))"
)
_PATHS_OF = f"SELECT f.id AS file_id, lower({_PATH_WITHIN}) AS x FROM " + _FILE_AND_FOLDER.replace(
    "chunks c JOIN files f ON f.id = c.file_id", "files f"
)
ALL_WORDS = WORDS_OF.format(
    rows=f"SELECT c.file_id, lower(c.text || ' ' || c.heading || ' ' || {_PATH_WITHIN}) AS x "
    f"FROM {_FILE_AND_FOLDER}"
)
# The words are current as of the generation they record (meta "words"), which every write of chunks
# moves with the generation. A writer that does not keep them (a Citeline from before them, sharing the
# data folder) moves only the generation: the next to open the catalog makes them again.
WORDS_CURRENT = "INSERT OR REPLACE INTO meta SELECT 'words', value FROM meta WHERE key = 'generation'"

MIGRATIONS: tuple[str, ...] = (
    # 1: initial schema
    """
    CREATE TABLE meta(key VARCHAR PRIMARY KEY, value VARCHAR);
    CREATE SEQUENCE folder_ids START 1;
    CREATE TABLE folders(
        id INTEGER PRIMARY KEY DEFAULT nextval('folder_ids'),
        path VARCHAR NOT NULL UNIQUE,
        include VARCHAR NOT NULL DEFAULT '[]',
        exclude VARCHAR NOT NULL DEFAULT '[]',
        added_at TIMESTAMP DEFAULT current_timestamp,
        synced_at TIMESTAMP);
    CREATE SEQUENCE file_ids START 1;
    CREATE TABLE files(
        id BIGINT PRIMARY KEY DEFAULT nextval('file_ids'),
        folder_id INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        size BIGINT, mtime DOUBLE, hash VARCHAR,
        status VARCHAR NOT NULL,
        error VARCHAR,
        chunks INTEGER DEFAULT 0,
        indexed_at TIMESTAMP DEFAULT current_timestamp);
    CREATE INDEX files_path ON files(path);
    CREATE SEQUENCE chunk_ids START 1;
    CREATE TABLE chunks(
        id BIGINT PRIMARY KEY DEFAULT nextval('chunk_ids'),
        file_id BIGINT NOT NULL,
        ord INTEGER NOT NULL,
        start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, page INTEGER,
        heading VARCHAR NOT NULL, text VARCHAR NOT NULL, text_hash VARCHAR NOT NULL);
    CREATE INDEX chunks_file ON chunks(file_id);
    CREATE TABLE vectors(text_hash VARCHAR PRIMARY KEY, vec FLOAT[384] NOT NULL);
    INSERT INTO meta VALUES ('generation', '0');
    """,
    # 2: each chunk's length in embedder tokens, to report how many the embedder truncates
    """
    ALTER TABLE chunks ADD COLUMN tokens INTEGER;
    """,
    # 3: conversations (engine/conversation_store.py): threads, their turns (question, the standalone
    # question searched, the answer as JSON, timings) and each turn's citations with the cited file's
    # hash and mtime when it was answered, so an old answer can say its source changed since
    """
    CREATE SEQUENCE thread_ids START 1;
    CREATE TABLE threads(
        id BIGINT PRIMARY KEY DEFAULT nextval('thread_ids'),
        title VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
        updated_at TIMESTAMP NOT NULL DEFAULT current_timestamp);
    CREATE SEQUENCE turn_ids START 1;
    CREATE TABLE turns(
        id BIGINT PRIMARY KEY DEFAULT nextval('turn_ids'),
        thread_id BIGINT NOT NULL,
        ord INTEGER NOT NULL,
        question VARCHAR NOT NULL,
        searched VARCHAR NOT NULL,
        follow_up BOOLEAN NOT NULL,
        refused BOOLEAN NOT NULL,
        answer_text VARCHAR NOT NULL,
        answer VARCHAR NOT NULL,
        timings VARCHAR NOT NULL,
        asked_at TIMESTAMP NOT NULL DEFAULT current_timestamp);
    CREATE INDEX turns_thread ON turns(thread_id);
    CREATE TABLE turn_citations(
        turn_id BIGINT NOT NULL,
        sentence INTEGER NOT NULL,
        source INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        page INTEGER,
        quote VARCHAR NOT NULL,
        file_hash VARCHAR,
        file_mtime DOUBLE);
    CREATE INDEX turn_citations_turn ON turn_citations(turn_id);
    """,
    # 4: each file's words (WORDS_OF, above), so that a look-up over every chunk proves a word absent
    # without reading the chunks, and reads only the files that hold every word of what it looks for
    "CREATE TABLE words(file_id BIGINT NOT NULL, word VARCHAR NOT NULL);\n"
    + ALL_WORDS
    + ";\n"
    + WORDS_CURRENT,
    # 5: each chunk's line map (engine.events.encode_lines). Before it a chunk of a format read into other
    # lines than it is written in (HTML, a notebook) cited the lines after its first as if they followed one
    # another: its files are read again, found by a text whose line count is not its span's
    "ALTER TABLE chunks ADD COLUMN IF NOT EXISTS lines VARCHAR DEFAULT '';\n"
    "UPDATE files SET mtime = -1, hash = '' WHERE id IN (SELECT file_id FROM chunks "
    "WHERE end_line - start_line <> length(text) - length(replace(text, chr(10), '')));",
)


@dataclass(frozen=True)
class FileRow:
    id: int
    folder_id: int
    path: str
    size: int
    mtime: float
    hash: str
    status: str
    error: str | None
    chunks: int


@dataclass(frozen=True)
class QueuedText:
    """A distinct chunk text waiting for its vector."""

    hash: str
    text: str
    first: bool  # some file's first chunk: where a header shared by many files sits
    chunks: int  # chunks with this text (of the folder asked about): all get the one vector
    tokens: int  # its length in embedder tokens (0: not counted)
    path: str = ""  # where (the first of) its chunks sit: the file, its folder's root, the heading, which
    root: str = ""  # the embedder reads before the text (text.embedded_chunk) and the key is made of
    heading: str = ""


@dataclass(frozen=True)
class FileWrite:
    """A file's new state and chunks, for replace_files()."""

    path: str
    size: int
    mtime: float
    hash: str
    status: str
    error: str | None
    chunks: Sequence[Chunk]
    hashes: Sequence[str]
    tokens: Sequence[int | None] = ()


def _file_columns(files: Sequence[FileWrite]) -> list[list[Any]]:
    return [
        [f.size for f in files],
        [f.mtime for f in files],
        [f.hash for f in files],
        [f.status for f in files],
        [f.error for f in files],
        [len(f.chunks) for f in files],
    ]


@dataclass(frozen=True)
class FolderRow:
    id: int
    path: str
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    synced_at: Any


@dataclass(frozen=True)
class ChunkRow:
    id: int
    file_id: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    heading: str
    text: str
    mtime: float
    lines: str  # the line map (engine.events.encode_lines)


def _chunks_of(folder_id: int | None) -> str:
    """The chunks table, or (with a `?` for the folder id) the chunks of one folder's files."""
    if folder_id is None:
        return "chunks"
    return (
        "(SELECT c.* FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.folder_id = ?) AS folder_chunks"
    )


def _in_use(path: Path) -> CiteError:
    return CiteError(
        f"The index at {path} is in use by another Citeline process.",
        "close the other Citeline window or command, then try again",
    )


def _folder_arg(folder_id: int | None) -> list[int]:
    return [] if folder_id is None else [folder_id]


def _to_db(value: Any) -> Any:
    if isinstance(value, str):
        return stored(value)
    if isinstance(value, (list, tuple)):
        return [_to_db(v) for v in value]
    return value


def _from_db(row: Any) -> Any:
    if row is None:
        return None
    return tuple(unstored(v) if isinstance(v, str) else v for v in row)


class _Result:
    """A query's result, its text values turned back from the catalog's form of file names."""

    def __init__(self, rel: duckdb.DuckDBPyConnection) -> None:
        self._rel = rel

    def fetchone(self) -> tuple[Any, ...] | None:
        return _from_db(self._rel.fetchone())  # type: ignore[no-any-return]

    def fetchall(self) -> list[tuple[Any, ...]]:
        return [_from_db(r) for r in self._rel.fetchall()]

    def fetchmany(self, size: int) -> list[tuple[Any, ...]]:
        return [_from_db(r) for r in self._rel.fetchmany(size)]

    def fetchnumpy(self) -> dict[str, Any]:
        columns = self._rel.fetchnumpy()
        for name, values in columns.items():
            if getattr(values, "dtype", None) is np.dtype(object):
                columns[name] = np.array(
                    [unstored(v) if isinstance(v, str) else v for v in values], dtype=object
                )
        return columns


class Budget:
    """Seconds a look-up may take, from when it was made."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.perf_counter()

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)


def _among(files: Iterable[list[int] | None]) -> list[int] | None:
    """The files any of several look-ups may find something in (None: any file)."""
    union: set[int] = set()
    for some in files:
        if some is None:
            return None
        union.update(some)
    return sorted(union)


def _whole_word(word: str) -> str:
    """A regular expression (DuckDB's RE2) for `word` as a whole word: no letter, digit or _ beside it."""
    return rf"(^|[^[:alnum:]_]){re.escape(word)}($|[^[:alnum:]_])"


class CatalogConnection:
    """A DuckDB connection or cursor whose parameters and results pass through `engine.names`, so a file
    name that is not valid UTF-8 (a lone surrogate in Python) is stored losslessly rather than failing
    the whole batch."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con

    def execute(self, sql: str, parameters: Any = None) -> _Result:
        if parameters is None:
            return _Result(self._con.execute(sql))
        return _Result(self._con.execute(sql, _to_db(parameters)))

    def executemany(self, sql: str, parameters: Iterable[Any]) -> _Result:
        return _Result(self._con.executemany(sql, [_to_db(p) for p in parameters]))

    def interrupt(self) -> None:
        """Stop the statement this cursor runs (from another thread): it raises InterruptException."""
        self._con.interrupt()


class Catalog:
    """One DuckDB file. Writes are serialised by a lock; reads use per-call cursors (thread-safe)."""

    def __init__(self, path: Path, snapshot_when_busy: bool = False) -> None:
        """Open the catalog for reading and writing. When another process holds it (DuckDB allows one
        writing process) and `snapshot_when_busy`, open a read-only snapshot of it instead: a copy of the
        file as of its last checkpoint (what is committed but only in the write-ahead log is not in it),
        so a search from a terminal works while the app or `watch` indexes. Writing to a snapshot raises
        the usual "in use" error."""
        self.snapshot: Path | None = None
        self.path = path
        try:
            self._con = duckdb.connect(str(path), config={"memory_limit": MEMORY_LIMIT})
        except duckdb.IOException as exc:
            if not snapshot_when_busy:
                raise _in_use(path) from exc
            self._con = self._open_snapshot(path)
        self._lock = threading.RLock()
        self._dim: int | None = None  # the vectors table's declared width, read once
        self.recent = RecentFiles(path.with_name("recent.json"))  # files searches returned: embedded first
        if self.snapshot is None:
            self._migrate()
        elif self.meta("schema") != str(len(MIGRATIONS)):
            self.close()
            raise _in_use(path)
        self._words_current = self.meta("words") == self.meta("generation")
        if not self._words_current and self.snapshot is None:
            log.info("the index was written by a Citeline that does not keep its words: making them again")
            self.rebuild_words()

    def _open_snapshot(self, path: Path) -> duckdb.DuckDBPyConnection:
        folder = Path(tempfile.mkdtemp(prefix="citeline-snapshot-"))
        copy = folder / path.name
        for attempt in range(3):  # a copy torn by a checkpoint fails to open; the next one is whole
            try:
                shutil.copyfile(path, copy)
                con = duckdb.connect(str(copy), read_only=True, config={"memory_limit": MEMORY_LIMIT})
                con.execute("SELECT count(*) FROM files").fetchone()
            except (OSError, duckdb.Error) as exc:
                if attempt == 2:
                    shutil.rmtree(folder, ignore_errors=True)
                    raise _in_use(path) from exc
                continue
            self.snapshot = copy
            return con
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.recent.save()
        with self._lock:
            self._con.close()
        if self.snapshot is not None:
            shutil.rmtree(self.snapshot.parent, ignore_errors=True)

    # -- plumbing -------------------------------------------------------------------------------------
    def _cur(self) -> CatalogConnection:
        return CatalogConnection(self._con.cursor())

    def _migrate(self) -> None:
        with self._lock:
            exists = self._con.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_name = 'meta'"
            ).fetchone()
            version = 0
            if exists and exists[0]:
                row = self._con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                version = int(row[0]) if row else 1
            for number, sql in enumerate(MIGRATIONS[version:], start=version + 1):
                self._con.execute("BEGIN")
                self._con.execute(sql)
                self._con.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", [str(number)])
                self._con.execute("COMMIT")

    @contextmanager
    def write(self, chunks_changed: bool = True) -> Iterator[CatalogConnection]:
        """One write transaction. One that changes chunks bumps the generation, so the lexical index
        can tell it is stale."""
        if self.snapshot is not None:
            raise CiteError(
                "The index is in use by another Citeline process (it is indexing); "
                "this command can only read it now.",
                "wait until the other window or command finishes, then try again",
            )
        with self._lock:
            con = self._con
            con.execute("BEGIN")
            try:
                yield CatalogConnection(con)
                if chunks_changed:
                    con.execute(
                        "UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS VARCHAR) "
                        "WHERE key = 'generation'"
                    )
                    if self._words_current:  # every write of chunks keeps the words (WORDS_CURRENT)
                        con.execute(WORDS_CURRENT)
                con.execute("COMMIT")
            except BaseException as exc:
                with suppress(duckdb.Error):  # a COMMIT that failed has already ended the transaction
                    con.execute("ROLLBACK")
                full = disk_full(exc, self.path.parent)
                if full is not None:
                    raise full from exc
                raise

    def generation(self) -> int:
        row = self._cur().execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    # -- folders --------------------------------------------------------------------------------------
    def add_folder(self, path: str, include: Sequence[str] = (), exclude: Sequence[str] = ()) -> FolderRow:
        with self.write(chunks_changed=False) as con:
            con.execute(
                "INSERT INTO folders(path, include, exclude) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE "
                "SET include = excluded.include, exclude = excluded.exclude",
                [path, json.dumps(list(include)), json.dumps(list(exclude))],
            )
        folder = self.folder(path)
        assert folder is not None
        return folder

    def folders(self) -> list[FolderRow]:
        rows = (
            self._cur()
            .execute("SELECT id, path, include, exclude, synced_at FROM folders ORDER BY path")
            .fetchall()
        )
        return [FolderRow(r[0], r[1], tuple(json.loads(r[2])), tuple(json.loads(r[3])), r[4]) for r in rows]

    def folder(self, path: str) -> FolderRow | None:
        return next((f for f in self.folders() if f.path == path), None)

    def remove_folder(self, folder_id: int) -> tuple[list[int], list[int]]:
        """Delete a folder with its files and chunks; returns the removed (file ids, chunk ids)."""
        with self.write() as con:
            ids = [
                int(r[0])
                for r in con.execute("SELECT id FROM files WHERE folder_id = ?", [folder_id]).fetchall()
            ]
            chunk_ids = self.delete_files(con, ids)
            con.execute("DELETE FROM folders WHERE id = ?", [folder_id])
        return ids, chunk_ids

    def rebuild_words(self) -> None:
        """Every file's words (WORDS_OF) made again from the chunks, as the migration that added them did."""
        with self.write(chunks_changed=False) as con:
            con.execute("DELETE FROM words")
            con.execute(ALL_WORDS)
            con.execute(WORDS_CURRENT)
        self._words_current = True

    def mark_unread(self, paths: Sequence[str]) -> None:
        """Make the next sync read these files again as if they had changed (a retry of failed files)."""
        with self.write(chunks_changed=False) as con:
            con.execute("UPDATE files SET mtime = -1 WHERE list_contains(?::VARCHAR[], path)", [list(paths)])

    def mark_synced(self, folder_id: int) -> None:
        with self.write(chunks_changed=False) as con:
            con.execute("UPDATE folders SET synced_at = current_timestamp WHERE id = ?", [folder_id])

    # -- files ----------------------------------------------------------------------------------------
    def files(self, folder_id: int | None = None) -> list[FileRow]:
        sql = f"SELECT {FILE_COLS} FROM files"
        args: list[Any] = []
        if folder_id is not None:
            sql += " WHERE folder_id = ?"
            args.append(folder_id)
        return [FileRow(*r) for r in self._cur().execute(sql + " ORDER BY path", args).fetchall()]

    def files_in_dir(self, directory: str) -> list[FileRow]:
        """Files directly inside one directory (not below it)."""
        sep = "\\" if "\\" in directory else "/"
        prefix = directory.rstrip(sep) + sep
        rows = (
            self._cur()
            .execute(
                f"SELECT {FILE_COLS} FROM files "
                "WHERE starts_with(path, ?) AND NOT contains(substr(path, ?), ?) ORDER BY path",
                [prefix, len(prefix) + 1, sep],
            )
            .fetchall()
        )
        return [FileRow(*r) for r in rows]

    def indexed_at(self, path: str) -> Any:
        """When the file's row was last written (a naive timestamp, as DuckDB stores it), or None."""
        row = self._cur().execute("SELECT indexed_at FROM files WHERE path = ?", [path]).fetchone()
        return row[0] if row else None

    def file(self, path: str) -> FileRow | None:
        row = (
            self._cur()
            .execute(
                f"SELECT {FILE_COLS} FROM files WHERE path = ?",
                [path],
            )
            .fetchone()
        )
        return FileRow(*row) if row else None

    def has_path_ending(self, suffix: str) -> bool:
        """Whether any file in the index (whatever its status) has a path ending in `suffix`, compared
        loosely (any case, either slash, not only at a folder boundary: "Handbook.md" finds "Team
        Handbook.md"), as a reference written in a document may be."""
        row = (
            self._cur()
            .execute(
                "SELECT 1 FROM files WHERE ends_with(lower(replace(path, '\\', '/')), ?) LIMIT 1",
                [suffix.replace("\\", "/").lower()],
            )
            .fetchone()
        )
        return row is not None

    def files_named(self, names: Sequence[str], most: int) -> dict[str, list[int]]:
        """For each of `names` (lower case), the indexed files whose name, or name without its last suffix,
        it is (any case: "model_authentication" finds "MODEL_AUTHENTICATION.mdx", "config.py" finds
        "Config.py"); a name more than `most` files share is left out, as naming none of them. One pass
        over the files, not the chunks."""
        if not names:
            return {}
        rows = (
            self._cur()
            .execute(
                "SELECT id, name FROM (SELECT id, lower(regexp_extract(replace(path, '\\', '/'), '[^/]*$')) "
                "AS name FROM files WHERE status = 'indexed') WHERE name IN (SELECT unnest($1)) "
                "OR regexp_replace(name, '\\.[^.]*$', '') IN (SELECT unnest($1)) ORDER BY id",
                [list(names)],
            )
            .fetchall()
        )
        found: dict[str, list[int]] = {}
        for file_id, name in rows:
            for key in {name, re.sub(r"\.[^.]*$", "", name)} & set(names):
                found.setdefault(key, []).append(int(file_id))
        return {name: ids for name, ids in found.items() if len(ids) <= most}

    def replace_files(
        self, con: CatalogConnection, folder_id: int, files: Sequence[FileWrite]
    ) -> tuple[dict[str, int], dict[str, list[int]], list[int]]:
        """Inside a write(): store files with their new chunks in a few bulk statements.

        Returns (path -> file id, path -> new chunk ids in order, removed old chunk ids)."""
        if not files:
            return {}, {}, []
        paths = [f.path for f in files]
        existing: dict[str, int] = dict(
            con.execute(
                "SELECT f.path, f.id FROM files f JOIN (SELECT unnest(?::VARCHAR[]) AS path) u "
                "ON f.path = u.path",
                [paths],
            ).fetchall()
        )
        # Only files already known have chunks to remove: a fresh ingest (every path new) never scans
        # the chunks table, which made each batch cost more the bigger the index grew.
        removed = (
            con.execute(
                "DELETE FROM chunks WHERE file_id IN (SELECT unnest(?::BIGINT[])) RETURNING id",
                [list(existing.values())],
            ).fetchall()
            if existing
            else []
        )
        if existing:
            con.execute(
                "DELETE FROM words WHERE file_id IN (SELECT unnest(?::BIGINT[]))", [list(existing.values())]
            )
        old = [f for f in files if f.path in existing]
        new = [f for f in files if f.path not in existing]
        if old:
            con.execute(
                "UPDATE files SET folder_id = ?, size = u.size, mtime = u.mtime, hash = u.hash, "
                "status = u.status, error = u.error, chunks = u.n, indexed_at = current_timestamp "
                "FROM (SELECT unnest(?::BIGINT[]) AS id, "
                "unnest(?::BIGINT[]) AS size, unnest(?::DOUBLE[]) AS mtime, unnest(?::VARCHAR[]) AS hash, "
                "unnest(?::VARCHAR[]) AS status, unnest(?::VARCHAR[]) AS error, unnest(?::INTEGER[]) AS n) u "
                "WHERE files.id = u.id",
                [folder_id, [existing[f.path] for f in old], *_file_columns(old)],
            )
        ids = dict(existing)
        if new:
            rows = con.execute(
                "INSERT INTO files(folder_id, path, size, mtime, hash, status, error, chunks) "
                "SELECT ?, unnest(?::VARCHAR[]), unnest(?::BIGINT[]), unnest(?::DOUBLE[]), "
                "unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::INTEGER[]) "
                "RETURNING path, id",
                [folder_id, [f.path for f in new], *_file_columns(new)],
            ).fetchall()
            ids.update(dict(rows))
        return ids, self._insert_chunks(con, files, ids), [int(r[0]) for r in removed]

    def _insert_chunks(
        self, con: CatalogConnection, files: Sequence[FileWrite], ids: dict[str, int]
    ) -> dict[str, list[int]]:
        owners = [
            (f.path, i, c, h) for f in files for i, (c, h) in enumerate(zip(f.chunks, f.hashes, strict=True))
        ]
        tokens = [n for f in files for n in (f.tokens or [None] * len(f.chunks))]
        out: dict[str, list[int]] = {f.path: [] for f in files}
        if not owners:
            return out
        rows = con.execute(
            "INSERT INTO chunks(file_id, ord, start_line, end_line, page, heading, text, text_hash, tokens, "
            "lines) SELECT unnest(?::BIGINT[]), unnest(?::INTEGER[]), unnest(?::INTEGER[]), "
            "unnest(?::INTEGER[]), unnest(?::INTEGER[]), unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), "
            "unnest(?::VARCHAR[]), unnest(?::INTEGER[]), unnest(?::VARCHAR[]) RETURNING file_id, ord, id",
            [
                [ids[p] for p, _, _, _ in owners],
                [i for _, i, _, _ in owners],
                [c.start_line for _, _, c, _ in owners],
                [c.end_line for _, _, c, _ in owners],
                [c.page for _, _, c, _ in owners],
                [c.heading for _, _, c, _ in owners],
                [c.text for _, _, c, _ in owners],
                [h for _, _, _, h in owners],
                tokens,
                [c.lines for _, _, c, _ in owners],
            ],
        ).fetchall()
        with_chunks = sorted({ids[p] for p, _, _, _ in owners})
        con.execute(
            WORDS_OF.format(
                rows="SELECT unnest(?::BIGINT[]) AS file_id, lower(unnest(?::VARCHAR[])) AS x "
                f"UNION ALL {_PATHS_OF} WHERE f.id IN (SELECT unnest(?::BIGINT[]))"
            ),
            [
                [ids[p] for p, _, _, _ in owners],
                [f"{c.text} {c.heading}" for _, _, c, _ in owners],
                with_chunks,
            ],
        )
        by_id = {v: k for k, v in ids.items()}
        for file_id, _ord, chunk_id in sorted(rows, key=lambda r: (r[0], r[1])):
            out[by_id[file_id]].append(int(chunk_id))
        return out

    def touch_file(self, con: CatalogConnection, file_id: int, size: int, mtime: float) -> None:
        con.execute("UPDATE files SET size = ?, mtime = ? WHERE id = ?", [size, mtime, file_id])

    def delete_files(self, con: CatalogConnection, file_ids: Sequence[int]) -> list[int]:
        """Inside a write(): remove files and their chunks; returns the removed chunk ids."""
        if not file_ids:
            return []
        ids = list(file_ids)
        chunk_ids = [
            int(r[0])
            for r in con.execute("SELECT id FROM chunks WHERE list_contains(?, file_id)", [ids]).fetchall()
        ]
        con.execute("DELETE FROM chunks WHERE list_contains(?, file_id)", [ids])
        con.execute("DELETE FROM words WHERE list_contains(?, file_id)", [ids])
        con.execute("DELETE FROM files WHERE list_contains(?, id)", [ids])
        return chunk_ids

    # -- chunks ---------------------------------------------------------------------------------------
    def chunk_rows(self, ids: Sequence[int]) -> dict[int, ChunkRow]:
        """The rows of these chunks (a search's results, best first). Their files are noted as recently
        shown, so a vector backlog embeds what people are searching for first."""
        if not ids:
            return {}
        rows = (
            self._cur()
            .execute(
                f"SELECT {CHUNK_COLS} FROM (SELECT unnest(?::BIGINT[]) AS id) q "
                "JOIN chunks c ON c.id = q.id JOIN files f ON f.id = c.file_id",
                [list(ids)],
            )
            .fetchall()
        )
        found = {int(r[0]): ChunkRow(*r) for r in rows}
        self.recent.note(found[i].path for i in ids if i in found)
        return found

    def chunks_of_file(self, file_id: int) -> list[ChunkRow]:
        rows = (
            self._cur()
            .execute(
                f"SELECT {CHUNK_COLS} "
                "FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.file_id = ? ORDER BY c.ord",
                [file_id],
            )
            .fetchall()
        )
        return [ChunkRow(*r) for r in rows]

    def next_chunk(self, chunk_id: int) -> ChunkRow | None:
        """The chunk that follows this one in its file, or None (the last chunk, or one gone)."""
        row = (
            self._cur()
            .execute(
                f"SELECT {CHUNK_COLS} FROM chunks c JOIN files f ON f.id = c.file_id "
                "JOIN chunks this ON this.file_id = c.file_id AND c.ord = this.ord + 1 WHERE this.id = ?",
                [chunk_id],
            )
            .fetchone()
        )
        return ChunkRow(*row) if row else None

    def mentions(self, *terms: str, whole: bool = False) -> bool:
        """Whether any indexed chunk's text or heading, or any indexed file's path, holds one of `terms`
        (case aside; `whole`: as a whole identifier, no letter, digit or "_" either side). The files'
        words (WORDS_OF) answer for a term that is one run of letters, digits and "_"; the others are
        looked for by one scan of the files whose words hold all of theirs, which stops at the first
        match. True, unproven, past SCAN_BUDGET_S for the whole look-up."""
        budget = Budget(SCAN_BUDGET_S)
        lowered = list(dict.fromkeys(t.lower() for t in terms if t))
        holding = self._files_holding([(t, whole) for t in lowered], budget)
        if holding is None:
            return True
        if any(WORD.fullmatch(t) and holding[i] for i, t in enumerate(lowered)):
            return True
        left = [(t, files) for t, files in zip(lowered, holding, strict=True) if files is None or files]
        if not left:
            return False
        fields = ("lower(c.text)", "lower(c.heading)", f"lower({_PATH_WITHIN})")
        if not whole:
            where = " OR ".join(f"contains({field}, ?)" for _ in left for field in fields)
            params: list[object] = [t for t, _ in left for _ in fields]
        else:
            where = " OR ".join(
                f"(contains({f}, ?) AND regexp_matches({f}, ?))" for _ in left for f in fields
            )
            params = [p for t, _ in left for _ in fields for p in (t, _whole_word(t))]
        among = _among(files for _, files in left)
        within = "" if among is None else "c.file_id IN (SELECT unnest(?::BIGINT[])) AND "
        sql = f"SELECT 1 FROM {_FILE_AND_FOLDER} WHERE {within}({where}) LIMIT 1"
        found = self._within(budget, sql, params if among is None else [among, *params], rows=1)
        return found is None or bool(found)

    def holds_together(self, words: Sequence[str], member: str, pattern: str) -> bool:
        """Whether one indexed file holds every one of `words` as a whole word and a match of `pattern`
        (a regular expression over lower-case text without accents, which must contain `member`), in its
        chunks' text or headings or its path: one scan of the files whose words hold them all (a dotted
        name's parts, PriorityQueue and pop, read where the class and its method are defined apart). False
        on an expression the engine refuses; True, unproven, past SCAN_BUDGET_S."""
        folded = [fold(w) for w in (*words, member) if fold(w).strip()]
        if len(folded) != len(words) + 1:
            return False
        budget = Budget(SCAN_BUDGET_S)
        holding = self._files_holding([(w, True) for w in folded[:-1]] + [(folded[-1], False)], budget)
        if holding is None:
            return True
        found = [set(files) for files in holding if files is not None]
        among = sorted(set.intersection(*found)) if found else None
        if among == []:
            return False
        field = f"strip_accents(lower(c.text || ' ' || c.heading || ' ' || {_PATH_WITHIN}))"
        patterns = [_whole_word(w) for w in folded[:-1]]
        patterns.append(pattern)
        having = " AND ".join("bool_or(regexp_matches(t, ?))" for _ in patterns)
        prefilter = " OR ".join("contains(t, ?)" for _ in folded)
        within = "" if among is None else " WHERE c.file_id IN (SELECT unnest(?::BIGINT[]))"
        sql = (
            f"SELECT 1 FROM (SELECT c.file_id, {field} AS t FROM {_FILE_AND_FOLDER}{within}) "
            f"WHERE {prefilter} GROUP BY file_id HAVING {having} LIMIT 1"
        )
        try:
            rows = self._within(
                budget, sql, [*([] if among is None else [among]), *folded, *patterns], rows=1
            )
        except duckdb.InvalidInputException:
            return False
        return rows is None or bool(rows)

    def _files_holding(
        self, terms: Sequence[tuple[str, bool]], budget: Budget
    ) -> list[list[int] | None] | None:
        """For each (term, whole), the files whose words (WORDS_OF) hold every run of letters, digits and
        "_" in the term: each a word of theirs (whole) or within one; None for a term without such a run,
        which the words cannot narrow. None for all, unknown, past the budget."""
        if not self._words_current:  # a snapshot of a catalog whose words a writer did not keep
            return [None for _ in terms]
        rows = [(i, run, whole) for i, (term, whole) in enumerate(terms) for run in set(WORD.findall(term))]
        out: list[list[int] | None] = [[] if WORD.search(term) else None for term, _ in terms]
        for whole in (True, False):
            mine = [(i, run) for i, run, w in rows if w is whole]
            if not mine:
                continue
            on = "w.word = t.run" if whole else "contains(w.word, t.run)"
            found = self._within(
                budget,
                "SELECT t.term, w.file_id FROM words w JOIN (SELECT unnest(?::INTEGER[]) AS term, "
                f"unnest(?::VARCHAR[]) AS run, unnest(?::INTEGER[]) AS runs) t ON {on} "
                "GROUP BY t.term, w.file_id HAVING count(DISTINCT t.run) = max(t.runs)",
                [
                    [i for i, _ in mine],
                    [run for _, run in mine],
                    [sum(1 for j, _ in mine if j == i) for i, _ in mine],
                ],
            )
            if found is None:
                return None
            for term, file_id in found:
                files = out[term]
                assert files is not None
                files.append(int(file_id))
        return out

    def _within(
        self, budget: Budget, sql: str, params: Sequence[object], rows: int | None = None
    ) -> list[Any] | None:
        """The rows of `sql` (the first `rows` of them), or None when it runs past what is left of the
        budget: it is stopped by DuckDB's interrupt, sent again every 10 ms until the statement stops
        (one sent before it has started is lost)."""
        cur = self._cur()
        done = threading.Event()

        def stop() -> None:
            while not done.is_set():
                with suppress(duckdb.Error):  # the catalog closed meanwhile
                    cur.interrupt()
                done.wait(0.01)

        timer = threading.Timer(max(0.0, budget.left()), stop)
        timer.daemon = True
        timer.start()
        try:
            result = cur.execute(sql, params)
            return result.fetchall() if rows is None else result.fetchmany(rows)
        except duckdb.InterruptException:
            log.info("a look-up over every chunk ran past %.2f s; taken as held", budget.seconds)
            return None
        finally:
            done.set()
            timer.cancel()

    def iter_lexical_rows(self, batch: int = 5000) -> Iterator[list[LexicalRow]]:
        """(chunk id, file id, path, heading, text, watched folder) for rebuilding the lexical index."""
        result = self._cur().execute(
            "SELECT c.id, c.file_id, f.path, c.heading, c.text, d.path FROM chunks c "
            "JOIN files f ON f.id = c.file_id LEFT JOIN folders d ON d.id = f.folder_id ORDER BY c.id"
        )
        while rows := result.fetchmany(batch):
            yield [(int(r[0]), int(r[1]), r[2], r[3], r[4], r[5] or "") for r in rows]

    def set_meta(self, key: str, value: str) -> None:
        with self.write(chunks_changed=False) as con:
            con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [key, value])

    def meta(self, key: str, default: str = "") -> str:
        row = self._cur().execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return str(row[0]) if row else default

    def count_truncated(self, limit: int) -> int:
        """Chunks longer than the embedder's window (their tail is not embedded; BM25 still sees it)."""
        row = self._cur().execute("SELECT count(*) FROM chunks WHERE tokens > ?", [limit]).fetchone()
        return int(row[0]) if row else 0

    def count_chunks(self) -> int:
        row = self._cur().execute("SELECT count(*) FROM chunks").fetchone()
        return int(row[0]) if row else 0

    # -- vectors --------------------------------------------------------------------------------------
    def missing_vectors(self, limit: int, folder_id: int | None = None) -> list[tuple[str, str]]:
        """(text hash, text) of chunk texts with no vector yet, one per distinct text; of one folder's
        files when folder_id is given."""
        rows = (
            self._cur()
            .execute(
                "SELECT q.text_hash, c.text FROM (SELECT text_hash, min(id) AS first_id "
                f"  FROM {_chunks_of(folder_id)} WHERE text_hash NOT IN (SELECT text_hash FROM vectors) "
                "  GROUP BY text_hash ORDER BY first_id LIMIT ?) q JOIN chunks c ON c.id = q.first_id "
                "ORDER BY q.first_id",
                [*_folder_arg(folder_id), limit],
            )
            .fetchall()
        )
        return [(r[0], r[1]) for r in rows]

    def embed_queue(
        self, limit: int, folder_id: int | None = None, seen: Sequence[tuple[str, float]] = ()
    ) -> list[QueuedText]:
        """The next distinct chunk texts without a vector, in the order they are worth embedding: texts of
        files searches returned lately (`seen`: path, when), newest first; then of the most recently
        modified files, code vendored from elsewhere (VENDORED) last; then in the order they were
        indexed. Of one folder's files when folder_id is given."""
        # Ranked by hash alone, then the texts of the window read by chunk id: carrying every text through
        # the grouping made this ~1.5 s a window at 1M chunks, against ~0.2 s.
        folder = "WHERE f.folder_id = ?" if folder_id is not None else ""
        rows = (
            self._cur()
            .execute(
                "WITH seen AS (SELECT unnest(?::VARCHAR[]) AS path, unnest(?::DOUBLE[]) AS at), "
                "ff AS (SELECT f.id, f.mtime, regexp_matches(f.path, ?) AS vendored, s.at "
                f"  FROM files f LEFT JOIN seen s ON s.path = f.path {folder}), "
                "top AS (SELECT c.text_hash, min(c.id) AS first_id, bool_or(c.ord = 0) AS first, "
                "  count(*) AS n, max(coalesce(c.tokens, 0)) AS tokens, max(ff.at) AS seen_at, "
                "  bool_and(ff.vendored) AS vendored, max(ff.mtime) AS mtime "
                "  FROM chunks c JOIN ff ON ff.id = c.file_id "
                "  WHERE c.text_hash NOT IN (SELECT text_hash FROM vectors) GROUP BY c.text_hash "
                "  ORDER BY seen_at DESC NULLS LAST, vendored, mtime DESC, first_id LIMIT ?) "
                "SELECT top.text_hash, c.text, top.first, top.n, top.tokens, f.path, d.path, c.heading "
                "FROM top JOIN chunks c ON c.id = top.first_id JOIN files f ON f.id = c.file_id "
                "JOIN folders d ON d.id = f.folder_id "
                "ORDER BY top.seen_at DESC NULLS LAST, top.vendored, top.mtime DESC, top.first_id",
                [[p for p, _ in seen], [t for _, t in seen], VENDORED, *_folder_arg(folder_id), limit],
            )
            .fetchall()
        )
        return [QueuedText(r[0], r[1], bool(r[2]), int(r[3]), int(r[4]), r[5], r[6], r[7]) for r in rows]

    def shared_heads(self, lines: int, sample: int) -> list[list[str]]:
        """Texts of files' first chunks that begin with the same `lines` lines as another file's first
        chunk does, grouped by those lines (at most `sample` texts a group): licence headers and other
        boilerplate copied to the top of many files."""
        rows = (
            self._cur()
            .execute(
                "SELECT list(text ORDER BY id)[1:?] FROM ("
                "  SELECT c.id, c.file_id, c.text, string_split(c.text, chr(10))[1:?] AS head"
                "  FROM chunks c WHERE c.ord = 0) "
                "WHERE len(head) = ? GROUP BY head HAVING count(DISTINCT file_id) > 1",
                [sample, lines, lines],
            )
            .fetchall()
        )
        return [list(r[0]) for r in rows]

    def count_missing_vectors(self, folder_id: int | None = None) -> tuple[int, int]:
        """(distinct texts without vectors, distinct texts) for progress, of all chunks or one folder's."""
        row = (
            self._cur()
            .execute(
                "SELECT count(DISTINCT text_hash) "
                "FILTER (WHERE text_hash NOT IN (SELECT text_hash FROM vectors)), "
                f"count(DISTINCT text_hash) FROM {_chunks_of(folder_id)}",
                _folder_arg(folder_id),
            )
            .fetchone()
        )
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def store_vectors(
        self,
        hashes: Sequence[str],
        vecs: npt.NDArray[np.float32],
        model_tokens: int = 0,
        saved_tokens: int = 0,
    ) -> None:
        """Store these texts' vectors; model_tokens / saved_tokens (what the embedder read for them, and
        what it was spared: duplicates, shared headers) are added to the index's running totals."""
        with self.write(chunks_changed=False) as con:
            con.execute(
                "INSERT OR IGNORE INTO vectors SELECT unnest(?::VARCHAR[]), "
                f"unnest(?::FLOAT[{self.vector_dim()}][])",
                [list(hashes), vecs.tolist()],
            )
            _stale_vector_index(con)
            if model_tokens or saved_tokens:
                model, saved = self.embed_tokens(con)
                con.executemany(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                    [["embed_tokens", str(model + model_tokens)], ["embed_saved", str(saved + saved_tokens)]],
                )

    def embed_tokens(self, con: CatalogConnection | None = None) -> tuple[int, int]:
        """(tokens the embedder read, tokens it was spared) for the vectors stored since the embedder was
        chosen: duplicate texts and boilerplate headers shared by several files are embedded once."""
        rows = dict(
            (con or self._cur())
            .execute("SELECT key, value FROM meta WHERE key IN ('embed_tokens', 'embed_saved')")
            .fetchall()
        )
        return int(rows.get("embed_tokens", 0)), int(rows.get("embed_saved", 0))

    def mark_vector_index(self, token: str) -> None:
        """Record which saved vector index file matches the catalog as it is now ("" = none does)."""
        self.set_meta("vector_index", token)

    def vector_chunk_ids(self) -> npt.NDArray[np.int64]:
        """The ids of every chunk whose text has a vector (what the vector index should hold)."""
        res = (
            self._cur()
            .execute("SELECT c.id FROM chunks c SEMI JOIN vectors v USING (text_hash) ORDER BY c.id")
            .fetchnumpy()
        )
        return np.asarray(res["id"], dtype=np.int64)

    def iter_vectors(
        self, chunk_ids: npt.NDArray[np.int64], batch: int = 8192
    ) -> Iterator[tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]]:
        """(chunk ids, vectors) of these chunks in batches, from one query: rebuilding the vector index
        of a million chunks never holds every float vector at once."""
        if not len(chunk_ids):
            return
        result = self._cur().execute(
            "SELECT c.id, v.vec FROM (SELECT unnest(?::BIGINT[]) AS id) q JOIN chunks c ON c.id = q.id "
            "JOIN vectors v USING (text_hash)",
            [chunk_ids.tolist()],
        )
        while rows := result.fetchmany(batch):
            yield (
                np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
                np.asarray([r[1] for r in rows], dtype=np.float32),
            )

    def vectors_for_chunks(
        self, chunk_ids: Iterable[int] | None = None
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        sql = "SELECT c.id, v.vec FROM chunks c JOIN vectors v USING (text_hash)"
        args: list[Any] = []
        if chunk_ids is not None:
            sql = (
                "SELECT c.id, v.vec FROM (SELECT unnest(?::BIGINT[]) AS id) q JOIN chunks c ON c.id = q.id "
                "JOIN vectors v USING (text_hash)"
            )
            args.append(list(chunk_ids))
        res = self._cur().execute(sql + " ORDER BY c.id", args).fetchnumpy()
        ids = np.asarray(res["id"], dtype=np.int64)
        if len(ids) == 0:
            return ids, np.zeros((0, self.vector_dim()), dtype=np.float32)
        return ids, np.stack([np.asarray(v, dtype=np.float32) for v in res["vec"]])

    def vectors_for_chunks_by_hash(
        self, hashes: Sequence[str]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """(chunk ids, vectors) of every chunk whose text has one of these hashes."""
        res = (
            self._cur()
            .execute(
                "SELECT c.id, v.vec FROM chunks c JOIN vectors v USING (text_hash) "
                "WHERE list_contains(?, c.text_hash) ORDER BY c.id",
                [list(hashes)],
            )
            .fetchnumpy()
        )
        ids = np.asarray(res["id"], dtype=np.int64)
        if len(ids) == 0:
            return ids, np.zeros((0, self.vector_dim()), dtype=np.float32)
        return ids, np.stack([np.asarray(v, dtype=np.float32) for v in res["vec"]])

    def vector_dim(self) -> int:
        """The width of the stored vectors, as the vectors table declares it (FLOAT[384] since migration 1;
        `reset_vectors` changes it for an embedder of another width)."""
        if self._dim is None:
            self._dim = self._declared_dim()
        return self._dim

    def _declared_dim(self) -> int:
        row = (
            self._cur()
            .execute(
                "SELECT data_type FROM duckdb_columns() WHERE table_name = 'vectors' AND column_name = 'vec'"
            )
            .fetchone()
        )
        found = re.fullmatch(r"FLOAT\[(\d+)\]", str(row[0]) if row else "")
        if found is None:
            raise CiteError(f"The index's vectors table is not as expected ({row}).", "delete the index")
        return int(found.group(1))

    def reset_vectors(self, dim: int) -> None:
        """Drop every vector and declare the table `dim` wide: an embedder of another width was chosen, so
        every chunk text is embedded again (by the next embed_pending)."""
        with self.write(chunks_changed=False) as con:
            self._dim = None
            con.execute("DROP TABLE vectors")
            con.execute("DELETE FROM meta WHERE key IN ('embed_tokens', 'embed_saved')")
            con.execute(
                f"CREATE TABLE vectors(text_hash VARCHAR PRIMARY KEY, vec FLOAT[{int(dim)}] NOT NULL)"
            )
            _stale_vector_index(con)
        self._dim = None

    def prune_vectors(self) -> None:
        """Drop vectors no chunk uses any more."""
        with self.write(chunks_changed=False) as con:
            con.execute("DELETE FROM vectors WHERE text_hash NOT IN (SELECT DISTINCT text_hash FROM chunks)")


def _stale_vector_index(con: CatalogConnection) -> None:
    """In the transaction that changes which vectors exist: no saved vector index file matches any more."""
    con.execute("INSERT OR REPLACE INTO meta VALUES ('vector_index', '')")
