"""Spaced repetition (fsrs) and the wrong-answer book (错题本), over the progress store.

Each question is one FSRS card. Every graded outcome becomes a review:
wrong → Again; right but slow → Hard; right → Good; right and fast → Easy; partial
credit → Hard; code → from the share of required checks passed; subjective → from the
self-marked share. The learner may override the last rating. The card is a cache: it
is always the replay of the question's reviews in time order (fuzzing off), which is
what makes overrides and imports exact.
"""
from __future__ import annotations

import json
import uuid
import zlib
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from fsrs import Card, Rating, Scheduler

from .grading import CORRECT, PARTIAL, WRONG, Grade
from .model import Bank, Paper, Question
from .store import ProgressStore, _now

AGAIN, HARD, GOOD, EASY = (int(r) for r in (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy))
RATING_NAMES = {AGAIN: "again", HARD: "hard", GOOD: "good", EASY: "easy"}
SLOW_FACTOR = 1.5   # over 1.5× the question's time budget is slow
FAST_FACTOR = 0.5   # under half of it is fast
PASS_SHARE = 0.6    # self-marks / checks below this share count as a miss (Again)


@lru_cache(maxsize=1)
def scheduler() -> Scheduler:
    """FSRS with default parameters; no fuzzing, so replays are exact."""
    return Scheduler(enable_fuzzing=False)


def time_budget_s(paper: Paper, question: Question) -> float:
    """The question's share of the exam time, by points (what 'slow' is measured against)."""
    total = paper.total_points or 1
    return paper.duration_minutes * 60 * question.points / total


def outcome_share(question: Question, grade: Grade | dict) -> float | None:
    """How much of the question the learner got: 0..1, or None if not gradable yet."""
    g = grade.to_json() if isinstance(grade, Grade) else grade
    if question.type == "programming":
        share = g["parts"][0].get("checks_passed_share") if g.get("parts") else None
        return share
    if g["verdict"] not in (CORRECT, PARTIAL, WRONG) or not g["max_points"]:
        return None
    return g["points"] / g["max_points"]


def rating_for(question: Question, grade: Grade | dict, seconds: float,
               budget_s: float) -> int | None:
    """The FSRS rating an outcome earns; None for void / pending / unanswered."""
    share = outcome_share(question, grade)
    if share is None:
        return None
    if share < PASS_SHARE:
        return AGAIN
    if share < 1.0:
        return HARD
    if budget_s > 0 and seconds > SLOW_FACTOR * budget_s:
        return HARD
    if budget_s > 0 and seconds < FAST_FACTOR * budget_s:
        return EASY
    return GOOD


def is_miss(question: Question, grade: Grade | dict) -> bool:
    """Wrong, partially right, a failed check, or a low self-mark: goes in the book."""
    share = outcome_share(question, grade)
    if share is None:
        return False
    if question.type in ("short_answer", "system_design"):
        return share < PASS_SHARE
    return share < 1.0


@dataclass(frozen=True)
class CardState:
    question_id: str
    due: float
    stability: float | None
    difficulty: float | None
    reps: int
    last_rating: int | None
    mastered_at: float | None


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


def _replay(store: ProgressStore, question_id: str) -> CardState:
    """Recompute the card from the question's reviews and cache it in ``cards``."""
    rows = list(store.query(
        "SELECT rating, reviewed_at FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at, id", [question_id]))
    card = Card(card_id=zlib.crc32(question_id.encode()) or 1, due=_dt(rows[0]["reviewed_at"])
                if rows else None)
    for row in rows:
        card, _ = scheduler().review_card(card, Rating(row["rating"]),
                                          review_datetime=_dt(row["reviewed_at"]))
    mastered = store.execute("SELECT MAX(mastered_at) FROM mastery WHERE question_id = ?",
                                [question_id]).fetchone()[0]
    due = card.due.timestamp()
    store.execute(
        "INSERT INTO cards (question_id, card, due, mastered_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (question_id) DO UPDATE SET card = excluded.card, due = excluded.due, "
        "mastered_at = excluded.mastered_at", [question_id, card.to_json(), due, mastered])
    return CardState(question_id, due, card.stability, card.difficulty, len(rows),
                     rows[-1]["rating"] if rows else None, mastered)


def _answer_uid(store: ProgressStore, answer_id: int | None) -> str | None:
    if answer_id is None:
        return None
    row = store.execute("SELECT uid FROM answers WHERE id = ?", [answer_id]).fetchone()
    return row[0] if row else None


def record_outcome(store: ProgressStore, question: Question, paper: Paper, *,
                   grade: Grade | dict, seconds: float, answer_id: int | None = None,
                   regrade_of: int | None = None,
                   now: float | None = None) -> CardState | None:
    """Turn a graded answer into a review; None when there is nothing to rate yet.

    A regrade is not a second outcome: when ``answer_id`` (a practice answer whose self-marks
    or checks changed) or ``regrade_of`` (the earlier answer row a report's late self-marks
    replace) already has a review, that review is re-rated in place and keeps its time.
    """
    rating = rating_for(question, grade, seconds, time_budget_s(paper, question))
    if rating is None:
        return None
    missed = int(is_miss(question, grade))
    with store.write():
        answer_uid = _answer_uid(store, answer_id)
        known = [u for u in (answer_uid, _answer_uid(store, regrade_of)) if u]
        previous = store.execute(
            f"SELECT id FROM reviews WHERE question_id = ? AND answer_uid IN "
            f"({', '.join('?' * len(known))}) ORDER BY reviewed_at DESC, id DESC LIMIT 1",
            [question.id, *known]).fetchone() if known else None
        if previous:
            store.execute("UPDATE reviews SET answer_uid = ?, rating = ?, missed = ?, "
                             "source = 'auto' WHERE id = ?",
                             [answer_uid, rating, missed, previous[0]])
        else:
            store.execute(
                "INSERT INTO reviews (uid, question_id, answer_uid, rating, missed, source, "
                "reviewed_at) VALUES (?, ?, ?, ?, ?, 'auto', ?)",
                [uuid.uuid4().hex, question.id, answer_uid, rating, missed, _now(now)])
        return _replay(store, question.id)


def override_rating(store: ProgressStore, question_id: str, rating: int) -> CardState:
    """The learner disagrees with the last rating: replace it and reschedule."""
    if rating not in RATING_NAMES:
        raise ValueError(f"rating must be one of {sorted(RATING_NAMES)}, not {rating!r}")
    with store.write():
        last = store.execute("SELECT id FROM reviews WHERE question_id = ? "
                                "ORDER BY reviewed_at DESC, id DESC LIMIT 1",
                                [question_id]).fetchone()
        if last is None:
            raise KeyError(f"{question_id} has not been reviewed yet")
        store.execute("UPDATE reviews SET rating = ?, source = 'override', "
                         "missed = CASE WHEN ? = 1 THEN 1 ELSE missed END WHERE id = ?",
                         [rating, rating, last[0]])
        return _replay(store, question_id)


def set_mastered(store: ProgressStore, question_id: str, mastered: bool = True, *,
                 now: float | None = None) -> None:
    """Mark a question mastered (leaves the book until it is missed again), or undo that."""
    with store.write():
        if mastered:
            store.execute("INSERT OR IGNORE INTO mastery (question_id, mastered_at) "
                             "VALUES (?, ?)", [question_id, _now(now)])
        else:
            store.execute("DELETE FROM mastery WHERE question_id = ?", [question_id])
        store.execute("UPDATE cards SET mastered_at = (SELECT MAX(mastered_at) FROM mastery "
                         "WHERE question_id = ?) WHERE question_id = ?",
                         [question_id, question_id])


def card_state(store: ProgressStore, question_id: str) -> CardState | None:
    row = store.execute("SELECT card, due, mastered_at FROM cards WHERE question_id = ?",
                           [question_id]).fetchone()
    if row is None:
        return None
    card = Card.from_json(row[0])
    reps, last = store.execute(
        "SELECT COUNT(*), (SELECT rating FROM reviews WHERE question_id = ? "
        "ORDER BY reviewed_at DESC, id DESC LIMIT 1) FROM reviews WHERE question_id = ?",
        [question_id, question_id]).fetchone()
    return CardState(question_id, row[1], card.stability, card.difficulty, reps, last, row[2])


def due_questions(store: ProgressStore, *, now: float | None = None,
                  known: set[str] | None = None) -> list[CardState]:
    """Cards due by ``now`` across papers, most overdue first (mastered ones excluded)."""
    rows = store.query("SELECT question_id FROM cards WHERE due <= ? AND mastered_at IS NULL "
                          "ORDER BY due", [_now(now)])
    ids = [r["question_id"] for r in rows if known is None or r["question_id"] in known]
    return [s for s in (card_state(store, q) for q in ids) if s]


def due_today(store: ProgressStore, *, now: float | None = None, tz=None,
              known: set[str] | None = None) -> list[CardState]:
    """Cards due by the end of today (local, or ``tz``): what "Due today" practises."""
    today = datetime.fromtimestamp(_now(now), tz=tz).date()
    midnight = datetime.combine(today + timedelta(days=1), datetime.min.time(), tzinfo=tz)
    return due_questions(store, now=midnight.timestamp(), known=known)


def due_forecast(store: ProgressStore, *, days: int = 14, now: float | None = None,
                 tz=None) -> list[tuple[date, int]]:
    """Reviews due on each of the next ``days`` days (overdue ones count today)."""
    start = datetime.fromtimestamp(_now(now), tz=tz).date()
    counts = {start + timedelta(days=i): 0 for i in range(days)}
    for (due,) in store.execute("SELECT due FROM cards WHERE mastered_at IS NULL"):
        day = max(start, datetime.fromtimestamp(due, tz=tz).date())
        if day in counts:
            counts[day] += 1
    return sorted(counts.items())


def set_exam_date(store: ProgressStore, day: date | None) -> None:
    with store.write():
        if day is None:
            store.execute("DELETE FROM settings WHERE key = 'exam_date'")
        else:
            store.execute("INSERT INTO settings (key, value) VALUES ('exam_date', ?) ON "
                             "CONFLICT (key) DO UPDATE SET value = excluded.value",
                             [day.isoformat()])


def exam_date(store: ProgressStore) -> date | None:
    row = store.execute("SELECT value FROM settings WHERE key = 'exam_date'").fetchone()
    return date.fromisoformat(row[0]) if row else None


@dataclass(frozen=True)
class WrongEntry:
    """One question in the wrong-answer book, with what the learner last got wrong."""

    question: Question
    misses: int
    last_missed_at: float
    response: Any
    grade: dict | None
    last_rating: int | None
    mastered_at: float | None  # set when shown with include_mastered
    correct_since: int  # correct outcomes after the last miss (a hint to mark mastered)


def wrong_book(store: ProgressStore, bank: Bank, *, paper_id: str | None = None,
               topic: str | None = None, qtype: str | None = None,
               include_mastered: bool = False) -> list[WrongEntry]:
    """Questions missed since they were last marked mastered, newest miss first."""
    rows = list(store.query("""
        SELECT t.question_id, t.misses, t.last_missed_at AS last_missed,
               (SELECT MAX(mastered_at) FROM mastery m WHERE m.question_id = t.question_id)
                   AS mastered_at
        FROM question_reviews t WHERE t.misses > 0 ORDER BY last_missed DESC"""))
    entries = []
    for row in rows:
        mastered = row["mastered_at"] is not None and row["mastered_at"] >= row["last_missed"]
        if mastered and not include_mastered:
            continue
        try:
            q = bank.question(row["question_id"])
        except KeyError:
            continue  # a pack that is no longer installed
        if ((paper_id and q.paper_id != paper_id) or (topic and topic not in q.topics)
                or (qtype and q.type != qtype)):
            continue
        last = store.execute(
            "SELECT a.response, a.grade FROM reviews r JOIN answers a ON a.uid = r.answer_uid "
            "WHERE r.question_id = ? AND r.missed = 1 ORDER BY r.reviewed_at DESC, r.id DESC "
            "LIMIT 1", [q.id]).fetchone()
        after = store.execute(
            "SELECT COUNT(*), (SELECT rating FROM reviews WHERE question_id = ? "
            "ORDER BY reviewed_at DESC, id DESC LIMIT 1) FROM reviews "
            "WHERE question_id = ? AND missed = 0 AND reviewed_at > ?",
            [q.id, q.id, row["last_missed"]]).fetchone()
        entries.append(WrongEntry(
            question=q, misses=row["misses"], last_missed_at=row["last_missed"],
            response=json.loads(last[0]) if last else None,
            grade=json.loads(last[1]) if last and last[1] else None,
            last_rating=after[1], mastered_at=row["mastered_at"] if mastered else None,
            correct_since=after[0]))
    return entries
