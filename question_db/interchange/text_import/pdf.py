"""The paper text of a text PDF (see ``paper_text``), with pdfminer.six.

1. Lines: pdfminer's text lines; those sharing a baseline band are one row (``A. …``
   and ``B. …`` set side by side), read left to right. A page with a clear gutter is read
   column by column between the lines that span it.
2. Page furniture goes: a row among a page's first or last three, in its outer 12 %,
   that does not start an item (a question, an option, a key), whose text (digits
   ignored) recurs at the same height on at least half the pages (running titles,
   ``第 3 页 共 10 页``, ``Page 3 of 10``, ``- 3 -``), and a page number printed alone
   there on any page.
3. Monospace rows (Courier, …Mono, Consol…, …Code) are fenced as ```python; their
   indentation comes from the x positions (in character widths), blank lines from gaps.
4. A row is joined to the one above only when that one runs to the right margin (or
   ends in ``letter-`` with a lowercase start below: the hyphen goes), the font size and
   spacing match, and the row does not start an item: a question number, an option
   letter, a key marker (``答案``, ``Answer:`` …), a part heading or a bullet. A wrong join
   merges two questions; a wrong split costs little, so any doubt splits.
5. An item line set in from the margin by more than 1.5 em (a sub-question, an option
   list indented under its question) is indented 4 spaces per indentation step.

No text at all: a scanned PDF, refused with a pointer to OCR.
"""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from ..encoding import UnreadableInput
from .paper_text import INDENT, MAX_TEXT_CHARS, check_file_size, too_long

__all__ = ["pdf_text", "MONOSPACE_WORDS"]

MONOSPACE_WORDS = ("courier", "mono", "consol", "code", "menlo", "monaco", "typewriter",
                   "fixed", "lucidaconsole", "inconsolata")
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_STARTS_ITEM = re.compile(
    r"""\s*(?:
        [(（]?\s*\d{1,3}\s*[.．、)）:：](?!\d)      # 1.  1、 1) (1)
      | [(（]\s*\d{1,3}\s*[)）]
      | [①-⑳⑴-⒇⒈-⒛]
      | [(（]?[A-Ha-h]\s*[.．、)）:：](?![A-Za-z]\.)  # A.  a)  (b)  but not "e.g."
      | [(（][A-Ha-h][)）]
      | [(（]?[一二三四五六七八九十]{1,3}\s*[、.．)）]
      | 第\s*[一二三四五六七八九十百\d]{1,4}\s*[部分章节题大卷篇]
      | (?:参考)?答案|解析|答[:：]|解[:：]|分析[:：]|评分|【
      | (?i:answers?\b|ans\b|key\b|solutions?\b|explanation\b|part\b|section\b|
           question\s*\d|q\d|marks?\b)
      | [-•·●○■□◆▪►✓√×]\s
    )""", re.X)
_PAGE_NUMBER = re.compile(
    r"""^\s*(?:[-–—]\s*\d{1,4}\s*[-–—]|\d{1,4}|第\s*\d{1,4}\s*页.*|.*共\s*\d{1,4}\s*页.*|
        (?i:page\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?)|\d{1,4}\s*/\s*\d{1,4})\s*$""", re.X)
_CID = re.compile(r"\(cid:\d+\)")
_CID_RUN = re.compile(r"(?:\(cid:\d+\))+")


@dataclass
class _Line:
    text: str  # without leading spaces
    x0: float  # of the first visible character
    x1: float
    y0: float
    y1: float
    size: float
    mono: bool
    char_width: float


@dataclass
class _Row:
    parts: list[_Line]
    page: int
    text: str = ""
    x0: float = 0.0
    x1: float = 0.0
    y0: float = 0.0
    y1: float = 0.0
    size: float = 0.0
    mono: bool = False
    char_width: float = 0.0
    margin: float = 0.0  # the left edge of its column

    def __post_init__(self):
        self.parts.sort(key=lambda part: part.x0)
        pieces: list[str] = []
        for part in self.parts:
            if pieces and not (_ends_cjk(pieces[-1]) and _starts_cjk(part.text)):
                pieces.append(" ")
            pieces.append(part.text)
        self.text = "".join(pieces)
        self.x0 = self.parts[0].x0
        self.x1 = max(p.x1 for p in self.parts)
        self.y0 = min(p.y0 for p in self.parts)
        self.y1 = max(p.y1 for p in self.parts)
        self.size = max(p.size for p in self.parts)
        self.mono = all(p.mono for p in self.parts)
        self.char_width = self.parts[0].char_width


@dataclass
class _Page:
    rows: list[_Row] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


def _ends_cjk(text: str) -> bool:
    return bool(text) and bool(re.match(f"[{_CJK}]", text[-1]))


def _starts_cjk(text: str) -> bool:
    return bool(text) and bool(re.match(f"[{_CJK}]", text[0]))


def pdf_text(path: Path | str) -> str:
    """The paper text of a PDF; ``UnreadableInput`` for a damaged, encrypted, scanned or
    oversized one."""
    check_file_size(path)
    try:
        from pdfminer.high_level import extract_pages
        from pdfminer.layout import LAParams
    except ImportError as exc:  # pragma: no cover - it is a dependency
        raise UnreadableInput(path, f"reading .pdf needs pdfminer.six ({exc})") from None
    pages: list[_Page] = []
    size = 0
    try:
        for layout in extract_pages(str(path), laparams=LAParams(all_texts=True)):
            page = _page(layout, len(pages))
            size += sum(len(row.text) + 1 for row in page.rows)
            if size > MAX_TEXT_CHARS:
                raise too_long(path)
            pages.append(page)
    except UnreadableInput:
        raise
    except Exception as exc:  # noqa: BLE001 - pdfminer raises anything on a damaged file
        name = type(exc).__name__
        if name in ("PDFPasswordIncorrect", "PDFEncryptionError"):
            raise UnreadableInput(path, "is password-protected or encrypted: save an "
                                        "unprotected copy and import that") from None
        raise UnreadableInput(path, f"is not a readable PDF file ({name}: {exc})") from None
    if not pages:
        raise UnreadableInput(path, "is not a readable PDF file (it has no pages)")
    visible = "".join(row.text for page in pages for row in page.rows)
    if not visible.strip():
        raise UnreadableInput(path, "has no text layer (a scanned PDF?): OCR it first")
    if len("".join(_CID.findall(visible))) > 0.5 * len(visible):
        raise UnreadableInput(path, "its fonts carry no character map, so its text cannot "
                                    "be read (print it to PDF again, or OCR it)")
    _drop_furniture(pages)
    # a glyph whose font has no character map is a lost character: the prose rules flag
    # U+FFFD where it stands, so the review points at each one
    return _CID_RUN.sub("\ufffd", "\n".join(_paper_lines(pages)))


# -- 1. rows in reading order --------------------------------------------------------------

def _is_mono(fontname: str) -> bool:
    name = fontname.lower().split("+", 1)[-1]
    return any(word in name for word in MONOSPACE_WORDS)


def _lines_of(layout):
    """Every horizontal text line on the page, through boxes and figures, no recursion."""
    from pdfminer.layout import LTTextLineHorizontal

    stack = [iter(layout)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        if isinstance(item, LTTextLineHorizontal):
            yield item
        elif hasattr(item, "__iter__") and len(stack) < 64:
            stack.append(iter(item))


def _line(item) -> _Line | None:
    from pdfminer.layout import LTChar

    chars = [c for c in item if isinstance(c, LTChar)]
    text = item.get_text().replace("\t", " ").rstrip()  # Qt's writer: spaces read as tabs
    visible = [c for c in chars if c.get_text().strip()]
    if not text.strip() or not visible:
        return None
    mono = sum(_is_mono(c.fontname) for c in visible) > len(visible) / 2
    sizes = sorted(c.size for c in visible)
    widths = [c.width for c in visible if c.width > 0]
    return _Line(text=text.lstrip(), x0=visible[0].x0, x1=visible[-1].x1, y0=item.y0,
                 y1=item.y1, size=sizes[len(sizes) // 2],
                 mono=mono, char_width=statistics.median(widths) if widths else sizes[0] * 0.6)


def _page(layout, index: int) -> _Page:
    lines = [line for line in (_line(item) for item in _lines_of(layout)) if line]
    page = _Page(width=layout.width, height=layout.height)
    for column in _columns(lines, layout.width):
        rows = _rows(column, index)
        prose = [row.x0 for row in rows if not row.mono]
        for row in rows:
            row.margin = min(prose) if prose else row.x0
        page.rows += rows
    return page


def _rows(lines: list[_Line], index: int) -> list[_Row]:
    """Lines grouped by baseline band, top to bottom."""
    rows: list[list[_Line]] = []
    for line in sorted(lines, key=lambda ln: (-ln.y1, ln.x0)):
        if rows:
            last = rows[-1]
            top, bottom = max(p.y1 for p in last), min(p.y0 for p in last)
            overlap = min(top, line.y1) - max(bottom, line.y0)
            if overlap > 0.5 * min(top - bottom, line.y1 - line.y0):
                last.append(line)
                continue
        rows.append([line])
    return [_Row(parts, index) for parts in rows]


def _columns(lines: list[_Line], width: float) -> list[list[_Line]]:
    """One list per reading region: two columns (left, then right) between the lines that
    span a clear gutter, or all lines when the page has no gutter."""
    if len(lines) < 8:
        return [lines]
    best = None
    for step in range(-15, 16):
        x = width / 2 + step * width / 100
        crossing = sum(1 for ln in lines if ln.x0 < x - 2 < x + 2 < ln.x1)
        left = sum(1 for ln in lines if ln.x1 <= x)
        right = sum(1 for ln in lines if ln.x0 >= x)
        if crossing <= 0.1 * len(lines) and min(left, right) >= 0.25 * len(lines):
            if best is None or crossing < best[1]:
                best = (x, crossing)
    if best is None:
        return [lines]
    gutter = best[0]
    spanning = sorted((ln for ln in lines if ln.x0 < gutter < ln.x1), key=lambda ln: -ln.y1)
    regions: list[list[_Line]] = []
    upper = float("inf")
    for cut in spanning + [None]:
        lower = cut.y1 if cut is not None else float("-inf")
        band = [ln for ln in lines if not (ln.x0 < gutter < ln.x1) and lower <= ln.y1 < upper
                and not (cut is not None and ln is cut)]
        regions.append([ln for ln in band if ln.x1 <= gutter])
        regions.append([ln for ln in band if ln.x1 > gutter])
        if cut is not None:
            regions.append([cut])
            upper = cut.y0 + 0.01
    return [region for region in regions if region]


# -- 2. page furniture ---------------------------------------------------------------------

def _furniture_key(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", "", text))


def _margin_rows(page: _Page) -> list[_Row]:
    """The rows that can be furniture: among the first and last three, in the outer fifth."""
    rows = sorted(page.rows, key=lambda r: -r.y1)
    candidates = list({id(r): r for r in rows[:3] + rows[-3:]}.values())
    zone = page.height * 0.12
    return [r for r in candidates if (r.y0 >= page.height - zone or r.y1 <= zone)
            and (_PAGE_NUMBER.match(r.text) or not _STARTS_ITEM.match(r.text))]


def _drop_furniture(pages: list[_Page]) -> None:
    positions: dict[str, list[tuple[int, float]]] = {}
    for number, page in enumerate(pages):
        for row in _margin_rows(page):
            positions.setdefault(_furniture_key(row.text), []).append((number, row.y0))
    furniture: set[tuple[int, int]] = set()
    needed = max(2, (len(pages) + 1) // 2)
    for key, seen in positions.items():
        heights = sorted(y for _, y in seen)
        middle = heights[len(heights) // 2]
        same_place = [(number, y) for number, y in seen if abs(y - middle) <= 6]
        if len({number for number, _ in same_place}) >= needed:
            for number, y in same_place:
                furniture.add((number, round(y * 100)))
    for number, page in enumerate(pages):
        margin = {id(r) for r in _margin_rows(page)}
        page.rows = [row for row in page.rows if not (
            id(row) in margin and ((number, round(row.y0 * 100)) in furniture
                                   and _furniture_key(row.text) in positions
                                   or _PAGE_NUMBER.match(row.text)))]


# -- 3-5. the paper's lines ----------------------------------------------------------------

def _paper_lines(pages: list[_Page]) -> list[str]:
    rows = [row for page in pages for row in page.rows]
    if not rows:
        return []
    prose = [row for row in rows if not row.mono]
    right_edges = []
    for page in pages:
        edges = [row.x1 for row in page.rows if not row.mono]
        if edges:
            right_edges.append(max(edges))
    right = statistics.median(right_edges) if right_edges else max(r.x1 for r in rows)
    left = statistics.median(row.margin for row in rows)
    steps = _indent_steps([row for row in prose if _STARTS_ITEM.match(row.text)], left, right)
    out: list[str] = []
    previous: _Row | None = None
    index = 0
    while index < len(rows):
        row = rows[index]
        if row.mono:
            block = [row]
            while index + 1 < len(rows) and rows[index + 1].mono:
                index += 1
                block.append(rows[index])
            out += _code_block(block)
            previous = None
            index += 1
            continue
        if previous is not None and out and _continues(previous, row, right):
            out[-1] = _join(out[-1], row.text)
        else:
            level = _level(row, steps)
            out.append(INDENT * level + row.text)
        previous = row
        index += 1
    return out


def _indent_steps(items: list[_Row], left: float, right: float) -> list[float]:
    """The offsets (from the column's margin) at which item lines sit deeper than the
    margin: one per nesting level, from the item lines themselves."""
    offsets = []
    for row in items:
        offset = row.x0 - row.margin
        centred = abs((row.x0 + row.x1) / 2 - (left + right) / 2) < 0.05 * (right - left)
        if offset >= 1.5 * row.size and not (centred and offset > 3 * row.size):
            offsets.append((offset, row.size))
    steps: list[float] = []
    for offset, size in sorted(offsets):
        if not steps or offset - steps[-1] > 0.8 * size:
            steps.append(offset)
    return steps


def _level(row: _Row, steps: list[float]) -> int:
    if not steps or not _STARTS_ITEM.match(row.text):
        return 0
    offset = row.x0 - row.margin
    if offset < 1.5 * row.size:
        return 0
    level = 0
    for k, step in enumerate(steps):
        if offset >= step - 0.8 * row.size:
            level = k + 1
    return min(level, 4)


def _continues(previous: _Row, row: _Row, right: float) -> bool:
    """Whether ``row`` is the wrapped rest of ``previous`` (see the module doc, 4)."""
    if _STARTS_ITEM.match(row.text):
        return False
    if abs(previous.size - row.size) > 0.6:
        return False
    if row.page == previous.page:
        gap = previous.y0 - row.y1
        if gap > 0.9 * row.size or gap < -0.5 * row.size:
            return False
    if row.x0 > previous.x0 + 4 * row.size:
        return False  # set in far deeper: a new block
    hyphen = re.search(r"[A-Za-z]-$", previous.text) and re.match(r"[a-z]", row.text)
    if hyphen:
        return True
    reaches = previous.x1 >= right - max(2.5 * previous.size, 0.12 * (right - previous.x0))
    return reaches and len(previous.parts) == 1


def _join(text: str, more: str) -> str:
    if re.search(r"[A-Za-z]-$", text) and re.match(r"[a-z]", more):
        return text[:-1] + more  # implemen- / tation
    if _ends_cjk(text) or _starts_cjk(more):
        return text + more
    return text + " " + more


def _code_block(block: list[_Row]) -> list[str]:
    left = min(row.x0 for row in block)
    width = statistics.median(row.char_width for row in block) or 6.0
    pitch = [a.y0 - b.y0 for a, b in zip(block, block[1:]) if a.page == b.page]
    usual = statistics.median(pitch) if pitch else 0.0
    lines = ["```python"]
    for k, row in enumerate(block):
        if k and usual and row.page == block[k - 1].page and \
                block[k - 1].y0 - row.y0 > 1.6 * usual:
            lines.append("")
        columns = max(0, round((row.x0 - left) / width))
        lines.append(" " * columns + row.text)
    lines.append("```")
    return lines
