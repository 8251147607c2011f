"""Typed values that cross module boundaries: documents, chunks, hits and progress events.

All are frozen dataclasses so they can be handed between threads safely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Line:
    """One logical line of extracted text and where it came from (1-based source line, optional page)."""

    text: str
    line: int
    page: int | None = None
    level: int = 0  # a title's level where the format marks titles apart from the text (a PDF's), else 0


@dataclass(frozen=True)
class Document:
    """What an extractor returns: logical lines mapped back to the source, plus a structure hint.

    kind tells the chunker how to split: "markdown", "python", "code", "text", "pdf", "table", "chat".
    """

    lines: tuple[Line, ...]
    kind: str = "text"
    title: str = ""
    page_names: tuple[str, ...] = ()  # what a page is called, page 1 first: a workbook's sheets' names


def encode_lines(numbers: Sequence[int]) -> str:
    """A chunk's line map: "" where its text's lines are the source's lines from the first on, one after
    another; else each text line's source line, runs of consecutive ones written "a-b" ("7,10,23,25-26").
    A format read into other lines than it is written in (HTML as Markdown, a notebook's JSON strings)
    leaves lines out between two it reads, and a notebook's outputs sit above the code that printed them."""
    if not numbers or list(numbers) == list(range(numbers[0], numbers[0] + len(numbers))):
        return ""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def decode_lines(encoded: str) -> tuple[int, ...]:
    """The source line of each text line that `encode_lines` wrote ("" gives ())."""
    out: list[int] = []
    for run in encoded.split(",") if encoded else ():
        first, _, last = run.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return tuple(out)


@dataclass(frozen=True)
class Chunk:
    """A span of a document, the unit that is indexed, retrieved and cited."""

    text: str
    start_line: int
    end_line: int
    page: int | None = None
    heading: str = ""  # Markdown heading path ("Setup > Install") or code symbol ("Engine.search")
    lines: str = ""  # the line map (encode_lines): "" where the text's lines run on from start_line


@dataclass(frozen=True)
class Hit:
    """One search result. Scores are None where a stage did not see the chunk."""

    chunk_id: int
    path: str
    start_line: int
    end_line: int
    page: int | None
    heading: str
    text: str
    score: float
    snippet: str = ""
    lexical_rank: int | None = None
    lexical_score: float | None = None
    vector_rank: int | None = None
    vector_score: float | None = None
    rerank_score: float | None = None
    mtime: float = 0.0
    instructions: bool = False  # its prose is addressed to an AI model (engine/answer/injection.py)
    named_rank: int | None = None  # its rank in the chunks of files the query names (Searcher.named)
    exact_rank: int | None = (
        None  # its rank in the chunks holding a rare name the query writes (Searcher.exact)
    )
    lines: str = ""  # its chunk's line map (encode_lines)

    def line_at(self, index: int) -> int:
        """The source line of the text's `index`-th line (0-based)."""
        if not self.lines:
            return self.start_line + index
        numbers = decode_lines(self.lines)
        return numbers[min(max(index, 0), len(numbers) - 1)]

    def index_of(self, line: int) -> int:
        """The first text line (0-based) read from source line `line` or, where none is, from the nearest
        line after it; past the last, one past the text's last line."""
        if not self.lines:
            return line - self.start_line
        numbers = decode_lines(self.lines)
        if line in numbers:
            return numbers.index(line)
        return next((i for i, n in enumerate(numbers) if n >= line), len(numbers))


@dataclass(frozen=True)
class IndexProgress:
    """Throttle-friendly snapshot of a long indexing job."""

    phase: str  # "scan" | "lexical" | "vectors" | "done"
    done: int
    total: int
    path: str = ""
    eta_s: float | None = None  # the job's own estimate of seconds left (vectors: from the last run's rate)


@dataclass(frozen=True)
class FileIndexed:
    path: str
    chunks: int


@dataclass(frozen=True)
class FileSkipped:
    path: str
    reason: str  # "secret" | "binary" | "too large" | "unsupported file type (.svg)" | "parse error: ..." | …


@dataclass(frozen=True)
class FileRemoved:
    path: str


@dataclass(frozen=True)
class Citation:
    """A verified pointer from an answer sentence into a supplied source."""

    source: int  # 1-based index into the evidence list shown to the user
    path: str
    start_line: int
    end_line: int
    page: int | None
    quote: str


REFUSAL = "Not found in the provided documents."  # the one refusal every generator gives
CONFLICT_NOTE = "Sources disagree: "  # an AnswerSentence starting so is the note quoting both versions


@dataclass(frozen=True)
class AnswerSentence:
    text: str
    citations: tuple[Citation, ...] = field(default_factory=tuple)

    @property
    def is_conflict_note(self) -> bool:
        """The note that quotes both sides of a conflict (its text starts with CONFLICT_NOTE)."""
        return self.text.startswith(CONFLICT_NOTE)


@dataclass(frozen=True)
class AnswerToken:
    """Streamed text of the answer as it is produced (before verification)."""

    text: str


@dataclass(frozen=True)
class EvidenceReady:
    """First event of an answer: the ranked evidence, numbered [1]..[n] in this order while the answer
    streams; the final Answer numbers it again, the sources it cites first in the order it cites them."""

    hits: tuple[Hit, ...]


@dataclass(frozen=True)
class Conflict:
    """Sources that disagree; `current` is the one judged current, with why (marker, version, date...)."""

    sources: tuple[int, ...]
    current: int
    reason: str
    summary: str = ""


@dataclass(frozen=True)
class Answer:
    """The final, verified answer. When refused, text is exactly REFUSAL and sentences is empty."""

    question: str
    text: str
    refused: bool
    reason: str = ""
    sentences: tuple[AnswerSentence, ...] = ()
    evidence: tuple[Hit, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    dropped: tuple[str, ...] = ()  # generated sentences removed because they were not supported
    generator: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    repaired_quotes: int = 0  # sentences whose own quote was not verbatim: the best source line is cited
    from_draft: bool = False  # the model verified nothing that answers: these are the draft's sentences
    usage: dict[str, float] = field(default_factory=dict)  # a model's tokens read/written and seconds


@dataclass(frozen=True)
class Draft:
    """The extractive answer, verified and checked like any other, sent at once while a slower generator
    works. The generator's verified sentences replace it as they arrive; if it finds none, the draft is
    the answer (Answer.from_draft)."""

    sentences: tuple[AnswerSentence, ...]


@dataclass(frozen=True)
class GenerationProgress:
    """Where a model stands: prompt tokens read of `prompt`, answer tokens written (at most `budget`), and
    the seconds left at the rates this machine measured (None before any rate is known)."""

    phase: str  # "loading" | "reading" | "writing"
    read: int
    prompt: int
    written: int
    budget: int
    eta_s: float | None = None


@dataclass(frozen=True)
class RawSentence:
    """A sentence as a generator proposed it, before any check."""

    text: str
    sources: tuple[int, ...]
    quote: str
