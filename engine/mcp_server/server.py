"""The MCP server's wiring: five tools over a KnowledgeBase, on stdio or streamable HTTP. All are read-only
but ask, which keeps a thread's turns when given a thread (the folders are never written).

Every failure a user can cause (unknown path, path outside the folders, empty index, missing model, index
in use) reaches the client as a tool error carrying the CiteError message and hint; the server keeps going.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from engine import __version__
from engine.errors import CiteError, MissingDependency
from engine.mcp_server.schemas import (
    AgeArg,
    AnswerOut,
    CharArg,
    DocText,
    FolderArg,
    GlobArg,
    LineArg,
    PageArg,
    PathArg,
    Query,
    QuestionArg,
    SearchOut,
    Staleness,
    ThreadArg,
    Topics,
    TopK,
)
from engine.mcp_server.tools import KnowledgeBase

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

T = TypeVar("T")

INSTRUCTIONS = """Citeline: search and cited answers over the user's private folders, offline and read-only.
Start with search_kb; open the lines around a hit with fetch_doc(path, start_line, end_line) (give page for a
PDF). Cite as path:start_line-end_line. Before relying on a policy or decision record, call check_staleness:
a newer version may supersede it. ask returns a verified cite-or-refuse answer; a refusal means the folders do
not support an answer. list_kb_topics shows what the folders hold."""


def build_server(kb: KnowledgeBase) -> MCPServer[Any]:
    """The MCP server with its five tools over `kb` (ask with a thread keeps its turns)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:
        raise _mcp_unusable() from exc

    server: MCPServer[Any] = MCPServer(
        "citeline", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    read_only = ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )

    def guarded(call: Callable[[], T]) -> T:
        try:
            return call()
        except CiteError as exc:
            raise ToolError(str(exc)) from exc
        except OSError as exc:
            raise ToolError(f"{exc.filename or 'file'}: {exc.strerror or exc}") from exc

    @server.tool(annotations=read_only)
    def search_kb(
        query: Query, k: TopK = 5, folder: FolderArg = None, file_glob: GlobArg = None
    ) -> SearchOut:
        """Search the indexed folders. Returns ranked chunks with path, line range (and PDF page), heading
        or code symbol, a snippet, the chunk text and the ranking scores. Mode is hybrid (BM25 + embeddings,
        fused by RRF, the top 20 reordered by the second stage set in Citeline, MaxSim by default) when
        embeddings exist, else keyword; the result says which."""
        return guarded(lambda: kb.search(query, k, folder, file_glob))

    @server.tool(annotations=read_only)
    def fetch_doc(
        path: PathArg,
        start_line: LineArg = None,
        end_line: LineArg = None,
        page: PageArg = None,
        start_char: CharArg = 0,
    ) -> DocText:
        """Read an indexed file from a watched folder, whole or a line range, as numbered lines (the numbers
        citations use). PDF and DOCX are shown as extracted text, PDFs with page markers. Output is capped at
        200 KB; when truncated, continue from next_start_line (and next_page; next_start_char within a line
        longer than that)."""
        return guarded(lambda: kb.fetch(path, start_line, end_line, page, start_char))

    @server.tool(annotations=read_only)
    def list_kb_topics() -> Topics:
        """The watched folders and what they hold: file counts by status, top-level sub-folders, file types,
        and the top headings of Markdown files. Use it to learn what can be asked."""
        return guarded(kb.topics)

    @server.tool(annotations=read_only)
    def check_staleness(path: PathArg, max_age_days: AgeArg = 30) -> Staleness:
        """Is this file current? Its age, when it was indexed, and whether a newer version supersedes it:
        explicit markers ("supersedes", "superseded by", "replaces", Status: superseded), versions (v2,
        version 3) and years in names, "Effective"/"Last updated" dates, DRAFT, and sibling files of the same
        folder whose names share a stem (leave.md vs leave_2023.md)."""
        return guarded(lambda: kb.staleness(path, max_age_days))

    # Not read-only: in a thread it keeps the question and its answer (the folders are never touched).
    keeps_turns = ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
    )

    @server.tool(annotations=keeps_turns)
    def ask(question: QuestionArg, thread: ThreadArg = None) -> AnswerOut:
        """Answer from the folders with citations (path, lines, quote) for every sentence, or refuse when the
        evidence does not support an answer (refused=true). Conflicting sources are listed with which is
        current. Slower than search_kb: it runs the answer model. Give thread to ask follow-ups in a kept
        conversation: the answer returns its thread_id and the standalone question it searched."""
        return guarded(lambda: kb.ask(question, thread))

    return server


def _mcp_unusable() -> CiteError:
    """Why the SDK did not import: absent, or a 1.x release (this server uses the 2.x MCPServer API)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp")
    except PackageNotFoundError:
        return MissingDependency("mcp", "mcp")
    if re.match(r"[01]\.", found):
        return CiteError(
            f"mcp {found} is installed; `citeline mcp` needs mcp 2.", "run: pip install -U 'mcp>=2'"
        )
    return MissingDependency("mcp", "mcp")


def serve(
    home: str | os.PathLike[str] | None = None, http_port: int | None = None, idle_release_s: float = 5.0
) -> int:
    """Run the server on stdio, or streamable HTTP on 127.0.0.1:http_port; returns when the client leaves."""
    kb = KnowledgeBase(home, idle_release_s)
    try:
        server = build_server(kb)
        if http_port is None:
            server.run("stdio")
        else:
            if not 0 < http_port < 65536:
                raise CiteError(f"Bad port {http_port}.", "give a port between 1 and 65535")
            server.run("streamable-http", host="127.0.0.1", port=http_port)
    finally:
        kb.close()
    return 0
