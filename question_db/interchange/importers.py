"""One entry point for every importer: ``import_file(path, fmt="auto")``.

Formats: ``text`` (.txt, any damage, any of the encodings ``encoding`` reads),
``markdown``, ``html``, ``pdf``, ``docx``, ``moodle-xml`` and ``gift``. ``auto`` decides by
content, not by name (GIFT files usually end in .txt, a saved page may be .txt): ``%PDF-``
is pdf, a zip with ``word/document.xml`` is docx, XML whose root is ``<quiz>`` is Moodle
XML, a doctype / ``<html>`` root or several block tags is HTML, text that
``looks_like_gift`` is GIFT, text with two kinds of Markdown marks, one of them not a
plain-text habit (``looks_like_markdown``), is Markdown, anything else is text.
"""
from __future__ import annotations

import codecs
import importlib
import re
import zipfile
from pathlib import Path
from typing import Callable

from .encoding import UnreadableInput, decode_bytes
from .pack import ImportResult

__all__ = ["FORMATS", "FormatUnavailable", "import_file", "detect_format", "looks_like_gift",
           "looks_like_html", "looks_like_markdown", "import_pasted", "detection_sample"]

FORMATS = ("auto", "text", "markdown", "html", "pdf", "docx", "moodle-xml", "gift")
# format -> (module, function) of the importer; imported only when used
_READERS = {
    "text": ("question_db.interchange.text_import", "read_text_paper"),
    "markdown": ("question_db.interchange.text_import", "read_markdown_paper"),
    "html": ("question_db.interchange.text_import", "read_html_paper"),
    "pdf": ("question_db.interchange.text_import", "read_pdf_paper"),
    "docx": ("question_db.interchange.text_import", "read_docx_paper"),
    "moodle-xml": ("question_db.interchange.moodle", "read_moodle_xml"),
    "gift": ("question_db.interchange.gift", "read_gift"),
}
_XML_ROOT = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*"
                       r"<\s*([A-Za-z_][\w.:-]*)", re.S)


class FormatUnavailable(RuntimeError):
    """The importer for this format is not installed in this build."""


def import_file(path: Path | str, *, fmt: str = "auto", paper_id: str | None = None,
                title: str | None = None) -> ImportResult:
    """Read ``path`` as ``fmt`` (or the format its content shows) into a draft.

    Raises ``UnreadableInput`` (file:reason) for a missing, empty, binary or undecodable
    file or one with no questions, and ``FormatUnavailable`` for a format whose importer
    is not available."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    path = Path(path)
    if fmt == "auto":
        fmt = detect_format(path)
    return _reader(fmt)(path, paper_id=paper_id, title=title)


def _reader(fmt: str) -> Callable[..., ImportResult]:
    module_name, function = _READERS[fmt]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise FormatUnavailable(f"the {fmt} importer is not available in this version of "
                                f"examdesk ({module_name} is missing)") from None
    return getattr(module, function)


SAMPLE_BYTES = 1 << 16


def detect_format(path: Path) -> str:
    """One of ``FORMATS`` (not ``auto``), from the file's bytes (see the module doc)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(SAMPLE_BYTES)
            complete = not fh.read(1)
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as zf:
                if "word/document.xml" in zf.namelist():
                    return "docx"
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
            raise UnreadableInput(path, f"is a damaged zip archive (a .docx cut short or "
                                        f"corrupted?): {exc}") from None
        raise UnreadableInput(path, "is a zip archive but not a Word .docx file")
    if not head.strip():
        raise UnreadableInput(path, "is empty")
    text = detection_sample(head, complete=complete, name=str(path))
    root = _XML_ROOT.match(text)
    if root and root[1].lower() == "quiz":
        return "moodle-xml"
    if _HTML_START.match(text):
        return "html"
    if not root and looks_like_gift(text):
        # before the tag count: a GIFT file's [html] questions are full of tags (our own
        # export read back as a web page kept 5 of 26 questions)
        return "gift"
    if looks_like_html(text):
        return "html"
    if root:
        return "text"
    if looks_like_markdown(text):
        return "markdown"
    return "text"


def detection_sample(head: bytes, *, complete: bool, name: str = "<input>") -> str:
    """The text of a file's first bytes. When they are not the whole file the cut may
    split a character (issue 28 item 6): the sample ends at the last whole character of
    its encoding, so a UTF-8 file is never mistaken for GB18030 or refused."""
    if complete:
        return decode_bytes(head, name=name).text
    if not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE,
                            codecs.BOM_UTF32_BE)):
        for cut in range(4):  # a UTF-8 character is at most 4 bytes
            try:
                (head[:len(head) - cut] if cut else head).decode("utf-8")
            except UnicodeDecodeError as exc:
                if exc.start < len(head) - cut - 3:
                    break  # an invalid byte well before the end: not UTF-8
                continue
            return decode_bytes(head[:len(head) - cut] if cut else head, name=name).text
    first = None
    for cut in range(4):  # UTF-16 surrogate pairs, GB18030's four-byte characters
        try:
            return decode_bytes(head[:len(head) - cut] if cut else head, name=name).text
        except UnreadableInput as exc:
            first = first or exc
    raise first


_HTML_START = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*"
                         r"(?:<!doctype\s+html\b|<html[\s>])", re.I | re.S)
_HTML_BLOCK = re.compile(r"<(p|div|br|li|ol|ul|table|tr|td|h[1-6]|pre|body|section|"
                         r"article|main|span|blockquote)\b[^<>]*>", re.I)
_HTML_CLOSE = re.compile(r"</(p|div|li|ol|ul|table|tr|td|h[1-6]|pre|body|section|article|"
                         r"main|span|blockquote)\s*>", re.I)


def looks_like_html(text: str) -> bool:
    """A doctype or ``<html>`` first, or at least four block tags of two kinds and three
    end tags (a paper about HTML quotes a tag or two, not a page of them)."""
    if _HTML_START.match(text):
        return True
    opened = _HTML_BLOCK.findall(text)
    closed = _HTML_CLOSE.findall(text)
    kinds = {tag.lower() for tag in opened}
    return len(opened) >= 4 and len(kinds) >= 2 and len(closed) >= 3


_MD_FENCE = re.compile(r"^ {0,3}(```|~~~)[^`\n]*\n.*?^ {0,3}\1\s*$", re.M | re.S)
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S", re.M)
_MD_BOLD = re.compile(r"(?<![A-Za-z0-9_*])\*\*(?=\S)[^*\n]{1,200}?(?<=\S)\*\*(?![A-Za-z0-9_*])")
_MD_BULLET = re.compile(r"^ {0,3}[-*+][ \t]+\S", re.M)
_MD_TABLE = re.compile(r"^ {0,3}\|?\s*:?-{3,}:?\s*\|", re.M)
_MD_LINK = re.compile(r"!?\[[^\]\n]{1,200}\]\([^)\s]{1,500}\)")


def looks_like_markdown(text: str) -> bool:
    """At least two kinds of Markdown marks outside fenced code, one of them a mark plain
    text does not use: ATX headings, ``**bold**``, a table's rule row, links. Fenced code
    and ``-`` bullets alone are plain-text papers' own habits (the text reader reads
    them), and one kind alone is common in damaged text (a ``# comment`` of its code, a
    ``**`` power)."""
    weak = 0
    if _MD_FENCE.search(text):
        weak += 1
        text = _MD_FENCE.sub("", text)
    weak += len(_MD_BULLET.findall(text)) >= 2
    strong = (bool(_MD_HEADING.search(text)) + bool(_MD_BOLD.search(text))
              + bool(_MD_TABLE.search(text)) + bool(_MD_LINK.search(text)))
    return strong >= 1 and strong + weak >= 2


# GIFT (Moodle's plain-text format): "::title::", answer blocks "{=right ~wrong}",
# "{T}"/"{F}", "{#3.5:0.1}", "// comments", "$CATEGORY:". A damaged Chinese paper has
# none of these, and Chinese text almost never puts "=" or "~" right after "{".
_GIFT_TITLE = re.compile(r"^\s*::[^:\n]{1,200}::", re.M)
_GIFT_BLOCK = re.compile(r"\{\s*(?:[=~](?!=)|#[\d\s.:-]|T\s*\}|F\s*\}|TRUE\s*\}|FALSE\s*\})")
_GIFT_CATEGORY = re.compile(r"^\s*\$CATEGORY:", re.M)


def looks_like_gift(text: str) -> bool:
    """Conservative: at least two GIFT answer blocks and the blocks account for most
    questions (titles or blank-line-separated items), or a ``$CATEGORY:`` line with one."""
    blocks = _GIFT_BLOCK.findall(text)
    if _GIFT_CATEGORY.search(text) and blocks:
        return True
    if len(blocks) < 2:
        return False
    titles = len(_GIFT_TITLE.findall(text))
    items = [chunk for chunk in re.split(r"\n\s*\n", text) if chunk.strip()
             and not chunk.lstrip().startswith("//")]
    with_block = sum(1 for chunk in items if _GIFT_BLOCK.search(chunk))
    if titles >= 2 and titles <= len(blocks) + 1:
        return True
    return with_block >= 2 and with_block >= 0.6 * len(items)


def import_pasted(text: str, *, paper_id: str | None = None,
                  title: str | None = None) -> ImportResult:
    """Pasted text (a paper copied from a web page, GIFT or Moodle XML) as a draft: the
    text goes through the same detection and importers as a file would."""
    import tempfile
    import time

    if not text.strip():
        raise UnreadableInput("<pasted text>", "is empty")
    paper_id = paper_id or time.strftime("pasted-%Y%m%d-%H%M%S")
    from ..model import Problem

    with tempfile.TemporaryDirectory(prefix="examdesk-paste-") as folder:
        path = Path(folder) / f"{paper_id}.txt"
        path.write_text(text, encoding="utf-8")
        try:
            result = import_file(path, paper_id=paper_id, title=title)
        except UnreadableInput as exc:
            raise UnreadableInput("<pasted text>", exc.reason) from None
    result.paper.source = None  # a temporary file name is no source
    result.warnings = [Problem("<pasted text>", w.question, w.field, w.message)
                       if w.file == str(path) else w for w in result.warnings]
    return result
