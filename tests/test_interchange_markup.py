"""The bank's Markdown <-> HTML (question_db/interchange/markup.py): every bank text comes
back from HTML as its canonical form, and the HTML Moodle writes reads as bank Markdown."""
from __future__ import annotations

import pytest

from question_db.bank import load_bank
from question_db.interchange.markup import (canonical_markdown, html_to_markdown,
                                            image_sources, markdown_to_html, plain_text)


def bank_texts():
    for q in load_bank().all_questions():
        yield f"{q.id}:stem", q.stem
        for name in ("explanation", "errata", "reference_answer"):
            if getattr(q, name):
                yield f"{q.id}:{name}", getattr(q, name)
        if q.type in ("short_answer", "system_design"):
            yield f"{q.id}:answer", q.answer
        for letter, text in (q.options or {}).items():
            yield f"{q.id}:options.{letter}", text


BANK_TEXTS = list(bank_texts())


def test_every_bank_text_survives_html_as_its_canonical_form():
    mismatched = [name for name, text in BANK_TEXTS
                  if html_to_markdown(markdown_to_html(text)) != canonical_markdown(text)]
    assert not mismatched
    assert len(BANK_TEXTS) > 300


def test_canonical_form_is_the_text_itself_for_most_bank_texts_and_is_stable():
    unchanged = sum(canonical_markdown(t) == t.strip() for _, t in BANK_TEXTS)
    assert unchanged / len(BANK_TEXTS) > 0.9  # the rest differ in blank lines and spacing
    for _, text in BANK_TEXTS:
        once = canonical_markdown(text)
        assert canonical_markdown(once) == once


def test_code_blocks_come_back_byte_for_byte():
    code = "def f(x):\n    if x < 1 and y > 2:\n\n        return {'a': `b`}  # *not* bold\n"
    text = f"Intro\n\n```python\n{code.rstrip()}\n```"
    html = markdown_to_html(text)
    assert '<pre><code class="language-python">' in html and "&lt; 1" in html
    assert html_to_markdown(html) == text


def test_formulas_and_markup_like_characters_are_escaped_not_interpreted():
    text = r"若 \(a < b\) 且 $$x**2$$，则 **粗体** 与 `a*b*c`；<image> 占位符"
    html = markdown_to_html(text)
    assert r"\(a &lt; b\)" in html and "$$x**2$$" in html  # math untouched by bold
    assert "<strong>粗体</strong>" in html and "<code>a*b*c</code>" in html
    assert "&lt;image&gt;" in html
    assert html_to_markdown(html) == text


@pytest.mark.parametrize("html, markdown", [
    # what Moodle's editors write
    ('<p dir="ltr" style="text-align: left;">Select all prime numbers :<br></p>',
     "Select all prime numbers :"),
    ("<p>line one<br />line two</p><p>next&nbsp;paragraph</p>",
     "line one\nline two\n\nnext paragraph"),
    ("<p>open paragraph<p>another", "open paragraph\n\nanother"),
    ("<ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b</ul>", "- a\n  - a1\n  - a2\n- b"),
    ('<ol start="3"><li>three</li><li>four</li></ol>', "3. three\n4. four"),
    ("<table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td><b>1</b></td></tr></table>",
     "| k | v |\n|---|---|\n| a\\|b | **1** |"),
    ('<pre class="lang-py">x = 1\n    y = 2</pre>', "```py\nx = 1\n    y = 2\n```"),
    ("<h4>Rubric</h4>", "#### Rubric"),
    ("E = mc<sup>2</sup>, H<sub>2</sub>O, x<sup>n+1</sup>", "E = mc², H₂O, xⁿ⁺¹"),
    ('<img src="@@PLUGINFILE@@/a%20b.png" alt="flag" width="50">',
     "![flag](@@PLUGINFILE@@/a%20b.png)"),
    ('<a href="http://x.org/y">the docs</a>', "[the docs](http://x.org/y)"),
    ("<script>alert(1)</script><p>kept</p>", "kept"),
    ("Tom &amp; Jerry &lt;3", "Tom & Jerry <3"),
])
def test_html_as_moodle_writes_it(html, markdown):
    assert html_to_markdown(html) == markdown


def test_image_sources_and_plain_text():
    text = "See ![a](media/x.png)\n\n- **bold** ![b](media/y.png)"
    assert image_sources(text) == ["media/x.png", "media/y.png"]
    assert plain_text("### Title\n\n- **a** `b`\n\n| x | y |\n|---|---|") == "Title a b x | y"
