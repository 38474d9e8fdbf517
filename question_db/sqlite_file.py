"""Disk-level facts about one SQLite file: the errors a disk causes, a connection that cannot
write, and a consistent copy (the SQLite backup API). No schema knowledge here."""
from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path

from . import messages

__all__ = ["StorageError", "StorageFull", "StorageReadOnly", "storage_error", "is_corruption",
           "read_only_connection", "writable_dir", "copy_database", "SIDE_FILES", "set_aside",
           "has_files"]


class StorageError(Exception):
    """The disk refused a read or write. ``kind`` names what happened (a key of
    ``messages.TEMPLATES``: disk_full, read_only, locked, disk_io), ``path`` the file;
    ``text()`` is the learner's message, English or translated. A failed write was rolled
    back whole: earlier progress is intact."""

    kind = "disk_io"

    def __init__(self, path: Path, *, kind: str | None = None, detail: str = ""):
        self.path = Path(path)
        self.kind = kind or type(self).kind
        self.detail = detail
        super().__init__(self.text())

    def text(self, translate: messages.Translate | None = None) -> str:
        return messages.render(self.kind, {"path": self.path, "detail": self.detail},
                               translate)


class StorageFull(StorageError):
    """The disk (or the file's page limit) is full."""

    kind = "disk_full"


class StorageReadOnly(StorageError):
    """The file or its folder cannot be written."""

    kind = "read_only"


def storage_error(path: Path, exc: sqlite3.Error) -> StorageError | None:
    """The learner-facing error for a disk-level SQLite failure; None for any other error."""
    name = getattr(exc, "sqlite_errorname", "")  # Python >= 3.11; the message otherwise
    text = str(exc)
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return StorageFull(path)
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return StorageReadOnly(path)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return StorageError(path, kind="locked")
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM")) or any(
            t in text for t in ("disk I/O error", "unable to open database file")):
        return StorageError(path, detail=text)
    return None


def is_corruption(exc: sqlite3.Error) -> bool:
    """True only for damage (SQLITE_CORRUPT, SQLITE_NOTADB): a locked or unreadable file is
    healthy as far as we know, and must never be moved aside as damaged."""
    name = getattr(exc, "sqlite_errorname", "")
    if name:
        return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    return any(t in str(exc) for t in ("malformed", "not a database"))


def read_only_connection(path: Path) -> sqlite3.Connection:
    """A connection that cannot modify ``path``.

    A WAL file needs its -shm beside it even to be read; in a folder where that cannot be
    created (SQLITE_CANTOPEN on a read-only mount, SQLITE_READONLY_DIRECTORY without write
    permission) fall back to ``immutable=1``, which reads the main file alone: it misses
    commits still in a -wal (left by a crash, or written by a user who may write there).
    """
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        conn.execute("PRAGMA schema_version").fetchone()  # the file opens lazily
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if writable_dir(path.parent):
            raise
    except BaseException:
        # "file is not a database" is a DatabaseError, not an OperationalError: without this
        # close the damaged file stayed open until garbage collection, while recovery renames
        # it aside (found by tests/leaks.py after tests/test_faults_app.py).
        conn.close()
        raise
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)


def writable_dir(folder: Path) -> bool:
    """Whether a file can be created in ``folder``, by trying (``os.access`` ignores a
    read-only mount for root on some systems and ACLs everywhere)."""
    probe = folder / f".examdesk-write-test-{os.getpid()}"
    try:
        probe.open("xb").close()
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        probe.unlink()
    except OSError:
        pass
    return True


def copy_database(source: Path, dest: Path) -> None:
    """Copy ``source`` to ``dest`` as one consistent snapshot, even while another connection
    writes to it, and verify the copy; ``dest`` appears only once complete and checked.

    ``Connection.backup`` with the default ``pages=-1`` copies every page in one step inside
    one read transaction; a plain file copy of a WAL database would miss the -wal or tear.
    """
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    src = read_only_connection(source)
    try:
        out = sqlite3.connect(partial)
        try:
            src.backup(out)
            problems = [r[0] for r in out.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(f"the copy of {source} failed its check: "
                                            + "; ".join(problems[:3]))
        finally:
            out.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, dest)


SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's companions, named after the main file


def set_aside(path: Path, reason: str, when: datetime) -> Path:
    """Rename ``path`` and its -wal/-shm/-journal to ``<stem>.<reason>-YYYYMMDD-HHMMSS<suffix>``
    beside it, never overwriting; returns the new main path.

    The companions move with it: its -wal may hold the newest commits, and a stale -wal left
    beside a new file of the old name would be replayed into that file.
    """
    stamp = when.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        tag = f"{reason}-{stamp}" + (f"-{n}" if n > 1 else "")
        dest = path.with_name(f"{path.stem}.{tag}{path.suffix}")
        if not any(Path(f"{dest}{s}").exists() for s in ("", *SIDE_FILES)):
            break
    else:
        raise FileExistsError(f"{path}: no free name to set it aside")
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        if side.exists():
            os.replace(side, f"{dest}{suffix}")
    if path.exists():  # last: until here the file is still found under its own name
        os.replace(path, dest)
    return dest


def has_files(path: Path) -> bool:
    """Whether ``path`` or any of its SQLite companions exists."""
    return any(Path(f"{path}{s}").exists() for s in ("", *SIDE_FILES))
