"""The main window: folders | search results | answer over source preview; menus, shortcuts, drops.

It only wires widgets together. Engine work runs on the task manager's lanes; nothing here blocks the
UI thread except the final, bounded wait for workers when the window closes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from desktop.answer_format import AnswerState
from desktop.drops import URI_LIST, dropped_paths
from desktop.indexing import AddResult, Indexing
from desktop.logs import log_path
from desktop.names import shown
from desktop.paths import icon_path, ui_settings
from desktop.tasks import Job, State, TaskManager
from desktop.theme import apply_theme
from desktop.widgets.answer import AnswerView
from desktop.widgets.banner import ErrorBanner
from desktop.widgets.dialogs import LogViewer, ShortcutSheet, show_about
from desktop.widgets.explorer import IndexExplorer
from desktop.widgets.folders import FoldersPanel
from desktop.widgets.history import HistoryPane
from desktop.widgets.preview import SourcePreview
from desktop.widgets.search import SearchPanel
from desktop.widgets.settings import SettingsDialog
from desktop.widgets.statusline import StatusLine
from desktop.widgets.welcome import ExampleQuestions, WelcomePage
from engine.api import Engine
from engine.settings import Settings

log = logging.getLogger(__name__)
RECENT_MAX = 15
EXAMPLES_DISMISSED = "welcome/examples_dismissed"
DEMO_DIR = "demo"  # where paths.copy_demo puts the demo folder in the data dir
QUESTION_LOG_CHARS = 200


def run_summary(job: Job, seconds: float) -> str:
    """One log line for an index or vector run: its outcome, counts and time since it was queued."""
    text = f"{job.name} {job.state.value} in {seconds:.1f} s"
    if job.name == "computing vectors":
        total = job.progress.total if job.progress is not None else 0
        return f"{text}: {total} chunks"
    counts = ", ".join(f"{n} {what}" for what, n in job.counts.items())
    return f"{text}: {counts}"


def log_answer(state: AnswerState) -> None:
    """A question, how it ended and where its time went (Answer.timings_ms)."""
    question = state.question[:QUESTION_LOG_CHARS]
    answer = state.final
    if answer is None:
        outcome = "stopped" if state.cancelled else "failed"
        log.info("question %r %s", question, outcome)
        return
    if answer.refused:
        outcome = f"refused ({answer.reason})" if answer.reason else "refused"
    else:
        outcome = f"answered in {len(answer.sentences)} sentences"
    timings = ", ".join(f"{stage} {ms:.0f} ms" for stage, ms in answer.timings_ms.items()) or "none"
    log.info(
        "question %r %s from %d sources by %s; timings: %s",
        question,
        outcome,
        len(answer.evidence),
        answer.generator or "?",
        timings,
    )


class MainWindow(QMainWindow):
    first_shown = Signal()

    def __init__(self, engine: Engine, tasks: TaskManager | None = None) -> None:
        super().__init__()
        self.engine = engine
        self.tasks = tasks or TaskManager(self)
        self.indexing = Indexing(engine, self.tasks, self)
        self.qsettings = ui_settings(engine.home)
        self.setWindowTitle("Citeline")
        self.setWindowIcon(QIcon(str(icon_path())))
        self.setAcceptDrops(True)
        self._closed = False
        self._idle = True
        self._known_folders: set[str] | None = None  # the folders last logged; None until the list loads
        self._queued_at: dict[int, float] = {}  # index and vector jobs: when the window queued them
        self._build()
        self._menus()
        self._wire()
        self._restore()
        self.indexing.start()

    # -- layout ---------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.banner = ErrorBanner()
        self.welcome = WelcomePage()
        self.examples = ExampleQuestions()
        self.folders = FoldersPanel(self.indexing)
        self.search = SearchPanel(self.engine, self.tasks)
        self.answer = AnswerView(self.engine, self.tasks)
        self.preview = SourcePreview(self.engine, self.tasks)
        self.history = HistoryPane(self.engine, self.tasks)  # conversations: questions go to its thread
        self.history.attach(self.answer)
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.addWidget(self.folders)
        self.left.addWidget(self.history)
        self.right = QSplitter(Qt.Orientation.Vertical)
        self.right.addWidget(self.answer)
        self.right.addWidget(self.preview)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for widget in (self.left, self.search, self.right):
            self.splitter.addWidget(widget)
        self.splitter.setSizes([300, 380, 640])
        self.stack = QStackedWidget()
        self.stack.addWidget(self.splitter)
        self.stack.addWidget(self.welcome)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.banner)
        layout.addWidget(self.examples)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.status_line = StatusLine(self.indexing, self.tasks)
        self.statusBar().addWidget(self.status_line, 1)  # what runs now; failures flash over it

    def _action(self, menu_name: str, text: str, slot: object, *keys: str) -> QAction:
        menu = self._menu_map[menu_name]
        action = QAction(text, self)
        if keys:
            action.setShortcuts([QKeySequence(k) for k in keys])
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        self._menu_map = {name: bar.addMenu(name) for name in ("&File", "&Edit", "&Questions", "&Help")}
        self._action("&File", "Add folder…", self.folders.choose_folder, "Ctrl+O")
        self._action("&File", "Index explorer…", self.show_explorer)
        self._action("&File", "Settings…", self.show_settings, "Ctrl+,")
        self._menu_map["&File"].addSeparator()
        self._action("&File", "Quit", self.close, "Ctrl+Q")
        self.find_action = self._action("&Edit", "Search or ask", self.focus_search, "Ctrl+K")
        self._action("&Questions", "New conversation", self.history.new_conversation, "Ctrl+N")
        self.recent_menu = self._menu_map["&Questions"].addMenu("Recent")
        self._action("&Help", "Keyboard shortcuts", self.show_shortcuts, "F1", "Ctrl+/")
        self._action("&Help", "Log", self.show_log)
        self._action("&Help", "About Citeline", lambda: show_about(self, self.engine.home))

    def _wire(self) -> None:
        self.indexing.error.connect(self.banner.show_error)
        self.indexing.empty.connect(self._on_empty)
        self.welcome.try_demo.connect(self.try_demo)
        self.welcome.add_folder.connect(self.folders.choose_folder)
        self.examples.ask.connect(self._ask_again)
        self.examples.dismissed.connect(lambda: self.qsettings.setValue(EXAMPLES_DISMISSED, True))
        self.indexing.idle.connect(self._offer_examples)
        self.indexing.changed.connect(self._offer_examples)
        self.folders.explore.connect(self.show_explorer)
        self.indexing.changed.connect(
            lambda: self.search.set_folders(sorted(self.indexing.views, key=str.lower))
        )
        self.indexing.idle.connect(self.search.refresh_types)
        self.indexing.changed.connect(lambda: self.search.set_hidden(self.indexing.hidden()))
        self.search.ask.connect(self.ask)
        self.search.open_hit.connect(self.preview.open_target)
        self.answer.open_source.connect(self.preview.open_target)
        self.answer.answered.connect(self.preview.answer_done)  # a refusal's evidence is not cited
        self.preview.failed.connect(self.banner.show_error)
        self.tasks.finished.connect(self._job_finished)
        self._drop_handlers: dict[QEvent.Type, Callable[[Any], None]] = {
            QEvent.Type.DragEnter: self.dragEnterEvent,
            QEvent.Type.DragMove: self.dragMoveEvent,
            QEvent.Type.Drop: self.dropEvent,
        }
        self.search.box.installEventFilter(self)
        self.indexing.busy.connect(self._job_queued)
        self.indexing.changed.connect(self._log_folders)
        self.answer.answered.connect(log_answer)

    def _job_finished(self, job: Job) -> None:
        if job.state is not State.DONE:  # what is done is not news: the status line says what runs next
            self.statusBar().showMessage(f"{job.name.capitalize()}: {job.state.value}", 4000)
        self._log_job(job)

    # -- the log (Help → Log): what the user did and what it cost -------------------------------------
    def _job_queued(self, job: Job | None) -> None:
        if job is not None:
            self._queued_at[job.id] = time.monotonic()

    def _log_job(self, job: Job) -> None:
        queued = self._queued_at.pop(job.id, None)
        if job.state is State.FAILED:
            log.warning("%s failed: %s%s", job.name, job.error, f" ({job.hint})" if job.hint else "")
        elif job.name == "loading folders" and job.state is State.DONE:
            self._known_folders = {folder.path for folder in job.result.folders}
            log.info("%d folders in the index", len(self._known_folders))
        elif isinstance(job.result, AddResult):
            for message, hint in job.result.errors:
                log.warning("could not add: %s (%s)", message, hint)
        if queued is not None:
            log.info("%s", run_summary(job, time.monotonic() - queued))

    def _log_folders(self) -> None:
        """Folders added or removed, by any route (menu, panel, drop, demo), once the list has loaded."""
        if self._known_folders is None:
            return
        now = set(self.indexing.views)
        for path in sorted(now - self._known_folders):
            log.info("folder added: %s", shown(path))
        for path in sorted(self._known_folders - now):
            log.info("folder removed: %s", shown(path))
        self._known_folders = now

    # -- actions --------------------------------------------------------------------------------------
    def focus_search(self) -> None:
        self.stack.setCurrentWidget(self.splitter)
        self.search.focus_box()

    def ask(self, question: str) -> None:
        self._remember(question)
        self.indexing.after_removals(lambda: self.history.ask(question))  # never from a removed folder
        self.preview.follow(self.answer.evidence, question)  # cleared, then the new evidence's first hit

    def try_demo(self) -> None:
        self.stack.setCurrentWidget(self.splitter)
        self.indexing.add_demo()
        self.search.set_query("")

    def _offer_examples(self) -> None:
        """Questions the demo answers, once it is indexed (until the user hides them or removes it)."""
        demo = self.indexing.views.get(str((self.engine.home / DEMO_DIR).resolve()))
        ready = demo is not None and demo.state in ("keyword-ready", "vectors", "watching")
        dismissed = self.qsettings.value(EXAMPLES_DISMISSED, False) in (True, "true")
        self.examples.setVisible(ready and not dismissed)

    def add_paths(self, paths: list[Path]) -> None:
        self.stack.setCurrentWidget(self.splitter)
        self.indexing.add(paths)

    def _on_empty(self, empty: bool) -> None:
        self.stack.setCurrentWidget(self.welcome if empty else self.splitter)

    def show_explorer(self) -> None:
        explorer = IndexExplorer(self.engine, self.tasks, self)
        explorer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        explorer.show()
        explorer.load()

    def show_settings(self) -> None:
        dialog = SettingsDialog(self.engine, self.tasks, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self.apply_settings)
        dialog.open()

    def apply_settings(self, settings: Settings) -> None:
        threads_changed = settings.threads != self.engine.settings.threads
        self.engine.use_settings(settings)  # drops a local generator built over the previous model
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, settings.theme)
        if threads_changed:
            self.statusBar().showMessage("The thread count applies after a restart.", 6000)

    def show_shortcuts(self) -> None:
        sheet = ShortcutSheet(self)
        sheet.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        sheet.open()

    def show_log(self) -> None:
        viewer = LogViewer(log_path(self.engine.home), self.tasks, self)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()

    def bring_forward(self) -> None:
        """A second launch asked for this window."""
        log.info("another launch asked this window to come forward")
        state = self.windowState() & ~Qt.WindowState.WindowMinimized
        self.setWindowState(state | Qt.WindowState.WindowActive)
        self.show()
        self.raise_()
        self.activateWindow()

    # -- recent questions -----------------------------------------------------------------------------
    def recent_questions(self) -> list[str]:
        value = self.qsettings.value("recent/questions", [])
        if isinstance(value, str):  # QSettings (INI) returns a lone item as a plain string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _remember(self, question: str) -> None:
        recent = [question, *[q for q in self.recent_questions() if q != question]][:RECENT_MAX]
        self.qsettings.setValue("recent/questions", recent)
        self._fill_recent(recent)

    def _fill_recent(self, recent: list[str]) -> None:
        self.recent_menu.clear()
        for question in recent:
            action = self.recent_menu.addAction(question)
            action.triggered.connect(lambda _checked=False, q=question: self._ask_again(q))
        self.recent_menu.setEnabled(bool(recent))

    def _ask_again(self, question: str) -> None:
        self.focus_search()
        self.search.set_query(question)
        self.ask(question)

    # -- drag and drop --------------------------------------------------------------------------------
    # Folders are indexed; a file is indexed on its own. desktop/drops.py reads what file managers send.
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            log.info("dropped: %s", ", ".join(shown(str(p)) for p in paths))
            self.add_paths(paths)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Files dragged over the search box are added, not typed into it (a plain text drag still is)."""
        handler = self._drop_handlers.get(event.type())
        if watched is self.search.box and handler is not None and isinstance(event, QDropEvent):
            mime = event.mimeData()
            if mime.hasFormat(URI_LIST) and dropped_paths(mime):
                handler(event)
                return True
        return super().eventFilter(watched, event)

    # -- persistence and shutdown ---------------------------------------------------------------------
    def _restore(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        for key, splitter in (("window/splitter", self.splitter), ("window/right", self.right)):
            state = self.qsettings.value(key)
            if isinstance(state, QByteArray):
                splitter.restoreState(state)
        self._fill_recent(self.recent_questions())

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        if not getattr(self, "_shown_once", False):
            self._shown_once = True
            self.first_shown.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> bool:
        """Save the window state, cancel the jobs, stop the watcher, close the engine. Idempotent.

        Waits for the workers only briefly (TaskManager.shutdown). True when they stopped; False when one
        is still inside a call that cannot be interrupted: the engine is then left open (closing it under
        a running job could crash it) and the caller must end the process without waiting for it."""
        if self._closed:
            return self._idle
        self._closed = True
        self._save_state()
        self.hide()
        self._idle = self.tasks.shutdown()
        self.indexing.close()
        if self._idle:
            self.engine.close()
        else:
            log.warning("a job is still running after the stop; the engine is left open")
        log.info("window closed")
        return self._idle

    def _save_state(self) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/splitter", self.splitter.saveState())
        self.qsettings.setValue("window/right", self.right.saveState())
        self.qsettings.sync()
