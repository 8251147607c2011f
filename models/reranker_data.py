"""Training groups for Citeline's reranker, built only from permissively licensed text.

Sources (none of them an evaluation set):
- the Python 3.11 documentation sources (PSF License), from Debian's `python3.11-doc` package
  (`apt-get download python3.11-doc`; pass the .deb or the folder it extracts to): heading -> section
  and API-entry name -> description pairs, and inverse-cloze pairs (a sentence -> the rest of its
  paragraph, which look like the claims and questions users type);
- the 10 SQuAD 2.0 articles in ../shared/train (CC BY-SA 4.0): answerable question -> paragraph, and
  inverse-cloze pairs from the paragraphs.

Each group is one query, its positive passage and `negatives` hard negatives: BM25 (Tantivy, the same
stemmed analyser the engine uses) top hits that do not come from the positive's own section, plus one
random passage. Every passage is cut to the query-focused window the engine scores at run time.
Deterministic for a seed.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.backends.packing import best_window
from engine.text import split_sentences

PIECE_CHARS = 900  # candidates are cut at paragraph boundaries to about one engine chunk
WINDOW_TOKENS = 128
NEAR_DUPLICATE = 0.6  # share of the smaller passage's words the other holds, above which it is no negative
DOC_PARTS = ("library", "tutorial", "howto", "reference", "faq", "using", "extending", "c-api", "glossary")
API_DIRECTIVES = (
    "function", "method", "class", "attribute", "data", "exception", "decorator", "describe",
    "option", "envvar", "classmethod", "staticmethod", "opcode", "cmdoption", "c:function", "c:macro",
)  # fmt: skip
HEADING_LINE = re.compile(r"^([=\-~^*\"#+'`])\1{2,}\s*$")
ROLE = re.compile(r":[\w:+-]+:`~?!?([^`<]*?)(?:\s*<[^>]*>)?`")
LINK = re.compile(r"`([^`<]+?)\s*<[^>]*>`_+")
MARKUP = re.compile(r"``|\*\*|`_?|\|")
FIELD = re.compile(r"^(:[\w -]+:(\s|$)|-{4,}$|(\*\*)?Source code:)")
DIRECTIVE = re.compile(r"^\.\.\s+([\w:-]+)::\s*(.*)$")


def count_tokens(text: str) -> int:
    return max(1, len(text) // 4)


@dataclass(frozen=True)
class Passage:
    text: str
    section: str  # passages of one section are never negatives for each other's queries


@dataclass(frozen=True)
class Group:
    kind: str  # "heading", "api", "cloze", "question"
    query: str
    positive: str
    negatives: tuple[str, ...]


def clean_rst(text: str) -> str:
    text = LINK.sub(r"\1", text)
    text = ROLE.sub(r"\1", text)
    text = MARKUP.sub("", text)
    return re.sub(r"[ \t]+", " ", text)


def rst_sections(source: str, page: str) -> Iterator[tuple[str, str]]:
    """(title path, cleaned body) of each heading and API entry of one .rst page."""
    lines = source.splitlines()
    title, heading, api = "", "", ""
    body: list[str] = []
    api_body: list[str] = []
    i = 0

    def flush() -> Iterator[tuple[str, str]]:
        if heading and body:
            yield (f"{title}: {heading}" if title and title != heading else heading), "\n".join(body)

    while i < len(lines):
        line = lines[i]
        underlined = i + 1 < len(lines) and line.strip() and HEADING_LINE.match(lines[i + 1])
        if underlined and not HEADING_LINE.match(line):
            yield from flush()
            heading, body = clean_rst(line.strip()), []
            title = title or heading
            i += 2
            continue
        directive = DIRECTIVE.match(line)
        if directive and directive.group(1) in API_DIRECTIVES:
            api, api_body = clean_rst(directive.group(2).strip()), []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                stripped = lines[i].strip()
                if not stripped.startswith(":") and not DIRECTIVE.match(stripped):
                    api_body.append(clean_rst(stripped))
                i += 1
            text = re.sub(r"\n{3,}", "\n\n", "\n".join(api_body)).strip()
            if api and len(text) > 80:
                yield f"{title} {api}", text
                body.append(f"{api}\n{text}")
            continue
        if directive or line.startswith(".. ") or FIELD.match(line.strip()):
            i += 1
            continue
        body.append(clean_rst(line.rstrip()))
        i += 1
    yield from flush()
    del page


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def pieces(text: str) -> list[str]:
    """Paragraphs packed into pieces of about PIECE_CHARS."""
    out, current = [], ""
    for para in paragraphs(text):
        if current and len(current) + len(para) > PIECE_CHARS:
            out.append(current)
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        out.append(current)
    return out


def prose(paragraph: str) -> bool:
    return (
        not paragraph.startswith((">>>", "$", "...", "    "))
        and paragraph.count("\n") < 12
        and sum(c.isalpha() for c in paragraph) > 0.6 * len(paragraph)
    )


def cloze(paragraph: str, rng: random.Random) -> tuple[str, str] | None:
    """(one sentence, the rest of its paragraph) when the paragraph has three or more sentences."""
    spans = split_sentences(" ".join(paragraph.split()))
    flat = " ".join(paragraph.split())
    sentences = [flat[s:e].strip() for s, e in spans]
    sentences = [s for s in sentences if s]
    if len(sentences) < 3:
        return None
    pick = rng.randrange(len(sentences))
    query = sentences[pick]
    if not 6 <= len(query.split()) <= 40:
        return None
    rest = " ".join(s for n, s in enumerate(sentences) if n != pick)
    return query, rest


def python_docs(root: Path) -> Iterator[tuple[str, str, str]]:
    """(kind, title, body) from the Python docs' `_sources` tree."""
    sources = next((p for p in root.rglob("_sources") if p.is_dir()), None)
    if sources is None:
        raise FileNotFoundError(f"no Python docs _sources folder under {root}")
    for part in DOC_PARTS:
        for page in sorted((sources / part).rglob("*.rst.txt")) if (sources / part).is_dir() else []:
            text = page.read_text(encoding="utf-8", errors="replace")
            for title, body in rst_sections(text, page.name):
                kind = "api" if re.search(r"[(.]", title.split(":")[-1]) else "heading"
                yield kind, title, body


def extract_deb(deb: Path, into: Path) -> Path:
    subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], check=True)
    return into


class Bm25:
    """An in-memory Tantivy index over the candidate pool."""

    def __init__(self, texts: list[str]) -> None:
        import tantivy

        builder = tantivy.SchemaBuilder()
        builder.add_text_field("body", tokenizer_name="en_stem")
        builder.add_unsigned_field("n", stored=True)
        self.index = tantivy.Index(builder.build())
        writer = self.index.writer(heap_size=128_000_000, num_threads=1)
        for n, text in enumerate(texts):
            doc = tantivy.Document()
            doc.add_text("body", text)
            doc.add_unsigned("n", n)
            writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()

    def top(self, query: str, k: int) -> list[int]:
        clean = re.sub(r"[^\w\s]", " ", query)
        parsed, _ = self.index.parse_query_lenient(clean, ["body"])
        hits = self.searcher.search(parsed, k).hits
        return [int(self.searcher.doc(addr)["n"][0]) for _, addr in hits]


@cache
def words(text: str) -> frozenset[str]:
    """A passage's lower-cased words, computed once per passage however many groups compare it."""
    return frozenset(re.findall(r"\w+", text.lower()))


def near_duplicate(a: str, b: str, limit: float = NEAR_DUPLICATE) -> bool:
    """True when two passages share most of their words: the docs repeat an API entry's text under its
    page's heading, and a passage holding the positive's text is no negative (a false negative teaches
    the model to ignore the very words that match)."""
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return False
    return len(wa & wb) / min(len(wa), len(wb)) >= limit


def build_groups(
    python_doc_dir: Path | None,
    squad_dir: Path | None,
    seed: int = 13,
    negatives: int = 7,
    max_per_kind: int | None = None,
) -> list[Group]:
    rng = random.Random(seed)
    pool: list[Passage] = []
    raw: list[tuple[str, str, int]] = []  # (kind, query, index of the positive in pool)

    if python_doc_dir is not None:
        for n, (kind, title, body) in enumerate(python_docs(python_doc_dir)):
            parts = pieces(body)
            if not parts:
                continue
            section = f"py{n}"
            first = len(pool)
            pool.extend(Passage(p, section) for p in parts)
            words = re.sub(r"^[^:]*:\s*", "", title)
            if len(words) >= 4 and words.lower() not in {"introduction", "examples", "notes", "example"}:
                raw.append((kind, title, first))
            for offset, part in enumerate(parts):
                for para in paragraphs(part):
                    if prose(para) and rng.random() < 0.5:
                        pair = cloze(para, rng)
                        if pair:
                            idx = len(pool)
                            pool.append(Passage(part.replace(para, pair[1]), section))
                            raw.append(("cloze", pair[0], idx))
                del offset

    if squad_dir is not None:
        by_id: dict[str, int] = {}
        for line in (squad_dir / "passages.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            section = f"sq:{row['_id']}"
            by_id[row["_id"]] = len(pool)
            title = row["title"].replace("_", " ")
            pool.append(Passage(f"{title}\n{row['text']}", section))
            pair = cloze(row["text"], rng)
            if pair:
                pool.append(Passage(f"{title}\n{pair[1]}", section))
                raw.append(("cloze", pair[0], len(pool) - 1))
        for line in (squad_dir / "questions.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if not row["is_impossible"] and row["paragraph_id"] in by_id:
                raw.append(("question", row["question"].strip(), by_id[row["paragraph_id"]]))

    rng.shuffle(raw)
    if max_per_kind is not None:
        kept: dict[str, int] = {}
        limited = []
        for item in raw:
            if kept.get(item[0], 0) < max_per_kind:
                kept[item[0]] = kept.get(item[0], 0) + 1
                limited.append(item)
        raw = limited
    bm25 = Bm25([p.text for p in pool])
    groups = []
    for kind, query, pos in raw:

        def negative(i: int, pos: int = pos) -> bool:
            """From another section, and not a copy of the positive's text."""
            return pool[i].section != pool[pos].section and not near_duplicate(pool[i].text, pool[pos].text)

        chosen = [i for i in bm25.top(query, 40) if negative(i)][: negatives - 1]
        while len(chosen) < negatives:
            other = rng.randrange(len(pool))
            if negative(other) and other not in chosen:
                chosen.append(other)

        def window(i: int, query: str = query) -> str:
            return best_window(pool[i].text, query, count_tokens, WINDOW_TOKENS)

        groups.append(Group(kind, query, window(pos), tuple(window(i) for i in chosen)))
    return groups


def load_python_docs(path: Path) -> Path:
    """A folder with the Python docs' `_sources`, extracting a python3.X-doc .deb when given one."""
    if path.suffix == ".deb":
        return extract_deb(path, Path(tempfile.mkdtemp(prefix="citeline-pydoc-")))
    return path
