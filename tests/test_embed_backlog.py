"""The vector backlog (issue 22 item 2): what is embedded first, what is embedded once, and a backlog
cut short that the next start finishes without embedding anything twice. Real files, a real Engine in a
tmp dir, the real embedder; the embedder is only wrapped to record what the model was given."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.api import Engine
from engine.errors import Cancelled
from engine.progress import PhaseRates
from engine.store.recent import RecentFiles
from tests.conftest import write

APACHE = """# Copyright (c) 2024 The Example Authors. All rights reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""

DATES = '''"""Parse calendar dates written in several formats."""

import datetime


def parse_date(text):
    """Read a date such as 2024-03-01 or 1 March 2024."""
    for fmt in ("%Y-%m-%d", "%d %B %Y"):
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            pass
    raise ValueError(text)
'''

MAIL = '''"""Send e-mail notifications to subscribers."""

import smtplib


def send_mail(host, sender, to, body):
    """Deliver one message through an SMTP relay."""
    with smtplib.SMTP(host) as smtp:
        smtp.sendmail(sender, [to], body)
'''


class Recorder:
    """The real embedder, with every text the model is given recorded."""

    def __init__(self, engine: Engine) -> None:
        self.embedder = engine.embedder()
        self.inputs: list[str] = []
        self.events: list[Any] = []

    def __call__(self, texts: list[str]) -> Any:
        self.inputs.extend(texts)
        return self.embedder.embed(texts)


def embed(engine: Engine, cancelled: Callable[[], bool] = lambda: False) -> Recorder:
    """Run the engine's backlog through a recording embedder (the indexer's job, as embed_pending runs it)."""
    engine._open()
    recorder = Recorder(engine)
    recorder.events = engine.run(engine._indexer().embed_pending(recorder, cancelled))
    return recorder


def test_a_licence_header_two_files_share_is_embedded_once(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "src"
    write(root, "dates.py", APACHE + DATES)
    write(root, "mail.py", APACHE + MAIL)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    recorder = embed(engine)
    assert sum("Licensed under the Apache License" in text for text in recorder.inputs) == 1
    assert any("Parse calendar dates" in text for text in recorder.inputs)
    done, total = engine.vector_coverage()
    assert done == total > 0
    model, saved = engine.catalog.embed_tokens()
    assert model > 0 and saved >= 100  # the header is ~120 tokens, in one of the two files at least
    status = engine.status()  # what `citeline status` prints
    assert (status.embed_tokens, status.embed_saved) == (model, saved)
    for question, wanted in (
        ("turn a string like 1 March 2024 into a date", "dates.py"),
        ("deliver a notification message over SMTP", "mail.py"),
    ):
        hits = engine.search(question, mode="vector", k=2).hits
        assert Path(hits[0].path).name == wanted
        assert hits[0].start_line <= 19  # still cited from the file, header lines included
    hits = engine.search("which licence lets me use this code", mode="vector", k=2).hits
    assert {Path(h.path).name for h in hits} == {"dates.py", "mail.py"}
    assert all(h.start_line == 1 for h in hits)


def test_a_file_edited_only_in_whitespace_keeps_its_vectors(engine: Engine, tmp_path: Path) -> None:
    """A chunk's vector is keyed by what the embedder reads (its place and text, whitespace aside): the
    same file saved again with other spacing is not embedded again; the same text in another file is
    (its place differs)."""
    root = tmp_path / "notes"
    text = "The quarterly report is due on the fifth working day.\nSend it to finance.\n"
    note = write(root, "a.txt", text)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    assert len(embed(engine).inputs) == 1
    note.write_text("The quarterly  report is due on the fifth working day.\n\n  Send it to finance.\n")
    write(root, "b.txt", text)
    engine.run(engine.sync(embed=False))
    recorder = embed(engine)
    assert len(recorder.inputs) == 1 and recorder.inputs[0].startswith("b.txt")
    hits = engine.search("when must the quarterly report be handed in", mode="vector", k=5).hits
    assert {Path(h.path).name for h in hits} == {"a.txt", "b.txt"}


def test_recently_searched_then_recently_modified_files_are_embedded_first_and_vendored_code_last(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "kb"  # indexed in name order: old, asked, new
    old = write(root, "a-old.md", "# Orchard\n\nThe apple trees are pruned every February.\n")
    new = write(root, "c-new.md", "# Harbour\n\nFerries leave the harbour every hour in summer.\n")
    asked = write(root, "b-asked.md", "# Quarry\n\nThe granite quarry closed in 1974 after the flood.\n")
    os.utime(old, (1_600_000_000, 1_600_000_000))
    os.utime(asked, (1_600_000_100, 1_600_000_100))
    os.utime(new, (1_700_000_000, 1_700_000_000))
    copied = write(root, "vendor/lantern/README.md", "# Lantern\n\nA library that draws paper lanterns.\n")
    os.utime(copied, (1_800_000_000, 1_800_000_000))
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    assert [Path(h.path).name for h in engine.search("granite quarry", mode="keyword").hits] == ["b-asked.md"]
    recorder = embed(engine)
    words = ("Quarry", "Harbour", "Orchard", "Lantern")
    order = [next(w for w in words if w in text) for text in recorder.inputs]
    assert order == ["Quarry", "Harbour", "Orchard", "Lantern"]


def test_a_backlog_cut_short_is_finished_at_the_next_start_with_nothing_embedded_twice(
    citeline_home: Path, tmp_path: Path
) -> None:
    root = tmp_path / "many"
    for n in range(90):
        write(root, f"note{n:03}.txt", f"Note {n}: the shipment numbered {n * 7919} left depot {n % 13}.\n")
    engine = Engine(citeline_home)
    engine.add_folder(root)
    engine.run(engine.sync(embed=False))
    asked = 0

    def after_two_batches() -> bool:
        nonlocal asked
        asked += 1
        return len(first.inputs) >= 64

    first = Recorder(engine)
    engine._open()
    with pytest.raises(Cancelled):
        engine.run(engine._indexer().embed_pending(first, after_two_batches))
    assert len(first.inputs) == 64
    assert engine.vector_coverage() == (64, 90)
    engine.close()

    reopened = Engine(citeline_home)
    assert reopened.vector_coverage() == (64, 90)
    second = embed(reopened)
    assert len(second.inputs) == 26 and not set(first.inputs) & set(second.inputs)
    opening = second.events[0]
    assert (opening.done, opening.total) == (64, 90)
    assert opening.eta_s is not None and opening.eta_s > 0  # the first run's rate, before one is measured
    assert PhaseRates().eta(opening) == opening.eta_s  # what the CLI's and the desktop's time left show
    assert reopened.vector_coverage() == (90, 90)
    assert len(reopened._open()[2]) == 90
    hits = reopened.search("shipment numbered 15838", mode="vector", k=3).hits
    assert "note002.txt" in {Path(h.path).name for h in hits}
    reopened.close()


def test_recent_files_merge_across_processes_and_keep_the_newest(tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    clock = iter(range(100, 200)).__next__
    app = RecentFiles(path, clock=lambda: float(clock()))
    terminal = RecentFiles(path, clock=lambda: float(clock()))
    app.note(["/a", "/b"])
    terminal.note(["/c"])
    app.note(["/b"])
    app.save()
    terminal.save()
    assert [p for p, _ in RecentFiles(path).items()] == ["/b", "/c", "/a"]
    path.write_text("not json", encoding="utf-8")
    assert RecentFiles(path).items() == []
