"""Undo the mechanical part of the seed papers' extraction damage.

Only what is safe to do by rule: Traditional -> Simplified (OpenCC t2s) and
removal of inserted pinyin glosses. Everything else (code whitespace, lost
minus signs, wrong keys) needs a human and is done in the bank files.

A gloss is a parenthesised lowercase syllable that carries a tone mark, e.g.
``认(rèn)证`` or ``为_(kāi)__``. Requiring a tone mark keeps code such as
``RMSNorm(dim)`` or ``pile(model)`` intact.

Usage: python tools/clean_seed.py SEED.txt [OUT.txt]
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import opencc

TONED = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ"
GLOSS = re.compile(rf"\((?=[a-zü{TONED}]*[{TONED}])[a-zü{TONED}]{{1,7}}\)")


def strip_glosses(text: str) -> str:
    return GLOSS.sub("", text)


def clean(text: str) -> str:
    return opencc.OpenCC("t2s").convert(strip_glosses(text))


def main(argv: list[str]) -> int:
    src = Path(argv[1])
    out = clean(src.read_text(encoding="utf-8"))
    if len(argv) > 2:
        Path(argv[2]).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
