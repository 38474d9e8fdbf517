"""Write a file so that a reader sees the old content or the new, never half of either.

The new content goes to a temporary file in the same folder (same file system), is flushed
to disk, and replaces the target with one ``os.replace``. An exception while writing
(a full disk, a bug in the writer) removes the temporary file and leaves the old one intact.
Used by every export: progress (JSON/CSV), the bank (JSON), Anki, Moodle XML and GIFT.
"""
from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

__all__ = ["atomic_path", "atomic_write", "write_atomically"]


@contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """A temporary file beside ``path`` for a writer that wants a file name (genanki); it
    replaces ``path`` only when the block ends without an exception (flushed first)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=folder)
    os.close(fd)
    partial = Path(name)
    try:
        yield partial
        with partial.open("rb+") as fh:
            os.fsync(fh.fileno())
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
        os.chmod(partial, mode)  # mkstemp makes it 0600; keep what a normal file gets
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(path: Path | str, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """``with atomic_write(path) as fh: fh.write(...)``; binary with ``mode="wb"``."""
    binary = "b" in mode
    with atomic_path(path) as partial:
        with open(partial, mode, **({} if binary else {"encoding": encoding,
                                                       "newline": newline})) as fh:
            yield fh


def write_atomically(path: Path | str, data: bytes) -> None:
    """``data`` as the whole new content of ``path``."""
    with atomic_path(path) as partial:
        partial.write_bytes(data)
