"""Dashboard statistics. Reads the small ``question_totals`` table (kept by triggers) and
the sessions table, never the whole answer history, so each query stays fast at a
million answers (bench/ measures it)."""
from __future__ import annotations

from dataclasses import dataclass

from . import store_stats as rows
from .model import Bank
from .store import ProgressStore

__all__ = ["Accuracy", "TrendPoint", "QuestionTime", "accuracy_by_topic", "accuracy_by_type",
           "score_trend", "time_per_question"]


@dataclass(frozen=True)
class Accuracy:
    """Over graded answers: share fully right, and points earned / points possible."""

    key: str
    answers: int
    correct: int
    points: float
    max_points: float

    @property
    def correct_rate(self) -> float:
        return self.correct / self.answers if self.answers else 0.0

    @property
    def score_rate(self) -> float:
        return self.points / self.max_points if self.max_points else 0.0


def _accuracy_by(store: ProgressStore, bank: Bank, keys_of) -> list[Accuracy]:
    acc: dict[str, list[float]] = {}
    for row in rows.question_totals(store):
        try:
            q = bank.question(row["question_id"])
        except KeyError:
            continue
        for key in keys_of(q):
            a = acc.setdefault(key, [0, 0, 0.0, 0.0])
            a[0] += row["graded"]
            a[1] += row["correct"]
            a[2] += row["points"]
            a[3] += row["max_points"]
    return sorted((Accuracy(k, int(v[0]), int(v[1]), v[2], v[3]) for k, v in acc.items()
                   if v[0]), key=lambda a: a.key)


def accuracy_by_topic(store: ProgressStore, bank: Bank) -> list[Accuracy]:
    return _accuracy_by(store, bank, lambda q: q.topics or ("(untagged)",))


def accuracy_by_type(store: ProgressStore, bank: Bank) -> list[Accuracy]:
    return _accuracy_by(store, bank, lambda q: (q.type,))


@dataclass(frozen=True)
class TrendPoint:
    session_id: int
    finished_at: float
    score: float
    max_score: float
    mode: str


def score_trend(store: ProgressStore, paper_id: str) -> list[TrendPoint]:
    """Finished, scored sessions of a paper, oldest first."""
    return [TrendPoint(r["id"], r["finished_at"], r["score"], r["max_score"], r["mode"])
            for r in rows.scored_sessions(store, paper_id)]


@dataclass(frozen=True)
class QuestionTime:
    question_id: str
    visits: int
    seconds: float

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.visits if self.visits else 0.0


def time_per_question(store: ProgressStore, paper_id: str | None = None) -> list[QuestionTime]:
    """Mean time spent per visit (session) of each question."""
    return [QuestionTime(r["question_id"], r["visits"], r["seconds"])
            for r in rows.question_times(store, paper_id)]
