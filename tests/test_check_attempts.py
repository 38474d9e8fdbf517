"""Schema 3 ("check_attempts"): check attempts, open-book exams, where a session was left;
on real SQLite files and the bundled bank."""
from __future__ import annotations

import json
import sqlite3

import jsonschema
import pytest

from question_db import actions, study
from question_db.attempts import failure_summary, required_passed
from question_db.bank import load_bank
from question_db.exam import build_report
from question_db.grading import UNANSWERED
from question_db.progress_io import export_json
from question_db.responses import CodeResponse, TextResponse
from question_db.schema import MIGRATIONS
from question_db.schemas import PROGRESS_EXPORT, schema
from question_db.store import ProgressStore

CHECKS = [{"name": "shape", "passed": True, "required": True},
          {"name": "causal", "passed": False, "required": True, "message": "later token"},
          {"name": "compile", "passed": False, "required": False}]


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def programming(bank):
    return next(q for q in bank.paper("000").questions if q.type == "programming")


def test_a_schema_2_file_gains_attempts_and_keeps_its_sessions(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for number, migrate in enumerate(MIGRATIONS[:2], start=1):  # as examdesk 2 left it
        migrate(conn)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("INSERT INTO sessions (paper_id, mode, state, started_at, deadline, uid) "
                 "VALUES ('000', 'exam', 'active', 1.0, 3601.0, 'u1')")
    conn.commit()
    conn.close()
    store = ProgressStore(path)
    try:
        [session] = store.sessions()
        assert session.paper_id == "000" and session.open_book is False  # closed book
        assert store.query("SELECT COUNT(*) AS n FROM check_attempts").__next__()["n"] == 0
    finally:
        store.close()


def test_each_check_run_is_kept_with_its_code_newest_first(store, bank):
    q = programming(bank)
    sid = actions.open_practice(store, paper=bank.paper("000")).session.id
    first = actions.record_check_attempt(store, session_id=sid, question_id=q.id,
                                         code="v1", checks=CHECKS, now=100.0)
    assert first.changes.sessions == {sid}
    assert (first.attempt.passed, first.attempt.required) == (1, 2)
    assert not first.attempt.all_passed
    actions.record_check_attempt(store, session_id=sid, question_id=q.id, code="v2",
                                 checks=[], error="the kernel died", now=200.0)
    history = actions.check_attempts(store, question_id=q.id)
    assert [a.code for a in history] == ["v2", "v1"]
    assert history[0].error == "the kernel died" and history[0].checks == ()
    assert list(history[1].checks) == CHECKS
    with pytest.raises(KeyError):
        actions.record_check_attempt(store, session_id=999, question_id=q.id, code="x",
                                     checks=[])


def test_attempts_and_open_book_travel_in_the_progress_export(tmp_path, store, bank):
    paper = bank.paper("000")
    exam = actions.start_exam(store, paper=paper, duration_s=600, open_book=True)
    assert exam.session.open_book is True
    actions.record_check_attempt(store, session_id=exam.session.id,
                                 question_id=programming(bank).id, code="v1", checks=CHECKS)
    data = export_json(store)
    assert data["sessions"][0]["open_book"] is True
    assert data["check_attempts"][0]["checks"] == CHECKS
    jsonschema.validate(data, schema(PROGRESS_EXPORT))
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    other = ProgressStore(tmp_path / "other.sqlite3")
    try:
        result = actions.import_progress(other, path=path, bank=bank).result
        assert result.added["check_attempts"] == 1
        assert actions.import_progress(other, path=path, bank=bank).result.skipped[
            "check_attempts"] == 1  # merged by uid: never twice
        [session] = other.sessions()
        assert session.open_book is True
        [attempt] = actions.check_attempts(other, question_id=programming(bank).id)
        assert attempt.code == "v1" and list(attempt.checks) == CHECKS
    finally:
        other.close()


def test_a_session_reopens_at_its_stored_position_not_at_the_draft_saved_last(store, bank):
    """One resume mechanism (sessions.position): the screens write the question on screen;
    a draft saved later for another question (a retried save, the time of the question
    just left) does not move where the session reopens."""
    paper = bank.paper("000")
    sid = actions.start_exam(store, paper=paper, duration_s=600).session.id
    assert actions.open_session(store, bank=bank, session_id=sid).position is None
    q3, q7 = paper.question(3), paper.question(7)
    study.set_position(store, session_id=sid, question_id=q7.id, now=1000.0)
    actions.save_draft(store, session_id=sid, question=q3, response=TextResponse(""),
                       seconds=9.0, now=1005.0)
    assert actions.open_session(store, bank=bank, session_id=sid).position == q7.id


def test_a_draft_saved_only_for_time_is_unanswered_in_the_report(store, bank):
    """The screens save the page on screen every second for its time; a short answer or a
    code question never written on stays unanswered (not "pending")."""
    paper = bank.paper("000")
    sid = actions.start_exam(store, paper=paper, duration_s=600).session.id
    essay = next(q for q in paper.questions if q.type == "short_answer")
    code = programming(bank)
    actions.save_draft(store, session_id=sid, question=essay, response=TextResponse(""),
                       seconds=4.0)
    actions.save_draft(store, session_id=sid, question=code,
                       response=CodeResponse(code.code.read("starter")), seconds=6.0)
    report = build_report(paper, store.session_state(sid))
    rows = {r.question_id: r for r in report.questions}
    assert rows[essay.id].verdict == UNANSWERED and rows[essay.id].seconds == 4.0
    assert rows[code.id].verdict == UNANSWERED and rows[code.id].seconds == 6.0
    assert report.pending == 0


def test_one_message_when_every_check_stops_at_the_same_exception():
    raised = [{"name": f"c{i}", "passed": False, "required": True,
               "message": "NotImplementedError: ", "details": {"traceback": "line 41"}}
              for i in range(11)]
    shared = failure_summary(raised)
    assert shared is not None and shared.count == 11 and shared.starter_placeholder
    assert shared.traceback == "line 41"
    # Real failures of different properties are not folded into one.
    assert failure_summary(CHECKS) is None
    assert failure_summary(raised[:1]) is None  # one failure needs no summary
    assert required_passed(CHECKS) == (1, 2)
