"""The verified bank printed as exam papers in many layouts and formats: the yardstick of
the importer's generalisation suite (issue 26, item 7).

    render(pid, layout, fmt, out_dir) -> Path        # out_dir/<pid>-<layout>.<ext>

A layout (``LAYOUTS``) turns a bank paper into a list of ``Block``s: the paper as some
exam site or teacher would print it (numbering, option labels, where the keys sit, how
code is set). A writer (``FORMATS``) puts the blocks into a file: ``txt`` and ``md``
(the text), ``docx`` (python-docx; Word auto-numbering, a "Code" style, tables), ``pdf``
(reportlab; the built-in STSong-Light CID font, a running header and a page footer,
lines wrapped at the page width, English words hyphenated in one variant) and ``html``
(a saved web page: script, style, a menu and footer junk around an ``<article>``).

Variants of a layout are named by suffixes: ``+damaged`` (the seeds' damage:
Traditional characters, every whitespace gone, ``-`` ``*`` ``#`` dropped,
``torch.compile`` -> ``pile``), ``+cut_text`` / ``+cut_code`` (the file stops in the
middle of the last question's printed answer: mid-sentence / inside a code block).

What each question's printed key is (``printed_key``) is defined here too, so the scorer
(``bench/import_score.py``) compares the import with exactly what was printed.

Content stays in the bank's language (Chinese); only the scaffolding (headings, labels,
"Answer:") is English in the ``en_*`` layouts.
"""
from __future__ import annotations

import html as html_lib
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
BUNDLED = REPO / "question_db" / "papers"
PIDS = ("000", "001", "drills")

__all__ = ["BUNDLED", "PIDS", "Block", "Layout", "LAYOUTS", "FORMATS", "bank_paper",
           "printed_key", "key_text", "layout_of", "blocks_for", "render", "render_text",
           "cases", "cut_kind", "is_damaged", "damage", "render_two_papers",
           "render_no_questions", "seed_damage"]

CN_NUMERALS = "一二三四五六七八九十"
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
CHOICE = ("single_choice", "multiple_choice")
EN_PART = {"single_choice": "Multiple choice", "multiple_choice":
           "Multiple answer (select all that apply)", "fill_blank": "Fill in the blanks",
           "calculation": "Calculation", "short_answer": "Short answer",
           "system_design": "System design", "programming": "Programming"}


@lru_cache(maxsize=None)
def bank_paper(pid: str):
    from question_db.bank import load_paper

    return load_paper(BUNDLED / pid, [])


# --- what was printed ----------------------------------------------------------------------

def _code_of(q) -> str:
    """The code a programming question's printed answer shows: the seed's own code
    (re-typeset), else the reference solution."""
    if q.code is None:
        return ""
    return (q.code.read("seed") or q.code.read("reference") or "").rstrip("\n") + "\n"


def printed_key(q):
    """The key the rendered paper prints for ``q``: the bank's ``seed_answer`` (what the
    paper printed), else its verified ``answer``. Choice: "B" / ["A", "C"]; fill-in: a
    list of blanks; calculation, short answer, system design: Markdown text;
    programming: the printed prose, then the code in a ```python fence."""
    seed = q.seed_answer
    if q.type in CHOICE:
        key = seed or q.answer or ([] if q.type == "multiple_choice" else "")
        return sorted(key) if isinstance(key, list) else key
    if q.type == "fill_blank":
        if seed:
            return list(seed)
        return [v[0] for v in q.answer] if q.answer else []
    if q.type == "programming":
        prose = seed if isinstance(seed, str) else ""
        code = _code_of(q)
        fenced = f"```python\n{code}```" if code.strip() else ""
        return "\n\n".join(p for p in (prose.strip(), fenced) if p)
    if isinstance(seed, str) and seed.strip():
        # a seed answer that goes on into the seed's own explanation (000/31): the
        # layouts print the bank's explanation instead
        return re.split(r"\n+解析[:：]", seed.strip(), maxsplit=1)[0].strip()
    if q.type == "calculation":
        return q.reference_answer.strip()
    return (q.answer or "").strip() if isinstance(q.answer, str) else ""


def key_text(q, style: str) -> str:
    """``printed_key`` as one layout prints it. Styles: ``cn`` (B, ABD, a；b),
    ``paren`` ((b); (a), (c)), ``comma`` (B; A, C; a; b)."""
    key = printed_key(q)
    if q.type == "single_choice":
        return f"({key.lower()})" if style == "paren" and key else key
    if q.type == "multiple_choice":
        if style == "paren":
            return ", ".join(f"({k.lower()})" for k in key)
        return ", ".join(key) if style == "comma" else "".join(key)
    if q.type == "fill_blank":
        return ("；" if style == "cn" else "; ").join(key)
    return key


# --- the document model --------------------------------------------------------------------

@dataclass
class Block:
    """One printed unit. ``kind``: title, heading, question, para, item, code, option,
    options (one line), grid (a choice-key grid). ``qref`` is the bank number of the
    question the block belongs to (0: none), ``role`` what of it (stem, option, answer,
    explanation, key)."""

    kind: str
    text: str = ""
    label: str = ""  # printed number/letter/marker, written before ``text``
    level: int = 0  # list nesting; heading level (markdown) for headings/questions
    lang: str = ""  # code
    closed: bool = True  # code: the closing fence is printed
    qref: int = 0
    role: str = ""
    number: int = 0  # question: printed number; option: its index
    letter: str = ""  # option letter
    cells: list[tuple[str, str]] = field(default_factory=list)  # options line: (label, text)
    sep: str = "  "
    keys: list[tuple[int, str]] = field(default_factory=list)  # grid: (printed no., key)
    table: bool = False  # options: may be laid out as a 2x2 table (docx)


@dataclass(frozen=True)
class Layout:
    name: str
    lang: str  # the scaffolding's language: "zh" | "en"
    build: Callable[..., list[Block]]
    markup: str = "plain"  # "keep": Markdown stays (**, `); "plain": markup dropped
    code: str = "fence"  # "fence": ```python; "indent": bare lines indented 4 spaces
    blank_lines: bool = False  # a blank line between blocks (Markdown)
    md_headings: bool = False  # headings/question headers carry '#' marks in text output
    damage: bool = False
    docx_numbering: bool = False  # question numbers and option letters: Word numbering
    docx_table: str = ""  # "options": 2x2 option tables; "keys": key grids as tables
    html_ol: bool = False  # options as <ol type="A"> (the letters are not in the text)
    pdf_hyphenate: bool = False  # English words hyphenated at line ends


_FENCE = re.compile(r"^[ \t]*```([\w+-]*)[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.S | re.M)
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,2}[.)])\s+(.*)$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")


def plain(text: str) -> str:
    """Markdown's inline markup out: what a copied web page or a printout shows."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"`([^`\n]+)`", r"\1", text)
    return _HEADING.sub("", text)


def md_blocks(md: str, layout: Layout, *, qref: int = 0, role: str = "") -> list[Block]:
    """Markdown (a stem, an answer, an explanation) as blocks: one per line of prose
    (list items keep their marker and nesting), one per fenced code block."""
    out: list[Block] = []
    last = 0
    for m in _FENCE.finditer(md):
        out += _prose_blocks(md[last:m.start()], layout, qref, role)
        out.append(Block("code", m[2].rstrip("\n") + "\n", lang=m[1] or "python", qref=qref,
                         role=role))
        last = m.end()
    out += _prose_blocks(md[last:], layout, qref, role)
    return out


def _prose_blocks(text: str, layout: Layout, qref: int, role: str) -> list[Block]:
    out = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        fix = plain if layout.markup == "plain" else (lambda s: s)
        if m := _ITEM.match(line):
            out.append(Block("item", fix(m[3]), label=m[2], level=len(m[1].expandtabs(4)) // 2,
                             qref=qref, role=role))
        else:
            out.append(Block("para", fix(line.strip()), qref=qref, role=role))
    return out


def lead(prefix: str, md: str, layout: Layout, *, qref: int, role: str) -> list[Block]:
    """``prefix`` (``答案：``) and ``md`` after it: on the first line when that is prose,
    on a line of its own before a list or code."""
    blocks = md_blocks(md, layout, qref=qref, role=role)
    if blocks and blocks[0].kind == "para":
        blocks[0].text = prefix + blocks[0].text
        return blocks
    return [Block("para", prefix.rstrip(), qref=qref, role=role)] + blocks


def question_start(label: str, q, layout: Layout, *, suffix: str = "", heading: int = 0,
                   number: int = 0) -> list[Block]:
    """The question's first line (label + the stem's first line + suffix), then the rest
    of its stem. ``heading``: the label is a header line of its own (``### Question 1``)."""
    stem = md_blocks(q.stem, layout, qref=q.number, role="stem")
    if heading:
        return [Block("question", "", label=label, level=heading, qref=q.number, role="stem",
                      number=number or q.number)] + stem
    first = Block("question", "", label=label, qref=q.number, role="stem",
                  number=number or q.number)
    if stem and stem[0].kind == "para":
        first.text = stem.pop(0).text
    if suffix:
        if stem and stem[-1].kind == "para":
            stem[-1].text += suffix
        else:
            first.text += suffix
    return [first] + stem


def option_blocks(q, layout: Layout, label: Callable[[str], str], *, one_line: bool = False,
                  sep: str = "  ", table: bool = False) -> list[Block]:
    if not q.options:
        return []
    fix = plain if layout.markup == "plain" else (lambda s: s)
    items = [(k, fix(v.strip())) for k, v in q.options.items()]
    if one_line:
        return [Block("options", cells=[(label(k), v) for k, v in items], sep=sep,
                      qref=q.number, role="option")]
    return [Block("option", v, label=label(k), letter=k, number=i, qref=q.number,
                  role="option", table=table) for i, (k, v) in enumerate(items)]


def explanation_of(q, mode: str) -> str:
    text = (q.explanation or "").strip()
    if mode == "none" or not text:
        return ""
    if mode == "first":  # the first paragraph, with what it introduces (``…如下：``)
        paragraphs = text.split("\n\n")
        k = 1
        while k < min(3, len(paragraphs)) and paragraphs[k - 1].rstrip().endswith((":", "：")):
            k += 1
        return "\n\n".join(paragraphs[:k]).strip()
    return text


def sections(paper):
    for i, s in enumerate(paper.sections):
        yield i, s, [q for q in paper.questions if s.contains(q.number)]


def _cn_part(i: int, s) -> str:
    return f"{CN_NUMERALS[i]}、{s.title.split('、', 1)[-1]}"


def _en_rule(qs, unit: str = "points") -> str:
    pts = {q.points for q in qs}
    total = sum(q.points for q in qs)
    if len(pts) == 1 and len(qs) > 1:
        return f"{next(iter(pts)):g} {unit} each, {total:g} {unit} total"
    return f"{total:g} {unit}"


def _short_options(q, limit: int = 28) -> bool:
    return bool(q.options) and all(len(plain(v)) <= limit for v in q.options.values())


# --- the layouts ---------------------------------------------------------------------------

def build_cn_inline(paper, lo: Layout) -> list[Block]:
    """``一、单项选择题（每题2分，共30分）``, ``1.`` stems, ``A.`` per line, ``答案：B`` and
    ``解析：…`` (in full) after each question; numbering through the paper."""
    out = [Block("title", paper.title + "（附答案解析）")]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"{_cn_part(i, s)}（{s.scoring}）" if s.scoring
                         else _cn_part(i, s), level=2))
        for q in qs:
            out += question_start(f"{q.number}.", q, lo)
            out += option_blocks(q, lo, lambda k: f"{k}.", table=_short_options(q))
            out += lead("答案：", key_text(q, "cn"), lo, qref=q.number, role="answer")
            if expl := explanation_of(q, "full"):
                out += lead("解析：", expl, lo, qref=q.number, role="explanation")
    return out


def build_cn_web_appendix(paper, lo: Layout) -> list[Block]:
    """``1、`` numbers restarting in every part, ``A、`` options, every key in a final
    ``参考答案及解析``: per part its heading again, choice keys as grids ``1-5 BDACB``,
    multiple-choice keys as lines ``1、BDE 2、ACD``, other answers as ``1、…`` lines, then
    the part's explanations numbered again (``1、【解析】…``)."""
    out = [Block("title", paper.title)]
    appendix = [Block("heading", "参考答案及解析", level=2)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"{_cn_part(i, s)}（{s.scoring}）" if s.scoring
                         else _cn_part(i, s), level=2))
        appendix.append(Block("heading", _cn_part(i, s), level=3))
        for n, q in enumerate(qs, 1):
            out += question_start(f"{n}、", q, lo, suffix="（ ）" if q.options else "",
                                  number=n)
            out += option_blocks(q, lo, lambda k: f"{k}、")
        if s.type == "single_choice":
            appendix.append(Block("grid", keys=[(n, key_text(q, "cn"))
                                                for n, q in enumerate(qs, 1)], role="key"))
        elif s.type == "multiple_choice":
            line = " ".join(f"{n}、{key_text(q, 'cn')}" for n, q in enumerate(qs, 1))
            appendix.append(Block("para", line, role="key"))
        else:
            for n, q in enumerate(qs, 1):
                appendix += lead(f"{n}、", key_text(q, "cn"), lo, qref=q.number,
                                 role="answer")
        for n, q in enumerate(qs, 1):
            if expl := explanation_of(q, "first"):
                appendix += lead(f"{n}、【解析】", expl, lo, qref=q.number, role="explanation")
    return out + appendix


def build_cn_per_part(paper, lo: Layout) -> list[Block]:
    """Keys at the end of each part: ``本大题答案：1.B 2.D …`` for choice parts, then one
    ``21．…`` line per question for the others; numbering through the paper."""
    out = [Block("title", paper.title)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"{_cn_part(i, s)}（{s.scoring}）" if s.scoring
                         else _cn_part(i, s), level=2))
        for q in qs:
            out += question_start(f"{q.number}．", q, lo)
            out += option_blocks(q, lo, lambda k: f"{k}．")
        if s.type in CHOICE:
            out.append(Block("para", "本大题答案：" + " ".join(
                f"{q.number}.{key_text(q, 'cn')}" for q in qs), role="key"))
        else:
            out.append(Block("para", "本大题答案：", role="key"))
            for q in qs:
                out += lead(f"{q.number}．", key_text(q, "cn"), lo, qref=q.number,
                            role="answer")
    return out


def build_cn_one_line(paper, lo: Layout) -> list[Block]:
    """Options on one line ``A．x  B．y``, numbers ``第1题`` (even parts) or ``（1）``
    (odd parts), ``（本题2分）`` after each stem, ``【答案】`` / ``【解析】`` in full."""
    out = [Block("title", paper.title)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", _cn_part(i, s), level=2))
        for q in qs:
            label = f"第{q.number}题 " if i % 2 == 0 else f"（{q.number}）"
            out += question_start(label, q, lo, suffix=f"（本题{q.points:g}分）")
            out += option_blocks(q, lo, lambda k: f"{k}．", one_line=True, sep="  ")
            out += lead("【答案】", key_text(q, "cn"), lo, qref=q.number, role="answer")
            if expl := explanation_of(q, "full"):
                out += lead("【解析】", expl, lo, qref=q.number, role="explanation")
    return out


_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def build_cn_fullwidth(paper, lo: Layout) -> list[Block]:
    """Fullwidth numbers ``１．``, options ``(A)`` per line, ``参考答案：`` inline, the first
    paragraph of each explanation."""
    out = [Block("title", paper.title)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"第{CN_NUMERALS[i]}部分  {s.title.split('、', 1)[-1]}"
                         f"（{s.scoring}）", level=2))
        for q in qs:
            out += question_start(f"{str(q.number).translate(_FULLWIDTH)}．", q, lo)
            out += option_blocks(q, lo, lambda k: f"({k}) ")
            out += lead("参考答案：", key_text(q, "cn"), lo, qref=q.number, role="answer")
            if expl := explanation_of(q, "first"):
                out += lead("解析：", expl, lo, qref=q.number, role="explanation")
    return out


def build_en_markdown(paper, lo: Layout) -> list[Block]:
    """``## Part A — Multiple choice (2 points each)``, ``### Question 1 (2 points)``,
    options ``- (a) …`` (on one line for every third choice question with short
    options), ``**Answer:** (c)``, ``**Explanation:** …`` in full, ```python fences."""
    out = [Block("title", paper.title, level=1)]
    choice_seen = 0
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"Part {chr(65 + i)} — {EN_PART[s.type]} "
                         f"({_en_rule(qs)})", level=2))
        for q in qs:
            out += question_start(f"Question {q.number} ({q.points:g} points)", q, lo,
                                  heading=3)
            if q.options:
                choice_seen += 1
                one_line = choice_seen % 3 == 0 and _short_options(q, 40)
                if one_line:
                    out += option_blocks(q, lo, lambda k: f"({k.lower()}) ", one_line=True,
                                         sep=" ")
                else:
                    out += option_blocks(q, lo, lambda k: f"- ({k.lower()}) ")
            out += lead("**Answer:** ", key_text(q, "paren"), lo, qref=q.number, role="answer")
            if expl := explanation_of(q, "full"):
                out += lead("**Explanation:** ", expl, lo, qref=q.number,
                            role="explanation")
    return out


def build_en_plain(paper, lo: Layout) -> list[Block]:
    """``Section 1: Multiple choice``, ``Q1. (2 pts)`` numbered again in every section,
    options ``a) …`` on one line, ``Answer: B, D``, code as bare indented lines."""
    out = [Block("title", paper.title)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"Section {i + 1}: {EN_PART[s.type]} "
                         f"({_en_rule(qs, 'pts')})", level=2))
        for n, q in enumerate(qs, 1):
            out += question_start(f"Q{n}. ({q.points:g} pts) ", q, lo, number=n)
            out += option_blocks(q, lo, lambda k: f"{k.lower()}) ", one_line=True, sep="   ")
            out += lead("Answer: ", key_text(q, "comma"), lo, qref=q.number, role="answer")
            if expl := explanation_of(q, "first"):
                out += lead("Explanation: ", expl, lo, qref=q.number, role="explanation")
    return out


def build_en_appendix(paper, lo: Layout) -> list[Block]:
    """``Part I``, ``1)`` numbering through the paper, ``A)`` options per line, ``[2
    marks]``; every key at the end under ``Answer key`` (``1. B  2. D …``; other answers
    one per entry), the explanations after them."""
    out = [Block("title", paper.title)]
    keys: list[Block] = [Block("heading", "Answer key", level=2)]
    notes: list[Block] = [Block("heading", "Explanations", level=2)]
    for i, s, qs in sections(paper):
        out.append(Block("heading", f"Part {ROMAN[i]} — {EN_PART[s.type]} "
                         f"[{_en_rule(qs, 'marks')}]", level=2))
        for q in qs:
            out += question_start(f"{q.number}) ", q, lo, suffix=f" [{q.points:g} marks]")
            out += option_blocks(q, lo, lambda k: f"{k}) ", table=_short_options(q))
        if s.type in CHOICE:
            line = "  ".join(f"{q.number}. {key_text(q, 'comma')}" for q in qs)
            keys.append(Block("para", line, role="key"))
        else:
            for q in qs:
                keys += lead(f"{q.number}. ", key_text(q, "comma"), lo, qref=q.number,
                             role="answer")
        for q in qs:
            if expl := explanation_of(q, "full"):
                notes += lead(f"{q.number}. ", expl, lo, qref=q.number, role="explanation")
    return out + keys + notes


def seed_damage(layout: Layout) -> Layout:
    """``layout`` printed, then damaged as the seeds were (text formats only)."""
    return replace(layout, name=layout.name + "+damaged", damage=True)


_BASE = {
    "cn_inline": Layout("cn_inline", "zh", build_cn_inline, docx_numbering=True),
    "cn_web_appendix": Layout("cn_web_appendix", "zh", build_cn_web_appendix,
                              docx_table="keys", html_ol=True),
    "cn_per_part": Layout("cn_per_part", "zh", build_cn_per_part),
    "cn_one_line": Layout("cn_one_line", "zh", build_cn_one_line),
    "cn_fullwidth": Layout("cn_fullwidth", "zh", build_cn_fullwidth),
    "en_markdown": Layout("en_markdown", "en", build_en_markdown, markup="keep",
                          blank_lines=True, md_headings=True),
    "en_plain": Layout("en_plain", "en", build_en_plain, code="indent", pdf_hyphenate=True),
    "en_appendix": Layout("en_appendix", "en", build_en_appendix, docx_table="options"),
}
LAYOUTS: dict[str, Layout] = {**_BASE,
                              **{seed_damage(_BASE[n]).name: seed_damage(_BASE[n])
                                 for n in ("cn_inline", "cn_web_appendix")}}
CUTS = ("cut_text", "cut_code")


def layout_of(name: str) -> Layout:
    """A layout by name, with an optional ``+cut_text`` / ``+cut_code`` suffix."""
    base = name
    for cut in CUTS:
        base = base.removesuffix("+" + cut)
    return LAYOUTS[base]


def cut_kind(name: str) -> str:
    """``cut_text`` / ``cut_code`` for a truncated variant, else ""."""
    return next((c for c in CUTS if name.endswith("+" + c)), "")


def is_damaged(name: str) -> bool:
    return layout_of(name).damage


def blocks_for(pid: str, layout: str) -> list[Block]:
    lo = layout_of(layout)
    paper = bank_paper(pid)
    blocks = lo.build(paper, lo)
    if cut := cut_kind(layout):
        blocks = _cut(blocks, paper.questions[-1].number, cut)
    return blocks


# --- truncation ----------------------------------------------------------------------------

_TERMINAL = "。！？；：，、.!?;:,)）】」”’ "


def _cut(blocks: list[Block], last: int, how: str) -> list[Block]:
    """The document up to the middle of question ``last``'s printed answer: inside a
    sentence of its prose (``cut_text``) or inside its code (``cut_code``)."""
    answer = [i for i, b in enumerate(blocks) if b.qref == last and b.role == "answer"]
    if not answer:
        raise ValueError(f"question {last} prints no answer to cut")
    if how == "cut_code":
        i = next((i for i in answer if blocks[i].kind == "code"), None)
        if i is None:
            raise ValueError(f"question {last}'s answer has no code to cut inside")
        lines = blocks[i].text.rstrip("\n").split("\n")
        half = max(2, len(lines) // 2)
        k = next((k for k in range(half, len(lines)) if "(" in lines[k]
                  and lines[k].strip() and not lines[k].lstrip().startswith("#")), half)
        cut_line = lines[k][:lines[k].index("(") + 1] if "(" in lines[k] else lines[k]
        code = Block(**{**blocks[i].__dict__, "text": "\n".join(lines[:k] + [cut_line]),
                        "closed": False, "cells": [], "keys": []})
        return blocks[:i] + [code]
    i = next((i for i in answer if blocks[i].kind in ("para", "item")
              and len(blocks[i].text) >= 30), None)
    if i is None:
        raise ValueError(f"question {last}'s answer has no sentence to cut inside")
    text = blocks[i].text
    pos = int(len(text) * 0.55)
    while pos < len(text) - 1 and (text[pos - 1] in _TERMINAL or text[pos] in _TERMINAL
                                   or text[pos - 1] == "`"):
        pos += 1
    return blocks[:i] + [replace(blocks[i], text=text[:pos])]


# --- damage --------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _s2t():
    import opencc

    return opencc.OpenCC("s2t")


def damage(text: str) -> str:
    """What the web extraction did to the seed papers (tests/test_import_variants.py):
    Simplified -> Traditional, every whitespace gone, ``-`` ``*`` ``#`` dropped, and
    ``torch.compile`` printed as ``pile``."""
    text = _s2t().convert(text.replace("torch.compile", "pile"))
    return re.sub(r"\s+", "", text).replace("-", "").replace("*", "").replace("#", "")


# --- text writers --------------------------------------------------------------------------

def _lines(b: Block, lo: Layout, md: bool) -> list[str]:
    hashes = md or lo.md_headings
    if b.kind == "title":
        return [("# " if hashes else "") + b.text]
    if b.kind == "heading":
        return [("#" * b.level + " " if hashes else "") + b.text]
    if b.kind == "question":
        if b.level:
            return [("#" * b.level + " " if hashes else "") + b.label] + (
                [b.text] if b.text else [])
        return [b.label + b.text]
    if b.kind == "para":
        return [b.text]
    if b.kind == "item":
        return ["   " * b.level + b.label + " " + b.text]
    if b.kind == "option":
        return [b.label + b.text]
    if b.kind == "options":
        return [b.sep.join(label + text for label, text in b.cells)]
    if b.kind == "grid":
        return ["  ".join(_grid_groups(b.keys))]
    if b.kind == "code":
        lines = b.text.rstrip("\n").split("\n")
        if lo.code == "indent" and not md:
            return [""] + ["    " + ln if ln.strip() else "" for ln in lines] + [""]
        return [f"```{b.lang}"] + lines + (["```"] if b.closed else [])
    raise ValueError(b.kind)


def _grid_groups(keys: list[tuple[int, str]], size: int = 5) -> list[str]:
    out = []
    for k in range(0, len(keys), size):
        chunk = keys[k:k + size]
        span = (f"{chunk[0][0]}-{chunk[-1][0]}" if len(chunk) > 1 else f"{chunk[0][0]}")
        out.append(f"{span} {''.join(key for _, key in chunk)}")
    return out


_TIGHT = {"option", "item", "options"}


def render_text(blocks: list[Block], lo: Layout, *, md: bool = False) -> str:
    out: list[str] = []
    prev = None
    for b in blocks:
        if prev is not None:
            tight = b.kind in _TIGHT and prev.kind in _TIGHT and b.kind == prev.kind
            if lo.blank_lines and not tight:
                out.append("")
        out += _lines(b, lo, md)
        prev = b
    text = "\n".join(out) + "\n"
    return damage(text) if lo.damage else text


def write_txt(blocks, lo, path: Path) -> None:
    path.write_text(render_text(blocks, lo), encoding="utf-8")


def write_md(blocks, lo, path: Path) -> None:
    path.write_text(render_text(blocks, lo, md=True), encoding="utf-8")


# --- inline Markdown for the rich writers --------------------------------------------------

_INLINE = re.compile(r"\*\*(.+?)\*\*|`([^`\n]+)`")


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` as (piece, style) with style "", "b" (bold) or "code"."""
    text = _HEADING.sub("", text)
    out, last = [], 0
    for m in _INLINE.finditer(text):
        if m.start() > last:
            out.append((text[last:m.start()], ""))
        out.append((m[1], "b") if m[1] is not None else (m[2], "code"))
        last = m.end()
    if last < len(text):
        out.append((text[last:], ""))
    return [(t, s) for t, s in out if t]


def _block_text(b: Block) -> str:
    """A block's text for the rich writers, label included (no numbering)."""
    if b.kind == "item":
        return b.label + " " + b.text
    if b.kind == "options":
        return b.sep.join(label + text for label, text in b.cells)
    if b.kind == "grid":
        return "  ".join(_grid_groups(b.keys))
    if b.kind == "question" and b.level:
        return b.label
    return b.label + b.text


# --- docx ----------------------------------------------------------------------------------

MONO = "Consolas"


def write_docx(blocks: list[Block], lo: Layout, path: Path) -> None:
    """Word: Title / Heading styles, a "Code" paragraph style (Consolas) for code, one
    paragraph per line. ``docx_numbering``: question numbers (decimal ``%1.``) and option
    letters (upperLetter ``%1.``, restarting per question) are Word auto-numbering, so
    they are not in the paragraphs' text. ``docx_table``: 2x2 option tables or key
    grids as tables (题号 / 答案 rows)."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.shared import Pt

    document = docx.Document()
    styles = document.styles
    code_style = styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code_style.base_style = styles["Normal"]
    code_style.font.name = MONO
    code_style.font.size = Pt(9)
    code_style.paragraph_format.space_after = Pt(0)
    numbering = _Numbering(document) if lo.docx_numbering else None
    question_num = numbering.new("decimal") if numbering else None
    option_num = None
    i = 0
    while i < len(blocks):
        b = blocks[i]
        if b.kind == "title":
            document.add_paragraph(b.text, style="Title")
        elif b.kind == "heading":
            document.add_paragraph(b.text, style=f"Heading {min(3, max(1, b.level - 1))}")
        elif b.kind == "question" and numbering:
            p = _rich_paragraph(document, b.text)
            numbering.apply(p, question_num)
            option_num = None
        elif b.kind == "question" and b.level:
            document.add_paragraph(b.label, style="Heading 3")
        elif b.kind == "code":
            for line in b.text.rstrip("\n").split("\n"):
                p = document.add_paragraph(style="Code")
                run = p.add_run(line)
                run.font.name = MONO
        elif b.kind == "option" and numbering:
            if option_num is None or b.number == 0:
                option_num = numbering.new("upperLetter")
            p = _rich_paragraph(document, b.text)
            numbering.apply(p, option_num)
        elif b.kind == "option" and lo.docx_table == "options" and b.table and b.number == 0:
            group = [b]
            while i + len(group) < len(blocks) and blocks[i + len(group)].kind == "option" \
                    and blocks[i + len(group)].qref == b.qref:
                group.append(blocks[i + len(group)])
            if len(group) == 4:
                table = document.add_table(rows=2, cols=2)
                for k, opt in enumerate(group):
                    cell = table.cell(k // 2, k % 2)
                    _fill_runs(cell.paragraphs[0], opt.label + opt.text)
                i += 4
                continue
            _rich_paragraph(document, _block_text(b))
        elif b.kind == "grid" and lo.docx_table == "keys":
            _grid_table(document, b.keys)
        else:
            p = _rich_paragraph(document, _block_text(b))
            if b.kind == "item" and b.level:
                p.paragraph_format.left_indent = Pt(18 * b.level)
        i += 1
    document.core_properties.title = blocks[0].text if blocks else ""
    document.save(str(path))


def _rich_paragraph(document, text: str):
    p = document.add_paragraph()
    _fill_runs(p, text)
    return p


def _fill_runs(p, text: str) -> None:
    for piece, style in runs(text):
        run = p.add_run(piece)
        if style == "b":
            run.bold = True
        elif style == "code":
            run.font.name = MONO


def _grid_table(document, keys: list[tuple[int, str]], width: int = 10) -> None:
    chunks = [keys[k:k + width] for k in range(0, len(keys), width)]
    table = document.add_table(rows=2 * len(chunks), cols=width + 1)
    table.style = "Table Grid"
    for r, chunk in enumerate(chunks):
        table.cell(2 * r, 0).text = "题号"
        table.cell(2 * r + 1, 0).text = "答案"
        for c, (n, key) in enumerate(chunk, 1):
            table.cell(2 * r, c).text = str(n)
            table.cell(2 * r + 1, c).text = key


class _Numbering:
    """Word numbering definitions: one abstract definition per format, one ``w:num``
    instance per list (so option letters restart at A for every question)."""

    def __init__(self, document):
        self.root = document.part.numbering_part.element
        self.abstract: dict[str, int] = {}
        self.next_num = 1 + max([int(n.get(_w("numId"))) for n in self.root.findall(
            _w("num"))] or [0])

    def new(self, fmt: str) -> int:
        from docx.oxml import parse_xml

        if fmt not in self.abstract:
            aid = 900 + len(self.abstract)
            xml = (f'<w:abstractNum {_NS} w:abstractNumId="{aid}">'
                   f'<w:multiLevelType w:val="singleLevel"/>'
                   f'<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
                   f'<w:lvlText w:val="%1."/><w:lvlJc w:val="left"/>'
                   f'<w:pPr><w:ind w:left="420" w:hanging="420"/></w:pPr></w:lvl>'
                   f'</w:abstractNum>')
            element = parse_xml(xml)
            first_num = self.root.find(_w("num"))
            if first_num is not None:
                first_num.addprevious(element)  # abstractNum precedes num in the schema
            else:
                self.root.append(element)
            self.abstract[fmt] = aid
        num_id = self.next_num
        self.next_num += 1
        self.root.append(parse_xml(
            f'<w:num {_NS} w:numId="{num_id}"><w:abstractNumId w:val="{self.abstract[fmt]}"/>'
            f'<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'))
        return num_id

    @staticmethod
    def apply(paragraph, num_id: int) -> None:
        from docx.oxml import parse_xml

        ppr = paragraph._p.get_or_add_pPr()
        ppr.insert(0, parse_xml(f'<w:numPr {_NS}><w:ilvl w:val="0"/>'
                                f'<w:numId w:val="{num_id}"/></w:numPr>'))


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NS = f'xmlns:w="{_W}"'


def _w(tag: str) -> str:
    return f"{{{_W}}}{tag}"


# --- pdf -----------------------------------------------------------------------------------

CJK_FONT = "STSong-Light"
PAGE_W, PAGE_H = 595.27, 841.89  # A4
MARGIN_X, TOP, BOTTOM = 56.0, 70.0, 62.0
_CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


SYMBOL_FONT = "Vera"  # Bitstream Vera, shipped inside reportlab: −, ∂ and friends


@lru_cache(maxsize=1)
def _fonts() -> frozenset:
    """Registers the fonts; returns the characters Vera can draw."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
    vera = TTFont(SYMBOL_FONT, "Vera.ttf")
    pdfmetrics.registerFont(vera)
    return frozenset(chr(c) for c in vera.face.charToGlyph)


@lru_cache(maxsize=None)
def _encodes(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


def _latin(ch: str) -> bool:
    return _encodes(ch, "cp1252")


@lru_cache(maxsize=None)
def _stand_in(ch: str) -> tuple[str, float]:
    """A character no font here draws (ᵢ, ₂, ᵀ, ℝ): its compatibility form, raised or
    lowered as a superscript or subscript (what Word prints; text extraction gives the
    plain letter, as NFKC does). Combining marks are left out. (text, rise)"""
    name = unicodedata.name(ch, "")
    if unicodedata.combining(ch):
        return "", 0.0
    plain_form = unicodedata.normalize("NFKC", ch)
    if plain_form == ch:
        return ch, 0.0
    rise = 3.0 if "SUPERSCRIPT" in name or "MODIFIER" in name else (
        -2.0 if "SUBSCRIPT" in name else 0.0)
    return plain_form, rise


class _Pdf:
    """A small line-layout engine over reportlab's canvas: text is wrapped at the page
    width (CJK anywhere, Latin at spaces; long alphabetic words hyphenated when asked),
    pages are laid out first, then drawn with a header (the paper's title) and a footer
    (``第 N 页 共 M 页`` / ``Page N of M``)."""

    def __init__(self, lang: str, hyphenate: bool):
        self.vera = _fonts()
        self.lang = lang
        self.hyphenate = hyphenate
        self.pages: list[list[tuple[float, float, list]]] = [[]]
        self.y = PAGE_H - TOP
        self.width_cache: dict[tuple[str, str, float], float] = {}

    def font_for(self, ch: str, kind: str) -> str:
        if kind == "code" and _latin(ch):
            return "Courier"
        if self.lang == "en" and _latin(ch):
            return "Times-Bold" if kind == "b" else "Times-Roman"
        if _encodes(ch, "gbk"):
            return CJK_FONT
        if _latin(ch):
            return "Times-Roman"
        return SYMBOL_FONT if ch in self.vera else ""

    def width(self, text: str, font: str, size: float) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        key = (text, font, size)
        if key not in self.width_cache:
            self.width_cache[key] = stringWidth(text, font, size)
        return self.width_cache[key]

    def seg_width(self, chars: list[tuple[str, str, float]], size: float) -> float:
        return sum(self.width(c, f, size * 0.7 if r else size) for c, f, r in chars)

    def paragraph(self, pieces: list[tuple[str, str]], size: float, indent: float = 0.0,
                  gap: float = 2.0, hanging: float = 0.0) -> None:
        """Lay out styled pieces as wrapped lines."""
        chars = []
        for text, style in pieces:
            for ch in text:
                font = self.font_for(ch, style)
                if font:
                    chars.append((ch, font, 0.0))
                    continue
                stand_in, rise = _stand_in(ch)
                chars += [(c, self.font_for(c, style) or CJK_FONT, rise) for c in stand_in]
        units = _units(chars)
        width = PAGE_W - 2 * MARGIN_X - indent
        line: list[tuple[str, str, float]] = []
        used = 0.0
        first = True

        def flush():
            nonlocal line, used, first
            while line and line[-1][0] == " ":
                line.pop()
            self._line(line, size, indent + (0 if first else hanging))
            line, used, first = [], 0.0, False

        for unit in units:
            w = self.seg_width(unit, size)
            avail = width - (0 if first else hanging)
            if used + w <= avail:
                line += unit
                used += w
                continue
            if unit[0][0] == " ":
                flush()
                continue
            word = "".join(c[0] for c in unit)
            if self.hyphenate and re.fullmatch(r"[A-Za-z]{7,}", word):
                k = max((k for k in range(3, len(unit) - 2)
                         if used + self.seg_width(unit[:k] + [("-", unit[0][1], 0.0)], size)
                         <= avail), default=0)
                if k:
                    line += unit[:k] + [("-", unit[0][1], 0.0)]
                    flush()
                    line, used = list(unit[k:]), self.seg_width(unit[k:], size)
                    continue
            if line:
                flush()
                avail = width - hanging
            while self.seg_width(unit, size) > avail:  # longer than a line: broken anywhere
                k = len(unit) - 1
                while k > 1 and self.seg_width(unit[:k], size) > avail:
                    k -= 1
                line = unit[:k]
                flush()
                unit = unit[k:]
            line, used = list(unit), self.seg_width(unit, size)
        if line or first:
            flush()
        self.y -= gap

    def _line(self, chars: list[tuple[str, str, float]], size: float, indent: float) -> None:
        height = size * 1.45
        if self.y - height < BOTTOM:
            self.pages.append([])
            self.y = PAGE_H - TOP
        self.y -= height
        segs: list[tuple[str, str, float, float]] = []
        for ch, font, rise in chars:
            if segs and segs[-1][1] == font and segs[-1][3] == rise:
                segs[-1] = (segs[-1][0] + ch, font, segs[-1][2], rise)
            else:
                segs.append((ch, font, size * 0.7 if rise else size, rise))
        self.pages[-1].append((MARGIN_X + indent, self.y, segs))

    def save(self, path: Path, title: str) -> None:
        from reportlab.pdfgen import canvas

        c = canvas.Canvas(str(path), pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
        c.setTitle(title)
        total = len(self.pages)
        for n, page in enumerate(self.pages, 1):
            c.setFont(CJK_FONT, 8.5)
            c.drawString(MARGIN_X, PAGE_H - 40, title)
            c.setLineWidth(0.4)
            c.line(MARGIN_X, PAGE_H - 45, PAGE_W - MARGIN_X, PAGE_H - 45)
            for x, y, segs in page:
                for text, font, size, rise in segs:
                    c.setFont(font, size)
                    c.drawString(x, y + rise, text)
                    x += self.width(text, font, size)
            foot = f"第 {n} 页 共 {total} 页" if self.lang == "zh" else f"Page {n} of {total}"
            font = CJK_FONT if self.lang == "zh" else "Times-Roman"
            c.setFont(font, 9)
            c.drawCentredString(PAGE_W / 2, 32, foot)
            c.showPage()
        c.save()


def _units(chars: list[tuple[str, str, float]]) -> list[list[tuple[str, str, float]]]:
    """Break opportunities: a space, a CJK character, a run of other characters."""
    units: list[list[tuple[str, str, float]]] = []
    for char in chars:
        ch = char[0]
        kind = "s" if ch == " " else ("c" if _CJK.match(ch) else "w")
        if kind == "w" and units and units[-1][-1][0] != " " and not _CJK.match(units[-1][-1][0]):
            units[-1].append(char)
        else:
            units.append([char])
    return units


def write_pdf(blocks: list[Block], lo: Layout, path: Path) -> None:
    pdf = _Pdf(lo.lang, lo.pdf_hyphenate)
    title = blocks[0].text if blocks and blocks[0].kind == "title" else ""
    for b in blocks:
        if b.kind == "title":
            pdf.paragraph([(b.text, "b")], 15, gap=8)
        elif b.kind == "heading":
            pdf.paragraph([(plain(b.text), "b")], 12.5, gap=5)
        elif b.kind == "code":
            for line in b.text.rstrip("\n").split("\n"):
                pdf.paragraph([(line.replace("\t", "    "), "code")], 8.5, indent=14, gap=0)
            pdf.y -= 3
        elif b.kind == "item":
            pdf.paragraph(runs(b.label + " " + b.text), 10.5, indent=12 + 14 * b.level,
                          hanging=12)
        elif b.kind == "option":
            pdf.paragraph(runs(b.label + b.text), 10.5, indent=12, gap=1)
        else:
            pdf.paragraph(runs(_block_text(b)), 10.5)
    pdf.save(path, title)


# --- html ----------------------------------------------------------------------------------

_PAGE_HEAD = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - 考试资料网</title>
<link rel="stylesheet" href="/static/css/site.min.css">
<style>
body {{ font-family: "PingFang SC", "Microsoft YaHei", sans-serif; margin: 0; }}
.site-nav ul {{ list-style: none; display: flex; gap: 1em; }}
article pre {{ background: #f6f8fa; padding: 8px; overflow-x: auto; }}
.ad-slot {{ min-height: 90px; }}
</style>
<script>
window.dataLayer = window.dataLayer || [];
function gtag(){{dataLayer.push(arguments);}}
gtag('js', new Date()); gtag('config', 'G-XXXX1234');
var _hmt = _hmt || []; /* 1. 统计代码 2. 请勿删除 */
</script>
</head>
<body>
<header class="site-header">
<div class="logo"><a href="/">考试资料网</a></div>
<nav class="site-nav"><ul>
<li><a href="/">首页</a></li><li><a href="/zhenti/">历年真题</a></li>
<li><a href="/moni/">模拟试题</a></li><li><a href="/ai/">人工智能</a></li>
<li><a href="/login">登录</a></li><li><a href="/register">注册</a></li>
</ul></nav>
</header>
<div class="breadcrumb"><a href="/">首页</a> &gt; <a href="/ai/">人工智能</a> &gt; 正文</div>
<div class="ad-slot">广告</div>
<main>
<article class="post-content">
<div class="post-meta">发布时间：2025-06-18 09:12 | 浏览：12,345 次 | 来源：网络整理</div>
"""

_PAGE_TAIL = """</article>
<aside class="related"><h3>相关试卷</h3><ol>
<li><a href="/p/1">2024年人工智能工程师认证考试真题及答案</a></li>
<li><a href="/p/2">深度学习面试题100道（附解析）</a></li>
<li><a href="/p/3">大模型算法岗笔试题汇总</a></li></ol>
<div class="share">分享到：微信 | 微博 | QQ空间</div>
<div class="prev-next"><a href="/p/0">上一篇：机器学习基础练习题</a>
<a href="/p/4">下一篇：计算机视觉模拟卷</a></div></aside>
</main>
<footer class="site-footer">
<p>Copyright © 2015-2025 考试资料网 版权所有 | <a href="/about">关于我们</a> |
<a href="/contact">联系我们</a> | 京ICP备12345678号-1</p>
<p>本站部分内容来自网络，如有侵权请联系删除。</p>
<script src="/static/js/jquery.min.js"></script>
<script>$(function(){ $(".ad-slot").load("/ads?slot=1"); });</script>
</footer>
</body>
</html>
"""


def _inline_html(text: str) -> str:
    out = []
    for piece, style in runs(text):
        esc = html_lib.escape(piece, quote=False)
        out.append(f"<strong>{esc}</strong>" if style == "b" else
                   f"<code>{esc}</code>" if style == "code" else esc)
    return "".join(out)


def write_html(blocks: list[Block], lo: Layout, path: Path) -> None:
    """A saved web page. Stem lists as <ul>/<ol> (the numbers of an <ol> are not in the
    text), code as <pre><code>, key grids as tables; ``html_ol``: options as
    <ol type="A">."""
    title = blocks[0].text if blocks and blocks[0].kind == "title" else ""
    body: list[str] = []
    lists: list[str] = []  # open list tags, innermost last

    def close_lists(depth: int = 0) -> None:
        while len(lists) > depth:
            body.append(f"</li></{lists.pop()}>")

    i = 0
    while i < len(blocks):
        b = blocks[i]
        if b.kind != "item":
            close_lists()
        if b.kind == "title":
            body.append(f"<h1>{_inline_html(b.text)}</h1>")
        elif b.kind == "heading":
            body.append(f"<h2>{_inline_html(b.text)}</h2>")
        elif b.kind == "question" and b.level:
            body.append(f"<h3>{_inline_html(b.label)}</h3>")
        elif b.kind == "question":
            body.append(f'<p class="question"><b>{html_lib.escape(b.label)}</b>'
                        f"{_inline_html(b.text)}</p>")
        elif b.kind == "item":
            tag = "ol" if b.label[0].isdigit() else "ul"
            depth = b.level + 1
            if len(lists) > depth:
                close_lists(depth)
            if len(lists) == depth and lists[-1] != tag:
                close_lists(depth - 1)
            if len(lists) == depth:
                body.append("</li><li>" + _inline_html(b.text))
            else:
                while len(lists) < depth:
                    start = re.match(r"\d+", b.label)
                    attr = f' start="{start[0]}"' if tag == "ol" and start and \
                        start[0] != "1" else ""
                    body.append(f"<{tag}{attr}><li>" + (_inline_html(b.text)
                                                        if len(lists) == depth - 1 else ""))
                    lists.append(tag)
        elif b.kind == "code":
            body.append(f'<pre><code class="language-{b.lang}">'
                        f"{html_lib.escape(b.text, quote=False)}"
                        + ("</code></pre>" if b.closed else ""))
        elif b.kind == "option" and lo.html_ol:
            group = []
            while i < len(blocks) and blocks[i].kind == "option" and blocks[i].qref == b.qref:
                group.append(blocks[i])
                i += 1
            body.append('<ol type="A" class="options">' + "".join(
                f"<li>{_inline_html(o.text)}</li>" for o in group) + "</ol>")
            continue
        elif b.kind == "grid":
            heads = "".join(f"<td>{n}</td>" for n, _ in b.keys)
            cells = "".join(f"<td>{k}</td>" for _, k in b.keys)
            body.append(f'<table class="answer-grid"><tr><th>题号</th>{heads}</tr>'
                        f"<tr><th>答案</th>{cells}</tr></table>")
        else:
            body.append(f"<p>{_inline_html(_block_text(b))}</p>")
        i += 1
    close_lists()
    page = (_PAGE_HEAD.format(lang="zh-CN" if lo.lang == "zh" else "en",
                              title=html_lib.escape(title)) + "\n".join(body) + "\n"
            + _PAGE_TAIL)
    path.write_text(page, encoding="utf-8")


# --- entry points --------------------------------------------------------------------------

FORMATS: dict[str, Callable[[list[Block], Layout, Path], None]] = {
    "txt": write_txt, "md": write_md, "docx": write_docx, "pdf": write_pdf,
    "html": write_html,
}


def render(pid: str, layout: str, fmt: str, out_dir: Path | str) -> Path:
    """Print bank paper ``pid`` in ``layout`` as ``fmt`` into ``out_dir``; the path is
    ``out_dir/<pid>-<layout>.<fmt>``."""
    lo = layout_of(layout)
    if lo.damage and fmt not in ("txt", "md"):
        raise ValueError(f"{layout}: the seeds' damage exists in text formats only")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{pid}-{layout}.{fmt}"
    FORMATS[fmt](blocks_for(pid, layout), lo, path)
    return path


def cases() -> list[tuple[str, str, str]]:
    """(pid, layout, fmt) the suite runs: every layout as .txt (000 and 001), the
    programming-only drills in three layouts, each other format in at least two layouts
    (a Chinese and an English one), and the truncated variants."""
    out = [(pid, name, "txt") for name in LAYOUTS for pid in ("000", "001")]
    out += [("drills", "cn_inline", "txt"), ("drills", "en_plain", "txt"),
            ("drills", "en_markdown", "md"),
            ("000", "en_markdown", "md"), ("001", "en_markdown", "md"),
            ("000", "cn_inline", "md"),
            ("000", "cn_inline", "docx"), ("000", "cn_web_appendix", "docx"),
            ("001", "en_appendix", "docx"),
            ("000", "cn_inline", "pdf"), ("001", "en_plain", "pdf"),
            ("000", "cn_web_appendix", "html"), ("001", "en_markdown", "html"),
            ("000", "cn_inline+cut_code", "txt"), ("001", "cn_inline+cut_text", "txt"),
            ("000", "cn_web_appendix+cut_code", "txt"),
            ("001", "en_appendix+cut_text", "txt"), ("000", "en_markdown+cut_text", "md"),
            ("drills", "en_markdown+cut_code", "md"), ("000", "cn_inline+cut_text", "docx")]
    return out


def render_two_papers(out_dir: Path | str, layout: str = "cn_inline") -> Path:
    """Papers 000 and 001 one after the other in one .txt file."""
    lo = layout_of(layout)
    text = "\n\n".join(render_text(blocks_for(pid, layout), lo) for pid in ("000", "001"))
    path = Path(out_dir) / f"000+001-{layout}.txt"
    path.write_text(text, encoding="utf-8")
    return path


NO_QUESTIONS = """2025年人工智能工程师认证考试 考生须知

请考生在答题前认真阅读以下事项。

考试时间为一百二十分钟，满分一百二十五分。请使用黑色签字笔作答，答案写在答题卡指定区域内，写在试卷上无效。

考试开始后三十分钟内不得离开考场。考试结束铃声响起时，请立即停止作答，将试卷和答题卡反面朝上放在桌上。

严禁携带手机、智能手表等电子设备进入考场。违反考场纪律者，按相关规定处理。

祝各位考生考试顺利！
"""


def render_no_questions(out_dir: Path | str, fmt: str = "txt") -> Path:
    """A file with a title and prose but no numbered question (instructions only)."""
    lo = LAYOUTS["cn_inline"]
    lines = [ln for ln in NO_QUESTIONS.split("\n") if ln.strip()]
    blocks = [Block("title", lines[0])] + [Block("para", ln) for ln in lines[1:]]
    path = Path(out_dir) / f"no-questions.{fmt}"
    FORMATS[fmt](blocks, lo, path)
    return path


if __name__ == "__main__":  # render every case into a folder to look at
    import sys

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "rendered-papers")
    for case in cases():
        print(render(*case, target))
