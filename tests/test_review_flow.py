"""The Anki-like review session (next card, rate 1-4, daily limits, summary), study
settings, and the wrong-answer book's graduation and put-back (no Qt)."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from question_db import actions, review, study
from question_db.bank import load_bank
from question_db.store import ProgressStore

from study_helpers import db_rows, right, wrong

BANK = load_bank()
# a fixed local morning, so "today" has room for minutes of learning steps
MORNING = datetime(2026, 3, 2, 9, 0).timestamp()


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def answer(store, qid, response, now):
    q = BANK.question(qid)
    paper = BANK.paper(q.paper_id)
    sid = actions.open_practice(store, paper=paper, now=now).session.id
    return actions.submit_practice_answer(store, paper=paper, session_id=sid, question=q,
                                          response=response, seconds=30, now=now)


def test_settings_defaults_validation_and_storage(store):
    assert study.study_settings(store) == review.StudySettings(20, 200, 2)
    saved = study.set_study_settings(store, new_per_day=5, graduate_after=3)
    assert saved.settings == review.StudySettings(5, 200, 3) and saved.changes.settings
    assert dict(db_rows(store.path, "SELECT key, value FROM settings")) == {
        "review_new_per_day": "5", "wrong_book_graduate_after": "3"}
    with pytest.raises(ValueError, match="graduate_after"):
        study.set_study_settings(store, graduate_after=0)
    with pytest.raises(ValueError, match="new_per_day"):
        study.set_study_settings(store, new_per_day=-1)


def test_new_cards_in_bank_order_up_to_the_daily_limit(store):
    study.set_study_settings(store, new_per_day=3)
    started = study.start_review(store, bank=BANK, now=MORNING)
    scored = [q.id for q in BANK.all_questions() if q.scored]
    card = started.card
    assert card.is_new and card.question.id == scored[0] and card.state is None
    assert card.remaining.new == 3 and card.remaining.review == 0
    assert sorted(card.next_due) == [1, 2, 3, 4]
    assert card.next_due[1] < card.next_due[3] < card.next_due[4]  # Again soonest, Easy latest
    seen = []
    t = MORNING
    while card is not None and len(seen) < 10:
        seen.append(card.question.id)
        t += 20
        card = study.rate_card(store, bank=BANK, review_session_id=started.review_session_id,
                               question_id=card.question.id, rating=review.EASY, seconds=20,
                               now=t).next
    assert seen == scored[:3]  # Easy graduates each at once: three new cards, then done
    assert card is None
    # a new session the same day has nothing left; the next day three more
    assert study.start_review(store, bank=BANK, now=t + 60).card is None
    tomorrow = (datetime.fromtimestamp(MORNING) + timedelta(days=1)).timestamp()
    assert study.next_review_card(store, bank=BANK, now=tomorrow).question.id == scored[3]


def test_again_comes_back_in_the_same_session_and_the_summary_counts(store):
    study.set_study_settings(store, new_per_day=1)
    started = study.start_review(store, bank=BANK, now=MORNING)
    sid, qid = started.review_session_id, started.card.question.id
    rated = study.rate_card(store, bank=BANK, review_session_id=sid, question_id=qid,
                            rating=review.AGAIN, seconds=12, now=MORNING)
    assert rated.card.last_rating == review.AGAIN and rated.changes.reviews
    # learning: due in a minute, shown early (learn-ahead) since nothing else is left
    assert rated.next.question.id == qid and rated.next.remaining.learning == 1
    assert rated.next.remaining.new == 0  # the one new card of today is used up
    rated = study.rate_card(store, bank=BANK, review_session_id=sid, question_id=qid,
                            rating=review.GOOD, seconds=8, now=MORNING + 70)
    assert rated.next is not None and rated.next.question.id == qid  # the 10-minute step
    rated = study.rate_card(store, bank=BANK, review_session_id=sid, question_id=qid,
                            rating=review.GOOD, seconds=5, now=MORNING + 700)
    assert rated.next is None  # graduated to days: done for today
    summary = study.finish_review(store, review_session_id=sid, now=MORNING + 710)
    assert (summary.cards, summary.new_cards, summary.reviews) == (1, 1, 3)
    assert summary.ratings == {1: 1, 2: 0, 3: 2, 4: 0} and summary.seconds == 25
    assert summary.finished_at == MORNING + 710
    # self-ratings are no answers: no statistics, no wrong-answer book for the Again
    assert db_rows(store.path, "SELECT COUNT(*) FROM answers") == [(0,)]
    assert review.wrong_book(store, BANK) == []


def test_due_reviews_first_most_overdue_within_the_review_limit(store):
    for i, qid in enumerate(("001/3", "001/4", "001/6")):
        answer(store, qid, right(BANK.question(qid)), MORNING - 40 * 86400 + i)
    study.set_study_settings(store, new_per_day=0, reviews_per_day=2)
    started = study.start_review(store, bank=BANK, now=MORNING)
    card = started.card
    assert not card.is_new and card.state.reps == 1
    assert card.remaining.review == 2
    first = card.question.id
    second = study.rate_card(store, bank=BANK, review_session_id=started.review_session_id,
                             question_id=first, rating=review.GOOD, seconds=3,
                             now=MORNING + 1).next
    assert second.question.id != first and second.remaining.review == 1
    last = study.rate_card(store, bank=BANK, review_session_id=started.review_session_id,
                           question_id=second.question.id, rating=review.HARD, seconds=3,
                           now=MORNING + 2)
    assert last.next is None  # the third due card waits for tomorrow's limit
    due = [c.question_id for c in review.due_today(store, now=MORNING + 3)]
    assert len(due) == 1 and due[0] not in (first, second.question.id)


def test_wrong_book_entries_graduate_after_two_right_answers(store):
    qid = "001/3"
    q = BANK.question(qid)
    answer(store, qid, wrong(q), MORNING)
    answer(store, qid, right(q), MORNING + 10)
    [entry] = review.wrong_book(store, BANK)
    assert (entry.streak, entry.graduated) == (1, False)
    answer(store, qid, right(q), MORNING + 20)
    assert review.wrong_book(store, BANK) == []  # graduated
    [shown] = review.wrong_book(store, BANK, include_graduated=True)
    assert shown.graduated and shown.streak == 2 and shown.correct_since == 2
    # the setting is the learner's: three in a row needed now, so it is back
    study.set_study_settings(store, graduate_after=3)
    assert [e.question.id for e in review.wrong_book(store, BANK)] == [qid]
    assert actions.library_summary(store, bank=BANK, now=MORNING).wrong_count == 1
    study.set_study_settings(store, graduate_after=2)
    # a self-rated Again (Show answer in another session) breaks the streak
    sid = actions.open_practice(store, paper=BANK.paper("001"), now=MORNING + 30).session.id
    actions.finish_run(store, session_ids=[sid], now=MORNING + 31)
    fresh = actions.start_run(store, bank=BANK, question_ids=[qid], now=MORNING + 32)
    study.reveal_answer(store, session_id=fresh.sessions["001"], question=q, now=MORNING + 33)
    [back] = review.wrong_book(store, BANK)
    assert back.streak == 0


def test_put_back_by_hand_and_graduating_again(store):
    qid = "001/4"
    q = BANK.question(qid)
    answer(store, qid, wrong(q), MORNING)
    answer(store, qid, right(q), MORNING + 10)
    answer(store, qid, right(q), MORNING + 20)
    assert review.wrong_book(store, BANK) == []
    put = study.put_back(store, question_id=qid, now=MORNING + 30)
    assert put.changes.reviews
    [entry] = review.wrong_book(store, BANK)
    assert entry.question.id == qid and entry.returned_at == MORNING + 30
    assert entry.streak == 0 and entry.misses == 1
    answer(store, qid, right(q), MORNING + 40)
    answer(store, qid, right(q), MORNING + 50)
    assert review.wrong_book(store, BANK) == []  # graduated again, counted from the put-back
    # any question can be put in the book by hand, and mastered ones come back too
    study.put_back(store, question_id="001/6", now=MORNING + 60)
    assert [e.question.id for e in review.wrong_book(store, BANK)] == ["001/6"]
    actions.set_mastered(store, question_id="001/6", mastered=True, now=MORNING + 70)
    assert review.wrong_book(store, BANK) == []
    study.put_back(store, question_id="001/6", now=MORNING + 80)
    [again] = review.wrong_book(store, BANK)
    assert again.misses == 0 and again.mastered_at is None
    assert review.card_state(store, "001/6") is None  # never answered: no card yet
