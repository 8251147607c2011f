"""Load labelled evaluation sets into one shape: a folder to index plus queries with relevant doc keys.

Three layouts are recognised (the folder itself, or for BEIR also one level down):

- BEIR: ``corpus.jsonl``, ``queries.jsonl`` (either may be ``.gz``) and ``qrels/<split>.tsv``. The corpus is
  written out as one ``<doc_id>.txt`` file per document (title, blank line, text) under
  ``work_dir/"corpus"``, because Citeline indexes folders. Doc ids that are not safe file names are
  %-escaped (``urllib.parse.quote``); plain ids such as SciFact's are used as they are.
- Meridian (``questions.jsonl`` with ``gold_sources``, at the top or one level down, and a docs folder):
  questions with ``category == "unanswerable"`` are marked ``answerable=False``. An optional
  ``supporting_passages`` list (verbatim text of the gold files) is read as LangChain's is, so the answer
  metrics can check that a cited quote overlaps one.
- LangChain golden set (``golden_dataset.json`` with ``qa_pairs`` holding ``source_files`` and
  ``supporting_passages``, and a docs folder). Pairs carry no id; they are numbered ``q001``, ``q002``…
  in file order. A pair without source files would be unanswerable (the shipped set has none).
- SQuAD 2.0 style (``passages.jsonl`` with ``_id`` = ``<Article>#p<N>``, ``title``, ``text`` and
  ``questions.jsonl`` with ``is_impossible``, ``answers``, ``plausible_answers``, ``article_title``,
  ``paragraph_id``). Each article is written out as one Markdown file (title, then its paragraphs in
  order) under ``work_dir/"corpus"``, as a user's folder of documents would hold it. The articles are
  split once, by the SHA-256 of their titles, into HELDOUT_ARTICLES held out (split ``test``) and the rest
  (split ``train``); ``all`` keeps every question. Whatever is fitted on this data (the answer check) is
  fitted on ``train`` only, and ``test`` is the figure reported for it.

A doc key is the document's path relative to ``corpus_dir``, in posix form. For the folder-based sets the
gold names are resolved against the real files (exactly, after dropping leading folders, or by a unique
path suffix) and a :class:`DatasetError` lists any that do not resolve.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TextIO
from urllib.parse import quote

from engine.errors import CiteError

log = logging.getLogger(__name__)

DOCS_FOLDERS = ("knowledge_base", "corpus", "docs")  # preferred names for the docs folder, in order
_STAMP = "corpus.stamp"  # in work_dir, next to the materialised BEIR corpus: which source it came from
_LAYOUTS = (
    "BEIR (corpus.jsonl, queries.jsonl, qrels/), questions.jsonl with gold_sources, golden_dataset.json, "
    "or SQuAD-style passages.jsonl + questions.jsonl"
)
HELDOUT_ARTICLES = 3  # SQuAD-style sets: articles held out from anything fitted on the set


class DatasetError(CiteError, ValueError):
    """An evaluation folder is not in a known layout, or its labels name files that do not exist."""


@dataclass(frozen=True)
class Query:
    """One labelled question. ``relevant`` maps doc keys (paths relative to corpus_dir) to grades > 0."""

    id: str
    text: str
    relevant: dict[str, int]
    answerable: bool = True
    category: str = ""
    passages: tuple[str, ...] = ()
    answer: str = ""
    answers: tuple[str, ...] = ()  # every accepted answer span (SQuAD)
    plausible: tuple[str, ...] = ()  # the tempting wrong span of an unanswerable question (SQuAD)
    group: str = ""  # the article a SQuAD question is about
    kind: str = ""  # what the set says the question tests ("absent", "false_premise", "swapped", ...)


@dataclass(frozen=True)
class Dataset:
    """A folder to index as-is and the queries to run against it.
    kind: "beir" | "meridian" | "langchain" | "squad"."""

    name: str
    corpus_dir: Path
    queries: tuple[Query, ...]
    kind: str


def load(path: Path, work_dir: Path, split: str = "test", limit: int | None = None) -> Dataset:
    """Load the evaluation set in ``path``; keep the first ``limit`` queries (in file order) if given.

    ``work_dir`` receives the materialised BEIR corpus (unused by the folder-based sets); ``split`` picks
    the BEIR qrels file.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    if not path.is_dir():
        raise DatasetError(f"{path} is not a folder.", f"point at a folder holding {_LAYOUTS}")
    beir = _find_beir_root(path)
    if beir is not None:
        queries, corpus_dir = _load_beir(beir, work_dir, split)
        return Dataset(path.name, corpus_dir, _first(queries, limit), "beir")
    questions = _find_file(path, "questions.jsonl")
    if questions is not None and (questions.parent / "passages.jsonl").is_file():
        queries, corpus_dir = _load_squad(questions.parent, work_dir, split)
        return Dataset(path.name, corpus_dir, _first(queries, limit), "squad")
    if questions is not None:
        queries, corpus_dir = _load_meridian(path, questions)
        return Dataset(path.name, corpus_dir, _first(queries, limit), "meridian")
    golden = _find_file(path, "golden_dataset.json")
    if golden is not None:
        queries, corpus_dir = _load_langchain(path, golden)
        return Dataset(path.name, corpus_dir, _first(queries, limit), "langchain")
    raise DatasetError(f"{path} holds no evaluation set Citeline knows.", f"expected {_LAYOUTS}")


def beir_doc_key(doc_id: str) -> str:
    """The file name a BEIR document is written to: ``<doc_id>.txt``, %-escaping unsafe characters."""
    return quote(doc_id, safe="") + ".txt"


def _first(queries: Sequence[Query], limit: int | None) -> tuple[Query, ...]:
    return tuple(queries if limit is None else queries[:limit])


# ---------------------------------------------------------------------------------------------- BEIR


def _find_beir_root(path: Path) -> Path | None:
    if _is_beir(path):
        return path
    found = [sub for sub in _subdirs(path) if _is_beir(sub)]
    if len(found) > 1:
        names = ", ".join(sub.name for sub in found)
        raise DatasetError(f"{path} holds several BEIR sets ({names}).", "point at one of them")
    return found[0] if found else None


def _is_beir(folder: Path) -> bool:
    files = (_gz_or_plain(folder, "corpus.jsonl"), _gz_or_plain(folder, "queries.jsonl"))
    return None not in files and (folder / "qrels").is_dir()


def _gz_or_plain(folder: Path, name: str) -> Path | None:
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def _load_beir(root: Path, work_dir: Path, split: str) -> tuple[list[Query], Path]:
    corpus_file = _gz_or_plain(root, "corpus.jsonl")
    queries_file = _gz_or_plain(root, "queries.jsonl")
    assert corpus_file is not None and queries_file is not None  # checked by _is_beir
    qrels = _read_qrels(_qrels_file(root, split))
    doc_ids = [doc_id for doc_id, _, _ in _read_corpus(corpus_file)]
    qrels = _drop_unknown_docs(qrels, set(doc_ids))
    texts = _read_query_texts(queries_file, set(qrels))
    queries = [
        Query(id=qid, text=texts[qid], relevant={beir_doc_key(d): g for d, g in rel.items()})
        for qid, rel in qrels.items()
    ]
    corpus_dir = work_dir / "corpus"
    _materialise(corpus_file, corpus_dir, {beir_doc_key(doc_id) for doc_id in doc_ids})
    return queries, corpus_dir


def _qrels_file(root: Path, split: str) -> Path:
    found = _gz_or_plain(root / "qrels", f"{split}.tsv")
    if found is None:
        splits = sorted(p.name.split(".")[0] for p in (root / "qrels").iterdir() if ".tsv" in p.name)
        raise DatasetError(f"{root} has no qrels for split '{split}'.", f"available splits: {splits}")
    return found


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """query id -> {doc id: grade > 0}, in first-seen query order. Accepts BEIR TSV or 4-column TREC."""
    qrels: dict[str, dict[str, int]] = {}
    with _open_text(path) as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.rstrip("\n").split("\t") if "\t" in line else line.split()
            if not fields or not line.strip():
                continue
            if len(fields) == 4:
                fields = [fields[0], fields[2], fields[3]]
            if len(fields) != 3 or not _is_int(fields[2]):
                if number == 1:
                    continue  # header: query-id corpus-id score
                raise DatasetError(f"{path}:{number} is not a qrels line: {line.strip()!r}")
            qid, doc_id, grade = fields[0], fields[1], int(fields[2])
            if grade > 0:
                rel = qrels.setdefault(qid, {})
                rel[doc_id] = max(grade, rel.get(doc_id, 0))
    return qrels


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _drop_unknown_docs(qrels: Mapping[str, dict[str, int]], known: set[str]) -> dict[str, dict[str, int]]:
    kept = {qid: {d: g for d, g in rel.items() if d in known} for qid, rel in qrels.items()}
    missing = sum(len(rel) for rel in qrels.values()) - sum(len(rel) for rel in kept.values())
    if missing:
        log.warning("dropped %d qrels pairs whose document is not in the corpus", missing)
    return {qid: rel for qid, rel in kept.items() if rel}


def _read_query_texts(path: Path, wanted: set[str]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for rec in _read_jsonl(path):
        if (qid := str(_field(rec, "_id", path))) in wanted:
            texts[qid] = str(_field(rec, "text", path))
    missing = sorted(wanted - texts.keys())
    if missing:
        raise DatasetError(f"{len(missing)} queries in the qrels are not in {path}: {_listing(missing)}")
    return texts


def _read_corpus(path: Path) -> Iterator[tuple[str, str, str]]:
    for rec in _read_jsonl(path):
        yield str(_field(rec, "_id", path)), str(rec.get("title") or ""), str(rec.get("text") or "")


def _materialise(corpus_file: Path, out: Path, keys: set[str]) -> None:
    """Write one file per document, unless ``out`` already holds exactly these files from this source."""
    out.mkdir(parents=True, exist_ok=True)
    stamp_file, stamp = out.parent / _STAMP, _source_stamp(corpus_file)
    present = {entry.name for entry in os.scandir(out) if entry.is_file()}
    if present == keys and stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == stamp:
        return
    stamp_file.unlink(missing_ok=True)
    for stale in present - keys:
        (out / stale).unlink()
    for doc_id, title, text in _read_corpus(corpus_file):
        target = out / beir_doc_key(doc_id)
        part = target.with_name(target.name + ".part")
        part.write_text(f"{title}\n\n{text}\n" if title else f"{text}\n", encoding="utf-8", newline="\n")
        os.replace(part, target)
    stamp_file.write_text(stamp, encoding="utf-8")


def _source_stamp(path: Path) -> str:
    stat = path.stat()
    return f"{path.resolve()}\t{stat.st_size}\t{stat.st_mtime_ns}\n"


# --------------------------------------------------------------------------------------------- SQuAD


def heldout_articles(titles: Iterable[str], count: int = HELDOUT_ARTICLES) -> frozenset[str]:
    """The `count` articles whose titles hash lowest: a fixed split that no result chose."""
    ordered = sorted(set(titles), key=lambda t: hashlib.sha256(t.encode("utf-8")).hexdigest())
    return frozenset(ordered[:count])


def article_key(title: str) -> str:
    return quote(title, safe="") + ".md"


def _load_squad(root: Path, work_dir: Path, split: str) -> tuple[list[Query], Path]:
    passages = list(_read_jsonl(root / "passages.jsonl"))
    records = list(_read_jsonl(root / "questions.jsonl"))
    held = heldout_articles(str(_field(r, "title", root / "passages.jsonl")) for r in passages)
    if split not in ("train", "test", "all"):
        raise DatasetError(f"a SQuAD-style set has no split '{split}'.", "use train, test or all")
    text = {str(p["_id"]): str(p.get("text") or "") for p in passages}
    queries = [
        Query(
            id=str(_field(rec, "id", root)),
            text=str(_field(rec, "question", root)).strip(),
            relevant={article_key(str(rec["article_title"])): 1},
            answerable=not rec.get("is_impossible"),
            category="unanswerable" if rec.get("is_impossible") else "answerable",
            passages=(text.get(str(rec.get("paragraph_id")), ""),) if not rec.get("is_impossible") else (),
            answer=next(iter(rec.get("answers") or []), ""),
            answers=tuple(str(a) for a in rec.get("answers") or []),
            plausible=tuple(str(a) for a in rec.get("plausible_answers") or []),
            group=str(rec["article_title"]),
        )
        for rec in records
        if split == "all" or (str(rec.get("article_title")) in held) == (split == "test")
    ]
    corpus_dir = work_dir / "corpus"
    _write_articles(passages, corpus_dir, root / "passages.jsonl")
    return queries, corpus_dir


def _write_articles(passages: Sequence[dict[str, Any]], out: Path, source: Path) -> None:
    """One Markdown file per article (every article, whatever the split: they are the folder asked)."""
    stamp_file, stamp = out.parent / _STAMP, _source_stamp(source)
    if stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == stamp and out.is_dir():
        return
    articles: dict[str, list[tuple[int, str]]] = {}
    for rec in passages:
        number = int(str(rec["_id"]).rsplit("#p", 1)[-1])
        articles.setdefault(str(rec["title"]), []).append((number, str(rec.get("text") or "")))
    out.mkdir(parents=True, exist_ok=True)
    for title, paras in articles.items():
        body = "\n\n".join(t.strip() for _, t in sorted(paras))
        (out / article_key(title)).write_text(f"# {title.replace('_', ' ')}\n\n{body}\n", encoding="utf-8")
    stamp_file.write_text(stamp, encoding="utf-8")


# ------------------------------------------------------------------------------------- folder-based sets


def _load_meridian(root: Path, questions: Path) -> tuple[list[Query], Path]:
    records = list(_read_jsonl(questions))
    gold = [_str_list(rec, "gold_sources", questions) for rec in records]
    corpus_dir, keys = _resolve_all(root, gold)
    queries = [
        Query(
            id=str(_field(rec, "id", questions)),
            text=str(_field(rec, "question", questions)),
            relevant=dict.fromkeys(rec_keys, 1),
            answerable=rec.get("category") != "unanswerable",
            category=str(rec.get("category") or ""),
            kind=str(rec.get("kind") or ""),
            answer=str(rec.get("gold_answer") or ""),
            passages=tuple(_str_list(rec, "supporting_passages", questions))
            if rec.get("supporting_passages")
            else (),
        )
        for rec, rec_keys in zip(records, keys, strict=True)
    ]
    return queries, corpus_dir


def _load_langchain(root: Path, golden: Path) -> tuple[list[Query], Path]:
    with golden.open(encoding="utf-8") as handle:
        pairs = _field(json.load(handle), "qa_pairs", golden)
    if not isinstance(pairs, list):
        raise DatasetError(f"{golden}: 'qa_pairs' must be a list.")
    gold = [_str_list(pair, "source_files", golden) for pair in pairs]
    corpus_dir, keys = _resolve_all(root, gold)
    queries = [
        Query(
            id=f"q{number:03d}",
            text=str(_field(pair, "question", golden)),
            relevant=dict.fromkeys(pair_keys, 1),
            answerable=bool(pair_keys),
            category=str(pair.get("question_type") or ""),
            passages=tuple(_str_list(pair, "supporting_passages", golden)),
            answer=str(pair.get("answer") or ""),
        )
        for number, (pair, pair_keys) in enumerate(zip(pairs, keys, strict=True), start=1)
    ]
    return queries, corpus_dir


def _resolve_all(root: Path, gold: Sequence[Sequence[str]]) -> tuple[Path, list[list[str]]]:
    """Pick the docs folder where most gold names resolve, and map every name to its doc key."""
    names = sorted({name for names in gold for name in names})
    best: tuple[int, Path, dict[str, str]] | None = None
    for folder in _docs_candidates(root):
        resolved = _resolver(folder, names)
        if best is None or len(resolved) > best[0]:
            best = (len(resolved), folder, resolved)
    assert best is not None  # root itself is always a candidate
    _, corpus_dir, resolved = best
    unresolved = [name for name in names if name not in resolved]
    if unresolved:
        raise DatasetError(
            f"{len(unresolved)} gold source(s) not found (or ambiguous) under {corpus_dir}: "
            f"{_listing(unresolved)}",
            "check the labels against the files in the docs folder",
        )
    return corpus_dir, [[resolved[name] for name in names] for names in gold]


def _docs_candidates(root: Path) -> list[Path]:
    preferred = [root / name for name in DOCS_FOLDERS if (root / name).is_dir()]
    others = [sub for sub in _subdirs(root) if sub not in preferred]
    return [*preferred, *others, root]


def _resolver(folder: Path, names: Iterable[str]) -> dict[str, str]:
    files = _relative_files(folder)
    by_lower: dict[str, list[str]] = {}
    for key in files:
        by_lower.setdefault(key.lower(), []).append(key)
    resolved = {name: _resolve(name, files, by_lower) for name in names}
    return {name: key for name, key in resolved.items() if key is not None}


def _resolve(name: str, files: frozenset[str], by_lower: Mapping[str, list[str]]) -> str | None:
    """Exact path, then the path without leading folders, then a unique suffix (case-sensitive, then not)."""
    parts = [part for part in PurePosixPath(name.strip().replace("\\", "/")).parts if part not in ("/", ".")]
    if not parts:
        return None
    for start in range(len(parts)):
        if (key := "/".join(parts[start:])) in files:
            return key
    wanted = "/".join(parts)
    suffix = [key for key in files if key.endswith("/" + wanted)]
    if len(suffix) == 1:
        return suffix[0]
    lower = wanted.lower()
    folded = [
        key for low, keys in by_lower.items() for key in keys if low == lower or low.endswith("/" + lower)
    ]
    return folded[0] if len(folded) == 1 else None


def _relative_files(folder: Path) -> frozenset[str]:
    found: set[str] = set()
    for dirpath, _, filenames in os.walk(folder):
        rel = Path(dirpath).relative_to(folder)
        found.update((rel / name).as_posix() for name in filenames)
    return frozenset(found)


# ----------------------------------------------------------------------------------------------- helpers


def _find_file(root: Path, name: str) -> Path | None:
    if (root / name).is_file():
        return root / name
    found = [sub / name for sub in _subdirs(root) if (sub / name).is_file()]
    if len(found) > 1:
        raise DatasetError(f"{root} holds several {name} files.", "point at the folder of one of them")
    return found[0] if found else None


def _subdirs(folder: Path) -> list[Path]:
    return sorted(entry for entry in folder.iterdir() if entry.is_dir() and not entry.name.startswith("."))


def _open_text(path: Path) -> TextIO:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with _open_text(path) as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise DatasetError(f"{path}:{number} is not a JSON object.")
                yield record


def _field(record: Any, name: str, source: Path) -> Any:
    if not isinstance(record, dict) or name not in record:
        raise DatasetError(f"{source}: a record lacks the field '{name}'.", f"expected {_LAYOUTS}")
    return record[name]


def _str_list(record: Any, name: str, source: Path) -> list[str]:
    value = _field(record, name, source)
    if not isinstance(value, list):
        raise DatasetError(f"{source}: '{name}' must be a list, got {type(value).__name__}.")
    return [str(item) for item in value]


def _listing(names: Sequence[str], most: int = 10) -> str:
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} … (+{len(names) - most} more)"
