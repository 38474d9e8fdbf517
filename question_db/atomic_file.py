"""Write a file so that a reader sees the old content or the new, never half of either.

The new content goes to a temporary file in the same folder (same file system), is flushed
to disk, and replaces the target with one ``os.replace``. An exception while writing
(a full disk, a bug in the writer) removes the temporary file and leaves the old one intact.
Used by every export: progress (JSON/CSV), the bank (JSON), Anki, Moodle XML and GIFT.

A new file gets the mode ``open()`` would give it, 0o666 less the process umask (the kernel
applies the umask to ``os.open``'s mode: ``mkstemp``'s fixed 0o600 and a chmod to 0o644
did not, so a learner with umask 077 got world-readable exports); a replaced file keeps its
mode. ``private`` files (the learner's own progress, like the progress database) are 0o600
whatever the umask or the file replaced.
"""
from __future__ import annotations

import os
import secrets
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

__all__ = ["atomic_path", "atomic_write", "write_atomically"]


_PRIVATE_MODE = 0o600  # the learner's progress: as the progress database


def _new_file_beside(path: Path, mode: int) -> Path:
    """An empty new file ``.NAME.<random>.partial`` beside ``path``, created with ``mode``
    less the umask."""
    folder = path.parent if str(path.parent) else Path(".")
    for _ in range(100):
        partial = folder / f".{path.name}.{secrets.token_hex(4)}.partial"
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_BINARY", 0), mode)
        except FileExistsError:
            continue
        os.close(fd)
        return partial
    raise FileExistsError(f"{folder}: no free temporary name for {path.name}")


@contextmanager
def atomic_path(path: Path | str, *, private: bool = False) -> Iterator[Path]:
    """A temporary file beside ``path`` for a writer that wants a file name (genanki); it
    replaces ``path`` only when the block ends without an exception (flushed first).
    ``private``: 0o600 (see the module's docstring for the modes)."""
    path = Path(path)
    partial = _new_file_beside(path, _PRIVATE_MODE if private else 0o666)
    try:
        yield partial
        with partial.open("rb+") as fh:
            os.fsync(fh.fileno())
        if not private and path.exists():
            os.chmod(partial, stat.S_IMODE(path.stat().st_mode))  # a replaced file's mode
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(path: Path | str, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None, private: bool = False) -> Iterator[IO]:
    """``with atomic_write(path) as fh: fh.write(...)``; binary with ``mode="wb"``."""
    binary = "b" in mode
    with atomic_path(path, private=private) as partial:
        with open(partial, mode, **({} if binary else {"encoding": encoding,
                                                       "newline": newline})) as fh:
            yield fh


def write_atomically(path: Path | str, data: bytes, *, private: bool = False) -> None:
    """``data`` as the whole new content of ``path``."""
    with atomic_path(path, private=private) as partial:
        partial.write_bytes(data)
