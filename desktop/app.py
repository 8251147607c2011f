"""`citeline-desktop`: early checks, logging, one instance per data dir, then the window at once.

No model is loaded here: the engine is cheap to construct, and models load on first search or answer,
in worker threads. Tracebacks go to <data dir>/logs/citeline.log only. Quitting never waits long for a
worker (see _exit_now).
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # first thing: the start-up clock (interpreter boot is measured outside)

import argparse  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, NoReturn  # noqa: E402

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from desktop.single import SingleInstance
    from engine.api import Engine

log = logging.getLogger("citeline.desktop")


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="citeline-desktop", description="Citeline desktop app")
    parser.add_argument("--data-dir", help="data directory (default: CITELINE_HOME or the platform's)")
    return parser.parse_known_args(argv)


def early_problem() -> str | None:
    """What would stop the window from opening, in words, before Qt is loaded."""
    try:
        import PySide6  # noqa: F401
    except ImportError:
        return "The desktop app needs PySide6: pip install 'citeline[desktop]'"
    displays = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    if sys.platform.startswith("linux") and not any(os.environ.get(name) for name in displays):
        return (
            "No display found (DISPLAY and WAYLAND_DISPLAY are unset). On a headless machine use `citeline`."
        )
    return None


def main(argv: list[str] | None = None) -> int:
    args, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    problem = early_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from engine.settings import data_dir

    try:
        home = data_dir(args.data_dir)
    except OSError as exc:
        print(f"Cannot use the data directory: {exc}", file=sys.stderr)
        return 1
    from desktop.logs import install_excepthook, setup_logging

    setup_logging(home)
    install_excepthook()
    return _run(home, qt_args)


QT_LEVELS = {
    "QtDebugMsg": logging.DEBUG,
    "QtInfoMsg": logging.INFO,
    "QtWarningMsg": logging.WARNING,
    "QtCriticalMsg": logging.ERROR,
    "QtFatalMsg": logging.CRITICAL,
}


def _qt_message(mode: object, context: object, message: str) -> None:
    """Qt's own messages go to the log file at their level, not to a console the user never sees."""
    logging.getLogger("qt").log(QT_LEVELS.get(getattr(mode, "name", ""), logging.WARNING), "%s", message)


def _run(home: Path, qt_args: list[str]) -> int:
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.paths import APPLICATION, ORGANISATION, icon_path
    from desktop.single import SingleInstance, server_name

    app = QApplication([sys.argv[0], *qt_args])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setWindowIcon(QIcon(str(icon_path())))
    qInstallMessageHandler(_qt_message)
    guard = SingleInstance(server_name(home))
    if guard.forward():
        log.info("another window is open for %s; asked it to come forward", home)
        return 0
    guard.listen()
    from engine.api import Engine
    from engine.errors import CiteError

    try:
        engine = Engine(home)
    except CiteError as exc:
        QMessageBox.critical(None, "Citeline", f"{exc.message}\n\n{exc.hint}")
        return 1
    return _show(app, engine, guard)


def _show(app: QApplication, engine: Engine, guard: SingleInstance) -> int:
    from PySide6.QtCore import QTimer

    from desktop.compat import GuiThreadCollector
    from desktop.mainwindow import MainWindow
    from desktop.theme import apply_theme

    apply_theme(app, engine.settings.theme)
    collector = GuiThreadCollector()  # Qt objects are only ever collected on this thread
    window = MainWindow(engine)
    guard.activated.connect(window.bring_forward)
    window.first_shown.connect(lambda: QTimer.singleShot(0, _log_shown))  # after the first paint is queued
    window.show()
    code = app.exec()
    idle = window.shutdown()
    guard.close()
    collector.stop()
    if not idle:
        _exit_now(code)
    return code


def _exit_now(code: int) -> NoReturn:
    """End the process while a worker is still inside a call that cannot be interrupted (a model load,
    one long native call). Python joins every worker thread before it exits, so returning would keep the
    process, and with it the single-instance name, alive until that call ends: the window would be gone
    but the app would not quit, and a relaunch would only "bring forward" a hidden window. Nothing is
    left to save by then: settings are synced, the single-instance name is released, and an index write
    cut short is a transaction the next start rolls back. So flush the log and end the process now."""
    log.warning("quitting while a job is still running; not waiting for it")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _log_shown() -> None:
    log.info(
        "startup: window shown %.0f ms after desktop.app was imported (epoch %.3f)",
        (time.perf_counter() - STARTED) * 1000,
        time.time(),
    )


if __name__ == "__main__":
    sys.exit(main())
