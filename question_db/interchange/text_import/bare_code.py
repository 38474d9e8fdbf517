"""Find code printed without fences in a plain-text paper and fence it.

Papers copied from the web or exported from Word print code as bare lines. This module
finds the runs of such lines and wraps each in a fence, so the importer sends them down
the code path (``code.py``: repair, compile) and never treats them as prose::

    fence_bare_code(text) -> text         # the same text, bare code runs fenced
    code_spans(text) -> [(start, end)]    # the fenced line ranges (0-based, end excluded)

How (one pass, linear in the input):

1. Every line gets a kind from its own text: ``STRONG`` (``def``/``class``/``import``/
   ``from x import``), ``CODE`` (a Python statement that parses on its own once its open
   brackets, strings or block are closed for it; a shell command; a C/CUDA line), ``WEAK``
   (a ``#`` comment), ``MARKER`` (``1.``, ``Q3.``, ``(a)``, ``A.``, ``答案：``,
   ``Answer:``), ``PROSE`` (Chinese outside strings and comments, an English sentence,
   a bullet, a table row, a line that is one inline code span) or ``UNKNOWN``.
2. A run starts at a ``CODE``/``STRONG`` line (with the comments right above it) and goes
   on while lines are code, comments, inside an open bracket, an open triple-quoted string
   (only when it closes within a bounded window) or after a ``\\``; blank lines stay in
   when code follows them; up to two unknown lines stay in when code follows them (or when
   the line above opened a block and they are indented under it). Prose, a marker, an
   existing fence or the end of the text ends it; trailing blank lines are left out.
3. A run is fenced only with two code-like lines or one strong line. The run is compiled
   (AST only, so ``return`` in a snippet is fine) at most three times: whole, and without
   its first or last line when the error sits there and that line is not a strong one.
4. Info string: ``python`` when it compiles or most lines are Python (damaged code, e.g.
   lost indentation, stays Python: ``code_layout`` repairs it); ``bash`` for shell
   commands, ``cuda`` for C with CUDA keywords, ``cpp`` for other C/C++, else ``text``.

``Answer: def f(x):`` is split at the marker: ``Answer:`` stays on its line and the code
starts on the first fenced line. Fenced regions already in the text (```` ``` ```` or
``~~~``) are left exactly as they are; so is everything outside the runs found.

Known limits: formula lines such as ``d = 768 / 12`` are Python (one alone is not fenced,
two in a row are); a ``# Heading`` directly above code (no blank line) is taken as a
comment of that code (``## Heading`` is not); an unknown line (Python 2 ``print x``, a
sentence that is no English sentence by the rules above) between code lines is kept in
the run, at the end of a run it is left out; code printed with line numbers (``1 import
torch``, ``1. import torch``) is not found; a run-on line (newlines lost, see ``code.py``)
is one line and needs to be strong to be fenced.
"""
from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

__all__ = ["code_spans", "fence_bare_code"]

BLANK, MARKER, PROSE, UNKNOWN, WEAK, CODE, STRONG = range(7)
PY, SH, C = "py", "sh", "c"

MAX_BLANKS = 3  # consecutive blank lines a run may keep inside
MAX_PENDING_UNKNOWN = 2  # unknown lines kept between code lines
STRING_WINDOW = 400  # a triple-quoted string must close within this many lines
MAX_LINE = 2000  # longer lines are not parsed (never code a person typed)

_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_OPTION_LETTER = re.compile(r"^\s*([A-H])\s*[.．]\S")

_ANSWER_WORDS = (r"答案|参考答案|正确答案|答|解答|解|Answer|Answers|Ans|Solution|"
                 r"Reference answer|Reference solution|Key")
_ANSWER = re.compile(rf"^\s*(?:\*\*)?(?:{_ANSWER_WORDS})(?:\*\*)?\s*[:：](?:\*\*)?[ \t]*")
_MARKER = re.compile(
    r"^\s*(?:"
    rf"(?:\*\*)?(?:{_ANSWER_WORDS}|解析|分析|说明|Explanation|Analysis|Note|Hint|提示)"
    r"(?:\*\*)?\s*[:：]"
    r"|\d{1,3}\s*[.．、)）](?!\d)"
    r"|[(（]\s*(?:\d{1,2}|[A-Za-z]|[ivxIVX]{1,4})\s*[)）](?=\s|$|[^\x00-\x7f])"
    r"|[A-H]\s*[、．)）]"
    r"|[A-H]\.(?=\s|$|[`*\"'(\[]|[^\x00-\x7f])"
    r"|[A-H]\s*[:：](?=\s|$)"
    r"|Q\d{1,3}(?:\s*[.:：、)）]|\s*$|\s+(?=[A-Z]))"
    r"|(?:Question|Problem|Exercise|Part)\s+\d{1,3}\b"
    r"|第\s*[\d一二三四五六七八九十百]+\s*[题部节章]"
    r"|[一二三四五六七八九十]+\s*[、.．]"
    r")")

_DEF = re.compile(r"^(?:async\s+)?def\s+[A-Za-z_]\w*\s*\(")
_CLASS = re.compile(r"^class\s+[A-Za-z_]\w*\s*(?:\(.*\)\s*)?:")
_NAME_AS = r"[A-Za-z_][\w.]*(?:\s+as\s+[A-Za-z_]\w*)?"
_IMPORT = re.compile(rf"^import\s+{_NAME_AS}(?:\s*,\s*{_NAME_AS})*\s*;?\s*(?:#.*)?$")
_FROM = re.compile(
    r"^from\s+\.*[A-Za-z_][\w.]*\s+import\s+(?:\*|\(|"
    r"[A-Za-z_]\w*(?:\s+as\s+[A-Za-z_]\w*)?(?:\s*,\s*[A-Za-z_]\w*(?:\s+as\s+[A-Za-z_]\w*)?)*"
    r"\s*,?\s*\\?)\s*(?:\)?\s*)?(?:#.*)?$|^from\s+\.+\s+import\s")
_DECORATOR = re.compile(r"^@[A-Za-z_][\w.]*(?:\(.*)?\s*(?:#.*)?$")
_BARE_BLOCK = re.compile(r"^(?:try|else|finally)\s*:\s*(?:#.*)?$")
_PREFIX_IF = re.compile(r"^(?:elif|else)\b")
_PREFIX_TRY = re.compile(r"^(?:except|finally)\b")
_BLOCK_KW = re.compile(r"^(?:async\s+)?(?:def|class|if|elif|for|while|with|except)\b")
_HEADING = re.compile(r"^\s*#{2,6}\s")  # a Markdown heading: not taken as code's comment
_PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")
_INLINE_SPAN = re.compile(r"^`[^`]+`[。.,，;；]?$")
_BULLET = re.compile(r"^(?:[-*+•·]\s|>\s|\|)")
# "The model is ...", "Return the sum", "If x is None:": a capitalised word, then a
# lowercase word (never valid Python unless the second word is a keyword)
_SENTENCE = re.compile(r"^[A-Z][a-z]*'?[a-z]*\s+[a-z]|^[A-Z][a-z]+,\s+[a-z]+\s+[a-z]")
_SENTENCE_OK = re.compile(r"^(?:True|False|None)\b|^[A-Z]\w*\s+(?:and|or|in|is|if|else|for|"
                          r"not)\b")
_WORD = re.compile(r"[A-Za-z][a-z]*[,.;:?!]?$")
_NOT_WORDY = re.compile(r"[=\[\]{}]|[\\,:(]$")
_CODE_PUNCT = re.compile(r"[=()\[\]{}:.,@+\-*/%<>]")
_STATEMENT_KW = re.compile(r"^(?:return|pass|break|continue|raise|yield|assert|del|global|"
                           r"nonlocal|await|lambda|print)\b")

_SHELL = re.compile(
    r"^(?:\$\s+|#\s+(?=sudo|pip|apt))?(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*"
    r"(pip3?|python3?|torchrun|deepspeed|accelerate|conda|mamba|git|nvidia-smi|nvcc|export|"
    r"cd|ls|mkdir|wget|curl|bash|srun|sbatch|docker|huggingface-cli|apt-get|apt|cmake|"
    r"tar|chmod|source|uv|poetry|jupyter|tensorboard|mpirun|nsys|ncu|rocm-smi|kubectl|"
    r"ssh|scp|pytest|make|gcc|g\+\+|clang|echo|rm|cp|mv|cat|unzip|vllm|ollama)"
    r"(?=\s|$)(.*)$")
_SHELL_SUB = {"pip": r"install|uninstall|list|show|freeze|download|wheel|config|cache",
              "conda": r"install|create|activate|deactivate|env|list|remove|update|config",
              "git": r"clone|checkout|pull|push|commit|add|status|log|diff|branch|fetch|"
                     r"reset|submodule|switch|merge|rebase|apply|lfs",
              "apt": r"install|update|upgrade|remove", "docker": r"run|build|pull|push|exec|"
                     r"compose|ps|images|stop|rm", "accelerate": r"launch|config|env",
              "huggingface-cli": r"login|download|upload|whoami", "uv": r"pip|venv|run|sync|"
                     r"add", "poetry": r"install|add|run|shell|build", "make": r"\S*"}
_STOPWORDS = frozenset(  # English words that are no keyword of Python, C or a shell
    "the a an is are was were be been to of it its this that these those with on at by "
    "you we they he she should would will can could must may might then when which what "
    "how why so also than your our their into first before after".split())
_C_HASH = re.compile(r"^#\s*(?:include\s*[<\"]|define\s+\w|pragma\s|ifndef\s|ifdef\s|endif\b|"
                     r"undef\s)")
_C_COMMENT = re.compile(r"^(?://|/\*|\*/|\*\s)")
_C_CLOSE = re.compile(r"^[}\])]+\s*(?:else\b.*\{|while\s*\(.*\)\s*;|[;,)]*)\s*(?://.*)?$")
_C_OPEN = re.compile(r"^(?:.*\)\s*(?:const\s*)?\{|(?:struct|class|namespace|enum|union|else|do|"
                     r"typedef|extern\s+\"C\"|template\s*<[^>]*>)\b.*\{|\{)\s*(?://.*)?$")
_C_STATEMENT = re.compile(r"^[^;]*[=(\[][^;]*;\s*(?://.*)?$|^(?:return\b[^;]*|break|continue|"
                          r"__syncthreads\(\))\s*;\s*(?://.*)?$")
_C_WORDS = re.compile(r"\b(?:__global__|__device__|__host__|__shared__|threadIdx|blockIdx|"
                      r"blockDim|cudaMalloc|cudaMemcpy|<<<)")
_C_TYPES = re.compile(r"^(?:(?:const|static|unsigned|signed|inline|extern|volatile)\s+)*"
                      r"(?:void|int|float|double|char|bool|long|short|size_t|auto|half|"
                      r"__global__|__device__|template|std::\w+|u?int\d+_t)\b")

# the lexer: strings, comments and brackets (enough to know what is inside a string)
_TOKEN = re.compile(
    r"(?P<tq>[rRbBuUfF]{0,2}(?:\"\"\"|'''))"
    r"|(?P<sq>[rRbBuUfF]{0,2}(?:\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?))"
    r"|(?P<com>\#)|(?P<br>[()\[\]{}])")
_LEXY = re.compile(r"[#\"'()\[\]{}]")
_TQ_END = {'"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.S),
           "'''": re.compile(r"(?:[^'\\]|\\.|'(?!''))*'''", re.S)}
_OPEN = {"(": ")", "[": "]", "{": "}"}


@dataclass
class _Lex:
    code: str  # the line outside strings and comments (strings as "")
    triple: str  # '"""' / "'''" when a triple-quoted string is still open, else ""
    stack: str  # open brackets at the end of the line
    backslash: bool  # ends with a line continuation


def _lex(line: str, triple: str = "", stack: str = "") -> _Lex:
    if not triple and _LEXY.search(line) is None:  # no string, comment or bracket
        code = line.rstrip()
        return _Lex(code, "", stack, code.endswith("\\"))
    pos, out = 0, []
    if triple:
        m = _TQ_END[triple].match(line)
        if not m:
            return _Lex("", triple, stack, False)
        pos, triple = m.end(), ""
        out.append('""')
    search = _TOKEN.search
    while True:
        m = search(line, pos)
        if m is None:
            out.append(line[pos:])
            break
        out.append(line[pos:m.start()])
        kind = m.lastgroup
        if kind == "br":
            ch = m.group()
            if ch in _OPEN:
                if len(stack) < 64:
                    stack += ch
            else:  # a closer without its opener only pops what is there
                stack = stack[:-1]
            out.append(ch)
            pos = m.end()
        elif kind == "tq":
            delim = m.group()[-3:]
            end = _TQ_END[delim].match(line, m.end())
            out.append('""')
            if end is None:
                triple = delim
                pos = len(line)
                break
            pos = end.end()
        elif kind == "sq":
            out.append('""')
            pos = m.end()
        else:  # a comment
            break
    code = "".join(out).rstrip()
    return _Lex(code, triple, stack, code.endswith("\\"))


@dataclass
class _Info:
    kind: int
    lang: str = ""
    hard: bool = False  # prose for sure (Chinese, a sentence): ends even a bracket
    lex: _Lex | None = None


def _classify(raw: str) -> _Info:
    s = raw.strip()
    if not s:
        return _Info(BLANK)
    if _MARKER.match(s):
        return _Info(MARKER)
    if s[0] == "#":
        if _C_HASH.match(s):
            return _Info(CODE, C)
        if _SHELL.match(s) and s.startswith("# "):  # a root prompt: "# pip install x"
            return _Info(WEAK, SH)
        return _Info(WEAK, PY)
    if _C_COMMENT.match(s):
        return _Info(WEAK, C)
    if _PROMPT.match(s):
        return _Info(CODE, PY)
    if _INLINE_SPAN.match(s) or len(s) > MAX_LINE:
        return _Info(PROSE)
    lexed = _lex(s)
    if _CJK.search(lexed.code):
        return _Info(PROSE, hard=True, lex=lexed)
    if _SENTENCE.match(s) and not _SENTENCE_OK.match(s):
        return _Info(PROSE, hard=True, lex=lexed)
    if _DEF.match(s) or _CLASS.match(s) or _IMPORT.match(s) or _FROM.match(s):
        return _Info(STRONG, PY, lexed)
    if _DECORATOR.match(s) or _BARE_BLOCK.match(s):
        return _Info(CODE, PY, lexed)
    if s.startswith(('"""', "'''", 'r"""', "r'''", 'f"""')):
        return _Info(CODE, PY, lexed)
    if _python_line(s, lexed):
        return _Info(CODE, PY, lexed)
    if _shell_line(s, lexed):
        return _Info(CODE, SH, lexed)
    if _c_line(s, lexed):
        return _Info(CODE, C, lexed)
    if _BULLET.match(s) or _wordy(lexed.code):
        return _Info(PROSE, lex=lexed)
    return _Info(UNKNOWN, lex=lexed)


def _wordy(s: str) -> bool:
    """Four or more words, mostly plain words, no assignment or brackets, not ending as an
    unfinished line of code: a sentence fragment."""
    if _NOT_WORDY.search(s):
        return False
    words = s.split()
    if len(words) < 4:
        return False
    plain = sum(1 for w in words if _WORD.match(w))
    return plain * 10 >= len(words) * 7


def _python_line(s: str, lexed: _Lex) -> bool:
    """The line is a Python statement: it parses on its own (brackets, a triple-quoted
    string or a block opened on it closed for it) and is not a bare name, tuple, number or
    annotation, which prose also parses as."""
    code = lexed.code
    if not (_CODE_PUNCT.search(code) or _STATEMENT_KW.match(code)):
        return False
    # strings are "" and comments are gone in ``code``: closers cannot land in either
    src = code[:-1] if lexed.backslash else code
    closers = "".join(_OPEN[b] for b in reversed(lexed.stack))
    src += closers
    block = code.endswith(":") or (bool(closers) and _BLOCK_KW.match(code) is not None)
    if block:
        src += ("" if code.endswith(":") else ":") + "\n pass"
    prefixed = False
    if _PREFIX_IF.match(code):
        src, prefixed = "if 1:\n pass\n" + src, True
    elif _PREFIX_TRY.match(code):
        src, prefixed = "try:\n pass\n" + src, True
    elif code.startswith("try") and block:
        src += "\nexcept:\n pass"
    try:
        tree = compile(src, "<line>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, MemoryError, RecursionError, OverflowError):
        return False
    if prefixed or not tree.body:
        return bool(tree.body)
    first = tree.body[0]
    if isinstance(first, ast.Expr):
        value = first.value
        if isinstance(value, (ast.Await, ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(value, ast.Call):
            return False
        # "Adam (2014)": a capitalised word, a space, then a parenthesis
        return not re.match(r"[A-Z]\w*\s+\(", s)
    if isinstance(first, ast.AnnAssign) and first.value is None:
        return False  # "Note: x is None", "Time: O(n)"
    return True


def _shell_line(s: str, lexed: _Lex) -> bool:
    m = _SHELL.match(s)
    if not m:
        return False
    cmd, rest = m.group(1), m.group(2).split()
    words = [w.lower().strip(",.;:") for w in rest]
    if any(w in _STOPWORDS for w in words):
        return False
    if not s.startswith("$") and s.endswith((".", "?", "!")) and not rest[-1:] == ["."]:
        if not rest or not re.search(r"[/\\]|\.\w+$", rest[-1].rstrip(".")):
            return False
    base = cmd.rstrip("3")
    if base in _SHELL_SUB:
        return bool(rest) and re.fullmatch(_SHELL_SUB[base], rest[0]) is not None
    if base == "python":
        return bool(rest) and (rest[0].startswith("-") or rest[0].endswith(".py")
                               or "/" in rest[0])
    if cmd in ("torchrun", "deepspeed", "srun", "mpirun", "nsys", "ncu", "sbatch"):
        return bool(rest) and any(w.startswith("-") or w.endswith((".py", ".sh"))
                                  for w in rest)
    if cmd in ("export",):
        return bool(rest) and "=" in rest[0]
    if cmd in ("cd", "ls", "nvidia-smi", "rocm-smi"):
        return len(rest) <= 3
    return bool(rest) and any(re.search(r"^-|[/=.]", w) for w in rest)


def _c_line(s: str, lexed: _Lex) -> bool:
    if _C_CLOSE.match(s) or _C_OPEN.match(s):
        return True
    words = re.findall(r"[A-Za-z']+", lexed.code)
    if sum(1 for w in words if w.lower() in _STOPWORDS) >= 2:
        return False  # "int main is the entry point of a C program;"
    if _C_WORDS.search(s):
        return True
    if _C_STATEMENT.match(s):
        return not _wordy(s)
    return bool(_C_TYPES.match(s)) and s.endswith((";", "{", ")")) and \
        re.search(r"[=(*&\[]", s) is not None


# --- runs ---------------------------------------------------------------------------------

@dataclass
class _Run:
    start: int  # first line (virtual index)
    end: int  # one past the last line
    lang: str


class _Finder:
    def __init__(self, lines: list[str], fenced: list[bool]):
        self.lines = lines
        self.fenced = fenced
        self.n = len(lines)
        self.info: list[_Info | None] = [None] * self.n
        # the next line (after i) holding each triple quote, not crossing a fence
        self.next_dq = self._next_holding('"""')
        self.next_sq = self._next_holding("'''")

    def _next_holding(self, delim: str) -> list[int]:
        out = [self.n] * (self.n + 1)
        nxt = self.n
        for i in range(self.n - 1, -1, -1):
            out[i + 1] = nxt
            if self.fenced[i]:
                nxt = self.n
            elif delim in self.lines[i]:
                nxt = i
        out[0] = nxt
        return out

    def kind(self, i: int) -> _Info:
        info = self.info[i]
        if info is None:
            info = _classify(self.lines[i])
            if info.kind != MARKER and self._option_line(i):
                info = _Info(MARKER)
            self.info[i] = info
        return info

    def _option_line(self, i: int) -> bool:
        """``A.torch.compile(m)`` over ``B.torch.jit.script(m)``: options A, B, … printed
        without a space read like attribute access; the letters in sequence say options."""
        m = _OPTION_LETTER.match(self.lines[i])
        if not m:
            return False
        letter = m[1]
        for j, step in ((i - 1, -1), (i + 1, 1)):
            if 0 <= j < self.n and (n := _OPTION_LETTER.match(self.lines[j])) and \
                    ord(n[1]) - ord(letter) == step:
                return True
        return False

    def _string_closes(self, i: int, delim: str) -> bool:
        nxt = (self.next_dq if delim == '"""' else self.next_sq)[i + 1]
        return nxt < self.n and nxt - i <= STRING_WINDOW

    def runs(self) -> list[_Run]:
        runs: list[_Run] = []
        i, floor = 0, 0
        while i < self.n:
            if self.fenced[i]:
                i += 1
                floor = i
                continue
            k = self.kind(i).kind
            if k not in (CODE, STRONG):
                i += 1
                continue
            start = i
            while start > floor and not self.fenced[start - 1] and \
                    self.kind(start - 1).kind == WEAK and \
                    not _HEADING.match(self.lines[start - 1]):
                start -= 1
            run, i = self._grow(start, i)
            if run is not None:
                runs.append(run)
            floor = i
        return runs

    def _grow(self, start: int, first_code: int) -> tuple[_Run | None, int]:
        """From ``first_code`` on: the run's last line; returns the run (or None when it is
        too weak) and where to go on scanning."""
        lines, n = self.lines, self.n
        triple, stack, backslash = "", "", False
        last = first_code - 1  # last committed line
        pending_unknown = 0
        code_like, strong = 0, False
        langs: dict[str, int] = {}
        header_above = False  # the last committed line opened a block
        weak_tail = True  # only comments since the last committed line
        j = first_code
        while j < n and not self.fenced[j]:
            line = lines[j]
            if triple:
                lx = _lex(line, triple, stack)
                triple, stack, backslash = lx.triple, lx.stack, lx.backslash
                last, pending_unknown, weak_tail = j, 0, True
                j += 1
                continue
            if stack or backslash:  # inside brackets or after "\": only sure prose ends it
                s = line.strip()
                lx = _lex(s, "", stack)
                if _ANSWER.match(s) or _CJK.search(lx.code) or \
                        (_SENTENCE.match(s) and not _SENTENCE_OK.match(s)):
                    break
                code_like += 1
                triple, stack, backslash = lx.triple, lx.stack, lx.backslash
                if triple and not self._string_closes(j, triple):
                    triple = ""
                header_above = lx.code.endswith(":") and not stack
                last, pending_unknown, weak_tail = j, 0, True
                j += 1
                continue
            info = self.kind(j)
            k = info.kind
            if k in (CODE, STRONG):
                lx = info.lex if info.lex is not None else _lex(line)
                code_like += 1
                strong = strong or k == STRONG
                langs[info.lang] = langs.get(info.lang, 0) + 1
            elif k == WEAK:
                # a comment right under code (or under comments under code) is kept
                if pending_unknown == 0 and weak_tail:
                    last = j
                j += 1
                continue
            elif k == BLANK:
                m = j
                while m < n and m - j < MAX_BLANKS + 1 and not self.fenced[m] and \
                        self.kind(m).kind == BLANK:
                    m += 1
                if m - j > MAX_BLANKS or m >= n or self.fenced[m] or \
                        not self._continues_after_blank(m):
                    break
                j, weak_tail = m, False
                continue
            elif k == UNKNOWN:
                indented = line[:1].isspace()
                if header_above and indented and pending_unknown == 0:
                    lx = info.lex or _lex(line)
                else:
                    pending_unknown += 1
                    weak_tail = False
                    if pending_unknown > MAX_PENDING_UNKNOWN:
                        break
                    # tentative: its brackets still count (an unfinished expression)
                    lx = info.lex or _lex(line)
                    triple, stack, backslash = lx.triple, lx.stack, lx.backslash
                    if triple and not self._string_closes(j, triple):
                        triple = ""
                    j += 1
                    continue
            else:  # PROSE, MARKER
                break
            # commit line j
            triple, stack, backslash = lx.triple, lx.stack, lx.backslash
            if triple and not self._string_closes(j, triple):
                triple = ""
            header_above = lx.code.endswith(":") and not stack
            last, pending_unknown, weak_tail = j, 0, True
            j += 1
        end = last + 1
        if not (strong or code_like >= 2):
            return None, max(end, first_code + 1)
        # comments directly under the last line: keep (already committed by the loop)
        lang = self._language(start, end, langs)
        if lang == "python":
            start, end = self._trim(start, end)
            if end <= start:
                return None, first_code + 1
        return _Run(start, end, lang), end

    def _continues_after_blank(self, m: int) -> bool:
        """After blank lines, the run goes on at line ``m`` when it is code, or comments
        followed by code, or an indented line that is not prose."""
        k = self.kind(m).kind
        if k in (CODE, STRONG):
            return True
        if k == WEAK:
            p = m
            while p < self.n and p - m < 50 and not self.fenced[p] and \
                    self.kind(p).kind == WEAK:
                p += 1
            return p < self.n and not self.fenced[p] and self.kind(p).kind in (CODE, STRONG)
        if k == UNKNOWN and self.lines[m][:1].isspace():
            p = m + 1
            return p < self.n and not self.fenced[p] and self.kind(p).kind in (CODE, STRONG)
        return False

    def _language(self, start: int, end: int, langs: dict[str, int]) -> str:
        py, sh, c = langs.get(PY, 0), langs.get(SH, 0), langs.get(C, 0)
        if c > py and c >= sh:
            text = "\n".join(self.lines[start:end])
            return "cuda" if _C_WORDS.search(text) else "cpp"
        if sh > py:
            return "bash"
        if py:
            return "python"
        return "text"

    def _trim(self, start: int, end: int) -> tuple[int, int]:
        """Compile the run (at most three times): when the whole does not compile and the
        error is on its first or last line, and that line is not a strong one, try without
        it. A run that never compiles is kept whole (damaged code is still code)."""
        ok, lineno = _compiles(self.lines[start:end])
        if ok:
            return start, end
        size = end - start
        if lineno is not None and lineno >= size and size > 2 and \
                self.kind(end - 1).kind not in (STRONG,):
            ok2, _ = _compiles(self.lines[start:end - 1])
            if ok2:
                return start, _strip_blank_end(self.lines, start, end - 1)
        if lineno == 1 and size > 2 and self.kind(start).kind not in (STRONG,):
            ok3, _ = _compiles(self.lines[start + 1:end])
            if ok3:
                s = start + 1
                while s < end and not self.lines[s].strip():
                    s += 1
                return s, end
        return start, end


def _strip_blank_end(lines: list[str], start: int, end: int) -> int:
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _dedent(lines: list[str]) -> str:
    width = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return "\n".join(x[width:] for x in lines)


def _compiles(lines: list[str]) -> tuple[bool, int | None]:
    """Does the run compile (to an AST: ``return`` outside a function is fine in a
    snippet)? The line of the error when not."""
    src = _dedent([x.replace("\xa0", " ") for x in lines])  # web copies indent with nbsp
    try:
        compile(src, "<run>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return False, exc.lineno
    except (ValueError, MemoryError, RecursionError, OverflowError):
        return False, None
    return True, None


# --- the text -----------------------------------------------------------------------------

def _fenced_mask(lines: list[str]) -> list[bool]:
    """Lines inside (or opening/closing) a fence already in the text."""
    mask = [False] * len(lines)
    i, n = 0, len(lines)
    while i < n:
        m = _FENCE.match(lines[i])
        if m is None or (m.group(1)[0] == "`" and "`" in m.group(2)):
            i += 1
            continue
        marker = m.group(1)
        mask[i] = True
        i += 1
        while i < n:
            mask[i] = True
            close = _FENCE.match(lines[i])
            i += 1
            if close and close.group(1)[0] == marker[0] and \
                    len(close.group(1)) >= len(marker) and not close.group(2).strip():
                break
    return mask


@dataclass
class _Virtual:
    lines: list[str]  # analysed lines ("\r" removed)
    origin: list[int]  # input line of each
    split: list[bool]  # the line is the code half of an "Answer: code" line
    ends: list[str]  # "\r" where the input line had one
    fenced: list[bool]  # inside a fence already in the text


def _split_answers(raw: list[str], fenced: list[bool]) -> _Virtual:
    v = _Virtual([], [], [], [], [])
    for i, line in enumerate(raw):
        end = "\r" if line.endswith("\r") else ""
        body = line[:-1] if end else line
        cut = -1
        if not fenced[i]:
            m = _ANSWER.match(body)
            if m and m.end() < len(body.rstrip()):
                rest = body[m.end():]
                if _classify(rest).kind in (CODE, STRONG):
                    cut = m.end()
        if cut >= 0:
            v.lines += [body[:cut], body[cut:]]
            v.origin += [i, i]
            v.split += [False, True]
            v.ends += [end, end]
            v.fenced += [False, False]
        else:
            v.lines.append(body)
            v.origin.append(i)
            v.split.append(False)
            v.ends.append(end)
            v.fenced.append(fenced[i])
    return v


def _find(text: str) -> tuple[_Virtual, list[_Run]]:
    raw = text.split("\n")
    fenced = _fenced_mask([x.rstrip("\r") for x in raw])
    v = _split_answers(raw, fenced)
    with warnings.catch_warnings():  # invalid escapes, "'int' is not callable": not errors
        warnings.simplefilter("ignore")
        finder = _Finder(v.lines, v.fenced)
        runs = finder.runs()
    return v, runs


def code_spans(text: str) -> list[tuple[int, int]]:
    """The input line ranges ``(start, end)`` (0-based, ``end`` excluded; lines as
    ``text.split("\\n")``) that ``fence_bare_code`` fences. A run that starts after an
    ``Answer:`` marker on the same line starts at that line."""
    v, runs = _find(text)
    return [(v.origin[r.start], v.origin[r.end - 1] + 1) for r in runs]


def fence_bare_code(text: str) -> str:
    """``text`` with every run of bare code lines fenced (```` ```python ````,
    ```` ```bash ````, ```` ```cpp ````, ```` ```cuda ```` or ```` ```text ````); fenced
    regions already there and everything else are unchanged."""
    v, runs = _find(text)
    if not runs:
        return text
    opening = {r.start: r for r in runs}
    closing = {r.end - 1 for r in runs}
    out: list[str] = []
    i, n = 0, len(v.lines)
    while i < n:
        line = v.lines[i] + v.ends[i]
        if v.split[i] and i not in opening:  # not fenced: join the answer line back
            out[-1] = v.lines[i - 1] + line
            i += 1
            continue
        if i + 1 < n and v.split[i + 1] and i + 1 in opening:  # "Answer:" before the code
            line = v.lines[i].rstrip() + v.ends[i]
        if i in opening:
            out.append("```" + opening[i].lang + v.ends[i])
        out.append(line)
        if i in closing:
            out.append("```" + v.ends[i])
        i += 1
    return "\n".join(out)
