"""A new review extends the cached FSRS card by one step (schema v5) instead of replaying
the question's whole history; the card must stay exactly what the full replay gives."""
from __future__ import annotations

import sqlite3
import zlib
from datetime import datetime, timezone

import pytest
from fsrs import Card, Rating, Scheduler

from question_db import actions, review
from question_db import store_reviews as rows
from question_db.bank import load_bank
from question_db.enums import ReviewKind
from question_db.responses import ChoiceResponse
from question_db.schema import MIGRATIONS
from question_db.store import ProgressStore

BANK = load_bank()
T0 = 1_780_000_000.0
QID = "001/3"


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.db")
    yield s
    s.close()


def full_replay(store: ProgressStore, qid: str) -> str:
    """The oracle: fsrs over every review of the question, in time order, from scratch."""
    history = store.execute("SELECT rating, reviewed_at FROM reviews WHERE question_id = ? "
                            "ORDER BY reviewed_at, id", [qid]).fetchall()
    at = lambda ts: datetime.fromtimestamp(ts, tz=timezone.utc)  # noqa: E731
    card = Card(card_id=zlib.crc32(qid.encode()) or 1, due=at(history[0][1]))
    for rating, ts in history:
        card, _ = Scheduler(enable_fuzzing=False).review_card(card, Rating(rating), at(ts))
    return card.to_json()


def cached(store: ProgressStore, qid: str) -> tuple[str, int | None]:
    return tuple(store.execute("SELECT card, replayed FROM cards WHERE question_id = ?",
                               [qid]).fetchone())


def submit(store, sid, qid, letter, seconds, now):
    q = BANK.question(qid)
    return actions.submit_practice_answer(store, paper=BANK.paper(q.paper_id),
                                          session_id=sid, question=q,
                                          response=ChoiceResponse((letter,)),
                                          seconds=seconds, now=now)


@pytest.fixture
def replays(monkeypatch):
    """Counts full replays, to tell the one-step path from the full one."""
    calls = []
    real = review.replay
    monkeypatch.setattr(review, "replay", lambda store, qid: calls.append(qid) or real(store,
                                                                                       qid))
    return calls


def test_every_kind_of_review_leaves_the_card_the_full_replay(store, replays):
    q = BANK.question(QID)
    wrong = next(k for k in q.options if k != q.answer)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    steps = [
        lambda t: submit(store, sid, QID, wrong, 30, t),              # first: a full replay
        lambda t: submit(store, sid, QID, q.answer, 60, t),
        lambda t: submit(store, sid, QID, q.answer, 5, t),
        lambda t: review.record_self_rating(store, QID, rating=review.HARD,
                                            kind=ReviewKind.REVIEW, now=t),
        lambda t: submit(store, sid, QID, wrong, 400, t),
        lambda t: review.record_self_rating(store, QID, rating=review.EASY,
                                            kind=ReviewKind.RECITE, now=t),
    ]
    states = []
    for i, step in enumerate(steps):
        states.append(step(T0 + i * 3 * 86400 + i * 1234.5678))
        card, replayed = cached(store, QID)
        assert card == full_replay(store, QID), f"step {i}"
        assert replayed == i + 1
    assert replays == [QID]  # only the first review replayed; the others were one step each
    last = states[-1]
    assert (last.reps, last.last_rating) == (6, review.EASY)
    assert review.card_state(store, QID) == last

    # an override re-rates a review in place: the triggers mark the card, it replays in full
    review.override_rating(store, QID, review.AGAIN)
    assert cached(store, QID) == (full_replay(store, QID), 6)
    assert replays == [QID, QID]
    # a review dated before the newest (an imported one, a clock set back) replays in full
    earlier = review.record_self_rating(store, QID, rating=review.GOOD,
                                        kind=ReviewKind.REVIEW, now=T0 + 86400)
    assert cached(store, QID) == (full_replay(store, QID), 7)
    assert replays == [QID] * 3 and earlier.reps == 7
    # and the next one in order is one step again
    submit(store, sid, QID, q.answer, 60, T0 + 40 * 86400)
    assert cached(store, QID) == (full_replay(store, QID), 8)
    assert replays == [QID] * 3


def test_a_review_changed_behind_the_cache_is_not_extended(store, replays):
    q = BANK.question(QID)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    for i in range(3):
        submit(store, sid, QID, q.answer, 60, T0 + i * 86400)
    store.execute("UPDATE reviews SET rating = 1 WHERE id = (SELECT MIN(id) FROM reviews)")
    assert cached(store, QID)[1] is None  # the trigger cleared it: no longer the replay
    submit(store, sid, QID, q.answer, 60, T0 + 5 * 86400)
    assert cached(store, QID) == (full_replay(store, QID), 4)
    assert replays == [QID, QID]


def test_a_regrade_finds_its_review_by_the_answer_uid(store):
    q = BANK.question(QID)
    wrong = next(k for k in q.options if k != q.answer)
    sid = store.start_session(paper_id="001", mode="practice", now=T0)
    first = submit(store, sid, QID, wrong, 60, T0)
    submit(store, sid, QID, q.answer, 60, T0 + 86400)
    statements = []
    store.conn.set_trace_callback(statements.append)
    regraded = actions.regrade_practice_answer(
        store, paper=BANK.paper("001"), session_id=sid, question=q, answer=first.answer,
        response=ChoiceResponse((q.answer,)), seconds=60, now=T0 + 2 * 86400)
    store.conn.set_trace_callback(None)
    assert regraded.card.reps == 2  # re-rated in place, not a third review
    assert cached(store, QID) == (full_replay(store, QID), 2)
    [lookup] = [s for s in statements if "answer_uid IN" in s]
    plan = " ".join(r[3] for r in store.execute(f"EXPLAIN QUERY PLAN {lookup}"))
    assert "reviews_by_answer" in plan


def test_a_schema_4_file_replays_its_cards_once_after_the_upgrade(tmp_path, replays):
    """A v4 card carries no replay count, so v5 does not trust it: the next review replays
    in full (here the v4 cache is deliberately stale, which only a replay can repair)."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for number, migrate in enumerate(MIGRATIONS[:4], start=1):
        migrate(conn)
        conn.execute(f"PRAGMA user_version = {number}")
    for i, rating in enumerate((1, 3, 3)):
        conn.execute("INSERT INTO reviews (uid, question_id, rating, missed, source, "
                     "reviewed_at) VALUES (?, ?, ?, 0, 'auto', ?)",
                     [f"r{i}", QID, rating, T0 + i * 86400])
    stale = Card(card_id=1, due=datetime.fromtimestamp(T0, tz=timezone.utc)).to_json()
    conn.execute("INSERT INTO cards (question_id, card, due) VALUES (?, ?, ?)",
                 [QID, stale, T0])
    conn.commit()
    conn.close()
    store = ProgressStore(path)
    try:
        assert store.execute("PRAGMA user_version").fetchone()[0] == 5
        assert cached(store, QID) == (stale, None)
        sid = store.start_session(paper_id="001", mode="practice", now=T0 + 4 * 86400)
        state = submit(store, sid, QID, BANK.question(QID).answer, 60, T0 + 5 * 86400)
        assert cached(store, QID) == (full_replay(store, QID), 4) and state.card.reps == 4
        assert replays == [QID]
        assert rows.current_card(store, QID).reviews == 4
    finally:
        store.close()
