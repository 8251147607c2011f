"""Shared fixtures. Every test gets its own data dir; model files come from the cache bootstrap.py filled."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
import pytest

from engine.eval.ocrset import assemble_pdf
from engine.events import Document, Line

if TYPE_CHECKING:
    from engine.api import Engine

# Qt tests run offscreen unless a test starts its own display (tests/desktop/test_xvfb.py).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
SHARED_EVAL = REPO.parent / "shared" / "eval"
# Read-only use of prepared model files; captured before any test changes the environment.
MODEL_CACHE = Path(
    os.environ.get("CITELINE_MODEL_CACHE")
    or Path(os.environ.get("CITELINE_HOME") or platformdirs.user_data_dir("citeline", appauthor=False))
    / "models"
)


@pytest.fixture(autouse=True)
def citeline_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the data dir at a tmp dir so no test touches a real one."""
    home = tmp_path / "citeline-home"
    monkeypatch.setenv("CITELINE_HOME", str(home))
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(MODEL_CACHE))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return home


@pytest.fixture
def engine(citeline_home: Path) -> Iterator[object]:
    from engine.api import Engine

    eng = Engine(citeline_home)
    yield eng
    eng.close()


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def index_with_notes(engine: Engine, root: Path) -> None:
    """Index `root` with eight unrelated notes beside it, so that word rarity (IDF) means something."""
    for n, tool in enumerate(["laptop", "vpn", "editor", "printer", "badge", "calendar", "wiki", "phone"]):
        write(root, f"notes/setup_{n}.md", f"# Setting up the {tool}\n\nSet up the {tool} on day one.\n")
    engine.add_folder(root)
    engine.run(engine.sync())


@pytest.fixture
def small_folder(tmp_path: Path) -> Path:
    """A little knowledge base: docs, code and a note, with unique phrases to search for."""
    root = tmp_path / "kb"
    write(
        root,
        "docs/deploy.md",
        "# Deploying\n\nWe deploy with the **zebracorn pipeline** every Tuesday.\n\n"
        "## Rollback\n\nTo roll back, run `make rollback` and notify the on-call engineer.\n",
    )
    write(
        root,
        "docs/pto.md",
        "# Paid time off\n\nEmployees accrue 20 days of paid leave per year.\n"
        "Unused days carry over up to a limit of five days.\n",
    )
    write(
        root,
        "src/billing.py",
        '"""Billing helpers."""\n\n\ndef computeInvoiceTotal(items):\n'
        '    """Sum the line items of an invoice."""\n    return sum(i.price for i in items)\n\n\n'
        "class PaymentGateway:\n    def charge(self, amount):\n        return amount > 0\n",
    )
    write(root, "notes/meeting.txt", "Meeting notes, March.\nThe quokka migration finished on time.\n")
    write(root, ".env", "SECRET_TOKEN=hunter2\n")
    (root / "logo.bin").write_bytes(b"\x00\x01\x02" * 100)
    return root


class FailsOnce:
    """A reader that chokes on its first file and reads the next ones (a reader fixed in between)."""

    def __init__(self) -> None:
        self.calls = 0

    def extract(self, path: Path, data: bytes) -> Document:
        self.calls += 1
        if self.calls == 1:
            raise ValueError("not today")
        return Document((Line(data.decode(), 1),), kind="text")


def typeset_pdf(stream: bytes) -> bytes:
    """One page drawn by `stream` in a font whose widths start below the space (as TeX's fonts do): a
    reader that places spaces by the font's space width runs the words of a justified line together."""
    widths = b" ".join([b"500"] * (125 - 21 + 1))
    return assemble_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /FirstChar 21 /LastChar 125 /Widths ["
            + widths
            + b"] >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        ]
    )


# a justified line (words moved apart, no space written), a word hyphenated over a line end, a footnote
# mark raised above its line, and a table row whose cells are placed apart
TYPESET = (
    b"BT /F1 10 Tf 12 TL 72 720 Td [(Papers)-221(must)-221(be)-221(submitted)-221(electronically.)] TJ "
    b"T* (Copy the style file to approximate the final appear-) Tj "
    b"T* (ance of the journal; see Wikibooks) Tj 5 Ts /F1 7 Tf (1) Tj 0 Ts /F1 10 Tf (, a free textbook.) Tj "
    b"T* (Option) Tj 200 0 Td (Effect) Tj ET"
)


def notebook(cells: list[dict[str, object]]) -> str:
    """Serialised the way Jupyter writes notebooks (indent=1, sorted keys, source as a list of lines)."""
    body = {
        "cells": cells,
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(body, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def printed_cell(source: list[str], printed: str) -> dict[str, object]:
    """A code cell that ran and printed `printed` (one line) on stdout."""
    output = {"name": "stdout", "output_type": "stream", "text": [printed + "\n"]}
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [output], "source": source}
