"""Tantivy BM25 index over chunks: English-stemmed body, a code-aware identifier field, path, heading and
the words that read otherwise without their accents.

The index is derived from the catalog. It records the catalog generation it reflects in a small JSON
file written after each commit; a mismatch at open (a crash between the two commits) triggers a rebuild.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

import tantivy
from tantivy import Occur, Query

from engine.errors import CiteError, disk_full
from engine.names import shown, within
from engine.store.base import LexicalRow
from engine.text import STOP, fold, hyphenated_words, index_analyzer

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.:][A-Za-z_][A-Za-z0-9_]*)*")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
WORD = re.compile(r'"[^"]+"|[\w][\w.\-]*', re.UNICODE)
FIELDS = ("body", "code", "path", "heading", "folded")
BOOSTS = {"body": 1.0, "code": 0.7, "path": 0.6, "heading": 1.2, "folded": 0.8}
# 2: paths from the folder's own name down (`engine.names.within`); 3: the folded field (`folded_words`);
# 4: words hyphenated over a line end, whole (`text.hyphenated_words`)
SCHEMA_VERSION = 4


def split_identifier(ident: str) -> list[str]:
    """getUserName -> [getusername, get, user, name]; snake_case and dotted names likewise."""
    parts: list[str] = []
    for piece in re.split(r"[._:]+", ident):
        parts.extend(m.group(0).lower() for m in CAMEL.finditer(piece))
    whole = re.sub(r"[^A-Za-z0-9]", "", ident).lower()
    return [whole, *[p for p in parts if p != whole]] if whole else parts


def code_terms(text: str) -> str:
    """Text for the code field: each identifier whole (separators removed) plus its parts."""
    out: list[str] = []
    parts = _code_parts
    for ident in IDENT.findall(text):
        if not (ident.isalnum() and (ident.islower() or ident.isupper())):  # a plain word has none
            out.extend(parts(ident))
    return " ".join(out)


@functools.lru_cache(maxsize=1 << 16)
def _code_parts(ident: str) -> tuple[str, ...]:
    """An identifier's terms for the code field: none for a plain word (all one case, no separator).
    Cached: ingest meets the same identifiers again and again."""
    if "_" in ident or "." in ident or ":" in ident or (ident != ident.lower() and ident != ident.upper()):
        return tuple(split_identifier(ident))
    return ()


@functools.lru_cache(maxsize=1 << 12)
def path_terms(path: str) -> str:
    """Cached: every chunk of a file asks for the same path's terms."""
    path = shown(path)  # a name that is not valid UTF-8 is searchable by its escaped form
    return " ".join(split_identifier(re.sub(r"[\\/]", ".", path))) + " " + re.sub(r"[\\/._-]", " ", path)


def folded_words(*texts: str) -> str:
    """The words of `texts` that read otherwise with their marks dropped, as `engine.text.fold` reads
    them ("Müller" -> "muller", "Nguyễn" -> "nguyen"): the folded field, so a name is found with or
    without its accents by a term look-up, at any size of index. A token is folded whole before it is cut
    into words: a mark no precomposed letter holds ("Пу́шкин", "Fẹ́mi", text stored decomposed) splits the
    word where the tokenizer cuts it, and only the folded form reads it whole. Empty for ASCII text (most
    chunks: no cost)."""
    words: set[str] = set()
    for text in texts:
        if text.isascii():
            continue
        for token in {t for t in text.split() if not t.isascii()}:  # a split is ~3x faster than \w+
            folded = _folded(token)
            if folded:
                words.update(set(re.findall(r"\w+", folded)) - set(re.findall(r"\w+", token.lower())))
    return " ".join(sorted(words))


@functools.lru_cache(maxsize=1 << 14)
def _folded(token: str) -> str:
    """`token` folded and composed again, or "" when that leaves it as it is: Hangul, which NFKD splits
    into its letters, comes back whole, and a word of letters without marks is left out. Cached: a
    folder's names recur."""
    folded = unicodedata.normalize("NFC", fold(token))
    return "" if folded == token.lower() else folded


def keyword_query(query: str) -> str:
    """What a search asks the keyword index (and the sparse store) for: the sanitized query less the
    function words it writes as words of their own (text.STOP: "how", "do", "we", "which"), as the answer
    gate reads a question. Each of them matches most chunks, and a question's half-dozen outweighed its one
    rare word, in a long chunk's favour. A quoted phrase keeps its words, and so does a compound or a name
    ("Human-in-the-Loop", "get_the_value", "IT"); a query of function words alone is kept whole."""
    terms = _terms(query)
    kept = [t for t, whole in terms if not (whole and _function_word(t))]
    return " ".join(kept or [t for t, _ in terms])


def _function_word(word: str) -> bool:
    """A function word (text.STOP), unless written in capitals: "IT" is a name, "it" a pronoun."""
    return word.lower() in STOP and not (len(word) > 1 and word.isupper())


def _terms(query: str) -> list[tuple[str, bool]]:
    """User text -> the terms of a safe Tantivy query (words, identifiers and quoted phrases, no operators
    or fields), each with whether the query writes it as a word of its own."""
    terms: list[tuple[str, bool]] = []
    for match in WORD.finditer(query):
        term = match.group(0)
        if term.startswith('"'):
            inner = " ".join(re.findall(r"\w+", term))
            if inner:
                terms.append((f'"{inner}"', False))
            continue
        if term in ("AND", "OR", "NOT"):
            term = term.lower()
        whole = not any(ch in term for ch in ".-_")
        terms.extend((p, whole) for p in re.split(r"[.\-]", term) if p)
        if any(ch in term for ch in "._") or term != term.lower():
            terms.extend((p, whole) for p in split_identifier(term)[:1])
    return terms


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("chunk_id", stored=True, indexed=True, fast=True)
    builder.add_unsigned_field("file_id", stored=False, indexed=True)
    builder.add_text_field("body", tokenizer_name="en_stem")
    builder.add_text_field("code", tokenizer_name="default")
    builder.add_text_field("path", tokenizer_name="default")
    builder.add_text_field("heading", tokenizer_name="en_stem")
    builder.add_text_field("folded", tokenizer_name="default")
    return builder.build()


def fields(path: str, heading: str, text: str) -> dict[str, str]:
    """A chunk's text per field (FIELDS), as both keyword stores index it (this one and
    engine/store/sparse.py). `path`: from the watched folder's own name down. A word hyphenated over a
    line end is read both as its halves and whole (`text.hyphenated_words`)."""
    joined = hyphenated_words(text)
    return {
        "body": f"{text} {' '.join(joined)}" if joined else text,
        "code": code_terms(text + " " + heading),
        "path": path_terms(path),
        "heading": heading,
        "folded": folded_words(text, heading, path),
    }


def _document(chunk_id: int, file_id: int, path: str, heading: str, text: str) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_unsigned("chunk_id", chunk_id)
    doc.add_unsigned("file_id", file_id)
    for field, value in fields(path, heading, text).items():
        doc.add_text(field, value)
    return doc


EDIT_LENGTH = 16  # the longest word `near` reads with `one_edit` (at 20 letters tantivy refuses it)


def one_edit(term: str) -> str:
    """A regular expression (as tantivy's regex query reads it: the whole term) for `term` and every term
    one edit from it (a letter replaced, dropped, added or two neighbours swapped) that keeps its first
    letter: misspellings rarely touch it (Pollock & Zamora, 1983), and names that differ only there are
    usually other names (Cython, Python)."""
    if len(term) < 2:
        return _literal(term)
    head, rest = _literal(term[0]), term[1:]
    forms = {_literal(rest)}
    for i in range(len(rest) + 1):
        before, after = _literal(rest[:i]), _literal(rest[i:])
        forms.add(f"{before}.{after}")  # a letter added
        if i < len(rest):
            forms.add(f"{before}.{_literal(rest[i + 1 :])}")  # replaced
            forms.add(before + _literal(rest[i + 1 :]))  # dropped
        if i + 1 < len(rest):
            forms.add(before + _literal(rest[i + 1] + rest[i]) + _literal(rest[i + 2 :]))  # swapped
    return f"{head}({'|'.join(sorted(forms))})"


def _literal(text: str) -> str:
    return "".join(c if c.isalnum() else "\\" + c for c in text)


class LexicalIndex:
    """One writer (guarded by a lock); searches use the reloaded searcher and never block on writes."""

    def __init__(self, folder: Path, read_only: bool = False) -> None:
        """read_only: another process writes this index; only search it (Tantivy readers may share an
        index with a writer in another process: a reader keeps the segments it opened)."""
        self.folder = folder
        self._lock = threading.Lock()
        self._state_path = folder / "state.json"
        self.read_only = read_only
        if not read_only:
            folder.mkdir(parents=True, exist_ok=True)
            if self._state().get("schema") != SCHEMA_VERSION:
                self._wipe()
        elif self._state().get("schema", SCHEMA_VERSION) != SCHEMA_VERSION:
            raise CiteError(
                "The keyword index was written by another version of Citeline and is being rebuilt.",
                "try again once the app (or `citeline sync`) that holds the index has opened it",
            )
        self.index = tantivy.Index(_schema(), path=str(folder), reuse=True)
        self._writer: tantivy.IndexWriter | None = None

    def _wipe(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _state(self) -> dict[str, int]:
        try:
            data: dict[str, int] = json.loads(self._state_path.read_text(encoding="utf-8"))
            return data
        except (OSError, ValueError):
            return {}

    def generation(self) -> int:
        return int(self._state().get("generation", -1))

    def _writer_(self) -> tantivy.IndexWriter:
        if self._writer is None:
            self._writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    def apply(self, generation: int, remove_files: Iterable[int], add: Sequence[LexicalRow]) -> None:
        """Delete every chunk of remove_files, add (chunk id, file id, path, heading, text, watched
        folder), commit. A path is indexed from its folder's own name down (`engine.names.within`)."""
        with self._lock:
            try:
                writer = self._writer_()
                for file_id in remove_files:
                    writer.delete_documents_by_query(
                        tantivy.Query.term_query(self.index.schema, "file_id", file_id)
                    )
                for chunk_id, file_id, path, heading, text, folder in add:
                    writer.add_document(_document(chunk_id, file_id, within(path, folder), heading, text))
                writer.commit()
                writer.wait_merging_threads()
                self._write_state(generation)
            except (OSError, ValueError, RuntimeError) as exc:
                # Not committed: the recorded generation stays behind the catalog's, so the next open
                # rebuilds this index from the catalog (nothing is lost). A full disk says so plainly.
                full = disk_full(exc, self.folder)
                if full is not None:
                    raise full from exc
                raise
            finally:
                self._writer = None
        self.index.reload()

    def room_to_rebuild(self) -> bool:
        """Whether the disk can hold a rebuilt index (its current size again, and some headroom)."""
        size = sum(p.stat().st_size for p in self.folder.glob("*") if p.is_file())
        try:
            return shutil.disk_usage(self.folder).free > size + 50 * 1024 * 1024
        except OSError:
            return True

    def _write_state(self, generation: int) -> None:
        tmp = self._state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"schema": SCHEMA_VERSION, "generation": generation}), encoding="utf-8")
        os.replace(tmp, self._state_path)

    def clear(self) -> None:
        with self._lock:
            writer = self._writer_()
            writer.delete_all_documents()
            writer.commit()
            writer.wait_merging_threads()
            self._writer = None
        self.index.reload()

    def num_docs(self) -> int:
        return int(self.index.searcher().num_docs)

    def doc_freq(self, word: str) -> tuple[int, int]:
        """(chunks whose body or heading matches this word, all chunks), for IDF weights."""
        clean = re.sub(r"\W+", " ", word).strip()
        searcher = self.index.searcher()
        if not clean:
            return 0, int(searcher.num_docs)
        parsed, _errors = self.index.parse_query_lenient(clean, ["body", "heading"])
        found = searcher.search(parsed, 1, count=True)
        return int(getattr(found, "count", 0) or 0), int(searcher.num_docs)

    def term_freq(self, term: str) -> tuple[int, int]:
        """(chunks whose body or heading holds `term` as stored, all chunks). Stemming a stem again can
        change it (Snowball: "releas" -> "relea", "pars" -> "par"), so a term text.stem produced is
        looked up as it is, never parsed. A word text.stem leaves whole because the analyser splits it (a
        contraction, "doesn't") is counted as the analyser reads it, as doc_freq does."""
        if not term.isalnum():
            return self.doc_freq(term)
        searcher = self.index.searcher()
        query = Query.boolean_query(
            [(Occur.Should, Query.term_query(self.index.schema, f, term)) for f in ("body", "heading")]
        )
        found = searcher.search(query, 1, count=True)
        return int(getattr(found, "count", 0) or 0), int(searcher.num_docs)

    def near(self, word: str, typos: int, first_letter: bool = False) -> bool:
        """Whether any chunk's body, heading, path, identifiers or folded words hold a word within `typos`
        edits of `word`, as each field's analyser reads both (case aside, stemmed in the body). For one
        word of ASCII letters and digits up to EDIT_LENGTH long, an edit never touches the first letter
        (`one_edit`): "Cython" is not a typo of "python". Longer words (the expression would outgrow
        tantivy's limit on its automaton), other text and `first_letter` take tantivy's fuzzy query,
        first letter and all."""
        clean = re.sub(r"\W+", " ", word.lower()).strip()  # lower: "OR" is a word, not an operator
        if not clean:
            return False
        fields = ["body", "heading", "path", "code", "folded"]
        parsed = None
        if typos == 1 and not first_letter and re.fullmatch(rf"[a-z0-9]{{2,{EDIT_LENGTH}}}", clean):
            analysed = index_analyzer().analyze(clean)
            stemmed = analysed[0] if len(analysed) == 1 else clean
            try:
                parsed = Query.boolean_query(
                    [
                        (Occur.Should, Query.regex_query(self.index.schema, f, one_edit(term)))
                        for f, term in (
                            ("body", stemmed),
                            ("heading", stemmed),
                            ("path", clean),
                            ("code", clean),
                            ("folded", clean),
                        )
                    ]
                )
            except ValueError:  # tantivy refused the expression: the fuzzy query below
                parsed = None
        if parsed is None:
            fuzzy = {f: (False, typos, True) for f in fields} if typos else None
            parsed, _errors = self.index.parse_query_lenient(clean, fields, fuzzy_fields=fuzzy)
        return bool(getattr(self.index.searcher().search(parsed, 1, count=True), "count", 0))

    def search(self, query: str, limit: int) -> list[tuple[int, float]]:
        """BM25 top-`limit` as (chunk id, score). Any user text is accepted; nothing raises on syntax. A
        word with accents is searched without them as well: the folded field holds text stored with its
        marks apart (NFD), which the other fields split at each mark."""
        parsed = self._parse(query)
        return [] if parsed is None else self._top(parsed, limit)

    def search_file(self, query: str, file_id: int, limit: int) -> list[tuple[int, float]]:
        """The file's `limit` chunks that match `query` best, or its first chunks where none matches (every
        chunk of the file matches; the query's words only order them)."""
        # no score of its own: a file of few chunks would weigh its id's rarity into every match
        in_file = Query.const_score_query(Query.term_query(self.index.schema, "file_id", file_id), 0.0)
        parsed = self._parse(query)
        clauses = [(Occur.Must, in_file)] + ([(Occur.Should, parsed)] if parsed is not None else [])
        return self._top(Query.boolean_query(clauses), limit, order_by_chunk=True)

    def _parse(self, query: str) -> Query | None:
        text = " ".join(t for t in (keyword_query(query), folded_words(query)) if t)
        if not text:
            return None
        parsed, _errors = self.index.parse_query_lenient(text, list(FIELDS), field_boosts=BOOSTS)
        return parsed

    def _top(self, query: Query, limit: int, order_by_chunk: bool = False) -> list[tuple[int, float]]:
        """The `limit` best (chunk id, score); ties (a file's chunks that no word matches) in chunk order
        when `order_by_chunk`."""
        searcher = self.index.searcher()
        if limit <= 0:
            return []
        result = searcher.search(query, limit if not order_by_chunk else max(limit, 64), count=False)
        found = [(int(searcher.doc(addr)["chunk_id"][0]), float(score)) for score, addr in result.hits]
        if order_by_chunk:
            found.sort(key=lambda cs: (-round(cs[1], 6), cs[0]))
        return found[:limit]
