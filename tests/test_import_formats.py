"""Readers for every paper format (issue 26 item 3; issue 28 items 3, 6, 7): Markdown, HTML,
.docx with Word numbering, PDF (reportlab and Qt's writer), each turned into the paper text
``import_text`` takes (``text_import/paper_text.py``), chosen by content, refusing damaged
and oversized input with ``UnreadableInput``.

The files are written by other tools (python-docx with real numbering definitions,
reportlab, QPdfWriter) or by hand, and the tests assert the exact paper text."""
from __future__ import annotations

import importlib.util
import io
import struct
import subprocess
import sys
import zipfile

import pytest

from conftest import REPO
from question_db.interchange import importers
from question_db.interchange.encoding import UnreadableInput
from question_db.interchange.importers import FORMATS, detect_format, import_file
from question_db.interchange.text_import import paper_text
from question_db.interchange.text_import.docx import docx_text
from question_db.interchange.text_import.html_in import html_text, html_to_paper_text
from question_db.interchange.text_import.markdown_in import markdown_to_paper_text

# The small paper of the end-to-end tests, in the conventions the core reads today.
CN_QUESTIONS = [
    ("下列哪个是 Python 的列表？", ["()", "[]", "{}"], "B"),
    ("len('abc') 的值是？", ["2", "3"], "B"),
    ("以下哪个关键字定义函数？", ["def", "fun", "func"], "A"),
    ("Python 中整数除法的运算符是？", ["/", "//", "%"], "B"),
    ("哪个函数返回对象的类型？", ["type", "id", "dir", "len"], "A"),
]
CN_TITLE = "Python 基础测验"
CN_PART = "一、单选题（每题2分，共10分）"


def _cn_lines() -> list[str]:
    lines = [CN_TITLE, CN_PART]
    for n, (stem, options, key) in enumerate(CN_QUESTIONS, 1):
        lines.append(f"{n}. {stem}")
        lines += [f"{'ABCD'[k]}. {text}" for k, text in enumerate(options)]
        lines.append(f"答案：{key}")
    return lines


def _check_cn_paper(result) -> None:
    paper = result.paper
    assert paper.title == CN_TITLE
    assert len(paper.questions) == 5
    assert [q.answer for q in paper.questions] == [key for *_, key in CN_QUESTIONS]
    assert paper.questions[4].options == {"A": "type", "B": "id", "C": "dir", "D": "len"}
    assert paper.questions[0].options == {"A": "()", "B": "[]", "C": "{}"}


# -- Markdown ------------------------------------------------------------------------------

MARKDOWN = """\
Python Quiz
===========

## Part 1: **Single** choice (2 points each)

1. Which of these is a *list*?
A. `()`
B. `[]`
Answer: B
2. What does `len("ab")` return?
   A. an __int__
   B. a str

   Answer: A

5) five
6) six
   1. sub one
   2. sub two
      - a bullet, nested twice

```python
def add(a, b):
    return a + b
```

    x = 1  # indented code

| Option | Text |
|--------|------|
| A | **yes** |

<div class="note"><p>Note <b>this</b></p><ol type="a"><li>first</li></ol></div>

See [the docs](https://example.org) and ![figure 1](f.png).
"""

MARKDOWN_TEXT = """\
# Python Quiz
## Part 1: Single choice (2 points each)
1. Which of these is a list?
A. `()`
B. `[]`
Answer: B
2. What does `len("ab")` return?
    A. an __int__
    B. a str
    Answer: A
5) five
6) six
    1. sub one
    2. sub two
        - a bullet, nested twice
```python
def add(a, b):
    return a + b
```
```
x = 1  # indented code
```
Option | Text
A | yes
Note this
a. first
See the docs and figure 1."""


def test_markdown_paper_text():
    """Numbers materialised (start + position, ``)`` kept), lazy lines flush left, nested
    lines 4 spaces per level, fences kept, emphasis gone, tables as rows, HTML as text."""
    assert markdown_to_paper_text(MARKDOWN) == MARKDOWN_TEXT


def test_markdown_numbers_as_typed_unless_typed_as_one():
    """A paper's numbers as it printed them (a renderer would make this ``16.`` a 2.); a
    list typed ``1. 1. 1.`` gets a renderer's numbers."""
    assert markdown_to_paper_text("1-15 见上表\n\n1. A\n16. B, D\n21. 见解析\n") == \
        "1-15 见上表\n1. A\n16. B, D\n21. 见解析"
    assert markdown_to_paper_text("1. a\n1. b\n1. c\n") == "1. a\n2. b\n3. c"
    assert markdown_to_paper_text("5) a\n5) b\n") == "5) a\n6) b"


def test_markdown_keeps_code_and_maths_marks():
    """``__init__`` and ``x1*cos`` are a paper's code, not emphasis (a renderer would make
    them bold "init" and italic "cos - x2")."""
    assert markdown_to_paper_text("- 定义 __init__ 与 _p；x1*cos - x2*sin；**粗体**题；*斜体*\n"
                                  "- ***都有***\n") == \
        "- 定义 __init__ 与 _p；x1*cos - x2*sin；粗体题；斜体\n- 都有"


def test_a_fence_the_file_leaves_open_stays_open():
    """A paper cut inside its code: the open fence tells the core it was cut
    (markdown-it, like a browser, would close it)."""
    assert markdown_to_paper_text("1. 写代码\n```python\ndef f(\n") == "1. 写代码\n```python\ndef f("
    assert markdown_to_paper_text("~~~\nx\n~~~~\n") == "```\nx\n```"
    assert html_to_paper_text("<p>1. 写代码</p><pre>def f(\n") == "1. 写代码\n```\ndef f("


def test_markdown_end_to_end(tmp_path):
    path = tmp_path / "quiz.txt"  # the name says text; the content says Markdown
    body = "\n".join(_cn_lines()[2:])
    path.write_text(f"# {CN_TITLE}\n\n## {CN_PART}\n\n{body}\n\n```python\nx = 1\n```\n",
                    encoding="utf-8")
    assert detect_format(path) == "markdown"
    result = import_file(path)
    _check_cn_paper(result)
    assert result.encoding == "utf-8"


# -- HTML ----------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Site &amp; quiz</title>
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body>
<header><a href="/">Home</a> | <a href="/login">Log in</a></header>
<nav><ul><li>Menu 1</li><li>Menu 2</li></ul></nav>
<article>
<header><h1>Python 测验</h1></header>
<p>说明：<strong>每题</strong> 2 分，
共 10 分。</p>
<h2>一、单选题</h2>
<ol>
<li>Which is a <em>list</em>?
  <ol type="A"><li>()<li>[]</ol>
<li value="5"><p>What is <code>1 &lt; 2</code>?</p><p>Answer:&nbsp;True</p>
  <ul><li>a note<ul><li>deeper</ul></ul>
</ol>
<ol type="a" start="3"><li>third</li><li>fourth</li></ol>
<pre><code class="language-python">def f(x):
    return x &amp; 1
</code></pre>
<p>line one<br>line two</p>
<table><tr><th>Option</th><th>Text</th></tr><tr><td>A</td><td>x<sup>2</sup></td></tr></table>
<noscript>enable JS</noscript><form><input name="q"><button>Submit</button></form>
<footer><p>出题：张老师</p></footer>
</article>
<aside>Related quizzes</aside>
<footer>© 2026 example.org</footer>
</body></html>
"""

PAGE_TEXT = """\
# Python 测验
说明：每题 2 分，共 10 分。
## 一、单选题
1. Which is a list?
    A. ()
    B. []
5. What is `1 < 2`?
    Answer: True
    - a note
        - deeper
c. third
d. fourth
```python
def f(x):
    return x & 1
```
line one
line two
Option | Text
A | x^2
出题：张老师"""


def test_html_paper_text():
    """Page junk gone (script, style, nav, the page's header/footer, aside, form), the
    article read, list labels by type/start/value with nesting, pre as a fence, br a line
    break, entities decoded, tables as rows."""
    assert html_to_paper_text(PAGE) == PAGE_TEXT


def test_html_without_article_reads_the_body_and_frames():
    page = ("<html><body><table><tr><td><p>1. 题一</p><p>A. 甲</p></td></tr></table>"
            "<div>2. 题二</div><ol type='I'><li>one<li>two</ol><ol type=i start=4><li>x</ol>"
            "</body></html>")
    assert html_to_paper_text(page) == "1. 题一\nA. 甲\n2. 题二\nI. one\nII. two\niv. x"


def test_html_head_without_its_end_tag_still_has_a_body():
    assert html_to_paper_text("<html><head><title>t</title><body><p>1. 题</p>") == "1. 题"


def test_html_charset_from_meta(tmp_path):
    page = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312">' \
           "</head><body><p>第一题：选择</p></body></html>"
    path = tmp_path / "gbk.html"
    path.write_bytes(page.encode("gbk"))
    assert html_text(path) == ("第一题：选择", "gb18030")


def test_html_nested_100000_levels_does_not_crash():
    """Issue 28 item 7: a recursive reader overflows its stack at ~1,000 levels."""
    deep = "<div>" * 100_000 + "1. 深处的题" + "</div>" * 100_000
    assert html_to_paper_text(f"<html><body>{deep}<p>2. 后面的题</p></body></html>") == \
        "1. 深处的题\n2. 后面的题"
    spans = "<span>" * 50_000 + "x" + "</b>" * 50_000  # unmatched end tags
    assert html_to_paper_text(spans) == "x"


def test_html_end_to_end(tmp_path):
    items = "".join(
        f"<li>{stem}<br>" + "<br>".join(f"{'ABCD'[k]}. {t}" for k, t in enumerate(opts))
        + f"<br>答案：{key}</li>" for stem, opts, key in CN_QUESTIONS)
    page = (f"<!doctype html><html><head><title>x</title></head><body><nav>首页</nav>"
            f"<main><h1>{CN_TITLE}</h1><h2>{CN_PART}</h2><ol>{items}</ol></main>"
            f"<footer>版权所有</footer></body></html>")
    path = tmp_path / "quiz.htm"
    path.write_text(page, encoding="utf-8")
    assert detect_format(path) == "html"
    result = import_file(path)
    _check_cn_paper(result)
    assert result.encoding == "utf-8"


# -- .docx with Word numbering --------------------------------------------------------------

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _lvl(ilvl: int, fmt: str, text: str, start: int = 1, suff: str | None = None) -> str:
    suffix = f'<w:suff w:val="{suff}"/>' if suff else ""
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'{suffix}<w:lvlText w:val="{text}"/></w:lvl>')


class WordNumbering:
    """Real numbering definitions in a python-docx document's numbering part."""

    def __init__(self, document):
        self.root = document.part.numbering_part.element

    def abstract(self, abstract_id: int, *levels: str) -> None:
        from docx.oxml import parse_xml

        element = parse_xml(f'<w:abstractNum {W_NS} w:abstractNumId="{abstract_id}">'
                            f'<w:multiLevelType w:val="multilevel"/>{"".join(levels)}'
                            f"</w:abstractNum>")
        first_num = self.root.find("{http://schemas.openxmlformats.org/wordprocessingml/"
                                   "2006/main}num")
        if first_num is not None:
            first_num.addprevious(element)
        else:
            self.root.append(element)

    def num(self, num_id: int, abstract_id: int, starts: dict[int, int] | None = None) -> None:
        from docx.oxml import parse_xml

        overrides = "".join(f'<w:lvlOverride w:ilvl="{k}"><w:startOverride w:val="{v}"/>'
                            f"</w:lvlOverride>" for k, v in (starts or {}).items())
        self.root.append(parse_xml(f'<w:num {W_NS} w:numId="{num_id}"><w:abstractNumId '
                                   f'w:val="{abstract_id}"/>{overrides}</w:num>'))

    @staticmethod
    def numbered(paragraph, num_id: int, ilvl: int = 0):
        from docx.oxml import parse_xml

        paragraph._p.get_or_add_pPr().insert(0, parse_xml(
            f'<w:numPr {W_NS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'))
        return paragraph


def _numbered_docx(path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import parse_xml

    document = docx.Document()
    numbering = WordNumbering(document)
    numbering.abstract(100, _lvl(0, "decimal", "%1."), _lvl(1, "upperLetter", "%2."),
                       _lvl(2, "decimal", "（%3）", suff="nothing"))
    numbering.abstract(101, _lvl(0, "chineseCounting", "%1、", suff="nothing"))
    numbering.abstract(102, _lvl(0, "decimal", "%1)"))
    numbering.abstract(103, _lvl(0, "bullet", "\uf0b7"))
    numbering.abstract(104, _lvl(0, "lowerRoman", "(%1)"), _lvl(1, "decimalEnclosedCircle", "%2"))
    numbering.num(200, 100)
    numbering.num(201, 101)
    numbering.num(202, 100, starts={0: 5})  # "restart at 5" in Word
    numbering.num(203, 102)
    numbering.num(204, 103)
    numbering.num(205, 104)
    style = document.styles.add_style("Question List", WD_STYLE_TYPE.PARAGRAPH)
    style.element.get_or_add_pPr().insert(0, parse_xml(
        f'<w:numPr {W_NS}><w:numId w:val="203"/></w:numPr>'))
    add, numbered = document.add_paragraph, numbering.numbered
    add("Python 测验")
    numbered(add("单选题（每题2分）"), 201)
    numbered(add("下列哪个是列表？"), 200)
    numbered(add("()"), 200, 1)
    numbered(add("[]"), 200, 1)
    add("答案：B")
    numbered(add("以下哪个是整数？"), 200)
    numbered(add("1.5"), 200, 1)  # restarts at A: level 0 advanced
    numbered(add("2"), 200, 1)
    numbered(add("说明"), 200, 2)
    numbered(add("编程题（共10分）"), 201)
    numbered(add("实现 add 函数。"), 200)  # the list goes on through the part heading
    for line in ("def add(a, b):", "", "    return a + b"):
        add().add_run(line).font.name = "Consolas"
    numbered(add("从五开始"), 202)
    numbered(add("然后是六"), 202)
    add("按样式编号", style="Question List")
    add("也按样式编号", style="Question List")
    numbered(add("编号被去掉"), 0)
    numbered(add("一个要点"), 204)
    numbered(add("first"), 205)
    numbered(add("circled"), 205, 1)
    numbered(add("second"), 205)
    table = document.add_table(rows=2, cols=2)
    for k, text in enumerate(["A. 甲", "B. 乙", "C. 丙", ""]):
        table.cell(k // 2, k % 2).text = text
    merged = document.add_table(rows=1, cols=3)
    merged.cell(0, 0).merge(merged.cell(0, 1)).text = "合并"
    merged.cell(0, 2).text = "右"
    document.save(str(path))


NUMBERED_TEXT = """\
Python 测验
一、单选题（每题2分）
1. 下列哪个是列表？
    A. ()
    B. []
答案：B
2. 以下哪个是整数？
    A. 1.5
    B. 2
        （1）说明
二、编程题（共10分）
3. 实现 add 函数。
```python
def add(a, b):

    return a + b
```
5. 从五开始
6. 然后是六
1) 按样式编号
2) 也按样式编号
编号被去掉
- 一个要点
(i) first
    ① circled
(ii) second
A. 甲 | B. 乙
C. 丙
合并 | 右"""


def test_docx_numbering_is_rendered(tmp_path):
    """Word auto-numbering is not in paragraph.text: rendered from the numbering part
    (formats, lvlText, start overrides, restarts, style numbering, numId 0, bullets)."""
    path = tmp_path / "numbered.docx"
    _numbered_docx(path)
    assert docx_text(path) == NUMBERED_TEXT


def test_docx_end_to_end_with_auto_numbering(tmp_path):
    import docx

    document = docx.Document()
    numbering = WordNumbering(document)
    numbering.abstract(100, _lvl(0, "decimal", "%1."), _lvl(1, "upperLetter", "%2."))
    numbering.num(200, 100)
    document.add_paragraph(CN_TITLE)
    document.add_paragraph(CN_PART)
    for stem, options, key in CN_QUESTIONS:  # numbers and letters only in numbering.xml
        numbering.numbered(document.add_paragraph(stem), 200)
        for text in options:
            numbering.numbered(document.add_paragraph(text), 200, 1)
        document.add_paragraph(f"答案：{key}")
    path = tmp_path / "paper.bin"
    document.save(str(path))
    assert detect_format(path) == "docx"
    _check_cn_paper(import_file(path))


def _small_docx() -> bytes:
    import docx

    document = docx.Document()
    for line in _cn_lines():
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _mutants(data: bytes) -> dict[str, bytes]:
    n = len(data)
    flipped = {f"flip@{f}": data[:int(n * f)] + bytes([data[int(n * f)] ^ 0xFF])
               + data[int(n * f) + 1:] for f in (0.1, 0.3, 0.5, 0.7)}
    cut = {f"cut@{f}": data[:int(n * f)] for f in (0.02, 0.25, 0.5, 0.9, 0.999)}
    block = {"zeros@middle": data[:n // 2] + bytes(64) + data[n // 2 + 64:]}
    return {**cut, **flipped, **block}


@pytest.mark.parametrize("name", list(_mutants(b"x" * 1000)))
def test_damaged_docx_is_refused(tmp_path, name):
    path = tmp_path / "damaged.docx"
    path.write_bytes(_mutants(_small_docx())[name])
    with pytest.raises(UnreadableInput) as info:
        import_file(path, fmt="docx")
    assert str(path) in str(info.value)


def test_docx_with_broken_xml_is_refused(tmp_path):
    data = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_small_docx())) as src, \
            zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "word/document.xml":
                body = body[: len(body) // 2]  # an element left open
            dst.writestr(info, body)
    path = tmp_path / "broken.docx"
    path.write_bytes(data.getvalue())
    with pytest.raises(UnreadableInput, match="not a readable .docx"):
        import_file(path)


def _zip(entries: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in entries.items():
            zf.writestr(name, body)
    return data.getvalue()


def test_docx_zip_bomb_is_refused_before_parsing(tmp_path):
    """Issue 28 item 3: entry count, declared total size, compression ratio."""
    path = tmp_path / "bomb.docx"
    path.write_bytes(_zip({"word/document.xml": b"<" + bytes(4 << 20)}))  # 4 MB of zeros
    with pytest.raises(UnreadableInput, match="expands .* times"):
        import_file(path)
    many = {"word/document.xml": b"<w/>", **{f"f/{k}": b"" for k in range(10_001)}}
    path.write_bytes(_zip(many))
    with pytest.raises(UnreadableInput, match="10,002 entries"):
        import_file(path)
    data = bytearray(_zip({"word/document.xml": b"<w/>"}))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24:central + 28] = struct.pack("<I", 300 << 20)  # declares 300 MB
    path.write_bytes(bytes(data))
    with pytest.raises(UnreadableInput, match="would expand to 300 MB"):
        import_file(path)


# -- PDF (reportlab) -----------------------------------------------------------------------

# reportlab writes the test PDFs (the test extra); without it only these tests skip
needs_reportlab = pytest.mark.skipif(importlib.util.find_spec("reportlab") is None,
                                     reason="reportlab (the test extra) is not installed")


def _fonts():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if "STSong-Light" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy wrapping at ``width``; a word that does not fit is hyphenated when at least
    three letters of it fit, as a typesetter does; CJK text breaks anywhere."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if font == "STSong-Light":
        lines, line = [], ""
        for ch in text:
            if stringWidth(line + ch, font, size) > width:
                lines.append(line)
                line = ""
            line += ch
        return lines + [line]
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if stringWidth(candidate, font, size) <= width:
            line = candidate
            continue
        for cut in range(len(word) - 2, 2, -1):
            head = f"{line} {word[:cut]}-"
            if word[:cut].isalpha() and stringWidth(head, font, size) <= width:
                lines.append(head)
                line = word[cut:]
                break
        else:
            lines.append(line)
            line = word
    return lines + [line]


class PdfPaper:
    """A reportlab paper: pages of (font, size, x-indent, text) lines with a running
    header and footer on every page."""

    def __init__(self, header: str, footer: str):
        _fonts()
        from reportlab.lib.pagesizes import A4

        self.width, self.height = A4
        self.left, self.text_width = 72.0, A4[0] - 144.0
        self.header, self.footer = header, footer
        self.pages: list[list[tuple[str, float, float, str]]] = [[]]

    def line(self, text: str, font: str = "Helvetica", size: float = 11, indent: float = 0):
        self.pages[-1].append((font, size, indent, text))

    def paragraph(self, text: str, font: str = "Helvetica", size: float = 11):
        for line in _wrap(text, font, size, self.text_width):
            self.line(line, font, size)

    def gap(self):
        self.pages[-1].append(("", 0, 0, ""))

    def new_page(self):
        self.pages.append([])

    def save(self, path) -> None:
        from reportlab.pdfgen import canvas

        c = canvas.Canvas(str(path), pagesize=(self.width, self.height))
        total = len(self.pages)
        for number, lines in enumerate(self.pages, 1):
            c.setFont("STSong-Light", 9)
            c.drawString(self.left, self.height - 40, self.header)
            c.drawCentredString(self.width / 2, 30,
                                self.footer.format(n=number, total=total))
            y = self.height - 80
            for font, size, indent, text in lines:
                if font:
                    c.setFont(font, size)
                    c.drawString(self.left + indent, y, text)
                y -= (size or 11) * 1.45
            c.showPage()
        c.save()


ENGLISH = ("Gradient checkpointing trades compute for memory: activations are not kept "
           "during the forward pass but recomputed in the backward pass. Its implementation "
           "in PyTorch wraps a function so that only its inputs are saved.")
CHINESE = ("梯度检查点以计算换显存：前向时不保存中间激活，反向时重新计算。它在 PyTorch 中的实现"
           "把一个函数包起来，只保存它的输入，因而显存与层数无关地下降。")


def _english_pdf(path) -> None:
    paper = PdfPaper("CS336 Midterm · Spring 2026", "Page {n} of {total}")
    paper.line("Deep Learning Systems Quiz", "Helvetica-Bold", 16)
    paper.paragraph(ENGLISH)
    paper.line("Consider the questions below.")
    paper.line("Read them carefully.")
    paper.line("1. Which of these saves activation memory?")
    paper.line("A. gradient checkpointing", indent=21)
    paper.line("B. a larger batch", indent=21)
    paper.line("Answer: A")
    paper.new_page()
    paper.paragraph("2. " + ENGLISH.replace("Gradient", "Why does gradient"))
    paper.line("Answer:")
    for code in ("def forward(self, x):", "    for layer in self.layers:",
                 "        x = checkpoint(layer, x)", "", "    return x"):
        if code:
            paper.line(code, "Courier", 10)
        else:
            paper.gap()
    paper.new_page()
    paper.paragraph("3. " + CHINESE, "STSong-Light", 11)
    paper.line("答案：见上", "STSong-Light", 11)
    paper.save(path)


ENGLISH_TEXT = f"""\
Deep Learning Systems Quiz
{ENGLISH}
Consider the questions below.
Read them carefully.
1. Which of these saves activation memory?
    A. gradient checkpointing
    B. a larger batch
Answer: A
2. {ENGLISH.replace("Gradient", "Why does gradient")}
Answer:
```python
def forward(self, x):
    for layer in self.layers:
        x = checkpoint(layer, x)

    return x
```
3. {CHINESE}
答案：见上"""


@needs_reportlab
def test_pdf_paper_text_from_reportlab(tmp_path):
    """Running header and footer gone, wrapped lines joined (a hyphenated word made
    whole), short lines kept apart, indented options nested, Courier lines fenced with
    their indentation and blank line, Chinese joined without spaces."""
    from question_db.interchange.text_import.pdf import pdf_text

    path = tmp_path / "quiz.pdf"
    _english_pdf(path)
    lines = _wrap(ENGLISH, "Helvetica", 11, 595.2756 - 144)
    assert any(line.endswith("-") for line in lines)  # the test does hyphenate a word
    assert pdf_text(path) == ENGLISH_TEXT


@needs_reportlab
def test_pdf_two_columns_read_column_by_column(tmp_path):
    from question_db.interchange.text_import.pdf import pdf_text

    _fonts()
    from reportlab.pdfgen import canvas

    path = tmp_path / "columns.pdf"
    c = canvas.Canvas(str(path))
    c.setFont("STSong-Light", 14)
    c.drawCentredString(297, 790, "两栏排版的试卷标题在整页宽度上居中显示")
    c.setFont("STSong-Light", 11)
    for k in range(6):
        c.drawString(60, 740 - 20 * k, f"{k + 1}. 左栏第{k + 1}题")
        c.drawString(320, 740 - 20 * k, f"{k + 7}. 右栏第{k + 7}题")
    c.save()
    lines = pdf_text(path).split("\n")
    assert lines == ["两栏排版的试卷标题在整页宽度上居中显示"] + \
        [f"{k}. 左栏第{k}题" for k in range(1, 7)] + [f"{k}. 右栏第{k}题" for k in range(7, 13)]


@needs_reportlab
def test_scanned_pdf_is_refused(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path))
    c.rect(50, 50, 400, 600, fill=1)  # a page that is only a picture
    c.showPage()
    c.save()
    with pytest.raises(UnreadableInput, match="has no text layer .*OCR it first"):
        import_file(path)


@needs_reportlab
def test_pdf_glyphs_without_a_character_map_are_flagged_where_they_stand(tmp_path):
    """A PDF whose CJK font lost its character map: pdfminer yields ``(cid:N)`` runs. Most
    of the text is readable, so the paper imports; each run becomes one U+FFFD and the
    question holding it is flagged, instead of ``(cid:26174)`` junk in an option."""
    from reportlab.pdfgen import canvas

    _fonts()
    path = tmp_path / "cid.pdf"
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica", 11)
    for y, text in ((700, "1. Which of these saves activation memory?"),
                    (680, "A. gradient checkpointing"), (660, "B. a larger"), (640, "Answer: A")):
        c.drawString(72, y, text)
    c.setFont("STSong-Light", 11)
    c.drawString(140, 660, "显存")
    c.save()
    # the CID font's map is Identity-H under an ordering nobody knows: no text for its glyphs
    data = path.read_bytes().replace(b"/UniGB-UCS2-H", b"/Identity-H  ").replace(b"(GB1)", b"(Zz1)")
    path.write_bytes(data)
    q, = import_file(path).paper.questions
    assert q.options == {"A": "gradient checkpointing", "B": "a larger \ufffd"}
    assert q.seed_answer == "A"
    lost = [f for f in q.review if f.kind == "lost_character"]
    assert lost and "\ufffd" in lost[0].text and "could not map" in lost[0].why
    assert "cid:" not in repr(q)


def _cn_pdf(path, pages_of: int = 2) -> None:
    paper = PdfPaper(CN_TITLE + " · 期中", "第 {n} 页 共 {total} 页")
    lines = _cn_lines()
    per_page = -(-len(lines) // pages_of)
    for k, line in enumerate(lines):
        if k and k % per_page == 0:
            paper.new_page()
        paper.line(line, "STSong-Light", 12 if k else 16)
    paper.save(path)


@needs_reportlab
def test_pdf_end_to_end(tmp_path):
    path = tmp_path / "paper.dat"
    _cn_pdf(path)
    assert detect_format(path) == "pdf"
    result = import_file(path)
    _check_cn_paper(result)
    assert result.encoding == "pdf"


@needs_reportlab
def test_damaged_pdf_is_refused_or_read_never_a_traceback(tmp_path):
    good = tmp_path / "good.pdf"
    _cn_pdf(good)
    refused = 0
    for name, data in _mutants(good.read_bytes()).items():
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        try:
            import_file(path)  # pdfminer repairs some damage: then a draft is fine
        except UnreadableInput as exc:
            assert str(path) in str(exc), name
            refused += 1
    assert refused >= 3  # a cut header, a cut body: those cannot be read


def test_cli_exits_2_on_a_damaged_pdf_and_docx(tmp_path):
    pdf, docx_file = tmp_path / "bad.pdf", tmp_path / "bad.docx"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\n")
    docx_file.write_bytes(_small_docx()[:1500])
    for path in (pdf, docx_file):
        proc = subprocess.run([sys.executable, "-m", "question_db", "import", str(path),
                               "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, cwd=REPO)
        assert proc.returncode == 2, proc.stderr
        assert f"question-db import: {path}: " in proc.stderr
        assert "Traceback" not in proc.stderr and "nothing was written" in proc.stderr
        assert not (tmp_path / "out").exists()


# -- PDF (Qt's writer) ---------------------------------------------------------------------

@needs_reportlab
@pytest.mark.gui
def test_pdf_written_by_qt(qapp, tmp_path):
    """A second writer: QPdfWriter embeds TrueType subsets (DejaVu, Noto Mono, a CJK
    fallback) and draws spaces as glyphs pdfminer reads as tabs."""
    from PySide6.QtGui import QFont, QFontDatabase, QPageSize, QPainter, QPdfWriter

    from question_db.interchange.text_import.pdf import pdf_text

    path = tmp_path / "qt.pdf"
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setResolution(72)
    painter = QPainter(writer)
    prose = QFont("DejaVu Sans")
    prose.setPointSize(11)
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    mono.setPointSize(10)
    pages = [["1. 下列哪个是列表？", "  A. ()", "  B. []", "答案：B"],
             ["2. Write add.", "Answer:", "@def add(a, b):", "@    return a + b"]]
    for number, lines in enumerate(pages, 1):
        if number > 1:
            writer.newPage()
        painter.setFont(prose)
        painter.drawText(40, 30, "Qt Quiz · running header")
        painter.drawText(260, 800, f"Page {number} of 2")
        y = 80
        for line in lines:  # code ("@") indented by x: Qt writes no space glyphs
            code = line.startswith("@")
            line = line.lstrip("@")
            painter.setFont(mono if code else prose)
            spaces = len(line) - len(line.lstrip(" "))
            step = painter.fontMetrics().horizontalAdvance(" ") if code else 12
            painter.drawText(40 + step * spaces, y, line.lstrip(" "))
            y += 20
    painter.end()
    assert pdf_text(path) == ("1. 下列哪个是列表？\n    A. ()\n    B. []\n答案：B\n2. Write add.\n"
                              "Answer:\n```python\ndef add(a, b):\n    return a + b\n```")


# -- detection -----------------------------------------------------------------------------

@pytest.mark.parametrize("content,fmt", [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "pdf"),
    (b"<!DOCTYPE html><title>x</title><p>1. q", "html"),
    (b"\xef\xbb\xbf<html lang=zh><body>1. q</body></html>", "html"),
    (b"<div><p>1. q</p><p>A. x</p><p>B. y</p></div><div>2. q</div>", "html"),
    ("# 测验\n\n1. 题目\n\n```python\nx = 1\n```\n".encode(), "markdown"),
    ("## 一、单选题\n\n1. **粗体**题目\nA. 甲\n".encode(), "markdown"),
    ("- 要点一\n- 要点二\n\n| a | b |\n|---|---|\n| 1 | 2 |\n".encode(), "markdown"),
    ("1. 题目\nA. 甲\n答案：A\n".encode(), "text"),
    ("1. 写代码\n```python\nx = 1\n```\n- 要点一\n- 要点二\n".encode(), "text"),  # text habits
    ("1. 计算 2**3 的值\n# 注释\nx = 2**3\n".encode(), "text"),  # one kind of mark only
    ("1. 哪个标签定义段落？<p> 还是 <div>？\nA. <p>\nB. <div>\n".encode(), "text"),
    (b'<?xml version="1.0"?>\n<quiz><question/></quiz>', "moodle-xml"),
])
def test_format_is_detected_by_content(tmp_path, content, fmt):
    path = tmp_path / "paper.txt"
    path.write_bytes(content)
    assert detect_format(path) == fmt


def test_seeds_are_still_text():
    from test_import_seeds import SEEDS

    for seed in SEEDS.glob("*.txt"):
        assert detect_format(seed) == "text", seed.name


@pytest.mark.parametrize("shift", range(6))
def test_detection_sample_cut_inside_a_character(tmp_path, shift):
    """Issue 28 item 6: the 64 KiB sample of a valid UTF-8 file ended inside a multi-byte
    character; the sample was then decoded as GB18030 (garbage) or refused: this GIFT
    file with ``shift`` 0 was refused as "neither UTF-8 nor GB18030". Six alignments:
    the cut falls before, one byte into and two bytes into a character, twice each."""
    text = "::Q1:: 1+1=? {=2 ~3}\n\n::Q2:: 说明 {T}\n\n" + "x" * shift + \
        "题" * (importers.SAMPLE_BYTES // 3 + 10) + "\n"
    data = text.encode("utf-8")
    path = tmp_path / "big.txt"
    path.write_bytes(data)
    sample = importers.detection_sample(data[:importers.SAMPLE_BYTES], complete=False)
    assert text.startswith(sample) and len(sample) > 20_000
    assert detect_format(path) == "gift"
    path.write_bytes(("# 试卷\n\n**说明**：请作答。\n\n" + text[text.index("x" * shift + "题"):])
                     .encode("utf-8"))
    assert detect_format(path) == "markdown"


def test_cli_format_choices_are_the_formats():
    from question_db.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    action = next(a for a in sub.choices["import"]._actions if a.dest == "format")
    assert tuple(action.choices) == FORMATS


# -- limits ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt,suffix", [("text", "txt"), ("markdown", "md"), ("html", "html"),
                                        ("pdf", "pdf"), ("docx", "docx")])
def test_files_over_the_size_cap_are_refused(tmp_path, fmt, suffix):
    path = tmp_path / f"huge.{suffix}"
    with path.open("wb") as fh:  # sparse: 51 MB on paper, nothing on disk
        fh.truncate(paper_text.MAX_FILE_BYTES + (1 << 20))
    with pytest.raises(UnreadableInput, match=r"is 51 MB; the limit for a paper is 50 MB") as info:
        import_file(path, fmt=fmt)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("fmt", ["markdown", "html", "docx",
                                 pytest.param("pdf", marks=needs_reportlab)])
def test_text_over_the_character_cap_is_refused(tmp_path, monkeypatch, fmt):
    from question_db.interchange.text_import import docx as docx_reader
    from question_db.interchange.text_import import html_in, markdown_in
    from question_db.interchange.text_import import pdf as pdf_reader

    for module in (paper_text, docx_reader, html_in, markdown_in, pdf_reader):
        monkeypatch.setattr(module, "MAX_TEXT_CHARS", 200)
    path = tmp_path / f"long.{fmt}"
    line = "1. 这是一道相当长的题目，用来把文字撑过上限。\nA. 甲\nB. 乙\n答案：A\n"
    if fmt == "markdown":
        path.write_text(line * 20, encoding="utf-8")
    elif fmt == "html":
        path.write_text("<p>" + line.replace("\n", "<br>") * 20 + "</p>", encoding="utf-8")
    elif fmt == "docx":
        import docx

        document = docx.Document()
        for _ in range(20):
            document.add_paragraph(line)
        document.save(str(path))
    else:
        _cn_pdf(path, pages_of=4)
    with pytest.raises(UnreadableInput, match="holds more than 200 characters of text"):
        import_file(path, fmt=fmt)
