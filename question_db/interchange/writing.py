"""What the exporters share: a file is written whole or not at all, and every field a
format cannot carry is reported, naming the question and the field."""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

from ..enums import OBJECTIVE_TYPES
from ..model import Paper, Problem, Question

__all__ = ["dropped", "has_key", "media_file", "question_mtime"]


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
