"""What the exporters share: a file is written whole or not at all, and every field a
format cannot carry is reported, naming the question and the field."""
from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlparse

from ..model import OBJECTIVE_TYPES, Paper, Problem, Question


@contextmanager
def atomic_output(path: Path | str) -> Iterator[Path]:
    """A temporary file beside ``path`` to write to; it replaces ``path`` only when the
    block ends without an exception (flushed first), so a half-written export never
    takes the place of a good one."""
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


def write_atomically(path: Path | str, data: bytes) -> None:
    with atomic_output(path) as partial:
        partial.write_bytes(data)


def dropped(question: Question, field: str, fmt: str, message: str) -> Problem:
    """A warning: ``fmt`` cannot carry ``field`` of ``question`` (as ``message`` says)."""
    return Problem(question.source_file or question.id, question.id, field,
                   f"{fmt}: {message}")


def has_key(question: Question) -> bool:
    """Whether the question has a key a quiz tool can grade against (void ones do not)."""
    if question.status == "void":
        return False
    if question.type in OBJECTIVE_TYPES:
        return bool(question.answer)
    return True


def media_file(paper: Paper, src: str) -> Path | None:
    """The file an image source names, if it is a file inside the paper's folder."""
    if paper.folder is None or urlparse(src).scheme or src.startswith(("/", "\\")):
        return None
    path = (paper.folder / src).resolve()
    if not path.is_relative_to(paper.folder.resolve()) or not path.is_file():
        return None
    return path


def question_mtime(question: Question) -> float:
    """When the question last changed on disk: its file and every file it names."""
    paths = [question.source_file, question.verify]
    if question.code:
        code = question.code
        paths += [code.reference, code.starter, code.seed, code.check, *code.wrong]
    times = []
    for p in paths:
        if p:
            try:
                times.append(os.stat(p).st_mtime)
            except OSError:
                continue
    return max(times, default=0.0)
