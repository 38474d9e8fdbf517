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
           "MultipleChoiceRule", "sql_list", "OBJECTIVE_TYPES", "CHOICE_TYPES",
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
