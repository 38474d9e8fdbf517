"""Import a paper that arrived as text (.txt, .md) or Word (.docx), however damaged by
web extraction, as a draft pack. ``read_text_paper`` / ``read_docx_paper`` return an
``ImportResult``; ``pack.write_pack`` puts it on disk.

Modules: ``prose`` (repairs by rule), ``segment`` (title, sections, numbers, options,
keys), ``code_lexer`` / ``code_parse`` / ``code_layout`` / ``code`` (run-on Python back to
statements, compiled, deleted operators flagged), ``build`` (the draft), ``docx``.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..encoding import UnreadableInput, read_text_file
from ..pack import ImportResult
from .build import NoQuestions, import_text

__all__ = ["NoQuestions", "import_text", "paper_id_for", "read_docx_paper", "read_text_paper"]


def paper_id_for(path: Path | str) -> str:
    """A pack id from a file name: ``000_88fc.txt`` -> ``000_88fc``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(path).stem).strip("-")
    return stem or "imported"


def read_text_paper(path: Path | str, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """A .txt or .md paper in UTF-8 (with or without BOM), UTF-16/32 or GB18030/GBK."""
    decoded = read_text_file(path)
    try:
        return import_text(decoded.text, paper_id=paper_id or paper_id_for(path),
                           title=title, source=Path(path).name, encoding=decoded.encoding,
                           name=str(path))
    except NoQuestions as exc:
        raise UnreadableInput(path, str(exc).split(": ", 1)[-1]) from None


def read_docx_paper(path: Path | str, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """A Word .docx paper (paragraphs and tables in order; monospace runs as code)."""
    from .docx import docx_text  # deferred: python-docx is only needed here

    text = docx_text(path)
    try:
        return import_text(text, paper_id=paper_id or paper_id_for(path), title=title,
                           source=Path(path).name, encoding="docx", name=str(path))
    except NoQuestions as exc:
        raise UnreadableInput(path, str(exc).split(": ", 1)[-1]) from None
