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

__all__ = ["ReviewRow", "review_history", "latest_mastery", "save_card", "card_row",
           "review_for_answers", "rate_review", "add_review", "override_last_review",
           "add_mastery", "remove_mastery", "refresh_card_mastery", "review_count_and_last",
           "due_card_ids", "open_card_dues", "get_setting", "set_setting", "delete_setting",
           "missed_questions", "last_missed_answer", "since_last_miss", "streak_since_miss"]


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
              mastered_at: float | None) -> None:
    store.execute(
        "INSERT INTO cards (question_id, card, due, mastered_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (question_id) DO UPDATE SET card = excluded.card, due = excluded.due, "
        "mastered_at = excluded.mastered_at", [question_id, card_json, due, mastered_at])


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
        f"SELECT id FROM reviews WHERE question_id = ? AND answer_uid IN "
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
               uid: str | None = None) -> bool:
    """A new review; with ``uid`` given (an import), one that exists already is skipped.
    Returns whether a row was added."""
    cursor = store.execute(
        "INSERT OR IGNORE INTO reviews (uid, question_id, answer_uid, rating, missed, source, "
        "reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [uid or uuid.uuid4().hex, question_id, answer_uid, rating, int(missed), source,
         reviewed_at])
    return cursor.rowcount == 1


def override_last_review(store: ProgressStore, question_id: str, rating: int) -> bool:
    """The learner's rating replaces the last one (Again also puts it in the book)."""
    last = store.execute("SELECT id FROM reviews WHERE question_id = ? "
                         "ORDER BY reviewed_at DESC, id DESC LIMIT 1", [question_id]).fetchone()
    if last is None:
        return False
    store.execute("UPDATE reviews SET rating = ?, source = 'override', "
                  "missed = CASE WHEN ? = 1 THEN 1 ELSE missed END WHERE id = ?",
                  [rating, rating, last[0]])
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


def due_card_ids(store: ProgressStore, before: float) -> list[str]:
    """Questions whose card is due by ``before`` and not mastered, most overdue first."""
    return [r["question_id"] for r in store.query(
        "SELECT question_id FROM cards WHERE due <= ? AND mastered_at IS NULL ORDER BY due",
        [before])]


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


@dataclass(frozen=True)
class MissedQuestion:
    question_id: str
    misses: int
    last_missed_at: float
    mastered_at: float | None  # newest mastery mark, whenever it was


def missed_questions(store: ProgressStore) -> list[MissedQuestion]:
    """Every question ever missed, newest miss first (the book filters mastery itself)."""
    return [MissedQuestion(r["question_id"], r["misses"], r["last_missed"], r["mastered_at"])
            for r in store.query("""
        SELECT t.question_id, t.misses, t.last_missed_at AS last_missed,
               (SELECT MAX(mastered_at) FROM mastery m WHERE m.question_id = t.question_id)
                   AS mastered_at
        FROM question_reviews t WHERE t.misses > 0 ORDER BY last_missed DESC""")]


def last_missed_answer(store: ProgressStore, question_id: str) -> tuple[str, str | None] | None:
    """(response JSON, grade JSON) of the answer behind the question's newest miss."""
    row = store.execute(
        "SELECT a.response, a.grade FROM reviews r JOIN answers a ON a.uid = r.answer_uid "
        "WHERE r.question_id = ? AND r.missed = 1 ORDER BY r.reviewed_at DESC, r.id DESC "
        "LIMIT 1", [question_id]).fetchone()
    return tuple(row) if row else None


def since_last_miss(store: ProgressStore, question_id: str,
                    last_missed_at: float) -> tuple[int, int | None]:
    """(outcomes not missed after ``last_missed_at``, rating of the newest review)."""
    count, last = store.execute(
        "SELECT COUNT(*), (SELECT rating FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at DESC, id DESC LIMIT 1) FROM reviews "
        "WHERE question_id = ? AND missed = 0 AND reviewed_at > ?",
        [question_id, question_id, last_missed_at]).fetchone()
    return count, last


def streak_since_miss(store: ProgressStore, question_id: str) -> int:
    """Consecutive outcomes not missed, counted back from the newest review."""
    streak = 0
    for (missed,) in store.execute("SELECT missed FROM reviews WHERE question_id = ? "
                                   "ORDER BY reviewed_at DESC, id DESC", [question_id]):
        if missed:
            break
        streak += 1
    return streak
