"""Secrets never reach an answer: links to secret files are skipped, secret-shaped strings redacted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.api import Engine
from engine.ingest.secrets import redact_text
from engine.mcp_server.files import doc_text
from tests.conftest import write

# Real-shaped fakes: the issuers' formats with made-up values (AWS's documented example key included).
FAKES = {
    "aws": "AKIAIOSFODNN7EXAMPLE",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "github": "ghp_" + "Zx9" * 12,
    "slack": "xoxb-2200000000-1111111111-AbCdEfGhIjKlMnOpQrStUvWx",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV",
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "pem_body": "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw",
}


def kb(root: Path) -> Path:
    write(
        root,
        "docs/setup.md",
        "# Setup\n\nThe okapi service reads its AWS key from the environment.\n"
        f"For local tests we used {FAKES['aws']} with secret\n"
        f"aws_secret_access_key = {FAKES['aws_secret']}\n"
        f"The okapi bot posts with token {FAKES['slack']} and pushes with {FAKES['github']}.\n"
        f"Session example: {FAKES['jwt']}\nBilling uses {FAKES['stripe']} in production.\n",
    )
    write(
        root,
        "deploy/key.md",
        "# Deploy key for the okapi host\n\n-----BEGIN RSA PRIVATE KEY-----\n"
        f"{FAKES['pem_body']}\n{FAKES['pem_body'][::-1]}\n"
        "-----END RSA PRIVATE KEY-----\n\nRotate it yearly.\n",
    )
    write(root, ".env", f"OKAPI_TOKEN={FAKES['github']}\n")
    if sys.platform != "win32":
        (root / "docs" / "env.md").symlink_to(root / ".env")
    return root


def leaked(text: str) -> list[str]:
    return [name for name, value in FAKES.items() if value in text or value[::-1] in text]


def test_no_secret_reaches_the_index_search_or_an_answer(engine: Engine, tmp_path: Path) -> None:
    root = kb(tmp_path / "kb")
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    files = {Path(f.path).name: f for f in engine.files()}
    if sys.platform != "win32":
        assert files["env.md"].status == "skipped" and files["env.md"].error == "secret"
    assert "redacted" in (files["setup.md"].error or "") and files["setup.md"].status == "indexed"
    for query in ("okapi AWS key token", "okapi private key deploy", "billing production session example"):
        result = engine.search(query, k=10, mode="keyword")
        dumped = json.dumps([h.__dict__ for h in result.hits], default=str)
        assert result.hits and not leaked(dumped), leaked(dumped)
    answer = engine.ask("What AWS key did the okapi service use for local tests?", generator="extractive")
    assert not leaked(json.dumps(answer.__dict__, default=str))
    hits = engine.search("okapi deploy key", k=5, mode="keyword").hits
    assert any("[redacted private key]" in h.text for h in hits)  # the line is there, the key is not


def test_mcp_documents_are_served_redacted(tmp_path: Path) -> None:
    root = kb(tmp_path / "kb")
    path = root / "docs" / "setup.md"
    out = doc_text(path, path.read_bytes(), None, None, None)
    assert not leaked(out.text) and out.text.count("[redacted") >= 5
    assert out.total_lines == len(path.read_text().splitlines())  # lines keep their numbers


@pytest.mark.parametrize(
    "text",
    [
        "password: required",
        "password = get_password_from_keyring()",
        "DB_PASSWORD=${DB_PASSWORD}",
        "Use sk-learn for the model",
        "the okapi token expires daily",
        "AKIA is the prefix of AWS access keys",
    ],
)
def test_ordinary_prose_and_code_are_left_alone(text: str) -> None:
    assert redact_text(text) == (text, 0)


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_the_whole_document_check_never_passes_over_a_line_that_holds_a_secret(where: str) -> None:
    """redact() skips a document when no shape matches its joined text: each shape, on the first, a middle
    or the last line, at the line's start or end, must still be found there."""
    from engine.events import Document, Line
    from engine.ingest.secrets import redact

    plain = ["# Notes", "Nothing secret on this line.", "key: value"]
    more = {
        "google": "AIza" + "Sy0123456789abcdefghijklmnopqrstuvw",
        "anthropic": "sk-ant-" + "a1B2" * 10,
        "aws_role": "ASIA" + "Z2X3C4V5B6N7M8Q9",
        "gh_server": "ghs_" + "Qw3" * 12,
    }
    for name, value in {**FAKES, **more}.items():
        lines_with = (
            value,
            f"x {value}",
            f"password={value}",
            f"API_KEY: '{value}'",
            f"Client_Secret={value}",
        )
        for line_text in lines_with:
            if not redact_text(line_text)[1]:
                continue  # a shape only in context (the PEM body): covered by the block tests
            lines = list(plain)
            at = {"first": 0, "middle": 1, "last": len(lines)}[where]
            lines.insert(at, line_text)
            doc = Document(tuple(Line(t, i + 1) for i, t in enumerate(lines)), "markdown")
            redacted, count = redact(doc)
            assert count >= 1, (name, line_text, where)
            assert value not in "\n".join(line.text for line in redacted.lines)
