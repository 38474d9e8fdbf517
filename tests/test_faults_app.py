"""Start-up and saving under faults, through the real app: a second launch on the same data
folder, a damaged progress file, a read-only disk, a full disk while answering.

Real processes (``python -m desktop``) where the OS is part of the fault, real windows
(pytest-qt, offscreen) over ``desktop.app.start_app`` otherwise. The full disk is SQLite's
own ``PRAGMA max_page_count`` (portable, as in tests/test_faults_db.py); the read-only disk
is a real tmpfs remounted read-only (root only, skipped elsewhere with the reason).
"""
from __future__ import annotations

import functools
import os
import signal
import socket as socket_module
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from conftest import mounted_tmpfs
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtWidgets import QMessageBox

import desktop.app as app_module
from desktop.app import RunningApp, build_app
from desktop.config import Options
from desktop.single_instance import SingleInstance, ask_owner_to_activate, server_name
from desktop.views.exam import ExamView
from desktop.views.report import ReportView
from question_db import recovery
from desktop.instance_lock import InstanceLock
from question_db.kernels import runtime_dir
from question_db.logs import log_file
from question_db.paths import progress_path
from question_db.recovery import open_progress

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]
READY_S = 60


def integrity(path: Path) -> str:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def _drain_deletes() -> None:
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.processEvents()


@pytest.fixture
def start(qtbot, tmp_path):
    """Factory: ``start(data_dir)`` runs what ``desktop.app.main`` runs before its event
    loop (instance lock, recovery, window, bank), without a kernel; torn down afterwards."""
    started: list[tuple[SingleInstance, RunningApp]] = []

    def make(data_dir: Path) -> RunningApp:
        instance = SingleInstance(data_dir)
        assert instance.acquire()
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        running = build_app(Options(data_dir=data_dir, no_kernel=True), settings=settings)
        started.append((instance, running))
        qtbot.waitUntil(lambda: bool(running.window.bank.papers), timeout=READY_S * 1000)
        return running

    yield make
    for instance, running in started:
        for box in running.window.findChildren(QMessageBox):
            box.close()
        running.window.close()
        running.shutdown()
        running.window.deleteLater()
        running.db.deleteLater()
        instance.release()
        instance.deleteLater()
        _drain_deletes()


def spawn_app(data_dir: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop", "--data-dir", str(data_dir), "--no-kernel",
         "--bench-ready"], cwd=REPO, stdout=subprocess.PIPE, stderr=log.open("wb"),
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, text=True)


def wait_library(proc: subprocess.Popen) -> None:
    end = time.monotonic() + READY_S
    for line in proc.stdout:
        if line.startswith("LIBRARY_READY"):
            return
        assert time.monotonic() < end, "the first examdesk never showed its library"
    raise AssertionError(f"the first examdesk exited with {proc.wait()}")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGCONT)
        proc.terminate()
    proc.wait(30)
    proc.stdout.close()


def listing(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


# --- 1. one examdesk per data folder ----------------------------------------------------------
def test_second_launch_brings_the_first_forward_and_exits_0(tmp_path):
    data = tmp_path / "data"
    first = spawn_app(data, tmp_path / "first.log")
    try:
        wait_library(first)
        # The library can show before the store has opened (the bank loads beside it):
        # wait for the first instance's own files (database, daily backup, log) to settle.
        end = time.monotonic() + READY_S

        def backup_done() -> bool:  # written as .partial first, then renamed
            names = [p.name for p in (data / "backups").glob("*")]
            return bool(names) and not any(".partial" in n for n in names)

        while not (progress_path(data).exists() and backup_done()
                   and log_file(data).exists()):
            assert time.monotonic() < end, "the first examdesk never opened its store"
            time.sleep(0.05)
        # It goes on to build its search index (cache/search.sqlite3*) when idle: under load
        # that lands after any fixed wait, so wait until its folder has been still for 1 s.
        files, still_since = listing(data), time.monotonic()
        while not any(name.startswith("cache/search") for name in files) \
                or time.monotonic() - still_since < 1.0:
            assert time.monotonic() < end, f"the first examdesk never settled: {sorted(files)}"
            time.sleep(0.1)
            if (now := listing(data)) != files:
                files, still_since = now, time.monotonic()
        second = subprocess.run(
            [sys.executable, "-m", "desktop", "--data-dir", str(data), "--no-kernel"],
            cwd=REPO, capture_output=True, text=True, timeout=READY_S,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        assert second.returncode == 0, second.stderr
        assert "brought its window forward" in second.stderr
        assert first.poll() is None  # the first one runs on
        assert listing(data) == files  # the second wrote nothing: no second store, no backup
    finally:
        stop(first)
    assert "asked for this window" in (tmp_path / "first.log").read_text()
    assert integrity(progress_path(data)) == "ok"
    lock = InstanceLock(data)
    assert lock.acquire()  # the lock went with the first process
    lock.release()


def test_second_launch_says_so_when_the_first_does_not_answer(tmp_path, monkeypatch):
    """The first examdesk is hung (SIGSTOP): the second one must not open the file too, and
    must tell the learner which process holds the folder."""
    data = tmp_path / "data"
    first = spawn_app(data, tmp_path / "first.log")
    try:
        wait_library(first)
        first.send_signal(signal.SIGSTOP)
        told: list[str] = []
        monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
        monkeypatch.setattr(app_module, "ask_owner_to_activate",
                            functools.partial(ask_owner_to_activate, window_s=1.0))
        second = SingleInstance(data)
        assert not second.acquire()
        assert app_module.refuse_second_launch(data, second) == 1
        second.deleteLater()
    finally:
        stop(first)
    assert told and str(data) in told[0] and str(first.pid) in told[0]
    assert "does not answer" in told[0]


SQUATTER = r"""
import os, socket, sys
path, uid = sys.argv[1], int(sys.argv[2])
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
if uid >= 0:
    os.setuid(uid)  # SO_PEERCRED reports the listener as of listen(): this user
server.listen(4)
print("LISTENING", flush=True)
while True:
    peer, _ = server.accept()
    peer.recv(64)
    peer.sendall(b"ok\n")  # "brought forward", whatever was asked
    peer.close()
"""


@pytest.fixture
def squatter():
    """Factory: ``squatter(path, uid=-1)`` runs a process that answers examdesk's
    "activate" with "ok" on a Unix socket at ``path``, listening as user ``uid`` (root
    only; -1: this user); killed afterwards."""
    procs: list[subprocess.Popen] = []

    def make(path: str, uid: int = -1) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-c", SQUATTER, path, str(uid)],
                                stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        assert proc.stdout.readline() == "LISTENING\n"
        return proc

    yield make
    for proc in procs:
        proc.kill()
        proc.wait(30)
        proc.stdout.close()


def second_launch_exit_code(data: Path, monkeypatch) -> tuple[int, list[str]]:
    """What a second launch on ``data`` returns while this process owns the folder's lock
    (and listens nowhere), and the warnings it showed."""
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: told.append(a[2]))
    monkeypatch.setattr(app_module, "ask_owner_to_activate",
                        functools.partial(ask_owner_to_activate, window_s=1.0))
    first, second = SingleInstance(data), SingleInstance(data)
    try:
        assert first.acquire() and not second.acquire()
        return app_module.refuse_second_launch(data, second), told
    finally:
        first.release()
        first.deleteLater()
        second.deleteLater()


def test_a_socket_squatted_at_the_old_shared_name_is_never_asked(tmp_path, squatter,
                                                                  monkeypatch):
    """Regression (issue 28, item 13): the socket was named examdesk-<hash of the data
    folder> in the shared temp folder, so another user could listen there first, answer
    "ok", and the second launch exited 0 saying it brought a window forward that never
    came. Now the socket is in the private runtime folder: the squatter is not asked."""
    import hashlib

    from PySide6.QtCore import QDir

    data = tmp_path / "data"
    data.mkdir()
    digest = hashlib.sha256(str(data.resolve()).encode()).hexdigest()[:16]
    old_name = Path(QDir.tempPath()) / f"examdesk-{digest}"
    try:
        squatter(str(old_name))
        code, told = second_launch_exit_code(data, monkeypatch)
    finally:
        old_name.unlink(missing_ok=True)
    assert code == 1 and told and "does not answer" in told[0]
    assert Path(server_name(data)).parent == runtime_dir()


def test_an_answer_from_another_user_s_process_is_refused(tmp_path, squatter, monkeypatch,
                                                          caplog):
    """The socket's own path, served by a process of another user (root can fake one:
    bind, drop to nobody, listen): SO_PEERCRED says so and the launch does not trust it."""
    if os.geteuid() != 0 or not hasattr(socket_module, "SO_PEERCRED"):
        pytest.skip("needs root (to listen as another user) and SO_PEERCRED (Linux)")
    data = tmp_path / "data"
    data.mkdir()
    squatter(server_name(data), uid=65534)
    code, told = second_launch_exit_code(data, monkeypatch)
    assert code == 1 and told and "does not answer" in told[0]
    assert "is served by a process of user id 65534, not by you (0)" in caplog.text


def test_an_answer_from_this_user_s_process_is_taken(tmp_path, squatter):
    """The uid check passes a listener of this user (what a real first examdesk is)."""
    data = tmp_path / "data"
    data.mkdir()
    squatter(server_name(data))
    assert ask_owner_to_activate(data, window_s=1.0)


# --- 2. a damaged progress file at start ------------------------------------------------------
def test_damaged_progress_file_starts_the_app_keeps_the_file_and_restores_the_backup(
        start, qtbot, tmp_path, monkeypatch):
    data = tmp_path / "data"
    store, _ = open_progress(data, now=datetime(2024, 1, 1))
    session = store.start_session(paper_id="000", mode="exam", duration_s=3600)
    store.save_draft(session, "000/1", "C", seconds=5.0)
    store.close()
    store, _ = open_progress(data)  # today's backup now holds the exam
    store.close()
    path = progress_path(data)
    damaged = b"examdesk test: this is not SQLite any more " * 100
    path.write_bytes(damaged)

    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    running = start(data)
    notices = running.notices
    qtbot.waitUntil(lambda: notices.box is not None and notices.box.isVisible())
    box = notices.box
    assert not box.isModal() or box.windowModality() != Qt.WindowModality.ApplicationModal
    kept = next(data.glob("progress.corrupt-*.sqlite3"))
    assert kept.read_bytes() == damaged  # kept unchanged, beside the new file
    assert path.exists() and integrity(path) == "ok"
    assert "damaged" in box.text() and str(kept) in box.text()
    assert "backup is available" in box.text()
    assert running.window.library.isVisible()  # the app is usable meanwhile
    assert asked == []  # the new file has no unfinished exam

    restore = next(b for b in box.buttons() if b.objectName() == "restore_backup")
    with qtbot.waitSignal(notices.sig_restored, timeout=READY_S * 1000):
        qtbot.mouseClick(restore, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked))  # the restored exam is offered for resume
    assert "unfinished exam" in asked[0]
    state = running.db.run(lambda store: store.session_state(session)).result(10)
    assert state.drafts == {"000/1": "C"}
    assert next(data.glob("progress.replaced-*.sqlite3")).exists()  # the new file, kept
    assert kept.read_bytes() == damaged


def test_too_new_progress_file_is_left_alone_and_said(start, qtbot, tmp_path):
    data = tmp_path / "data"
    store, _ = open_progress(data)
    store.close()
    path = progress_path(data)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()
    running = start(data)
    qtbot.waitUntil(lambda: running.notices.box is not None)
    assert "newer version of examdesk" in running.notices.box.text()
    assert str(recovery.side_path(path)) in running.notices.box.text()
    assert path.read_bytes() == before


# --- 3. read-only disk, full disk ------------------------------------------------------------
@pytest.fixture
def read_only_disk(tmp_path):
    """A real tmpfs holding a progress file with one practice answer, remounted read-only."""
    with mounted_tmpfs(tmp_path / "disk", "4m") as mnt:
        store, _ = open_progress(mnt / "data")
        session = store.start_session(paper_id="000", mode="practice")
        store.record_answer(session, "000/1", "A", grade=None, seconds=3.0)
        store.close()
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        yield mnt / "data"


def test_read_only_disk_starts_shows_saved_progress_and_refuses_writes(
        start, qtbot, read_only_disk):
    running = start(read_only_disk)
    qtbot.waitUntil(lambda: running.notices.box is not None)
    assert "read-only" in running.notices.box.text()
    assert str(read_only_disk) in running.notices.box.text()
    sessions = running.db.run(lambda store: store.sessions()).result(10)
    assert [s.mode for s in sessions] == ["practice"]  # what was saved is there to see
    running.window.start_exam("000", 3600)
    warning = running.window.storage_warning
    qtbot.waitUntil(lambda: warning.box is not None and warning.box.isVisible())
    assert "read-only" in warning.box.text()
    assert not isinstance(running.window.screen_view, ExamView)


def test_read_only_disk_opens_practice_for_reading_and_says_why(start, qtbot,
                                                               read_only_disk):
    """Issue 28, item 15: opening practice on a read-only data folder said "What you just
    entered was not saved" (nothing was entered) and opened nothing. Now the paper opens to
    be read, with what was saved before, and the screen names the read-only folder; nothing
    is written, so no "not saved" warning comes, not even after typing."""
    from desktop.views.practice import PracticeView

    running = start(read_only_disk)
    qtbot.waitUntil(lambda: running.notices.box is not None)
    running.notices.box.close()
    window = running.window
    before = listing(read_only_disk)
    for paper_id in ("000", "001"):  # with a stored practice session, and without one
        window.open_practice(paper_id)
        qtbot.waitUntil(lambda: isinstance(window.screen_view, PracticeView)
                        and window.screen_view.paper.id == paper_id, timeout=10_000)
        view = window.screen_view
        banner = view.unsaved_banner
        assert not banner.isHidden() and "read-only" in banner.text()
        assert str(read_only_disk) in banner.text()
        assert view.page(view.current).question.stem  # the question is there to read
        assert not view.submit_button.isEnabled()
        if paper_id == "000":  # what was saved before is shown
            assert view.responses.get("000/1") is not None
        view.go_to(1)
        page = view.current_page()
        if page.question.type == "fill_blank":
            qtbot.keyClicks(page.answer.edits[0], "typed")
        view.show_answer()  # the key is shown, nothing stored
        assert page.revealed
        view.save_drafts()
        view.go_to(2)
        qtbot.waitUntil(lambda: running.db.pending == 0, timeout=10_000)
        assert window.storage_warning.shown == [] and window.storage_warning.box is None
        assert window.errors == []
        window.go_library()
    assert listing(read_only_disk) == before


def test_full_disk_while_answering_keeps_the_answer_on_screen_and_saves_it_later(
        start, qtbot, tmp_path):
    data = tmp_path / "data"
    running = start(data)
    window = running.window
    window.start_exam("000", 3600)
    qtbot.waitUntil(lambda: isinstance(window.screen_view, ExamView))
    view = window.screen_view
    index = next(i for i, q in enumerate(view.questions) if q.type == "programming")
    view.go_to(index)
    editor = view.current_page().answer.editor
    running.db.run(lambda store: store.db.execute(
        f"PRAGMA max_page_count = {store.db.execute('PRAGMA page_count').fetchone()[0]}")
    ).result(10)  # the file may not grow by a single page: a full disk, for SQLite
    pasted = "\n".join(f"weights_{i} = torch.zeros(4096)  # pasted" for i in range(1500))
    editor.setFocus()
    editor.insertPlainText(pasted)  # a paste too big for the pages the file has left

    warning = window.storage_warning
    qtbot.waitUntil(lambda: warning.box is not None and warning.box.isVisible(), timeout=5000)
    assert "disk is full" in warning.box.text()
    assert "stay on screen" in warning.box.text()
    assert pasted in editor.toPlainText()  # nothing lost on screen
    qid = view.question_id(index)
    assert qid in view._dirty  # and queued to be saved again
    state = running.db.run(lambda store: store.session_state(view.session_id)).result(10)
    assert qid not in state.drafts

    # Submitting on a full disk fails cleanly: the exam stays open and editable.
    view.submit()
    qtbot.waitUntil(lambda: not view.submitting, timeout=5000)
    assert window.screen_view is view and view.submit_button.isEnabled()
    assert not editor.isReadOnly() and len(warning.shown) >= 2

    running.db.run(lambda store: store.db.execute("PRAGMA max_page_count = 1073741823")
                   ).result(10)  # space again
    view.go_to(next(i for i, q in enumerate(view.questions) if q.type == "fill_blank"))
    blank = view.current_page().answer.edits[0]
    qtbot.keyClicks(blank, "LoRA")  # the next change saves everything still unsaved
    qtbot.waitUntil(lambda: not view._dirty and running.db.pending == 0, timeout=5000)
    state = running.db.run(lambda store: store.session_state(view.session_id)).result(10)
    assert pasted in state.drafts[qid]["code"]
    assert state.drafts[view.question_id(view.current)]["blanks"][0] == "LoRA"
    view.submit()
    qtbot.waitUntil(lambda: isinstance(window.screen_view, ReportView), timeout=10_000)
    report = window.screen_view.report
    assert report.state == "submitted"
    assert shiboken6.isValid(window)
    assert integrity(progress_path(data)) == "ok"


def test_full_disk_on_a_practice_submit_keeps_it_editable_and_stores_nothing(
        start, qtbot, tmp_path):
    """A practice answer is one action and one transaction: on a full disk (SQLite may not
    grow the file by a page) neither the answer, its draft nor a review is stored, no
    verdict is shown for it, the answer stays editable, and the learner is told; once there
    is space, the same submit stores it."""
    from desktop.views.practice import PracticeView

    data = tmp_path / "data"
    running = start(data)
    window = running.window
    window.open_practice("000")
    qtbot.waitUntil(lambda: isinstance(window.screen_view, PracticeView))
    view = window.screen_view
    index = next(i for i, q in enumerate(view.questions) if q.type == "short_answer")
    view.go_to(index)
    page = view.current_page()
    qtbot.waitUntil(lambda: running.db.pending == 0)
    running.db.run(lambda store: store.db.execute(
        f"PRAGMA max_page_count = {store.db.execute('PRAGMA page_count').fetchone()[0]}")
    ).result(10)
    essay = "\n".join(f"第{i}点：低秩分解 W = W0 + BA，只训练 A、B。" for i in range(3000))
    page.answer.text.setPlainText(essay)  # too big for the pages the file has left
    view.submit_current()
    warning = window.storage_warning
    qtbot.waitUntil(lambda: warning.box is not None and warning.box.isVisible(), timeout=5000)
    assert "disk is full" in warning.box.text()
    assert not page.feedback.isVisible() and "Not saved" in page.verdict.text()
    assert not page.answer.text.isReadOnly() and view.submit_button.isEnabled()
    assert page.answer.text.toPlainText() == essay
    qid = view.question_id(index)
    counts = running.db.run(lambda store: [store.db.execute(
        f"SELECT COUNT(*) FROM {t} WHERE question_id = ?", [qid]).fetchone()[0]
        for t in ("answers", "drafts", "reviews")]).result(10)
    assert counts == [0, 0, 0]

    running.db.run(lambda store: store.db.execute("PRAGMA max_page_count = 1073741823")
                   ).result(10)  # space again
    view.submit_current()
    qtbot.waitUntil(lambda: page.feedback.isVisible(), timeout=5000)
    state = running.db.run(lambda store: store.session_state(view.session_id)).result(10)
    assert state.answers[qid].response["text"] == essay
    assert integrity(progress_path(data)) == "ok"
