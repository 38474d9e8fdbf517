"""The SQL of progress export and import: whole tables out, rows merged in by ``uid``.

Part of the store (``store*.py`` are the only modules that write SQL); the file formats
and their validation are ``progress_io.py``.
"""
from __future__ import annotations

import json
from typing import Any, Iterator

from . import store_attempts as attempt_rows
from .store import ProgressStore

__all__ = ["SESSION_COLS", "SESSION_JSON_COLS", "ANSWER_COLS", "export_tables", "answers_with_sessions",
           "session_id_by_uid", "insert_session", "insert_answer", "merge_draft",
           "insert_setting_if_absent", "set_session_position", "attach_session_to_run"]

SESSION_COLS = ("uid", "paper_id", "mode", "state", "started_at", "deadline", "finished_at",
                "score", "max_score")
ANSWER_COLS = ("uid", "question_id", "response", "grade", "seconds", "created_at")
# Exported as JSON only (CSV keeps its columns): whether an exam was open book.
SESSION_JSON_COLS = SESSION_COLS + ("open_book", "include_drafts")


def export_tables(store: ProgressStore) -> dict[str, list[dict]]:
    """Every table an export carries, rows as dicts, in one read snapshot. Sessions keep
    their ``id`` so the caller can turn the other rows' ``session_id`` into uids."""
    def rows(sql: str) -> list[dict]:
        return list(store.query(sql))

    with store.atomic():
        return {
            "sessions": rows(f"SELECT id, {', '.join(SESSION_JSON_COLS)} FROM sessions "
                             "ORDER BY id"),
            "answers": rows(f"SELECT session_id, {', '.join(ANSWER_COLS)} FROM answers "
                            "ORDER BY id"),
            "drafts": rows("SELECT session_id, question_id, response, seconds, updated_at "
                           "FROM drafts"),
            "flags": rows("SELECT session_id, question_id FROM flags"),
            "positions": rows("SELECT id, position, position_at FROM sessions "
                              "WHERE position IS NOT NULL"),
            "reviews": rows("SELECT r.uid, r.question_id, r.answer_uid, r.rating, r.missed, "
                            "r.source, r.reviewed_at, r.kind, s.uid AS review_session_uid, "
                            "r.was_new, r.seconds FROM reviews r LEFT JOIN review_sessions s "
                            "ON s.id = r.review_session_id ORDER BY r.id"),
            "mastery": rows("SELECT question_id, mastered_at FROM mastery"),
            "settings": rows("SELECT key, value FROM settings"),
            "notes": rows("SELECT uid, question_id, text, created_at, updated_at FROM notes "
                          "ORDER BY question_id"),
            "favourites": rows("SELECT question_id, starred, updated_at FROM favourites "
                               "ORDER BY question_id"),
            "templates": rows("SELECT uid, kind, name, spec, created_at, updated_at "
                              "FROM templates ORDER BY id"),
            "runs": rows("SELECT id, uid, title, spec, created_at FROM practice_runs "
                         "ORDER BY id"),
            "run_questions": rows("SELECT run_id, question_id FROM run_questions "
                                  "ORDER BY run_id, position"),
            "run_sessions": rows("SELECT run_id, id FROM sessions WHERE run_id IS NOT NULL "
                                 "ORDER BY id"),
            "composed": rows("SELECT session_id, template_uid, title, spec "
                             "FROM composed_exams ORDER BY session_id"),
            "composed_questions": rows("SELECT session_id, position, question_id, type, "
                                       "points, section FROM composed_questions "
                                       "ORDER BY session_id, position"),
            "seen": rows("SELECT session_id, question_id, how, review_uid, seen_at "
                         "FROM session_seen"),
            "review_sessions": rows("SELECT uid, started_at, finished_at FROM "
                                    "review_sessions ORDER BY id"),
            "book_returns": rows("SELECT question_id, returned_at FROM book_returns"),
            "check_attempts": attempt_rows.all_attempts(store),
        }


def answers_with_sessions(store: ProgressStore) -> Iterator[dict]:
    """One row per answer with its session's columns (``session_<col>``, ``answer_<col>``)."""
    return store.query(
        f"SELECT {', '.join('s.' + c + ' AS session_' + c for c in SESSION_COLS)}, "
        f"{', '.join('a.' + c + ' AS answer_' + c for c in ANSWER_COLS)}, "
        "a.verdict, a.points, a.max_points FROM answers a JOIN sessions s "
        "ON s.id = a.session_id ORDER BY a.id")


def session_id_by_uid(store: ProgressStore, uid: str) -> int | None:
    row = store.execute("SELECT id FROM sessions WHERE uid = ?", [uid]).fetchone()
    return row[0] if row else None


def insert_session(store: ProgressStore, values: dict[str, Any]) -> int:
    cols = [c for c in SESSION_COLS if c in values]
    cols += [c for c in ("open_book", "include_drafts") if values.get(c) is not None]
    cursor = store.execute(
        f"INSERT INTO sessions ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
        [values[c] for c in cols])
    return cursor.lastrowid


def insert_answer(store: ProgressStore, session_id: int, answer: dict[str, Any]) -> bool:
    """Add an exported answer unless its uid is known; returns whether it was added."""
    grade = answer.get("grade")
    cursor = store.execute(
        "INSERT OR IGNORE INTO answers (uid, session_id, question_id, response, grade, "
        "verdict, points, max_points, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [answer["uid"], session_id, answer["question_id"],
         json.dumps(answer.get("response"), ensure_ascii=False),
         json.dumps(grade, ensure_ascii=False) if grade else None,
         grade.get("verdict") if grade else None, grade.get("points") if grade else None,
         grade.get("max_points") if grade else None, float(answer.get("seconds") or 0),
         float(answer["created_at"])])
    return cursor.rowcount == 1


def merge_draft(store: ProgressStore, session_id: int, question_id: str, response: Any,
                seconds: float, updated_at: float) -> None:
    """An exported draft, kept only where it is newer than the one here."""
    store.execute(
        "INSERT INTO drafts (session_id, question_id, response, seconds, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, question_id) DO UPDATE SET "
        "response = excluded.response, seconds = excluded.seconds, "
        "updated_at = excluded.updated_at WHERE excluded.updated_at > updated_at",
        [session_id, question_id, json.dumps(response, ensure_ascii=False), seconds,
         updated_at])


def insert_setting_if_absent(store: ProgressStore, key: str, value: str) -> None:
    store.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", [key, value])


def set_session_position(store: ProgressStore, session_id: int, position: str | None,
                         position_at: float | None) -> None:
    """An imported session's position, where it is newer than the one here."""
    store.execute("UPDATE sessions SET position = ?, position_at = ? WHERE id = ? AND "
                  "(position_at IS NULL OR position_at < ?)",
                  [position, position_at, session_id, position_at or 0])


def attach_session_to_run(store: ProgressStore, session_id: int, run_id: int) -> None:
    store.execute("UPDATE sessions SET run_id = ? WHERE id = ? AND run_id IS NULL",
                  [run_id, session_id])

