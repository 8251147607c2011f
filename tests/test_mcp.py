"""The MCP server: the path guard and rendering in-process, then every tool end to end over stdio
with the SDK's real client, against a real index of a real folder (DuckDB, Tantivy, the ONNX embedder)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.api import Engine
from engine.errors import CiteError
from engine.events import Line
from engine.mcp_server import (
    KnowledgeBase,
    doc_text,
    glob_match,
    render_lines,
    resolve_inside,
    select_lines,
)
from tests.conftest import REPO, write
from tests.test_extract import make_pdf

# ---------------------------------------------------------------------------------------------- paths


def test_resolve_inside_refuses_escapes(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    inside = write(root, "docs/a.md", "# A\n")
    secret = write(tmp_path, "outside/secret.txt", "classified\n")
    (root / "docs" / "link.txt").symlink_to(secret)
    (root / "docs" / "dirlink").symlink_to(secret.parent, target_is_directory=True)
    roots = [root.resolve()]
    assert resolve_inside(str(inside), roots) == inside.resolve()
    assert resolve_inside("docs/a.md", roots) == inside.resolve()
    assert resolve_inside(str(root / "docs" / ".." / "docs" / "a.md"), roots) == inside.resolve()
    for raw in (
        str(secret),
        "../outside/secret.txt",
        str(root / ".." / "outside" / "secret.txt"),
        "docs/link.txt",
        "docs/dirlink/secret.txt",
        "/etc/passwd",
    ):
        with pytest.raises(CiteError, match="outside the watched folders"):
            resolve_inside(raw, roots)
    with pytest.raises(CiteError, match="does not exist"):
        resolve_inside("docs/missing.md", roots)
    with pytest.raises(CiteError, match="No folder is watched"):
        resolve_inside("docs/a.md", [])


def test_glob_match(tmp_path: Path) -> None:
    roots = [tmp_path]
    assert glob_match("*.md", tmp_path / "docs" / "a.md", roots)
    assert not glob_match("*.md", tmp_path / "a.py", roots)
    assert glob_match("docs/*.md", tmp_path / "docs" / "deep" / "a.md", roots)
    assert not glob_match("src/*.md", tmp_path / "docs" / "a.md", roots)


# ------------------------------------------------------------------------------------------ rendering


def test_render_caps_at_whole_lines_and_says_where_to_go_on(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    data = "".join(f"line {n} " + "x" * 90 + "\n" for n in range(1, 501)).encode()
    out = doc_text(path, data, None, None, None, cap=10_000)
    assert out.truncated and out.start_line == 1 and out.end_line is not None
    assert out.next_start_line == out.end_line + 1
    assert len(out.text.encode()) <= 10_000 and out.text.endswith("\n")
    assert out.text.splitlines()[-1].startswith(f"{out.end_line}\tline {out.end_line} ")
    assert render_lines([Line("short", 7)]) == ("7\tshort\n", 1, False, None)


def test_a_line_longer_than_the_cap_is_paged_in_pieces(tmp_path: Path) -> None:
    line = "".join(f"{n:06d}é" for n in range(40_000))  # one 280,000-character line, some 2-byte UTF-8
    data = ("head\n" + line + "\ntail\n").encode()
    pieces, start_char = [], 0
    while True:
        out = doc_text(tmp_path / "one.txt", data, 2, 2, None, cap=50_000, start_char=start_char)
        assert len(out.text.encode()) <= 50_000 and out.start_line == 2
        pieces.append(out.text.removeprefix("2\t").removesuffix("\n"))
        if out.next_start_char is None:
            break
        assert out.truncated and out.next_start_line == 2 and out.next_start_char > start_char
        start_char = out.next_start_char
    assert "".join(pieces) == line and len(pieces) > 5


def test_pdf_ranges_need_a_page() -> None:
    lines = [Line("a", 1, 1), Line("b", 2, 1), Line("c", 1, 2)]
    assert [x.text for x in select_lines(lines, 1, 1, 2)] == ["c"]
    assert [x.text for x in select_lines(lines, None, None, None)] == ["a", "b", "c"]
    with pytest.raises(CiteError, match="within a page"):
        select_lines(lines, 1, 2, None)
    with pytest.raises(CiteError, match="no page 3"):
        select_lines(lines, None, None, 3)
    with pytest.raises(CiteError, match="past the end"):
        select_lines([Line("a", 1)], 5, None, None)
    with pytest.raises(CiteError, match="Bad line range"):
        select_lines([Line(str(n), n) for n in range(1, 6)], 3, 2, None)


# -------------------------------------------------------------------------------------- a real index

DEPLOY = (
    "# Deploying\n\nWe deploy with the **zebracorn pipeline** every Tuesday.\n\n## Rollback\n\n"
    "To roll back, run `make rollback` and notify the on-call engineer.\n"
)
PTO_OLD = "# PTO Policy\nLast updated: 2021-03-01\n\nEmployees accrue 15 days of paid leave per year.\n"
PTO_NEW = (
    "# PTO Policy 2023\nEffective: January 1, 2023\n\nThis policy supersedes pto_policy.md.\n"
    "Employees accrue 25 days of paid leave per year.\n"
)
ADR_OLD = "# ADR-003: Database migration\nStatus: Accepted\n\nWe migrate the ledger to Postgres 12.\n"
ADR_NEW = "# ADR-003 v2: Database strategy\nSupersedes ADR-003.\n\nWe keep the ledger in DuckDB instead.\n"


@pytest.fixture
def kb_folder(tmp_path: Path) -> Path:
    import docx

    root = tmp_path / "kb"
    write(root, "docs/deploy.md", DEPLOY)
    write(root, "policies/pto_policy.md", PTO_OLD)
    write(root, "policies/pto_policy_2023.md", PTO_NEW)
    write(root, "adr/adr_003_database_migration.md", ADR_OLD)
    write(root, "adr/adr_003_v2_database_strategy.md", ADR_NEW)
    write(root, "src/billing.py", "def computeInvoiceTotal(items):\n    return sum(i.price for i in items)\n")
    write(root, ".env", "SECRET_TOKEN=hunter2\n")
    (root / "docs" / "manual.pdf").write_bytes(
        make_pdf([["Quokka maintenance manual", "Oil the gears monthly."], ["Appendix", "Torque is 40 Nm."]])
    )
    document = docx.Document()
    document.add_heading("Aurora checklist", level=1)
    document.add_paragraph("Check the aurora lamps before each night shift.")
    document.save(str(root / "docs" / "checklist.docx"))
    secret = write(tmp_path, "outside/secret.txt", "classified launch codes\n")
    (root / "docs" / "escape.txt").symlink_to(secret)
    return root


def index(home: Path, folder: Path) -> None:
    engine = Engine(home)
    try:
        engine.add_folder(folder)
        engine.run(engine.sync())
    finally:
        engine.close()
    (home / "settings.json").write_text('{"generator": "extractive", "threads": 1}', encoding="utf-8")


def test_a_missing_sdk_is_an_actionable_error(citeline_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.errors import MissingDependency
    from engine.mcp_server import build_server

    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    kb = KnowledgeBase(citeline_home, idle_release_s=0)
    try:
        with pytest.raises(MissingDependency, match="mcp") as caught:
            build_server(kb)
        assert "citeline[mcp]" in caught.value.hint
    finally:
        kb.close()


# ----------------------------------------------------------------------------------- over stdio, for real

Session = Any  # mcp.ClientSession; mcp is an optional extra


@asynccontextmanager
async def connect(home: Path, log: Path, *extra: str) -> AsyncIterator[Session]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    env = {"CITELINE_HOME": str(home), "CITELINE_MODEL_CACHE": os.environ["CITELINE_MODEL_CACHE"]}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "engine.cli", "mcp", *extra], env=env, cwd=str(REPO)
    )
    with log.open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write_),
            ClientSession(read, write_) as session,
        ):
            await session.initialize()
            yield session


def run(home: Path, log: Path, scenario: Callable[[Session], Awaitable[None]], *extra: str) -> None:
    async def main() -> None:
        async with connect(home, log, *extra) as session:
            await scenario(session)

    try:
        asyncio.run(main())
    except BaseException:
        print(log.read_text(encoding="utf-8"), file=sys.stderr)
        raise


async def call(session: Session, tool: str, **args: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    data: dict[str, Any] = result.structured_content
    return data


async def refused(session: Session, tool: str, **args: Any) -> str:
    result = await session.call_tool(tool, args)
    assert result.is_error, result.structured_content
    text: str = result.content[0].text
    return text


def lines_of(path: Path, start: int, end: int) -> str:
    return "\n".join(path.read_text(encoding="utf-8").splitlines()[start - 1 : end])


@pytest.mark.slow
@pytest.mark.models
def test_every_tool_over_stdio(citeline_home: Path, kb_folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    index(citeline_home, kb_folder)
    root = kb_folder.resolve()

    async def scenario(session: Session) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"search_kb", "fetch_doc", "list_kb_topics", "check_staleness", "ask"}
        for tool in tools.values():
            # ask keeps a thread's turns when given one: the other four are read-only
            assert tool.description and tool.output_schema
            assert tool.annotations.read_only_hint == (tool.name != "ask")
            for prop in tool.input_schema.get("properties", {}).values():
                assert prop.get("description")
        assert tools["search_kb"].input_schema["required"] == ["query"]

        found = await call(session, "search_kb", query="zebracorn pipeline", k=3)
        assert found["mode"] == "hybrid" and len(found["hits"]) <= 3
        top = found["hits"][0]
        assert top["path"] == str(root / "docs/deploy.md") and top["heading"].startswith("Deploying")
        assert "zebracorn" in lines_of(root / "docs/deploy.md", top["start_line"], top["end_line"])
        assert top["lexical_rank"] == 1 and top["vector_rank"] is not None
        only_py = await call(session, "search_kb", query="invoice total", file_glob="*.py")
        assert [Path(h["path"]).name for h in only_py["hits"]] == ["billing.py"]
        in_adr = await call(session, "search_kb", query="ledger", folder=str(root / "adr"))
        assert {Path(h["path"]).parent.name for h in in_adr["hits"]} == {"adr"}

        text = await call(session, "fetch_doc", path=top["path"], start_line=3, end_line=5)
        assert text["text"] == f"3\t{DEPLOY.splitlines()[2]}\n4\t\n5\t## Rollback\n"
        assert (text["start_line"], text["end_line"], text["truncated"]) == (3, 5, False)
        whole = await call(session, "fetch_doc", path="docs/deploy.md")
        assert whole["total_lines"] == len(DEPLOY.splitlines()) and not whole["truncated"]
        pdf = await call(session, "fetch_doc", path="docs/manual.pdf")
        assert pdf["format"] == "pdf" and pdf["pages"] == 2
        assert "--- page 1 ---\n1\tQuokka maintenance manual\n" in pdf["text"]
        assert "--- page 2 ---\n1\tAppendix\n2\tTorque is 40 Nm.\n" in pdf["text"]
        page2 = await call(session, "fetch_doc", path="docs/manual.pdf", page=2, start_line=2, end_line=2)
        assert page2["text"] == "--- page 2 ---\n2\tTorque is 40 Nm.\n"
        word = await call(session, "fetch_doc", path="docs/checklist.docx")
        assert word["format"] == "docx" and "Check the aurora lamps" in word["text"]

        topics = await call(session, "list_kb_topics")
        (folder,) = topics["folders"]
        assert folder["path"] == str(root) and folder["skipped"] >= 1  # .env, recorded not served
        assert {s["name"]: s["files"] for s in folder["subfolders"]} == {
            "adr": 2,
            "docs": 3,
            "policies": 2,
            "src": 1,
        }
        assert folder["file_types"][".md"] == 5 and folder["file_types"][".pdf"] == 1
        headings = {h["file"]: h["headings"] for h in folder["markdown"]}
        assert headings["docs/deploy.md"] == ["Deploying"]
        assert topics["search_mode"] == "hybrid" and topics["vectors_fraction"] == 1.0

        old = await call(session, "check_staleness", path="policies/pto_policy.md")
        assert old["superseded"] and old["superseded_by"] == [str(root / "policies/pto_policy_2023.md")]
        assert (
            old["effective_date"] == "2021-03-01" and old["index_status"] == "indexed" and old["indexed_at"]
        )
        assert not old["older_than_max"] and not old["changed_since_indexed"]
        new = await call(session, "check_staleness", path="policies/pto_policy_2023.md", max_age_days=0)
        assert not new["superseded"] and new["related"][0]["relation"] == "older"
        adr = await call(session, "check_staleness", path="adr/adr_003_database_migration.md")
        assert adr["superseded_by"] == [str(root / "adr/adr_003_v2_database_strategy.md")]
        adr2 = await call(session, "check_staleness", path="adr/adr_003_v2_database_strategy.md")
        assert not adr2["superseded"] and adr2["version"] == "2"

        answer = await call(session, "ask", question="How many days of paid leave do employees accrue?")
        assert not answer["refused"] and answer["sentences"]
        for sentence in answer["sentences"]:
            for cite in sentence["citations"]:
                assert cite["quote"] in lines_of(Path(cite["path"]), cite["start_line"], cite["end_line"])
        assert any("25 days" in s["text"] for s in answer["sentences"])
        no = await call(session, "ask", question="What is the airspeed velocity of an unladen swallow?")
        assert no["refused"] and no["sentences"] == [] and no["thread_id"] is None
        first = await call(
            session, "ask", question="How many days of paid leave do employees accrue?", thread="leave"
        )
        assert first["thread_id"] and first["searched"] == first["question"]
        again = await call(
            session, "ask", question="Since when does it apply?", thread=str(first["thread_id"])
        )
        assert again["thread_id"] == first["thread_id"] and again["searched"].startswith("Since when")
        assert again["searched"] != again["question"]  # made standalone with the first turn's words

    run(citeline_home, tmp_path / "server.log", scenario)


@pytest.mark.slow
@pytest.mark.models
def test_paths_outside_the_folders_are_refused(citeline_home: Path, kb_folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    index(citeline_home, kb_folder)
    root = kb_folder.resolve()
    secret = tmp_path / "outside" / "secret.txt"

    async def scenario(session: Session) -> None:
        for tool in ("fetch_doc", "check_staleness"):
            for path in (
                str(secret),
                "../outside/secret.txt",
                str(root / "docs/../../outside/secret.txt"),
                "docs/escape.txt",
                str(root / "docs/escape.txt"),
            ):
                message = await refused(session, tool, path=path)
                assert "outside the watched folders" in message and "classified" not in message
        assert "outside the watched folders" in await refused(session, "search_kb", query="x", folder="/tmp")
        assert "not indexed (secret)" in await refused(session, "fetch_doc", path=".env")
        assert "does not exist" in await refused(session, "fetch_doc", path="docs/nope.md")
        assert "past the end" in await refused(session, "fetch_doc", path="docs/deploy.md", start_line=99)
        assert "query is empty" in await refused(session, "search_kb", query="  ")
        assert (await session.call_tool("search_kb", {"query": "x", "k": 0})).is_error  # schema: k >= 1
        found = await call(session, "search_kb", query="classified launch codes hunter2", k=10)
        assert all(Path(h["path"]).resolve().is_relative_to(root) for h in found["hits"])
        assert all("classified" not in h["text"] and "hunter2" not in h["text"] for h in found["hits"])
        # the server is still serving after all of that
        assert (await call(session, "fetch_doc", path="docs/deploy.md", start_line=1, end_line=1))["text"]

    run(citeline_home, tmp_path / "server.log", scenario)


@pytest.mark.slow
def test_empty_index_and_the_index_lock_is_released_when_idle(citeline_home: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")

    async def scenario(session: Session) -> None:
        topics = await call(session, "list_kb_topics")
        assert topics["folders"] == [] and "citeline add" in topics["note"]
        assert "index is empty" in await refused(session, "search_kb", query="anything")
        assert "index is empty" in await refused(session, "ask", question="anything?")
        assert "No folder is watched" in await refused(session, "fetch_doc", path="a.md")
        await asyncio.sleep(0.5)  # past --idle-release: another process may now take the writer lock
        other = Engine(citeline_home)
        try:
            other.add_folder(write(tmp_path, "late/note.txt", "A late walrus note.\n").parent)
            other.run(other.sync(embed=False))
        finally:
            other.close()
        found = await call(session, "search_kb", query="walrus")
        assert found["mode"] == "keyword" and "no embeddings" in found["note"]
        assert Path(found["hits"][0]["path"]).name == "note.txt"

    started = time.monotonic()
    run(citeline_home, tmp_path / "server.log", scenario, "--idle-release", "0.1")
    assert time.monotonic() - started < 60


@pytest.mark.slow
@pytest.mark.models
def test_a_missing_model_degrades_search_and_fails_ask_clearly(
    citeline_home: Path, kb_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp")
    index(citeline_home, kb_folder)  # with vectors, then the embedder goes missing
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(tmp_path / "no-models"))

    async def scenario(session: Session) -> None:
        found = await call(session, "search_kb", query="zebracorn")
        assert (
            found["mode"] == "keyword" and "missing" in found["note"] and "citeline models" in found["note"]
        )
        assert Path(found["hits"][0]["path"]).name == "deploy.md"
        message = await refused(session, "ask", question="How many days of paid leave?")
        assert "missing" in message and "citeline models fetch" in message

    run(citeline_home, tmp_path / "server.log", scenario)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"server did not listen on {port} (exit code {proc.poll()})")


@pytest.mark.slow
@pytest.mark.models
def test_streamable_http_on_localhost(citeline_home: Path, kb_folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    index(citeline_home, kb_folder)
    port = free_port()
    log = tmp_path / "http.log"
    env = {**os.environ, "CITELINE_HOME": str(citeline_home)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", "mcp", "--http", str(port)],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )

    async def main() -> None:
        url = f"http://127.0.0.1:{port}/mcp"
        async with streamable_http_client(url) as (read, write_), ClientSession(read, write_) as session:
            await session.initialize()
            assert len((await session.list_tools()).tools) == 5
            found = await call(session, "search_kb", query="zebracorn")
            assert Path(found["hits"][0]["path"]).name == "deploy.md"
            assert "outside" in await refused(session, "fetch_doc", path="docs/escape.txt")

    try:
        wait_for_port(port, proc)
        asyncio.run(main())
    except BaseException:
        print(log.read_text(encoding="utf-8", errors="replace"), file=sys.stderr)
        raise
    finally:
        proc.terminate()
        proc.wait(timeout=30)
