"""One examdesk per data folder, and a second launch brings the first one forward.

A ``QLockFile`` (``instance_lock.py``) decides who owns the data folder: a lock whose
process died is stale and taken over, so a crash never leaves the folder locked. The owner also listens on a
local socket named after the folder; a second launch on the same folder finds the lock
taken, asks the owner over that socket to raise its window, and exits. If the owner does
not answer (hung, or not examdesk), the second launch says so instead of opening the
progress file twice.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from .instance_lock import InstanceLock

if TYPE_CHECKING:  # QtNetwork is imported when listening starts, after the first paint
    from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

ACTIVATE = b"activate\n"
ACTIVATED = b"ok\n"
# The owner takes the lock before it listens: a second launch in that gap retries.
CONNECT_WINDOW_S = 5.0
REPLY_TIMEOUT_MS = 3000


def server_name(data_dir: Path) -> str:
    """The local socket's name: one per data folder (resolved, so two spellings of the same
    folder meet), short enough for a Unix socket path on every platform."""
    import hashlib  # here: OpenSSL's ~6 ms stay out of the launch (listening starts later)

    digest = hashlib.sha256(str(Path(data_dir).resolve()).encode("utf-8", "surrogateescape"))
    return f"examdesk-{digest.hexdigest()[:16]}"


class SingleInstance(QObject):
    """Owns the data folder's lock and the socket that answers later launches."""

    sig_activate_requested = Signal()
    """Another launch on this data folder asked this one to come to the front."""

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_dir = Path(data_dir)
        self.lock = InstanceLock(self.data_dir)
        self._server: QLocalServer | None = None

    def acquire(self) -> bool:
        """Take the lock; False when another process owns this data folder.

        Call ``listen()`` next (the app does after its first paint: a second launch retries
        for ``CONNECT_WINDOW_S`` seconds meanwhile).
        """
        try:
            if not self.lock.acquire():
                return False
        except OSError as exc:
            # No lock file can be made in a folder nobody may write (a read-only mount):
            # then no launch can write progress there either, so two cannot damage it.
            # Recovery opens the progress read-only and tells the learner. (A file system
            # without native locks lands here too: rare, and said in the log.)
            log.warning("no instance lock in %s (%s): the folder is not writable or has no "
                        "file locks", self.data_dir, exc)
        return True

    def listen(self) -> None:
        """Answer later launches on this data folder (bring this window forward)."""
        from PySide6.QtNetwork import QLocalServer

        if self._server is not None:
            return
        name = server_name(self.data_dir)
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(name):
            # A socket file left by a killed owner: we hold the lock, so nobody listens on
            # it any more and removing it is safe.
            QLocalServer.removeServer(name)
            if not server.listen(name):
                log.warning("cannot listen on %s (%s): a second launch will not be able to "
                            "bring this window forward", name, server.errorString())
        server.newConnection.connect(self._on_connection)
        self._server = server

    def release(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        self.lock.release()

    def holder_pid(self) -> int | None:
        return self.lock.holder_pid()

    def _on_connection(self) -> None:
        while self._server is not None and (socket := self._server.nextPendingConnection()):
            socket.setParent(self)
            socket.readyRead.connect(lambda s=socket: self._on_request(s))
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                self._on_request(socket)

    def _on_request(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            return
        if bytes(socket.readLine().data()) == ACTIVATE:
            log.info("another examdesk launch on %s asked for this window", self.data_dir)
            self.sig_activate_requested.emit()
            socket.write(ACTIVATED)
            socket.flush()
        socket.disconnectFromServer()


def ask_owner_to_activate(data_dir: Path, *, window_s: float = CONNECT_WINDOW_S) -> bool:
    """From a second launch: ask the examdesk that owns ``data_dir`` to raise its window.

    True once it confirmed; False when nothing answered within about ``window_s`` seconds
    (blocking: this runs before any window exists).
    """
    from PySide6.QtNetwork import QLocalSocket

    name = server_name(data_dir)
    end = time.monotonic() + window_s
    while True:
        socket = QLocalSocket()
        socket.connectToServer(name)
        if socket.waitForConnected(500):
            socket.write(ACTIVATE)
            socket.flush()  # written now: waitForBytesWritten() would then say False
            while socket.bytesAvailable() < len(ACTIVATED) and socket.waitForReadyRead(
                    REPLY_TIMEOUT_MS):
                pass
            ok = bytes(socket.readAll().data()).startswith(ACTIVATED)
            socket.abort()
            if ok:
                return True
        else:
            socket.abort()
        if time.monotonic() >= end:
            return False
        time.sleep(0.2)
