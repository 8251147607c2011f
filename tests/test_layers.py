"""The house's doors: front-ends reach the engine through engine.api and its public types only.

Imports are read with `ast` (nothing is imported), so a lazy import inside a function counts as much as
one at the top. docs/architecture.md draws the same picture; change both together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

# What a front-end may import of the engine: the facade and the public types it hands out.
PUBLIC = frozenset({"engine", "engine.api", "engine.events", "engine.errors", "engine.settings"})
# engine.eval is a tool over the engine (it drives an Engine like any caller), which the CLI runs;
# engine.progress prints IndexProgress events on a terminal; the MCP server's own package imports itself.
ALLOWED = {
    "engine/cli.py": PUBLIC | {"engine.eval", "engine.progress", "engine.mcp_server"},
    "engine/mcp_server": PUBLIC | {"engine.mcp_server"},
    "desktop": PUBLIC,
}
# A developer tool inside a front-end's folder may use what the CLI's tools use to build its fixtures.
EXTRA = {"desktop/walkthrough.py": frozenset({"engine.eval"})}
INTERNAL = ("engine", "models")  # top-level packages a front-end must not reach into past the door


def front_end_files() -> Iterator[tuple[Path, frozenset[str]]]:
    for where, allowed in ALLOWED.items():
        path = REPO / where
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            yield file, frozenset(allowed) | EXTRA.get(file.relative_to(REPO).as_posix(), frozenset())


def imported_modules(file: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for every absolute import in a file; `from engine import api` yields engine.api."""
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in ("engine", "models"):
                yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
            else:
                yield node.lineno, node.module


def allows(module: str, allowed: frozenset[str]) -> bool:
    if module.split(".")[0] not in INTERNAL:
        return True  # the standard library, Qt, third parties, desktop's own modules
    if module == "engine.__version__":
        return True
    return any(module == ok or (ok != "engine" and module.startswith(ok + ".")) for ok in allowed)


def test_front_ends_use_the_facade_only() -> None:
    crossings = [
        f"{file.relative_to(REPO)}:{line} imports {module}"
        for file, allowed in front_end_files()
        for line, module in imported_modules(file)
        if not allows(module, allowed)
    ]
    assert crossings == [], "past the facade (use or extend engine/api.py):\n" + "\n".join(crossings)


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    """The rule itself: these would be caught, these pass."""
    file = tmp_path / "probe.py"
    file.write_text(
        "from engine.store.catalog import FileRow\nimport models.locator\nfrom engine import indexer\n"
        "def f():\n    from engine.ingest.watcher import FolderWatcher\n"
        "from engine.api import Engine\nfrom engine import __version__\nimport engine\n"
        "from PySide6 import QtCore\n",
        encoding="utf-8",
    )
    caught = [m for _, m in imported_modules(file) if not allows(m, PUBLIC)]
    assert caught == ["engine.store.catalog", "models.locator", "engine.indexer", "engine.ingest.watcher"]


def test_the_engine_never_imports_a_front_end() -> None:
    crossings = [
        f"{file.relative_to(REPO)}:{line} imports {module}"
        for file in sorted((REPO / "engine").rglob("*.py"))
        if "mcp_server" not in file.parts and file.name != "cli.py"
        for line, module in imported_modules(file)
        if module.split(".")[0] in ("desktop", "PySide6")
        or module.startswith("engine.mcp_server")
        or module == "engine.cli"
    ]
    assert crossings == []


# Inside the engine, arrows point down: the answer pipeline uses generators, retrieval and stores; the
# layers below it never reach up into engine.answer (shared types live in engine.events, text helpers in
# engine.text, prompts and packing beside the generators that use them).
BELOW_ANSWER = (
    "engine/backends",
    "engine/retrieve",
    "engine/store",
    "engine/ingest",
    "engine/text.py",
    "engine/events.py",
)


def test_layers_below_the_answer_pipeline_never_import_it() -> None:
    crossings = [
        f"{file.relative_to(REPO)}:{line} imports {module}"
        for where in BELOW_ANSWER
        for file in ([REPO / where] if (REPO / where).is_file() else sorted((REPO / where).rglob("*.py")))
        for line, module in imported_modules(file)
        if module == "engine.answer" or module.startswith("engine.answer.")
    ]
    assert crossings == [], "an arrow pointing up:\n" + "\n".join(crossings)
