"""Indent parsed statements and print them with PEP 8 spacing.

Indentation is lost with the newlines, so block ends are inferred: a method is a ``def``
whose first parameter is ``self``/``cls``; ``return``/``continue``/``break``/``raise``/
``pass`` end the block they are in; an ``if``/``else``/``with``/``try`` body is one
statement; a ``for``/``while`` body lasts while its statements use a name the loop binds.
Every block whose end was inferred this way is reported, so a person checks it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .code_lexer import COMMENT, NAME, OP
from .code_parse import KW, SPACE_KW, Piece, Statement

TERMINAL = {"return", "continue", "break", "raise", "pass"}
ONE_STATEMENT = {"if", "elif", "else", "with", "try", "except", "finally"}
LOOPS = {"for", "while"}
METHOD_DECORATORS = ("staticmethod", "classmethod", "property", "abstractmethod")


@dataclass
class _Block:
    keyword: str
    level: int  # the header's level; the body is level + 1
    bound: set[str] = field(default_factory=set)
    count: int = 0  # statements in the body so far
    line: str = ""


@dataclass
class Layout:
    lines: list[str]
    guessed: list[str]  # headers whose block end was inferred


def layout(statements: list[Statement]) -> Layout:
    out: list[tuple[int, str, bool]] = []  # (level, text, top-level def/class start)
    blocks: list[_Block] = []
    guessed: list[str] = []
    pending_comments: list[str] = []
    expect_body = False
    for idx, st in enumerate(statements):
        if st.comment and not st.pieces:
            pending_comments.append(st.comment)
            continue
        text = render(st.pieces)
        kw = st.keyword
        if expect_body:
            level = blocks[-1].level + 1
            expect_body = False
        else:
            level = _place(st, statements[idx + 1:], blocks)
        while blocks and blocks[-1].level >= level:
            blocks.pop()
        for comment in pending_comments:
            out.append((level, "# " + comment, False))
        pending_comments = []
        starts_top = level == 0 and kw in ("def", "class", "@")
        out.append((level, text, starts_top))
        if blocks:
            blocks[-1].count += 1
            blocks[-1].bound |= _bound_names(st)
        if st.header:
            block = _Block(kw, level, _header_binds(st), line=text)
            blocks.append(block)
            expect_body = True
            if kw in ONE_STATEMENT | LOOPS:
                guessed.append(text)
        elif kw in TERMINAL and blocks:
            blocks.pop()
    for comment in pending_comments:
        out.append((0, "# " + comment, False))
    return Layout(_with_blank_lines(out), guessed)


def _place(st: Statement, following: list[Statement], blocks: list[_Block]) -> int:
    """The level of a statement that does not open a body right after a header."""
    kw = st.keyword
    if kw in ("def", "@", "class"):
        if kw == "class":
            return 0
        decorated = [st] if kw == "@" else []
        target = st
        if kw == "@":
            target = next((s for s in following if s.keyword == "def"), st)
            decorated += [s for s in following[:following.index(target)]
                          if s.keyword == "@"] if target in following else []
        method = target.first_param() in ("self", "cls") or any(
            any(p.text in METHOD_DECORATORS for p in d.pieces) for d in decorated)
        classes = [b for b in blocks if b.keyword == "class"]
        return classes[-1].level + 1 if method and classes else 0
    if kw in ("elif", "else"):
        wanted = ("if", "elif") if kw == "elif" else ("if", "elif", "for", "while", "try",
                                                      "except")
        for block in reversed(blocks):
            if block.keyword in wanted:
                return block.level
        return blocks[-1].level + 1 if blocks else 0
    if kw in ("except", "finally"):
        for block in reversed(blocks):
            if block.keyword in ("try", "except"):
                return block.level
    if kw == "if" and "__name__" in st.names():
        return 0
    if kw in ("import", "from") and not any(b.keyword == "def" for b in blocks):
        return 0
    names = st.names()
    while blocks:
        inner = blocks[-1]
        if inner.keyword in ONE_STATEMENT and inner.count >= 1:
            blocks.pop()
            continue
        if inner.keyword in LOOPS and inner.count >= 1 and not (names & inner.bound):
            blocks.pop()
            continue
        if inner.keyword == "class" and inner.count >= 1:
            blocks.pop()  # a class body holds methods, not statements after them
            continue
        break
    return blocks[-1].level + 1 if blocks else 0


def _header_binds(st: Statement) -> set[str]:
    names: set[str] = set()
    if st.keyword == "for":
        for p in st.pieces[1:]:
            if p.kind == KW and p.text == "in":
                break
            if p.kind == NAME:
                names.add(p.text)
    elif st.keyword in ("with", "except", "while"):
        after_as = False
        for p in st.pieces:
            if p.kind == KW and p.text == "as":
                after_as = True
            elif after_as and p.kind == NAME:
                names.add(p.text)
        if st.keyword == "while":
            names |= st.names()
    return names


def _bound_names(st: Statement) -> set[str]:
    """Names a statement assigns (its targets), so later statements that use them stay in
    the same loop body."""
    names: set[str] = set()
    if not st.assigns:
        return names
    for i, p in enumerate(st.pieces):
        if p.kind == OP and p.role == "assign":
            break
        if p.kind == NAME and (i == 0 or st.pieces[i - 1].text != "."):
            names.add(p.text)
    return names


def _with_blank_lines(out: list[tuple[int, str, bool]]) -> list[str]:
    lines: list[str] = []
    prev_level = 0
    for k, (level, text, starts_top) in enumerate(out):
        prev = out[k - 1] if k else None
        decorated = prev is not None and prev[1].startswith("@") and prev[0] == level
        if lines and not decorated and not (prev and prev[1].startswith("#")
                                            and prev[0] == level):
            if starts_top or (level == 0 and prev_level > 0):
                lines += ["", ""]
            elif text.startswith(("def ", "@")) and prev is not None and \
                    not prev[1].endswith(":"):
                lines.append("")
        if text.startswith("# ") and k + 1 < len(out) and out[k + 1][2] and lines:
            lines += ["", ""]
        lines.append("    " * level + text)
        prev_level = level
    return _squeeze(lines)


def _squeeze(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line and len(out) >= 2 and not out[-1] and not out[-2]:
            continue
        out.append(line)
    return out


_NO_SPACE_BEFORE = {",", ")", "]", "}", ".", ":", ";"}
_NO_SPACE_AFTER = {"(", "[", "{", ".", "~"}


def render(pieces: list[Piece]) -> str:
    """One statement's pieces as a line, spaced as PEP 8 / black would."""
    out: list[str] = []
    prev: Piece | None = None
    for p in pieces:
        if p.kind == COMMENT:
            out.append(("  " if out else "") + "# " + p.text)
            prev = p
            continue
        if prev is not None and _space_between(prev, p):
            out.append(" ")
        out.append(p.text)
        prev = p
    return "".join(out)


def _space_between(a: Piece, b: Piece) -> bool:
    if b.role == "glued":
        return False  # printed glued (a lost operator): kept as printed
    if a.text in _NO_SPACE_AFTER or a.role in ("unary", "decorator"):
        return False
    if b.kind == OP and b.text in _NO_SPACE_BEFORE and b.text != ":":
        return False
    if b.kind == OP and b.text == ":":
        return a.text == ","
    if a.kind == OP and a.text == ":":
        return a.role not in ("slice",)
    if b.kind == OP and b.text in ("(", "[") and (b.role in ("call", "subscript")
                                                  or a.role == "defname"):
        return a.kind == KW and a.text in SPACE_KW
    if a.role in ("kwname", "kwarg") or b.role == "kwarg":
        return False
    return True
