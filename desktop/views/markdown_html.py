"""The bank's light Markdown → the HTML subset Qt rich text understands.

Covers what the question files use: paragraphs, ``#`` headings, ``- `` and ``1. `` lists,
``**bold**``, ``inline code``, pipe tables and fenced code blocks (``python`` highlighted
with Pygments, inline styles because QTextDocument has no stylesheet classes). Single line
breaks inside a paragraph are kept: the seed texts rely on them.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, get_lexer_by_name
from pygments.util import ClassNotFound

LIGHT_STYLE, DARK_STYLE = "default", "monokai"
_FENCE = re.compile(r"^\s*```\s*([\w+-]*)\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d+)[.)]\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _code_colors(dark: bool) -> tuple[str, str]:
    return ("#272822", "#f8f8f2") if dark else ("#f5f5f5", "#1f1f1f")


def inline(text: str, *, dark: bool = False) -> str:
    """Escape ``text`` and render its inline markup (code spans, bold)."""
    background, _ = _code_colors(dark)
    pieces = []
    last = 0
    for match in _INLINE_CODE.finditer(text):
        pieces.append(_BOLD.sub(r"<b>\1</b>", html.escape(text[last:match.start()], quote=False)))
        pieces.append(f'<code style="background-color:{background}">'
                      f"{html.escape(match.group(1), quote=False)}</code>")
        last = match.end()
    pieces.append(_BOLD.sub(r"<b>\1</b>", html.escape(text[last:], quote=False)))
    return "".join(pieces)


@lru_cache(maxsize=512)
def highlight_code(code: str, language: str = "python", *, dark: bool = False) -> str:
    """A code block as inline-styled HTML (cached: Pygments costs ~4 ms per block warm)."""
    background, foreground = _code_colors(dark)
    try:
        lexer = PythonLexer() if language in ("", "python", "py") else get_lexer_by_name(language)
    except ClassNotFound:
        body = html.escape(code, quote=False)
    else:
        formatter = HtmlFormatter(noclasses=True, nowrap=True,
                                  style=DARK_STYLE if dark else LIGHT_STYLE)
        body = highlight(code, lexer, formatter)
    # A one-cell table is the reliable way to get a padded, coloured block in Qt rich text.
    return (f'<table width="100%" cellpadding="8" cellspacing="0" '
            f'style="background-color:{background}; margin-top:4px; margin-bottom:4px">'
            f'<tr><td><pre style="color:{foreground}; margin:0">{body.rstrip()}</pre>'
            f"</td></tr></table>")


def _table(rows: list[str], dark: bool) -> str:
    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    head, body = cells(rows[0]), [cells(r) for r in rows[2:]]
    border = "#555" if dark else "#bbb"
    out = [f'<table cellpadding="4" cellspacing="0" border="1" '
           f'style="border-color:{border}; border-collapse:collapse">',
           "<tr>" + "".join(f"<th>{inline(c, dark=dark)}</th>" for c in head) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{inline(c, dark=dark)}</td>" for c in row) + "</tr>"
            for row in body]
    out.append("</table>")
    return "".join(out)


@lru_cache(maxsize=1024)
def markdown_to_html(text: str, *, dark: bool = False) -> str:
    """Render question Markdown; cached per text, so each question is highlighted once."""
    lines = text.strip("\n").splitlines()
    out: list[str] = []
    paragraph: list[str] = []
    list_kind: str | None = None  # "ul" or "ol" while inside a list
    i = 0

    def close_paragraph() -> None:
        if paragraph:
            out.append("<p>" + "<br/>".join(inline(p, dark=dark) for p in paragraph) + "</p>")
            paragraph.clear()

    def close_list() -> None:
        nonlocal list_kind
        if list_kind:
            out.append(f"</{list_kind}>")
            list_kind = None

    def open_list(kind: str, start: int = 1) -> None:
        nonlocal list_kind
        if list_kind != kind:
            close_list()
            out.append(f'<ol start="{start}">' if kind == "ol" else "<ul>")
            list_kind = kind

    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            close_paragraph()
            close_list()
            body = []
            i += 1
            while i < len(lines) and not _FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            out.append(highlight_code("\n".join(body), fence.group(1).lower(), dark=dark))
            i += 1  # the closing fence (or the end of the text)
            continue
        if not line.strip():
            close_paragraph()
            close_list()
        elif (line.lstrip().startswith("|") and i + 1 < len(lines)
              and _TABLE_RULE.match(lines[i + 1])):
            close_paragraph()
            close_list()
            rows = [line, lines[i + 1]]
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append(_table(rows, dark))
            continue
        elif heading := _HEADING.match(line):
            close_paragraph()
            close_list()
            level = min(len(heading.group(1)) + 2, 6)  # ### in a question is a small heading
            out.append(f"<h{level}>{inline(heading.group(2), dark=dark)}</h{level}>")
        elif bullet := _BULLET.match(line):
            close_paragraph()
            open_list("ul")
            out.append(f"<li>{inline(bullet.group(1), dark=dark)}</li>")
        elif numbered := _NUMBERED.match(line):
            close_paragraph()
            open_list("ol", int(numbered.group(1)))
            out.append(f"<li>{inline(numbered.group(2), dark=dark)}</li>")
        elif list_kind and line.startswith((" ", "\t")):
            # a continuation line of the previous list item
            item = out[-1][: -len("</li>")]
            out[-1] = f"{item}<br/>{inline(line.strip(), dark=dark)}</li>"
        else:
            close_list()
            paragraph.append(line)
        i += 1
    close_paragraph()
    close_list()
    return "".join(out)
