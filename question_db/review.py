"""Spaced repetition (fsrs) and the wrong-answer book (错题本), over the progress store.

Each question is one FSRS card. Every graded outcome becomes a review:
wrong → Again; right but slow → Hard; right → Good; right and fast → Easy; partial
credit → Hard; code → from the share of required checks passed; subjective → from the
self-marked share. The learner may override the last rating. The card is a cache: it
is always the replay of the question's reviews in time order (fuzzing off), which is
what makes overrides and imports exact. A new review that sorts last on a card the store
still marks as the replay of all the others is one more FSRS step (the same card, without
replaying a growing history on every answer); anything else replays in full.

Self-rated reviews (``ReviewKind``: Show answer without answering = Again, 背题 knew it /
didn't = Good / Again, a review session's 1–4) schedule the card like any other review, but
they are not answers: they never put a question in the wrong-answer book and never count
toward graduating it; a self-rated Again does break a graduation streak (the learner did
not recall it). An entry graduates from the book after ``graduate_after`` (a setting,
default 2) consecutive graded answers that were not misses; it can be put back by hand.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from fsrs import Card, Rating, Scheduler

from . import store_reviews as rows
from . import store_study as study_rows
from .enums import GRADED_VERDICTS, SUBJECTIVE_TYPES, QuestionType, ReviewKind
from .grading import Grade
from .model import Bank, Paper, Question
from .store import ProgressStore, _now

__all__ = ["AGAIN", "HARD", "GOOD", "EASY", "RATING_NAMES", "CardState", "WrongEntry",
           "rating_for", "is_miss", "outcome_share", "time_budget_s", "record_outcome",
           "override_rating", "set_mastered", "card_state", "due_questions", "due_today",
           "due_forecast", "set_exam_date", "exam_date", "wrong_book", "replay",
           "record_self_rating", "graduation_streak", "put_back", "book_question_ids",
           "StudySettings", "study_settings", "save_study_settings", "day_bounds"]

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
    if question.type == QuestionType.PROGRAMMING:
        share = g["parts"][0].get("checks_passed_share") if g.get("parts") else None
        return share
    if g["verdict"] not in GRADED_VERDICTS or not g["max_points"]:
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
    if question.type in SUBJECTIVE_TYPES:
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


def replay(store: ProgressStore, question_id: str) -> CardState:
    """Recompute the card from the question's reviews and cache it in ``cards``."""
    history = rows.review_history(store, question_id)
    card = Card(card_id=zlib.crc32(question_id.encode()) or 1,
                due=_dt(history[0].reviewed_at) if history else None)
    for row in history:
        card, _ = scheduler().review_card(card, Rating(row.rating),
                                          review_datetime=_dt(row.reviewed_at))
    return _cache(store, question_id, card, len(history),
                  history[-1].rating if history else None)


def _cache(store: ProgressStore, question_id: str, card: Card, reps: int,
           last_rating: int | None) -> CardState:
    mastered = rows.latest_mastery(store, question_id)
    due = card.due.timestamp()
    rows.save_card(store, question_id, card.to_json(), due, mastered, reps)
    return CardState(question_id, due, card.stability, card.difficulty, reps, last_rating,
                     mastered)


def _add_and_schedule(store: ProgressStore, question_id: str, *, rating: int,
                      reviewed_at: float, **review: Any) -> CardState:
    """Add a review and reschedule the card. A new review that sorts last (its id is the
    newest, so only an earlier time could put it before another) on a card that is still
    the replay of the reviews before it is one more FSRS step: the same card the replay
    computes, without replaying the whole history on every answer. Otherwise: replay."""
    cached = rows.current_card(store, question_id)
    added = rows.add_review(store, question_id, rating=rating, reviewed_at=reviewed_at,
                            **review)
    if not added or cached is None or reviewed_at < cached.last_reviewed_at:
        return replay(store, question_id)
    card, _ = scheduler().review_card(Card.from_json(cached.card_json), Rating(rating),
                                      review_datetime=_dt(reviewed_at))
    return _cache(store, question_id, card, cached.reviews + 1, rating)


def record_outcome(store: ProgressStore, question: Question, paper: Paper, *,
                   grade: Grade | dict, seconds: float, answer_uid: str | None = None,
                   regrade_of_uid: str | None = None,
                   now: float | None = None) -> CardState | None:
    """Turn a graded answer into a review; None when there is nothing to rate yet.

    A regrade is not a second outcome: when ``answer_uid`` (a practice answer whose
    self-marks or checks changed) or ``regrade_of_uid`` (the earlier answer a report's late
    self-marks replace) already has a review, that review is re-rated in place and keeps its
    time.
    """
    rating = rating_for(question, grade, seconds, time_budget_s(paper, question))
    if rating is None:
        return None
    missed = is_miss(question, grade)
    with store.write():
        previous = rows.review_for_answers(store, question.id, (answer_uid, regrade_of_uid))
        if previous is not None:
            rows.rate_review(store, previous, answer_uid=answer_uid, rating=rating,
                             missed=missed)
            return replay(store, question.id)
        return _add_and_schedule(store, question.id, answer_uid=answer_uid, rating=rating,
                                 missed=missed, reviewed_at=_now(now))


def _check_rating(rating: int) -> None:
    if rating not in RATING_NAMES:
        raise ValueError(f"rating must be one of {sorted(RATING_NAMES)}, not {rating!r}")


def record_self_rating(store: ProgressStore, question_id: str, *, rating: int,
                       kind: ReviewKind, review_session_id: int | None = None,
                       seconds: float | None = None, uid: str | None = None,
                       now: float | None = None) -> CardState:
    """A review the learner rated themselves (no answer behind it): scheduled, never a miss.
    ``was_new`` records whether it is the question's first review (daily new-card limit)."""
    _check_rating(rating)
    if kind == ReviewKind.ANSWER:
        raise ValueError("a graded answer is recorded with record_outcome")
    with store.write():
        was_new = not rows.has_reviews(store, question_id)
        return _add_and_schedule(store, question_id, answer_uid=None, rating=rating,
                                 missed=False, reviewed_at=_now(now), kind=kind, uid=uid,
                                 review_session_id=review_session_id, was_new=was_new,
                                 seconds=None if seconds is None else round(seconds, 3))


def override_rating(store: ProgressStore, question_id: str, rating: int) -> CardState:
    """The learner disagrees with the last rating: replace it and reschedule."""
    _check_rating(rating)
    with store.write():
        if not rows.override_last_review(store, question_id, rating):
            raise KeyError(f"{question_id} has not been reviewed yet")
        return replay(store, question_id)


def set_mastered(store: ProgressStore, question_id: str, mastered: bool = True, *,
                 now: float | None = None) -> None:
    """Mark a question mastered (leaves the book until it is missed again), or undo that."""
    with store.write():
        if mastered:
            rows.add_mastery(store, question_id, _now(now))
        else:
            rows.remove_mastery(store, question_id)
        rows.refresh_card_mastery(store, question_id)


def card_state(store: ProgressStore, question_id: str) -> CardState | None:
    row = rows.card_row(store, question_id)
    if row is None:
        return None
    card = Card.from_json(row[0])
    reps, last = rows.review_count_and_last(store, question_id)
    return CardState(question_id, row[1], card.stability, card.difficulty, reps, last, row[2])


def due_questions(store: ProgressStore, *, now: float | None = None,
                  known: set[str] | None = None) -> list[CardState]:
    """Cards due by ``now`` across papers, most overdue first (mastered ones excluded)."""
    ids = [q for q in rows.due_card_ids(store, _now(now)) if known is None or q in known]
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
    for due in rows.open_card_dues(store):
        day = max(start, datetime.fromtimestamp(due, tz=tz).date())
        if day in counts:
            counts[day] += 1
    return sorted(counts.items())


def day_bounds(now: float | None = None, tz=None) -> tuple[float, float]:
    """[start, end) of the local day (or ``tz``'s) holding ``now``: what "today" means for
    due cards and daily limits."""
    today = datetime.fromtimestamp(_now(now), tz=tz).date()
    start = datetime.combine(today, datetime.min.time(), tzinfo=tz)
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


@dataclass(frozen=True)
class StudySettings:
    """Kept in the progress file's settings table (travels with exports)."""

    new_per_day: int = 20  # new cards a review session introduces per day (Anki's default)
    reviews_per_day: int = 200  # due cards a review session shows per day (Anki's default)
    graduate_after: int = 2  # consecutive right answers that take an entry out of the book


_SETTING_KEYS = {"new_per_day": "review_new_per_day",
                 "reviews_per_day": "review_reviews_per_day",
                 "graduate_after": "wrong_book_graduate_after"}


def study_settings(store: ProgressStore) -> StudySettings:
    values = {}
    for field_name, key in _SETTING_KEYS.items():
        raw = rows.get_setting(store, key)
        try:
            values[field_name] = int(raw) if raw is not None else None
        except ValueError:  # a hand-edited or damaged value: the default
            values[field_name] = None
    return StudySettings(**{k: v for k, v in values.items() if v is not None})


def save_study_settings(store: ProgressStore, **changes: int) -> StudySettings:
    """Change some of the settings; each must be a whole number (graduate_after ≥ 1)."""
    for field_name, value in changes.items():
        if field_name not in _SETTING_KEYS:
            raise ValueError(f"unknown study setting {field_name!r}")
        least = 1 if field_name == "graduate_after" else 0
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{field_name} must be a whole number ≥ {least}, not {value!r}")
    with store.write():
        for field_name, value in changes.items():
            rows.set_setting(store, _SETTING_KEYS[field_name], str(value))
    return study_settings(store)


def set_exam_date(store: ProgressStore, day: date | None) -> None:
    with store.write():
        if day is None:
            rows.delete_setting(store, "exam_date")
        else:
            rows.set_setting(store, "exam_date", day.isoformat())


def exam_date(store: ProgressStore) -> date | None:
    value = rows.get_setting(store, "exam_date")
    return date.fromisoformat(value) if value else None


@dataclass(frozen=True)
class WrongEntry:
    """One question in the wrong-answer book, with what the learner last got wrong."""

    question: Question
    misses: int
    last_missed_at: float  # its newest miss (a put-back without a miss: when it was put back)
    response: Any
    grade: dict | None
    last_rating: int | None
    mastered_at: float | None  # set when shown with include_mastered
    correct_since: int  # graded answers not missed since it last entered the book
    streak: int = 0  # of those, consecutive ones up to now (graduates at graduate_after)
    graduated: bool = False  # shown only with include_graduated
    returned_at: float | None = None  # put back by hand at


def graduation_streak(outcomes: list[tuple[str, int, int]]) -> tuple[int, int]:
    """(streak, correct) from (kind, rating, missed) reviews newest first, since the entry
    last entered the book. The streak counts graded answers that were not misses and stops
    at a miss or at a self-rated Again; self-rated Good/Hard/Easy neither count nor stop it
    (recalling is not answering). ``correct`` counts every graded answer not missed."""
    streak, correct, counting = 0, 0, True
    for kind, rating, missed in outcomes:
        if kind == ReviewKind.ANSWER:
            if missed:
                break
            correct += 1
            streak += counting
        elif rating == AGAIN:
            counting = False
    return streak, correct


def _book(store: ProgressStore, *, include_mastered: bool,
          include_graduated: bool) -> list[tuple[study_rows.BookRow, int, int, bool, bool]]:
    """(row, streak, correct, mastered, graduated) of every entry to show, newest first."""
    need = study_settings(store).graduate_after
    outcomes = study_rows.outcomes_since(store)
    entries = []
    for row in study_rows.book_rows(store):
        entered = max(row.last_missed_at or 0.0, row.returned_at or 0.0)
        mastered = row.mastered_at is not None and row.mastered_at >= entered
        streak, correct = graduation_streak(outcomes.get(row.question_id, []))
        graduated = streak >= need
        if (mastered and not include_mastered) or (graduated and not include_graduated):
            continue
        entries.append((row, streak, correct, mastered, graduated))
    entries.sort(key=lambda e: (-max(e[0].last_missed_at or 0.0, e[0].returned_at or 0.0),
                                e[0].question_id))
    return entries


def book_question_ids(store: ProgressStore) -> list[str]:
    """The ids in the wrong-answer book now (not mastered, not graduated), newest first."""
    return [e[0].question_id for e in _book(store, include_mastered=False,
                                            include_graduated=False)]


def put_back(store: ProgressStore, question_id: str, *, now: float | None = None) -> None:
    """Back into the book by hand (a graduated or mastered entry, or any question): its
    mastery marks go, and graduation counts again from now."""
    with store.write():
        study_rows.put_back(store, question_id, _now(now))
        rows.remove_mastery(store, question_id)
        rows.refresh_card_mastery(store, question_id)


def wrong_book(store: ProgressStore, bank: Bank, *, paper_id: str | None = None,
               topic: str | None = None, qtype: str | None = None,
               include_mastered: bool = False,
               include_graduated: bool = False) -> list[WrongEntry]:
    """Questions missed (or put back) since they were last marked mastered and not yet
    graduated, newest first."""
    entries = []
    by_id = {q.id: q for q in bank.all_questions()}
    for row, streak, correct, mastered, graduated in _book(
            store, include_mastered=include_mastered, include_graduated=include_graduated):
        q = by_id.get(row.question_id)
        if q is None:
            continue  # a pack that is no longer installed
        if ((paper_id and q.paper_id != paper_id) or (topic and topic not in q.topics)
                or (qtype and q.type != qtype)):
            continue
        last = rows.last_missed_answer(store, q.id) if row.misses else None
        last_rating = rows.last_rating(store, q.id)  # not COUNT(*): history grows
        entries.append(WrongEntry(
            question=q, misses=row.misses,
            last_missed_at=row.last_missed_at or row.returned_at or 0.0,
            response=json.loads(last[0]) if last else None,
            grade=json.loads(last[1]) if last and last[1] else None,
            last_rating=last_rating, mastered_at=row.mastered_at if mastered else None,
            correct_since=correct, streak=streak, graduated=graduated,
            returned_at=row.returned_at))
    return entries
