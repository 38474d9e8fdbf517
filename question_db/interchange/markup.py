"""The bank's Markdown ⇄ HTML, for the formats that carry HTML (Moodle XML, GIFT ``[html]``,
Anki fields).

The dialect is the one of ``papers/FORMAT.md`` (rendered for Qt by
``desktop/views/markdown_html.py``): paragraphs whose single line breaks are kept, ``#``
headings, ``- ``/``* `` bullets and ``1. `` numbered lists (nested by indentation), pipe
tables, fenced code blocks, ``**bold**`` and ``inline code``; imported text adds
``![alt](src)`` images and ``[text](href)`` links. Formulas are Unicode text; TeX spans
(``\\(…\\)``, ``\\[…\\]``, ``$$…$$``) are kept verbatim, never read as markup.

Both directions meet in one block model, so a text that goes out as HTML and comes back
is ``canonical_markdown(text)``: the same blocks written one way (``- `` bullets, ``|---|``
table rules, one blank line between blocks, whitespace runs in running text collapsed as a
browser collapses them). Code blocks come back byte for byte.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable, Union

__all__ = ["Text", "Code", "Math", "Image", "Link", "Bold", "Break", "Paragraph", "Heading",
           "CodeBlock", "ListItem", "ListBlock", "Table", "parse_inline", "parse_markdown",
           "inline_markdown", "blocks_markdown", "canonical_markdown", "plain_text",
           "inline_html", "code_block_html", "blocks_html", "markdown_to_html",
           "inline_markdown_to_html", "parse_html", "html_to_markdown", "image_sources",
           "replace_images"]

_FENCE = re.compile(r"^\s*```\s*([\w+-]*)\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^(\s*)[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d{1,9})\.\s+(.*)$")  # "1)" stays text: it has no HTML form
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
# protected inline spans, tried in this order at each position
_CODE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
_MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\(([^)\s]+)\)")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_SPAN_START = re.compile(r"`|\\\(|\\\[|\$\$|!\[|\[")

# --- inline model -------------------------------------------------------------------------


@dataclass
class Text:
    text: str


@dataclass
class Code:
    text: str


@dataclass
class Math:
    source: str  # with its delimiters, verbatim


@dataclass
class Image:
    alt: str
    src: str


@dataclass
class Link:
    text: str
    href: str


@dataclass
class Bold:
    children: list


@dataclass
class Break:
    """A line break inside a paragraph (``<br>``)."""


Inline = Union[Text, Code, Math, Image, Link, Bold, Break]

# --- block model --------------------------------------------------------------------------


@dataclass
class Paragraph:
    lines: list[list[Inline]]


@dataclass
class Heading:
    level: int
    text: list[Inline]


@dataclass
class CodeBlock:
    language: str
    text: str


@dataclass
class ListItem:
    lines: list[list[Inline]]
    children: list["ListBlock"] = field(default_factory=list)


@dataclass
class ListBlock:
    ordered: bool
    start: int
    items: list[ListItem]


@dataclass
class Table:
    header: list[list[Inline]]
    rows: list[list[list[Inline]]]


Block = Union[Paragraph, Heading, CodeBlock, ListBlock, Table]

# --- Markdown → model ---------------------------------------------------------------------


def parse_inline(text: str) -> list[Inline]:
    """Tokens of one line (or table cell) of Markdown."""
    items: list = []  # Inline tokens and "**" markers, in order
    pos = 0
    buf = ""
    while pos < len(text):
        start = _SPAN_START.search(text, pos)
        if start is None:
            buf += text[pos:]
            break
        at = start.start()
        buf += text[pos:at]
        token, end = _span_at(text, at)
        if token is None:
            buf += text[at]
            pos = at + 1
            continue
        _flush_text(buf, items)
        buf = ""
        items.append(token)
        pos = end
    _flush_text(buf, items)
    return _pair_bold(items)


def _span_at(text: str, at: int) -> tuple[Inline | None, int]:
    for pattern in (_CODE, _MATH, _IMAGE, _LINK):
        m = pattern.match(text, at)
        if not m:
            continue
        if pattern is _CODE:
            body = m.group(2)
            if len(body) > 2 and body.startswith(" ") and body.endswith(" "):
                body = body[1:-1]
            return Code(body), m.end()
        if pattern is _MATH:
            return Math(m.group(0)), m.end()
        if pattern is _IMAGE:
            return Image(m.group(1), m.group(2)), m.end()
        return Link(m.group(1), m.group(2)), m.end()
    return None, at


def _flush_text(buf: str, items: list) -> None:
    parts = buf.split("**")
    for i, part in enumerate(parts):
        if i:
            items.append("**")
        if part:
            items.append(Text(part))


def _pair_bold(items: list) -> list[Inline]:
    marks = [i for i, item in enumerate(items) if item == "**"]
    if len(marks) % 2:
        items[marks[-1]] = Text("**")
        marks = marks[:-1]
    out: list[Inline] = []
    open_at: int | None = None
    for i, item in enumerate(items):
        if item == "**":
            if open_at is None:
                open_at = len(out)
            else:
                inner = out[open_at:]
                del out[open_at:]
                out.append(Bold(inner) if inner else Text("****"))
                open_at = None
        else:
            out.append(item)
    return _merge_text(out)


def _merge_text(tokens: list[Inline]) -> list[Inline]:
    out: list[Inline] = []
    for token in tokens:
        if isinstance(token, Text) and out and isinstance(out[-1], Text):
            out[-1] = Text(out[-1].text + token.text)
        else:
            out.append(token)
    return out


def _split_cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def parse_markdown(text: str) -> list[Block]:
    """The blocks of a bank text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[Block] = []
    paragraph: list[str] = []
    stack: list[tuple[int, ListBlock]] = []  # open lists, outermost first, with their indent

    def close_paragraph() -> None:
        if paragraph:
            blocks.append(Paragraph([parse_inline(line) for line in paragraph]))
            paragraph.clear()

    def add_item(indent: int, ordered: bool, number: int, body: str) -> None:
        while stack and indent < stack[-1][0]:
            stack.pop()
        item = ListItem([parse_inline(body)])
        if stack and indent == stack[-1][0] and stack[-1][1].ordered == ordered:
            stack[-1][1].items.append(item)
            return
        new = ListBlock(ordered, number, [item])
        if stack and indent > stack[-1][0]:
            stack[-1][1].items[-1].children.append(new)
        elif stack and len(stack) > 1:  # same indent, other kind: a sibling list
            stack.pop()
            stack[-1][1].items[-1].children.append(new)
        else:
            stack.clear()
            blocks.append(new)
        stack.append((indent, new))

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            close_paragraph()
            stack.clear()
            body = []
            i += 1
            while i < len(lines) and not _FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            blocks.append(CodeBlock(fence.group(1), "\n".join(body).rstrip("\n")))
            i += 1
            continue
        if not line.strip():
            close_paragraph()
            stack.clear()
        elif (line.lstrip().startswith("|") and i + 1 < len(lines)
              and _TABLE_RULE.match(lines[i + 1])):
            close_paragraph()
            stack.clear()
            header = [parse_inline(c) for c in _split_cells(line)]
            rows = []
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append([parse_inline(c) for c in _split_cells(lines[i])])
                i += 1
            blocks.append(Table(header, rows))
            continue
        elif heading := _HEADING.match(line):
            close_paragraph()
            stack.clear()
            blocks.append(Heading(len(heading.group(1)), parse_inline(heading.group(2))))
        elif bullet := _BULLET.match(line):
            close_paragraph()
            add_item(len(bullet.group(1).expandtabs(4)), False, 1, bullet.group(2))
        elif numbered := _NUMBERED.match(line):
            close_paragraph()
            add_item(len(numbered.group(1).expandtabs(4)), True, int(numbered.group(2)),
                     numbered.group(3))
        elif stack and line[:1] in (" ", "\t"):  # a continuation line of the last item
            stack[-1][1].items[-1].lines.append(parse_inline(line.strip()))
        else:
            stack.clear()
            paragraph.append(line)
        i += 1
    close_paragraph()
    return blocks


# --- model → Markdown ---------------------------------------------------------------------


def _collapse(text: str) -> str:
    return _SPACES.sub(" ", text)


def inline_markdown(tokens: list[Inline]) -> str:
    out = []
    for token in tokens:
        if isinstance(token, Text):
            out.append(_collapse(token.text))
        elif isinstance(token, Code):
            body = _collapse(token.text)
            ticks = "`" * (max((len(r) for r in re.findall("`+", body)), default=0) + 1)
            pad = " " if body.startswith("`") or body.endswith("`") else ""
            out.append(f"{ticks}{pad}{body}{pad}{ticks}")
        elif isinstance(token, Math):
            out.append(_collapse(token.source))
        elif isinstance(token, Image):
            out.append(f"![{_collapse(token.alt)}]({token.src})")
        elif isinstance(token, Link):
            out.append(f"[{_collapse(token.text)}]({token.href})")
        elif isinstance(token, Bold):
            inner = inline_markdown(token.children)
            if inner.strip():
                lead = inner[: len(inner) - len(inner.lstrip())]
                trail = inner[len(inner.rstrip()):]
                out.append(f"{lead}**{inner.strip()}**{trail}")
            else:
                out.append(inner)
        elif isinstance(token, Break):
            out.append("\n")
    return "".join(out)


def _line(tokens: list[Inline]) -> str:
    return _collapse(inline_markdown(tokens)).strip()


def _list_markdown(block: ListBlock, level: int) -> list[str]:
    out = []
    pad = "  " * level
    for n, item in enumerate(block.items):
        marker = f"{block.start + n}." if block.ordered else "-"
        first, *rest = item.lines or [[]]
        out.append(f"{pad}{marker} {_line(first)}".rstrip())
        out.extend(f"{pad}  {_line(cont)}".rstrip() for cont in rest)
        for child in item.children:
            out.extend(_list_markdown(child, level + 1))
    return out


def blocks_markdown(blocks: list[Block]) -> str:
    chunks = []
    for block in blocks:
        if isinstance(block, Paragraph):
            lines = [_line(tokens) for tokens in block.lines]
            lines = [line for line in lines if line]
            if lines:
                chunks.append("\n".join(lines))
        elif isinstance(block, Heading):
            chunks.append(f"{'#' * block.level} {_line(block.text)}".rstrip())
        elif isinstance(block, CodeBlock):
            chunks.append(f"```{block.language}\n{block.text}\n```" if block.text
                          else f"```{block.language}\n```")
        elif isinstance(block, ListBlock):
            chunks.append("\n".join(_list_markdown(block, 0)))
        elif isinstance(block, Table):
            width = max([len(block.header)] + [len(r) for r in block.rows])

            def row(cells: list[list[Inline]]) -> str:
                texts = [_line(c).replace("|", "\\|") for c in cells]
                texts += [""] * (width - len(texts))
                return "| " + " | ".join(texts) + " |"

            chunks.append("\n".join([row(block.header), "|" + "---|" * width]
                                    + [row(r) for r in block.rows]))
    return "\n\n".join(chunks)


def canonical_markdown(text: str) -> str:
    """``text`` as it comes back from HTML (see the module doc)."""
    return blocks_markdown(parse_markdown(text))


def plain_text(text: str) -> str:
    """The words of a Markdown text on one line, for titles and names."""
    words = []
    for line in canonical_markdown(text).splitlines():
        line = re.sub(r"^\s*(#+|[-*]|\d+\.|\|)\s*", "", line.strip().strip("|"))
        words.append(line.replace("**", "").replace("`", ""))
    return _collapse(" ".join(w for w in words if w and not re.fullmatch(r"[-|]+", w))).strip()


# --- model → HTML -------------------------------------------------------------------------

ImageSource = Callable[[str], Union[str, None]]  # src in the bank -> src in the output, or
# None to drop the image (its alt text stays)
Highlighter = Callable[[str, str], str]  # (code, language) -> HTML of a code block


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def inline_html(tokens: list[Inline], image_src: ImageSource | None = None) -> str:
    out = []
    for token in tokens:
        if isinstance(token, Text):
            out.append(_esc(token.text))
        elif isinstance(token, Code):
            out.append(f"<code>{_esc(token.text)}</code>")
        elif isinstance(token, Math):
            out.append(_esc(token.source))
        elif isinstance(token, Image):
            src = image_src(token.src) if image_src else token.src
            if src is None:
                out.append(_esc(f"[{token.alt or 'image'}]"))
            else:
                out.append(f'<img src="{html.escape(src)}" alt="{html.escape(token.alt)}">')
        elif isinstance(token, Link):
            out.append(f'<a href="{html.escape(token.href)}">{_esc(token.text)}</a>')
        elif isinstance(token, Bold):
            out.append(f"<strong>{inline_html(token.children, image_src)}</strong>")
        elif isinstance(token, Break):
            out.append("<br>")
    return "".join(out)


def code_block_html(code: str, language: str = "") -> str:
    """A code block as plain ``<pre><code>`` (the language as a ``language-*`` class)."""
    cls = f' class="language-{html.escape(language)}"' if language else ""
    return f"<pre><code{cls}>{_esc(code)}</code></pre>"


def _list_html(block: ListBlock, image_src: ImageSource | None,
               highlight: Highlighter) -> str:
    tag = "ol" if block.ordered else "ul"
    start = f' start="{block.start}"' if block.ordered and block.start != 1 else ""
    items = []
    for item in block.items:
        body = "<br>\n".join(inline_html(line, image_src) for line in item.lines)
        body += "".join(_list_html(c, image_src, highlight) for c in item.children)
        items.append(f"<li>{body}</li>")
    return f"<{tag}{start}>\n" + "\n".join(items) + f"\n</{tag}>"


def blocks_html(blocks: list[Block], *, image_src: ImageSource | None = None,
                highlight: Highlighter = lambda code, lang: code_block_html(code, lang)) -> str:
    out = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.append("<p>" + "<br>\n".join(inline_html(line, image_src)
                                              for line in block.lines) + "</p>")
        elif isinstance(block, Heading):
            out.append(f"<h{block.level}>{inline_html(block.text, image_src)}</h{block.level}>")
        elif isinstance(block, CodeBlock):
            out.append(highlight(block.text, block.language))
        elif isinstance(block, ListBlock):
            out.append(_list_html(block, image_src, highlight))
        elif isinstance(block, Table):
            head = "".join(f"<th>{inline_html(c, image_src)}</th>" for c in block.header)
            rows = "\n".join("<tr>" + "".join(f"<td>{inline_html(c, image_src)}</td>"
                                              for c in row) + "</tr>" for row in block.rows)
            out.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n"
                       f"</tbody>\n</table>")
    return "\n".join(out)


def markdown_to_html(text: str, *, image_src: ImageSource | None = None,
                     highlight: Highlighter | None = None) -> str:
    """Render a bank text as HTML (escaped text, ``<pre><code>`` blocks, formulas kept).

    ``image_src`` maps each image's source (``None`` drops the image, keeping its alt text);
    ``highlight`` renders code blocks (e.g. with Pygments) instead of plain ``<pre>``.
    """
    kwargs = {"highlight": highlight} if highlight else {}
    return blocks_html(parse_markdown(text), image_src=image_src, **kwargs)


def inline_markdown_to_html(text: str, *, image_src: ImageSource | None = None) -> str:
    """A one-paragraph text (an option, a fill-in answer) without the ``<p>`` wrapper."""
    blocks = parse_markdown(text)
    if len(blocks) == 1 and isinstance(blocks[0], Paragraph):
        return "<br>\n".join(inline_html(line, image_src) for line in blocks[0].lines)
    return blocks_html(blocks, image_src=image_src)


# --- HTML → model -------------------------------------------------------------------------

_VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "col", "area", "source", "param"}
_BLOCK = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead",
          "tbody", "tfoot", "tr", "td", "th", "pre", "blockquote", "hr", "section", "article",
          "header", "footer", "figure", "figcaption", "center", "dl", "dt", "dd", "address",
          "caption", "nav", "main", "aside", "form", "fieldset", "details", "summary"}
_DROP = {"script", "style", "head", "title", "iframe", "object", "embed", "video", "audio",
         "noscript", "template", "svg", "math"}
_CODE_TAGS = {"code", "tt", "kbd", "samp", "var"}
_SUP = str.maketrans("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ")
_SUB = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")


@dataclass
class _Node:
    tag: str
    attrs: dict
    children: list = field(default_factory=list)  # _Node or str

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _TreeBuilder(HTMLParser):
    """A forgiving HTML → tree parser: unclosed tags close at their parent's end."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list) -> None:
        node = _Node(tag, {k: v or "" for k, v in attrs})
        # an unclosed <p> or <li> ends where the next one starts (at the same level)
        if tag == "li" and self._innermost({"li", "ul", "ol"}) == "li":
            self._close("li")
        elif tag in _BLOCK and self._innermost(_BLOCK) == "p":
            self._close("p")
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.stack[-1].children.append(_Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if any(n.tag == tag for n in self.stack[1:]):
            self._close(tag)

    def _innermost(self, tags: set[str]) -> str | None:
        return next((n.tag for n in reversed(self.stack[1:]) if n.tag in tags), None)

    def _close(self, tag: str) -> None:
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def _inline_tokens(nodes: list) -> list[Inline]:
    out: list[Inline] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(Text(node))
            continue
        tag = node.tag
        if tag in _DROP:
            continue
        if tag == "br":
            out.append(Break())
        elif tag == "img":
            out.append(Image(node.attrs.get("alt", ""), node.attrs.get("src", "")))
        elif tag in _CODE_TAGS:
            out.append(Code(node.text()))
        elif tag in ("strong", "b"):
            out.append(Bold(_inline_tokens(node.children)))
        elif tag == "a" and node.attrs.get("href"):
            label = _collapse(node.text()).strip()
            href = node.attrs["href"]
            out.append(Link(label, href) if label and label != href else Text(label or href))
        elif tag in ("sup", "sub"):
            text = _collapse(node.text()).strip()
            table = _SUP if tag == "sup" else _SUB
            mapped = text.translate(table)
            if all(ord(c) > 127 or c == " " for c in mapped):
                out.append(Text(mapped))
            else:
                out.append(Text(("^" if tag == "sup" else "_") + f"({text})"))
        else:
            out.extend(_inline_tokens(node.children))
    return _merge_text(out)


def _lines(tokens: list[Inline]) -> list[list[Inline]]:
    """Split inline tokens at line breaks (a break inside bold closes and reopens it)."""
    lines: list[list[Inline]] = [[]]
    for token in tokens:
        if isinstance(token, Break):
            lines.append([])
        elif isinstance(token, Text) and "\n" in token.text:  # only from <pre>-free text
            lines[-1].append(Text(token.text.replace("\n", " ")))
        elif isinstance(token, Bold) and any(isinstance(t, Break) for t in token.children):
            inner = _lines(token.children)
            lines[-1].append(Bold(inner[0]))
            for part in inner[1:]:
                lines.append([Bold(part)])
        else:
            lines[-1].append(token)
    return lines


def _paragraphs(tokens: list[Inline]) -> list[Block]:
    """Inline content as paragraphs: an empty line (``<br><br>``) starts a new one."""
    out: list[Block] = []
    current: list[list[Inline]] = []
    for line in _lines(tokens):
        if _line(line):
            current.append(line)
        elif current:
            out.append(Paragraph(current))
            current = []
    if current:
        out.append(Paragraph(current))
    return out


def _code_text(node: _Node) -> str:
    def raw(n) -> str:
        if isinstance(n, str):
            return n
        if n.tag == "br":
            return "\n"
        return "".join(raw(c) for c in n.children)

    text = raw(node)
    return (text[1:] if text.startswith("\n") else text).rstrip("\n")


def _code_language(node: _Node) -> str:
    for n in [node] + [c for c in node.children if isinstance(c, _Node)]:
        for cls in n.attrs.get("class", "").split():
            for prefix in ("language-", "lang-"):
                if cls.startswith(prefix):
                    return cls[len(prefix):]
    return ""


def _table(node: _Node) -> Table | None:
    rows: list[tuple[bool, list[list[Inline]]]] = []

    def walk(n: _Node) -> None:
        for child in n.children:
            if isinstance(child, _Node):
                if child.tag == "tr":
                    cells = [c for c in child.children if isinstance(c, _Node)
                             and c.tag in ("td", "th")]
                    rows.append((all(c.tag == "th" for c in cells) and bool(cells),
                                 [_cell(c) for c in cells]))
                elif child.tag not in ("table",):
                    walk(child)

    walk(node)
    if not rows:
        return None
    if rows[0][0]:
        return Table(rows[0][1], [r for _, r in rows[1:]])
    return Table([[] for _ in rows[0][1]], [r for _, r in rows])


def _cell(node: _Node) -> list[Inline]:
    tokens: list[Inline] = []
    for block in _blocks(node.children):
        if tokens:
            tokens.append(Text(" "))
        if isinstance(block, Paragraph):
            for n, line in enumerate(block.lines):
                tokens.extend(([Text(" ")] if n else []) + line)
        elif isinstance(block, CodeBlock):
            tokens.append(Code(block.text))
        elif isinstance(block, Heading):
            tokens.extend(block.text)
        else:
            tokens.append(Text(blocks_markdown([block]).replace("\n", " ")))
    return tokens


def _list(node: _Node) -> ListBlock:
    ordered = node.tag == "ol"
    try:
        start = int(node.attrs.get("start", "1"))
    except ValueError:
        start = 1
    items = []
    for child in node.children:
        if not isinstance(child, _Node) or child.tag != "li":
            continue
        lines: list[list[Inline]] = []
        nested: list[ListBlock] = []
        for block in _blocks(child.children):
            if isinstance(block, ListBlock):
                nested.append(block)
            elif isinstance(block, Paragraph):
                lines.extend(block.lines)
            elif isinstance(block, CodeBlock):
                lines.extend([Code(line)] for line in block.text.split("\n") if line)
            elif isinstance(block, Heading):
                lines.append(block.text)
            else:
                lines.append([Text(blocks_markdown([block]).replace("\n", " "))])
        items.append(ListItem(lines or [[]], nested))
    return ListBlock(ordered, start, items)


def _blocks(nodes: list) -> list[Block]:
    out: list[Block] = []
    pending: list = []

    def flush() -> None:
        if pending:
            out.extend(_paragraphs(_inline_tokens(pending)))
            pending.clear()

    for node in nodes:
        if isinstance(node, str) or node.tag not in _BLOCK:
            pending.append(node)
            continue
        flush()
        tag = node.tag
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = _inline_tokens(node.children)
            if _line(text):
                out.append(Heading(int(tag[1]), [t for t in text if not isinstance(t, Break)]))
        elif tag == "pre":
            out.append(CodeBlock(_code_language(node), _code_text(node)))
        elif tag in ("ul", "ol"):
            block = _list(node)
            if block.items:
                out.append(block)
        elif tag == "table":
            table = _table(node)
            if table:
                out.append(table)
        elif tag == "hr":
            continue
        elif tag == "li":  # a stray <li> outside any list
            out.append(ListBlock(False, 1, _list(_Node("ul", {}, [node])).items))
        else:
            out.extend(_blocks(node.children))
    flush()
    return out


def parse_html(text: str) -> list[Block]:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return _blocks(builder.root.children)


def html_to_markdown(text: str) -> str:
    """Bank Markdown for an HTML fragment (what Moodle and GIFT ``[html]`` carry)."""
    return blocks_markdown(parse_html(text))


def image_sources(markdown: str) -> list[str]:
    """Every image source a Markdown text references, in order."""
    found: list[str] = []

    def walk(tokens: list[Inline]) -> None:
        for t in tokens:
            if isinstance(t, Image):
                found.append(t.src)
            elif isinstance(t, Bold):
                walk(t.children)

    def walk_list(block: ListBlock) -> None:
        for item in block.items:
            for line in item.lines:
                walk(line)
            for child in item.children:
                walk_list(child)

    for block in parse_markdown(markdown):
        if isinstance(block, Paragraph):
            for line in block.lines:
                walk(line)
        elif isinstance(block, Heading):
            walk(block.text)
        elif isinstance(block, ListBlock):
            walk_list(block)
        elif isinstance(block, Table):
            for cells in [block.header, *block.rows]:
                for cell in cells:
                    walk(cell)
    return found


def replace_images(markdown: str, new_src: Callable[[str], str]) -> str:
    """``markdown`` with every image source passed through ``new_src`` (text untouched)."""
    def sub(m: re.Match) -> str:
        return f"![{m.group(1)}]({new_src(m.group(2))})"

    return _IMAGE.sub(sub, markdown)
