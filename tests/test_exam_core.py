"""Exam timing and the submission report, from a real store file and the real bank."""
from __future__ import annotations

import json
import time
from dataclasses import replace
from itertools import count

import pytest

from question_db.bank import load_bank
from question_db.exam import build_report, exam_duration_s, remaining
from question_db.grading import (as_response, CORRECT, PENDING, UNANSWERED, VOID, WRONG, Grade,
                                 grade_answer)
from question_db.model import Question, RubricItem
from question_db.store import ProgressStore


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "progress.db"


@pytest.fixture
def store(db_path):
    s = ProgressStore(db_path)
    yield s
    s.close()


def scripted_response(q: Question):
    """A right answer on odd numbers, a wrong or unfinished one on even numbers."""
    right = q.number % 2 == 1
    if q.type == "single_choice":
        return q.answer if right else next(k for k in q.options if k != q.answer)
    if q.type == "multiple_choice":
        return list(q.answer) if right else list(q.answer)[:1]
    if q.type == "fill_blank":
        return [v[0] for v in q.answer] if right else [q.answer[0][0]] + ["错"] * (
            len(q.answer) - 1)
    if q.type == "calculation":
        if right:
            return {"values": [p.value for p in q.parts], "marks": [True] * len(q.rubric)}
        return {"values": ["1"] * len(q.parts)}  # rubric not self-marked yet: pending
    if q.type == "programming":
        return {"code": "def f(): pass"}  # never checked: pending
    return {"marks": [i % 2 == 0 for i in range(len(q.rubric))]}


# how the scripted response reaches the store, by question number % 5
ANSWER, DRAFT, DRAFT_AFTER_ANSWER, ANSWER_AFTER_DRAFT, NOTHING = range(5)


def sit_exam(store: ProgressStore, paper, *, t0: float = 10_000.0) -> tuple[int, dict]:
    """Store a scripted exam; returns the session and the response each question should get."""
    clock = count(t0 + 1)
    sid = store.start_session(paper_id=paper.id, mode="exam",
                              duration_s=exam_duration_s(paper), now=t0)
    expected = {}
    for q in paper.questions:
        response, how = scripted_response(q) if q.scored else "A", q.number % 5
        if how == ANSWER:
            store.record_answer(sid, q.id, response, grade=None, seconds=q.number,
                                now=next(clock))
        elif how == DRAFT:
            store.save_draft(sid, q.id, response, seconds=q.number, now=next(clock))
        elif how == DRAFT_AFTER_ANSWER:  # changed after submitting, time ran out
            store.record_answer(sid, q.id, "stale", grade=None, seconds=1, now=next(clock))
            store.save_draft(sid, q.id, response, seconds=q.number, now=next(clock))
        elif how == ANSWER_AFTER_DRAFT:
            store.save_draft(sid, q.id, "half-typed", seconds=1, now=next(clock))
            store.record_answer(sid, q.id, response, grade=None, seconds=q.number,
                                now=next(clock))
        expected[q.id] = None if how == NOTHING else response
    return sid, expected


def test_exam_duration(bank):
    paper = bank.paper("001")
    assert exam_duration_s(paper) == paper.duration_minutes * 60
    assert exam_duration_s(paper, minutes=90) == 5400
    with pytest.raises(ValueError, match="paper 001"):
        exam_duration_s(paper, minutes=0)


def test_remaining_follows_the_wall_clock_across_restarts(db_path, bank):
    paper = bank.paper("001")
    first = ProgressStore(db_path)
    sid = first.start_session(paper_id="001", mode="exam", duration_s=exam_duration_s(paper),
                              now=50_000.0)
    first.close()  # the app is closed for an hour: that hour is spent
    again = ProgressStore(db_path)
    session = again.session(sid)
    assert remaining(session, 50_000.0 + 3600) == exam_duration_s(paper) - 3600
    assert remaining(session, 50_000.0 + 10 * 3600) == 0
    practice = again.session(again.start_session(paper_id="001", mode="practice"))
    assert remaining(practice, 1e12) is None
    live = again.session(again.start_session(paper_id="001", mode="exam", duration_s=600,
                                             now=time.time() - 100))
    assert 0 < remaining(live) <= 500  # no `now`: the real clock
    again.close()


def test_report_sums_equal_grade_answer_per_section(store, bank):
    paper = bank.paper("001")
    sid, expected = sit_exam(store, paper)
    report = build_report(paper, store.session_state(sid))

    rows = {r.question_id: r for r in report.questions}
    assert [r.number for r in report.questions] == sorted(q.number for q in paper.questions)
    assert len(report.sections) == len(paper.sections)
    for section, line in zip(paper.sections, report.sections):
        members = [q for q in paper.questions if section.contains(q.number) and q.scored]
        grades = [grade_answer(q, expected[q.id], multiple_choice_rule=section.multiple_choice_rule)
                  for q in members]
        assert line.name == section.title
        assert line.points == pytest.approx(sum(g.points for g in grades))
        assert line.max_points == pytest.approx(sum(q.points for q in members))
        assert line.questions == len(members)
    assert report.score == pytest.approx(sum(line.points for line in report.sections))
    assert report.max_score == pytest.approx(paper.scorable_points)
    assert 0 < report.score < report.max_score

    for q in paper.questions:
        row = rows[q.id]
        assert row.response == (None if expected[q.id] is None
                                else as_response(q, expected[q.id]))
        assert row.response_source == {ANSWER: "answer", DRAFT: "draft",
                                       DRAFT_AFTER_ANSWER: "draft",
                                       ANSWER_AFTER_DRAFT: "answer",
                                       NOTHING: None}[q.number % 5]
        assert row.seconds == (0 if q.number % 5 == NOTHING else q.number)
        assert (row.key, row.explanation, row.status) == (q.answer, q.explanation, q.status)
        if q.number % 5 == NOTHING:
            assert (row.verdict, row.points) == (UNANSWERED, 0)
    assert rows["001/1"].verdict == CORRECT  # right, only drafted
    assert rows["001/2"].verdict == WRONG  # changed to a wrong one after submitting
    assert rows["001/27"].verdict == CORRECT
    assert rows["001/26"].verdict == PENDING  # calculation awaiting self-marks
    for topic in report.topics:
        tagged = [r for r in report.questions if topic.name in r.topics]
        assert topic.points == pytest.approx(sum(r.points for r in tagged))


def test_drafts_count_at_submission(store, bank):
    paper = bank.paper("001")
    sid = store.start_session(paper_id="001", mode="exam", duration_s=600, now=0.0)
    store.save_draft(sid, "001/1", paper.question(1).answer, seconds=30, now=1.0)
    store.save_draft(sid, "001/11", list(paper.question(11).answer), seconds=40, now=2.0)
    store.set_flag(sid, "001/11", True)
    report = build_report(paper, store.session_state(sid))
    graded = {r.question_id: r for r in report.questions if r.response_source == "draft"}
    assert set(graded) == {"001/1", "001/11"}
    assert report.score == 2 + 3
    assert graded["001/11"].flagged and graded["001/11"].seconds == 40
    store.finish_session(sid, state="auto_submitted", score=report.score,
                         max_score=report.max_score, now=5000.0)
    finished = build_report(paper, store.session_state(sid))
    assert finished.time_used_s == 600  # capped at the deadline
    assert store.paper_summary("001").best_score == 5


def test_void_questions_are_listed_not_scored(store, bank):
    paper = bank.paper("000")
    void = [q for q in paper.questions if not q.scored]
    assert void, "paper 000 is expected to carry void questions"
    sid, _ = sit_exam(store, paper)
    report = build_report(paper, store.session_state(sid))
    rows = {r.question_id: r for r in report.questions}
    for q in void:
        assert (rows[q.id].verdict, rows[q.id].points, rows[q.id].max_points) == (VOID, 0, 0)
        assert rows[q.id].errata == q.errata
    assert report.max_score == pytest.approx(paper.scorable_points)
    assert sum(line.questions for line in report.sections) == len(paper.questions) - len(void)


def test_programming_without_check_result_is_pending(store, bank):
    base = bank.question("001/26")
    program = replace(base, id="001/99", number=99, type="programming", points=15, parts=(),
                      answer=None, rubric=(RubricItem("checks pass", 12, auto=True),
                                           RubricItem("readable", 3)))
    paper = replace(bank.paper("001"), questions=(program,), sections=())
    sid = store.start_session(paper_id="001", mode="exam", duration_s=600, now=0.0)
    store.save_draft(sid, program.id, {"code": "x = 1"}, seconds=5, now=1.0)
    row = build_report(paper, store.session_state(sid)).questions[0]
    assert (row.verdict, row.points, row.section) == (PENDING, 0, "")
    checks = [{"name": "shape", "passed": True, "required": True}]
    store.record_answer(sid, program.id, {"code": "x = 1", "checks": checks, "marks": [None, True]},
                        grade=None, seconds=9, now=2.0)
    row = build_report(paper, store.session_state(sid)).questions[0]
    assert (row.verdict, row.points) == (CORRECT, 15)


def test_report_is_reproducible_from_the_store(db_path, bank):
    paper = bank.paper("001")
    first = ProgressStore(db_path)
    sid, _ = sit_exam(first, paper)
    report = build_report(paper, first.session_state(sid)).to_json()
    answer_id = first.session_state(sid).answers["001/5"].id
    first.set_grade(answer_id, Grade(0, 2, "wrong"))  # a stored snapshot is not the report
    first.close()
    again = ProgressStore(db_path)
    assert build_report(paper, again.session_state(sid)).to_json() == report
    again.close()
    decoded = json.loads(json.dumps(report, ensure_ascii=False))
    assert decoded == report
    assert decoded["score"] == report["score"] and len(decoded["questions"]) == len(
        paper.questions)


def test_report_refuses_a_session_of_another_paper(store, bank):
    sid = store.start_session(paper_id="000", mode="exam", duration_s=60)
    with pytest.raises(ValueError, match="paper '000'"):
        build_report(bank.paper("001"), store.session_state(sid))


def test_unverified_questions_count_in_an_exam_only_when_chosen(tmp_path):
    """Issue 13: a draft (imported, unverified) question is asked and graded, but an exam
    scores it only when the learner chose that at the start; practice always counts it."""
    from dataclasses import replace as dc_replace

    from question_db import actions
    from question_db.enums import Status
    from question_db.responses import ChoiceResponse

    bank = load_bank()
    paper = bank.paper("000")
    q1, q2 = paper.question(1), paper.question(2)
    drafted = dc_replace(paper, questions=tuple(dc_replace(q, status=Status.DRAFT) if q is q2
                                                else q for q in paper.questions))
    store = ProgressStore(tmp_path / "p.db")
    try:
        for include, expected in ((False, q1.points), (True, q1.points + q2.points)):
            opened = actions.start_exam(store, paper=drafted, duration_s=3600,
                                        include_drafts=include)
            assert opened.session.include_drafts is include
            result = actions.submit_exam(store, paper=drafted, session_id=opened.session.id,
                                         responses={q1.id: ChoiceResponse((q1.answer,)),
                                                    q2.id: ChoiceResponse((q2.answer,))},
                                         seconds={})
            row = next(r for r in result.report.questions if r.question_id == q2.id)
            assert row.verdict == "correct" and row.counted is include
            assert result.report.score == expected
            assert store.session(opened.session.id).score == expected
    finally:
        store.close()
