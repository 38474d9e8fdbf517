"""The paper text of a .docx (see ``paper_text``), read from its XML with python-docx.

- Body paragraphs, content controls and tables in document order; text boxes after the
  paragraph that anchors them; deleted revisions and hidden text left out.
- Word's list numbering is not in the paragraphs' text but in the numbering part: each
  paragraph with a ``w:numPr`` (its own or its style's) gets its label rendered from
  ``numId`` → ``abstractNumId`` → level (``numFmt``, ``lvlText``, ``start``,
  ``lvlOverride/startOverride``), counted per list as Word does (a ``w:num`` continues the
  lists that share its ``abstractNum`` unless it overrides the start; a level restarts
  when a shallower one advances). Level ``n`` ≥ 1 is indented 4·n spaces.
- A table row is one line, its cells joined by `` | ``; a one-column table (a frame around
  a question or a code listing) is read as the paragraphs it holds.
- Consecutive code paragraphs (a "Code"/"Preformatted"/"Source" style, or every run in a
  monospace font) are fenced as ```python so the code path repairs them.
- The zip is checked before anything is parsed (issue 28 item 3): at most 10,000 entries,
  200 MB declared uncompressed, no entry expanding more than 200 times.
"""
from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..encoding import UnreadableInput
from .paper_text import (CELL_SEPARATOR, INDENT, MAX_TEXT_CHARS, check_file_size,
                         counter_label, too_long)

MONOSPACE = ("consolas", "courier", "courier new", "menlo", "monaco", "source code pro",
             "dejavu sans mono", "liberation mono", "jetbrains mono", "cascadia",
             "lucida console", "noto sans mono", "sf mono", "fira code", "fira mono")
CODE_STYLE_WORDS = ("code", "preformatted", "source", "verbatim")
MAX_ZIP_ENTRIES = 10_000
MAX_ZIP_BYTES = 200 * 1024 * 1024
MAX_ZIP_RATIO = 200  # deflate of real XML stays under ~50; a bomb is ~1000

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_W = "{%s}" % W


def _q(tag: str) -> str:
    return _W + tag


def docx_text(path: Path | str) -> str:
    """The paper text of ``path``; ``UnreadableInput`` for a damaged or oversized file."""
    check_file_size(path)
    check_zip(path)
    try:
        import docx  # python-docx
    except ImportError as exc:  # pragma: no cover - it is a dependency
        raise UnreadableInput(path, f"reading .docx needs python-docx ({exc})") from None
    try:
        document = docx.Document(str(path))
    except Exception as exc:  # noqa: BLE001 - damage raises anything (zlib, lxml, KeyError)
        raise UnreadableInput(path, f"is not a readable .docx file "
                                    f"({type(exc).__name__}: {exc})") from None
    try:
        reader = _Reader(document)
        text = "\n".join(reader.lines())
    except _TooLong:
        raise too_long(path) from None
    except Exception as exc:  # noqa: BLE001 - damaged parts inside a valid zip
        raise UnreadableInput(path, f"is a damaged .docx file ({type(exc).__name__}: "
                                    f"{exc})") from None
    if not text.strip():
        raise UnreadableInput(path, "the document has no text")
    return text


def check_zip(path: Path | str) -> None:
    """Refuse a zip with too many entries, too many bytes or a bomb-like entry."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise UnreadableInput(path, f"is not a readable .docx file ({exc})") from None
    if len(infos) > MAX_ZIP_ENTRIES:
        raise UnreadableInput(path, f"is a zip of {len(infos):,} entries (the limit for a "
                                    f"Word document is {MAX_ZIP_ENTRIES:,})")
    total = sum(info.file_size for info in infos)
    if total > MAX_ZIP_BYTES:
        raise UnreadableInput(path, f"would expand to {total / 2**20:,.0f} MB (the limit for "
                                    f"a Word document is {MAX_ZIP_BYTES // 2**20} MB)")
    for info in infos:
        if info.file_size > 1 << 20 and info.file_size > MAX_ZIP_RATIO * max(
                info.compress_size, 1):
            raise UnreadableInput(path, f"its entry {info.filename!r} expands "
                                        f"{info.file_size // max(info.compress_size, 1):,} "
                                        f"times (a zip bomb?); refused")


class _TooLong(Exception):
    pass


# -- styles and numbering ----------------------------------------------------------------

@dataclass
class _Style:
    name: str = ""
    based_on: str | None = None
    num_id: str | None = None
    ilvl: int | None = None
    font: str | None = None
    run_style: bool = False


@dataclass
class _Level:
    fmt: str = "decimal"
    text: str = ""
    start: int = 1
    suffix: str = " "
    legal: bool = False
    restart: int | None = None  # w:lvlRestart: 0 = never restart
    style: str | None = None  # w:pStyle: paragraphs of this style get this level


@dataclass
class _Num:
    abstract: str
    starts: dict[int, int] = field(default_factory=dict)  # lvlOverride/startOverride
    levels: dict[int, _Level] = field(default_factory=dict)  # lvlOverride/lvl


def _val(element, tag: str, attr: str = "val") -> str | None:
    if element is None:
        return None
    child = element.find(_q(tag))
    return None if child is None else child.get(_q(attr))


def _int(text: str | None, default: int | None = None) -> int | None:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _fonts(rpr) -> str | None:
    if rpr is None:
        return None
    fonts = rpr.find(_q("rFonts"))
    if fonts is None:
        return None
    return fonts.get(_q("ascii")) or fonts.get(_q("hAnsi")) or fonts.get(_q("cs"))


def _parse_styles(root) -> tuple[dict[str, _Style], str | None]:
    styles: dict[str, _Style] = {}
    default = None
    if root is None:
        return styles, None
    for element in root.iter(_q("style")):
        style_id = element.get(_q("styleId"))
        if not style_id:
            continue
        ppr = element.find(_q("pPr"))
        numpr = ppr.find(_q("numPr")) if ppr is not None else None
        style = _Style(name=_val(element, "name") or style_id,
                       based_on=_val(element, "basedOn"),
                       num_id=_val(numpr, "numId"), ilvl=_int(_val(numpr, "ilvl")),
                       font=_fonts(element.find(_q("rPr"))),
                       run_style=element.get(_q("type")) == "character")
        styles[style_id] = style
        if element.get(_q("type")) == "paragraph" and element.get(_q("default")) in ("1", "true"):
            default = style_id
    return styles, default


def _parse_level(element) -> _Level:
    suff = _val(element, "suff") or "tab"
    return _Level(fmt=_val(element, "numFmt") or "decimal", text=_val(element, "lvlText") or "",
                  start=_int(_val(element, "start"), 1), suffix="" if suff == "nothing" else " ",
                  legal=element.find(_q("isLgl")) is not None and
                  _val(element, "isLgl") not in ("0", "false"),
                  restart=_int(_val(element, "lvlRestart")), style=_val(element, "pStyle"))


class _Numbering:
    """Labels for numbered paragraphs, counted in document order."""

    def __init__(self, root, styles: dict[str, _Style]):
        self.styles = styles
        self.abstracts: dict[str, dict[int, _Level]] = {}
        self.links: dict[str, str] = {}  # abstractNum -> numbering style (numStyleLink)
        self.nums: dict[str, _Num] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.seen: set[str] = set()
        if root is None:
            return
        for element in root.iter(_q("abstractNum")):
            levels = {}
            for lvl in element.iter(_q("lvl")):
                levels[_int(lvl.get(_q("ilvl")), 0)] = _parse_level(lvl)
            abstract_id = element.get(_q("abstractNumId"))
            self.abstracts[abstract_id] = levels
            link = _val(element, "numStyleLink")
            if link:
                self.links[abstract_id] = link
        for element in root.iter(_q("num")):
            num = _Num(_val(element, "abstractNumId") or "")
            for override in element.iter(_q("lvlOverride")):
                ilvl = _int(override.get(_q("ilvl")), 0)
                start = _int(_val(override, "startOverride"))
                if start is not None:
                    num.starts[ilvl] = start
                lvl = override.find(_q("lvl"))
                if lvl is not None:
                    num.levels[ilvl] = _parse_level(lvl)
            self.nums[element.get(_q("numId"))] = num

    def _abstract_levels(self, abstract_id: str) -> tuple[str, dict[int, _Level]]:
        for _ in range(8):  # numStyleLink: the list lives in a numbering style's list
            link = self.links.get(abstract_id)
            style = self.styles.get(link) if link else None
            num = self.nums.get(style.num_id) if style and style.num_id else None
            if num is None or num.abstract == abstract_id:
                break
            abstract_id = num.abstract
        return abstract_id, self.abstracts.get(abstract_id, {})

    def _style_numbering(self, style_id: str | None) -> tuple[str | None, int | None, str | None]:
        """(numId, ilvl, the style that carried it) through the basedOn chain."""
        for _ in range(20):
            style = self.styles.get(style_id) if style_id else None
            if style is None:
                return None, None, None
            if style.num_id is not None:
                return style.num_id, style.ilvl, style_id
            style_id = style.based_on
        return None, None, None

    def label(self, ppr, style_id: str | None) -> tuple[str, int] | None:
        """The rendered label and level of a paragraph, or None when it is not numbered.
        Advances the counters: call once per paragraph, in document order."""
        numpr = ppr.find(_q("numPr")) if ppr is not None else None
        num_id, ilvl = _val(numpr, "numId"), _int(_val(numpr, "ilvl"))
        style_num, style_ilvl, carrier = self._style_numbering(style_id)
        if num_id is None:
            num_id = style_num
        if num_id is None or num_id == "0" or num_id not in self.nums:
            return None
        num = self.nums[num_id]
        abstract_id, levels = self._abstract_levels(num.abstract)
        levels = {**levels, **num.levels}
        if ilvl is None:
            ilvl = style_ilvl
        if ilvl is None:
            ilvl = next((k for k, lv in levels.items() if carrier and lv.style == carrier), 0)
        level = levels.get(ilvl)
        if level is None:
            return None
        counters = self.counters.setdefault(abstract_id, {})
        if num_id not in self.seen:
            self.seen.add(num_id)
            for k, start in num.starts.items():
                counters[k] = start - 1
        counters[ilvl] = counters[ilvl] + 1 if ilvl in counters else level.start
        for deeper in [k for k in counters if k > ilvl]:
            restart = levels.get(deeper, _Level()).restart
            if restart != 0 and (restart is None or restart - 1 >= ilvl):
                del counters[deeper]
        if level.fmt == "bullet":
            return "- ", ilvl

        def render(match: re.Match) -> str:
            k = int(match[1]) - 1
            lv = levels.get(k, _Level())
            value = counters.get(k, lv.start)
            return counter_label("decimal" if level.legal and lv.fmt != "none" else lv.fmt,
                                 value)

        text = re.sub(r"%([1-9])", render, level.text).strip()
        return (text + level.suffix if text else ""), ilvl


# -- the document ------------------------------------------------------------------------

class _Reader:
    def __init__(self, document):
        part = document.part
        styles_root = None
        try:
            styles_root = part.styles.element  # python-docx makes a default one if absent
        except Exception:  # noqa: BLE001 - a damaged styles part: read without styles
            styles_root = None
        self.styles, self.default_style = _parse_styles(styles_root)
        numbering_root = None
        try:
            from docx.opc.constants import RELATIONSHIP_TYPE as RT
            numbering_root = part.part_related_by(RT.NUMBERING).element
        except (KeyError, AttributeError):
            numbering_root = None
        self.numbering = _Numbering(numbering_root, self.styles)
        self.body = document.element.body
        self.size = 0

    # Lines as (text, is_code); a fence is added around runs of code lines.
    def lines(self) -> list[str]:
        out: list[str] = []
        in_code = False
        for text, code in self._blocks(self.body, 0):
            if not text.strip():
                code = in_code  # a blank line keeps the block it is in
            if code and not in_code:
                out.append("```python")
            elif not code and in_code:
                out.append("```")
            in_code = code
            out.append(text)
            self.size += len(text) + 1
            if self.size > MAX_TEXT_CHARS:
                raise _TooLong
        if in_code:
            out.append("```")
        return out

    def _blocks(self, container, depth: int):
        """(line, is_code) for the block content of a body, cell, text box or control."""
        for child in container.iterchildren():
            tag = child.tag
            if tag == _q("p"):
                yield from self._paragraph(child)
            elif tag == _q("tbl"):
                yield from self._table(child, depth)
            elif tag in (_q("sdt"), _q("customXml")) and depth < 50:
                content = child.find(_q("sdtContent")) if tag == _q("sdt") else child
                if content is not None:
                    yield from self._blocks(content, depth + 1)

    def _style_of(self, ppr) -> str | None:
        return _val(ppr, "pStyle") or self.default_style

    def _paragraph(self, p):
        ppr = p.find(_q("pPr"))
        style_id = self._style_of(ppr)
        label = self.numbering.label(ppr, style_id)
        text, fonts, boxes = self._runs(p)
        code = bool(text.strip()) and self._is_code(style_id, fonts)
        if label is not None and not code:
            prefix, ilvl = label
            indent = INDENT * ilvl
            text = indent + prefix + text.replace("\n", "\n" + indent)
        yield from ((line, code) for line in text.split("\n"))
        for box in boxes:
            yield from self._blocks(box, 1)

    def _runs(self, p) -> tuple[str, list[str | None], list]:
        """The paragraph's visible text, the font of each run with text (None: the
        style's), and its text boxes' contents."""
        parts: list[str] = []
        fonts: list[str | None] = []
        boxes = []
        stack = [iter(p)]
        skip = {_q("del"), _q("moveFrom"), _q("pPr"), _q("rPr"), "{%s}Fallback" % MC}
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                continue
            tag = child.tag
            if not isinstance(tag, str) or tag in skip:
                continue
            if tag == _q("r"):
                rpr = child.find(_q("rPr"))
                if rpr is not None and rpr.find(_q("vanish")) is not None and \
                        _val(rpr, "vanish") not in ("0", "false"):
                    continue
                text = self._run_text(child, boxes)
                if text.strip():
                    fonts.append(self._run_font(rpr))
                parts.append(text)
            elif tag == _q("txbxContent"):
                boxes.append(child)
            elif len(stack) < 40:
                stack.append(iter(child))
        return "".join(parts), fonts, boxes

    def _run_text(self, r, boxes: list) -> str:
        out = []
        for child in r.iterchildren():
            tag = child.tag
            if tag == _q("t"):
                out.append(child.text or "")
            elif tag == _q("tab"):
                out.append("\t")
            elif tag in (_q("br"), _q("cr")):
                out.append("\n")
            elif tag == _q("noBreakHyphen"):
                out.append("-")
            elif isinstance(tag, str) and (tag.endswith("}drawing") or tag.endswith("}pict")
                                           or tag.endswith("}AlternateContent")):
                for box in child.iter(_q("txbxContent")):
                    if not any(a.tag == "{%s}Fallback" % MC for a in box.iterancestors()):
                        boxes.append(box)
        return "".join(out)

    def _run_font(self, rpr) -> str | None:
        font = _fonts(rpr)
        if font:
            return font
        style_id = _val(rpr, "rStyle")
        for _ in range(20):
            style = self.styles.get(style_id) if style_id else None
            if style is None:
                return None
            if style.run_style and any(w in style.name.lower() for w in CODE_STYLE_WORDS):
                return "courier"  # "HTML Code", "Source Text": monospace by their name
            if style.font:
                return style.font
            style_id = style.based_on
        return None

    def _paragraph_style(self, style_id: str | None) -> tuple[list[str], str | None]:
        names, font = [], None
        for _ in range(20):
            style = self.styles.get(style_id) if style_id else None
            if style is None:
                break
            names.append(style.name.lower())
            font = font or style.font
            style_id = style.based_on
        return names, font

    def _is_code(self, style_id: str | None, fonts: list[str | None]) -> bool:
        names, style_font = self._paragraph_style(style_id)
        if any(word in name for name in names for word in CODE_STYLE_WORDS):
            return True  # Word's "HTML Preformatted", LibreOffice's "Preformatted Text"
        if not fonts:
            return False
        return all((font or style_font or "").lower().startswith(MONOSPACE) for font in fonts)

    def _table(self, tbl, depth: int):
        rows = [tr for tr in tbl.iterchildren(_q("tr"))]
        cells = [[tc for tc in tr.iterchildren(_q("tc"))] for tr in rows]
        grid = tbl.find(_q("tblGrid"))
        columns = len(grid.findall(_q("gridCol"))) if grid is not None else 0
        if depth >= 20:
            return
        if max((len(row) for row in cells), default=0) <= 1 and columns <= 1:
            for row in cells:  # a frame: its paragraphs are the paper's own lines
                for tc in row:
                    yield from self._blocks(tc, depth + 1)
            return
        for row in cells:
            texts = []
            for tc in row:
                lines = [line.strip() for line, _ in self._blocks(tc, depth + 1)]
                text = " ".join(line for line in lines if line)
                if text:
                    texts.append(text)
            if texts:
                yield CELL_SEPARATOR.join(texts), False
