"""The learner's progress in one SQLite file: sessions, answer history, drafts, flags.

One ``ProgressStore`` wraps one connection (sqlite-utils). SQLite connections belong to the
thread that opened them, so the desktop talks to the store only through ``StoreWorker``: a
single thread that owns the only writer and runs jobs in submission order.

Durability: WAL with ``synchronous=NORMAL``. A committed transaction is in the WAL file (in
the OS page cache) before the write returns, so killing the app (crash, kill -9, closed
laptop lid) never loses it; only an OS crash or power cut can drop the last few commits.
That is the failure we accept for a ~20x cheaper commit (~42 µs vs ~0.9 ms, GUIDE §4).

Schema changes are explicit, numbered migrations counted in ``PRAGMA user_version``; a file
from a newer examdesk is refused before anything writes to it.

Every write is one ``BEGIN IMMEDIATE`` transaction (``ProgressStore.write``): a second
process on the same file waits for the lock instead of failing, and a full disk or a
read-only file surfaces as ``StorageFull`` / ``StorageReadOnly`` with nothing half-written.
Opening with recovery (damaged file, backups, read-only folder) is ``recovery.py``.
"""
from __future__ import annotations

import itertools
import json
import sqlite3
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from .enums import FINISHED_STATES, SUBMITTED_STATES, SessionMode
from .enums import SessionState as SessionState_  # the record below takes the plain name
from .enums import sql_list
from .schema import MIGRATIONS, SCHEMA_VERSION
from .sqlite_file import StorageError, is_corruption, read_only_connection, storage_error

_SAVEPOINTS = itertools.count()

if TYPE_CHECKING:  # sqlite-utils is imported on first use (ProgressStore.db)
    import sqlite_utils

    from .grading import Grade  # only its fields are read here

__all__ = ["ProgressStore", "SessionRecord", "AnswerRecord", "AnswerRef", "SessionState",
           "PaperSummary", "TooNewDatabase", "CorruptDatabase"]

ACTIVE = SessionState_.ACTIVE


class TooNewDatabase(Exception):
    """The file was written by a newer examdesk; it is left untouched."""

    def __init__(self, message: str, version: int = 0):
        super().__init__(message)
        self.version = version


class CorruptDatabase(Exception):
    """The file is not a readable SQLite database."""


# --- records ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SessionRecord:
    """One practice run or timed exam on one paper."""

    id: int
    paper_id: str
    mode: SessionMode
    state: SessionState_
    started_at: float
    deadline: float | None
    finished_at: float | None
    score: float | None
    max_score: float | None
    position: str | None = None  # the question on screen when it was left (resume there)
    run_id: int | None = None  # the practice run (set, wrong-answer book…) it belongs to
    open_book: bool = False  # an exam whose checks and console work during it
    include_drafts: bool = False  # an exam that scores unverified (draft) questions too

    def remaining(self, now: float | None = None) -> float | None:
        """Seconds left before the wall-clock deadline (time away counts); None for practice."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - (time.time() if now is None else now))


@dataclass(frozen=True)
class AnswerRecord:
    """One submitted response; ``grade`` is ``Grade.to_json()`` or None."""

    id: int
    session_id: int
    question_id: str
    response: Any  # stored JSON: ``grading.as_response`` reads it for its question
    grade: dict | None
    seconds: float
    created_at: float
    uid: str = ""


@dataclass(frozen=True)
class AnswerRef:
    """A just-stored answer: its row id and the uid reviews and exports refer to it by."""

    id: int
    uid: str


@dataclass(frozen=True)
class SessionState:
    """Everything needed to restore a session's screen or grade it."""

    session: SessionRecord
    answers: dict[str, AnswerRecord]  # latest submitted answer per question id
    drafts: dict[str, Any]  # latest draft response per question id
    flags: set[str]
    seconds: dict[str, float]  # time spent per question id (largest running total seen)
    draft_saved_at: dict[str, float] = field(default_factory=dict)  # when each draft was saved


@dataclass(frozen=True)
class PaperSummary:
    """A paper's card in the library, over finished sessions of one mode."""

    best_score: float | None
    last_score: float | None
    max_score: float | None  # of the last finished session
    attempts: int
    unfinished_session_id: int | None  # newest active session, to resume


# named columns, not *: a later migration may add columns the record does not have
_SESSION = ("SELECT id, paper_id, mode, state, started_at, deadline, finished_at, score, "
            "max_score, position, run_id, open_book, include_drafts FROM sessions")


def _session(row: dict) -> SessionRecord:
    return SessionRecord(**{**row, "mode": SessionMode(row["mode"]),
                            "state": SessionState_(row["state"]),
                            "open_book": bool(row["open_book"]),
                            "include_drafts": bool(row["include_drafts"])})


def _answer(row: dict) -> AnswerRecord:
    return AnswerRecord(
        id=row["id"], session_id=row["session_id"], question_id=row["question_id"],
        response=json.loads(row["response"]),
        grade=json.loads(row["grade"]) if row["grade"] is not None else None,
        seconds=row["seconds"], created_at=row["created_at"], uid=row.get("uid") or "")


def _grade_columns(grade: Grade | None) -> dict:
    """The grade's summary as columns, so statistics need no JSON parsing."""
    if grade is None:
        return {"verdict": None, "points": None, "max_points": None}
    return {"verdict": grade.verdict, "points": grade.points, "max_points": grade.max_points}


def _now(now: float | None) -> float:
    return time.time() if now is None else now


@contextmanager
def _known_session(session_id: int) -> Iterator[None]:
    """A row that refers to a session that does not exist is a clear ``KeyError`` (the
    foreign key refuses it; no SELECT is spent on checking first)."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if "FOREIGN KEY" not in str(exc):
            raise
        raise KeyError(f"no session with id {session_id}") from None


# --- opening ----------------------------------------------------------------------------
def _open_error(path: Path, exc: sqlite3.Error) -> Exception | None:
    """Only damage is ``CorruptDatabase`` (recovery moves such a file aside); a locked,
    read-only or unreadable file is a ``StorageError`` and stays where it is; None: re-raise."""
    if is_corruption(exc):
        return CorruptDatabase(f"{path}: not a readable progress database ({exc})")
    return storage_error(path, exc)


def _probe_version(path: Path) -> int:
    """Schema version of an existing file, read through a read-only connection.

    Read-only so that a too-new or damaged file is never modified; through SQLite (not the
    header bytes) so that a version still sitting in the WAL is seen. A file the disk will
    not open is a ``StorageError``, not a damaged file: recovery must not move it aside.
    """
    try:
        conn = read_only_connection(path)
    except sqlite3.Error as exc:
        if (error := _open_error(path, exc)) is None:
            raise
        raise error from exc
    try:
        # quick_check reads every page once: milliseconds for a progress file, and it turns
        # a truncated or overwritten file into a clear message at start-up, not mid-exam.
        problems = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise CorruptDatabase(f"{path}: the progress database is damaged: "
                                  + "; ".join(problems[:3]))
        return conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        if (error := _open_error(path, exc)) is None:
            raise
        raise error from exc
    finally:
        conn.close()


class ProgressStore:
    """Progress in one SQLite file. Not thread-safe: use it from one thread (``StoreWorker``).

    Every public write is one transaction, committed (durable against an app kill) when the
    method returns.

    ``read_only``: never write to ``path`` (a read-only folder or disk) and never raise for
    what the file holds. Its data is shown when it is readable and at the current schema;
    otherwise the store starts empty, in memory. Every write raises ``StorageReadOnly``.
    """

    def __init__(self, path: Path, *, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        if read_only:
            self._open_read_only()
            return
        version = _probe_version(self.path) if self.path.exists() else 0
        if version > SCHEMA_VERSION:
            raise TooNewDatabase(
                f"{self.path}: written by a newer examdesk (schema version {version}; this "
                f"version understands up to {SCHEMA_VERSION}). Update examdesk; the file was "
                f"not modified.", version)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = sqlite3.connect(str(self.path))
        except sqlite3.Error as exc:
            if (error := _open_error(self.path, exc)) is None:
                raise
            raise error from exc
        try:
            self._configure()  # busy_timeout first: a second process waits, not fails
            self._enable_wal()
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            if version < SCHEMA_VERSION:  # a current file opens without writing
                self._migrate()
        except BaseException as exc:
            self.conn.close()
            if isinstance(exc, sqlite3.Error) and (error := _open_error(self.path, exc)):
                raise error from exc
            raise

    def _enable_wal(self, wait_s: float = 5.0) -> None:
        """Switch a new file to WAL. The switch needs an exclusive lock and SQLite does not
        wait for it (busy_timeout is not consulted, to avoid deadlocks): two processes
        opening a new file at once fail with "database is locked" (seen in
        tests/test_faults_db.py), so retry for ``wait_s`` as busy_timeout would."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _configure(self) -> None:
        self._db: sqlite_utils.Database | None = None
        self.conn.execute("PRAGMA busy_timeout=5000")
        self.conn.execute("PRAGMA recursive_triggers=ON")  # as sqlite-utils sets it

    def _open_read_only(self) -> None:
        try:
            current = self.path.exists() and _probe_version(self.path) == SCHEMA_VERSION
        except (CorruptDatabase, StorageError):
            current = False
        if current:
            self.conn = read_only_connection(self.path)
            self._configure()
        else:  # missing, damaged, older or newer: nothing to show, and nothing may be written
            self.conn = sqlite3.connect(":memory:")
            self._configure()
            self._migrate()
        self.conn.execute("PRAGMA query_only=ON")  # every write fails with SQLITE_READONLY

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils over the same connection, for inserts and other table operations.

        Created on first use: importing sqlite-utils costs ~0.3 s of CPU (it pulls in numpy,
        click, pluggy, dateutil), which would compete with start-up for the GIL; start-up
        reads go through ``query``/``execute`` and the app imports it once the library is
        up (bench: launch_to_library).
        """
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn)
        return self._db

    def query(self, sql: str, params: Any = ()) -> Iterator[dict]:
        """Rows of a read as dicts (sqlite-utils' ``query`` without its import)."""
        cursor = self.conn.execute(sql, params)
        keys = [d[0] for d in cursor.description]
        return (dict(zip(keys, row)) for row in cursor)

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        """One statement; outside ``write()`` a statement that changes data commits at once
        (as sqlite-utils' ``execute``), inside it joins the transaction."""
        was_in_transaction = self.conn.in_transaction
        cursor = self.conn.execute(sql, params)
        if not was_in_transaction and self.conn.in_transaction:
            self.conn.execute("COMMIT")
        return cursor

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A transaction (a savepoint when one is open): reads inside see one snapshot."""
        if self.conn.in_transaction:
            name = f"examdesk_{next(_SAVEPOINTS)}"  # unique per nesting, no urandom per write
            self.conn.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    self.conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            self.conn.execute(f"RELEASE SAVEPOINT {name}")
            return
        self.conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            if self.conn.in_transaction:
                self.conn.rollback()
            raise
        self.conn.execute("COMMIT")

    def _migrate(self) -> None:
        for number in range(1, SCHEMA_VERSION + 1):
            with self.write():  # DDL and the version bump commit together or not at all
                # read under the write lock: another process may have migrated meanwhile
                if self.conn.execute("PRAGMA user_version").fetchone()[0] >= number:
                    continue
                MIGRATIONS[number - 1](self.conn)
                self.conn.execute(f"PRAGMA user_version = {number}")

    @contextmanager
    def write(self) -> Iterator[ProgressStore]:
        """One write transaction, committed on exit; every write goes through here.

        ``BEGIN IMMEDIATE`` takes the write lock before the first read. With the deferred
        ``BEGIN`` of ``db.atomic()``, a second process that commits between our read and our
        write makes SQLite fail at once with "database is locked" instead of waiting for
        ``busy_timeout`` (tests/test_faults_db.py, two processes writing). A disk failure
        becomes ``StorageFull``/``StorageReadOnly``/``StorageError`` after the rollback.
        Inside an open transaction it is a savepoint.
        """
        conn = self.conn
        if conn.in_transaction:
            with self.atomic():
                yield self
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite may have rolled back already (SQLITE_FULL)
                    conn.rollback()
                raise
        except sqlite3.Error as exc:
            error = storage_error(self.path, exc)
            if error is None:
                raise
            raise error from exc

    def close(self) -> None:
        self.conn.close()

    # --- sessions -----------------------------------------------------------------------
    def start_session(self, *, paper_id: str, mode: str, duration_s: int | None = None,
                      run_id: int | None = None, open_book: bool = False,
                      include_drafts: bool = False, now: float | None = None) -> int:
        """A new active session; exams get ``deadline = now + duration_s``; a practice
        run's sessions carry its ``run_id``; ``open_book``: an exam whose checks and console
        work during it (closed book by default); ``include_drafts``: an exam that scores
        unverified questions too (not by default)."""
        try:
            mode = SessionMode(mode)
        except ValueError:
            raise ValueError(f"session mode must be one of {sql_list(SessionMode)}, "
                             f"not {mode!r}") from None
        if mode == SessionMode.EXAM and not duration_s:
            raise ValueError("an exam session needs a positive duration_s")
        started = _now(now)
        with self.write():
            return self.db["sessions"].insert({
                "paper_id": paper_id, "mode": str(mode), "state": str(ACTIVE),
                "started_at": started,
                "deadline": started + duration_s if duration_s else None,
                "uid": uuid.uuid4().hex, "run_id": run_id, "open_book": int(bool(open_book)),
                "include_drafts": int(bool(include_drafts)),
            }).last_pk

    def session(self, session_id: int) -> SessionRecord:
        rows = list(self.query(f"{_SESSION} WHERE id = ?", [session_id]))
        if not rows:
            raise KeyError(f"no session with id {session_id}")
        return _session(rows[0])

    def active_session(self, paper_id: str, mode: SessionMode) -> SessionRecord | None:
        """The paper's newest active session of ``mode`` (to continue), if any. A practice
        run's sessions are the run's, not the paper's: they are not continued here."""
        rows = list(self.query(f"{_SESSION} WHERE paper_id = ? AND mode = ? AND state = ? "
                               "AND run_id IS NULL ORDER BY started_at DESC, id DESC LIMIT 1",
                               [paper_id, str(mode), str(ACTIVE)]))
        return _session(rows[0]) if rows else None

    def unfinished_exams(self) -> list[SessionRecord]:
        """Active exam sessions, newest first (offered for resume or auto-submit at start)."""
        return [_session(r) for r in self.query(
            f"{_SESSION} WHERE mode = 'exam' AND state = 'active' "
            "ORDER BY started_at DESC, id DESC")]

    def sessions_of(self, session_ids: Iterable[int]) -> list[SessionRecord]:
        """These sessions, newest first (those that exist)."""
        ids = list(session_ids)
        if not ids:
            return []
        return [_session(r) for r in self.query(
            f"{_SESSION} WHERE id IN ({', '.join('?' * len(ids))}) "
            "ORDER BY started_at DESC, id DESC", ids)]

    def sessions(self, paper_id: str | None = None) -> list[SessionRecord]:
        """All sessions (of one paper), newest first."""
        where, params = ("WHERE paper_id = ?", [paper_id]) if paper_id is not None else ("", [])
        return [_session(r) for r in self.query(
            f"{_SESSION} {where} ORDER BY started_at DESC, id DESC", params)]

    def finish_session(self, session_id: int, *, state: str, score: float, max_score: float,
                       now: float | None = None) -> None:
        """Close an active session; finishing one twice is a caller bug and raises."""
        if state not in FINISHED_STATES:
            raise ValueError(f"a session finishes as one of {sql_list(FINISHED_STATES)}, "
                             f"not {state!r}")
        with self.write():
            current = self.session(session_id)
            if current.state != ACTIVE:
                raise ValueError(f"session {session_id} is already {current.state}")
            self.execute(
                "UPDATE sessions SET state = ?, score = ?, max_score = ?, finished_at = ? "
                "WHERE id = ?", [str(state), score, max_score, _now(now), session_id])

    def rescore_session(self, session_id: int, *, score: float, max_score: float) -> bool:
        """Bring a finished session's score up to date after later grading (self-marks, a
        check run, a corrected key): library best/last and the score trend read it.
        Returns whether it changed; an active session has no score yet (ValueError)."""
        with self.write():
            current = self.session(session_id)
            if current.state == ACTIVE:
                raise ValueError(f"session {session_id} is still active: finish it first")
            if (current.score, current.max_score) == (score, max_score):
                return False
            self.execute("UPDATE sessions SET score = ?, max_score = ? WHERE id = ?",
                            [score, max_score, session_id])
            return True

    # --- answers, drafts, flags ---------------------------------------------------------
    def record_answer(self, session_id: int, question_id: str, response: dict, *,
                      grade: Grade | None, seconds: float, now: float | None = None
                      ) -> AnswerRef:
        """Append a submitted response (its stored JSON) to the history.

        ``seconds`` is the running total spent on the question in this session, not a delta.
        An unknown session is a ``KeyError`` (the foreign key refuses the row: no SELECT).
        """
        uid = uuid.uuid4().hex
        with self.write(), _known_session(session_id):
            cursor = self.execute(
                "INSERT INTO answers (session_id, question_id, response, grade, seconds, "
                "created_at, uid, verdict, points, max_points) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [session_id, question_id, json.dumps(response, ensure_ascii=False),
                 json.dumps(grade.to_json(), ensure_ascii=False) if grade else None,
                 seconds, _now(now), uid, *_grade_columns(grade).values()])
            return AnswerRef(cursor.lastrowid, uid)

    def save_draft(self, session_id: int, question_id: str, response: dict, *, seconds: float,
                   now: float | None = None) -> None:
        """Replace the question's draft (what is on screen); ``seconds`` as in record_answer."""
        with self.write(), _known_session(session_id):
            self.execute(
                "INSERT INTO drafts (session_id, question_id, response, seconds, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, question_id) DO UPDATE SET "
                "response = excluded.response, seconds = excluded.seconds, "
                "updated_at = excluded.updated_at",
                [session_id, question_id, json.dumps(response, ensure_ascii=False), seconds,
                 _now(now)])

    def set_flag(self, session_id: int, question_id: str, flagged: bool) -> None:
        with self.write(), _known_session(session_id):
            if flagged:
                self.execute("INSERT OR IGNORE INTO flags (session_id, question_id) "
                                "VALUES (?, ?)", [session_id, question_id])
            else:
                self.execute("DELETE FROM flags WHERE session_id = ? AND question_id = ?",
                                [session_id, question_id])

    def answer(self, answer_id: int) -> AnswerRecord:
        rows = list(self.query("SELECT * FROM answers WHERE id = ?", [answer_id]))
        if not rows:
            raise KeyError(f"no answer with id {answer_id}")
        return _answer(rows[0])

    def set_grade(self, answer_id: int, grade: Grade, *,
                  response: dict | None = None) -> None:
        """Store a grade on an existing answer (a snapshot; reports regrade responses);
        ``response``: the stored JSON it grades (self-marks or checks added), which
        replaces the row's, so every reader regrades the same thing."""
        with self.write():
            cols = _grade_columns(grade)
            cursor = self.execute(
                "UPDATE answers SET grade = ?, verdict = ?, points = ?, max_points = ?, "
                "response = COALESCE(?, response) WHERE id = ?",
                [json.dumps(grade.to_json(), ensure_ascii=False), cols["verdict"],
                 cols["points"], cols["max_points"],
                 None if response is None else json.dumps(response, ensure_ascii=False),
                 answer_id])
            if cursor.rowcount != 1:
                raise KeyError(f"no answer with id {answer_id}")

    def session_state(self, session_id: int) -> SessionState:
        """Latest answer, draft, flag and time per question, read in one snapshot."""
        with self.atomic():  # one read transaction: no half-applied write between queries
            session = self.session(session_id)
            answers = {r["question_id"]: _answer(r) for r in self.query(
                "SELECT * FROM answers WHERE id IN (SELECT max(id) FROM answers "
                "WHERE session_id = ? GROUP BY question_id)", [session_id])}
            draft_rows = list(self.query(
                "SELECT question_id, response, seconds, updated_at FROM drafts "
                "WHERE session_id = ?", [session_id]))
            flags = {r["question_id"] for r in self.query(
                "SELECT question_id FROM flags WHERE session_id = ?", [session_id])}
            seconds = {r["question_id"]: r["s"] for r in self.query(
                "SELECT question_id, max(seconds) AS s FROM answers WHERE session_id = ? "
                "GROUP BY question_id", [session_id])}
        for r in draft_rows:
            seconds[r["question_id"]] = max(seconds.get(r["question_id"], 0.0), r["seconds"])
        return SessionState(
            session=session, answers=answers,
            drafts={r["question_id"]: json.loads(r["response"]) for r in draft_rows},
            flags=flags, seconds=seconds,
            draft_saved_at={r["question_id"]: r["updated_at"] for r in draft_rows})

    # --- library ------------------------------------------------------------------------
    def paper_summary(self, paper_id: str, *, mode: SessionMode = SessionMode.EXAM
                      ) -> PaperSummary:
        """Best and last score over submitted sessions, and the session to resume."""
        with self.atomic():
            done = list(self.query(
                "SELECT score, max_score FROM sessions WHERE paper_id = ? AND mode = ? "
                f"AND state IN {sql_list(SUBMITTED_STATES)} AND score IS NOT NULL "
                "ORDER BY started_at DESC, id DESC", [paper_id, str(mode)]))
            active = list(self.query(
                "SELECT id FROM sessions WHERE paper_id = ? AND mode = ? AND state = ? "
                "ORDER BY started_at DESC, id DESC LIMIT 1", [paper_id, str(mode), str(ACTIVE)]))
        return PaperSummary(
            best_score=max((r["score"] for r in done), default=None),
            last_score=done[0]["score"] if done else None,
            max_score=done[0]["max_score"] if done else None,
            attempts=len(done),
            unfinished_session_id=active[0]["id"] if active else None)


