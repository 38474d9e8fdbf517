"""Daily backups of the progress file, made with the SQLite backup API, and restoring one.

``data_dir/backups/<stem>-YYYYMMDD<suffix>``: at most one a day, the newest ``keep`` kept.
A backup is a consistent snapshot even while the app writes, and is checked before it gets
its final name, so a file that carries a backup's name is always a good copy.
"""
from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime
from pathlib import Path

from .sqlite_file import copy_database, has_files, read_only_connection, set_aside
from .schema import SCHEMA_VERSION

__all__ = ["BACKUP_DIR", "KEEP", "backups_dir", "list_backups", "daily_backup",
           "is_good_backup", "newest_good_backup", "restore_backup"]

BACKUP_DIR = "backups"
KEEP = 7


def backups_dir(data_dir: Path) -> Path:
    return Path(data_dir) / BACKUP_DIR


def _pattern(db_path: Path) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(db_path.stem)}-(\d{{8}}){re.escape(db_path.suffix)}$")


def list_backups(data_dir: Path, db_path: Path) -> list[Path]:
    """Backups of ``db_path`` (by its name), newest first."""
    folder = backups_dir(data_dir)
    if not folder.is_dir():
        return []
    pattern = _pattern(db_path)
    found = [(m.group(1), p) for p in folder.iterdir() if (m := pattern.match(p.name))]
    return [p for _, p in sorted(found, reverse=True)]


def daily_backup(db_path: Path, data_dir: Path, *, today: date | None = None,
                 keep: int = KEEP) -> Path | None:
    """Back up ``db_path`` unless today's backup exists; prune to the newest ``keep``.

    Returns the new backup, or None when today's was already there. Raises ``OSError`` /
    ``sqlite3.Error`` (a full disk, say); nothing is pruned then.
    """
    day = today or date.today()
    folder = backups_dir(data_dir)
    dest = folder / f"{db_path.stem}-{day:%Y%m%d}{db_path.suffix}"
    if dest.exists():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    copy_database(db_path, dest)
    for old in list_backups(data_dir, db_path)[keep:]:
        old.unlink()
    return dest


def is_good_backup(path: Path) -> bool:
    """Readable, undamaged, and not from a newer examdesk."""
    try:
        conn = read_only_connection(path)
        try:
            if [r[0] for r in conn.execute("PRAGMA quick_check")] != ["ok"]:
                return False
            return 0 < conn.execute("PRAGMA user_version").fetchone()[0] <= SCHEMA_VERSION
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def newest_good_backup(data_dir: Path, db_path: Path) -> Path | None:
    return next((p for p in list_backups(data_dir, db_path) if is_good_backup(p)), None)


def restore_backup(backup: Path, db_path: Path, *, now: datetime | None = None) -> Path | None:
    """Make ``db_path`` a copy of ``backup``. Call it while no store has the file open.

    The current file (with its -wal/-shm) is set aside as ``<stem>.replaced-…``, not
    deleted: it may hold answers given since. Returns where it went (None if there was none).
    """
    if not is_good_backup(backup):
        raise ValueError(f"{backup}: not a usable progress backup")
    moved = set_aside(db_path, "replaced", now or datetime.now()) if has_files(db_path) else None
    copy_database(backup, db_path)
    return moved
