"""Faults around the progress file, injected for real: damaged bytes, a file from a newer
examdesk, a full disk, a read-only folder, two processes, backups taken mid-write.

Real SQLite files in tmp dirs throughout. The full-disk and read-only-mount tests mount a
real 1 MiB tmpfs (root only: skipped with the reason elsewhere; CI runs as root), so ENOSPC
and EROFS come from the kernel, not from a mock.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import mounted_tmpfs

from question_db import backups
from question_db.grading import Grade
from desktop.instance_lock import InstanceLock
from question_db.paths import progress_path
from question_db.recovery import (BACKUP_FAILED, CORRUPT, DISK_FULL, LOW_DISK, READ_ONLY,
                                  TOO_NEW, open_progress, side_path)
from question_db.schema import SCHEMA_VERSION
from question_db.sqlite_file import StorageFull, StorageReadOnly, copy_database
from question_db.store_worker import progress_worker
from question_db.store import ProgressStore

REPO = Path(__file__).resolve().parents[1]
DAY1 = datetime(2026, 11, 27, 9, 0, 0)
DAY2 = datetime(2026, 11, 28, 9, 0, 0)
DAY3 = datetime(2026, 11, 29, 18, 30, 0)


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def integrity(path: Path) -> list[str]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


def answers_of(path: Path) -> list:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [json.loads(r[0]) for r in conn.execute("SELECT response FROM answers ORDER BY id")]
    finally:
        conn.close()


def opened(data_dir: Path, now: datetime = DAY3, **kw):
    store, notices = open_progress(data_dir, now=now, **kw)
    return store, notices


def fill(store: ProgressStore, n: int = 3, size: int = 0) -> int:
    sid = store.start_session(paper_id="001", mode="practice", now=1000.0)
    for i in range(n):
        store.record_answer(sid, f"001/{i % 31 + 1}", i if not size else f"{i}:" + "x" * size,
                            grade=Grade(2, 2, "correct"), seconds=i)
    return sid


def kinds(notices) -> list[str]:
    return [n.kind for n in notices]


# --- 1. a damaged file -------------------------------------------------------------------
def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    half = len(data) // 2 // 4096 * 4096
    if how == "random_bytes":
        path.write_bytes(bytes(range(256)) * (len(data) // 256))
    elif how == "truncated":
        path.write_bytes(data[:half])
    elif how == "zeroed_pages":  # header intact: only a check of every page notices
        path.write_bytes(data[:half] + bytes(4 * 4096) + data[half + 4 * 4096:])
    elif how == "zeroed_header":
        path.write_bytes(bytes(100) + data[100:])


@pytest.mark.parametrize("how", ["random_bytes", "truncated", "zeroed_pages", "zeroed_header"])
def test_damaged_file_is_kept_aside_a_new_one_starts_and_the_backup_restores(data_dir, how):
    path = progress_path(data_dir)
    store, _ = opened(data_dir, DAY1)
    fill(store, n=300, size=500)  # many pages, so damage in the middle hits table pages
    store.close()
    store, _ = opened(data_dir, DAY2)  # DAY2's backup holds the 300 answers
    store.close()
    damage(path, how)
    # a -wal and -shm beside the damaged file: they may hold its newest commits
    Path(f"{path}-wal").write_bytes(b"wal bytes")
    Path(f"{path}-shm").write_bytes(b"shm bytes")
    damaged = sha256(path)

    store, notices = opened(data_dir, DAY3)
    assert kinds(notices) == [CORRUPT]
    notice = notices[0]
    kept = data_dir / "progress.corrupt-20261129-183000.sqlite3"
    assert notice.moved_to == kept and sha256(kept) == damaged  # never deleted, never changed
    assert Path(f"{kept}-wal").read_bytes() == b"wal bytes"
    # the -shm moved too; it is SQLite's index of the -wal, rebuilt by any reader (the
    # read-only probe included), so only the -wal's bytes are the learner's data
    assert Path(f"{kept}-shm").exists()
    assert notice.backup == data_dir / "backups" / "progress-20261128.sqlite3"
    assert str(path) in notice.message and str(kept) in notice.message
    assert str(notice.backup) in notice.message
    assert store.sessions() == []  # a new, working file
    fill(store, n=1)
    store.close()
    assert integrity(path) == ["ok"]
    # the fresh file did not push a backup out: the session found damage, it made none
    assert [p.name for p in backups.list_backups(data_dir, path)] == [
        "progress-20261128.sqlite3", "progress-20261127.sqlite3"]

    replaced = backups.restore_backup(notice.backup, path, now=DAY3 + timedelta(minutes=5))
    assert replaced == data_dir / "progress.replaced-20261129-183500.sqlite3"
    assert answers_of(replaced) == [0]  # what was done after the damage is kept too
    assert len(answers_of(path)) == 300
    store, notices = opened(data_dir, DAY3)
    assert notices == [] and len(store.session_state(1).answers) == 31
    store.close()


def test_damaged_file_without_a_backup_says_so(data_dir):
    path = progress_path(data_dir)
    data_dir.mkdir()
    path.write_bytes(os.urandom(8192))
    store, notices = opened(data_dir)
    assert kinds(notices) == [CORRUPT] and notices[0].backup is None
    assert "No backup" in notices[0].message
    store.close()


def test_restore_refuses_a_damaged_backup(data_dir, tmp_path):
    bad = tmp_path / "progress-20261128.sqlite3"
    bad.write_bytes(os.urandom(4096))
    store, _ = opened(data_dir)
    store.close()
    before = sha256(progress_path(data_dir))
    with pytest.raises(ValueError, match="not a usable progress backup"):
        backups.restore_backup(bad, progress_path(data_dir))
    assert sha256(progress_path(data_dir)) == before


# --- 1b. a file from a newer examdesk ----------------------------------------------------
def test_too_new_file_stays_untouched_and_progress_goes_beside_it(data_dir):
    path = progress_path(data_dir)
    store, _ = opened(data_dir, DAY1)
    fill(store)
    store.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    digest = sha256(path)

    store, notices = opened(data_dir, DAY2)
    assert kinds(notices) == [TOO_NEW] and notices[0].path == path
    assert store.path == side_path(path) == data_dir / f"progress-schema{SCHEMA_VERSION}.sqlite3"
    assert str(path) in notices[0].message and str(store.path) in notices[0].message
    sid = fill(store, n=2)
    store.close()
    assert sha256(path) == digest
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0

    store, notices = opened(data_dir, DAY3)  # the next start reuses the side file
    assert kinds(notices) == [TOO_NEW]
    assert len(store.session_state(sid).answers) == 2
    store.close()
    assert sha256(path) == digest
    # the side file is backed up under its own name; the newer file never is
    assert [p.name for p in backups.list_backups(data_dir, store.path)] == [
        f"progress-schema{SCHEMA_VERSION}-20261129.sqlite3",
        f"progress-schema{SCHEMA_VERSION}-20261128.sqlite3"]
    assert [p.name for p in backups.list_backups(data_dir, path)] == ["progress-20261127.sqlite3"]


# --- 2. backups --------------------------------------------------------------------------
def test_backup_at_most_once_a_day_newest_seven_kept(data_dir):
    path = progress_path(data_dir)
    for day in range(10):
        store, notices = opened(data_dir, DAY1 + timedelta(days=day))
        assert notices == []
        store.start_session(paper_id="001", mode="practice", now=float(day))
        store.close()
        if day == 0:
            first = backups.list_backups(data_dir, path)[0]
            digest = sha256(first)
            store, _ = opened(data_dir, DAY1 + timedelta(hours=5))  # same day: no new copy
            store.close()
            assert backups.list_backups(data_dir, path) == [first] and sha256(first) == digest
    names = [p.name for p in backups.list_backups(data_dir, path)]
    expected = [f"progress-{(DAY1 + timedelta(days=d)):%Y%m%d}.sqlite3" for d in range(9, 2, -1)]
    assert names == expected
    newest = backups.list_backups(data_dir, path)[0]
    assert integrity(newest) == ["ok"]
    conn = sqlite3.connect(newest)
    assert conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 9  # day 9 not yet
    conn.close()


def test_backup_taken_while_another_thread_writes_is_a_consistent_snapshot(data_dir, tmp_path):
    path = progress_path(data_dir)
    store, _ = opened(data_dir)
    sid = store.start_session(paper_id="001", mode="practice")
    store.close()
    written = threading.Event()
    stop = threading.Event()
    errors: list[BaseException] = []
    count = [0]

    def write() -> None:
        writer = ProgressStore(path)  # its own connection, on its own thread
        try:
            while not stop.is_set():
                writer.record_answer(sid, "001/1", count[0], grade=None, seconds=1)
                count[0] += 1
                written.set()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test thread
            errors.append(exc)
        finally:
            writer.close()

    thread = threading.Thread(target=write)
    thread.start()
    try:
        assert written.wait(30)
        copies = []
        for i in range(15):
            dest = tmp_path / f"copy{i}.sqlite3"
            copy_database(path, dest)
            copies.append(dest)
    finally:
        stop.set()
        thread.join()
    assert errors == []
    seen = []
    for dest in copies:
        assert integrity(dest) == ["ok"]
        rows = answers_of(dest)
        assert rows == list(range(len(rows)))  # whole commits only, in order: a snapshot
        seen.append(len(rows))
    assert seen[0] >= 1 and seen == sorted(seen) and seen[-1] <= count[0]


def test_failed_backup_is_a_notice_and_the_store_still_works(data_dir):
    data_dir.mkdir()
    (data_dir / "backups").write_text("a file where the backup folder should be")
    store, notices = opened(data_dir)
    assert kinds(notices) == [BACKUP_FAILED]
    assert str(data_dir / "backups") in notices[0].message
    fill(store)
    store.close()


def test_newest_good_backup_skips_a_damaged_one(data_dir):
    path = progress_path(data_dir)
    for now in (DAY1, DAY2):
        store, _ = opened(data_dir, now)
        store.close()
    newest, older = backups.list_backups(data_dir, path)
    newest.write_bytes(os.urandom(4096))
    assert backups.newest_good_backup(data_dir, path) == older


# --- 3. two instances ----------------------------------------------------------------------
WRITER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from question_db.store import ProgressStore
    path, tag, n, folder = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    (folder / f"ready-{tag}").touch()
    while len(list(folder.glob("ready-*"))) < 2:  # start together: maximal overlap
        time.sleep(0.001)
    store = ProgressStore(path)  # both may create and migrate the same new file
    sid = store.start_session(paper_id=tag, mode="practice")
    for i in range(n):
        store.record_answer(sid, f"{tag}/{i % 7}", [tag, i], grade=None, seconds=i)
        store.save_draft(sid, f"{tag}/{i % 7}", i, seconds=i)
        store.set_flag(sid, f"{tag}/{i % 7}", i % 2 == 0)
    store.close()
    print("done", tag, sid)
""")


def test_two_processes_writing_the_same_file_lose_nothing(tmp_path):
    """Regression: with the deferred BEGIN of ``db.atomic()`` a writer whose read snapshot
    went stale failed at once with 'database is locked' (5 of 6 processes in 3 runs, and a
    lock at open was even reported as a damaged file); BEGIN IMMEDIATE waits its turn."""
    path = tmp_path / "progress.sqlite3"
    n = 300
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(n),
                               str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for tag in ("A", "B")]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert out.startswith("done")
    assert integrity(path) == ["ok"]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    sessions = dict(conn.execute("SELECT paper_id, id FROM sessions"))
    assert sorted(sessions) == ["A", "B"]
    for tag, sid in sessions.items():
        rows = [json.loads(r[0]) for r in conn.execute(
            "SELECT response FROM answers WHERE session_id = ? ORDER BY id", [sid])]
        assert rows == [[tag, i] for i in range(n)]
        assert conn.execute("SELECT count(*) FROM drafts WHERE session_id = ?",
                            [sid]).fetchone()[0] == 7
    conn.close()


def test_instance_lock_admits_one_holder_per_data_dir(data_dir, tmp_path):
    first, second = InstanceLock(data_dir), InstanceLock(data_dir)
    assert first.acquire() and first.held
    assert second.acquire() is False  # refused even inside one process
    assert second.holder_pid() == os.getpid()
    assert InstanceLock(tmp_path / "elsewhere").acquire()  # another data dir is independent
    first.release()
    assert second.acquire()
    second.release()


def _lock_holder(data_dir: Path) -> subprocess.Popen:
    """Another process holding ``data_dir``'s lock until killed (prints ``locked``)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom desktop.instance_lock import "
         "InstanceLock\nlock = InstanceLock(sys.argv[1])\nassert lock.acquire()\n"
         "print('locked', flush=True)\ntime.sleep(600)", str(data_dir)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert holder.stdout.readline().strip() == "locked"
    return holder


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)  # a crash: no clean-up code runs
    proc.wait()
    proc.stdout.close()


def test_instance_lock_dies_with_its_process(data_dir):
    first = _lock_holder(data_dir)
    try:
        lock = InstanceLock(data_dir)
        assert lock.acquire() is False
        assert lock.holder_pid() == first.pid
    finally:
        _kill(first)
    assert lock.holder_pid() == first.pid  # a crash leaves its PID: informational only
    second = _lock_holder(data_dir)  # no stale lock left behind: a new process gets it
    try:
        assert lock.acquire() is False
        assert lock.holder_pid() == second.pid  # the new holder's, not the dead one's
    finally:
        _kill(second)
    assert lock.acquire()  # and this one, once that one died too
    assert lock.holder_pid() == os.getpid()
    lock.release()
    assert not lock.path.exists()  # QLockFile removes its file on unlock


# --- 4. full disk, read-only folder --------------------------------------------------------
def test_full_database_raises_storage_full_and_rolls_back(data_dir):
    """PRAGMA max_page_count makes SQLite itself return SQLITE_FULL: portable, no mount."""
    store, _ = opened(data_dir)
    sid = fill(store, n=5)
    before = store.session_state(sid)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageFull) as err:
        store.record_answer(sid, "001/9", "x" * 50_000, grade=None, seconds=1)
    assert str(progress_path(data_dir)) in str(err.value) and "disk is full" in str(err.value)
    assert err.value.path == progress_path(data_dir)
    assert store.session_state(sid) == before  # nothing half-written
    assert not store.db.conn.in_transaction
    store.db.execute("PRAGMA max_page_count = 1073741823")  # space again
    store.record_answer(sid, "001/9", "x" * 50_000, grade=None, seconds=1)
    store.close()
    assert integrity(progress_path(data_dir)) == ["ok"]
    assert len(answers_of(progress_path(data_dir))) == 6


def test_full_database_through_the_worker_fails_the_future(data_dir):
    worker = progress_worker(data_dir, now=DAY3)
    try:
        assert worker.ready.result(30) == []  # the notices
        sid = worker.submit(lambda s: s.start_session(paper_id="001", mode="practice")).result()
        worker.submit(lambda s: s.db.execute(
            f"PRAGMA max_page_count = {s.db.execute('PRAGMA page_count').fetchone()[0]}"
        )).result()
        failed = worker.submit(ProgressStore.record_answer, sid, "001/1", "x" * 50_000,
                               grade=None, seconds=1)
        with pytest.raises(StorageFull):
            failed.result()
        small = worker.submit(lambda s: s.sessions()).result()  # the worker keeps going
        assert [s.id for s in small] == [sid]
    finally:
        assert worker.close(10)


@pytest.fixture
def small_disk(tmp_path):
    """A real 2 MiB filesystem (tmpfs), unmounted afterwards. (1 MiB left the 300 kB
    write below no room once freed when schema 3 added its pages to the WAL.)"""
    with mounted_tmpfs(tmp_path / "disk", "2m") as mnt:
        yield mnt


def fill_disk(folder: Path) -> Path:
    """Write zeros until the kernel says ENOSPC."""
    ballast = folder / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return ballast


def test_full_disk_fails_the_write_cleanly_and_recovers_when_space_frees(small_disk):
    data_dir = small_disk / "data"
    store, notices = opened(data_dir)
    assert kinds(notices) == [LOW_DISK]  # 1 MiB free: the learner is warned at start
    sid = fill(store, n=20)
    before = store.session_state(sid)
    ballast = fill_disk(small_disk)
    big = "y" * 300_000  # more pages than the WAL already holds: the WAL must grow
    with pytest.raises(StorageFull, match="disk is full"):
        store.record_answer(sid, "001/30", big, grade=None, seconds=1)
    assert store.session_state(sid) == before
    assert integrity(progress_path(data_dir)) == ["ok"]
    ballast.unlink()
    store.record_answer(sid, "001/30", big, grade=None, seconds=1)  # works again
    store.close()
    rows = answers_of(progress_path(data_dir))
    assert rows[:20] == list(range(20)) and rows[20:] == [big]


def test_disk_too_full_to_create_the_file_starts_read_only(small_disk):
    data_dir = small_disk / "data"
    data_dir.mkdir()
    ballast = fill_disk(small_disk)
    store, notices = opened(data_dir)
    assert kinds(notices)[0] == DISK_FULL, notices
    assert store.read_only and store.sessions() == []
    with pytest.raises(StorageReadOnly, match="read-only"):
        store.start_session(paper_id="001", mode="practice")
    store.close()
    ballast.unlink()
    store, notices = opened(data_dir)  # once there is space, a normal start
    assert LOW_DISK in kinds(notices) and not store.read_only
    fill(store)
    store.close()


def test_read_only_mount_shows_saved_progress_and_refuses_writes(small_disk):
    data_dir = small_disk / "data"
    store, _ = opened(data_dir)
    sid = fill(store, n=4)
    expected = store.session_state(sid)
    store.close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    store, notices = opened(data_dir)
    assert kinds(notices) == [READ_ONLY] and str(data_dir) in notices[0].message
    assert store.read_only
    assert store.session_state(sid) == expected  # read through immutable=1: no -shm needed
    with pytest.raises(StorageReadOnly) as err:
        store.record_answer(sid, "001/1", "C", grade=None, seconds=1)
    assert str(progress_path(data_dir)) in str(err.value)
    assert store.session_state(sid) == expected
    store.close()


PERMISSIONS_SCENARIO = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from question_db.recovery import open_progress
    from question_db.sqlite_file import StorageReadOnly
    store, notices = open_progress(Path(sys.argv[1]))
    result = {"kinds": [n.kind for n in notices], "read_only": store.read_only,
              "answers": len(store.session_state(1).answers)}
    try:
        store.record_answer(1, "001/1", "C", grade=None, seconds=1)
    except StorageReadOnly as exc:
        result["write"] = str(exc)
    store.close()
    print(json.dumps(result))
""")


def test_read_only_folder_by_permissions(tmp_path):
    """chmod 0555: what a learner meets on a folder they may not write. Root ignores
    permissions, so as root the scenario runs without CAP_DAC_OVERRIDE (setpriv)."""
    data_dir = tmp_path / "data"
    store, _ = opened(data_dir)
    fill(store, n=4)
    store.close()
    progress_path(data_dir).chmod(0o444)
    data_dir.chmod(0o555)
    command = [sys.executable, "-c", PERMISSIONS_SCENARIO, str(data_dir)]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("as root this needs setpriv to drop CAP_DAC_OVERRIDE")
        caps = "-dac_override,-dac_read_search,-fowner"
        command = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", *command]
    digest = sha256(progress_path(data_dir))
    try:
        proc = subprocess.run(command, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    finally:
        data_dir.chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["kinds"] == [READ_ONLY] and result["read_only"]
    assert result["answers"] == 4
    assert "read-only" in result["write"] and str(progress_path(data_dir)) in result["write"]
    assert sha256(progress_path(data_dir)) == digest
    assert sorted(p.name for p in data_dir.iterdir()) == ["backups", "progress.sqlite3"]


@pytest.mark.slow  # two 5 s lock waits (busy timeouts), as the app would wait
def test_a_locked_file_is_not_mistaken_for_a_damaged_one(data_dir):
    """Regression: 'database is locked' at open was reported as CorruptDatabase, and
    recovery would have moved a healthy file aside."""
    path = progress_path(data_dir)
    store, _ = opened(data_dir)
    fill(store)
    store.close()
    holder = sqlite3.connect(path)  # another program holding the file exclusively
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store, notices = opened(data_dir)
        assert [n.kind for n in notices] == ["storage"], notices
        assert "locked" in notices[0].message and str(path) in notices[0].message
        assert store.read_only
        store.close()
        assert sorted(p.name for p in data_dir.iterdir() if p.name.startswith("progress")) == [
            "progress.sqlite3", "progress.sqlite3-wal"]  # nothing set aside
    finally:
        holder.close()
    assert answers_of(path) == [0, 1, 2]
