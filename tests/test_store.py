"""ProgressStore and StoreWorker on real SQLite files in tmp dirs."""
from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import pytest

from question_db import store as store_module
from question_db.grading import Grade
from question_db.store_worker import StoreWorker
from question_db.store import (SCHEMA_VERSION, CorruptDatabase, ProgressStore,
                               TooNewDatabase)


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "data" / "progress.db"


@pytest.fixture
def store(db_path):
    s = ProgressStore(db_path)
    yield s
    s.close()


@pytest.fixture
def make_worker():
    """StoreWorkers that are always closed, and proven gone, at the end of the test."""
    workers: list[StoreWorker] = []

    def make(path: Path) -> StoreWorker:
        workers.append(StoreWorker(path))
        return workers[-1]

    yield make
    for w in workers:
        assert w.close(timeout=10)


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fill(store: ProgressStore) -> int:
    sid = store.start_session(paper_id="001", mode="exam", duration_s=3600, now=1000.0)
    store.record_answer(sid, "001/1", "B", grade=Grade(2, 2, "correct"), seconds=12, now=1010.0)
    store.save_draft(sid, "001/2", "C", seconds=4, now=1020.0)
    store.set_flag(sid, "001/3", True)
    return sid


# --- schema ---------------------------------------------------------------------------------
def test_new_file_is_migrated_from_empty(store, db_path):
    assert SCHEMA_VERSION == 5
    conn = raw(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"sessions", "answers", "drafts", "flags", "question_totals", "cards",
                      "reviews", "question_reviews", "mastery", "settings",
                      # v3: study modes
                      "practice_runs", "run_questions", "composed_exams",
                      "composed_questions", "templates", "favourites", "notes",
                      "review_sessions", "session_seen", "book_returns",
                      # v4: check attempts
                      "check_attempts"}
    indexes = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL")}
    assert indexes == {"sessions_by_paper", "sessions_by_state", "answers_by_session",
                       "sessions_by_uid", "answers_by_uid", "cards_by_due",
                       "reviews_by_question", "sessions_by_run", "reviews_by_review_session",
                       "reviews_rated_today", "check_attempts_by_question",
                       "reviews_by_answer"}  # v5
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    assert triggers == {"answers_totals_insert", "answers_totals_regrade",
                        "reviews_totals_insert", "reviews_totals_update",
                        # v5: a card knows whether it is still the replay of its reviews
                        "reviews_stale_card_insert", "reviews_stale_card_update",
                        "reviews_stale_card_delete"}
    conn.close()
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_zero_byte_file_is_treated_as_new(db_path):
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"")
    s = ProgressStore(db_path)
    assert s.sessions() == []
    s.close()
    assert raw(db_path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_reopen_keeps_data(db_path):
    first = ProgressStore(db_path)
    sid = fill(first)
    before = first.session_state(sid)
    first.close()
    again = ProgressStore(db_path)
    assert again.session_state(sid) == before
    again.close()


def test_old_file_migrates_forward_and_keeps_data(db_path, monkeypatch):
    old = ProgressStore(db_path)
    sid = fill(old)
    old.close()
    step = lambda db: db.execute("ALTER TABLE sessions ADD COLUMN note TEXT")  # noqa: E731
    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS, step])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    new = ProgressStore(db_path)
    assert new.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert "note" in new.db["sessions"].columns_dict
    assert new.session_state(sid).answers["001/1"].response == "B"
    new.close()


def test_failed_migration_leaves_file_at_old_version(db_path, monkeypatch):
    ProgressStore(db_path).close()

    def broken(db):
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("step 2 failed")

    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS, broken])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError, match="step 2 failed"):
        ProgressStore(db_path)
    conn = raw(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "half_done" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


def test_too_new_file_is_refused_and_left_unchanged(db_path):
    fill_store = ProgressStore(db_path)
    fill(fill_store)
    fill_store.close()
    conn = raw(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()  # last connection: checkpoints, so the version is in the main file
    digest = sha256(db_path)
    with pytest.raises(TooNewDatabase) as err:
        ProgressStore(db_path)
    message = str(err.value)
    assert str(db_path) in message
    assert f"schema version {SCHEMA_VERSION + 1}" in message
    assert f"up to {SCHEMA_VERSION}" in message
    assert sha256(db_path) == digest
    # a read-only WAL reader may leave the usual empty -wal/-shm beside it: no frame written
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_too_new_version_still_in_the_wal_is_seen(db_path):
    """Reading the header bytes would miss a version that was not checkpointed yet."""
    ProgressStore(db_path).close()
    newer = raw(db_path)  # a newer app, still running: its commit sits in the WAL
    newer.execute("PRAGMA wal_autocheckpoint = 0")
    newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    wal = db_path.with_name(db_path.name + "-wal")
    digests = (sha256(db_path), sha256(wal))
    try:
        with pytest.raises(TooNewDatabase, match=f"schema version {SCHEMA_VERSION + 5}"):
            ProgressStore(db_path)
        assert (sha256(db_path), sha256(wal)) == digests
    finally:
        newer.close()


@pytest.mark.parametrize("damage", ["random_bytes", "truncated", "pages_overwritten"])
def test_corrupt_file_names_the_file(db_path, damage):
    if damage == "random_bytes":
        db_path.parent.mkdir(parents=True)
        db_path.write_bytes(bytes(range(256)) * 64)
    else:
        s = ProgressStore(db_path)
        sid = s.start_session(paper_id="001", mode="practice")
        for i in range(300):
            s.record_answer(sid, f"001/{i}", "x" * 500, grade=None, seconds=1)
        s.close()
        data = db_path.read_bytes()
        half = len(data) // 2
        if damage == "truncated":
            db_path.write_bytes(data[:half])
        else:  # header intact, so only a check of every page notices
            db_path.write_bytes(data[:half] + bytes(range(256)) * 32 + data[half + 8192:])
    digest = sha256(db_path)
    with pytest.raises(CorruptDatabase) as err:
        ProgressStore(db_path)
    assert str(db_path) in str(err.value)
    assert sha256(db_path) == digest


# --- records --------------------------------------------------------------------------------
def test_answers_drafts_flags_round_trip(store):
    sid = store.start_session(paper_id="001", mode="exam", duration_s=600, now=1000.0)
    first = store.record_answer(sid, "001/1", "A", grade=None, seconds=5, now=1001.0)
    second = store.record_answer(sid, "001/1", "B", grade=Grade(2, 2, "correct"), seconds=9,
                                 now=1002.0)
    store.save_draft(sid, "001/16", ["线性", ""], seconds=3, now=1003.0)
    store.save_draft(sid, "001/16", ["线性", "O(b)"], seconds=7, now=1004.0)  # upsert
    store.save_draft(sid, "001/1", "C", seconds=11, now=1005.0)
    store.set_flag(sid, "001/2", True)
    store.set_flag(sid, "001/3", True)
    store.set_flag(sid, "001/3", False)
    store.set_grade(first.id, Grade(0, 2, "wrong"))

    state = store.session_state(sid)
    assert state.session.id == sid and state.session.state == "active"
    answer = state.answers["001/1"]
    assert (answer.id, answer.uid, answer.response, answer.seconds, answer.created_at) == (
        second.id, second.uid, "B", 9, 1002.0)
    assert answer.grade == {"points": 2, "max_points": 2, "verdict": "correct", "parts": []}
    assert state.drafts == {"001/16": ["线性", "O(b)"], "001/1": "C"}
    assert state.draft_saved_at == {"001/16": 1004.0, "001/1": 1005.0}
    assert state.flags == {"001/2"}
    assert state.seconds == {"001/1": 11, "001/16": 7}
    history = list(store.db.query("SELECT id, grade FROM answers ORDER BY id"))
    assert [r["id"] for r in history] == [first.id, second.id]  # history kept
    assert '"wrong"' in history[0]["grade"]
    assert store.db["drafts"].count == 2


def test_writes_to_unknown_session_or_answer_raise(store):
    with pytest.raises(KeyError, match="no session with id 42"):
        store.record_answer(42, "001/1", "A", grade=None, seconds=1)
    with pytest.raises(KeyError, match="no session with id 42"):
        store.save_draft(42, "001/1", "A", seconds=1)
    with pytest.raises(KeyError, match="no answer with id 7"):
        store.set_grade(7, Grade(0, 2, "wrong"))
    assert store.db["answers"].count == 0 and store.db["drafts"].count == 0


def test_sessions_lifecycle_and_paper_summary(store):
    practice = store.start_session(paper_id="001", mode="practice", now=100.0)
    exam1 = store.start_session(paper_id="001", mode="exam", duration_s=60, now=200.0)
    other = store.start_session(paper_id="000", mode="exam", duration_s=60, now=250.0)
    exam2 = store.start_session(paper_id="001", mode="exam", duration_s=60, now=300.0)
    assert store.session(practice).deadline is None
    assert store.session(exam1).deadline == 260.0
    assert [s.id for s in store.unfinished_exams()] == [exam2, other, exam1]
    assert [s.id for s in store.sessions("001")] == [exam2, exam1, practice]
    assert store.paper_summary("001").unfinished_session_id == exam2

    store.finish_session(exam1, state="auto_submitted", score=90, max_score=150, now=270.0)
    store.finish_session(exam2, state="submitted", score=60, max_score=150, now=350.0)
    store.finish_session(other, state="abandoned", score=0, max_score=100, now=400.0)
    assert store.unfinished_exams() == []
    done = store.session(exam2)
    assert (done.state, done.score, done.finished_at) == ("submitted", 60, 350.0)
    assert store.paper_summary("001") == store_module.PaperSummary(
        best_score=90, last_score=60, max_score=150, attempts=2, unfinished_session_id=None)
    assert store.paper_summary("000").attempts == 0  # abandoned does not count
    assert store.paper_summary("001", mode="practice").unfinished_session_id == practice

    with pytest.raises(ValueError, match="already submitted"):
        store.finish_session(exam2, state="submitted", score=1, max_score=150)
    with pytest.raises(ValueError, match="finishes as one of"):
        store.finish_session(practice, state="active", score=1, max_score=1)
    with pytest.raises(ValueError, match="mode"):
        store.start_session(paper_id="001", mode="quiz")
    with pytest.raises(ValueError, match="duration_s"):
        store.start_session(paper_id="001", mode="exam")


def test_reads_see_whole_commits_while_the_worker_writes(db_path, make_worker):
    worker = make_worker(db_path)
    sid = worker.submit(lambda s: s.start_session(paper_id="001", mode="practice")).result()
    done = threading.Event()
    seen: list[int] = []
    errors: list[BaseException] = []

    def read() -> None:
        reader = ProgressStore(db_path)  # a second connection, on this thread
        try:
            while True:
                finished = done.is_set()
                rows = [r["response"] for r in reader.db.query(
                    "SELECT response FROM answers WHERE session_id = ? ORDER BY id", [sid])]
                # commits land in order, whole: a reader sees exactly a prefix 0..n-1
                assert rows == [str(i) for i in range(len(rows))]
                assert not seen or len(rows) >= seen[-1]
                state = reader.session_state(sid)
                assert all(f"001/{a.response % 31 + 1}" == q for q, a in state.answers.items())
                seen.append(len(rows))
                if finished:
                    return
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test thread
            errors.append(exc)
        finally:
            reader.close()

    thread = threading.Thread(target=read)
    thread.start()
    futures = [worker.submit(ProgressStore.record_answer, sid, f"001/{i % 31 + 1}", i,
                             grade=None, seconds=i) for i in range(400)]
    for f in futures:
        f.result()
    done.set()
    thread.join()
    assert errors == []
    assert seen[-1] == 400


# --- StoreWorker ----------------------------------------------------------------------------
def test_worker_runs_jobs_in_order_on_its_own_thread(db_path, make_worker):
    worker = make_worker(db_path)
    order: list[int] = []
    threads: set[str] = set()

    def job(store, i):
        order.append(i)
        threads.add(threading.current_thread().name)
        return i * 2

    futures = [worker.submit(job, i) for i in range(200)]
    assert [f.result() for f in futures] == [i * 2 for i in range(200)]
    assert order == list(range(200))
    assert threads == {"examdesk-store"}
    assert worker.ready.result() is None


def test_worker_propagates_errors_and_keeps_going(db_path, make_worker):
    worker = make_worker(db_path)
    bad = worker.submit(ProgressStore.record_answer, 99, "001/1", "A", grade=None, seconds=1)
    good = worker.submit(lambda s: s.start_session(paper_id="001", mode="practice"))
    with pytest.raises(KeyError, match="no session with id 99"):
        bad.result()
    assert good.result() == 1


def test_worker_close_drains_the_queue_and_persists(db_path):
    worker = StoreWorker(db_path)
    sid = worker.submit(lambda s: s.start_session(paper_id="001", mode="practice")).result()
    futures = [worker.submit(ProgressStore.save_draft, sid, f"001/{i}", i, seconds=i)
               for i in range(100)]
    assert worker.close()
    assert all(f.done() and f.exception() is None for f in futures)
    assert worker.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        worker.submit(lambda s: None)
    reopened = ProgressStore(db_path)
    assert len(reopened.session_state(sid).drafts) == 100
    reopened.close()


def test_worker_close_is_bounded_when_a_job_hangs(db_path):
    worker = StoreWorker(db_path)
    release = threading.Event()
    stuck = worker.submit(lambda s: release.wait(30))
    queued = worker.submit(lambda s: "after")
    assert worker.close(timeout=0.2) is False  # returned although a job still runs
    release.set()
    assert stuck.result() is True and queued.result() == "after"
    assert worker.close(timeout=10) is True


def test_worker_on_a_too_new_file_fails_every_job(db_path, make_worker):
    ProgressStore(db_path).close()
    conn = raw(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    worker = make_worker(db_path)
    assert isinstance(worker.ready.exception(), TooNewDatabase)
    with pytest.raises(TooNewDatabase, match=str(db_path)):
        worker.submit(lambda s: s.sessions()).result()


def test_v1_file_migrates_to_v2_with_totals_backfilled(db_path, monkeypatch):
    """A file written by schema 1 (before reviews) keeps its answers and gains totals."""
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 1)
    old = ProgressStore(db_path)
    sid = old.db.execute("INSERT INTO sessions (paper_id, mode, state, started_at) "
                         "VALUES ('001', 'practice', 'active', 100.0)").lastrowid
    old.db.execute("INSERT INTO answers (session_id, question_id, response, grade, seconds, "
                   "created_at) VALUES (?, '001/3', '\"B\"', "
                   "'{\"points\": 2, \"max_points\": 2, \"verdict\": \"correct\", "
                   "\"parts\": []}', 12.5, 101.0)", [sid])
    old.db.conn.commit()
    old.close()
    monkeypatch.undo()
    new = ProgressStore(db_path)
    row = next(new.db.query("SELECT * FROM question_totals"))
    assert (row["question_id"], row["attempts"], row["correct"], row["points"],
            row["seconds"]) == ("001/3", 1, 1, 2.0, 12.5)
    answer = next(new.db.query("SELECT uid, verdict FROM answers"))
    assert answer["verdict"] == "correct" and len(answer["uid"]) == 32
    new.close()


# --- the start-up path does not import sqlite-utils (bench: launch_to_library) ---------

def test_opening_and_the_library_reads_need_no_sqlite_utils(tmp_path):
    """sqlite-utils pulls in numpy, click and pluggy (~0.3 s of CPU), which would compete
    with the first paint for the GIL: opening (with migrations), the library's and the
    review counts' reads go through sqlite3; the first table write imports it."""
    import subprocess
    import sys

    code = f"""
import sys
from pathlib import Path
from question_db.bank import load_bank
from question_db.store import ProgressStore
from question_db import review
bank = load_bank()
store = ProgressStore(Path({str(tmp_path / 'p.db')!r}))
known = {{q.id for q in bank.all_questions()}}
for paper in bank.papers:
    store.paper_summary(paper.id)
    store.sessions(paper.id)
store.unfinished_exams()
review.wrong_book(store, bank)
review.due_today(store, known=known)
before = 'sqlite_utils' in sys.modules
sid = store.start_session(paper_id='001', mode='practice')
print(before, 'sqlite_utils' in sys.modules, store.session(sid).state)
store.close()
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[1]).stdout.split()
    assert out == ["False", "True", "active"]


def test_execute_outside_write_commits_and_inside_joins_the_transaction(store, db_path):
    sid = store.start_session(paper_id="001", mode="practice", now=1.0)
    store.execute("UPDATE sessions SET score = 5 WHERE id = ?", [sid])  # autocommitted
    assert raw(db_path).execute("SELECT score FROM sessions").fetchone() == (5,)
    with pytest.raises(RuntimeError):
        with store.write():
            store.execute("UPDATE sessions SET score = 7 WHERE id = ?", [sid])
            raise RuntimeError("rolled back")
    assert raw(db_path).execute("SELECT score FROM sessions").fetchone() == (5,)
    assert list(store.query("SELECT id, score FROM sessions")) == [{"id": sid, "score": 5}]


def test_atomic_nests_as_a_savepoint(store):
    sid = store.start_session(paper_id="001", mode="practice", now=1.0)
    with store.atomic():
        store.execute("UPDATE sessions SET score = 1 WHERE id = ?", [sid])
        with pytest.raises(ValueError):
            with store.atomic():
                store.execute("UPDATE sessions SET score = 2 WHERE id = ?", [sid])
                raise ValueError("inner only")
    assert store.session(sid).score == 1
