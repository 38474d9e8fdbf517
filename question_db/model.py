"""Typed records of the question bank. Plain data: no I/O, no Qt."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from .enums import OBJECTIVE_TYPES, MultipleChoiceRule, QuestionType, Status

__all__ = ["BLANK_MARK", "NumericPart", "RubricItem", "ReviewFlag", "CodeFiles", "AnswerKey",
           "Question", "Section", "Paper", "Problem", "Bank"]

BLANK_MARK = re.compile(r"_{4,}")  # a blank in a fill-in stem: 4+ underscores


@dataclass(frozen=True)
class NumericPart:
    """One numeric result of a calculation question."""

    label: str
    value: float
    tolerance: float
    unit: str
    points: float

    def to_json(self) -> dict:
        return {"label": self.label, "value": self.value, "tolerance": self.tolerance,
                "unit": self.unit, "points": self.points}


@dataclass(frozen=True)
class RubricItem:
    """A self-marked point of a subjective answer."""

    text: str
    points: float
    auto: bool = False  # programming: scored from the check suite, not self-marked


@dataclass(frozen=True)
class ReviewFlag:
    """Something an importer could not repair by rule and a person must look at."""

    kind: str  # e.g. "deleted_operator", "lost_math", "no_key", "truncated", "encoding"
    text: str  # the offending text, as found
    why: str  # what is likely wrong, in a sentence
    field: str = ""  # the question field it sits in ("stem", "options.B", "code.seed", …)

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "why": self.why, "field": self.field}


@dataclass(frozen=True)
class CodeFiles:
    """Paths of a programming question's code, resolved next to its TOML file."""

    reference: Path | None  # None only in a draft (imported, not yet solved by a person)
    starter: Path | None = None
    seed: Path | None = None
    check: Path | None = None
    wrong: tuple[Path, ...] = ()
    # More correct solutions, in other designs (names, layouts, conventions) than the
    # reference: the check suite must pass every one of them.
    correct: tuple[Path, ...] = ()

    def read(self, which: str) -> str:
        path = getattr(self, which)
        return path.read_text(encoding="utf-8") if path else ""


# answer shapes by type: "B" | ["A","C"] | [["v1","v2"], …] | [NumericPart, …] | text
AnswerKey = Union[str, list, None]


@dataclass(frozen=True)
class Question:
    """One question with its verified key and the key the seed printed."""

    id: str  # "<paper-id>/<number>"
    paper_id: str
    number: int
    type: QuestionType
    points: float
    stem: str
    status: Status
    answer: AnswerKey
    seed_answer: AnswerKey
    explanation: str = ""
    errata: str = ""
    topics: tuple[str, ...] = ()
    options: dict[str, str] | None = None
    also_accept: tuple = ()  # disputed choice questions: other keys that earn full points
    blank_points: tuple[float, ...] = ()
    parts: tuple[NumericPart, ...] = ()
    rubric: tuple[RubricItem, ...] = ()
    reference_answer: str = ""
    code: CodeFiles | None = None
    verify: Path | None = None  # snippet reproducing the key's figures ("verify in console")
    source_file: str = ""
    truncated: bool = False  # the source was cut off inside this question
    truncated_at: str = ""  # the last text before the cut
    review: tuple[ReviewFlag, ...] = ()  # importer flags on a draft, for a person to resolve

    @property
    def scored(self) -> bool:
        """Void questions are shown and explained but carry no points; so is a draft whose
        source printed no key for an objective question (nothing to grade against)."""
        if self.status == Status.VOID:
            return False
        return not (self.status == Status.DRAFT and self.type in OBJECTIVE_TYPES
                    and not self.answer)

    @property
    def draft(self) -> bool:
        """Imported and not yet verified by a person: the key is the printed one."""
        return self.status == Status.DRAFT

    @property
    def key_changed(self) -> bool:
        """True when the verified key differs from the printed one (or there is none), so
        the learner must be shown both. A ``corrected`` question whose printed key was right
        (only its explanation or code was wrong) shows its errata without a second key."""
        if self.status in (Status.VOID, Status.DISPUTED):
            return True
        if self.type not in OBJECTIVE_TYPES or self.seed_answer in (None, ""):
            return self.status == Status.CORRECTED and self.type not in OBJECTIVE_TYPES
        if self.type == QuestionType.FILL_BLANK and self.answer:
            return len(self.seed_answer) != len(self.answer) or any(
                seed not in variants for seed, variants in zip(self.seed_answer, self.answer))
        return self.answer != self.seed_answer

    @property
    def blank_count(self) -> int:
        """Number of input fields a fill-in needs (from the stem, so void ones work too)."""
        if self.type != QuestionType.FILL_BLANK:
            return 0
        return len(self.answer) if self.answer else len(BLANK_MARK.findall(self.stem))


@dataclass(frozen=True)
class Section:
    title: str
    type: QuestionType
    first: int
    last: int
    points: float
    scoring: str = ""
    multiple_choice_rule: MultipleChoiceRule = MultipleChoiceRule.ALL_OR_NOTHING
    note: str = ""

    def contains(self, number: int) -> bool:
        return self.first <= number <= self.last


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    source: str | None
    language: str
    duration_minutes: int
    sections: tuple[Section, ...]
    questions: tuple[Question, ...]
    duration_note: str = ""
    folder: Path | None = None

    @property
    def total_points(self) -> float:
        """Points as the paper states them (void questions included)."""
        return sum(q.points for q in self.questions)

    @property
    def scorable_points(self) -> float:
        return sum(q.points for q in self.questions if q.scored)

    def section_of(self, question: Question) -> Section | None:
        return next((s for s in self.sections if s.contains(question.number)), None)

    def question(self, number: int) -> Question:
        return next(q for q in self.questions if q.number == number)


@dataclass(frozen=True)
class Problem:
    """One validation problem, printed as ``file:question:field: message``."""

    file: str
    question: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.question}:{self.field}: {self.message}"


@dataclass
class Bank:
    """All papers that loaded, plus every problem found on the way."""

    papers: list[Paper] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def paper(self, paper_id: str) -> Paper:
        for p in self.papers:
            if p.id == paper_id:
                return p
        raise KeyError(f"no paper with id {paper_id!r}")

    def question(self, question_id: str) -> Question:
        paper_id, _, number = question_id.rpartition("/")
        try:
            return self.paper(paper_id).question(int(number))
        except (KeyError, ValueError, StopIteration):
            raise KeyError(f"no question with id {question_id!r}") from None

    def all_questions(self) -> list[Question]:
        return [q for p in self.papers for q in p.questions]
