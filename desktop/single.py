"""One window per data directory: a second launch asks the first to come forward, then exits.

The owner answers "ok" to "raise". An owner that crashed leaves a stale socket nobody accepts on; an
owner whose event loop is blocked still accepts (the kernel does that) but never answers. Either way the
new launch takes the name over and starts, rather than exiting with no window on screen.
"""

from __future__ import annotations

import getpass
import hashlib
import logging
import time
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QAbstractSocket, QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

CONNECT_MS = 300
REPLY_MS = 1000  # a live owner answers within a few ms; one that is silent this long is hung
RAISE = b"raise\n"
OK = b"ok\n"


def server_name(home: Path) -> str:
    digest = hashlib.sha1(str(home).encode("utf-8")).hexdigest()[:12]
    user = "".join(ch for ch in getpass.getuser() if ch.isalnum())[:16]
    return f"citeline-{user}-{digest}"


class SingleInstance(QObject):
    activated = Signal()  # another launch asked this one to come forward

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server: QLocalServer | None = None
        self.hung_owner = False  # forward() reached an owner that did not answer

    def forward(self, reply_ms: int = REPLY_MS) -> bool:
        """True if another instance is running and answered (it has come forward). False if none is, or
        if the one holding the name did not answer in `reply_ms` (then `hung_owner` is set)."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(CONNECT_MS):
            return False
        socket.write(RAISE)
        socket.waitForBytesWritten(CONNECT_MS)
        answered = read_reply(socket, reply_ms) == OK
        socket.abort()
        if not answered:
            self.hung_owner = True
            log.warning("the window holding %s did not answer in %d ms: taking over", self.name, reply_ms)
        return answered

    def listen(self) -> bool:
        """Own the name. A stale socket (crashed owner) or a hung owner's is removed and the name taken."""
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        in_use = QAbstractSocket.SocketError.AddressInUseError
        if self.hung_owner or (not server.listen(self.name) and server.serverError() == in_use):
            log.info("removing the %s socket left by a %s owner", self.name, self._owner_word())
            QLocalServer.removeServer(self.name)
            server.listen(self.name)
        server.newConnection.connect(self._on_connection)
        self.server = server
        return server.isListening()

    def _owner_word(self) -> str:
        return "hung" if self.hung_owner else "crashed"

    def _on_connection(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            # The connection stays a child of the server (one small object per later launch): a
            # deleteLater still pending when the server is destroyed crashes PySide at quit.
            connection = self.server.nextPendingConnection()
            connection.readyRead.connect(lambda c=connection: self._on_message(c))

    def _on_message(self, connection: QLocalSocket) -> None:
        while connection.canReadLine():
            if bytes(connection.readLine().data()) == RAISE:
                connection.write(OK)
                connection.flush()
                self.activated.emit()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def read_reply(socket: QLocalSocket, timeout_ms: int) -> bytes:
    """The first line the other end sends, or b"" if none comes within `timeout_ms`."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not socket.canReadLine():
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms <= 0 or not socket.waitForReadyRead(left_ms):
            return b""
    return bytes(socket.readLine().data())
