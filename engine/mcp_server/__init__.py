"""`citeline mcp`: a read-only Model Context Protocol server over the Engine.

Tools: search_kb, fetch_doc, list_kb_topics, check_staleness, ask. The server never adds, removes or rewrites
folders, and reads only files inside the watched folders that the index accepted (so secrets and ignored
files the scanner skipped stay unreadable). Paths are resolved (symlinks, "..") before they are checked.

    schemas.py   what the tools take and return (their JSON schemas)
    files.py     which paths a client may name; a document's numbered lines, capped
    results.py   engine values turned into results
    tools.py     KnowledgeBase: each tool as a few calls on the Engine facade
    server.py    the MCP SDK wiring and `serve`
"""

from engine.mcp_server.files import doc_text, glob_match, render_lines, resolve_inside, select_lines
from engine.mcp_server.server import build_server, serve
from engine.mcp_server.tools import KnowledgeBase

__all__ = [
    "KnowledgeBase",
    "build_server",
    "doc_text",
    "glob_match",
    "render_lines",
    "resolve_inside",
    "select_lines",
    "serve",
]
