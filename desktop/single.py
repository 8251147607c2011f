"""One window per data directory: a second launch asks the first to come forward, then exits."""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QAbstractSocket, QLocalServer, QLocalSocket

CONNECT_MS = 300


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

    def forward(self) -> bool:
        """True if another instance is running (it has been told to come forward)."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(CONNECT_MS):
            return False
        socket.write(b"raise\n")
        socket.waitForBytesWritten(CONNECT_MS)
        socket.disconnectFromServer()
        return True

    def listen(self) -> bool:
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        in_use = QAbstractSocket.SocketError.AddressInUseError
        if not server.listen(self.name) and server.serverError() == in_use:
            QLocalServer.removeServer(self.name)  # a stale socket left by a crash: nobody answered forward()
            server.listen(self.name)
        server.newConnection.connect(self._on_connection)
        self.server = server
        return server.isListening()

    def _on_connection(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            connection = self.server.nextPendingConnection()
            connection.disconnected.connect(connection.deleteLater)
            connection.readyRead.connect(lambda c=connection: c.readAll())  # the message is only "raise"
        self.activated.emit()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
