"""What the MCP tools take and return: argument types and frozen pydantic results (the tools' JSON schemas).

Pure declarations, no logic; the longest file of the package for that reason (every field is described
for the client's model, which reads these descriptions to decide how to call the tools).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.api import Relation


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


# ------------------------------------------------------------------------------------------ results


class SearchHit(_Out):
    rank: int
    path: str = Field(description="Absolute path; pass it to fetch_doc or check_staleness.")
    start_line: int
    end_line: int
    page: int | None = Field(
        description="PDF page, or a deck's slide, a workbook's sheet, an e-book's chapter (line numbers then "
        "count within it)."
    )
    heading: str = Field(description='Markdown heading path ("Setup > Install") or code symbol.')
    snippet: str = Field(description="The best matching passage, query terms in **bold**.")
    text: str = Field(description="The whole chunk.")
    score: float = Field(description="Fused (RRF) score; higher is better (order may be reranked).")
    lexical_rank: int | None
    lexical_score: float | None
    vector_rank: int | None
    vector_score: float | None
    named_rank: int | None = Field(
        default=None, description="Rank among the chunks of files the query names (`config.py`), else null."
    )
    exact_rank: int | None = Field(
        default=None,
        description="Rank among the few chunks holding a rare name the query writes (`s2502027`), else null.",
    )
    rerank_score: float | None = Field(
        description="Second-stage score (MaxSim by default) for the top 20 of a hybrid search, else null."
    )
    modified: str = Field(description="File modification time, ISO 8601 UTC.")


class SearchOut(_Out):
    query: str
    mode: Literal["hybrid", "keyword"] = Field(description="hybrid = BM25 + vectors fused; keyword = BM25.")
    note: str
    hits: list[SearchHit]


class DocText(_Out):
    path: str
    format: Literal[
        "text", "pdf", "docx", "notebook", "slides", "spreadsheet", "odt", "epub", "rtf", "email", "doc"
    ]
    total_lines: int = Field(description="Last line number (for a PDF: lines in all pages).")
    pages: int | None
    start_line: int | None = Field(description="First line shown.")
    end_line: int | None = Field(description="Last line shown.")
    truncated: bool
    next_start_line: int | None = Field(description="Where to continue when truncated.")
    next_page: int | None
    next_start_char: int | None = Field(
        default=None,
        description="When one line is longer than the cap it comes in pieces: pass this as start_char, with "
        "next_start_line as start_line, for the next piece.",
    )
    text: str = Field(description='Numbered lines "N<TAB>text"; PDFs have "--- page N ---" markers.')


class SubFolder(_Out):
    name: str
    files: int


class DocHeading(_Out):
    file: str = Field(description="Path relative to the watched folder.")
    headings: list[str]


class FolderTopics(_Out):
    path: str
    files: int = Field(description="Files the catalog knows, indexed or not.")
    indexed: int
    skipped: int
    failed: int
    chunks: int
    synced_at: str | None
    root_files: int = Field(description="Indexed files directly in the folder.")
    subfolders: list[SubFolder] = Field(description="Top-level sub-folders with their indexed file counts.")
    file_types: dict[str, int] = Field(description="Indexed files per extension.")
    markdown: list[DocHeading] = Field(description="Top-level headings of Markdown files.")
    markdown_truncated: bool


class Topics(_Out):
    folders: list[FolderTopics]
    chunks: int
    vectors_fraction: float
    search_mode: Literal["hybrid", "keyword"]
    note: str


class Related(_Out):
    path: str
    relation: Relation = Field(
        description="newer/older: this file is/is not the current one of the two (by a marker, a status, a "
        "version or a date); possibly newer/older: only the file time says so; unclear: the signs disagree."
    )
    reasons: list[str]
    modified: str


class Staleness(_Out):
    path: str
    modified: str
    age_days: float
    max_age_days: int
    older_than_max: bool
    index_status: str = Field(description="indexed, skipped, failed or not indexed.")
    indexed_at: str | None
    changed_since_indexed: bool
    draft: bool
    version: str | None
    effective_date: str | None
    superseded: bool
    superseded_by: list[str]
    related: list[Related] = Field(description="Files of the same folder that look like versions of it.")
    verdict: str


class CitationOut(_Out):
    source: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    quote: str


class SentenceOut(_Out):
    text: str
    citations: list[CitationOut]


class SourceOut(_Out):
    source: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    heading: str


class ConflictOut(_Out):
    sources: list[int]
    current: int
    reason: str
    summary: str


class AnswerOut(_Out):
    question: str
    refused: bool
    text: str
    reason: str
    sentences: list[SentenceOut]
    sources: list[SourceOut] = Field(description="The evidence, numbered as the citations' source field.")
    conflicts: list[ConflictOut]
    generator: str
    thread_id: int | None = Field(
        default=None, description="The thread this answer was added to; pass it as thread to follow up."
    )
    searched: str = Field(
        default="",
        description="What was searched: a follow-up in a thread is made standalone with the words of the "
        "turns before it; otherwise the question itself.",
    )


# ---------------------------------------------------------------------------------------- arguments

Query = Annotated[
    str, Field(description="What to look for: words, identifiers or a question.", max_length=2000)
]
TopK = Annotated[int, Field(ge=1, le=50, description="How many chunks to return.")]
FolderArg = Annotated[
    str | None, Field(description="Only search inside this folder (a watched folder or a sub-folder of one).")
]
GlobArg = Annotated[
    str | None,
    Field(
        description='Only files matching this glob: "*.md" matches names; '
        '"docs/*.py" matches paths relative to the watched folder.'
    ),
]
PathArg = Annotated[
    str,
    Field(
        description="A file path inside a watched folder: absolute (as search_kb "
        "returns it) or relative to a watched folder."
    ),
]
LineArg = Annotated[int | None, Field(ge=1, description="1-based line number (inclusive).")]
CharArg = Annotated[
    int, Field(ge=0, description="Start the first line at this character (a long line's next piece).")
]
PageArg = Annotated[int | None, Field(ge=1, description="PDF page; line numbers then count within it.")]
AgeArg = Annotated[int, Field(ge=0, le=36500, description="Older than this many days counts as stale.")]
QuestionArg = Annotated[str, Field(description="A question the folders should answer.", max_length=2000)]
ThreadArg = Annotated[
    str | None,
    Field(
        description="Ask in a conversation thread: the thread_id an earlier ask returned, or a name (a new "
        "thread by that name when none has it). A follow-up ('and for managers?') is then searched with the "
        "thread's earlier questions. Left out, the question stands alone and is not kept.",
        max_length=200,
    ),
]
