"""Answer view: the evidence at once, a quoted draft while a slow model works, then the answer sentences as
they are verified, with citation chips; the model's progress on the status line.

A chip [n] is a link; clicking it opens the source preview at the cited lines with the quote marked.
Events arrive in batches (the task manager polls ~10 times a second), never one signal per token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.answer_format import (
    ADDRESSED,
    ADDRESSED_MARK,
    AnswerState,
    evidence_label,
    render_html,
    status_text,
    to_markdown,
)
from desktop.answering import STREAM_TYPES, answer_events
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.editor import open_in_editor
from desktop.widgets.preview import SourceTarget
from desktop.wrap import breakable
from engine.api import Engine, shown
from engine.events import Citation, Hit

HIT_ROLE = Qt.ItemDataRole.UserRole
EVIDENCE_TITLE = "Evidence"
REFUSED_EVIDENCE_TITLE = "Closest passages (not cited: the answer was refused)"


class AnswerView(QWidget):
    open_source = Signal(object)  # SourceTarget
    answered = Signal(object)  # AnswerState, when the stream is over (answer, refusal, error or stop)

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.state: AnswerState | None = None
        self.job: Job | None = None
        self._html = ""
        self._build()
        tasks.events.connect(self._on_events)

    def _build(self) -> None:
        self.question = QLabel("Ask a question about your folders and press Enter.")
        self.question.setObjectName("question")
        self.question.setWordWrap(True)
        self.searched = QLabel("")  # a follow-up's standalone question: under the question, not in its type
        self.searched.setObjectName("muted")
        self.searched.setTextFormat(Qt.TextFormat.PlainText)
        self.searched.setWordWrap(True)
        self.searched.setVisible(False)
        self.status = QLabel("")
        self.status.setObjectName("muted")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)  # an error with a path wraps; it never widens the window
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_anchor)
        self.evidence_title = QLabel(EVIDENCE_TITLE)
        self.evidence = QListWidget()
        self._listed: tuple[Hit, ...] = ()  # the hits the list shows, in its order
        self.evidence.setObjectName("evidence")
        self.evidence.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.evidence.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.evidence.itemActivated.connect(self._on_evidence)
        self.evidence.itemClicked.connect(self._on_evidence)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.copy_button = QPushButton("Copy as Markdown")
        self.copy_button.clicked.connect(self.copy_markdown)
        self.editor_button = QPushButton("Open in editor")
        self.editor_button.clicked.connect(self.open_in_editor)
        self._layout()
        self._set_buttons()

    def _layout(self) -> None:
        """The status has a row of its own: beside the buttons, a long message (a missing model, with
        its path) had a sixth of the pane at 800x600 and wrapped to nine lines."""
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.stop_button, self.copy_button, self.editor_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.question)
        layout.addWidget(self.searched)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        layout.addWidget(self.browser, 3)
        layout.addWidget(self.evidence_title)
        layout.addWidget(self.evidence, 2)

    # -- asking ---------------------------------------------------------------------------------------
    def ask(self, question: str) -> None:
        generator = self.engine.settings.generator
        self.follow(question, lambda cancelled: answer_events(self.engine, question, generator, cancelled))

    def follow(self, question: str, events: Callable[[Callable[[], bool]], Iterable[object]]) -> None:
        """Show the answer stream `events(cancelled)` as it runs on the read pool."""
        self.begin(question)
        self.job = self.tasks.read_stream("answering", events, then=self._finished, forward=STREAM_TYPES)

    def begin(self, question: str) -> None:
        """A fresh answer: stop the previous stream, clear the view."""
        self.stop()
        self.job = None
        self.state = AnswerState(question)
        self.question.setText(question)
        self.set_searched("")
        self._fill_evidence(())
        self._render()

    def set_searched(self, standalone: str) -> None:
        """What a follow-up was searched as ("" hides the line). Set apart from the question: in the
        question's bold heading it read as part of what the user asked."""
        self.searched.setText(f"searched: {standalone}" if standalone else "")
        self.searched.setVisible(bool(standalone))

    def apply(self, events: list[object]) -> None:
        """Events of the current answer (EvidenceReady, Draft, GenerationProgress, AnswerSentence, Answer),
        in order."""
        if self.state is None:
            return
        for event in events:
            self.state.apply(event)
        self._render()

    def stop(self) -> None:
        """Cancel the running answer and say so at once; what is shown stays (the worker may take a moment
        to reach a cancellation point, and nothing it sends after the stop is applied)."""
        if self.job is None or self.job.finished:
            return
        self.job.cancel()
        if self.state is not None and not self.state.done:
            self.state.cancelled = True
            self._render()

    def _on_events(self, job: Job, events: list[object]) -> None:
        if job is self.job:
            self.apply(events)

    def _finished(self, job: Job) -> None:
        if job is not self.job or self.state is None:
            return
        if job.state is State.FAILED and not self.state.cancelled:
            self.state.error = (job.error, job.hint)
        elif job.state is State.CANCELLED and self.state.final is None:
            self.state.cancelled = True
        self._render()
        self.answered.emit(self.state)

    # -- rendering ------------------------------------------------------------------------------------
    def _render(self) -> None:
        state = self.state
        if state is None:
            return
        hint = state.error[1] if state.error else ""
        self.status.setText(breakable(status_text(state) + (f" ({hint})" if hint else "")))
        self.evidence_title.setText(REFUSED_EVIDENCE_TITLE if state.refused else EVIDENCE_TITLE)
        self._set_html(render_html(state))
        if self._listed != tuple(state.evidence):  # new, or renumbered in citation order
            self._fill_evidence(state.evidence)
        self._set_buttons()

    def _set_html(self, text: str) -> None:
        """Only when the answer changed: progress ticks must not reset the user's selection or scroll."""
        if text != self._html:
            self._html = text
            self.browser.setHtml(text)

    def _fill_evidence(self, hits: tuple[Hit, ...]) -> None:
        self._listed = tuple(hits)
        self.evidence.clear()
        for number, hit in enumerate(hits, 1):
            item = QListWidgetItem(evidence_label(number, hit))
            item.setToolTip(shown(hit.path) + (f"\n{ADDRESSED_MARK}{ADDRESSED}" if hit.instructions else ""))
            item.setData(HIT_ROLE, hit)
            self.evidence.addItem(item)

    def _set_buttons(self) -> None:
        state = self.state
        self.stop_button.setVisible(state is not None and not state.done)
        self.copy_button.setEnabled(state is not None and state.done and not state.error)
        self.editor_button.setEnabled(bool(state and state.evidence))

    # -- actions --------------------------------------------------------------------------------------
    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() != "cite" or self.state is None:
            return
        try:
            sentence, index = (int(part) for part in url.path().split(":"))
        except ValueError:
            return
        cite = self.state.citation(sentence, index)
        if cite is not None:
            self.open_source.emit(_cited_target(cite))

    def _on_evidence(self, item: QListWidgetItem) -> None:
        """Evidence is what was read, not what was cited: a passage the answer cites opens as its citation
        (its lines and quote); any other opens with the passage tint, and says it is not cited."""
        hit: Hit = item.data(HIT_ROLE)
        number = self.evidence.row(item) + 1
        state = self.state
        cites = [c for s in state.shown for c in s.citations if c.source == number] if state else []
        if cites:
            self.open_source.emit(_cited_target(cites[0]))
            return
        refused = state is not None and state.refused
        note = f"closest passage [{number}], not cited" if refused else f"evidence [{number}], not cited"
        self.open_source.emit(SourceTarget.of_hit(hit, note=note))

    def copy_markdown(self) -> None:
        if self.state is not None:
            QGuiApplication.clipboard().setText(to_markdown(self.state))

    def open_in_editor(self) -> bool:
        """The selected evidence's file, else the first cited file, else the top evidence, at its first line;
        when no application opens it, a dialog says so and offers the path to copy and the folder to show."""
        path, line = self._chosen_place()
        return bool(path) and open_in_editor(path, line, self)

    def _chosen_place(self) -> tuple[str, int]:
        item = self.evidence.currentItem()
        if item is not None:
            hit: Hit = item.data(HIT_ROLE)
            return hit.path, hit.start_line
        state = self.state
        if state is None:
            return "", 1
        cited = [c for s in state.shown for c in s.citations]
        if cited:
            return cited[0].path, cited[0].start_line
        return (state.evidence[0].path, state.evidence[0].start_line) if state.evidence else ("", 1)

    def evidence_files(self) -> list[str]:
        return [Path(self.evidence.item(i).data(HIT_ROLE).path).name for i in range(self.evidence.count())]


def _cited_target(cite: Citation) -> SourceTarget:
    note = f"cited as [{cite.source}]"
    return SourceTarget(cite.path, cite.start_line, cite.end_line, cite.page, cite.quote, note=note)
