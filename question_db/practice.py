"""Practice: submit one answer (graded, stored and scheduled), regrade it after self-marks or
a check run, and runs over a chosen list of questions (the wrong-answer book, today's
reviews). No Qt.

A run may span papers, and a session belongs to one paper, so a run is one practice
session per paper; ``finish_run`` closes them when the learner leaves. A paper's own
practice session (every question, continued across launches) stays separate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from . import review
from .grading import CORRECT, PARTIAL, WRONG, Grade
from .model import Bank, Paper, Question
from .store import ACTIVE, ProgressStore


@dataclass(frozen=True)
class Outcome:
    """A stored practice answer and the schedule it produced."""

    answer_id: int
    card: review.CardState | None  # None: nothing to rate yet (pending, void)


def submit_answer(store: ProgressStore, paper: Paper, session_id: int, question: Question,
                  response: Any, *, grade: Grade, seconds: float,
                  now: float | None = None) -> Outcome:
    """Store a graded answer and its review in one transaction."""
    with store.write():
        answer_id = store.record_answer(session_id, question.id, response, grade=grade,
                                        seconds=seconds, now=now)
        card = review.record_outcome(store, question, paper, grade=grade, seconds=seconds,
                                     answer_id=answer_id, now=now)
    return Outcome(answer_id, card)


def regrade_answer(store: ProgressStore, paper: Paper, question: Question, answer_id: int,
                   grade: Grade, *, now: float | None = None) -> Outcome:
    """Self-marks saved or checks run on a submitted answer: store the grade and re-rate
    the answer (its review is replaced, not added to)."""
    with store.write():
        store.set_grade(answer_id, grade)
        seconds = store.execute("SELECT seconds FROM answers WHERE id = ?",
                                   [answer_id]).fetchone()[0]
        card = review.record_outcome(store, question, paper, grade=grade, seconds=seconds,
                                     answer_id=answer_id, now=now)
    return Outcome(answer_id, card)


@dataclass(frozen=True)
class QuestionRun:
    """A practice run over chosen questions, in order, with a session per paper."""

    questions: tuple[Question, ...]
    papers: dict[str, Paper]
    sessions: dict[str, int]  # paper id -> practice session id


def start_run(store: ProgressStore, bank: Bank, question_ids: Iterable[str], *,
              now: float | None = None) -> QuestionRun:
    """A new practice session for each paper among ``question_ids`` (unknown ids, e.g. of a
    pack no longer installed, are skipped)."""
    questions: list[Question] = []
    for qid in dict.fromkeys(question_ids):
        try:
            questions.append(bank.question(qid))
        except KeyError:
            continue
    papers = {q.paper_id: bank.paper(q.paper_id) for q in questions}
    with store.write():
        sessions = {pid: store.start_session(paper_id=pid, mode="practice", now=now)
                    for pid in papers}
    return QuestionRun(tuple(questions), papers, sessions)


def finish_run(store: ProgressStore, session_ids: Iterable[int], *,
               now: float | None = None) -> None:
    """Close a run's sessions: submitted, scored over the questions answered; a session
    with nothing submitted is abandoned (its drafts stay in the history)."""
    with store.write():
        for session_id in session_ids:
            state = store.session_state(session_id)
            if state.session.state != ACTIVE:
                continue
            grades = [a.grade for a in state.answers.values() if a.grade
                      and a.grade.get("verdict") in (CORRECT, PARTIAL, WRONG)]
            if not state.answers:
                store.finish_session(session_id, state="abandoned", score=0, max_score=0,
                                     now=now)
                continue
            store.finish_session(session_id, state="submitted",
                                 score=sum(g["points"] for g in grades),
                                 max_score=sum(g["max_points"] for g in grades), now=now)
