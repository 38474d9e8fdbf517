""""Verify in console" snippets really reproduce the keys they back."""
from __future__ import annotations

import runpy

import pytest

from question_db.bank import load_bank

QUESTIONS = [q for q in load_bank().all_questions() if q.verify]


def test_calculations_have_snippets():
    ids = {q.id for q in QUESTIONS}
    assert {"001/26", "001/27", "001/28"} <= ids


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_snippet_figures_match_the_key(q, capsys):
    figures = runpy.run_path(str(q.verify))["FIGURES"]
    assert capsys.readouterr().out.strip(), "a verify snippet must print what it computed"
    for part in q.parts:
        assert part.label in figures, f"{q.id}: snippet does not compute {part.label!r}"
        assert abs(figures[part.label] - part.value) <= part.tolerance, (part.label,
                                                                         figures[part.label])
    if q.id == "000/5":
        assert figures["patch projection weights"] == 768 * 768
    if q.id == "001/17":
        assert [figures["sequence length"], figures["head dim"]] == [257, 64]
        assert q.answer == [["257"], ["64"]]
