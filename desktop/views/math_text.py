"""TeX math (``$…$``, ``\\(…\\)`` from imported packs) → readable Qt rich text.

Qt's rich text has no math layout, so a formula becomes text: macros become their Unicode
symbols (``\\alpha`` → α, ``\\mathbb{R}`` → ℝ, ``\\leq`` → ≤), scripts become ``<sup>`` /
``<sub>``, ``\\frac{a}{b}`` becomes ``a/b`` (parenthesised when a side is compound),
``\\sqrt{x}`` becomes ``√x`` / ``√(x+1)``. Braces never show. A macro this table does not
know shows as its bare name (``\\foo`` → ``foo``), so nothing is lost and nothing looks like
source code.

Why not typeset (matplotlib's mathtext to an inline PNG)? Measured here: ~100 MiB more
packages, 0.5 s to import, 0.33 s for the first formula and ~18 ms for each later one (a
page with five formulas would blow the 8 ms question switch), CJK inside ``\\text{}`` comes
out as boxes, and a picture neither follows the palette and zoom nor can be selected. This
module costs ~0.07 ms per formula and ~1 ms to import.
"""
from __future__ import annotations

import html
import re

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[{}^_&']|\s+|.", re.DOTALL)

_GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
    ("epsilon", 0x3F5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
    ("theta", 0x3B8), ("vartheta", 0x3D1), ("iota", 0x3B9), ("kappa", 0x3BA),
    ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE), ("pi", 0x3C0),
    ("varpi", 0x3D6), ("rho", 0x3C1), ("varrho", 0x3F1), ("sigma", 0x3C3),
    ("varsigma", 0x3C2), ("tau", 0x3C4), ("upsilon", 0x3C5), ("phi", 0x3D5),
    ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9),
    ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398), ("Lambda", 0x39B),
    ("Xi", 0x39E), ("Pi", 0x3A0), ("Sigma", 0x3A3), ("Upsilon", 0x3A5), ("Phi", 0x3A6),
    ("Psi", 0x3A8), ("Omega", 0x3A9))}

# Relations are set with a space either side, as TeX spaces them.
_RELATIONS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
    "sim": "∼", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "in": "∈",
    "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "leftrightarrow": "↔",
    "iff": "⇔", "implies": "⇒", "mapsto": "↦", "ll": "≪", "gg": "≫", "perp": "⊥",
    "mid": "∣", "parallel": "∥", "coloneqq": "≔", "triangleq": "≜",
}
_SYMBOLS = {
    **_GREEK,
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "oint": "∮",
    "partial": "∂", "nabla": "∇", "infty": "∞", "cdot": "·", "times": "×", "div": "÷",
    "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆", "circ": "∘", "bullet": "•",
    "odot": "⊙", "oplus": "⊕", "otimes": "⊗", "cup": "∪", "cap": "∩", "setminus": "∖",
    "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬",
    "forall": "∀", "exists": "∃", "emptyset": "∅", "varnothing": "∅", "ell": "ℓ",
    "hbar": "ℏ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ", "top": "⊤", "bot": "⊥",
    "prime": "′", "dagger": "†", "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮",
    "ddots": "⋱", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "lvert": "|", "rvert": "|", "vert": "|", "lVert": "‖",
    "rVert": "‖", "Vert": "‖", "|": "‖", "angle": "∠", "triangle": "△", "square": "□",
    "checkmark": "✓",
    **_RELATIONS,
}
_FUNCTIONS = {"log", "ln", "lg", "exp", "sin", "cos", "tan", "cot", "sec", "csc", "arcsin",
              "arccos", "arctan", "sinh", "cosh", "tanh", "max", "min", "sup", "inf",
              "lim", "liminf", "limsup", "arg", "argmax", "argmin", "det", "dim", "ker",
              "deg", "gcd", "Pr", "tr", "diag", "rank", "softmax", "sgn"}
_ESCAPED = {"{": "{", "}": "}", "_": "_", "%": "%", "$": "$", "&": "&", "#": "#",
            ",": "\u2009", ":": "\u2005", ";": "\u2004", " ": " ",
            "!": "", "|": "‖"}
_SPACES = {"quad": "\u2003", "qquad": "\u2003\u2003", "enspace": "\u2002",
           "thinspace": "\u2009"}
# Sizing and spacing commands that only change the look.
_IGNORED = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
            "biggl", "biggr", "displaystyle", "textstyle", "scriptstyle", "limits",
            "nolimits", "middle", "nonumber", "notag", "label"}
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0305",
            "tilde": "\u0303", "widetilde": "\u0303", "vec": "\u20d7", "dot": "\u0307",
            "ddot": "\u0308", "check": "\u030c", "breve": "\u0306", "acute": "\u0301",
            "grave": "\u0300"}
_TEXT = {"text", "textrm", "mathrm", "operatorname", "mathit", "textit", "mbox", "mathsf",
         "textsf", "mathtt", "texttt", "textnormal", "operatorname*"}
_BOLD = {"mathbf", "textbf", "boldsymbol", "bm", "pmb"}


def _styled_alphabet(capital_a: int, small_a: int | None, exceptions: dict[str, str]
                     ) -> dict[str, str]:
    table = {chr(65 + i): chr(capital_a + i) for i in range(26)}
    if small_a is not None:
        table.update({chr(97 + i): chr(small_a + i) for i in range(26)})
    table.update(exceptions)  # letters Unicode encoded earlier, in Letterlike Symbols
    return table


_ALPHABETS = {
    "mathbb": _styled_alphabet(0x1D538, 0x1D552, {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ",
                                                  "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}),
    "mathcal": _styled_alphabet(0x1D49C, None, {"B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ",
                                                "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ"}),
    "mathfrak": _styled_alphabet(0x1D504, 0x1D51E, {"C": "ℭ", "H": "ℌ", "I": "ℑ",
                                                    "R": "ℜ", "Z": "ℨ"}),
}
_ALPHABETS["mathbb"].update({str(d): chr(0x1D7D8 + d) for d in range(10)})
_ALPHABETS["mathscr"] = _ALPHABETS["mathcal"]


# Nested groups and arguments; deeper ones read as plain text, so that untrusted input cannot
# exhaust the stack (every recursion passes through `sequence` or `atom`, which count it).
_MAX_DEPTH = 50


class _Atom:
    """Rendered HTML; ``simple``: reads as one unit (no parentheses needed around it);
    ``operator``: a named operator (log, max) that wants a thin space before its argument."""

    __slots__ = ("html", "simple", "operator")

    def __init__(self, html_text: str, simple: bool = True, operator: bool = False) -> None:
        self.html = html_text
        self.simple = simple
        self.operator = operator


class _Parser:
    def __init__(self, tex: str) -> None:
        self.tokens = _TOKEN.findall(tex)
        self.pos = 0
        self.script_depth = 0  # relations are spaced only outside scripts, as in TeX
        self.depth = 0  # nested atoms (groups, arguments)

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _next(self) -> str | None:
        token = self._peek()
        self.pos += 1
        return token

    def _skip_space(self) -> None:
        while (token := self._peek()) is not None and token.isspace():
            self.pos += 1

    def sequence(self, stop: str | None = None) -> _Atom:
        """Atoms up to ``stop`` (a closing brace) or the end."""
        if self.depth >= _MAX_DEPTH:
            return self._flat(stop)
        self.depth += 1
        try:
            return self._sequence(stop)
        finally:
            self.depth -= 1

    def _flat(self, stop: str | None) -> _Atom:
        """The rest of a group nested too deeply, as plain text (see ``_MAX_DEPTH``)."""
        depth, out = 1, []
        while (token := self._next()) is not None:
            if token in ("{", "}"):
                depth += 1 if token == "{" else -1
                if depth == 0 and stop is not None:
                    break
                continue
            out.append(token.lstrip("\\") if len(token) > 1 else token)
        return _Atom(html.escape("".join(out)), simple=False)

    def _sequence(self, stop: str | None) -> _Atom:
        parts: list[_Atom] = []
        while (token := self._peek()) is not None:
            if token == stop:
                self.pos += 1
                break
            if token == "}":  # unbalanced: drop it rather than show a brace
                self.pos += 1
                continue
            if token in ("^", "_"):
                self.pos += 1
                self.script_depth += 1
                script = self.argument()
                self.script_depth -= 1
                tag = "sup" if token == "^" else "sub"
                if not parts:
                    parts.append(_Atom(""))
                parts[-1].html += f"<{tag}>{script.html}</{tag}>"  # scripts bind to their base
                continue
            atom = self.atom()
            if atom is None:
                continue
            if parts and parts[-1].operator and not atom.html.startswith(("(", " ")):
                parts[-1].html += "\u2009"
            parts.append(atom)
        html_text = "".join(p.html for p in parts)
        return _Atom(html_text, len(parts) <= 1 and all(p.simple for p in parts))

    def argument(self) -> _Atom:
        """One macro argument or script: a braced group or a single token."""
        self._skip_space()
        token = self._peek()
        if token is None:
            return _Atom("")
        if token == "{":
            self.pos += 1
            return self.sequence("}")
        return self.atom() or _Atom("")

    def raw_argument(self) -> str:
        """A braced argument as plain text (``\\text{…}``, environment names)."""
        self._skip_space()
        if self._peek() != "{":
            return self._next() or ""
        self.pos += 1
        depth, out = 1, []
        while (token := self._next()) is not None:
            if token in ("{", "}"):
                depth += 1 if token == "{" else -1
                if depth == 0:
                    break
                continue  # grouping, not text
            if token == "\\\\":
                token = " "
            elif token.startswith("\\"):
                name = token[1:]
                token = _SYMBOLS.get(name) or _ESCAPED.get(name, name)
            out.append(token)
        return "".join(out)

    def atom(self) -> _Atom | None:
        """The next token with what it takes (arguments, a group)."""
        if self.depth >= _MAX_DEPTH:
            token = self._next() or ""
            return None if token in ("{", "}") else _Atom(html.escape(token.lstrip("\\")))
        self.depth += 1
        try:
            return self._atom()
        finally:
            self.depth -= 1

    def _atom(self) -> _Atom | None:
        token = self._next()
        if token is None or token.isspace():
            return None
        if token == "{":
            group = self.sequence("}")
            return group
        if token == "&":
            return _Atom("\u2003")
        if token == "'":
            return _Atom("′")
        if token.startswith("\\"):
            return self.command(token[1:])
        if token == "-":
            return _Atom("−")
        if token == ",":
            return _Atom(",\u2009")  # TeX sets a thin space after a comma in math
        if token in "=<>":
            return self._relation(html.escape(token))
        if token.isascii() and token.isalpha():
            return _Atom(f"<i>{token}</i>")
        return _Atom(html.escape(token))

    def _relation(self, symbol: str) -> _Atom:
        return _Atom(symbol if self.script_depth else f" {symbol} ")

    def command(self, name: str) -> _Atom | None:
        if len(name) == 1 and not name.isalpha():
            return _Atom("<br/>" if name == "\\" else html.escape(_ESCAPED.get(name, name)))
        if name in _RELATIONS:
            return self._relation(_RELATIONS[name])
        if name in _SYMBOLS:
            return _Atom(_SYMBOLS[name])
        if name in _FUNCTIONS:
            return _Atom(name, operator=True)
        if name in _SPACES:
            return _Atom(_SPACES[name])
        if name in _IGNORED:
            if name in ("left", "right", "middle"):
                delimiter = self._next() or ""
                if delimiter == ".":
                    return None
                self.pos -= 1
            if name == "label":
                self.raw_argument()
            return None
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            top, bottom = self.argument(), self.argument()
            return _Atom(f"{_wrapped(top)}/{_wrapped(bottom)}", simple=False)
        if name == "binom":
            top, bottom = self.argument(), self.argument()
            return _Atom(f"C({top.html}, {bottom.html})")
        if name == "sqrt":
            self._skip_space()
            index = ""
            if self._peek() == "[":
                self.pos += 1
                index_parts = []
                while (token := self._next()) not in (None, "]"):
                    index_parts.append(html.escape(token))
                index = f"<sup>{''.join(index_parts)}</sup>"
            return _Atom(f"{index}√{_wrapped(self.argument())}")
        if name in _TEXT:
            text = self.raw_argument()
            return _Atom(html.escape(text), simple=" " not in text.strip())
        if name in _BOLD:
            return _Atom(f"<b>{self.argument().html}</b>")
        if name in _ALPHABETS:
            table = _ALPHABETS[name]
            return _Atom("".join(table.get(c, html.escape(c)) for c in self.raw_argument()))
        if name in _ACCENTS:
            body = self.argument()
            return _Atom(_marked(body.html, _ACCENTS[name],
                                 every=name in ("bar", "overline")), body.simple)
        if name in ("begin", "end"):
            self.raw_argument()  # the environment's name; its rows read as lines
            return None
        if name in ("mathop", "mathbin", "mathrel", "mathord"):
            return self.argument()
        # Unknown: its bare name, readable and not source code.
        return _Atom(html.escape(name), operator=True)


_MARKUP = re.compile(r"(<[^>]*>|&[#\w]+;)")


def _marked(html_text: str, mark: str, *, every: bool) -> str:
    """Put a combining ``mark`` after the last visible character (after each one for a bar),
    leaving tags and entities whole."""
    pieces = _MARKUP.split(html_text)
    visible = [i for i, piece in enumerate(pieces) if piece and not _MARKUP.fullmatch(piece)]
    if not visible:
        return html_text + mark
    for i in visible if every else visible[-1:]:
        pieces[i] = ("".join(c + mark for c in pieces[i]) if every else pieces[i] + mark)
    return "".join(pieces)


def _wrapped(atom: _Atom) -> str:
    return atom.html if atom.simple else f"({atom.html})"


def tex_to_html(tex: str) -> str:
    """Qt rich text for one TeX formula (the text between ``$`` / ``\\(`` delimiters)."""
    html_text = _Parser(tex.strip()).sequence().html.replace("</i><i>", "")
    return re.sub(r" {2,}", " ", html_text).strip()
