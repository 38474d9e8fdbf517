"""Graded answers become reviews: exam submission, marking after it, rescoring, practice
answers and their regrades, runs over a question list. Real store files, the real bank."""
from __future__ import annotations

from dataclasses import replace

import pytest

from question_db import actions, review
from question_db.bank import load_bank
from question_db.enums import SessionState
from question_db.grading import grade_answer
from question_db.responses import CalculationResponse, ChoiceResponse, TextResponse
from question_db.store import ProgressStore

BANK = load_bank()
T0 = 1_780_000_000.0


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.db")
    yield s
    s.close()


def reviews(store, qid=None):
    where, params = ("WHERE question_id = ?", [qid]) if qid else ("", [])
    return list(store.db.query(f"SELECT * FROM reviews {where} ORDER BY id", params))


def wrong_letter(q):
    return next(k for k in q.options if k != q.answer)


def pick(letter):
    return ChoiceResponse((letter,))


def exam_with(store, paper, responses, *, now=T0):
    sid = store.start_session(paper_id=paper.id, mode="exam", duration_s=3600, now=now)
    seconds = {qid: 60.0 for qid in responses}
    return actions.submit_exam(store, paper=paper, session_id=sid, responses=responses,
                               seconds=seconds, now=now + 100).report


def test_submit_exam_records_a_review_per_graded_answer_and_the_score(store):
    paper = BANK.paper("000")
    q1, q2, essay = paper.question(1), paper.question(2), paper.question(31)
    report = exam_with(store, paper, {q1.id: pick(q1.answer), q2.id: pick(wrong_letter(q2)),
                                      essay.id: TextResponse("LoRA")})
    assert report.state == "submitted"
    session = store.session(report.session_id)
    assert (session.score, session.max_score) == (report.score, report.max_score)
    assert report.score == q1.points
    # the essay awaits self-marks: no review yet; unanswered questions get none either
    assert {r["question_id"]: r["missed"] for r in reviews(store)} == {q1.id: 0, q2.id: 1}
    budget = review.time_budget_s(paper, q1)
    assert review.card_state(store, q1.id).last_rating == review.rating_for(
        q1, grade_answer(q1, pick(q1.answer)), 60.0, budget)
    assert [e.question.id for e in review.wrong_book(store, BANK)] == [q2.id]


def test_submit_exam_is_one_transaction(store):
    paper = BANK.paper("000")
    q1 = paper.question(1)
    report = exam_with(store, paper, {q1.id: pick(q1.answer)})
    with pytest.raises(ValueError, match="already submitted"):
        actions.submit_exam(store, paper=paper, session_id=report.session_id,
                            responses={q1.id: pick(wrong_letter(q1))}, seconds={},
                            now=T0 + 200)
    assert len(store.db.execute("SELECT * FROM answers").fetchall()) == 1
    assert len(reviews(store)) == 1 and review.wrong_book(store, BANK) == []


def test_marking_after_submission_reviews_once_and_rescores(store):
    paper = BANK.paper("000")
    essay = paper.question(31)
    report = exam_with(store, paper, {essay.id: TextResponse("LoRA")})
    assert report.score == 0 and store.paper_summary("000").best_score == 0
    none = (False,) * len(essay.rubric)
    low = actions.mark_exam_answer(store, paper=paper, session_id=report.session_id,
                                   question=essay, response=TextResponse("LoRA", none),
                                   seconds=60, now=T0 + 300)
    assert low.report.score == 0 and [r["missed"] for r in reviews(store, essay.id)] == [1]
    assert low.changes.touches_paper("000") and low.changes.reviews
    full = actions.mark_exam_answer(store, paper=paper, session_id=report.session_id,
                                    question=essay,
                                    response=TextResponse("LoRA", (True,) * len(essay.rubric)),
                                    seconds=60, now=T0 + 400)
    assert full.report.score == essay.points
    rows = reviews(store, essay.id)
    assert len(rows) == 1, "re-marking re-rates the review, it is not a second outcome"
    assert rows[0]["missed"] == 0 and rows[0]["reviewed_at"] == T0 + 300
    assert review.wrong_book(store, BANK) == []
    # the stale best/last scores of the library follow the marking
    summary = store.paper_summary("000")
    assert (summary.best_score, summary.last_score) == (essay.points, essay.points)
    assert len(store.session_state(report.session_id).answers) == 1  # latest per question
    assert len(store.db.execute("SELECT * FROM answers").fetchall()) == 3  # history kept


def test_rescore_follows_a_corrected_key_and_refuses_active_sessions(store):
    paper = BANK.paper("000")
    q1 = paper.question(1)
    report = exam_with(store, paper, {q1.id: pick("B")})
    assert report.score == 0
    fixed = replace(q1, answer="B")
    corrected = replace(paper, questions=tuple(fixed if q.id == q1.id else q
                                               for q in paper.questions))
    rescored = actions.exam_report(store, paper=corrected, session_id=report.session_id)
    assert rescored.report.score == q1.points and rescored.changes.touches_paper("000")
    assert store.session(report.session_id).score == q1.points
    assert not store.rescore_session(report.session_id, score=q1.points,
                                     max_score=report.max_score)
    active = store.start_session(paper_id="000", mode="exam", duration_s=60)
    with pytest.raises(ValueError, match="still active"):
        store.rescore_session(active, score=1, max_score=2)
    assert actions.exam_report(store, paper=paper, session_id=active).report.state == \
        "active"  # read only
    assert store.session(active).score is None


def test_practice_answer_is_rated_and_a_regrade_replaces_its_review(store):
    paper = BANK.paper("001")
    calc = paper.question(26)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    values = CalculationResponse(tuple(str(p.value) for p in calc.parts))
    first = actions.submit_practice_answer(store, paper=paper, session_id=sid, question=calc,
                                           response=values, seconds=90, now=T0)
    assert first.grade.verdict == "pending"
    assert first.card is None and reviews(store) == []  # rubric not self-marked yet
    marked = replace(values, marks=(True,) * len(calc.rubric))
    right = actions.regrade_practice_answer(store, paper=paper, session_id=sid, question=calc,
                                            answer=first.answer, response=marked, seconds=95,
                                            now=T0 + 5)
    expected = review.rating_for(calc, grade_answer(calc, marked), 90,
                                 review.time_budget_s(paper, calc))
    assert right.card.last_rating == expected
    wrong = CalculationResponse(("1",) * len(calc.parts), marks=(False,) * len(calc.rubric))
    again = actions.regrade_practice_answer(store, paper=paper, session_id=sid, question=calc,
                                            answer=first.answer, response=wrong, seconds=99,
                                            now=T0 + 9)
    assert again.card.last_rating == review.AGAIN and len(reviews(store)) == 1
    assert again.card.reps == 1
    assert [e.question.id for e in review.wrong_book(store, BANK)] == [calc.id]


def test_run_over_questions_of_two_papers(store):
    ids = ["001/3", "000/1", "001/4", "999/1"]
    own = store.start_session(paper_id="001", mode="practice", now=T0)
    run = actions.start_run(store, bank=BANK, question_ids=ids, now=T0 + 1)
    assert [q.id for q in run.questions] == ["001/3", "000/1", "001/4"]  # unknown skipped
    assert set(run.sessions) == {"001", "000"} and own not in run.sessions.values()
    q = BANK.question("001/3")
    actions.submit_practice_answer(store, paper=run.papers["001"], session_id=run.sessions["001"],
                                   question=q, response=ChoiceResponse(tuple(q.answer)),
                                   seconds=10, now=T0 + 2)
    actions.finish_run(store, session_ids=run.sessions.values(), now=T0 + 3)
    done = store.session(run.sessions["001"])
    assert (done.state, done.score, done.max_score) == ("submitted", q.points, q.points)
    assert store.session(run.sessions["000"]).state == SessionState.ABANDONED
    assert store.session(own).state == "active"  # the paper's own practice continues
    assert not actions.finish_run(store, session_ids=run.sessions.values()).changes  # twice: harmless


def test_practice_submit_is_one_transaction_with_its_draft(store, monkeypatch):
    """One commit for the draft, the answer and the review; nothing of it when one part
    fails (the screen then says so and keeps the answer editable)."""
    paper = BANK.paper("000")
    q1 = paper.question(1)
    sid = store.start_session(paper_id="000", mode="practice", now=T0)
    commits = []
    store.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    outcome = actions.submit_practice_answer(store, paper=paper, session_id=sid, question=q1,
                                             response=pick(q1.answer), seconds=12, now=T0)
    store.conn.set_trace_callback(None)
    assert commits == ["COMMIT"]
    assert outcome.grade.verdict == "correct" and outcome.card is not None
    state = actions.open_session(store, bank=BANK, session_id=sid)
    assert state.responses[q1.id] == pick(q1.answer)
    assert state.submitted[q1.id].ref == outcome.answer

    def refuse(*args, **kwargs):
        raise RuntimeError("the review could not be written")
    monkeypatch.setattr(review, "record_outcome", refuse)
    q2 = paper.question(2)
    with pytest.raises(RuntimeError):
        actions.submit_practice_answer(store, paper=paper, session_id=sid, question=q2,
                                       response=pick(q2.answer), seconds=5, now=T0 + 1)
    state = actions.open_session(store, bank=BANK, session_id=sid)
    assert q2.id not in state.responses and q2.id not in state.submitted
