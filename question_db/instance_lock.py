"""At most one examdesk per data folder: an OS file lock on ``data_dir/examdesk.lock``.

The lock is ``filelock``'s native lock (``flock`` on Unix, ``LockFileEx`` on Windows): the OS
drops it when the process dies, so a crash never leaves a stale lock and nothing has to
guess from PIDs. Its soft (marker-file) fallback is off: a marker outlives a crash, so on a
file system without native locks ``acquire()`` raises ``OSError`` instead (the caller treats
that as an unlockable folder). The lock file is kept on release (``preserve_lock_file``):
waiters then always meet on the same inode.

The holder's PID sits in a side file, ``examdesk.pid``, written after the lock is taken and
removed before it is released: the lock file's own bytes belong to ``filelock`` (on
Windows its first byte cannot even be read while locked). The PID is informational only —
the lock decides — and a crash may leave a stale one, which the next holder overwrites.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

LOCK_FILE = "examdesk.lock"
PID_FILE = "examdesk.pid"


class InstanceLock:
    """``acquire()`` is False when another process (or another ``InstanceLock`` in this one)
    holds the lock; ``holder_pid()`` then says which process, where it could be recorded."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / LOCK_FILE
        self.pid_path = Path(data_dir) / PID_FILE
        self._lock = None  # filelock.FileLock, made on the first acquire()

    @property
    def held(self) -> bool:
        return self._lock is not None and self._lock.is_locked

    def acquire(self) -> bool:
        """Take the lock without waiting; False when it is held elsewhere.

        ``OSError`` when no lock can be made here (a read-only folder, a file system
        without native locks).
        """
        if self.held:
            return True
        # Imported here, not at the top: the CLI and the core tests that never lock pay
        # nothing. The GUI pays it before its first paint: ~30 ms of filelock 4.3's own
        # imports (bench: launch_to_library, +0.15-0.25 of the ratio vs a hand-written flock).
        import filelock

        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            # thread_local=False: the lock belongs to the process, not to the thread that
            # took it. Each InstanceLock has its own descriptor (no singleton), so a second
            # one in this process is refused like another process.
            self._lock = filelock.FileLock(self.path, thread_local=False,
                                           fallback_to_soft=False, preserve_lock_file=True)
        try:
            self._lock.acquire(timeout=0)
        except filelock.Timeout:
            return False
        self._write_pid()
        return True

    def release(self) -> None:
        if not self.held:
            return
        # Before the lock goes: once it is released the next holder may write its own PID.
        with contextlib.suppress(OSError):
            self.pid_path.unlink(missing_ok=True)
        self._lock.release(force=True)

    def holder_pid(self) -> int | None:
        """The PID written by the holder (informational: the lock, not this, decides)."""
        try:
            return int(self.pid_path.read_text("ascii").strip())
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def _write_pid(self) -> None:
        tmp = self.pid_path.with_name(f"{PID_FILE}.{os.getpid()}.tmp")
        try:  # whole or not at all: a reader never sees half a number
            tmp.write_text(f"{os.getpid()}\n", "ascii")
            os.replace(tmp, self.pid_path)
        except OSError:  # the lock is what matters; a second launch then shows "?"
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)

    def __enter__(self) -> "InstanceLock":
        if not self.acquire():
            raise RuntimeError(f"{self.path}: examdesk is already running on this data folder")
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
