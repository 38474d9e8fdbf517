"""Question text in Simplified (as the papers are written) or Traditional Chinese.

Display only: the bank, the keys and grading never change (grading already accepts 繁/简 and
Taiwan phrasing, ``grading.normalize_blank``). Traditional uses OpenCC's ``s2twp``
(Taiwan characters and phrases: 数据 → 資料); the converter is built on first use (~0.25 s),
so a learner who keeps Simplified never pays for it. Set once per screen opened
(``set_question_script``); pages built after a change show the new script.
"""
from __future__ import annotations

from functools import lru_cache

SIMPLIFIED, TRADITIONAL = "hans", "hant"
_script = SIMPLIFIED


@lru_cache(maxsize=1)
def _to_traditional():
    import opencc  # deferred: only a learner who picked Traditional needs it

    return opencc.OpenCC("s2twp")


def set_question_script(script: str) -> str:
    """Use ``script`` ("hans" or "hant"; anything else is "hans"); returns the one in use."""
    global _script
    _script = TRADITIONAL if script == TRADITIONAL else SIMPLIFIED
    return _script


def question_script() -> str:
    return _script


def shown(text: str) -> str:
    """``text`` (bank content) as the learner chose to read it."""
    if _script == SIMPLIFIED or not text:
        return text
    return _to_traditional().convert(text)
