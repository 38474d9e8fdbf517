"""Timed exams: duration, remaining time, and the report graded from a session. No Qt.

A report is a pure function of the paper and ``ProgressStore.session_state``: it regrades
every response with ``grade_answer`` (so a corrected key shows up in old reports too) and
keeps no state of its own. Grades stored on answer rows are history snapshots, never read here.
Submitting an exam and grading after submission are ``actions.submit_exam`` and
``actions.mark_exam_answer``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .enums import SessionMode, Verdict
from .grading import as_response, grade_in_paper, response_answered
from .responses import Response
from .model import Paper, Question
from .store import SessionRecord, SessionState

__all__ = ["exam_duration_s", "remaining", "response_for", "QuestionRow", "ScoreLine",
           "ExamReport", "build_report"]
CORRECT, PENDING, UNANSWERED, VOID = (Verdict.CORRECT, Verdict.PENDING, Verdict.UNANSWERED,
                                      Verdict.VOID)


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
    response: Response | None  # None: unanswered
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
    counted: bool = True  # in the score: False for void, and for drafts unless chosen


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


def _row(paper: Paper, question: Question, state: SessionState) -> QuestionRow:
    """One question's line; an unverified (draft) question counts in an exam's score only
    when the learner chose so at the start (``SessionRecord.include_drafts``); practice
    counts everything it grades."""
    section = paper.section_of(question)
    raw, source = response_for(state, question.id)
    response = as_response(question, raw) if source is not None else None
    grade = grade_in_paper(paper, question, response)
    verdict = grade.verdict
    if verdict != VOID and (source is None or (verdict == PENDING and not response_answered(
            question, response))):
        # grade_answer calls an empty subjective/code answer "pending"; a draft the screen
        # saved for the time spent on a page never written on is no answer either
        verdict = UNANSWERED
    return QuestionRow(
        question_id=question.id, number=question.number, type=question.type,
        section=section.title if section else "", topics=question.topics,
        status=question.status, response=response, response_source=source, verdict=verdict,
        points=grade.points, max_points=grade.max_points, grade_parts=grade.parts,
        key=question.answer, seed_answer=question.seed_answer,
        key_changed=question.key_changed, reference_answer=question.reference_answer,
        explanation=question.explanation, errata=question.errata,
        seconds=state.seconds.get(question.id, 0.0),
        flagged=question.id in state.flags,
        counted=verdict != VOID and (not question.draft or state.session.include_drafts
                                     or state.session.mode != SessionMode.EXAM))


def _score_line(name: str, rows: list[QuestionRow]) -> ScoreLine:
    scored = [r for r in rows if r.counted]
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
