"""One instance per data dir: a live owner answers and comes forward; a crashed or hung one is replaced."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalServer
from pytestqt.qtbot import QtBot

from desktop.single import REPLY_MS, SingleInstance, server_name

REPO = Path(__file__).resolve().parents[2]

# A process that takes the name and then never runs its event loop (a hung owner), or dies without
# closing its server (a crashed owner, whose socket file stays behind).
OWNER = """
import os, sys, time
from PySide6.QtCore import QCoreApplication
from desktop.single import SingleInstance
app = QCoreApplication([])
guard = SingleInstance(sys.argv[1])
assert guard.listen()
print("listening", flush=True)
if sys.argv[2] == "crash":
    os._exit(0)
time.sleep(60)
"""


# A second launch, as its own process: forward() blocks on the reply (and holds the GIL while it does),
# so it cannot share a process with the owner whose event loop must answer.
LAUNCH = """
import sys
from PySide6.QtCore import QCoreApplication
from desktop.single import SingleInstance
app = QCoreApplication([])
print("forwarded" if SingleInstance(sys.argv[1]).forward() else "not forwarded", flush=True)
"""


def launch(name: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", LAUNCH, name], cwd=REPO, stdout=subprocess.PIPE, text=True)


def forwards_to(qtbot: QtBot, owner: SingleInstance) -> None:
    """A second launch reaches `owner`, which answers and comes forward."""
    with qtbot.waitSignal(owner.activated, timeout=20_000):
        second = launch(owner.name)
    out, _ = second.communicate(timeout=20)  # the answer is already on its way
    assert out.strip() == "forwarded"


def start_owner(name: str, how: str) -> subprocess.Popen[str]:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, name, how], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert owner.stdout is not None and owner.stdout.readline().strip() == "listening"
    return owner


@pytest.fixture
def name(tmp_path: Path) -> Iterator[str]:
    value = server_name(tmp_path)
    yield value
    QLocalServer.removeServer(value)


def test_a_live_owner_answers_and_comes_forward(qtbot: QtBot, name: str) -> None:
    first = SingleInstance(name)
    assert not first.forward()  # nobody holds the name yet
    assert first.listen()
    forwards_to(qtbot, first)
    first.close()


def test_a_crashed_owners_socket_is_taken_over(qtbot: QtBot, name: str) -> None:
    owner = start_owner(name, "crash")
    owner.communicate(timeout=10)
    second = SingleInstance(name)
    assert not second.forward() and not second.hung_owner
    assert second.listen()
    forwards_to(qtbot, second)
    second.close()


def test_a_hung_owner_is_taken_over_after_a_second(qtbot: QtBot, name: str) -> None:
    owner = start_owner(name, "hang")
    try:
        second = SingleInstance(name)
        started = time.monotonic()
        assert not second.forward()  # connected (the kernel accepts) but no answer came
        waited = time.monotonic() - started
        assert second.hung_owner and REPLY_MS / 1000 - 0.05 <= waited < REPLY_MS / 1000 + 1.0
        assert second.listen()
        forwards_to(qtbot, second)  # the name is now this one's
        second.close()
    finally:
        owner.kill()
        owner.communicate(timeout=10)
