"""At most one examdesk per data folder: an OS file lock on ``data_dir/examdesk.lock``.

The OS drops the lock when the process dies, so a crash never leaves a stale lock and
nothing has to guess from PIDs. The file itself is never deleted: deleting it while a
second process waits on it would let two processes each lock a different file.
(``QLockFile`` would do the same, but the core does not import Qt.)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

LOCK_FILE = "examdesk.lock"


class InstanceLock:
    """``acquire()`` is False when another process (or another ``InstanceLock`` in this one)
    holds the lock; ``holder_pid()`` then says which process, where the OS lets us read it."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / LOCK_FILE
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock(fd)
        except OSError:
            os.close(fd)
            return False
        # After the lock byte: on Windows the locked byte 0 cannot be read by others.
        os.ftruncate(fd, 1)
        os.lseek(fd, 1, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            _unlock(self._fd)
        finally:
            os.close(self._fd)
            self._fd = None

    def holder_pid(self) -> int | None:
        """The PID written by the holder (informational: the lock, not this, decides)."""
        try:
            with self.path.open("rb") as fh:
                fh.seek(1)
                return int(fh.read(32).strip() or b"x")
        except (OSError, ValueError):
            return None

    def __enter__(self) -> "InstanceLock":
        if not self.acquire():
            raise RuntimeError(f"{self.path}: examdesk is already running on this data folder")
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if sys.platform == "win32":  # pragma: no cover - not exercised on the Linux CI
    import msvcrt

    def _lock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    # flock, not lockf: flock locks belong to the open file, so a second InstanceLock in the
    # same process is refused too (lockf locks belong to the process and would be granted).
    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
