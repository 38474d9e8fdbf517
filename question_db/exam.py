"""Timed exams: duration, remaining time, submission, and the report graded at submission.
No Qt.

A report is a pure function of the paper and ``ProgressStore.session_state``: it regrades
every response with ``grade_answer`` (so a corrected key shows up in old reports too) and
keeps no state of its own. Grades stored on answer rows are history snapshots, never read here.
Submitting (``submit_exam``) and grading after submission (``mark_submitted_answer``) write
answers, their reviews (``review.record_outcome``) and the session's score in one transaction.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import review
from .grading import CORRECT, PENDING, UNANSWERED, VOID, Grade, grade_answer
from .model import Paper, Question
from .store import ProgressStore, SessionRecord, SessionState

SUBMITTED, AUTO_SUBMITTED = "submitted", "auto_submitted"


def exam_duration_s(paper: Paper, minutes: float | None = None) -> int:
    """Exam length in seconds: ``minutes`` chosen before the start, else the paper's."""
    minutes = paper.duration_minutes if minutes is None else minutes
    if minutes <= 0:
        raise ValueError(f"paper {paper.id}: exam duration must be positive, not {minutes} min")
    return round(minutes * 60)


def remaining(session: SessionRecord, now: float | None = None) -> float | None:
    """Seconds left on the wall clock (time with the app closed counts); None for practice."""
    return session.remaining(time.time() if now is None else now)


def response_for(state: SessionState, question_id: str) -> tuple[Any, str | None]:
    """The response graded for a question and where it came from ("answer", "draft", None).

    The newer of the last submitted answer and the draft wins: the draft is what the learner
    last saw on screen, so an answer typed (or changed after submitting) but not submitted
    still counts when the exam ends. On a tie the submitted answer wins.
    """
    answer = state.answers.get(question_id)
    if question_id in state.drafts:
        draft_time = state.draft_saved_at.get(question_id, float("inf"))
        if answer is None or draft_time > answer.created_at:
            return state.drafts[question_id], "draft"
    if answer is not None:
        return answer.response, "answer"
    return None, None


@dataclass(frozen=True)
class QuestionRow:
    """One question of the report: what the learner gave, what it earned, the key."""

    question_id: str
    number: int
    type: str
    section: str
    topics: tuple[str, ...]
    status: str  # ok / corrected / void / disputed
    response: Any
    response_source: str | None  # "answer", "draft" or None (unanswered)
    verdict: str  # grading verdicts: correct, partial, wrong, unanswered, pending, void
    points: float
    max_points: float
    grade_parts: list[dict]
    key: Any
    seed_answer: Any
    key_changed: bool
    reference_answer: str
    explanation: str
    errata: str
    seconds: float
    flagged: bool


@dataclass(frozen=True)
class ScoreLine:
    """Points of one section or topic. Void questions are not counted."""

    name: str
    points: float
    max_points: float
    questions: int
    correct: int
    pending: int  # awaiting self-marks or a check run


@dataclass(frozen=True)
class ExamReport:
    session_id: int
    paper_id: str
    paper_title: str
    mode: str
    state: str
    started_at: float
    finished_at: float | None
    time_used_s: float | None  # to submission, capped at the deadline
    score: float
    max_score: float  # scorable points (void questions excluded)
    pending: int
    sections: tuple[ScoreLine, ...]
    topics: tuple[ScoreLine, ...]  # a question counts fully toward each of its topics
    questions: tuple[QuestionRow, ...]

    def to_json(self) -> dict:
        return _jsonable(self)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "to_json") and not isinstance(value, ExamReport):
        return _jsonable(value.to_json())
    if hasattr(value, "__dataclass_fields__"):
        return {name: _jsonable(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def grade_in_paper(paper: Paper, question: Question, response: Any) -> Grade:
    """``grade_answer`` under the multiple-choice rule of the question's section."""
    section = paper.section_of(question)
    return grade_answer(question, response, multiple_choice_rule=(
        section.multiple_choice_rule if section else "all_or_nothing"))


def _row(paper: Paper, question: Question, state: SessionState) -> QuestionRow:
    section = paper.section_of(question)
    response, source = response_for(state, question.id)
    grade = grade_in_paper(paper, question, response)
    verdict = grade.verdict
    if source is None and verdict != VOID:
        verdict = UNANSWERED  # grade_answer calls an empty subjective/code answer "pending"
    return QuestionRow(
        question_id=question.id, number=question.number, type=question.type,
        section=section.title if section else "", topics=question.topics,
        status=question.status, response=response, response_source=source, verdict=verdict,
        points=grade.points, max_points=grade.max_points, grade_parts=grade.parts,
        key=question.answer, seed_answer=question.seed_answer,
        key_changed=question.key_changed, reference_answer=question.reference_answer,
        explanation=question.explanation, errata=question.errata,
        seconds=state.seconds.get(question.id, 0.0),
        flagged=question.id in state.flags)


def _score_line(name: str, rows: list[QuestionRow]) -> ScoreLine:
    scored = [r for r in rows if r.verdict != VOID]
    return ScoreLine(
        name=name, points=round(sum(r.points for r in scored), 4),
        max_points=round(sum(r.max_points for r in scored), 4), questions=len(scored),
        correct=sum(r.verdict == CORRECT for r in scored),
        pending=sum(r.verdict == PENDING for r in scored))


def build_report(paper: Paper, state: SessionState) -> ExamReport:
    """Grade every question of ``paper`` from the session's stored answers and drafts."""
    session = state.session
    if session.paper_id != paper.id:
        raise ValueError(f"session {session.id} is for paper {session.paper_id!r}, "
                         f"not {paper.id!r}")
    questions = sorted(paper.questions, key=lambda q: q.number)
    rows = [_row(paper, q, state) for q in questions]
    home = [paper.section_of(q) for q in questions]
    sections = [_score_line(s.title, [r for r, h in zip(rows, home) if h is s])
                for s in paper.sections]
    if None in home:
        sections.append(_score_line("", [r for r, h in zip(rows, home) if h is None]))
    topic_names = list(dict.fromkeys(t for r in rows for t in r.topics))
    topics = [_score_line(t, [r for r in rows if t in r.topics]) for t in topic_names]
    total = _score_line(paper.title, rows)
    end = session.finished_at
    if end is not None and session.deadline is not None:
        end = min(end, session.deadline)
    return ExamReport(
        session_id=session.id, paper_id=paper.id, paper_title=paper.title, mode=session.mode,
        state=session.state, started_at=session.started_at, finished_at=session.finished_at,
        time_used_s=end - session.started_at if end is not None else None,
        score=total.points, max_score=total.max_points, pending=total.pending,
        sections=tuple(sections), topics=tuple(topics), questions=tuple(rows))


# --- writing: submission and grading after it ---------------------------------------------
def submit_exam(store: ProgressStore, paper: Paper, session_id: int, responses: dict[str, Any],
                seconds: dict[str, float], final_state: str = SUBMITTED,
                now: float | None = None) -> ExamReport:
    """Record every answered question with its grade and review, finish the session with its
    score, and return the report. One transaction: a failure leaves the exam active, with
    its drafts, to be submitted again."""
    with store.write():
        for question in paper.questions:
            if question.id not in responses:
                continue
            response = responses[question.id]
            grade = grade_in_paper(paper, question, response)
            spent = round(seconds.get(question.id, 0.0), 3)
            answer_id = store.record_answer(session_id, question.id, response, grade=grade,
                                            seconds=spent, now=now)
            # pending (self-marks, checks) and void answers get no review until graded
            review.record_outcome(store, question, paper, grade=grade, seconds=spent,
                                  answer_id=answer_id, now=now)
        report = build_report(paper, store.session_state(session_id))
        store.finish_session(session_id, state=final_state, score=report.score,
                             max_score=report.max_score, now=now)
    return build_report(paper, store.session_state(session_id))


def rescore(store: ProgressStore, paper: Paper, session_id: int) -> ExamReport:
    """The session's report; a finished exam's stored score follows it (it goes stale after
    self-marks, a check run or a corrected key)."""
    report = build_report(paper, store.session_state(session_id))
    if report.mode == "exam" and report.state in (SUBMITTED, AUTO_SUBMITTED):
        store.rescore_session(session_id, score=report.score, max_score=report.max_score)
    return report


def mark_submitted_answer(store: ProgressStore, paper: Paper, session_id: int,
                          question: Question, response: Any, *, seconds: float,
                          now: float | None = None) -> ExamReport:
    """Self-marks or a check result added after submission: a new graded answer row (the
    history keeps the old one), its review (re-rating the one an earlier marking gave), and
    the session's score brought up to date. Returns the fresh report."""
    with store.write():
        earlier = store.session_state(session_id).answers.get(question.id)
        grade = grade_in_paper(paper, question, response)
        answer_id = store.record_answer(session_id, question.id, response, grade=grade,
                                        seconds=seconds, now=now)
        review.record_outcome(store, question, paper, grade=grade, seconds=seconds,
                              answer_id=answer_id, regrade_of=earlier.id if earlier else None,
                              now=now)
        return rescore(store, paper, session_id)
