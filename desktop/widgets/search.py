"""Search panel: keyword results as you type (debounced), Enter asks the question.

A folder filter and a file-type filter sit next to the box (Tab reaches them) and narrow the results. Each
result shows its path relative to its folder and the engine's snippet, centred on the best match, with the
query's words in bold (ResultDelegate); opening it marks them in the preview too.

Keys: Down moves from the box into the results, Up/Down move through them, Enter on a result opens it in
the preview, Esc (or Up on the first result) returns to the box.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.names import file_name, shown
from desktop.snippet_text import readable
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.preview import SourceTarget
from desktop.widgets.results import SNIPPET_ROLE, TITLE_ROLE, ResultDelegate, plain
from engine.api import Engine, SearchResult, location
from engine.events import Hit

DEBOUNCE_MS = 150
RESULTS_K = 20
HIT_ROLE = Qt.ItemDataRole.UserRole
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
ALL_FOLDERS = "All folders"
ALL_TYPES = "All types"


def relative_path(path: str, folders: list[str]) -> str:
    """`path` relative to the watched folder that holds it (the innermost), under the folder's name when
    several are watched; the path as it is when none holds it."""
    holders = [f for f in folders if Path(path).is_relative_to(f)]
    if not holders:
        return path
    folder = Path(max(holders, key=len))
    rel = Path(path).relative_to(folder)
    return (Path(folder.name) / rel).as_posix() if len(folders) > 1 else rel.as_posix()


def parse_types(text: str) -> list[str]:
    """ "md, .py txt" -> ["md", "py", "txt"]; "All types" or blank -> [] (no filter)."""
    if text.strip() == ALL_TYPES:
        return []
    return [t.lstrip(".").lower() for t in re.split(r"[\s,;]+", text) if t.lstrip(".")]


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
        self._folders: list[str] = []
        self._offered: list[str] = []  # the folders the filter offers, in its order (after "All folders")
        self._hidden: set[str] = set()  # folders removed (undo pending, or removal queued): no results
        self._query = ""  # the search the listed results answer
        self.box = QLineEdit()
        self.box.setObjectName("searchBox")
        self.box.setPlaceholderText("Search your folders, or ask a question and press Enter   (Ctrl+K)")
        self.box.setClearButtonEnabled(True)
        self.folder_filter = QComboBox()
        self.folder_filter.setObjectName("folderFilter")
        self.folder_filter.setToolTip("Only results from this folder")
        self.folder_filter.addItem(ALL_FOLDERS, None)
        self.folder_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.folder_filter.setMinimumContentsLength(8)
        self.type_filter = QComboBox()
        self.type_filter.setObjectName("typeFilter")
        self.type_filter.setEditable(True)
        self.type_filter.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.type_filter.setToolTip("Only these file types, e.g. md, py")
        self.type_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.type_filter.setMinimumContentsLength(6)
        self.type_filter.addItem(ALL_TYPES)
        # Blank means all types and says so in the placeholder, which is elided (never cut to "ypes")
        self.type_filter.setEditText("")
        edit = self.type_filter.lineEdit()
        assert edit is not None  # the combo is editable
        self.type_edit: QLineEdit = edit
        self.type_edit.setPlaceholderText(ALL_TYPES)
        self.results = ResultList()
        self.results.setObjectName("results")
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setResizeMode(QListView.ResizeMode.Adjust)  # rows re-wrap their snippet on resize
        self.results.setItemDelegate(ResultDelegate(self.results))
        self.info = QLabel("")
        self.info.setObjectName("muted")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._wire()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        row = QHBoxLayout()  # under the box: their width never widens the panel's minimum
        for combo, stretch in ((self.folder_filter, 1), (self.type_filter, 1)):
            combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            row.addWidget(combo, stretch)
        layout.addLayout(row)
        layout.addWidget(self.info)
        layout.addWidget(self.results, 1)
        QWidget.setTabOrder(self.box, self.folder_filter)
        QWidget.setTabOrder(self.folder_filter, self.type_filter)
        QWidget.setTabOrder(self.type_filter, self.results)

    def _wire(self) -> None:
        self._timer.timeout.connect(self._search)
        self.box.textEdited.connect(lambda _text: self._timer.start())
        self.box.returnPressed.connect(self._ask)
        self.box.installEventFilter(self)
        self.folder_filter.currentIndexChanged.connect(lambda _index: self._timer.start())
        self.type_filter.currentTextChanged.connect(lambda _text: self._timer.start())
        self.type_filter.textActivated.connect(self._type_chosen)
        self.type_edit.editingFinished.connect(lambda: self.type_edit.home(False))  # show a long list's start
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

    # -- filters --------------------------------------------------------------------------------------
    def _type_chosen(self, text: str) -> None:
        if text == ALL_TYPES:
            self.type_filter.setEditText("")  # the placeholder says it

    def _chosen_folder(self) -> str | None:
        """The real path of the folder the filter shows (None: all folders)."""
        index = self.folder_filter.currentIndex()
        return self._offered[index - 1] if 0 < index <= len(self._offered) else None

    def set_folders(self, paths: list[str]) -> None:
        """The watched folders to offer; keeps the current choice while it is still watched."""
        self._folders = list(paths)
        chosen = self._chosen_folder()
        if self._offered == paths:
            return
        self.folder_filter.blockSignals(True)
        self.folder_filter.clear()
        self.folder_filter.addItem(ALL_FOLDERS, None)
        for path in paths:
            self.folder_filter.addItem(
                file_name(path), path
            )  # the real one is in _offered (Qt drops surrogates)
            self.folder_filter.setItemData(
                self.folder_filter.count() - 1, shown(path), Qt.ItemDataRole.ToolTipRole
            )
        self._offered = list(paths)
        self.folder_filter.setCurrentIndex(paths.index(chosen) + 1 if chosen in paths else 0)
        self.folder_filter.blockSignals(False)
        if chosen is not None and chosen not in paths:
            self._timer.start()  # the chosen folder went away: search everything again

    def set_hidden(self, folders: set[str]) -> None:
        """Folders the user removed whose files may still be in the index: their results are left out (at
        once: the listed results are searched again)."""
        if folders != self._hidden:
            self._hidden = set(folders)
            self._timer.start()

    def set_types(self, extensions: list[str]) -> None:
        """The file types present in the index, offered under "All types"; typed text is kept."""
        text = self.type_filter.currentText()
        self.type_filter.blockSignals(True)
        self.type_filter.clear()
        self.type_filter.addItem(ALL_TYPES)
        self.type_filter.addItems(extensions)
        self.type_filter.setCurrentText(text)
        self.type_filter.blockSignals(False)

    def refresh_types(self) -> None:
        """Collect the indexed file types on the read lane."""

        def collect(job: Job) -> list[str]:
            found = {
                Path(f.path).suffix.lower().lstrip(".") for f in self.engine.files() if f.status == "indexed"
            }
            return sorted(e for e in found if e)

        def loaded(job: Job) -> None:
            if job.state is State.DONE:
                self.set_types(job.result)

        self.tasks.read("listing file types", collect, then=loaded)

    def filters(self) -> tuple[str | None, list[str]]:
        """(folder or None, extensions) as chosen next to the box."""
        folder = self._chosen_folder()
        return (str(folder) if folder else None), parse_types(self.type_filter.currentText())

    # -- keyword search -------------------------------------------------------------------------------
    def _search(self) -> None:
        query = self.box.text().strip()
        folder, extensions = self.filters()
        self._seq += 1
        seq = self._seq
        if not query:
            self._show([], "")
            return
        self.tasks.read(
            "searching",
            lambda job: self.engine.find(
                query, k=RESULTS_K, mode="keyword", folder=folder, extensions=extensions
            ),
            then=lambda job: self._searched(job, seq, query),
        )

    def _searched(self, job: Job, seq: int, query: str) -> None:
        if seq != self._seq:
            return  # the user typed on; a newer search is coming
        self._query = query
        if job.state is not State.DONE:
            self._show([], job.error)
            return
        result: SearchResult = job.result
        ms = sum(result.timings_ms.values())
        hits = [h for h in result.hits if not any(Path(h.path).is_relative_to(f) for f in self._hidden)]
        self._show(hits, f"{len(hits)} keyword results · {ms:.0f} ms" if hits else "No matches")

    def _show(self, hits: list[Hit], info: str) -> None:
        self.results.clear()
        for hit in hits:
            title = location(relative_path(hit.path, self._folders), hit.start_line, hit.end_line, hit.page)
            marked = readable(hit.snippet or hit.heading, hit.path)
            item = QListWidgetItem(f"{title}\n{plain(marked)}")
            item.setToolTip(shown(hit.path))
            item.setData(HIT_ROLE, hit)
            item.setData(TITLE_ROLE, title)
            item.setData(SNIPPET_ROLE, marked)
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
        self.open_hit.emit(SourceTarget.of_hit(hit, self._query))

    def set_query(self, text: str) -> None:
        """Put `text` in the box with its start in view: a long question set for the user (an example, a
        recent one) reads from its first word, not from its last."""
        self.box.setText(text)
        self.box.setCursorPosition(0)
        self._timer.start()
