"""One function per thing a learner does, and the one path every such write takes.

Each action takes the ``ProgressStore`` first and keyword-only arguments after it, grades
inside the core, writes in ONE transaction (``store.write()``: a full disk rolls all of it
back) and returns a typed result that carries ``changes``: what it touched, so every
screen showing that data can refresh itself without knowing who wrote it (Anki's
``OpChanges``). The desktop runs them on the store thread:

    db.run(actions.submit_practice_answer, paper=…, session_id=…, question=…,
           response=…, seconds=…, on_done=…, on_error=…)

Reads the screens need (library, dashboard, wrong-answer book, due reviews, reports) are
actions too, so no screen builds a query. Nothing here imports Qt.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Iterable, Mapping

from . import exam, mock_exam, navigation, progress_io, review, stats
from . import store_attempts as attempt_rows
from . import store_study as study_rows
from .attempts import CheckAttempt
from .changes import NOTHING, Changes, changes_of
from .enums import GRADED_VERDICTS, SessionMode, SessionState as State
from .grading import Grade, as_response, grade_in_paper
from .model import Bank, Paper, Question
from .responses import Response, response_to_json
from .sqlite_file import writable_dir
from .store import AnswerRef, PaperSummary, ProgressStore, SessionRecord

__all__ = [
    "Changes", "OpenSession", "SubmittedAnswer", "PracticeOutcome", "OpenRun",
    "SessionPaper", "session_paper", "AnswerShown", "UNSAVED_SESSION_ID",
    "ExamSubmitted", "LibrarySummary", "DashboardData", "Written",
    "open_practice", "open_session", "save_draft", "set_flag", "submit_practice_answer",
    "regrade_practice_answer", "start_run", "finish_run", "start_exam", "submit_exam",
    "mark_exam_answer", "exam_report", "session_report", "SessionReport", "Rated", "Imported", "unfinished_exams", "library_summary", "dashboard",
    "wrong_book", "due_reviews", "override_rating", "set_mastered", "set_exam_date",
    "export_progress", "import_progress", "export_questions", "Exported", "changes_of",
    "NOTHING", "AttemptRecorded", "record_check_attempt", "check_attempts",
]


@dataclass(frozen=True)
class Written:
    """An action that returns nothing but what it changed."""

    changes: Changes


def _answered(session_id: int, question: Question, *, paper_changed: bool = True,
              reviewed: bool = True) -> Changes:
    return Changes(sessions=frozenset({session_id}), questions=frozenset({question.id}),
                   papers=frozenset({question.paper_id}) if paper_changed else frozenset(),
                   reviews=reviewed)


# --- sessions as the screens see them ------------------------------------------------------
@dataclass(frozen=True)
class SubmittedAnswer:
    """The newest submitted answer to a question in a session, graded."""

    ref: AnswerRef
    response: Response
    grade: Grade | None


@dataclass(frozen=True)
class OpenSession:
    """Everything a practice or exam screen restores, typed (no stored JSON leaks out)."""

    session: SessionRecord
    responses: dict[str, Response]  # what to show: the newer of the draft and the answer
    submitted: dict[str, SubmittedAnswer]
    flags: frozenset[str]
    seconds: dict[str, float]
    changes: Changes = NOTHING
    # Why nothing of this session can be saved (a ``messages`` kind: "practice_read_only",
    # "practice_not_saved"), or None: it is saved as usual.
    unsaved: str | None = None

    @property
    def position(self) -> str | None:
        """Where the learner left the session (``study.set_position``); None: not yet."""
        return self.session.position


def _open(store: ProgressStore, paper: Paper, session_id: int,
          changes: Changes = NOTHING) -> OpenSession:
    state = store.session_state(session_id)
    questions = {q.id: q for q in paper.questions}
    responses: dict[str, Response] = {}
    submitted: dict[str, SubmittedAnswer] = {}
    for qid, question in questions.items():
        raw, source = exam.response_for(state, qid)
        if source is not None:
            responses[qid] = as_response(question, raw)
        answer = state.answers.get(qid)
        if answer is not None:
            submitted[qid] = SubmittedAnswer(
                AnswerRef(answer.id, answer.uid), as_response(question, answer.response),
                Grade.from_json(answer.grade) if answer.grade else None)
    return OpenSession(state.session, responses, submitted, frozenset(state.flags),
                       dict(state.seconds), changes)


def open_practice(store: ProgressStore, *, paper: Paper,
                  now: float | None = None) -> OpenSession:
    """Continue the paper's practice session, or start one (practice resumes across
    launches: drafts, answers and flags are where the learner left them).

    On a store that cannot be written (a read-only data folder, a full disk at start), the
    paper still opens to be read: its stored session as it was, or an empty one that is not
    in the file, marked ``unsaved`` (issue 28, item 15: opening practice used to fail with
    "what you just entered was not saved" before anything was entered)."""
    if store.read_only:
        return _open_unsaved(store, paper, now)
    with store.write():
        active = store.active_session(paper.id, SessionMode.PRACTICE)
        if active is not None:
            return _open(store, paper, active.id)
        session_id = store.start_session(paper_id=paper.id, mode=SessionMode.PRACTICE,
                                         now=now)
        return _open(store, paper, session_id, Changes(sessions=frozenset({session_id}),
                                                       papers=frozenset({paper.id})))


# The id of a session that is not in the file (opened on a store that cannot be written):
# SQLite row ids start at 1, so no stored session has it.
UNSAVED_SESSION_ID = 0


def _open_unsaved(store: ProgressStore, paper: Paper, now: float | None) -> OpenSession:
    why = "practice_not_saved" if writable_dir(store.path.parent) else "practice_read_only"
    with store.atomic():
        active = store.active_session(paper.id, SessionMode.PRACTICE)
        if active is not None:
            return replace(_open(store, paper, active.id), unsaved=why)
    started = time.time() if now is None else now
    session = SessionRecord(id=UNSAVED_SESSION_ID, paper_id=paper.id,
                            mode=SessionMode.PRACTICE, state=State.ACTIVE, started_at=started,
                            deadline=None, finished_at=None, score=None, max_score=None)
    return OpenSession(session, {}, {}, frozenset(), {}, unsaved=why)


@dataclass(frozen=True)
class SessionPaper:
    """The paper a session is on: a bank paper, or a composed mock exam's (``missing``:
    its questions the bank no longer has, reported and not scored)."""

    paper: Paper
    missing: tuple[mock_exam.MissingQuestion, ...] = ()
    composed: bool = False
    changes: Changes = NOTHING


def session_paper(store: ProgressStore, *, bank: Bank, session_id: int) -> SessionPaper:
    """The ``Paper`` to show and grade a stored session with (screens must not look it up
    in the bank: a mock exam's paper is not there). ``KeyError`` for an unknown session or
    a paper no longer installed."""
    with store.atomic():
        session = store.session(session_id)
        composed = mock_exam.session_paper(store, bank, session)
    if composed is not None:
        return SessionPaper(composed.paper, composed.missing, True)
    return SessionPaper(bank.paper(session.paper_id))


def open_session(store: ProgressStore, *, bank: Bank, session_id: int) -> OpenSession:
    """Any stored session (an exam to resume, a report to show), with its paper's questions
    (``session_paper`` gives that paper)."""
    return _open(store, session_paper(store, bank=bank, session_id=session_id).paper,
                 session_id)


# --- practice ------------------------------------------------------------------------------
def save_draft(store: ProgressStore, *, session_id: int, question: Question,
               response: Response, seconds: float, now: float | None = None) -> Written:
    """What is on screen, saved while the learner types (time spent included)."""
    store.save_draft(session_id, question.id, response_to_json(response),
                     seconds=round(seconds, 3), now=now)
    return Written(Changes(sessions=frozenset({session_id})))


def set_flag(store: ProgressStore, *, session_id: int, question_id: str,
             flagged: bool) -> Written:
    store.set_flag(session_id, question_id, flagged)
    return Written(Changes(sessions=frozenset({session_id})))


class AnswerShown(ValueError):
    """A practice answer to a question whose key was already shown in that session."""


@dataclass(frozen=True)
class PracticeOutcome:
    """A graded, stored practice answer and the schedule it produced."""

    answer: AnswerRef
    grade: Grade
    card: review.CardState | None  # None: nothing to rate yet (pending, void)
    changes: Changes


def submit_practice_answer(store: ProgressStore, *, paper: Paper, session_id: int,
                           question: Question, response: Response, seconds: float,
                           now: float | None = None) -> PracticeOutcome:
    """Grade the response, store it as the answer and as the draft (what the screen shows)
    and schedule its review: one transaction, so a refused write leaves no trace of it."""
    grade = grade_in_paper(paper, question, response)
    stored = response_to_json(response)
    seconds = round(seconds, 3)
    with store.write():
        if study_rows.seen_row(store, session_id, question.id) is not None:
            raise AnswerShown(f"{question.id}: its key was shown in this session (Show "
                              "answer / recite), so an answer here would not be honest; it "
                              "was scheduled as seen")
        store.save_draft(session_id, question.id, stored, seconds=seconds, now=now)
        answer = store.record_answer(session_id, question.id, stored, grade=grade,
                                     seconds=seconds, now=now)
        card = review.record_outcome(store, question, paper, grade=grade, seconds=seconds,
                                     answer_uid=answer.uid, now=now)
    return PracticeOutcome(answer, grade, card, _answered(session_id, question))


def regrade_practice_answer(store: ProgressStore, *, paper: Paper, session_id: int,
                            question: Question, answer: AnswerRef, response: Response,
                            seconds: float, now: float | None = None) -> PracticeOutcome:
    """Self-marks saved or checks run on a submitted practice answer: its grade and its
    review are replaced (a regrade is not a second outcome), the draft follows. The answer
    row keeps the response it now grades: the navigator, the library card and the report
    all read that one row (issue 30: a self-marked answer stayed "pending" on reload)."""
    grade = grade_in_paper(paper, question, response)
    stored = response_to_json(response)
    with store.write():
        store.save_draft(session_id, question.id, stored, seconds=round(seconds, 3), now=now)
        store.set_grade(answer.id, grade, response=stored)
        spent = store.answer(answer.id).seconds
        card = review.record_outcome(store, question, paper, grade=grade, seconds=spent,
                                     answer_uid=answer.uid, now=now)
    return PracticeOutcome(answer, grade, card, _answered(session_id, question))


@dataclass(frozen=True)
class OpenRun:
    """A practice run over chosen questions, in order, with a session per paper. The run is
    stored (its question order too), so it can be continued after the app closes."""

    questions: tuple[Question, ...]
    papers: dict[str, Paper]
    sessions: dict[str, int]  # paper id -> practice session id
    changes: Changes = NOTHING
    run_id: int | None = None
    title: str = ""
    position: str | None = None  # the question it was left on (a continued run)


def start_run(store: ProgressStore, *, bank: Bank, question_ids: Iterable[str],
              title: str = "", spec: dict | None = None,
              now: float | None = None) -> OpenRun:
    """Practise ``question_ids`` (the wrong-answer book, today's reviews, a practice set:
    ``spec`` is then its JSON, kept with the run). A session belongs to one paper, so a run
    is one session per paper; unknown ids (a pack no longer installed) are skipped."""
    by_id = {q.id: q for q in bank.all_questions()}
    questions = [by_id[qid] for qid in dict.fromkeys(question_ids) if qid in by_id]
    papers = {q.paper_id: bank.paper(q.paper_id) for q in questions}
    at = time.time() if now is None else now
    with store.write():
        run_id = study_rows.create_run(store, title=title, spec=spec, created_at=at,
                                       question_ids=[q.id for q in questions])
        sessions = {pid: store.start_session(paper_id=pid, mode=SessionMode.PRACTICE,
                                             run_id=run_id, now=at)
                    for pid in papers}
    return OpenRun(tuple(questions), papers, sessions,
                   Changes(sessions=frozenset(sessions.values())), run_id, title)


def finish_run(store: ProgressStore, *, session_ids: Iterable[int],
               now: float | None = None) -> Written:
    """Close a run's sessions: submitted, scored over the questions answered; a session
    with nothing submitted is abandoned (its drafts stay in the history)."""
    closed: set[int] = set()
    papers: set[str] = set()
    with store.write():
        for session_id in session_ids:
            state = store.session_state(session_id)
            if state.session.state != State.ACTIVE:
                continue
            closed.add(session_id)
            papers.add(state.session.paper_id)
            if not state.answers:
                store.finish_session(session_id, state=State.ABANDONED, score=0, max_score=0,
                                     now=now)
                continue
            grades = [a.grade for a in state.answers.values()
                      if a.grade and a.grade.get("verdict") in GRADED_VERDICTS]
            store.finish_session(session_id, state=State.SUBMITTED,
                                 score=sum(g["points"] for g in grades),
                                 max_score=sum(g["max_points"] for g in grades), now=now)
    return Written(Changes(sessions=frozenset(closed), papers=frozenset(papers)))


# --- exams ---------------------------------------------------------------------------------
def start_exam(store: ProgressStore, *, paper: Paper, duration_s: int,
               open_book: bool = False, include_drafts: bool = False,
               now: float | None = None) -> OpenSession:
    """A timed exam on ``paper``; its wall-clock deadline is ``now + duration_s``.
    Closed book (the default, as in the real exam): no checks and no console until it is
    submitted; ``open_book``: both work during it. Unverified (draft) questions are asked
    but not scored unless ``include_drafts``."""
    with store.write():
        session_id = store.start_session(paper_id=paper.id, mode=SessionMode.EXAM,
                                         duration_s=duration_s, open_book=open_book,
                                         include_drafts=include_drafts, now=now)
        return _open(store, paper, session_id, Changes(sessions=frozenset({session_id}),
                                                       papers=frozenset({paper.id})))


@dataclass(frozen=True)
class ExamSubmitted:
    """The report of a submitted (or marked) exam, graded at that moment."""

    report: exam.ExamReport
    changes: Changes


def submit_exam(store: ProgressStore, *, paper: Paper, session_id: int,
                responses: Mapping[str, Response], seconds: Mapping[str, float],
                final_state: State = State.SUBMITTED,
                now: float | None = None) -> ExamSubmitted:
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
            answer = store.record_answer(session_id, question.id, response_to_json(response),
                                         grade=grade, seconds=spent, now=now)
            # pending (self-marks, checks) and void answers get no review until graded
            review.record_outcome(store, question, paper, grade=grade, seconds=spent,
                                  answer_uid=answer.uid, now=now)
        report = exam.build_report(paper, store.session_state(session_id))
        store.finish_session(session_id, state=final_state, score=report.score,
                             max_score=report.max_score, now=now)
        report = exam.build_report(paper, store.session_state(session_id))
    return ExamSubmitted(report, Changes(
        sessions=frozenset({session_id}), papers=frozenset({paper.id}), reviews=True,
        questions=frozenset(q for q in responses)))


def mark_exam_answer(store: ProgressStore, *, paper: Paper, session_id: int,
                     question: Question, response: Response, seconds: float,
                     now: float | None = None) -> ExamSubmitted:
    """Self-marks or a check result added to a submitted exam: a new graded answer row (the
    history keeps the old one), its review (re-rating the one an earlier marking gave), and
    the session's score brought up to date."""
    with store.write():
        earlier = store.session_state(session_id).answers.get(question.id)
        grade = grade_in_paper(paper, question, response)
        answer = store.record_answer(session_id, question.id, response_to_json(response),
                                     grade=grade, seconds=seconds, now=now)
        review.record_outcome(store, question, paper, grade=grade, seconds=seconds,
                              answer_uid=answer.uid,
                              regrade_of_uid=earlier.uid if earlier else None, now=now)
        report = _rescored(store, paper, session_id)
    return ExamSubmitted(report, _answered(session_id, question))


def _rescored(store: ProgressStore, paper: Paper, session_id: int) -> exam.ExamReport:
    report = exam.build_report(paper, store.session_state(session_id))
    if report.mode == SessionMode.EXAM and report.state in (State.SUBMITTED,
                                                            State.AUTO_SUBMITTED):
        store.rescore_session(session_id, score=report.score, max_score=report.max_score)
    return report


@dataclass(frozen=True)
class SessionReport:
    """A stored session's report, with the paper it is on."""

    paper: Paper
    report: exam.ExamReport
    changes: Changes
    missing: tuple[mock_exam.MissingQuestion, ...] = ()


def session_report(store: ProgressStore, *, bank: Bank, session_id: int) -> SessionReport:
    """The report of any stored session (a past exam from the library, a mock exam),
    regraded now; ``missing``: a mock exam's questions the bank no longer has."""
    found = session_paper(store, bank=bank, session_id=session_id)
    result = exam_report(store, paper=found.paper, session_id=session_id)
    return SessionReport(found.paper, result.report, result.changes, found.missing)


def exam_report(store: ProgressStore, *, paper: Paper, session_id: int) -> ExamSubmitted:
    """A session's report, regraded now; a finished exam's stored score follows it (it goes
    stale after self-marks, a check run or a corrected key)."""
    with store.write():
        before = store.session(session_id)
        report = _rescored(store, paper, session_id)
    changed = (before.score, before.max_score) != (report.score, report.max_score) \
        and before.state != State.ACTIVE
    return ExamSubmitted(report, Changes(papers=frozenset({paper.id})) if changed else NOTHING)


def unfinished_exams(store: ProgressStore, *, bank: Bank) -> list[SessionRecord]:
    """Active exams of papers in the bank and mock exams, newest first (resume or
    auto-submit at start; ``session_paper`` gives each one's paper)."""
    known = {p.id for p in bank.papers}
    with store.atomic():
        active = store.unfinished_exams()
        composed = study_rows.composed_session_ids(store, [s.id for s in active])
    return [s for s in active if s.paper_id in known or s.id in composed]


# --- check attempts ------------------------------------------------------------------------
@dataclass(frozen=True)
class AttemptRecorded:
    attempt: CheckAttempt
    changes: Changes


def record_check_attempt(store: ProgressStore, *, session_id: int, question_id: str,
                         code: str, checks: list[dict], error: str | None = None,
                         now: float | None = None) -> AttemptRecorded:
    """Keep a check run (the code it ran on and its results) in the question's history."""
    with store.write():
        attempt = attempt_rows.add_attempt(store, session_id=session_id,
                                           question_id=question_id, code=code,
                                           checks=list(checks), error=error, now=now)
    return AttemptRecorded(attempt, Changes(sessions=frozenset({session_id})))


def check_attempts(store: ProgressStore, *, question_id: str,
                   limit: int = 200) -> list[CheckAttempt]:
    """The question's check runs over every session, newest first."""
    return attempt_rows.attempts_of(store, question_id, limit)


# --- library, dashboard, review ------------------------------------------------------------
@dataclass(frozen=True)
class LibrarySummary:
    """What the library shows besides the bank itself."""

    exams: dict[str, PaperSummary]  # per paper id
    sessions: dict[str, list[SessionRecord]]  # per paper id, newest first
    wrong_count: int
    due_count: int
    # per paper id: practice progress (answered/total, right) and the Continue target
    practice: dict[str, navigation.PracticeProgress] = field(default_factory=dict)
    # every mock exam (组卷) taken or under way, newest first: they have no paper card
    mock_exams: list[mock_exam.MockExamRecord] = field(default_factory=list)


def library_summary(store: ProgressStore, *, bank: Bank,
                    now: float | None = None) -> LibrarySummary:
    known = {q.id for q in bank.all_questions()}
    with store.atomic():  # one snapshot
        exams = {p.id: store.paper_summary(p.id, mode=SessionMode.EXAM) for p in bank.papers}
        sessions = {p.id: store.sessions(p.id) for p in bank.papers}
        wrong = sum(1 for qid in review.book_question_ids(store) if qid in known)
        due = len(review.due_today(store, now=now, known=known))
        practice = navigation.practice_progress(store, bank)
        mocks = mock_exam.mock_exam_records(store)
    return LibrarySummary(exams, sessions, wrong, due, practice, mocks)


@dataclass(frozen=True)
class DashboardData:
    by_topic: list[stats.Accuracy]
    by_type: list[stats.Accuracy]
    trends: dict[str, list[stats.TrendPoint]]  # exam attempts per paper id, oldest first
    times: dict[str, list[stats.QuestionTime]]  # per paper id
    forecast: list[tuple[date, int]]
    exam_date: date | None
    due_today: int
    # a mock exam's attempts per its paper id (one per saved template, or one-off), with
    # the title it was last taken under
    mock_trends: dict[str, tuple[str, list[stats.TrendPoint]]] = field(default_factory=dict)


FORECAST_DAYS = 14


def dashboard(store: ProgressStore, *, bank: Bank, now: float | None = None) -> DashboardData:
    known = {q.id for q in bank.all_questions()}
    with store.atomic():
        return DashboardData(
            by_topic=stats.accuracy_by_topic(store, bank),
            by_type=stats.accuracy_by_type(store, bank),
            trends={p.id: [t for t in stats.score_trend(store, p.id)
                           if t.mode == SessionMode.EXAM] for p in bank.papers},
            times={p.id: stats.time_per_question(store, p.id) for p in bank.papers},
            forecast=review.due_forecast(store, days=FORECAST_DAYS, now=now),
            exam_date=review.exam_date(store),
            due_today=len(review.due_today(store, now=now, known=known)),
            mock_trends=_mock_trends(store))


def _mock_trends(store: ProgressStore) -> dict[str, tuple[str, list[stats.TrendPoint]]]:
    trends: dict[str, tuple[str, list[stats.TrendPoint]]] = {}
    for record in mock_exam.mock_exam_records(store):  # newest first: its title is kept
        paper_id = record.session.paper_id
        if paper_id not in trends:
            points = [t for t in stats.score_trend(store, paper_id)
                      if t.mode == SessionMode.EXAM]
            if points:
                trends[paper_id] = (record.title, points)
    return trends


def wrong_book(store: ProgressStore, *, bank: Bank, paper_id: str | None = None,
               topic: str | None = None, qtype: str | None = None,
               include_mastered: bool = False,
               include_graduated: bool = False) -> list[review.WrongEntry]:
    """The 错题本: missed (or put back) and neither mastered nor graduated (answered right
    ``graduate_after`` times in a row since), newest first."""
    return review.wrong_book(store, bank, paper_id=paper_id, topic=topic, qtype=qtype,
                             include_mastered=include_mastered,
                             include_graduated=include_graduated)


def due_reviews(store: ProgressStore, *, bank: Bank, now: float | None = None) -> list[str]:
    """Question ids due by the end of today, most overdue first."""
    known = {q.id for q in bank.all_questions()}
    return [card.question_id for card in review.due_today(store, now=now, known=known)]


@dataclass(frozen=True)
class Rated:
    card: review.CardState
    changes: Changes


def override_rating(store: ProgressStore, *, question_id: str, rating: int) -> Rated:
    """The learner disagrees with the rating examdesk chose: replace it and reschedule."""
    card = review.override_rating(store, question_id, rating)
    return Rated(card, Changes(questions=frozenset({question_id}), reviews=True))


def set_mastered(store: ProgressStore, *, question_id: str, mastered: bool,
                 now: float | None = None) -> Written:
    review.set_mastered(store, question_id, mastered, now=now)
    return Written(Changes(questions=frozenset({question_id}), reviews=True))


def set_exam_date(store: ProgressStore, *, day: date | None) -> Written:
    review.set_exam_date(store, day)
    return Written(Changes(settings=True))


# --- progress files ------------------------------------------------------------------------
def export_progress(store: ProgressStore, *, path: Path) -> Written:
    """Everything to a JSON file (or one row per answer to ``.csv``), written atomically."""
    progress_io.export_progress(store, Path(path))
    return Written(NOTHING)


@dataclass(frozen=True)
class Imported:
    result: progress_io.ImportResult
    changes: Changes


def import_progress(store: ProgressStore, *, path: Path, bank: Bank) -> Imported:
    """Merge an export (no duplicates); one transaction: a bad file changes nothing."""
    result = progress_io.import_progress(store, Path(path), bank)
    return Imported(result, Changes(everything=bool(result.added)))


@dataclass(frozen=True)
class Exported:
    """Questions written to another tool's format, and what the format could not carry."""

    path: Path
    questions: int
    warnings: list  # Problem records: file (the export), question, field, message
    changes: Changes = NOTHING


def export_questions(store: ProgressStore, *, papers: list[Paper], fmt: str,
                     path: Path, include_notes: bool = False) -> Exported:
    """``papers`` as a JSON bank, an Anki deck, Moodle XML or GIFT (written atomically).
    ``include_notes``: the learner's notes go into the Anki deck's ``Note`` field (the
    other formats have no place for them)."""
    from .interchange.exporters import export_papers  # deferred: genanki, defusedxml

    notes, note_times = study_rows.note_export(store) if include_notes else (None, None)
    warnings = export_papers(fmt, list(papers), Path(path), notes=notes,
                             note_times=note_times)
    return Exported(Path(path), sum(len(p.questions) for p in papers), list(warnings))
