"""What a learner answered, one typed record per kind of question.

These records are the contract between the screens, grading, the progress store and the
progress export: a widget builds one, ``grading.grade_answer`` scores it, the store keeps
``to_json()`` and ``response_from_json`` reads it back. The JSON carries a version and a
kind (``{"v": 1, "kind": "choice", "picked": ["B"]}``); files written before the version
existed hold bare shapes (``"B"``, ``["A", "C"]``, ``{"values": […], "marks": […]}``), which
``response_from_json`` still reads, given the question's type.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Union

from .enums import CHOICE_TYPES, SUBJECTIVE_TYPES, QuestionType

__all__ = ["RESPONSE_VERSION", "ChoiceResponse", "BlanksResponse", "CalculationResponse",
           "TextResponse", "CodeResponse", "Response", "empty_response", "response_from_json",
           "response_to_json", "with_marks", "with_checks"]

RESPONSE_VERSION = 1
Marks = Union[tuple[Union[bool, None], ...], None]  # one per rubric item; None: not marked yet


def _marks(raw: Any) -> Marks:
    if raw is None:
        return None
    return tuple(None if m is None else bool(m) for m in raw)


class _Stored:
    """``to_json()``: the stored form (see ``response_to_json``)."""

    def to_json(self) -> dict:
        return response_to_json(self)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ChoiceResponse(_Stored):
    """Single choice: one letter in ``picked``; multiple choice: any number, sorted."""

    kind: ClassVar[str] = "choice"
    picked: tuple[str, ...] = ()

    @property
    def answered(self) -> bool:
        return bool(self.picked)

    def to_fields(self) -> dict:
        return {"picked": list(self.picked)}


@dataclass(frozen=True)
class BlanksResponse(_Stored):
    """Fill-in: the text of each blank, in order."""

    kind: ClassVar[str] = "blanks"
    blanks: tuple[str, ...] = ()

    @property
    def answered(self) -> bool:
        return any(b.strip() for b in self.blanks)

    def to_fields(self) -> dict:
        return {"blanks": list(self.blanks)}


@dataclass(frozen=True)
class CalculationResponse(_Stored):
    """Calculation: what was typed for each numeric part, the working, rubric self-marks."""

    kind: ClassVar[str] = "calculation"
    values: tuple[str, ...] = ()
    text: str = ""
    marks: Marks = None

    @property
    def answered(self) -> bool:
        return any(v.strip() for v in self.values) or bool(self.text.strip())

    def to_fields(self) -> dict:
        return {"values": list(self.values), "text": self.text,
                "marks": None if self.marks is None else list(self.marks)}


@dataclass(frozen=True)
class TextResponse(_Stored):
    """Short answer / system design: the learner's text and their rubric self-marks."""

    kind: ClassVar[str] = "text"
    text: str = ""
    marks: Marks = None

    @property
    def answered(self) -> bool:
        return bool(self.text.strip())

    def to_fields(self) -> dict:
        return {"text": self.text, "marks": None if self.marks is None else list(self.marks)}


@dataclass(frozen=True)
class CodeResponse(_Stored):
    """Programming: the code, the last check run on it (``{name, passed, required, …}`` per
    check; None: never checked) and self-marks of the rubric items not scored by checks."""

    kind: ClassVar[str] = "code"
    code: str = ""
    checks: tuple[dict, ...] | None = None
    marks: Marks = None

    @property
    def answered(self) -> bool:
        """Some code; ``grading.response_answered`` also compares it with the starter."""
        return bool(self.code.strip())

    def to_fields(self) -> dict:
        return {"code": self.code,
                "checks": None if self.checks is None else [dict(c) for c in self.checks],
                "marks": None if self.marks is None else list(self.marks)}


Response = Union[ChoiceResponse, BlanksResponse, CalculationResponse, TextResponse,
                 CodeResponse]
_BY_KIND: dict[str, type] = {cls.kind: cls for cls in (
    ChoiceResponse, BlanksResponse, CalculationResponse, TextResponse, CodeResponse)}


def _kind_for(qtype: str) -> type:
    if qtype in CHOICE_TYPES:
        return ChoiceResponse
    if qtype == QuestionType.FILL_BLANK:
        return BlanksResponse
    if qtype == QuestionType.CALCULATION:
        return CalculationResponse
    if qtype in SUBJECTIVE_TYPES:
        return TextResponse
    if qtype == QuestionType.PROGRAMMING:
        return CodeResponse
    raise ValueError(f"unknown question type {qtype!r}")


def empty_response(qtype: str, *, starter: str = "") -> Response:
    """An unanswered response of the type's kind (a programming one starts as the starter)."""
    cls = _kind_for(qtype)
    if cls is CodeResponse:
        return CodeResponse(code=starter)
    return cls()


def _texts(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, (str, int, float)):
        return (str(raw),)
    return tuple("" if v is None else str(v) for v in raw)


def _from_fields(cls: type, data: dict) -> Response:
    if cls is ChoiceResponse:
        picked = data.get("picked") or ()
        return ChoiceResponse(tuple(sorted({str(p) for p in _texts(picked)})))
    if cls is BlanksResponse:
        return BlanksResponse(_texts(data.get("blanks")))
    if cls is CalculationResponse:
        return CalculationResponse(_texts(data.get("values")), str(data.get("text") or ""),
                                   _marks(data.get("marks")))
    if cls is TextResponse:
        return TextResponse(str(data.get("text") or ""), _marks(data.get("marks")))
    checks = data.get("checks")
    return CodeResponse(str(data.get("code") or ""),
                        None if checks is None else tuple(dict(c) for c in checks),
                        _marks(data.get("marks")))


def response_from_json(qtype: str, data: Any, *, starter: str = "") -> Response:
    """Read a stored response for a question of ``qtype``; a missing one (None) is empty.

    A response of another kind than the question's (a pack changed the question's type
    since) reads as empty: it cannot be graded against the new key, and it is still in the
    history as written.
    """
    cls = _kind_for(qtype)
    if data is None:
        return empty_response(qtype, starter=starter)
    if isinstance(data, dict) and "v" in data:
        if data.get("kind") != cls.kind or data["v"] > RESPONSE_VERSION:
            return empty_response(qtype, starter=starter)
        return _from_fields(cls, data)
    # Before version 1: bare shapes, told apart by the question's type.
    if cls is ChoiceResponse:
        return _from_fields(cls, {"picked": data if isinstance(data, (list, str)) else ()})
    if cls is BlanksResponse:
        return _from_fields(cls, {"blanks": data if isinstance(data, list) else ()})
    return _from_fields(cls, data if isinstance(data, dict) else {})


def response_to_json(response: Response) -> dict:
    """The stored form: ``{"v": RESPONSE_VERSION, "kind": …, <fields>}``."""
    return {"v": RESPONSE_VERSION, "kind": response.kind, **response.to_fields()}


def with_marks(response: Response, marks: Marks) -> Response:
    """The same answer with the learner's rubric self-marks replaced."""
    if not hasattr(response, "marks"):
        raise TypeError(f"a {response.kind} response has no rubric marks")
    return replace(response, marks=_marks(marks))


def with_checks(response: CodeResponse, checks: list[dict] | None) -> CodeResponse:
    """The same code with the result of a check run on it."""
    return replace(response, checks=None if checks is None else tuple(dict(c) for c in checks))
