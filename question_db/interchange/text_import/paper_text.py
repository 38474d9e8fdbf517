"""What every format reader hands ``import_text``: the paper text, and the limits on it.

The contract (issue 26): lines split by ``\\n``; code as ```` ```lang ```` … ```` ``` ````
fences; a heading on its own line (Markdown ``#`` marks may stay); each list item on its
own line with its number or letter as printed (``1. text``, ``(a) text``, ``A. text``,
bullets as ``- text``); nested content 4 spaces deeper per level; no emphasis markers;
a table row per line, cells joined by `` | ``; no HTML tags; no page furniture.

Limits: a file over ``MAX_FILE_BYTES`` or more than ``MAX_TEXT_CHARS`` characters of text
is refused with a message naming the file and the limit, before any parser sees it.
"""
from __future__ import annotations

from pathlib import Path

from ..encoding import UnreadableInput

__all__ = ["MAX_FILE_BYTES", "MAX_TEXT_CHARS", "INDENT", "CELL_SEPARATOR", "check_file_size",
           "read_capped", "check_text_size", "too_long", "counter_label", "chinese_number",
           "roman"]

MAX_FILE_BYTES = 50 * 1024 * 1024  # a paper with pictures is a few MB
MAX_TEXT_CHARS = 8_000_000  # a 40-question paper is ~20,000 characters
INDENT = "    "  # one level of nesting
CELL_SEPARATOR = " | "


def check_file_size(path: Path | str) -> int:
    """The size of ``path``; ``UnreadableInput`` when it is missing or over the cap."""
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_FILE_BYTES:
        raise UnreadableInput(path, f"is {size / 2**20:.0f} MB; the limit for a paper is "
                                    f"{MAX_FILE_BYTES // 2**20} MB: split it")
    return size


def read_capped(path: Path | str) -> bytes:
    """The bytes of ``path`` after ``check_file_size``."""
    check_file_size(path)
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None


def too_long(path: Path | str) -> UnreadableInput:
    return UnreadableInput(path, f"holds more than {MAX_TEXT_CHARS:,} characters of text "
                                 "(the limit for a paper): split it")


def check_text_size(path: Path | str, text: str) -> str:
    if len(text) > MAX_TEXT_CHARS:
        raise too_long(path)
    return text


# -- list labels: one renderer for Word's numFmt, HTML's type and Markdown's numbers -------

_CN_DIGITS = "零一二三四五六七八九"
_CN_TRAD = "〇壹贰叁肆伍陆柒捌玖"
_HEAVENLY = "甲乙丙丁戊己庚辛壬癸"
_EARTHLY = "子丑寅卯辰巳午未申酉戌亥"
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_PAREN = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇"
_FULLSTOP = "⒈⒉⒊⒋⒌⒍⒎⒏⒐⒑⒒⒓⒔⒕⒖⒗⒘⒙⒚⒛"


def roman(n: int) -> str:
    if not 0 < n < 4000:
        return str(n)
    out = []
    for value, numeral in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


def _letters(n: int, alphabet: str) -> str:
    """Word's and the browsers' letters: 1 A … 26 Z, then Word repeats (27 AA, 28 BB)."""
    if n < 1:
        return str(n)
    return alphabet[(n - 1) % 26] * ((n - 1) // 26 + 1)


def _below_10k(n: int, digits: str, units: tuple[str, ...]) -> str:
    out, zero = "", False
    for position in (3, 2, 1, 0):
        digit = n // 10 ** position % 10
        if digit == 0:
            zero = bool(out)
            continue
        if zero:
            out += digits[0]
            zero = False
        out += digits[digit] + units[position]
    return out


def chinese_number(n: int, digits: str = _CN_DIGITS) -> str:
    """一 … 十, 十一, 二十一, 一百零五, 一万零三: how a Chinese paper numbers its parts."""
    if not 0 < n < 10 ** 8:
        return str(n)
    units = ("", "十", "百", "千") if digits == _CN_DIGITS else ("", "拾", "佰", "仟")
    if n < 10000:
        out = _below_10k(n, digits, units)
        return out[1:] if 10 <= n < 20 and digits == _CN_DIGITS else out  # 十一, not 一十一
    high, low = divmod(n, 10000)
    out = _below_10k(high, digits, units) + "万"
    if low:
        out += (digits[0] if low < 1000 else "") + _below_10k(low, digits, units)
    return out


def counter_label(fmt: str, n: int) -> str:
    """The counter ``n`` in the style ``fmt``: a Word ``w:numFmt`` value (``decimal``,
    ``upperLetter``, ``chineseCounting`` …) or an HTML ``<ol type>`` (``1 a A i I``).
    Unknown styles fall back to decimal; ``none`` and ``bullet`` give ``""``."""
    if fmt in ("decimal", "1", "ordinal", "cardinalText", "ordinalText", "arabicAlpha"):
        return str(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("upperLetter", "A"):
        return _letters(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if fmt in ("lowerLetter", "a"):
        return _letters(n, "abcdefghijklmnopqrstuvwxyz")
    if fmt in ("upperRoman", "I"):
        return roman(n)
    if fmt in ("lowerRoman", "i"):
        return roman(n).lower()
    if fmt in ("chineseCounting", "chineseCountingThousand", "japaneseCounting",
               "taiwaneseCounting", "taiwaneseCountingThousand"):
        return chinese_number(n)
    if fmt in ("chineseLegalSimplified", "ideographLegalTraditional", "japaneseLegal"):
        return chinese_number(n, _CN_TRAD)
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return _HEAVENLY[n - 1]
    if fmt == "ideographZodiac" and 1 <= n <= 12:
        return _EARTHLY[n - 1]
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese") and 1 <= n <= 20:
        return _CIRCLED[n - 1]
    if fmt == "decimalEnclosedParen" and 1 <= n <= 20:
        return _PAREN[n - 1]
    if fmt == "decimalEnclosedFullstop" and 1 <= n <= 20:
        return _FULLSTOP[n - 1]
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return str(n).translate({ord(d): 0xFF10 + int(d) for d in "0123456789"})
    if fmt in ("none", "bullet"):
        return ""
    return str(n)
