"""Tokens of Python source whose whitespace, newlines and ``#`` marks may be gone.

The standard ``tokenize`` module needs line structure and rejects ``1beta1``; this lexer
takes a single run-on line and keeps every character: a Chinese run (a comment whose ``#``
and line break were lost) becomes a ``COMMENT`` token, an unknown character an ``ERROR``.
"""
from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import dataclass

from .prose import CJK

NAME, NUMBER, STRING, OP, COMMENT, ERROR = "NAME", "NUMBER", "STRING", "OP", "COMMENT", "ERROR"

_STRING = re.compile(r"""(?:[rRbBuUfF]{1,2})?(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|"""
                     r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")""")
_OPEN_STRING = re.compile(r"""(?:[rRbBuUfF]{1,2})?(?:'''|\"\"\"|'|")[\s\S]*""")
_NUMBER = re.compile(r"0[xXoObB][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)"
                     r"(?:[eE][+-]?\d+)?[jJ]?")
_NAME = re.compile(r"[A-Za-z_\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff]*")
_OPS = sorted("""**= //= >>= <<= ... -> := ** // == != <= >= += -= *= /= %= &= |= ^= @= << >>
+ - * / % @ & | ^ ~ < > ( ) [ ] { } , : . ; = !""".split(), key=len, reverse=True)
_OP = re.compile("|".join(re.escape(op) for op in _OPS))
_WIDE = "\u3000-\u303f\uff00-\uffef\u2018-\u201f\u2026\u00b7"  # CJK and full-width punctuation
_COMMENT_CHAR = re.compile(f"[{CJK}{_WIDE}]")
# a comment keeps the ASCII between two of its Chinese characters ("需torchrun启动")
_COMMENT = re.compile(f"[{CJK}{_WIDE}]+(?:[ -~]{{0,16}}?[{CJK}{_WIDE}]+)*")
_SPACE = re.compile(r"[ \t\f]+")

KEYWORDS = frozenset(keyword.kwlist)
# words a name can be split around with confidence: Python's own and the usual aliases
BASE_NAMES = frozenset(dir(builtins)) | {
    "self", "cls", "torch", "nn", "F", "np", "math", "dist", "os", "sys", "time", "json", "re",
    "random", "functools", "partial", "itertools", "collections", "typing", "Optional",
    "List", "Tuple", "Dict", "Any", "Union", "Callable", "Tensor", "numpy", "pd", "plt",
    "optim", "data", "utils", "functional", "cuda", "device", "dtype",
}


@dataclass
class Token:
    kind: str
    text: str
    space_before: bool = False  # the source had whitespace before it (a real separator)
    newline_before: bool = False


def lex(source: str) -> list[Token]:
    """Every character of ``source`` in a token; never raises."""
    tokens: list[Token] = []
    i, n = 0, len(source)
    space = newline = False
    while i < n:
        ch = source[i]
        if ch == "\n":
            newline, space, i = True, True, i + 1
            continue
        m = _SPACE.match(source, i)
        if m:
            space, i = True, m.end()
            continue
        if ch == "#":
            end = source.find("\n", i)
            end = n if end < 0 else end
            tokens.append(Token(COMMENT, source[i + 1:end].strip(), space, newline))
        elif _COMMENT_CHAR.match(ch):
            m = _COMMENT.match(source, i)
            end = m.end()
            tokens.append(Token(COMMENT, source[i:end].strip(), space, newline))
        elif (m := _STRING.match(source, i)) and (ch in "'\"" or _NAME.match(source, i)
                                                   .end() < m.end()):
            end = m.end()
            tokens.append(Token(STRING, m.group(0), space, newline))
        elif ch in "'\"":  # unterminated (the source was cut off): the rest is the string
            end = n
            tokens.append(Token(STRING, _OPEN_STRING.match(source, i).group(0), space, newline))
        elif "0" <= ch <= "9" or (ch == "." and i + 1 < n and "0" <= source[i + 1] <= "9"):
            end = _NUMBER.match(source, i).end()
            tokens.append(Token(NUMBER, source[i:end], space, newline))
        elif m := _NAME.match(source, i):
            end = m.end()
            tokens.append(Token(NAME, m.group(0), space, newline))
        elif m := _OP.match(source, i):
            end = m.end()
            tokens.append(Token(OP, m.group(0), space, newline))
        else:
            end = i + 1
            tokens.append(Token(ERROR, ch, space, newline))
        space = newline = False
        i = end
    return _prefix_strings(tokens)


def _prefix_strings(tokens: list[Token]) -> list[Token]:
    """``returnf"…"``: a glued name that ends in a string prefix gives the prefix back."""
    out: list[Token] = []
    for tok in tokens:
        prev = out[-1] if out else None
        if (tok.kind == STRING and not tok.space_before and prev and prev.kind == NAME
                and tok.text[0] in "'\""):
            m = re.search(r"(?<=[A-Za-z_\d])([rRbBuUfF]{1,2})$", prev.text)
            if m and prev.text[:m.start()] and prev.text not in KEYWORDS:
                prev.text = prev.text[:m.start()]
                tok = Token(STRING, m.group(1) + tok.text, False, False)
        out.append(tok)
    return out
