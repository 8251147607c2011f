"""Search panel: keyword results as you type (debounced), Enter asks the question.

Keys: Down moves from the box into the results, Up/Down move through them, Enter on a result opens it in
the preview, Esc (or Up on the first result) returns to the box.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from desktop.answer_format import location
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.preview import SourceTarget
from engine.api import Engine
from engine.events import Hit
from engine.retrieve.search import SearchResult

DEBOUNCE_MS = 150
RESULTS_K = 20
HIT_ROLE = Qt.ItemDataRole.UserRole
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class ResultList(QListWidget):
    """Enter opens the current result; Esc, or Up on the first row, gives focus back to the box."""

    back = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape or (key == Qt.Key.Key_Up and self.currentRow() <= 0):
            self.back.emit()
            return
        if key in ENTER_KEYS and self.currentItem() is not None:
            self.itemActivated.emit(self.currentItem())
            return
        super().keyPressEvent(event)


class SearchPanel(QWidget):
    ask = Signal(str)  # Enter in the box
    open_hit = Signal(object)  # SourceTarget
    results_shown = Signal(int)  # number of keyword results now listed

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self._seq = 0
        self.box = QLineEdit()
        self.box.setObjectName("searchBox")
        self.box.setPlaceholderText("Search your folders, or ask a question and press Enter   (Ctrl+K)")
        self.box.setClearButtonEnabled(True)
        self.results = ResultList()
        self.results.setObjectName("results")
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.info = QLabel("")
        self.info.setObjectName("muted")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._wire()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        layout.addWidget(self.info)
        layout.addWidget(self.results, 1)

    def _wire(self) -> None:
        self._timer.timeout.connect(self._search)
        self.box.textEdited.connect(lambda _text: self._timer.start())
        self.box.returnPressed.connect(self._ask)
        self.box.installEventFilter(self)
        self.results.back.connect(self.focus_box)
        self.results.itemActivated.connect(self._open)
        self.results.itemDoubleClicked.connect(self._open)

    def focus_box(self) -> None:
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        down = (
            isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() == Qt.Key.Key_Down
        )
        if watched is self.box and down and self.results.count():
            self.results.setFocus(Qt.FocusReason.OtherFocusReason)
            self.results.setCurrentRow(max(0, self.results.currentRow()))
            return True
        return super().eventFilter(watched, event)

    # -- keyword search -------------------------------------------------------------------------------
    def _search(self) -> None:
        query = self.box.text().strip()
        self._seq += 1
        seq = self._seq
        if not query:
            self._show([], "")
            return
        self.tasks.read(
            "searching",
            lambda job: self.engine.search(query, k=RESULTS_K, mode="keyword"),
            then=lambda job: self._searched(job, seq),
        )

    def _searched(self, job: Job, seq: int) -> None:
        if seq != self._seq:
            return  # the user typed on; a newer search is coming
        if job.state is not State.DONE:
            self._show([], job.error)
            return
        result: SearchResult = job.result
        ms = sum(result.timings_ms.values())
        self._show(
            result.hits, f"{len(result.hits)} keyword results · {ms:.0f} ms" if result.hits else "No matches"
        )

    def _show(self, hits: list[Hit], info: str) -> None:
        self.results.clear()
        for hit in hits:
            text = " ".join(hit.snippet.replace("**", "").split()) or hit.heading
            item = QListWidgetItem(
                f"{location(Path(hit.path).name, hit.start_line, hit.end_line, hit.page)}\n{text[:200]}"
            )
            item.setToolTip(hit.path)
            item.setData(HIT_ROLE, hit)
            self.results.addItem(item)
        self.info.setText(info)
        self.results_shown.emit(len(hits))

    # -- actions --------------------------------------------------------------------------------------
    def _ask(self) -> None:
        question = self.box.text().strip()
        if question:
            self.ask.emit(question)

    def _open(self, item: QListWidgetItem) -> None:
        hit: Hit = item.data(HIT_ROLE)
        self.open_hit.emit(SourceTarget(hit.path, hit.start_line, hit.end_line, hit.page))

    def set_query(self, text: str) -> None:
        self.box.setText(text)
        self._timer.start()
