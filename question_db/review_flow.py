"""The review session, as in Anki: the next card's front (the question), "Show answer"
(the key, reference answer, rubric: all on the ``Question``, so revealing needs no store
call), then again / hard / good / easy (1–4), which FSRS schedules. No Qt.

The queue is computed afresh for every card, from the cards table and today's reviews:

1. cards in learning (reviewed today, due again today) once they are due, most overdue
   first: a card rated Again comes back in the same session after FSRS's 1-minute step;
2. cards due today not yet reviewed today, most overdue first, while today's review count
   is under ``reviews_per_day``;
3. new cards — scored questions never reviewed in any way — in bank order (papers as
   loaded, questions by number), while today's new count is under ``new_per_day``;
4. cards in learning due within ``LEARN_AHEAD_S`` (Anki's learn-ahead limit), early.

"Today" is the local day (``review.day_bounds``). The daily counts are of distinct
questions rated in review sessions today (a card repeated in learning counts once); answers
in practice or exams do not use up the limits. Ratings here are self-ratings
(``ReviewKind.REVIEW``): they schedule the card but never enter the wrong-answer book or
the dashboard's answer statistics.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone

from fsrs import Card, Rating

from . import review
from . import store_reviews as review_rows
from . import store_study as rows
from .enums import ReviewKind
from .model import Bank, Question
from .store import ProgressStore, _now

__all__ = ["LEARN_AHEAD_S", "QueueCounts", "ReviewCard", "ReviewSummary", "next_card",
           "rate", "summary", "start", "finish"]

LEARN_AHEAD_S = 20 * 60  # Anki's default learn-ahead limit


@dataclass(frozen=True)
class QueueCounts:
    """What is left today, as Anki shows under the card: new, learning, review."""

    new: int
    learning: int
    review: int


@dataclass(frozen=True)
class ReviewCard:
    """The card to show: its question (front; the back is the question's key, reference
    answer, rubric, explanation and errata), its schedule, and the due time each rating
    would give (Anki shows them on the buttons)."""

    question: Question
    is_new: bool
    state: review.CardState | None  # None: new
    next_due: dict[int, float]  # rating (1-4) -> due timestamp if rated so now
    remaining: QueueCounts


@dataclass(frozen=True)
class ReviewSummary:
    session_id: int
    started_at: float
    finished_at: float | None
    cards: int  # distinct questions rated
    new_cards: int
    ratings: dict[int, int] = field(default_factory=dict)  # rating -> times chosen
    seconds: float = 0.0  # time spent from showing a card to rating it, summed

    @property
    def reviews(self) -> int:
        return sum(self.ratings.values())


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


def _intervals(store: ProgressStore, question_id: str, now: float) -> dict[int, float]:
    row = review_rows.card_row(store, question_id)
    card = Card.from_json(row[0]) if row else Card(
        card_id=zlib.crc32(question_id.encode()) or 1, due=_dt(now))
    out = {}
    for rating in review.RATING_NAMES:
        after, _ = review.scheduler().review_card(card, Rating(rating), review_datetime=_dt(now))
        out[rating] = after.due.timestamp()
    return out


def _reviewable(bank: Bank) -> dict[str, Question]:
    """Scored questions (void ones have nothing to recall), in bank order."""
    return {q.id: q for q in bank.all_questions() if q.scored}


def next_card(store: ProgressStore, bank: Bank, *, now: float | None = None,
              settings: review.StudySettings | None = None) -> ReviewCard | None:
    """The card to show now, or None when today's session is done."""
    now = _now(now)
    settings = settings or review.study_settings(store)
    start_of_day, end_of_day = review.day_bounds(now)
    with store.atomic():
        questions = _reviewable(bank)
        due = [(qid, t) for qid, t in review_rows.due_cards(store, end_of_day)
               if qid in questions]
        reviewed_today = rows.touched_since(store, [qid for qid, _ in due], start_of_day)
        rated = rows.rated_today(store, start_of_day, end_of_day)
        new_done = sum(rated.values())
        review_done = len(rated) - new_done
        learning = [(qid, t) for qid, t in due if qid in reviewed_today]
        waiting = [(qid, t) for qid, t in due if qid not in reviewed_today]
        review_left = max(0, settings.reviews_per_day - review_done)
        new_left = max(0, settings.new_per_day - new_done)
        has_card = rows.card_question_ids(store) if new_left else set()
        new = [qid for qid in questions if qid not in has_card] if new_left else []
        counts = QueueCounts(new=min(new_left, len(new)), learning=len(learning),
                             review=min(review_left, len(waiting)))
        ready = [qid for qid, t in learning if t <= now]
        if ready:
            pick, is_new = ready[0], False
        elif waiting and review_left:
            pick, is_new = waiting[0][0], False
        elif new:
            pick, is_new = new[0], True
        else:
            ahead = [qid for qid, t in learning if t <= now + LEARN_AHEAD_S]
            if not ahead:
                return None
            pick, is_new = ahead[0], False
        return ReviewCard(questions[pick], is_new,
                          None if is_new else review.card_state(store, pick),
                          _intervals(store, pick, now), counts)


def start(store: ProgressStore, *, now: float | None = None) -> int:
    with store.write():
        return rows.start_review_session(store, _now(now))


def rate(store: ProgressStore, *, review_session_id: int, question_id: str, rating: int,
         seconds: float, now: float | None = None) -> review.CardState:
    """The learner's rating of the shown card: a review of the review session."""
    rows.review_session_row(store, review_session_id)  # a KeyError for an unknown session
    return review.record_self_rating(store, question_id, rating=rating,
                                     kind=ReviewKind.REVIEW,
                                     review_session_id=review_session_id, seconds=seconds,
                                     now=now)


def summary(store: ProgressStore, review_session_id: int) -> ReviewSummary:
    with store.atomic():
        session = rows.review_session_row(store, review_session_id)
        ratings = rows.review_session_ratings(store, review_session_id)
    counts: dict[int, int] = {r: 0 for r in review.RATING_NAMES}
    for r in ratings:
        counts[r["rating"]] += 1
    return ReviewSummary(
        session_id=review_session_id, started_at=session["started_at"],
        finished_at=session["finished_at"], cards=len({r["question_id"] for r in ratings}),
        new_cards=len({r["question_id"] for r in ratings if r["was_new"]}), ratings=counts,
        seconds=round(sum(r["seconds"] or 0.0 for r in ratings), 3))


def finish(store: ProgressStore, review_session_id: int, *,
           now: float | None = None) -> ReviewSummary:
    with store.write():
        rows.review_session_row(store, review_session_id)
        rows.finish_review_session(store, review_session_id, _now(now))
    return summary(store, review_session_id)
