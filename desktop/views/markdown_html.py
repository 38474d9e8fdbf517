"""The bank's Markdown (and imported packs') → the HTML subset Qt rich text understands.

Parsing is markdown-it-py's CommonMark with pipe tables and ``~~strike~~``; the bank and
imported packs are untrusted text, so raw HTML is off (``<script>`` shows as text) and
links go through markdown-it's ``validateLink`` (``javascript:``, ``vbscript:``, ``file:``
and non-image ``data:`` URLs stay plain text); images are never loaded, they show as their
alt text. Single line breaks are kept (``breaks``): the seed texts rely on them.

On top of CommonMark, three documented extensions:
- **Emphasis next to CJK text.** CommonMark's flanking rules assume words are separated by
  spaces, so ``**注意：**后文`` or ``中文**（括号）**中文`` never close: the ``**`` sits
  between punctuation and a letter (commonmark/commonmark-spec#650). Next to a CJK
  character the punctuation clause is dropped, as that issue proposes, for ``*`` runs
  only (``_`` stays CommonMark's: it sits inside identifiers like ``d_k``).
- **The bank's math notation.** Stems write ``ℝ^{n×d}``, ``β_{t+1}``, ``∑_{i=1}^{t}``:
  braced scripts become ``<sup>``/``<sub>`` (exact for any character, where Unicode has
  superscript forms for only a few). A bare ``^2`` / ``_t`` stays as written.
- **TeX math** (``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, as Moodle and GIFT packs bring
  it) → readable text by :mod:`desktop.views.math_text`; never raw macros or braces.

Code is highlighted by Pygments with inline styles (QTextDocument has no stylesheet classes);
:func:`highlight_code` is the one place that turns code into HTML. Colours live in
``markdown_colours()`` below, read from the theme (``desktop/theme.py``) at render time;
rendered HTML is cached per text *and* colours, so a palette change renders afresh.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.emphasis import tokenize as emphasis_tokenize
from markdown_it.rules_inline.state_inline import Delimiter
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from .math_text import tex_to_html


@dataclass(frozen=True)
class MarkdownColours:
    """The colours rendered Markdown uses; one entry per palette."""

    pygments_style: str  # also the code editor's (desktop/views/code_editor.py)
    code_background: str
    code_foreground: str
    table_border: str


def markdown_colours() -> MarkdownColours:
    """The current theme's colours for rendered Markdown (the light defaults of the theme's
    roles when no QApplication exists: the renderer also runs in headless tools)."""
    from ..theme import Role, theme

    try:
        t = theme()
    except RuntimeError:  # no QApplication
        return MarkdownColours("default", code_background="#f5f5f5",
                               code_foreground="#1f1f1f", table_border="#bbbbbb")
    return MarkdownColours(t.pygments_style, code_background=t.css(Role.CODE_BG),
                           code_foreground=t.css(Role.TEXT), table_border=t.css(Role.MUTED))


# --- code ---------------------------------------------------------------------------------
def highlight_code(code: str, language: str = "python") -> str:
    """A code block as inline-styled HTML in the theme's colours (cached: Pygments costs
    ~4 ms per block warm).

    An empty language is Python (the bank's code); an unknown one is shown unhighlighted.
    """
    return _highlight(code, language, markdown_colours())


@lru_cache(maxsize=512)
def _highlight(code: str, language: str, colours: MarkdownColours) -> str:
    try:
        lexer = PythonLexer() if language in ("", "python", "py") else get_lexer_by_name(language)
    except ClassNotFound:
        body = html.escape(code, quote=False)
    else:
        formatter = HtmlFormatter(noclasses=True, nowrap=True, style=colours.pygments_style)
        body = highlight(code, lexer, formatter)
    # A one-cell table is the reliable way to get a padded, coloured block in Qt rich text.
    return (f'<table width="100%" cellpadding="8" cellspacing="0" '
            f'style="background-color:{colours.code_background}; margin-top:4px; '
            f'margin-bottom:4px"><tr><td><pre style="color:{colours.code_foreground}; '
            f'margin:0">{body.rstrip()}</pre></td></tr></table>')


# --- inline extensions --------------------------------------------------------------------
def _is_cjk(char: str) -> bool:
    """Wide, full-width or half-width (East Asian Width W/F/H): ideographs, kana, Hangul,
    CJK and full-width punctuation (，：（）《》). As in the CJK-adjacency proposal for
    CommonMark (commonmark/commonmark-spec#650), minus its emoji exclusion, which
    ``unicodedata`` cannot tell; an emoji next to ``**`` is harmless here."""
    return unicodedata.east_asian_width(char) in ("W", "F", "H")


def _emphasis_next_to_cjk(state: StateInline, silent: bool) -> bool:
    """markdown-it's emphasis rule, with ``*`` runs beside CJK text judged without the
    punctuation clause of CommonMark's flanking rules (see the module docstring)."""
    start = state.pos
    if silent or state.src[start] != "*":
        return emphasis_tokenize(state, silent)
    scanned = state.scanDelims(start, True)
    end = start + scanned.length
    before = state.src[start - 1] if start > 0 else " "
    after = state.src[end] if end < state.posMax else " "
    can_open, can_close = scanned.can_open, scanned.can_close
    if _is_cjk(before) or _is_cjk(after):
        can_open = not after.isspace()
        can_close = not before.isspace()
    for _ in range(scanned.length):
        token = state.push("text", "", 0)
        token.content = "*"
        state.delimiters.append(Delimiter(marker=ord("*"), length=scanned.length,
                                          token=len(state.tokens) - 1, end=-1,
                                          open=can_open, close=can_close))
    state.pos = end
    return True


def _closing_brace(src: str, open_at: int, limit: int) -> int | None:
    depth = 0
    for pos in range(open_at, limit):
        char = src[pos]
        if char == "\n":
            return None
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return pos
    return None


def _braced_script(state: StateInline, silent: bool) -> bool:
    """``x^{…}`` → superscript, ``x_{…}`` → subscript (the bank's plain-text math)."""
    start = state.pos
    marker = state.src[start]
    if (marker not in "^_" or start == 0 or state.src[start - 1].isspace()
            or state.src[start + 1:start + 2] != "{"):
        return False
    close = _closing_brace(state.src, start + 1, state.posMax)
    if close is None or close == start + 2:
        return False
    if not silent:
        tag = "sup" if marker == "^" else "sub"
        state.push(f"{tag}_open", tag, 1).markup = marker + "{"
        old_max = state.posMax
        state.pos, state.posMax = start + 2, close
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push(f"{tag}_close", tag, -1).markup = "}"
    state.pos = close + 1
    return True


def _tex_dollars(state: StateInline, silent: bool) -> bool:
    """``$…$`` and ``$$…$$`` inside a paragraph, by pandoc's rules so that prices stay
    text: no space just inside a single ``$``, no digit just outside (``$5 and $10``).

    Replaces mdit-py-plugins' inline rule, whose ``allow_digits=False`` reads ``src[-1]``
    for a ``$`` at the start of a text (a text ending in a digit then loses its first
    formula) and whose search for the closing ``$`` ignores ``posMax``.
    """
    start, limit, src = state.pos, state.posMax, state.src
    if src[start] != "$" or (start > 0 and src[start - 1].isdigit()):
        return False
    fence = "$$" if src.startswith("$$", start) else "$"
    body = start + len(fence)
    single = fence == "$"  # `$$` may pad its formula with spaces and line breaks
    if body >= limit or (single and src[body].isspace()):
        return False
    end = src.find(fence, body, limit)
    while end > 0 and src[end - 1] == "\\":  # an escaped dollar is part of the formula
        end = src.find(fence, end + 1, limit)
    if end < 0 or not src[body:end].strip() or (single and src[end - 1].isspace()):
        return False
    after = end + len(fence)
    if after < limit and src[after].isdigit():
        return False
    if not silent:
        token = state.push("math_inline" if fence == "$" else "math_inline_double", "math", 0)
        token.content = src[body:end]
        token.markup = fence
    state.pos = after
    return True


_TEX_HINT = re.compile(r"[\\^_{}=<>+\-*/]")


def _tex_brackets(state: StateInline, silent: bool) -> bool:
    """``\\(…\\)`` and ``\\[…\\]`` (before markdown's backslash escapes see them).

    ``\\[`` is also how Markdown escapes a bracket (``arr\\[i\\]``), so ``\\[…\\]`` is math
    only when its body has something only a formula has (a macro, a script, an operator).
    """
    start = state.pos
    opener = state.src[start:start + 2]
    if opener not in ("\\(", "\\["):
        return False
    closer = "\\)" if opener == "\\(" else "\\]"
    end = state.src.find(closer, start + 2, state.posMax)
    if end < 0 or not state.src[start + 2:end].strip():
        return False
    if opener == "\\[" and not _TEX_HINT.search(state.src, start + 2, end):
        return False
    if not silent:
        token = state.push("math_inline" if opener == "\\(" else "math_inline_double", "math", 0)
        token.content = state.src[start + 2:end]
        token.markup = opener
    state.pos = end + 2
    return True


# --- render rules -------------------------------------------------------------------------
def _colours(env: Any) -> MarkdownColours:
    return env["colours"]


def _fence(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    language = token.info.strip().split()[0].lower() if token.info.strip() else ""
    return _highlight(token.content.rstrip("\n"), language, _colours(env))


def _code_block(self, tokens, idx, options, env) -> str:
    return _highlight(tokens[idx].content.rstrip("\n"), "text", _colours(env))


def _code_inline(self, tokens, idx, options, env) -> str:
    background = _colours(env).code_background
    return (f'<code style="background-color:{background}">'
            f"{html.escape(tokens[idx].content, quote=False)}</code>")


def _heading_open(self, tokens, idx, options, env) -> str:
    return f"<h{_heading_level(tokens[idx])}>"


def _heading_close(self, tokens, idx, options, env) -> str:
    return f"</h{_heading_level(tokens[idx])}>\n"


def _heading_level(token) -> int:
    return min(int(token.tag[1]) + 2, 6)  # a `#` inside a question is a small heading


def _table_open(self, tokens, idx, options, env) -> str:
    border = _colours(env).table_border
    return (f'<table cellpadding="4" cellspacing="0" border="1" '
            f'style="border-color:{border}; border-collapse:collapse">\n')


def _image(self, tokens, idx, options, env) -> str:
    # Never load an image from untrusted text (a remote URL is a tracking pixel); say it
    # is there.
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env)
    return html.escape(f"[{alt or token.attrGet('src') or ''}]", quote=False)


def _math_inline(self, tokens, idx, options, env) -> str:
    return tex_to_html(tokens[idx].content)


def _math_display(self, tokens, idx, options, env) -> str:
    return f"<br/>{tex_to_html(tokens[idx].content)}<br/>"


def _math_block(self, tokens, idx, options, env) -> str:
    return f'<p align="center">{tex_to_html(tokens[idx].content)}</p>\n'


def _build_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False,
                                   "typographer": False})
    md.enable(["table", "strikethrough"])
    md.use(dollarmath_plugin, allow_labels=False)  # its `$$` block rule; the inline one:
    md.inline.ruler.at("math_inline", _tex_dollars)
    md.inline.ruler.before("escape", "tex_brackets", _tex_brackets)
    md.inline.ruler.before("emphasis", "braced_script", _braced_script)
    md.inline.ruler.at("emphasis", _emphasis_next_to_cjk)
    for name, rule in (("fence", _fence), ("code_block", _code_block),
                       ("code_inline", _code_inline), ("heading_open", _heading_open),
                       ("heading_close", _heading_close), ("table_open", _table_open),
                       ("image", _image), ("math_inline", _math_inline),
                       ("math_inline_double", _math_display), ("math_block", _math_block)):
        md.add_render_rule(name, rule)
    return md


_MD = _build_parser()


# --- public API ---------------------------------------------------------------------------
def inline(text: str) -> str:
    """One line of Markdown (an option, a rubric item, a label) without a paragraph."""
    return _inline(text, markdown_colours())


def markdown_to_html(text: str) -> str:
    """Render question Markdown in the theme's colours; cached per text and colours, so
    each question is rendered once per palette."""
    return _block(text, markdown_colours())


@lru_cache(maxsize=2048)
def _inline(text: str, colours: MarkdownColours) -> str:
    return _MD.renderInline(text, {"colours": colours}).strip()


@lru_cache(maxsize=1024)
def _block(text: str, colours: MarkdownColours) -> str:
    return _MD.render(text, {"colours": colours}).strip()
