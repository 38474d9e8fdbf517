"""The SQL of review scheduling and the wrong-answer book: reviews, cards, mastery, settings.

Part of the store (``store*.py`` are the only modules that write SQL); the scheduling rules
themselves (ratings, FSRS replay) are ``review.py``. Every function takes the
``ProgressStore`` and joins the caller's transaction when one is open.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Iterable

from .store import ProgressStore

__all__ = ["ReviewRow", "CurrentCard", "review_history", "latest_mastery", "save_card",
           "current_card", "card_row", "review_for_answers", "rate_review", "add_review",
           "rerate_review_uid", "has_reviews", "due_cards", "override_last_review",
           "add_mastery", "remove_mastery", "refresh_card_mastery", "review_count_and_last",
           "last_rating", "due_card_ids", "open_card_dues", "get_setting", "set_setting",
           "delete_setting", "last_missed_answer", "outcomes_newest_first"]


@dataclass(frozen=True)
class ReviewRow:
    rating: int
    reviewed_at: float


def review_history(store: ProgressStore, question_id: str) -> list[ReviewRow]:
    """The question's reviews in the order FSRS replays them."""
    return [ReviewRow(r["rating"], r["reviewed_at"]) for r in store.query(
        "SELECT rating, reviewed_at FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at, id", [question_id])]


def latest_mastery(store: ProgressStore, question_id: str) -> float | None:
    return store.execute("SELECT MAX(mastered_at) FROM mastery WHERE question_id = ?",
                         [question_id]).fetchone()[0]


def save_card(store: ProgressStore, question_id: str, card_json: str, due: float,
              mastered_at: float | None, replayed: int) -> None:
    """Cache the card replayed from the question's ``replayed`` reviews (all it has now; the
    triggers of schema v5 clear the count when any of them changes)."""
    store.execute(
        "INSERT INTO cards (question_id, card, due, mastered_at, replayed) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (question_id) DO UPDATE SET card = excluded.card, "
        "due = excluded.due, mastered_at = excluded.mastered_at, replayed = excluded.replayed",
        [question_id, card_json, due, mastered_at, replayed])


@dataclass(frozen=True)
class CurrentCard:
    card_json: str
    reviews: int            # how many reviews it is the replay of: all the question has
    last_reviewed_at: float  # the newest of them


def current_card(store: ProgressStore, question_id: str) -> CurrentCard | None:
    """The cached card if it is still the replay of the question's reviews, else None."""
    row = store.execute(
        "SELECT card, replayed, (SELECT MAX(reviewed_at) FROM reviews WHERE question_id = ?) "
        "FROM cards WHERE question_id = ? AND replayed > 0",
        [question_id, question_id]).fetchone()
    return CurrentCard(*row) if row and row[2] is not None else None


def card_row(store: ProgressStore, question_id: str) -> tuple[str, float, float | None] | None:
    """(card JSON, due, mastered_at) of the question's cached card, or None."""
    row = store.execute("SELECT card, due, mastered_at FROM cards WHERE question_id = ?",
                        [question_id]).fetchone()
    return tuple(row) if row else None


def review_for_answers(store: ProgressStore, question_id: str,
                       answer_uids: Iterable[str]) -> int | None:
    """The newest review that came from one of ``answer_uids`` (a regrade re-rates it)."""
    uids = [u for u in answer_uids if u]
    if not uids:
        return None
    row = store.execute(
        # +question_id: look the answer up by its uid (reviews_by_answer), not by scanning
        # the question's reviews
        f"SELECT id FROM reviews WHERE +question_id = ? AND answer_uid IN "
        f"({', '.join('?' * len(uids))}) ORDER BY reviewed_at DESC, id DESC LIMIT 1",
        [question_id, *uids]).fetchone()
    return row[0] if row else None


def rate_review(store: ProgressStore, review_id: int, *, answer_uid: str | None, rating: int,
                missed: bool) -> None:
    """Re-rate an existing review in place (it keeps its time)."""
    store.execute("UPDATE reviews SET answer_uid = ?, rating = ?, missed = ?, source = 'auto' "
                  "WHERE id = ?", [answer_uid, rating, int(missed), review_id])


def add_review(store: ProgressStore, question_id: str, *, answer_uid: str | None, rating: int,
               missed: bool, reviewed_at: float, source: str = "auto",
               uid: str | None = None, kind: str = "answer",
               review_session_id: int | None = None, was_new: bool = False,
               seconds: float | None = None) -> bool:
    """A new review; with ``uid`` given (an import), one that exists already is skipped.
    Returns whether a row was added. ``kind``: where it came from (``enums.ReviewKind``);
    only an ``answer`` review may be ``missed`` (land the question in the book)."""
    assert kind == "answer" or not missed, "only a graded answer can be a miss"
    cursor = store.execute(
        "INSERT OR IGNORE INTO reviews (uid, question_id, answer_uid, rating, missed, source, "
        "reviewed_at, kind, review_session_id, was_new, seconds) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [uid or uuid.uuid4().hex, question_id, answer_uid, rating, int(missed), source,
         reviewed_at, kind, review_session_id, int(was_new), seconds])
    return cursor.rowcount == 1


def rerate_review_uid(store: ProgressStore, uid: str, rating: int) -> None:
    """A self-rating changed (recite: knew it after all): the same review, a new rating."""
    store.execute("UPDATE reviews SET rating = ? WHERE uid = ?", [rating, uid])


def has_reviews(store: ProgressStore, question_id: str) -> bool:
    return store.execute("SELECT 1 FROM reviews WHERE question_id = ? LIMIT 1",
                         [question_id]).fetchone() is not None


def override_last_review(store: ProgressStore, question_id: str, rating: int) -> bool:
    """The learner's rating replaces the last one (Again also puts it in the book)."""
    last = store.execute("SELECT id FROM reviews WHERE question_id = ? "
                         "ORDER BY reviewed_at DESC, id DESC LIMIT 1", [question_id]).fetchone()
    if last is None:
        return False
    store.execute("UPDATE reviews SET rating = ?, source = 'override', "
                  "missed = CASE WHEN ? = 1 AND kind = 'answer' THEN 1 ELSE missed END "
                  "WHERE id = ?", [rating, rating, last[0]])
    return True


def add_mastery(store: ProgressStore, question_id: str, mastered_at: float) -> None:
    store.execute("INSERT OR IGNORE INTO mastery (question_id, mastered_at) VALUES (?, ?)",
                  [question_id, mastered_at])


def remove_mastery(store: ProgressStore, question_id: str) -> None:
    store.execute("DELETE FROM mastery WHERE question_id = ?", [question_id])


def refresh_card_mastery(store: ProgressStore, question_id: str) -> None:
    store.execute("UPDATE cards SET mastered_at = (SELECT MAX(mastered_at) FROM mastery "
                  "WHERE question_id = ?) WHERE question_id = ?", [question_id, question_id])


def review_count_and_last(store: ProgressStore, question_id: str) -> tuple[int, int | None]:
    """How many reviews the question has and the rating of the newest."""
    count, last = store.execute(
        "SELECT COUNT(*), (SELECT rating FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at DESC, id DESC LIMIT 1) FROM reviews WHERE question_id = ?",
        [question_id, question_id]).fetchone()
    return count, last


def last_rating(store: ProgressStore, question_id: str) -> int | None:
    """The rating of the question's newest review (one index seek, whatever its history)."""
    row = store.execute(
        "SELECT rating FROM reviews WHERE question_id = ? ORDER BY reviewed_at DESC, id DESC "
        "LIMIT 1", [question_id]).fetchone()
    return row[0] if row else None


def due_card_ids(store: ProgressStore, before: float) -> list[str]:
    """Questions whose card is due by ``before`` and not mastered, most overdue first."""
    return [r["question_id"] for r in store.query(
        "SELECT question_id FROM cards WHERE due <= ? AND mastered_at IS NULL ORDER BY due",
        [before])]


def due_cards(store: ProgressStore, before: float) -> list[tuple[str, float]]:
    """(question id, due) of cards due by ``before`` and not mastered, most overdue first."""
    return [(r[0], r[1]) for r in store.execute(
        "SELECT question_id, due FROM cards WHERE due <= ? AND mastered_at IS NULL "
        "ORDER BY due, question_id", [before])]


def open_card_dues(store: ProgressStore) -> list[float]:
    """Due times of every card not mastered (the forecast counts them per day)."""
    return [row[0] for row in store.execute("SELECT due FROM cards WHERE mastered_at IS NULL")]


def get_setting(store: ProgressStore, key: str) -> str | None:
    row = store.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def set_setting(store: ProgressStore, key: str, value: str) -> None:
    store.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) "
                  "DO UPDATE SET value = excluded.value", [key, value])


def delete_setting(store: ProgressStore, key: str) -> None:
    store.execute("DELETE FROM settings WHERE key = ?", [key])


def last_missed_answer(store: ProgressStore, question_id: str) -> tuple[str, str | None] | None:
    """(response JSON, grade JSON) of the answer behind the question's newest miss."""
    row = store.execute(
        "SELECT a.response, a.grade FROM reviews r JOIN answers a ON a.uid = r.answer_uid "
        "WHERE r.question_id = ? AND r.missed = 1 ORDER BY r.reviewed_at DESC, r.id DESC "
        "LIMIT 1", [question_id]).fetchone()
    return tuple(row) if row else None


def outcomes_newest_first(store: ProgressStore, question_id: str) -> list[tuple[str, int, int]]:
    """(kind, rating, missed) of the question's reviews, newest first (graduation counts
    them: ``review.graduation_streak``)."""
    return [tuple(r) for r in store.execute(
        "SELECT kind, rating, missed FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at DESC, id DESC", [question_id])]
