"""Settings: answer generator, the local model, threads, theme, data location, the Claude key, models."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop import secrets
from desktop.tasks import Job, State, TaskManager
from desktop.widgets.models import LocalModelPicker, ModelManager
from engine.api import Engine, generators
from engine.errors import CiteError
from engine.settings import Settings

GENERATORS = {
    "local": "Local model (private, runs on this computer)",
    "claude": "Claude (sends the evidence to Anthropic)",
    "extractive": "Extractive (quotes the sources, no model)",
}
RERANKERS = {
    "none": "Off: hybrid ranking only (fastest)",
    "cross-encoder-rrf": "Cross-encoder, fused with hybrid",
    "cross-encoder": "Cross-encoder order",
    "maxsim": "MaxSim late interaction",
    "maxsim-rrf": "MaxSim, fused with hybrid (default)",
}
THEMES = {"system": "Follow the system", "light": "Light", "dark": "Dark"}


def _combo(options: dict[str, str], current: str) -> QComboBox:
    box = QComboBox()
    for key, label in options.items():
        box.addItem(label, key)
    box.setCurrentIndex(max(0, box.findData(current)))
    return box


def _generator_labels() -> dict[str, str]:
    """The built-in generators' labels, then any other registered generator under its own name."""
    return GENERATORS | {name: name for name in generators.names() if name not in GENERATORS}


class SettingsDialog(QDialog):
    saved = Signal(object)  # the new Settings

    def __init__(self, engine: Engine, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.resize(760, 600)
        self.engine = engine
        self.tasks = tasks
        current = engine.settings
        self.generator = _combo(_generator_labels(), current.generator)
        self.rerank = _combo(RERANKERS, current.rerank)
        self.rerank.setToolTip(
            "Second stage that reorders the top 20 hits of a hybrid search (citeline search, agents over"
            " MCP), and of answer evidence when the box below is ticked; about 300 ms a query"
        )
        self.rerank_answers = QCheckBox("Also rerank the evidence answers are built from")
        self.rerank_answers.setChecked(current.rerank_answers)
        self.rerank_answers.setToolTip(
            "Off by default: on the Meridian set it made answers cite less precisely"
        )
        self.threads = QSpinBox()
        self.threads.setRange(1, 256)
        self.threads.setValue(current.threads)
        self.theme = _combo(THEMES, current.theme)
        self.error = QLabel("")
        self.error.setObjectName("muted")
        self.error.setWordWrap(True)
        self.models = ModelManager(engine, tasks)
        self.local = LocalModelPicker(engine, tasks)
        self.local.fetched.connect(lambda role: self.models.refresh())
        self.models.imported.connect(lambda role: self.local.refresh())
        self.pages = QTabWidget()
        self.pages.addTab(self._page(self._general(), self._claude()), "General")
        self.pages.addTab(self._models_page(), "Models")
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.local.refresh()
        self.models.refresh()

    @staticmethod
    def _page(*groups: QGroupBox) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        for group in groups:
            layout.addWidget(group)
        layout.addStretch(1)
        return page

    def _models_page(self) -> QWidget:
        """The local model that answers (with Fetch), then every model role (with Import…)."""
        local = QGroupBox("Local model")
        QVBoxLayout(local).addWidget(self.local)
        roles = QGroupBox("All models")
        QVBoxLayout(roles).addWidget(self.models)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(local)
        layout.addWidget(roles, 1)
        return page

    def _general(self) -> QGroupBox:
        group = QGroupBox("General")
        form = QFormLayout(group)
        form.addRow("Answers from", self.generator)
        form.addRow("Local model", self._local_row())
        form.addRow("Reranking", self.rerank)
        form.addRow("", self.rerank_answers)
        form.addRow("CPU threads", self.threads)
        form.addRow("Theme", self.theme)
        home = QLabel(str(self.engine.home))
        home.setToolTip("Index, settings, imported models and logs live here")
        open_home = QPushButton("Open")
        open_home.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.engine.home))))
        row = QHBoxLayout()
        row.addWidget(home, 1)
        row.addWidget(open_home)
        form.addRow("Data location", row)
        return group

    def _local_row(self) -> QHBoxLayout:
        """Which model writes local answers, and the way to the Models page that changes it."""
        name = QLabel("…")
        self.local.chosen.connect(name.setText)
        change = QPushButton("Change…")
        change.setToolTip("Choose, fetch or import the model on the Models page")
        change.clicked.connect(lambda: self.pages.setCurrentIndex(1))
        row = QHBoxLayout()
        row.addWidget(name, 1)
        row.addWidget(change)
        return row

    def _claude(self) -> QGroupBox:
        group = QGroupBox("Claude API key")
        row = QHBoxLayout(group)
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText("sk-ant-…  (stored in the system keyring)")
        self.key_button = QPushButton("Save key")
        self.key_button.clicked.connect(self.save_key)
        self.key_note = QLabel("")
        self.key_note.setObjectName("muted")
        row.addWidget(self.key, 1)
        row.addWidget(self.key_button)
        row.addWidget(self.key_note)
        if not secrets.keyring_available():
            self.key.setEnabled(False)
            self.key_button.setEnabled(False)
            self.key_note.setText("Needs keyring: pip install 'citeline[claude]'")
        return group

    def save_key(self) -> None:
        key = self.key.text().strip()
        self.key_note.setText("Saving…")
        self.tasks.read("saving the key", lambda job: secrets.store_key(key), then=self._key_saved)

    def _key_saved(self, job: Job) -> None:
        if job.state is State.DONE:
            self.key.clear()
            self.key_note.setText("Saved.")
        else:
            self.key_note.setText(f"{job.error} ({job.hint})" if job.hint else job.error)

    def chosen(self) -> Settings:
        update = {
            "generator": self.generator.currentData(),
            "rerank": self.rerank.currentData(),
            "rerank_answers": self.rerank_answers.isChecked(),
            "threads": self.threads.value(),
            "theme": self.theme.currentData(),
            "local_model": self.local.selected_role(),
        }
        return Settings.model_validate({**self.engine.settings.model_dump(), **update})

    def save(self) -> None:
        try:
            settings = self.chosen()
            settings.save(self.engine.home)  # a few hundred bytes of JSON
        except (ValueError, OSError, CiteError) as exc:
            self.error.setText(f"Could not save the settings: {exc}")
            return
        self.saved.emit(settings)  # the window's slot makes them the engine's (Engine.use_settings)
        self.accept()
