"""History pane: the conversations kept in the catalog, and the thread new questions go to.

Threads are listed the latest continued first, titled by their first question (renamed in place: F2,
double-click or Rename), dated, and filtered by the words of any question asked in them. Choosing one
continues it: its questions are listed below, each opening its stored answer in the answer view, where a
cited file that changed since is said to have changed; the next question asked goes to that thread, as a
follow-up. New conversation (Ctrl+N) starts a fresh one. Export writes a thread, or the chosen answer, as
Markdown or JSON; Copy puts the thread's Markdown on the clipboard.

Catalog work (list, open, rename, delete, export) runs on the read lane like the turn an answer stores:
each is a few rows under the catalog's lock, which must not wait behind a long sync on the writer lane.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.answer_format import AnswerState
from desktop.names import file_name, shown
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.answer import AnswerView
from desktop.widgets.flow import FlowLayout
from engine.api import Engine, ExportFormat, Searched, Thread, Turn, TurnSaved

THREAD_ROLE = Qt.ItemDataRole.UserRole
TURN_ROLE = Qt.ItemDataRole.UserRole + 1
SEARCH_DEBOUNCE_MS = 200
CHANGED = "source changed"
SUFFIX = {"markdown": "md", "json": "json"}


def thread_label(thread: Thread) -> str:
    questions = "question" if thread.turns == 1 else "questions"
    return f"{thread.title}\n{thread.updated_at:%Y-%m-%d %H:%M} · {thread.turns} {questions}"


def turn_label(turn: Turn) -> str:
    """The turn's question, numbered; the marks first, so a narrow pane does not elide them."""
    marks = ("⚠ " if turn.changed else "") + ("(refused) " if turn.answer.refused else "")
    return f"{turn.ord}. {marks}{turn.question}"


def turn_tooltip(turn: Turn) -> str:
    lines = [turn.question, f"Asked {turn.asked_at:%Y-%m-%d %H:%M}"]
    if turn.searched != turn.question:
        lines.append(f"searched: {turn.searched}")
    lines += [f"{CHANGED} since this answer: {shown(path)}" for path in turn.changed]
    return "\n".join(lines)


def changed_note(turn: Turn) -> str:
    """The answer view's status line for an old answer whose cited files changed since."""
    names = ", ".join(file_name(p) for p in turn.changed)
    return f"⚠ {CHANGED} since this answer ({turn.asked_at:%Y-%m-%d %H:%M}): {names}"


def show_turn(view: AnswerView, turn: Turn) -> None:
    """A stored answer in the answer view, as it was shown, with when it was given and what changed."""
    view.begin(turn.question)
    if turn.searched != turn.question:
        view.set_searched(turn.searched)
    view.apply([turn.answer])
    if turn.changed:
        view.status.setText(changed_note(turn))
    else:
        view.status.setText(f"Answered {turn.asked_at:%Y-%m-%d %H:%M}.")


class HistoryPane(QWidget):
    opened = Signal(int)  # a thread was chosen: the next question continues it
    searched = Signal(object)  # Searched, from the answer's worker: what a question ran as
    show_answer = Signal(object)  # Turn: open its stored answer

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.current: int | None = None  # the thread the next question goes to (None: a new one)
        self.turns: list[Turn] = []
        self.view: AnswerView | None = None
        self.confirm: QMessageBox | None = None
        self._lock = threading.Lock()
        self._started: int | None = None  # a thread an answer under way created (set by its worker)
        self._asked_in: int | None = None  # the thread the last question went to (None: it began one)
        self._seq = 0
        self._build()
        self._wire()
        self.refresh()

    # -- layout ---------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.title = QLabel("Conversations")
        self.title.setObjectName("panelTitle")
        self.new_button = QPushButton("New")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N): the next question stands alone")
        self.search_box = QLineEdit()
        self.search_box.setObjectName("historySearch")
        self.search_box.setPlaceholderText("Search past questions")
        self.search_box.setClearButtonEnabled(True)
        self.list = QListWidget()
        self.list.setObjectName("threads")
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setEditTriggers(
            QListWidget.EditTrigger.EditKeyPressed | QListWidget.EditTrigger.SelectedClicked
        )
        self.turn_list = QListWidget()
        self.turn_list.setObjectName("turns")
        self.turn_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.turn_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        # The pane gives way first in a short window: a thread and two questions stay in view, and the
        # lists' default 70 px each made the pane 250 px high, the window 602 px at 800x600 with the
        # banner, the example questions and the Undo bar all showing.
        self.list.setMinimumHeight(_lines_high(self.list, 2))
        self.turn_list.setMinimumHeight(_lines_high(self.turn_list, 2))
        self.rename_button = QPushButton("Rename")
        self.delete_button = QPushButton("Delete")
        self.export_button = QPushButton("Export")
        self.export_menu = QMenu(self.export_button)
        self.export_actions: dict[str, QAction] = {}
        for key, text in (
            ("thread-markdown", "Conversation as Markdown…"),
            ("thread-json", "Conversation as JSON…"),
            ("turn-markdown", "This answer as Markdown…"),
            ("turn-json", "This answer as JSON…"),
            ("copy", "Copy conversation as Markdown"),
        ):
            self.export_actions[key] = self.export_menu.addAction(text)
        self.export_button.setMenu(self.export_menu)
        self.note = QLabel("")
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._layout()
        self._update_buttons()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.new_button)
        actions = FlowLayout()  # wraps in a narrow pane
        for button in (self.rename_button, self.delete_button, self.export_button):
            actions.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.search_box)
        layout.addWidget(self.list, 3)
        layout.addWidget(self.turn_list, 2)
        layout.addLayout(actions)
        layout.addWidget(self.note)

    def _wire(self) -> None:
        self.new_button.clicked.connect(self.new_conversation)
        self.search_box.textChanged.connect(lambda _text: self._timer.start())
        self._timer.timeout.connect(self.refresh)
        self.list.currentItemChanged.connect(lambda item, _prev: self._chosen(item))
        self.list.itemChanged.connect(self._renamed)
        self.turn_list.itemActivated.connect(self._open_turn)
        self.turn_list.itemClicked.connect(self._open_turn)
        self.rename_button.clicked.connect(self.rename_current)
        self.delete_button.clicked.connect(self.ask_delete)
        actions = self.export_actions
        actions["thread-markdown"].triggered.connect(lambda: self.choose_export("markdown", False))
        actions["thread-json"].triggered.connect(lambda: self.choose_export("json", False))
        actions["turn-markdown"].triggered.connect(lambda: self.choose_export("markdown", True))
        actions["turn-json"].triggered.connect(lambda: self.choose_export("json", True))
        actions["copy"].triggered.connect(self.copy_markdown)
        delete = QAction(self.list)
        delete.setShortcut(QKeySequence.StandardKey.Delete)
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self.ask_delete)
        self.list.addAction(delete)

    def attach(self, view: AnswerView) -> None:
        """Show stored answers in `view`, the standalone question a follow-up searched, and refresh the
        list when an answer ends."""
        self.view = view
        self.show_answer.connect(lambda turn: show_turn(view, turn))
        self.searched.connect(self._show_searched)
        view.answered.connect(self._answered)

    # -- asking ---------------------------------------------------------------------------------------
    def ask(self, question: str) -> None:
        """Answer `question` in the current thread (a new one when none is chosen) in the attached view."""
        assert self.view is not None, "attach() the answer view first"
        thread, generator = self.current, self.engine.settings.generator
        with self._lock:
            self._started = None
        self._asked_in = thread
        self.view.follow(question, lambda cancelled: self._events(question, thread, generator, cancelled))

    def _events(
        self, question: str, thread: int | None, generator: str, cancelled: Callable[[], bool]
    ) -> Iterator[object]:
        """Worker thread: the thread's answer stream; says what it searched and which thread it wrote."""
        for event in self.engine.ask_thread_stream(question, thread, generator, cancelled):
            if isinstance(event, Searched):
                with self._lock:
                    self._started = event.thread_id
                self.searched.emit(event)  # queued to the UI thread
            elif isinstance(event, TurnSaved):
                continue
            yield event

    def _show_searched(self, searched: Searched) -> None:
        with self._lock:
            started = self._started
        if started is not None:
            self.current = started
        if self.view is not None and searched.follow_up:
            self.view.set_searched(searched.standalone)

    def _answered(self, state: AnswerState) -> None:
        """The list shows the answer's thread. An answer that did not end (failed, stopped) in a thread
        it began left no thread behind (the engine deletes one without turns): the next question starts
        a new one, rather than going to a thread that no longer exists ("There is no thread 1")."""
        if state.final is None and self._asked_in is None:
            self.current = None
        self.refresh()
        if self.current is not None:
            self._load_turns(self.current)

    def new_conversation(self) -> None:
        self.current = None
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self.turns = []
        self.turn_list.clear()
        self.note.setText("New conversation: the next question starts it.")
        self._update_buttons()

    # -- listing --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Reload the threads (those matching the search box) on the read lane."""
        self._seq += 1
        seq, words = self._seq, self.search_box.text().strip()
        self.tasks.read(
            "listing conversations",
            lambda job: self.engine.threads(words),
            then=lambda job: self._listed(job, seq, words),
        )

    def _listed(self, job: Job, seq: int, words: str) -> None:
        if seq != self._seq:
            return  # typed on: a newer listing is coming
        if job.state is not State.DONE:
            self.note.setText(job.error)
            return
        threads: list[Thread] = job.result
        self.list.blockSignals(True)
        self.list.clear()
        for thread in threads:
            item = QListWidgetItem(thread_label(thread))
            item.setData(THREAD_ROLE, thread)
            item.setToolTip(thread.title)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.list.addItem(item)
            if thread.id == self.current:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)
        count = f"{len(threads)} conversation" + ("" if len(threads) == 1 else "s")
        found = f"{count} matching “{words}”" if words else f"{count} kept"
        self.note.setText("No conversation yet: ask a question." if not threads and not words else found)
        self._update_buttons()

    def current_thread(self) -> Thread | None:
        item = self.list.currentItem()
        thread: Thread | None = None if item is None else item.data(THREAD_ROLE)
        return thread

    def _chosen(self, item: QListWidgetItem | None) -> None:
        self._update_buttons()
        if item is None:
            return
        thread: Thread = item.data(THREAD_ROLE)
        self.current = thread.id
        self.opened.emit(thread.id)
        self._load_turns(thread.id, open_last=True)

    def _load_turns(self, thread_id: int, open_last: bool = False) -> None:
        def loaded(job: Job) -> None:
            if job.state is not State.DONE:
                self.note.setText(job.error)
                return
            if self.current != thread_id:
                return  # another thread was chosen meanwhile
            self._show_turns(job.result)
            if open_last and self.turns:
                self.show_answer.emit(self.turns[-1])

        self.tasks.read("opening a conversation", lambda job: self.engine.thread_turns(thread_id), loaded)

    def _show_turns(self, turns: list[Turn]) -> None:
        self.turns = turns
        self.turn_list.clear()
        for turn in turns:
            item = QListWidgetItem(turn_label(turn))
            item.setData(TURN_ROLE, turn)
            item.setToolTip(turn_tooltip(turn))
            self.turn_list.addItem(item)
        if turns:
            self.turn_list.setCurrentRow(len(turns) - 1)
        changed = sum(1 for t in turns if t.changed)
        if changed:
            self.note.setText(f"⚠ {changed} of these answers cite a file that changed since.")
        self._update_buttons()

    def _open_turn(self, item: QListWidgetItem) -> None:
        self.show_answer.emit(item.data(TURN_ROLE))

    def _update_buttons(self) -> None:
        chosen = self.list.currentItem() is not None
        for button in (self.rename_button, self.delete_button, self.export_button):
            button.setEnabled(chosen)
        has_turn = self.turn_list.currentItem() is not None
        self.export_actions["turn-markdown"].setEnabled(has_turn)
        self.export_actions["turn-json"].setEnabled(has_turn)

    # -- rename, delete -------------------------------------------------------------------------------
    def rename_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            thread: Thread = item.data(THREAD_ROLE)
            self.list.blockSignals(True)
            item.setText(thread.title)  # edit the title alone, not the date line
            self.list.blockSignals(False)
            self.list.editItem(item)

    def _renamed(self, item: QListWidgetItem) -> None:
        thread: Thread = item.data(THREAD_ROLE)
        title = " ".join(item.text().split("\n", 1)[0].split())
        if not title or title == thread.title:
            self.refresh()
            return
        self.tasks.read(
            "renaming a conversation",
            lambda job: self.engine.rename_thread(thread.id, title),
            then=lambda job: self._done(job, f"Renamed to “{title}”."),
        )

    def ask_delete(self) -> None:
        thread = self.current_thread()
        if thread is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Delete conversation",
            f"Delete “{thread.title}” and its {thread.turns} answers? The files they cite are not touched.",
            parent=self,
        )
        box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
        box.buttonClicked.connect(lambda button: self._confirmed(thread, box.buttonRole(button)))
        box.finished.connect(lambda _: setattr(self, "confirm", None))
        self.confirm = box
        box.open()

    def _confirmed(self, thread: Thread, role: QMessageBox.ButtonRole) -> None:
        if role == QMessageBox.ButtonRole.DestructiveRole:
            self.delete(thread.id)

    def delete(self, thread_id: int) -> None:
        if self.current == thread_id:
            self.new_conversation()
        self.tasks.read(
            "deleting a conversation",
            lambda job: self.engine.delete_thread(thread_id),
            then=lambda job: self._done(job, "Conversation deleted."),
        )

    def _done(self, job: Job, message: str) -> None:
        self.note.setText(message if job.state is State.DONE else job.error)
        self.refresh()

    # -- export ---------------------------------------------------------------------------------------
    def choose_export(self, fmt: ExportFormat, one_answer: bool) -> None:
        thread = self.current_thread()
        if thread is None:
            return
        dialog = QFileDialog(self, "Export conversation")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(SUFFIX[fmt])
        dialog.selectFile(f"{_file_name(thread.title)}.{SUFFIX[fmt]}")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda path: self.export_to(Path(path), fmt, one_answer))
        dialog.open()

    def export_to(self, path: Path, fmt: ExportFormat, one_answer: bool = False) -> None:
        """Write the current thread (or its chosen answer) to `path`, on the read lane."""
        thread = self.current_thread()
        if thread is None:
            return
        item = self.turn_list.currentItem()
        turn: Turn | None = item.data(TURN_ROLE) if one_answer and item is not None else None

        def write(job: Job) -> Any:
            text = self.engine.export_thread(thread.id, fmt, turn.id if turn else None)
            path.write_text(text, encoding="utf-8")

        self.tasks.read("exporting a conversation", write, then=lambda job: self._exported(job, path))

    def _exported(self, job: Job, path: Path) -> None:
        self.note.setText(f"Exported to {path}" if job.state is State.DONE else job.error)

    def copy_markdown(self) -> None:
        thread = self.current_thread()
        if thread is None:
            return

        def copied(job: Job) -> None:
            if job.state is State.DONE:
                QGuiApplication.clipboard().setText(job.result)
                self.note.setText("Conversation copied as Markdown.")
            else:
                self.note.setText(job.error)

        self.tasks.read("copying a conversation", lambda job: self.engine.export_thread(thread.id), copied)


def _lines_high(view: QListWidget, lines: int) -> int:
    """The height that shows `lines` lines of text in `view`, with its frame."""
    return lines * view.fontMetrics().lineSpacing() + 2 * view.frameWidth() + 4


def _file_name(title: str) -> str:
    safe = "".join(c if c.isalnum() or c in " -_" else " " for c in title)
    return "-".join(safe.split())[:60] or "conversation"
