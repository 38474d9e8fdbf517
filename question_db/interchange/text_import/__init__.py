"""Import a paper that arrived as text (.txt), Markdown, HTML, PDF or Word (.docx), however
damaged by web extraction, as a draft pack. ``read_text_paper`` / ``read_markdown_paper`` /
``read_html_paper`` / ``read_pdf_paper`` / ``read_docx_paper`` return an ``ImportResult``;
``pack.write_pack`` puts it on disk.

Each format has a reader that turns the file into the paper text ``import_text`` takes
(``paper_text`` states that contract and the size limits): ``markdown_in``, ``html_in``,
``pdf``, ``docx``. Then ``prose`` (repairs by rule), ``segment`` (title, sections,
numbers, options, keys), ``code_lexer`` / ``code_parse`` / ``code_layout`` / ``code`` (run-on
Python back to statements, compiled, deleted operators flagged), ``build`` (the draft).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..encoding import UnreadableInput, read_text_file
from ..pack import ImportResult
from .build import NoQuestions, import_text
from .paper_text import check_file_size, check_text_size

__all__ = ["NoQuestions", "import_text", "paper_id_for", "read_docx_paper", "read_html_paper",
           "read_markdown_paper", "read_pdf_paper", "read_text_paper"]


def paper_id_for(path: Path | str) -> str:
    """A pack id from a file name: ``000_88fc.txt`` -> ``000_88fc``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(path).stem).strip("-")
    return stem or "imported"


def _draft(path: Path | str, text: str, encoding: str, paper_id: str | None,
           title: str | None) -> ImportResult:
    check_text_size(path, text)
    try:
        return import_text(text, paper_id=paper_id or paper_id_for(path), title=title,
                           source=Path(path).name, encoding=encoding, name=str(path))
    except NoQuestions as exc:
        raise UnreadableInput(path, str(exc).split(": ", 1)[-1]) from None


def read_text_paper(path: Path | str, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """A .txt paper in UTF-8 (with or without BOM), UTF-16/32 or GB18030/GBK."""
    check_file_size(path)
    decoded = read_text_file(path)
    return _draft(path, decoded.text, decoded.encoding, paper_id, title)


def read_markdown_paper(path: Path | str, *, paper_id: str | None = None,
                        title: str | None = None) -> ImportResult:
    """A Markdown paper (CommonMark + tables), in any encoding a .txt may have."""
    from .markdown_in import markdown_text

    text, encoding = markdown_text(path)
    return _draft(path, text, encoding, paper_id, title)


def read_html_paper(path: Path | str, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """A saved web page (its ``<main>`` or ``<article>`` when it has one)."""
    from .html_in import html_text

    text, encoding = html_text(path)
    return _draft(path, text, encoding, paper_id, title)


def read_pdf_paper(path: Path | str, *, paper_id: str | None = None,
                   title: str | None = None) -> ImportResult:
    """A text PDF (not a scan): page furniture dropped, wrapped lines joined, code fenced."""
    from .pdf import pdf_text  # deferred: pdfminer is only needed here

    return _draft(path, pdf_text(path), "pdf", paper_id, title)


def read_docx_paper(path: Path | str, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """A Word .docx paper (list numbering rendered, tables as rows, monospace as code)."""
    from .docx import docx_text  # deferred: python-docx is only needed here

    return _draft(path, docx_text(path), "docx", paper_id, title)
