"""The SQL of check attempts (``attempts.CheckAttempt``): append one, list a question's.

Part of the store (``store*.py`` are the only modules that write SQL). Every function takes
the ``ProgressStore`` and joins the caller's transaction when one is open.
"""
from __future__ import annotations

import json
import sqlite3
import time
import uuid

from .attempts import CheckAttempt, required_passed
from .store import ProgressStore

__all__ = ["ATTEMPT_COLS", "add_attempt", "attempts_of", "attempt", "all_attempts",
           "insert_attempt"]

ATTEMPT_COLS = ("uid", "question_id", "code", "checks", "error", "passed", "required",
                "created_at")
_SELECT = f"SELECT id, session_id, {', '.join(ATTEMPT_COLS)} FROM check_attempts"


def _record(row: dict) -> CheckAttempt:
    return CheckAttempt(id=row["id"], uid=row["uid"], session_id=row["session_id"],
                        question_id=row["question_id"], code=row["code"],
                        checks=tuple(json.loads(row["checks"])), error=row["error"],
                        passed=row["passed"], required=row["required"],
                        created_at=row["created_at"])


def add_attempt(store: ProgressStore, *, session_id: int, question_id: str, code: str,
                checks: list[dict], error: str | None, now: float | None = None
                ) -> CheckAttempt:
    """Append a check run; an unknown session is a ``KeyError`` (the foreign key)."""
    passed, required = required_passed(checks)
    values = {"uid": uuid.uuid4().hex, "question_id": question_id, "code": code,
              "checks": json.dumps(list(checks), ensure_ascii=False), "error": error,
              "passed": passed, "required": required,
              "created_at": time.time() if now is None else now}
    attempt_id = insert_attempt(store, session_id, values)
    return _record({"id": attempt_id, "session_id": session_id, **values})


def insert_attempt(store: ProgressStore, session_id: int, values: dict) -> int | None:
    """Insert a row (``ATTEMPT_COLS``) unless its uid is known; the new id, or None."""
    try:
        cursor = store.execute(
            f"INSERT OR IGNORE INTO check_attempts (session_id, {', '.join(ATTEMPT_COLS)}) "
            f"VALUES ({', '.join('?' * (len(ATTEMPT_COLS) + 1))})",
            [session_id, *(values[c] for c in ATTEMPT_COLS)])
    except sqlite3.IntegrityError as exc:
        if "FOREIGN KEY" not in str(exc):
            raise
        raise KeyError(f"no session with id {session_id}") from None
    return cursor.lastrowid if cursor.rowcount == 1 else None


def attempts_of(store: ProgressStore, question_id: str, limit: int = 200
                ) -> list[CheckAttempt]:
    """A question's attempts over every session, newest first."""
    return [_record(r) for r in store.query(
        f"{_SELECT} WHERE question_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
        [question_id, limit])]


def attempt(store: ProgressStore, attempt_id: int) -> CheckAttempt:
    rows = list(store.query(f"{_SELECT} WHERE id = ?", [attempt_id]))
    if not rows:
        raise KeyError(f"no check attempt with id {attempt_id}")
    return _record(rows[0])


def all_attempts(store: ProgressStore) -> list[dict]:
    """Every attempt as a row with its ``session_id`` (progress export), oldest first."""
    return list(store.query(f"SELECT session_id, {', '.join(ATTEMPT_COLS)} FROM "
                            "check_attempts ORDER BY id"))
