"""The closed vocabularies of the bank and the progress store, as ``str`` enums.

A leaf module (imports nothing of examdesk): the model, grading, the schema and the store all
read it. Members compare equal to their values (``Verdict.CORRECT == "correct"``), so JSON
and SQL keep plain strings; ``sql_list`` renders a set of members as an SQL ``IN (…)`` list,
so a query never spells a vocabulary out by hand.
"""
from __future__ import annotations

from enum import Enum
from typing import Iterable

__all__ = ["QuestionType", "Status", "Verdict", "SessionMode", "SessionState",
           "MultipleChoiceRule", "ReviewKind", "SeenHow", "Mark", "SetOrder", "TemplateKind",
           "sql_list", "OBJECTIVE_TYPES", "CHOICE_TYPES",
           "SUBJECTIVE_TYPES", "GRADED_VERDICTS", "FINISHED_STATES", "SUBMITTED_STATES"]


class _StrEnum(str, Enum):
    """``enum.StrEnum`` (3.11+) for Python 3.10: ``str()``/``format()`` give the value."""

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__


class QuestionType(_StrEnum):
    SINGLE_CHOICE = "single_choice"
    MULTIPLE_CHOICE = "multiple_choice"
    FILL_BLANK = "fill_blank"
    CALCULATION = "calculation"
    SHORT_ANSWER = "short_answer"
    SYSTEM_DESIGN = "system_design"
    PROGRAMMING = "programming"


class Status(_StrEnum):
    """How far a question's key can be trusted."""

    OK = "ok"  # the printed key was verified
    CORRECTED = "corrected"  # something printed was wrong (key, explanation or code): fixed
    VOID = "void"  # no correct answer / false premise: shown, explained, not scored
    DISPUTED = "disputed"  # defensible either way: alternatives accepted
    DRAFT = "draft"  # imported, nobody verified it yet: the key is the printed one


class Verdict(_StrEnum):
    CORRECT = "correct"
    PARTIAL = "partial"
    WRONG = "wrong"
    UNANSWERED = "unanswered"
    VOID = "void"
    PENDING = "pending"  # awaits self-marks or a check run


class SessionMode(_StrEnum):
    PRACTICE = "practice"
    EXAM = "exam"


class SessionState(_StrEnum):
    ACTIVE = "active"
    SUBMITTED = "submitted"
    AUTO_SUBMITTED = "auto_submitted"
    ABANDONED = "abandoned"


class MultipleChoiceRule(_StrEnum):
    ALL_OR_NOTHING = "all_or_nothing"
    PARTIAL = "partial"


class ReviewKind(_StrEnum):
    """Where a review (an FSRS rating) came from. Only ``ANSWER`` is a graded answer: the
    others are the learner's own judgement and never count as right or wrong answers."""

    ANSWER = "answer"  # a graded answer (practice, exam)
    REVEAL = "reveal"  # "Show answer" in practice without answering: Again
    RECITE = "recite"  # 背题: knew it (Good) / didn't (Again)
    REVIEW = "review"  # rated 1-4 in a review session (Anki's flow)


class SeenHow(_StrEnum):
    """How a question was seen in a session without being answered."""

    REVEALED = "revealed"
    RECITED = "recited"


class Mark(_StrEnum):
    """A question's status in a session, as the navigator (答题卡) colours it."""

    UNANSWERED = "unanswered"
    ANSWERED = "answered"  # a response on screen, not graded yet (an exam, an unsent draft)
    RIGHT = "right"
    PARTLY = "partly"
    WRONG = "wrong"
    PENDING = "pending"  # submitted, awaiting self-marks or a check run
    VOID = "void"  # no correct answer: shown, explained, not scored
    REVEALED = "revealed"  # the key was shown without an answer (scheduled as a miss)
    RECITED = "recited"  # seen in recite mode (背题)


class SetOrder(_StrEnum):
    PAPER = "paper"  # 顺序: papers in bank order, questions by number
    RANDOM = "random"  # 随机: seeded, so the same seed gives the same set


class TemplateKind(_StrEnum):
    PRACTICE_SET = "practice_set"
    MOCK_EXAM = "mock_exam"


CHOICE_TYPES = frozenset({QuestionType.SINGLE_CHOICE, QuestionType.MULTIPLE_CHOICE})
OBJECTIVE_TYPES = CHOICE_TYPES | {QuestionType.FILL_BLANK}
SUBJECTIVE_TYPES = frozenset({QuestionType.SHORT_ANSWER, QuestionType.SYSTEM_DESIGN})
GRADED_VERDICTS = frozenset({Verdict.CORRECT, Verdict.PARTIAL, Verdict.WRONG})
FINISHED_STATES = frozenset({SessionState.SUBMITTED, SessionState.AUTO_SUBMITTED,
                             SessionState.ABANDONED})
SUBMITTED_STATES = frozenset({SessionState.SUBMITTED, SessionState.AUTO_SUBMITTED})


def sql_list(members: Iterable[_StrEnum]) -> str:
    """``('a', 'b')`` for an SQL ``IN`` clause, in a stable order (values are identifiers:
    lowercase letters and underscores only, checked here, so nothing needs escaping)."""
    values = sorted(str(m.value) for m in members)
    assert values and all(v.replace("_", "").isalpha() and v.islower() for v in values), values
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"
