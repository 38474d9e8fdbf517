"""The paper text of an HTML page (see ``paper_text``), with the stdlib's ``html.parser``.

- Left out: ``script style noscript template head nav aside form`` and the like, and a
  page's own ``header`` / ``footer`` (kept inside an ``article`` or ``main``: there they
  hold the paper's title). When the page has a ``<main>`` only its content is read, else
  when it has ``<article>`` elements only theirs.
- Block elements end a line; ``<br>`` ends a line; entities are decoded; whitespace
  collapses as a browser would (a line break between two Chinese characters is no space).
- ``<ol>`` / ``<ul>`` items get the label a browser draws (``type`` 1 a A i I,
  ``list-style-type``, ``start``, ``<li value>``; bullets as ``-``), nested lists and an
  item's further blocks 4 spaces deeper per level.
- ``<pre>`` is a fence, its language from ``class="language-…"`` on it or its ``<code>``;
  other ``<code>`` is kept in backticks; ``<sup>``/``<sub>`` as ``^``/``_``.
- A table row is one line, cells joined by `` | ``; a one-column table (a frame around
  the page) is read as the lines it holds.
- Charset: a byte-order mark, then ``<meta charset>`` / ``http-equiv`` / the XML
  declaration, then ``encoding.decode_bytes`` (UTF-8, then GB18030).
- Nothing recurses: a page nested 100,000 levels deep reads like a flat one; past
  ``MAX_DEPTH`` open elements, further ones are counted, not kept.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from ..encoding import UnreadableInput, decode_bytes
from .paper_text import (CELL_SEPARATOR, INDENT, MAX_TEXT_CHARS, counter_label, read_capped,
                         too_long)

__all__ = ["html_text", "html_to_paper_text", "decode_html"]

MAX_DEPTH = 1000  # open elements kept; deeper ones are only counted
MATCH_DEPTH = 200  # how far down the stack an end tag looks for its start tag
DROPPED = frozenset({"script", "style", "noscript", "template", "head", "title", "nav",
                     "aside", "svg", "canvas", "iframe", "object", "embed", "select",
                     "button", "textarea", "audio", "video", "rt", "rp", "dialog"})
PAGE_FRAME = frozenset({"header", "footer"})  # dropped outside <article>/<main>
HEAD_CONTENT = frozenset({"head", "title", "meta", "link", "style", "script", "base",
                          "noscript", "template"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr", "keygen", "basefont", "frame"})
BLOCK = frozenset({"address", "article", "blockquote", "body", "center", "dd", "details",
                   "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
                   "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
                   "legend", "li", "main", "menu", "ol", "p", "pre", "section", "summary",
                   "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "caption",
                   "br", "blockquote", "option"})
INLINE_CODE = frozenset({"code", "kbd", "samp", "tt"})
_LIST_STYLE = {"decimal": "1", "lower-alpha": "a", "lower-latin": "a", "upper-alpha": "A",
               "upper-latin": "A", "lower-roman": "i", "upper-roman": "I",
               "cjk-ideographic": "chineseCounting", "simp-chinese-informal": "chineseCounting",
               "trad-chinese-informal": "chineseCounting", "cjk-heavenly-stem":
               "ideographTraditional", "decimal-leading-zero": "decimalZero",
               "disc": "bullet", "circle": "bullet", "square": "bullet", "none": "none"}
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_BREAK = "\x00"  # collapsed whitespace that held a line break
_CJK_BREAK = re.compile(f"(?<=[{_CJK}]){_BREAK}(?=[{_CJK}])")
_LANG = re.compile(r"(?:^|\s)(?:language|lang|highlight-source|brush:)-?\s*([\w+#.-]+)")


def html_text(path: Path | str) -> tuple[str, str]:
    """(paper text, the encoding it was read in) of an HTML file."""
    data = read_capped(path)
    if not data.strip():
        raise UnreadableInput(path, "is empty")
    source, encoding = decode_html(data, name=str(path))
    try:
        text = html_to_paper_text(source)
    except _TooLong:
        raise too_long(path) from None
    if not text.strip():
        raise UnreadableInput(path, "the page has no text")
    return text, encoding


_META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")


def decode_html(data: bytes, *, name: str = "<input>") -> tuple[str, str]:
    """The page's text and the codec read: BOM, declared charset, else UTF-8 / GB18030."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        decoded = decode_bytes(data, name=name)
        return decoded.text, decoded.encoding
    head = data[:4096]
    declared = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    if declared:
        label = declared[1].decode("ascii").lower()
        if label in ("gb2312", "gbk", "x-gbk", "gb_2312-80", "cp936", "euc-cn"):
            label = "gb18030"  # what browsers do: GBK labels decode as its superset
        try:
            codec = codecs.lookup(label).name
        except LookupError:
            codec = None
        if codec and not codec.startswith("utf-16") and not codec.startswith("utf-32"):
            try:
                text = data.decode(codec)
                return text.replace("\r\n", "\n").replace("\r", "\n"), codec
            except UnicodeDecodeError:
                pass  # a wrong declaration: guess as for a text file
    decoded = decode_bytes(data, name=name)
    return decoded.text, decoded.encoding


class _TooLong(Exception):
    pass


def html_to_paper_text(source: str, *, whole_page: bool = True) -> str:
    """The paper text of an HTML document or fragment (``whole_page=False``: no
    ``<main>``/``<article>`` preference, as for an HTML block inside Markdown)."""
    return "\n".join(html_to_lines(source, whole_page=whole_page))


def html_to_lines(source: str, *, whole_page: bool = True) -> list[str]:
    target = None
    if whole_page:
        if re.search(r"<main[\s>]", source, re.I):
            target = "main"
        elif re.search(r"<article[\s>]", source, re.I):
            target = "article"
    parser = _PaperParser(target)
    parser.feed(source)
    parser.close()
    return parser.finish()


@dataclass
class _Element:
    tag: str
    dropped: bool = False
    captures: bool = False
    heading: bool = False


@dataclass
class _List:
    style: str  # a counter_label style; "bullet"; "none"
    counter: int = 0


@dataclass
class _Item:
    label: str
    pending: bool = True


@dataclass
class _Table:
    rows: list[list[list[str]]] = field(default_factory=list)
    cell: list[str] | None = None  # the lines of the open cell


@dataclass
class _Pre:
    language: str
    parts: list[str] = field(default_factory=list)


class _PaperParser(HTMLParser):
    def __init__(self, target: str | None):
        super().__init__(convert_charrefs=True)
        self.target = target
        self.capture = 0 if target else 1
        self.article = 0  # open <article>/<main>: their header/footer are content
        self.out: list[str] = []
        self.size = 0
        self.line: list[str] = []
        self.stack: list[_Element] = []
        self.overflow = 0
        self.dropped = 0
        self.lists: list[_List] = []
        self.items: list[_Item] = []
        self.tables: list[_Table] = []
        self.pre: _Pre | None = None
        self.pre_depth = 0
        self.in_head = False

    # -- output --------------------------------------------------------------------------
    def finish(self) -> list[str]:
        if self.pre is not None:  # the page stops inside its code: the fence stays open
            self._end_pre(closed=False)
        while self.stack:
            self._close(self.stack.pop())
        self._flush()
        while self.tables:
            self._end_table()
        return self.out

    def _write(self, line: str) -> None:
        for table in reversed(self.tables):
            if table.cell is not None:
                table.cell.append(line)
                return
        if self.capture > 0:
            self.size += len(line) + 1
            if self.size > MAX_TEXT_CHARS:
                raise _TooLong
            self.out.append(line)

    def _flush(self) -> None:
        if not self.line:
            return
        text = _CJK_BREAK.sub("", "".join(self.line)).replace(_BREAK, " ")
        self.line = []
        text = re.sub(r"[ \t\f\v\u00a0\u3000]+", " ", text).strip()
        if not text or not text.strip("#").strip():
            return
        self._write(self._labelled(text))

    def _labelled(self, text: str) -> str:
        if self.items and self.items[-1].pending:
            item = self.items[-1]
            item.pending = False
            return INDENT * (len(self.items) - 1) + (item.label + " " if item.label else "") + text
        return INDENT * len(self.items) + text

    def _label_alone(self) -> None:
        """An item whose first content is a block (a list, a table, code): its label gets
        a line of its own, before that block."""
        self._flush()
        if self.items and self.items[-1].pending and self.items[-1].label:
            self.items[-1].pending = False
            self._write(INDENT * (len(self.items) - 1) + self.items[-1].label)

    # -- parser events -------------------------------------------------------------------
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_starttag(self, tag, attrs):
        if self.pre is not None:
            if tag == "br":
                self.pre.parts.append("\n")
            elif tag == "code" and not self.pre.language:
                self.pre.language = _language(dict(attrs))
            if tag not in VOID:
                self._push(_Element(tag))
            return
        if tag in VOID:
            if self.dropped:
                return
            if tag == "br":
                self._flush()
            elif tag == "hr":
                self._flush()
            return
        if self.in_head and tag not in HEAD_CONTENT:
            self.handle_endtag("head")  # </head> may be left out: the body has begun
        element = _Element(tag)
        if tag == "head":
            self.in_head = True
        if self.dropped or tag in DROPPED or (tag in PAGE_FRAME and not self.article):
            element.dropped = True
            self.dropped += 1
            self._push(element)
            return
        if tag == self.target:
            element.captures = True
            if self.capture == 0:
                self._flush()
                self.line = []
            self.capture += 1
        if tag in ("article", "main"):
            self.article += 1
        if tag in BLOCK:
            self._implicit_close(tag)
            self._flush()
        self._push(element)
        attributes = dict(attrs)
        if tag in ("ol", "ul", "menu", "dir"):
            self._label_alone()
            self.lists.append(_List(_list_style(tag, attributes),
                                    counter=_int(attributes.get("start"), 1) - 1))
        elif tag == "li":
            self._start_item(attributes)
        elif tag == "table":
            self._label_alone()
            self.tables.append(_Table())
        elif tag == "tr" and self.tables:
            self.tables[-1].rows.append([])
        elif tag in ("td", "th") and self.tables:
            table = self.tables[-1]
            if not table.rows:
                table.rows.append([])
            table.cell = []
            table.rows[-1].append(table.cell)
        elif tag == "pre":
            self._label_alone()
            self.pre = _Pre(_language(attributes))
            self.pre_depth = len(self.stack)
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            element.heading = True
            self.line.append("#" * int(tag[1]) + " ")
        elif tag in INLINE_CODE:
            self.line.append("`")
        elif tag == "sup":
            self.line.append("^")
        elif tag == "sub":
            self.line.append("_")

    def handle_endtag(self, tag):
        if tag in VOID:
            if tag == "br" and not self.dropped:  # </br> reads as <br> in browsers
                self.handle_starttag("br", [])
            return
        if self.overflow:
            self.overflow -= 1
            if tag in BLOCK and not self.dropped:
                self._flush()
            return
        for depth in range(len(self.stack) - 1, max(len(self.stack) - MATCH_DEPTH, 0) - 1, -1):
            if self.stack[depth].tag == tag:
                while len(self.stack) > depth:
                    self._close(self.stack.pop())
                return
        # no open element of that name: ignored, as a browser does

    def handle_data(self, data):
        if self.in_head and self.stack and self.stack[-1].tag == "head" and data.strip():
            self.handle_endtag("head")  # text in <head>: the body has begun
        if self.dropped:
            return
        if self.pre is not None:
            self.pre.parts.append(data)
            return
        text = re.sub(r"\s*\n\s*", _BREAK, data)
        text = re.sub(r"[ \t\r\f\v]+", " ", text)
        if text:
            self.line.append(text)

    # -- structure -----------------------------------------------------------------------
    def _push(self, element: _Element) -> None:
        if len(self.stack) >= MAX_DEPTH:
            self.overflow += 1
            if element.dropped:  # never kept: undo its count, its content is read
                self.dropped -= 1
            return
        self.stack.append(element)

    def _implicit_close(self, tag: str) -> None:
        """The end tags HTML lets a page leave out: ``<p>`` before a block, ``<li>`` before
        the next item, ``<td>``/``<tr>`` before the next cell or row."""
        if self.stack and self.stack[-1].tag == "p":
            self._close(self.stack.pop())
        closers = {"li": ("li", ("ol", "ul", "menu", "dir")),
                   "dt": ("dt dd", ("dl",)), "dd": ("dt dd", ("dl",)),
                   "tr": ("tr td th", ("table", "tbody", "thead", "tfoot")),
                   "td": ("td th", ("tr", "table")), "th": ("td th", ("tr", "table")),
                   "tbody": ("tbody thead tfoot tr td th", ("table",)),
                   "thead": ("tbody thead tfoot tr td th", ("table",)),
                   "tfoot": ("tbody thead tfoot tr td th", ("table",))}
        if tag not in closers:
            return
        names, scope = closers[tag]
        names = names.split()
        for depth in range(len(self.stack) - 1, max(len(self.stack) - MATCH_DEPTH, 0) - 1, -1):
            current = self.stack[depth].tag
            if current in scope:
                return
            if current in names:
                while len(self.stack) > depth:
                    self._close(self.stack.pop())
                return

    def _close(self, element: _Element) -> None:
        tag = element.tag
        if element.dropped:
            self.dropped -= 1
            if tag == "head":
                self.in_head = False
            return
        if self.pre is not None and len(self.stack) >= self.pre_depth and tag != "pre":
            return  # inside <pre>: spans of a highlighter
        if tag in INLINE_CODE:
            self.line.append("`")
        if tag in BLOCK:
            self._flush()
        if tag == "pre" and self.pre is not None:
            self._end_pre()
        elif tag in ("ol", "ul", "menu", "dir") and self.lists:
            self.lists.pop()
        elif tag == "li" and self.items:
            self.items.pop()
        elif tag in ("td", "th") and self.tables:
            self.tables[-1].cell = None
        elif tag == "table" and self.tables:
            self._end_table()
        if tag in ("article", "main"):
            self.article -= 1
        if element.captures:
            self._flush()
            self.capture -= 1

    def _start_item(self, attributes: dict) -> None:
        if not self.lists:
            self.lists.append(_List("bullet"))  # a stray <li>
        current = self.lists[-1]
        current.counter = _int(attributes.get("value"), current.counter + 1)
        style = _list_style("li", attributes) or current.style
        if style == "bullet":
            label = "-"
        elif style == "none":
            label = ""
        else:
            label = counter_label(style, current.counter) + "."
        self.items.append(_Item(label))

    def _end_pre(self, *, closed: bool = True) -> None:
        pre, self.pre = self.pre, None
        body = "".join(pre.parts)
        if body.startswith("\n"):
            body = body[1:]  # HTML drops the newline right after <pre>
        lines = body.rstrip().split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        if not lines:
            return
        self._write("```" + pre.language)
        for line in lines:
            self._write(line.rstrip())
        if closed:
            self._write("```")

    def _end_table(self) -> None:
        table = self.tables.pop()
        if max((len(row) for row in table.rows), default=0) <= 1:
            for row in table.rows:  # a frame around the page: its own lines
                for cell in row:
                    for line in cell:
                        self._write(line)
            return
        for row in table.rows:
            cells = [" ".join(line.strip() for line in cell if line.strip()) for cell in row]
            cells = [cell for cell in cells if cell]
            if cells:
                self._write(INDENT * len(self.items) + CELL_SEPARATOR.join(cells))


def _int(value: str | None, default: int) -> int:
    try:
        return int(value.strip()) if value is not None else default
    except ValueError:
        return default


def _list_style(tag: str, attributes: dict) -> str:
    style = attributes.get("style") or ""
    match = re.search(r"list-style(?:-type)?\s*:\s*([\w-]+)", style, re.I)
    if match and match[1].lower() in _LIST_STYLE:
        return _LIST_STYLE[match[1].lower()]
    kind = attributes.get("type")
    if kind in ("1", "a", "A", "i", "I"):
        return kind
    if kind and kind.lower() in ("disc", "circle", "square"):
        return "bullet"
    if tag == "li":
        return ""
    return "1" if tag == "ol" else "bullet"


def _language(attributes: dict) -> str:
    match = _LANG.search(attributes.get("class") or "")
    return match[1].lower() if match else ""
