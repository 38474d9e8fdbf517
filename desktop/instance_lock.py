"""At most one examdesk per data folder: Qt's ``QLockFile`` on ``data_dir/examdesk.lock``.

``QLockFile`` writes the holder's PID, host and application name into the lock file; a lock
whose process is gone (a crash, kill -9) is *stale* and the next ``tryLock`` removes it.
The stale time is set to 0, so staleness is decided by the holder being alive, not by the
file's age (the default 30 s would refuse a relaunch right after a crash, and would break
a lock a hung examdesk still holds after 30 s).

Why not ``filelock``: it is the issue's other option, and it was measured — its imports cost
~30 ms before the first paint (the launch ratio went from 1.9-2.0 to 2.0-2.25 vs a bare
window), while QtCore is already loaded. The CLI takes no lock, so the core needs none.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLockFile

__all__ = ["InstanceLock", "LOCK_FILE"]

LOCK_FILE = "examdesk.lock"


class InstanceLock:
    """``acquire()`` is False when another process (or another ``InstanceLock`` in this one)
    holds the lock; ``holder_pid()`` then says which process."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / LOCK_FILE
        self._lock: QLockFile | None = None

    @property
    def held(self) -> bool:
        return self._lock is not None and self._lock.isLocked()

    def acquire(self) -> bool:
        """Take the lock without waiting; False when it is held elsewhere.

        ``OSError`` when no lock can be made here (a read-only folder).
        """
        if self.held:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = QLockFile(str(self.path))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):
            self._lock = lock
            return True
        if lock.error() == QLockFile.LockError.PermissionError:
            raise OSError(13, "cannot create the lock file", str(self.path))
        if lock.error() == QLockFile.LockError.UnknownError:
            raise OSError(5, "cannot create the lock file", str(self.path))
        return False  # LockFailedError: a live process holds it

    def release(self) -> None:
        if self.held:
            self._lock.unlock()
        self._lock = None

    def holder_pid(self) -> int | None:
        """The PID in the lock file, when the file can be read."""
        info = QLockFile(str(self.path)).getLockInfo()  # PySide6: (pid, host, app)
        pid = info[0] if isinstance(info, tuple) and info else 0
        return int(pid) if isinstance(pid, int) and pid > 0 else None

    def __enter__(self) -> InstanceLock:
        if not self.acquire():
            raise RuntimeError(f"{self.path}: examdesk is already running on this data folder")
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
