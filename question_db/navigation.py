"""Where the learner is: each question's mark in a session (the navigator / 答题卡) and each
paper's practice progress (the library card and its Continue target). Reads only; no Qt.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import exam
from . import store_study as rows
from .enums import Mark, SessionMode, SessionState, Verdict
from .grading import as_response, grade_in_paper, response_answered
from .model import Bank, Paper, Question
from .store import ProgressStore, SessionState as StoredSession

__all__ = ["QuestionMark", "SessionMarks", "PracticeProgress", "session_marks",
           "practice_progress", "mark_of_verdict"]

_BY_VERDICT = {Verdict.CORRECT: Mark.RIGHT, Verdict.PARTIAL: Mark.PARTLY,
               Verdict.WRONG: Mark.WRONG, Verdict.PENDING: Mark.PENDING,
               Verdict.VOID: Mark.VOID, Verdict.UNANSWERED: Mark.UNANSWERED}
_SEEN = {"revealed": Mark.REVEALED, "recited": Mark.RECITED}


def mark_of_verdict(verdict: str | None) -> Mark:
    return _BY_VERDICT.get(verdict, Mark.UNANSWERED) if verdict else Mark.UNANSWERED


@dataclass(frozen=True)
class QuestionMark:
    """One cell of the navigator."""

    question_id: str
    number: int
    mark: Mark
    flagged: bool
    has_draft: bool  # something on screen not submitted yet (new, or changed since)


@dataclass(frozen=True)
class SessionMarks:
    session_id: int
    mode: SessionMode
    marks: tuple[QuestionMark, ...]  # in the paper's order
    position: str | None  # where the learner left off
    counts: dict[Mark, int] = field(default_factory=dict)

    def of(self, question_id: str) -> QuestionMark:
        return next(m for m in self.marks if m.question_id == question_id)


def _draft_pending(state: StoredSession, question: Question) -> bool:
    raw, source = exam.response_for(state, question.id)
    return source == "draft" and response_answered(question, raw)


def _mark(paper: Paper, question: Question, state: StoredSession, seen: dict[str, str],
          live_exam: bool) -> Mark:
    if not question.scored:
        return Mark.VOID
    if live_exam:  # no verdicts before the exam is submitted
        raw, source = exam.response_for(state, question.id)
        return Mark.ANSWERED if source and response_answered(question, raw) else Mark.UNANSWERED
    if state.session.mode == SessionMode.EXAM:  # a finished exam: as its report grades it
        raw, source = exam.response_for(state, question.id)
        if source is None or not response_answered(question, raw):
            return Mark.UNANSWERED
        return mark_of_verdict(grade_in_paper(paper, question, as_response(question, raw)).verdict)
    answer = state.answers.get(question.id)
    if answer is not None:  # regraded now, as the report would (a corrected key shows)
        return mark_of_verdict(grade_in_paper(
            paper, question, as_response(question, answer.response)).verdict)
    if question.id in seen:
        return _SEEN[seen[question.id]]
    return Mark.ANSWERED if _draft_pending(state, question) else Mark.UNANSWERED


def session_marks(store: ProgressStore, paper: Paper, session_id: int,
                  questions: tuple[Question, ...] | None = None) -> SessionMarks:
    """Every question's mark in the session (``questions``: a run's part of the paper)."""
    with store.atomic():
        state = store.session_state(session_id)
        seen = rows.seen_in_session(store, session_id)
    live = state.session.mode == SessionMode.EXAM and state.session.state == SessionState.ACTIVE
    marks = []
    counts: dict[Mark, int] = {m: 0 for m in Mark}
    for q in questions if questions is not None else paper.questions:
        mark = _mark(paper, q, state, seen, live)
        counts[mark] += 1
        marks.append(QuestionMark(q.id, q.number, mark, q.id in state.flags,
                                  _draft_pending(state, q)))
    return SessionMarks(session_id, state.session.mode, tuple(marks), state.session.position,
                        counts)


@dataclass(frozen=True)
class PracticeProgress:
    """A paper's practice, for its library card (stored verdicts: no regrading here)."""

    paper_id: str
    total: int
    answered: int  # questions with a submitted answer in the paper's practice session
    right: int
    partly: int
    wrong: int
    pending: int
    seen: int  # shown with the key without an answer (Show answer, recite)
    session_id: int | None  # the practice session to continue; None: not started
    continue_at: str | None  # where to reopen: where it was left, else the first question
    #                          not answered yet; None: from the start
    ever_answered: int  # questions of the paper answered anywhere (sets, exams too)


def practice_progress(store: ProgressStore, bank: Bank) -> dict[str, PracticeProgress]:
    """Per paper of the bank: its practice session's counts and where to continue."""
    with store.atomic():
        sessions = {}
        for s in rows.active_practice_sessions(store):  # newest first
            sessions.setdefault(s.paper_id, s)
        ids = [s.id for s in sessions.values()]
        verdicts = rows.latest_verdicts(store, ids)
        seen = {sid: rows.seen_in_session(store, sid) for sid in ids}
        answered_anywhere = rows.answered_question_ids(store)
    out = {}
    for paper in bank.papers:
        session = sessions.get(paper.id)
        got = verdicts.get(session.id, {}) if session else {}
        marks = [m for m in (mark_of_verdict(got[q.id]) for q in paper.questions
                             if q.id in got) if m != Mark.UNANSWERED]  # an empty submit
        qids = [q.id for q in paper.questions]
        continue_at = None
        if session is not None:
            if session.position in qids:
                continue_at = session.position
            else:
                continue_at = next((qid for qid in qids if qid not in got), None)
        out[paper.id] = PracticeProgress(
            paper_id=paper.id, total=len(qids), answered=len(marks),
            right=marks.count(Mark.RIGHT), partly=marks.count(Mark.PARTLY),
            wrong=marks.count(Mark.WRONG), pending=marks.count(Mark.PENDING),
            seen=len(set(seen.get(session.id, {})) - set(got)) if session else 0,
            session_id=session.id if session else None, continue_at=continue_at,
            ever_answered=sum(1 for qid in qids if qid in answered_anywhere))
    return out
