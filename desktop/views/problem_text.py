"""A core ``Problem`` (an import or export warning) as a learner reads it.

The core prints ``file:question:field: message`` for logs and the CLI. On screen that was
``<pasted text>:-:points: …`` or an installed pack's full path: here the file is its name
(none for pasted text, none when the question names itself as ``000/21``), the question is
"question 12" or the whole paper, and the field has a name in the UI's language.
"""
from __future__ import annotations

import re
from pathlib import PurePath

from question_db.model import Problem

from .translation import tr

__all__ = ["problem_text", "field_label"]

_QUESTION_ID = re.compile(r"[\w.-]+/\d+")


def field_label(name: str) -> str:
    """A question's field by the name the UI uses for it (the raw name if it has none)."""
    return {
        "number": tr("numbering"), "answer": tr("key"), "points": tr("points"),
        "truncated": tr("cut off"), "stem": tr("stem"), "options": tr("options"),
        "type": tr("question type"), "status": tr("status"),
        "explanation": tr("explanation"), "code.check": tr("check suite"),
        "also_accept": tr("accepted variants"), "blank_points": tr("points per blank"),
        "rubric": tr("rubric"), "multiple_choice_rule": tr("multiple-choice scoring"),
        "errata": tr("errata"), "topics": tr("topics"),
    }.get(name, name)


def problem_text(problem: Problem) -> str:
    """``file · question · field: message``, each part only where it says something."""
    parts = []
    question = problem.question
    names_itself = bool(_QUESTION_ID.fullmatch(question))
    if problem.file and not problem.file.startswith("<") and not names_itself:
        parts.append(PurePath(problem.file).name)
    if question.isdigit():
        parts.append(tr("question %1").replace("%1", question))
    elif question and question != "-":
        parts.append(question)
    else:
        parts.append(tr("the whole paper"))
    if problem.field and problem.field != "-":
        parts.append(field_label(problem.field))
    return " · ".join(parts) + ": " + problem.message
