"""How fast ``fence_bare_code`` is on a large plain-text paper (issue 26, item 4).

    python -m bench.bare_code_speed [MB ...]      # default: 1 4 8

The text is the verified bank printed bare: every ``.py`` file of ``question_db/papers``
after a numbered Chinese stem and an ``Answer:`` line, followed by an explanation, then
every stem, option, explanation and errata as prose; repeated up to the size asked for.
That is mostly code (the worst case: code lines are the ones parsed), about 25 000 lines
per MB. Prints the seconds per size and per MB; nothing is asserted (the tests check
that the time grows linearly, ``tests/test_import_bare_code.py``).
"""
from __future__ import annotations

import sys
import time
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAPERS = REPO / "question_db" / "papers"
STEM = "下面这段代码实现了题目要求的功能，请阅读后回答问题。"
EXPLANATION = "This solution keeps the shapes of the inputs and returns the result on the " \
              "same device."


@lru_cache(maxsize=None)
def bank_unit() -> str:
    """One copy of the bank as a bare-code paper (about 0.9 MB)."""
    from question_db.bank import load_paper

    parts = []
    for i, path in enumerate(sorted(PAPERS.rglob("*.py")), 1):
        code = path.read_text(encoding="utf-8").rstrip("\n")
        parts.append(f"{i}. {STEM}\nAnswer:\n{code}\n\n{EXPLANATION}\n")
    for pid in ("000", "001", "drills"):
        for q in load_paper(PAPERS / pid, []).questions:
            parts.append(f"{q.number}. {q.stem}")
            for letter, option in (q.options or {}).items():
                parts.append(f"{letter}. {option}")
            for text in (q.explanation, q.errata):
                if text:
                    parts.append(text)
    return "\n".join(parts) + "\n"


def sample_text(size: int) -> str:
    """``size`` characters of the bank printed bare, cut at a line end."""
    unit = bank_unit()
    text = unit * (size // len(unit) + 1)
    return text[:text.rfind("\n", 0, size) + 1]


def main(argv: list[str]) -> None:
    from question_db.interchange.text_import.bare_code import fence_bare_code

    for mb in [float(a) for a in argv] or [1, 4, 8]:
        text = sample_text(int(mb * 1_000_000))
        t0 = time.perf_counter()
        out = fence_bare_code(text)
        dt = time.perf_counter() - t0
        print(f"{mb:g} MB ({text.count(chr(10))} lines): {dt:.2f} s, {dt / mb:.2f} s/MB, "
              f"{out.count('```') // 2} fences")


if __name__ == "__main__":
    main(sys.argv[1:])
