"""Processes started by learner code never outlive the kernel (issue 28, item 9): not after a
restart, a quit, a kill -9 of examdesk, nor a kill -9 of everything (then the next launch's
sweep kills them). Real kernels, real processes, real /proc; nothing is mocked.

The processes in question left the kernel's process group (``start_new_session=True``, a
daemon that called ``os.setsid``): killing the group, as a restart does, misses them, and
ipykernel's own shutdown only terminates children in its group.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from test_console import START_MS, make_dock, ready, run, settings, user_expression  # noqa: F401

from desktop.console import kernel_session as ks
from question_db import kernel_reaper, kernels

pytestmark = [pytest.mark.kernel,
              pytest.mark.skipif(not kernels.USES_REAPER,
                                 reason="the kernel's subreaper is Linux-only (prctl, /proc)")]

REPO = Path(__file__).resolve().parents[1]
# One child in a new session, one daemon whose parent called setsid and exited (so it is
# nobody's child in the kernel's tree any more, and in no group the kernel knows).
SPAWN_ESCAPEES = (
    "import subprocess, sys\n"
    "detached = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
    "_daemon = ('import os, subprocess; os.setsid(); '\n"
    "           'print(subprocess.Popen([\"sleep\", \"301\"], stdout=-3, stderr=-3).pid)')\n"
    "daemon = int(subprocess.run([sys.executable, '-c', _daemon], capture_output=True,\n"
    "                            text=True, check=True).stdout)\n"
)
# What the entry point runs before its window: the app kernel, spawned (console/prelaunch).
STAND_IN_APP = ("import time\n"
                "from desktop.console.prelaunch import prelaunch_app_kernel\n"
                "early = prelaunch_app_kernel()\n"
                "print(early.connection_file, flush=True)\n"
                "time.sleep(600)\n")


def running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def settle(condition, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()


def spawn_escapees(qtbot, dock) -> list[int]:
    assert run(qtbot, dock, SPAWN_ESCAPEES)["status"] == "ok"
    pids = [int(user_expression(dock.session, "detached.pid")),
            int(user_expression(dock.session, "daemon"))]
    assert all(running(pid) for pid in pids)
    kernel_tree = {p.pid for p in psutil.Process(dock.session.manager.provisioner.pid)
                   .children(recursive=True)}
    assert set(pids) <= kernel_tree  # the daemon came back to the reaper, not to init
    assert all(os.getpgid(pid) != dock.session.manager.provisioner.pgid for pid in pids)
    return pids


@pytest.mark.gui
def test_restart_and_quit_kill_what_left_the_process_group(qtbot, ready):
    dock, _, _ = ready
    pids = spawn_escapees(qtbot, dock)
    with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
        dock.session.restart()
    assert settle(lambda: not any(running(pid) for pid in pids)), pids

    pids = spawn_escapees(qtbot, dock)
    dock.shutdown()
    assert dock.session.state == ks.DISCONNECTED
    assert settle(lambda: not any(running(pid) for pid in pids)), pids


class StandInApp:
    """A process that spawns the app kernel as the entry point does, then only waits; and a
    client of that kernel (the test's, not the app's)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", STAND_IN_APP], cwd=REPO,
                                        stdout=subprocess.PIPE, text=True)
        self.connection_file = Path(self.process.stdout.readline().strip())
        assert self.connection_file.name.startswith(f"kernel-{self.process.pid}-")
        from jupyter_client import BlockingKernelClient

        self.client = BlockingKernelClient(connection_file=str(self.connection_file))
        self.client.load_connection_file()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=START_MS / 1000)
        self.reaper = psutil.Process(self.process.pid).children()[0]
        self.kernel = self.reaper.children()[0]

    def spawn_escapees(self) -> list[int]:
        msg_id = self.client.execute(SPAWN_ESCAPEES, user_expressions={
            "pids": "[detached.pid, daemon]"})
        reply = self.client.get_shell_msg(timeout=60)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.client.get_shell_msg(timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]
        pids = json.loads(reply["content"]["user_expressions"]["pids"]["data"]["text/plain"])
        assert all(running(pid) for pid in pids)
        return pids

    def close(self) -> None:
        self.client.stop_channels()
        for process in (self.kernel, self.reaper):
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        self.process.kill()
        self.process.wait()
        self.process.stdout.close()


def next_launch_sweeps() -> None:
    """What the next examdesk does first (``runtime_dir()``'s first use sweeps), in its own
    process."""
    subprocess.run([sys.executable, "-c", "from question_db import kernels; "
                    "kernels.runtime_dir()"], cwd=REPO, check=True, timeout=60)


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_a_killed_examdesk_takes_its_kernels_escapees_along(runtime_root):
    app = StandInApp()
    pids: list[int] = []
    try:
        pids = app.spawn_escapees()
        app.process.send_signal(signal.SIGKILL)  # no clean-up runs in examdesk
        app.process.wait(30)
        assert settle(lambda: not any(running(pid) for pid in pids)), pids
        assert settle(lambda: not running(app.kernel.pid) and not running(app.reaper.pid))
        next_launch_sweeps()  # the connection file, sockets and log it left
        assert not [p.name for p in (runtime_root / kernels.RUNTIME_FOLDER).iterdir()
                    if f"-{app.process.pid}-" in p.name]
    finally:
        app.close()
        kill_all(pids)


def test_the_next_launch_kills_what_a_killed_reaper_left(runtime_root):
    """examdesk, the reaper and the kernel all killed at once (a crashed session, the OOM
    killer taking the lot): the orphans went to init; the next examdesk kills them, by the
    reaper's record."""
    app = StandInApp()
    pids: list[int] = []
    try:
        pids = app.spawn_escapees()
        record = kernels.reaper_record(app.connection_file)
        assert kernel_reaper.read_record(record)["kernel"]["pid"] == app.kernel.pid
        kill_all([app.reaper.pid, app.kernel.pid, app.process.pid])  # the reaper first
        app.process.wait(30)
        assert settle(lambda: not running(app.reaper.pid))
        time.sleep(0.3)
        assert all(running(pid) for pid in pids)  # nobody was left to kill them
        next_launch_sweeps()
        assert settle(lambda: not any(running(pid) for pid in pids), timeout=5), pids
        assert not record.exists()
    finally:
        app.close()
        kill_all(pids)


def test_the_sweep_never_kills_a_reused_pid():
    """A record whose pids now name other processes (started later, no token): untouched."""
    bystander = subprocess.Popen(["sleep", "30"])
    try:
        folder = kernels.runtime_dir()
        started = kernel_reaper.start_time(bystander.pid)
        dead_app = subprocess.Popen([sys.executable, "-c", "pass"])
        dead_app.wait()
        record = {"examdesk": {"pid": dead_app.pid, "start": 1},
                  "reaper": {"pid": bystander.pid, "start": started - 1},
                  "kernel": {"pid": bystander.pid, "start": started - 1},
                  "token": "0" * 32}
        path = folder / f"kernel-{dead_app.pid}-{'a' * 12}.pids"
        path.write_text(json.dumps(record))
        kernels.sweep_stale_files(folder)
        assert not path.exists()
        time.sleep(0.1)
        assert running(bystander.pid)
    finally:
        bystander.kill()
        bystander.wait()
