"""models.download against a real HTTP server on 127.0.0.1: resume after a cut, sha256, atomic rename."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from engine.errors import CiteError
from models.download import download

PAYLOAD = bytes(range(256)) * 4096 + b"tail"  # 1 MiB + 4 bytes: more than one read block
SHA = hashlib.sha256(PAYLOAD).hexdigest()


@dataclass
class Behaviour:
    """What the fake server does; the test changes it between requests."""

    cut_after: int | None = None  # send this many body bytes, then drop the connection
    ranges: bool = True  # honour Range headers (206) or always send the whole file (200)
    status: int | None = None  # answer every request with this error status instead
    seen: list[str | None] = field(default_factory=list)  # the Range header of each request


def handler_for(behaviour: Behaviour) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            wanted = self.headers.get("Range")
            behaviour.seen.append(wanted)
            if behaviour.status:
                self.send_error(behaviour.status)
                return
            start = 0
            match = re.fullmatch(r"bytes=(\d+)-", wanted or "")
            if match and behaviour.ranges:
                start = int(match.group(1))
                if start >= len(PAYLOAD):
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(PAYLOAD)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(PAYLOAD) - 1}/{len(PAYLOAD)}")
            else:
                self.send_response(200)
            body = PAYLOAD[start:]
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if behaviour.cut_after is not None:
                self.wfile.write(body[: behaviour.cut_after])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # keep test output clean
            pass

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, Behaviour]]:
    behaviour = Behaviour()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(behaviour))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/model.gguf", behaviour
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def test_interrupted_download_resumes_with_a_range_request(
    server: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = server
    dest = tmp_path / "models" / "model.gguf"
    behaviour.cut_after = 300_000
    with pytest.raises(CiteError) as failed:
        download(url, dest, SHA)
    assert "stopped after 300,000 bytes" in failed.value.message
    assert "resume" in failed.value.hint
    partial = dest.with_name("model.gguf.partial")
    assert partial.stat().st_size == 300_000 and not dest.exists()

    behaviour.cut_after = None
    seen: list[tuple[int, int | None]] = []
    assert download(url, dest, SHA, progress=lambda done, total: seen.append((done, total))) == dest
    assert behaviour.seen == [None, "bytes=300000-"]
    assert dest.read_bytes() == PAYLOAD and not partial.exists()
    assert seen[0][0] > 300_000 and seen[-1] == (len(PAYLOAD), len(PAYLOAD))


def test_wrong_sha256_deletes_the_download_and_says_so(server: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, _ = server
    dest = tmp_path / "model.gguf"
    with pytest.raises(CiteError) as failed:
        download(url, dest, "0" * 64)
    assert "expected 000000000000" in failed.value.message
    assert not dest.exists() and not dest.with_name("model.gguf.partial").exists()


def test_server_without_range_support_starts_again(server: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = server
    dest = tmp_path / "model.gguf"
    dest.with_name("model.gguf.partial").write_bytes(b"stale bytes from another file")
    behaviour.ranges = False
    download(url, dest, SHA)
    assert dest.read_bytes() == PAYLOAD


def test_complete_partial_is_verified_without_refetching(
    server: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = server
    dest = tmp_path / "model.gguf"
    dest.with_name("model.gguf.partial").write_bytes(PAYLOAD)
    download(url, dest, SHA)
    assert behaviour.seen == [f"bytes={len(PAYLOAD)}-"]  # answered 416: nothing more to send
    assert dest.read_bytes() == PAYLOAD


def test_verified_file_is_not_downloaded_again(server: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = server
    dest = tmp_path / "model.gguf"
    dest.write_bytes(PAYLOAD)
    download(url, dest, SHA.upper())
    assert behaviour.seen == []


def test_http_error_is_a_cite_error(server: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = server
    behaviour.status = 404
    with pytest.raises(CiteError, match="answered 404"):
        download(url, tmp_path / "model.gguf", SHA)
    assert not list(tmp_path.iterdir())


def test_unreachable_server_and_other_schemes_are_cite_errors(tmp_path: Path) -> None:
    closed = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = closed.server_address[1]
    closed.server_close()  # nothing listens on this port any more
    with pytest.raises(CiteError, match="stopped after 0 bytes"):
        download(f"http://127.0.0.1:{port}/m.gguf", tmp_path / "m.gguf", SHA, timeout=5)
    with pytest.raises(CiteError, match="only http and https"):
        download("file:///etc/hostname", tmp_path / "m.gguf", SHA)
