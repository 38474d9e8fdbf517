"""The paper text of a Markdown file (see ``paper_text``), from markdown-it-py's tokens
(CommonMark + tables, as the app renders questions).

- Headings keep their ``#`` marks (Setext ones get them); paragraphs and soft breaks stay
  lines (papers put options on lines of their own without blank lines between).
- Ordered items keep the number typed in the source and their delimiter (``1.`` or
  ``1)``); a list typed with one number throughout (``1. 1. 1.``) gets a renderer's
  numbers (its ``start`` plus the item's position). Bullets are ``-``. An item's label line
  is indented 4 spaces per enclosing list; its further lines 4 more, except lines the
  source did not indent (lazy continuation lines, written flush left as in the paper).
- Fences and indented code become ``` fences with their info string, at the margin; a
  fence the file leaves open (cut inside its code) is left open.
- Tables: a row per line, cells `` | ``. Inline code keeps its backticks; emphasis, link
  and image marks go (their text stays), but not ``_`` marks nor a ``*`` inside a word
  (``__init__``, ``x1*cos``); HTML is read as ``html_in`` reads a page.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..encoding import UnreadableInput, decode_bytes
from .html_in import html_to_lines
from .paper_text import CELL_SEPARATOR, INDENT, MAX_TEXT_CHARS, read_capped, too_long

__all__ = ["markdown_text", "markdown_to_paper_text"]

_ITEM_MARK = re.compile(r"\s*(?:\d{1,9}[.)]|[-+*])(?:[ \t]+|$)")
_QUOTE = re.compile(r"^(?:[ ]{0,3}>[ ]?)+")
_LATIN = re.compile(r"[A-Za-z0-9]")


def markdown_text(path: Path | str) -> tuple[str, str]:
    """(paper text, encoding) of a Markdown file."""
    data = read_capped(path)
    if not data.strip():
        raise UnreadableInput(path, "is empty")
    decoded = decode_bytes(data, name=str(path))
    if len(decoded.text) > MAX_TEXT_CHARS:
        raise too_long(path)
    text = markdown_to_paper_text(decoded.text)
    if not text.strip():
        raise UnreadableInput(path, "the file has no text")
    return text, decoded.encoding


def markdown_to_paper_text(source: str) -> str:
    from markdown_it import MarkdownIt

    source = source.replace("\r\n", "\n").replace("\r", "\n")
    tokens = MarkdownIt("commonmark").enable("table").parse(source)
    return "\n".join(_Walker(source.split("\n")).walk(tokens))


def _indent_width(line: str) -> int:
    line = _QUOTE.sub("", line.expandtabs(4))
    return len(line) - len(line.lstrip(" "))


class _Walker:
    def __init__(self, source_lines: list[str]):
        self.src = source_lines
        self.out: list[str] = []
        self.lists: list[dict] = []  # {"ordered", "number", "delim"}
        self.items: list[dict] = []  # {"label", "pending", "column"}
        self.row: list[str] | None = None

    def walk(self, tokens) -> list[str]:
        heading = ""
        typed = _typed_numbers(tokens)
        for index, token in enumerate(tokens):
            kind = token.type
            if kind in ("bullet_list_open", "ordered_list_open"):
                self._label_alone()
                start = token.attrGet("start")
                self.lists.append({"ordered": kind == "ordered_list_open",
                                   "number": int(start) - 1 if start is not None else 0,
                                   "delim": token.markup or ".",
                                   "typed": typed.get(index, False)})
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self.lists.pop()
            elif kind == "list_item_open":
                current = self.lists[-1]
                current["number"] += 1
                if current["typed"] and token.info.isdigit():
                    current["number"] = int(token.info)  # the number the paper printed
                label = f"{current['number']}{current['delim']}" if current["ordered"] else "-"
                column = 0
                if token.map:
                    line = self.src[token.map[0]]
                    match = _ITEM_MARK.match(_QUOTE.sub("", line.expandtabs(4)))
                    column = match.end() if match else _indent_width(line) + 2
                self.items.append({"label": label, "pending": True, "column": column})
            elif kind == "list_item_close":
                self._label_alone()
                self.items.pop()
            elif kind == "heading_open":
                heading = "#" * int(token.tag[1]) + " "
            elif kind == "heading_close":
                heading = ""
            elif kind == "inline":
                if self.row is not None:
                    self.row.append(" ".join(self._inline(token)).strip())
                    continue
                first = token.map[0] if token.map else None
                for k, text in enumerate(self._inline(token)):
                    text = text.strip()
                    if not text:
                        continue
                    lazy = first is not None and first + k < len(self.src) and self.items \
                        and k > 0 and _indent_width(self.src[first + k]) < self.items[-1]["column"]
                    self._line(heading + text if k == 0 else text, lazy=bool(lazy))
            elif kind in ("fence", "code_block"):
                self._label_alone()
                info = token.info.strip() if kind == "fence" else ""
                self._emit("```" + info)
                for line in token.content.rstrip("\n").split("\n"):
                    self._emit(line.rstrip())
                if kind == "code_block" or self._closed(token):
                    self._emit("```")  # an unclosed fence (a file cut in its code) stays so
            elif kind == "tr_open":
                self.row = []
            elif kind == "tr_close":
                cells = [cell for cell in (self.row or []) if cell]
                self.row = None
                if cells:
                    self._line(CELL_SEPARATOR.join(cells))
            elif kind == "table_open":
                self._label_alone()
            elif kind == "html_block":
                for line in html_to_lines(token.content, whole_page=False):
                    if line.startswith("```") or not line.strip():
                        self._emit(line)
                    else:
                        self._line(line)
        return self.out

    def _closed(self, fence) -> bool:
        """Whether the source closes this fence: markdown-it closes one left open at the
        end of the file, which would hide that the paper was cut inside its code."""
        if not fence.map or fence.map[1] - fence.map[0] < 2:
            return False
        last = _QUOTE.sub("", self.src[fence.map[1] - 1]).strip()
        mark = fence.markup[0]
        return len(last) >= len(fence.markup) and last == mark * len(last)

    def _emit(self, line: str) -> None:
        self.out.append(line)

    def _line(self, text: str, *, lazy: bool = False) -> None:
        """A line of content: the first of an item takes its label."""
        if self.items and self.items[-1]["pending"]:
            item = self.items[-1]
            item["pending"] = False
            self._emit(INDENT * (len(self.items) - 1) + item["label"] + " " + text)
        elif lazy:
            self._emit(INDENT * (len(self.items) - 1) + text)
        else:
            self._emit(INDENT * len(self.items) + text)

    def _label_alone(self) -> None:
        if self.items and self.items[-1]["pending"]:
            self.items[-1]["pending"] = False
            self._emit(INDENT * (len(self.items) - 1) + self.items[-1]["label"])

    def _inline(self, token) -> list[str]:
        """The inline content as lines (soft and hard breaks end a line). Emphasis marks
        go, except ``_`` / ``__`` (``__init__``, ``x_i``: a paper's code and maths, hardly
        ever its emphasis) and ``*`` pressed against a Latin letter or digit on either
        side (``x1*cos - x2*sin``): those stay as typed."""
        lines: list[list] = [[]]
        opened: list[dict] = []
        children = list(token.children or ())
        for k, child in enumerate(children):
            kind = child.type
            if kind == "text":
                lines[-1].append(child.content)
            elif kind == "code_inline":
                lines[-1].append(child.markup + child.content + child.markup)
            elif kind in ("softbreak", "hardbreak"):
                lines.append([])
            elif kind == "image":
                lines[-1].append(child.content)  # the alt text
            elif kind == "html_inline":
                if re.match(r"<br\s*/?>", child.content, re.I):
                    lines.append([])
            elif kind in ("em_open", "strong_open"):
                before = "".join(p if isinstance(p, str) else "" for p in lines[-1])[-1:]
                mark = {"markup": child.markup, "keep": child.markup.startswith("_")
                        or bool(_LATIN.match(before))}
                opened.append(mark)
                lines[-1].append(mark)
            elif kind in ("em_close", "strong_close") and opened:
                mark = opened.pop()
                after = children[k + 1].content[:1] if k + 1 < len(children) and \
                    children[k + 1].type == "text" else ""
                mark["keep"] = mark["keep"] or bool(_LATIN.match(after))
                lines[-1].append(mark)
        return ["".join(p if isinstance(p, str) else (p["markup"] if p["keep"] else "")
                        for p in line) for line in lines]


def _typed_numbers(tokens) -> dict[int, bool]:
    """For each ordered list (by token index): whether its items keep the numbers typed in
    the source (a paper's ``16.`` after ``1-15`` keys stays 16) rather than a renderer's
    start + position, which only lists typed with one number throughout (``1. 1. 1.``)
    get."""
    typed: dict[int, bool] = {}
    stack: list[tuple[int, list[str]]] = []
    for index, token in enumerate(tokens):
        if token.type in ("ordered_list_open", "bullet_list_open"):
            stack.append((index, []))
        elif token.type == "list_item_open" and stack and token.level == \
                tokens[stack[-1][0]].level + 1:
            stack[-1][1].append(token.info)
        elif token.type in ("ordered_list_close", "bullet_list_close") and stack:
            start, numbers = stack.pop()
            typed[start] = len(set(numbers)) > 1
    return typed
