"""One entry point for every importer: ``import_file(path, fmt="auto")``.

Formats: ``text`` (.txt/.md, any damage, any of the encodings ``encoding`` reads),
``docx``, ``moodle-xml`` and ``gift``. ``auto`` decides by content, not by name (GIFT files
usually end in .txt): a zip with ``word/document.xml`` is docx, XML whose root is
``<quiz>`` is Moodle XML, text that ``looks_like_gift`` is GIFT, anything else is text.
"""
from __future__ import annotations

import importlib
import re
import zipfile
from pathlib import Path
from typing import Callable

from .encoding import UnreadableInput, decode_bytes
from .pack import ImportResult

__all__ = ["FORMATS", "FormatUnavailable", "import_file", "detect_format", "looks_like_gift",
           "import_pasted"]

FORMATS = ("auto", "text", "docx", "moodle-xml", "gift")
# format -> (module, function) of the importer; imported only when used
_READERS = {
    "text": ("question_db.interchange.text_import", "read_text_paper"),
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


def detect_format(path: Path) -> str:
    """``docx``, ``moodle-xml``, ``gift`` or ``text``, from the file's bytes."""
    try:
        with path.open("rb") as fh:
            head = fh.read(1 << 16)
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as zf:
                if "word/document.xml" in zf.namelist():
                    return "docx"
        except zipfile.BadZipFile:
            pass
        raise UnreadableInput(path, "is a zip archive but not a Word .docx file")
    if not head.strip():
        raise UnreadableInput(path, "is empty")
    try:
        text = decode_bytes(head, name=str(path)).text
    except UnreadableInput:
        if len(head) == 1 << 16:  # the sample may have cut a multi-byte character
            text = decode_bytes(head[:-4], name=str(path)).text
        else:
            raise
    root = _XML_ROOT.match(text)
    if root:
        return "moodle-xml" if root[1].lower() == "quiz" else "text"
    if looks_like_gift(text):
        return "gift"
    return "text"


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
