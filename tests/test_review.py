"""Scheduling, the wrong-answer book, statistics and progress export/import (no Qt)."""
from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Card, Rating, Scheduler

from question_db import progress_io, review, stats
from question_db.bank import load_bank
from question_db.grading import grade_answer
from question_db.store import ProgressStore

from conftest import REPO

sys.path.insert(0, str(REPO))
from bench.synthetic import fill_answers  # noqa: E402

BANK = load_bank()
T0 = 1_780_000_000.0  # a fixed wall clock


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.db")
    yield s
    s.close()


def answer(store, sid, qid, response, seconds, now):
    q = BANK.question(qid)
    paper = BANK.paper(q.paper_id)
    rule = paper.section_of(q).multiple_choice_rule
    grade = grade_answer(q, response, multiple_choice_rule=rule)
    ref = store.record_answer(sid, qid, response, grade=grade, seconds=seconds, now=now)
    return review.record_outcome(store, q, paper, grade=grade, seconds=seconds,
                                 answer_uid=ref.uid, now=now)


def wrong_letter(qid):
    q = BANK.question(qid)
    return next(k for k in q.options if k != q.answer)


def test_scripted_history_gives_fsrs_due_dates(store):
    """wrong, right, right — the due dates are exactly what fsrs computes."""
    qid = "001/3"
    q = BANK.question(qid)
    budget = review.time_budget_s(BANK.paper("001"), q)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    times = [T0, T0 + 3600, T0 + 3 * 86400]
    states = [answer(store, sid, qid, wrong_letter(qid), budget, times[0]),
              answer(store, sid, qid, q.answer, budget, times[1]),
              answer(store, sid, qid, q.answer, budget, times[2])]
    sched = Scheduler(enable_fuzzing=False)
    card = Card(due=datetime.fromtimestamp(T0, timezone.utc))
    expected = []
    for rating, t in zip((Rating.Again, Rating.Good, Rating.Good), times):
        card, _ = sched.review_card(card, rating, datetime.fromtimestamp(t, timezone.utc))
        expected.append(card.due.timestamp())
    assert [s.due for s in states] == pytest.approx(expected)
    assert [s.last_rating for s in states] == [review.AGAIN, review.GOOD, review.GOOD]
    assert states[-1].due > times[-1] + 86400  # the third review pushes it out by days


@pytest.mark.parametrize("fraction_of_budget,rating", [(0.2, review.EASY), (1.0, review.GOOD),
                                                       (2.0, review.HARD)])
def test_right_answers_rated_by_time(fraction_of_budget, rating):
    q = BANK.question("001/3")
    budget = review.time_budget_s(BANK.paper("001"), q)
    g = grade_answer(q, q.answer)
    assert review.rating_for(q, g, fraction_of_budget * budget, budget) == rating


def test_partial_code_and_subjective_ratings():
    multi = BANK.question("001/12")
    partial = grade_answer(multi, ["A", "C"], multiple_choice_rule="partial")
    assert review.rating_for(multi, partial, 1, 100) == review.HARD
    code = BANK.question("001/29")
    checks = [{"name": n, "passed": p} for n, p in (("a", True), ("b", True), ("c", False))]
    g = grade_answer(code, {"checks": checks})
    assert review.rating_for(code, g, 1, 100) == review.HARD  # 2/3 of checks
    g = grade_answer(code, {"checks": checks[2:]})
    assert review.rating_for(code, g, 1, 100) == review.AGAIN
    assert review.rating_for(code, grade_answer(code, {}), 1, 100) is None  # never checked
    essay = BANK.question("000/31")
    low = grade_answer(essay, {"marks": [True] + [False] * (len(essay.rubric) - 1)})
    assert review.rating_for(essay, low, 1, 100) == review.AGAIN
    assert review.is_miss(essay, low)


def test_override_replaces_last_rating(store):
    qid = "001/4"
    q = BANK.question(qid)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    answer(store, sid, qid, q.answer, 60, T0)
    easy = review.override_rating(store, qid, review.EASY)
    card = Card(due=datetime.fromtimestamp(T0, timezone.utc))
    card, _ = Scheduler(enable_fuzzing=False).review_card(
        card, Rating.Easy, datetime.fromtimestamp(T0, timezone.utc))
    assert easy.due == pytest.approx(card.due.timestamp())
    assert easy.last_rating == review.EASY and easy.reps == 1
    with pytest.raises(ValueError):
        review.override_rating(store, qid, 7)


def test_wrong_book_follows_answers_and_mastery(store):
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    answer(store, sid, "001/3", wrong_letter("001/3"), 30, T0)
    answer(store, sid, "001/4", BANK.question("001/4").answer, 30, T0 + 1)
    answer(store, sid, "001/22", ["线性", "平方"], 30, T0 + 2)  # one blank of two right
    book = review.wrong_book(store, BANK)
    assert [e.question.id for e in book] == ["001/22", "001/3"]
    entry = book[1]
    assert entry.response == wrong_letter("001/3") and entry.grade["verdict"] == "wrong"
    assert [e.question.id for e in review.wrong_book(store, BANK, qtype="fill_blank")] == \
        ["001/22"]
    topic = BANK.question("001/3").topics[0]
    assert "001/3" in [e.question.id for e in review.wrong_book(store, BANK, topic=topic)]
    assert review.wrong_book(store, BANK, paper_id="000") == []

    assert entry.last_rating == review.AGAIN  # the miss
    answer(store, sid, "001/3", BANK.question("001/3").answer, 30, T0 + 10)
    again = next(e for e in review.wrong_book(store, BANK) if e.question.id == "001/3")
    assert again.correct_since == 1
    assert again.last_rating == review.card_state(store, "001/3").last_rating != review.AGAIN
    review.set_mastered(store, "001/3", now=T0 + 20)
    assert [e.question.id for e in review.wrong_book(store, BANK)] == ["001/22"]
    assert "001/3" in [e.question.id for e in review.wrong_book(store, BANK,
                                                                include_mastered=True)]
    answer(store, sid, "001/3", wrong_letter("001/3"), 30, T0 + 30)  # missed again: back
    assert "001/3" in [e.question.id for e in review.wrong_book(store, BANK)]


def test_due_queue_and_forecast(store):
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    for i, qid in enumerate(("001/3", "001/4", "001/6")):
        answer(store, sid, qid, BANK.question(qid).answer, 60, T0 + i)
    assert review.due_questions(store, now=T0 + 10) == []
    later = T0 + 30 * 86400
    assert {c.question_id for c in review.due_questions(store, now=later)} == \
        {"001/3", "001/4", "001/6"}
    forecast = review.due_forecast(store, days=14, now=T0, tz=timezone.utc)
    assert len(forecast) == 14 and sum(n for _, n in forecast) == 3
    review.set_mastered(store, "001/4", now=T0 + 5)
    assert sum(n for _, n in review.due_forecast(store, days=14, now=T0, tz=timezone.utc)) == 2


def test_exam_date_setting(store):
    day = (datetime.fromtimestamp(T0) + timedelta(days=30)).date()
    review.set_exam_date(store, day)
    assert review.exam_date(store) == day


def test_stats_from_answers(store):
    sid = store.start_session(paper_id="001", mode="exam", duration_s=600, now=T0)
    answer(store, sid, "001/3", BANK.question("001/3").answer, 40, T0)
    answer(store, sid, "001/3", wrong_letter("001/3"), 70, T0 + 1)  # changed: +30 s
    answer(store, sid, "001/12", ["A", "C"], 20, T0 + 2)
    store.finish_session(sid, state="submitted", score=2, max_score=5, now=T0 + 3)
    by_type = {a.key: a for a in stats.accuracy_by_type(store, BANK)}
    assert (by_type["single_choice"].answers, by_type["single_choice"].correct) == (2, 1)
    assert by_type["multiple_choice"].score_rate == 0.0  # 001 is all-or-nothing
    times = {t.question_id: t for t in stats.time_per_question(store, "001")}
    assert times["001/3"].visits == 1 and times["001/3"].seconds == pytest.approx(70)
    trend = stats.score_trend(store, "001")
    assert [(p.score, p.max_score) for p in trend] == [(2, 5)]
    topics = {a.key for a in stats.accuracy_by_topic(store, BANK)}
    assert set(BANK.question("001/3").topics) <= topics


def test_totals_match_brute_force_after_regrade(store):
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    q = BANK.question("000/31")
    aid = store.record_answer(sid, q.id, {"marks": None}, grade=grade_answer(q, {}),
                              seconds=100, now=T0)
    store.set_grade(aid.id, grade_answer(q, {"marks": [True] * len(q.rubric)}))  # self-marked
    row = next(store.db.query("SELECT * FROM question_totals WHERE question_id = '000/31'"))
    assert (row["graded"], row["correct"], row["points"]) == (1, 1, q.points)


@pytest.mark.slow
def test_stats_queries_agree_with_a_brute_force_count_on_a_long_history(tmp_path):
    """The incremental totals and every statistic against the answers themselves. 200,000
    answers (years of them, many sessions): what a million adds is speed, and bench/run.py
    (its "stats" group) measures that on a million; here it cost 74 s of the suite."""
    big = ProgressStore(tmp_path / "big.db")
    fill_answers(big, BANK, 200_000)
    assert big.db.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 200_000
    brute = {r[0]: r[1:] for r in big.db.execute(
        "SELECT question_id, COUNT(*), SUM(verdict = 'correct'), SUM(points) FROM answers "
        "GROUP BY question_id")}
    totals = {r[0]: r[1:] for r in big.db.execute(
        "SELECT question_id, attempts, correct, points FROM question_totals")}
    assert totals.keys() == brute.keys()
    for qid, (n, c, p) in brute.items():
        assert totals[qid][:2] == (n, c) and totals[qid][2] == pytest.approx(p)
    by_type = stats.accuracy_by_type(big, BANK)
    assert sum(a.answers for a in by_type) == 200_000
    assert stats.score_trend(big, "001") and stats.time_per_question(big)
    missed = {r[0]: r[1] for r in big.db.execute(
        "SELECT question_id, COUNT(*) FROM reviews WHERE missed = 1 GROUP BY question_id")}
    book = review.wrong_book(big, BANK, include_graduated=True)
    assert {e.question.id: e.misses for e in book} == missed
    # the default book leaves out the entries answered right twice since their last miss
    assert {e.question.id for e in review.wrong_book(big, BANK)} == {
        e.question.id for e in book if e.streak < 2}
    # the synthetic history ends years after T0: forecast from its first due day
    first_due = big.db.execute("SELECT MIN(due) FROM cards").fetchone()[0]
    assert sum(n for _, n in review.due_forecast(big, days=14, now=first_due)) > 0
    big.close()


def test_export_import_round_trip_without_duplicates(store, tmp_path):
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    answer(store, sid, "001/3", wrong_letter("001/3"), 30, T0)
    answer(store, sid, "001/4", BANK.question("001/4").answer, 30, T0 + 1)
    store.save_draft(sid, "001/5", "B", seconds=3, now=T0 + 2)
    store.set_flag(sid, "001/5", True)
    review.set_mastered(store, "001/4", now=T0 + 3)
    out = tmp_path / "progress.json"
    progress_io.export_progress(store, out)

    fresh = ProgressStore(tmp_path / "fresh.db")
    first = progress_io.import_progress(fresh, out, BANK)
    assert first.added == {"sessions": 1, "answers": 2, "reviews": 2}
    again = progress_io.import_progress(fresh, out, BANK)
    assert again.added == {} and again.skipped == {"sessions": 1, "answers": 2, "reviews": 2}
    assert json.loads(json.dumps(progress_io.export_json(fresh)))["answers"] == \
        progress_io.export_json(store)["answers"]
    new_sid = fresh.sessions()[0].id
    state = fresh.session_state(new_sid)
    assert state.drafts == {"001/5": "B"} and state.flags == {"001/5"}
    assert [e.question.id for e in review.wrong_book(fresh, BANK)] == ["001/3"]
    assert review.card_state(fresh, "001/3").due == review.card_state(store, "001/3").due
    fresh.close()


def test_csv_round_trip_derives_reviews(store, tmp_path):
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    answer(store, sid, "001/3", wrong_letter("001/3"), 30, T0)
    out = tmp_path / "progress.csv"
    progress_io.export_progress(store, out)
    fresh = ProgressStore(tmp_path / "fresh.db")
    result = progress_io.import_progress(fresh, out, BANK)
    assert result.added == {"sessions": 1, "answers": 1}
    assert progress_io.import_progress(fresh, out, BANK).added == {}
    assert [e.question.id for e in review.wrong_book(fresh, BANK)] == ["001/3"]
    fresh.close()


def test_bad_import_file_names_file_and_field_and_changes_nothing(store, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "examdesk-progress", "version": 1,
                               "sessions": [{"uid": "s1", "paper_id": "001", "mode": "exam",
                                             "state": "submitted", "started_at": T0}],
                               "answers": [{"uid": "a1", "session_uid": "s1",
                                            "created_at": T0}]}), "utf-8")
    with pytest.raises(progress_io.ProgressFileError,
                       match=r"bad\.json:answers\[0\]: missing field 'question_id'"):
        progress_io.import_progress(store, bad, BANK)
    assert store.sessions() == []  # the session before the bad answer was rolled back
    (tmp_path / "x.json").write_text("{}", "utf-8")
    with pytest.raises(progress_io.ProgressFileError, match="field 'format'"):
        progress_io.import_progress(store, tmp_path / "x.json", BANK)
