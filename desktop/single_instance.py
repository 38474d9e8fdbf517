"""One examdesk per data folder, and a second launch brings the first one forward.

A ``QLockFile`` (``instance_lock.py``) decides who owns the data folder: a lock whose
process died is stale and taken over, so a crash never leaves the folder locked. The owner also listens on a
local socket named after the folder; a second launch on the same folder finds the lock
taken, asks the owner over that socket to raise its window, and exits. If the owner does
not answer (hung, or not examdesk), the second launch says so instead of opening the
progress file twice.

The socket lives in the private runtime folder (``question_db.kernels.runtime_dir``: this
user's, 0700, checked on every use), not under its bare name in the shared temp folder,
where another user could create it first and answer "ok" for a window that never came
forward (issue 28). Where the OS says who listens (Linux: ``SO_PEERCRED``), a second launch
also refuses an answer from a process of another user; elsewhere the folder's 0700 mode is
the guard.
"""
from __future__ import annotations

import logging
import os
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
    folder meet). On POSIX a path in the private runtime folder (at most 75 + 26 bytes of
    the 107 a Unix socket path may have); on Windows a pipe name, which only this user may
    open (``UserAccessOption``)."""
    import hashlib  # here: OpenSSL's ~6 ms stay out of the launch (listening starts later)

    digest = hashlib.sha256(str(Path(data_dir).resolve()).encode("utf-8", "surrogateescape"))
    name = f"examdesk-{digest.hexdigest()[:16]}"
    if os.name != "posix":
        return name
    from question_db.kernels import runtime_dir

    return str(runtime_dir() / name)


def peer_uid(socket: QLocalSocket) -> int | None:
    """The user id of the process at the other end of a connected ``socket`` (Linux's
    ``SO_PEERCRED``: the listener's, as of its ``listen()``); None where the OS does not
    say."""
    import socket as _net  # here, as hashlib: only a second launch asks
    import struct

    option = getattr(_net, "SO_PEERCRED", None)
    descriptor = int(socket.socketDescriptor())
    if option is None or descriptor < 0:
        return None
    try:
        # fromfd duplicates the descriptor: closing the copy leaves Qt's socket open
        with _net.fromfd(descriptor, _net.AF_UNIX, _net.SOCK_STREAM) as copy:
            creds = copy.getsockopt(_net.SOL_SOCKET, option, struct.calcsize("3i"))
    except OSError:
        return None
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid


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
            uid = peer_uid(socket)
            if uid is not None and uid != os.getuid():
                log.warning("%s is served by a process of user id %s, not by you (%s): not "
                            "asking it (someone may be imitating examdesk)", name, uid,
                            os.getuid())
                socket.abort()
                return False
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
