"""Open the learner's progress so that examdesk always starts and nothing is lost silently.

``open_progress`` returns a usable store plus the ``Notice``s the learner must read:

- damaged file: set aside as ``progress.corrupt-YYYYMMDD-HHMMSS.sqlite3`` (with its -wal and
  -shm), a new file started, and the newest good backup named for ``backups.restore_backup``.
- file from a newer examdesk: left untouched where it is, so the updated app finds the full
  history in its usual place; until then progress goes to ``progress-schemaN.sqlite3``
  beside it. (Moving it aside instead would leave the updated app an almost empty file and
  the real history under an odd name; a read-only session would save nothing at all.)
- read-only folder or file, or a disk too full to create the file: a read-only store that
  shows what it can and refuses every write with ``StorageReadOnly``.
- a daily backup (``backups.py``); a failed backup or a nearly full disk is a notice.

Take the data folder's instance lock (``desktop/instance_lock.py``) before calling it.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import backups, messages
from .sqlite_file import StorageError, StorageFull, set_aside, writable_dir
from .paths import progress_path
from .schema import SCHEMA_VERSION
from .store import CorruptDatabase, ProgressStore, TooNewDatabase

__all__ = ["LOW_DISK_BYTES", "CORRUPT", "TOO_NEW", "READ_ONLY", "DISK_FULL", "STORAGE",
           "BACKUP_FAILED", "LOW_DISK", "Notice", "side_path", "open_progress"]

LOW_DISK_BYTES = 10 * 2**20

CORRUPT = "corrupt"
TOO_NEW = "too_new"
READ_ONLY = "read_only"
DISK_FULL = "disk_full"
STORAGE = "storage"
BACKUP_FAILED = "backup_failed"
LOW_DISK = "low_disk"


@dataclass(frozen=True)
class Notice:
    """Something the learner must be told at start-up: a ``kind`` (one of the constants
    above) and its parameters; ``text()`` renders it through the ``messages`` catalogue
    (English, or translated by the desktop)."""

    kind: str
    path: Path  # the file (or folder) it is about
    params: dict = field(default_factory=dict)
    moved_to: Path | None = None  # where a damaged file was kept
    backup: Path | None = None  # the newest good backup, to offer restoring

    def text(self, translate: messages.Translate | None = None) -> str:
        params = {"path": self.path, "moved_to": self.moved_to, "backup": self.backup,
                  **self.params}
        text = messages.render(f"notice_{self.kind}", params, translate)
        if self.kind == CORRUPT:
            extra = "notice_corrupt_backup" if self.backup else "notice_corrupt_no_backup"
            text += " " + messages.render(extra, params, translate)
        return text

    @property
    def message(self) -> str:
        """The English text (logs, details)."""
        return self.text()

    def __str__(self) -> str:
        return self.message


def side_path(path: Path) -> Path:
    """Where this version saves progress while ``path`` belongs to a newer examdesk."""
    return path.with_name(f"{path.stem}-schema{SCHEMA_VERSION}{path.suffix}")


def _detail(exc: Exception, path: Path) -> str:
    return str(exc).removeprefix(f"{path}: ")


def _open_or_replace_damaged(path: Path, data_dir: Path, now: datetime,
                             notices: list[Notice]) -> ProgressStore:
    try:
        return ProgressStore(path)
    except CorruptDatabase as exc:
        moved = set_aside(path, "corrupt", now)
        good = backups.newest_good_backup(data_dir, path)
        notices.append(Notice(CORRUPT, path, {"detail": _detail(exc, path)}, moved_to=moved,
                              backup=good))
        return ProgressStore(path)


def _read_only(path: Path, notices: list[Notice], kind: str, **params) -> ProgressStore:
    notices.append(Notice(kind, path, params))
    return ProgressStore(path, read_only=True)


def open_progress(data_dir: Path, *, now: datetime | None = None, keep_backups: int =
                  backups.KEEP) -> tuple[ProgressStore, list[Notice]]:
    """A store for ``data_dir``'s progress and what the learner must be told; never raises
    for a damaged, too-new or unwritable file (an ``OSError`` from the OS itself may)."""
    data_dir, now = Path(data_dir), now or datetime.now()
    path = progress_path(data_dir)
    notices: list[Notice] = []
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # reported as read-only just below
    if not data_dir.is_dir() or not writable_dir(data_dir) or (
            path.exists() and not os.access(path, os.W_OK)):
        return _read_only(path, notices, READ_ONLY, folder=data_dir), notices
    try:
        try:
            store = _open_or_replace_damaged(path, data_dir, now, notices)
        except TooNewDatabase as exc:
            newer, path = path, side_path(path)
            notices.append(Notice(TOO_NEW, newer, {"side_path": path, "version": exc.version,
                                                   "supported": SCHEMA_VERSION}))
            store = _open_or_replace_damaged(path, data_dir, now, notices)
    except (StorageError, TooNewDatabase, CorruptDatabase, sqlite3.Error) as exc:
        if isinstance(exc, StorageFull):
            return _read_only(path, notices, DISK_FULL), notices
        return _read_only(path, notices, STORAGE, detail=_detail(exc, path)), notices
    if not any(n.kind == CORRUPT for n in notices):  # a fresh file must not push out backups
        _backup(store.path, data_dir, now, keep_backups, notices)
    free = shutil.disk_usage(data_dir).free
    if free < LOW_DISK_BYTES:
        notices.append(Notice(LOW_DISK, data_dir, {"free_mib": f"{free / 2**20:.1f}"}))
    return store, notices


def _backup(path: Path, data_dir: Path, now: datetime, keep: int,
            notices: list[Notice]) -> None:
    try:
        backups.daily_backup(path, data_dir, today=now.date(), keep=keep)
    except Exception as exc:  # noqa: BLE001 - a failed backup must not stop the app
        folder = backups.backups_dir(data_dir)
        notices.append(Notice(BACKUP_FAILED, folder, {"detail": exc}))
