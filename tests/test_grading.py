"""Grading rules on real bank questions (plus hand-made ones for edge cases)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from question_db.bank import load_bank
from question_db.grading import (CORRECT, PARTIAL, PENDING, UNANSWERED, VOID, WRONG,
                                 grade_answer, normalize_blank, parse_number)


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def test_single_choice(bank):
    q = bank.question("001/3")
    assert grade_answer(q, q.answer).verdict == CORRECT
    assert grade_answer(q, q.answer).points == 2
    other = next(k for k in q.options if k != q.answer)
    assert grade_answer(q, other).points == 0
    assert grade_answer(q, None).verdict == UNANSWERED


def test_disputed_single_choice_accepts_named_alternative(bank):
    q = bank.question("001/10")
    assert q.status == "disputed" and q.also_accept
    assert grade_answer(q, q.also_accept[0]).verdict == CORRECT
    assert grade_answer(q, "C").verdict == WRONG


def test_multiple_choice_all_or_nothing(bank):
    q = bank.question("001/12")
    assert q.answer == ["A", "C", "D"]
    assert grade_answer(q, ["D", "A", "C"]).verdict == CORRECT
    assert grade_answer(q, ["A", "C"], multiple_choice_rule="all_or_nothing").points == 0


def test_multiple_choice_partial_rule():
    q = load_bank().question("001/12")
    assert grade_answer(q, ["A", "C"], multiple_choice_rule="partial").points == 2
    assert grade_answer(q, ["A", "C"], multiple_choice_rule="partial").verdict == PARTIAL
    assert grade_answer(q, ["A", "B"], multiple_choice_rule="partial").points == 0


def test_partial_credit_only_against_verified_key():
    q = load_bank().question("001/12")
    q = replace(q, status="disputed", answer=["A", "C"], also_accept=(["A", "B", "C", "D"],))
    assert grade_answer(q, ["A", "B", "C", "D"], multiple_choice_rule="partial").points == 3
    assert grade_answer(q, ["D"], multiple_choice_rule="partial").points == 0


@pytest.mark.parametrize("raw,norm", [
    ("  OpenCLIP ", "openclip"), ("ＯｐｅｎＣＬＩＰ", "openclip"), ("線性", "线性"),
    ("`stuff`", "stuff"), ("Attention。", "attention"), ("world _ size", "world_size"),
])
def test_blank_normalisation(raw, norm):
    assert normalize_blank(raw) == norm


def test_fill_blank_partial_credit_per_blank(bank):
    q = bank.question("001/22")  # two blanks: 线性；线性
    assert grade_answer(q, ["线性", "線性"]).verdict == CORRECT
    half = grade_answer(q, ["线性", "平方"])
    assert half.verdict == PARTIAL and half.points == pytest.approx(1.0)
    assert [p["correct"] for p in half.parts] == [True, False]


def test_void_question_not_scored(bank):
    q = bank.question("000/10")
    assert q.status == "void"
    g = grade_answer(q, "A")
    assert (g.verdict, g.points, g.max_points) == (VOID, 0, 0)


def test_calculation_numeric_parts_with_tolerance(bank):
    q = bank.question("001/26")
    part, rest = q.parts[0], [p.value for p in q.parts[1:]]
    inside = part.value + part.tolerance * 0.9
    outside = part.value + part.tolerance * 1.1
    marks = [True] * len(q.rubric)
    ok = grade_answer(q, {"values": [inside, *rest], "marks": marks})
    assert ok.points == q.points and ok.verdict == CORRECT
    bad = grade_answer(q, {"values": [f"{outside:e}", *rest], "marks": marks})
    assert bad.points == q.points - part.points
    assert grade_answer(q, {"values": [inside, *rest]}).verdict == PENDING  # not self-marked


def test_subjective_self_marks(bank):
    q = bank.question("000/31")
    assert grade_answer(q, {}).verdict == PENDING
    marks = [i % 2 == 0 for i in range(len(q.rubric))]
    g = grade_answer(q, {"marks": marks})
    assert g.points == pytest.approx(sum(r.points for r, m in zip(q.rubric, marks) if m))


def test_programming_scored_from_check_share(bank):
    q = bank.question("001/29")
    auto = sum(r.points for r in q.rubric if r.auto)
    assert auto > 0
    checks = [{"name": "a", "passed": True}, {"name": "b", "passed": False},
              {"name": "c", "passed": False, "required": False}]
    g = grade_answer(q, {"checks": checks, "marks": [True] * len(q.rubric)})
    assert g.points == pytest.approx(auto / 2 + (q.points - auto))
    assert grade_answer(q, {}).verdict == PENDING  # never checked yet


@pytest.mark.parametrize("text,value", [("2.72e8", 2.72e8), ("272,629,760", 272629760.0),
                                        (" 4.9e-6 ", 4.9e-6), ("abc", None), ("−3", -3.0)])
def test_parse_number(text, value):
    assert parse_number(text) == value
