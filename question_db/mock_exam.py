"""Mock exams (组卷): an exam composed from the bank by a spec, run exactly like a paper.

A composed exam is an exam session whose ``paper_id`` names no bank paper (``mock-…``) and
whose question list is stored with it (``composed_exams`` / ``composed_questions``): which
bank question sits at which number, in which section, for how many points. The session's
``Paper`` is rebuilt from that list (``session_paper``), so a resumed or reported exam is the
same exam even after the bank grows or the template changes; a question removed from the
bank since is reported as missing (and no longer scored).

The rebuilt paper holds copies of the bank questions renumbered 1..N, with the points the
spec gives each type (their blanks, parts and rubric items scaled to match), grouped in one
section per type; the copies keep their bank ``id``, so answers, reviews, the wrong-answer
book and the dashboard stay per real question. Void questions (and drafts without a key)
are never composed; drafts only when the spec includes them.
"""
from __future__ import annotations

import random
from collections import Counter
import uuid
from dataclasses import asdict, dataclass, replace
from typing import Any

from . import store_study as rows
from .enums import MultipleChoiceRule, QuestionType
from .model import Bank, Paper, Question, Section
from .store import ProgressStore, SessionRecord
from .store_study import ComposedQuestionRow

__all__ = ["TYPE_NAMES", "MockPart", "MockExamSpec", "Shortage", "CompositionError",
           "MissingQuestion", "MockPaper", "MockExamRecord", "mock_exam_records",
           "mock_paper_id", "pool", "compose", "build_paper", "session_paper",
           "typical_points", "with_points"]

# Section names of a composed paper: content, in the bank's language (Simplified Chinese)
TYPE_NAMES = {
    QuestionType.SINGLE_CHOICE: "单选题", QuestionType.MULTIPLE_CHOICE: "多选题",
    QuestionType.FILL_BLANK: "填空题", QuestionType.CALCULATION: "计算与推导题",
    QuestionType.SHORT_ANSWER: "简答题", QuestionType.SYSTEM_DESIGN: "系统设计题",
    QuestionType.PROGRAMMING: "编程题",
}
_ORDINALS = "一二三四五六七"  # one section per question type: at most seven


@dataclass(frozen=True)
class MockPart:
    """``count`` questions of ``type``, each worth ``points`` in this exam."""

    type: QuestionType
    count: int
    points: float

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "type", QuestionType(self.type))
        except ValueError as exc:
            raise ValueError(f"mock exam: parts: {exc}") from None
        if not isinstance(self.count, int) or isinstance(self.count, bool) or self.count < 1:
            raise ValueError(f"mock exam: {self.type}: count must be a positive whole "
                             f"number, not {self.count!r}")
        if (not isinstance(self.points, (int, float)) or isinstance(self.points, bool)
                or not self.points > 0):
            raise ValueError(f"mock exam: {self.type}: points must be positive, not "
                             f"{self.points!r}")


@dataclass(frozen=True)
class MockExamSpec:
    """How to compose: from which papers (None = all) and topics (any of them; empty = all),
    which parts, how long, and the seed that makes the composition reproducible."""

    title: str
    parts: tuple[MockPart, ...]
    duration_minutes: int
    paper_ids: tuple[str, ...] | None = None
    topics: tuple[str, ...] = ()
    seed: int = 0
    include_drafts: bool = False  # drafts are not counted in scored exams unless chosen
    multiple_choice_rule: MultipleChoiceRule = MultipleChoiceRule.ALL_OR_NOTHING

    def __post_init__(self) -> None:
        parts = tuple(p if isinstance(p, MockPart) else MockPart(**p) for p in self.parts)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "topics", tuple(self.topics))
        if self.paper_ids is not None:
            object.__setattr__(self, "paper_ids", tuple(self.paper_ids))
        try:
            object.__setattr__(self, "multiple_choice_rule",
                               MultipleChoiceRule(self.multiple_choice_rule))
        except ValueError as exc:
            raise ValueError(f"mock exam: multiple_choice_rule: {exc}") from None
        if not str(self.title).strip():
            raise ValueError("mock exam: title must not be empty")
        if not parts:
            raise ValueError("mock exam: parts: at least one type of question is needed")
        types = [p.type for p in parts]
        if len(set(types)) != len(types):
            raise ValueError("mock exam: parts: each type may appear once")
        if (not isinstance(self.duration_minutes, int) or isinstance(self.duration_minutes, bool)
                or self.duration_minutes <= 0):
            raise ValueError(f"mock exam: duration_minutes must be a positive whole number, "
                             f"not {self.duration_minutes!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise ValueError(f"mock exam: seed must be a whole number, not {self.seed!r}")

    @property
    def total_points(self) -> float:
        return sum(p.count * p.points for p in self.parts)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(parts=[{"type": str(p.type), "count": p.count, "points": p.points}
                           for p in self.parts],
                    paper_ids=None if self.paper_ids is None else list(self.paper_ids),
                    topics=list(self.topics),
                    multiple_choice_rule=str(self.multiple_choice_rule))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MockExamSpec:
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"mock exam: unknown field(s) {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True)
class Shortage:
    type: QuestionType
    needed: int
    available: int


class CompositionError(ValueError):
    """The bank has too few questions for some parts; ``shortages`` says which."""

    def __init__(self, spec: MockExamSpec, shortages: list[Shortage]):
        self.shortages = tuple(shortages)
        scope = ("all papers" if spec.paper_ids is None
                 else "paper(s) " + ", ".join(spec.paper_ids))
        if spec.topics:
            scope += " on " + " / ".join(spec.topics)
        scope += ", drafts included" if spec.include_drafts else ", drafts excluded"
        short = "; ".join(f"{s.type}: {s.needed} needed, {s.available} available"
                          for s in self.shortages)
        super().__init__(f"mock exam {spec.title!r}: not enough questions in {scope}: "
                         f"{short}")


# A question of a composed exam that the bank no longer has: its stored row
MissingQuestion = ComposedQuestionRow


@dataclass(frozen=True)
class MockPaper:
    """A composed exam's paper, rebuilt from its stored list."""

    paper: Paper
    missing: tuple[MissingQuestion, ...] = ()
    template_uid: str | None = None


def mock_paper_id(uid: str) -> str:
    """The paper id of a template's sessions (its best and last scores group on it)."""
    return f"mock-{uid[:12]}"


def typical_points(bank: Bank, qtype: str, default: float = 5.0) -> float:
    """What a question of ``qtype`` is most often worth in the bank (the smaller of two
    equally common values): a mock exam's points per type start from the papers' own."""
    counts = Counter(q.points for q in bank.all_questions()
                     if q.type == qtype and q.scored and q.points > 0)
    if not counts:
        return default
    top = max(counts.values())
    return float(min(points for points, n in counts.items() if n == top))


def _eligible(question: Question, spec: MockExamSpec) -> bool:
    return (question.scored and question.points > 0
            and (spec.include_drafts or not question.draft)
            and (not spec.topics or bool(set(spec.topics) & set(question.topics))))


def pool(bank: Bank, spec: MockExamSpec) -> dict[QuestionType, list[Question]]:
    """Every question the spec may draw, per type, sorted by paper id and number."""
    wanted = None if spec.paper_ids is None else set(spec.paper_ids)
    out: dict[QuestionType, list[Question]] = {p.type: [] for p in spec.parts}
    for paper in bank.papers:
        if wanted is not None and paper.id not in wanted:
            continue
        for q in paper.questions:
            if q.type in out and _eligible(q, spec):
                out[q.type].append(q)
    for questions in out.values():
        questions.sort(key=lambda q: (q.paper_id, q.number))
    return out


def compose(bank: Bank, spec: MockExamSpec, *, seed: int | None = None
            ) -> tuple[ComposedQuestionRow, ...]:
    """The question list: each part's questions drawn with ``random.Random(seed)`` (the
    spec's seed unless one is given) in the order of the parts. Deterministic for a given
    bank; raises ``CompositionError`` naming every type that is short."""
    drawn = pool(bank, spec)
    shortages = [Shortage(p.type, p.count, len(drawn[p.type])) for p in spec.parts
                 if len(drawn[p.type]) < p.count]
    if shortages:
        raise CompositionError(spec, shortages)
    rng = random.Random(spec.seed if seed is None else seed)
    out: list[ComposedQuestionRow] = []
    for i, part in enumerate(spec.parts):
        section = f"{_ORDINALS[i]}、{TYPE_NAMES[part.type]}"
        for q in rng.sample(drawn[part.type], part.count):
            out.append(ComposedQuestionRow(len(out) + 1, q.id, str(part.type),
                                           float(part.points), section))
    return tuple(out)


def with_points(question: Question, number: int, points: float) -> Question:
    """A copy renumbered and worth ``points``: blanks, numeric parts and rubric items scaled
    in proportion, so grading gives the same share of the new total."""
    factor = points / question.points
    parts = tuple(replace(p, points=p.points * factor) for p in question.parts)
    return replace(
        question, number=number, points=points,
        blank_points=tuple(p * factor for p in question.blank_points), parts=parts,
        rubric=tuple(replace(r, points=r.points * factor) for r in question.rubric),
        answer=[p.to_json() for p in parts] if question.type == QuestionType.CALCULATION
        else question.answer)


def build_paper(paper_id: str, title: str, spec: MockExamSpec,
                questions: tuple[ComposedQuestionRow, ...], bank: Bank,
                template_uid: str | None = None) -> MockPaper:
    """The ``Paper`` of a composed exam from its question list and the bank now."""
    by_id = {q.id: q for q in bank.all_questions()}
    copies: list[Question] = []
    missing: list[MissingQuestion] = []
    sections: list[Section] = []
    for row in questions:
        source = by_id.get(row.question_id)
        if source is None or source.points <= 0:
            missing.append(row)
        else:
            copies.append(with_points(source, row.position, row.points))
        if sections and sections[-1].title == row.section:
            last = sections[-1]
            sections[-1] = replace(last, last=row.position,
                                   points=last.points + (row.points if source else 0))
        else:
            sections.append(Section(
                title=row.section, type=QuestionType(row.type), first=row.position,
                last=row.position, points=row.points if source else 0,
                multiple_choice_rule=spec.multiple_choice_rule))
    counts = {s.title: sum(1 for r in questions if r.section == s.title) for s in sections}
    sections = [replace(s, scoring=f"每题{_points(s, questions)}分，共{counts[s.title]}题")
                for s in sections]
    language = next((p.language for p in bank.papers
                     if copies and p.id == copies[0].paper_id), "zh-Hans")
    paper = Paper(id=paper_id, title=title, source=None, language=language,
                  duration_minutes=spec.duration_minutes, sections=tuple(sections),
                  questions=tuple(copies), folder=None)
    return MockPaper(paper, tuple(missing), template_uid)


def _points(section: Section, questions: tuple[ComposedQuestionRow, ...]) -> str:
    values = sorted({r.points for r in questions if r.section == section.title})
    return "/".join(f"{v:g}" for v in values)


def session_paper(store: ProgressStore, bank: Bank, session: SessionRecord
                  ) -> MockPaper | None:
    """The composed paper of ``session``; None when it is a bank paper's session."""
    row = rows.composed_row(store, session.id)
    if row is None:
        return None
    return build_paper(session.paper_id, row.title, MockExamSpec.from_json(row.spec),
                       row.questions, bank, row.template_uid)


@dataclass(frozen=True)
class MockExamRecord:
    """A mock exam taken or under way: its session, its title and the template it was
    composed from (None: composed once, not saved)."""

    session: SessionRecord
    title: str
    template_uid: str | None


def mock_exam_records(store: ProgressStore) -> list[MockExamRecord]:
    """Every mock exam session, newest first (the library's card, the dashboard's trend)."""
    composed = {r[0]: (r[1], r[2]) for r in store.execute(
        "SELECT session_id, title, template_uid FROM composed_exams")}
    return [MockExamRecord(s, *composed[s.id]) for s in store.sessions_of(composed)]


def new_paper_id(template_uid: str | None) -> str:
    return mock_paper_id(template_uid or uuid.uuid4().hex)
