"""Model manager: each model role with its state (verified, missing, corrupt), and Import… for a user file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import Job, State, TaskManager
from engine.api import Engine, ModelStatus

FILTERS = {"gguf": "GGUF models (*.gguf)", "onnx": "ONNX models (*.onnx)"}
DEFAULT_NOTE = "Models load on first use. Import replaces the model for the selected role."


class ModelManager(QWidget):
    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.tasks = tasks
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Role", "Model", "State", "Details"])
        self.tree.setRootIsDecorated(False)
        self.tree.header().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
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

    def refresh(self) -> None:
        """Engine.models() may hash a file whose size changed: a worker does it."""
        self.tasks.read("checking models", lambda job: self.engine.models(), then=self._loaded)

    def _loaded(self, job: Job) -> None:
        if job.state is not State.DONE:
            self.note.setText(f"{job.error} {job.hint}".strip())
            return
        rows: list[ModelStatus] = job.result
        self.tree.clear()
        for row in rows:
            detail = row.fix or row.detail
            item = QTreeWidgetItem(
                self.tree,
                [row.role, row.name + (" (imported)" if row.imported else ""), row.state.value, detail],
            )
            item.setToolTip(1, str(row.path or ""))
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

    def _say(self, text: str) -> None:
        self._told = True
        self.note.setText(text)
