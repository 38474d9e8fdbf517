"""What an action changed (``Changes``), so screens can refresh what they show of it.

A leaf module: the desktop's operation runner reads it before the first paint, when
nothing of the store or the actions has been imported yet.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Changes", "NOTHING", "changes_of"]


@dataclass(frozen=True)
class Changes:
    """What an action touched. Screens compare it with what they show and refresh."""

    sessions: frozenset[int] = frozenset()  # drafts, answers, flags, state of these sessions
    questions: frozenset[str] = frozenset()  # their answers, reviews or schedule changed
    papers: frozenset[str] = frozenset()  # library cards: scores, attempts, unfinished exams
    reviews: bool = False  # schedule, wrong-answer book, due counts, dashboard figures
    settings: bool = False  # settings kept in the progress file (exam date, daily limits)
    everything: bool = False  # a restore or an import: reload whatever is shown
    notes: frozenset[str] = frozenset()  # question ids whose personal note changed
    favourites: frozenset[str] = frozenset()  # question ids starred or unstarred
    templates: bool = False  # saved practice-set / mock-exam templates

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            sessions=self.sessions | other.sessions, questions=self.questions | other.questions,
            papers=self.papers | other.papers, reviews=self.reviews or other.reviews,
            settings=self.settings or other.settings,
            everything=self.everything or other.everything, notes=self.notes | other.notes,
            favourites=self.favourites | other.favourites,
            templates=self.templates or other.templates)

    def __bool__(self) -> bool:
        return bool(self.sessions or self.questions or self.papers or self.reviews
                    or self.settings or self.everything or self.notes or self.favourites
                    or self.templates)

    def touches_paper(self, paper_id: str) -> bool:
        return self.everything or paper_id in self.papers or any(
            q.startswith(paper_id + "/") for q in self.questions)


NOTHING = Changes()


def changes_of(result: Any) -> Changes:
    """The ``changes`` an action's result carries (``NOTHING`` for plain reads)."""
    changes = getattr(result, "changes", NOTHING)
    return changes if isinstance(changes, Changes) else NOTHING
