"""Typed records of the question bank. Plain data: no I/O, no Qt."""
from __future__ import annotations

import re
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Union

from .enums import OBJECTIVE_TYPES, MultipleChoiceRule, QuestionType, Status

__all__ = ["BLANK_MARK", "NumericPart", "RubricItem", "ReviewFlag", "CodeFiles", "AnswerKey",
           "Question", "Section", "Paper", "Problem", "Bank", "QuestionTotals", "LazyQuestions",
           "question_totals", "errata_count"]

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


class QuestionTotals(NamedTuple):
    """What a paper's library card shows of its questions."""

    count: int
    points: float  # as printed, void questions included (``Paper.total_points``)
    scorable_points: float  # ``Paper.scorable_points``
    errata: int  # questions with errata (corrected or void)


def question_totals(questions: Iterable[Question]) -> QuestionTotals:
    """The totals of ``questions``; a ``LazyQuestions`` answers without decoding."""
    if type(questions) is LazyQuestions:
        return questions.totals
    questions = tuple(questions)
    return QuestionTotals(len(questions), sum(q.points for q in questions),
                          sum(q.points for q in questions if q.scored),
                          sum(1 for q in questions if q.errata))


def errata_count(questions: Iterable[Question]) -> int:
    """How many of ``questions`` carry errata (a ``LazyQuestions`` is not decoded)."""
    if type(questions) is LazyQuestions:
        return questions.totals.errata
    return sum(1 for q in questions if q.errata)


class LazyQuestions:
    """A paper's questions, decoded on first use: an immutable sequence that behaves as the
    ``tuple[Question, ...]`` it stands for (``==`` and ``hash`` as that tuple's; slices,
    ``+``, pickling and copies give plain tuples).

    The bank cache builds one per paper from ``count``, ``totals`` (what ``len``,
    ``question_totals``, ``Paper.total_points`` and ``scorable_points`` read without
    decoding) and ``load``, which returns the tuple. ``load`` runs once, under a lock (the
    UI and the store thread may both ask first); it is dropped with whatever it holds once
    it returned. If it raises, the error reaches the caller and the next access tries
    again. After decoding, the count and the totals are the tuple's own."""

    __slots__ = ("_items", "_load", "_count", "_totals", "_lock")

    def __init__(self, count: int, totals: QuestionTotals,
                 load: Callable[[], tuple[Question, ...]]) -> None:
        self._items: tuple[Question, ...] | None = None
        self._load: Callable[[], tuple[Question, ...]] | None = load
        self._count = count
        self._totals: QuestionTotals | None = totals
        self._lock = threading.Lock()

    @property
    def decoded(self) -> bool:
        """Whether the questions have been decoded (for tests and diagnostics)."""
        return self._items is not None

    def _get(self) -> tuple[Question, ...]:
        items = self._items
        if items is None:
            with self._lock:
                items = self._items
                if items is None:
                    assert self._load is not None
                    items = self._load()
                    if type(items) is not tuple:
                        raise TypeError(f"a lazy paper's questions decoded to a "
                                        f"{type(items).__name__}, not a tuple")
                    self._count, self._totals = len(items), None
                    self._items, self._load = items, None
        return items

    @property
    def totals(self) -> QuestionTotals:
        totals = self._totals
        if totals is None:  # decoded: the tuple's own
            self._totals = totals = question_totals(self._get())
        return totals

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __iter__(self) -> Iterator[Question]:
        return iter(self._get())

    def __reversed__(self) -> Iterator[Question]:
        return reversed(self._get())

    def __getitem__(self, index: Any) -> Any:  # a slice gives a tuple
        return self._get()[index]

    def __contains__(self, value: object) -> bool:
        return value in self._get()

    def index(self, value: Any, start: int = 0, stop: int = sys.maxsize) -> int:
        return self._get().index(value, start, stop)

    def count(self, value: Any) -> int:
        return self._get().count(value)

    @staticmethod
    def _other(other: object) -> tuple | None:
        if type(other) is LazyQuestions:
            return other._get()
        return other if isinstance(other, tuple) else None

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if (type(other) is LazyQuestions or isinstance(other, tuple)) \
                and len(other) != self._count:  # type: ignore[arg-type]
            return False  # without decoding
        items = self._other(other)
        return NotImplemented if items is None else self._get() == items

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: object) -> bool:
        items = self._other(other)
        return NotImplemented if items is None else self._get() < items

    def __le__(self, other: object) -> bool:
        items = self._other(other)
        return NotImplemented if items is None else self._get() <= items

    def __gt__(self, other: object) -> bool:
        items = self._other(other)
        return NotImplemented if items is None else self._get() > items

    def __ge__(self, other: object) -> bool:
        items = self._other(other)
        return NotImplemented if items is None else self._get() >= items

    def __hash__(self) -> int:
        return hash(self._get())

    def __add__(self, other: object) -> Any:
        items = self._other(other)
        return NotImplemented if items is None else self._get() + items

    def __radd__(self, other: object) -> Any:
        items = self._other(other)
        return NotImplemented if items is None else items + self._get()

    def __mul__(self, times: Any) -> Any:
        return self._get() * times

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return repr(self._get())

    def __reduce__(self) -> tuple:  # pickle, copy and deepcopy give a plain tuple
        return (tuple, (self._get(),))


Sequence.register(LazyQuestions)


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    source: str | None
    language: str
    duration_minutes: int
    sections: tuple[Section, ...]
    # A tuple when parsed; a ``LazyQuestions`` (which behaves as one) from the bank cache.
    questions: tuple[Question, ...]
    duration_note: str = ""
    folder: Path | None = None

    @property
    def total_points(self) -> float:
        """Points as the paper states them (void questions included)."""
        if type(self.questions) is LazyQuestions:
            return self.questions.totals.points
        return sum(q.points for q in self.questions)

    @property
    def scorable_points(self) -> float:
        if type(self.questions) is LazyQuestions:
            return self.questions.totals.scorable_points
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
