"""The SQL of the study modes: favourites, notes, where practice was left, practice runs,
composed mock exams, templates, questions seen without an answer, review sessions and the
wrong-answer book's put-backs.

Part of the store (``store*.py`` are the only modules that write SQL); the rules live in
``study.py`` (actions), ``practice_sets.py``, ``mock_exam.py``, ``review_flow.py`` and
``review.py``. Every function takes the ``ProgressStore`` and joins the caller's
transaction when one is open.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, Iterable

from .enums import SessionMode, SessionState
from .store import _SESSION, ProgressStore, SessionRecord, _session

__all__ = ["NoteRow", "RunRow", "ComposedRow", "ComposedQuestionRow", "TemplateRow", "BookRow",
           "set_favourite", "starred_ids", "save_note", "clear_note",
           "note_rows", "note_export", "merge_note", "note_texts", "set_position", "create_run",
           "run_row",
           "run_by_uid", "run_question_ids", "run_sessions", "run_position", "unfinished_run_ids",
           "save_composed", "composed_row", "composed_questions", "composed_session_ids",
           "insert_template", "update_template", "delete_template", "template_rows",
           "merge_template", "add_seen", "seen_row", "seen_in_session", "start_review_session",
           "finish_review_session", "review_session_row", "review_session_ratings",
           "review_session_by_uid", "rated_today", "touched_since", "card_question_ids",
           "touched_question_ids", "put_back", "book_rows", "outcomes_since",
           "active_practice_sessions", "latest_verdicts", "answered_question_ids", "has_answer"]

_PRACTICE, _ACTIVE = str(SessionMode.PRACTICE), str(SessionState.ACTIVE)


def _placeholders(values: list) -> str:
    return ", ".join("?" * len(values))


# --- favourites ----------------------------------------------------------------------------
def set_favourite(store: ProgressStore, question_id: str, starred: bool, at: float, *,
                  merge: bool = False) -> bool:
    """Star or unstar; returns whether anything changed (starring twice is one star).
    ``merge``: an imported star or unstar, kept only where it is newer than the one here."""
    keep = ("excluded.updated_at > favourites.updated_at" if merge
            else "favourites.starred != excluded.starred")
    cursor = store.execute(
        "INSERT INTO favourites (question_id, starred, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (question_id) DO UPDATE SET starred = excluded.starred, "
        f"updated_at = excluded.updated_at WHERE {keep}", [question_id, int(starred), at])
    return cursor.rowcount == 1


def starred_ids(store: ProgressStore) -> set[str]:
    return {r[0] for r in store.execute("SELECT question_id FROM favourites WHERE starred = 1")}


# --- notes ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class NoteRow:
    question_id: str
    uid: str
    text: str  # '' = deleted
    created_at: float
    updated_at: float


def save_note(store: ProgressStore, question_id: str, text: str, at: float) -> bool:
    """One statement: the note's text, unless it is unchanged (autosave calls this while the
    learner types: an unchanged text keeps its time). Returns whether it changed."""
    cursor = store.execute(
        "INSERT INTO notes (question_id, uid, text, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (question_id) DO UPDATE SET "
        "text = excluded.text, updated_at = excluded.updated_at "
        "WHERE notes.text != excluded.text",
        [question_id, uuid.uuid4().hex, text, at, at])
    return cursor.rowcount == 1


def clear_note(store: ProgressStore, question_id: str, at: float) -> bool:
    """An emptied note is deleted for the learner, and kept as '' (with its time) so an
    older export cannot bring it back. Returns whether there was text to clear."""
    cursor = store.execute("UPDATE notes SET text = '', updated_at = ? "
                           "WHERE question_id = ? AND text != ''", [at, question_id])
    return cursor.rowcount == 1


def note_rows(store: ProgressStore, question_ids: Iterable[str] | None = None, *,
              deleted: bool = False) -> dict[str, NoteRow]:
    """Notes by question id (of ``question_ids``, or all); cleared ones only if ``deleted``."""
    where, params = ([] if deleted else ["text != ''"]), []
    if question_ids is not None:
        ids = list(question_ids)
        if not ids:
            return {}
        where.append(f"question_id IN ({_placeholders(ids)})")
        params = ids
    sql = "SELECT question_id, uid, text, created_at, updated_at FROM notes"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return {r["question_id"]: NoteRow(**r) for r in store.query(sql, params)}


def note_export(store: ProgressStore) -> tuple[dict[str, str], dict[str, float]]:
    """Every note's text and when it last changed, by question id (the Anki export's
    ``notes`` / ``note_times``)."""
    found = note_rows(store)
    return ({qid: n.text for qid, n in found.items()},
            {qid: n.updated_at for qid, n in found.items()})


def merge_note(store: ProgressStore, row: dict) -> bool:
    """An imported note, kept where it is newer than the one here (a cleared note too)."""
    cursor = store.execute(
        "INSERT INTO notes (question_id, uid, text, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (question_id) DO UPDATE SET "
        "uid = excluded.uid, text = excluded.text, created_at = excluded.created_at, "
        "updated_at = excluded.updated_at WHERE excluded.updated_at > notes.updated_at",
        [row["question_id"], row["uid"], row["text"], row["created_at"], row["updated_at"]])
    return cursor.rowcount == 1


def note_texts(store: ProgressStore, *, caseless: Iterable[str] = (),
               ascii_folded: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(question id, text) of the notes, newest first, holding every ``caseless`` needle as
    written and every ``ascii_folded`` one after SQLite's ``lower`` (ASCII only: the caller
    sends only needles for which that is exact, and checks the rest itself). A scan: a
    learner has hundreds of notes, not millions (bench: search_p95 has 500)."""
    where, params = ["text != ''"], []
    for needle in caseless:
        where.append("instr(text, ?) > 0")
        params.append(needle)
    for needle in ascii_folded:
        where.append("instr(lower(text), ?) > 0")
        params.append(needle)
    return [(r[0], r[1]) for r in store.execute(
        f"SELECT question_id, text FROM notes WHERE {' AND '.join(where)} "
        "ORDER BY updated_at DESC", params)]


# --- where practice was left ---------------------------------------------------------------
def set_position(store: ProgressStore, session_id: int, question_id: str, at: float) -> None:
    cursor = store.execute("UPDATE sessions SET position = ?, position_at = ? WHERE id = ?",
                           [question_id, at, session_id])
    if cursor.rowcount != 1:
        raise KeyError(f"no session with id {session_id}")


def active_practice_sessions(store: ProgressStore) -> list[SessionRecord]:
    """Active practice sessions of papers (not of runs), newest first."""
    return [_session(r) for r in store.query(
        f"{_SESSION} WHERE mode = ? AND state = ? AND run_id IS NULL "
        "ORDER BY started_at DESC, id DESC", [_PRACTICE, _ACTIVE])]


def latest_verdicts(store: ProgressStore, session_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The stored verdict of each question's newest answer, per session."""
    out: dict[int, dict[str, Any]] = {sid: {} for sid in session_ids}
    if not session_ids:
        return out
    for sid, qid, verdict in store.execute(
            "SELECT session_id, question_id, verdict FROM answers WHERE id IN ("
            "SELECT max(id) FROM answers WHERE session_id IN "
            f"({_placeholders(session_ids)}) GROUP BY session_id, question_id)", session_ids):
        out[sid][qid] = verdict
    return out


def has_answer(store: ProgressStore, session_id: int, question_id: str) -> bool:
    return store.execute("SELECT 1 FROM answers WHERE session_id = ? AND question_id = ? "
                         "LIMIT 1", [session_id, question_id]).fetchone() is not None


def answered_question_ids(store: ProgressStore) -> set[str]:
    """Questions with at least one submitted answer, in any session."""
    return {r[0] for r in store.execute(
        "SELECT question_id FROM question_totals WHERE attempts > 0")}


def touched_question_ids(store: ProgressStore) -> set[str]:
    """Questions with any outcome: an answer or a review of any kind (seen ones)."""
    return answered_question_ids(store) | {r[0] for r in store.execute(
        "SELECT question_id FROM question_reviews WHERE reviews > 0")}


# --- practice runs -------------------------------------------------------------------------
@dataclass(frozen=True)
class RunRow:
    id: int
    uid: str
    title: str
    spec: dict | None
    created_at: float


def _run(row: dict) -> RunRow:
    return RunRow(row["id"], row["uid"], row["title"],
                  json.loads(row["spec"]) if row["spec"] else None, row["created_at"])


def create_run(store: ProgressStore, *, title: str, spec: dict | None, created_at: float,
               question_ids: list[str], uid: str | None = None) -> int:
    cursor = store.execute(
        "INSERT INTO practice_runs (uid, title, spec, created_at) VALUES (?, ?, ?, ?)",
        [uid or uuid.uuid4().hex, title,
         json.dumps(spec, ensure_ascii=False) if spec is not None else None, created_at])
    run_id = cursor.lastrowid
    store.conn.executemany(
        "INSERT INTO run_questions (run_id, position, question_id) VALUES (?, ?, ?)",
        [(run_id, i, qid) for i, qid in enumerate(question_ids)])
    return run_id


def run_row(store: ProgressStore, run_id: int) -> RunRow:
    rows = list(store.query("SELECT * FROM practice_runs WHERE id = ?", [run_id]))
    if not rows:
        raise KeyError(f"no practice run with id {run_id}")
    return _run(rows[0])


def run_by_uid(store: ProgressStore, uid: str) -> int | None:
    row = store.execute("SELECT id FROM practice_runs WHERE uid = ?", [uid]).fetchone()
    return row[0] if row else None




def run_question_ids(store: ProgressStore, run_id: int) -> list[str]:
    return [r[0] for r in store.execute(
        "SELECT question_id FROM run_questions WHERE run_id = ? ORDER BY position", [run_id])]


def run_sessions(store: ProgressStore, run_id: int) -> list[SessionRecord]:
    return [_session(r) for r in store.query(f"{_SESSION} WHERE run_id = ? ORDER BY id",
                                             [run_id])]


def run_position(store: ProgressStore, run_id: int) -> str | None:
    """The question the run was last left on (its sessions' newest position)."""
    row = store.execute("SELECT position FROM sessions WHERE run_id = ? AND position IS NOT "
                        "NULL ORDER BY position_at DESC, id DESC LIMIT 1", [run_id]).fetchone()
    return row[0] if row else None


def unfinished_run_ids(store: ProgressStore) -> list[int]:
    """Runs with an active session, newest first."""
    return [r[0] for r in store.execute(
        "SELECT DISTINCT r.id FROM practice_runs r JOIN sessions s ON s.run_id = r.id "
        "WHERE s.state = ? ORDER BY r.created_at DESC, r.id DESC", [_ACTIVE])]


# --- composed mock exams -------------------------------------------------------------------
@dataclass(frozen=True)
class ComposedQuestionRow:
    position: int
    question_id: str
    type: str
    points: float
    section: str


@dataclass(frozen=True)
class ComposedRow:
    session_id: int
    template_uid: str | None
    title: str
    spec: dict
    questions: tuple[ComposedQuestionRow, ...]


def save_composed(store: ProgressStore, session_id: int, *, template_uid: str | None,
                  title: str, spec: dict, questions: list[ComposedQuestionRow]) -> None:
    store.execute("INSERT INTO composed_exams (session_id, template_uid, title, spec) "
                  "VALUES (?, ?, ?, ?)",
                  [session_id, template_uid, title, json.dumps(spec, ensure_ascii=False)])
    store.conn.executemany(
        "INSERT INTO composed_questions (session_id, position, question_id, type, points, "
        "section) VALUES (?, ?, ?, ?, ?, ?)",
        [(session_id, q.position, q.question_id, q.type, q.points, q.section)
         for q in questions])


def composed_questions(store: ProgressStore, session_id: int) -> tuple[ComposedQuestionRow, ...]:
    return tuple(ComposedQuestionRow(*r) for r in store.execute(
        "SELECT position, question_id, type, points, section FROM composed_questions "
        "WHERE session_id = ? ORDER BY position", [session_id]))


def composed_row(store: ProgressStore, session_id: int) -> ComposedRow | None:
    row = store.execute("SELECT template_uid, title, spec FROM composed_exams "
                        "WHERE session_id = ?", [session_id]).fetchone()
    if row is None:
        return None
    return ComposedRow(session_id, row[0], row[1], json.loads(row[2]),
                       composed_questions(store, session_id))


def composed_session_ids(store: ProgressStore, session_ids: Iterable[int] | None = None
                         ) -> set[int]:
    ids = None if session_ids is None else list(session_ids)
    if ids is None:
        return {r[0] for r in store.execute("SELECT session_id FROM composed_exams")}
    if not ids:
        return set()
    return {r[0] for r in store.execute(
        f"SELECT session_id FROM composed_exams WHERE session_id IN ({_placeholders(ids)})",
        ids)}




# --- templates -----------------------------------------------------------------------------
@dataclass(frozen=True)
class TemplateRow:
    id: int
    uid: str
    kind: str
    name: str
    spec: dict
    created_at: float
    updated_at: float


def _template(row: dict) -> TemplateRow:
    return TemplateRow(**{**row, "spec": json.loads(row["spec"])})


def insert_template(store: ProgressStore, *, kind: str, name: str, spec: dict, at: float,
                    uid: str | None = None) -> int:
    return store.execute(
        "INSERT INTO templates (uid, kind, name, spec, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [uid or uuid.uuid4().hex, kind, name, json.dumps(spec, ensure_ascii=False), at,
         at]).lastrowid


def update_template(store: ProgressStore, template_id: int, *, name: str, spec: dict,
                    at: float) -> None:
    cursor = store.execute("UPDATE templates SET name = ?, spec = ?, updated_at = ? "
                           "WHERE id = ?",
                           [name, json.dumps(spec, ensure_ascii=False), at, template_id])
    if cursor.rowcount != 1:
        raise KeyError(f"no template with id {template_id}")


def delete_template(store: ProgressStore, template_id: int) -> None:
    if store.execute("DELETE FROM templates WHERE id = ?", [template_id]).rowcount != 1:
        raise KeyError(f"no template with id {template_id}")


def template_rows(store: ProgressStore, kind: str | None = None,
                  template_id: int | None = None) -> list[TemplateRow]:
    where, params = [], []
    if kind is not None:
        where.append("kind = ?")
        params.append(kind)
    if template_id is not None:
        where.append("id = ?")
        params.append(template_id)
    sql = "SELECT id, uid, kind, name, spec, created_at, updated_at FROM templates"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return [_template(r) for r in store.query(sql + " ORDER BY created_at, id", params)]




def merge_template(store: ProgressStore, row: dict) -> bool:
    """An imported template, by uid; the newer version wins."""
    cursor = store.execute(
        "INSERT INTO templates (uid, kind, name, spec, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (uid) DO UPDATE SET name = excluded.name, "
        "spec = excluded.spec, updated_at = excluded.updated_at "
        "WHERE excluded.updated_at > templates.updated_at",
        [row["uid"], row["kind"], row["name"], json.dumps(row["spec"], ensure_ascii=False),
         row["created_at"], row["updated_at"]])
    return cursor.rowcount == 1


# --- seen without an answer (Show answer, recite) ------------------------------------------
def add_seen(store: ProgressStore, session_id: int, question_id: str, *, how: str,
             review_uid: str, at: float) -> bool:
    """Returns False when the question was already seen in this session."""
    cursor = store.execute(
        "INSERT OR IGNORE INTO session_seen (session_id, question_id, how, review_uid, "
        "seen_at) VALUES (?, ?, ?, ?, ?)", [session_id, question_id, how, review_uid, at])
    return cursor.rowcount == 1


def seen_row(store: ProgressStore, session_id: int, question_id: str
             ) -> tuple[str, str] | None:
    """(how, review uid) of the question in the session, if it was seen there."""
    row = store.execute("SELECT how, review_uid FROM session_seen WHERE session_id = ? "
                        "AND question_id = ?", [session_id, question_id]).fetchone()
    return tuple(row) if row else None


def seen_in_session(store: ProgressStore, session_id: int) -> dict[str, str]:
    return {r[0]: r[1] for r in store.execute(
        "SELECT question_id, how FROM session_seen WHERE session_id = ?", [session_id])}




# --- review sessions -----------------------------------------------------------------------
def start_review_session(store: ProgressStore, at: float, uid: str | None = None) -> int:
    return store.execute("INSERT INTO review_sessions (uid, started_at) VALUES (?, ?)",
                         [uid or uuid.uuid4().hex, at]).lastrowid


def finish_review_session(store: ProgressStore, session_id: int, at: float) -> None:
    store.execute("UPDATE review_sessions SET finished_at = COALESCE(finished_at, ?) "
                  "WHERE id = ?", [at, session_id])


def review_session_row(store: ProgressStore, session_id: int) -> dict:
    rows = list(store.query("SELECT id, uid, started_at, finished_at FROM review_sessions "
                            "WHERE id = ?", [session_id]))
    if not rows:
        raise KeyError(f"no review session with id {session_id}")
    return rows[0]


def review_session_by_uid(store: ProgressStore, uid: str) -> int | None:
    row = store.execute("SELECT id FROM review_sessions WHERE uid = ?", [uid]).fetchone()
    return row[0] if row else None




def review_session_ratings(store: ProgressStore, session_id: int) -> list[dict]:
    return list(store.query(
        "SELECT question_id, rating, seconds, was_new, reviewed_at FROM reviews "
        "WHERE review_session_id = ? ORDER BY reviewed_at, id", [session_id]))


def rated_today(store: ProgressStore, start: float, end: float) -> dict[str, bool]:
    """Questions rated in review sessions in [start, end): whether each was new then."""
    out: dict[str, bool] = {}
    for qid, was_new in store.execute(
            "SELECT question_id, MAX(was_new) FROM reviews WHERE kind = 'review' "
            "AND reviewed_at >= ? AND reviewed_at < ? GROUP BY question_id", [start, end]):
        out[qid] = bool(was_new)
    return out


def touched_since(store: ProgressStore, question_ids: list[str], start: float) -> set[str]:
    """Those of ``question_ids`` with a review of any kind at or after ``start``."""
    if not question_ids:
        return set()
    found: set[str] = set()
    for i in range(0, len(question_ids), 500):  # SQLite's variable limit
        chunk = question_ids[i:i + 500]
        found |= {r[0] for r in store.execute(
            f"SELECT DISTINCT question_id FROM reviews WHERE question_id IN "
            f"({_placeholders(chunk)}) AND reviewed_at >= ?", [*chunk, start])}
    return found


def card_question_ids(store: ProgressStore) -> set[str]:
    return {r[0] for r in store.execute("SELECT question_id FROM cards")}


# --- the wrong-answer book -----------------------------------------------------------------
@dataclass(frozen=True)
class BookRow:
    question_id: str
    misses: int
    last_missed_at: float | None
    mastered_at: float | None
    returned_at: float | None


def put_back(store: ProgressStore, question_id: str, at: float) -> None:
    store.execute("INSERT INTO book_returns (question_id, returned_at) VALUES (?, ?) "
                  "ON CONFLICT (question_id) DO UPDATE SET returned_at = "
                  "MAX(book_returns.returned_at, excluded.returned_at)", [question_id, at])




_BOOK = """
    WITH book AS (
        SELECT question_id FROM question_reviews WHERE misses > 0
        UNION SELECT question_id FROM book_returns)
    SELECT b.question_id, COALESCE(t.misses, 0) AS misses, t.last_missed_at,
           (SELECT MAX(mastered_at) FROM mastery m WHERE m.question_id = b.question_id)
               AS mastered_at, r.returned_at
    FROM book b LEFT JOIN question_reviews t ON t.question_id = b.question_id
    LEFT JOIN book_returns r ON r.question_id = b.question_id"""


def book_rows(store: ProgressStore) -> list[BookRow]:
    """Every question ever missed or put back by hand (the book filters them itself)."""
    return [BookRow(**r) for r in store.query(_BOOK)]


def outcomes_since(store: ProgressStore) -> dict[str, list[tuple[str, int, int]]]:
    """Per book question, its reviews (kind, rating, missed) since it last entered the book
    (its newest miss or put-back), newest first: what graduation counts."""
    out: dict[str, list[tuple[str, int, int]]] = {}
    for qid, kind, rating, missed in store.execute(f"""
            WITH entries AS ({_BOOK})
            SELECT r.question_id, r.kind, r.rating, r.missed FROM entries e
            JOIN reviews r ON r.question_id = e.question_id
            AND r.reviewed_at >= MAX(COALESCE(e.last_missed_at, 0),
                                     COALESCE(e.returned_at, 0))
            ORDER BY r.question_id, r.reviewed_at DESC, r.id DESC"""):
        out.setdefault(qid, []).append((kind, rating, missed))
    return out
