"""Emacs Org and AsciiDoc (engine/ingest/markup.py): read as the Markdown they amount to, each line at its
own number, so their headings are titles the lines under them carry, their code is fenced and what a
reader never sees says nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from engine.api import Engine
from engine.events import Document
from engine.ingest.extract import extract, readers
from engine.ingest.markup import ASCIIDOC_SUFFIXES, MARKUP_READER, ORG_SUFFIXES
from tests.conftest import index_with_notes, write

ORG = """#+TITLE: Home admin
#+STARTUP: overview
# a comment Markdown would take for a title
* Admin
** TODO Renew passport                                              :errand:
   DEADLINE: <2025-04-30 Wed>
   :PROPERTIES:
   :ID: 1f3a
   :NOTE: expires Aug 2025
   :END:
   - cost was 88.50 online, see [[https://gov.example.org/passport][the passport page]]
* Backups
#+BEGIN_SRC sh
restic backup ~/docs  # nightly
#+END_SRC
#+BEGIN_QUOTE
Keep three copies.
#+BEGIN_SRC python
# a comment of the program's, no title
#+END_SRC
#+END_QUOTE
| Disk | Size |
|------+------|
| usb  | 2 TB |
"""

ADOC = """= Deploy guide
:toc: left
// a comment
== Install

Run the installer. See https://example.org/docs[the docs] first.

* Linux
** Debian
. first step

[source,bash]
----
./install.sh --prefix /opt
----

[NOTE]
====
Restart afterwards.
====

[cols=",",options="header"]
|===
|City |Daily rate
|Berlin |180 EUR
|===
////
a block comment
////
"""


def read(path: Path, text: str) -> Document:
    path.write_text(text, encoding="utf-8")
    return extract(path, path.read_bytes())


def test_an_org_file_reads_as_markdown_line_for_line(tmp_path: Path) -> None:
    doc = read(tmp_path / "home.org", ORG)
    assert doc.kind == "markdown" and doc.title == "Home admin"
    assert [line.line for line in doc.lines] == list(range(1, len(ORG.splitlines()) + 1))
    assert [line.text for line in doc.lines] == [
        "",
        "",
        "",  # a comment, not a title
        "# Admin",
        "## TODO Renew passport                                              :errand:",
        "   DEADLINE: <2025-04-30 Wed>",
        "",
        "",  # an id says nothing
        "   NOTE: expires Aug 2025",
        "",
        "   - cost was 88.50 online, see the passport page",
        "# Backups",
        "```sh",
        "restic backup ~/docs  # nightly",
        "```",
        "",
        "Keep three copies.",
        "```python",  # a program inside a quote is still a program
        "# a comment of the program's, no title",
        "```",
        "",
        "| Disk | Size |",
        "|------+------|",
        "| usb  | 2 TB |",
    ]


def test_an_asciidoc_file_reads_as_markdown_line_for_line(tmp_path: Path) -> None:
    doc = read(tmp_path / "deploy.adoc", ADOC)
    assert doc.kind == "markdown" and doc.title == "Deploy guide"
    assert [line.line for line in doc.lines] == list(range(1, len(ADOC.splitlines()) + 1))
    assert [line.text for line in doc.lines if line.text] == [
        "# Deploy guide",
        "## Install",
        "Run the installer. See the docs first.",
        "- Linux",
        "  - Debian",
        "- first step",
        "```bash",
        "./install.sh --prefix /opt",
        "```",
        "Restart afterwards.",
        "City; Daily rate",  # a headed table's rows read as a CSV file's do, under their columns
        "City=Berlin; Daily rate=180 EUR",
    ]


def test_org_and_asciidoc_are_read_by_their_reader_and_reread_when_it_changes() -> None:
    assert all(readers()[suffix] == MARKUP_READER for suffix in (*ORG_SUFFIXES, *ASCIIDOC_SUFFIXES))
    assert ".asc" not in ASCIIDOC_SUFFIXES  # a PGP signature's suffix, more often than AsciiDoc's


def test_an_answer_from_an_org_file_is_ranked_with_its_heading(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "kb"
    write(root, "todo.org", ORG)
    index_with_notes(engine, root)
    answer = engine.ask("When does my passport expire?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.start_line) == ("todo.org", 9)
    assert "Aug 2025" in answer.text


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc (Debian) writes the files of this test")
@pytest.mark.parametrize(("fmt", "suffix"), [("org", ".org"), ("asciidoc", ".adoc")])
def test_what_pandoc_writes_reads_back_with_its_titles_items_and_code(
    tmp_path: Path, fmt: str, suffix: str
) -> None:
    source = tmp_path / "notes.md"
    source.write_text(
        "# Plan\n\nShip on Friday.\n\n- one\n- two\n\n```\nmake release\n```\n", encoding="utf-8"
    )
    target = tmp_path / f"notes{suffix}"
    subprocess.run(["pandoc", "-s", str(source), "-t", fmt, "-o", str(target)], check=True, timeout=60)
    texts = [line.text.strip() for line in extract(target, target.read_bytes()).lines if line.text.strip()]
    assert texts[0].lstrip("#").strip() == "Plan" and texts[0].startswith("#")
    assert "Ship on Friday." in texts and "- one" in texts and "- two" in texts
    assert texts[texts.index("make release") - 1].startswith("```")
