"""Code found in a damaged paper: re-typeset it, compile it, flag what was likely lost.

``repair_python`` takes a block as extracted (often one run-on line: no spaces, no
newlines, no ``#``, no ``-``/``*``/``**``) and returns it re-typeset (``code_parse`` splits
the statements, ``code_layout`` indents and spaces them), whether it compiles, and a
``Finding`` for every place where an operator or a sign was probably deleted. Nothing is
guessed silently: a suspicious spot is left as printed and reported.

Code that still has its line structure (a clean ``.md`` or ``.docx``) is only dedented,
re-spaced through ``tokenize`` when that is safe, and compiled.
"""
from __future__ import annotations

import io
import re
import textwrap
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass, field

from .code_layout import layout
from .code_lexer import lex
from .code_parse import CodeParser, Finding
from .prose import repair_compile_calls

KNOWN_LANGUAGES = ("python3", "python", "py", "bash", "shell", "sh", "console", "json",
                   "yaml", "toml", "text", "cpp", "c++", "c", "cuda", "java", "javascript",
                   "js", "sql", "ini", "plaintext")
PYTHON = ("python3", "python", "py")


@dataclass
class CodeResult:
    text: str  # the re-typeset code (ends with a newline)
    language: str
    compiles: bool | None  # None: not Python, not compiled
    error: str = ""  # the compiler's message, with the line, when it does not compile
    findings: list[Finding] = field(default_factory=list)
    truncated: bool = False  # the source was cut off inside this block


def split_language(info_and_code: str) -> tuple[str, str]:
    """```` ```pythonimporttorch```` lost the newline after the language tag: take the
    longest known tag the block starts with."""
    head = info_and_code.split("\n", 1)
    first = head[0].strip()
    if len(head) == 2 and first.isalnum() and first.lower() in KNOWN_LANGUAGES:
        return first.lower(), head[1]
    low = info_and_code.lower()
    for lang in KNOWN_LANGUAGES:
        if low.startswith(lang) and len(info_and_code) > len(lang):
            rest = info_and_code[len(lang):]
            if not rest[0].isalnum() or lang in PYTHON + ("bash", "shell", "sh"):
                return lang, rest
    return "", info_and_code


def looks_glued(source: str) -> bool:
    """One run-on line of code (the extraction removed every newline)."""
    body = source.strip()
    if "\n" not in body:
        return len(body) > 40 or (" " not in body and len(body) > 8)
    return body.count("\n") * 120 < len(body) and len(body) > 400


def repair_python(source: str, *, vocabulary: Counter | None = None) -> CodeResult:
    """``vocabulary``: name counts over all the paper's code (this block included), so a
    name glued here but written whole in another block still splits."""
    source, _ = repair_compile_calls(source)
    if looks_glued(source):
        parser = CodeParser(lex(source.strip()), vocabulary=vocabulary)
        statements = parser.parse()
        truncated = bool(statements) and statements[-1].open_brackets > 0
        cut = ""
        if truncated:
            cut_statement = statements.pop()
            from .code_layout import render
            cut = render(cut_statement.pieces)
        lay = layout(statements)
        lines = lay.lines
        if truncated:
            indent = _last_indent(lines)
            lines = lines + [f"{indent}# [cut off here in the source, inside:] {cut}"]
        text = "\n".join(lines).rstrip() + "\n"
        findings = list(parser.findings)
        if lay.guessed:
            findings.append(Finding(
                "indentation", "; ".join(lay.guessed[:6]) + (" …" if len(lay.guessed) > 6
                                                             else ""),
                "the line breaks were lost, so where these blocks end was inferred "
                "(one statement for if/else/with; a loop lasts while its lines use the "
                "loop's names): check the indentation"))
        if truncated:
            findings.append(Finding("truncated", cut, "the source is cut off inside this "
                                    "statement; it is kept as a comment"))
    else:
        text = textwrap.dedent(source).strip("\n") + "\n"
        text = _respace(text)
        findings, truncated = [], False
    findings += operator_findings(text)
    compiles, error = compile_check(text)
    if not compiles:
        findings.append(Finding("does_not_compile", error,
                                "the re-typeset code does not compile; repair the line named"))
    return CodeResult(text, "python", compiles, error, _dedupe(findings), truncated)


def repair_block(language: str, source: str, *, vocabulary: Counter | None = None
                 ) -> CodeResult:
    """Any fenced block: Python is repaired and compiled; other languages are kept."""
    if language in PYTHON or (not language and _pythonish(source)):
        return repair_python(source, vocabulary=vocabulary)
    text = source.strip("\n") + "\n"
    findings = []
    if looks_glued(text) or (" " not in text.strip() and len(text) > 20):
        findings.append(Finding("lost_whitespace", text.strip()[:80],
                                f"the spaces of this {language or 'code'} block were lost "
                                f"(options like `--flag` may have lost their dashes too)"))
    return CodeResult(text, language, None, "", findings)


def _pythonish(source: str) -> bool:
    return bool(re.match(r"\s*(import\w|from\w+(\.\w+)*import|def\w+\(|class\w+[(:]|"
                         r"import |from \w|def |class )", source))


def _last_indent(lines: list[str]) -> str:
    for line in reversed(lines):
        if line.strip():
            indent = line[:len(line) - len(line.lstrip())]
            return indent + ("    " if line.rstrip().endswith(":") else "")
    return ""


def compile_check(text: str) -> tuple[bool, str]:
    try:
        with warnings.catch_warnings():  # "'int' object is not callable": flagged already
            warnings.simplefilter("ignore")
            compile(text, "<code>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = (exc.text or "").strip()
        return False, f"line {exc.lineno}: {exc.msg}" + (f" ({line})" if line else "")
    except ValueError as exc:  # e.g. null bytes
        return False, str(exc)
    return True, ""


def _respace(text: str) -> str:
    """Code that kept its lines: only checked by ``tokenize``; if it does not tokenize it
    is returned unchanged (a person sees the compile error)."""
    try:
        list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    return text


# --- deleted operators and signs, found in the re-typeset text ---------------------------
_SMALL_NAMES = r"(?:eps|epsilon|lr|learning_rate|tol|atol|rtol|weight_decay|wd|min_lr|delta)"
_POSITIVE_SMALL = re.compile(rf"\b({_SMALL_NAMES})\s*=\s*(\d+(?:\.\d+)?[eE]\+?(\d+))\b")
_MASK_FILL = re.compile(r"masked_fill_?\(([^,()]+(?:\([^()]*\))?[^,()]*),\s*(\d[\d.]*[eE]\+?\d+"
                        r"|float\(['\"]inf['\"]\)|\d{4,})\s*\)")
_SHAPE_ARG = re.compile(r"\.(reshape|view)\(\s*(\w+(?:\.\w+)*\.(?:shape|size\(\))\s*\[[^\]]*\])")
_DIM_ONE = re.compile(r"\b(softmax|log_softmax|mean|var|std|norm|logsumexp)\((?:[^()]*,\s*)?"
                      r"(?:dim\s*=\s*)?(1)\s*(?:,[^()]*)?\)")
_EINSUM = re.compile(r"einsum\(\s*(['\"])([^'\"]*[^-'\"]>[^'\"]*)\1")
_NUMBER_CALL = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\(")
_NUMBER_NAME = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([A-Za-z_]\w*)")
_ANNOTATION_ONLY = re.compile(r"^\s*(\w+)\s*:\s*(\[[^\]=]*\])\s*$", re.M)
_SHAPE_SUBSCRIPT = re.compile(r"(\)|\])(\[\s*\w+\s*,\s*\w+(?:\s*//\s*\d+)?\s*\])\s*$", re.M)


def _small(m: re.Match) -> str:
    mantissa = m[2][:m[2].lower().index("e") + 1]
    return (f"{m[1]} = {m[2]} is huge for a {m[1]}: probably {mantissa}-{m[3]} with the “-” "
            f"lost")


# (kind, pattern, why) — ``why`` formats the match; each rule is a spot usually printed
# with a sign or an operator the extraction drops
_RULES = (
    ("deleted_operator", _POSITIVE_SMALL, _small),
    ("deleted_operator", _MASK_FILL,
     lambda m: "masking with a large positive value: usually -1e9 / -inf (a lost “-”), so "
               "masked positions get zero attention"),
    ("deleted_operator", _SHAPE_ARG,
     lambda m: f"a shape slice passed as one argument to {m[1]}(): usually *x.shape[:-1] "
               f"(lost “*” and “-”), and a following 1 may be -1"),
    ("deleted_operator", _DIM_ONE,
     lambda m: f"{m[1]} over dim 1: often dim=-1 (the last dimension) with the “-” lost"),
    ("deleted_operator", _EINSUM,
     lambda m: "an einsum equation with “>” but no “->”: the “-” was lost"),
    ("deleted_operator", _NUMBER_CALL,
     lambda m: f"a number called like a function: “{m[1]} ** (” or “{m[1]} * (” with the "
               f"operator lost"),
    ("deleted_operator", _NUMBER_NAME,
     lambda m: "" if re.fullmatch(r"[eEjJ]\d*|_\w*", m[2]) else
     f"“{m[1]}” glued to “{m[2]}”: an operator between them was probably lost"),
    ("lost_comment", _ANNOTATION_ONLY,
     lambda m: f"a bare annotation “{m[1]}: {m[2]}” is probably a comment whose “#” was lost "
               f"(e.g. “# {m[1]}: {m[2]}”)"),
    ("lost_comment", _SHAPE_SUBSCRIPT,
     lambda m: f"“{m[2]}” at the end of a line may be a shape comment whose “#” was lost, "
               f"not a subscript"),
)


def operator_findings(text: str) -> list[Finding]:
    """The rules above over the final code: signs and operators that are usually there."""
    out: list[Finding] = []
    for kind, pattern, why in _RULES:
        for m in pattern.finditer(text):
            reason = why(m)
            if reason:
                shown = m[2] if pattern is _SHAPE_SUBSCRIPT else m.group(0).strip()
                out.append(Finding(kind, shown, reason))
    return out


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.kind, f.text)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
