"""A core ``Problem`` (an import or export warning) as a learner reads it.

The core prints ``file:question:field: message`` for logs and the CLI. On screen that was
``<pasted text>:-:points: …`` or an installed pack's full path: here the file is its name
(none for pasted text, none when the question names itself as ``000/21``), the question is
"question 12" or the whole paper, and the field has a name in the UI's language. The
message itself, like a review flag's why, is the core's English sentence: it is shown from
the core's catalogue (``question_db.interchange.message_catalogue``) in the UI's language,
in English where the catalogue has no template for it.
"""
from __future__ import annotations

import re
from pathlib import PurePath

from PySide6.QtCore import QLocale

from question_db.interchange.message_catalogue import translate
from question_db.interchange.refusals import refusal_text
from question_db.model import Problem

from .translation import tr

__all__ = ["problem_text", "field_label", "flag_label", "message_text", "refusal_message"]

_QUESTION_ID = re.compile(r"[\w.-]+/\d+")


def field_label(name: str) -> str:
    """A question's field by the name the UI uses for it (the raw name if it has none);
    ``options.A`` is the options' label and the letter."""
    names = field_names()
    head, _, rest = name.partition(".")
    if rest and name not in names and head in names:
        return f"{names[head]} {rest}"
    return names.get(name, name)


def field_names() -> dict[str, str]:
    """A question's fields by their UI names (built per call: the UI language is chosen at
    start-up, after this module is imported)."""
    return {
        "number": tr("numbering"), "answer": tr("key"), "points": tr("points"),
        "truncated": tr("cut off"), "stem": tr("stem"), "options": tr("options"),
        "type": tr("question type"), "status": tr("status"),
        "explanation": tr("explanation"), "code.check": tr("check suite"),
        "also_accept": tr("accepted variants"), "blank_points": tr("points per blank"),
        "rubric": tr("rubric"), "multiple_choice_rule": tr("multiple-choice scoring"),
        "errata": tr("errata"), "topics": tr("topics"), "code": tr("code"),
        "topic": tr("topic"), "note": tr("my note"),  # search: a topic tag, the own note
    }


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
    return " · ".join(parts) + ": " + message_text(problem.message)


def message_text(text: str) -> str:
    """A core sentence (a review flag's why, a warning's message) in the UI's language
    (the default QLocale follows it, ``desktop.app.install_translations``)."""
    return translate(text, QLocale().name())


def refusal_message(error: BaseException | str) -> str:
    """Why a file was not imported or a pack not saved (``str()`` of the core's refusal,
    naming the file) in the UI's language (``question_db.interchange.refusals``)."""
    return refusal_text(str(error), QLocale().name())


def flag_label(kind: str) -> str:
    """An import review flag's kind as the learner reads it (the core's ``no_key``,
    ``lost_math`` are identifiers); the raw kind where it has no name yet."""
    return flag_names().get(kind, kind)


def flag_names() -> dict[str, str]:
    """Every flag kind the importers raise, named (tests/test_gui_import_review.py)."""
    return {
        "no_key": tr("no key printed"), "key": tr("key"), "weight": tr("points"),
        "partial_credit": tr("partial credit"), "type": tr("question type"),
        "truncated": tr("cut off"), "tolerance": tr("tolerance"), "rubric": tr("rubric"),
        "no_code": tr("no code"), "code_boundary": tr("where the code ends"),
        "checks": tr("check suite"), "blanks": tr("blanks"),
        "blank_count": tr("number of blanks"), "restored_hyphen": tr("restored hyphen"),
        "lost_math": tr("lost formula"), "lost_name": tr("lost name"),
        "lost_character": tr("lost character"), "lost_whitespace": tr("lost spacing"),
        "does_not_compile": tr("code does not compile"), "indentation": tr("indentation"),
        "also_accept": tr("accepted variants"), "alternatives": tr("alternatives"),
        "choices": tr("options"), "deleted_operator": tr("deleted operator"),
        "lost_comment": tr("lost comment"), "encoding": tr("text encoding"),
    }
