"""The SQL of the dashboard: the trigger-kept per-question totals and finished sessions.

Part of the store (``store*.py`` are the only modules that write SQL); ``stats.py`` turns
these rows into the dashboard's figures.
"""
from __future__ import annotations

from .enums import SUBMITTED_STATES, sql_list
from .store import ProgressStore

__all__ = ["question_totals", "scored_sessions", "question_times"]


def question_totals(store: ProgressStore) -> list[dict]:
    """One row per question ever answered (``question_totals``, kept by triggers)."""
    return list(store.query(
        "SELECT question_id, attempts, graded, correct, points, max_points, visits, seconds "
        "FROM question_totals"))


def scored_sessions(store: ProgressStore, paper_id: str) -> list[dict]:
    """Submitted sessions of a paper with a score, oldest first."""
    return list(store.query(
        "SELECT id, finished_at, score, max_score, mode FROM sessions "
        f"WHERE paper_id = ? AND state IN {sql_list(SUBMITTED_STATES)} "
        "AND score IS NOT NULL ORDER BY started_at", [paper_id]))


def question_times(store: ProgressStore, paper_id: str | None = None) -> list[dict]:
    """(question_id, visits, seconds) per question, of one paper or all."""
    where, params = ("WHERE question_id LIKE ?", [f"{paper_id}/%"]) if paper_id else ("", [])
    return list(store.query(
        f"SELECT question_id, visits, seconds FROM question_totals {where}", params))
