"""Write a file so that a reader sees the old content or the new, never half of either.

The new content goes to a temporary file in the same folder (same file system), is flushed
to disk, and replaces the target with one ``os.replace``. An exception while writing
(a full disk, a bug in the writer) removes the temporary file and leaves the old one intact.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

__all__ = ["atomic_write"]


@contextmanager
def atomic_write(path: Path | str, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """``with atomic_write(path) as fh: fh.write(...)``; binary with ``mode="wb"``."""
    path = Path(path)
    binary = "b" in mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if binary else {"encoding": encoding,
                                                        "newline": newline})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
