"""Split run-on Python (no spaces, no newlines) back into statements.

``importtorch,torch.nnasnnclassRMSNorm(nn.Module):def__init__(self,d):`` has lost every
separator, so a name token may hold several words: ``nnasnn`` is ``nn as nn``,
``epsdefforward`` is ``eps`` + a new statement ``def forward``. The parser walks the tokens
with Python's statement grammar and decides where a glued name splits from:

- keywords where the grammar expects them (``for … in … :``, ``def NAME(``, ``import … as``),
- names the code itself attests (a whole token elsewhere, a parameter, an assignment
  target), so ``n_headsself.qkv=`` becomes ``n_heads`` / ``self.qkv = …``.

Two attested names glued inside an expression (``xq_freqs_cis``, ``xtorch.rsqrt``) are an
operator the extraction deleted: the text is kept as printed and a ``Finding`` says where,
never a guessed operator.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .code_lexer import BASE_NAMES, COMMENT, ERROR, KEYWORDS, NAME, NUMBER, OP, STRING, Token

KW, SPACE_KW = "KW", {"in", "is", "not", "and", "or", "if", "else", "for", "as", "from",
                      "lambda", "import", "return", "yield", "await", "del", "assert",
                      "raise", "global", "nonlocal", "while", "with", "elif", "except"}
STATEMENT_KEYWORDS = ("nonlocal", "continue", "finally", "global", "import", "assert",
                      "return", "except", "lambda", "class", "while", "raise", "yield",
                      "break", "while", "from", "with", "elif", "else", "pass", "def", "for",
                      "del", "try", "if")
HEADER_KEYWORDS = {"if", "elif", "else", "for", "while", "with", "try", "except", "finally",
                   "def", "class"}
INFIX = ("not", "and", "in", "is", "or", "if", "else", "for")
LITERALS = ("None", "True", "False")
AUGMENTED = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", ">>=", "<<="}
# calls that make sense as a statement of their own (their value is not the point)
SIDE_EFFECT_CALLS = frozenset("""print backward step zero_grad barrier all_reduce all_gather
reduce_scatter broadcast send recv init_process_group destroy_process_group set_device
manual_seed seed register_buffer register_parameter register_forward_hook register_hook append
extend insert update add remove pop clear write save load_state_dict train eval apply run start
join wait close sleep info debug warning error log exit main fit sort shuffle mkdir makedirs
synchronize empty_cache record plot show savefig add_module assert_close assertEqual
set_seed seed_everything requires_grad_ setattr delattr""".split())
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
# a statement keyword glued inside a name ("x2cosreturnx_rot"): a statement ends there
_GLUED_STATEMENT = re.compile(r"return|def|class|import|assert|raise|continue|break|yield|"
                              r"while|elif|else|except|finally")
_NUMBER_TAIL = re.compile(r"\d+(?:e\d+)?")
_DIGITS = re.compile(r"^(.*[A-Za-z_])(\d+)$")


@dataclass
class Piece:
    kind: str  # NAME, KW, NUMBER, STRING, OP, COMMENT, ERROR
    text: str
    role: str = ""  # unary, kwarg, assign, slice, annot, decorator, glued, call, subscript


@dataclass
class Statement:
    keyword: str = ""  # the leading keyword, "@" for a decorator, "" for an expression
    pieces: list[Piece] = field(default_factory=list)
    header: bool = False  # ends with ':' and opens a block
    comment: str = ""  # a comment line (no pieces)
    assigns: bool = False
    annotated: bool = False
    open_brackets: int = 0  # > 0: the source ended inside this statement
    glued_names: set[str] = field(default_factory=set)

    def names(self) -> set[str]:
        """Names used, including those inside a glued token (``beta1state``)."""
        return {p.text for p in self.pieces if p.kind == NAME} | self.glued_names

    def first_param(self) -> str:
        for i, p in enumerate(self.pieces):
            if p.text == "(":
                nxt = self.pieces[i + 1] if i + 1 < len(self.pieces) else None
                return nxt.text if nxt and nxt.kind == NAME else ""
        return ""


@dataclass
class Finding:
    """Something in the code a person must look at (becomes a review flag)."""

    kind: str
    text: str
    why: str


class CodeParser:
    def __init__(self, tokens: list[Token], *, vocabulary: Counter | None = None):
        self.toks = tokens
        self.i = 0
        self.off = 0
        self.vocab: Counter[str] = vocabulary if vocabulary is not None else Counter(
            t.text for t in tokens if t.kind == NAME)
        self.defined: set[str] = set()  # names the code binds: defs, params, targets, aliases
        self.numeric: set[str] = set()  # names bound to a number literal (theta=10000.0)
        self.functions: set[str] = set()
        self.findings: list[Finding] = []
        self.glued_parts: dict[str, set[str]] = {}  # "beta1state" -> {"beta1", "state"}
        self.statements: list[Statement] = []
        self.st = Statement()
        self.stack: list[str] = []

    # --- cursor ---------------------------------------------------------------------------
    def tok(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if 0 <= j < len(self.toks) else None

    def rest(self) -> str:
        t = self.tok()
        return t.text[self.off:] if t else ""

    def advance(self, n: int | None = None) -> str:
        """Consume ``n`` characters of the current token (all of it by default)."""
        t = self.toks[self.i]
        text = t.text[self.off:] if n is None else t.text[self.off:self.off + n]
        self.off += len(text)
        if self.off >= len(t.text):
            self.i += 1
            self.off = 0
        return text

    def ahead(self, start: int = 1, limit: int = 200):
        """``(k, token, depth)`` for the tokens after the cursor, ``depth`` counted before
        the token (an opening bracket is at the depth outside it); stops at the end."""
        depth = 0
        for k in range(start, limit):
            t = self.tok(k)
            if t is None:
                return
            if t.kind == OP and t.text in ")]}":
                depth -= 1
            yield k, t, depth
            if t.kind == OP and t.text in "([{":
                depth += 1

    def next_text(self) -> str:
        """Text of the token after the current one (the current may be partly consumed)."""
        t = self.tok(1)
        return t.text if t else ""

    def at_end(self) -> bool:
        return self.i >= len(self.toks)

    def fresh(self) -> bool:
        """At the start of a token (not inside a split name)."""
        return self.off == 0

    # --- vocabulary -----------------------------------------------------------------------
    def strong(self, word: str) -> bool:
        """A base name or one the code binds (a def, a parameter, a target, an alias)."""
        return word in BASE_NAMES or word in self.defined or word in LITERALS

    def known(self, word: str, *, whole: str = "") -> bool:
        """Attested: strong, or a whole token elsewhere (glued tokens can repeat, so a
        count is weaker evidence than a binding)."""
        if not word or not _IDENT.match(word):
            return False
        if self.strong(word):
            return True
        return self.vocab[word] >= (2 if word == whole else 1)

    def starts_known(self, text: str) -> bool:
        if not text:
            return False
        if text[0].isdigit():
            return True  # "return1": a keyword and a number
        if self.known(text) or any(text.startswith(k) and len(k) > 1 for k in KEYWORDS):
            return True
        if text[0] in self.defined or self.vocab_split(text):
            return True
        words = set(self.vocab) | self.defined | BASE_NAMES
        return any(len(w) > 1 and text.startswith(w) for w in words)

    def vocab_split(self, text: str, *, short: bool = False) -> list[str] | None:
        """``text`` as two or more attested names (fewest pieces), or None. A one-letter
        piece must be bound by the code (``short``: or merely attested)."""
        n = len(text)
        best: list[list[str] | None] = [None] * (n + 1)
        best[0] = []
        for end in range(1, n + 1):
            for start in range(end):
                prev = best[start]
                if prev is None:
                    continue
                word = text[start:end]
                if word == text:
                    continue
                ok = self.known(word, whole=text) and (
                    len(word) > 1 or word in self.defined or (short and self.vocab[word]))
                if start and not ok and _NUMBER_TAIL.fullmatch(word) and end == n and \
                        text[:start] in self.defined:
                    ok = True  # world_size1, x1e9: a bound name and a number
                if ok and (best[end] is None or len(prev) + 1 < len(best[end])):
                    best[end] = prev + [word]
        pieces = best[n]
        return pieces if pieces and len(pieces) > 1 else None

    def bind(self, name: str) -> None:
        if name and _IDENT.match(name) and name not in KEYWORDS:
            self.defined.add(name)

    # --- output ---------------------------------------------------------------------------
    def emit(self, kind: str, text: str, role: str = "") -> Piece:
        piece = Piece(kind, text, role)
        self.st.pieces.append(piece)
        return piece

    def finish(self, **kw) -> None:
        st = self.st
        for key, value in kw.items():
            setattr(st, key, value)
        st.open_brackets = len(self.stack)
        for p in st.pieces:
            st.glued_names |= self.glued_parts.get(p.text, set())
        if st.pieces or st.comment:
            self.statements.append(st)
        self.st = Statement()
        self.stack = []

    def find(self, kind: str, text: str, why: str) -> None:
        self.findings.append(Finding(kind, text, why))

    # --- statements -----------------------------------------------------------------------
    def parse(self) -> list[Statement]:
        while not self.at_end():
            t = self.tok()
            if t.kind == COMMENT and self.fresh():
                self.advance()
                self.st.comment = t.text + self.comment_tail()
                self.finish()
                continue
            if t.kind == OP and t.text == ";":
                self.advance()
                continue
            start = (self.i, self.off)
            self.statement()
            if (self.i, self.off) == start:  # nothing consumed: never loop forever
                self.emit(t.kind, self.advance())
                self.finish()
        return self.statements

    def comment_tail(self) -> str:
        """The ASCII end of a comment whose line break was lost: ``…当前rank`` glued to
        ``dist.all_reduce(…)``, ``更新m,v`` glued to ``m,v=state['m'],…``. Taken only where the
        cut leaves a statement that assigns or calls for its effect."""
        for k in range(0, 8):
            t = self.tok(k)
            if t is None or t.kind not in (NAME, OP) or (t.kind == OP and t.text != ","):
                return ""
            if t.kind != NAME or self.known(t.text, whole=t.text):
                continue
            split = self.vocab_split(t.text, short=True)
            if not split:
                return ""
            saved = (self.i, self.off)
            self.i, self.off = saved[0] + k, len(split[0])
            follows = self.statement_follows(t.text[len(split[0]):])
            self.i, self.off = saved
            if not follows:
                return ""
            tail = "".join(self.toks[saved[0] + j].text for j in range(k)) + split[0]
            for _ in range(k):
                self.advance()
            self.advance(len(split[0]))
            return tail
        return ""

    def statement(self) -> None:
        t = self.tok()
        if t.kind == OP and t.text == "@":
            self.emit(OP, self.advance(), "decorator")
            self.expression(ends_at_colon=False)
            self.finish(keyword="@")
            return
        kw = self.leading_keyword() if t.kind == NAME else ""
        if not kw:
            self.expression(ends_at_colon=False, statement_start=True)
            self.finish(assigns=self.st.assigns)
            return
        self.emit(KW, self.advance(len(kw)))
        if kw in ("def", "class"):
            name = self.take_identifier()
            self.bind(name)
            if kw == "def":
                self.functions.add(name)
            self.emit(NAME, name, "defname")
            self.expression(ends_at_colon=True, params=kw == "def")
            self.close_header(kw)
        elif kw == "for":
            self.expression(ends_at_colon=True, stop="in", binds=True)
            if self.rest().startswith("in"):
                self.emit(KW, self.advance(2))
            self.expression(ends_at_colon=True)
            self.close_header(kw)
        elif kw in ("if", "elif", "while", "with", "except"):
            self.expression(ends_at_colon=True, binds_after_as=True)
            self.close_header(kw)
        elif kw in ("else", "try", "finally"):
            self.close_header(kw)
        elif kw == "import":
            self.import_names()
            self.finish(keyword=kw)
        elif kw == "from":
            self.dotted_module(until_import=True)
            if self.rest().startswith("import"):
                self.emit(KW, self.advance(6))
                self.import_names()
            self.finish(keyword=kw)
        elif kw in ("pass", "break", "continue"):
            self.finish(keyword=kw)
        elif kw in ("global", "nonlocal"):
            self.bind(self.take_identifier_or_empty())
            self.finish(keyword=kw)
        else:  # return, raise, assert, del, yield, lambda
            self.expression(ends_at_colon=False)
            self.finish(keyword=kw)

    def close_header(self, kw: str) -> None:
        if not self.at_end() and self.tok().kind == OP and self.tok().text == ":" \
                and self.fresh():
            self.emit(OP, self.advance(), "header")
            self.finish(keyword=kw, header=True)
        else:
            self.finish(keyword=kw, header=False)

    def take_identifier(self) -> str:
        if self.at_end():
            return ""
        if self.rest() and self.tok().kind == NAME:
            return self.advance()
        return ""

    def take_identifier_or_empty(self) -> str:
        name = self.take_identifier()
        if name:
            self.emit(NAME, name)
        return name

    def leading_keyword(self) -> str:
        s = self.rest()
        for kw in STATEMENT_KEYWORDS:
            if not s.startswith(kw):
                continue
            q = s[len(kw):]
            if self.keyword_fits(kw, q, statement_start=True):
                return kw
        return ""

    def keyword_fits(self, kw: str, q: str, *, statement_start: bool) -> bool:
        """May ``kw`` begin here, followed by the rest ``q`` of this token?"""
        nxt = self.next_text()
        nxt_kind = self.tok(1).kind if self.tok(1) else ""
        atom_next = nxt_kind in (NAME, NUMBER, STRING) or nxt in ("(", "[", "{", "-", "~",
                                                                 "*", "**")
        if kw in ("def", "class") and not q:
            after = self.tok(2).text if self.tok(2) else ""
            return nxt_kind == NAME and (after == "(" or (kw == "class" and after == ":"))
        if kw == "def":
            return bool(_IDENT.match(q)) and nxt == "("
        if kw == "class":
            return bool(_IDENT.match(q)) and nxt in ("(", ":")
        if kw in ("else", "try", "finally"):
            return not q and nxt == ":"
        if kw == "lambda":
            return statement_start is False and (not q or not q.startswith("_"))
        if kw in ("pass", "break", "continue"):
            return not q or self.starts_known(q)
        if kw == "import":
            return (bool(q) or nxt_kind == NAME) and (
                nxt not in ("=", "(", "[") or any(self.stop_inside(q[j:])
                                                  for j in range(1, len(q))))
        if kw == "from":
            return (bool(q) or nxt_kind == NAME) and self.import_ahead(q)
        if kw in ("global", "nonlocal"):
            return bool(q) and nxt not in ("=", ".", "(")
        if kw in ("return", "raise", "assert", "del", "yield"):
            if nxt in AUGMENTED or (nxt == "=" and q):
                return False
            return (not q and (atom_next or nxt in (")", "]", ":", ""))) or \
                self.starts_known(q)
        if kw == "for":
            return self.for_header_ahead(q)
        if kw in ("if", "elif", "while", "with", "except"):
            if q and not self.starts_known(q):
                return False
            if not q and not atom_next:
                return kw == "except" and nxt == ":"
            return self.header_ahead(need_in=False, q=q)
        return False

    def import_ahead(self, q: str) -> bool:
        if "import" in q:
            return True
        for k in range(1, 12):
            t = self.tok(k)
            if t is None or (t.kind == OP and t.text not in (".",)):
                return False
            if t.kind == NAME and "import" in t.text:
                return True
        return False

    def for_header_ahead(self, q: str) -> bool:
        """``for`` + target names + ``in`` (perhaps glued: ``forpingroup``) + … + ``:``."""
        if "in" in q[1:]:
            return self.header_ahead(need_in=False, q=q)
        if q and not _IDENT.match(q):
            return False
        for k in range(1, 20):
            t = self.tok(k)
            if t is None or t.kind not in (NAME, OP) or (
                    t.kind == OP and t.text not in (",", "(", ")", "[", "]")):
                return False
            if t.kind == NAME and ("in" in t.text[1:] or t.text.startswith("in")):
                return self.header_ahead(need_in=False, q=q)
        return False

    def header_ahead(self, *, need_in: bool, q: str) -> bool:
        """A ':' at depth 0 follows before any assignment, so this is a block header."""
        seen_in = "in" in q[1:]
        for _, t, depth in self.ahead():
            if t.kind == COMMENT:
                return False
            if depth or t.kind not in (OP, NAME):
                continue
            if t.kind == NAME:
                seen_in = seen_in or "in" in t.text
            elif t.text == ":":
                return seen_in or not need_in
            elif t.text == "=" or t.text in AUGMENTED or t.text == ";":
                return False
        return False

    # --- imports --------------------------------------------------------------------------
    def dotted_module(self, *, until_import: bool) -> None:
        """``torch.distributed.fsdp`` up to ``import`` (which may be glued to it)."""
        while not self.at_end():
            t = self.tok()
            if t.kind == OP and t.text == "." and self.fresh():
                self.emit(OP, self.advance())
                continue
            if t.kind != NAME:
                return
            s = self.rest()
            j = s.find("import", 1) if until_import else -1
            if until_import and s.startswith("import") and self.st.pieces[-1].text != ".":
                return
            if j > 0:
                self.emit(NAME, self.advance(j))
                return
            self.emit(NAME, self.advance())
            nxt = self.tok()
            if nxt is None or not (nxt.kind == OP and nxt.text == "."):
                return

    def import_names(self) -> None:
        """``a.b as c, d`` (or ``x as y, z`` after ``from … import``); a glued new statement
        ends the list."""
        while not self.at_end():
            t = self.tok()
            if t.kind == OP and t.text in (".", ",", "(", ")", "*") and self.fresh():
                self.emit(OP, self.advance())
                continue
            if t.kind != NAME:
                return
            s = self.rest()
            cut, after = self.import_cut(s)
            if cut:
                self.emit(NAME, self.advance(cut))
                self.bind(self.st.pieces[-1].text)
            if after == "as":
                self.emit(KW, self.advance(2))
                alias, _ = self.import_cut(self.rest(), alias=True)
                alias = self.advance(alias) if alias else ""
                self.emit(NAME, alias)
                self.bind(alias)
                if not self.at_end() and self.fresh() and self.tok().kind == OP \
                        and self.tok().text == ",":
                    continue
                if not self.at_end() and not self.fresh():
                    return  # a new statement is glued to the alias
                continue
            if after == "stop":
                return
            nxt = self.tok()
            if nxt is None or not (nxt.kind == OP and nxt.text in (".", ",")) or \
                    not self.fresh():
                return

    def import_cut(self, s: str, *, alias: bool = False) -> tuple[int, str]:
        """Length of the module/alias name at the start of ``s`` and what follows it:
        ``as``, ``stop`` (a new statement is glued on) or ``""`` (the token ends)."""
        nxt = self.next_text()
        stops = [j for j in range(1, len(s)) if self.stop_inside(s[j:])]
        first_stop = stops[0] if stops else len(s)
        if not alias:
            for j in range(1, first_stop):
                if s.startswith("as", j) and (j + 2 < first_stop or (
                        j + 2 == len(s) and self.tok(1) and self.tok(1).kind == NAME)):
                    alias_region = s[j + 2:first_stop] or self.next_text()
                    if "." in [p.text for p in self.st.pieces[-1:]] or self.known(s[:j]) \
                            or self.known(alias_region):
                        return j, "as"
        if stops:
            return first_stop, "stop"
        if nxt == "=" or nxt in AUGMENTED:
            split = self.vocab_split(s)
            if split:
                return len(split[0]), "stop"
            m = re.search(r"(?<=[A-Z0-9])(?=[a-z_][a-z0-9_]*$)", s)
            if m and m.start() > 0:
                return m.start(), "stop"  # LlamaForCausalLM|config: a class, then a variable
        return len(s), ""

    def stop_inside(self, q: str) -> bool:
        kw = next((k for k in STATEMENT_KEYWORDS if q.startswith(k)), "")
        return bool(kw) and self.keyword_fits_inside(kw, q[len(kw):])

    def keyword_fits_inside(self, kw: str, q: str) -> bool:
        if kw == "import" and q and any(self.stop_inside(q[j:]) for j in range(1, len(q))):
            return True
        if kw in ("def", "class", "from", "import"):
            return self.keyword_fits(kw, q, statement_start=True)
        if kw in ("for", "if", "while", "with", "return", "assert", "raise", "del"):
            return self.starts_known(q) and self.keyword_fits(kw, q, statement_start=True)
        if kw in ("pass", "break", "continue"):
            return not q or self.starts_known(q)
        return False

    # --- expressions ----------------------------------------------------------------------
    def expression(self, *, ends_at_colon: bool, stop: str = "", statement_start: bool = False,
                   params: bool = False, binds: bool = False, binds_after_as: bool = False
                   ) -> str:
        """Consume one expression (or assignment) up to a statement boundary; returns why
        it stopped: colon, stop, boundary, comment, end."""
        expect_atom = True
        in_conditional = 0
        after_as = False
        first_target = statement_start
        while not self.at_end():
            t = self.tok()
            depth = len(self.stack)
            if t.kind == COMMENT:
                if depth == 0 or not self.fresh():
                    return "comment"
                self.emit(COMMENT, self.advance())
                continue
            if self.fresh() and t.newline_before and depth == 0 and self.st.pieces \
                    and not expect_atom:
                return "boundary"  # a real line break in the source
            if t.kind == ERROR:
                self.emit(ERROR, self.advance())
                if t.text == "?":
                    self.find("lost_math", "?", "a “?” in code: an operator or symbol the "
                                                "extraction could not encode")
                continue
            if expect_atom:
                if t.kind == NAME:
                    kind = self.atom_name(depth, stop=stop, params=params, binds=binds,
                                          after_as=after_as or first_target)
                    after_as = False
                    if kind == "stop":
                        return "stop"
                    if kind == "boundary":
                        return "boundary"
                    expect_atom = kind in ("prefix",)
                    continue
                if t.kind in (NUMBER, STRING):
                    self.emit(t.kind, self.advance())
                    expect_atom = False
                    continue
                # an operator where an atom was expected
                text = t.text
                if text in "([{":
                    self.open(text, call=False)
                elif text in ")]}":
                    self.close(text)
                    expect_atom = False
                elif text in ("-", "+", "~", "*", "**"):
                    self.emit(OP, self.advance(), "unary")
                elif text == "...":
                    self.emit(OP, self.advance())
                    expect_atom = False
                elif text == ":" and depth == 0 and ends_at_colon:
                    return "colon"
                elif text == ":":
                    self.emit(OP, self.advance(), "slice" if self.in_subscript() else "")
                else:
                    self.emit(OP, self.advance())
                continue
            # --- operator position ---------------------------------------------------------
            if t.kind == NAME:
                kind = self.after_atom_name(depth, stop=stop, in_conditional=in_conditional)
                if kind in ("stop", "boundary"):
                    return kind
                if kind == "as":
                    after_as = binds_after_as or True
                if kind == "if":
                    in_conditional += 1
                expect_atom = kind != "glued"
                continue
            if t.kind in (NUMBER, STRING):
                prev = self.st.pieces[-1].text if self.st.pieces else ""
                self.find("deleted_operator", prev + t.text,
                          f"“{t.text}” right after “{prev}”: an operator (or a superscript) "
                          f"between them was probably lost")
                self.emit(t.kind, self.advance(), "glued")
                continue
            text = t.text
            if text in "([{":
                self.open(text, call=True)
                expect_atom = True
            elif text in ")]}":
                self.close(text)
            elif text == ".":
                self.emit(OP, self.advance())
                self.attribute()
            elif text == ",":
                self.emit(OP, self.advance())
                expect_atom = True
                first_target = statement_start and depth == 0 and not self.st.assigns
            elif text == ":":
                if depth == 0 and ends_at_colon:
                    return "colon"
                if depth == 0:
                    self.st.annotated = True
                    self.emit(OP, self.advance(), "annot")
                else:
                    self.emit(OP, self.advance(), "slice" if self.in_subscript() else "dict")
                expect_atom = True
            elif text == "=" or text in AUGMENTED:
                role = "kwarg" if depth and text == "=" else "assign"
                self.note_numeric_binding()
                if depth == 0:
                    self.st.assigns = True
                self.emit(OP, self.advance(), role)
                expect_atom = True
                first_target = False
            elif text == ";":
                return "boundary"
            elif text == "@" and depth == 0 and self.decorator_ahead():
                return "boundary"
            else:
                self.emit(OP, self.advance())
                expect_atom = True
        return "end"

    def in_subscript(self) -> bool:
        return bool(self.stack) and self.stack[-1] == "["

    def open(self, text: str, *, call: bool) -> None:
        role = ("call" if text == "(" else "subscript") if call and text != "{" else ""
        self.emit(OP, self.advance(), role)
        self.stack.append(text)

    def close(self, text: str) -> None:
        if self.stack:
            self.stack.pop()
        self.emit(OP, self.advance())

    def decorator_ahead(self) -> bool:
        """``…)@torch.no_grad()defstep``: this ``@`` starts a decorator, not a matmul."""
        for k, t, depth in self.ahead(limit=60):
            if depth or t.kind != NAME or k == 1:
                continue
            prev = self.tok(k - 1)
            if prev.text == ")" and t.text.startswith(("def", "class")):
                return True
            if prev.kind == NAME:
                return False
        return False

    def note_numeric_binding(self) -> None:
        """``theta=10000.0`` (a default or an assignment): calling ``theta(`` later is a lost
        ``*``/``**``."""
        pieces = self.st.pieces
        if pieces and pieces[-1].kind == NAME:
            nxt = self.tok(1)
            if nxt and nxt.kind == NUMBER:
                self.numeric.add(pieces[-1].text)

    def attribute(self) -> None:
        if self.at_end() or self.tok().kind != NAME:
            return
        s = self.rest()
        cut = self.split_point(s, len(self.stack), attribute=True)
        self.emit(NAME, self.advance(cut))

    def atom_name(self, depth: int, *, stop: str, params: bool, binds: bool,
                  after_as: bool) -> str:
        """A name where an atom is expected. Returns "atom", "prefix" (a unary keyword was
        emitted), "stop" or "boundary"."""
        s = self.rest()
        for kw in ("not", "lambda", "await"):
            if s == kw or (s.startswith(kw) and self.starts_known(s[len(kw):])
                           and not self.known(s, whole=s)):
                self.emit(KW, self.advance(len(kw)))
                if kw == "lambda":
                    self.lambda_params()
                return "prefix"
        if not self.fresh() and depth == 0 and stop and s.startswith(stop):
            return "stop"
        if s[0].isdigit():  # "return1beta1": the number after a glued keyword
            number = re.match(r"\d+(?:\.\d*)?(?:[eE]\d+)?", s).group(0)
            self.emit(NUMBER, self.advance(len(number)))
            return "atom"
        nxt_text = self.next_text() if len(s) == len(self.rest()) else ""
        target = after_as and depth == 0 and (nxt_text in ("=", ",") or nxt_text in AUGMENTED)
        cut = len(s) if target and _IDENT.match(s) and not self.keyword_inside(s, depth) \
            else self.split_point(s, depth, stop=stop)  # x1, x2 = …: names being bound
        name = self.advance(cut)
        piece = self.emit(NAME if name not in KEYWORDS else KW, name)
        nxt = self.tok() if self.fresh() else None
        if params and nxt is not None and nxt.kind == OP and nxt.text in (",", ")", "=", ":"):
            self.bind(name)
        if (binds or after_as) and depth == 0:
            self.bind(name)
        if nxt is not None and nxt.kind == OP and nxt.text == "=" and depth:
            piece.role = "kwname"
            self.bind(name) if params else None
        if depth == 0 and nxt is not None and nxt.kind == OP and (
                nxt.text == "=" or nxt.text in AUGMENTED or nxt.text == ","):
            self.bind(name)  # an assignment target
        if nxt is not None and nxt.kind == OP and nxt.text == "(" and name in self.numeric:
            self.find("deleted_operator", f"{name}(",
                      f"“{name}” holds a number but is called like a function: a “*” or "
                      f"“**” before “(” was probably lost")
        return "atom"

    def lambda_params(self) -> None:
        while not self.at_end():
            t = self.tok()
            if t.kind == OP and t.text == ":":
                self.emit(OP, self.advance(), "lambda")
                return
            if t.kind == NAME:
                self.bind(self.rest())
            self.emit(t.kind, self.advance())

    def split_point(self, s: str, depth: int, *, stop: str = "", attribute: bool = False
                    ) -> int:
        """How much of the glued name ``s`` is the atom; the rest continues in operator
        position (an infix keyword or a new statement). Two names glued inside an
        expression are a lost operator: kept whole, reported."""
        if stop:  # a for target: cut before "in"
            best = None
            for m in re.finditer(stop, s):
                j = m.start()
                if j == 0:
                    continue
                q = s[j + len(stop):]
                score = (3 if self.known(s[:j]) else 0) + (
                    3 if self.known(q) else 2 if self.starts_known(q) else
                    1 if not q else 0)
                if best is None or score > best[0]:
                    best = (score, j)
            if best is not None:
                return best[1]
        if self.strong(s) and not self.keyword_inside(s, depth, strict=True):
            return len(s)
        kw_cut = self.keyword_inside(s, depth)
        if kw_cut:
            glued = self.vocab_split(s[:kw_cut])
            if glued and not self.known(s[:kw_cut]):
                self.lost_operator(s[:kw_cut], glued)
            return kw_cut
        pieces = self.vocab_split(s)
        if pieces is None:
            return len(s)
        statement_first = not self.st.pieces or self.st.pieces[-1].role == "decorator"
        if depth == 0 and not statement_first:
            for k in range(1, len(pieces)):
                if self.statement_follows("".join(pieces[k:])):
                    head = "".join(pieces[:k])
                    if k > 1:
                        self.lost_operator(head, pieces[:k])
                    return len(head)
        if not self.strong(s) and (not attribute or self.vocab[s] < 2):
            self.lost_operator(s, pieces)
        return len(s)

    def keyword_inside(self, s: str, depth: int, *, strict: bool = False) -> int:
        """Where a keyword glued onto the name ``s`` begins (0: none)."""
        best: tuple[int, int] | None = None
        words = INFIX + (() if depth else STATEMENT_KEYWORDS)
        for kw in set(words):
            start = 1
            while (j := s.find(kw, start)) > 0:
                start = j + 1
                p, q = s[:j], s[j + len(kw):]
                score = 0
                if kw in ("def", "class"):
                    score = 6 if self.keyword_fits(kw, q, statement_start=True) and q else 0
                elif kw in INFIX and depth == 0 and kw in ("for",):
                    continue
                elif kw in INFIX:
                    if not self.known(p):
                        continue
                    if q:
                        if q in LITERALS or self.known(q) or any(
                                q.startswith(k) for k in ("not", "None", "True", "False")):
                            score = 5
                        elif self.starts_known(q):
                            score = 4
                    elif self.tok(1) and (self.tok(1).kind in (NAME, NUMBER, STRING) or
                                          self.next_text() in ("(", "[", "-")):
                        score = 4
                else:
                    if not self.known(p) and not self.vocab_split(p):
                        continue
                    if self.keyword_fits_inside(kw, q):
                        score = 5 if (self.known(q) or not q) else 4
                if strict and score < 6:
                    continue
                # the earliest keyword wins: a later one starts the statement after it
                if score >= 4 and (best is None or j < best[1]):
                    best = (score, j)
        return best[1] if best else 0

    def after_atom_name(self, depth: int, *, stop: str, in_conditional: int) -> str:
        """A name right after an atom: an infix keyword, a stop word, a new statement, or a
        deleted operator. Returns "infix", "as", "if", "stop", "boundary" or "glued"."""
        s = self.rest()
        if stop and s.startswith(stop):
            return "stop"
        if s.startswith("as") and (len(s) == 2 or not self.known(s, whole=s)) and \
                self.st.keyword in ("", ) and self.context_allows_as():
            self.emit(KW, self.advance(2))
            return "as"
        for kw in ("not in", "is not"):
            a, b = kw.split()
            if s.startswith(a + b) and (len(s) > len(a + b) or self.tok(1)):
                self.emit(KW, self.advance(len(a)))
                self.emit(KW, self.advance(len(b)))
                return "infix"
        for kw in ("and", "or", "in", "is", "if", "else", "for"):
            if not s.startswith(kw):
                continue
            q = s[len(kw):]
            if kw == "for" and depth == 0:
                break
            if kw == "else" and depth == 0 and not in_conditional:
                break
            if kw == "if" and depth == 0 and not self.conditional_ahead():
                break
            if q and self.known(s, whole=s):
                continue
            if not q or self.starts_known(q) or q[0].isupper():
                self.emit(KW, self.advance(len(kw)))
                return "if" if kw == "if" else "infix"
        if depth == 0:
            if self.statement_keyword_here(s) or self.statement_follows(s):
                return "boundary"
        prev = self.st.pieces[-1].text if self.st.pieces else ""
        self.lost_operator(prev + s, [prev] + (self.vocab_split(s) or [s]), key=s)
        self.emit(NAME, self.advance(), "glued")
        return "glued"

    def context_allows_as(self) -> bool:
        return any(p.kind == KW and p.text in ("with", "except") for p in self.st.pieces)

    def conditional_ahead(self) -> bool:
        """``x if c else y``: an ``else`` comes before the statement's ``:`` (or before the
        bracket this expression sits in closes)."""
        for k, t, depth in self.ahead(start=0, limit=80):
            if depth < 0:
                return True
            if depth == 0 and t.kind == OP and t.text == ":":
                return False
            if depth == 0 and t.kind == NAME and "else" in t.text[self.off if k == 0 else 0:]:
                return True
        return False

    def statement_keyword_here(self, s: str) -> bool:
        for kw in STATEMENT_KEYWORDS:
            if s.startswith(kw):
                q = s[len(kw):]
                if self.keyword_fits(kw, q, statement_start=True):
                    return True
        return False

    def statement_follows(self, s: str) -> bool:
        """Does a statement of its own begin with the name ``s`` (the rest of this token)?
        Yes for an assignment or a call made for its effect (``dist.barrier()``); a bare
        expression (``torch.rsqrt(v)``, ``m / denom``) is more likely a lost operator."""
        if not s:
            return False
        if self.statement_keyword_here(s):
            return True
        if not self.known(s):
            return False  # still glued: split_point tries the later cuts
        depth, k, last_name, shape = 0, 1, s, "name"
        while True:
            t = self.tok(k)
            if t is None:
                break
            if t.kind == OP and t.text in "([{":
                if depth == 0 and t.text == "(" and shape in ("name", "call"):
                    shape = "call"
                depth += 1
            elif t.kind == OP and t.text in ")]}":
                depth -= 1
                if depth < 0:
                    return False
            elif depth == 0 and t.kind == OP and (t.text == "=" or t.text in AUGMENTED):
                return True
            elif depth == 0 and t.kind == OP and t.text == ",":
                shape = "tuple" if shape == "name" else "expr"
            elif depth == 0 and t.kind == OP and t.text == ".":
                pass
            elif depth == 0 and t.kind == OP:
                shape = "expr"
            elif t.kind == COMMENT or (depth == 0 and t.kind == OP and t.text == ":"):
                break
            elif depth == 0 and t.kind == NAME and _GLUED_STATEMENT.search(t.text, 1):
                break
            elif depth == 0 and t.kind == NAME:
                prev = self.tok(k - 1)
                if prev is not None and prev.kind == OP and prev.text == ".":
                    last_name = t.text
                elif prev is not None and prev.kind == OP and prev.text not in (")", "]",
                                                                                "}"):
                    pass
                else:
                    break
            elif depth == 0 and t.kind in (NUMBER, STRING):
                break
            k += 1
        if shape == "call":
            return last_name in SIDE_EFFECT_CALLS or last_name.endswith("_") or \
                last_name in self.functions
        return False

    def lost_operator(self, text: str, pieces: list[str], *, key: str = "") -> None:
        self.find("deleted_operator", text,
                  f"“{text}” reads as {' · '.join(pieces)} glued together: an operator "
                  f"(*, -, +, ** …) between them was probably lost; left as printed")
        self.glued_parts.setdefault(key or text, set()).update(
            p for p in pieces if _IDENT.match(p) and not _NUMBER_TAIL.fullmatch(p))



def split_trailing_digits(name: str) -> tuple[str, str] | None:
    m = _DIGITS.match(name)
    return (m[1], m[2]) if m else None
