"""Source preview: the cited file, read-only, with line numbers, highlighting, the cited span marked and the
words of the search or question in bold.

Files are read and decoded on the read pool. Text and code are shown as they are on disk (so the line
numbers are the file's); PDF and Word files are shown as the engine's extracted text with page markers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from desktop.answer_format import ADDRESSED, ADDRESSED_MARK, AnswerState
from desktop.names import file_name, shown
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.codeview import CodeView
from desktop.widgets.editor import open_in_editor
from desktop.widgets.highlight import Highlighter, kind_for
from desktop.widgets.pages import PageRequest, PageView
from desktop.wrap import breakable
from engine.api import DocumentLines, Engine, QueryTerms, page_label, read_document
from engine.events import Hit

MAX_BYTES = 4 * 1024 * 1024
HIGHLIGHT_LIMIT = 400_000  # characters; beyond this, highlighting the whole file would stall the UI
FIRST_EVIDENCE = "evidence [1], not cited yet"
REFUSED_EVIDENCE = "closest passage, not cited: the answer was refused"
UNCITED_EVIDENCE = "evidence [1], not cited"


@dataclass(frozen=True)
class SourceTarget:
    """A place to show: a file and a 1-based line span (within `page` for a PDF), a quote in it, and the
    search or question whose words to mark. Only a `cited` span gets the citation's tint; `note` says
    what the lines are ("cited as [2]", "closest passage, not cited")."""

    path: str
    start_line: int = 1
    end_line: int = 1
    page: int | None = None
    quote: str = ""
    terms: str = ""
    cited: bool = True
    note: str = ""

    @classmethod
    def of_hit(cls, hit: Hit, terms: str = "", note: str = "") -> SourceTarget:
        """An evidence passage; one addressed to an AI model (a possible prompt injection) says so."""
        if hit.instructions:
            note = f"{note} · {ADDRESSED_MARK}{ADDRESSED}" if note else ADDRESSED_MARK + ADDRESSED
        return cls(hit.path, hit.start_line, hit.end_line, hit.page, terms=terms, cited=False, note=note)

    @property
    def caption(self) -> str:
        return f"{self.where} · {self.note}" if self.note else self.where

    @property
    def where(self) -> str:
        lines = (
            f"line {self.start_line}"
            if self.end_line <= self.start_line
            else (f"lines {self.start_line}–{self.end_line}")
        )
        return f"{page_label(self.path, self.page)}, {lines}" if self.page else lines


@dataclass(frozen=True)
class LoadedSource:
    path: str
    text: str
    kind: str
    suffix: str
    index: dict[tuple[int | None, int], int] | None  # extracted docs: (page, line) -> block number
    truncated: bool = False


def load_source(path: str, read: Callable[[str, int | None], DocumentLines] = read_document) -> LoadedSource:
    """Read a file for the preview (worker thread); `read` is the engine's reader where there is one."""
    doc = read(path, MAX_BYTES)
    suffix = Path(path).suffix.lower()
    if doc.format != "text":
        return _extracted(doc, suffix)
    text = "\n".join(line.text for line in doc.lines).replace("\u2029", " ").replace("\u2028", " ")
    return LoadedSource(path, text, kind_for(suffix), suffix, None, doc.truncated)


def _extracted(doc: DocumentLines, suffix: str) -> LoadedSource:
    shown: list[str] = []
    index: dict[tuple[int | None, int], int] = {}
    page: int | None = None
    for line in doc.lines:
        if line.page is not None and line.page != page:
            page = line.page
            named = doc.page_names[page - 1] if 0 < page <= len(doc.page_names) else ""
            shown.append(f"──── {page_label(doc.path, page)}{f' · {named}' if named else ''} ────")
        if line.text.strip() or (line.page, line.line) not in index:  # a blank line set after a paragraph
            index[(line.page, line.line)] = len(shown)  # shares its number: the number names the paragraph
        shown.append(line.text)
    return LoadedSource(doc.path, "\n".join(shown), "text", suffix, index)


def gutter_labels(source: LoadedSource) -> dict[int, str] | None:
    """What the gutter shows beside each block of an extracted document: the number of the line (within
    its page) that a citation names, beside the block that begins it; None for a file shown as its own
    lines, numbered one by one."""
    if source.index is None:
        return None
    return {block: str(line) for (_, line), block in source.index.items()}


def block_span(source: LoadedSource, target: SourceTarget) -> tuple[int, int]:
    """The 0-based blocks for a target's lines."""
    if source.index is None:
        return target.start_line - 1, target.end_line - 1
    first = source.index.get((target.page, target.start_line))
    if first is None:  # unknown line on that page: the page marker, else the top
        first = source.index.get((target.page, 1), 1) - 1 if target.page else 0
    last = source.index.get((target.page, target.end_line), first)
    return first, max(first, last)


class SourcePreview(QWidget):
    shown = Signal(object)  # SourceTarget, once the file is loaded and the span is marked
    failed = Signal(str, str)  # message, hint

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.target: SourceTarget | None = None
        self._wanted = 0
        self._awaited: tuple[QListWidget, str] | None = None  # (evidence list, question) to follow
        self._watched: QListWidget | None = None  # the evidence list whose new rows are watched
        self._followed: SourceTarget | None = None  # the evidence opened for the user by `follow`
        self.title = QLabel("No source open")
        self.title.setObjectName("previewTitle")
        self.title.setWordWrap(True)  # a long file name wraps (desktop.wrap) rather than widen the window
        self.where = QLabel("")
        self.where.setObjectName("muted")
        self.where.setWordWrap(True)  # "lines 1–10 · closest passage, not cited: …" never widens the window
        self.where.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.open_button = QPushButton("Open in editor")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_in_editor)
        self.view = CodeView(self)
        self.highlighter = Highlighter(self.view.document())
        self.pages = PageView(engine, tasks, self.view, self)  # PDFs and images: the page, its span boxed
        self._layout()

    def _layout(self) -> None:
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.where, 2)  # its note reads on one line where there is room
        header.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.view, 1)

    def open_target(self, target: SourceTarget) -> None:
        """Show `target` (the user's choice: a pending first evidence hit is no longer awaited)."""
        self._awaited = None
        self._open(target)

    def _open(self, target: SourceTarget) -> None:
        self._wanted += 1
        wanted = self._wanted
        self.target = target
        self.title.setText(breakable(file_name(target.path)))
        self.title.setToolTip(shown(target.path))
        self.where.setText(target.where + " · loading…")
        self.pages.show_target(
            PageRequest(target.path, target.page, target.start_line, target.end_line, target.quote)
        )
        read = self.pages.reader()
        self.tasks.read(
            "opening the source",
            lambda job: load_source(target.path, read),
            then=lambda job: self._loaded(job, target, wanted),
        )

    def clear(self) -> None:
        """No source: a load under way is dropped."""
        self._wanted += 1
        self.target = None
        self.title.setText("No source open")
        self.title.setToolTip("")
        self.where.setText("")
        self.highlighter.set_kind("text")
        self.view.setExtraSelections([])
        self.view.clear()
        self.pages.clear()
        self.open_button.setEnabled(False)

    def follow(self, evidence: QListWidget, question: str) -> None:
        """A new question: clear the preview, and show the first hit of `evidence` (the answer's evidence
        list, whose items hold Hits) with the question's words marked once it arrives, unless the user
        opens something else first."""
        self.clear()
        self._awaited = (evidence, question)
        if evidence is not self._watched:
            self._watched = evidence
            evidence.model().rowsInserted.connect(lambda *_args: self._evidence_arrived(evidence))

    def _evidence_arrived(self, evidence: QListWidget) -> None:
        if self._awaited is None or self._awaited[0] is not evidence or not evidence.count():
            return
        hit = evidence.item(0).data(Qt.ItemDataRole.UserRole)
        question = self._awaited[1]
        self._awaited = None
        if isinstance(hit, Hit):
            self._followed = SourceTarget.of_hit(hit, question, FIRST_EVIDENCE)
            self._open(self._followed)

    def answer_done(self, state: AnswerState) -> None:
        """While the evidence opened for the user still shows: an answer shows its first citation instead,
        with the cited tint and the quote; else the evidence says it is not cited (a refusal's: the closest
        passage; a failed or stopped answer's: no "yet" left)."""
        if self._followed is None or self.target is not self._followed:
            return
        cited = [] if state.refused else [c for sentence in state.shown for c in sentence.citations]
        if cited:
            c, terms, self._followed = cited[0], self._followed.terms, None
            note = f"cited as [{c.source}]"  # the question's words stay marked in the cited source
            self._open(
                SourceTarget(c.path, c.start_line, c.end_line, c.page, c.quote, terms=terms, note=note)
            )
            return
        note = REFUSED_EVIDENCE if state.refused else UNCITED_EVIDENCE
        if ADDRESSED in self._followed.note:
            note += f" · {ADDRESSED_MARK}{ADDRESSED}"
        self.target = self._followed = replace(self._followed, note=note)
        if not self.where.text().endswith("loading…"):  # else _loaded shows it
            self.where.setText(self.target.caption)

    def _loaded(self, job: Job, target: SourceTarget, wanted: int) -> None:
        if wanted != self._wanted:
            return  # a newer click won
        if job.state is not State.DONE:
            self.where.setText(target.where)
            self.failed.emit(
                job.error or f"Could not open {shown(target.path)}.", job.hint or "is the file still there"
            )
            return
        source: LoadedSource = job.result
        self.highlighter.set_kind("text")  # no rules while the text goes in
        self.view.labels = gutter_labels(source)
        self.view.setPlainText(source.text)
        self.view.set_gutter()
        terms = QueryTerms.of(target.terms) if len(source.text) < HIGHLIGHT_LIMIT else None
        if terms is not None:
            self.highlighter.set_kind(source.kind, source.suffix, terms)
        first, last = block_span(source, target)
        place = self.target or target  # the same place, its note perhaps changed by answer_done meanwhile
        self.view.show_span(first, last, target.quote, terms, cited=target.cited)
        self.where.setText(place.caption + (" · truncated" if source.truncated else ""))
        self.open_button.setEnabled(True)
        self.shown.emit(target)

    def open_in_editor(self) -> bool:
        """The shown file in its default application; when none opens it, a dialog says so and offers the
        path to copy and the folder to show. False then."""
        if self.target is None:
            return False
        return open_in_editor(self.target.path, self.target.start_line, self)
