"""Walk through the real window as a user would and save a screenshot of each stop.

    python -m desktop.walkthrough OUT_DIR [--generator extractive] [--files 2000] [--data-dir DIR]

Starts its own Xvfb server (1440x900) unless --display-ready is given (then it uses the current display,
e.g. under xvfb-run or on a desktop). Uses a throw-away data dir unless --data-dir is given; model files
come from CITELINE_MODEL_CACHE, else from the usual data dir's cache (--no-models: from an empty one, as on
a machine that has none). Stops, in order:

    01-welcome           the first run, no folders
    02-demo-answered     the demo folder indexed, an example question answered, its first citation shown
    03-search-results    keyword results for a query typed in the search box, the first one opened
    04-refusal           a question the demo cannot answer, its closest passage shown as not cited
    05-dark-switched     the same window the moment the theme turns dark (nothing reopened)
    05-dark-theme        the demo answer again in the dark theme
    06-shortcuts         the F1 sheet (dark)
    07-models            Settings → Models (dark)
    08-log               Help → Log after all this (dark)
    09-800x600           the window at 800x600 (light), an example question's start in the search box
    10-large-indexing    a folder of --files small files, mid-indexing (light, 800x600 then full size)
    11-removed-undo      that folder removed, its Undo offered (800x600)
    12-explorer          a small source tree (dotfiles, an SVG, a broken PDF) in the index explorer
    13-open-in-editor    Open in editor where no application opens the file (the fallback dialog)
    14-reading-scans     a folder of a text PDF and two scanned images (made with Pillow) while OCR reads them
    14-pdf-page          a question the PDF answers: its citation opened on its page, the span boxed
    15-ocr-image         a question a scanned image answers: OCR's line boxed on the image
    16-follow-up         a new conversation, then "and …?": the thread in the history pane, "searched: …"
    17-bad-names         file names that are not UTF-8 or hold a newline, escaped in the search results

--only GROUP[,GROUP] runs the first two stops (the demo is what the others ask) and then only these
groups: core (03-09), large (10-11), explorer (12-13), pages (14-15), thread (16), names (17).

Prints each file it saves, and what did not happen in time; exits 1 if any stop failed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

WIDTH, HEIGHT = 1440, 900
CHILD = "CITELINE_WALKTHROUGH_CHILD"  # set in the re-run under the walkthrough's own Xvfb
REFUSED_QUESTION = "What is the airspeed of an unladen swallow?"
SEARCH_QUERY = "restore laptop"
PDF_QUESTION = "How often must the boiler be serviced?"
OCR_QUESTION = "When was valve PSV-101 tested?"
THREAD_QUESTIONS = ("What does the Team plan cost per seat?", "and the Starter plan?")
NAMES_QUERY = "okapi ledger"
GROUPS = ("core", "large", "explorer", "pages", "thread", "names")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m desktop.walkthrough", description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder for the PNG files (created)")
    parser.add_argument("--generator", default="extractive", choices=["local", "claude", "extractive"])
    parser.add_argument("--files", type=int, default=2000, help="files in the large folder")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--display-ready", action="store_true", help="use $DISPLAY, start no Xvfb")
    parser.add_argument(
        "--no-models", action="store_true", help="an empty model cache (the missing-model case)"
    )
    parser.add_argument(
        "--only", type=groups, default=GROUPS, help=f"comma-separated groups of stops: {', '.join(GROUPS)}"
    )
    return parser.parse_args(argv)


def groups(text: str) -> tuple[str, ...]:
    chosen = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in chosen if name not in GROUPS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"groups are {', '.join(GROUPS)}; not {', '.join(unknown) or text!r}"
        )
    return chosen


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.display_ready or os.environ.get(CHILD):
        return Walkthrough(args).run()
    return under_xvfb(sys.argv[1:] if argv is None else argv)


@contextlib.contextmanager
def xvfb(width: int = WIDTH, height: int = HEIGHT) -> Iterator[str]:
    """A fresh Xvfb server for the block: yields its display (":N", the number coming back through
    -displayfd, so no free number is guessed), or "" when Xvfb did not start."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}" if number else ""
    finally:
        server.terminate()
        server.wait(10)


def under_xvfb(argv: list[str]) -> int:
    """Run this script again on a fresh Xvfb display."""
    with xvfb() as display:
        if not display:
            print("Xvfb did not start (apt-get install xvfb), or pass --display-ready", file=sys.stderr)
            return 1
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", CHILD: "1"})
        return subprocess.run(
            [sys.executable, "-m", "desktop.walkthrough", *argv], env=env, check=False
        ).returncode


def make_large_folder(root: Path, files: int) -> Path:
    """`files` small Markdown notes in 20 sub-folders: enough to watch the indexing progress."""
    for i in range(files):
        path = root / f"area{i % 20:02d}" / f"note{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = "\n".join(
            f"Entry {n} of note {i}: the heron survey counted {i * 7 + n} birds." for n in range(12)
        )
        path.write_text(f"# Note {i}\n\n{lines}\n", encoding="utf-8")
    return root


def make_source_tree(root: Path) -> Path:
    """What a small project holds besides its code: dotfiles that are text, an image, a marker file and
    a PDF that cannot be read."""
    files = {
        "README.md": "# Webapp\n\nA small web app. Run it with `flask run`; settings live in `.flaskenv`.\n",
        "src/webapp/__init__.py": '"""The web app factory."""\n\n\ndef create_app():\n    return None\n',
        "src/webapp/py.typed": "",
        ".gitignore": "__pycache__/\n*.pyc\n.venv/\n",
        ".flaskenv": "FLASK_APP=webapp\nFLASK_DEBUG=1\n",
        ".editorconfig": "root = true\n\n[*]\nindent_style = space\nindent_size = 4\n",
        "docs/logo.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"></svg>\n',
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "docs" / "guide.pdf").write_bytes(b"%PDF-1.4\n% truncated by a failed download\n")
    return root


def make_manuals(root: Path, scans: bool = True) -> Path:
    """A boiler manual with a text layer (three pages, the service interval low on page 2) and, with
    `scans`, two scanned notes with no text at all, as a phone or a scanner saves them: PNGs of lines."""
    from engine.eval.ocrset import PageSpec, TextRun, text_pdf

    root.mkdir(parents=True, exist_ok=True)
    body = [
        ("Boiler manual", "Installation, use and care of the wall-mounted gas boiler."),
        ("Servicing", "Keep the area around the boiler clear and the flue unobstructed."),
        ("Faults", "A flashing red light means the pressure is below 0.8 bar."),
    ]
    pages = [
        PageSpec([TextRun(title, 72, 90, "Helvetica", 18), TextRun(line, 72, 130, "Times-Roman", 12)], "", "")
        for title, line in body
    ]
    pages[1].runs.append(
        TextRun(
            "The boiler must be serviced every 12 months by a registered engineer.",
            72,
            560,
            "Times-Roman",
            12,
        )
    )
    (root / "boiler-manual.pdf").write_bytes(text_pdf(pages))
    images = {
        "pump-room-log.png": [
            "Pump room maintenance log",
            "Pump P-3 serviced on 12 May, seals replaced",
            "Valve PSV-101 tested in March, no leaks found",
            "Next inspection due after 600 running hours",
        ],
        "delivery-note.png": [
            "Delivery note 4471",
            "Two filter cartridges, model FX-20",
            "Signed by the caretaker",
        ],
    }
    for name, lines in images.items() if scans else ():
        (root / name).write_bytes(scanned_lines(lines))
    return root


def scanned_lines(lines: list[str], width: int = 1000, size: int = 30) -> bytes:
    """Black lines of text on white, as a PNG (Pillow's built-in font)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=size)
    image = Image.new("RGB", (width, 80 + len(lines) * size * 2), "white")
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw.text((40, 40 + index * size * 2), line, font=font, fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def make_bad_names(root: Path) -> Path:
    """Files whose names are not valid UTF-8 or hold a newline or a control character: the names of the
    hostile set (tests/hostile/cases.py), written here because desktop/ ships without tests/."""
    root.mkdir(parents=True, exist_ok=True)
    for name in (b"bad\xffname.md", b"new\nline.md", b"tab\tand\x01ctl.txt", b"\xe9t\xe9-latin1.md"):
        text = b"The okapi ledger lists " + name.replace(b"\n", b" ") + b" as its source.\n"
        (root / os.fsdecode(name)).write_bytes(text)
    return root


class Walkthrough:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.failures: list[str] = []

    def run(self) -> int:
        from PySide6.QtWidgets import QApplication

        from desktop.compat import GuiThreadCollector
        from desktop.logs import setup_logging
        from desktop.mainwindow import MainWindow
        from desktop.theme import apply_theme
        from engine.api import Engine

        home = self.args.data_dir or Path(tempfile.mkdtemp(prefix="citeline-walkthrough-"))
        self.use_model_cache(home)
        setup_logging(home)
        self.app = QApplication(sys.argv[:1])
        self.collector = GuiThreadCollector()
        apply_theme(self.app, "light")
        engine = Engine(home)
        engine.settings = engine.settings.model_copy(update={"generator": self.args.generator})
        self.window = MainWindow(engine)
        self.window.move(0, 0)
        self.window.resize(1280, 800)
        self.window.show()
        try:
            self.stops()
        finally:
            self.window.shutdown()
        for failure in self.failures:
            print(f"FAILED: {failure}")
        return 1 if self.failures else 0

    def use_model_cache(self, home: Path) -> None:
        """A throw-away data dir has no models of its own: use the usual data dir's cache, as the app
        would (or an empty one with --no-models)."""
        from engine.settings import data_dir, model_cache_dir

        if self.args.no_models:
            os.environ["CITELINE_MODEL_CACHE"] = str(home / "no-models")
        elif not os.environ.get("CITELINE_MODEL_CACHE"):
            os.environ["CITELINE_MODEL_CACHE"] = str(model_cache_dir(data_dir()))

    # -- the stops ------------------------------------------------------------------------------------
    def stops(self) -> None:
        w = self.window
        if self.wait("the welcome page", lambda: w.stack.currentWidget() is w.welcome):
            self.shot("01-welcome")
        w.welcome.demo_button.click()
        if self.wait("the demo indexed", lambda: self.idle() and w.examples.isVisible(), 180):
            self.answer(self.first_example(), "02-demo-answered")
        steps: dict[str, list[Callable[[], None]]] = {
            "core": [self.core],
            "large": [self.large_folder, self.remove_large_folder],
            "explorer": [self.explorer, self.open_in_editor],
            "pages": [self.pages],
            "thread": [self.thread],
            "names": [self.bad_names],
        }
        for group in GROUPS:
            if group in self.args.only:
                for step in steps[group]:
                    step()

    def core(self) -> None:
        from desktop.theme import apply_theme

        w = self.window
        self.search(SEARCH_QUERY, "03-search-results")
        self.answer(REFUSED_QUESTION, "04-refusal")
        apply_theme(self.app, "dark")
        self.settle()
        self.shot("05-dark-switched")
        self.answer(self.first_example(), "05-dark-theme")
        self.dialogs()
        apply_theme(self.app, "light")
        w.resize(800, 600)
        self.answer(self.window.examples.questions[-1], "09-800x600")

    def first_example(self) -> str:
        return self.window.examples.questions[0]

    def answer(self, question: str, name: str | None, also: Callable[[], bool] | None = None) -> None:
        """Ask as a user would (the box, then Enter's path) and wait for the preview the window opens by
        itself: the answer's first citation, or a refusal's closest passage (and `also`, when given); then
        save it as `name` (None: a step towards a stop, no picture)."""
        w = self.window
        states: list[object] = []
        w.answer.answered.connect(states.append)
        w.focus_search()
        w.search.set_query(question)
        w.ask(question)
        ok = self.wait(f"the answer to {question!r}", lambda: bool(states), 300)
        w.answer.answered.disconnect(states.append)
        if not ok:
            return

        def shown() -> bool:  # what the window opened once the answer was done, loaded and marked
            preview = w.preview
            loaded = preview.target is not None and not preview.where.text().endswith("loading…")
            return (loaded and preview.view.extraSelections() != []) or w.answer.evidence.count() == 0

        self.wait("the preview of the answer", shown, 30)
        if also is not None:
            self.wait(f"what {name or question!r} shows", also, 30)
        self.settle()
        if name is not None:
            self.shot(name)

    def search(self, query: str, name: str) -> None:
        w = self.window
        counts: list[int] = []
        w.search.results_shown.connect(counts.append)
        w.focus_search()
        w.search.set_query(query)
        if self.wait(f"results for {query!r}", lambda: bool(counts) and counts[-1] > 0, 30):
            shown: list[object] = []  # the first result opened: its words marked in the preview too
            w.preview.shown.connect(shown.append)
            w.search.results.setCurrentRow(0)
            w.search.results.itemActivated.emit(w.search.results.item(0))
            self.wait("the first result in the preview", lambda: bool(shown), 30)
            w.preview.shown.disconnect(shown.append)
            self.settle()
            self.shot(name)
        w.search.results_shown.disconnect(counts.append)

    def dialogs(self) -> None:
        from desktop.widgets.dialogs import LogViewer, ShortcutSheet
        from desktop.widgets.settings import SettingsDialog

        w = self.window
        w.show_shortcuts()
        sheet = w.findChild(ShortcutSheet)
        if sheet is not None and self.wait("the shortcut sheet", sheet.isVisible):
            self.settle()
            self.shot("06-shortcuts", sheet)
            sheet.close()
        settings = SettingsDialog(w.engine, w.tasks, w)
        settings.show()
        settings.pages.setCurrentIndex(1)
        tree = settings.models.tree
        if self.wait("the model list", lambda: tree.topLevelItemCount() > 0, 60):
            self.settle()
            self.shot("07-models", settings)
        settings.close()
        w.show_log()
        viewer = w.findChild(LogViewer)
        if viewer is not None and self.wait("the log", lambda: "question" in viewer.text.toPlainText()):
            self.settle()
            self.shot("08-log", viewer)
            viewer.close()

    def large_folder(self) -> None:
        w = self.window
        w.resize(800, 600)
        root = Path(tempfile.mkdtemp(prefix="citeline-large-")) / "survey notes"
        started = time.monotonic()
        make_large_folder(root, self.args.files)
        print(f"made {self.args.files} files in {time.monotonic() - started:.1f} s")
        w.add_paths([root])
        key = str(root.resolve())

        def midway() -> bool:
            view = w.indexing.views.get(key)
            return view is not None and view.state == "indexing" and 15 <= view.percent <= 70

        if self.wait("the large folder mid-indexing", midway, 120, poll_ms=20):
            self.shot("10-large-indexing-800x600")
            w.resize(1280, 800)
            self.settle(200)
            self.shot("10-large-indexing")
        self.large = key

    def remove_large_folder(self) -> None:
        """Through the panel, as a user: select it, Remove, confirm; the Undo bar is then offered."""
        from PySide6.QtWidgets import QMessageBox

        w = self.window
        w.resize(800, 600)
        tree = w.folders.tree
        rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        row = next((r for r in rows if r is not None and r.toolTip(0) == getattr(self, "large", "")), None)
        if row is None:
            self.failures.append("the large folder is not in the list")
            return
        tree.setCurrentItem(row)
        w.folders.remove_button.click()
        box = w.folders.confirm
        if box is None or not self.wait("the removal question", box.isVisible):
            return
        self.settle(200)
        self.shot("11-remove-confirm", box)
        remove = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)
        remove.click()
        if self.wait("the Undo bar", w.folders.undo_bar.isVisible):
            self.settle()
            self.shot("11-removed-undo")

    def explorer(self) -> None:
        """A source tree's usual files: text dotfiles indexed, an image and a marker file skipped, a
        broken PDF failed, each with its reason."""
        from desktop.widgets.explorer import IndexExplorer

        w = self.window
        w.resize(1280, 800)
        root = make_source_tree(Path(tempfile.mkdtemp(prefix="citeline-tree-")) / "webapp")
        key = str(root.resolve())
        w.add_paths([root])

        def ready() -> bool:
            view = w.indexing.views.get(key)
            return view is not None and view.state == "watching" and self.idle()

        if not self.wait("the source tree indexed", ready, 120):
            return
        tree = w.folders.tree
        rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        tree.setCurrentItem(next(r for r in rows if r is not None and r.toolTip(0) == key))
        w.show_explorer()
        found = w.findChildren(IndexExplorer)
        explorer = found[-1] if found else None
        if explorer is not None and self.wait(
            "the explorer's list", lambda: explorer.tree.topLevelItemCount() > 0
        ):
            self.settle()
            self.shot("12-explorer", explorer)
            explorer.close()

    def open_in_editor(self) -> None:
        from desktop.widgets.editor import EditorFallback
        from desktop.widgets.preview import SourceTarget

        w = self.window
        if w.preview.target is None:  # no answer opened one (no evidence without models): open a file
            shown: list[object] = []
            w.preview.shown.connect(shown.append)
            w.preview.open_target(SourceTarget(str(w.engine.home / "demo" / "README.md")))
            self.wait("a source in the preview", lambda: bool(shown))
            w.preview.shown.disconnect(shown.append)
        if w.preview.open_in_editor():
            print("an application opened the file: no fallback dialog to show")
            return
        dialog = w.findChild(EditorFallback)
        if dialog is not None and self.wait("the fallback dialog", dialog.isVisible):
            self.settle()
            self.shot("13-open-in-editor", dialog)
            dialog.close()

    def pages(self) -> None:
        """A PDF with a text layer and two scans: the folder while OCR reads the scans, then a citation of
        each kind opened on its page with the span boxed."""
        from desktop.indexing import READING_SCANS
        from engine.api import ocr_available

        w = self.window
        w.resize(1280, 800)
        missing = ocr_available()
        if missing is not None:
            print(f"OCR is not installed ({missing}): no 14-reading-scans, no 15-ocr-image")
        root = make_manuals(Path(tempfile.mkdtemp(prefix="citeline-manuals-")) / "manuals", missing is None)
        key = str(root.resolve())
        w.add_paths([root])

        def state() -> str:
            view = w.indexing.views.get(key)
            return "" if view is None else view.state

        if missing is None and self.wait("the scans being read", lambda: state() == READING_SCANS, 120, 20):
            self.shot("14-reading-scans")
        if not self.wait("the manuals indexed", lambda: state() == "watching" and self.idle(), 180):
            return
        self.answer(PDF_QUESTION, "14-pdf-page", lambda: self.boxed("boiler-manual.pdf"))
        if missing is None:
            self.answer(OCR_QUESTION, "15-ocr-image", lambda: self.boxed("pump-room-log.png"))

    def boxed(self, name: str) -> bool:
        """The page view shows `name` with the cited span boxed."""
        pages = self.window.preview.pages
        request, span = pages.request, pages.span
        return (
            request is not None
            and Path(request.path).name == name
            and span is not None
            and bool(span.boxes)
            and pages.page == span.page
        )

    def thread(self) -> None:
        """A new conversation, a question, and a follow-up that leans on it ("and …?")."""
        w = self.window
        w.resize(1280, 800)
        w.history.new_conversation()
        first, follow = THREAD_QUESTIONS
        self.answer(first, None)

        def threaded() -> bool:  # the follow-up's line, and both questions listed under the thread
            return w.answer.searched.isVisible() and w.history.turn_list.count() == 2

        self.answer(follow, "16-follow-up", threaded)

    def bad_names(self) -> None:
        w = self.window
        w.resize(1280, 800)
        root = make_bad_names(Path(tempfile.mkdtemp(prefix="citeline-names-")) / "ledger")
        key = str(root.resolve())
        w.add_paths([root])

        def ready() -> bool:
            view = w.indexing.views.get(key)
            return view is not None and view.state == "watching" and self.idle()

        if self.wait("the bad names indexed", ready, 120):
            self.search(NAMES_QUERY, "17-bad-names")

    # -- helpers --------------------------------------------------------------------------------------
    def idle(self) -> bool:
        return not self.window.tasks.active()

    def wait(self, what: str, done: Callable[[], bool], timeout_s: float = 20, poll_ms: int = 50) -> bool:
        """Run the event loop until `done()` or the timeout; a timeout is recorded as a failed stop."""
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(poll_ms)
        timer.timeout.connect(lambda: loop.quit() if done() else None)
        deadline = QTimer()
        deadline.setSingleShot(True)
        deadline.timeout.connect(loop.quit)
        timer.start()
        deadline.start(int(timeout_s * 1000))
        if not done():
            loop.exec()
        timer.stop()
        if done():
            return True
        self.failures.append(f"{what} did not happen within {timeout_s:.0f} s")
        return False

    def settle(self, ms: int = 400) -> None:
        """Let layout and paint catch up (and the throttled progress tick) before a grab."""
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def shot(self, name: str, widget: object = None) -> None:
        from PySide6.QtWidgets import QWidget

        target = widget if isinstance(widget, QWidget) else self.window
        path = self.args.out / f"{name}.png"
        size = target.size()
        if target.grab().save(str(path)):
            print(f"saved {path} ({size.width()}x{size.height()})")
        else:
            self.failures.append(f"could not write {path}")


if __name__ == "__main__":
    sys.exit(main())
