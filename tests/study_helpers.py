"""Shared pieces of the study-mode tests (no Qt): a small synthetic bank on disk, right and
wrong responses for any question, and a direct reader of the progress file."""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from question_db.bank import load_bank
from question_db.model import Bank, Question
from question_db.responses import (BlanksResponse, CalculationResponse, ChoiceResponse,
                                   CodeResponse, TextResponse)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from bench.synthetic_bank import write_bank  # noqa: E402

T0 = 1_780_000_000.0  # a fixed wall clock


def synthetic_bank(root: Path, papers: int = 4) -> Bank:
    """``papers`` × 50 generated questions (paper syn004 would be the first imported
    pack; with 4 papers there is none: ``imported_every=2`` makes syn001/syn003 drafts)."""
    write_bank(root, papers=papers, imported_every=2)
    bank = load_bank([root], include_bundled=False)
    assert not bank.problems, bank.problems[:3]
    return bank


def right(q: Question):
    """A response that earns full points."""
    if q.type == "single_choice":
        return ChoiceResponse((q.answer,))
    if q.type == "multiple_choice":
        return ChoiceResponse(tuple(q.answer))
    if q.type == "fill_blank":
        return BlanksResponse(tuple(v[0] for v in q.answer))
    if q.type == "calculation":
        return CalculationResponse(tuple(str(p.value) for p in q.parts), "",
                                   (True,) * len(q.rubric) if q.rubric else None)
    if q.type == "programming":
        return CodeResponse("x = 1", ({"name": "all", "passed": True, "required": True},),
                            (True,) * len(q.rubric))
    return TextResponse("…", (True,) * len(q.rubric))


def wrong(q: Question):
    """A response that earns nothing."""
    if q.type in ("single_choice", "multiple_choice"):
        key = q.answer if isinstance(q.answer, str) else q.answer[0]
        return ChoiceResponse((next(k for k in q.options if k != key),))
    if q.type == "fill_blank":
        return BlanksResponse(("错",) * len(q.answer))
    if q.type == "calculation":
        return CalculationResponse(("-1",) * len(q.parts), "",
                                   (False,) * len(q.rubric) if q.rubric else None)
    if q.type == "programming":
        return CodeResponse("x = 1", ({"name": "all", "passed": False, "required": True},),
                            (False,) * len(q.rubric))
    return TextResponse("…", (False,) * len(q.rubric))


def db_rows(path: Path, sql: str, params=()) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()
