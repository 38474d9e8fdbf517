"""The text of a .docx paper, read with python-docx: body paragraphs and table cells in
document order, one line each (a cell per line); consecutive code paragraphs (a "Code"/"HTML" style or every
run in a monospace font) are fenced as ```python so the code path repairs them."""
from __future__ import annotations

import zipfile
from pathlib import Path

from ..encoding import UnreadableInput

MONOSPACE = ("consolas", "courier", "courier new", "menlo", "monaco", "source code pro",
             "dejavu sans mono", "liberation mono", "jetbrains mono", "cascadia",
             "lucida console", "noto sans mono", "sf mono", "fira code", "fira mono")


def docx_text(path: Path | str) -> str:
    try:
        import docx  # python-docx
        from docx.opc.exceptions import PackageNotFoundError
    except ImportError as exc:  # pragma: no cover - it is a dependency
        raise UnreadableInput(path, f"reading .docx needs python-docx ({exc})") from None
    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise UnreadableInput(path, f"is not a readable .docx file ({exc})") from None
    lines: list[str] = []
    in_code = False
    for kind, item in _blocks(document):
        if kind == "table":
            if in_code:
                lines.append("```")
                in_code = False
            for row in item.rows:  # options are often laid out in a table: a cell a line
                cells = [c.text.strip() for c in row.cells]
                lines += list(dict.fromkeys(c for c in cells if c))  # merged cells repeat
            continue
        code = _is_code(item) if item.text.strip() else in_code  # blank lines stay put
        if code and not in_code:
            lines.append("```python")
            in_code = True
        elif not code and in_code:
            lines.append("```")
            in_code = False
        lines.append(item.text)
    if in_code:
        lines.append("```")
    text = "\n".join(lines)
    if not text.strip():
        raise UnreadableInput(path, "the document has no text")
    return text


def _blocks(document):
    """Paragraphs and tables in the order they appear in the body."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    body = document.element.body
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield "p", Paragraph(child, document)
        elif tag == "tbl":
            yield "table", Table(child, document)


def _is_code(paragraph) -> bool:
    style = paragraph.style
    name = (style.name if style is not None else "").lower()
    if any(word in name for word in ("code", "preformatted", "source", "verbatim")):
        return True  # Word's "HTML Preformatted", LibreOffice's "Preformatted Text"
    style_font = (style.font.name if style is not None and style.font else None) or ""
    runs = [r for r in paragraph.runs if r.text.strip()]
    if not runs:
        return False
    return all((r.font.name or style_font).lower().startswith(MONOSPACE) for r in runs)
