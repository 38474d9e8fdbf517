"""Where kernel files live (question_db/kernels.py ``runtime_dir``): a folder only this user
can enter, because a connection file's key lets anyone run code in the kernel and the app
kernelspec there is what gets executed. Real folders, real modes; the last tests start real kernels."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from question_db import kernels

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX owners and modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_the_runtime_dir_is_private_and_under_the_jupyter_runtime_dir(runtime_root):
    folder = kernels.runtime_dir()
    assert folder == runtime_root / "examdesk"
    if os.name == "posix":
        assert _mode(folder) == 0o700 and folder.lstat().st_uid == os.getuid()
    log = kernels.new_log_file()
    assert log.parent == folder and log.read_bytes() == b""
    if os.name == "posix":
        assert _mode(log) == 0o600  # a kernel's output is the learner's business
    log.unlink()


@posix_only
def test_xdg_runtime_dir_is_preferred_where_the_session_has_one(runtime_root, monkeypatch):
    if sys.platform == "darwin":
        pytest.skip("macOS has no XDG runtime dir")
    xdg = runtime_root / "xdg"  # short: a long one is refused (ipc socket paths)
    xdg.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(xdg))
    assert kernels.runtime_dir() == xdg / "examdesk"


@posix_only
def test_a_precreated_world_writable_runtime_dir_is_not_used(runtime_root, caplog):
    """Another user (or an old umask) made the folder writable by all and planted a
    kernelspec that would run their code as the learner: it is moved aside, unread."""
    planted = runtime_root / "examdesk"
    (planted / "kernels" / kernels.APP_KERNEL).mkdir(parents=True)
    evil = planted / "kernels" / kernels.APP_KERNEL / "kernel.json"
    evil_text = json.dumps({"argv": ["/bin/sh", "-c", "echo pwned"], "language": "python",
                            "display_name": "x"})
    evil.write_text(evil_text)
    os.chmod(planted, 0o777)
    folder = kernels.runtime_dir()
    assert _mode(folder) == 0o700
    assert not (folder / "kernels").exists()  # nothing of the planted folder is used
    spec = json.loads((kernels.app_kernelspec_dir() / kernels.APP_KERNEL / "kernel.json")
                      .read_text())
    assert spec["argv"][0] == sys.executable
    aside = [p for p in runtime_root.iterdir() if p.name.startswith("examdesk.untrusted-")]
    assert len(aside) == 1 and (aside[0] / "kernels" / kernels.APP_KERNEL / "kernel.json"
                                ).read_text() == evil_text
    assert "could be written by other users" in caplog.text


@posix_only
def test_a_runtime_dir_owned_by_another_user_is_refused(runtime_root, caplog):
    if os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root (CI runs as root)")
    theirs = runtime_root / "examdesk"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)  # nobody
    folder = kernels.runtime_dir()
    try:
        assert folder != theirs and not folder.is_relative_to(theirs)
        assert _mode(folder) == 0o700 and folder.lstat().st_uid == os.getuid()
        assert "belongs to user id 65534" in caplog.text
    finally:
        if folder.name.startswith("examdesk-"):  # this run's mkdtemp fallback
            import shutil
            shutil.rmtree(folder, ignore_errors=True)


@posix_only
def test_a_symlinked_runtime_dir_is_refused(runtime_root, tmp_path, caplog):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (runtime_root / "examdesk").symlink_to(elsewhere)
    folder = kernels.runtime_dir()
    try:
        assert folder != runtime_root / "examdesk" and elsewhere not in folder.parents
        assert "not a folder" in caplog.text
    finally:
        if folder.name.startswith("examdesk-"):
            import shutil
            shutil.rmtree(folder, ignore_errors=True)


@posix_only
def test_files_left_by_an_examdesk_that_no_longer_runs_are_swept(runtime_root):
    """kill -9 of examdesk: its kernel exits by itself (parent poller), its files stay; the
    next examdesk removes them. Files of running processes (this one, others) stay."""
    folder = runtime_root / "examdesk"
    folder.mkdir(mode=0o700)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(gone.stdout)
    stale = [f"kernel-{dead}-0123456789ab.log", f"kernel-{dead}-0123456789ab.json",
             f"ipc-{dead}-0123456789ab-3"]
    alive = [f"kernel-{os.getpid()}-0123456789ab.log", f"kernel-{os.getppid()}-abcdefabcdef.log",
             "kernel-not-ours.json", "notes.txt"]
    for name in stale + alive:
        (folder / name).write_text("")
    assert kernels.sweep_stale_files(folder) == len(stale)
    assert sorted(p.name for p in folder.iterdir()) == sorted(alive)


def test_the_transport_is_ipc_on_posix_and_tcp_on_windows():
    from jupyter_client import KernelManager

    km = KernelManager()
    kernels.configure_manager(km)
    if os.name == "posix":
        assert km.transport == "ipc" and km.ip.startswith(str(kernels.runtime_dir()))
    else:
        assert km.transport == "tcp"
    assert Path(km.connection_file).parent == kernels.runtime_dir()


@pytest.mark.kernel
def test_the_cli_runner_checks_in_a_running_kernel_and_leaves_it_running(tmp_path):
    """``question-db check --kernel connect:FILE``: the kernel kind for a remote GPU box.
    The harness travels as code, so the kernel needs no examdesk; ours is not killed."""
    from jupyter_client import KernelManager

    from question_db.checks.runner import run_in_fresh_kernel
    from test_console import TOY_SOLUTION, toy_question

    km = KernelManager()
    kernels.configure_manager(km)
    km.start_kernel(stderr=subprocess.DEVNULL)
    try:
        suite = ("from _examdesk_harness import check\n"
                 "@check('answers')\n"
                 "def answers(ctx):\n"
                 "    ctx.expect(ctx.get('answer')() == 42, 'answer() must return 42')\n")
        report = run_in_fresh_kernel(toy_question(tmp_path, suite), TOY_SOLUTION,
                                     kernel_name=kernels.CONNECT_PREFIX + km.connection_file)
        assert report.passed and [c["name"] for c in report.checks] == ["answers"]
        assert km.is_alive()
    finally:
        km.shutdown_kernel(now=True)
        km.cleanup_resources()
        kernels.remove_pipe_socket(km.ip)  # a bare manager knows only the five channels


# --- nothing reachable by other users, a log that cannot fill the disk (issue 28, item 12) --

def _run_in(kc, code: str) -> list[str]:
    """Execute ``code``; what it printed (forked children included), in order."""
    printed: list[str] = []
    reply = kc.execute_interactive(
        code, timeout=120, output_hook=lambda msg: printed.append(msg["content"]["text"])
        if msg["msg_type"] == "stream" else None)
    assert reply["content"]["status"] == "ok", reply["content"]
    return printed


@pytest.fixture
def app_kernel():
    """The app kernel as the console starts it (a blocking client), shut down after."""
    km, log_path = kernels.start_managed_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        yield km, kc, log_path
    finally:
        kernels.shutdown_kernel(km, kc)
        kernels.remove_log(log_path)


@pytest.mark.kernel
@pytest.mark.skipif(sys.platform not in ("linux", "darwin"), reason="ipc is POSIX-only")
def test_the_app_kernel_listens_on_no_network_port(app_kernel):
    """ipykernel's IOPub pipe (output of forked children) listened on 127.0.0.1 and printed
    every junk message to the kernel's log: any local user could fill the disk (82 MB in
    9 s). Every socket is an ipc file in the private runtime folder now."""
    import psutil

    km, kc, _ = app_kernel
    info = json.loads(Path(km.connection_file).read_text())
    assert info["transport"] == "ipc" and info["ip"].startswith(str(kernels.runtime_dir()))
    launcher = psutil.Process(km.provisioner.pid)
    processes = [launcher, *launcher.children(recursive=True)]
    listening = [(p.pid, c.laddr) for p in processes for c in p.net_connections("inet")
                 if c.status == psutil.CONN_LISTEN or c.type == 2]  # 2: SOCK_DGRAM
    assert listening == []
    assert any("kernel_boot.py" in " ".join(p.cmdline()) for p in processes)
    # the pipe still carries a forked child's output, now over ipc
    printed = _run_in(kc, "import os, sys\n"
                          "pid = os.fork()\n"
                          "if pid == 0:\n"
                          "    print('from the forked child', flush=True)\n"
                          "    os._exit(0)\n"
                          "os.waitpid(pid, 0)\n")
    assert "from the forked child" in "".join(printed)


@pytest.mark.kernel
@pytest.mark.skipif(not kernels.USES_REAPER, reason="the reaper caps the log (Linux)")
def test_twenty_megabytes_on_the_kernels_stderr_leave_the_log_under_its_cap(app_kernel):
    from question_db.kernel_reaper import LOG_CAP_BYTES

    km, kc, log_path = app_kernel
    # the kernel's real stderr: fd 2, or the copy ipykernel keeps of it when it sends fd 2
    # to the console (and echoes it here) — not under pytest (PYTEST_CURRENT_TEST)
    _run_in(kc, "import os, sys\n"
                "fd = getattr(sys.stderr, '_original_stdstream_copy', 2)\n"
                "line = b'x' * 1023 + b'\\n'\n"
                "for i in range(20 * 1024):\n"
                "    os.write(fd, line)\n"
                "os.write(fd, b'the last line\\n')\n")
    rotated = Path(f"{log_path}.1")
    assert wait_for(lambda: "the last line" in kernels.tail(log_path, 1))
    assert log_path.stat().st_size <= LOG_CAP_BYTES
    assert rotated.exists() and rotated.stat().st_size <= LOG_CAP_BYTES
    assert _run_in(kc, "print(6 * 7)") == ["42\n"]  # it never blocked on its output


def wait_for(condition, timeout: float = 30.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()
