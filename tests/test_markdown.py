"""Markdown → Qt rich text (desktop/views/markdown_html.py, math_text.py).

Structure is checked in a real QTextDocument (what QLabel/QTextBrowser build from the HTML),
not only in the HTML string.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextDocument, QTextTable

from desktop.views.markdown_html import highlight_code, inline, markdown_to_html
from desktop.views.math_text import tex_to_html
from desktop.views.question_view import stem_markdown
from gui_fixtures import bundled_bank

pytestmark = pytest.mark.gui

_CODE = re.compile(r"<code[^>]*>.*?</code>|<pre[^>]*>.*?</pre>", re.DOTALL)


def outside_code(html: str) -> str:
    """The HTML without code spans and blocks, where `**` or `a_{b}` are literal content."""
    return _CODE.sub("", html)


def document(html: str) -> QTextDocument:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc


def blocks(doc: QTextDocument):
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def block_starting(doc: QTextDocument, text: str):
    return next(b for b in blocks(doc) if b.text().startswith(text))


# --- CommonMark + tables + code ---------------------------------------------------------
def test_table_becomes_a_qt_table(qapp):
    html = markdown_to_html("| 项目 | 数值 |\n|:--|--:|\n| **权重** | `100 GB` |\n| KV | 40 KB |")
    doc = document(html)
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    assert len(tables) == 1
    assert (tables[0].rows(), tables[0].columns()) == (3, 2)
    assert "<strong>权重</strong>" in html and "<code" in html
    assert 'border="1"' in html  # Qt draws no cell borders without the attribute


def test_fenced_code_is_highlighted_by_pygments(qapp):
    html = markdown_to_html("说明：\n\n```python\ndef f(a<b):\n    return 1\n```")
    assert "<pre" in html
    assert re.search(r'<span style="color: #[0-9A-Fa-f]+; font-weight: bold">def</span>', html)
    assert "def f(a<b):\n    return 1" in document(html).toPlainText()
    # One place turns code into HTML: the block is exactly highlight_code's.
    assert highlight_code("def f(a<b):\n    return 1", "python") in html


def test_fence_of_an_unknown_language_is_shown_plain():
    html = markdown_to_html("```nosuchlanguage\nx <y> z\n```")
    assert "x &lt;y&gt; z" in html and "<span" not in html


def test_code_follows_the_theme_and_is_rendered_afresh_after_a_palette_change(qapp):
    """Rendered HTML is cached per text and colours: after Settings ▸ Theme ▸ Dark the same
    text comes back in the dark theme's code background, not the cached light one."""
    from desktop.theme import Role, apply_theme_choice, theme

    palette = qapp.palette()
    try:
        apply_theme_choice(qapp, "light")
        light = markdown_to_html("`x`\n\n```python\ndef f(): pass\n```")
        assert theme().css(Role.CODE_BG) in light
        apply_theme_choice(qapp, "dark")
        dark = markdown_to_html("`x`\n\n```python\ndef f(): pass\n```")
        assert dark != light and theme().css(Role.CODE_BG) in dark
        assert theme().css(Role.TEXT) in dark  # code text readable on it
    finally:
        apply_theme_choice(qapp, "light")
        qapp.setPalette(palette)


def test_single_line_breaks_are_kept(qapp):
    html = markdown_to_html("第一行\n第二行")
    assert re.search(r"第一行<br\s*/?>\s*第二行", html)
    assert "第一行\u2028第二行" in document(html).begin().text()  # one block, a line break


def test_nested_list_stays_nested(qapp):
    doc = document(markdown_to_html("1. 外层\n   - 第二层\n     - 第三层\n2. 外层二"))
    indents = [block_starting(doc, t).textList().format().indent()
               for t in ("外层", "第二层", "第三层", "外层二")]
    assert indents == [1, 2, 3, 1]


def test_shipped_nested_list_of_001_31_renders_nested(qapp):
    doc = document(markdown_to_html(bundled_bank().question("001/31").answer))
    outer = block_starting(doc, "LLM 推理副本").textList()
    inner = block_starting(doc, "连续批处理").textList()
    assert outer is not None and inner is not None
    assert inner.format().indent() > outer.format().indent()


def test_lists_keep_kind_and_start(qapp):
    html = markdown_to_html("- 一\n- 二\n\n3. 三\n4. 四")
    assert re.search(r"<ul>\s*<li>一</li>\s*<li>二</li>\s*</ul>", html)
    assert '<ol start="3">' in html
    doc = document(html)
    third = block_starting(doc, "三")
    assert third.textList().itemText(third) == "3."


def test_inline_renders_without_a_paragraph(qapp):
    from desktop.theme import Role, css

    assert inline("**A** `x<y`") == (
        f'<strong>A</strong> <code style="background-color:{css(Role.CODE_BG)}">x&lt;y</code>')


# --- untrusted text -----------------------------------------------------------------------
def test_raw_html_is_escaped_and_inert(qapp):
    source = "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> <b>粗</b>"
    html = markdown_to_html(source)
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    text = document(html).toPlainText()
    assert "<script>alert(1)</script>" in text  # shown as the text it is
    assert "<img src=x onerror=alert(1)>" in text


@pytest.mark.parametrize("link", ["[点我](javascript:alert(1))", "[x](JavaScript:alert(1))",
                                  "<javascript:alert(1)>", "[x](vbscript:msgbox)",
                                  "[x](data:text/html;base64,PHNjcmlwdD4=)"])
def test_script_links_are_neutralised(link):
    html = markdown_to_html(link)
    assert "href" not in html
    assert "alert" in html or "msgbox" in html or "base64" in html  # kept as text


def test_ordinary_links_still_work():
    assert '<a href="https://pytorch.org/docs">文档</a>' in markdown_to_html(
        "[文档](https://pytorch.org/docs)")


def test_images_are_never_loaded():
    html = markdown_to_html("![示意图](http://tracker.example/p.png) ![](data:image/png;base64,AA)")
    assert "<img" not in html and "src" not in html
    assert "[示意图]" in html


# --- emphasis next to CJK punctuation -----------------------------------------------------
@pytest.mark.parametrize(("source", "bold"), [
    ("**粗体**。", "粗体"),
    ("**注意：**后文", "注意："),  # CommonMark alone leaves this `**` raw
    ("中文**（括号）**中文", "（括号）"),  # and this
    ("这是**“引号”**后面", "“引号”"),  # and this
    ("这是**我想做的事。**所以继续。", "我想做的事。"),
    ("不如人意的**《李茶的姑妈》**已经", "《李茶的姑妈》"),
    ("中文**`code`**中文", '<code style="background-color:CODE_BG">code</code>'),
])
def test_bold_next_to_cjk_punctuation_closes(qapp, source, bold):
    from desktop.theme import Role, css

    html = inline(source)
    bold = bold.replace("CODE_BG", css(Role.CODE_BG))
    assert f"<strong>{bold}</strong>" in html and "**" not in html


def test_cjk_rule_leaves_other_text_to_commonmark():
    assert inline("a**(b)**c") == "a**(b)**c"  # CommonMark: not emphasis between letters
    assert inline("snake_case_name") == "snake_case_name"


@pytest.mark.parametrize(("qid", "field"), [("000/21", "explanation"),
                                            ("000/22", "explanation"),
                                            ("001/30", "errata")])
def test_shipped_bold_around_code_renders(qid, field):
    """Regression: the old renderer split text at code spans before matching `**`, so a
    bold span wrapping code showed its `**` raw in these three fields."""
    html = markdown_to_html(getattr(bundled_bank().question(qid), field))
    assert "<strong><code" in html
    assert "**" not in outside_code(html)


# --- formulas -----------------------------------------------------------------------------
def test_bank_braced_scripts_become_sup_and_sub(qapp):
    from desktop.theme import Role, css

    html = markdown_to_html(bundled_bank().question("001/26").stem)
    assert "ℝ<sup>n×d</sup>" in html and "^{" not in html
    assert inline("∏_{i=1}^{t}(1 − β_i)") == "∏<sub>i=1</sub><sup>t</sup>(1 − β_i)"
    assert inline("v_{i,f_j}") == "v<sub>i,f_j</sub>"  # nested underscore stays literal
    assert inline("`x_{1}` a_{b}") == (
        f'<code style="background-color:{css(Role.CODE_BG)}">x_{{1}}</code> a<sub>b</sub>')


@pytest.mark.parametrize(("tex", "expected"), [
    (r"\mathbb{R}^{n\times d}", "ℝ<sup><i>n</i>×<i>d</i></sup>"),
    (r"\frac{QK^\top}{\sqrt{d_k}}", "(<i>QK</i><sup>⊤</sup>)/√<i>d</i><sub><i>k</i></sub>"),
    (r"\bar{\alpha}_t = \prod_{i=1}^{t}(1-\beta_i)",
     "α\u0304<sub><i>t</i></sub> = ∏<sub><i>i</i>=1</sub><sup><i>t</i></sup>"
     "(1−β<sub><i>i</i></sub>)"),
    (r"\text{损失} \leq \log p_\theta", "损失 ≤ log\u2009<i>p</i><sub>θ</sub>"),
    (r"\left(\frac{a+b}{2}\right)^2", "((<i>a</i>+<i>b</i>)/2)<sup>2</sup>"),
    (r"\unknownmacro{x}", "unknownmacro\u2009<i>x</i>"),  # a thin space, as after \log
])
def test_tex_to_html(tex, expected):
    assert tex_to_html(tex) == expected


@pytest.mark.parametrize("source", [
    r"注意力 $\operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V$ 的复杂度",
    r"行内 \(\hat{y} = \sum_{j=1}^{N} \alpha_j x_j\) 公式",
    "段落\n$$\n\\mathcal{L} = -\\log p_\\theta(y \\mid x)\n$$",
    "$$\\mathbf{W}_q \\in \\mathbb{R}^{d \\times d}$$",
    r"显示 \[ E = mc^2 \] 公式",
    r"$\begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}$",
])
def test_tex_math_never_shows_raw(qapp, source):
    html = markdown_to_html(source)
    shown = document(html).toPlainText()
    for raw in ("\\", "{", "}", "$", "^", "_"):
        assert raw not in shown, (raw, shown)


def test_dollars_that_are_prices_stay_text():
    assert markdown_to_html("GPU 每小时 $5，CPU 每小时 $10") == "<p>GPU 每小时 $5，CPU 每小时 $10</p>"
    assert markdown_to_html("$x$ 与 $5") == "<p><i>x</i> 与 $5</p>"  # a trailing digit


# --- every shipped field ------------------------------------------------------------------
def shipped_fields():
    """(question id, field, text, renderer) for every text the views render."""
    for question in bundled_bank().all_questions():
        yield question.id, "stem", stem_markdown(question), markdown_to_html
        for name in ("explanation", "errata", "reference_answer"):
            yield question.id, name, getattr(question, name), markdown_to_html
        for key_name in ("answer", "seed_answer"):
            key = getattr(question, key_name)
            if isinstance(key, str) and question.type != "programming":  # code is code
                yield question.id, key_name, key, markdown_to_html
            elif question.type == "fill_blank" and key:
                for variants in key:
                    for variant in variants if isinstance(variants, list) else [variants]:
                        yield question.id, key_name, str(variant), inline
        for letter, text in (question.options or {}).items():
            yield question.id, f"options.{letter}", text, inline
        for i, item in enumerate(question.rubric):
            yield question.id, f"rubric[{i}]", item.text, inline
        for part in question.parts:
            yield question.id, "parts.label", part.label, inline


def test_every_shipped_text_field_renders_without_raw_markup():
    checked = 0
    for qid, field, text, render in shipped_fields():
        if not text:
            continue
        html = render(text)
        assert html.strip(), f"{qid}:{field}: rendered empty"
        visible = outside_code(html)
        assert "**" not in visible, f"{qid}:{field}: raw ** in {visible[:200]}"
        assert not re.search(r"[\^_]\{", visible), f"{qid}:{field}: raw braced script"
        checked += 1
    assert checked > 400  # the bank has ~420 rendered fields; an empty loop proves nothing


# --- untrusted input never breaks the renderer --------------------------------------------
_PIECES = st.sampled_from(["$", "$$", "\\(", "\\)", "\\[", "\\]", "{", "}", "^", "_", "^{",
                           "_{", "\\frac", "\\sqrt", "\\text{", "\\left", "\\begin{x}", "&",
                           "*", "**", "`", "```", "|", "---", "\n", "\n\n", "- ", "1. ",
                           "  ", "<script>", "<img src=x onerror=a()>", "[a](javascript:b)",
                           "![i](http://x/y.png)", "：", "中", "（", "a", "1", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_any_text_renders_inert_and_without_error(text):
    for html in (markdown_to_html(text), inline(text), tex_to_html(text)):
        assert "<script" not in html and "<img" not in html
        assert not re.search(r"href=\"\s*(javascript|vbscript|data):", html, re.IGNORECASE)


def test_deep_nesting_does_not_exhaust_the_stack():
    assert "x" in tex_to_html("{" * 3000 + "x" + "}" * 3000)
    assert tex_to_html("\\frac" * 3000).startswith("(")
    assert tex_to_html("x^{" * 3000).startswith("<i>x</i><sup>")
    assert tex_to_html("\\sqrt{" * 3000).startswith("√")
    assert markdown_to_html("x^{" * 2000 + "y" + "}" * 2000).startswith("<p>x<sup>")
