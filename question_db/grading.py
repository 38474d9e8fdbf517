"""Score a learner's response to one question. Pure functions, no I/O.

Responses are the typed records of ``responses.py`` (one per kind of question); a stored
JSON response is read with ``responses.response_from_json`` first. Rubric items flagged
``auto`` (programming) are scored from the share of required checks passed; the others are
self-marked by the learner.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .enums import CHOICE_TYPES, SUBJECTIVE_TYPES, MultipleChoiceRule, QuestionType, Verdict
from .model import Paper, Question
from .responses import (BlanksResponse, CalculationResponse, ChoiceResponse, CodeResponse,
                        Response, TextResponse, response_from_json)

__all__ = ["Grade", "grade_answer", "grade_in_paper", "normalize_blank", "parse_number",
           "check_share", "response_answered", "as_response"]

CORRECT, PARTIAL, WRONG = Verdict.CORRECT, Verdict.PARTIAL, Verdict.WRONG
UNANSWERED, VOID, PENDING = Verdict.UNANSWERED, Verdict.VOID, Verdict.PENDING
_SPACE = re.compile(r"\s+")
_QUOTES = "`'\"“”‘’「」『』《》"
_TRAILING = "。．.，,；;：:！!？?"


@dataclass(frozen=True)
class Grade:
    """What a response earned. ``parts`` holds per-blank / per-part / per-check detail."""

    points: float
    max_points: float
    verdict: Verdict
    parts: list[dict] = field(default_factory=list)

    @property
    def fraction(self) -> float:
        return self.points / self.max_points if self.max_points else 0.0

    def to_json(self) -> dict:
        return {"points": self.points, "max_points": self.max_points,
                "verdict": str(self.verdict), "parts": self.parts}

    @classmethod
    def from_json(cls, data: dict) -> Grade:
        return cls(data["points"], data["max_points"], Verdict(data["verdict"]),
                   list(data.get("parts") or []))


@lru_cache(maxsize=1)
def _t2s():
    import opencc  # deferred: ~20 ms to build the converter, only fill-ins need it

    return opencc.OpenCC("t2s")


def normalize_blank(text: str) -> str:
    """Case, width, spacing, quote and 繁/简 insensitive form of a fill-in answer."""
    text = unicodedata.normalize("NFKC", str(text))
    text = _t2s().convert(text)
    text = _SPACE.sub("", text).strip(_QUOTES).rstrip(_TRAILING).strip(_QUOTES)
    return text.casefold()


def parse_number(text: Any) -> float | None:
    """A number from what the learner typed: '2.72e8', '272,629,760', ' 4.9e-6 '."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str):
        return None
    cleaned = unicodedata.normalize("NFKC", text).replace(",", "").replace("_", "").strip()
    cleaned = cleaned.replace("×10^", "e").replace("x10^", "e").replace("−", "-")
    try:
        return float(cleaned)
    except ValueError:
        return None


def _accepted_keys(question: Question) -> list:
    """The verified key plus, for disputed questions, the alternatives it names."""
    return [question.answer, *question.also_accept]


def _verdict(points: float, max_points: float) -> str:
    if max_points and points >= max_points - 1e-9:
        return CORRECT
    return PARTIAL if points > 0 else WRONG


def _grade_choice(q: Question, response: ChoiceResponse, rule: str) -> Grade:
    if q.type == QuestionType.SINGLE_CHOICE:
        if len(response.picked) != 1:
            return Grade(0, q.points, UNANSWERED)
        ok = response.picked[0] in _accepted_keys(q)
        return Grade(q.points if ok else 0, q.points, CORRECT if ok else WRONG)
    picked = sorted(set(response.picked))
    if not picked:
        return Grade(0, q.points, UNANSWERED)
    best = 0.0
    if any(picked == sorted(set(key)) for key in _accepted_keys(q)):
        best = q.points
    elif rule == MultipleChoiceRule.PARTIAL and set(picked) <= set(q.answer):
        # partial credit only against the verified key, never against an alternative
        best = q.points * len(picked) / len(set(q.answer))
    return Grade(round(best, 4), q.points, _verdict(best, q.points))


def _grade_fill(q: Question, response: BlanksResponse) -> Grade:
    answers = list(response.blanks)
    if not response.answered:
        return Grade(0, q.points, UNANSWERED)
    parts, total = [], 0.0
    for i, (variants, pts) in enumerate(zip(q.answer, q.blank_points)):
        given = answers[i] if i < len(answers) else ""
        accepted = {normalize_blank(v) for v in variants}
        ok = bool(str(given).strip()) and normalize_blank(given) in accepted
        total += pts if ok else 0
        parts.append({"blank": i + 1, "given": given, "correct": ok, "points": pts if ok else 0,
                      "max_points": pts, "key": variants[0], "accepted": list(variants)})
    return Grade(round(total, 4), q.points, _verdict(total, q.points), parts)


def _grade_marks(rubric, marks: Any, offset_points: float = 0.0, skip_auto: bool = False):
    parts, total = [], 0.0
    marks = list(marks or [])
    for i, item in enumerate(rubric):
        if skip_auto and getattr(item, "auto", False):
            continue
        given = bool(marks[i]) if i < len(marks) and marks[i] is not None else None
        earned = item.points if given else 0.0
        total += earned
        parts.append({"rubric": i + 1, "text": item.text, "marked": given, "points": earned,
                      "max_points": item.points})
    return parts, total + offset_points


def _grade_calculation(q: Question, response: CalculationResponse) -> Grade:
    values = list(response.values)
    parts, total = [], 0.0
    for i, part in enumerate(q.parts):
        given = parse_number(values[i]) if i < len(values) else None
        ok = given is not None and abs(given - part.value) <= part.tolerance
        total += part.points if ok else 0
        parts.append({"part": part.label, "given": given, "correct": ok, "key": part.value,
                      "unit": part.unit, "tolerance": part.tolerance,
                      "points": part.points if ok else 0, "max_points": part.points})
    rubric_parts, total = _grade_marks(q.rubric, response.marks, total)
    parts += rubric_parts
    if not any(p.get("given") is not None for p in parts[: len(q.parts)]) and not any(
            p.get("marked") for p in rubric_parts):
        return Grade(0, q.points, UNANSWERED, parts)
    pending = any(p["marked"] is None for p in rubric_parts)
    return Grade(round(total, 4), q.points, PENDING if pending else _verdict(total, q.points),
                 parts)


def _grade_subjective(q: Question, response: TextResponse) -> Grade:
    marks = response.marks
    if marks is None:
        return Grade(0, q.points, PENDING)
    parts, total = _grade_marks(q.rubric, marks)
    return Grade(round(total, 4), q.points, _verdict(total, q.points), parts)


def check_share(checks: tuple[dict, ...] | list[dict] | None) -> float | None:
    """Share of required checks passed; None when the code has not been checked, or a
    required check could not judge it here (``not_judged``)."""
    if not checks:
        return None
    required = [c for c in checks if c.get("required", True)]
    if not required or any(c.get("not_judged") for c in required):
        # A required check this environment could not judge (a Triton without block
        # pointers) leaves the answer pending: neither right nor wrong.
        return None
    return sum(1 for c in required if c.get("passed")) / len(required)


def _grade_programming(q: Question, response: CodeResponse) -> Grade:
    share = check_share(response.checks)
    auto_points = sum(r.points for r in q.rubric if getattr(r, "auto", False))
    earned_auto = (share or 0.0) * auto_points
    parts, total = _grade_marks(q.rubric, response.marks, earned_auto, skip_auto=True)
    parts.insert(0, {"checks_passed_share": share, "points": round(earned_auto, 4),
                     "max_points": auto_points})
    if share is None and auto_points:
        return Grade(round(total, 4), q.points, PENDING, parts)
    if not auto_points and any(p.get("marked") is None for p in parts[1:]):
        # No checks score it (an imported code question): it waits for the self-marks,
        # it is not 0 points wrong (issue 30).
        return Grade(round(total, 4), q.points, PENDING, parts)
    return Grade(round(total, 4), q.points, _verdict(total, q.points), parts)


def as_response(question: Question, response: Response | Any) -> Response:
    """``response`` as the typed record of the question's kind (stored JSON is read)."""
    if isinstance(response, (ChoiceResponse, BlanksResponse, CalculationResponse,
                             TextResponse, CodeResponse)):
        return response
    starter = question.code.read("starter") if question.code else ""
    return response_from_json(question.type, response, starter=starter)


def response_answered(question: Question, response: Response | Any) -> bool:
    """Whether a response counts as answered (a programming one: changed from the starter)."""
    if response is None:
        return False
    typed = as_response(question, response)
    if isinstance(typed, CodeResponse):
        starter = question.code.read("starter") if question.code else ""
        return typed.answered and typed.code.strip() != starter.strip()
    return typed.answered


def grade_answer(question: Question, response: Response | Any, *,
                 multiple_choice_rule: str = MultipleChoiceRule.ALL_OR_NOTHING) -> Grade:
    """Score ``response`` against the verified key. Void questions score 0 of 0."""
    if not question.scored:
        return Grade(0, 0, VOID)
    response = as_response(question, response)
    if question.type in CHOICE_TYPES:
        return _grade_choice(question, response, multiple_choice_rule)
    if question.type == QuestionType.FILL_BLANK:
        return _grade_fill(question, response)
    if question.type == QuestionType.CALCULATION:
        return _grade_calculation(question, response)
    if question.type in SUBJECTIVE_TYPES:
        return _grade_subjective(question, response)
    return _grade_programming(question, response)


def grade_in_paper(paper: Paper, question: Question, response: Response | Any) -> Grade:
    """``grade_answer`` under the multiple-choice rule of the question's section."""
    section = paper.section_of(question)
    return grade_answer(question, response, multiple_choice_rule=(
        section.multiple_choice_rule if section else MultipleChoiceRule.ALL_OR_NOTHING))
