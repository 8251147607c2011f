"""Models in Settings: the local generator's models (pick the one that answers, fetch a missing one) and
the manager of every model role with its state (verified, missing, corrupt) and Import… for a user file."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import Job, State, TaskManager
from desktop.widgets.banner import ErrorBanner
from engine.api import Engine, LocalModel, ModelStatus

FILTERS = {"gguf": "GGUF models (*.gguf)", "onnx": "ONNX models (*.onnx)"}
DEFAULT_NOTE = "Models load on first use. Import replaces the model for the selected role."
VERIFIED = "verified"  # ModelStatus.state's value for a file whose checksum matched


CELL_PADDING = 3  # above and below a wrapped cell's text
COLUMN_MODES = (
    QHeaderView.ResizeMode.ResizeToContents,  # role
    QHeaderView.ResizeMode.Stretch,  # model
    QHeaderView.ResizeMode.ResizeToContents,  # state
    QHeaderView.ResizeMode.Stretch,  # details
)


def text_margin(view: QWidget) -> int:
    """The space the style leaves either side of an item's text (what QCommonStyle uses)."""
    return view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1


def details_text(status: ModelStatus, size_mb: float | None) -> str:
    """What the State column does not say: a verified file's size and place, else what is wrong and the
    fix (the state already says "missing" or "corrupt")."""
    if status.state.value == VERIFIED and status.path is not None:
        where = f"{status.path.name} in {_home_short(status.path.parent)}"
        return f"{size_text(size_mb)} · {where}" if size_mb is not None else where
    wrong = "" if status.detail in ("", status.state.value) else status.detail
    return "; ".join(part for part in (wrong, status.fix) if part) or status.state.value


def _home_short(folder: Path) -> str:
    """The folder with the home directory written as ~ (a model path is long enough as it is)."""
    try:
        return str(Path("~") / folder.relative_to(Path.home()))
    except ValueError:
        return str(folder)


def _with_sizes(rows: list[ModelStatus]) -> list[tuple[ModelStatus, float | None]]:
    """Each status with its file's size in MB (worker thread: it touches the disk)."""
    return [(row, _file_mb(row.path)) for row in rows]


def _file_mb(path: Path | None) -> float | None:
    try:
        return path.stat().st_size / 1e6 if path is not None else None
    except OSError:
        return None


class WrappedRows(QStyledItemDelegate):
    """QTreeView sizes a row without its columns' widths, so wrapped text would be cut at one line: each row
    gets the height its cells need wrapped at the columns' current widths, and is measured again when a
    column's width changes."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree
        tree.header().sectionResized.connect(lambda *_: tree.scheduleDelayedItemsLayout())

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        width = max(1, self.tree.columnWidth(index.column()) - 2 * text_margin(self.tree))
        flags = int(Qt.TextFlag.TextWordWrap)
        text = option.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), flags, str(index.data() or ""))
        return QSize(hint.width(), max(hint.height(), text.height() + 2 * CELL_PADDING))


class ModelManager(QWidget):
    imported = Signal(str)  # the role a user's file now serves

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Role", "Model", "State", "Details"])
        self.tree.setRootIsDecorated(False)
        self._fit_columns()
        self.note = QLabel("Checking models…")
        self._told = False  # the note holds an import's outcome, which a later status check must not hide
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self.import_button = QPushButton("Import…")
        self.import_button.setToolTip("Use your own .gguf or .onnx file for the selected role")
        self.import_button.clicked.connect(self.choose_import)
        buttons = QHBoxLayout()
        buttons.addWidget(self.note, 1)
        buttons.addWidget(self.import_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)

    def _fit_columns(self) -> None:
        """Role and state at their text's width; the model's name and the details share the rest and wrap
        at spaces, so a long name shows whole on two lines instead of being cut."""
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setItemDelegate(WrappedRows(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate(COLUMN_MODES):
            header.setSectionResizeMode(column, mode)

    def refresh(self) -> None:
        """Engine.models() may hash a file whose size changed: a worker does it (and reads the sizes)."""
        self.tasks.read("checking models", lambda job: _with_sizes(self.engine.models()), then=self._loaded)

    def _loaded(self, job: Job) -> None:
        if job.state is not State.DONE:
            self.note.setText(f"{job.error} {job.hint}".strip())
            return
        rows: list[tuple[ModelStatus, float | None]] = job.result
        self.tree.clear()
        for row, size_mb in rows:
            item = QTreeWidgetItem(
                self.tree,
                [
                    row.role,
                    row.name + (" (imported)" if row.imported else ""),
                    row.state.value,
                    details_text(row, size_mb),
                ],
            )
            for column in (1, 3):
                item.setToolTip(column, str(row.path or row.fix or row.detail))
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        if not self._told:
            self.note.setText(DEFAULT_NOTE)

    def selected_role(self) -> str:
        item = self.tree.currentItem()
        return item.text(0) if item is not None else ""

    def choose_import(self) -> None:
        role = self.selected_role()
        if not role:
            return
        fmt = self.engine.model_spec(role).format
        path, _ = QFileDialog.getOpenFileName(
            self, f"Import a model for the {role} role", "", FILTERS.get(fmt, "All files (*)")
        )
        if path:
            self.import_model(Path(path), role)

    def import_model(self, path: Path, role: str) -> Job:
        self._say(f"Importing {path.name} (copying and checking it)…")
        self.import_button.setEnabled(False)
        return self.tasks.read(
            "importing a model", lambda job: self.engine.import_model(path, role), then=self._imported
        )

    def _imported(self, job: Job) -> None:
        self.import_button.setEnabled(True)
        if job.state is not State.DONE:
            self._say(f"{job.error} ({job.hint})" if job.hint else job.error)
            return
        status: ModelStatus = job.result
        self._say(f"Imported {status.name} for the {status.role} role ({status.state.value}).")
        self.refresh()
        self.imported.emit(status.role)

    def _say(self, text: str) -> None:
        self._told = True
        self.note.setText(text)


# -- the local generator's models -------------------------------------------------------------------------
FETCH_JOB = "fetching the {role} model"  # the job's name: a reopened dialog finds a fetch still running
ROLE_NOTES = {"generator": " (default)"}
PICKER_NOTE = "The chosen model writes local answers. Speeds are measured on this computer's answers."
FETCH_NOTE = "Fetching {name}: {size} to download and check, which takes minutes.{since}"
FETCH_AWAY = " You can close Settings meanwhile."
FETCHED_NOTE = "{name} is fetched and verified: choose it above to have it answer."


def speed_text(model: LocalModel) -> str:
    """ "reads 39 tok/s · writes 12 tok/s", or "not measured yet" before the model has answered."""
    parts = [
        f"{verb} {rate:.0f} tok/s"
        for verb, rate in (("reads", model.read_per_s), ("writes", model.write_per_s))
        if rate is not None
    ]
    return " · ".join(parts) or "not measured yet"


def size_text(size_mb: float | None) -> str:
    if size_mb is None:
        return ""
    return f"{size_mb / 1000:.1f} GB" if size_mb >= 1000 else f"{size_mb:.0f} MB"


def model_size_mb(model: LocalModel) -> float | None:
    """The manifest's size, or an imported file's own (LocalModel.size_mb is the manifest's for both)."""
    path = model.status.path
    if model.status.imported and path is not None and path.is_file():
        return path.stat().st_size / 1e6
    return model.size_mb


def fetchable(model: LocalModel) -> bool:
    """A default model that is missing or corrupt. A broken import is mended by importing it again."""
    return model.status.state.value != VERIFIED and not model.status.imported


class LocalModelPicker(QWidget):
    """Every model the local generator can run: the one that answers, each one's size, state and measured
    speed, and Fetch for a missing one (what `citeline models fetch ROLE` does) with its progress."""

    fetched = Signal(str)  # the role whose model a fetch has just verified
    chosen = Signal(str)  # the name of the chosen model, once listed and whenever the choice changes

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.choice: str = engine.settings.local_model  # the role the dialog saves
        self.models: list[LocalModel] = []
        self.radios: dict[str, QRadioButton] = {}
        self.fetch_buttons: dict[str, QPushButton] = {}
        self.bars: dict[str, QProgressBar] = {}
        self._since: dict[str, float] = {}  # role -> when this picker started fetching it
        self._bytes: dict[str, tuple[int, int]] = {}  # role -> (bytes downloaded, bytes in all)
        self._outcome = ""  # the last fetch's success, shown in place of the note until the next one
        self.rows = QWidget()
        self.note = QLabel("Checking the local models…")
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self.banner = ErrorBanner()
        self.banner.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._clock = QTimer(self)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._show_fetching)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addWidget(self.rows)
        self.box.addWidget(self.note)
        self.box.addWidget(self.banner)
        # Keep every row readable in a crowded dialog: the model manager's list below gives up height.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        tasks.finished.connect(self._finished)

    def refresh(self) -> None:
        """Engine.local_models() may hash a file whose size changed: a worker does it."""
        self.tasks.read("listing local models", self._list, then=self._loaded)

    def _list(self, job: Job) -> list[tuple[LocalModel, float | None]]:
        return [(model, model_size_mb(model)) for model in self.engine.local_models()]

    def _loaded(self, job: Job) -> None:
        if job.state is not State.DONE:
            self.banner.show_error(job.error, job.hint)
            return
        self.models = [model for model, _ in job.result]
        rows = QWidget()
        grid = QGridLayout(rows)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setColumnStretch(0, 1)
        for column, title in enumerate(("Model", "Size", "State", "Speed on this computer")):
            header = QLabel(title)
            header.setObjectName("muted")
            grid.addWidget(header, 0, column)
        group = QButtonGroup(rows)
        self.radios, self.fetch_buttons, self.bars = {}, {}, {}
        for line, (model, size_mb) in enumerate(job.result, start=1):
            self._row(grid, group, line, model, size_mb)
        self.box.replaceWidget(self.rows, rows)
        self.rows.deleteLater()
        self.rows = rows
        rows.show()  # now, not on the next event loop turn: a fetch started at once shows its bar
        self._show_fetching()
        self.chosen.emit(self.name_of(self.choice))

    def _row(
        self, grid: QGridLayout, group: QButtonGroup, line: int, model: LocalModel, size_mb: float | None
    ) -> None:
        status, role = model.status, model.status.role
        radio = QRadioButton(status.name + (" (imported)" if status.imported else ROLE_NOTES.get(role, "")))
        radio.setToolTip(str(status.path) if status.path else f"{status.detail}: {status.fix}")
        radio.setChecked(role == self.choice)
        radio.setEnabled(status.state.value == VERIFIED)  # a missing model cannot answer: fetch it first
        radio.toggled.connect(lambda on, role=role: self._choose(role) if on else None)
        group.addButton(radio)
        self.radios[role] = radio
        state = QLabel(status.state.value)
        state.setToolTip(status.fix or status.detail)
        cells = (radio, QLabel(size_text(size_mb)), state, QLabel(speed_text(model)))
        for column, widget in enumerate(cells):
            grid.addWidget(widget, line, column)
        if fetchable(model):
            self._fetch_cell(grid, line, status)

    def _fetch_cell(self, grid: QGridLayout, line: int, status: ModelStatus) -> None:
        """A Fetch button, and the busy bar that stands in for it while the fetch runs."""
        button = QPushButton("Fetch")
        button.setToolTip(f"Download and verify {status.name} (citeline models fetch {status.role})")
        button.clicked.connect(lambda _=False, role=status.role: self.fetch(role))
        bar = QProgressBar()
        bar.setRange(0, 0)  # indeterminate until the download reports its first bytes
        bar.setTextVisible(False)
        bar.setFixedWidth(button.sizeHint().width())
        bar.hide()
        grid.addWidget(button, line, 4)
        grid.addWidget(bar, line, 4)
        self.fetch_buttons[status.role], self.bars[status.role] = button, bar

    def _choose(self, role: str) -> None:
        self.choice = role
        self.chosen.emit(self.name_of(role))

    def selected_role(self) -> str:
        return self.choice

    def name_of(self, role: str) -> str:
        return next((m.status.name for m in self.models if m.status.role == role), role)

    # -- fetching -----------------------------------------------------------------------------------------
    def fetch(self, role: str) -> Job:
        """Download (or assemble) and verify a role's model on a reader: minutes, never on the UI thread.
        Not the writer lane: it writes model files only, and indexing must not queue behind it."""
        self.banner.hide()
        self._outcome = ""
        self._since[role] = time.monotonic()
        self._bytes.pop(role, None)

        def seen(done: int, total: int) -> None:  # on the worker: one tuple assignment, read by the clock
            self._bytes[role] = (done, total)

        job = self.tasks.read(FETCH_JOB.format(role=role), lambda job: self.engine.fetch_model(role, seen))
        self._show_fetching()
        return job

    def fetching(self) -> str | None:
        """The role being fetched, if any, by this dialog or an earlier one (the job outlives it). One at a
        time: the engine's fetches share one download folder."""
        running = {job.name for job in self.tasks.active()}
        return next((role for role in self._roles() if FETCH_JOB.format(role=role) in running), None)

    def _roles(self) -> list[str]:
        return [model.status.role for model in self.models] or list(self._since)

    def _show_fetching(self) -> None:
        role = self.fetching()
        for other, button in self.fetch_buttons.items():
            button.setEnabled(role is None)
            button.setVisible(other != role)
            self.bars[other].setVisible(other == role)
        if role is None:
            self._clock.stop()
            self.note.setText(self._outcome or PICKER_NOTE)
            return
        self._clock.start()
        done, total = self._bytes.get(role, (0, 0))
        bar = self.bars.get(role)
        if bar is not None and total > 0:  # the download's bytes so far: a real fraction
            bar.setRange(0, 1000)
            bar.setValue(min(1000, done * 1000 // total))
        self.note.setText(self._fetch_note(role))

    def _fetch_note(self, role: str) -> str:
        model = next((m for m in self.models if m.status.role == role), None)
        size = size_text(model.size_mb if model else None) or "a large file"
        started = self._since.get(role)
        since = "" if started is None else f" {_clock_text(time.monotonic() - started)} so far."
        done, total = self._bytes.get(role, (0, 0))
        if total > 0:
            since = f" {done // (1024 * 1024)} of {total // (1024 * 1024)} MB downloaded," + since
        return FETCH_NOTE.format(name=self.name_of(role), size=size, since=since) + FETCH_AWAY

    def _finished(self, job: Job) -> None:
        role = next((r for r in self._roles() if FETCH_JOB.format(role=r) == job.name), None)
        if role is None:
            return
        self._since.pop(role, None)
        if job.state is State.FAILED:
            self._failed(role, job)
        elif job.state is State.DONE:
            self._outcome = FETCHED_NOTE.format(name=self.name_of(role))
            self.fetched.emit(role)
        self.refresh()

    def _failed(self, role: str, job: Job) -> None:
        """What went wrong in the engine's words (its message, then its hint): never a traceback."""
        name = self.name_of(role)
        detail = job.error.strip().rstrip(".")
        if job.hint:
            detail += f". {job.hint[:1].upper()}{job.hint[1:]}"
        self.banner.show_error(f"Could not fetch {name}.", detail)


def _clock_text(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"
